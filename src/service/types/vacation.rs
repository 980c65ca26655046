//! What vacations return and what their notices tell ([`crate::service::vacation`]).

use super::{GameInfo, User, UserId};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// The window the yearly allowance is counted over: the last 365 days.
pub const YEAR_MS: i64 = 365 * DAY_MS;

/// Why a vacation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VacationEnd {
    /// The member ended it.
    Asked,
    /// The member moved in one of their games.
    Moved,
    /// Its days passed.
    TimeUp,
}

/// What a vacation's notice tells a game's channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VacationChange {
    /// It started, to end by `until` (Unix ms) at the latest.
    Started { until: i64 },
    /// It ended, for this reason.
    Ended(VacationEnd),
}

/// A vacation's notice in one game's channel: `user` (as the game names them) went away or
/// came back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VacationNews {
    pub game: GameInfo,
    pub user: User,
    pub change: VacationChange,
}

/// A member's vacation, and what is left of their allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VacationStatus {
    /// The vacation on now: when it started and when it ends at the latest (Unix ms).
    pub on: Option<(i64, i64)>,
    /// The time on vacation within the last 365 days (the one on now included, so far).
    pub used: Duration,
    /// The whole days a vacation may be asked for now (none while one is on).
    pub days_left: u32,
    /// The days a year the setting allows.
    pub allowance: u32,
}

/// A vacation started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VacationStarted {
    /// When it ends at the latest (Unix ms).
    pub until: i64,
    /// The member's games under way, and those of them whose clock stopped now (their turn).
    pub games: u32,
    pub stopped: u32,
    /// The whole days of the allowance left once this one has run its course.
    pub days_left: u32,
}

/// A vacation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VacationEnded {
    pub user: UserId,
    pub why: VacationEnd,
    /// When it ended (Unix ms; its planned end at the latest).
    pub at: i64,
    /// How long it lasted.
    pub lasted: Duration,
    /// The games whose clock started again (the member's turn in them).
    pub restarted: u32,
}
