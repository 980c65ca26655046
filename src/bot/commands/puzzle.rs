//! Puzzles: `/tablut puzzle play` · `today` · `move` · `leaderboard` · `daily`.

use super::{board_reply, caller, is_admin, private, reply, Context};
use crate::bot::{messages, Error};
use crate::service::puzzle::{DailyBoard, PuzzleAnswer, PuzzleRatings, PuzzleView};
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

/// A reply with the board, for the caller alone when it is about the daily puzzle (its
/// answers are not for the others to see).
fn puzzle_reply(text: String, png: Vec<u8>, day: Option<i64>) -> poise::CreateReply {
    board_reply(text, png)
        .ephemeral(day.is_some())
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}

/// Sends an answer's reply, then records that it was shown. Until then the service keeps the
/// answer and gives it again at the next `move` or `play`: an answer whose reply fails (or
/// whose sending the bot's stop cut short) is shown then, rated once.
async fn show_answer(ctx: Context<'_>, answer: PuzzleAnswer) -> Result<(), Error> {
    let key = answer.key();
    let day = answer.day();
    let (text, png) = answer_message(answer);
    ctx.send(puzzle_reply(text, png, day)).await?;
    if let Err(e) = ctx.data().service.puzzle_answer_shown(key).await {
        // Shown, but not recorded as shown: the player may see it once more.
        tracing::warn!(error = %e, "cannot record a puzzle answer as shown");
    }
    Ok(())
}

/// Your puzzle: the one you are solving, or a new one near your puzzle rating.
#[poise::command(slash_command, guild_only)]
pub async fn play(ctx: Context<'_>) -> Result<(), Error> {
    // First, the last answer if its reply was not shown.
    let service = &ctx.data().service;
    if let Some(answer) = service
        .unshown_puzzle_answer(guild(ctx), ctx.author().id.get())
        .await?
    {
        return show_answer(ctx, answer).await;
    }
    let view = ctx.data().service.puzzle(guild(ctx), &caller(ctx)).await?;
    let text = view_message(&view);
    let day = view.day;
    ctx.send(puzzle_reply(text, view.png, day)).await?;
    Ok(())
}

/// Today's puzzle of this server, for everyone: your try, seen by you alone (one a day).
#[poise::command(slash_command, guild_only)]
pub async fn today(ctx: Context<'_>) -> Result<(), Error> {
    let view = ctx
        .data()
        .service
        .daily_puzzle(guild(ctx), &caller(ctx), None)
        .await?;
    let text = view_message(&view);
    ctx.send(puzzle_reply(
        text,
        view.png,
        Some(view.day.unwrap_or_default()),
    ))
    .await?;
    Ok(())
}

/// Autocomplete: the legal moves of your puzzle's position that match what you typed.
async fn puzzle_moves(ctx: Context<'_>, typed: &str) -> serenity::CreateAutocompleteResponse {
    let moves = ctx
        .data()
        .service
        .suggest_puzzle_moves(guild(ctx), ctx.author().id.get(), typed, 25)
        .await
        .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(serenity::AutocompleteChoice::from)
            .collect(),
    )
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
    let answer = ctx
        .data()
        .service
        .puzzle_move(guild(ctx), &caller(ctx), &notation)
        .await?;
    show_answer(ctx, answer).await
}

/// This server's best puzzle solvers.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    let lines = ctx
        .data()
        .service
        .puzzle_leaderboard(guild(ctx), 20)
        .await?;
    let daily = ctx.data().service.daily_board(guild(ctx)).await?;
    let mut text = daily.as_ref().map(daily_line).unwrap_or_default();
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
    ctx.send(reply(text).allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
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
    let had = service
        .set_daily_puzzle_channel(guild(ctx), chosen, ctx.author().id.get())
        .await?;
    let text = match (chosen, had) {
        (Some(c), _) => format!(
            "The daily puzzle will be posted in {} once a day.",
            messages::channel(c)
        ),
        (None, true) => "The daily puzzle is stopped.".to_string(),
        (None, false) => {
            "There was no daily puzzle to stop: name a channel to start one.".to_string()
        }
    };
    ctx.send(private(text)).await?;
    Ok(())
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

/// The answer's words and board.
pub fn answer_message(answer: PuzzleAnswer) -> (String, Vec<u8>) {
    match answer {
        PuzzleAnswer::Continue { played, view, .. } => {
            let text = format!("**{played}** is right.\n{}", view_message(&view));
            (text, view.png)
        }
        PuzzleAnswer::Solved {
            played,
            ratings,
            png,
            ..
        } => (
            format!("**{played}**: solved!{}", ratings_line(&ratings)),
            png,
        ),
        PuzzleAnswer::Failed {
            played,
            solution,
            ratings,
            png,
            ..
        } => (
            format!(
                "**{played}** is not it: the move was **{solution}**.{}",
                ratings_line(&ratings)
            ),
            png,
        ),
    }
}
