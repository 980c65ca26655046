//! Who asks and where, as the service knows them: the place of a command, the person behind a
//! Discord user (with the name this server shows), and what the calling member may do.

use super::Context;
use crate::service::{Place, User};
use poise::serenity_prelude as serenity;

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

/// Who pressed a button, with the name this server shows (their nickname, if any).
pub fn presser(press: &serenity::ComponentInteraction) -> User {
    let mut u = person(&press.user);
    if let Some(nick) = press.member.as_ref().and_then(|m| m.nick.clone()) {
        u.name = nick;
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
