//! What the text drawn into an image tells, as data: the bot words it. The service draws its
//! boards and graphs (off the runtime, through its heavy-work gate), so it is handed the bot's
//! wording as a plain function ([`Captions`], through `Service::with_captions`) and calls it
//! with a [`Caption`]; without one, its images carry no text of their own.

use super::{GameInfo, PuzzleView};
use crate::tafl::Game;

/// What an image's caption tells.
#[derive(Debug, Clone, Copy)]
pub enum Caption<'a> {
    /// Under a game's board: where the game stands (its move, who is to play and the clocks),
    /// or its result.
    Game(&'a GameInfo),
    /// Under a puzzle's board: the task at the player's turn.
    Puzzle(&'a PuzzleView),
    /// Under the board of a puzzle solved.
    PuzzleSolved,
    /// Under the board of a puzzle failed: the solution's move there.
    PuzzleFailed { solution: &'a str },
    /// Over a game's evaluation graph: the game, its players and its result.
    Graph(&'a GameInfo),
    /// Under frame `ply` of a game's replay (0: the start): its move, and the result on the
    /// last frame.
    ReplayFrame { game: &'a Game, ply: usize },
}

/// The words of a caption: the bot's `messages::caption`.
pub type Captions = fn(&Caption<'_>) -> String;

/// `caption` in the words `captions` gives (empty without them).
pub(crate) fn worded(captions: Option<Captions>, caption: &Caption<'_>) -> String {
    captions.map(|words| words(caption)).unwrap_or_default()
}
