//! The puzzle tables: `puzzles` (each with its Glicko-2 rating), `puzzle_attempts` (each user's
//! tries, one active at a time beside one at each day's puzzle), `puzzle_players` (each user's
//! puzzle rating in a server), `puzzle_channels` (the daily puzzle's channel, and the last day
//! posted) and `puzzle_days` (the puzzle each server was given each day).

use super::StoreError;
use super::Writes;
use super::{from_db, to_db, DbBool, DbId};
use crate::rating::Rating;
use sqlx::any::AnyExecutor;

/// A stored puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRow {
    pub id: i64,
    pub position: String,
    pub to_move: String,
    /// JSON, as `games.rules`.
    pub rules: String,
    pub kind: String,
    pub moves: u32,
    /// `from-to` moves separated by spaces.
    pub line: String,
    pub source: String,
    pub game_id: Option<i64>,
    pub rating: Rating,
    pub attempts: u32,
    pub solved: u32,
}

#[derive(sqlx::FromRow)]
struct StoredPuzzle {
    id: i64,
    position: String,
    to_move: String,
    rules: String,
    kind: String,
    #[sqlx(try_from = "i64")]
    moves: u32,
    line: String,
    source: String,
    game_id: Option<i64>,
    rating: f64,
    deviation: f64,
    volatility: f64,
    #[sqlx(try_from = "i64")]
    attempts: u32,
    #[sqlx(try_from = "i64")]
    solved: u32,
}

impl From<StoredPuzzle> for PuzzleRow {
    fn from(r: StoredPuzzle) -> PuzzleRow {
        PuzzleRow {
            id: r.id,
            position: r.position,
            to_move: r.to_move,
            rules: r.rules,
            kind: r.kind,
            moves: r.moves,
            line: r.line,
            source: r.source,
            game_id: r.game_id,
            rating: Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            attempts: r.attempts,
            solved: r.solved,
        }
    }
}

const PUZZLE_COLUMNS: &str = "id, position, to_move, rules, kind, moves, line, source, game_id, \
    rating, deviation, volatility, attempts, solved";

/// A puzzle to store.
#[derive(Debug, Clone)]
pub struct NewPuzzle<'a> {
    pub position: &'a str,
    pub to_move: &'a str,
    pub rules: &'a str,
    pub kind: &'a str,
    pub moves: u32,
    pub line: &'a str,
    pub source: &'a str,
    pub game_id: Option<i64>,
    pub rating: Rating,
    pub now: i64,
}

/// Stores a puzzle unless the same position (side to move and rules) is one already; whether
/// it was new.
pub async fn insert<'e>(ex: impl Writes<'e>, p: &NewPuzzle<'_>) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO puzzles (position, to_move, rules, kind, moves, line, source, game_id, \
         rating, deviation, volatility, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (position, to_move, rules) DO NOTHING",
    )
    .bind(p.position)
    .bind(p.to_move)
    .bind(p.rules)
    .bind(p.kind)
    .bind(i64::from(p.moves))
    .bind(p.line)
    .bind(p.source)
    .bind(p.game_id)
    .bind(p.rating.rating)
    .bind(p.rating.deviation)
    .bind(p.rating.volatility)
    .bind(p.now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn by_id<'e>(ex: impl AnyExecutor<'e>, id: i64) -> Result<Option<PuzzleRow>, StoreError> {
    Ok(sqlx::query_as::<_, StoredPuzzle>(&format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(ex)
    .await
    .map(|r| r.map(PuzzleRow::from))?)
}

/// How many puzzles there are.
pub async fn count<'e>(ex: impl AnyExecutor<'e>) -> Result<u32, StoreError> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles")
        .fetch_one(ex)
        .await?;
    Ok(n as u32)
}

/// The puzzle nearest `rating` that the user has not tried in this server (ties: the older
/// puzzle); if they have tried them all, the one they tried longest ago.
pub async fn next_for<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    rating: f64,
) -> Result<Option<PuzzleRow>, StoreError> {
    let cols = PUZZLE_COLUMNS
        .split(", ")
        .map(|c| format!("p.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(sqlx::query_as::<_, StoredPuzzle>(&format!(
        "SELECT {cols} FROM puzzles p LEFT JOIN ( \
             SELECT puzzle_id, MAX(started_at) AS last FROM puzzle_attempts \
             WHERE guild_id = $1 AND user_id = $2 GROUP BY puzzle_id \
         ) a ON a.puzzle_id = p.id \
         ORDER BY a.last IS NOT NULL, a.last, ABS(p.rating - $3), p.id LIMIT 1"
    ))
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(rating)
    .fetch_optional(ex)
    .await
    .map(|r| r.map(PuzzleRow::from))?)
}

/// The puzzle of a day, among `count` puzzles: the puzzles taken in turn, one a day.
pub async fn of_day<'e>(
    ex: impl AnyExecutor<'e>,
    day: i64,
    count: u32,
) -> Result<Option<PuzzleRow>, StoreError> {
    Ok(sqlx::query_as::<_, StoredPuzzle>(&format!(
        "SELECT {PUZZLE_COLUMNS} FROM puzzles ORDER BY id LIMIT 1 OFFSET $1"
    ))
    .bind(day.rem_euclid(i64::from(count.max(1))))
    .fetch_optional(ex)
    .await
    .map(|r| r.map(PuzzleRow::from))?)
}

/// A puzzle's rating as it stands, read to be updated in this transaction: locked until the
/// transaction ends on PostgreSQL; on SQLite, read after the transaction's first write (see
/// [`Backend::for_update`]). `None` if there is no such puzzle.
pub async fn rating_for_update(
    conn: &mut sqlx::AnyConnection,
    backend: super::Backend,
    id: i64,
) -> Result<Option<Rating>, StoreError> {
    let row: Option<(f64, f64, f64)> = sqlx::query_as(&format!(
        "SELECT rating, deviation, volatility FROM puzzles WHERE id = $1{}",
        backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|(rating, deviation, volatility)| Rating {
        rating,
        deviation,
        volatility,
    }))
}

/// Stores a puzzle's rating after a rated try, counting the try.
pub async fn put_rating<'e>(
    ex: impl Writes<'e>,
    id: i64,
    rating: Rating,
    solved: bool,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, attempts = attempts + 1, \
         solved = solved + $4 WHERE id = $5",
    )
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(i64::from(solved))
    .bind(id)
    .execute(ex)
    .await?;
    Ok(())
}

/// A user's try at a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AttemptRow {
    pub id: i64,
    pub puzzle_id: i64,
    pub status: String,
    #[sqlx(try_from = "i64")]
    pub progress: u32,
    #[sqlx(try_from = "DbBool")]
    pub rated: bool,
    /// The day whose daily puzzle this is a try at; `None` for the user's own puzzles.
    pub day: Option<i64>,
}

/// The user's current try in a server, if any: their try at a day's puzzle while one is
/// active (the latest day's), else their own puzzle's.
pub async fn active<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Option<AttemptRow>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT id, puzzle_id, status, progress, rated, day FROM puzzle_attempts \
         WHERE guild_id = $1 AND user_id = $2 AND status = 'active' \
         ORDER BY day IS NULL, day DESC LIMIT 1",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_optional(ex)
    .await?)
}

/// Try `id`, if it is there.
pub async fn attempt<'e>(
    ex: impl AnyExecutor<'e>,
    id: i64,
) -> Result<Option<AttemptRow>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT id, puzzle_id, status, progress, rated, day FROM puzzle_attempts WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(ex)
    .await?)
}

/// Whether the user has tried this puzzle in this server before.
pub async fn tried<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    puzzle_id: i64,
) -> Result<bool, StoreError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM puzzle_attempts WHERE guild_id = $1 AND user_id = $2 AND puzzle_id = $3",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(puzzle_id)
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// Starts a try: at the user's own puzzle (`day` none: they must have no such try active) or
/// at `day`'s puzzle (they must have had no try at it); the unique indexes refuse a second.
pub async fn start<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    user_id: u64,
    puzzle_id: i64,
    rated: bool,
    day: Option<i64>,
    now: i64,
) -> Result<i64, StoreError> {
    Ok(sqlx::query_scalar(
        "INSERT INTO puzzle_attempts (guild_id, user_id, puzzle_id, status, progress, rated, started_at, day) \
         VALUES ($1, $2, $3, 'active', 0, $4, $5, $6) RETURNING id",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(puzzle_id)
    .bind(rated)
    .bind(now)
    .bind(day)
    .fetch_one(ex)
    .await?)
}

/// The user's try at `day`'s puzzle in a server, whether it is over or not.
pub async fn day_attempt<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
    day: i64,
) -> Result<Option<AttemptRow>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT id, puzzle_id, status, progress, rated, day FROM puzzle_attempts \
         WHERE guild_id = $1 AND user_id = $2 AND day = $3",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(day)
    .fetch_optional(ex)
    .await?)
}

/// Records the puzzle a server was given for `day` (in the transaction that posts it); false
/// if it had one already.
pub async fn record_day<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    day: i64,
    puzzle_id: i64,
    channel_id: u64,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO puzzle_days (guild_id, day, puzzle_id, channel_id, posted_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, day) DO NOTHING",
    )
    .bind(to_db(guild_id))
    .bind(day)
    .bind(puzzle_id)
    .bind(to_db(channel_id))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The puzzle a server was given for `day`, and the channel it was posted in.
pub async fn of_server_day<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    day: i64,
) -> Result<Option<(i64, u64)>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Posted {
        puzzle_id: i64,
        #[sqlx(try_from = "DbId")]
        channel_id: u64,
    }
    let posted: Option<Posted> = sqlx::query_as(
        "SELECT puzzle_id, channel_id FROM puzzle_days WHERE guild_id = $1 AND day = $2",
    )
    .bind(to_db(guild_id))
    .bind(day)
    .fetch_optional(ex)
    .await?;
    Ok(posted.map(|p| (p.puzzle_id, p.channel_id)))
}

/// A user's finished try at a day's puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayResultRow {
    pub user_id: u64,
    pub solved: bool,
    /// From the try's start to its end, in ms.
    pub took_ms: i64,
}

/// The finished tries at a server's puzzle of `day`: the solved first, quickest first; then
/// the others, in the order they ended.
pub async fn day_results<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    day: i64,
) -> Result<Vec<DayResultRow>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Finished {
        #[sqlx(try_from = "DbId")]
        user_id: u64,
        status: String,
        took: i64,
    }
    let rows: Vec<Finished> = sqlx::query_as(
        "SELECT user_id, status, finished_at - started_at AS took FROM puzzle_attempts \
         WHERE guild_id = $1 AND day = $2 AND status <> 'active' AND finished_at IS NOT NULL \
         ORDER BY CASE WHEN status = 'solved' THEN 0 ELSE 1 END, \
         CASE WHEN status = 'solved' THEN finished_at - started_at ELSE finished_at END, user_id",
    )
    .bind(to_db(guild_id))
    .bind(day)
    .fetch_all(ex)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| DayResultRow {
            user_id: r.user_id,
            solved: r.status == "solved",
            took_ms: r.took,
        })
        .collect())
}

/// Moves an active try on from `expected` plies to `progress`, keeping the verdict (JSON; in
/// the `answer` column, shown once [`verdict_shown`] says so); false if it was not there
/// (another move's verdict came first).
pub async fn advance<'e>(
    ex: impl Writes<'e>,
    id: i64,
    expected: u32,
    progress: u32,
    verdict: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET progress = $1, answer = $2, answered_at = $3, \
         answer_shown = FALSE WHERE id = $4 AND status = 'active' AND progress = $5",
    )
    .bind(i64::from(progress))
    .bind(verdict)
    .bind(now)
    .bind(id)
    .bind(i64::from(expected))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends an active try at `expected` plies as solved or failed, its verdict not yet shown (the
/// verdict is written by [`keep_verdict`] in the same transaction); false if it was not there.
pub async fn finish<'e>(
    ex: impl Writes<'e>,
    id: i64,
    expected: u32,
    solved: bool,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET status = $1, progress = $2, finished_at = $3, \
         answered_at = $3, answer_shown = FALSE WHERE id = $4 AND status = 'active' AND progress = $5",
    )
    .bind(if solved { "solved" } else { "failed" })
    .bind(i64::from(expected) + 1)
    .bind(now)
    .bind(id)
    .bind(i64::from(expected))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Keeps a try's last verdict (JSON, in the `answer` column), to be given again until it is
/// shown.
pub async fn keep_verdict<'e>(
    ex: impl Writes<'e>,
    id: i64,
    verdict: &str,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE puzzle_attempts SET answer = $1 WHERE id = $2")
        .bind(verdict)
        .bind(id)
        .execute(ex)
        .await?;
    Ok(())
}

/// A try whose last verdict is not known to have been shown, with that verdict (JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnshownRow {
    pub attempt: AttemptRow,
    pub verdict: String,
}

/// The user's latest verdict in a server not known to have been shown, if any.
pub async fn unshown<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Option<UnshownRow>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Unshown {
        #[sqlx(flatten)]
        attempt: AttemptRow,
        answer: String,
    }
    let row: Option<Unshown> = sqlx::query_as(
        "SELECT id, puzzle_id, status, progress, rated, day, answer FROM puzzle_attempts \
         WHERE guild_id = $1 AND user_id = $2 AND answer_shown = FALSE AND answer IS NOT NULL \
         ORDER BY answered_at DESC, id DESC LIMIT 1",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_optional(ex)
    .await?;
    Ok(row.map(|r| UnshownRow {
        attempt: r.attempt,
        verdict: r.answer,
    }))
}

/// Records that try `id`'s verdict at `progress` plies (where the verdict left it) was shown;
/// false if it was shown already or the try has moved on.
pub async fn verdict_shown<'e>(
    ex: impl Writes<'e>,
    id: i64,
    progress: u32,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE puzzle_attempts SET answer_shown = TRUE \
         WHERE id = $1 AND progress = $2 AND answer_shown = FALSE",
    )
    .bind(id)
    .bind(i64::from(progress))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A user's puzzle rating in a server.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzlePlayerRow {
    pub user_id: u64,
    pub name: String,
    pub rating: Rating,
    pub solved: u32,
    pub failed: u32,
}

#[derive(sqlx::FromRow)]
struct StoredPlayer {
    #[sqlx(try_from = "DbId")]
    user_id: u64,
    name: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    #[sqlx(try_from = "i64")]
    solved: u32,
    #[sqlx(try_from = "i64")]
    failed: u32,
}

impl From<StoredPlayer> for PuzzlePlayerRow {
    fn from(r: StoredPlayer) -> PuzzlePlayerRow {
        PuzzlePlayerRow {
            user_id: r.user_id,
            name: r.name,
            rating: Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            solved: r.solved,
            failed: r.failed,
        }
    }
}

pub async fn player<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    user_id: u64,
) -> Result<Option<PuzzlePlayerRow>, StoreError> {
    Ok(sqlx::query_as::<_, StoredPlayer>(
        "SELECT user_id, name, rating, deviation, volatility, solved, failed FROM puzzle_players \
         WHERE guild_id = $1 AND user_id = $2",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .fetch_optional(ex)
    .await
    .map(|r| r.map(PuzzlePlayerRow::from))?)
}

/// Stores a user's puzzle rating after a rated try.
pub async fn put_player<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    user_id: u64,
    name: &str,
    rating: Rating,
    solved: bool,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO puzzle_players (guild_id, user_id, name, rating, deviation, volatility, solved, failed, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         solved = puzzle_players.solved + excluded.solved, \
         failed = puzzle_players.failed + excluded.failed, updated_at = excluded.updated_at",
    )
    .bind(to_db(guild_id))
    .bind(to_db(user_id))
    .bind(name)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(i64::from(solved))
    .bind(i64::from(!solved))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A server's best puzzle solvers, highest rating first.
pub async fn leaderboard<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
    limit: u32,
) -> Result<Vec<PuzzlePlayerRow>, StoreError> {
    Ok(sqlx::query_as::<_, StoredPlayer>(
        "SELECT user_id, name, rating, deviation, volatility, solved, failed FROM puzzle_players \
         WHERE guild_id = $1 ORDER BY rating DESC, deviation ASC, user_id ASC LIMIT $2",
    )
    .bind(to_db(guild_id))
    .bind(i64::from(limit))
    .fetch_all(ex)
    .await
    .map(|rows| rows.into_iter().map(PuzzlePlayerRow::from).collect())?)
}

/// Names (or changes) a server's daily puzzle channel.
pub async fn set_channel<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    channel_id: u64,
    set_by: u64,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO puzzle_channels (guild_id, channel_id, last_day, set_by, updated_at) \
         VALUES ($1, $2, NULL, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET \
         channel_id = excluded.channel_id, set_by = excluded.set_by, updated_at = excluded.updated_at",
    )
    .bind(to_db(guild_id))
    .bind(to_db(channel_id))
    .bind(to_db(set_by))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A server's daily puzzle channel and who named it, if it has one.
pub async fn channel_of<'e>(
    ex: impl AnyExecutor<'e>,
    guild_id: u64,
) -> Result<Option<(u64, u64)>, StoreError> {
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT channel_id, set_by FROM puzzle_channels WHERE guild_id = $1")
            .bind(to_db(guild_id))
            .fetch_optional(ex)
            .await?;
    Ok(row.map(|(c, by)| (from_db(c), from_db(by))))
}

/// Stops a server's daily puzzle; whether there was one.
pub async fn clear_channel<'e>(ex: impl Writes<'e>, guild_id: u64) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM puzzle_channels WHERE guild_id = $1")
        .bind(to_db(guild_id))
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The servers whose daily puzzle for `day` is not posted yet: (guild, channel).
pub async fn daily_due<'e>(
    ex: impl AnyExecutor<'e>,
    day: i64,
) -> Result<Vec<(u64, u64)>, StoreError> {
    #[derive(sqlx::FromRow)]
    struct Due {
        #[sqlx(try_from = "DbId")]
        guild_id: u64,
        #[sqlx(try_from = "DbId")]
        channel_id: u64,
    }
    let rows: Vec<Due> = sqlx::query_as(
        "SELECT guild_id, channel_id FROM puzzle_channels WHERE last_day IS NULL OR last_day < $1 \
         ORDER BY guild_id",
    )
    .bind(day)
    .fetch_all(ex)
    .await?;
    Ok(rows
        .into_iter()
        .map(|d| (d.guild_id, d.channel_id))
        .collect())
}

/// Claims `day`'s post for a server; false if it was claimed already (or the channel changed).
pub async fn claim_day<'e>(
    ex: impl Writes<'e>,
    guild_id: u64,
    channel_id: u64,
    day: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE puzzle_channels SET last_day = $1 WHERE guild_id = $2 AND channel_id = $3 \
         AND (last_day IS NULL OR last_day < $4)",
    )
    .bind(day)
    .bind(to_db(guild_id))
    .bind(to_db(channel_id))
    .bind(day)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Finished games (not aborted) not yet searched for puzzles, oldest first.
pub async fn unscanned_games<'e>(
    ex: impl AnyExecutor<'e>,
    limit: u32,
) -> Result<Vec<i64>, StoreError> {
    Ok(sqlx::query_scalar(
        "SELECT g.id FROM games g LEFT JOIN puzzle_scans s ON s.game_id = g.id \
         WHERE g.status = 'finished' AND g.reason <> 'aborted' AND s.game_id IS NULL \
         ORDER BY g.id LIMIT $1",
    )
    .bind(i64::from(limit))
    .fetch_all(ex)
    .await?)
}

/// Records a game as searched; false if it was already.
pub async fn scanned<'e>(
    ex: impl Writes<'e>,
    game_id: i64,
    found: u32,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO puzzle_scans (game_id, found, scanned_at) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game_id)
    .bind(i64::from(found))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stops the daily puzzle of whichever server posts it in channel `channel` (the channel is
/// gone); whether one did.
pub async fn clear_channel_in<'e>(ex: impl Writes<'e>, channel: u64) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM puzzle_channels WHERE channel_id = $1")
        .bind(to_db(channel))
        .execute(ex)
        .await?;
    Ok(done.rows_affected() >= 1)
}
