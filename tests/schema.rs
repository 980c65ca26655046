//! Both backends' migrations make the same schema: the same tables with the same columns in the
//! same order, each column of a matching type and the same nullability and default, and the
//! same primary keys, unique constraints, indexes (partial ones with the same condition),
//! foreign keys and CHECK constraints. The store's one set of queries relies on the columns; the
//! invariants (one active game per channel, one move per ply, one open draw offer, ...) rely on
//! the constraints, so a constraint present on one backend only is a bug this test finds.
//!
//! Each backend describes its schema in its own words (SQLite's `pragma_*` functions and the
//! `CREATE` statements it keeps; PostgreSQL's catalogs), and PostgreSQL rewrites expressions
//! (`x IN ('a', 'b')` becomes `x = ANY (ARRAY['a'::text, 'b'::text])`). [`normalise`] reads both
//! as the same words; the one deliberate difference in types (a SQLite `INTEGER` holds what
//! PostgreSQL keeps as `BIGINT` or `BOOLEAN`) is [`same_type`].

use std::collections::BTreeMap;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::{self, Backend};

/// One column as both backends can describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Column {
    name: String,
    /// The declared type, upper case (`INTEGER`, `TEXT`, `BIGINT`, `DOUBLE PRECISION`, ...).
    ty: String,
    not_null: bool,
    /// The default's expression, normalised; `None` when there is none.
    default: Option<String>,
}

/// An index, or a unique or primary-key constraint (which both backends keep as an index).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Index {
    /// The name an index was created with; `None` for a constraint's index (the backends name
    /// those differently).
    name: Option<String>,
    columns: Vec<String>,
    unique: bool,
    primary: bool,
    /// A partial index's condition, normalised.
    condition: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ForeignKey {
    columns: Vec<String>,
    table: String,
    to: Vec<String>,
    /// `cascade`, `no action`, `set null`, ...
    on_delete: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Table {
    columns: Vec<Column>,
    indexes: Vec<Index>,
    foreign_keys: Vec<ForeignKey>,
    /// Every CHECK constraint's expression, normalised and sorted.
    checks: Vec<String>,
}

/// Reads an expression as both backends' words: no casts, no parentheses, PostgreSQL's
/// `= ANY (ARRAY[...])` as `IN (...)`, booleans as 0 and 1, lower case, single spaces.
fn normalise(expr: &str) -> String {
    let mut s = expr.to_lowercase();
    // Casts: 'a'::text, 0::bigint, '0'::double precision, 1500.0::double precision.
    let cast = regex::Regex::new(r"::(double precision|character varying|[a-z_]+)").unwrap();
    s = cast.replace_all(&s, "").into_owned();
    let any = regex::Regex::new(r"= any \(array\[([^\]]*)\]\)").unwrap();
    s = any.replace_all(&s, "in ($1)").into_owned();
    // A number PostgreSQL quoted before casting it: '0'::bigint.
    let number = regex::Regex::new(r"'(-?[0-9]+(\.[0-9]+)?)'").unwrap();
    s = number.replace_all(&s, "$1").into_owned();
    s = s.replace("!=", "<>");
    s = s.replace(['(', ')'], " ");
    let words: Vec<&str> = s.split_whitespace().collect();
    let s = words.join(" ");
    match s.as_str() {
        "false" => "0".into(),
        "true" => "1".into(),
        _ => s,
    }
}

/// Whether a SQLite column type and a PostgreSQL one hold the same values for the store.
fn same_type(sqlite: &str, postgres: &str) -> bool {
    match sqlite {
        "INTEGER" => matches!(postgres, "BIGINT" | "INTEGER" | "BOOLEAN" | "SMALLINT"),
        "REAL" => matches!(postgres, "DOUBLE PRECISION" | "REAL"),
        "TEXT" => postgres == "TEXT",
        "BLOB" => postgres == "BYTEA",
        _ => false,
    }
}

/// The CHECK constraints in a SQLite `CREATE TABLE` statement (column and table constraints
/// alike, including those `ALTER TABLE ... ADD COLUMN` appended): the expression inside each
/// `CHECK (...)`.
fn sqlite_checks(sql: &str) -> Vec<String> {
    let lower = sql.to_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("check") {
        let start = from + at;
        from = start + 5;
        // A word of its own, followed by its parenthesis.
        let before = lower[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = lower[from..].trim_start();
        if !rest.starts_with('(') {
            continue;
        }
        let open = lower.len() - rest.len();
        let mut depth = 0;
        for (i, c) in sql[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(normalise(&sql[open + 1..open + i]));
                        from = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    out
}

type Row2 = (String, String);

async fn sqlite_schema(db: &TestDb) -> BTreeMap<String, Table> {
    let pool = store::open(&db.url).await.unwrap();
    let tables: Vec<Row2> = sqlx::query_as(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name NOT LIKE '_sqlx%' ORDER BY name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut out = BTreeMap::new();
    for (name, sql) in tables {
        let cols: Vec<(String, String, i64, Option<String>, i64)> = sqlx::query_as(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info($1) ORDER BY cid",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut pk: Vec<(i64, String)> = cols
            .iter()
            .filter(|c| c.4 > 0)
            .map(|c| (c.4, c.0.clone()))
            .collect();
        pk.sort();
        let columns = cols
            .iter()
            .map(|(n, ty, not_null, default, pk)| Column {
                name: n.clone(),
                ty: ty.to_uppercase(),
                // A primary key's columns hold no NULL on either backend.
                not_null: *not_null != 0 || *pk > 0,
                default: default.as_deref().map(normalise),
            })
            .collect();

        let mut indexes = Vec::new();
        if !pk.is_empty() {
            indexes.push(Index {
                name: None,
                columns: pk.into_iter().map(|(_, c)| c).collect(),
                unique: true,
                primary: true,
                condition: None,
            });
        }
        let list: Vec<(String, i64, String, i64)> = sqlx::query_as(
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list($1) ORDER BY name",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        for (index, unique, origin, partial) in list {
            if origin == "pk" {
                continue;
            }
            let columns: Vec<String> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                    .bind(&index)
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            let condition = if partial != 0 {
                let sql: String = sqlx::query_scalar(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1",
                )
                .bind(&index)
                .fetch_one(&pool)
                .await
                .unwrap();
                let at = sql
                    .to_lowercase()
                    .rfind(" where ")
                    .expect("a partial index's WHERE");
                Some(normalise(&sql[at + 7..]))
            } else {
                None
            };
            indexes.push(Index {
                name: (origin == "c").then_some(index),
                columns,
                unique: unique != 0,
                primary: false,
                condition,
            });
        }
        indexes.sort();

        let fks: Vec<(i64, String, String, Option<String>, String)> = sqlx::query_as(
            "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list($1) \
             ORDER BY id, seq",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut foreign_keys: Vec<ForeignKey> = Vec::new();
        let mut last = None;
        for (id, table, from, to, on_delete) in fks {
            if last != Some(id) {
                foreign_keys.push(ForeignKey {
                    columns: vec![],
                    table,
                    to: vec![],
                    on_delete: on_delete.to_lowercase(),
                });
                last = Some(id);
            }
            let fk = foreign_keys.last_mut().unwrap();
            fk.columns.push(from);
            fk.to
                .push(to.expect("a foreign key names the columns it references"));
        }
        foreign_keys.sort();

        let mut checks = sqlite_checks(&sql);
        checks.sort();
        out.insert(
            name,
            Table {
                columns,
                indexes,
                foreign_keys,
                checks,
            },
        );
    }
    store::close(&pool).await;
    out
}

async fn postgres_schema(db: &TestDb) -> BTreeMap<String, Table> {
    let pool = store::open(&db.url).await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_name NOT LIKE '_sqlx%' ORDER BY table_name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut out = BTreeMap::new();
    for name in tables {
        let cols: Vec<(String, String, String, Option<String>, String)> = sqlx::query_as(
            "SELECT CAST(column_name AS TEXT), CAST(upper(data_type) AS TEXT), \
                    CAST(is_nullable AS TEXT), CAST(column_default AS TEXT), \
                    CAST(is_identity AS TEXT) \
             FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let columns = cols
            .into_iter()
            .map(|(n, ty, nullable, default, _identity)| Column {
                name: n,
                ty,
                not_null: nullable == "NO",
                default: default.as_deref().map(normalise),
            })
            .collect();

        // Every index of the table, with its columns in order, and whether a primary-key or
        // unique constraint owns it.
        let rows: Vec<(String, String, bool, bool, Option<String>, bool)> = sqlx::query_as(
            "SELECT CAST(i.relname AS TEXT), \
                    CAST(array_to_string(ARRAY(SELECT a.attname FROM unnest(x.indkey) \
                         WITH ORDINALITY AS k(attnum, n) \
                         JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum \
                         ORDER BY k.n), ',') AS TEXT), \
                    x.indisunique, x.indisprimary, \
                    CAST(pg_get_expr(x.indpred, x.indrelid) AS TEXT), \
                    EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid \
                            AND c.contype IN ('p', 'u')) \
             FROM pg_index x \
             JOIN pg_class i ON i.oid = x.indexrelid \
             JOIN pg_class t ON t.oid = x.indrelid \
             JOIN pg_namespace ns ON ns.oid = t.relnamespace \
             WHERE ns.nspname = 'public' AND t.relname = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut indexes: Vec<Index> = rows
            .into_iter()
            .map(
                |(index, columns, unique, primary, condition, constraint)| Index {
                    name: (!constraint).then_some(index),
                    columns: columns.split(',').map(str::to_owned).collect(),
                    unique,
                    primary,
                    condition: condition.as_deref().map(normalise),
                },
            )
            .collect();
        indexes.sort();

        let fks: Vec<(String, String, String, String)> = sqlx::query_as(
            "SELECT CAST(array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) \
                         WITH ORDINALITY AS k(attnum, n) \
                         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum \
                         ORDER BY k.n), ',') AS TEXT), \
                    CAST(f.relname AS TEXT), \
                    CAST(array_to_string(ARRAY(SELECT a.attname FROM unnest(c.confkey) \
                         WITH ORDINALITY AS k(attnum, n) \
                         JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum \
                         ORDER BY k.n), ',') AS TEXT), \
                    CAST(c.confdeltype AS TEXT) \
             FROM pg_constraint c \
             JOIN pg_class t ON t.oid = c.conrelid \
             JOIN pg_class f ON f.oid = c.confrelid \
             JOIN pg_namespace ns ON ns.oid = t.relnamespace \
             WHERE ns.nspname = 'public' AND c.contype = 'f' AND t.relname = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut foreign_keys: Vec<ForeignKey> = fks
            .into_iter()
            .map(|(columns, table, to, on_delete)| ForeignKey {
                columns: columns.split(',').map(str::to_owned).collect(),
                table,
                to: to.split(',').map(str::to_owned).collect(),
                on_delete: match on_delete.as_str() {
                    "a" => "no action",
                    "r" => "restrict",
                    "c" => "cascade",
                    "n" => "set null",
                    "d" => "set default",
                    other => panic!("unknown ON DELETE action {other}"),
                }
                .to_owned(),
            })
            .collect();
        foreign_keys.sort();

        let checks: Vec<String> = sqlx::query_scalar(
            "SELECT CAST(pg_get_constraintdef(c.oid) AS TEXT) FROM pg_constraint c \
             JOIN pg_class t ON t.oid = c.conrelid \
             JOIN pg_namespace ns ON ns.oid = t.relnamespace \
             WHERE ns.nspname = 'public' AND c.contype = 'c' AND t.relname = $1",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut checks: Vec<String> = checks
            .iter()
            .map(|c| {
                let body = c
                    .strip_prefix("CHECK ")
                    .expect("a CHECK constraint's definition");
                normalise(body)
            })
            .collect();
        checks.sort();
        out.insert(
            name,
            Table {
                columns,
                indexes,
                foreign_keys,
                checks,
            },
        );
    }
    store::close(&pool).await;
    out
}

/// Every difference between the two schemas, one line each.
fn differences(
    sqlite: &BTreeMap<String, Table>,
    postgres: &BTreeMap<String, Table>,
) -> Vec<String> {
    let mut out = Vec::new();
    let names = |m: &BTreeMap<String, Table>| m.keys().cloned().collect::<Vec<_>>();
    if names(sqlite) != names(postgres) {
        out.push(format!(
            "tables: SQLite {:?}, PostgreSQL {:?}",
            names(sqlite),
            names(postgres)
        ));
    }
    for (name, s) in sqlite {
        let Some(p) = postgres.get(name) else {
            continue;
        };
        let cols = |t: &Table| t.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        if cols(s) != cols(p) {
            out.push(format!(
                "{name}: columns SQLite {:?}, PostgreSQL {:?}",
                cols(s),
                cols(p)
            ));
            continue;
        }
        for (a, b) in s.columns.iter().zip(&p.columns) {
            let column = &a.name;
            if !same_type(&a.ty, &b.ty) {
                out.push(format!(
                    "{name}.{column}: type {} on SQLite, {} on PostgreSQL",
                    a.ty, b.ty
                ));
            }
            if a.not_null != b.not_null {
                out.push(format!(
                    "{name}.{column}: NOT NULL {} on SQLite, {} on PostgreSQL",
                    a.not_null, b.not_null
                ));
            }
            // A PostgreSQL identity column has no default; SQLite's AUTOINCREMENT none either.
            if a.default != b.default {
                out.push(format!(
                    "{name}.{column}: default {:?} on SQLite, {:?} on PostgreSQL",
                    a.default, b.default
                ));
            }
        }
        if s.indexes != p.indexes {
            out.push(format!(
                "{name}: indexes and unique constraints\n  SQLite     {:?}\n  PostgreSQL {:?}",
                s.indexes, p.indexes
            ));
        }
        if s.foreign_keys != p.foreign_keys {
            out.push(format!(
                "{name}: foreign keys\n  SQLite     {:?}\n  PostgreSQL {:?}",
                s.foreign_keys, p.foreign_keys
            ));
        }
        // SQLite keeps a boolean in an INTEGER that a CHECK holds to 0 or 1; PostgreSQL's
        // BOOLEAN type is that constraint.
        let booleans: Vec<String> = s
            .columns
            .iter()
            .zip(&p.columns)
            .filter(|(a, b)| a.ty == "INTEGER" && b.ty == "BOOLEAN")
            .map(|(a, _)| format!("{} in 0, 1", a.name))
            .collect();
        let sqlite_checks: Vec<String> = s
            .checks
            .iter()
            .filter(|c| !booleans.contains(c))
            .cloned()
            .collect();
        if sqlite_checks != p.checks {
            out.push(format!(
                "{name}: CHECK constraints\n  SQLite     {:?}\n  PostgreSQL {:?}",
                sqlite_checks, p.checks
            ));
        }
    }
    out
}

#[tokio::test]
async fn both_backends_have_the_same_tables_columns_and_constraints() {
    let sqlite = TestDb::new(Backend::Sqlite, "schema").await.unwrap();
    let Some(postgres) = TestDb::new(Backend::Postgres, "schema").await else {
        return;
    };
    let (s, p) = (
        sqlite_schema(&sqlite).await,
        postgres_schema(&postgres).await,
    );
    assert!(s.len() >= 6, "{s:?}");
    // The invariants the store relies on are there to compare, not lost by the reading.
    let games = &s["games"];
    assert!(
        games.indexes.iter().any(|i| i.unique
            && i.columns == ["channel_id"]
            && i.condition.as_deref() == Some("status = 'active'")),
        "one active game per channel: {:?}",
        games.indexes
    );
    assert!(s["moves"]
        .indexes
        .iter()
        .any(|i| i.primary && i.columns == ["game_id", "ply"]));
    assert!(s["moves"].checks.contains(&"ply >= 1".to_owned()));
    assert!(!games.checks.is_empty() && !p["games"].checks.is_empty());
    assert!(!p["moves"].foreign_keys.is_empty());
    let diff = differences(&s, &p);
    assert!(diff.is_empty(), "the backends differ:\n{}", diff.join("\n"));
}

/// The comparison finds what it is for: a constraint, an index condition, a column's
/// nullability or type that one backend lacks.
#[test]
fn a_difference_in_a_constraint_is_found() {
    let table = |checks: Vec<&str>, condition: &str, not_null: bool, ty: &str| Table {
        columns: vec![Column {
            name: "ply".into(),
            ty: ty.into(),
            not_null,
            default: None,
        }],
        indexes: vec![Index {
            name: Some("one".into()),
            columns: vec!["ply".into()],
            unique: true,
            primary: false,
            condition: Some(normalise(condition)),
        }],
        foreign_keys: vec![],
        checks: checks.into_iter().map(normalise).collect(),
    };
    let one = |t: Table| BTreeMap::from([("moves".to_owned(), t)]);
    let base = one(table(
        vec!["ply >= 1"],
        "status = 'active'",
        true,
        "INTEGER",
    ));
    let same = one(table(
        vec!["(ply >= 1)"],
        "(status = 'active'::text)",
        true,
        "BIGINT",
    ));
    assert!(differences(&base, &same).is_empty());
    for other in [
        one(table(vec![], "status = 'active'", true, "BIGINT")),
        one(table(
            vec!["ply >= 1"],
            "status = 'finished'",
            true,
            "BIGINT",
        )),
        one(table(
            vec!["ply >= 1"],
            "status = 'active'",
            false,
            "BIGINT",
        )),
        one(table(vec!["ply >= 1"], "status = 'active'", true, "TEXT")),
    ] {
        assert_eq!(differences(&base, &other).len(), 1, "{other:?}");
    }
}

#[test]
fn postgres_rewritten_expressions_read_as_sqlite_wrote_them() {
    assert_eq!(
        normalise("(status = ANY (ARRAY['active'::text, 'finished'::text]))"),
        normalise("status IN ('active', 'finished')")
    );
    assert_eq!(
        normalise("(((status = 'active'::text) AND (turn_deadline IS NOT NULL)))"),
        normalise("status = 'active' AND turn_deadline IS NOT NULL")
    );
    assert_eq!(normalise("'0'::bigint"), normalise("0"));
    assert_eq!(normalise("false"), normalise("0"));
    assert_eq!(
        sqlite_checks("CREATE TABLE t (a TEXT CHECK (a IN ('x', 'y')), b INT, CHECK ((a IS NULL) <> (b IS NULL)))"),
        vec![
            normalise("a IN ('x', 'y')"),
            normalise("(a IS NULL) <> (b IS NULL)")
        ]
    );
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
