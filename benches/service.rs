//! The service's play_move under load: 500 games in progress on one SQLite file, moves sent by
//! concurrent tasks; each move is parsed, checked, written and committed (and, in the second
//! run, its board drawn). Prints p50/p99 latency, moves per second and the lost-move count,
//! then a criterion measurement of one play_move.
//!
//! `cargo bench --bench service`

use criterion::Criterion;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::*;
use tablut_bot::tafl::{Game, Rules};

const GAMES: u64 = 500;
const PLIES: usize = 20;
const WORKERS: usize = 8;
const GUILD: u64 = 1;

/// A random game of `PLIES` plies (or fewer, if it ends) from a seed.
fn script(seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(Rules::default());
    let mut out = Vec::new();
    while out.len() < PLIES && !game.outcome().is_over() {
        let moves = game.position().legal_moves_sorted();
        let mv = moves[rng.usize(..moves.len())];
        game.play(mv).unwrap();
        out.push(mv.to_string());
    }
    out
}

async fn service(dir: &tempfile::TempDir, images: bool) -> Arc<Service> {
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let config = Config {
        images,
        ..Config::default()
    };
    Arc::new(
        Service::open(&url, config, Arc::new(SystemClock))
            .await
            .unwrap(),
    )
}

async fn start_games(s: &Service, first_channel: u64) {
    for g in 0..GAMES {
        let c = s
            .challenge(ChallengeRequest {
                place: Place {
                    guild: Some(GUILD),
                    channel: first_channel + g,
                },
                challenger: User::new(10_000 + 2 * g, "A"),
                opponent: User::new(10_001 + 2 * g, "B"),
                opponent_is_bot: false,
                side: SideChoice::Attackers,
                rules: Rules::default(),
                time_control: TimeControl::DEFAULT,
                thread: false,
                start: None,
            })
            .await
            .unwrap();
        s.accept(c.id, 10_001 + 2 * g, None).await.unwrap();
    }
}

/// Plays every game's script, WORKERS tasks at once, each task owning games g ≡ w (mod
/// WORKERS) and moving them in turn. Returns the latencies and the wall time.
async fn run(s: Arc<Service>, first_channel: u64) -> (Vec<Duration>, Duration, u64) {
    let scripts: Arc<Vec<Vec<String>>> = Arc::new((0..GAMES).map(script).collect());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..WORKERS {
        let (s, scripts) = (s.clone(), scripts.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            for ply in 0..PLIES {
                for g in (w as u64..GAMES).step_by(WORKERS) {
                    let Some(text) = scripts[g as usize].get(ply) else {
                        continue;
                    };
                    let user = 10_000 + 2 * g + (ply as u64 % 2);
                    let t = Instant::now();
                    s.play_move(first_channel + g, user, text).await.unwrap();
                    latencies.push(t.elapsed());
                }
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let wall = started.elapsed();
    // Zero lost: every acknowledged move is stored.
    let mut stored = 0u64;
    for g in 0..GAMES {
        let h = s.history(first_channel + g).await.unwrap();
        assert_eq!(h.moves.len(), scripts[g as usize].len(), "game {g}");
        stored += h.moves.len() as u64;
    }
    let lost = all.len() as u64 - stored;
    (all, wall, lost)
}

fn report(label: &str, mut lat: Vec<Duration>, wall: Duration, lost: u64) {
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "play_move {label}: {} moves over {GAMES} games, {WORKERS} tasks: p50 {:.2} ms, p99 {:.2} ms, \
         max {:.2} ms, {:.0} moves/s, lost {lost}",
        lat.len(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
        lat.len() as f64 / wall.as_secs_f64(),
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    for images in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let label = if images {
            "with the image"
        } else {
            "without the image"
        };
        let (lat, wall, lost) = rt.block_on(async {
            let s = service(&dir, images).await;
            start_games(&s, 1_000).await;
            run(s, 1_000).await
        });
        report(label, lat, wall, lost);
    }

    // One play_move at a time, for criterion: a fresh game per 20 moves.
    let dir = tempfile::tempdir().unwrap();
    let s = rt.block_on(service(&dir, false));
    rt.block_on(start_games(&s, 1_000));
    let mut c = Criterion::default().configure_from_args();
    let moves = script(7);
    let mut channel = 100_000u64;
    c.bench_function("service play_move (parse, check, write, commit)", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                let mut i = 0;
                while i < iters {
                    channel += 1;
                    let c = s
                        .challenge(ChallengeRequest {
                            place: Place {
                                guild: Some(GUILD),
                                channel,
                            },
                            challenger: User::new(1, "A"),
                            opponent: User::new(2, "B"),
                            opponent_is_bot: false,
                            side: SideChoice::Attackers,
                            rules: Rules::default(),
                            time_control: TimeControl::None,
                            thread: false,
                            start: None,
                        })
                        .await
                        .unwrap();
                    s.accept(c.id, 2, None).await.unwrap();
                    for (ply, text) in moves.iter().enumerate() {
                        if i == iters {
                            break;
                        }
                        let t = Instant::now();
                        s.play_move(channel, 1 + ply as u64 % 2, text)
                            .await
                            .unwrap();
                        total += t.elapsed();
                        i += 1;
                    }
                }
                total
            })
        })
    });
    c.final_summary();
}
