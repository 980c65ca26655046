//! The `analyses` table: a finished game's post-game analysis, one position at a time.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, to_db, DbId, MaybeDbId};
use sqlx::any::AnyExecutor;

/// A stored analysis.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AnalysisRow {
    pub game_id: i64,
    #[sqlx(try_from = "DbId")]
    pub channel_id: u64,
    #[sqlx(try_from = "MaybeDbId")]
    pub requested_by: Option<u64>,
    pub plies: i64,
    pub done: i64,
    /// JSON: see the migration.
    pub evaluations: String,
    pub settings: String,
    pub progress_notice: Option<i64>,
    pub created_at: i64,
    pub finished_at: Option<i64>,
}

const COLUMNS: &str = "game_id, channel_id, requested_by, plies, done, evaluations, settings, \
    progress_notice, created_at, finished_at";

/// An analysis to start.
#[derive(Debug, Clone)]
pub struct NewAnalysis<'a> {
    pub game_id: i64,
    pub channel_id: u64,
    pub requested_by: Option<u64>,
    pub plies: i64,
    pub settings: &'a str,
    pub progress_notice: Option<i64>,
    pub now: i64,
}

/// Starts an analysis. Fails with a unique violation if the game has one already.
pub async fn insert<'e>(ex: impl Writes<'e>, a: &NewAnalysis<'_>) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO analyses (game_id, channel_id, requested_by, plies, settings, \
         progress_notice, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(a.game_id)
    .bind(to_db(a.channel_id))
    .bind(opt_to_db(a.requested_by))
    .bind(a.plies)
    .bind(a.settings)
    .bind(a.progress_notice)
    .bind(a.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A game's analysis, if one was started.
pub async fn of_game<'e>(
    ex: impl AnyExecutor<'e>,
    game_id: i64,
) -> Result<Option<AnalysisRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM analyses WHERE game_id = $1"
    ))
    .bind(game_id)
    .fetch_optional(ex)
    .await?)
}

/// The games whose analysis is unfinished, oldest first.
pub async fn unfinished<'e>(ex: impl AnyExecutor<'e>) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT game_id FROM analyses WHERE finished_at IS NULL ORDER BY created_at, game_id",
    )
    .fetch_all(ex)
    .await?)
}

/// Records the evaluations after one more position, if the analysis still stands at
/// `expected_done` positions (another worker may have recorded it first). Whether it did.
pub async fn record<'e>(
    ex: impl Writes<'e>,
    game_id: i64,
    expected_done: i64,
    evaluations: &str,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE analyses SET evaluations = $1, done = done + 1 \
         WHERE game_id = $2 AND done = $3 AND finished_at IS NULL",
    )
    .bind(evaluations)
    .bind(game_id)
    .bind(expected_done)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks an analysis finished (every position searched), unless it already is. Whether it did.
pub async fn finish<'e>(ex: impl Writes<'e>, game_id: i64, now: i64) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE analyses SET finished_at = $1 \
         WHERE game_id = $2 AND finished_at IS NULL AND done = plies + 1",
    )
    .bind(now)
    .bind(game_id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The ids of a channel's finished games, newest first, at most `limit`.
pub async fn finished_games_in_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel_id: u64,
    limit: i64,
) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM games WHERE channel_id = $1 AND status = 'finished' \
         ORDER BY id DESC LIMIT $2",
    )
    .bind(to_db(channel_id))
    .bind(limit)
    .fetch_all(ex)
    .await?)
}
