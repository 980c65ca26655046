//! Storage: SQLite or PostgreSQL through sqlx's `Any` driver, one set of query functions for
//! both. Opening the database (`DATABASE_URL`: `sqlite://…`, created on first use, WAL, foreign
//! keys, a busy timeout; or `postgres://…`), each backend's migrations (`migrations/sqlite/`,
//! `migrations/postgres/`), and rows to and from plain types. No Discord types: ids are plain
//! `u64`s, stored losslessly in signed 64-bit integers.
//!
//! **Adding a table or a query.** A table is one migration file per backend with the same
//! number and name: `migrations/sqlite/NNNN_name.sql` (INTEGER, REAL, `INTEGER PRIMARY KEY
//! AUTOINCREMENT`) and `migrations/postgres/NNNN_name.sql` (BIGINT, DOUBLE PRECISION, BOOLEAN for
//! flags, `BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`); `tests/service/schema.rs` checks that both
//! give the same tables and columns. A query is a function in the table's module taking
//! `ex: impl AnyExecutor<'e>` (the pool or `&mut *tx`), with SQL both accept: numbered
//! placeholders `$1, $2…` (never `?`), `RETURNING id`, `ON CONFLICT`, `COUNT(CASE WHEN … THEN 1
//! END)` rather than `SUM(bool)`, `IS NOT DISTINCT FROM` rather than `IS`, `CASE` rather than
//! two-argument `MIN`/`MAX`. What one SQL text cannot say goes in [`dialect`] and the function
//! takes a [`Backend`]. Bind `i64`, `f64`, `&str`, `bool` and `Option`s of them (the Any driver
//! has no `u32`: bind `i64::from(n)`); read rows with `#[derive(sqlx::FromRow)]`, ids through
//! `#[sqlx(try_from = "DbId")]`/`"MaybeDbId"`, counts through `#[sqlx(try_from = "i64")]`, flags
//! through `#[sqlx(try_from = "DbBool")]`, and a status enum with `#[derive(sqlx::Type)]` plus
//! `any_text!` (in `status.rs`). Tests of a query run on both backends with
//! `crate::both_backends!` (see [`testdb`]).

pub mod analysis;
pub mod backup;
pub mod challenges;
pub mod dialect;
pub mod draws;
mod error;
pub mod games;
mod handle;
pub mod heartbeat;
pub mod moves;
pub mod notify;
pub mod outbox;
pub mod players;
pub mod privacy;
pub mod puzzles;
mod status;
#[cfg(any(test, feature = "test-support"))]
pub mod testdb;
pub mod tournaments;
pub mod vacations;

pub use dialect::Backend;
pub use error::{is_unique_violation, StoreError};
#[cfg(feature = "test-support")]
pub use handle::CommitFault;
pub use handle::{Locked, Store, Write, Writes};
pub use sqlx::any::AnyExecutor;

/// A connection the store's query functions run on: what a [`Write`] derefs to and
/// [`Locked::ex`] gives, so that the layers above name it without naming the driver.
pub type Connection = sqlx::AnyConnection;
pub use status::{ChallengeStatus, DrawStatus, GameStatus, NoticeStatus};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::AnyPool;
use std::str::FromStr;
use std::time::Duration;

/// The database used when `DATABASE_URL` is not set: `tablut.db` in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://tablut.db";

/// The SQLite migrations, embedded at compile time. Their contents never change once released
/// (sqlx checks their checksums in deployed databases).
pub static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// The PostgreSQL migrations: the same tables in PostgreSQL's types.
pub static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections per process.
const MAX_CONNECTIONS: u32 = 8;

/// What every SQLite connection is set to: write-ahead log, foreign keys, a busy timeout, and
/// `synchronous = FULL`: each commit waits until its log reaches the disk, so a move whose
/// answer Discord shows survives an OS crash or a power loss, not only `kill -9` (with `NORMAL`
/// the last commits before such a crash can be rolled back). Its cost is measured in
/// `benches/service.rs` (docs/BENCHMARKS.md).
const SQLITE_PRAGMAS: [&str; 4] = [
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 10000",
];

/// Why the database could not be opened or prepared. The URL it names has its password hidden
/// (see [`crate::credentials`]): this error is printed and logged.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(
        "'{url}' is not a database URL (write sqlite://tablut.db or \
         postgres://user:password@host/database): {reason}"
    )]
    Url { url: String, reason: String },
    #[error("cannot open the database {url}: {source}")]
    Connect { url: String, source: StoreError },
    #[error("cannot migrate the database {url}: {source}")]
    Migrate { url: String, source: StoreError },
    /// The database holds migrations this binary does not have: a newer version of the bot
    /// migrated it. Migrations only go forward, so this binary refuses to run on it.
    #[error(
        "the database {url} was migrated by a newer tablut-bot: it has migration {newest} \
         ({description}), this binary knows migrations up to {known}; run the newer binary, or \
         roll back by restoring the backup taken before the upgrade (docs/OPERATING.md, \
         \"Upgrades and rollbacks\")"
    )]
    Newer {
        url: String,
        newest: i64,
        description: String,
        known: i64,
    },
    /// A migration the database has applied differs from this binary's copy of it (its
    /// checksum): the binary was built from edited migrations.
    #[error(
        "the database {url} applied migration {version} as released, and this binary's \
         migration {version} differs from it (a checksum mismatch): build the bot from a \
         released commit, never with edited migrations (docs/OPERATING.md, \"Troubleshooting\")"
    )]
    Modified { url: String, version: i64 },
}

/// A database URL as an error shows it: without its password.
fn shown(url: &str) -> String {
    crate::credentials::hide(url).into_owned()
}

/// The URL as the driver takes it: a SQLite file is created if missing (`mode=rwc`) unless the
/// URL says otherwise.
fn connect_url(url: &str, backend: Backend) -> Result<String, OpenError> {
    let bad = |e: sqlx::Error| OpenError::Url {
        url: shown(url),
        reason: shown(&e.to_string()),
    };
    match backend {
        Backend::Sqlite => {
            sqlx::sqlite::SqliteConnectOptions::from_str(url).map_err(bad)?;
            let memory = url.contains(":memory:") || url.contains("mode=");
            Ok(match (memory, url.contains('?')) {
                (true, _) => url.to_string(),
                (false, true) => format!("{url}&mode=rwc"),
                (false, false) => format!("{url}?mode=rwc"),
            })
        }
        Backend::Postgres => {
            sqlx::postgres::PgConnectOptions::from_str(url).map_err(bad)?;
            Ok(url.to_string())
        }
    }
}

/// Where a database URL points, as the start-up line and `tablut-bot backup` name it: a SQLite
/// file by its absolute path (`sqlite:///srv/tablut/tablut.db`, whatever the working folder),
/// a PostgreSQL URL without its password.
pub fn location(url: &str) -> String {
    match sqlite_file(url) {
        Some(file) => format!("sqlite://{}", file.display()),
        None => shown(url),
    }
}

/// The absolute path of the file a `sqlite://` URL names (none for PostgreSQL, an in-memory
/// database or a URL that does not parse).
pub fn sqlite_file(url: &str) -> Option<std::path::PathBuf> {
    if Backend::of_url(url) != Some(Backend::Sqlite) || url.contains(":memory:") {
        return None;
    }
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    let file = options.get_filename();
    Some(if file.is_absolute() {
        file.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(file)
    })
}

/// Checks `url` and says which backend it names.
fn backend_of(url: &str) -> Result<Backend, OpenError> {
    Backend::of_url(url).ok_or_else(|| OpenError::Url {
        url: shown(url),
        reason: "it names neither SQLite nor PostgreSQL".into(),
    })
}

/// The migrations a database has applied, oldest first, with their descriptions (none in a
/// new database, which has no `_sqlx_migrations` table yet).
async fn applied(pool: &AnyPool) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT version, description FROM _sqlx_migrations ORDER BY version")
        .fetch_all(pool)
        .await
        .unwrap_or_default()
}

/// Refuses a database that a newer binary migrated: one that has applied a migration this
/// binary does not have.
fn check_not_newer(
    url: &str,
    applied: &[(i64, String)],
    migrator: &sqlx::migrate::Migrator,
) -> Result<(), OpenError> {
    let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
    let unknown = applied
        .iter()
        .filter(|(v, _)| !migrator.iter().any(|m| m.version == *v))
        .max_by_key(|(v, _)| *v);
    match unknown {
        Some((newest, description)) => Err(OpenError::Newer {
            url: shown(url),
            newest: *newest,
            description: description.clone(),
            known,
        }),
        None => Ok(()),
    }
}

/// Opens the database at `url` (a SQLite file is created if missing) and applies its
/// backend's migrations; logs one line naming the database, and whether it is new and empty.
///
/// # Errors
///
/// [`OpenError::Newer`] if a newer binary migrated the database (nothing is changed),
/// [`OpenError::Modified`] if a migration it applied differs from this binary's, and the
/// URL's, connection's and migrations' own failures.
pub async fn open(url: &str) -> Result<AnyPool, OpenError> {
    sqlx::any::install_default_drivers();
    let backend = backend_of(url)?;
    let file = sqlite_file(url);
    let existed = file.as_ref().is_some_and(|f| f.exists());
    let options =
        AnyConnectOptions::from_str(&connect_url(url, backend)?).map_err(|e| OpenError::Url {
            url: shown(url),
            reason: shown(&e.to_string()),
        })?;
    let pool = AnyPoolOptions::new()
        .max_connections(MAX_CONNECTIONS)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    for pragma in SQLITE_PRAGMAS {
                        sqlx::query(pragma).execute(&mut *conn).await?;
                    }
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| OpenError::Connect {
            url: shown(url),
            source: e.into(),
        })?;
    let migrator = match backend {
        Backend::Sqlite => &SQLITE_MIGRATOR,
        Backend::Postgres => &POSTGRES_MIGRATOR,
    };
    let before = applied(&pool).await;
    if let Err(e) = check_not_newer(url, &before, migrator) {
        close(&pool).await;
        return Err(e);
    }
    let migrated = match backend {
        Backend::Sqlite => migrate_sqlite(&pool).await,
        Backend::Postgres => POSTGRES_MIGRATOR.run(&pool).await,
    };
    if let Err(source) = migrated {
        // Closed, so that no -wal or -shm file is left beside a database that is not used.
        close(&pool).await;
        return Err(match source {
            sqlx::migrate::MigrateError::VersionMismatch(version) => OpenError::Modified {
                url: shown(url),
                version,
            },
            source => OpenError::Migrate {
                url: shown(url),
                source: source.into(),
            },
        });
    }
    let database = location(url);
    if before.is_empty() {
        let created = if file.is_some() && !existed {
            "created now"
        } else {
            "its tables made now"
        };
        tracing::info!("opened a new, empty database {database} ({created})");
    } else {
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
            .fetch_one(&pool)
            .await
            .unwrap_or(-1);
        tracing::info!("opened the database {database} ({games} games)");
    }
    Ok(pool)
}

/// A row of SQLite's `PRAGMA foreign_key_check`: the table, the row (none in a table
/// `WITHOUT ROWID`), the table it refers to, and which of its foreign keys.
type Violation = (String, Option<i64>, String, i64);

/// Applies the SQLite migrations with foreign keys off, as SQLite's way of changing a table
/// (build it anew, copy the rows, drop the old one, rename) needs: with them on, dropping the
/// old table would delete the rows that refer to it (`ON DELETE CASCADE`) or fail. sqlx runs
/// each migration in a transaction, where `PRAGMA foreign_keys` does nothing, so it is set on
/// the connection before. Once they are applied, every foreign key is checked
/// (`PRAGMA foreign_key_check`): a violation is an error, and the keys are on again.
async fn migrate_sqlite(pool: &AnyPool) -> Result<(), sqlx::migrate::MigrateError> {
    use sqlx::migrate::MigrateError;
    let mut conn = pool.acquire().await?;
    // The last migration applied before (none in a new database): the keys are checked only
    // when a migration ran.
    let applied = "SELECT MAX(version) FROM _sqlx_migrations";
    let before: Option<i64> = sqlx::query_scalar(applied)
        .fetch_one(&mut *conn)
        .await
        .unwrap_or(None);
    sqlx::query("PRAGMA foreign_keys = OFF")
        .execute(&mut *conn)
        .await?;
    let migrated = SQLITE_MIGRATOR.run(&mut *conn).await;
    let after: Option<i64> = sqlx::query_scalar(applied)
        .fetch_one(&mut *conn)
        .await
        .unwrap_or(None);
    let violations: Result<Vec<Violation>, sqlx::Error> = if migrated.is_ok() && after != before {
        sqlx::query_as("PRAGMA foreign_key_check")
            .fetch_all(&mut *conn)
            .await
    } else {
        Ok(vec![])
    };
    let restored = sqlx::query("PRAGMA foreign_keys = ON")
        .execute(&mut *conn)
        .await;
    if migrated.is_err() || restored.is_err() {
        // Not back among the others with its foreign keys off.
        drop(conn.detach());
    }
    migrated?;
    restored?;
    let violations = violations?;
    if let Some((table, rowid, parent, _)) = violations.first() {
        let row = rowid.map_or(String::new(), |r| format!(" row {r}"));
        return Err(MigrateError::Execute(sqlx::Error::Protocol(format!(
            "after the migrations, {} rows refer to rows that are not there \
             (the first: {table}{row}, in {parent})",
            violations.len()
        ))));
    }
    Ok(())
}

/// How long [`close`] waits for the connections still in use to come back and be closed.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// Closes the database: no connection is handed out any more, and this returns once every
/// connection is closed (on SQLite, the last one checkpoints the write-ahead log and removes
/// the `-wal` and `-shm` files), or after 10 s if one is still in use then.
///
/// sqlx's `Pool::close` alone (0.8.6) can return with a connection still open: a connection
/// on its way back to the pool when the close begins (a query has just finished, and sqlx
/// returns its connection in a task of its own) is put back among the idle ones after the
/// close has taken them, and closing an idle connection gives back a semaphore permit it did
/// not hold, so the close stops waiting before every connection is back. That connection is
/// then only dropped when the process exits, and on SQLite leaves the log behind. Closing
/// again takes the connections that came back since, until none is left.
pub async fn close(pool: &AnyPool) {
    let closing = async {
        loop {
            pool.close().await;
            if pool.size() == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    if tokio::time::timeout(CLOSE_WAIT, closing).await.is_err() {
        tracing::warn!(
            connections = pool.size(),
            "the database closed with connections still in use"
        );
    }
}

/// The backend a pool opened by [`open`] talks to.
pub fn backend(pool: &AnyPool) -> Backend {
    Backend::of_url(pool.connect_options().database_url.as_str()).unwrap_or(Backend::Sqlite)
}

/// The database's time now (Unix ms, see [`Backend::now_ms`]), moved by `offset_ms` (zero but
/// in tests, which move the database's clock on rather than wait).
pub async fn database_now<'e>(
    ex: impl AnyExecutor<'e>,
    backend: Backend,
    offset_ms: i64,
) -> Result<i64, StoreError> {
    Ok(
        sqlx::query_scalar(&format!("SELECT {} + $1", backend.now_ms()))
            .bind(offset_ms)
            .fetch_one(ex)
            .await?,
    )
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

/// A flag column (`INTEGER` 0/1 on SQLite, `BOOLEAN` on PostgreSQL):
/// `#[sqlx(try_from = "DbBool")]` on a `bool` field.
pub struct DbBool(bool);

impl From<DbBool> for bool {
    fn from(b: DbBool) -> bool {
        b.0
    }
}

impl sqlx::Type<sqlx::Any> for DbBool {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <bool as sqlx::Type<sqlx::Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <bool as sqlx::Type<sqlx::Any>>::compatible(ty)
            || <i64 as sqlx::Type<sqlx::Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Any> for DbBool {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        match <bool as sqlx::Decode<sqlx::Any>>::decode(value.clone()) {
            Ok(b) => Ok(DbBool(b)),
            Err(_) => <i64 as sqlx::Decode<sqlx::Any>>::decode(value).map(|n| DbBool(n != 0)),
        }
    }
}

/// An optional id, as stored.
pub fn opt_to_db(id: Option<u64>) -> Option<i64> {
    id.map(to_db)
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

    /// Every connection of a store, not only the first, runs in WAL mode with `synchronous =
    /// FULL` (2): a commit is on the disk before the bot answers.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_sqlite_connection_commits_to_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let pool = open(&url).await.unwrap();
        let mut held = Vec::new();
        for _ in 0..3 {
            let mut conn = pool.acquire().await.unwrap();
            let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!(synchronous, 2, "FULL");
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!(mode, "wal");
            held.push(conn);
        }
        drop(held);
        close(&pool).await;
    }

    #[tokio::test]
    async fn a_url_of_neither_backend_is_refused_naming_both_forms() {
        for url in ["mysql://localhost/tablut", "tablut.db", "postgres://[bad"] {
            let e = open(url).await.unwrap_err().to_string();
            assert!(e.contains("sqlite://") && e.contains("postgres://"), "{e}");
        }
    }

    /// A connection on its way back to the pool when the close begins (held there by a slow
    /// `after_release`, as a busy machine may hold it) is closed before `close` returns: none
    /// is left open, and SQLite's log is checkpointed and removed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn close_waits_for_a_connection_on_its_way_back() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
        let slow = Arc::new(AtomicBool::new(false));
        let returning = Arc::new(tokio::sync::Notify::new());
        let (slow_on_release, told) = (slow.clone(), returning.clone());
        let pool = AnyPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .after_connect(|conn, _| {
                Box::pin(async move {
                    sqlx::query("PRAGMA journal_mode = WAL")
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            })
            .after_release(move |_, _| {
                let (slow, told) = (slow_on_release.clone(), told.clone());
                Box::pin(async move {
                    if slow.load(Ordering::SeqCst) {
                        told.notify_one();
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    Ok(true)
                })
            })
            .connect(&url)
            .await
            .unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&pool)
            .await
            .unwrap();
        // Every connection back in the pool, then one more query whose connection is slow to
        // come back: the close begins while it is on its way.
        while pool.num_idle() as u32 != pool.size() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        slow.store(true, Ordering::SeqCst);
        sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&pool)
            .await
            .unwrap();
        returning.notified().await;
        close(&pool).await;
        assert_eq!(pool.size(), 0, "every connection closed");
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(files, ["t.db"], "no -wal or -shm left");
    }

    crate::both_backends! {
        /// A database that a newer binary migrated (a migration this binary does not have) is
        /// refused in one line naming that migration and the way back, and is left as it was;
        /// one whose applied migration differs from this binary's is refused as modified.
        #[tokio::test]
        async fn a_database_newer_than_the_binary_is_refused(db: TestDb) {
        let pool = open(&db.url).await.unwrap();
        let known = match backend(&pool) {
            Backend::Sqlite => &SQLITE_MIGRATOR,
            Backend::Postgres => &POSTGRES_MIGRATOR,
        };
        let latest = known.iter().map(|m| m.version).max().unwrap();
        let newer = latest + 1;
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES ($1, 'a later table', TRUE, $2, 1)",
        )
        .bind(newer)
        .bind(vec![0u8; 48])
        .execute(&pool)
        .await
        .unwrap();
        close(&pool).await;
        let e = open(&db.url).await.unwrap_err();
        let line = e.to_string();
        assert!(matches!(e, OpenError::Newer { newest, known: k, .. } if newest == newer && k == latest), "{line}");
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains(&format!("migration {newer} (a later table)")), "{line}");
        assert!(line.contains("restoring the backup"), "{line}");
        // Nothing was changed: the row is still there, and refused again.
        assert!(matches!(open(&db.url).await.unwrap_err(), OpenError::Newer { .. }));

        // The later migration gone, an applied migration whose checksum differs.
        sqlx::any::install_default_drivers();
        let raw = AnyPoolOptions::new()
            .max_connections(1)
            .connect(&connect_url(&db.url, Backend::of_url(&db.url).unwrap()).unwrap())
            .await
            .unwrap();
        sqlx::query("DELETE FROM _sqlx_migrations WHERE version = $1")
            .bind(newer)
            .execute(&raw)
            .await
            .unwrap();
        sqlx::query("UPDATE _sqlx_migrations SET checksum = $1 WHERE version = $2")
            .bind(vec![1u8; 48])
            .bind(latest)
            .execute(&raw)
            .await
            .unwrap();
        close(&raw).await;
        let e = open(&db.url).await.unwrap_err();
        assert!(matches!(e, OpenError::Modified { version, .. } if version == latest), "{e}");
        assert!(e.to_string().contains("checksum mismatch"), "{e}");
    }
    }

    /// The location the start-up line names is absolute, wherever the bot was started.
    #[test]
    fn a_sqlite_location_is_absolute() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            location("sqlite://tablut.db"),
            format!("sqlite://{}", here.join("tablut.db").display())
        );
        assert_eq!(
            location("sqlite:///srv/tablut/tablut.db?mode=rwc"),
            "sqlite:///srv/tablut/tablut.db"
        );
        assert!(!location("postgres://u:secret@h/d").contains("secret"));
    }

    /// How sqlx reports a COMMIT that fails: on a connection lost under the transaction (its
    /// backend terminated, as a server restart or a cut network does) as a lost connection, whose
    /// outcome the store calls unknown; with the database's answer (a deferred constraint broken
    /// at the commit) as that answer, certain: rolled back.
    #[tokio::test]
    async fn a_commit_on_a_lost_connection_has_an_unknown_outcome() {
        let Some(db) = testdb::TestDb::new(Backend::Postgres, "store::lost_commit").await else {
            return;
        };
        let store = Store::open(&db.url).await.unwrap();
        let table = "CREATE TABLE t (x INTEGER UNIQUE DEFERRABLE INITIALLY DEFERRED)";
        sqlx::raw_sql(table).execute(store.pool()).await.unwrap();
        let mut tx = store.write().await.unwrap();
        let insert = sqlx::query("INSERT INTO t VALUES (1)");
        insert.execute(&mut *tx).await.unwrap();
        let terminate = sqlx::query("SELECT pg_terminate_backend(pg_backend_pid())");
        let _ = terminate.execute(&mut *tx).await;
        let lost = tx.commit().await.unwrap_err();
        assert!(lost.is_outcome_unknown(), "{lost:?}");
        let mut tx = store.write().await.unwrap();
        let twice = sqlx::query("INSERT INTO t VALUES (2), (2)");
        twice.execute(&mut *tx).await.unwrap();
        let refused = tx.commit().await.unwrap_err();
        assert!(!refused.is_outcome_unknown(), "{refused:?}");
        store.close().await;
    }

    crate::both_backends! {
        /// Rows read by `FromRow` get back every id as written, the highest bit included.
        #[tokio::test]
        async fn rows_read_by_from_row_keep_their_ids(db: TestDb) {
        let pool = open(&db.url).await.unwrap();
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
                increment_ms: None,
                turn_ms: None,
                waiting_ms: None,
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
}
