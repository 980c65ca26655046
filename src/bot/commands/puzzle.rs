//! Puzzles: `/tablut puzzle play` · `today` · `move` · `leaderboard` · `daily`.

use crate::bot::caller::{caller, is_admin};
use crate::bot::protocol::command::{answer_privately, change_as, interaction, show};
use crate::bot::reply::{board_reply, choices, reply};
use crate::bot::Context;
use crate::bot::{messages, Error};
use crate::service::puzzle::{DailyBoard, PuzzleAnswer, PuzzleRatings, PuzzleView, ReplyTo};
use crate::service::ServiceError;
use poise::serenity_prelude as serenity;

/// Puzzles from real games: find the move that wins, or the only one that saves the game.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("play", "today", "move_", "leaderboard", "daily"),
    subcommand_required
)]
pub async fn puzzle(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn guild(ctx: Context<'_>) -> u64 {
    ctx.guild_id().map_or(0, |g| g.get())
}

/// A reply with the board, for the caller alone when `private` (the daily puzzle's are not
/// for the others to see).
fn puzzle_reply(text: String, png: Vec<u8>, private: bool) -> poise::CreateReply {
    board_reply(text, png)
        .ephemeral(private)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}

/// The interaction a puzzle's answer is given to: this command's deferred response, private
/// or not.
fn reply_to(ctx: Context<'_>, private: bool) -> Option<ReplyTo> {
    interaction(ctx).map(|answer| ReplyTo {
        channel: ctx.channel_id().get(),
        answer,
        private,
    })
}

/// Whether the answer or puzzle the caller is about to be shown is the daily puzzle's, for
/// them alone (`typed`: the move they answer with). Read before the command is acknowledged,
/// so that the acknowledgement is private when the answer will be; if it cannot be read, it is
/// taken as private (nothing private is shown to the channel).
async fn private_answer(ctx: Context<'_>, typed: Option<&str>) -> bool {
    let service = &ctx.data().service;
    service
        .puzzles()
        .answer_private(guild(ctx), ctx.author().id.get(), typed)
        .await
        .unwrap_or(true)
}

/// Shows an answer given to this command's interaction: its notice, written with it, edits the
/// deferred response (and the dispatcher sends the same edit if this one fails; past the
/// token's life a public answer is posted in the channel, a private one is given again by the
/// next `/tablut puzzle play` or `move`). Once shown, the try does not give it again.
async fn show_answer(ctx: Context<'_>, answer: PuzzleAnswer) {
    if let Some(notice) = answer.key().notice {
        show(ctx, notice, answer.png().to_vec()).await;
    }
}

/// What `/tablut puzzle play` shows.
enum Shown {
    /// The last answer, whose reply was not shown, given again.
    Answer(PuzzleAnswer),
    /// The puzzle under way, or a new one.
    Puzzle(PuzzleView),
}

/// Shows a puzzle to this command's caller: through its notice when showing it started a try
/// (see [`show_answer`]); else (the try under way, shown again: nothing changed, and asking
/// again shows the same) directly, for the caller alone when it is the daily puzzle or the
/// response is private.
async fn show_puzzle(ctx: Context<'_>, view: PuzzleView, private: bool) -> Result<(), Error> {
    if let Some(notice) = view.notice {
        show(ctx, notice, view.png).await;
        return Ok(());
    }
    let alone = private || view.day.is_some();
    let reply = puzzle_reply(view_message(&view), view.png, alone);
    if alone {
        // The daily puzzle, even if acknowledged in public: for the caller alone all the same.
        answer_privately(ctx, reply).await;
    } else {
        ctx.send(reply).await?;
    }
    Ok(())
}

/// Your puzzle: the one you are solving, or a new one near your puzzle rating.
#[poise::command(slash_command, guild_only)]
pub async fn play(ctx: Context<'_>) -> Result<(), Error> {
    let private = private_answer(ctx, None).await;
    let service = &ctx.data().service;
    let to = reply_to(ctx, private);
    let shown = async {
        // First, the last answer if its reply was not shown: given again through a notice of
        // its own, as a new answer is.
        if let Some(answer) = service
            .puzzles()
            .unshown_answer(guild(ctx), ctx.author().id.get(), to.as_ref())
            .await?
        {
            return Ok(Shown::Answer(answer));
        }
        let me = caller(ctx);
        let view = service.puzzles().puzzle(guild(ctx), &me, to.as_ref()).await;
        view.map(Shown::Puzzle)
    };
    // Nothing to refuse before: a puzzle is always shown (one is found, or none is there).
    let check = std::future::ready(Ok(()));
    match change_as(ctx, private, check, shown).await? {
        Some(Shown::Answer(answer)) => show_answer(ctx, answer).await,
        Some(Shown::Puzzle(view)) => show_puzzle(ctx, view, private).await?,
        // Committed, and a step after failed: the dispatcher shows it.
        None => {}
    }
    Ok(())
}

/// Today's puzzle of this server, for everyone: your try, seen by you alone (one a day).
#[poise::command(slash_command, guild_only)]
pub async fn today(ctx: Context<'_>) -> Result<(), Error> {
    // Private, whatever it answers.
    let to = reply_to(ctx, true);
    let service = &ctx.data().service;
    let me = caller(ctx);
    let puzzles = service.puzzles();
    let check = puzzles.check_daily_puzzle(guild(ctx), me.id, None);
    let daily = puzzles.daily_puzzle(guild(ctx), &me, None, to.as_ref());
    if let Some(view) = change_as(ctx, true, check, daily).await? {
        show_puzzle(ctx, view, true).await?;
    }
    Ok(())
}

/// The daily post's button, Solve today's puzzle: the presser's try at `day`'s puzzle, in a
/// response of its own for them alone (deferred by the press's handler; the post stays as it
/// is). A try started is shown through its notice, as `/tablut puzzle today` shows it; the try
/// under way is shown again by editing that response directly (nothing changed).
pub(crate) async fn daily_press(
    http: &serenity::Http,
    press: &serenity::ComponentInteraction,
    data: &crate::bot::Data,
    day: i64,
) -> Result<PuzzleView, ServiceError> {
    let presser = crate::bot::caller::presser(press);
    let to = ReplyTo {
        channel: press.channel_id.get(),
        answer: crate::bot::delivery::answer_ref(press.application_id.get(), &press.token),
        private: true,
    };
    let guild = press.guild_id.map_or(0, |g| g.get());
    let view = data
        .service
        .puzzles()
        .daily_puzzle(guild, &presser, Some(day), Some(&to));
    let view = view.await?;
    if view.notice.is_none() {
        let mut edit = serenity::EditInteractionResponse::new()
            .content(messages::fit(view_message(&view)))
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if !view.png.is_empty() {
            let png = serenity::CreateAttachment::bytes(view.png.clone(), "board.png");
            edit = edit.new_attachment(png);
        }
        if let Err(e) = press.edit_response(http, edit).await {
            tracing::warn!(error = %crate::bot::redact::error(&e), "could not show the daily try under way");
        }
    }
    Ok(view)
}

/// Autocomplete: the legal moves of your puzzle's position that match what you typed.
async fn puzzle_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let service = &ctx.data().service;
    let moves = service
        .puzzles()
        .suggest_moves(guild(ctx), ctx.author().id.get(), typed, 25);
    choices(moves.await)
}

/// Answer your puzzle with a move, like e1-e3.
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "The move, like e1-e3 (a square lists its moves)"]
    #[autocomplete = "puzzle_moves"]
    #[max_length = 40]
    notation: String,
) -> Result<(), Error> {
    // The daily puzzle's answers are acknowledged, shown and refused privately; the others in
    // the channel.
    let private = private_answer(ctx, Some(&notation)).await;
    let to = reply_to(ctx, private);
    let service = &ctx.data().service;
    let (puzzles, me) = (service.puzzles(), caller(ctx));
    let answer = change_as(
        ctx,
        private,
        puzzles.check_puzzle_move(guild(ctx), me.id, &notation),
        puzzles.puzzle_move(guild(ctx), &me, &notation, to.as_ref()),
    )
    .await?;
    if let Some(answer) = answer {
        show_answer(ctx, answer).await;
    }
    Ok(())
}

/// This server's best puzzle solvers.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    let lines = ctx
        .data()
        .service
        .puzzles()
        .leaderboard(guild(ctx), 20)
        .await?;
    let daily = ctx.data().service.puzzles().daily_board(guild(ctx)).await?;
    let text = leaderboard_text(daily.as_ref(), &lines);
    ctx.send(reply(text).allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
}

/// The puzzles' leaderboard: the day's line, then the server's best puzzle solvers by rating.
pub fn leaderboard_text(
    daily: Option<&DailyBoard>,
    lines: &[crate::service::puzzle::PuzzlePlayer],
) -> String {
    let mut text = daily.map(daily_line).unwrap_or_default();
    if lines.is_empty() {
        text.push_str("No puzzle ratings in this server yet: solve one with /tablut puzzle play.");
    } else {
        text.push_str("**Puzzle leaderboard**");
        for (i, l) in lines.iter().enumerate() {
            text.push_str(&format!(
                "\n{}. {} {:.0} ± {:.0} ({} solved, {} failed)",
                i + 1,
                messages::escape(&crate::echo::echo(&l.name)),
                l.rating.rating,
                2.0 * l.rating.deviation,
                l.solved,
                l.failed
            ));
        }
    }
    text
}

/// Set the channel for the daily puzzle (Manage Server); leave it out to stop it.
#[poise::command(slash_command, guild_only)]
pub async fn daily(
    ctx: Context<'_>,
    #[description = "Where to post a puzzle every day (leave out to stop)"]
    #[channel_types("Text")]
    channel: Option<serenity::GuildChannel>,
) -> Result<(), Error> {
    if !is_admin(ctx) {
        return Err(ServiceError::NotAnAdmin.into());
    }
    let service = &ctx.data().service;
    let chosen = channel.as_ref().map(|c| c.id.get());
    // The setting and its notice commit together; the notice is the (private) answer.
    let to = reply_to(ctx, true);
    let by = ctx.author().id.get();
    let set = service
        .puzzles()
        .set_daily_channel(guild(ctx), chosen, by, to.as_ref());
    let check = std::future::ready(Ok(()));
    if let Some((_, Some(notice))) = change_as(ctx, true, check, set).await? {
        show(ctx, notice, Vec::new()).await;
    }
    Ok(())
}

/// What `/tablut puzzle daily` answers: the daily puzzle's `channel` named, or (none) the
/// daily puzzle stopped, or there was none (`had`).
pub fn daily_channel_text(channel: Option<u64>, had: bool) -> String {
    match (channel, had) {
        (Some(c), _) => format!(
            "The daily puzzle will be posted in {} once a day.",
            messages::channel(c)
        ),
        (None, true) => "The daily puzzle is stopped.".to_string(),
        (None, false) => {
            "There was no daily puzzle to stop: name a channel to start one.".to_string()
        }
    }
}

/// How long a try took, to the second: "42 s", "3 min 5 s", "2 h 10 min".
fn took_words(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s} s"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, m, _) => format!("{h} h {m} min"),
    }
}

/// How many of the day's solvers its line names.
const DAY_LINE_SOLVERS: usize = 10;

/// The day's line: who solved today's puzzle (mentioned, not pinged), quickest first, and
/// how many tried and did not.
pub fn daily_line(board: &DailyBoard) -> String {
    let solved: Vec<String> = board
        .results
        .iter()
        .filter(|r| r.solved)
        .enumerate()
        .map(|(i, r)| format!("{}. <@{}> {}", i + 1, r.user_id, took_words(r.took_ms)))
        .collect();
    let missed = board.results.len() - solved.len();
    // The quickest ten, so the line leaves room for the ratings below.
    let (solved, more) = match solved.len().checked_sub(DAY_LINE_SOLVERS) {
        Some(more) if more > 0 => (solved[..DAY_LINE_SOLVERS].to_vec(), more),
        _ => (solved, 0),
    };
    let mut text = format!(
        "**Today's puzzle** (puzzle {}, in {}): ",
        board.puzzle_id,
        messages::channel(board.channel)
    );
    if board.results.is_empty() {
        text.push_str(
            "nobody has answered it yet: press **Solve today's puzzle** on its post, or use /tablut puzzle today.",
        );
    } else if solved.is_empty() {
        text.push_str("nobody has solved it yet");
    } else {
        text.push_str(&format!("solved by {}", solved.join(" · ")));
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
    }
    if missed > 0 {
        text.push_str(&format!(
            "{}{missed} not solved.",
            if solved.is_empty() { ": " } else { "; " }
        ));
    } else if !solved.is_empty() {
        text.push('.');
    }
    text.push('\n');
    text
}

/// The puzzle as asked: its task, and after a reply, the reply.
pub fn view_message(view: &PuzzleView) -> String {
    let mut text = String::new();
    if let Some(reply) = &view.reply {
        text.push_str(&format!("Right! The reply: **{reply}**.\n"));
    }
    text.push_str(&format!(
        "**{}Puzzle {}** (rated {:.0}{}): {}\nAnswer with /tablut puzzle move.",
        if view.day.is_some() {
            "Today's puzzle · "
        } else {
            ""
        },
        view.puzzle_id,
        view.rating,
        if view.rated {
            ""
        } else {
            ", a repeat: unrated"
        },
        view.task()
    ));
    text
}

fn ratings_line(r: &Option<PuzzleRatings>) -> String {
    match r {
        Some(r) => format!(
            "\nYour puzzle rating: {:.0} → {:.0} · the puzzle's: {:.0} → {:.0}",
            r.player.0.rating, r.player.1.rating, r.puzzle.0.rating, r.puzzle.1.rating
        ),
        None => "\nYou had tried this puzzle before: the ratings stay as they were.".to_string(),
    }
}

/// The answer's words.
pub fn answer_text(answer: &PuzzleAnswer) -> String {
    match answer {
        PuzzleAnswer::Continue { played, view, .. } => {
            format!("**{played}** is right.\n{}", view_message(view))
        }
        PuzzleAnswer::Solved {
            played, ratings, ..
        } => format!("**{played}**: solved!{}", ratings_line(ratings)),
        PuzzleAnswer::Failed {
            played,
            solution,
            ratings,
            ..
        } => format!(
            "**{played}** is not it: the move was **{solution}**.{}",
            ratings_line(ratings)
        ),
    }
}
