//! Channels deleted and servers left, as the gateway reports them (CHANNEL_DELETE,
//! THREAD_DELETE, GUILD_DELETE): what they held ends or pauses at once, as the delivery rules
//! have it for a post that finds the channel gone (*Unknown Channel*: its game aborted) or the
//! bot shut out (*Missing Access*: its game's clock stopped), instead of at the next post.

use super::error::ServiceError;
use super::play::Games;
use super::stored::games as stored;
use super::types::{ChannelId, GameId, GuildId};
use crate::store::{challenges, games, outbox as rows, puzzles};

/// What a deleted channel or a server left ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gone {
    /// Games aborted (unrated): their channel or thread is gone.
    pub aborted: Vec<GameId>,
    /// Games paused: their clock stopped (the bot left their server).
    pub paused: Vec<GameId>,
    /// Open challenges withdrawn.
    pub withdrawn: u64,
    /// Pending notices given up (their channel is gone, or out of the bot's reach).
    pub dropped: u64,
}

/// Why a dropped notice was given up (its `outbox.failure`).
const CHANNEL_DELETED: &str = "the channel was deleted";
const SERVER_LEFT: &str = "the bot left the server";

impl Games<'_> {
    /// Channel `channel` was deleted, and with it `threads` (threads Discord sends no
    /// THREAD_DELETE for, since their parent is gone). Each channel's game, and the game of
    /// every thread made for a challenge in it, is aborted (unrated), and the channel a
    /// thread's challenge was made in is told (unless it is gone too); the open challenges
    /// made in them are withdrawn; their pending notices are given up; a daily puzzle posted
    /// in one stops. One game that cannot be ended is logged and does not hold up the rest.
    pub async fn channel_deleted(
        self,
        channel: ChannelId,
        threads: &[ChannelId],
    ) -> Result<Gone, ServiceError> {
        let mut gone = vec![channel];
        gone.extend(threads.iter().copied());
        let mut games = Vec::new();
        for row in stored::active_in_threads_of(self.core.store.read(), channel).await? {
            gone.push(row.channel());
            games.push(row);
        }
        gone.sort_unstable();
        gone.dedup();
        for &c in &gone {
            if let Some(row) = stored::active_in_channel(self.core.store.read(), c).await? {
                if !games.iter().any(|g| g.id() == row.id()) {
                    games.push(row);
                }
            }
        }
        let mut out = Gone::default();
        for row in games {
            let id = row.id();
            match self.core.abort_in_gone_channel(row, &gone).await {
                Ok(Some(_)) => out.aborted.push(id),
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(game = id, error = ?e, "cannot abort the game of a deleted channel")
                }
            }
        }
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        for &c in &gone {
            out.withdrawn += challenges::withdraw_in_channel(&mut *tx, c, now).await?;
            out.dropped +=
                rows::drop_pending_in(&mut *tx, self.core.store.backend(), c, CHANNEL_DELETED)
                    .await?;
            puzzles::clear_channel_in(&mut *tx, c).await?;
        }
        tx.commit().await?;
        // A later notice of another channel is not held up by these, but the dispatcher may
        // sleep on one of them.
        self.core.wake_outbox();
        Ok(out)
    }

    /// The bot left server `guild` (it was removed, or the server deleted: Discord's
    /// GUILD_DELETE without `unavailable`; an outage is not a leave and changes nothing). Its
    /// games are paused, as for a channel that refuses the bot: their clocks stop, so nobody
    /// loses on time while the bot cannot be reached there, and if the bot is added back the
    /// next move starts the clock again. Its open challenges are withdrawn, and the pending
    /// notices for its channels given up.
    pub async fn left_guild(self, guild: GuildId) -> Result<Gone, ServiceError> {
        let mut out = Gone::default();
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        for row in stored::active_in_guild(&mut *tx, guild).await? {
            games::stop_clock(&mut *tx, row.id()).await?;
            out.paused.push(row.id());
        }
        out.withdrawn = challenges::withdraw_in_guild(&mut *tx, guild, now).await?;
        out.dropped =
            rows::drop_pending_in_guild(&mut *tx, self.core.store.backend(), guild, SERVER_LEFT)
                .await?;
        tx.commit().await?;
        self.core.wake_outbox();
        Ok(out)
    }
}
