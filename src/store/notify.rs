//! The `notify_settings` table: how each member is told that games wait on them (a direct
//! message a move, a daily digest, or none), across servers; a member without a row has the
//! default. It also keeps when Discord refused them a direct message (their notifications
//! turned off for it) and the last day a digest was claimed for them.

use super::StoreError;
use super::Writes;
use super::{to_db, DbId};
use sqlx::any::AnyExecutor;

/// A member's stored setting.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct NotifyRow {
    #[sqlx(try_from = "DbId")]
    pub user_id: u64,
    /// `move`, `digest` or `off`.
    pub mode: String,
    /// When they chose it, or when it was turned off for them (Unix ms).
    pub set_at: i64,
    /// When Discord refused them a direct message and the setting was turned off for it.
    pub refused_at: Option<i64>,
    /// The last day (days since the Unix epoch, UTC) a digest was claimed for them.
    pub digest_day: Option<i64>,
}

const COLUMNS: &str = "user_id, mode, set_at, refused_at, digest_day";

/// `user`'s setting, if they have one stored.
pub async fn of_user<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
) -> Result<Option<NotifyRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM notify_settings WHERE user_id = $1"
    ))
    .bind(to_db(user))
    .fetch_optional(ex)
    .await?)
}

/// `user` chooses `mode` at `now`: stored (a refusal remembered before is forgotten: they
/// chose again).
pub async fn set<'e>(
    ex: impl Writes<'e>,
    user: u64,
    mode: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO notify_settings (user_id, mode, set_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, set_at = excluded.set_at, \
         refused_at = NULL",
    )
    .bind(to_db(user))
    .bind(mode)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Discord refused `user` a direct message at `now`: their notifications are turned off,
/// unless they are off already. Returns whether this call turned them off (so they are told
/// once).
pub async fn turn_off_refused<'e>(
    ex: impl Writes<'e>,
    user: u64,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO notify_settings (user_id, mode, set_at, refused_at) VALUES ($1, 'off', $2, $2) \
         ON CONFLICT (user_id) DO UPDATE SET mode = 'off', set_at = excluded.set_at, \
         refused_at = excluded.refused_at WHERE notify_settings.mode <> 'off'",
    )
    .bind(to_db(user))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The members who chose the digest and have had none claimed for `day` yet.
pub async fn digest_due<'e>(ex: impl AnyExecutor<'e>, day: i64) -> Result<Vec<u64>, StoreError> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT user_id FROM notify_settings WHERE mode = 'digest' \
         AND (digest_day IS NULL OR digest_day < $1) ORDER BY user_id",
    )
    .bind(day)
    .fetch_all(ex)
    .await?;
    Ok(ids.into_iter().map(super::from_db).collect())
}

/// Claims `user`'s digest of `day`, if they still want one and none was claimed for it:
/// returns whether this call claimed it (one process of several sends it, once).
pub async fn claim_digest<'e>(
    ex: impl Writes<'e>,
    user: u64,
    day: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE notify_settings SET digest_day = $2 WHERE user_id = $1 AND mode = 'digest' \
         AND (digest_day IS NULL OR digest_day < $2)",
    )
    .bind(to_db(user))
    .bind(day)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}
