//! A whole game against the AI through every fault, `kill -9` included: the real binary runs as
//! a child process against the fake Discord, whose REST API fails chosen requests and whose
//! gateway closes (abnormally, with 4000), stops acknowledging heartbeats (the bot RESUMEs), or
//! invalidates the session; the bot is killed (SIGKILL) while the fake holds a post or an answer (made or not),
//! after the change was committed, and is started again on the same database. At the end the
//! channel shows every move exactly once, in order.

use crate::support::fake_discord::*;
use serde_json::json;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tablut_bot::ai::Level;
use tablut_bot::service::{Config, Service, SystemClock};
use tablut_bot::tafl::{Game, Rules};

const ASTRID: u64 = 900_000_000_000_000_301;
const CHANNEL: u64 = 310;
/// Longer than the bot's HTTP time-out (400 ms), so a held request fails on the bot's side.
const HOLD: Duration = Duration::from_secs(10);
/// How long the test waits for the bot's answer to a command and for each move to be shown.
/// The bot is a debug build: after each start it draws the board's sprites (1.5 s of CPU) and
/// each answer and reply draws a board; with the test's own busy loops and the test process
/// beside it on a busy 2-core machine it gets a small share of a core, and the same work
/// (`tablut-bot render` of one board) took 10.7 to 12.7 s there. Passing runs never wait this
/// long; a move never shown fails after it.
const SETTLE: Duration = Duration::from_secs(60);

/// The bot's process, killed (SIGKILL) when dropped, so a failing test leaves none behind.
struct Bot(Child);

impl Bot {
    fn kill_9(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill_9();
    }
}

/// The bot's binary, started on `dir`'s database with short times (a move whose answer is
/// lost is posted by the outbox after 1.8 s).
fn spawn(fake: &FakeDiscord, dir: &Path) -> Bot {
    let log = std::env::var_os("CRASH_LOG");
    let stderr = match &log {
        Some(file) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .expect("CRASH_LOG names a file")
            .into(),
        None => Stdio::null(),
    };
    // CRASH_LOG=file: the bot's log (the gateway's in detail) goes there, to debug this.
    let level = match &log {
        Some(_) => "info,serenity::gateway=trace",
        None => "error",
    };
    spawn_logging(fake, dir, level, stderr)
}

/// The bot's binary as [`spawn`] starts it, logging at `level` to `stderr`.
fn spawn_logging(fake: &FakeDiscord, dir: &Path, level: &str, stderr: Stdio) -> Bot {
    let child = Command::new(env!("CARGO_BIN_EXE_tablut-bot"))
        .current_dir(dir)
        .env("DISCORD_TOKEN", TOKEN)
        .env("DISCORD_PROXY", &fake.base_url)
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("bot.db").display()),
        )
        .env("DEV_GUILD_ID", GUILD_ID.to_string())
        .env("AI_EASY_TIME_MS", "30")
        .env("AI_GAME_COOLDOWN_SECS", "0")
        .env("COMMANDS_PER_MINUTE", "0")
        .env("DEFAULT_TIME_CONTROL", "none")
        .env("DELIVERY_RETRY_MS", "50")
        .env("DISCORD_TIMEOUT_MS", "400")
        .env("RUST_LOG", level)
        .env("NO_PROXY", "127.0.0.1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("the bot's binary starts");
    Bot(child)
}

/// Waits until the bot has connected and registered its commands.
async fn registered(fake: &FakeDiscord) {
    fake.expect("the commands registered", |r| {
        r.method == "PUT" && r.path.ends_with("/commands")
    })
    .await;
}

/// The move a message announces (`… played **e1-e3** …`).
fn played(content: &str) -> Option<String> {
    let rest = &content[content.find("played **")? + "played **".len()..];
    Some(rest[..rest.find("**")?].to_string())
}

/// The moves the channel shows, in order.
fn shown_moves(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.shown(channel)
        .iter()
        .filter_map(|r| played(&r.content()))
        .collect()
}

/// What can go wrong around one of Astrid's moves.
#[derive(Debug, Clone, Copy)]
enum Trouble {
    None,
    /// The edit of her move's deferred answer, which shows the move, fails this way (the
    /// dispatcher sends it again).
    Answer(fn() -> Fault),
    /// The post of the AI's reply fails this way.
    Reply(fn() -> Fault),
    /// The bot is killed while the fake holds the AI's reply (not made, or made and its
    /// answer lost), then started again.
    KillDuringReply(fn() -> Fault),
    /// The bot is killed while the fake holds the AI's reply, already made (its answer lost),
    /// and Discord forgets the post's nonce before the bot is started again: the restarted bot,
    /// which cannot know whether the post was made, looks in the channel before posting, and
    /// the reply is shown once.
    KillAfterReplyNonceForgotten,
    /// The bot is killed while the fake holds the edit showing her move (committed, not shown),
    /// then started again: the restarted bot's dispatcher sends the edit.
    KillDuringAnswer,
    /// The bot is killed while the fake holds the edit showing her move, already made: the
    /// restarted bot's dispatcher sends it again, and it shows once.
    KillDuringShownAnswer,
    /// The gateway connection closes (abnormally without a close frame, or with this code)
    /// just before her move: the bot RESUMEs and gets the move it missed.
    GatewayClosed(Option<u16>),
    /// The gateway stops acknowledging heartbeats just before her move (a zombied
    /// connection): the bot closes the connection and RESUMEs, and gets the move dispatched in
    /// the gap.
    SessionTimeout,
    /// INVALID_SESSION just before her move: a new session (IDENTIFY); the move dispatched in
    /// the gap is gone, as on Discord, and she sends it again.
    InvalidSession,
    /// The gateway stops acknowledging heartbeats once her move has landed, while the AI's
    /// reply is under way: the bot RESUMEs.
    SessionTimeoutAfterMove,
}

const TROUBLES: [Trouble; 21] = [
    Trouble::None,
    Trouble::GatewayClosed(None),
    Trouble::SessionTimeout,
    Trouble::Answer(|| Fault::Status(500)),
    Trouble::GatewayClosed(Some(4000)),
    Trouble::InvalidSession,
    Trouble::SessionTimeoutAfterMove,
    Trouble::Reply(|| Fault::Status(500)),
    Trouble::Reply(|| Fault::Status(502)),
    Trouble::Reply(|| Fault::Hang(HOLD)),
    Trouble::Reply(|| Fault::Lost(HOLD)),
    Trouble::Reply(|| Fault::RateLimited {
        retry_after: 0.2,
        global: false,
    }),
    Trouble::Reply(|| Fault::RateLimited {
        retry_after: 0.2,
        global: true,
    }),
    Trouble::Answer(|| Fault::Hang(HOLD)),
    Trouble::Answer(|| Fault::Lost(HOLD)),
    Trouble::Answer(|| Fault::RateLimited {
        retry_after: 0.2,
        global: false,
    }),
    Trouble::KillDuringReply(|| Fault::Hang(HOLD)),
    Trouble::KillDuringReply(|| Fault::Lost(HOLD)),
    Trouble::KillAfterReplyNonceForgotten,
    Trouble::KillDuringAnswer,
    Trouble::KillDuringShownAnswer,
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_ai_survives_every_fault_and_kill_9() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut bot = spawn(&fake, dir.path());
    registered(&fake).await;
    let url = format!("sqlite://{}", dir.path().join("bot.db").display());
    let db = Service::open(&url, Config::default(), std::sync::Arc::new(SystemClock))
        .await
        .unwrap();
    let astrid = Who::member(ASTRID, "Astrid");
    let mut turn = 0;
    let mut kills = 0;
    let mut gateway_faults = 0;
    let mut games = 0;
    // Games until every fault has come up (in the first, unless the AI wins it early), each
    // in a channel of its own.
    while turn < TROUBLES.len() {
        let channel = CHANNEL + games;
        games += 1;
        assert!(games <= 4, "four games and not every fault came up");
        // Astrid defends against the easy AI, which attacks and moves first.
        let id = fake.command(
            &astrid,
            channel,
            "tablut",
            Some("ai"),
            json!([{"name": "side", "type": 4, "value": 1},
               {"name": "level", "type": 4, "value": 0}]),
            &[],
        );
        // Its deferred answer edited into the game's start (by the bot, or its dispatcher).
        let original = format!("/token-{id}/messages/@original");
        fake.expect_within("the answer to /tablut ai", SETTLE, |r| {
            r.method == "PATCH" && r.path.ends_with(&original) && r.created.is_some()
        })
        .await;
        let posts = format!("/channels/{channel}/messages");
        loop {
            // Wait until every move so far is shown (the AI's reply included).
            let deadline = Instant::now() + SETTLE;
            let history = loop {
                let history = db.games().history(channel).await.unwrap();
                let shown = shown_moves(&fake, channel);
                assert!(
                    history.moves.starts_with(&shown),
                    "shown {shown:?}, played {:?}",
                    history.moves
                );
                // ...and recorded so: the channel owes nothing, so her move's answer is public
                // (while it owes news, a move is answered privately and posted after it).
                let settled = shown.len() == history.moves.len()
                    && (history.game.is_over() || history.moves.len() % 2 == 1)
                    && !db.outbox().owes(channel).await.unwrap();
                if settled {
                    break history;
                }
                assert!(
                    Instant::now() < deadline,
                    "turn {turn}: shown {shown:?}, played {:?}",
                    history.moves
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            if history.game.is_over() || history.moves.len() > 150 {
                break;
            }
            let mut game = Game::new(Rules::default());
            for m in &history.moves {
                game.play_text(m).unwrap();
            }
            // Strong moves; until every fault has come up, none that ends the game.
            let ends = |mv| {
                let mut after = game.clone();
                after.play(mv).unwrap();
                after.outcome().is_over()
            };
            let best = tablut_bot::ai::choose_move(&game, Level::Hard, Duration::from_millis(20))
                .unwrap()
                .best;
            // Instead of a winning move: one that does not end the game, and after which the AI
            // cannot end it at once either, if there is one.
            let safe = |mv| {
                let mut after = game.clone();
                after.play(mv).unwrap();
                !after.outcome().is_over()
                    && after
                        .position()
                        .legal_moves_sorted()
                        .into_iter()
                        .all(|reply| {
                            let mut then = after.clone();
                            then.play(reply).unwrap();
                            !then.outcome().is_over()
                        })
            };
            let mine = match turn < TROUBLES.len() && ends(best) {
                true => {
                    let moves = game.position().legal_moves_sorted();
                    let safe = moves.iter().copied().find(|&mv| safe(mv));
                    safe.or_else(|| moves.into_iter().find(|&mv| !ends(mv)))
                        .unwrap_or(best)
                }
                false => best,
            };
            let wins = ends(mine);
            let mine = mine.to_string();
            // A move that ends the game has no reply to hold: the fault waits for the next turn.
            let trouble = match TROUBLES[turn % TROUBLES.len()] {
                Trouble::Reply(_)
                | Trouble::KillDuringReply(_)
                | Trouble::KillAfterReplyNonceForgotten
                    if wins =>
                {
                    Trouble::None
                }
                trouble => trouble,
            };
            // Counted before the fault: the client may be back before the move is sent.
            let (identified, resumed) = (fake.identifies(), fake.resumes());
            match trouble {
                Trouble::None | Trouble::SessionTimeoutAfterMove => {}
                Trouble::Answer(fault) => fake.fail("PATCH", "/messages/@original", 1, fault()),
                Trouble::Reply(fault) | Trouble::KillDuringReply(fault) => {
                    fake.fail("POST", &posts, 1, fault())
                }
                Trouble::KillAfterReplyNonceForgotten => {
                    fake.fail("POST", &posts, 1, Fault::Lost(HOLD))
                }
                Trouble::KillDuringAnswer => {
                    fake.fail("PATCH", "/messages/@original", 1, Fault::Hang(HOLD))
                }
                Trouble::KillDuringShownAnswer => {
                    fake.fail("PATCH", "/messages/@original", 1, Fault::Lost(HOLD))
                }
                Trouble::GatewayClosed(code) => fake.close_gateway(code),
                Trouble::SessionTimeout => fake.withhold_heartbeat_acks(),
                Trouble::InvalidSession => fake.invalidate_session(),
            }
            let mark = fake.requests().len();
            let send = || {
                fake.command(
                    &astrid,
                    channel,
                    "move",
                    None,
                    json!([{"name": "notation", "type": 3, "value": mine}]),
                    &[],
                )
            };
            let mut id = send();
            let before = history.moves.len();
            match trouble {
                Trouble::GatewayClosed(_) | Trouble::SessionTimeout => {
                    // Resumed, with the move it missed (not sent again: it is answered once,
                    // as checked below).
                    fake.wait_reconnected(u64::MAX, resumed + 1).await;
                    assert_eq!(fake.identifies(), identified, "{trouble:?}: no new session");
                    gateway_faults += 1;
                }
                Trouble::InvalidSession => {
                    // A new session: what was dispatched in the gap is gone on Discord's side (she
                    // sees "The application did not respond") and changed nothing; she sends the
                    // move again, and the game goes on.
                    fake.wait_reconnected(identified + 1, u64::MAX).await;
                    assert_eq!(fake.resumes(), resumed, "{trouble:?}: a fresh IDENTIFY");
                    assert_eq!(
                        db.games().history(channel).await.unwrap().moves.len(),
                        before
                    );
                    id = send();
                    gateway_faults += 1;
                }
                _ => {}
            }
            let held = match trouble {
                Trouble::KillDuringReply(_) | Trouble::KillAfterReplyNonceForgotten => {
                    Some(format!("/api/v10{posts}"))
                }
                Trouble::KillDuringAnswer | Trouble::KillDuringShownAnswer => {
                    Some(format!("/token-{id}/messages/@original"))
                }
                _ => None,
            };
            if let Some(held) = held {
                // The fake holds the request: the change is committed. Kill -9, start again.
                fake.expect("the held request", |r| {
                    r.index >= mark && r.status == 0 && r.path.contains(&held)
                })
                .await;
                bot.kill_9();
                kills += 1;
                if let Trouble::KillAfterReplyNonceForgotten = trouble {
                    // The reply is in the channel; a post with its nonce would now make a
                    // second message.
                    assert_eq!(
                        shown_moves(&fake, channel).len(),
                        before + 2,
                        "her move and the reply shown before the kill"
                    );
                    fake.forget_nonces();
                }
                bot = spawn(&fake, dir.path());
                registered(&fake).await;
            }
            // Her move has landed before anything else is sent.
            let deadline = Instant::now() + SETTLE;
            while db.games().history(channel).await.unwrap().moves.len() == before {
                assert!(
                    Instant::now() < deadline,
                    "turn {turn}: {mine} never landed"
                );
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            if let Trouble::GatewayClosed(_) | Trouble::SessionTimeout = trouble {
                // The move dispatched in the gap, delivered by the RESUME, is answered once.
                fake.callback(id).await;
                let answer = format!("/api/v10/interactions/{id}/");
                let answers = fake
                    .requests()
                    .iter()
                    .filter(|r| r.method == "POST" && r.path.starts_with(&answer))
                    .count();
                assert_eq!(answers, 1, "{trouble:?}: the missed move answered once");
            }
            if let Trouble::SessionTimeoutAfterMove = trouble {
                // Her move has landed and the AI's reply is under way when heartbeats go
                // unacknowledged: the bot RESUMEs, and the reply (the outbox's, over REST)
                // still comes.
                let (identified, resumed) = (fake.identifies(), fake.resumes());
                fake.withhold_heartbeat_acks();
                fake.wait_reconnected(u64::MAX, resumed + 1).await;
                assert_eq!(fake.identifies(), identified, "{trouble:?}: no new session");
                gateway_faults += 1;
            }
            turn += 1;
        }
        let history = db.games().history(channel).await.unwrap();
        assert!(
            history.game.is_over(),
            "the game ended: {:?}",
            history.moves
        );
        assert_eq!(
            shown_moves(&fake, channel),
            history.moves,
            "every move shown once, in order"
        );
    }
    bot.kill_9();
    assert!(kills >= 5);
    assert!(gateway_faults >= 5);
}

/// SIGTERM (what systemd, Docker and Kubernetes send) stops the real binary as cleanly as Ctrl-C
/// (SIGINT): sent while the dispatcher's post of the AI's move is under way (held by Discord),
/// the post's attempt is finished and recorded, so no notice is left claimed; the process exits
/// 0 and its log names the signal in one line. Started again, the bot posts the move once, and
/// SIGINT stops it the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_bot_as_cleanly_as_ctrl_c() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bot.db").display());
    let astrid = Who::member(ASTRID, "Astrid");
    let channel = CHANNEL + 10;
    let posts = format!("/channels/{channel}/messages");
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        let log = dir.path().join(format!("{name}.log"));
        let stderr = std::fs::File::create(&log).unwrap();
        if signal == libc::SIGINT {
            fake.clear_faults();
        }
        let mut bot = spawn_logging(&fake, dir.path(), "info", stderr.into());
        registered(&fake).await;
        if signal == libc::SIGTERM {
            // Astrid defends against the easy AI, whose first move's posts Discord holds
            // (longer than the bot's HTTP time-out), every attempt until the stop.
            fake.fail("POST", &posts, usize::MAX, Fault::Hang(HOLD));
            let id = fake.command(
                &astrid,
                channel,
                "tablut",
                Some("ai"),
                json!([{"name": "side", "type": 4, "value": 1},
                       {"name": "level", "type": 4, "value": 0}]),
                &[],
            );
            fake.answer(id).await;
            fake.expect("the AI's move's post, held", |r| {
                r.status == 0 && r.method == "POST" && r.path.ends_with(&posts)
            })
            .await;
        } else {
            // Started again, Discord well: the move the stop left owed is posted, once.
            fake.expect_within("the AI's move posted", SETTLE, |r| {
                r.method == "POST" && r.path.ends_with(&posts) && r.status == 200
            })
            .await;
            assert_eq!(shown_moves(&fake, channel).len(), 1);
        }
        // SAFETY: kill only sends a signal to the bot's process, which this test started.
        assert_eq!(unsafe { libc::kill(bot.0.id() as i32, signal) }, 0);
        let deadline = Instant::now() + SETTLE;
        let status = loop {
            if let Some(status) = bot.0.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "{name}: the bot has not stopped");
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(status.code(), Some(0), "{name}: {status}");
        let log = std::fs::read_to_string(&log).unwrap();
        let said: Vec<&str> = log.lines().filter(|l| l.contains(name)).collect();
        assert_eq!(said.len(), 1, "{name}: one line names the signal:\n{log}");
        assert!(said[0].contains("shutting down"), "{}", said[0]);
        assert!(log.contains("stopped"), "{log}");
        // Nothing left claimed: the attempt under way was recorded (a failure, due again).
        let db = sqlx::SqlitePool::connect(&url).await.unwrap();
        let claimed: i64 =
            sqlx::query_scalar("SELECT count(*) FROM outbox WHERE status = 'claimed'")
                .fetch_one(&db)
                .await
                .unwrap();
        assert_eq!(claimed, 0, "{name}: a notice left claimed");
        if signal == libc::SIGTERM {
            let owed: Vec<(String, Option<String>)> = sqlx::query_as(&format!(
                "SELECT status, failure FROM outbox WHERE channel_id = {channel} \
                 AND status <> 'delivered'"
            ))
            .fetch_all(&db)
            .await
            .unwrap();
            assert!(
                matches!(&owed[..], [(status, Some(_))] if status == "pending"),
                "the held post's attempt recorded: {owed:?}"
            );
        }
        db.close().await;
    }
}
