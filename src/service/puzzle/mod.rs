//! Puzzles: each user's current puzzle in a server (one at a time, kept in the database), its
//! moves judged against the proven solution, the player's and the puzzle's Glicko-2 ratings
//! moved once per first try (as lichess does), the server's puzzle leaderboard, and the daily
//! puzzle posted through the outbox in the transaction that claims the day: every member may
//! try it (one try each, beside their own puzzle), and the day's results are its leaderboard.
//!
//! The puzzles come from `assets/puzzles.json` (found by `tablut-bot puzzles` in the AI's games
//! against itself and proven by [`crate::ai::puzzle`]), loaded at start-up.

mod daily;
mod finding;
mod puzzles;
mod verdicts;

pub use crate::service::notice::ReplyTo;
pub use crate::service::types::{
    DayResult, PuzzlePlayer, PuzzleRatings, PuzzleVerdict, PuzzleView, VerdictKey,
};
pub use daily::{day_of, DailyBoard};
pub use finding::SCAN_GIVE_UP;
pub use puzzles::{initial_rating, Puzzles, SEED};
