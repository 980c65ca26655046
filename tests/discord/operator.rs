//! `tablut-bot commands clear`, the real binary against the fake Discord: a server's commands
//! registered while `DEV_GUILD_ID` named it are removed (the server then shows the global ones
//! once), the global ones with `--global`, and a refused token is one line.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use std::process::Output;

/// The binary run with the bot's token and the fake as its proxy, in a folder of its own.
async fn commands(fake: &FakeDiscord, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
    command
        .current_dir(dir.path())
        .env_remove("DEV_GUILD_ID")
        .env_remove("DATABASE_URL")
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", &fake.base_url)
        .env("RUST_LOG", "off")
        .arg("commands")
        .args(args);
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

fn said(out: &Output) -> (Option<i32>, String, String) {
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).trim_end().to_string(),
        String::from_utf8_lossy(&out.stderr).trim_end().to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_clear_removes_a_servers_commands_and_the_global_ones() {
    let mut h = BotHarness::start(&[]).await;
    h.bot.take().unwrap().shutdown().await;
    let registered = h.fake.commands(Some(GUILD_ID));
    assert!(registered.contains(&"tablut".to_string()), "{registered:?}");
    let n = registered.len();

    let guild = GUILD_ID.to_string();
    let (code, out, err) = said(&commands(&h.fake, &["clear", "--guild", &guild]).await);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!(
            "removed the bot's {n} commands from server {GUILD_ID}; its global commands are left as they are"
        )
    );
    assert!(h.fake.commands(Some(GUILD_ID)).is_empty());
    let cleared = h
        .fake
        .requests()
        .into_iter()
        .rfind(|r| r.method == "PUT" && r.path.ends_with(&format!("/guilds/{GUILD_ID}/commands")))
        .unwrap();
    assert_eq!(cleared.json, serde_json::json!([]));
    let (code, out, _) = said(&commands(&h.fake, &["clear", "--guild", &guild]).await);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!("server {GUILD_ID} has none of the bot's commands: nothing removed")
    );

    // Global commands, as a bot started without DEV_GUILD_ID registers them.
    h.fake.put_commands(None, &["tablut", "move"]);
    let (code, out, err) = said(&commands(&h.fake, &["clear", "--global"]).await);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("removed the bot's 2 global commands"),
        "{out}"
    );
    assert!(h.fake.commands(None).is_empty());

    // Neither scope, or both: clap's usage error. A refused token: one line, exit code 1.
    let (code, _, err) = said(&commands(&h.fake, &["clear"]).await);
    assert_eq!(code, Some(2), "{err}");
    h.fake.reject_token();
    let (code, _, err) = said(&commands(&h.fake, &["clear", "--guild", &guild]).await);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Discord refused the token (401)"), "{err}");
}
