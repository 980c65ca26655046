//! The service's play_move under load: 500 games in progress, moves sent by concurrent tasks;
//! each move is parsed, checked, written with its outbox notice and committed (and, in the
//! second run, its board drawn). On SQLite (a temporary file), and on PostgreSQL (a fresh
//! database on the server `TEST_POSTGRES_URL` names, when set) in one process and in two
//! processes sharing the games (this binary started twice, each process running half of the
//! tasks on its own pool). Prints p50/p99 latency, moves per second and the lost-move count,
//! then a criterion measurement of one play_move on each backend.
//!
//! `TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres cargo bench --bench service`

#[allow(dead_code)]
#[path = "../tests/support/fixture.rs"]
mod fixture;
use criterion::Criterion;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{Game, Rules};

const GAMES: u64 = 500;
const PLIES: usize = 20;
const WORKERS: usize = 8;
const GUILD: u64 = 1;
const FIRST_CHANNEL: u64 = 1_000;
/// Set in a child process: the database URL, and which of the processes it is ("0/2").
const CHILD_URL: &str = "SERVICE_BENCH_CHILD_URL";
const CHILD_PART: &str = "SERVICE_BENCH_CHILD_PART";

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

async fn service(url: &str, images: bool) -> Arc<Service> {
    let config = Config {
        images,
        ..Config::default()
    };
    Arc::new(
        Service::open(url, config, Arc::new(SystemClock))
            .await
            .unwrap(),
    )
}

async fn start_games(s: &Service, first_channel: u64) {
    for g in 0..GAMES {
        let c = s
            .games()
            .challenge(
                ChallengeRequest {
                    time_control: TimeControl::DEFAULT,
                    ..fixture::challenge_request(
                        Place {
                            guild: Some(GUILD),
                            channel: first_channel + g,
                        },
                        User::new(10_000 + 2 * g, "A"),
                        User::new(10_001 + 2 * g, "B"),
                    )
                },
                None,
            )
            .await
            .unwrap()
            .done
            .0;
        s.games()
            .accept(c.id, 10_001 + 2 * g, None, None)
            .await
            .unwrap();
    }
}

/// Plays the games' scripts with the tasks `workers` (of WORKERS), each task owning games
/// g ≡ w (mod WORKERS) and moving them in turn. Returns the latencies and the wall time.
async fn play(
    s: Arc<Service>,
    first_channel: u64,
    workers: Vec<usize>,
) -> (Vec<Duration>, Duration) {
    let scripts: Arc<Vec<Vec<String>>> = Arc::new((0..GAMES).map(script).collect());
    let started = Instant::now();
    let mut tasks = Vec::new();
    for w in workers {
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
                    s.games()
                        .play_move(first_channel + g, user, text, Answer::None)
                        .await
                        .unwrap();
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
    (all, started.elapsed())
}

/// How many of `acknowledged` moves are not stored (every game is checked against its script).
async fn lost(s: &Service, first_channel: u64, acknowledged: usize) -> u64 {
    let scripts: Vec<Vec<String>> = (0..GAMES).map(script).collect();
    let mut stored = 0u64;
    for g in 0..GAMES {
        let h = s.games().history(first_channel + g).await.unwrap();
        assert_eq!(h.moves.len(), scripts[g as usize].len(), "game {g}");
        stored += h.moves.len() as u64;
    }
    acknowledged as u64 - stored
}

/// Every task in this process, on one service.
async fn run(s: Arc<Service>, first_channel: u64) -> (Vec<Duration>, Duration, u64) {
    let (lat, wall) = play(s.clone(), first_channel, (0..WORKERS).collect()).await;
    let lost = lost(&s, first_channel, lat.len()).await;
    (lat, wall, lost)
}

/// The tasks shared by `processes` copies of this binary on the database at `url`: each runs
/// its share of the tasks on its own pool and prints its latencies and wall time.
fn run_processes(url: &str, processes: usize) -> (Vec<Duration>, Duration) {
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..processes)
        .map(|p| {
            std::process::Command::new(&exe)
                .env(CHILD_URL, url)
                .env(CHILD_PART, format!("{p}/{processes}"))
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut lat = Vec::new();
    let mut wall = Duration::ZERO;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "a child process failed");
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            if let Some(us) = line.strip_prefix("wall ") {
                wall = wall.max(Duration::from_micros(us.parse().unwrap()));
            } else if let Some(list) = line.strip_prefix("latencies ") {
                lat.extend(
                    list.split(',')
                        .map(|us| Duration::from_micros(us.parse().unwrap())),
                );
            }
        }
    }
    (lat, wall)
}

/// A child process: its share of the tasks, then its latencies (µs) and wall time on stdout.
fn child(url: &str, part: &str) {
    let (p, n) = part.split_once('/').unwrap();
    let (p, n): (usize, usize) = (p.parse().unwrap(), n.parse().unwrap());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let (lat, wall) = rt.block_on(async {
        let s = service(url, false).await;
        let r = play(s.clone(), FIRST_CHANNEL, (p..WORKERS).step_by(n).collect()).await;
        s.close().await;
        r
    });
    let list: Vec<String> = lat.iter().map(|d| d.as_micros().to_string()).collect();
    println!("latencies {}", list.join(","));
    println!("wall {}", wall.as_micros());
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

/// A fresh database on `backend`, or `None` (said on stderr) for PostgreSQL without a server.
fn database(rt: &tokio::runtime::Runtime, backend: Backend) -> Option<TestDb> {
    let db = rt.block_on(TestDb::new(backend, "bench service"));
    if db.is_none() {
        println!("PostgreSQL: not measured (set TEST_POSTGRES_URL to a server)");
    }
    db
}

/// One play_move at a time, for criterion: a fresh game per 20 moves.
fn single_moves(c: &mut Criterion, rt: &tokio::runtime::Runtime, db: &TestDb) {
    let s = rt.block_on(service(&db.url, false));
    rt.block_on(start_games(&s, FIRST_CHANNEL));
    let moves = script(7);
    let mut channel = 100_000u64;
    let name = format!(
        "service play_move on {} (parse, check, write, commit)",
        db.backend.name()
    );
    c.bench_function(&name, |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                let mut i = 0;
                while i < iters {
                    channel += 1;
                    let c = s
                        .games()
                        .challenge(
                            fixture::challenge_request(
                                Place {
                                    guild: Some(GUILD),
                                    channel,
                                },
                                User::new(1, "A"),
                                User::new(2, "B"),
                            ),
                            None,
                        )
                        .await
                        .unwrap()
                        .done
                        .0;
                    s.games().accept(c.id, 2, None, None).await.unwrap();
                    for (ply, text) in moves.iter().enumerate() {
                        if i == iters {
                            break;
                        }
                        let t = Instant::now();
                        s.games()
                            .play_move(channel, 1 + ply as u64 % 2, text, Answer::None)
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
    rt.block_on(s.close());
}

fn main() {
    if let (Ok(url), Ok(part)) = (std::env::var(CHILD_URL), std::env::var(CHILD_PART)) {
        return child(&url, &part);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    for backend in [Backend::Sqlite, Backend::Postgres] {
        for images in [false, true] {
            let Some(db) = database(&rt, backend) else {
                break;
            };
            let label = format!(
                "on {}, {}",
                backend.name(),
                if images {
                    "with the image"
                } else {
                    "without the image"
                }
            );
            let (lat, wall, lost) = rt.block_on(async {
                let s = service(&db.url, images).await;
                start_games(&s, FIRST_CHANNEL).await;
                let r = run(s.clone(), FIRST_CHANNEL).await;
                s.close().await;
                r
            });
            report(&label, lat, wall, lost);
        }
    }
    // PostgreSQL shared by two processes: the same games and tasks, half in each.
    if let Some(db) = database(&rt, Backend::Postgres) {
        let s = rt.block_on(service(&db.url, false));
        rt.block_on(start_games(&s, FIRST_CHANNEL));
        let (lat, wall) = run_processes(&db.url, 2);
        let lost = rt.block_on(lost(&s, FIRST_CHANNEL, lat.len()));
        rt.block_on(s.close());
        report("on PostgreSQL, two processes", lat, wall, lost);
    }

    let mut c = Criterion::default().configure_from_args();
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if let Some(db) = database(&rt, backend) {
            single_moves(&mut c, &rt, &db);
        }
    }
    c.final_summary();
}
