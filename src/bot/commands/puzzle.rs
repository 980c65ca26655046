//! Puzzles: `/tablut puzzle play` · `move` · `leaderboard` · `daily`.

use super::{board_reply, caller, is_admin, private, reply, Context};
use crate::bot::{messages, Error};
use crate::service::puzzle::{PuzzleAnswer, PuzzleRatings, PuzzleView};
use crate::service::ServiceError;
use poise::serenity_prelude as serenity;

/// Puzzles from real games: find the move that wins, or the only one that saves the game.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("play", "move_", "leaderboard", "daily"),
    subcommand_required
)]
pub async fn puzzle(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

fn guild(ctx: Context<'_>) -> u64 {
    ctx.guild_id().map_or(0, |g| g.get())
}

/// Your puzzle: the one you are solving, or a new one near your puzzle rating.
#[poise::command(slash_command, guild_only)]
pub async fn play(ctx: Context<'_>) -> Result<(), Error> {
    let view = ctx.data().service.puzzle(guild(ctx), &caller(ctx)).await?;
    let text = view_message(&view);
    ctx.send(board_reply(text, view.png).allowed_mentions(serenity::CreateAllowedMentions::new()))
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
    let (text, png) = answer_message(answer);
    ctx.send(board_reply(text, png).allowed_mentions(serenity::CreateAllowedMentions::new()))
        .await?;
    Ok(())
}

/// This server's best puzzle solvers.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    let lines = ctx
        .data()
        .service
        .puzzle_leaderboard(guild(ctx), 20)
        .await?;
    let text = if lines.is_empty() {
        "No puzzle ratings in this server yet: solve one with /tablut puzzle play.".to_string()
    } else {
        let mut text = "**Puzzle leaderboard**".to_string();
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
        text
    };
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

/// The puzzle as asked: its task, and after a reply, the reply.
pub fn view_message(view: &PuzzleView) -> String {
    let mut text = String::new();
    if let Some(reply) = &view.reply {
        text.push_str(&format!("Right! The reply: **{reply}**.\n"));
    }
    text.push_str(&format!(
        "**Puzzle {}** (rated {:.0}{}): {}\nAnswer with /tablut puzzle move.",
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
        PuzzleAnswer::Continue { played, view } => {
            let text = format!("**{played}** is right.\n{}", view_message(&view));
            (text, view.png)
        }
        PuzzleAnswer::Solved {
            played,
            ratings,
            png,
        } => (
            format!("**{played}**: solved!{}", ratings_line(&ratings)),
            png,
        ),
        PuzzleAnswer::Failed {
            played,
            solution,
            ratings,
            png,
        } => (
            format!(
                "**{played}** is not it: the move was **{solution}**.{}",
                ratings_line(&ratings)
            ),
            png,
        ),
    }
}
