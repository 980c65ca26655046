//! The outbox: everything the bot owes a channel (the AI's moves, reminders, losses on time,
//! expired challenges, a game's first post in its thread, and the news of every change a
//! command or a button press makes, shown by editing the interaction's original response) is a
//! row written in the transaction of the change that causes it. One dispatcher (in the bot)
//! takes the due rows from here and delivers them in order within a channel (its policy, when
//! to try again and when to give up, is the bot's: `bot::delivery::policy`). What follows for
//! the domain is here, each a call of its own: the news delivered, to be tried again, refused or
//! given up; the channel gone (its game aborted) or refusing the bot (its game's clock stopped).

use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::notice::{millis, BoardRef, Notice, Payload};
use super::stored::games as stored_games;
use super::stored::notices::{message_of, notice, Unreadable};
use super::stored::notify as stored_notify;
use super::types::notify::DmsRefused;
use super::types::{ChannelId, Ended, GameId, NoticeId, Player};
use crate::store::outbox::{self as rows, Settle};
use crate::store::{games, notify};
use std::sync::Arc;

/// The outbox as the bot's delivery sees it (`Service::outbox`): the notices due and claimed,
/// the boards they carry, how each attempt went, and what follows for a channel that is gone or
/// refuses the bot.
#[derive(Clone, Copy)]
pub struct Outbox<'a> {
    core: &'a Core,
}

impl<'a> Outbox<'a> {
    pub(crate) fn new(core: &'a Core) -> Outbox<'a> {
        Outbox { core }
    }
}

impl Outbox<'_> {
    /// What the dispatcher waits on besides the time of the next due notice.
    pub fn wake_signal(self) -> Arc<tokio::sync::Notify> {
        self.core.outbox_wake.clone()
    }

    /// The notices due at `now` (Unix ms, the database's clock): each channel's next owed one,
    /// if its time has come (a channel's later notice waits for its earlier one). Oldest first.
    /// A notice that cannot be read is left out (the dispatcher's claim gives it up).
    pub async fn due(self, now: i64, limit: u32) -> Result<Vec<Notice>, ServiceError> {
        Ok(rows::due(self.core.store.read(), now, limit)
            .await?
            .into_iter()
            .filter_map(|row| notice(row, false).ok())
            .collect())
    }

    /// When the next notice falls due (Unix ms), if one is pending.
    pub async fn next_due_at(self) -> Result<Option<i64>, ServiceError> {
        Ok(rows::next_due(self.core.store.read()).await?)
    }

    /// The message notice `id` became, once delivered.
    pub async fn notice_message(self, id: NoticeId) -> Result<Option<u64>, ServiceError> {
        Ok(message_of(self.core.store.read(), id).await?)
    }

    /// The notices due at `now`, as [`Outbox::due`] chooses them, claimed for this
    /// process's attempt at them: no other process takes them before the policy's
    /// `claim_lease` is over (nor this one: it records how each attempt went, which sets when
    /// the next is due). A process that dies with notices claimed leaves them due again at the
    /// lease's end.
    pub async fn claim(self, now: i64, limit: u32) -> Result<Vec<Notice>, ServiceError> {
        let until = now + millis(self.core.delivery.claim_lease);
        let mut writing = self.core.store.lock().await?;
        let rows =
            rows::claim_due(writing.ex(), self.core.store.backend(), now, until, limit).await?;
        drop(writing);
        let mut notices = Vec::with_capacity(rows.len());
        for row in rows {
            match notice(row, true) {
                Ok(n) => notices.push(n),
                // One row that cannot be read fails alone: the rest are delivered, and so is
                // the channel's next notice.
                Err(Unreadable {
                    id,
                    channel,
                    why: e,
                }) => {
                    tracing::error!(notice = id, channel, error = %e, "a notice cannot be read: given up");
                    self.settle(id, Settle::Unreadable(&e), None).await?;
                }
            }
        }
        Ok(notices)
    }

    /// Deletes the notices delivered (or given up) more than the retention period before
    /// `now` (Unix ms, the database's clock). Returns how many went.
    pub async fn prune(self, now: i64) -> Result<u64, ServiceError> {
        let before = now.saturating_sub(millis(self.core.delivery.retention));
        let mut writing = self.core.store.lock().await?;
        Ok(rows::prune(writing.ex(), before).await?)
    }

    /// Draws the board a notice carries.
    pub async fn board(self, board: &BoardRef) -> Result<Vec<u8>, ServiceError> {
        let game = self.core.game_at(board.game, board.ply).await?;
        self.core
            .image_captioned(
                *game.position(),
                game.moves().last().copied(),
                board.caption.clone(),
            )
            .await
    }

    /// Settles notice `id` as `to` says, if `claim` (the attempt's, if it claimed the notice)
    /// still holds, and, unless it is to be tried again later, wakes the dispatcher: the
    /// channel's next notice (the AI's reply, say) may have waited for it, or it is due now.
    /// Returns whether it settled the notice: not for a late attempt whose claim another
    /// process took, nor for a notice no longer owed.
    async fn settle(
        self,
        id: NoticeId,
        to: Settle<'_>,
        claim: Option<u32>,
    ) -> Result<bool, ServiceError> {
        let mut writing = self.core.store.lock().await?;
        let settled = rows::settle(writing.ex(), self.core.store.backend(), id, to, claim).await?;
        drop(writing);
        if !matches!(to, Settle::Retry { .. }) {
            self.core.wake_outbox();
        }
        Ok(settled)
    }

    /// Renews this process's claim on `notice` for another lease (the policy's `claim_lease`
    /// from now), while its attempt goes on: drawing its board, waiting for the heavy-work gate
    /// or for Discord's rate limit included. Returns whether the claim still held (false: it
    /// ran out and another process took the notice, or the notice was not claimed).
    pub async fn renew(self, notice: &Notice) -> Result<bool, ServiceError> {
        let Some(claim) = notice.claim else {
            return Ok(false);
        };
        let until = self.core.database_now().await? + millis(self.core.delivery.claim_lease);
        let mut writing = self.core.store.lock().await?;
        Ok(rows::renew(writing.ex(), notice.id, claim, until).await?)
    }

    /// Gives back this process's claim on `notice`, whose attempt never began (the dispatcher
    /// stops while it waits for its channel): due again at once, for the next start or another
    /// process, rather than at its lease's end. Returns whether the claim still held.
    pub async fn unclaim(self, notice: &Notice) -> Result<bool, ServiceError> {
        let Some(claim) = notice.claim else {
            return Ok(false);
        };
        let now = self.core.database_now().await?;
        let mut writing = self.core.store.lock().await?;
        Ok(rows::unclaim(writing.ex(), notice.id, claim, now).await?)
    }

    /// The handler's edit showing notice `id` failed: the dispatcher sends it now (an edit
    /// shows once, however often it is sent), without waiting for the rest of the hold.
    pub async fn answer_failed(self, id: NoticeId) -> Result<(), ServiceError> {
        self.not_answered(id).await
    }

    /// No interaction's response shows notice `id` (its answer is private, or it came after
    /// news its channel still owed): the dispatcher posts it now, in the channel's order,
    /// without waiting for the rest of its hold.
    pub async fn not_answered(self, id: NoticeId) -> Result<(), ServiceError> {
        let now = self.core.database_now().await?;
        self.settle(id, Settle::Release { now }, None).await?;
        Ok(())
    }

    /// Whether `channel` still owes news that will be posted (the AI's move or a reminder being
    /// retried, or waiting behind an earlier notice): a response made to an interaction now
    /// would stand above it, out of the game's order. A command that would show its change in
    /// its response asks this before it acknowledges (after the checks that read the game), and
    /// if so acknowledges privately and leaves its news to be posted after the owed news.
    pub async fn owes(self, channel: ChannelId) -> Result<bool, ServiceError> {
        Ok(rows::owes_posts(self.core.store.read(), channel).await?)
    }

    /// `notice` is shown (as `message`, when known), by the dispatcher or by its interaction's
    /// handler: it is not sent again, and the channel's next notice may go. Returns whether
    /// this recorded it (see [`Notice::claim`]).
    pub async fn news_delivered(
        self,
        notice: &Notice,
        message: Option<u64>,
    ) -> Result<bool, ServiceError> {
        let now = self.core.database_now().await?;
        let mut writing = self.core.store.lock().await?;
        self.core
            .notice_shown(writing.ex(), notice, message, now)
            .await?;
        drop(writing);
        let message_id = message;
        let to = Settle::Delivered { message_id, now };
        self.settle(notice.id, to, notice.claim).await
    }

    /// `notice` is to be tried again at `at` (Unix ms, the database's clock), the last attempt
    /// having failed for `reason`. Returns whether this recorded it (see [`Notice::claim`]).
    pub async fn news_retry_at(
        self,
        notice: &Notice,
        at: i64,
        reason: &str,
    ) -> Result<bool, ServiceError> {
        let failure = reason;
        let to = Settle::Retry { at, failure };
        self.settle(notice.id, to, notice.claim).await
    }

    /// `notice` will never be shown, for `reason`: recorded as failed, and the channel's next
    /// notice may go. What follows for the channel is the caller's to say
    /// ([`Outbox::channel_gone`], [`Outbox::channel_refuses`]), if this recorded it (returned;
    /// see [`Notice::claim`]).
    pub async fn news_failed(self, notice: &Notice, reason: &str) -> Result<bool, ServiceError> {
        let to = Settle::Failed(reason);
        self.settle(notice.id, to, notice.claim).await
    }

    /// `notice` was refused for good, for `reason`: recorded as failed and, if a player could
    /// lose on time for never seeing it (a move, a reminder, a game's start), the clock of the
    /// channel's game is stopped (returned); the next move starts it again. Nothing, if this
    /// did not record it (see [`Notice::claim`]).
    pub async fn news_refused(
        self,
        notice: &Notice,
        reason: &str,
    ) -> Result<Option<GameId>, ServiceError> {
        if !self.news_failed(notice, reason).await? || !notice.news.on_the_clock() {
            return Ok(None);
        }
        let stopped = self.stop_clock_in(notice.channel).await?;
        Ok(stopped.and_then(|(game, was_running)| was_running.then_some(game)))
    }

    /// `notice` was tried for too long without success, the last time failing for `reason`:
    /// recorded as failed, and the channel's game (returned, if one is running) has its clock
    /// stopped, as for a channel that refuses the bot, so nobody loses on time for news they
    /// never saw; the game goes on with /move.
    pub async fn news_given_up(
        self,
        notice: &Notice,
        reason: &str,
    ) -> Result<Option<GameId>, ServiceError> {
        if !self.news_failed(notice, reason).await? {
            return Ok(None);
        }
        self.channel_refuses(notice.channel).await
    }

    /// Discord refuses `notice`'s member direct messages (its code 50007), for `reason`: the
    /// notice is recorded failed (if its claim holds: else nothing, and `None`); then, in one
    /// transaction, the member's notifications are turned off, their other direct messages
    /// still waiting are given up, and, if this turned them off (so once, however many of
    /// their messages are refused), the channel of the message's game (a digest's first) is
    /// told. Returns whether this turned them off.
    pub async fn dms_refused(
        self,
        notice: &Notice,
        reason: &str,
    ) -> Result<Option<bool>, ServiceError> {
        if !self.news_failed(notice, reason).await? {
            return Ok(None);
        }
        let Some(user) = notice.news.direct_to() else {
            return Ok(Some(false));
        };
        let game = match &notice.news {
            News::TurnDm(dm) => Some(dm.game.clone()),
            News::Digest(digest) => digest.games.first().map(|w| w.game.clone()),
            _ => None,
        };
        let mut tx = self.core.store.write().await?;
        let now = self.core.database_now_on(&mut tx).await?;
        let off = notify::turn_off_refused(&mut *tx, user, now).await?;
        let why = "direct messages refused: notifications turned off";
        rows::drop_waiting_in(&mut *tx, user, why).await?;
        let mut told = None;
        let named = game.and_then(|game| {
            let side = game.side_of(user)?;
            match game.player(side).clone() {
                Player::User(user) => Some((user, game)),
                Player::Ai(_) => None,
            }
        });
        if let (true, Some((user, game))) = (off, named) {
            let channel = game.place.channel;
            let payload = Payload::news(News::DmsRefused(DmsRefused { user, game }));
            let kind = "dms_refused";
            told = Some(
                (self.core)
                    .notice(channel, kind, &payload)
                    .write(&mut tx, now)
                    .await?
                    .id,
            );
        }
        let turned_off = || async move {
            let row = stored_notify::of_user(self.core.store.read(), user).await?;
            Ok(row.is_some_and(|r| r.refused_at() == Some(now)))
        };
        self.core.commit_answered(tx, told, turned_off).await?;
        Ok(Some(off))
    }

    /// `channel` is gone: its game, if one is running, is aborted (unrated; returned), and said
    /// so in the channel its thread came from, if any.
    pub async fn channel_gone(
        self,
        channel: ChannelId,
    ) -> Result<Option<Box<Ended>>, ServiceError> {
        match stored_games::active_in_channel(self.core.store.read(), channel).await? {
            Some(row) => self.core.abort_in_gone_channel(row, &[]).await,
            None => Ok(None),
        }
    }

    /// `channel` refuses the bot: its game, if one is running, has its clock stopped
    /// (returned); the next move starts it again.
    pub async fn channel_refuses(self, channel: ChannelId) -> Result<Option<GameId>, ServiceError> {
        Ok(self.stop_clock_in(channel).await?.map(|(game, _)| game))
    }

    /// Stops the clock of the game running in `channel`, if any: the game, and whether its
    /// clock was running.
    async fn stop_clock_in(
        self,
        channel: ChannelId,
    ) -> Result<Option<(GameId, bool)>, ServiceError> {
        let Some(row) = stored_games::active_in_channel(self.core.store.read(), channel).await?
        else {
            return Ok(None);
        };
        let mut writing = self.core.store.lock().await?;
        Ok(Some((
            row.id(),
            games::stop_clock(writing.ex(), row.id()).await?,
        )))
    }
}
