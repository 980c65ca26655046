//! `/tablut privacy` and `/tablut forget-me`.

use super::*;

/// `/tablut privacy`'s answer, with the file of `rows` rows.
pub fn privacy_text(rows: usize) -> String {
    format!(
        "Everything the bot stores about you is in the attached file: {}, table by table, as \
         stored. /tablut forget-me deletes it.",
        counted(rows, "row", "rows")
    )
}

/// `/tablut privacy`'s answer when the file is beyond what Discord takes.
pub fn privacy_too_large(bytes: usize) -> String {
    format!(
        "What the bot stores about you is too large to send here ({} MB): ask the bot's \
         operator for it.",
        bytes.div_ceil(1024 * 1024)
    )
}

/// `/tablut forget-me`'s question, above its button.
pub fn forget_me_question() -> String {
    format!(
        "Forget you? In every server, your ratings, puzzle ratings and puzzle tries are \
         deleted, and in your finished games, closed challenges and finished tournaments \
         your name and id become **{}** (the games stay whole: their records, replays and your opponents' ratings do \
         not change). This cannot be undone. Press **Forget me** to go ahead, or dismiss this \
         message to keep everything.",
        FORMER_PLAYER_NAME
    )
}

/// What `/tablut forget-me` did, shown in place of its question.
pub fn forgotten_text(done: &crate::service::privacy::Forgotten) -> String {
    format!(
        "Done: the bot has forgotten you. Deleted: {}, {} and {}; {} now played by **{}**. \
         Messages already posted in channels stay as Discord shows them.",
        counted(done.ratings, "rating", "ratings"),
        counted(done.puzzle_ratings, "puzzle rating", "puzzle ratings"),
        counted(done.puzzle_tries, "puzzle try", "puzzle tries"),
        counted(done.games, "finished game", "finished games"),
        FORMER_PLAYER_NAME
    )
}
