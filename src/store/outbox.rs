//! The `outbox` table: what the bot owes a channel, written in the transaction of the change
//! that causes it, delivered by one dispatcher in order within a channel.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, to_db, Backend, DbId, MaybeDbId, NoticeStatus};
use sqlx::any::AnyExecutor;

/// A stored notice.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct NoticeRow {
    pub id: i64,
    #[sqlx(try_from = "DbId")]
    pub channel_id: u64,
    pub kind: String,
    /// JSON: see the service's `Payload`.
    pub payload: String,
    pub nonce: String,
    pub created_at: i64,
    pub next_attempt_at: i64,
    #[sqlx(try_from = "i64")]
    pub attempts: u32,
    pub status: NoticeStatus,
    pub failure: Option<String>,
    #[sqlx(try_from = "MaybeDbId")]
    pub message_id: Option<u64>,
    pub delivered_at: Option<i64>,
    /// The notice it waits for, until its first claim (see [`NewNotice::waits_for`]).
    pub waits_for: Option<i64>,
}

/// A notice to write.
#[derive(Debug, Clone)]
pub struct NewNotice<'a> {
    pub channel_id: u64,
    pub kind: &'a str,
    pub payload: &'a str,
    pub nonce: &'a str,
    pub now: i64,
    pub next_attempt_at: i64,
    /// Held for an interaction's answer until `next_attempt_at` (else pending, due then).
    pub held: bool,
    /// Pending, it waits for this notice (its id): due once that one is delivered or given up
    /// (or gone), or at `next_attempt_at` at the latest.
    pub waits_for: Option<i64>,
}

const COLUMNS: &str = "id, channel_id, kind, payload, nonce, created_at, next_attempt_at, \
    attempts, status, failure, message_id, delivered_at, waits_for";

/// The states in which a notice is still owed (see `migrations/sqlite/0021_outbox_states.sql`).
const OPEN: &str = "('held', 'pending', 'claimed')";

/// Writes a notice; returns its id.
pub async fn insert<'e>(ex: impl Writes<'e>, n: &NewNotice<'_>) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO outbox (channel_id, kind, payload, nonce, created_at, next_attempt_at, status, \
         waits_for) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(to_db(n.channel_id))
    .bind(n.kind)
    .bind(n.payload)
    .bind(n.nonce)
    .bind(n.now)
    .bind(n.next_attempt_at)
    .bind(if n.held { "held" } else { "pending" })
    .bind(n.waits_for)
    .fetch_one(ex)
    .await?)
}

/// An owed notice (held, pending or claimed) with no earlier owed notice in its channel: the
/// next one it owes.
fn head() -> String {
    format!(
        "o.status IN {OPEN} AND NOT EXISTS (SELECT 1 FROM outbox e \
         WHERE e.channel_id = o.channel_id AND e.status IN {OPEN} AND e.id < o.id)"
    )
}

/// When notice `o` (an alias of `outbox`) is due: at its `next_attempt_at`; one that waits for
/// another notice ([`NewNotice::waits_for`]) that is no longer owed, since its writing.
fn due_at(o: &str) -> String {
    format!(
        "CASE WHEN {o}.waits_for IS NOT NULL AND NOT EXISTS (SELECT 1 FROM outbox w \
         WHERE w.id = {o}.waits_for AND w.status IN {OPEN}) THEN {o}.created_at \
         ELSE {o}.next_attempt_at END"
    )
}

/// The notices to deliver at `now`: each channel's next owed one, if it is due (a held one's
/// hold, or a claimed one's lease, is over; a pending one's time has come, or the notice it
/// waits for is settled); oldest first.
pub async fn due<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
    limit: u32,
) -> Result<Vec<NoticeRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM outbox o WHERE {head} AND {due} <= $1 ORDER BY o.id LIMIT $2",
        head = head(),
        due = due_at("o")
    ))
    .bind(now)
    .bind(i64::from(limit))
    .fetch_all(ex)
    .await?)
}

/// Claims the notices to deliver at `now` ([`due`]'s choice) for one attempt: each is
/// `claimed`, its attempts counted with this one, and due again only at `until`, so no other
/// dispatcher (another process) takes it meanwhile, and if this one stops before recording how
/// the attempt went, the notice comes due again then (as a notice attempted before, which is
/// looked for in its channel before it is sent again). A notice that waited for another waits
/// no more. On PostgreSQL, notices another dispatcher is claiming at this moment are skipped,
/// not waited for. Oldest first.
pub async fn claim_due<'e>(
    ex: impl Writes<'e>,
    backend: Backend,
    now: i64,
    until: i64,
    limit: u32,
) -> Result<Vec<NoticeRow>, StoreError> {
    let mut rows: Vec<NoticeRow> = sqlx::query_as(&format!(
        "UPDATE outbox SET status = 'claimed', attempts = attempts + 1, next_attempt_at = $2, \
         waits_for = NULL \
         WHERE status IN {OPEN} AND {due} <= $1 AND id IN \
         (SELECT o.id FROM outbox o WHERE {head} AND {due_o} <= $1 \
          ORDER BY o.id LIMIT $3{lock}) \
         RETURNING {COLUMNS}",
        head = head(),
        due = due_at("outbox"),
        due_o = due_at("o"),
        lock = backend.skip_locked("o")
    ))
    .bind(now)
    .bind(until)
    .bind(i64::from(limit))
    .fetch_all(ex)
    .await?;
    rows.sort_by_key(|r| r.id);
    Ok(rows)
}

/// Whether `channel` owes news that is to be posted: a notice pending or under an attempt (one
/// held for its interaction's edit shows in that interaction's response, already in place).
pub async fn owes_posts<'e>(ex: impl AnyExecutor<'e>, channel: u64) -> Result<bool, StoreError> {
    // Written as the open notices' index is (`outbox_open`), so that it serves.
    let owed: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT id FROM outbox WHERE channel_id = $1 AND status IN {OPEN} AND status <> 'held' \
         LIMIT 1"
    ))
    .bind(to_db(channel))
    .fetch_optional(ex)
    .await?;
    Ok(owed.is_some())
}

/// When the next notice falls due (a channel's next owed one), if any is owed.
pub async fn next_due<'e>(ex: impl AnyExecutor<'e>) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query_scalar(&format!(
        "SELECT MIN({due}) FROM outbox o WHERE {head}",
        head = head(),
        due = due_at("o")
    ))
    .fetch_one(ex)
    .await?)
}

/// A notice by id.
pub async fn by_id<'e>(ex: impl AnyExecutor<'e>, id: i64) -> Result<Option<NoticeRow>, StoreError> {
    Ok(
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM outbox WHERE id = $1"))
            .bind(id)
            .fetch_optional(ex)
            .await?,
    )
}

/// Notice `id`'s nonce, if it is there: with its id, what tells a notice from one written
/// later under the same id (SQLite gives the ids of a transaction rolled back out again).
pub async fn nonce<'e>(ex: impl AnyExecutor<'e>, id: i64) -> Result<Option<String>, StoreError> {
    Ok(sqlx::query_scalar("SELECT nonce FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await?)
}

/// A channel's notices, in order (for tests and inspection).
pub async fn of_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel_id: u64,
) -> Result<Vec<NoticeRow>, StoreError> {
    Ok(sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM outbox WHERE channel_id = $1 ORDER BY id"
    ))
    .bind(to_db(channel_id))
    .fetch_all(ex)
    .await?)
}

/// What becomes of a notice (see [`settle`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle<'a> {
    /// Delivered (as this message, if known) at `now`.
    Delivered { message_id: Option<u64>, now: i64 },
    /// A failed attempt (counted when it was claimed): pending, the next one at `at`.
    Retry { at: i64, failure: &'a str },
    /// Given up for good, with the reason.
    Failed(&'a str),
    /// Given up, its payload unreadable, with the reason (its payload is kept as it is, for
    /// whoever looks into it).
    Unreadable(&'a str),
    /// A held notice made pending and due at once (no later than `now`).
    Release { now: i64 },
}

/// Settles notice `id` as `to` says, if it is still owed (a release: if it is still held) and,
/// for an attempt that claimed it (`claim`: the claim's count of attempts, as [`claim_due`]
/// returned it), if that claim still holds: a late attempt, whose claim ran out and was taken
/// by another, settles nothing. A notice delivered or given up no longer carries its answer.
/// Returns whether it was settled.
pub async fn settle<'e>(
    ex: impl Writes<'e>,
    backend: Backend,
    id: i64,
    to: Settle<'_>,
    claim: Option<u32>,
) -> Result<bool, StoreError> {
    let answer_gone = backend.json_without("payload", "answer");
    let (set, owed) = match to {
        Settle::Delivered { .. } => (
            format!(
                "status = 'delivered', message_id = $2, delivered_at = $3, failure = NULL, \
                 payload = {answer_gone}"
            ),
            OPEN,
        ),
        Settle::Retry { .. } => (
            "status = 'pending', next_attempt_at = $2, failure = $3".into(),
            OPEN,
        ),
        Settle::Failed(_) => (
            format!("status = 'failed', failure = $2, payload = {answer_gone}"),
            OPEN,
        ),
        Settle::Unreadable(_) => ("status = 'failed', failure = $2".into(), OPEN),
        Settle::Release { .. } => (
            "status = 'pending', next_attempt_at = \
             CASE WHEN next_attempt_at < $2 THEN next_attempt_at ELSE $2 END"
                .into(),
            "('held')",
        ),
    };
    let held = match claim {
        Some(attempts) => format!("status = 'claimed' AND attempts = {attempts}"),
        None => format!("status IN {owed}"),
    };
    let sql = format!("UPDATE outbox SET {set} WHERE id = $1 AND {held}");
    let query = sqlx::query(&sql).bind(id);
    let query = match to {
        Settle::Delivered { message_id, now } => query.bind(opt_to_db(message_id)).bind(now),
        Settle::Retry { at, failure } => query.bind(at).bind(failure),
        Settle::Failed(failure) | Settle::Unreadable(failure) => query.bind(failure),
        Settle::Release { now } => query.bind(now),
    };
    Ok(query.execute(ex).await?.rows_affected() == 1)
}

/// Renews the claim on notice `id` whose count of attempts is `claim` (as [`claim_due`]
/// returned it) until `until`, if it still holds. Returns whether it did.
pub async fn renew<'e>(
    ex: impl Writes<'e>,
    id: i64,
    claim: u32,
    until: i64,
) -> Result<bool, StoreError> {
    let renewed = sqlx::query(
        "UPDATE outbox SET next_attempt_at = $1 \
         WHERE id = $2 AND status = 'claimed' AND attempts = $3",
    )
    .bind(until)
    .bind(id)
    .bind(i64::from(claim))
    .execute(ex)
    .await?;
    Ok(renewed.rows_affected() == 1)
}

/// Gives back the claim on notice `id` whose count of attempts is `claim` (as [`claim_due`]
/// returned it), if it still holds, for an attempt that never began: pending again, due at
/// `now`, its attempts counted as before the claim. Returns whether it did.
pub async fn unclaim<'e>(
    ex: impl Writes<'e>,
    id: i64,
    claim: u32,
    now: i64,
) -> Result<bool, StoreError> {
    let given = sqlx::query(
        "UPDATE outbox SET status = 'pending', attempts = attempts - 1, next_attempt_at = $1 \
         WHERE id = $2 AND status = 'claimed' AND attempts = $3",
    )
    .bind(now)
    .bind(id)
    .bind(i64::from(claim))
    .execute(ex)
    .await?;
    Ok(given.rows_affected() == 1)
}

/// Deletes the notices delivered before `before` (Unix ms) and those given up that were
/// written before it; owed ones are never touched. Returns how many went.
pub async fn prune<'e>(ex: impl Writes<'e>, before: i64) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "DELETE FROM outbox WHERE (status = 'delivered' AND delivered_at < $1) \
         OR (status = 'failed' AND created_at < $2)",
    )
    .bind(before)
    .bind(before)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Gives up every owed notice for channel `channel`, with the reason (the channel is gone).
/// Returns how many were owed.
pub async fn drop_pending_in<'e>(
    ex: impl Writes<'e>,
    backend: Backend,
    channel: u64,
    failure: &str,
) -> Result<u64, StoreError> {
    let done = sqlx::query(&format!(
        "UPDATE outbox SET status = 'failed', failure = $1, payload = {} \
         WHERE channel_id = $2 AND status IN {OPEN}",
        backend.json_without("payload", "answer")
    ))
    .bind(failure)
    .bind(to_db(channel))
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Gives up every owed notice for a channel of server `guild` (a channel one of its games
/// or challenges was in), with the reason (the bot left the server). Returns how many were
/// owed.
pub async fn drop_pending_in_guild<'e>(
    ex: impl Writes<'e>,
    backend: Backend,
    guild: u64,
    failure: &str,
) -> Result<u64, StoreError> {
    let done = sqlx::query(&format!(
        "UPDATE outbox SET status = 'failed', failure = $1, payload = {} \
         WHERE status IN {OPEN} AND channel_id IN \
         (SELECT channel_id FROM games WHERE guild_id = $2 \
          UNION SELECT channel_id FROM challenges WHERE guild_id = $3)",
        backend.json_without("payload", "answer")
    ))
    .bind(failure)
    .bind(to_db(guild))
    .bind(to_db(guild))
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Gives up the notices for `channel` that wait and are not under way (held or pending), with
/// the reason: a member's direct messages once Discord refuses them. Returns how many.
pub async fn drop_waiting_in<'e>(
    ex: impl Writes<'e>,
    channel: u64,
    failure: &str,
) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE outbox SET status = 'failed', failure = $1 \
         WHERE channel_id = $2 AND status IN ('held', 'pending')",
    )
    .bind(failure)
    .bind(to_db(channel))
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}
