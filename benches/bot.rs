//! The bot end to end, in release, against the fake Discord of the tests: how long a `/move`
//! between two people takes from the interaction's dispatch to the callback with the board PNG
//! (p50/p99 over 1 000 moves, one at a time), and 100 games moving at once in 100 channels
//! (every move answered, none refused).
//!
//! `cargo bench --bench bot`

#[path = "../tests/support/fake_discord.rs"]
#[allow(dead_code)]
mod fake_discord;

use fake_discord::*;
use serde_json::json;
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
            let r = fake.callback(id).await;
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
        "/move, one at a time: {} moves, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (dispatch to the callback with the PNG)",
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
            let r = fake.callback(id).await;
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
