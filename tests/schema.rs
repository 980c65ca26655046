//! Both backends' migrations make the same tables with the same columns, in the same order, and
//! the same number of migrations: the store's one set of queries relies on it.

use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::{self, Backend};

/// Each table's columns, in order, as the database describes them.
async fn columns(db: &TestDb) -> Vec<(String, Vec<String>)> {
    let pool = store::open(&db.url).await.unwrap();
    let (tables, columns) = match db.backend {
        Backend::Sqlite => (
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND name NOT LIKE '_sqlx%' ORDER BY name",
            "SELECT name FROM pragma_table_info($1) ORDER BY cid",
        ),
        Backend::Postgres => (
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_name NOT LIKE '_sqlx%' ORDER BY table_name",
            "SELECT CAST(column_name AS TEXT) FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        ),
    };
    let names: Vec<String> = sqlx::query_scalar(tables).fetch_all(&pool).await.unwrap();
    let mut out = Vec::new();
    for name in names {
        let cols: Vec<String> = sqlx::query_scalar(columns)
            .bind(&name)
            .fetch_all(&pool)
            .await
            .unwrap();
        out.push((name, cols));
    }
    pool.close().await;
    out
}

#[tokio::test]
async fn both_backends_have_the_same_tables_and_columns() {
    let sqlite = TestDb::new(Backend::Sqlite, "schema").await.unwrap();
    let Some(postgres) = TestDb::new(Backend::Postgres, "schema").await else {
        return;
    };
    let (s, p) = (columns(&sqlite).await, columns(&postgres).await);
    assert!(s.len() >= 6, "{s:?}");
    assert_eq!(s, p, "SQLite's tables (left) and PostgreSQL's (right)");
}

#[test]
fn both_backends_have_the_same_migrations() {
    let names = |dir: &str| {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let sqlite = names("migrations/sqlite");
    assert!(!sqlite.is_empty());
    assert_eq!(sqlite, names("migrations/postgres"));
}
