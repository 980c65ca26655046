//! Time for the service. Two clocks, each for its own kind of time:
//!
//! - **The database's clock** ([`DatabaseClock`], read as [`super::Service::database_now`]):
//!   every time more than one process compares. Turn deadlines, reminders, losses on time,
//!   challenges' expiry, draw offers, the heartbeat and the downtime it measures, the daily
//!   puzzle's day, the cooldown between games against the AI, the times moves, games, ratings
//!   and records are stamped with, and every lease, hold and claim (the outbox's, the AI's
//!   turns', the clock's looks at games). Every process reads the one database's time, so
//!   processes whose own clocks differ agree on what is due and who holds what.
//! - **This process's clock** ([`Clock`], read as `Core::process_now`): only what
//!   concerns this process alone: the per-user rate limits it keeps ([`super::limits`]) and the
//!   hint cooldown, which spares this process's AI pool. Neither is stored or compared with
//!   another process's times.
//!
//! Tests set both by hand ([`ManualClock`], built for tests only): a manual clock stands for
//! the database's time too, as a service on it reads it, so a test moves game time without
//! waiting and sees exact times; production always reads the database's own.

use crate::store::{self, AnyExecutor, Backend, StoreError};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Where the service reads this process's time (Unix milliseconds).
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;

    /// Built for tests only: the database's time (Unix ms) as a service on this clock reads
    /// it, set by hand; `None` (the default, and always outside tests): the database's own.
    #[cfg(any(test, feature = "test-support"))]
    fn database_ms(&self) -> Option<i64> {
        None
    }
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis()
    }
}

/// How a service reads the database's time: the database's own (`SELECT` of its clock, see
/// [`store::database_now`]), moved on by an offset that is zero but in tests that let leases
/// and holds run out without waiting. Cheap to clone: clones share the offset.
#[derive(Clone)]
pub(crate) struct DatabaseClock {
    offset: Arc<AtomicI64>,
    /// Built for tests only: the service's clock, which may stand for the database's time
    /// ([`Clock::database_ms`]).
    #[cfg(any(test, feature = "test-support"))]
    by_hand: Arc<dyn Clock>,
    /// Built for tests only: while set, every read of the database's time fails.
    #[cfg(any(test, feature = "test-support"))]
    failing: Arc<std::sync::atomic::AtomicBool>,
    /// Built for tests only: how many times the database's time was read.
    #[cfg(any(test, feature = "test-support"))]
    reads: Arc<std::sync::atomic::AtomicU64>,
}

impl DatabaseClock {
    #[cfg_attr(not(any(test, feature = "test-support")), allow(unused_variables))]
    pub(crate) fn new(clock: &Arc<dyn Clock>) -> DatabaseClock {
        DatabaseClock {
            offset: Arc::new(AtomicI64::new(0)),
            #[cfg(any(test, feature = "test-support"))]
            by_hand: clock.clone(),
            #[cfg(any(test, feature = "test-support"))]
            failing: Arc::default(),
            #[cfg(any(test, feature = "test-support"))]
            reads: Arc::default(),
        }
    }

    /// The database's time now (Unix ms), read through `ex`.
    pub(crate) async fn now<'e>(
        &self,
        ex: impl AnyExecutor<'e>,
        backend: Backend,
    ) -> Result<i64, StoreError> {
        let offset = self.offset.load(Ordering::SeqCst);
        #[cfg(any(test, feature = "test-support"))]
        self.reads.fetch_add(1, Ordering::SeqCst);
        #[cfg(any(test, feature = "test-support"))]
        if self.failing.load(Ordering::SeqCst) {
            return Err(StoreError::injected("the database's clock"));
        }
        #[cfg(any(test, feature = "test-support"))]
        if let Some(ms) = self.by_hand.database_ms() {
            return Ok(ms + offset);
        }
        store::database_now(ex, backend, offset).await
    }

    /// How many times the database's time was read (tests only use it).
    #[cfg(any(test, feature = "test-support"))]
    pub(crate) fn reads(&self) -> u64 {
        self.reads.load(Ordering::SeqCst)
    }

    /// Makes every read of the database's time fail while `failing` (tests only use it).
    #[cfg(any(test, feature = "test-support"))]
    pub(crate) fn fail(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    /// Moves the time read on by `ms` (tests only use it).
    #[cfg(any(test, feature = "test-support"))]
    pub(crate) fn advance(&self, ms: i64) {
        self.offset.fetch_add(ms, Ordering::SeqCst);
    }
}

#[cfg(any(test, feature = "test-support"))]
pub use manual::ManualClock;

/// Built for tests only.
#[cfg(any(test, feature = "test-support"))]
mod manual {
    use super::Clock;
    use std::sync::atomic::{AtomicI64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// A clock that moves only when told: for tests of time control (built for tests only).
    /// It stands for both of a service's clocks: the process's ([`Clock::now_ms`]) and the
    /// database's as the service reads it ([`Clock::database_ms`]), instead of the database's
    /// own. Clones share the time.
    ///
    /// - [`ManualClock::new`]: both clocks the same, moved only by [`ManualClock::advance`] and
    ///   [`ManualClock::set`]: exact times.
    /// - [`ManualClock::skewed`]: another process's clock, ahead of (or behind) this one by a
    ///   fixed amount, on the same database's time.
    /// - [`ManualClock::running`]: the database's time also runs on in real time, so that
    ///   what waits on it (the outbox's retries and holds, under a running bot) comes due.
    #[derive(Debug, Clone)]
    pub struct ManualClock {
        at: Arc<AtomicI64>,
        /// How far this process's clock is ahead of the database's (ms).
        skew: i64,
        /// Since when the database's time runs on in real time, if it does.
        since: Option<Instant>,
    }

    impl ManualClock {
        pub fn new(start_ms: i64) -> ManualClock {
            ManualClock {
                at: Arc::new(AtomicI64::new(start_ms)),
                skew: 0,
                since: None,
            }
        }

        /// A clock at `start_ms` whose database time also runs on in real time.
        pub fn running(start_ms: i64) -> ManualClock {
            ManualClock {
                since: Some(Instant::now()),
                ..ManualClock::new(start_ms)
            }
        }

        /// A clock on the same database's time (moved with this one) whose process's time is
        /// `skew_ms` ahead of it (behind, if negative): another process's clock.
        pub fn skewed(&self, skew_ms: i64) -> ManualClock {
            ManualClock {
                skew: self.skew + skew_ms,
                ..self.clone()
            }
        }

        pub fn advance(&self, by: Duration) {
            self.at.fetch_add(by.as_millis() as i64, Ordering::SeqCst);
        }

        pub fn set(&self, ms: i64) {
            self.at.store(ms, Ordering::SeqCst);
        }

        /// The database's time as a service on this clock reads it now.
        pub fn database_now_ms(&self) -> i64 {
            let ran = self.since.map_or(0, |s| s.elapsed().as_millis() as i64);
            self.at.load(Ordering::SeqCst) + ran
        }
    }

    impl Clock for ManualClock {
        fn now_ms(&self) -> i64 {
            self.at.load(Ordering::SeqCst) + self.skew
        }

        fn database_ms(&self) -> Option<i64> {
            Some(self.database_now_ms())
        }
    }
}
