//! What forgetting a person changed, as the privacy part returns it and its notice tells it.

use super::NoticeId;
use serde::Serialize;

/// What forgetting a person changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Forgotten {
    /// Ratings deleted (one per server and game of the tafl family).
    pub ratings: u64,
    /// Finished games now played by the stand-in (`privacy::FORMER_PLAYER`) in their place.
    pub games: u64,
    /// Puzzle ratings and puzzle tries deleted.
    pub puzzle_ratings: u64,
    pub puzzle_tries: u64,
    /// Closed challenges, draw offers, analyses asked for and daily-puzzle settings that named
    /// them, now naming the stand-in (an analysis: nobody).
    pub others: u64,
    /// News already delivered (or given up) that named them, deleted.
    pub notices: u64,
    /// The notice that shows this to its interaction, if one does.
    #[serde(skip)]
    pub notice: Option<NoticeId>,
}
