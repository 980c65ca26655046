//! What turn notifications return and what their notices tell ([`crate::service::notify`]).

use super::{GameInfo, NoticeId, Player, User, UserId};
use serde::{Deserialize, Serialize};

/// How a member is told that games wait on them, across servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotifyMode {
    /// A direct message each time it becomes their move.
    Move,
    /// One direct message a day listing the games waiting on them.
    Digest,
    /// None.
    Off,
}

impl NotifyMode {
    /// Every mode, in the order the command offers them.
    pub const ALL: [NotifyMode; 3] = [NotifyMode::Move, NotifyMode::Digest, NotifyMode::Off];

    /// A member's mode until they choose one: a correspondence player expects to be told when
    /// it is their move (docs/COMMANDS.md says why).
    pub const DEFAULT: NotifyMode = NotifyMode::Move;

    /// The name the store keeps it under.
    pub fn as_str(self) -> &'static str {
        match self {
            NotifyMode::Move => "move",
            NotifyMode::Digest => "digest",
            NotifyMode::Off => "off",
        }
    }

    /// The mode stored as `s`, if it is one.
    pub fn parse(s: &str) -> Option<NotifyMode> {
        NotifyMode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// A member's notification setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotifySetting {
    pub mode: NotifyMode,
    /// Whether they chose it (false: the default).
    pub chosen: bool,
    /// When Discord refused them a direct message and their notifications were turned off
    /// for it (Unix ms), if that is why they are off.
    pub refused_at: Option<i64>,
}

/// A member's setting changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotifyChanged {
    pub before: NotifySetting,
    pub now: NotifyMode,
}

/// The move that gave a player the turn, as their direct message tells it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastMove {
    /// As the record writes it: `d1-d4xd5`.
    pub notation: String,
    pub by: Player,
}

/// A direct message telling `user` it is their move in `game` (as it stood when the turn came
/// to them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnDm {
    pub user: UserId,
    pub game: GameInfo,
    /// The opponent's move that gave the turn (none: the game's start).
    pub last_move: Option<LastMove>,
    /// The time they have for it, from when the game's message is shown (Unix ms of
    /// duration), if the game has a clock.
    pub time_left_ms: Option<i64>,
    /// The notice that shows the turn in the game's channel: the direct message links to the
    /// message it became (to the channel until it is known).
    pub shown_by: NoticeId,
}

/// A game waiting on a member, as the daily digest lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    pub game: GameInfo,
    /// Their time left when the digest was written (Unix ms of duration), if the clock runs.
    pub time_left_ms: Option<i64>,
}

/// The daily digest: the games waiting on `user`, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Digest {
    pub user: UserId,
    /// The day it is for (days since the Unix epoch, UTC).
    pub day: i64,
    pub games: Vec<Waiting>,
}

/// Told in a game's channel: `user` takes no direct messages from the bot, so their
/// notifications were turned off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DmsRefused {
    pub user: User,
    pub game: GameInfo,
}
