//! Time for the service: the system clock, or a clock a test sets by hand.

/// Where the service reads the time (Unix milliseconds).
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis()
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
    use std::time::Duration;

    /// A clock that moves only when told: for tests of time control (built for tests only).
    #[derive(Debug, Clone)]
    pub struct ManualClock(Arc<AtomicI64>);

    impl ManualClock {
        pub fn new(start_ms: i64) -> ManualClock {
            ManualClock(Arc::new(AtomicI64::new(start_ms)))
        }

        pub fn advance(&self, by: Duration) {
            self.0.fetch_add(by.as_millis() as i64, Ordering::SeqCst);
        }

        pub fn set(&self, ms: i64) {
            self.0.store(ms, Ordering::SeqCst);
        }
    }

    impl Clock for ManualClock {
        fn now_ms(&self) -> i64 {
            self.0.load(Ordering::SeqCst)
        }
    }
}
