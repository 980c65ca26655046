//! The bot end to end, in release, against the fake Discord of the tests: how long a `/move`
//! between two people takes from the interaction's dispatch to the answer that shows the move
//! with the board PNG (the callback, or the edit of a deferred one)
//! (p50/p99 over 1 000 moves, one at a time), 100 games moving at once in 100 channels
//! (every move answered, none refused), and people's `/move` while 24 games against the AI at
//! `hard` keep the AI's pool busy, with the AI's workers at the idle priority (the default) and
//! at the bot's own (`AI_IDLE_PRIORITY=false`), each twice, alternately, in one run.
//!
//! `cargo bench --bench bot`

#[path = "../tests/support/fake_discord.rs"]
#[allow(dead_code)]
mod fake_discord;

use fake_discord::*;
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::bot;
use tablut_bot::service::SystemClock;
use tablut_bot::tafl::{Game, Rules};

const GAMES: u64 = 100;
const PLIES: usize = 10;

fn script(seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(Rules::default());
    let mut out = Vec::new();
    while out.len() < 2 * PLIES && !game.outcome().is_over() {
        let moves = game.position().legal_moves_sorted();
        let mv = moves[rng.usize(..moves.len())];
        game.play(mv).unwrap();
        if game.outcome().is_over() {
            break;
        }
        out.push(mv.to_string());
    }
    out
}

fn players(g: u64) -> [Who; 2] {
    [
        Who::member(5_000 + 2 * g, "Attacker"),
        Who::member(5_001 + 2 * g, "Defender"),
    ]
}

fn move_options(text: &str) -> serde_json::Value {
    json!([{"name": "notation", "type": 3, "value": text}])
}

async fn run() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = fake.bot_config(
        &dir.path().join("bench.db"),
        &[("DEFAULT_TIME_CONTROL", "3d")],
    );
    let running = bot::start(config, Arc::new(SystemClock)).await.unwrap();
    fake.wait_ready().await;
    fake.expect("registration", |r| r.method == "PUT").await;

    // 100 games in 100 channels.
    for g in 0..GAMES {
        let [a, d] = players(g);
        let (_, started) = fake.challenge_accepted(1 + g, &a, &d, json!([])).await;
        assert!(started.content().contains("Game on"), "{:?}", started.json);
    }
    let scripts: Vec<Vec<String>> = (0..GAMES).map(script).collect();

    // One /move at a time: dispatch to callback.
    let mut latencies = Vec::new();
    for ply in 0..PLIES {
        for g in 0..GAMES {
            let Some(text) = scripts[g as usize].get(ply) else {
                continue;
            };
            let who = &players(g)[ply % 2];
            let t = Instant::now();
            let id = fake.command(who, 1 + g, "move", None, move_options(text), &[]);
            let r = fake.answer(id).await;
            latencies.push(t.elapsed());
            assert!(
                !r.ephemeral() && r.file(".png").is_some(),
                "{}",
                r.content()
            );
        }
    }
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "/move, one at a time: {} moves, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (dispatch to the answer with the PNG)",
        latencies.len(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );

    // 100 games moving at once.
    let started = Instant::now();
    let mut answered = 0;
    let mut refused = 0;
    let mut worst = Duration::ZERO;
    for ply in PLIES..2 * PLIES {
        let t = Instant::now();
        let mut ids = Vec::new();
        for g in 0..GAMES {
            let Some(text) = scripts[g as usize].get(ply) else {
                continue;
            };
            let who = &players(g)[ply % 2];
            ids.push(fake.command(who, 1 + g, "move", None, move_options(text), &[]));
        }
        for id in ids {
            let r = fake.answer(id).await;
            answered += 1;
            if r.ephemeral() || r.file(".png").is_none() {
                refused += 1;
                eprintln!("refused: {}", r.content());
            }
        }
        worst = worst.max(t.elapsed());
    }
    println!(
        "100 games at once: {answered} moves in {:.2} s ({:.0} moves/s), {refused} errors, slowest round of 100 {:.0} ms",
        started.elapsed().as_secs_f64(),
        answered as f64 / started.elapsed().as_secs_f64(),
        worst.as_secs_f64() * 1e3
    );
    running.shutdown().await;

    // People beside the AI: the idle priority off and on, twice each, alternately, so a change
    // in the machine's load meanwhile falls on both.
    let mut all = [Vec::new(), Vec::new()];
    for round in 0..2 {
        for idle in [false, true] {
            let mut latencies = beside_the_ai(idle).await;
            println!(
                "beside 24 hard AI games, AI_IDLE_PRIORITY={idle} (round {}): {}; load average {}",
                round + 1,
                summary(&mut latencies),
                load_average()
            );
            all[usize::from(idle)].extend(latencies);
        }
    }
    for idle in [false, true] {
        println!(
            "beside 24 hard AI games, AI_IDLE_PRIORITY={idle}, both rounds: {}",
            summary(&mut all[usize::from(idle)])
        );
    }
}

/// Games against the AI opened at once, each by a person of its own in a channel of its own,
/// the AI moving first at `hard`.
const AI_GAMES: u64 = 24;
/// Pairs of people playing each other meanwhile, each in its channel.
const PAIRS: u64 = 4;
/// The most moves a pair plays, and their pause between two moves.
const PAIR_PLIES: usize = 60;
const PAUSE: Duration = Duration::from_millis(300);

/// The people's `/move` latencies (dispatch to the answer that shows the move) while the AI searches its first
/// move in [`AI_GAMES`] games, from the first AI game opened until the last AI move is posted,
/// against a bot of its own whose AI workers run at the idle priority or not.
async fn beside_the_ai(idle: bool) -> Vec<Duration> {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = fake.bot_config(
        &dir.path().join("ai.db"),
        &[
            ("DEFAULT_TIME_CONTROL", "none"),
            ("AI_IDLE_PRIORITY", if idle { "true" } else { "false" }),
        ],
    );
    let running = bot::start(config, Arc::new(SystemClock)).await.unwrap();
    fake.wait_ready().await;
    fake.expect("registration", |r| r.method == "PUT").await;
    let pair = |p: u64| {
        [
            Who::member(7_000 + 2 * p, "Astrid"),
            Who::member(7_001 + 2 * p, "Birger"),
        ]
    };
    for p in 0..PAIRS {
        let [a, d] = pair(p);
        fake.challenge_accepted(9_000 + p, &a, &d, json!([])).await;
    }
    let busy = Arc::new(AtomicBool::new(true));
    let mut people = Vec::new();
    for p in 0..PAIRS {
        let (fake, busy) = (fake.clone(), busy.clone());
        let players = pair(p);
        people.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            for (ply, text) in long_script(100 + p).iter().enumerate() {
                if !busy.load(Ordering::SeqCst) {
                    break;
                }
                let t = Instant::now();
                let id = fake.command(
                    &players[ply % 2],
                    9_000 + p,
                    "move",
                    None,
                    move_options(text),
                    &[],
                );
                let r = fake.answer(id).await;
                latencies.push(t.elapsed());
                assert!(!r.ephemeral(), "{}", r.content());
                tokio::time::sleep(PAUSE).await;
            }
            latencies
        }));
    }
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
    for channel in 1..=AI_GAMES {
        let path = format!("/api/v10/channels/{channel}/messages");
        fake.expect_within(
            &format!("the AI's move in channel {channel}"),
            Duration::from_secs(120),
            |r| r.method == "POST" && r.path == path && r.content().contains("played"),
        )
        .await;
    }
    busy.store(false, Ordering::SeqCst);
    let mut latencies = Vec::new();
    for p in people {
        latencies.extend(p.await.unwrap());
    }
    running.shutdown().await;
    latencies
}

/// [`PAIR_PLIES`] random moves that leave the game on.
fn long_script(seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    loop {
        let mut game = Game::new(Rules::default());
        let mut out = Vec::new();
        while out.len() < PAIR_PLIES && !game.outcome().is_over() {
            let moves = game.position().legal_moves_sorted();
            let mv = moves[rng.usize(..moves.len())];
            game.play(mv).unwrap();
            out.push(mv.to_string());
        }
        if !game.outcome().is_over() {
            return out;
        }
    }
}

/// "p50 …, p99 …, max … over N moves".
fn summary(latencies: &mut [Duration]) -> String {
    latencies.sort();
    let pct = |p: f64| {
        latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)].as_secs_f64()
            * 1e3
    };
    format!(
        "/move p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} moves",
        pct(0.5),
        pct(0.99),
        pct(1.0),
        latencies.len()
    )
}

/// The machine's load average over 1, 5 and 15 minutes (/proc/loadavg).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
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
