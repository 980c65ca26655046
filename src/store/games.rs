//! The `games` table: who plays which side, the rules, the status and result, the time control,
//! and a cache of the position (its ply and record) that the move list is the truth for.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, to_db, DbBool, DbId, GameStatus, MaybeDbId};
use sqlx::any::AnyExecutor;
use sqlx::Row;

/// One side's player as stored: a user, or the AI at a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub user_id: Option<u64>,
    pub ai_level: Option<String>,
    pub name: String,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: i64,
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    pub attacker: SeatRow,
    pub defender: SeatRow,
    /// The rule options, as JSON.
    pub rules: String,
    /// A start other than the standard one: its position record and side to move.
    pub start: Option<(String, String)>,
    pub rated: bool,
    pub status: GameStatus,
    /// `attackers_won`, `defenders_won` or `draw` once finished.
    pub result: Option<String>,
    pub reason: Option<String>,
    pub ply: u32,
    /// The current position's record (a cache; the moves are the truth).
    pub position: String,
    /// The time per move, or a Fischer clock's bank.
    pub time_per_move_ms: Option<i64>,
    /// A Fischer clock's increment (none: a time per move).
    pub increment_ms: Option<i64>,
    /// A Fischer clock's bank of the side to move as its turn started: the turn's time.
    pub turn_ms: Option<i64>,
    /// A Fischer clock's bank of the side not to move.
    pub waiting_ms: Option<i64>,
    pub turn_deadline: Option<i64>,
    pub reminders_sent: u32,
    pub last_reminder_at: Option<i64>,
    pub board_message_id: Option<u64>,
    /// The notice whose delivery starts the turn's time (the news that gave the player to move
    /// the turn), while it is not shown: the clock leaves the game alone until then.
    pub clock_waits_for: Option<i64>,
    /// While the player to move is on vacation: when their clock stopped (their time left is
    /// the deadline less this). None: the clock runs, waits or is none.
    pub clock_frozen_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub ended_at: Option<i64>,
    /// The tournament game it is, if it is one.
    pub tournament: Option<MatchTagRow>,
}

/// The tournament game a game is: its tournament (id and name), round and leg (1 or 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchTagRow {
    pub tournament: i64,
    pub name: String,
    pub round: i64,
    pub leg: i64,
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    pub attacker: &'a SeatRow,
    pub defender: &'a SeatRow,
    pub rules: &'a str,
    pub start: Option<(&'a str, &'a str)>,
    pub rated: bool,
    pub position: &'a str,
    pub time_per_move_ms: Option<i64>,
    pub increment_ms: Option<i64>,
    pub turn_ms: Option<i64>,
    pub waiting_ms: Option<i64>,
    pub turn_deadline: Option<i64>,
    pub now: i64,
}

/// A game's columns (the table as `g`) with the tournament game it is, if any (`tag_*`), read
/// in the same query: every post of a tournament game names it, and a move's load is one query.
const SELECT: &str =
    "SELECT g.id, g.guild_id, g.channel_id, g.attacker_user_id, g.attacker_ai_level, \
    g.attacker_name, g.defender_user_id, g.defender_ai_level, g.defender_name, g.rules, \
    g.start_position, g.start_turn, g.rated, g.status, g.result, g.reason, g.ply, g.position, \
    g.time_per_move_ms, g.increment_ms, g.turn_ms, g.waiting_ms, g.turn_deadline, \
    g.reminders_sent, g.last_reminder_at, g.board_message_id, g.clock_waits_for, \
    g.clock_frozen_at, g.created_at, g.updated_at, g.ended_at, \
    t.id AS tag_tournament, t.name AS tag_name, tm.round AS tag_round, tg.leg AS tag_leg \
    FROM games g LEFT JOIN tournament_games tg ON tg.game_id = g.id \
    LEFT JOIN tournament_matches tm ON tm.id = tg.match_id \
    LEFT JOIN tournaments t ON t.id = tm.tournament_id";

/// A `games` row as sqlx reads it, column for column; [`GameRow`] is its shape for the service.
#[derive(sqlx::FromRow)]
struct Stored {
    id: i64,
    #[sqlx(try_from = "MaybeDbId")]
    guild_id: Option<u64>,
    #[sqlx(try_from = "DbId")]
    channel_id: u64,
    #[sqlx(try_from = "MaybeDbId")]
    attacker_user_id: Option<u64>,
    attacker_ai_level: Option<String>,
    attacker_name: String,
    #[sqlx(try_from = "MaybeDbId")]
    defender_user_id: Option<u64>,
    defender_ai_level: Option<String>,
    defender_name: String,
    rules: String,
    start_position: Option<String>,
    start_turn: Option<String>,
    #[sqlx(try_from = "DbBool")]
    rated: bool,
    status: GameStatus,
    result: Option<String>,
    reason: Option<String>,
    #[sqlx(try_from = "i64")]
    ply: u32,
    position: String,
    time_per_move_ms: Option<i64>,
    increment_ms: Option<i64>,
    turn_ms: Option<i64>,
    waiting_ms: Option<i64>,
    turn_deadline: Option<i64>,
    #[sqlx(try_from = "i64")]
    reminders_sent: u32,
    last_reminder_at: Option<i64>,
    #[sqlx(try_from = "MaybeDbId")]
    board_message_id: Option<u64>,
    clock_waits_for: Option<i64>,
    clock_frozen_at: Option<i64>,
    created_at: i64,
    updated_at: i64,
    ended_at: Option<i64>,
    tag_tournament: Option<i64>,
    tag_name: Option<String>,
    tag_round: Option<i64>,
    tag_leg: Option<i64>,
}

impl From<Stored> for GameRow {
    fn from(r: Stored) -> GameRow {
        GameRow {
            id: r.id,
            guild_id: r.guild_id,
            channel_id: r.channel_id,
            attacker: SeatRow {
                user_id: r.attacker_user_id,
                ai_level: r.attacker_ai_level,
                name: r.attacker_name,
            },
            defender: SeatRow {
                user_id: r.defender_user_id,
                ai_level: r.defender_ai_level,
                name: r.defender_name,
            },
            rules: r.rules,
            start: r.start_position.zip(r.start_turn),
            rated: r.rated,
            status: r.status,
            result: r.result,
            reason: r.reason,
            ply: r.ply,
            position: r.position,
            time_per_move_ms: r.time_per_move_ms,
            increment_ms: r.increment_ms,
            turn_ms: r.turn_ms,
            waiting_ms: r.waiting_ms,
            turn_deadline: r.turn_deadline,
            reminders_sent: r.reminders_sent,
            last_reminder_at: r.last_reminder_at,
            board_message_id: r.board_message_id,
            clock_waits_for: r.clock_waits_for,
            clock_frozen_at: r.clock_frozen_at,
            created_at: r.created_at,
            updated_at: r.updated_at,
            ended_at: r.ended_at,
            tournament: match (r.tag_tournament, r.tag_name, r.tag_round, r.tag_leg) {
                (Some(tournament), Some(name), Some(round), Some(leg)) => Some(MatchTagRow {
                    tournament,
                    name,
                    round,
                    leg,
                }),
                _ => None,
            },
        }
    }
}

/// Creates a game and returns its id. A game already active in the channel makes this fail
/// with a unique violation on `games` (see [`super::is_unique_violation`]).
pub async fn insert<'e>(ex: impl Writes<'e>, g: &NewGame<'_>) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, attacker_user_id, attacker_ai_level, attacker_name, \
         defender_user_id, defender_ai_level, defender_name, rules, start_position, start_turn, rated, \
         position, time_per_move_ms, increment_ms, turn_ms, waiting_ms, turn_deadline, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) \
         RETURNING id",
    )
    .bind(opt_to_db(g.guild_id))
    .bind(to_db(g.channel_id))
    .bind(opt_to_db(g.attacker.user_id))
    .bind(g.attacker.ai_level.as_deref())
    .bind(&g.attacker.name)
    .bind(opt_to_db(g.defender.user_id))
    .bind(g.defender.ai_level.as_deref())
    .bind(&g.defender.name)
    .bind(g.rules)
    .bind(g.start.map(|s| s.0))
    .bind(g.start.map(|s| s.1))
    .bind(g.rated)
    .bind(g.position)
    .bind(g.time_per_move_ms)
    .bind(g.increment_ms)
    .bind(g.turn_ms)
    .bind(g.waiting_ms)
    .bind(g.turn_deadline)
    .bind(g.now)
    .bind(g.now)
    .fetch_one(ex)
    .await?)
}

/// A game by id.
pub async fn by_id<'e>(ex: impl AnyExecutor<'e>, id: i64) -> Result<Option<GameRow>, StoreError> {
    Ok(
        sqlx::query_as::<_, Stored>(&format!("{SELECT} WHERE g.id = $1"))
            .bind(id)
            .fetch_optional(ex)
            .await
            .map(|row| row.map(GameRow::from))?,
    )
}

/// The game active in a channel, if any.
pub async fn active_in_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel_id: u64,
) -> Result<Option<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.channel_id = $1 AND g.status = 'active'"
    ))
    .bind(to_db(channel_id))
    .fetch_optional(ex)
    .await
    .map(|row| row.map(GameRow::from))?)
}

/// The channel's active game, or else its most recent one.
pub async fn latest_in_channel<'e>(
    ex: impl AnyExecutor<'e>,
    channel_id: u64,
) -> Result<Option<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.channel_id = $1 \
         ORDER BY g.status = 'active' DESC, g.id DESC LIMIT 1"
    ))
    .bind(to_db(channel_id))
    .fetch_optional(ex)
    .await
    .map(|row| row.map(GameRow::from))?)
}

/// The active games of a server, oldest first.
pub async fn active_in_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.guild_id = $1 AND g.status = 'active' ORDER BY g.id"
    ))
    .bind(to_db(guild_id))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}

/// Every active game (for the start-up sweep of AI turns).
pub async fn all_active<'e>(ex: impl AnyExecutor<'e>) -> Result<Vec<GameRow>, StoreError> {
    Ok(
        sqlx::query_as::<_, Stored>(&format!("{SELECT} WHERE g.status = 'active' ORDER BY g.id"))
            .fetch_all(ex)
            .await
            .map(|rows| rows.into_iter().map(GameRow::from).collect())?,
    )
}

/// A user's games against the AI in a server (`None`: direct messages): how many are active,
/// and when the latest started (Unix ms).
pub async fn ai_games_of<'e>(
    ex: impl AnyExecutor<'e>,
    guild: Option<u64>,
    user: u64,
) -> Result<(u32, Option<i64>), StoreError> {
    let row = sqlx::query(
        "SELECT COUNT(CASE WHEN status = 'active' THEN 1 END) AS active, MAX(created_at) AS latest \
         FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND \
         ((attacker_user_id = $2 AND defender_ai_level IS NOT NULL) \
          OR (defender_user_id = $3 AND attacker_ai_level IS NOT NULL))",
    )
    .bind(opt_to_db(guild))
    .bind(to_db(user))
    .bind(to_db(user))
    .fetch_one(ex)
    .await?;
    Ok((
        row.try_get::<i64, _>("active")? as u32,
        row.try_get("latest")?,
    ))
}

/// Active games whose clock needs a look at `now`: half their time or more is gone, and a
/// reminder is still to be sent or the time has run out. A game whose turn's news is not shown
/// yet is left alone: its time has not started; so is one whose player to move is on vacation.
pub async fn clock_due<'e>(ex: impl AnyExecutor<'e>, now: i64) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.status = 'active' AND g.turn_deadline IS NOT NULL \
         AND g.clock_waits_for IS NULL AND g.clock_frozen_at IS NULL \
         AND g.turn_deadline - COALESCE(g.turn_ms, g.time_per_move_ms) / 2 <= $1 \
         AND (g.reminders_sent < 2 OR g.turn_deadline <= $1) ORDER BY g.turn_deadline"
    ))
    .bind(now)
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}

/// Stores a game that ended elsewhere (an imported record) as a finished game of its channel:
/// `result` (`attackers_won`, `defenders_won`, `draw`), `reason` and `ply` as it ended. Its
/// moves are stored with [`super::moves::insert`] in the same transaction.
pub async fn insert_finished<'e>(
    ex: impl Writes<'e>,
    g: &NewGame<'_>,
    result: &str,
    reason: &str,
    ply: u32,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO games (guild_id, channel_id, attacker_user_id, attacker_ai_level, attacker_name, \
         defender_user_id, defender_ai_level, defender_name, rules, start_position, start_turn, rated, \
         position, time_per_move_ms, turn_deadline, created_at, updated_at, status, result, reason, \
         ply, ended_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         'finished', $18, $19, $20, $21) RETURNING id",
    )
    .bind(opt_to_db(g.guild_id))
    .bind(to_db(g.channel_id))
    .bind(opt_to_db(g.attacker.user_id))
    .bind(g.attacker.ai_level.as_deref())
    .bind(&g.attacker.name)
    .bind(opt_to_db(g.defender.user_id))
    .bind(g.defender.ai_level.as_deref())
    .bind(&g.defender.name)
    .bind(g.rules)
    .bind(g.start.map(|s| s.0))
    .bind(g.start.map(|s| s.1))
    .bind(g.rated)
    .bind(g.position)
    .bind(g.time_per_move_ms)
    .bind(g.turn_deadline)
    .bind(g.now)
    .bind(g.now)
    .bind(result)
    .bind(reason)
    .bind(i64::from(ply))
    .bind(g.now)
    .fetch_one(ex)
    .await?)
}

/// A player's finished games in a server, most recent first.
pub async fn finished_of_player<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.guild_id = $1 AND g.status = 'finished' \
         AND (g.attacker_user_id = $2 OR g.defender_user_id = $2) ORDER BY g.ended_at DESC, g.id DESC"
    ))
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}

/// The new state after a move (or an ending off the board).
#[derive(Debug, Clone)]
pub struct Advance<'a> {
    pub id: i64,
    /// The ply the game must still be at: if it moved on, nothing is written.
    pub expected_ply: u32,
    pub ply: u32,
    pub position: &'a str,
    /// `Some((result, reason))` when the game ends.
    pub ended: Option<(&'a str, &'a str)>,
    pub turn_deadline: Option<i64>,
    /// A Fischer clock's banks: the side to move's (the turn's time) and the other side's.
    pub banks: Option<(i64, i64)>,
    pub now: i64,
}

/// Moves a game on, if it is still active at the expected ply. Returns whether it was.
pub async fn advance<'e>(ex: impl Writes<'e>, a: &Advance<'_>) -> Result<bool, StoreError> {
    let (status, result, reason, ended_at) = match a.ended {
        Some((result, reason)) => (
            GameStatus::Finished,
            Some(result),
            Some(reason),
            Some(a.now),
        ),
        None => (GameStatus::Active, None, None, None),
    };
    let done = sqlx::query(
        "UPDATE games SET ply = $1, position = $2, status = $3, result = $4, reason = $5, ended_at = $6, \
         turn_deadline = $7, reminders_sent = 0, clock_waits_for = NULL, clock_frozen_at = NULL, updated_at = $8, \
         turn_ms = $9, waiting_ms = $10 WHERE id = $11 AND ply = $12 AND status = 'active'",
    )
    .bind(i64::from(a.ply))
    .bind(a.position)
    .bind(status)
    .bind(result)
    .bind(reason)
    .bind(ended_at)
    .bind(if a.ended.is_some() { None } else { a.turn_deadline })
    .bind(a.now)
    .bind(a.banks.map(|b| b.0))
    .bind(a.banks.map(|b| b.1))
    .bind(a.id)
    .bind(i64::from(a.expected_ply))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Makes game `id`'s clock wait for notice `notice` (the news that gives the player to move
/// the turn, written in the same transaction): the clock leaves the game alone until the notice
/// is delivered ([`start_clock_shown`]).
pub async fn clock_waits_for<'e>(
    ex: impl Writes<'e>,
    id: i64,
    notice: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE games SET clock_waits_for = $1 WHERE id = $2")
        .bind(notice)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Notice `notice`, which game `id`'s clock waits for, is shown at `now` (Unix ms, the
/// database's clock): the turn's time starts then (the deadline is `now` plus the time per
/// move, or the bank of the side to move; a clock stopped meanwhile stays stopped), standing
/// still from `now` if `to_move` (the player to move) is on vacation. Returns whether the game
/// waited for it (a second delivery of the same notice, or a notice the game no longer waits
/// for, changes nothing).
pub async fn start_clock_shown<'e>(
    ex: impl Writes<'e>,
    id: i64,
    notice: i64,
    to_move: Option<u64>,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET clock_waits_for = NULL, reminders_sent = 0, turn_deadline = \
         CASE WHEN turn_deadline IS NULL THEN NULL ELSE $1 + COALESCE(turn_ms, time_per_move_ms) END, \
         clock_frozen_at = CASE WHEN EXISTS (SELECT 1 FROM vacations \
         WHERE user_id = $2 AND ended_at IS NULL) THEN $1 END \
         WHERE id = $3 AND clock_waits_for = $4 AND status = 'active'",
    )
    .bind(now)
    .bind(to_move.map(to_db))
    .bind(id)
    .bind(notice)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The active games `user` plays (either side), in every server, oldest first.
pub async fn active_of_user<'e>(
    ex: impl AnyExecutor<'e>,
    user: u64,
) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.status = 'active' \
         AND (g.attacker_user_id = $1 OR g.defender_user_id = $2) ORDER BY g.id"
    ))
    .bind(to_db(user))
    .bind(to_db(user))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}

/// The active games whose clock stands still for a vacation.
pub async fn frozen<'e>(ex: impl AnyExecutor<'e>) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} WHERE g.status = 'active' AND g.clock_frozen_at IS NOT NULL \
         ORDER BY g.id"
    ))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}

/// Stops game `id`'s clock at `now` for the vacation of its player to move at `ply` (running or
/// waiting for its turn's news to be shown), if the game is still active at that ply and its
/// clock is not stopped already. Returns whether it stopped it.
pub async fn freeze_clock<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET clock_frozen_at = $1 WHERE id = $2 AND ply = $3 AND status = 'active' \
         AND turn_deadline IS NOT NULL AND clock_frozen_at IS NULL",
    )
    .bind(now)
    .bind(id)
    .bind(i64::from(ply))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Starts game `id`'s clock again at `now`, stopped at ply `ply` for a vacation: its deadline
/// moves on by the time it stood still, so the player to move has the time they had left.
/// Returns whether it was stopped (and still at that ply).
pub async fn thaw_clock<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET turn_deadline = turn_deadline + ($1 - clock_frozen_at), \
         clock_frozen_at = NULL WHERE id = $2 AND ply = $3 AND status = 'active' \
         AND clock_frozen_at IS NOT NULL",
    )
    .bind(now)
    .bind(id)
    .bind(i64::from(ply))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that reminder number `number` (1 or 2) was sent, if it had not been: returns
/// whether this call recorded it (so each reminder goes out once).
pub async fn mark_reminder<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    number: u32,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET reminders_sent = $1, last_reminder_at = $2 \
         WHERE id = $3 AND ply = $4 AND status = 'active' AND reminders_sent < $5",
    )
    .bind(i64::from(number))
    .bind(now)
    .bind(id)
    .bind(i64::from(ply))
    .bind(i64::from(number))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stops the clock of a game (no deadline until its next move). Returns whether it ran.
pub async fn stop_clock<'e>(ex: impl Writes<'e>, id: i64) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET turn_deadline = NULL WHERE id = $1 AND status = 'active' \
         AND turn_deadline IS NOT NULL",
    )
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims the AI's turn at `ply` in game `id` for the process `by` until `until` (Unix ms), if
/// the game is active at that ply and no other process holds a live lease on it (its lease
/// ended by `now`, or it was for another ply). Returns whether `by` holds it now.
pub async fn claim_ai_turn<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    by: &str,
    now: i64,
    until: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET ai_claimed_ply = $1, ai_claimed_by = $2, ai_claimed_until = $3 \
         WHERE id = $4 AND ply = $1 AND status = 'active' AND (ai_claimed_ply IS NULL \
         OR ai_claimed_ply <> $1 OR ai_claimed_until IS NULL OR ai_claimed_until <= $5 \
         OR ai_claimed_by = $2)",
    )
    .bind(i64::from(ply))
    .bind(by)
    .bind(until)
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Extends `by`'s claim on the AI's turn at `ply` in game `id` to `until` (Unix ms), if `by`
/// still holds it and the game is still active at that ply. Returns whether it did: `false`
/// when another process took the turn over (after a lease `by` let lapse), or the game moved
/// on or ended.
pub async fn renew_ai_turn<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    by: &str,
    until: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET ai_claimed_until = $1 \
         WHERE id = $2 AND ai_claimed_ply = $3 AND ai_claimed_by = $4 \
         AND ply = $3 AND status = 'active'",
    )
    .bind(until)
    .bind(id)
    .bind(i64::from(ply))
    .bind(by)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives up `by`'s claim on the AI's turn at `ply` in game `id` (the turn was not played):
/// any process may take it at once.
pub async fn release_ai_turn<'e>(
    ex: impl Writes<'e>,
    id: i64,
    ply: u32,
    by: &str,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET ai_claimed_until = NULL, ai_claimed_by = NULL \
         WHERE id = $1 AND ai_claimed_ply = $2 AND ai_claimed_by = $3",
    )
    .bind(id)
    .bind(i64::from(ply))
    .bind(by)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Claims the clock's look at game `id` for the process `by` until `until` (Unix ms), if no
/// other process holds a live lease on it. Returns whether `by` holds it now.
pub async fn claim_clock<'e>(
    ex: impl Writes<'e>,
    id: i64,
    by: &str,
    now: i64,
    until: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET clock_claimed_by = $1, clock_claimed_until = $2 \
         WHERE id = $3 AND status = 'active' AND (clock_claimed_until IS NULL \
         OR clock_claimed_until <= $4 OR clock_claimed_by = $1)",
    )
    .bind(by)
    .bind(until)
    .bind(id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives up `by`'s claim on the clock's look at game `id` (done): any process may look again.
pub async fn release_clock<'e>(ex: impl Writes<'e>, id: i64, by: &str) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = NULL \
         WHERE id = $1 AND clock_claimed_by = $2",
    )
    .bind(id)
    .bind(by)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The active games in threads made for challenges in channel `parent` (the game's channel is
/// not the challenge's): a deleted channel takes its threads with it.
pub async fn active_in_threads_of<'e>(
    ex: impl AnyExecutor<'e>,
    parent: u64,
) -> Result<Vec<GameRow>, StoreError> {
    Ok(sqlx::query_as::<_, Stored>(&format!(
        "{SELECT} JOIN challenges c ON c.game_id = g.id \
         WHERE c.channel_id = $1 AND g.channel_id <> $2 AND g.status = 'active' ORDER BY g.id"
    ))
    .bind(to_db(parent))
    .bind(to_db(parent))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(GameRow::from).collect())?)
}
