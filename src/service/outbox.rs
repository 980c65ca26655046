//! The outbox: everything the bot owes a channel (the AI's moves, reminders, losses on time,
//! expired challenges, a game's first post in its thread, and the news of every change a
//! command or a button press makes, shown by editing the interaction's original response) is a
//! row written in the transaction of the change that causes it. One dispatcher (in the bot)
//! takes the due rows from here and delivers them in order within a channel (its policy, when
//! to try again and when to give up, is the bot's: `bot::delivery::policy`). What follows for
//! the domain is here, each a call of its own: the news delivered, to be tried again, refused or
//! given up; the channel gone (its game aborted) or refusing the bot (its game's clock stopped).

use super::context::{parse_rules, stored_start, Context};
use super::news::News;
use super::types::{
    ChallengeId, ChannelId, ClockEvent, Ended, GameId, GameInfo, Player, User, UserId,
};
use super::{Service, ServiceError};
use crate::store::games::GameRow;
use crate::store::outbox::{self as rows, NewNotice, NoticeRow, Settle};
use crate::store::{challenges, games, moves, Connection, StoreError, Write};
use crate::tafl::{Game, Outcome, Reason};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// An outbox row's id.
pub type NoticeId = i64;

/// How the outbox times the rows it keeps (the bot's delivery policy sets them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxTimes {
    /// How long the news of a change made by an interaction is left to the interaction's
    /// handler, whose edit shows it, before the dispatcher sends the same edit (it does at once
    /// when the handler's edit fails). Only a crash leaves a notice this long: whichever edit
    /// arrives, the news shows once.
    pub answer_grace: Duration,
    /// Delivered notices, and notices given up, are deleted this long after.
    pub retention: Duration,
    /// How long a dispatcher's claim on a notice keeps every other process from it: the
    /// attempt renews it every third of this while it goes on, so only a process that cannot
    /// reach the database (or died) loses it; then another may post the notice too, with the
    /// same nonce, and what the late attempt records is nothing ([`Notice::claim`]).
    pub claim_lease: Duration,
}

impl Default for OutboxTimes {
    fn default() -> OutboxTimes {
        OutboxTimes {
            answer_grace: Duration::from_secs(21),
            retention: Duration::from_secs(72 * 3600),
            claim_lease: Duration::from_secs(41),
        }
    }
}

/// The board a notice carries, drawn at delivery (images are not stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardRef {
    pub game: GameId,
    /// The position after this many plies.
    pub ply: u32,
    pub caption: String,
}

/// What a notice carries, as stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Payload {
    /// What it tells (the bot words it at delivery). Read into [`Notice::news`]. (Rows written
    /// before notices were typed, which held their words, were given [`News::Worded`] by
    /// migration 0024.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub news: Option<News>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardRef>,
    /// Edit this message (and remove its buttons) instead of posting; if it is gone, post.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit: Option<u64>,
    /// The interaction whose original response shows this notice, edited by its handler or by
    /// the dispatcher while its handle serves; past that, the notice is posted. Removed once the
    /// notice is delivered or given up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<AnswerRef>,
    /// A puzzle's start to draw (the daily puzzle), when `board` is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<PuzzleBoardRef>,
    /// The buttons the message carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buttons: Option<Buttons>,
    /// Edit the message an earlier notice of the channel became (the progress of an
    /// analysis); if it has none, or it is gone, post.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_notice: Option<NoticeId>,
    /// The evaluation graph of a game's analysis, drawn at delivery from the stored analysis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<super::analysis::GraphRef>,
    /// For its interaction's caller alone (a daily puzzle's answer): shown only by editing the
    /// interaction's (private) response, never posted in the channel; past the answer's life
    /// ([`ANSWER_LIFE`]) it is given up.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

/// A puzzle's start position a notice carries, drawn at delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleBoardRef {
    pub puzzle: i64,
    pub caption: String,
    /// The position this many plies into the puzzle's line (its start: 0)...
    #[serde(default, skip_serializing_if = "is_zero")]
    pub plies: u32,
    /// ...then this move played (an answer off the line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The buttons a notice's message carries (the bot draws them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Buttons {
    /// Accept / Decline / Cancel a challenge.
    Challenge(ChallengeId),
    /// Accept / Decline the draw offered in a game.
    Draw(GameId),
    /// Solve the daily puzzle of this day (days since the Unix epoch).
    DailyPuzzle(i64),
}

impl Payload {
    /// A notice of its news alone.
    pub fn news(news: News) -> Payload {
        Payload {
            news: Some(news),
            ..Payload::default()
        }
    }

    /// A notice with the board of `game` as it stands (drawn at delivery).
    pub fn with_board(news: News, game: &GameInfo) -> Payload {
        Payload {
            board: Some(BoardRef {
                game: game.id,
                ply: game.ply,
                caption: game.status_line(),
            }),
            ..Payload::news(news)
        }
    }
}

/// How long after a notice is written its interaction's response may be edited: Discord's 15
/// minutes from the interaction (the life of the bot's handle on the response), less a minute
/// for the time before the notice was written and requests under way.
pub const ANSWER_LIFE: Duration = Duration::from_secs(14 * 60);

/// The interaction whose original response shows a notice's news: the deferred answer to a
/// command, or the message whose button was pressed. The bot makes the handle on that response
/// and reads it; the service keeps it, with when it stops serving.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerRef {
    /// The bot's handle on the response (it lets the bot edit it: never logged). Rows written
    /// before the handle was the bot's alone were given it by migration 0024; one without any
    /// (empty) is posted instead.
    #[serde(default)]
    pub reply: String,
    /// When the handle stops serving (Unix ms, the database's clock), set when the notice is
    /// written ([`ANSWER_LIFE`] after; rows written before it was recorded were given it by
    /// migration 0024).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
}

impl AnswerRef {
    /// The bot's handle on an interaction's response.
    pub fn new(reply: String) -> AnswerRef {
        AnswerRef {
            reply,
            expires_at: None,
        }
    }

    /// Whether the handle can still be used at `now` (not before its end is recorded).
    pub fn alive_at(&self, now: i64) -> bool {
        self.expires_at.is_some_and(|end| now < end)
    }
}

impl std::fmt::Debug for AnswerRef {
    /// Never the handle.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnswerRef(<redacted>, {:?})", self.expires_at)
    }
}

/// The interaction that acknowledged a change (a command or a button press, deferred): the
/// change's news is written to the outbox with it, and shown by editing the interaction's
/// original response, by its handler ([`Outbox::news_delivered`] records it shown) or by the
/// dispatcher, which sends the same edit if the handler did not record it (after the notice's
/// hold, or at once after [`Outbox::answer_failed`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answering {
    /// The interaction.
    pub answer: Option<AnswerRef>,
    /// The message whose button was pressed: past the handle's life, a notice without a board
    /// edits it (its buttons removed) rather than posting anew.
    pub message: Option<u64>,
}

impl Answering {
    /// The held notice's payload: `payload`, remembering the interaction.
    pub(crate) fn payload(&self, payload: Payload) -> Payload {
        Payload {
            answer: self.answer.clone(),
            edit: match payload.board {
                Some(_) => None,
                None => self.message,
            },
            ..payload
        }
    }
}

/// A notice to deliver.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub id: NoticeId,
    pub channel: ChannelId,
    /// `move`, `ended`, `reminder`, `timeout`, `challenge_expired`, `game_started`,
    /// `channel_gone`.
    pub kind: String,
    /// Sent with the post, with `enforce_nonce`: the same on every attempt.
    pub nonce: String,
    /// Attempts made before this one (claimed, whether or not their outcome was recorded):
    /// any of them may have reached Discord.
    pub attempts: u32,
    /// The claim this process holds on it for this attempt (its count of attempts), if it was
    /// claimed: what the attempt records holds only while that claim does, and the attempt
    /// renews it ([`Outbox::renew`]). None: read, not claimed (an interaction's handler).
    pub claim: Option<u32>,
    /// When it was written (Unix ms, the database's clock).
    pub created_at: i64,
    /// Why the last attempt failed, if one did.
    pub failure: Option<String>,
    /// What it tells, for the bot to word.
    pub news: News,
    /// What it carries besides (its news taken out into `news`).
    pub payload: Payload,
}

/// A duration in milliseconds, as stored times are (saturating).
pub(crate) fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// A nonce for a post: 24 random letters and digits (Discord allows 25).
fn nonce() -> String {
    std::iter::repeat_with(fastrand::alphanumeric)
        .take(24)
        .collect()
}

/// Whether `channel` owes news to be posted ([`Outbox::owes`]), read in a transaction.
async fn owes_posts(conn: &mut Connection, channel: ChannelId) -> Result<bool, ServiceError> {
    Ok(rows::owes_posts(&mut *conn, channel).await?)
}

/// A stored notice (`claimed`: as claimed for an attempt, which its row counts already), or
/// why its payload cannot be read.
fn notice(row: NoticeRow, claimed: bool) -> Result<Notice, String> {
    let mut payload: Payload = serde_json::from_str(&row.payload)
        .map_err(|e| format!("the stored payload cannot be read: {e}"))?;
    let news = payload
        .news
        .take()
        .ok_or("the stored payload tells nothing")?;
    Ok(Notice {
        id: row.id,
        channel: row.channel_id,
        kind: row.kind,
        nonce: row.nonce,
        attempts: row.attempts.saturating_sub(u32::from(claimed)),
        claim: claimed.then_some(row.attempts),
        created_at: row.created_at,
        failure: row.failure,
        news,
        payload,
    })
}

impl Context {
    /// Writes a notice for `channel` in the caller's transaction: held for its interaction's
    /// answer for `hold`, if it is not zero, else pending and due at once. Call
    /// [`Context::wake_outbox`] once the transaction has committed.
    pub(crate) async fn enqueue(
        &self,
        conn: &mut Connection,
        channel: ChannelId,
        kind: &str,
        payload: &Payload,
        hold: Duration,
    ) -> Result<NoticeId, ServiceError> {
        let now = self.database_now_on(conn).await?;
        let mut payload = payload.clone();
        if let Some(answer) = &mut payload.answer {
            answer.expires_at = Some(now.saturating_add(millis(ANSWER_LIFE)));
        }
        let payload = serde_json::to_string(&payload).expect("a payload serializes");
        Ok(rows::insert(
            &mut *conn,
            &NewNotice {
                channel_id: channel,
                kind,
                payload: &payload,
                nonce: &nonce(),
                now,
                next_attempt_at: now + hold.as_millis() as i64,
                held: !hold.is_zero(),
            },
        )
        .await?)
    }

    /// Tells the dispatcher that notices may be due (after a commit that wrote some).
    pub(crate) fn wake_outbox(&self) {
        self.outbox_wake.notify_one();
    }

    /// Commits a transaction whose change is told through `notice`, written in it, lets the
    /// next writer in, and wakes the dispatcher; a commit whose outcome is unknown is looked
    /// up first ([`Context::commit_answered`]).
    pub(crate) async fn commit_noticed(
        &self,
        tx: Write<'_>,
        notice: NoticeId,
    ) -> Result<(), ServiceError> {
        self.commit_answered(tx, Some(notice), || async { Ok(false) })
            .await
    }

    /// Commits a transaction that changed what a player is told about, with the notice that
    /// tells it (if it wrote one), as [`Context::commit_or_look`] does: a commit whose outcome
    /// is unknown is looked up before anything is told. A transaction that wrote a notice is
    /// found by that notice's id and nonce (its id alone could be another notice's: SQLite
    /// gives the ids of a transaction rolled back out again); one that wrote none, by
    /// `changed`, a read of the change it made.
    pub(crate) async fn commit_answered<F, Fut>(
        &self,
        mut tx: Write<'_>,
        notice: Option<NoticeId>,
        changed: F,
    ) -> Result<(), ServiceError>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<bool, StoreError>>,
    {
        let written = match notice {
            Some(id) => rows::nonce(&mut *tx, id).await?.map(|nonce| (id, nonce)),
            None => None,
        };
        let (written, changed) = (&written, &changed);
        self.commit_or_look(tx, move || async move {
            match written {
                Some((id, nonce)) => {
                    Ok(rows::nonce(self.store.read(), *id).await?.as_ref() == Some(nonce))
                }
                None => changed().await,
            }
        })
        .await
    }
}

/// The outbox as the bot's delivery sees it ([`Service::outbox`]): the notices due and claimed,
/// the boards they carry, how each attempt went, and what follows for a channel that is gone or
/// refuses the bot.
#[derive(Clone, Copy)]
pub struct Outbox<'a> {
    cx: &'a Context,
}

impl Service {
    /// The outbox, for the bot's delivery.
    pub fn outbox(&self) -> Outbox<'_> {
        Outbox { cx: &self.cx }
    }
}

impl Outbox<'_> {
    /// What the dispatcher waits on besides the time of the next due notice.
    pub fn wake_signal(self) -> Arc<tokio::sync::Notify> {
        self.cx.outbox_wake.clone()
    }

    /// The notices due at `now` (Unix ms, the database's clock): each channel's next owed one,
    /// if its time has come (a channel's later notice waits for its earlier one). Oldest first.
    /// A notice that cannot be read is left out (the dispatcher's claim gives it up).
    pub async fn due(self, now: i64, limit: u32) -> Result<Vec<Notice>, ServiceError> {
        Ok(rows::due(self.cx.store.read(), now, limit)
            .await?
            .into_iter()
            .filter_map(|row| notice(row, false).ok())
            .collect())
    }

    /// When the next notice falls due (Unix ms), if one is pending.
    pub async fn next_due_at(self) -> Result<Option<i64>, ServiceError> {
        Ok(rows::next_due(self.cx.store.read()).await?)
    }

    /// Notice `id` as stored, if it is there and can be read.
    pub async fn notice(self, id: NoticeId) -> Result<Option<Notice>, ServiceError> {
        Ok(rows::by_id(self.cx.store.read(), id)
            .await?
            .and_then(|row| notice(row, false).ok()))
    }

    /// The message notice `id` became, once delivered.
    pub async fn notice_message(self, id: NoticeId) -> Result<Option<u64>, ServiceError> {
        Ok(rows::by_id(self.cx.store.read(), id)
            .await?
            .and_then(|n| n.message_id))
    }

    /// The notices due at `now`, as [`Outbox::due`] chooses them, claimed for this
    /// process's attempt at them: no other process takes them before the policy's
    /// `claim_lease` is over (nor this one: it records how each attempt went, which sets when
    /// the next is due). A process that dies with notices claimed leaves them due again at the
    /// lease's end.
    pub async fn claim(self, now: i64, limit: u32) -> Result<Vec<Notice>, ServiceError> {
        let until = now + millis(self.cx.delivery.claim_lease);
        let mut writing = self.cx.store.lock().await?;
        let rows =
            rows::claim_due(writing.ex(), self.cx.store.backend(), now, until, limit).await?;
        drop(writing);
        let mut notices = Vec::with_capacity(rows.len());
        for row in rows {
            let (id, channel) = (row.id, row.channel_id);
            match notice(row, true) {
                Ok(n) => notices.push(n),
                // One row that cannot be read fails alone: the rest are delivered, and so is
                // the channel's next notice.
                Err(e) => {
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
        let before = now.saturating_sub(millis(self.cx.delivery.retention));
        let mut writing = self.cx.store.lock().await?;
        Ok(rows::prune(writing.ex(), before).await?)
    }

    /// Draws the board a notice carries.
    pub async fn board(self, board: &BoardRef) -> Result<Vec<u8>, ServiceError> {
        let row = games::by_id(self.cx.store.read(), board.game)
            .await?
            .ok_or(ServiceError::NoGame)?;
        let moves = moves::of_game(self.cx.store.read(), row.id).await?;
        let rules = parse_rules(&row.rules)?;
        let mut game = Game::from_position(stored_start(row.start.as_ref(), rules)?);
        for m in moves.iter().take(board.ply as usize) {
            game.play_text(&m.notation).map_err(|e| {
                ServiceError::Internal(format!("game {}: stored '{}': {e}", row.id, m.notation))
            })?;
        }
        self.cx
            .image(
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
        let mut writing = self.cx.store.lock().await?;
        let settled = rows::settle(writing.ex(), self.cx.store.backend(), id, to, claim).await?;
        drop(writing);
        if !matches!(to, Settle::Retry { .. }) {
            self.cx.wake_outbox();
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
        let until = self.cx.database_now().await? + millis(self.cx.delivery.claim_lease);
        let mut writing = self.cx.store.lock().await?;
        Ok(rows::renew(writing.ex(), notice.id, claim, until).await?)
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
        let now = self.cx.database_now().await?;
        self.settle(id, Settle::Release { now }, None).await?;
        Ok(())
    }

    /// Whether `channel` still owes news that will be posted (the AI's move or a reminder being
    /// retried, or waiting behind an earlier notice): a response made to an interaction now
    /// would stand above it, out of the game's order. A command that would show its change in
    /// its response asks this before it acknowledges (after the checks that read the game), and
    /// if so acknowledges privately and leaves its news to be posted after the owed news.
    pub async fn owes(self, channel: ChannelId) -> Result<bool, ServiceError> {
        Ok(rows::owes_posts(self.cx.store.read(), channel).await?)
    }

    /// `notice` is shown (as `message`, when known), by the dispatcher or by its interaction's
    /// handler: it is not sent again, and the channel's next notice may go. Returns whether
    /// this recorded it (see [`Notice::claim`]).
    pub async fn news_delivered(
        self,
        notice: &Notice,
        message: Option<u64>,
    ) -> Result<bool, ServiceError> {
        let now = self.cx.database_now().await?;
        let mut writing = self.cx.store.lock().await?;
        // A challenge posted by the outbox: its message is the one to edit later.
        if let (Some(Buttons::Challenge(id)), Some(message)) = (notice.payload.buttons, message) {
            challenges::set_message(writing.ex(), id, message).await?;
        }
        // A puzzle's answer shown: its try does not give it again.
        super::puzzle::answer_delivered(writing.ex(), &notice.news).await?;
        // The news that gave a player the turn shown: their time starts now.
        if let Some(game) = notice.news.turn_given() {
            games::start_clock_shown(writing.ex(), game, notice.id, now).await?;
        }
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

    /// `channel` is gone: its game, if one is running, is aborted (unrated; returned), and said
    /// so in the channel its thread came from, if any.
    pub async fn channel_gone(
        self,
        channel: ChannelId,
    ) -> Result<Option<Box<Ended>>, ServiceError> {
        match games::active_in_channel(self.cx.store.read(), channel).await? {
            Some(row) => self.cx.abort_in_gone_channel(row, &[]).await,
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
        let Some(row) = games::active_in_channel(self.cx.store.read(), channel).await? else {
            return Ok(None);
        };
        let mut writing = self.cx.store.lock().await?;
        Ok(Some((
            row.id,
            games::stop_clock(writing.ex(), row.id).await?,
        )))
    }
}

impl Context {
    /// `answering` as the news of a change written now in `channel` (held for `hold`) may use
    /// it: a command's response is made when it is acknowledged, so if the channel owes news to
    /// be posted (the AI's move being retried, say), that response stands above it, out of the
    /// game's order; the news is then posted after it instead (no interaction, no hold: the
    /// handler, finding its answer not held for it, takes its response back). A press's
    /// response is the pressed message, in place already.
    pub(crate) async fn in_order(
        &self,
        conn: &mut Connection,
        channel: ChannelId,
        answering: Answering,
        hold: Duration,
    ) -> Result<(Answering, Duration), ServiceError> {
        let command = answering.answer.is_some() && answering.message.is_none();
        if command && owes_posts(conn, channel).await? {
            return Ok((Answering::default(), Duration::ZERO));
        }
        Ok((answering, hold))
    }

    /// A game's channel is gone: the game is aborted (unrated; returned, unless it ended
    /// meanwhile), and where the game came from a challenge in another channel (a thread), that
    /// channel is told, unless it is among `gone` (deleted with it).
    pub(crate) async fn abort_in_gone_channel(
        &self,
        row: GameRow,
        gone: &[ChannelId],
    ) -> Result<Option<Box<Ended>>, ServiceError> {
        let Some(loaded) = self.load_or_skip(row).await else {
            return Ok(None);
        };
        let outcome = Outcome::Drawn {
            reason: Reason::Aborted,
        };
        match self
            .commit_end(loaded, outcome, Announce::ChannelGone(gone.to_vec()))
            .await
        {
            Ok(ended) => Ok(Some(Box::new(ended))),
            Err(ServiceError::PositionChanged | ServiceError::GameOver) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes what a game's ending owes a channel; returns the notice its interaction's
    /// answer is to show, if the answer is held for.
    pub(crate) async fn announce_end(
        &self,
        conn: &mut Connection,
        ended: &Ended,
        announce: Announce,
    ) -> Result<Option<NoticeId>, ServiceError> {
        match announce {
            Announce::Answer => {}
            Announce::Held { by, answering } => {
                // The player who resigned or aborted; a moderator who aborted, by id.
                let by = by.map(|u| match ended.game.side_of(u) {
                    Some(side) => ended.game.player(side).clone(),
                    None => Player::User(User::new(u, String::new())),
                });
                let news = News::Ended {
                    ended: ended.clone(),
                    by,
                };
                let channel = ended.game.place.channel;
                let grace = self.delivery.answer_grace;
                let (answering, hold) = self.in_order(conn, channel, answering, grace).await?;
                let payload = answering.payload(Payload::with_board(news, &ended.game));
                let id = self.enqueue(conn, channel, "ended", &payload, hold).await?;
                return Ok(Some(id));
            }
            Announce::TimedOut => {
                let news = News::Clock(ClockEvent::TimedOut(ended.clone()));
                let payload = Payload::with_board(news, &ended.game);
                let channel = ended.game.place.channel;
                self.enqueue(conn, channel, "timeout", &payload, Duration::ZERO)
                    .await?;
            }
            Announce::ChannelGone(gone) => {
                let parent = challenges::by_game(&mut *conn, ended.game.id)
                    .await?
                    .map(|c| c.channel_id)
                    .filter(|&c| c != ended.game.place.channel && !gone.contains(&c));
                if let Some(parent) = parent {
                    let payload = Payload::news(News::ChannelGone(ended.game.clone()));
                    self.enqueue(conn, parent, "channel_gone", &payload, Duration::ZERO)
                        .await?;
                }
            }
        }
        Ok(None)
    }
}

/// Who tells the channel about a game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Announce {
    /// The player's interaction answers it, and nothing else does.
    Answer,
    /// The player's command or press shows it by editing its response; its notice is held for
    /// that edit, which the dispatcher sends again if the handler does not record it (`by`: the
    /// player who resigned or aborted; `answering`: the interaction).
    Held {
        by: Option<UserId>,
        answering: Answering,
    },
    /// The clock: a loss on time, through the outbox.
    TimedOut,
    /// The channel is gone: said in the channel the game's thread came from, if any and if it
    /// is not among these (gone too).
    ChannelGone(Vec<ChannelId>),
}
