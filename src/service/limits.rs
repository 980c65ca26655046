//! Per-user rate limits kept in this process: how often one user may use the bot's commands,
//! and the cooldown on the costly ones. One limiter type ([`RateLimit`], governor's GCRA keyed by
//! user, on this process's clock) for all of them.
//!
//! Each process keeps its own counts, and a restart forgets them: they spare this process's
//! CPU and Discord's rate limits, which is what they are for. So they, alone with the hint
//! cooldown, stay on this process's clock: nothing they hold is stored or compared with another
//! process's times (see [`super::clock`]). The limits that must hold across processes (games
//! against the AI and the cooldown between them, open challenges, challenges received) are
//! counted by the database instead, on its clock, in the transaction that would break them.

use super::clock::Clock;
use super::config::Config;
use super::error::ServiceError;
use super::types::UserId;
use governor::state::keyed::DashMapStateStore;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The service's clock as governor's (milliseconds since the epoch, as a duration), so that a
/// test's manual clock drives the limits too.
#[derive(Clone)]
struct LimitClock(Arc<dyn Clock>);

impl governor::clock::Clock for LimitClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        Duration::from_millis(self.0.now_ms().max(0) as u64)
    }
}

type Keyed = governor::RateLimiter<
    UserId,
    DashMapStateStore<UserId>,
    LimitClock,
    governor::middleware::NoOpMiddleware<Duration>,
>;

/// How many checks pass between two sweeps of the users no longer limited (so the table holds
/// only the users seen recently).
const SWEEP_EVERY: u64 = 1024;

/// A per-user rate: `count` uses in any `period` (a burst of `count`, then one more each
/// `period / count`), or no limit at all.
pub struct RateLimit {
    limiter: Option<Keyed>,
    checks: AtomicU64,
}

impl RateLimit {
    /// `count` uses per `period` for each user. A `count` or `period` of zero: no limit.
    pub fn new(count: u32, period: Duration, clock: Arc<dyn Clock>) -> RateLimit {
        let quota = NonZeroU32::new(count)
            .and_then(|burst| governor::Quota::with_period(period / burst.get()))
            .map(|q| q.allow_burst(NonZeroU32::new(count).expect("not zero")));
        RateLimit {
            limiter: quota.map(|q| Keyed::dashmap_with_clock(q, LimitClock(clock))),
            checks: AtomicU64::new(0),
        }
    }

    /// A cooldown: one use per `period` for each user (zero: none).
    pub fn cooldown(period: Duration, clock: Arc<dyn Clock>) -> RateLimit {
        RateLimit::new(1, period, clock)
    }

    /// Counts one use by `user`, if the rate allows it; otherwise counts nothing and says how
    /// long until the next use is allowed.
    pub fn check(&self, user: UserId) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        limiter.check_key(&user).map_err(|not_until| {
            use governor::clock::Clock as _;
            not_until.wait_time_from(limiter.clock().now())
        })
    }

    /// The users the limiter holds a count for now.
    pub fn tracked(&self) -> usize {
        self.limiter.as_ref().map_or(0, |l| l.len())
    }
}

/// A wait in whole seconds, rounded up (at least 1): what a refusal tells the user.
pub fn whole_seconds(wait: Duration) -> u64 {
    wait.as_millis().div_ceil(1000).max(1) as u64
}

/// This service's per-user limits ([`super::Service::limits`]).
pub struct Limits {
    /// Every command and button press.
    pub(crate) commands: RateLimit,
    /// The costly commands (replays, analyses): one per cooldown.
    pub(crate) costly: RateLimit,
}

impl Limits {
    pub(crate) fn new(config: &Config, clock: Arc<dyn Clock>) -> Limits {
        Limits {
            commands: RateLimit::new(
                config.commands_per_minute,
                Duration::from_secs(60),
                clock.clone(),
            ),
            costly: RateLimit::cooldown(config.costly_cooldown, clock),
        }
    }

    /// Counts a command (or button press) by `user` against the per-user rate
    /// ([`super::Config::commands_per_minute`]); refused with the wait once the rate is spent.
    /// The bot checks every command and press with it before doing anything.
    pub fn command(&self, user: UserId) -> Result<(), ServiceError> {
        self.commands
            .check(user)
            .map_err(|wait| ServiceError::TooManyCommands(whole_seconds(wait)))
    }

    /// Counts a costly command (a replay, an analysis: seconds of CPU or a large upload) by
    /// `user` against its cooldown ([`super::Config::costly_cooldown`]); refused with the
    /// wait. Call it before the work starts, once the command is known to be valid.
    pub(crate) fn costly(&self, user: UserId) -> Result<(), ServiceError> {
        self.costly
            .check(user)
            .map_err(|wait| ServiceError::CostlyTooSoon(whole_seconds(wait)))
    }
}

#[cfg(test)]
mod tests {
    use super::{whole_seconds, RateLimit, SWEEP_EVERY};
    use crate::service::ManualClock;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_rate_allows_its_burst_then_one_use_per_interval() {
        let clock = ManualClock::new(1_000_000);
        let limit = RateLimit::new(3, Duration::from_secs(60), Arc::new(clock.clone()));
        for _ in 0..3 {
            assert_eq!(limit.check(7), Ok(()));
        }
        // The fourth waits for one use to come back: 60 s / 3.
        assert_eq!(limit.check(7), Err(Duration::from_secs(20)));
        assert_eq!(limit.check(8), Ok(()), "each user has their own count");
        clock.advance(Duration::from_secs(15));
        assert_eq!(limit.check(7), Err(Duration::from_secs(5)));
        clock.advance(Duration::from_secs(5));
        assert_eq!(limit.check(7), Ok(()));
        assert!(limit.check(7).is_err());
    }

    #[test]
    fn a_cooldown_allows_one_use_per_period_and_zero_is_no_limit() {
        let clock = ManualClock::new(0);
        let limit = RateLimit::cooldown(Duration::from_secs(30), Arc::new(clock.clone()));
        assert_eq!(limit.check(1), Ok(()));
        clock.advance(Duration::from_millis(100));
        assert_eq!(limit.check(1), Err(Duration::from_millis(29_900)));
        assert_eq!(whole_seconds(Duration::from_millis(29_900)), 30);
        clock.advance(Duration::from_millis(29_900));
        assert_eq!(limit.check(1), Ok(()));
        let none = RateLimit::cooldown(Duration::ZERO, Arc::new(clock.clone()));
        let off = RateLimit::new(0, Duration::from_secs(60), Arc::new(clock));
        for _ in 0..100 {
            assert_eq!(none.check(1), Ok(()));
            assert_eq!(off.check(1), Ok(()));
        }
    }

    #[test]
    fn users_no_longer_limited_are_forgotten() {
        let clock = ManualClock::new(0);
        let limit = RateLimit::cooldown(Duration::from_secs(1), Arc::new(clock.clone()));
        for user in 0..SWEEP_EVERY - 1 {
            limit.check(user).unwrap();
        }
        assert_eq!(limit.tracked(), (SWEEP_EVERY - 1) as usize);
        clock.advance(Duration::from_secs(2));
        limit.check(u64::MAX).unwrap();
        assert!(limit.tracked() <= 1, "{}", limit.tracked());
    }
}
