//! The slash commands: `/tablut …` (one module per topic) and `/move`.

pub mod analysis;
pub mod look;
pub mod play;
pub mod privacy;
pub mod puzzle;
pub mod records;
pub mod start;

use super::{Context, Data, Error};
use crate::service::{Place, User};
use poise::serenity_prelude as serenity;

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
        "records::import"
    ),
    subcommand_required
)]
pub async fn tablut(_: Context<'_>) -> Result<(), Error> {
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

/// What the handling of one command remembers, from its checks to its errors.
#[derive(Debug, Default)]
pub struct Invocation {
    /// Counted against the caller's rate.
    counted: bool,
    /// Acknowledged with a deferred answer that everyone in the channel sees "thinking".
    pub deferred_publicly: bool,
}

/// `f` on what the handling of this command remembers.
pub async fn invocation<R>(ctx: Context<'_>, f: impl FnOnce(&mut Invocation) -> R) -> R {
    if ctx.invocation_data::<Invocation>().await.is_none() {
        ctx.set_invocation_data(Invocation::default()).await;
    }
    let mut data = ctx.invocation_data::<Invocation>().await.expect("just set");
    f(&mut data)
}

/// Where the command was used.
pub fn place(ctx: Context<'_>) -> Place {
    Place {
        guild: ctx.guild_id().map(|g| g.get()),
        channel: ctx.channel_id().get(),
    }
}

/// A Discord user as the service knows them: the id and the name people see.
pub fn person(user: &serenity::User) -> User {
    User::new(
        user.id.get(),
        user.global_name
            .clone()
            .unwrap_or_else(|| user.name.clone()),
    )
}

/// The caller, with the name this server shows (their nickname, if any).
pub fn caller(ctx: Context<'_>) -> User {
    let mut u = person(ctx.author());
    if let poise::Context::Application(a) = ctx {
        if let Some(nick) = a.interaction.member.as_ref().and_then(|m| m.nick.clone()) {
            u.name = nick;
        }
    }
    u
}

/// Whether the caller may moderate the channel's games (Manage Messages).
pub fn is_moderator(ctx: Context<'_>) -> bool {
    member_may(ctx, serenity::Permissions::MANAGE_MESSAGES)
}

/// Whether the caller may change the server's settings (Manage Server).
pub fn is_admin(ctx: Context<'_>) -> bool {
    member_may(ctx, serenity::Permissions::MANAGE_GUILD)
}

/// Whether the calling member has `permission` (or is an administrator) in the channel, as
/// Discord resolved it in the interaction.
fn member_may(ctx: Context<'_>, permission: serenity::Permissions) -> bool {
    match ctx {
        poise::Context::Application(a) => a
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.contains(permission) || p.administrator()),
        poise::Context::Prefix(_) => false,
    }
}

/// A reply with `text`, held within Discord's limit on content, pinging only the users it
/// mentions itself ([`messages::pinged`](super::messages::pinged)).
pub fn reply(text: impl Into<String>) -> poise::CreateReply {
    let text = super::messages::fit(text.into());
    poise::CreateReply::default()
        .allowed_mentions(super::messages::pinged(&text))
        .content(text)
}

/// A message with the board attached, mentioning (and pinging) only the users named in it.
pub fn board_reply(text: String, png: Vec<u8>) -> poise::CreateReply {
    let mut reply = reply(text);
    if !png.is_empty() {
        reply = reply.attachment(serenity::CreateAttachment::bytes(png, "board.png"));
    }
    reply
}

/// A one-line answer for the caller alone.
pub fn private(text: impl Into<String>) -> poise::CreateReply {
    reply(text)
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
}
