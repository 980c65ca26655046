//! Vacations: `/tablut vacation start days:N` · `end` · `status`. The member's clocks stand
//! still in all their games, in every server; each game's channel is told by the outbox. The
//! answers are the member's alone.

use crate::bot::caller::caller;
use crate::bot::reply::private;
use crate::bot::Context;
use crate::bot::{messages, Error};

/// `/tablut vacation`: the vacations' group.
#[poise::command(
    slash_command,
    subcommands("start", "end", "status"),
    subcommand_required
)]
pub(crate) async fn vacation(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// `/tablut vacation start`: the caller's clocks stopped for up to `days`.
#[poise::command(slash_command)]
pub(crate) async fn start(ctx: Context<'_>, days: u32) -> Result<(), Error> {
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

/// `/tablut vacation end`: the caller's clocks running again.
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

/// `/tablut vacation status`: the caller's vacation and allowance left.
#[poise::command(slash_command)]
pub(crate) async fn status(ctx: Context<'_>) -> Result<(), Error> {
    let me = ctx.author().id.get();
    let status = ctx.data().service.vacations().status(me).await?;
    ctx.send(private(messages::vacation_status(&status)))
        .await?;
    Ok(())
}
