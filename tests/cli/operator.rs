//! The operator's commands and the start-up as an operator meets them: the line naming the
//! database the bot opened (absolute, and whether it was new), a database a newer binary
//! migrated refused in one line, and `tablut-bot backup`'s refusals.

use std::path::Path;
use std::process::{Command, Output};

/// A token of the right shape; no Discord ever sees it (the proxy below refuses connections).
const TOKEN: &str = "NzAwMDAwMDAwMDAwMDAwMDAx.Gfake0.fake-token-for-tests-only-0123456789ab";

/// The binary, started in `dir` with nothing of the caller's settings.
fn bin(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
    c.current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("DEV_GUILD_ID")
        .env_remove("DISCORD_PROXY");
    c
}

/// The bot started in `dir` as an installed binary is, with Discord out of reach: it opens
/// (and migrates) its database, logs it, then fails to reach Discord and exits.
fn start(dir: &Path) -> Output {
    bin(dir)
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", "http://127.0.0.1:9")
        .env("RUST_LOG", "tablut_bot=info")
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_start_names_the_database_it_opened_and_says_when_it_is_new() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tablut.db");
    let first = start(dir.path());
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let log = stderr(&first);
    let line = format!(
        "opened a new, empty database sqlite://{} (created now)",
        file.display()
    );
    assert_eq!(log.matches(&line).count(), 1, "{log}");
    assert!(file.is_file());

    let again = start(dir.path());
    let log = stderr(&again);
    let line = format!("opened the database sqlite://{} (0 games)", file.display());
    assert_eq!(log.matches(&line).count(), 1, "{log}");
    assert!(!log.contains("new, empty"), "{log}");
}

#[test]
fn a_database_a_newer_binary_migrated_stops_the_start_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("tablut.db").display());
    let made = start(dir.path());
    assert_eq!(made.status.code(), Some(1), "{}", stderr(&made));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use sqlx::Connection;
        let mut db = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (9999, 'from a later version', TRUE, x'00', 1)",
        )
        .execute(&mut db)
        .await
        .unwrap();
        db.close().await.unwrap();
    });
    let refused = bin(dir.path())
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", "http://127.0.0.1:9")
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("was migrated by a newer tablut-bot")
            && err.contains("migration 9999 (from a later version)")
            && err.contains("restoring the backup"),
        "{err}"
    );
}

/// The environment, the arguments, and what the refusal says.
type Case = (
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    &'static str,
);

#[test]
fn backup_refuses_in_one_line_what_it_cannot_copy() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [Case; 3] = [
        (
            &[(
                "DATABASE_URL",
                "postgres://tablut:secret@db.example:5432/tablut",
            )],
            &["backup", "copy.db"],
            "pg_dump -Fc -f PATH \"$DATABASE_URL\"",
        ),
        (
            &[],
            &["backup", "copy.db"],
            "there is no database at sqlite://",
        ),
        (
            &[("DATABASE_URL", "sqlite://elsewhere.db")],
            &["backup", "--database-url", "sqlite://tablut.db", "copy.db"],
            "tablut.db: set DATABASE_URL",
        ),
    ];
    for (env, args, says) in cases {
        let mut command = bin(dir.path());
        for (k, v) in env {
            command.env(k, v);
        }
        let out = command.args(args).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("secret"), "{err}");
    }
    // Nothing was created: no database, no copy.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");

    // A copy is never written over a file that exists.
    start(dir.path());
    std::fs::write(dir.path().join("copy.db"), "keep me").unwrap();
    let out = bin(dir.path())
        .args(["backup", "copy.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("copy.db")).unwrap(),
        "keep me"
    );
}
