//! What the tests read of a service's insides and the hands they have on it: the counters that
//! show how often something ran (searches, claim renewals, the heavy-work gate's peaks), the AI
//! pool they occupy to hold its queue still, the database's clock they move on. Compiled only
//! for the tests (the `test-support` feature): the bot's library carries none of it.

use super::heavy::{Heavy, HeavyStats};
use super::{
    ChallengeId, ChannelId, GuildId, Notice, NoticeId, PuzzlePlayer, Service, ServiceError, UserId,
};
use crate::ai::pool::Pool;
use crate::store::outbox::{self, NoticeRow};
use crate::store::{challenges, puzzles};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A service's insides, for the tests ([`Service::probe`]).
pub struct Probe<'a> {
    service: &'a Service,
}

impl Service {
    /// The service's counters and test hands ([`Probe`]).
    pub fn probe(&self) -> Probe<'_> {
        Probe { service: self }
    }
}

impl Probe<'_> {
    /// How many searches the service gave its workers for the AI's turns (one withdrawn before
    /// a worker took it does not count).
    pub fn ai_turn_searches(&self) -> u64 {
        self.service.ai_turns.searches.load(Ordering::SeqCst)
    }

    /// How many times the service renewed a claim on an AI turn that it still held.
    pub fn ai_claim_renewals(&self) -> u64 {
        self.service.ai_turns.claim_renewals.load(Ordering::SeqCst)
    }

    /// How many tasks renewing the service's claims on AI turns run now (each stops with its
    /// turn).
    pub fn ai_claim_renewers(&self) -> usize {
        self.service.ai_turns.claim_renewers.load(Ordering::SeqCst)
    }

    /// The AI's workers, which every search of the service uses: tests occupy a worker with a
    /// task of their own to hold the queue still while they look at it.
    pub fn ai_pool(&self) -> &Pool {
        &self.service.ai
    }

    /// The AI's moves and hints waiting for a worker now.
    pub fn ai_queue_len(&self) -> usize {
        self.service.ai.waiting()
    }

    /// The AI pool's workers, and the most tables they ever held at once.
    pub fn ai_pool_tables(&self) -> (usize, usize) {
        (self.service.ai.workers(), self.service.ai.peak_tables())
    }

    /// How many positions the service has searched for analyses (each search counted once).
    pub fn analysis_searches(&self) -> u64 {
        self.service.analyses.searches.load(Ordering::SeqCst)
    }

    /// What the heavy-work gate holds now and the most it ever held.
    pub fn heavy_stats(&self) -> HeavyStats {
        self.service.core.gate.stats()
    }

    /// The heavy-work gate, which every board, replay and analysis of the service goes
    /// through: tests hold its costly workers with work of their own, or fill its queue with
    /// places, to look at what is still served meanwhile.
    pub fn heavy_gate(&self) -> &Heavy {
        &self.service.core.gate
    }

    /// How many of the service's writes wait for its write lock now (on SQLite; always 0 on
    /// PostgreSQL, which has none).
    pub fn writes_waiting(&self) -> usize {
        self.service.core.store.writes_waiting()
    }

    /// How many times the service has read the database's time (each transaction's stamp, each
    /// lease and hold).
    pub fn database_clock_reads(&self) -> u64 {
        self.service.core.database_clock.reads()
    }

    /// Makes every read of the database's time (as the service reads it) fail while
    /// `failing`, as a database that does not answer would.
    pub fn fail_database_clock(&self, failing: bool) {
        self.service.core.database_clock.fail(failing);
    }

    /// Moves the database's clock, as the service reads it, on by `by`, so that leases and
    /// holds run out without waiting for them. Every service on the database must be moved
    /// alike.
    pub fn advance_database_clock(&self, by: Duration) {
        self.service
            .core
            .database_clock
            .advance(i64::try_from(by.as_millis()).unwrap_or(i64::MAX));
    }
}

impl Probe<'_> {
    /// Notice `id` read back from the outbox, as the dispatcher reads a notice it delivers, if
    /// it is there and can be read.
    pub async fn notice(&self, id: NoticeId) -> Result<Option<Notice>, ServiceError> {
        Ok(outbox::by_id(self.service.store().read(), id)
            .await?
            .and_then(|row| super::stored::notices::notice(row, false).ok()))
    }

    /// A channel's notices as stored, in order.
    pub async fn notices_in(&self, channel: ChannelId) -> Result<Vec<StoredNotice>, ServiceError> {
        Ok(outbox::of_channel(self.service.store().read(), channel)
            .await?
            .into_iter()
            .map(StoredNotice::from_row)
            .collect())
    }

    /// A member's puzzle rating in a server, if they have one.
    pub async fn puzzle_player(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Option<PuzzlePlayer>, ServiceError> {
        Ok(puzzles::player(self.service.store().read(), guild, user)
            .await?
            .map(PuzzlePlayer::from))
    }

    /// Remembers `message_id` as the message that carries challenge `id`'s buttons, as showing
    /// the challenge's notice does.
    pub async fn set_challenge_message(
        &self,
        id: ChallengeId,
        message_id: u64,
    ) -> Result<(), ServiceError> {
        let mut writing = self.service.store().lock().await?;
        Ok(challenges::set_message(writing.ex(), id, message_id).await?)
    }
}

/// A notice as stored ([`Probe::notices_in`]): what it tells, and how its delivery went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredNotice {
    pub id: NoticeId,
    pub channel_id: ChannelId,
    pub kind: String,
    /// JSON: the [`Payload`].
    pub payload: String,
    pub nonce: String,
    pub created_at: i64,
    pub next_attempt_at: i64,
    pub attempts: u32,
    pub status: NoticeStatus,
    pub failure: Option<String>,
    pub message_id: Option<u64>,
    pub delivered_at: Option<i64>,
    /// The notice it waits for, until it is first claimed.
    pub waits_for: Option<NoticeId>,
}

/// Where a notice's delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeStatus {
    /// Owed, and held for an interaction's answer until its hold is over.
    Held,
    /// Owed: delivered when its next attempt is due.
    Pending,
    /// Owed, and a dispatcher is attempting it.
    Claimed,
    Delivered,
    /// Refused for good, or given up: the reason is kept.
    Failed,
}

impl NoticeStatus {
    /// Whether the notice is still owed (held, pending or claimed).
    pub fn is_open(self) -> bool {
        matches!(
            self,
            NoticeStatus::Held | NoticeStatus::Pending | NoticeStatus::Claimed
        )
    }

    fn from_store(s: crate::store::NoticeStatus) -> NoticeStatus {
        use crate::store::NoticeStatus as S;
        match s {
            S::Held => NoticeStatus::Held,
            S::Pending => NoticeStatus::Pending,
            S::Claimed => NoticeStatus::Claimed,
            S::Delivered => NoticeStatus::Delivered,
            S::Failed => NoticeStatus::Failed,
        }
    }
}

impl StoredNotice {
    /// The outbox's row itself, column for column, for the tests (the service reads a notice
    /// through `stored/notices.rs`).
    fn from_row(row: NoticeRow) -> StoredNotice {
        StoredNotice {
            id: row.id,
            channel_id: row.channel_id,
            kind: row.kind,
            payload: row.payload,
            nonce: row.nonce,
            created_at: row.created_at,
            next_attempt_at: row.next_attempt_at,
            attempts: row.attempts,
            status: NoticeStatus::from_store(row.status),
            failure: row.failure,
            message_id: row.message_id,
            delivered_at: row.delivered_at,
            waits_for: row.waits_for,
        }
    }
}
