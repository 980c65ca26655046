//! [`StoreError`]: a database failure as the layers above the store hold it.

/// A failure of the database (a lost connection, a constraint the write broke, a row that
/// does not read back, a migration that did not apply). The service answers it with its
/// "something went wrong" line and logs it; it never tells the user what the database said.
/// What the driver said is kept for the log only: the layers above ask the error what they
/// need to know ([`StoreError::is_unique_violation`], [`StoreError::is_closed`]).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreError(Cause);

/// What the driver said.
#[derive(Debug, thiserror::Error)]
enum Cause {
    #[error(transparent)]
    Query(sqlx::Error),
    #[error(transparent)]
    Migrate(sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        StoreError(Cause::Query(e))
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        StoreError(Cause::Migrate(e))
    }
}

impl StoreError {
    /// Whether this is the violation of a unique constraint (or index) on `table`: the row
    /// the write adds is already there, which the service reads as a refusal of its own (a
    /// game already running in the channel, a move already made at that ply).
    pub fn is_unique_violation(&self, table: &str) -> bool {
        match &self.0 {
            Cause::Query(e) => is_unique_violation(e, table),
            Cause::Migrate(_) => false,
        }
    }

    /// A failure made up by a test (built for tests only): the database answered nothing.
    #[cfg(any(test, feature = "test-support"))]
    pub fn injected(what: &str) -> StoreError {
        StoreError(Cause::Query(sqlx::Error::Protocol(format!(
            "a failure injected by a test: {what}"
        ))))
    }

    /// Whether this failure of a COMMIT leaves its outcome unknown: the connection was lost
    /// (sqlx's `Io`, `Tls`, `Protocol`, or SQLite's worker gone) after the COMMIT may have
    /// reached the database, which may have committed it. An answer from the database (sqlx's
    /// `Database`: a serialization failure, a constraint checked at the commit) is certain: the
    /// transaction was rolled back.
    pub fn is_outcome_unknown(&self) -> bool {
        matches!(
            self.0,
            Cause::Query(
                sqlx::Error::Io(_)
                    | sqlx::Error::Tls(_)
                    | sqlx::Error::Protocol(_)
                    | sqlx::Error::WorkerCrashed
            )
        )
    }

    /// Whether the database was closed (the process is shutting down).
    pub fn is_closed(&self) -> bool {
        matches!(self.0, Cause::Query(sqlx::Error::PoolClosed))
    }
}

/// Whether an error is the violation of a unique constraint (or index) on `table`.
pub fn is_unique_violation(err: &sqlx::Error, table: &str) -> bool {
    match err {
        sqlx::Error::Database(db) => {
            db.is_unique_violation()
                && (db.table() == Some(table) || db.message().contains(&format!("{table}.")))
        }
        _ => false,
    }
}
