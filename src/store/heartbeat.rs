//! When the bot last ran (`heartbeat`, one row). Every process's clock beats it, promising its
//! next beat by a time; a start that finds the promise broken (no process beat in time: every
//! process was down, or could not reach the database) claims the time since the last beat as
//! downtime. The claim is one conditional update of the row, so when several processes start
//! together, one of them claims it, once.

use super::AnyExecutor;
use super::StoreError;
use super::Writes;

/// Records a beat at `now` with the next promised by `next_by`. With `claim` (a start), if the
/// promise before it was broken, also claims the downtime: returns the time of the last beat
/// before it, claimed by this call alone. The first beat ever claims nothing (the database
/// does not know what came before); a beat without `claim` (the bot running) never does.
///
/// Run it in a transaction with whatever the downtime changes, so that the claim and its
/// consequences commit together.
pub async fn beat(
    tx: &mut sqlx::AnyConnection,
    now: i64,
    next_by: i64,
    claim: bool,
) -> Result<Option<i64>, StoreError> {
    let first = sqlx::query(
        "INSERT INTO heartbeat (id, alive_at, expect_by) VALUES (1, $1, $2) \
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(now)
    .bind(next_by)
    .execute(&mut *tx)
    .await?;
    if first.rows_affected() == 1 {
        return Ok(None);
    }
    if !claim {
        return refresh(tx, now, next_by).await.map(|()| None);
    }
    // Every right-hand side reads the row as it was: away_from takes the last beat's time.
    let claimed: Option<i64> = sqlx::query_scalar(
        "UPDATE heartbeat SET away_from = alive_at, away_until = $1, alive_at = $1, \
         expect_by = $2 WHERE id = 1 AND expect_by < $1 RETURNING away_from",
    )
    .bind(now)
    .bind(next_by)
    .fetch_optional(&mut *tx)
    .await?;
    if claimed.is_some() {
        return Ok(claimed);
    }
    refresh(tx, now, next_by).await?;
    Ok(None)
}

/// A beat that claims nothing. Neither time goes back: another process may beat with a clock
/// a little behind, or promise a later beat than this one.
async fn refresh(tx: &mut sqlx::AnyConnection, now: i64, next_by: i64) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE heartbeat SET \
         alive_at = CASE WHEN alive_at < $1 THEN $1 ELSE alive_at END, \
         expect_by = CASE WHEN expect_by < $2 THEN $2 ELSE expect_by END WHERE id = 1",
    )
    .bind(now)
    .bind(next_by)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The last beat (Unix ms), if the bot ever beat.
pub async fn alive_at<'e>(ex: impl AnyExecutor<'e>) -> Result<Option<i64>, StoreError> {
    Ok(
        sqlx::query_scalar("SELECT alive_at FROM heartbeat WHERE id = 1")
            .fetch_optional(ex)
            .await?,
    )
}

/// Moves every running game's deadline on by `by` ms (and a clock stopped for a vacation, the
/// time it stopped at, so its time left stays as it was); how many games.
pub async fn extend_deadlines<'e>(ex: impl Writes<'e>, by: i64) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET turn_deadline = turn_deadline + $1, \
         clock_frozen_at = clock_frozen_at + $1 \
         WHERE status = 'active' AND turn_deadline IS NOT NULL",
    )
    .bind(by)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Moves every open challenge's expiry on by `by` ms; how many challenges.
pub async fn extend_challenges<'e>(ex: impl Writes<'e>, by: i64) -> Result<u64, StoreError> {
    let done =
        sqlx::query("UPDATE challenges SET expires_at = expires_at + $1 WHERE status = 'pending'")
            .bind(by)
            .execute(ex)
            .await?;
    Ok(done.rows_affected())
}
