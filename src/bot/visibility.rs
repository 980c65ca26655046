//! Which channels a member can see, from the permissions Discord gives: the server's roles and
//! each channel's overwrites (kept in serenity's cache from the gateway, or asked of Discord's
//! API when a channel is not there), computed by serenity's `user_permissions_in` for the
//! member the interaction names. A thread is seen through its parent channel (a private thread
//! only by its players and by those who may manage threads there). When a channel cannot be
//! told, it counts as not seen: a listing leaves out what it cannot vouch for.

use super::{Context, Error};
use crate::service::{GameInfo, Service};
use poise::serenity_prelude as serenity;
use std::collections::HashMap;

/// Who looks, and from where: the caller of a command, or the presser of a button (the
/// caller's pages of a listing are pressed by the caller alone: the listing is for its caller's
/// eyes only, and each page is worked out again for whoever presses).
pub struct Viewer<'a> {
    pub cache: &'a serenity::Cache,
    pub http: &'a serenity::Http,
    pub guild: Option<serenity::GuildId>,
    /// The channel the command was used in (a press: the channel of the pressed message). It
    /// is seen.
    pub here: serenity::ChannelId,
    /// The member, as the interaction names them with their permissions.
    pub member: Option<&'a serenity::Member>,
}

impl<'a> Viewer<'a> {
    /// The caller of a command.
    pub fn of_command(ctx: Context<'a>) -> Viewer<'a> {
        Viewer {
            cache: ctx.cache(),
            http: ctx.http(),
            guild: ctx.guild_id(),
            here: ctx.channel_id(),
            member: match ctx {
                poise::Context::Application(a) => a.interaction.member.as_deref(),
                poise::Context::Prefix(_) => None,
            },
        }
    }

    /// The presser of a button.
    pub fn of_press(
        cache: &'a serenity::Cache,
        http: &'a serenity::Http,
        press: &'a serenity::ComponentInteraction,
    ) -> Viewer<'a> {
        Viewer {
            cache,
            http,
            guild: press.guild_id,
            here: press.channel_id,
            member: press.member.as_ref(),
        }
    }
}

/// The games running in server `guild` in the channels `viewer` can see (see
/// [`visible_channels`]), oldest first.
pub async fn visible_games(
    viewer: &Viewer<'_>,
    service: &Service,
    guild: u64,
) -> Result<Vec<GameInfo>, Error> {
    let me = viewer.member.map(|m| m.user.id.get());
    let mut games = service.games().games_in_guild(guild).await?;
    let channels: Vec<(u64, bool)> = games
        .iter()
        .map(|g| {
            (
                g.place.channel,
                me.is_some_and(|me| g.side_of(me).is_some()),
            )
        })
        .collect();
    let seen = visible_channels(viewer, &channels).await;
    games.retain(|g| seen.contains(&g.place.channel));
    Ok(games)
}

/// Channels asked of Discord's API (not in the cache) by one command, at most: the cache holds
/// every channel and active thread the bot's gateway was told of, so these are few; past this
/// many, a channel counts as not seen rather than the command waiting on the API.
pub const MAX_LOOKUPS: usize = 50;

/// The server's roles and owner, from the cache or (when the server is not cached) the API.
enum Roles {
    Cached(Box<serenity::Guild>),
    Fetched(Box<serenity::PartialGuild>),
}

impl Roles {
    fn permissions(
        &self,
        channel: &serenity::GuildChannel,
        member: &serenity::Member,
    ) -> serenity::Permissions {
        match self {
            Roles::Cached(g) => g.user_permissions_in(channel, member),
            Roles::Fetched(g) => g.user_permissions_in(channel, member),
        }
    }
}

fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(
        kind,
        serenity::ChannelType::PublicThread
            | serenity::ChannelType::PrivateThread
            | serenity::ChannelType::NewsThread
    )
}

/// A channel (or thread) of `guild` from the cache.
fn cached(
    cache: &serenity::Cache,
    guild: serenity::GuildId,
    id: serenity::ChannelId,
) -> Option<serenity::GuildChannel> {
    let g = cache.guild(guild)?;
    g.channels
        .get(&id)
        .cloned()
        .or_else(|| g.threads.iter().find(|t| t.id == id).cloned())
}

/// The channels looked up by one command: each channel once, from the cache or (at most
/// [`MAX_LOOKUPS`] times) from the API.
struct Lookup<'a> {
    viewer: &'a Viewer<'a>,
    guild: serenity::GuildId,
    known: HashMap<serenity::ChannelId, Option<serenity::GuildChannel>>,
    asked: usize,
}

impl Lookup<'_> {
    async fn channel(&mut self, id: serenity::ChannelId) -> Option<serenity::GuildChannel> {
        if let Some(found) = self.known.get(&id) {
            return found.clone();
        }
        let found = match cached(self.viewer.cache, self.guild, id) {
            Some(c) => Some(c),
            None if self.asked >= MAX_LOOKUPS => return None,
            None => {
                self.asked += 1;
                match self.viewer.http.get_channel(id).await {
                    Ok(serenity::Channel::Guild(c)) if c.guild_id == self.guild => Some(c),
                    Ok(_) => None,
                    Err(e) => {
                        tracing::warn!(channel = id.get(), error = %e, "cannot read a channel's permissions: its game is not listed");
                        None
                    }
                }
            }
        };
        self.known.insert(id, found.clone());
        found
    }
}

/// Of `channels` (each with whether the caller plays a game there), the ones the calling
/// member can see (View Channel). The channel the command was used in is seen.
pub async fn visible_channels(viewer: &Viewer<'_>, channels: &[(u64, bool)]) -> Vec<u64> {
    let here = viewer.here.get();
    let only_here = || {
        channels
            .iter()
            .filter(|(c, _)| *c == here)
            .map(|(c, _)| *c)
            .collect()
    };
    let (Some(guild), Some(member)) = (viewer.guild, viewer.member) else {
        return only_here();
    };
    let cached_guild = viewer.cache.guild(guild).map(|g| g.clone());
    let roles = match cached_guild {
        Some(g) => Roles::Cached(Box::new(g)),
        None => match guild.to_partial_guild(viewer.http).await {
            Ok(g) => Roles::Fetched(Box::new(g)),
            Err(e) => {
                tracing::warn!(guild = guild.get(), error = %e, "cannot read the server's roles: only this channel's game is listed");
                return only_here();
            }
        },
    };
    let mut lookup = Lookup {
        viewer,
        guild,
        known: HashMap::new(),
        asked: 0,
    };
    let mut out = Vec::new();
    for &(id, plays) in channels {
        if id == here {
            out.push(id);
            continue;
        }
        let Some(channel) = lookup.channel(serenity::ChannelId::new(id)).await else {
            continue;
        };
        let (seen_through, private_thread) = if is_thread(channel.kind) {
            let Some(parent) = channel.parent_id else {
                continue;
            };
            let Some(parent) = lookup.channel(parent).await else {
                continue;
            };
            (parent, channel.kind == serenity::ChannelType::PrivateThread)
        } else {
            (channel, false)
        };
        let permissions = roles.permissions(&seen_through, member);
        if permissions.view_channel() && (!private_thread || plays || permissions.manage_threads())
        {
            out.push(id);
        }
    }
    out
}
