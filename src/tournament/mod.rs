//! Tournaments as pure arithmetic: who meets whom in each round and how the players stand.
//!
//! A tournament's entrants are seats `0..n` in seeding order (0 is the top seed). A pairing is
//! a **match of two games with the sides swapped**: the match's `first` takes the attackers in
//! game 1 and the defenders in game 2. Nothing here knows a database, Discord, a clock or an
//! image: the service stores the results and hands them back as [`MatchResult`]s.
//!
//! - [`round_robin`]: every round of a round robin, by the Berger tables of the FIDE Handbook
//!   (C.05, Annex 1); an odd number of players gives a bye a round, the table's highest number.
//! - [`swiss_round`]: the next round of a Swiss event, by a minimum-cost perfect matching
//!   ([`swiss`] says what the cost weighs, in order).
//! - [`standings()`]: places, match and game points, and the tiebreaks of the format
//!   ([`standings`](mod@standings) says how each is counted); [`crosstable`] for a round
//!   robin's table of who did what against whom.
//!
//! **Scoring.** A game won is worth 1 game point, a draw ½; the two games of a match give
//! 2, 1½, 1, ½ or 0 game points, kept as halves (`0..=4`). More game points than the opponent
//! win the match (2 match points), as many tie it (1 each), fewer lose it (0). A bye counts as a
//! won match with 2 game points (4 halves), as FIDE's pairing rules count the pairing-allocated
//! bye as a win (C.04.1). A match forfeited without a game played (an entrant withdrew) gives
//! the side present a won match with 2 game points and the withdrawn side nothing; when both
//! have withdrawn, both lose. A match broken off after a game keeps the games played and counts
//! the games not played as lost by the one who withdrew: those are the halves the service
//! reports, and the match points follow from them.

pub mod berger;
pub mod standings;
pub mod swiss;

pub use berger::round_robin;
pub use standings::{crosstable, standings, Meeting, Standing, Tiebreak};
pub use swiss::swiss_round;

use serde::{Deserialize, Serialize};

/// An entrant: an index into the tournament's entrants in seeding order (0 = top seed).
pub type Seat = usize;

/// Game points of a won match, in halves, as a bye counts it: both games won.
pub const BYE_HALVES: u8 = 4;
/// Match points: a won match, a tied one.
pub const MATCH_WIN: u32 = 2;
pub const MATCH_TIE: u32 = 1;

/// How the players are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Every pair meets once ([`round_robin`]).
    RoundRobin,
    /// A fixed number of rounds, each paired from the standings ([`swiss_round`]).
    Swiss { rounds: u32 },
}

impl Format {
    /// How many rounds an event of `n` players has: a round robin `n - 1` (even `n`) or `n`
    /// (odd `n`, one bye each), a Swiss the rounds it was created with.
    pub const fn rounds(self, n: usize) -> u32 {
        match self {
            Format::RoundRobin => {
                if n < 2 {
                    0
                } else {
                    (n + n % 2 - 1) as u32
                }
            }
            Format::Swiss { rounds } => rounds,
        }
    }
}

/// One pairing of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    /// A match: `first` takes the attackers in game 1, `second` in game 2.
    Match { first: Seat, second: Seat },
    /// The seat sits the round out and is scored a won match.
    Bye(Seat),
}

impl Pairing {
    /// The seats of the pairing: the first (or the bye's) and the second, if any.
    pub const fn seats(&self) -> (Seat, Option<Seat>) {
        match *self {
            Pairing::Match { first, second } => (first, Some(second)),
            Pairing::Bye(seat) => (seat, None),
        }
    }
}

/// A match's result as the standings count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchResult {
    /// The round, from 1.
    pub round: u32,
    pub first: Seat,
    /// `None`: `first` had the bye.
    pub second: Option<Seat>,
    /// Game points ×2 of each side over the two games, `0..=4` (a bye: 4).
    pub first_halves: u8,
    pub second_halves: u8,
    /// No game was played: a side (or both) had withdrawn. The side with more halves wins the
    /// match, and an equal score (both withdrawn) loses it for both.
    pub forfeit: bool,
}

impl MatchResult {
    /// A match whose games were played (or broken off, the unplayed games counted as lost).
    pub const fn played(
        round: u32,
        first: Seat,
        second: Seat,
        first_halves: u8,
        second_halves: u8,
    ) -> MatchResult {
        MatchResult {
            round,
            first,
            second: Some(second),
            first_halves,
            second_halves,
            forfeit: false,
        }
    }

    /// A bye: a won match with 2 game points.
    pub const fn bye(round: u32, seat: Seat) -> MatchResult {
        MatchResult {
            round,
            first: seat,
            second: None,
            first_halves: BYE_HALVES,
            second_halves: 0,
            forfeit: false,
        }
    }

    /// The result of a pairing that involves a withdrawn seat, without a game: the side present
    /// wins 2–0 in game points, a withdrawn side scores nothing, and a withdrawn seat's bye is
    /// worth nothing. `None` when no seat of the pairing has withdrawn (it is to be played).
    pub fn forfeit(round: u32, pairing: &Pairing, withdrawn: &[Seat]) -> Option<MatchResult> {
        let out = |seat: Seat| withdrawn.contains(&seat);
        let halves = |seat: Seat| if out(seat) { 0 } else { BYE_HALVES };
        match *pairing {
            Pairing::Match { first, second } if out(first) || out(second) => Some(MatchResult {
                round,
                first,
                second: Some(second),
                first_halves: halves(first),
                second_halves: halves(second),
                forfeit: true,
            }),
            Pairing::Bye(seat) if out(seat) => Some(MatchResult {
                round,
                first: seat,
                second: None,
                first_halves: 0,
                second_halves: 0,
                forfeit: true,
            }),
            _ => None,
        }
    }

    /// The match points of `first` and of `second` (a bye's second: 0).
    pub const fn match_points(&self) -> (u32, u32) {
        let (a, b) = (self.first_halves, self.second_halves);
        if self.second.is_none() {
            return (if self.forfeit { 0 } else { MATCH_WIN }, 0);
        }
        if a > b {
            (MATCH_WIN, 0)
        } else if a < b {
            (0, MATCH_WIN)
        } else if self.forfeit {
            (0, 0)
        } else {
            (MATCH_TIE, MATCH_TIE)
        }
    }

    /// Whether this result was a bye (not a forfeited one).
    pub const fn is_bye(&self) -> bool {
        self.second.is_none() && !self.forfeit
    }
}
