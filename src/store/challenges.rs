//! The `challenges` table: challenges between two users, open until answered, cancelled or
//! expired.

use super::{from_db, opt_to_db, to_db, ChallengeStatus};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteExecutor};

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
    pub thread: bool,
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
    pub thread: bool,
    pub now: i64,
    pub expires_at: i64,
}

const COLUMNS: &str = "id, guild_id, channel_id, challenger_id, challenger_name, challenged_id, \
    challenged_name, side, rules, start_position, start_turn, time_per_move_ms, thread, status, game_id, message_id, created_at, \
    expires_at";

fn challenge(r: SqliteRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        guild_id: r.try_get::<Option<i64>, _>("guild_id")?.map(from_db),
        channel_id: from_db(r.try_get("channel_id")?),
        challenger_id: from_db(r.try_get("challenger_id")?),
        challenger_name: r.try_get("challenger_name")?,
        challenged_id: from_db(r.try_get("challenged_id")?),
        challenged_name: r.try_get("challenged_name")?,
        side: r.try_get("side")?,
        rules: r.try_get("rules")?,
        start: match (r.try_get("start_position")?, r.try_get("start_turn")?) {
            (Some(p), Some(t)) => Some((p, t)),
            _ => None,
        },
        time_per_move_ms: r.try_get("time_per_move_ms")?,
        thread: r.try_get("thread")?,
        status: r.try_get("status")?,
        game_id: r.try_get("game_id")?,
        message_id: r.try_get::<Option<i64>, _>("message_id")?.map(from_db),
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
    })
}

/// Creates a challenge. A challenger's second open challenge in one channel is a unique
/// violation on `challenges`.
pub async fn insert<'e>(
    ex: impl SqliteExecutor<'e>,
    c: &NewChallenge<'_>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, challenged_id, \
         challenged_name, side, rules, start_position, start_turn, time_per_move_ms, thread, created_at, \
         expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
    .bind(c.thread)
    .bind(c.now)
    .bind(c.expires_at)
    .fetch_one(ex)
    .await
}

/// A challenge by id.
pub async fn by_id<'e>(
    ex: impl SqliteExecutor<'e>,
    id: i64,
) -> Result<Option<ChallengeRow>, sqlx::Error> {
    sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = ?"))
        .bind(id)
        .fetch_optional(ex)
        .await?
        .map(challenge)
        .transpose()
}

/// Closes an open challenge with a new status (and the game it started). Returns whether it
/// was still open.
pub async fn close<'e>(
    ex: impl SqliteExecutor<'e>,
    id: i64,
    status: ChallengeStatus,
    game_id: Option<i64>,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE challenges SET status = ?, game_id = ?, answered_at = ? \
         WHERE id = ? AND status = 'pending'",
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
    ex: impl SqliteExecutor<'e>,
    now: i64,
) -> Result<Vec<ChallengeRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE status = 'pending' AND expires_at <= ? ORDER BY id"
    ))
    .bind(now)
    .fetch_all(ex)
    .await?
    .into_iter()
    .map(challenge)
    .collect()
}

/// Remembers the message that carries the challenge's buttons.
pub async fn set_message<'e>(
    ex: impl SqliteExecutor<'e>,
    id: i64,
    message_id: u64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE challenges SET message_id = ? WHERE id = ?")
        .bind(to_db(message_id))
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The challenge that started a game, if one did.
pub async fn by_game<'e>(
    ex: impl SqliteExecutor<'e>,
    game_id: i64,
) -> Result<Option<ChallengeRow>, sqlx::Error> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE game_id = ?"
    ))
    .bind(game_id)
    .fetch_optional(ex)
    .await?
    .map(challenge)
    .transpose()
}
