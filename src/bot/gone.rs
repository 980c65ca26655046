//! Channels deleted and servers left: the gateway's CHANNEL_DELETE, THREAD_DELETE and
//! GUILD_DELETE (all under the GUILDS intent, the one the bot asks for) end or pause what they
//! held at once (see `service::gone`), rather than when the next post finds the channel gone.

use super::{redact, Data, Error, InFlight};
use crate::service::Gone;
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;

/// Handles `event` if it is a channel's or thread's deletion or the server's removal; says
/// whether it was one.
pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> bool {
    let data = framework.user_data;
    let done = match event {
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            // Deleting a channel deletes its threads, and Discord sends no THREAD_DELETE for
            // them: the threads the cache knows (the active ones) go with it. (The service adds
            // the threads made for a challenge in the channel, archived or not.)
            let threads: Vec<u64> = framework
                .serenity_context
                .cache
                .guild(channel.guild_id)
                .map(|guild| {
                    guild
                        .threads
                        .iter()
                        .filter(|t| t.parent_id == Some(channel.id))
                        .map(|t| t.id.get())
                        .collect()
                })
                .unwrap_or_default();
            let _counted = InFlight::enter(&data.in_flight);
            let gone = data
                .service
                .games()
                .channel_deleted(channel.id.get(), &threads)
                .await;
            Some(("channel deleted", channel.id.get(), gone))
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            let _counted = InFlight::enter(&data.in_flight);
            let gone = data
                .service
                .games()
                .channel_deleted(thread.id.get(), &[])
                .await;
            Some(("thread deleted", thread.id.get(), gone))
        }
        serenity::FullEvent::GuildDelete { incomplete, .. } if incomplete.unavailable => {
            // An outage: the server comes back with a GUILD_CREATE, and nothing is ended.
            tracing::info!(guild = %incomplete.id, "server unavailable (an outage): its games go on");
            None
        }
        serenity::FullEvent::GuildDelete { incomplete, .. } => {
            let _counted = InFlight::enter(&data.in_flight);
            let gone = data.service.games().left_guild(incomplete.id.get()).await;
            Some(("removed from the server", incomplete.id.get(), gone))
        }
        _ => return false,
    };
    if let Some((what, id, gone)) = done {
        match gone {
            Ok(Gone {
                aborted,
                paused,
                withdrawn,
                dropped,
            }) => tracing::info!(
                id,
                aborted = aborted.len(),
                paused = paused.len(),
                withdrawn,
                dropped,
                "{what}: its games ended or paused"
            ),
            Err(e) => {
                tracing::error!(id, error = %redact::error(&e), "{what}: could not end what it held")
            }
        }
    }
    data.removals.fetch_add(1, Ordering::SeqCst);
    true
}
