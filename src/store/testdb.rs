//! Fresh databases for tests on both backends: a SQLite file in a directory of its own, or a
//! PostgreSQL database `tablut_test_<random>` created through the server that
//! `TEST_POSTGRES_URL` names (for example `postgres://postgres@127.0.0.1:5432/postgres`) and
//! dropped after the test. Without that variable, or with no server answering, a PostgreSQL test
//! prints one line saying it was skipped and how to run it, and passes; under `CI=true` it fails
//! instead, so CI always runs them.
//!
//! [`both_backends!`](crate::both_backends) writes a test once and runs it on each backend.

use super::Backend;
use sqlx::Connection;
use std::path::PathBuf;

/// The variable that names the PostgreSQL server for tests.
pub const TEST_POSTGRES_URL: &str = "TEST_POSTGRES_URL";

/// A database made for one test; removed when dropped.
pub struct TestDb {
    pub backend: Backend,
    /// The URL to open it with.
    pub url: String,
    /// SQLite: the directory of the file.
    dir: Option<PathBuf>,
    /// PostgreSQL: the server's `postgres` database URL and the database's name.
    server: Option<(String, String)>,
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Says that a PostgreSQL test did not run (one line per test binary, on stderr past the test
/// harness's capture, so that `cargo test` shows it), or fails under CI.
fn skip(test: &str, why: &str) -> Option<TestDb> {
    if under_ci() {
        panic!("{test}: {why}; CI runs the PostgreSQL tests (set {TEST_POSTGRES_URL})");
    }
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "PostgreSQL tests skipped ({why}); to run them: \
             {TEST_POSTGRES_URL}=postgres://postgres@127.0.0.1:5432/postgres cargo test"
        );
    });
    None
}

/// A URL with another database name in its path.
fn with_database(server: &str, name: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server, None),
    };
    let rest = base.split_once("://").map_or(base, |(_, r)| r);
    let base = match rest.find('/') {
        Some(i) => &base[..base.len() - rest.len() + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

impl TestDb {
    /// A fresh, empty database on `backend` for the test named `test`; `None` (after one line
    /// on stderr) when PostgreSQL is not available outside CI.
    pub async fn new(backend: Backend, test: &str) -> Option<TestDb> {
        let name = format!(
            "tablut_test_{}_{:016x}",
            std::process::id(),
            fastrand::u64(..)
        );
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(name);
                std::fs::create_dir_all(&dir).expect("a temporary directory");
                Some(TestDb {
                    backend,
                    url: format!("sqlite://{}", dir.join("tablut.db").display()),
                    dir: Some(dir),
                    server: None,
                })
            }
            Backend::Postgres => {
                let Ok(server) = std::env::var(TEST_POSTGRES_URL) else {
                    return skip(test, &format!("{TEST_POSTGRES_URL} is not set"));
                };
                let mut admin = match sqlx::PgConnection::connect(&server).await {
                    Ok(c) => c,
                    Err(e) => return skip(test, &format!("cannot connect to {server}: {e}")),
                };
                sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
                    .execute(&mut admin)
                    .await
                    .expect("CREATE DATABASE for a test");
                let _ = admin.close().await;
                Some(TestDb {
                    backend,
                    url: with_database(&server, &name),
                    dir: None,
                    server: Some((server, name)),
                })
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some((server, name)) = self.server.take() {
            // On a thread of its own: the test's runtime may be the one dropping this.
            let dropped = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                rt.block_on(async {
                    let mut admin = sqlx::PgConnection::connect(&server).await?;
                    sqlx::raw_sql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .execute(&mut admin)
                        .await?;
                    admin.close().await
                })
            });
            if let Ok(Err(e)) = dropped.join() {
                eprintln!("could not drop the test database: {e}");
            }
        }
    }
}

/// Writes tests once for both backends: each `async fn name(db: TestDb) { … }` becomes a module
/// `name` with the tests `sqlite` and `postgres`, each given a fresh [`TestDb`]. Attributes
/// (`#[tokio::test]` or `#[tokio::test(flavor = "multi_thread")]`) go on both.
#[macro_export]
macro_rules! both_backends {
    ($( $(#[$attr:meta])* async fn $name:ident($db:ident : TestDb) $body:block )*) => { $(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($db: $crate::store::testdb::TestDb) $body

            $(#[$attr])*
            async fn sqlite() {
                let backend = $crate::store::Backend::Sqlite;
                let db = $crate::store::testdb::TestDb::new(backend, module_path!()).await;
                run(db.expect("a SQLite database")).await
            }

            $(#[$attr])*
            async fn postgres() {
                let backend = $crate::store::Backend::Postgres;
                if let Some(db) = $crate::store::testdb::TestDb::new(backend, module_path!()).await {
                    run(db).await
                }
            }
        }
    )* };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_url_gets_the_test_database() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "t1"),
            "postgres://postgres@127.0.0.1:5432/t1"
        );
        assert_eq!(
            with_database("postgres://u:p@h/postgres?sslmode=disable", "t2"),
            "postgres://u:p@h/t2?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "t3"), "postgres://h/t3");
    }
}
