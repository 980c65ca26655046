//! What the text drawn into an image tells, as data: the bot words it. The service draws its
//! boards and graphs (off the runtime, through its heavy-work gate), so it is handed the bot's
//! wording as a plain function ([`Captions`], through `Service::with_captions`) and calls it
//! with a [`Caption`]; without one, its images carry no text of their own.

use super::{GameInfo, Player, PuzzleView};
use crate::render::graph::{GraphLabels, Mark};
use crate::tafl::{Call, Game};
use crate::tournament::Tiebreak;

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
    /// A label of a game's evaluation graph.
    GraphLabel(GraphLabel),
    /// A player's name drawn in an image (a row of a tournament's standings).
    Name(&'a Player),
    /// A column's heading in a tournament's standings image.
    Heading(Heading),
    /// The line under a tournament's name in its standings image: where it stands.
    StandingsRound { round: u32, rounds: u32 },
}

/// What a label of the evaluation graph names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphLabel {
    /// The axis across: the plies.
    Plies,
    /// The axis up: the attackers' expected score.
    Score,
    /// A kind of costly move, in the key.
    Mark(Mark),
    /// A call, in the key.
    Call(Call),
}

/// What a column of the standings image holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heading {
    /// The place.
    Place,
    /// Match points.
    MatchPoints,
    /// A tiebreak's values (game points among them).
    Tiebreak(Tiebreak),
}

/// The words of a caption: the bot's `messages::caption`.
pub type Captions = fn(&Caption<'_>) -> String;

/// `caption` in the words `captions` gives (empty without them).
pub(crate) fn worded(captions: Option<Captions>, caption: &Caption<'_>) -> String {
    captions.map(|words| words(caption)).unwrap_or_default()
}

/// The graph's labels in the words `captions` gives (empty without them).
pub fn graph_labels(captions: Option<Captions>) -> GraphLabels {
    let word = |label| worded(captions, &Caption::GraphLabel(label));
    GraphLabels {
        plies: word(GraphLabel::Plies),
        score: word(GraphLabel::Score),
        marks: Mark::ALL.map(|m| word(GraphLabel::Mark(m))),
        calls: [Call::Raichi, Call::Tuichu].map(|c| word(GraphLabel::Call(c))),
    }
}
