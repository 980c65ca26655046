//! A consistent copy of a SQLite database while the bot writes to it: `VACUUM INTO`, which
//! reads the database in one read transaction (in WAL mode, writers go on meanwhile) and writes
//! a compact copy holding exactly the transactions committed when it began.

use super::{location, sqlite_file, Backend};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a backup holds, read back from the copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    /// The database copied (see [`location`]).
    pub from: String,
    /// The copy's absolute path.
    pub to: PathBuf,
    pub games: i64,
    pub moves: i64,
    /// The newest migration the copy has applied.
    pub migration: i64,
    /// The copy's size in bytes.
    pub bytes: u64,
}

/// Why no backup was made, in one line.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "DATABASE_URL is a PostgreSQL database: back it up with pg_dump, which copies a \
         consistent snapshot while the bot runs: pg_dump -Fc -f PATH \"$DATABASE_URL\" \
         (docs/OPERATING.md, \"Backups\")"
    )]
    Postgres,
    #[error("'{0}' is not a SQLite database URL (write sqlite://tablut.db)")]
    Url(String),
    #[error(
        "there is no database at {0}: set DATABASE_URL to the bot's database (an absolute path \
         is safest), or run the command in the bot's folder"
    )]
    Missing(String),
    #[error("{0} already exists: give the backup a new file name")]
    Exists(String),
    #[error("cannot back up {from} to {to}: {reason}")]
    Failed {
        from: String,
        to: String,
        reason: String,
    },
}

/// Copies the SQLite database at `url` to the new file `to` while the bot may be writing to
/// it: the copy holds every transaction committed when it began, nothing half-written. The
/// copy is written beside `to` under a temporary name, checked (`PRAGMA integrity_check`),
/// flushed to the disk and only then renamed to `to`, so a file at `to` is always a whole,
/// readable database.
///
/// # Errors
///
/// [`BackupError::Postgres`] for a PostgreSQL URL (pg_dump's work), [`BackupError::Missing`]
/// if the database file does not exist (nothing is created), [`BackupError::Exists`] if `to`
/// exists, [`BackupError::Failed`] if SQLite or the disk fail.
pub async fn backup(url: &str, to: &Path) -> Result<Copied, BackupError> {
    match Backend::of_url(url) {
        Some(Backend::Postgres) => return Err(BackupError::Postgres),
        Some(Backend::Sqlite) => {}
        None => return Err(BackupError::Url(super::shown(url))),
    }
    let from = location(url);
    let file = sqlite_file(url).ok_or_else(|| BackupError::Url(super::shown(url)))?;
    if !file.is_file() {
        return Err(BackupError::Missing(from));
    }
    let to = std::path::absolute(to).unwrap_or_else(|_| to.to_path_buf());
    if to.exists() {
        return Err(BackupError::Exists(to.display().to_string()));
    }
    let failed = |reason: String| BackupError::Failed {
        from: from.clone(),
        to: to.display().to_string(),
        reason,
    };
    let name = to
        .file_name()
        .ok_or_else(|| failed("the backup needs a file name".into()))?;
    let partial = to.with_file_name(format!(
        ".{}.{}.partial",
        name.to_string_lossy(),
        std::process::id()
    ));
    let copied = copy(&file, &partial, &to)
        .await
        .map_err(|e| failed(e.to_string()));
    if copied.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    let (games, moves, migration) = copied?;
    let bytes = std::fs::metadata(&to).map_or(0, |m| m.len());
    Ok(Copied {
        from,
        to,
        games,
        moves,
        migration,
        bytes,
    })
}

/// `VACUUM INTO` `partial`, the copy checked and counted, flushed, renamed to `to`.
async fn copy(
    file: &Path,
    partial: &Path,
    to: &Path,
) -> Result<(i64, i64, i64), Box<dyn std::error::Error + Send + Sync>> {
    let options = |path: &Path| {
        SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(false)
            .busy_timeout(Duration::from_secs(10))
            .disable_statement_logging()
    };
    let mut source = SqliteConnection::connect_with(&options(file)).await?;
    let vacuumed = sqlx::query("VACUUM INTO $1")
        .bind(partial.to_string_lossy().into_owned())
        .execute(&mut source)
        .await;
    source.close().await?;
    vacuumed?;
    let mut copy = SqliteConnection::connect_with(&options(partial)).await?;
    let check: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut copy)
        .await?;
    if check != "ok" {
        return Err(format!("the copy fails SQLite's integrity check: {check}").into());
    }
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut copy)
        .await?;
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&mut copy)
        .await?;
    let migration: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations")
            .fetch_one(&mut copy)
            .await?;
    copy.close().await?;
    // SQLite does not flush what VACUUM INTO writes: the copy reaches the disk before it takes
    // its name, and the name before the command says it is done.
    std::fs::File::open(partial)?.sync_all()?;
    std::fs::rename(partial, to)?;
    if let Some(dir) = to.parent() {
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok((games, moves, migration))
}
