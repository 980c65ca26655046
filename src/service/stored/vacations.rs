//! A vacation's row read back: whose it is, when it started, when it is to end and when it
//! ended.

use crate::service::types::UserId;
use crate::store::vacations::{self as rows, VacationRow};
use crate::store::{AnyExecutor, StoreError};

/// A vacation as stored (times in Unix ms, on the database's clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredVacation {
    pub(crate) id: i64,
    pub(crate) user: UserId,
    pub(crate) started_at: i64,
    /// When it ends unless it is ended sooner: its start and the days asked for.
    pub(crate) planned_end: i64,
    /// When it ended; none while it is on.
    pub(crate) ended_at: Option<i64>,
}

impl From<VacationRow> for StoredVacation {
    fn from(row: VacationRow) -> StoredVacation {
        StoredVacation {
            id: row.id,
            user: row.user_id,
            started_at: row.started_at,
            planned_end: row.planned_end,
            ended_at: row.ended_at,
        }
    }
}

/// Vacation `id`, if there is one.
pub(crate) async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<StoredVacation>, StoreError> {
    Ok(rows::by_id(ex, id).await?.map(StoredVacation::from))
}

/// `user`'s open vacation, if they are on one.
pub(crate) async fn open_of<'e>(
    ex: impl AnyExecutor<'e>,
    user: UserId,
) -> Result<Option<StoredVacation>, StoreError> {
    Ok(rows::open_of(ex, user).await?.map(StoredVacation::from))
}

/// `user`'s vacations that were on at `since` or later (the open one included), oldest first.
pub(crate) async fn of_user_since<'e>(
    ex: impl AnyExecutor<'e>,
    user: UserId,
    since: i64,
) -> Result<Vec<StoredVacation>, StoreError> {
    let found = rows::of_user_since(ex, user, since).await?;
    Ok(found.into_iter().map(StoredVacation::from).collect())
}

/// The open vacations whose planned end has come by `now`.
pub(crate) async fn due<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<StoredVacation>, StoreError> {
    let found = rows::due(ex, now).await?;
    Ok(found.into_iter().map(StoredVacation::from).collect())
}
