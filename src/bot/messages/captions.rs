//! The text drawn into images: the caption under a board, the title over a graph, in the
//! topics' words. The service draws its images and calls [`caption`] (given to it with
//! `Service::with_captions`) with what each caption tells.

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
    }
}
