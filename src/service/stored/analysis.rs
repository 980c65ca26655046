//! An analysis's row decoded: the settings it searches with and the evaluations it has
//! recorded, as stored (JSON), and the review they make of its game.

use crate::ai::analysis::{self, Evaluation, Review};
use crate::ai::Limits;
use crate::service::error::ServiceError;
use crate::store::analysis::AnalysisRow;
use crate::tafl::Game;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How an analysis searches each position, as stored with it (a restart goes on the same way).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AnalysisSettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms_per_ply: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    pub scale: f64,
}

impl AnalysisSettings {
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            time: self.ms_per_ply.map(Duration::from_millis),
            nodes: None,
        }
    }

    /// The settings as stored.
    pub(crate) fn json(&self) -> String {
        serde_json::to_string(self).expect("settings serialize")
    }
}

/// One position's search as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredEval {
    score: i32,
    best: String,
    depth: u32,
    nodes: u64,
}

impl From<&Evaluation> for StoredEval {
    fn from(e: &Evaluation) -> StoredEval {
        StoredEval {
            score: e.score,
            best: e.best.to_string(),
            depth: e.depth,
            nodes: e.nodes,
        }
    }
}

/// The settings `stored` searches with.
pub(crate) fn settings(stored: &AnalysisRow) -> Result<AnalysisSettings, ServiceError> {
    serde_json::from_str(&stored.settings)
        .map_err(|e| ServiceError::Internal(format!("analysis {}: settings: {e}", stored.game_id)))
}

/// The evaluations `stored` has recorded, a position each (none where the game is over).
pub(crate) fn evaluations(stored: &AnalysisRow) -> Result<Vec<Option<StoredEval>>, ServiceError> {
    serde_json::from_str(&stored.evaluations).map_err(|e| {
        ServiceError::Internal(format!("analysis {}: evaluations: {e}", stored.game_id))
    })
}

/// The evaluations as stored.
pub(crate) fn evaluations_json(evals: &[Option<StoredEval>]) -> String {
    serde_json::to_string(evals).expect("evaluations serialize")
}

/// The review of a game from its stored analysis, the game played through once, one position
/// at a time.
pub(crate) fn review(game: &Game, stored: &AnalysisRow) -> Result<Review, ServiceError> {
    let settings = settings(stored)?;
    let evals = evaluations(stored)?;
    let positions = game.moves().len() + 1;
    if evals.len() != positions {
        return Err(ServiceError::Internal(format!(
            "analysis {}: {} evaluations for {positions} positions",
            stored.game_id,
            evals.len(),
        )));
    }
    let mut parsed = Vec::with_capacity(positions);
    let mut failed = None;
    analysis::walk(game, |i, g| match (&evals[i], &failed) {
        (_, Some(_)) => {}
        (None, None) => parsed.push(None),
        (Some(e), None) => match crate::tafl::parse_move(g.position(), &e.best) {
            Ok(best) => parsed.push(Some(Evaluation {
                score: e.score,
                best,
                depth: e.depth,
                nodes: e.nodes,
            })),
            Err(err) => {
                failed = Some(ServiceError::Internal(format!(
                    "analysis {}: stored move '{}': {err}",
                    stored.game_id, e.best
                )))
            }
        },
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(analysis::review(game, &parsed, settings.scale))
}
