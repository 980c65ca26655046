//! The slash commands: `/tablut …` (one module per topic) and `/move`.

pub mod analysis;
pub mod look;
pub mod notify;
pub mod play;
pub mod privacy;
pub mod puzzle;
pub mod records;
pub mod start;
pub mod tournament;
pub mod vacation;

use super::protocol::command::invocation;
use super::{Context, Data, Error};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![tablut(), play::move_()]
}

/// Tablut, the Sámi game of the king's escape.
#[poise::command(
    slash_command,
    subcommands(
        "start::challenge",
        "start::ai",
        "look::board",
        "play::resign",
        "play::draw",
        "play::hint",
        "look::history",
        "look::replay",
        "look::rules",
        "play::abort",
        "look::stats",
        "look::leaderboard",
        "look::games",
        "puzzle::puzzle",
        "analysis::analysis",
        "privacy::privacy",
        "privacy::forget_me",
        "records::export",
        "records::import",
        "tournament::tournament",
        "vacation::vacation",
        "notify::notify"
    ),
    subcommand_required
)]
pub(crate) async fn tablut(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// The per-user rate, counted once per command: poise runs the check for each command of
/// `/tablut sub` (the group and the subcommand), and the invocation remembers it was counted.
/// Autocomplete is not a use: it is not counted.
pub async fn within_rate(ctx: Context<'_>) -> Result<bool, Error> {
    if let poise::Context::Application(a) = ctx {
        if a.interaction_type == poise::CommandInteractionType::Autocomplete {
            return Ok(true);
        }
    }
    if invocation(ctx, |i| std::mem::replace(&mut i.counted, true)).await {
        return Ok(true);
    }
    ctx.data().service.limits().command(ctx.author().id.get())?;
    Ok(true)
}
