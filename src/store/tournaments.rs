//! The tournaments' tables: `tournaments`, their entrants, each round's matches and each
//! match's two games, and the role that may organise them in a server.

use super::StoreError;
use super::Writes;
use super::{opt_to_db, to_db, DbBool, DbId, MaybeDbId};
use super::{Backend, Connection};
use sqlx::any::AnyExecutor;

/// A stored tournament.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    pub id: i64,
    #[sqlx(try_from = "DbId")]
    pub guild_id: u64,
    #[sqlx(try_from = "DbId")]
    pub channel_id: u64,
    #[sqlx(try_from = "DbId")]
    pub organiser_id: u64,
    pub name: String,
    pub rules: String,
    /// `round_robin` or `swiss`.
    pub format: String,
    pub rounds: i64,
    pub time_per_move_ms: Option<i64>,
    pub increment_ms: Option<i64>,
    #[sqlx(try_from = "DbBool")]
    pub rated: bool,
    pub seats: i64,
    pub signup_until: Option<i64>,
    /// `signup`, `running`, `paused`, `finished` or `cancelled`.
    pub status: String,
    pub round: i64,
    pub announcement: Option<i64>,
    #[sqlx(try_from = "MaybeDbId")]
    pub announcement_message: Option<u64>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, guild_id, channel_id, organiser_id, name, rules, format, rounds, \
    time_per_move_ms, increment_ms, rated, seats, signup_until, status, round, announcement, \
    announcement_message, created_at, updated_at";

/// A tournament to create.
#[derive(Debug, Clone)]
pub struct NewTournament<'a> {
    pub guild_id: u64,
    pub channel_id: u64,
    pub organiser_id: u64,
    pub name: &'a str,
    pub rules: &'a str,
    pub format: &'a str,
    pub rounds: i64,
    pub time_per_move_ms: Option<i64>,
    pub increment_ms: Option<i64>,
    pub rated: bool,
    pub seats: i64,
    pub signup_until: Option<i64>,
    pub now: i64,
}

/// An entrant.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EntrantRow {
    pub tournament_id: i64,
    #[sqlx(try_from = "DbId")]
    pub user_id: u64,
    pub name: String,
    pub seat: Option<i64>,
    pub joined_at: i64,
    pub withdrawn_round: Option<i64>,
}

/// A match of a round (a bye when `second_seat` is none).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MatchRow {
    pub id: i64,
    pub tournament_id: i64,
    pub round: i64,
    pub first_seat: i64,
    pub second_seat: Option<i64>,
    pub first_halves: Option<i64>,
    pub second_halves: Option<i64>,
    #[sqlx(try_from = "DbBool")]
    pub forfeit: bool,
}

/// One of a match's two games.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MatchGameRow {
    pub id: i64,
    pub match_id: i64,
    pub leg: i64,
    pub game_id: Option<i64>,
    #[sqlx(try_from = "MaybeDbId")]
    pub thread_id: Option<u64>,
    pub first_points: Option<i64>,
}

pub async fn insert<'e>(ex: impl Writes<'e>, t: &NewTournament<'_>) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, rules, format, rounds, \
         time_per_move_ms, increment_ms, rated, seats, signup_until, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id",
    )
    .bind(to_db(t.guild_id))
    .bind(to_db(t.channel_id))
    .bind(to_db(t.organiser_id))
    .bind(t.name)
    .bind(t.rules)
    .bind(t.format)
    .bind(t.rounds)
    .bind(t.time_per_move_ms)
    .bind(t.increment_ms)
    .bind(t.rated)
    .bind(t.seats)
    .bind(t.signup_until)
    .bind(t.now)
    .fetch_one(ex)
    .await?)
}

pub async fn by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<TournamentRow>, StoreError> {
    Ok(sqlx::query_as::<_, TournamentRow>(&format!(
        "SELECT {COLUMNS} FROM tournaments WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Locks tournament `id`'s row until the transaction on `conn` ends: every transaction that
/// changes a tournament, or ends or starts one of its games, takes it before anything else it
/// writes, so that they take turns, each reading what the one before it wrote (two games of a
/// round ending at once in two processes: the second to end sees the first scored, and pairs
/// the next round). On SQLite a writing transaction holds the database's write lock already
/// (see [`Backend::for_update`]). True if there is such a tournament.
pub async fn lock(conn: &mut Connection, backend: Backend, id: i64) -> Result<bool, StoreError> {
    let found: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT id FROM tournaments WHERE id = $1{}",
        backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(found.is_some())
}

/// The tournament whose match game is game `game`, if it is a tournament's.
pub async fn of_game<'e>(ex: impl AnyExecutor<'e>, game: i64) -> Result<Option<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT m.tournament_id FROM tournament_games g \
         JOIN tournament_matches m ON m.id = g.match_id WHERE g.game_id = $1",
    )
    .bind(game)
    .fetch_optional(ex)
    .await?)
}

/// A server's tournaments not over (signing up, running or paused), the newest first.
pub async fn open_in_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild: u64,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(sqlx::query_as::<_, TournamentRow>(&format!(
        "SELECT {COLUMNS} FROM tournaments WHERE guild_id = $1 \
         AND status IN ('signup', 'running', 'paused') ORDER BY id DESC"
    ))
    .bind(to_db(guild))
    .fetch_all(ex)
    .await?)
}

/// A server's tournaments, the newest first, at most `limit`.
pub async fn of_guild<'e>(
    ex: impl AnyExecutor<'e>,
    guild: u64,
    limit: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(sqlx::query_as::<_, TournamentRow>(&format!(
        "SELECT {COLUMNS} FROM tournaments WHERE guild_id = $1 ORDER BY id DESC LIMIT $2"
    ))
    .bind(to_db(guild))
    .bind(limit)
    .fetch_all(ex)
    .await?)
}

/// Tournaments signing up whose sign-up ended by `now`: to be started.
pub async fn signup_over<'e>(
    ex: impl AnyExecutor<'e>,
    now: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(sqlx::query_as::<_, TournamentRow>(&format!(
        "SELECT {COLUMNS} FROM tournaments WHERE status = 'signup' \
         AND signup_until IS NOT NULL AND signup_until <= $1 ORDER BY id"
    ))
    .bind(now)
    .fetch_all(ex)
    .await?)
}

/// Moves a tournament from status `from` to `to`, if it is still at `from`; true if it was.
pub async fn set_status<'e>(
    ex: impl Writes<'e>,
    id: i64,
    from: &str,
    to: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournaments SET status = $1, updated_at = $2 WHERE id = $3 AND status = $4",
    )
    .bind(to)
    .bind(now)
    .bind(id)
    .bind(from)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Sets a Swiss event's number of rounds (before its start: fewer entrants came than its
/// rounds need).
pub async fn set_rounds<'e>(ex: impl Writes<'e>, id: i64, rounds: i64) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournaments SET rounds = $1 WHERE id = $2 AND status = 'signup'")
        .bind(rounds)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Claims the pairing of round `round` (the one after `round - 1`, the last paired) for this
/// transaction: true if no one paired it before. Rounds of a round robin are set here too.
pub async fn claim_round<'e>(
    ex: impl Writes<'e>,
    id: i64,
    round: i64,
    rounds: i64,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournaments SET round = $1, rounds = $2, updated_at = $3 \
         WHERE id = $4 AND round = $5 AND status = 'running'",
    )
    .bind(round)
    .bind(rounds)
    .bind(now)
    .bind(id)
    .bind(round - 1)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the notice of the announcement, whose message later notices edit.
pub async fn set_announcement<'e>(
    ex: impl Writes<'e>,
    id: i64,
    notice: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournaments SET announcement = $1 WHERE id = $2")
        .bind(notice)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records the message the announcement became.
pub async fn set_announcement_message<'e>(
    ex: impl Writes<'e>,
    id: i64,
    message: u64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE tournaments SET announcement_message = $1 WHERE id = $2")
        .bind(to_db(message))
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

const ENTRANT_COLUMNS: &str = "tournament_id, user_id, name, seat, joined_at, withdrawn_round";

/// Adds an entrant; a second entry of one member is a unique violation on
/// `tournament_entrants`.
pub async fn join<'e>(
    ex: impl Writes<'e>,
    tournament: i64,
    user: u64,
    name: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(tournament)
    .bind(to_db(user))
    .bind(name)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Removes an entrant before the start; true if they were in.
pub async fn leave<'e>(
    ex: impl Writes<'e>,
    tournament: i64,
    user: u64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 \
         AND seat IS NULL",
    )
    .bind(tournament)
    .bind(to_db(user))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The entrants, in the order they joined (by seat once seated).
pub async fn entrants<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<EntrantRow>, StoreError> {
    Ok(sqlx::query_as::<_, EntrantRow>(&format!(
        "SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = $1 \
         ORDER BY seat, joined_at, user_id"
    ))
    .bind(tournament)
    .fetch_all(ex)
    .await?)
}

/// Gives an entrant their seat.
pub async fn seat<'e>(
    ex: impl Writes<'e>,
    tournament: i64,
    user: u64,
    seat: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE tournament_entrants SET seat = $1 WHERE tournament_id = $2 AND user_id = $3",
    )
    .bind(seat)
    .bind(tournament)
    .bind(to_db(user))
    .execute(ex)
    .await?;
    Ok(())
}

/// Withdraws a seated entrant after round `round`; true if they were in and not withdrawn.
pub async fn withdraw<'e>(
    ex: impl Writes<'e>,
    tournament: i64,
    user: u64,
    round: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournament_entrants SET withdrawn_round = $1 WHERE tournament_id = $2 \
         AND user_id = $3 AND seat IS NOT NULL AND withdrawn_round IS NULL",
    )
    .bind(round)
    .bind(tournament)
    .bind(to_db(user))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

const MATCH_COLUMNS: &str =
    "id, tournament_id, round, first_seat, second_seat, first_halves, second_halves, forfeit";

/// Adds a match (a bye: `second` none); `decided`, its result given at once (a bye, or a
/// forfeit: `forfeit`).
pub async fn insert_match<'e>(
    ex: impl Writes<'e>,
    tournament: i64,
    round: i64,
    (first, second): (i64, Option<i64>),
    halves: Option<(i64, i64)>,
    forfeit: bool,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO tournament_matches (tournament_id, round, first_seat, second_seat, \
         first_halves, second_halves, forfeit) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(tournament)
    .bind(round)
    .bind(first)
    .bind(second)
    .bind(halves.map(|h| h.0))
    .bind(halves.map(|h| h.1))
    .bind(forfeit)
    .fetch_one(ex)
    .await?)
}

/// Every match of a tournament, by round.
pub async fn matches<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<MatchRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchRow>(&format!(
        "SELECT {MATCH_COLUMNS} FROM tournament_matches WHERE tournament_id = $1 \
         ORDER BY round, id"
    ))
    .bind(tournament)
    .fetch_all(ex)
    .await?)
}

pub async fn match_by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<MatchRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchRow>(&format!(
        "SELECT {MATCH_COLUMNS} FROM tournament_matches WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Records a match's result, if it has none yet; true if it had none.
pub async fn decide_match<'e>(
    ex: impl Writes<'e>,
    id: i64,
    first_halves: i64,
    second_halves: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournament_matches SET first_halves = $1, second_halves = $2 \
         WHERE id = $3 AND first_halves IS NULL",
    )
    .bind(first_halves)
    .bind(second_halves)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

const GAME_COLUMNS: &str = "id, match_id, leg, game_id, thread_id, first_points";

/// Adds one of a match's games (to be started in its thread).
pub async fn insert_game<'e>(
    ex: impl Writes<'e>,
    match_id: i64,
    leg: i64,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO tournament_games (match_id, leg) VALUES ($1, $2) RETURNING id",
    )
    .bind(match_id)
    .bind(leg)
    .fetch_one(ex)
    .await?)
}

pub async fn game_by_id<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<MatchGameRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchGameRow>(&format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// The match game that is game `game`, if it is a tournament's.
pub async fn game_of<'e>(
    ex: impl AnyExecutor<'e>,
    game: i64,
) -> Result<Option<MatchGameRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchGameRow>(&format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE game_id = $1"
    ))
    .bind(game)
    .fetch_optional(ex)
    .await?)
}

/// A match's games, leg 1 first.
pub async fn games_of_match<'e>(
    ex: impl AnyExecutor<'e>,
    match_id: i64,
) -> Result<Vec<MatchGameRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchGameRow>(&format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE match_id = $1 ORDER BY leg"
    ))
    .bind(match_id)
    .fetch_all(ex)
    .await?)
}

/// Every match game of a tournament.
pub async fn games_of<'e>(
    ex: impl AnyExecutor<'e>,
    tournament: i64,
) -> Result<Vec<MatchGameRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchGameRow>(
        "SELECT g.id, g.match_id, g.leg, g.game_id, g.thread_id, g.first_points \
         FROM tournament_games g JOIN tournament_matches m ON m.id = g.match_id \
         WHERE m.tournament_id = $1 ORDER BY m.round, m.id, g.leg",
    )
    .bind(tournament)
    .fetch_all(ex)
    .await?)
}

/// Links a match game to its game and thread, if it has none yet; true if it had none.
pub async fn start_game<'e>(
    ex: impl Writes<'e>,
    id: i64,
    game: i64,
    thread: u64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournament_games SET game_id = $1, thread_id = $2 \
         WHERE id = $3 AND game_id IS NULL AND first_points IS NULL",
    )
    .bind(game)
    .bind(to_db(thread))
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a match game's result (the first seat's points in halves), if it has none yet.
pub async fn score_game<'e>(
    ex: impl Writes<'e>,
    id: i64,
    first_points: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournament_games SET first_points = $1 WHERE id = $2 AND first_points IS NULL",
    )
    .bind(first_points)
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The role that may organise tournaments in a server, if one is named.
pub async fn organisers<'e>(
    ex: impl AnyExecutor<'e>,
    guild: u64,
) -> Result<Option<u64>, StoreError> {
    let role: Option<i64> =
        sqlx::query_scalar("SELECT role_id FROM tournament_organisers WHERE guild_id = $1")
            .bind(to_db(guild))
            .fetch_optional(ex)
            .await?;
    Ok(role.map(super::from_db))
}

/// Names (or, with none, forgets) the role that may organise tournaments in a server.
pub async fn set_organisers<'e>(
    ex: impl Writes<'e>,
    guild: u64,
    role: Option<u64>,
    by: u64,
    now: i64,
) -> Result<(), StoreError> {
    match role {
        Some(role) => {
            sqlx::query(
                "INSERT INTO tournament_organisers (guild_id, role_id, set_by, updated_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE \
                 SET role_id = excluded.role_id, set_by = excluded.set_by, \
                 updated_at = excluded.updated_at",
            )
            .bind(to_db(guild))
            .bind(opt_to_db(Some(role)))
            .bind(to_db(by))
            .bind(now)
            .execute(ex)
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM tournament_organisers WHERE guild_id = $1")
                .bind(to_db(guild))
                .execute(ex)
                .await?;
        }
    }
    Ok(())
}

/// Aborts game `game` if it is still under way (drawn, `aborted`: no rating changes); true if
/// it was.
pub async fn abort_game<'e>(ex: impl Writes<'e>, game: i64, now: i64) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET status = 'finished', result = 'draw', reason = 'aborted', \
         ended_at = $1, turn_deadline = NULL, reminders_sent = 0, clock_waits_for = NULL, \
         updated_at = $1 WHERE id = $2 AND status = 'active'",
    )
    .bind(now)
    .bind(game)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the thread made for a match game, if none is recorded; true if none was.
pub async fn set_thread<'e>(ex: impl Writes<'e>, id: i64, thread: u64) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE tournament_games SET thread_id = $1 WHERE id = $2 AND thread_id IS NULL",
    )
    .bind(to_db(thread))
    .bind(id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The match game recorded in thread `thread`, if one is.
pub async fn game_in_thread<'e>(
    ex: impl AnyExecutor<'e>,
    thread: u64,
) -> Result<Option<MatchGameRow>, StoreError> {
    Ok(sqlx::query_as::<_, MatchGameRow>(&format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE thread_id = $1 LIMIT 1"
    ))
    .bind(to_db(thread))
    .fetch_optional(ex)
    .await?)
}
