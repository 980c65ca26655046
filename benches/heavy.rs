//! A `/move`'s answer with its board while replays are drawn. The heavy-work gate
//! (src/service/heavy.rs) lets costly work (replays) take all its workers but one, so a board
//! never waits behind a replay; tests/replay_load.rs checks that mechanism by events, and this
//! measures what it gives: one play_move with its board drawn (images on, three heavy workers,
//! as tests/replay_load.rs sets the service), first with the gate idle, then while two replays
//! (of a 100-ply game) are drawn all the time by background tasks, each asking for the next
//! as soon as its replay is drawn. What the replays take of the machine's cores shows in the
//! second figure: on two cores the replays keep both busy.
//!
//! `cargo bench --bench heavy` (short: ten samples of five seconds).

#[path = "../tests/long_game/mod.rs"]
mod long_game;

#[allow(dead_code)]
#[path = "../tests/support/fixture.rs"]
mod fixture;
use criterion::Criterion;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{Game, Rules};

const GUILD: u64 = 1;
/// The channel of the game replayed.
const REPLAYED: u64 = 50;
/// Its length (a game that lasts: tests/long_game).
const REPLAY_PLIES: usize = 100;
/// The moves of each game played while measuring.
const PLIES: usize = 20;

/// A random game of `plies` plies (or fewer, if it ends) from a seed.
fn script(seed: u64, plies: usize) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = Game::new(Rules::default());
    let mut out = Vec::new();
    while out.len() < plies && !game.outcome().is_over() {
        let moves = game.position().legal_moves_sorted();
        let mv = moves[rng.usize(..moves.len())];
        game.play(mv).unwrap();
        out.push(mv.to_string());
    }
    out
}

/// A game between users 1 and 2 in `channel`, the first attacking.
async fn start_game(s: &Service, channel: u64) {
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
}

async fn play(s: &Service, channel: u64, moves: &[String]) {
    for (ply, text) in moves.iter().enumerate() {
        s.games()
            .play_move(channel, 1 + ply as u64 % 2, text, Answer::None)
            .await
            .unwrap();
    }
}

/// One play_move with its board at a time, in fresh games of `PLIES` moves, while `replays`
/// background tasks draw replays of the game in `REPLAYED` one after the other.
fn moves_with_boards(
    c: &mut Criterion,
    rt: &tokio::runtime::Runtime,
    s: &Arc<Service>,
    channel: &mut u64,
    replays: usize,
) {
    let stop = Arc::new(AtomicBool::new(false));
    let drawn = Arc::new(AtomicU64::new(0));
    let drawers: Vec<_> = (0..replays)
        .map(|_| {
            let (s, stop, drawn) = (s.clone(), stop.clone(), drawn.clone());
            rt.spawn(async move {
                while !stop.load(Ordering::SeqCst) {
                    let (info, gif) = s.games().replay(REPLAYED).await.unwrap();
                    assert_eq!(info.ply as usize, REPLAY_PLIES);
                    assert!(gif.starts_with(b"GIF89a"));
                    drawn.fetch_add(1, Ordering::SeqCst);
                }
            })
        })
        .collect();
    let moves = script(7, PLIES);
    let (mut made, mut during) = (0u64, 0u64);
    let name = if replays == 0 {
        "heavy: /move with its board, the gate idle".to_string()
    } else {
        format!("heavy: /move with its board, {replays} replays drawn meanwhile")
    };
    c.bench_function(&name, |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                let mut i = 0;
                while i < iters {
                    *channel += 1;
                    start_game(s, *channel).await;
                    for (ply, text) in moves.iter().enumerate() {
                        if i == iters {
                            break;
                        }
                        let t = Instant::now();
                        let r = s
                            .games()
                            .play_move(*channel, 1 + ply as u64 % 2, text, Answer::None)
                            .await
                            .unwrap()
                            .done;
                        total += t.elapsed();
                        assert!(r.png.starts_with(b"\x89PNG"));
                        made += 1;
                        during += u64::from(s.probe().heavy_stats().running > 0);
                        i += 1;
                    }
                }
                total
            })
        })
    });
    stop.store(true, Ordering::SeqCst);
    for d in drawers {
        rt.block_on(d).unwrap();
    }
    println!(
        "{name}: {made} moves, {during} of them with heavy work running when answered; \
         {} replays drawn; the gate: {:?}",
        drawn.load(Ordering::SeqCst),
        s.probe().heavy_stats()
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = rt
        .block_on(TestDb::new(Backend::Sqlite, "bench heavy"))
        .unwrap();
    let config = Config {
        images: true,
        heavy_workers: 3,
        commands_per_minute: 0,
        ..Config::default()
    };
    let s = Arc::new(
        rt.block_on(Service::open(&db.url, config, Arc::new(SystemClock)))
            .unwrap(),
    );
    rt.block_on(async {
        start_game(&s, REPLAYED).await;
        let long = long_game::lasting_game(Rules::default(), 7, REPLAY_PLIES);
        let moves: Vec<String> = long.moves().iter().map(|m| m.mv.to_string()).collect();
        play(&s, REPLAYED, &moves).await;
    });
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let mut channel = 100_000;
    for replays in [0, 2] {
        moves_with_boards(&mut c, &rt, &s, &mut channel, replays);
    }
    c.final_summary();
    rt.block_on(s.close());
}
