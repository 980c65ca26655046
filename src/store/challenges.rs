//! The `challenges` table: challenges between two users, open until answered, cancelled or
//! expired.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, to_db, ChallengeStatus, DbBool, DbId, MaybeDbId};
use sqlx::any::AnyExecutor;
use sqlx::Row;

/// A stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    pub challenger_id: u64,
    pub challenger_name: String,
    pub challenged_id: u64,
    pub challenged_name: String,
    /// `attackers`, `defenders` or `random`: the side the challenger wants.
    pub side: String,
    pub rules: String,
    /// A start other than the standard one: its position record and side to move.
    pub start: Option<(String, String)>,
    pub time_per_move_ms: Option<i64>,
    /// A Fischer clock's increment (`time_per_move_ms` is then the bank).
    pub increment_ms: Option<i64>,
    pub thread: bool,
    /// A rated game (the default) or a casual one.
    pub rated: bool,
    pub status: ChallengeStatus,
    pub game_id: Option<i64>,
    pub message_id: Option<u64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A challenge to create.
#[derive(Debug, Clone)]
pub struct NewChallenge<'a> {
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    pub challenger_id: u64,
    pub challenger_name: &'a str,
    pub challenged_id: u64,
    pub challenged_name: &'a str,
    pub side: &'a str,
    pub rules: &'a str,
    pub start: Option<(&'a str, &'a str)>,
    pub time_per_move_ms: Option<i64>,
    /// A Fischer clock's increment (`time_per_move_ms` is then the bank).
    pub increment_ms: Option<i64>,
    pub thread: bool,
    pub rated: bool,
    pub now: i64,
    pub expires_at: i64,
}

const COLUMNS: &str = "id, guild_id, channel_id, challenger_id, challenger_name, challenged_id, \
    challenged_name, side, rules, start_position, start_turn, time_per_move_ms, increment_ms, thread, rated, status, game_id, message_id, \
    created_at, expires_at";

/// A `challenges` row as sqlx reads it, column for column; [`ChallengeRow`] is its shape for
/// the service.
#[derive(sqlx::FromRow)]
struct Stored {
    id: i64,
    #[sqlx(try_from = "MaybeDbId")]
    guild_id: Option<u64>,
    #[sqlx(try_from = "DbId")]
    channel_id: u64,
    #[sqlx(try_from = "DbId")]
    challenger_id: u64,
    challenger_name: String,
    #[sqlx(try_from = "DbId")]
    challenged_id: u64,
    challenged_name: String,
    side: String,
    rules: String,
    start_position: Option<String>,
    start_turn: Option<String>,
    time_per_move_ms: Option<i64>,
    increment_ms: Option<i64>,
    #[sqlx(try_from = "DbBool")]
    thread: bool,
    #[sqlx(try_from = "DbBool")]
    rated: bool,
    status: ChallengeStatus,
    game_id: Option<i64>,
    #[sqlx(try_from = "MaybeDbId")]
    message_id: Option<u64>,
    created_at: i64,
    expires_at: i64,
}

impl From<Stored> for ChallengeRow {
    fn from(r: Stored) -> ChallengeRow {
        ChallengeRow {
            id: r.id,
            guild_id: r.guild_id,
            channel_id: r.channel_id,
            challenger_id: r.challenger_id,
            challenger_name: r.challenger_name,
            challenged_id: r.challenged_id,
            challenged_name: r.challenged_name,
            side: r.side,
            rules: r.rules,
            start: r.start_position.zip(r.start_turn),
            time_per_move_ms: r.time_per_move_ms,
            increment_ms: r.increment_ms,
            thread: r.thread,
            rated: r.rated,
            status: r.status,
            game_id: r.game_id,
            message_id: r.message_id,
            created_at: r.created_at,
            expires_at: r.expires_at,
        }
    }
}

/// Creates a challenge. A challenger's second open challenge in one channel is a unique
/// violation on `challenges`.
pub async fn insert<'e>(ex: impl Writes<'e>, c: &NewChallenge<'_>) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, challenged_id, \
         challenged_name, side, rules, start_position, start_turn, time_per_move_ms, increment_ms, thread, rated, \
         created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
         RETURNING id",
    )
    .bind(opt_to_db(c.guild_id))
    .bind(to_db(c.channel_id))
    .bind(to_db(c.challenger_id))
    .bind(c.challenger_name)
    .bind(to_db(c.challenged_id))
    .bind(c.challenged_name)
    .bind(c.side)
    .bind(c.rules)
    .bind(c.start.map(|s| s.0))
    .bind(c.start.map(|s| s.1))
    .bind(c.time_per_move_ms)
    .bind(c.increment_ms)
    .bind(c.thread)
    .bind(c.rated)
    .bind(c.now)
    .bind(c.expires_at)
    .fetch_one(ex)
    .await?)
}

/// A challenge by id.
pub async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<ChallengeRow>, StoreError> {
    Ok(
        sqlx::query_as::<_, Stored>(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
            .bind(id)
            .fetch_optional(ex)
            .await
            .map(|row| row.map(ChallengeRow::from))?,
    )
}

/// Closes an open challenge with a new status (and the game it started). Returns whether it
/// was still open.
pub async fn close<'e>(
    ex: impl Writes<'e>,
    id: i64,
    status: ChallengeStatus,
    game_id: Option<i64>,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE challenges SET status = $1, game_id = $2, answered_at = $3 \
         WHERE id = $4 AND status = 'pending'",
    )
    .bind(status)
    .bind(game_id)
    .bind(now)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Open challenges whose time ran out by `now`.
pub async fn expired<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<ChallengeRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE status = 'pending' AND expires_at <= $1 ORDER BY id"
    ))
    .bind(now)
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(ChallengeRow::from).collect())?)
}

/// Remembers the message that carries the challenge's buttons.
pub async fn set_message<'e>(
    ex: impl Writes<'e>,
    id: i64,
    message_id: u64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE challenges SET message_id = $1 WHERE id = $2")
        .bind(to_db(message_id))
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The challenge that started a game, if one did.
pub async fn by_game<'e>(
    ex: impl AnyExecutor<'e>,
    game_id: i64,
) -> Result<Option<ChallengeRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE game_id = $1"
    ))
    .bind(game_id)
    .fetch_optional(ex)
    .await
    .map(|row| row.map(ChallengeRow::from))?)
}

/// A challenger's open challenges at `now` (pending, not yet expired): how many, and when the
/// first of them expires.
pub async fn open_of<'e>(
    ex: impl AnyExecutor<'e>,
    challenger: u64,
    now: i64,
) -> Result<(u32, Option<i64>), StoreError> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS open, MIN(expires_at) AS first FROM challenges \
         WHERE challenger_id = $1 AND status = 'pending' AND expires_at > $2",
    )
    .bind(to_db(challenger))
    .bind(now)
    .fetch_one(ex)
    .await?;
    Ok((row.try_get::<i64, _>("open")? as u32, row.try_get("first")?))
}

/// The challenges a user was sent after `since` and has not accepted (open, declined,
/// withdrawn or expired: the ones that only pinged them): how many, and when the first of them
/// was made.
pub async fn received_since<'e>(
    ex: impl AnyExecutor<'e>,
    challenged: u64,
    since: i64,
) -> Result<(u32, Option<i64>), StoreError> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS received, MIN(created_at) AS first FROM challenges \
         WHERE challenged_id = $1 AND created_at > $2 AND status <> 'accepted'",
    )
    .bind(to_db(challenged))
    .bind(since)
    .fetch_one(ex)
    .await?;
    Ok((
        row.try_get::<i64, _>("received")? as u32,
        row.try_get("first")?,
    ))
}

/// Withdraws (closes as cancelled) the open challenges made in channel `channel`. Returns how
/// many were open.
pub async fn withdraw_in_channel<'e>(
    ex: impl Writes<'e>,
    channel: u64,
    now: i64,
) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE challenges SET status = 'cancelled', answered_at = $1 \
         WHERE channel_id = $2 AND status = 'pending'",
    )
    .bind(now)
    .bind(to_db(channel))
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}

/// Withdraws (closes as cancelled) the open challenges made in server `guild`. Returns how
/// many were open.
pub async fn withdraw_in_guild<'e>(
    ex: impl Writes<'e>,
    guild: u64,
    now: i64,
) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "UPDATE challenges SET status = 'cancelled', answered_at = $1 \
         WHERE guild_id = $2 AND status = 'pending'",
    )
    .bind(now)
    .bind(to_db(guild))
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}
