//! What SQLite and PostgreSQL spell differently, in one place. Everything else is one SQL text
//! that both accept (see the module docs of [`crate::store`]).

use super::StoreError;

/// The database behind a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a database URL names (`sqlite:…`, `postgres://…` or `postgresql://…`).
    pub fn of_url(url: &str) -> Option<Backend> {
        let scheme = url.split(':').next()?.to_ascii_lowercase();
        match scheme.as_str() {
            "sqlite" => Some(Backend::Sqlite),
            "postgres" | "postgresql" => Some(Backend::Postgres),
            _ => None,
        }
    }

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        }
    }

    /// The database's clock, in Unix milliseconds: what every lease, hold and claim is
    /// measured against, so that processes whose own clocks differ agree on them. PostgreSQL's
    /// `clock_timestamp()` (the time now, not the transaction's start); SQLite's
    /// `unixepoch('subsec')` (SQLite 3.42 and later; the bundled one is 3.46).
    pub fn now_ms(self) -> &'static str {
        match self {
            Backend::Sqlite => "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
            Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }

    /// What ends a `SELECT` that claims rows of `table` (an alias) for this transaction: on
    /// PostgreSQL, rows another process is claiming are skipped rather than waited for. SQLite
    /// has no row locks (its writers take turns), so nothing.
    pub fn skip_locked(self, table: &str) -> String {
        match self {
            Backend::Sqlite => String::new(),
            Backend::Postgres => format!(" FOR UPDATE OF {table} SKIP LOCKED"),
        }
    }

    /// What ends a `SELECT` of rows this transaction will update from what it read: on
    /// PostgreSQL the rows are locked until it ends (another such transaction waits, then reads
    /// what this one wrote). SQLite has no row locks: a transaction that has written holds the
    /// database's one write lock, so its reads after its first write are the latest already.
    pub fn for_update(self) -> &'static str {
        match self {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE",
        }
    }

    /// An SQL expression: the JSON text in `column` without its top-level `key`.
    pub fn json_without(self, column: &str, key: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_remove({column}, '$.{key}')"),
            Backend::Postgres => format!("(({column})::jsonb - '{key}')::text"),
        }
    }
}

/// Holds the lock named `key` until the transaction on `conn` ends, so that a limit read in
/// it (a count of a user's rows) and the insert the count allows cannot interleave with another
/// transaction's: on PostgreSQL a transaction-level advisory lock on the key's hash (two keys
/// sharing a hash only wait for each other); on SQLite nothing, as its writers take turns (and
/// a transaction that read before another's write cannot write after it).
pub async fn lock_in_transaction(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    key: &str,
) -> Result<(), StoreError> {
    if backend == Backend::Postgres {
        sqlx::query(
            "SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) AS locked",
        )
        .bind(key)
        .execute(conn)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_backend() {
        assert_eq!(Backend::of_url("sqlite://tablut.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("sqlite::memory:"), Some(Backend::Sqlite));
        assert_eq!(
            Backend::of_url("postgres://postgres@127.0.0.1/tablut"),
            Some(Backend::Postgres)
        );
        assert_eq!(
            Backend::of_url("PostgreSQL://u@h/d"),
            Some(Backend::Postgres)
        );
        assert_eq!(Backend::of_url("mysql://h/d"), None);
        assert_eq!(Backend::of_url("tablut.db"), None);
    }
}
