//! The stored rows read and decoded, in one place, a file for each kind of row: each turns the
//! store's rows into the service's types, so that no part parses a stored text (a JSON column,
//! a name, a status, a result) itself, and writes a new game, challenge, tournament or puzzle.
//! `games.rs`: a game's row and moves rebuilt into the game, its seats, a finished game for
//! the stats; `challenges.rs`: a challenge; `draws.rs`: an open draw offer; `tournaments.rs`:
//! a tournament's status, format, rules and info; `puzzles.rs`: a puzzle, a try and the verdict kept with it, the puzzle
//! leaderboard's and the day's lines; `analysis.rs`: an analysis's settings and evaluations,
//! and the review they make; `notices.rs`: a notice read back (to deliver, or to show the
//! person it names); `notify.rs`: a member's notification setting; `players.rs`: a member's
//! ratings and the leaderboard's lines; `vacations.rs`: a vacation.
//! Here: the rules, start positions and time controls that several kinds of row store alike.

pub(crate) mod analysis;
pub(crate) mod challenges;
pub(crate) mod draws;
pub(crate) mod games;
pub(crate) mod notices;
pub(crate) mod notify;
pub(crate) mod players;
pub(crate) mod puzzles;
pub(crate) mod tournaments;
pub(crate) mod vacations;

use super::error::ServiceError;
use super::types::TimeControl;
use crate::tafl::{write_position, Position, Rules, Side};
use std::time::Duration;

/// The time control stored in the columns `time_per_move_ms` (the time per move, or a Fischer
/// clock's bank; none, or not above zero: no clock) and `increment_ms` (a Fischer clock's
/// increment; none for a time per move), as games, challenges and tournaments store it.
pub(crate) fn time_control(ms: Option<i64>, increment_ms: Option<i64>) -> TimeControl {
    let span = |ms: i64| Duration::from_millis(ms.max(0) as u64);
    match (ms.filter(|&ms| ms > 0), increment_ms) {
        (Some(bank), Some(inc)) => TimeControl::Fischer {
            bank: span(bank),
            increment: span(inc),
        },
        (Some(per_move), None) => TimeControl::PerMove(span(per_move)),
        (None, _) => TimeControl::None,
    }
}

/// The rules as stored.
pub(crate) fn rules_json(rules: &Rules) -> String {
    serde_json::to_string(rules).expect("rules serialize")
}

pub(crate) fn parse_rules(json: &str) -> Result<Rules, ServiceError> {
    serde_json::from_str(json).map_err(|e| ServiceError::Internal(format!("stored rules: {e}")))
}

/// A start position as stored: its record and side to move (none: the standard start).
pub(crate) fn start_columns(start: Option<&Position>) -> Option<(String, String)> {
    start.map(|p| (write_position(p), p.turn().name().to_string()))
}

/// The stored start position.
pub(crate) fn stored_start(
    start: Option<&(String, String)>,
    rules: Rules,
) -> Result<Position, ServiceError> {
    let Some((record, turn)) = start else {
        return Ok(Position::start(rules));
    };
    let bad = |e: String| ServiceError::Internal(format!("stored start position: {e}"));
    let turn: Side = turn
        .parse()
        .map_err(|e: crate::tafl::side::SideError| bad(e.to_string()))?;
    crate::tafl::parse_position(record, turn, rules).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::time_control;
    use crate::service::types::TimeControl;
    use std::time::Duration;

    /// A time control written to its columns reads back the same; none, or a time not above
    /// zero, is no clock.
    #[test]
    fn a_time_control_reads_back_from_its_columns() {
        let s = Duration::from_secs;
        for tc in [
            TimeControl::None,
            TimeControl::PerMove(s(3600)),
            TimeControl::Fischer {
                bank: s(600),
                increment: s(5),
            },
        ] {
            assert_eq!(time_control(tc.as_ms(), tc.increment_ms()), tc);
        }
        assert_eq!(time_control(Some(0), None), TimeControl::None);
        assert_eq!(time_control(Some(-5), Some(1000)), TimeControl::None);
    }
}
