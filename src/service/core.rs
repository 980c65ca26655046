//! The service's core: what every part shares ([`Core`]): the database, the clocks, the
//! configuration, the outbox's times and wake, the heavy-work gate, the sweeps' backoff, the
//! per-user rate limits and the process's claimer id; and the helpers on them every part uses
//! here and in the core's other files: the database's time, heavy work off the runtime, a board
//! drawn (here); the stored rows read and decoded (`stored/`); a move or a game's end committed
//! with its notices (`commit.rs`), with what the parts registered for a game's end
//! ([`OnGameEnd`]); a notice written, and what showing it settles (`notice.rs`). The core
//! imports none of the parts; the parts import it.

use super::backoff::Backoff;
use super::clock::{Clock, DatabaseClock};
use super::config::{Config, OutboxTimes};
use super::error::ServiceError;
use super::heavy::{self, Heavy};
use super::limits::Limits;
use super::types::{worded, Caption, Captions, GameId, GameInfo, UserId};
use crate::store::{Connection, Store};
use crate::tafl::{Position, RecordedMove};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What the parts of the service share; each part borrows it (see docs/ARCHITECTURE.md).
pub(crate) struct Core {
    /// The database: reads through it, writes through its write lock (see [`Store`]). Shared
    /// with the tasks that renew the AI's claims, which write beside the service.
    pub(crate) store: Store,
    /// This process's clock (see [`Core::process_now`]).
    pub(crate) clock: Arc<dyn Clock>,
    /// Where the service reads the database's time (see [`super::clock`]).
    pub(crate) database_clock: DatabaseClock,
    pub(crate) config: Config,
    /// The per-user rate limits this process keeps (see [`super::limits`]).
    pub(crate) limits: Limits,
    /// The times of the outbox's notices (holds, retention, claims).
    pub(crate) delivery: OutboxTimes,
    /// Rung after a commit that wrote notices, so the dispatcher delivers them at once.
    pub(crate) outbox_wake: Arc<tokio::sync::Notify>,
    /// The gate all heavy work off the runtime goes through (see [`heavy`]).
    pub(crate) gate: Heavy,
    /// The sweeps' items whose handling failed, set aside for a while (see [`super::backoff`]).
    pub(crate) retries: Backoff,
    /// This service's id in the claims it takes in the database (the AI's turns, the clock's
    /// looks at games): unique per process and per service.
    pub(crate) claimer: String,
    /// The bot's words for the text drawn into images (see [`Caption`]); none: images carry
    /// no text of their own.
    pub(crate) captions: Option<Captions>,
    /// What the parts do in the transaction that ends a game, in the order registered
    /// ([`OnGameEnd`]; the tournaments' part scores its games).
    pub(crate) on_game_end: Vec<Box<dyn OnGameEnd>>,
}

impl Core {
    pub(crate) fn new(store: Store, config: Config, clock: Arc<dyn Clock>) -> Core {
        Core {
            store,
            database_clock: DatabaseClock::new(&clock),
            limits: Limits::new(&config, clock.clone()),
            clock,
            delivery: OutboxTimes::default(),
            outbox_wake: Arc::new(tokio::sync::Notify::new()),
            gate: Heavy::new(config.heavy_workers, config.heavy_queue_limit),
            retries: Backoff::default(),
            claimer: claimer_id(),
            captions: None,
            on_game_end: Vec::new(),
            config,
        }
    }

    /// This process's time (Unix ms): only for what concerns this process alone, the hint
    /// cooldown sparing its AI pool (and, through their own handle on the clock, the per-user
    /// rate limits it keeps, see [`limits`]). Nothing it gives is stored or compared with
    /// another process's times: every deadline, expiry, day, date and lease is on the
    /// database's clock ([`Core::database_now`]; see [`clock`]).
    pub(crate) fn process_now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The database's time now (Unix ms): what every deadline, expiry, day, date, lease, hold
    /// and claim is measured against (turn deadlines and reminders, losses on time, challenges'
    /// expiry, draw offers, the heartbeat, the daily puzzle's day, the cooldown between games
    /// against the AI, the outbox's holds and claims, the AI's turns, the clock's looks at
    /// games), so that processes whose own clocks differ agree on what is due and who holds
    /// what.
    pub(crate) async fn database_now(&self) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(self.store.read(), self.store.backend())
            .await?)
    }

    /// [`Core::database_now`] on a connection (in a transaction under way).
    pub(crate) async fn database_now_on(&self, conn: &mut Connection) -> Result<i64, ServiceError> {
        Ok(self
            .database_clock
            .now(&mut *conn, self.store.backend())
            .await?)
    }

    /// Runs costly work (a replay drawn, a game played through for its analysis) on a
    /// blocking thread, off the runtime, through the heavy-work gate ([`heavy`]): it waits for
    /// one of the workers costly work may take, holding its `place` in the queue.
    pub(crate) async fn heavy<R: Send + 'static>(
        &self,
        place: &heavy::QueuePlace,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, ServiceError> {
        self.gate.run_costly(place, work).await
    }

    /// A place in the heavy-work queue for a user's costly request, and the user's cooldown
    /// counted ([`Limits::costly`]; none without a user): refused with a private line
    /// when the queue is full or the user asked a moment ago. The place is taken first, so a
    /// refusal for a full queue does not start the cooldown.
    pub(crate) fn costly_place(
        &self,
        user: Option<UserId>,
    ) -> Result<heavy::QueuePlace, ServiceError> {
        let place = self.gate.place()?;
        if let Some(user) = user {
            self.limits.costly(user)?;
        }
        Ok(place)
    }

    /// A caption in the bot's words (empty when it gave none).
    pub(crate) fn caption(&self, caption: &Caption<'_>) -> String {
        worded(self.captions, caption)
    }

    /// The board image with `caption` in the bot's words under it, drawn on a blocking thread
    /// (empty when images are off).
    pub(crate) async fn image(
        &self,
        position: Position,
        last: Option<RecordedMove>,
        caption: &Caption<'_>,
    ) -> Result<Vec<u8>, ServiceError> {
        self.image_captioned(position, last, self.caption(caption))
            .await
    }

    /// The board image with `caption`, worded already (a notice's, as stored), under it (none
    /// when it is empty), drawn on a blocking thread (empty when images are off).
    pub(crate) async fn image_captioned(
        &self,
        position: Position,
        last: Option<RecordedMove>,
        caption: String,
    ) -> Result<Vec<u8>, ServiceError> {
        if !self.config.images {
            return Ok(Vec::new());
        }
        self.gate
            .run_board(move || {
                let caption = Some(caption.as_str()).filter(|c| !c.is_empty());
                crate::render::board_png(&position, last.as_ref(), caption)
            })
            .await
    }
}

/// What an [`OnGameEnd`] does, in the transaction under way.
pub(crate) type GameEndStep<'a> =
    Pin<Box<dyn Future<Output = Result<(), ServiceError>> + Send + 'a>>;

/// What a part does in the transaction that ends a game, registered with the core when
/// [`Service::new`](super::Service::new) builds the parts ([`Core::on_game_end`]): the commit
/// path (`commit.rs`) calls each, in the order registered, knowing no part.
pub(crate) trait OnGameEnd: Send + Sync {
    /// Before the end of game `game` is written: the locks the part's rows are taken in
    /// before a game's (so that transactions ending games and changing the part's rows take
    /// turns, in one order).
    fn before_end<'a>(
        &'a self,
        core: &'a Core,
        conn: &'a mut Connection,
        game: GameId,
    ) -> GameEndStep<'a>;

    /// Game `game` has ended at `now` (its row moved on, not yet rated): what the part owes it.
    fn ended<'a>(
        &'a self,
        core: &'a Core,
        conn: &'a mut Connection,
        game: &'a GameInfo,
        now: i64,
    ) -> GameEndStep<'a>;
}

/// An id for the AI turns a service claims in the database: the process's id, the time and a
/// random number, so no two services (in one process or on two hosts) share one.
pub(crate) fn claimer_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos:x}-{random:016x}", std::process::id())
}
