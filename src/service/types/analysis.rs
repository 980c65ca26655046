//! A finished analysis as its summary tells it, typed (the bot words it).

use super::GameInfo;
use crate::ai::analysis::{Forced, Judgement, Review};
use crate::tafl::{Move, Side};

/// Worst moves named per side in the summary.
pub const WORST_PER_SIDE: usize = 3;

/// A finished analysis as its summary tells it, typed: the game, and for each side its
/// accuracy, how many of its moves were costly and its costliest moves. The bot words it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnalysisSummary {
    pub game: GameInfo,
    /// The attackers', then the defenders'.
    pub sides: [SideSummary; 2],
}

/// One side's part of an [`AnalysisSummary`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SideSummary {
    pub side: Side,
    /// The mean accuracy of its moves, 0–100 (`None`: it made no move).
    pub accuracy: Option<f64>,
    /// How many of its moves were blunders, mistakes and inaccuracies.
    pub blunders: usize,
    pub mistakes: usize,
    pub inaccuracies: usize,
    /// Its costliest moves, the costliest first, at most [`WORST_PER_SIDE`].
    pub worst: Vec<CostlyMove>,
}

/// A move that gave part of the expected score away.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CostlyMove {
    /// The ply the move made (1 for the game's first move).
    pub ply: u32,
    /// Its number in the record: the attackers' move and the defenders' answer share one, the
    /// attackers' first; a game that starts with the defenders to move starts at 1 with them.
    pub number: u32,
    pub side: Side,
    /// The move as recorded (`d1-d4xd5+`).
    pub played: String,
    pub judgement: Judgement,
    /// The forced result it allowed or let go, when it did (what makes it worse than its loss).
    pub forced: Option<Forced>,
    /// The mover's expected score it gave away, 0–1.
    pub loss: f64,
    /// The search's choice before the move.
    pub better: Option<Move>,
    /// The search's choice after it: the answer the move allowed.
    pub refutation: Option<Move>,
}

impl AnalysisSummary {
    /// What the summary tells of `game`'s analysis, `review`.
    pub fn new(game: &GameInfo, review: &Review) -> AnalysisSummary {
        let first_defenders = game.start.turn() == Side::Defenders;
        let side = |side: Side| SideSummary {
            side,
            accuracy: review.accuracy[usize::from(side == Side::Defenders)],
            blunders: review.count(side, Judgement::Blunder),
            mistakes: review.count(side, Judgement::Mistake),
            inaccuracies: review.count(side, Judgement::Inaccuracy),
            worst: review
                .worst(side, WORST_PER_SIDE)
                .into_iter()
                .map(|m| CostlyMove {
                    ply: m.ply,
                    number: (m.ply + u32::from(first_defenders)).div_ceil(2),
                    side: m.side,
                    played: m.played.clone(),
                    judgement: m.judgement,
                    forced: m.forced,
                    loss: m.loss,
                    better: m.better,
                    refutation: m.refutation,
                })
                .collect(),
        };
        AnalysisSummary {
            game: game.clone(),
            sides: [side(Side::Attackers), side(Side::Defenders)],
        }
    }
}
