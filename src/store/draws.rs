//! The `draw_offers` table: at most one open offer per game.

use super::StoreError;
use super::Writes;
use super::{to_db, DbId, DrawStatus};
use sqlx::any::AnyExecutor;

/// An open draw offer.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DrawOfferRow {
    pub id: i64,
    pub game_id: i64,
    #[sqlx(try_from = "i64")]
    pub ply: u32,
    #[sqlx(try_from = "DbId")]
    pub offered_by: u64,
}

/// Opens an offer. A second open offer in a game is a unique violation on `draw_offers`.
pub async fn insert<'e>(
    ex: impl Writes<'e>,
    game_id: i64,
    ply: u32,
    offered_by: u64,
    now: i64,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO draw_offers (game_id, ply, offered_by, created_at) VALUES ($1, $2, $3, $4) \
         RETURNING id",
    )
    .bind(game_id)
    .bind(i64::from(ply))
    .bind(to_db(offered_by))
    .bind(now)
    .fetch_one(ex)
    .await?)
}

/// The game's open offer, if any.
pub async fn open_in_game<'e>(
    ex: impl AnyExecutor<'e>,
    game_id: i64,
) -> Result<Option<DrawOfferRow>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, ply, offered_by FROM draw_offers WHERE game_id = $1 AND status = 'open'",
    )
    .bind(game_id)
    .fetch_optional(ex)
    .await?)
}

/// Whether offer `id` was decided with `status` at `at`.
pub async fn decided_at<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
    status: DrawStatus,
    at: i64,
) -> Result<bool, StoreError> {
    let found: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM draw_offers WHERE id = $1 AND status = $2 AND answered_at = $3",
    )
    .bind(id)
    .bind(status)
    .bind(at)
    .fetch_one(ex)
    .await?;
    Ok(found > 0)
}

/// Closes the game's open offer (if any) with `status`. Returns whether one was open.
pub async fn close_open<'e>(
    ex: impl Writes<'e>,
    game_id: i64,
    status: DrawStatus,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE draw_offers SET status = $1, answered_at = $2 WHERE game_id = $3 AND status = 'open'",
    )
    .bind(status)
    .bind(now)
    .bind(game_id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Decides the offer `id` with `status` (accepted or declined), if it is still open. One
/// conditional update: of two decisions at once (Accept and Decline pressed together),
/// exactly one takes the offer. Returns whether this one did.
pub async fn decide<'e>(
    ex: impl Writes<'e>,
    id: i64,
    status: DrawStatus,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE draw_offers SET status = $1, answered_at = $2 WHERE id = $3 AND status = 'open'",
    )
    .bind(status)
    .bind(now)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}
