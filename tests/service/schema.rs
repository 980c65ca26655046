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
//! as the same words. The types are mapped explicitly ([`same_type`]): SQLite's `INTEGER` is
//! PostgreSQL's `BIGINT` (both 64 bits; times are Unix seconds or milliseconds in them), or its
//! `BOOLEAN` when a CHECK holds the SQLite column to 0 and 1; `REAL` is `DOUBLE PRECISION`,
//! `TEXT` is `TEXT`, `BLOB` is `BYTEA`. A column whose id the database assigns
//! (`AUTOINCREMENT`, `GENERATED ... AS IDENTITY`) is one on both, and so are triggers and views.

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
    /// The database assigns it, never reusing one: SQLite's `AUTOINCREMENT`, PostgreSQL's
    /// identity column.
    identity: bool,
}

/// An index, or a unique or primary-key constraint (which both backends keep as an index).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Index {
    /// The name an index was created with; `None` for a constraint's index (the backends name
    /// those differently).
    name: Option<String>,
    /// The columns in order; an expression as PostgreSQL writes it, or `<expression>` on SQLite.
    columns: Vec<String>,
    unique: bool,
    primary: bool,
    /// Whether NULLs are distinct for the uniqueness (always on SQLite; PostgreSQL 15 can say
    /// `NULLS NOT DISTINCT`).
    nulls_distinct: bool,
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
    on_update: String,
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
/// `INTEGER` is 64 bits on SQLite, and so only `BIGINT` on PostgreSQL (its `INTEGER` is 32);
/// `REAL` is a double, PostgreSQL's `REAL` a single. An `INTEGER` against a `BOOLEAN` is the
/// same only with the CHECK that holds it to 0 and 1, which [`differences`] looks for.
fn same_type(sqlite: &str, postgres: &str) -> bool {
    matches!(
        (sqlite, postgres),
        ("INTEGER", "BIGINT" | "BOOLEAN")
            | ("REAL", "DOUBLE PRECISION")
            | ("TEXT", "TEXT")
            | ("BLOB", "BYTEA")
    )
}

/// The CHECK a SQLite flag column has, normalised as [`sqlite_checks`] gives it.
fn flag_check(column: &str) -> String {
    normalise(&format!("{column} IN (0, 1)"))
}

/// Whether a SQLite table's `CREATE` statement declares `column` as
/// `INTEGER PRIMARY KEY AUTOINCREMENT`.
fn sqlite_autoincrement(sql: &str, column: &str) -> bool {
    let declared = regex::Regex::new(&format!(
        r#"(?i)(^|[\s(,"`\[]){}["`\]]?\s+integer\s+primary\s+key\s+autoincrement\b"#,
        regex::escape(column)
    ))
    .unwrap();
    declared.is_match(sql)
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

/// The tables, and the triggers and views (`trigger NAME on TABLE`, `view NAME`): neither
/// backend's migrations make any today, and one on a backend only would keep (or break) an
/// invariant there that the other lacks.
type Schema = (BTreeMap<String, Table>, Vec<String>);

async fn sqlite_schema(db: &TestDb) -> Schema {
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
                identity: *pk > 0 && sqlite_autoincrement(&sql, n),
            })
            .collect();

        let mut indexes = Vec::new();
        if !pk.is_empty() {
            indexes.push(Index {
                name: None,
                columns: pk.into_iter().map(|(_, c)| c).collect(),
                unique: true,
                primary: true,
                nulls_distinct: true,
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
            let columns: Vec<Option<String>> =
                sqlx::query_scalar("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                    .bind(&index)
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            let columns = columns
                .into_iter()
                .map(|c| c.unwrap_or_else(|| "<expression>".into()))
                .collect();
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
                nulls_distinct: true,
                condition,
            });
        }
        indexes.sort();

        let fks: Vec<(i64, String, String, Option<String>, String, String)> = sqlx::query_as(
            "SELECT id, \"table\", \"from\", \"to\", on_delete, on_update \
             FROM pragma_foreign_key_list($1) ORDER BY id, seq",
        )
        .bind(&name)
        .fetch_all(&pool)
        .await
        .unwrap();
        let mut foreign_keys: Vec<ForeignKey> = Vec::new();
        let mut last = None;
        for (id, table, from, to, on_delete, on_update) in fks {
            if last != Some(id) {
                foreign_keys.push(ForeignKey {
                    columns: vec![],
                    table,
                    to: vec![],
                    on_delete: on_delete.to_lowercase(),
                    on_update: on_update.to_lowercase(),
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
    let extras: Vec<String> = sqlx::query_scalar(
        "SELECT CASE type WHEN 'trigger' THEN 'trigger ' || name || ' on ' || tbl_name \
                ELSE 'view ' || name END \
         FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    store::close(&pool).await;
    (out, extras)
}

/// An index as PostgreSQL's catalog gives it: its name, its key columns (separated by the
/// character 31), unique, primary, NULLs distinct, the partial index's condition, and whether
/// a primary-key or unique constraint owns it.
type PgIndex = (String, String, bool, bool, bool, Option<String>, bool);

/// A foreign key's action as PostgreSQL's catalog spells it (`pg_constraint.confdeltype`), in
/// SQLite's words.
fn action(code: &str) -> String {
    match code {
        "a" => "no action",
        "r" => "restrict",
        "c" => "cascade",
        "n" => "set null",
        "d" => "set default",
        other => panic!("unknown foreign key action {other}"),
    }
    .to_owned()
}

async fn postgres_schema(db: &TestDb) -> Schema {
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
            .map(|(n, ty, nullable, default, identity)| Column {
                name: n,
                ty,
                not_null: nullable == "NO",
                default: default.as_deref().map(normalise),
                identity: identity == "YES",
            })
            .collect();

        // Every index of the table, with its columns in order, and whether a primary-key or
        // unique constraint owns it.
        // Each key column as pg_get_indexdef writes it: the column's name, or the expression.
        let rows: Vec<PgIndex> = sqlx::query_as(
            "SELECT CAST(i.relname AS TEXT), \
                    CAST(array_to_string(ARRAY(SELECT pg_get_indexdef(x.indexrelid, n, true) \
                         FROM generate_series(1, x.indnkeyatts) AS n ORDER BY n), chr(31)) \
                         AS TEXT), \
                    x.indisunique, x.indisprimary, NOT x.indnullsnotdistinct, \
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
                |(index, columns, unique, primary, nulls_distinct, condition, constraint)| Index {
                    name: (!constraint).then_some(index),
                    // A column named by a keyword is quoted ("position").
                    columns: columns
                        .split('\u{1f}')
                        .map(
                            |c| match c.strip_prefix('"').and_then(|c| c.strip_suffix('"')) {
                                Some(name) if !name.contains('"') => name.to_owned(),
                                _ => c.to_owned(),
                            },
                        )
                        .collect(),
                    unique,
                    primary,
                    nulls_distinct,
                    condition: condition.as_deref().map(normalise),
                },
            )
            .collect();
        indexes.sort();

        let fks: Vec<(String, String, String, String, String)> = sqlx::query_as(
            "SELECT CAST(array_to_string(ARRAY(SELECT a.attname FROM unnest(c.conkey) \
                         WITH ORDINALITY AS k(attnum, n) \
                         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum \
                         ORDER BY k.n), ',') AS TEXT), \
                    CAST(f.relname AS TEXT), \
                    CAST(array_to_string(ARRAY(SELECT a.attname FROM unnest(c.confkey) \
                         WITH ORDINALITY AS k(attnum, n) \
                         JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum \
                         ORDER BY k.n), ',') AS TEXT), \
                    CAST(c.confdeltype AS TEXT), CAST(c.confupdtype AS TEXT) \
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
            .map(|(columns, table, to, on_delete, on_update)| ForeignKey {
                columns: columns.split(',').map(str::to_owned).collect(),
                table,
                to: to.split(',').map(str::to_owned).collect(),
                on_delete: action(&on_delete),
                on_update: action(&on_update),
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
    let extras: Vec<String> = sqlx::query_scalar(
        "SELECT CAST(e AS TEXT) FROM ( \
             SELECT 'trigger ' || t.tgname || ' on ' || c.relname AS e FROM pg_trigger t \
             JOIN pg_class c ON c.oid = t.tgrelid \
             JOIN pg_namespace ns ON ns.oid = c.relnamespace \
             WHERE ns.nspname = 'public' AND NOT t.tgisinternal \
             UNION ALL \
             SELECT 'view ' || viewname FROM pg_views WHERE schemaname = 'public' \
         ) AS x ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    store::close(&pool).await;
    (out, extras)
}

/// What `a` holds that `b` does not.
fn only<'a, T: PartialEq>(a: &'a [T], b: &[T]) -> Vec<&'a T> {
    a.iter().filter(|x| !b.contains(x)).collect()
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
            } else if b.ty == "BOOLEAN" && !s.checks.contains(&flag_check(column)) {
                out.push(format!(
                    "{name}.{column}: BOOLEAN on PostgreSQL, an INTEGER not held to 0 and 1 \
                     (CHECK ({column} IN (0, 1))) on SQLite"
                ));
            }
            if a.identity != b.identity {
                out.push(format!(
                    "{name}.{column}: assigned by the database {} on SQLite, {} on PostgreSQL",
                    a.identity, b.identity
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
                "{name}: indexes and unique constraints\n  SQLite only     {:?}\n  \
                 PostgreSQL only {:?}",
                only(&s.indexes, &p.indexes),
                only(&p.indexes, &s.indexes)
            ));
        }
        if s.foreign_keys != p.foreign_keys {
            out.push(format!(
                "{name}: foreign keys\n  SQLite only     {:?}\n  PostgreSQL only {:?}",
                only(&s.foreign_keys, &p.foreign_keys),
                only(&p.foreign_keys, &s.foreign_keys)
            ));
        }
        // SQLite keeps a boolean in an INTEGER that a CHECK holds to 0 or 1; PostgreSQL's
        // BOOLEAN type is that constraint.
        let booleans: Vec<String> = s
            .columns
            .iter()
            .zip(&p.columns)
            .filter(|(a, b)| a.ty == "INTEGER" && b.ty == "BOOLEAN")
            .map(|(a, _)| flag_check(&a.name))
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
    let ((s, sqlite_extras), (p, postgres_extras)) = (
        sqlite_schema(&sqlite).await,
        postgres_schema(&postgres).await,
    );
    assert_eq!(sqlite_extras, postgres_extras, "triggers and views");
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
    assert!(games.columns[0].identity && p["games"].columns[0].identity);
    assert_eq!(p["games"].columns[0].ty, "BIGINT");
    assert!(games.checks.contains(&flag_check("rated")));
    let diff = differences(&s, &p);
    assert!(diff.is_empty(), "the backends differ:\n{}", diff.join("\n"));
}

/// One table as SQLite describes it and the same as PostgreSQL does, in each one's words.
fn sample() -> (Table, Table) {
    let column = |name: &str, ty: &str, default: Option<&str>, identity: bool| Column {
        name: name.into(),
        ty: ty.into(),
        not_null: true,
        default: default.map(normalise),
        identity,
    };
    let indexes = |condition: &str| {
        vec![
            Index {
                name: None,
                columns: vec!["id".into()],
                unique: true,
                primary: true,
                nulls_distinct: true,
                condition: None,
            },
            Index {
                name: Some("games_one_active_per_channel".into()),
                columns: vec!["channel_id".into()],
                unique: true,
                primary: false,
                nulls_distinct: true,
                condition: Some(normalise(condition)),
            },
        ]
    };
    let foreign_keys = vec![ForeignKey {
        columns: vec!["player".into()],
        table: "players".into(),
        to: vec!["id".into()],
        on_delete: "cascade".into(),
        on_update: "no action".into(),
    }];
    let sqlite = Table {
        columns: vec![
            column("id", "INTEGER", None, true),
            column("channel_id", "INTEGER", None, false),
            column("rated", "INTEGER", Some("0"), false),
            column("player", "INTEGER", None, false),
            column("status", "TEXT", Some("'active'"), false),
        ],
        indexes: indexes("status = 'active'"),
        foreign_keys: foreign_keys.clone(),
        checks: vec![
            normalise("status IN ('active', 'finished')"),
            normalise("rated IN (0, 1)"),
        ],
    };
    let postgres = Table {
        columns: vec![
            column("id", "BIGINT", None, true),
            column("channel_id", "BIGINT", None, false),
            column("rated", "BOOLEAN", Some("false"), false),
            column("player", "BIGINT", None, false),
            column("status", "TEXT", Some("'active'::text"), false),
        ],
        indexes: indexes("(status = 'active'::text)"),
        foreign_keys,
        checks: vec![normalise(
            "(status = ANY (ARRAY['active'::text, 'finished'::text]))",
        )],
    };
    (sqlite, postgres)
}

/// The comparison finds what it is for: any one constraint, index, key or column property that
/// one backend has and the other lacks is one difference.
#[test]
fn a_difference_in_a_constraint_is_found() {
    let one = |t: Table| BTreeMap::from([("games".to_owned(), t)]);
    let (sqlite, postgres) = sample();
    assert_eq!(
        differences(&one(sqlite.clone()), &one(postgres.clone())),
        Vec::<String>::new()
    );
    type Change = fn(&mut Table);
    let changes: [(&str, Change); 16] = [
        ("the unique index missing", |t| {
            t.indexes.retain(|i| !i.unique || i.primary)
        }),
        ("the index not unique", |t| t.indexes[1].unique = false),
        ("another condition", |t| {
            t.indexes[1].condition = Some(normalise("status = 'finished'"))
        }),
        ("no condition", |t| t.indexes[1].condition = None),
        ("NULLS NOT DISTINCT", |t| {
            t.indexes[1].nulls_distinct = false
        }),
        ("another primary key", |t| {
            t.indexes[0].columns = vec!["id".into(), "channel_id".into()]
        }),
        ("no foreign key", |t| t.foreign_keys.clear()),
        ("another ON DELETE", |t| {
            t.foreign_keys[0].on_delete = "no action".into()
        }),
        ("another ON UPDATE", |t| {
            t.foreign_keys[0].on_update = "cascade".into()
        }),
        ("no CHECK", |t| t.checks.clear()),
        ("nullable", |t| t.columns[1].not_null = false),
        ("TEXT", |t| t.columns[1].ty = "TEXT".into()),
        ("a 32-bit INTEGER", |t| t.columns[1].ty = "INTEGER".into()),
        ("a single-precision REAL", |t| {
            t.columns[1].ty = "REAL".into()
        }),
        ("not an identity", |t| t.columns[0].identity = false),
        ("another default", |t| {
            t.columns[4].default = Some(normalise("'finished'::text"))
        }),
    ];
    for (what, change) in changes {
        let mut other = postgres.clone();
        change(&mut other);
        let found = differences(&one(sqlite.clone()), &one(other));
        assert_eq!(found.len(), 1, "PostgreSQL with {what}: {found:?}");
    }
    // A flag column on SQLite that any integer can be written to is not PostgreSQL's BOOLEAN.
    let mut loose = sqlite.clone();
    loose.checks.retain(|c| *c != flag_check("rated"));
    let found = differences(&one(loose), &one(postgres.clone()));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("games.rated"), "{found:?}");
    // An AUTOINCREMENT column is read as one, wherever the words are.
    for sql in [
        "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, x INT)",
        "CREATE TABLE t (x INT,\n    id  integer  primary key autoincrement)",
        "CREATE TABLE t (\"id\" INTEGER PRIMARY KEY AUTOINCREMENT)",
    ] {
        assert!(sqlite_autoincrement(sql, "id"), "{sql}");
    }
    assert!(!sqlite_autoincrement(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, grid INTEGER PRIMARY KEY AUTOINCREMENT)",
        "id"
    ));
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

/// Every row of every table (and the AUTOINCREMENT counters), each as a JSON array of its
/// values, table by table.
async fn sqlite_rows(
    pool: &sqlx::AnyPool,
    only: Option<&BTreeMap<String, Vec<String>>>,
) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (table, columns) in sqlite_columns(pool).await {
        // Only the tables and columns named (those a later migration adds are left out).
        let columns = match only {
            Some(only) => match only.get(&table) {
                Some(named) => named.clone(),
                None => continue,
            },
            None => columns,
        };
        let rows: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT json_array({}) AS r FROM {table} ORDER BY r",
            columns.join(", ")
        ))
        .fetch_all(pool)
        .await
        .unwrap();
        out.insert(table, rows);
    }
    out
}

/// Every table's columns, in order.
async fn sqlite_columns(pool: &sqlx::AnyPool) -> BTreeMap<String, Vec<String>> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_sqlx%' \
         ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = BTreeMap::new();
    for table in tables {
        let columns: Vec<String> =
            sqlx::query_scalar("SELECT name FROM pragma_table_info($1) ORDER BY cid")
                .bind(&table)
                .fetch_all(pool)
                .await
                .unwrap();
        out.insert(table, columns);
    }
    out
}

/// Migration 0019 builds `games` and `challenges` anew on SQLite to hold their flags to 0 and
/// 1. A database that has games with moves, draw offers, challenges, analyses and puzzles
/// referring to them keeps every row of every table as it was (none deleted by a cascade when
/// the old `games` goes), the ids and the AUTOINCREMENT counters (a deleted last game's id is
/// not given again); afterwards the foreign keys are enforced again, and a flag other than 0
/// or 1 is refused.
#[tokio::test]
async fn rebuilding_the_flag_tables_keeps_every_row() {
    let db = TestDb::new(Backend::Sqlite, "schema").await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir("migrations/sqlite").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name[..4].parse::<u32>().unwrap() <= 18 {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&format!("{}?mode=rwc", db.url))
        .await
        .unwrap();
    sqlx::migrate::Migrator::new(dir.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    let fill = [
        "PRAGMA foreign_keys = ON",
        "INSERT INTO games (id, guild_id, channel_id, attacker_user_id, attacker_name, \
         defender_ai_level, defender_name, rules, rated, status, result, reason, ply, position, \
         created_at, updated_at, ended_at) VALUES \
         (1, 7, 100, 11, 'Astrid', 'easy', 'AI', 'tablut', 1, 'finished', 'draw', 'agreed', 2, \
          'p1', 1000, 2000, 2000)",
        "INSERT INTO games (id, guild_id, channel_id, attacker_user_id, attacker_name, \
         defender_user_id, defender_name, rules, status, ply, position, time_per_move_ms, \
         turn_deadline, created_at, updated_at, ai_claimed_ply, ai_claimed_by, \
         ai_claimed_until, clock_claimed_by, clock_claimed_until) VALUES \
         (2, 7, 100, 11, 'Astrid', 12, 'Birger', 'brandubh', 'active', 0, 'p2', 60000, 9000, \
          3000, 3000, 0, 'me', 5000, 'you', 6000)",
        "INSERT INTO games (id, channel_id, attacker_ai_level, attacker_name, defender_user_id, \
         defender_name, rules, position, created_at, updated_at) VALUES \
         (3, 101, 'hard', 'AI', 12, 'Birger', 'tablut', 'p3', 4000, 4000)",
        "DELETE FROM games WHERE id = 3",
        "INSERT INTO moves (game_id, ply, notation, user_id, played_at) VALUES \
         (1, 1, 'a4-b4', 11, 1500), (1, 2, 'e3-d3', NULL, 1600)",
        "INSERT INTO draw_offers (game_id, ply, offered_by, status, created_at, answered_at) \
         VALUES (1, 2, 11, 'accepted', 1700, 2000)",
        "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, challenger_name, \
         challenged_id, challenged_name, side, rules, thread, status, game_id, message_id, \
         created_at, expires_at, answered_at, rated) VALUES \
         (1, 7, 100, 11, 'Astrid', 12, 'Birger', 'attackers', 'brandubh', 1, 'accepted', 2, \
          555, 2500, 9500, 3000, 0), \
         (2, 7, 100, 12, 'Birger', 11, 'Astrid', 'random', 'tablut', 0, 'pending', NULL, \
          NULL, 3500, 9900, NULL, 1), \
         (3, 7, 102, 12, 'Birger', 13, 'Cnut', 'random', 'tablut', 0, 'pending', NULL, \
          NULL, 3600, 9900, NULL, 1)",
        "DELETE FROM challenges WHERE id = 3",
        "INSERT INTO analyses (game_id, channel_id, requested_by, plies, done, settings, \
         created_at) VALUES (1, 100, 11, 2, 1, '{\"depth\": 4}', 2100)",
        "INSERT INTO puzzles (position, to_move, rules, kind, moves, line, source, game_id, \
         rating, deviation, volatility, created_at) VALUES \
         ('p1', 'attackers', 'tablut', 'win', 1, 'a4-b4', 'game', 1, 1500.0, 350.0, 0.06, 2200)",
        "INSERT INTO puzzle_attempts (guild_id, user_id, puzzle_id, status, rated, started_at) \
         VALUES (7, 12, 1, 'active', 1, 2300)",
        "INSERT INTO puzzle_scans (game_id, found, scanned_at) VALUES (1, 1, 2400)",
    ];
    for sql in fill {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    let columns = sqlite_columns(&pool).await;
    let before = sqlite_rows(&pool, None).await;
    assert_eq!(before["moves"].len(), 2);
    assert_eq!(
        before["sqlite_sequence"]
            .iter()
            .filter(|r| r.starts_with("[\"games\",3]") || r.starts_with("[\"challenges\",3]"))
            .count(),
        2,
        "{:?}",
        before["sqlite_sequence"]
    );
    pool.close().await;

    // The bot's start applies 0019.
    let pool = store::open(&db.url).await.unwrap();
    let version: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(version >= 19);
    // Every row of every column there was (later migrations may add tables and columns).
    assert_eq!(sqlite_rows(&pool, Some(&columns)).await, before);

    let mut conn = pool.acquire().await.unwrap();
    let on: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(on, 1, "the foreign keys are on again");
    drop(conn);
    for (sql, refused) in [
        (
            "INSERT INTO moves (game_id, ply, notation, played_at) VALUES (3, 1, 'a4-b4', 1)",
            "FOREIGN KEY",
        ),
        ("UPDATE games SET rated = 2 WHERE id = 1", "CHECK"),
        ("UPDATE challenges SET thread = 2 WHERE id = 1", "CHECK"),
        ("UPDATE challenges SET rated = -1 WHERE id = 2", "CHECK"),
    ] {
        let e = sqlx::query(sql).execute(&pool).await.unwrap_err();
        assert!(e.to_string().contains(refused), "{sql}: {e}");
    }
    // The old tables' indexes are there on the new ones: one active game per channel.
    let e = sqlx::query(
        "INSERT INTO games (channel_id, attacker_user_id, attacker_name, defender_user_id, \
         defender_name, rules, position, created_at, updated_at) \
         VALUES (100, 13, 'Cnut', 14, 'Dag', 'tablut', 'p', 1, 1)",
    )
    .execute(&pool)
    .await
    .unwrap_err();
    assert!(store::is_unique_violation(&e, "games"), "{e}");
    // Ids go on from the largest ever given.
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO games (channel_id, attacker_user_id, attacker_name, defender_user_id, \
         defender_name, rules, position, created_at, updated_at) \
         VALUES (103, 13, 'Cnut', 14, 'Dag', 'tablut', 'p', 1, 1) RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(id, 4);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO challenges (channel_id, challenger_id, challenger_name, challenged_id, \
         challenged_name, side, rules, created_at, expires_at) \
         VALUES (104, 13, 'Cnut', 14, 'Dag', 'random', 'tablut', 1, 2) RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(id, 4);
    store::close(&pool).await;
}
