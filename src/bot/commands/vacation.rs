//! Vacations: `/tablut vacation start days:N` · `end` · `status`. The member's clocks stand
//! still in all their games, in every server; each game's channel is told by the outbox. The
//! answers are the member's alone.

use crate::bot::caller::caller;
use crate::bot::reply::private;
use crate::bot::Context;
use crate::bot::{messages, Error};

/// Stop your clocks in all your games while you are away, within a yearly allowance.
#[poise::command(
    slash_command,
    subcommands("start", "end", "status"),
    subcommand_required
)]
pub(crate) async fn vacation(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Go on vacation: your clocks stop in all your games, in every server, for up to this many days.
#[poise::command(slash_command)]
pub(crate) async fn start(
    ctx: Context<'_>,
    #[description = "For how many days at most (your allowance left: /tablut vacation status)"]
    days: u32,
) -> Result<(), Error> {
    let me = caller(ctx);
    let vacations = ctx.data().service.vacations();
    // Refused at once, privately, before anything is acknowledged or written.
    vacations.check_start(me.id, days).await?;
    ctx.defer_ephemeral().await?;
    let started = vacations.start(&me, days).await?;
    ctx.send(private(messages::vacation_started(&started)))
        .await?;
    Ok(())
}

/// Come back from vacation: your clocks run again with the time they had left.
#[poise::command(slash_command)]
pub(crate) async fn end(ctx: Context<'_>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let vacations = ctx.data().service.vacations();
    vacations.check_end(me).await?;
    ctx.defer_ephemeral().await?;
    let ended = vacations.end(me).await?;
    ctx.send(private(messages::vacation_ended(&ended))).await?;
    Ok(())
}

/// Whether you are on vacation, and the days of your allowance left.
#[poise::command(slash_command)]
pub(crate) async fn status(ctx: Context<'_>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let status = ctx.data().service.vacations().status(me).await?;
    ctx.send(private(messages::vacation_status(&status)))
        .await?;
    Ok(())
}
