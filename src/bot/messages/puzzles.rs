//! Puzzles' words.

/// The daily puzzle, posted in the channel an admin named.
pub fn daily_puzzle(view: &crate::service::puzzle::PuzzleView) -> String {
    format!(
        "Today's puzzle: {} Press **Solve today's puzzle** (or use /tablut puzzle today) for \
         your try, seen by you alone, then answer with /tablut puzzle move. One try each: \
         /tablut puzzle leaderboard shows who solved it.",
        view.task()
    )
}
