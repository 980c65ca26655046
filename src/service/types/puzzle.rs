//! What a puzzle hands its player, as the puzzles' part returns it and a notice tells it: the
//! puzzle at their turn, and how a move in it was judged; and the lines of the puzzles'
//! leaderboards.

use super::{NoticeId, UserId};
use crate::ai::puzzle::Kind;
use crate::rating::Rating;
use crate::tafl::Side;

/// A puzzle as the player sees it at their turn.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleView {
    pub puzzle_id: i64,
    pub kind: Kind,
    /// The solver's moves in all.
    pub moves: u32,
    /// Which of them is asked now (1 for the first).
    pub step: u32,
    /// The side the player moves for.
    pub side: Side,
    pub rating: f64,
    /// Whether this try counts for the ratings (the player's first at this puzzle).
    pub rated: bool,
    /// The opponent's reply just played, when this is a later step.
    pub reply: Option<String>,
    /// The day whose daily puzzle this is (days since the Unix epoch); `None` for the
    /// player's own puzzles.
    pub day: Option<i64>,
    /// Never stored with a notice.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// The notice (written with the try it starts) whose edit of the interaction's response
    /// shows it; none when showing it changed nothing (the try under way, shown again) or no
    /// interaction was named. Not stored with the notice.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}

/// A server's puzzle leaderboard line: a member's puzzle rating and tries.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzlePlayer {
    pub user_id: UserId,
    pub name: String,
    pub rating: Rating,
    pub solved: u32,
    pub failed: u32,
}

/// A member's finished try at the day's puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayResult {
    pub user_id: UserId,
    pub solved: bool,
    /// From the try's start to its end, in ms.
    pub took_ms: i64,
}

/// A rated try's effect: the player's and the puzzle's ratings before and after.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleRatings {
    pub player: (Rating, Rating),
    pub puzzle: (Rating, Rating),
}

/// Which verdict a verdict is: its try, and where it left the try (for
/// `Puzzles::verdict_shown`); and, when it was given to an interaction, the notice
/// that shows it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VerdictKey {
    pub attempt: i64,
    pub progress: u32,
    /// The notice (written with the verdict) whose edit of the interaction's response shows
    /// it; none when no interaction was named. Not stored with the notice.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}

/// How a move in a puzzle was judged. Until `Puzzles::verdict_shown` is told it was shown, the
/// player's try keeps it, and the next `puzzle_move` or `Puzzles::unshown_verdict`
/// gives it again (the same verdict: nothing judged or rated again). Stored (its board left
/// out) as the news of the notice that shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleVerdict {
    /// Right, and the puzzle goes on: the opponent replied; the next move is asked.
    Continue {
        played: String,
        view: PuzzleView,
        key: VerdictKey,
    },
    /// Right, and the puzzle is solved.
    Solved {
        played: String,
        key: VerdictKey,
        ratings: Option<PuzzleRatings>,
        /// The daily puzzle's day, when it was the daily puzzle.
        day: Option<i64>,
        #[serde(skip)]
        png: Vec<u8>,
    },
    /// Wrong: the solution's move here was `solution`.
    Failed {
        played: String,
        key: VerdictKey,
        solution: String,
        ratings: Option<PuzzleRatings>,
        day: Option<i64>,
        #[serde(skip)]
        png: Vec<u8>,
    },
}

impl PuzzleVerdict {
    /// The daily puzzle's day, when the move was in the daily puzzle.
    pub fn day(&self) -> Option<i64> {
        match self {
            PuzzleVerdict::Continue { view, .. } => view.day,
            PuzzleVerdict::Solved { day, .. } | PuzzleVerdict::Failed { day, .. } => *day,
        }
    }

    /// Which verdict this is.
    pub fn key(&self) -> VerdictKey {
        match self {
            PuzzleVerdict::Continue { key, .. }
            | PuzzleVerdict::Solved { key, .. }
            | PuzzleVerdict::Failed { key, .. } => *key,
        }
    }

    pub(crate) fn key_mut(&mut self) -> &mut VerdictKey {
        match self {
            PuzzleVerdict::Continue { key, .. }
            | PuzzleVerdict::Solved { key, .. }
            | PuzzleVerdict::Failed { key, .. } => key,
        }
    }

    /// The board after the move (empty when images are off, or in a stored notice).
    pub fn png(&self) -> &[u8] {
        match self {
            PuzzleVerdict::Continue { view, .. } => &view.png,
            PuzzleVerdict::Solved { png, .. } | PuzzleVerdict::Failed { png, .. } => png,
        }
    }

    pub(crate) fn png_mut(&mut self) -> &mut Vec<u8> {
        match self {
            PuzzleVerdict::Continue { view, .. } => &mut view.png,
            PuzzleVerdict::Solved { png, .. } | PuzzleVerdict::Failed { png, .. } => png,
        }
    }
}
