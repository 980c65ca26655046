//! The `vacations` table: a member's vacations, the open one (at most one: `ended_at` NULL)
//! and those taken, whose days count against a yearly allowance. While one is open, the
//! clock of each game where the member is to move stands still (`games.clock_frozen_at`, see
//! [`super::games::freeze_clock`]).

use super::StoreError;
use super::Writes;
use super::{to_db, DbId};
use sqlx::any::AnyExecutor;

/// A stored vacation.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VacationRow {
    pub id: i64,
    #[sqlx(try_from = "DbId")]
    pub user_id: u64,
    /// When it started (Unix ms, the database's clock).
    pub started_at: i64,
    /// When it ends unless it is ended sooner: its start and the days asked for.
    pub planned_end: i64,
    /// When it ended; none while it is on.
    pub ended_at: Option<i64>,
}

const COLUMNS: &str = "id, user_id, started_at, planned_end, ended_at";

/// Opens a vacation for `user` from `now` to `planned_end`, and returns its id. A vacation
/// already open for them makes this fail with a unique violation on `vacations` (see
/// [`super::is_unique_violation`]).
pub async fn insert<'e>(
    ex: impl Writes<'e>,
    user: u64,
    now: i64,
    planned_end: i64,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO vacations (user_id, started_at, planned_end) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(to_db(user))
    .bind(now)
    .bind(planned_end)
    .fetch_one(ex)
    .await?)
}

/// A vacation by id.
pub async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<VacationRow>, StoreError> {
    Ok(
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM vacations WHERE id = $1"))
            .bind(id)
            .fetch_optional(ex)
            .await?,
    )
}

/// `user`'s open vacation, if they are on one.
pub async fn open_of<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
) -> Result<Option<VacationRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM vacations WHERE user_id = $1 AND ended_at IS NULL"
    ))
    .bind(to_db(user))
    .fetch_optional(ex)
    .await?)
}

/// `user`'s vacations that were on at `since` or later (the open one included), oldest first.
pub async fn of_user_since<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
    since: i64,
) -> Result<Vec<VacationRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM vacations WHERE user_id = $1 \
         AND (ended_at IS NULL OR ended_at > $2) ORDER BY started_at, id"
    ))
    .bind(to_db(user))
    .bind(since)
    .fetch_all(ex)
    .await?)
}

/// The open vacations whose planned end has come by `now`.
pub async fn due<'e>(ex: impl AnyExecutor<'e>, now: i64) -> Result<Vec<VacationRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM vacations WHERE ended_at IS NULL AND planned_end <= $1 \
         ORDER BY planned_end, id"
    ))
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Ends vacation `id` at `at`, if it is still on. Returns whether this call ended it (so its
/// end is told once).
pub async fn end<'e>(ex: impl Writes<'e>, id: i64, at: i64) -> Result<bool, StoreError> {
    let done = sqlx::query("UPDATE vacations SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL")
        .bind(at)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The members on vacation now.
pub async fn open_users<'e>(ex: impl AnyExecutor<'e>) -> Result<Vec<u64>, StoreError> {
    let ids: Vec<i64> = sqlx::query_scalar("SELECT user_id FROM vacations WHERE ended_at IS NULL")
        .fetch_all(ex)
        .await?;
    Ok(ids.into_iter().map(super::from_db).collect())
}
