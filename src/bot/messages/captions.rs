//! The text drawn into images: the caption under a board, the title and labels of a graph,
//! the headings and names of a tournament's standings, in the topics' words. The service
//! draws its images and calls [`caption`] (given to it with `Service::with_captions`) with
//! what each caption tells.

use super::*;
use crate::service::Caption;

/// A caption's words.
pub fn caption(caption: &Caption<'_>) -> String {
    match caption {
        Caption::Game(game) => board_caption(game),
        Caption::Puzzle(view) => puzzle_task(view),
        Caption::PuzzleSolved => puzzle_end_caption(None),
        Caption::PuzzleFailed { solution } => puzzle_end_caption(Some(solution)),
        Caption::Graph(game) => graph_title(game),
        Caption::ReplayFrame { game, ply } => replay_caption(game, *ply),
        Caption::GraphLabel(label) => graph_label(*label).to_string(),
        Caption::Name(player) => plain_name(player),
        Caption::Heading(h) => tournaments::heading(*h).to_string(),
        Caption::StandingsRound { round, rounds } => tournaments::standings_round(*round, *rounds),
    }
}
