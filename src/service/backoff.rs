//! Items of a sweep whose handling failed (an expired challenge that cannot be closed, a game
//! whose clock cannot act, a game whose puzzle search fails): each is logged and set aside for
//! a wait that doubles with each failure, so that one failing item neither stops the sweep's
//! other items nor is tried again on every tick. Kept in memory: a restart tries each again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The wait after an item's first failure; each further failure doubles it...
pub const RETRY_MIN: Duration = Duration::from_secs(60);
/// ...up to this.
pub const RETRY_MAX: Duration = Duration::from_secs(3600);

/// The sweeps whose items are set aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Work {
    /// Closing an expired challenge (by its id).
    ExpireChallenge,
    /// The clock's look at a game (by its id).
    Clock,
    /// Searching a finished game for puzzles (by its id).
    PuzzleScan,
    /// Starting (or cancelling) a tournament whose sign-up ended (by its id).
    SignUpOver,
}

/// The items set aside: (failures so far, when the next try may come, Unix ms).
#[derive(Debug, Default)]
pub(crate) struct Backoff(Mutex<HashMap<(Work, i64), (u32, i64)>>);

impl Backoff {
    /// Whether `id` may be tried at `now`.
    pub(crate) fn ready(&self, work: Work, id: i64, now: i64) -> bool {
        let map = self.0.lock().expect("backoff table");
        map.get(&(work, id)).is_none_or(|&(_, at)| now >= at)
    }

    /// How many items of `work` are set aside at `now`.
    pub(crate) fn waiting(&self, work: Work, now: i64) -> usize {
        let map = self.0.lock().expect("backoff table");
        map.iter()
            .filter(|((w, _), (_, at))| *w == work && now < *at)
            .count()
    }

    /// Records a failure of `id` at `now`: its failures so far, and when it is tried again.
    pub(crate) fn failed(&self, work: Work, id: i64, now: i64) -> (u32, i64) {
        let mut map = self.0.lock().expect("backoff table");
        let failures = map.get(&(work, id)).map_or(0, |&(n, _)| n) + 1;
        let wait = RETRY_MIN
            .saturating_mul(1u32 << (failures - 1).min(20))
            .min(RETRY_MAX);
        let at = now.saturating_add(wait.as_millis() as i64);
        map.insert((work, id), (failures, at));
        (failures, at)
    }

    /// `id` was handled: forgotten.
    pub(crate) fn succeeded(&self, work: Work, id: i64) {
        self.0.lock().expect("backoff table").remove(&(work, id));
    }
}

#[cfg(test)]
mod tests {
    use super::{Backoff, Work};

    #[test]
    fn a_failing_item_waits_longer_each_time_and_others_do_not_wait() {
        let b = Backoff::default();
        assert!(b.ready(Work::Clock, 1, 0));
        assert_eq!(b.failed(Work::Clock, 1, 0), (1, 60_000));
        assert!(!b.ready(Work::Clock, 1, 59_999));
        assert!(b.ready(Work::Clock, 1, 60_000));
        assert!(b.ready(Work::Clock, 2, 0), "another item");
        assert!(b.ready(Work::PuzzleScan, 1, 0), "another sweep");
        assert_eq!(b.waiting(Work::Clock, 0), 1);
        assert_eq!(b.failed(Work::Clock, 1, 60_000), (2, 180_000));
        for _ in 0..10 {
            b.failed(Work::Clock, 1, 0);
        }
        assert_eq!(b.failed(Work::Clock, 1, 0).1, 3_600_000, "capped");
        b.succeeded(Work::Clock, 1);
        assert!(b.ready(Work::Clock, 1, 0));
    }
}
