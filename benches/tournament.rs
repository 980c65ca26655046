//! Tournaments: pairing a Swiss round of 256 players (target: at most 50 ms), after 0 and
//! after 6 seeded rounds, and every round of a 32-player round robin; starting a round of 128
//! matches through the service on SQLite (target: at most 2 s).
//!
//! `cargo bench --bench tournament -- --warm-up-time 1 --measurement-time 4`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::tournament::*;
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::Rules;
use tablut_bot::tournament::{round_robin, swiss_round, MatchResult, Pairing};

const GUILD: u64 = 1;

/// The results of `rounds` Swiss rounds of `n` players, seeded.
fn history(n: usize, rounds: u32) -> Vec<MatchResult> {
    let mut rng = fastrand::Rng::with_seed(256);
    let mut played = Vec::new();
    for round in 1..=rounds {
        for p in swiss_round(n, &[], &played) {
            played.push(match p {
                Pairing::Bye(s) => MatchResult::bye(round, s),
                Pairing::Match { first, second } => {
                    let h = rng.u8(0..=4);
                    MatchResult::played(round, first, second, h, 4 - h)
                }
            });
        }
    }
    played
}

fn bench_pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairing");
    group.sample_size(20);
    for rounds in [0, 6] {
        let played = history(256, rounds);
        group.bench_function(format!("swiss 256 players after {rounds} rounds"), |b| {
            b.iter(|| swiss_round(256, &[], black_box(&played)))
        });
    }
    let played = history(255, 6);
    group.bench_function("swiss 255 players after 6 rounds (a bye)", |b| {
        b.iter(|| swiss_round(255, &[], black_box(&played)))
    });
    group.bench_function("round robin 32 players, every round", |b| {
        b.iter(|| round_robin(black_box(32)))
    });
    group.finish();
}

/// A Swiss event of 256 entrants signed up on `s` in channel `hall`: its id.
async fn signed_up(s: &Service, hall: u64) -> i64 {
    let t = s.tournaments();
    let created = t
        .create(TournamentRequest {
            guild: GUILD,
            channel: hall,
            organiser: organiser(),
            name: format!("Open {hall}"),
            rules: Rules::default(),
            format: TournamentFormat::Swiss { rounds: 8 },
            time_control: TimeControl::Fischer {
                bank: Duration::from_secs(3 * 86_400),
                increment: Duration::from_secs(6 * 3600),
            },
            rated: true,
            seats: 256,
            signup_for: None,
        })
        .await
        .unwrap();
    for i in 0..256u64 {
        let user = User::new(10_000 + i, format!("Player {i}"));
        t.join(GUILD, Some(created.id), user).await.unwrap();
    }
    created.id
}

fn organiser() -> Member {
    Member {
        user: User::new(42, "Org"),
        manage_server: true,
        roles: Vec::new(),
    }
}

/// The match games whose threads the hall's notices owe.
async fn owed_threads(s: &Service, hall: u64) -> Vec<MatchGame> {
    (s.probe().notices_in(hall).await.unwrap().into_iter())
        .filter_map(|n| {
            let payload: Payload = serde_json::from_str(&n.payload).unwrap();
            match payload.news {
                Some(News::Tournament(TournamentNews::Thread(game))) => Some(game),
                _ => None,
            }
        })
        .collect()
}

/// Starting a round of 128 matches on SQLite (a file in a temporary directory, the bot's
/// settings): the organiser's start of a 256-player Swiss event (the seats given, round 1
/// paired, its 128 matches and 256 match games written with the 256 notices that make their
/// threads and the round's post, in one transaction), and then the 256 games started in their
/// threads as the dispatcher starts them (one transaction each, the game and its first post).
fn bench_round_start(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = rt
        .block_on(TestDb::new(Backend::Sqlite, "bench tournament"))
        .unwrap();
    let config = Config {
        images: false,
        ..Config::default()
    };
    let s = rt
        .block_on(Service::open(&db.url, config, Arc::new(SystemClock)))
        .unwrap();
    let mut hall = 1_000u64;
    let mut group = c.benchmark_group("round start");
    group.sample_size(10);
    group.bench_function(
        "swiss 256 players on SQLite: start, round 1 paired (128 matches, 256 threads owed)",
        |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        hall += 1;
                        let id = signed_up(&s, hall).await;
                        let t = Instant::now();
                        let info = s
                            .tournaments()
                            .start(GUILD, Some(id), &organiser())
                            .await
                            .unwrap();
                        total += t.elapsed();
                        assert_eq!(info.round, 1);
                    }
                    total
                })
            })
        },
    );
    group.bench_function(
        "swiss 256 players on SQLite: round 1's 256 games started in their threads",
        |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        hall += 1;
                        let id = signed_up(&s, hall).await;
                        s.tournaments()
                            .start(GUILD, Some(id), &organiser())
                            .await
                            .unwrap();
                        let games = owed_threads(&s, hall).await;
                        assert_eq!(games.len(), 256);
                        let t = Instant::now();
                        for game in &games {
                            let thread = 1_000_000 + game.slot as u64;
                            let started = s.tournaments().open_game(game, thread).await.unwrap();
                            assert!(started.is_some());
                        }
                        total += t.elapsed();
                    }
                    total
                })
            })
        },
    );
    group.finish();
    rt.block_on(s.close());
}

criterion_group!(benches, bench_pairing, bench_round_start);
criterion_main!(benches);
