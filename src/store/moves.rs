//! The `moves` table: a game's moves in order, the source of truth for its position.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, MaybeDbId};
use sqlx::any::AnyExecutor;

/// A stored move.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    #[sqlx(try_from = "i64")]
    pub ply: u32,
    pub notation: String,
    /// The user who played it; `None` for the AI.
    #[sqlx(try_from = "MaybeDbId")]
    pub user_id: Option<u64>,
    pub played_at: i64,
}

/// Records a move. Fails with a unique violation if that ply is already recorded.
pub async fn insert<'e>(
    ex: impl Writes<'e>,
    game_id: i64,
    ply: u32,
    notation: &str,
    user_id: Option<u64>,
    played_at: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game_id)
    .bind(i64::from(ply))
    .bind(notation)
    .bind(opt_to_db(user_id))
    .bind(played_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// A game's moves, in order.
pub async fn of_game<'e>(
    ex: impl AnyExecutor<'e>,
    game_id: i64,
) -> Result<Vec<MoveRow>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT ply, notation, user_id, played_at FROM moves WHERE game_id = $1 ORDER BY ply",
    )
    .bind(game_id)
    .fetch_all(ex)
    .await?)
}
