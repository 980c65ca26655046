//! The puzzles' rows read and decoded: a stored puzzle read back into its start, its line and
//! what it asks (and a found one written to its row), a try at a puzzle, the verdict kept with
//! a try until it is shown, and the lines of the puzzle leaderboard and of a day's results.

use super::{parse_rules, rules_json};
use crate::ai::puzzle::{Kind, Record};
use crate::rating::Rating;
use crate::service::error::ServiceError;
use crate::service::types::{DayResult, PuzzlePlayer, PuzzleRatings};
use crate::store::puzzles::{
    self as rows, AttemptRow, DayResultRow, NewPuzzle, PuzzlePlayerRow, PuzzleRow, UnshownRow,
};
use crate::store::Connection;
use crate::tafl::{Game, Move, Position, Side};

/// A stored puzzle read back: its start, its line and what it asks.
pub(crate) struct LoadedPuzzle {
    pub(crate) id: i64,
    /// The solver's moves in all.
    pub(crate) moves: u32,
    /// Its rating's value.
    pub(crate) rating: f64,
    pub(crate) start: Position,
    pub(crate) line: Vec<Move>,
    pub(crate) kind: Kind,
}

/// A stored puzzle read back, its line checked legal from its start.
pub(crate) fn puzzle(row: PuzzleRow) -> Result<LoadedPuzzle, ServiceError> {
    let bad = |e: String| ServiceError::Internal(format!("puzzle {}: {e}", row.id));
    let kind = Kind::from_name(&row.kind).ok_or_else(|| bad(format!("kind '{}'", row.kind)))?;
    let to_move: Side = row
        .to_move
        .parse()
        .map_err(|e: crate::tafl::side::SideError| bad(e.to_string()))?;
    let record = Record {
        position: row.position.clone(),
        to_move,
        rules: parse_rules(&row.rules)?,
        kind,
        moves: row.moves,
        line: row.line.split_whitespace().map(str::to_string).collect(),
        source: row.source.clone(),
    };
    let (start, line) = record.read().map_err(|e| bad(e.to_string()))?;
    Ok(LoadedPuzzle {
        id: row.id,
        moves: row.moves,
        rating: row.rating.rating,
        start,
        line,
        kind,
    })
}

impl LoadedPuzzle {
    /// The game from the puzzle's start with the first `plies` of the line played.
    pub(crate) fn game_at(&self, plies: u32) -> Game {
        let mut game = Game::from_position(self.start);
        for &mv in self.line.iter().take(plies as usize) {
            game.play(mv)
                .expect("a stored line is checked legal when read");
        }
        game
    }
}

/// Writes the puzzle `r` records, from `source` (`seed`, or `game` with the game it was found
/// in), rated `rating`, at `now`, unless it is stored already: whether it was new.
pub(crate) async fn insert(
    conn: &mut Connection,
    r: &Record,
    (source, game_id): (&str, Option<i64>),
    rating: Rating,
    now: i64,
) -> Result<bool, ServiceError> {
    let new = NewPuzzle {
        position: &r.position,
        to_move: r.to_move.name(),
        rules: &rules_json(&r.rules),
        kind: r.kind.name(),
        moves: r.moves,
        line: &r.line.join(" "),
        source,
        game_id,
        rating,
        now,
    };
    Ok(rows::insert(&mut *conn, &new).await?)
}

/// Where a try stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TryStatus {
    /// Under way: the player's current puzzle (or the day's).
    Active,
    Solved,
    /// Failed (a status stored as anything but `active` or `solved` reads as this).
    Failed,
}

/// A user's try at a puzzle, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PuzzleTry {
    pub(crate) id: i64,
    pub(crate) puzzle: i64,
    pub(crate) status: TryStatus,
    /// The plies of the puzzle's line played.
    pub(crate) progress: u32,
    /// Whether it counts for the ratings.
    pub(crate) rated: bool,
    /// The day whose daily puzzle this is a try at; `None` for the user's own puzzles.
    pub(crate) day: Option<i64>,
}

impl PuzzleTry {
    /// The try `id` just started at `puzzle`: under way, at the puzzle's start.
    pub(crate) fn started(id: i64, puzzle: i64, rated: bool, day: Option<i64>) -> PuzzleTry {
        PuzzleTry {
            id,
            puzzle,
            status: TryStatus::Active,
            progress: 0,
            rated,
            day,
        }
    }

    pub(crate) fn active(&self) -> bool {
        self.status == TryStatus::Active
    }
}

impl From<AttemptRow> for PuzzleTry {
    fn from(row: AttemptRow) -> PuzzleTry {
        PuzzleTry {
            id: row.id,
            puzzle: row.puzzle_id,
            status: match row.status.as_str() {
                "active" => TryStatus::Active,
                "solved" => TryStatus::Solved,
                _ => TryStatus::Failed,
            },
            progress: row.progress,
            rated: row.rated,
            day: row.day,
        }
    }
}

/// A verdict as its try keeps it until it is shown: the move, and for the try's end the
/// solution's move and the ratings' change.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct KeptVerdict {
    /// The move, `from-to`.
    #[serde(rename = "move")]
    pub(crate) mv: String,
    /// The move as played (its captures, the game's end).
    pub(crate) played: String,
    #[serde(default)]
    pub(crate) solution: Option<String>,
    /// The ratings' change: the player's rating, deviation and volatility before and after,
    /// then the puzzle's, each written as Rust writes an `f64` (the shortest text that reads
    /// back to the same number, which serde_json's reading does not promise).
    #[serde(default)]
    ratings: Option<Vec<String>>,
}

impl KeptVerdict {
    /// The verdict of move `mv` (as played: `played`), the solution's move `solution` if it
    /// was wrong; no ratings' change yet.
    pub(crate) fn new(mv: String, played: String, solution: Option<String>) -> KeptVerdict {
        KeptVerdict {
            mv,
            played,
            solution,
            ratings: None,
        }
    }

    /// The verdict as its try keeps it.
    pub(crate) fn json(&self) -> Result<String, ServiceError> {
        serde_json::to_string(self).map_err(|e| ServiceError::Internal(format!("a verdict: {e}")))
    }

    /// Keeps the ratings' change with the verdict.
    pub(crate) fn set_ratings(&mut self, ratings: Option<&PuzzleRatings>) {
        self.ratings = ratings.map(|r| {
            [r.player.0, r.player.1, r.puzzle.0, r.puzzle.1]
                .iter()
                .flat_map(|r| [r.rating, r.deviation, r.volatility])
                .map(|x| x.to_string())
                .collect()
        });
    }

    /// The ratings' change kept with the verdict, if it rated the try.
    pub(crate) fn ratings(&self) -> Result<Option<PuzzleRatings>, ServiceError> {
        let Some(kept) = &self.ratings else {
            return Ok(None);
        };
        let bad = || ServiceError::Internal(format!("a kept verdict's ratings: {kept:?}"));
        let x: Vec<f64> = kept
            .iter()
            .map(|x| x.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if x.len() != 12 {
            return Err(bad());
        }
        let r = |i: usize| Rating {
            rating: x[3 * i],
            deviation: x[3 * i + 1],
            volatility: x[3 * i + 2],
        };
        Ok(Some(PuzzleRatings {
            player: (r(0), r(1)),
            puzzle: (r(2), r(3)),
        }))
    }
}

/// A try whose verdict is not known to have been shown, and that verdict.
pub(crate) fn unshown(row: UnshownRow) -> Result<(PuzzleTry, KeptVerdict), ServiceError> {
    let a = PuzzleTry::from(row.attempt);
    let verdict: KeptVerdict = serde_json::from_str(&row.verdict)
        .map_err(|e| ServiceError::Internal(format!("the verdict kept with try {}: {e}", a.id)))?;
    Ok((a, verdict))
}

impl From<PuzzlePlayerRow> for PuzzlePlayer {
    fn from(r: PuzzlePlayerRow) -> PuzzlePlayer {
        PuzzlePlayer {
            user_id: r.user_id,
            name: r.name,
            rating: r.rating,
            solved: r.solved,
            failed: r.failed,
        }
    }
}

impl From<DayResultRow> for DayResult {
    fn from(r: DayResultRow) -> DayResult {
        DayResult {
            user_id: r.user_id,
            solved: r.solved,
            took_ms: r.took_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KeptVerdict, PuzzleTry, TryStatus};
    use crate::rating::Rating;
    use crate::service::types::PuzzleRatings;
    use crate::store::puzzles::AttemptRow;

    /// A try's status reads as under way, solved or failed; a status this version does not
    /// know reads as failed, not as under way.
    #[test]
    fn a_tries_status_is_read_once() {
        let row = |status: &str| AttemptRow {
            id: 1,
            puzzle_id: 2,
            status: status.to_string(),
            progress: 3,
            rated: true,
            day: None,
        };
        let status = |s: &str| PuzzleTry::from(row(s)).status;
        assert_eq!(status("active"), TryStatus::Active);
        assert_eq!(status("solved"), TryStatus::Solved);
        assert_eq!(status("failed"), TryStatus::Failed);
        assert_eq!(status("later"), TryStatus::Failed);
        assert!(PuzzleTry::from(row("active")).active());
    }

    /// The ratings' change a verdict keeps reads back to the same numbers, to the last bit.
    #[test]
    fn a_kept_verdicts_ratings_read_back_exactly() {
        let r = |rating: f64| Rating {
            rating,
            deviation: rating / 7.0,
            volatility: 0.06 + rating / 1e9,
        };
        let ratings = PuzzleRatings {
            player: (r(1500.1), r(1512.345678901234)),
            puzzle: (r(1600.0 / 3.0), r(0.1 + 0.2)),
        };
        let mut kept = KeptVerdict::new("e1-e3".into(), "e1-e3 x e4".into(), None);
        kept.set_ratings(Some(&ratings));
        let json = kept.json().unwrap();
        let back: KeptVerdict = serde_json::from_str(&json).unwrap();
        assert_eq!(back.ratings().unwrap(), Some(ratings));
        assert_eq!(
            (back.mv, back.played, back.solution),
            (kept.mv, kept.played, None)
        );
        let none = KeptVerdict::new("a1-a2".into(), "a1-a2".into(), Some("b1-b2".into()));
        assert_eq!(none.ratings().unwrap(), None);
    }
}
