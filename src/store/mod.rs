//! Storage: SQLite through sqlx. Opening the database (created on first use, WAL, foreign keys,
//! a busy timeout), the migrations under `migrations/`, and rows to and from plain types. Query
//! functions take an executor, so they work on the pool or inside a transaction. No Discord
//! types: ids are plain `u64`s, stored losslessly in SQLite's signed 64-bit integers.

pub mod challenges;
pub mod draws;
pub mod games;
pub mod moves;
pub mod outbox;
pub mod players;
mod status;

pub use status::{ChallengeStatus, DrawStatus, GameStatus, NoticeStatus};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::str::FromStr;
use std::time::Duration;

/// The database used when `DATABASE_URL` is not set: `tablut.db` in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://tablut.db";

/// The migrations, embedded at compile time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Why the database could not be opened or prepared.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("'{url}' is not a SQLite database URL (write it like sqlite://tablut.db): {source}")]
    Url { url: String, source: sqlx::Error },
    #[error("cannot open the database {url}: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error("cannot migrate the database {url}: {source}")]
    Migrate {
        url: String,
        source: sqlx::migrate::MigrateError,
    },
}

/// Opens (creating it if missing) the database at `url` and applies the migrations.
pub async fn open(url: &str) -> Result<SqlitePool, OpenError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|source| OpenError::Url {
            url: url.to_string(),
            source,
        })?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .map_err(|source| OpenError::Connect {
            url: url.to_string(),
            source,
        })?;
    if let Err(source) = MIGRATOR.run(&pool).await {
        // Closed, so that no -wal or -shm file is left beside a database that is not used.
        pool.close().await;
        return Err(OpenError::Migrate {
            url: url.to_string(),
            source,
        });
    }
    Ok(pool)
}

/// A Discord id (unsigned 64-bit) as SQLite stores it: the same bits, read as signed.
pub const fn to_db(id: u64) -> i64 {
    id as i64
}

/// The Discord id a stored integer holds.
pub const fn from_db(v: i64) -> u64 {
    v as u64
}

/// A Discord id column as `#[derive(sqlx::FromRow)]` reads it: `#[sqlx(try_from = "DbId")]`
/// on a `u64` field (the same bits, as [`from_db`]).
#[derive(sqlx::Type)]
#[sqlx(transparent)]
pub struct DbId(i64);

impl From<DbId> for u64 {
    fn from(id: DbId) -> u64 {
        from_db(id.0)
    }
}

/// A nullable Discord id column: `#[sqlx(try_from = "MaybeDbId")]` on an `Option<u64>` field.
#[derive(sqlx::Type)]
#[sqlx(transparent)]
pub struct MaybeDbId(Option<i64>);

impl From<MaybeDbId> for Option<u64> {
    fn from(id: MaybeDbId) -> Option<u64> {
        id.0.map(from_db)
    }
}

/// An optional id, as stored.
pub fn opt_to_db(id: Option<u64>) -> Option<i64> {
    id.map(to_db)
}

/// Whether an error is the violation of a unique constraint (or index) on `table`.
pub fn is_unique_violation(err: &sqlx::Error, table: &str) -> bool {
    match err {
        sqlx::Error::Database(db) => {
            db.is_unique_violation() && db.message().contains(&format!("{table}."))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_losslessly() {
        for id in [
            0,
            1,
            80_351_110_224_678_912,
            i64::MAX as u64,
            u64::MAX,
            1 << 63,
        ] {
            assert_eq!(from_db(to_db(id)), id);
        }
    }

    /// Rows read by `FromRow` get back every id as written, the highest bit included.
    #[tokio::test]
    async fn rows_read_by_from_row_keep_their_ids() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let pool = open(&url).await.unwrap();
        let seat = games::SeatRow {
            user_id: Some(u64::MAX),
            ai_level: None,
            name: "A".into(),
        };
        let ai = games::SeatRow {
            user_id: None,
            ai_level: Some("hard".into()),
            name: "AI".into(),
        };
        let game = games::insert(
            &pool,
            &games::NewGame {
                guild_id: None,
                channel_id: 1 << 63,
                attacker: &seat,
                defender: &ai,
                rules: "{}",
                start: None,
                rated: false,
                position: "/",
                time_per_move_ms: None,
                turn_deadline: None,
                now: 0,
            },
        )
        .await
        .unwrap();
        moves::insert(&pool, game, 1, "e2-c2", Some(u64::MAX), 5)
            .await
            .unwrap();
        moves::insert(&pool, game, 2, "e4-d4", None, 6)
            .await
            .unwrap();
        let read = moves::of_game(&pool, game).await.unwrap();
        assert_eq!(read[0].user_id, Some(u64::MAX));
        assert_eq!((read[1].user_id, read[1].ply), (None, 2));
        draws::insert(&pool, game, 2, 1 << 63, 7).await.unwrap();
        let offer = draws::open_in_game(&pool, game).await.unwrap().unwrap();
        assert_eq!((offer.game_id, offer.offered_by), (game, 1 << 63));
        pool.close().await;
    }
}
