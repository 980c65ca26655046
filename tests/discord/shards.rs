//! Gateway shards: the `SHARDS` setting starts its range (and, unset, Discord's recommended
//! count) against a fake Discord whose guilds' events go only to their shard; and two bot
//! processes (the real binary) with different shard ranges share one database: games in guilds
//! on both, a game against the AI whose process is killed (SIGKILL) mid-game and started
//! again, and every move and notice shown exactly once.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::{Config, NoticeStatus, Service, SystemClock};
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{Game, Rules};

const ASTRID: u64 = 900_000_000_000_000_501;
const BIRGER: u64 = 900_000_000_000_000_502;
const CARL: u64 = 900_000_000_000_000_503;

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn birger() -> Who {
    Who::member(BIRGER, "Birger")
}

fn carl() -> Who {
    Who::member(CARL, "Carl")
}

/// `/move notation` by `who` in `channel`; returns the interaction id.
fn send_move(fake: &FakeDiscord, who: &Who, channel: u64, notation: &str) -> u64 {
    fake.command(
        who,
        channel,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": notation}]),
        &[],
    )
}

/// The move a message announces (`… played **e1-e3** …`).
fn played(content: &str) -> Option<String> {
    let rest = &content[content.find("played **")? + "played **".len()..];
    Some(rest[..rest.find("**")?].to_string())
}

/// The moves a channel shows, in order.
fn shown_moves(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.shown(channel)
        .iter()
        .filter_map(|r| played(&r.content()))
        .collect()
}

/// A legal move after `moves` that does not end the game, varied with the ply so that no
/// position repeats.
fn next_move(moves: &[String]) -> String {
    let mut game = Game::new(Rules::default());
    for m in moves {
        game.play_text(m).unwrap();
    }
    let legal = game.position().legal_moves_sorted();
    let quiet: Vec<_> = legal
        .into_iter()
        .filter(|&mv| {
            let mut after = game.clone();
            after.play(mv).unwrap();
            !after.outcome().is_over()
        })
        .collect();
    quiet[(moves.len() * 7 + 3) % quiet.len()].to_string()
}

#[test]
fn the_fakes_ready_and_guild_create_read_as_serenitys_events() {
    let ready = crate::support::fake_discord::ready_json(2, 3, &[guild_on_shard(2, 3, 0)]);
    let ready: serenity::model::gateway::Ready = serde_json::from_value(ready).unwrap();
    assert_eq!(ready.shard.map(|s| (s.id.0, s.total)), Some((2, 3)));
    assert_eq!(ready.guilds.len(), 1);
    let guild = guild_on_shard(1, 4, 5);
    assert_eq!(shard_of(guild, 4), 1);
    let create = crate::support::fake_discord::guild_json(guild, &[41, 42]);
    let guild: serenity::model::guild::Guild = serde_json::from_value(create).unwrap();
    assert_eq!(guild.channels.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_runs_the_shards_its_setting_names_and_gets_only_their_guilds() {
    let h =
        BotHarness::start_sharded(2, &[("SHARDS", "1/2"), ("DEFAULT_TIME_CONTROL", "none")]).await;
    let fake = &h.fake;
    let (ours, theirs) = (guild_on_shard(1, 2, 0), guild_on_shard(0, 2, 0));
    fake.add_guild(ours, &[21]);
    fake.add_guild(theirs, &[20]);
    assert_eq!(fake.identified_shards(), vec![[1, 2]], "shard 1 of 2 only");
    // A command in the other shard's guild reaches no process of this one: it waits in
    // shard 0's session, which nobody opened.
    let elsewhere = fake.command(&astrid(), 20, "tablut", Some("games"), json!([]), &[]);
    let (_, started) = fake
        .challenge_accepted(21, &astrid(), &birger(), json!([]))
        .await;
    assert!(
        started.content().contains("Your move"),
        "{}",
        started.content()
    );
    let id = send_move(fake, &astrid(), 21, &next_move(&[]));
    let answer = fake.answer(id).await;
    assert!(played(&answer.content()).is_some(), "{}", answer.content());
    assert!(!fake.shard_connected(0));
    let prefix = format!("/api/v10/interactions/{elsewhere}/");
    assert!(
        fake.requests().iter().all(|r| !r.path.starts_with(&prefix)),
        "the other shard's interaction was never answered here"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unset_the_process_runs_discords_recommended_count_of_shards() {
    // serenity waits 5 s between two IDENTIFYs of one process.
    let h = BotHarness::start_sharded(2, &[("DEFAULT_TIME_CONTROL", "none")]).await;
    let fake = &h.fake;
    let mut shards = fake.identified_shards();
    shards.sort();
    assert_eq!(shards, vec![[0, 2], [1, 2]]);
    for shard in 0..2 {
        let guild = guild_on_shard(shard, 2, 1);
        let channel = 30 + u64::from(shard);
        fake.add_guild(guild, &[channel]);
        fake.challenge_accepted(channel, &astrid(), &birger(), json!([]))
            .await;
        let id = send_move(fake, &astrid(), channel, &next_move(&[]));
        let answer = fake.answer(id).await;
        assert!(played(&answer.content()).is_some(), "{}", answer.content());
    }
}

/// A bot process, killed (SIGKILL) when dropped so that a failing test leaves none behind.
/// Its log (warnings and errors) is kept in a file and printed if the test fails.
struct Bot {
    child: Child,
    log: PathBuf,
}

impl Bot {
    fn kill_9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill_9();
        if std::thread::panicking() {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            eprintln!("--- {} (last lines)", self.log.display());
            for line in tail.into_iter().rev() {
                eprintln!("{line}");
            }
        }
    }
}

/// The bot's binary on the shared database, running `shards`. Its hard AI takes seconds over a
/// move (4 s, of which it searches at least half), so a process can be killed while it thinks.
fn spawn(fake: &FakeDiscord, dir: &Path, db: &str, name: &str, shards: &str) -> Bot {
    let log = dir.join(format!("{name}.log"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_tablut-bot"))
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", &fake.base_url)
        .env("DATABASE_URL", db)
        .env("SHARDS", shards)
        .env("AI_HARD_TIME_MS", "4000")
        .env("AI_WORKERS", "1")
        .env("COMMANDS_PER_MINUTE", "0")
        .env("AI_TT_MB", "4")
        .env("AI_SWEEP_SECS", "1")
        .env("CLOCK_INTERVAL_SECS", "1")
        .env("DEFAULT_TIME_CONTROL", "none")
        .env("DELIVERY_RETRY_MS", "50")
        // A move's answer is posted by the outbox if not shown within 2 × 2.5 + 1 = 6 s: longer
        // than the first board a debug build draws after a start takes on a busy machine.
        .env("DISCORD_TIMEOUT_MS", "2500")
        .env("RUST_LOG", "warn,serenity=error,poise=error,sqlx=error")
        .env("NO_PROXY", "127.0.0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(file)
        .spawn()
        .expect("the bot's binary starts");
    Bot { child, log }
}

/// Waits (generously: the machine may be busy) until the condition, which may `.await`, holds.
macro_rules! until {
    ($what:expr, $done:expr) => {{
        let deadline = Instant::now() + Duration::from_secs(90);
        while !$done {
            assert!(
                Instant::now() < deadline,
                "timed out waiting until {}",
                $what
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }};
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_shards_ai_turns_and_the_outbox_across_a_kill_9() {
    // One PostgreSQL database (fresh, dropped after): outside CI, with no server, this says in
    // one line that it was skipped and how to run it.
    let Some(db) = TestDb::new(Backend::Postgres, "two_processes_share_shards").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await;
    fake.set_shards(3);
    // Process A runs shards 0 and 1, B shard 2; a guild (and a channel) on each shard.
    let channels = [410, 411, 412];
    for (shard, channel) in (0..3).zip(channels) {
        fake.add_guild(guild_on_shard(shard, 3, 7), &[channel]);
    }
    let [human_a, human_b, ai] = channels;
    let _a = spawn(&fake, dir.path(), &db.url, "a", "0-1/3");
    let spawn_b = || spawn(&fake, dir.path(), &db.url, "b", "2/3");
    let mut b = spawn_b();
    fake.wait_ready().await;
    for _ in 0..2 {
        fake.expect("the commands registered", |r| {
            r.method == "PUT" && r.path.ends_with("/commands")
        })
        .await;
    }
    let mut identified = fake.identified_shards();
    identified.sort();
    assert_eq!(identified, vec![[0, 3], [1, 3], [2, 3]]);
    // The test's own look at the database (both processes have migrated it by now, at once:
    // sqlx's migrations take a lock on PostgreSQL).
    let view = Service::open(&db.url, Config::default(), Arc::new(SystemClock))
        .await
        .unwrap();
    let moves = |channel| {
        let view = &view;
        async move { view.games().history(channel).await.unwrap().moves }
    };

    // A game between two people on each of A's shards.
    for channel in [human_a, human_b] {
        fake.challenge_accepted(channel, &astrid(), &birger(), json!([]))
            .await;
    }
    // Players' moves: each answered by the process of the guild's shard.
    let human_turn = |channel: u64| {
        let (fake, moves) = (&fake, &moves);
        async move {
            let before = moves(channel).await;
            let who = if before.len() % 2 == 0 {
                astrid()
            } else {
                birger()
            };
            let id = send_move(fake, &who, channel, &next_move(&before));
            let answer = fake.answer(id).await;
            assert!(played(&answer.content()).is_some(), "{}", answer.content());
        }
    };
    for channel in [human_a, human_b] {
        human_turn(channel).await;
    }

    // Carl defends against the hard AI on B's shard: B plays its first move.
    let id = fake.command(
        &carl(),
        ai,
        "tablut",
        Some("ai"),
        json!([{"name": "side", "type": 4, "value": 1},
               {"name": "level", "type": 4, "value": 2}]),
        &[],
    );
    fake.callback(id).await;
    until!(
        "the AI's first move is shown",
        shown_moves(&fake, ai).len() == 1
    );

    // Carl moves; as soon as the move is stored, B is killed: the AI's reply is seconds away.
    let carls = next_move(&moves(ai).await);
    let id = send_move(&fake, &carl(), ai, &carls);
    fake.callback(id).await;
    until!("Carl's move is stored", moves(ai).await.len() >= 2);
    b.kill_9();
    // A takes the AI's turn B left (its sweep finds it) and posts it, while the people on
    // A's shards go on playing.
    for channel in [human_a, human_b] {
        human_turn(channel).await;
    }
    until!(
        "A plays and shows the AI's reply B never made",
        shown_moves(&fake, ai).len() == 3
    );
    assert!(!fake.shard_connected(2), "B is down");

    // B again; Carl's next move is answered by B, which is killed while Discord holds the edit
    // that shows it (the move is stored, not shown): the dispatcher sends the edit again.
    let identifies = fake.identifies();
    b = spawn_b();
    fake.wait_reconnected(identifies + 1, u64::MAX).await;
    let mark = fake.requests().len();
    fake.fail(
        "PATCH",
        "/messages/@original",
        1,
        Fault::Hang(Duration::from_secs(20)),
    );
    let carls = next_move(&moves(ai).await);
    let id = send_move(&fake, &carl(), ai, &carls);
    let held = format!("/token-{id}/messages/@original");
    fake.expect("the held edit", |r| {
        r.index >= mark && r.status == 0 && r.path.ends_with(&held)
    })
    .await;
    b.kill_9();
    for channel in [human_a, human_b] {
        human_turn(channel).await;
    }
    let identifies = fake.identifies();
    b = spawn_b();
    fake.wait_reconnected(identifies + 1, u64::MAX).await;
    // The held move is shown by the dispatcher's edit, then the AI's reply is posted;
    // Carl, having seen it, moves once more, answered by B.
    until!(
        "the held move and the AI's reply are shown",
        shown_moves(&fake, ai).len() == 5
    );
    let carls = next_move(&moves(ai).await);
    let id = send_move(&fake, &carl(), ai, &carls);
    let answer = fake.answer(id).await;
    assert!(played(&answer.content()).is_some(), "{}", answer.content());

    // Everything settles: every move shown once, in order, in every channel, and every
    // notice delivered.
    for channel in channels {
        let want = if channel == ai { 7 } else { 3 };
        until!(format!("channel {channel} shows its {want} moves"), {
            let stored = moves(channel).await;
            let shown = shown_moves(&fake, channel);
            assert!(
                stored.starts_with(&shown),
                "channel {channel}: shown {shown:?}, stored {stored:?}\n{}",
                fake.shown(channel)
                    .iter()
                    .map(|r| format!("{} {} {:?}", r.method, r.path, r.content()))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            stored.len() == want && shown == stored
        });
        until!(format!("channel {channel}'s notices are delivered"), {
            let notices = view.probe().notices_in(channel).await.unwrap();
            notices.iter().all(|n| n.status == NoticeStatus::Delivered)
        });
    }
    drop(b);
    view.close().await;
}

/// Runs the bot's binary with `SHARDS=shards` (on a fresh SQLite file, with the default log
/// filter) until it exits, which it must within a minute; its exit status and stderr.
fn run_until_exit(fake: &FakeDiscord, shards: &str) -> (std::process::ExitStatus, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablut-bot"))
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", &fake.base_url)
        .env("DATABASE_URL", "sqlite://bot.db")
        .env("SHARDS", shards)
        .env("NO_PROXY", "127.0.0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot's binary starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "SHARDS={shards}: still running after a minute; stderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_range_discord_refuses_stops_the_process_with_one_line() {
    let fake = FakeDiscord::start().await;
    // Discord wants 4 shards: an IDENTIFY as one of 3 is closed with 4011 (sharding required),
    // one as shard 0 of 5 with 4010 (invalid shard).
    fake.set_shards(4);
    for (shards, code, says) in [
        ("0-1/3", "4011", "sharding required"),
        ("0/5", "4010", "invalid shard"),
    ] {
        let before = fake.identified_shards().len();
        let (status, stderr) = {
            let fake = fake.clone();
            let shards = shards.to_string();
            tokio::task::spawn_blocking(move || run_until_exit(&fake, &shards))
                .await
                .unwrap()
        };
        assert_eq!(status.code(), Some(1), "SHARDS={shards}: {stderr}");
        // The last line says why and what to change; nothing follows it.
        let last = stderr.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.starts_with(&format!(
                "tablut-bot: Discord refused the shards SHARDS={shards}"
            )) && last.contains(&format!("close code {code}, {says}"))
                && last.contains("SHARDS"),
            "SHARDS={shards}: {stderr}"
        );
        assert!(!stderr.contains(TOKEN), "the token is never printed");
        // It tried once and gave up: no IDENTIFY after the refused one.
        let identified = fake.identified_shards();
        assert_eq!(
            identified.len(),
            before + 1,
            "SHARDS={shards}: one IDENTIFY, {identified:?}"
        );
    }
}
