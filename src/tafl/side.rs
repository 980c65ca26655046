//! The two sides and the three kinds of piece.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A side: the attackers (Muscovites) or the defenders (Swedes, with their king).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
/// A side's name that is not known.
#[error("not a side: '{}'", crate::echo::echo(.0))]
pub struct SideError(pub String);

impl FromStr for Side {
    type Err = SideError;

    fn from_str(s: &str) -> Result<Side, SideError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" | "muscovites" | "black" => Ok(Side::Attackers),
            "defenders" | "defender" | "d" | "swedes" | "white" => Ok(Side::Defenders),
            _ => Err(SideError(s.to_string())),
        }
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    Attacker,
    Defender,
    King,
}

impl Piece {
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// OpenTafl's letter: `t` attacker, `T` defender, `K` king.
    pub const fn letter(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Piece::Attacker => "attacker",
            Piece::Defender => "defender",
            Piece::King => "king",
        }
    }
}
