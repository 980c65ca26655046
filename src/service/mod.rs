//! The game service: every use case the bot offers (challenges, moves, the AI's replies,
//! resignations, draws, aborts, boards, records, hints, time control, ratings, stats), over the
//! store, the rules engine, the AI and the renderer. Plain types (ids are integers), typed
//! errors carrying data (the bot words them; no words for players here), and no Discord types: it is tested without Discord.
//!
//! Integrity: a game's move list is the truth; a move is written in one transaction that
//! checks the game is still at the ply the move was checked against, so two moves at once
//! cannot both land and a failure leaves the game as it was. The AI and the renderer run on
//! blocking threads, never inside a transaction: the AI on its own pool, the renderer and the
//! games played through for replays and analyses through a small gate ([`heavy`]).

pub mod ai;
pub mod analysis;
mod away;
pub mod backoff;
pub mod challenge;
pub mod clock;
mod commit;
pub mod config;
mod core;
mod dm;
pub mod error;
pub mod gone;
pub mod heavy;
pub mod limits;
pub mod news;
pub mod notice;
pub mod notify;
pub mod outbox;
pub mod play;
pub mod privacy;
#[cfg(any(test, feature = "test-support"))]
pub mod probe;
pub mod puzzle;
pub mod records;
mod stored;
pub mod timecontrol;
pub mod tournament;
pub mod types;
pub mod vacation;
pub mod view;

/// The store's names the bot needs (why the database did not open, the default database), so
/// that it never imports the store itself.
pub use crate::store::{OpenError, DEFAULT_DATABASE_URL};
#[cfg(any(test, feature = "test-support"))]
pub use clock::ManualClock;
pub use clock::{Clock, SystemClock};
pub use config::{
    Config, OutboxTimes, DEFAULT_AI_TT_MB, DEFAULT_CHALLENGES_RECEIVED,
    DEFAULT_CHALLENGES_RECEIVED_WINDOW, DEFAULT_COMMANDS_PER_MINUTE, DEFAULT_COSTLY_COOLDOWN,
    DEFAULT_MAX_PLIES, DEFAULT_OPEN_CHALLENGES_PER_USER,
};
pub use error::{Done, RecordProblem, ServiceError};
pub use gone::Gone;
pub use news::{News, NotStartedWhy, StartRefused};
pub use notice::{
    Answer, AnswerRef, Answered, BoardRef, Buttons, Notice, Payload, PuzzleBoardRef, ReplyTo,
    ANSWER_LIFE,
};
#[cfg(any(test, feature = "test-support"))]
pub use probe::{NoticeStatus, StoredNotice};
pub use timecontrol::{heartbeat_grace, Downtime};
pub use types::*;

use self::core::Core;
use ai::Ai;
use analysis::Analysis;
use outbox::Outbox;
use play::Games;
use privacy::Privacy;
use puzzle::Puzzles;
use timecontrol::GameClock;
use vacation::Vacations;

use crate::store::{self, Store};
use std::sync::Arc;

/// The game service: the `Core` its parts share, and what each part keeps of its own.
/// Cheap to share behind an `Arc`. Each use case is a call on one part, reached by its accessor:
/// [`Service::games`], [`Service::clock`], [`Service::ai`], [`Service::analysis`],
/// [`Service::puzzles`], [`Service::outbox`], [`Service::limits`] (see docs/ARCHITECTURE.md).
pub struct Service {
    core: Core,
    /// The AI's workers: every search of the service runs there.
    pub(crate) ai: crate::ai::pool::Pool,
    /// The AI's turns and hints under way in this process (see [`ai::Ai`]).
    pub(crate) ai_turns: ai::AiTurns,
    /// The games whose analysis this process is driving now.
    pub(crate) analyses: analysis::Analyses,
}

impl Service {
    pub fn new(store: Store, config: Config, clock: Arc<dyn Clock>) -> Service {
        let mut core = Core::new(store, config, clock);
        // A tournament's game that ends is scored, and the next round paired if it was the
        // round's last, in the transaction that ends it.
        core.on_game_end.push(Box::new(tournament::GameEnds));
        Service {
            ai: crate::ai::pool::Pool::new(
                core.config.ai_workers,
                core.config.ai_tt_mb,
                core.config.ai_priority,
            ),
            ai_turns: ai::AiTurns::new(),
            analyses: analysis::Analyses::default(),
            core,
        }
    }

    /// The service with these times for its notices (the bot's delivery policy gives them).
    pub fn with_delivery(mut self, delivery: impl Into<OutboxTimes>) -> Service {
        self.core.delivery = delivery.into();
        self
    }

    /// The service with the bot's words for the text drawn into its images (see [`Caption`]);
    /// without them, its boards and graphs carry no text of their own.
    pub fn with_captions(mut self, captions: Captions) -> Service {
        self.core.captions = Some(captions);
        self
    }

    /// Opens the database at `url` (creating and migrating it) and makes a service over it.
    pub async fn open(
        url: &str,
        config: Config,
        clock: Arc<dyn Clock>,
    ) -> Result<Service, store::OpenError> {
        Ok(Service::new(Store::open(url).await?, config, clock))
    }

    /// The database behind the service: for the tests, which read and write beside it.
    #[cfg(any(test, feature = "test-support"))]
    pub fn store(&self) -> &Store {
        &self.core.store
    }

    /// The database's backend.
    #[cfg(any(test, feature = "test-support"))]
    pub fn backend(&self) -> crate::store::Backend {
        self.core.store.backend()
    }

    pub fn config(&self) -> &Config {
        &self.core.config
    }

    /// The database's time now (Unix ms; see `Core::database_now`).
    pub async fn database_now(&self) -> Result<i64, ServiceError> {
        self.core.database_now().await
    }

    /// Closes the database, once every connection is back (see [`store::close`]).
    pub async fn close(&self) {
        self.core.store.close().await;
    }

    /// The per-user rate limits this process keeps.
    pub fn limits(&self) -> &limits::Limits {
        &self.core.limits
    }
}

/// Each part of the service, reached by its accessor: a small value borrowing the `Core`
/// and the part's own state.
impl Service {
    /// Games and challenges: starting, playing, ending and looking at them.
    pub fn games(&self) -> Games<'_> {
        Games::new(&self.core, self.ai())
    }

    /// The games' clock: the heartbeat, and what time makes due.
    pub fn game_clock(&self) -> GameClock<'_> {
        GameClock::new(&self.core)
    }

    /// The AI's turns and hints.
    pub fn ai(&self) -> Ai<'_> {
        Ai::new(&self.core, &self.ai, &self.ai_turns)
    }

    /// The post-game analyses.
    pub fn analysis(&self) -> Analysis<'_> {
        Analysis::new(&self.core, &self.ai, &self.analyses)
    }

    /// The puzzles.
    pub fn puzzles(&self) -> Puzzles<'_> {
        Puzzles::new(&self.core, &self.ai)
    }

    /// A person's data: read out, and forgotten.
    pub fn privacy(&self) -> Privacy<'_> {
        Privacy::new(&self.core)
    }

    /// Vacations: started, ended, and how much of the allowance is left.
    pub fn vacations(&self) -> Vacations<'_> {
        Vacations::new(&self.core)
    }

    /// Turn notifications: each member's setting.
    pub fn notifications(&self) -> notify::Notifications<'_> {
        notify::Notifications::new(&self.core)
    }

    /// The outbox, for the bot's delivery.
    pub fn outbox(&self) -> Outbox<'_> {
        Outbox::new(&self.core)
    }

    /// Tournaments: created, joined, started, paired, shown, withdrawn from, paused, cancelled.
    pub fn tournaments(&self) -> tournament::Tournaments<'_> {
        tournament::Tournaments::new(&self.core, self.games())
    }
}
