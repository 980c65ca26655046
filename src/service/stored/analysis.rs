//! An analysis's row decoded: an analysis read back ([`StoredAnalysis`]), the settings it
//! searches with and the evaluations it has recorded, as stored (JSON), and the review they
//! make of its game.

use crate::ai::analysis::{self, Evaluation, Review};
use crate::ai::Limits;
use crate::service::error::ServiceError;
use crate::service::types::{ChannelId, GameId, NoticeId};
use crate::store::analysis::{self as rows, AnalysisRow};
use crate::store::{AnyExecutor, StoreError};
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

/// An analysis read back: its settings and evaluations are decoded where they are asked for.
#[derive(Debug, Clone)]
pub(crate) struct StoredAnalysis(AnalysisRow);

impl StoredAnalysis {
    /// The game it reviews.
    pub(crate) fn game(&self) -> GameId {
        self.0.game_id
    }

    /// The channel it reports to.
    pub(crate) fn channel(&self) -> ChannelId {
        self.0.channel_id
    }

    /// The game's plies.
    pub(crate) fn plies(&self) -> i64 {
        self.0.plies
    }

    /// The positions searched so far.
    pub(crate) fn done(&self) -> i64 {
        self.0.done
    }

    /// Whether every position is searched and the summary written.
    pub(crate) fn is_finished(&self) -> bool {
        self.0.finished_at.is_some()
    }

    /// The notice that shows its progress, edited as it goes.
    pub(crate) fn progress_notice(&self) -> Option<NoticeId> {
        self.0.progress_notice
    }

    /// The analysis with `json` (as [`evaluations_json`] writes them) for its evaluations: as
    /// it will be stored once they are recorded.
    pub(crate) fn with_evaluations(&self, json: &str) -> StoredAnalysis {
        StoredAnalysis(AnalysisRow {
            evaluations: json.to_string(),
            ..self.0.clone()
        })
    }
}

/// Game `game`'s analysis, if it has one.
pub(crate) async fn of_game<'e>(
    ex: impl AnyExecutor<'e>,
    game: GameId,
) -> Result<Option<StoredAnalysis>, StoreError> {
    Ok(rows::of_game(ex, game).await?.map(StoredAnalysis))
}

/// The settings `stored` searches with.
pub(crate) fn settings(
    StoredAnalysis(stored): &StoredAnalysis,
) -> Result<AnalysisSettings, ServiceError> {
    serde_json::from_str(&stored.settings)
        .map_err(|e| ServiceError::Internal(format!("analysis {}: settings: {e}", stored.game_id)))
}

/// The evaluations `stored` has recorded, a position each (none where the game is over).
pub(crate) fn evaluations(
    StoredAnalysis(stored): &StoredAnalysis,
) -> Result<Vec<Option<StoredEval>>, ServiceError> {
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
pub(crate) fn review(game: &Game, analysis: &StoredAnalysis) -> Result<Review, ServiceError> {
    let settings = settings(analysis)?;
    let evals = evaluations(analysis)?;
    let stored = &analysis.0;
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
