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

pub use status::{ChallengeStatus, DrawStatus, GameStatus};

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
}
