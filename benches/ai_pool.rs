//! The AI pool under load, end to end in release against the fake Discord of the tests, with
//! the bot's default pool (AI_WORKERS = the cores, AI_TT_MB = 32) and `hard` at 2 s:
//!
//! 1. 24 games against the AI opened at the same moment (24 people, 24 channels, the AI moving
//!    first) while two people play 20 moves in another channel: the time until all 24 AI moves
//!    are posted, the people's `/move` latency (dispatch to the answer with the board), and
//!    the process's peak resident memory (VmHWM).
//! 2. 1 000 games in progress (in the database) and the pool busy with 24 more AI moves: the
//!    peak resident memory again.
//!
//! `flock /work/bench.lock cargo bench --bench ai_pool`

#[path = "../tests/support/fake_discord.rs"]
#[allow(dead_code)]
mod fake_discord;

use fake_discord::*;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::ai::Level;
use tablut_bot::bot;
use tablut_bot::service::{
    AiGameRequest, Config, Place, Service, SideChoice, SystemClock, TimeControl, User,
};
use tablut_bot::tafl::{Game, Rules};

const AI_GAMES: u64 = 24;
const PEOPLE_CHANNEL: u64 = 9_000;
const PEOPLE_MOVES: usize = 20;
const MANY: u64 = 1_000;

/// A process memory figure from /proc/self/status, in MB.
fn status_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn script(seed: u64, plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    loop {
        let mut game = Game::new(Rules::default());
        let mut out = Vec::new();
        while out.len() < plies && !game.outcome().is_over() {
            let moves = game.position().legal_moves_sorted();
            let mv = moves[rng.usize(..moves.len())];
            game.play(mv).unwrap();
            out.push(mv.to_string());
        }
        if out.len() == plies && !game.outcome().is_over() {
            return out;
        }
    }
}

fn move_options(text: &str) -> serde_json::Value {
    json!([{"name": "notation", "type": 3, "value": text}])
}

/// Two people play `PEOPLE_MOVES` moves in their channel, one after the other; the latency of
/// each `/move` (dispatch to the answer that shows it).
async fn people_play(fake: FakeDiscord, seed: u64) -> Vec<Duration> {
    let channel = PEOPLE_CHANNEL + seed;
    let astrid = Who::member(100, "Astrid");
    let birger = Who::member(101, "Birger");
    fake.challenge_accepted(channel, &astrid, &birger, json!([]))
        .await;
    let mut latencies = Vec::new();
    for (ply, text) in script(seed, PEOPLE_MOVES).iter().enumerate() {
        let who = if ply % 2 == 0 { &astrid } else { &birger };
        let t = Instant::now();
        let id = fake.command(who, channel, "move", None, move_options(text), &[]);
        let r = fake.answer(id).await;
        latencies.push(t.elapsed());
        assert!(r.file(".png").is_some(), "{}", r.content());
        // People take a moment between moves: theirs spread over the AI's busy time.
        tokio::time::sleep(Duration::from_millis(800)).await;
    }
    latencies
}

/// Waits for the AI's move to be posted in each of `channels`; the time the last one came.
async fn ai_moves_posted(fake: &FakeDiscord, channels: impl Iterator<Item = u64>) -> Instant {
    for channel in channels {
        let path = format!("/api/v10/channels/{channel}/messages");
        fake.expect_within(
            &format!("the AI's move in channel {channel}"),
            Duration::from_secs(120),
            |r| r.method == "POST" && r.path == path && r.content().contains("played"),
        )
        .await;
    }
    Instant::now()
}

fn summary(latencies: &mut [Duration]) -> String {
    latencies.sort();
    let pct = |p: f64| {
        latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)].as_secs_f64()
            * 1e3
    };
    format!(
        "p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} moves",
        pct(0.5),
        pct(0.99),
        pct(1.0),
        latencies.len()
    )
}

async fn run() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bench.db");
    let config = fake.bot_config(&db, &[("DEFAULT_TIME_CONTROL", "none")]);
    let workers = config.service().ai_workers;
    let hard = config.service().ai_time(Level::Hard);
    let running = bot::start(config, Arc::new(SystemClock)).await.unwrap();
    fake.wait_ready().await;
    fake.expect("registration", |r| r.method == "PUT").await;
    println!(
        "AI_WORKERS {workers}, AI_TT_MB {}, hard {} ms; before: VmHWM {:.0} MB",
        Config::default().ai_tt_mb,
        hard.as_millis(),
        status_mb("VmHWM:")
    );

    // 1. 24 games against the AI at once, and two people playing meanwhile.
    let people = tokio::spawn(people_play(fake.clone(), 1));
    let started = Instant::now();
    for g in 0..AI_GAMES {
        let who = Who::member(1_000 + g, "Player");
        let id = fake.command(
            &who,
            1 + g,
            "tablut",
            Some("ai"),
            json!([{"name": "side", "type": 4, "value": 1},
                   {"name": "level", "type": 4, "value": 2}]),
            &[],
        );
        let r = fake.answer(id).await;
        assert!(r.content().contains("attacks"), "{}", r.content());
    }
    let opened = started.elapsed();
    let last = ai_moves_posted(&fake, 1..=AI_GAMES).await;
    let all = last - started;
    let mut latencies = people.await.unwrap();
    let goal = hard.as_secs_f64() * AI_GAMES as f64 / workers as f64 * 1.2;
    println!(
        "24 games against the AI at hard, opened in {:.2} s: all 24 AI moves posted after {:.1} s (goal ≤ {:.1} s)",
        opened.as_secs_f64(),
        all.as_secs_f64(),
        goal
    );
    println!("the people's /move meanwhile: {}", summary(&mut latencies));
    println!(
        "peak resident memory: VmHWM {:.0} MB (VmRSS now {:.0} MB)",
        status_mb("VmHWM:"),
        status_mb("VmRSS:")
    );

    // 2. 1 000 games in progress, and the pool busy again.
    let url = format!("sqlite://{}", db.display());
    let side = Service::open(&url, Config::default(), Arc::new(SystemClock))
        .await
        .unwrap();
    for g in 0..MANY {
        side.games()
            .start_ai_game(
                AiGameRequest {
                    place: Place {
                        guild: Some(GUILD_ID),
                        channel: 20_000 + g,
                    },
                    user: User::new(20_000 + g, "Player"),
                    side: SideChoice::Attackers,
                    level: Level::Hard,
                    rules: Rules::default(),
                    time_control: TimeControl::None,
                    start: None,
                },
                None,
            )
            .await
            .unwrap();
    }
    side.close().await;
    drop(side);
    let started = Instant::now();
    for g in 0..AI_GAMES {
        let who = Who::member(20_000 + g, "Player");
        let id = fake.command(&who, 20_000 + g, "move", None, move_options("a4-a3"), &[]);
        let r = fake.answer(id).await;
        assert!(r.file(".png").is_some(), "{}", r.content());
    }
    let people = tokio::spawn(people_play(fake.clone(), 2));
    let last = ai_moves_posted(&fake, (0..AI_GAMES).map(|g| 20_000 + g)).await;
    let mut latencies = people.await.unwrap();
    println!(
        "{} games in progress, 24 AI moves queued: all posted after {:.1} s; people's /move: {}",
        MANY + AI_GAMES + 1,
        (last - started).as_secs_f64(),
        summary(&mut latencies)
    );
    println!(
        "peak resident memory with {MANY} games in progress and the pool busy: VmHWM {:.0} MB (VmRSS now {:.0} MB)",
        status_mb("VmHWM:"),
        status_mb("VmRSS:")
    );
    running.shutdown().await;
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}
