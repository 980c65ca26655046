//! A notice, as every part writes it: what the bot owes a channel (or an interaction's
//! response) about a change, written to the outbox in the change's own transaction, with what it
//! carries (its news, the board or graph to draw at delivery, its buttons, the interaction that
//! shows it), the times that hold it, and what showing it settles. The outbox's delivery side
//! (`outbox.rs`) reads them back and records how each attempt went.

use super::core::Core;
use super::error::ServiceError;
use super::news::News;
use super::types::{Caption, ChallengeId, ChannelId, GameId, GameInfo, NoticeId};
use crate::store::outbox::{self as rows, NewNotice};
use crate::store::{challenges, games, puzzles, Connection, StoreError, Write};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    /// Where its news is shown ([`Answer`]): the interaction whose original response shows it,
    /// edited by its handler or by the dispatcher while its handle serves (past that, posted,
    /// or given up if it is private); none: posted. Stored as the keys `answer` (the handle,
    /// removed once the notice is delivered or given up), `private` and `pressed`.
    #[serde(flatten)]
    pub answer: Answer,
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
    pub graph: Option<GraphRef>,
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

/// The graph a notice carries, drawn at delivery from the stored analysis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphRef {
    pub game: GameId,
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
    /// Join / Leave a tournament signing up.
    Tournament(i64),
}

impl Payload {
    /// A notice of its news alone.
    pub fn news(news: News) -> Payload {
        Payload {
            news: Some(news),
            ..Payload::default()
        }
    }
}

impl Core {
    /// A notice with the board of `game` as it stands (drawn at delivery), its caption in the
    /// bot's words.
    pub(crate) fn with_board(&self, news: News, game: &GameInfo) -> Payload {
        Payload {
            board: Some(BoardRef {
                game: game.id,
                ply: game.ply,
                caption: self.caption(&Caption::Game(game)),
            }),
            ..Payload::news(news)
        }
    }
}

/// How long after a notice is written its interaction's response may be edited: Discord's 15
/// minutes from the interaction (the life of the bot's handle on the response), less a minute
/// for the time before the notice was written and requests under way.
pub const ANSWER_LIFE: Duration = Duration::from_secs(14 * 60);

/// The handle on the interaction's response that shows a notice's news ([`Answer`]): the bot
/// makes it and reads it; the service keeps it, with when it stops serving.
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

/// Where a change's news is shown: the interaction that made the change, one value from the
/// handler that makes its handle (and shows the news) through the service's call into the
/// notice's stored row, where the dispatcher reads it if the handler's edit is not recorded
/// (after the notice's hold, or at once after
/// [`Outbox::answer_failed`](super::outbox::Outbox::answer_failed)); the handler records its
/// edit with [`Outbox::news_delivered`](super::outbox::Outbox::news_delivered).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredAnswer", into = "StoredAnswer")]
pub enum Answer {
    /// No interaction's response: the news is posted in the channel.
    #[default]
    None,
    /// The command's deferred response. It is made when the command is acknowledged: if the
    /// channel owes news to be posted when the news is written, the news is posted after that
    /// news instead (`Core::in_order`).
    Command(AnswerRef),
    /// The message whose button was pressed (the interaction's original response), edited
    /// into the news; past the handle's life, a notice without a board edits `message` (its
    /// buttons removed) rather than posting anew.
    Pressed { answer: AnswerRef, message: u64 },
    /// A response for the caller alone (ephemeral: a daily puzzle's, a forgetting's): shown
    /// only by editing it, never posted in the channel; past the handle's life
    /// ([`ANSWER_LIFE`]) the notice is given up.
    Private(AnswerRef),
}

impl Answer {
    /// The handle on the interaction's response, if the news is shown in one.
    pub fn handle(&self) -> Option<&AnswerRef> {
        match self {
            Answer::None => None,
            Answer::Command(answer) | Answer::Private(answer) => Some(answer),
            Answer::Pressed { answer, .. } => Some(answer),
        }
    }

    fn handle_mut(&mut self) -> Option<&mut AnswerRef> {
        match self {
            Answer::None => None,
            Answer::Command(answer) | Answer::Private(answer) => Some(answer),
            Answer::Pressed { answer, .. } => Some(answer),
        }
    }

    /// Whether the news is for the interaction's caller alone.
    pub fn is_private(&self) -> bool {
        matches!(self, Answer::Private(_))
    }

    /// The same response, for the caller alone (none stays none).
    pub fn private(self) -> Answer {
        match self.handle() {
            Some(answer) => Answer::Private(answer.clone()),
            None => Answer::None,
        }
    }

    /// A response made when the interaction is acknowledged (a command's), which stands where
    /// it was made in the channel, rather than a message already in place (a press's).
    fn made_on_acknowledging(&self) -> bool {
        matches!(self, Answer::Command(_) | Answer::Private(_))
    }

    /// `payload`, shown here: past the handle's life, a press's notice without a board edits
    /// the pressed message.
    pub(crate) fn payload(&self, payload: Payload) -> Payload {
        Payload {
            answer: self.clone(),
            edit: match (self, &payload.board) {
                (Answer::Pressed { message, .. }, None) => Some(*message),
                _ => None,
            },
            ..payload
        }
    }
}

/// An [`Answer`] as a notice's payload stores it, beside its other keys: `answer`, the handle
/// (the key the outbox removes once the notice is settled: no handle is kept after that);
/// `private`, for the caller alone; `pressed`, the pressed message. A row holding the first two
/// alone reads as they say; a press's answer without `pressed` reads as a command's, which
/// delivery treats alike (the payload's `edit` names the message).
#[derive(Default, Serialize, Deserialize)]
struct StoredAnswer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer: Option<AnswerRef>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    private: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pressed: Option<u64>,
}

impl From<StoredAnswer> for Answer {
    fn from(stored: StoredAnswer) -> Answer {
        match stored {
            StoredAnswer { answer: None, .. } => Answer::None,
            StoredAnswer {
                answer: Some(answer),
                private: true,
                ..
            } => Answer::Private(answer),
            StoredAnswer {
                answer: Some(answer),
                pressed: Some(message),
                ..
            } => Answer::Pressed { answer, message },
            StoredAnswer {
                answer: Some(answer),
                ..
            } => Answer::Command(answer),
        }
    }
}

impl From<Answer> for StoredAnswer {
    fn from(answer: Answer) -> StoredAnswer {
        match answer {
            Answer::None => StoredAnswer::default(),
            Answer::Command(answer) => StoredAnswer {
                answer: Some(answer),
                ..StoredAnswer::default()
            },
            Answer::Pressed { answer, message } => StoredAnswer {
                answer: Some(answer),
                pressed: Some(message),
                ..StoredAnswer::default()
            },
            Answer::Private(answer) => StoredAnswer {
                answer: Some(answer),
                private: true,
                ..StoredAnswer::default()
            },
        }
    }
}

/// The interaction a puzzle's answer (or a forgetting's news) is given to: its deferred
/// response, in `channel`, shows it (edited by the handler, or by the dispatcher if the
/// handler's edit fails). An answer to the daily puzzle is given only to a private one
/// ([`Answer::Private`]), and is never posted in the channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyTo {
    pub channel: ChannelId,
    pub answer: Answer,
}

/// A change made from an interaction, as its handler gets it back: what the change did
/// (`done`), and the notice its commit wrote for the interaction's response ([`Answer`]), as
/// written: the handler words it and shows it with no read of it back. None when the change
/// wrote no notice for it.
#[derive(Debug, Clone)]
pub struct Answered<T> {
    pub done: T,
    pub notice: Option<Notice>,
}

impl<T> Answered<T> {
    /// `done`, with `notice`.
    pub(crate) fn with(done: T, notice: Option<Notice>) -> Answered<T> {
        Answered { done, notice }
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
    /// renews it ([`Outbox::renew`](super::outbox::Outbox::renew)). None: read, not claimed (an interaction's handler).
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

/// Whether `channel` owes news to be posted ([`Outbox::owes`](super::outbox::Outbox::owes)), read in a transaction.
async fn owes_posts(conn: &mut Connection, channel: ChannelId) -> Result<bool, ServiceError> {
    Ok(rows::owes_posts(&mut *conn, channel).await?)
}

/// A notice to write for a channel, made by [`Core::notice`]: pending and due at once unless
/// held for its interaction's answer ([`Draft::held`]) or waiting for another notice
/// ([`Draft::after`]); written by [`Draft::write`].
#[must_use]
pub(crate) struct Draft<'a> {
    channel: ChannelId,
    kind: &'a str,
    payload: &'a Payload,
    hold: Duration,
    waits: Option<(NoticeId, Duration)>,
}

impl<'a> Draft<'a> {
    /// Held for its interaction's answer for `hold`, if it is not zero.
    pub(crate) fn held(self, hold: Duration) -> Draft<'a> {
        Draft { hold, ..self }
    }

    /// Waiting for notice `first` (written before it, in this transaction or earlier): due
    /// once `first` is delivered or given up, or `at_most` after it is written, whichever
    /// comes first. The wait is no attempt (none is counted or logged).
    pub(crate) fn after(self, first: NoticeId, at_most: Duration) -> Draft<'a> {
        Draft {
            waits: Some((first, at_most)),
            ..self
        }
    }

    /// Writes the notice in the caller's transaction, written at `now` (the database's time the
    /// transaction read, once), and returns it as it is written: what the handler of its
    /// interaction shows, with no read of it back (callers needing its id take `.id`). Call
    /// [`Core::wake_outbox`] once the transaction has committed (or commit with
    /// [`Core::commit_noticed`]).
    ///
    /// # Errors
    ///
    /// [`ServiceError::Internal`] if the payload tells no news (a notice that tells nothing is
    /// not written: it could not be read); the store's error if the row is not written.
    pub(crate) async fn write(
        self,
        conn: &mut Connection,
        now: i64,
    ) -> Result<Notice, ServiceError> {
        let Draft {
            channel,
            kind,
            payload,
            hold,
            waits,
        } = self;
        let mut payload = payload.clone();
        if let Some(answer) = payload.answer.handle_mut() {
            answer.expires_at = Some(now.saturating_add(millis(ANSWER_LIFE)));
        }
        let stored = serde_json::to_string(&payload).expect("a payload serializes");
        let news = (payload.news.take())
            .ok_or_else(|| ServiceError::Internal(format!("a {kind} notice tells nothing")))?;
        let nonce = nonce();
        // Held for an answer, or waiting for another notice: at most this long.
        let wait = waits.map_or(hold, |(_, at_most)| at_most);
        let id = rows::insert(
            &mut *conn,
            &NewNotice {
                channel_id: channel,
                kind,
                payload: &stored,
                nonce: &nonce,
                now,
                next_attempt_at: now.saturating_add(millis(wait)),
                held: !hold.is_zero(),
                waits_for: waits.map(|(first, _)| first),
            },
        )
        .await?;
        Ok(Notice {
            id,
            channel,
            kind: kind.to_string(),
            nonce,
            attempts: 0,
            claim: None,
            created_at: now,
            failure: None,
            news,
            payload,
        })
    }
}

impl Core {
    /// A notice of `kind` for `channel`, carrying `payload`, to write ([`Draft::write`]):
    /// pending and due at once unless its options say otherwise.
    pub(crate) fn notice<'a>(
        &self,
        channel: ChannelId,
        kind: &'a str,
        payload: &'a Payload,
    ) -> Draft<'a> {
        Draft {
            channel,
            kind,
            payload,
            hold: Duration::ZERO,
            waits: None,
        }
    }

    /// Tells the dispatcher that notices may be due (after a commit that wrote some).
    pub(crate) fn wake_outbox(&self) {
        self.outbox_wake.notify_one();
    }

    /// Commits a transaction whose change is told through `notice`, written in it, lets the
    /// next writer in, and wakes the dispatcher; a commit whose outcome is unknown is looked
    /// up first ([`Core::commit_answered`]).
    pub(crate) async fn commit_noticed(
        &self,
        tx: Write<'_>,
        notice: NoticeId,
    ) -> Result<(), ServiceError> {
        self.commit_answered(tx, Some(notice), || async { Ok(false) })
            .await
    }

    /// Commits a transaction that changed what a player is told about, with the notice that
    /// tells it (if it wrote one), as [`Core::commit_or_look`] does: a commit whose outcome
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

    /// `answer` as the news of a change written now in `channel` (held for `hold`) may use it:
    /// a command's response is made when it is acknowledged, so if the channel owes news to be
    /// posted (the AI's move being retried, say), that response stands above it, out of the
    /// game's order; the news is then posted after it instead (no interaction, no hold: the
    /// handler, finding its answer not held for it, takes its response back). A press's
    /// response is the pressed message, in place already.
    pub(crate) async fn in_order(
        &self,
        conn: &mut Connection,
        channel: ChannelId,
        answer: Answer,
        hold: Duration,
    ) -> Result<(Answer, Duration), ServiceError> {
        if answer.made_on_acknowledging() && owes_posts(conn, channel).await? {
            return Ok((Answer::None, Duration::ZERO));
        }
        Ok((answer, hold))
    }

    /// Writes `payload`, a notice of `kind`, for the interaction `to` (none: no notice): held
    /// for the handler's edit of its deferred response, sent again by the dispatcher if the
    /// handler does not record it; past the token's life posted in the channel, or given up if
    /// the response is private ([`Answer::Private`]).
    pub(crate) async fn reply_notice(
        &self,
        conn: &mut Connection,
        kind: &str,
        payload: Payload,
        to: Option<&ReplyTo>,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        let Some(to) = to else {
            return Ok(None);
        };
        let payload = Payload {
            answer: to.answer.clone(),
            ..payload
        };
        let hold = self.delivery.answer_grace;
        let notice = self.notice(to.channel, kind, &payload).held(hold);
        Ok(Some(notice.write(conn, now).await?))
    }

    /// Records what showing `notice` (as `message`, when known) settles beyond the notice
    /// itself, in the caller's write, before the notice is settled: a challenge posted by the
    /// outbox has its message (the one to edit later); a puzzle's answer, its try (which does
    /// not give it again); the news that gave a player the turn, their clock (their time starts
    /// now).
    pub(crate) async fn notice_shown(
        &self,
        conn: &mut Connection,
        notice: &Notice,
        message: Option<u64>,
        now: i64,
    ) -> Result<(), ServiceError> {
        if let (Some(Buttons::Challenge(id)), Some(message)) = (notice.payload.buttons, message) {
            challenges::set_message(&mut *conn, id, message).await?;
        }
        if let News::PuzzleVerdict(verdict) = &notice.news {
            let key = verdict.key();
            puzzles::verdict_shown(&mut *conn, key.attempt, key.progress).await?;
        }
        if let Some(game) = notice.news.turn_given() {
            let to_move = notice.news.turn_given_to();
            games::start_clock_shown(&mut *conn, game, notice.id, to_move, now).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(expires_at: Option<i64>) -> AnswerRef {
        AnswerRef {
            expires_at,
            ..AnswerRef::new("7/token".into())
        }
    }

    fn read(stored: &str) -> Payload {
        serde_json::from_str(stored).expect("a stored payload reads")
    }

    /// Rows stored with the handle and `private` beside it (and a press's message in `edit`
    /// alone) read as the answer they stood for; a settled row, its handle removed, as none.
    #[test]
    fn a_payload_stored_with_its_handle_and_private_beside_it_reads_as_one_answer() {
        let private = read(r#"{"answer":{"reply":"7/token","expires_at":5},"private":true}"#);
        assert_eq!(private.answer, Answer::Private(handle(Some(5))));
        let command = read(r#"{"answer":{"reply":"7/token","expires_at":5}}"#);
        assert_eq!(command.answer, Answer::Command(handle(Some(5))));
        let pressed = read(r#"{"answer":{"reply":"7/token"},"edit":42}"#);
        assert_eq!(
            (pressed.answer, pressed.edit),
            (Answer::Command(handle(None)), Some(42))
        );
        let settled = read(r#"{"private":true,"edit":42}"#);
        assert_eq!((settled.answer, settled.edit), (Answer::None, Some(42)));
        assert_eq!(read("{}"), Payload::default());
    }

    /// Every answer is stored and read back as it was, with the rest of its payload; the
    /// handle is the `answer` key alone (which the outbox removes once the notice is settled).
    #[test]
    fn every_answer_is_stored_and_read_back_as_it_was() {
        let answers = [
            Answer::None,
            Answer::Command(handle(Some(5))),
            Answer::Pressed {
                answer: handle(Some(5)),
                message: u64::MAX,
            },
            Answer::Private(handle(None)),
        ];
        for answer in answers {
            let payload = Payload {
                board: Some(BoardRef {
                    game: 3,
                    ply: 4,
                    caption: "caption".into(),
                }),
                buttons: Some(Buttons::Draw(3)),
                edit: Some(9),
                ..answer.payload(Payload::default())
            };
            let stored = serde_json::to_string(&payload).unwrap();
            assert_eq!(read(&stored), payload, "{stored}");
            let value: serde_json::Value = serde_json::from_str(&stored).unwrap();
            let reply = value.get("answer").and_then(|a| a.get("reply"));
            assert_eq!(reply.is_some(), answer.handle().is_some(), "{stored}");
            assert!(!format!("{answer:?}").contains("token"), "never printed");
        }
    }

    /// A press's notice edits the pressed message past the handle's life unless it carries a
    /// board (posted anew); any other answer edits nothing.
    #[test]
    fn only_a_press_without_a_board_edits_its_message() {
        let pressed = Answer::Pressed {
            answer: handle(None),
            message: 42,
        };
        assert_eq!(pressed.payload(Payload::default()).edit, Some(42));
        let board = Payload {
            board: Some(BoardRef {
                game: 1,
                ply: 0,
                caption: String::new(),
            }),
            ..Payload::default()
        };
        assert_eq!(pressed.payload(board).edit, None);
        let command = Answer::Command(handle(None)).payload(Payload::default());
        assert_eq!(command.edit, None);
    }
}
