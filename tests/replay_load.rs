//! Ten users ask for the replay of a 1000-ply game at once (the longest a game may last), while
//! two players go on moving in another channel (in a debug build, where drawing a replay is some
//! fifty times slower, a 150-ply game: `REPLAY_LOAD_PLIES=1000` or `--release` for the whole
//! length; docs/BENCHMARKS.md gives both): every replay is drawn, the process's peak
//! resident memory stays within a stated bound, the heavy-work gate runs no more costly jobs
//! at once than it allows, and every move is answered with its board.
//!
//! What keeps a move's answer quick while replays are drawn is checked first, by events rather
//! than by the clock: with every costly worker held until let go and the costly queue full, a
//! move is still answered with its board (drawn on the worker costly work leaves free), and a
//! replay asked for beyond the queue is refused at once as busy. How quick the answer is, is a
//! figure of `cargo bench --bench heavy` (docs/BENCHMARKS.md), not a bound of this test.
//!
//! A test binary of its own: the peak resident memory (`VmHWM` in /proc/self/status) is the
//! whole process's, so no other test may run beside it. The peak is reset (`/proc/self/
//! clear_refs`) once the games are set up, so it measures the replays and the moves alone.

mod long_game;
// The service's tests' fixture, of which this binary uses the challenge.
#[allow(dead_code)]
#[path = "support/fixture.rs"]
mod fixture;

use fixture::challenge_request;
use long_game::lasting_game;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{Game, Outcome, Reason, RecordedMove, Rules, Side};

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 101;
const BIRGER: u64 = 102;
const MB: u64 = 1024 * 1024;

/// The bound on the peak resident memory the ten replays and the moves add: a few replays
/// drawn at once (each a few megabytes: the growing GIF, a canvas and a frame), the ten games
/// waiting their turn, and the allocator's slack. Drawing every frame before encoding any, ten
/// replays at once held over 2 GB (227 MB each).
const BOUND: u64 = 96 * MB;

/// A field of /proc/self/status, in bytes.
fn status(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").expect("Linux's /proc");
    let line = text
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

async fn game_between(s: &Service, channel: u64) -> GameInfo {
    let c = s
        .games()
        .challenge(
            challenge_request(
                Place {
                    guild: Some(GUILD),
                    channel,
                },
                User::new(ASTRID, "Astrid"),
                User::new(BIRGER, "Birger"),
            ),
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    s.games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done
        .game
}

fn by(side: Side) -> u64 {
    match side {
        Side::Attackers => ASTRID,
        Side::Defenders => BIRGER,
    }
}

fn config(images: bool) -> Config {
    Config {
        ai_tt_mb: 1,
        ai_workers: 1,
        images,
        commands_per_minute: 0,
        // Three workers: up to two replays drawn at once, one worker kept for the boards.
        heavy_workers: 3,
        ..Config::default()
    }
}

/// The length of the game replayed: 1000 plies (the limit) in a release build, 150 in a debug
/// one, or `REPLAY_LOAD_PLIES`.
fn plies() -> usize {
    std::env::var("REPLAY_LOAD_PLIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 150 } else { 1000 })
        .clamp(1, 1000)
}

/// `m` played in channel 51: answered, with its board.
async fn answered_with_board(s: &Service, m: &RecordedMove) {
    let r = s
        .games()
        .play_move(51, by(m.side), &m.mv.to_string(), Answer::None)
        .await
        .unwrap()
        .done;
    assert!(r.png.starts_with(b"\x89PNG"), "the answer has the board");
}

/// The moves of channel 51's game that [`a_move_is_answered_while_every_costly_worker_is_held`]
/// plays.
const HELD_MOVES: usize = 2;

/// On a service of its own (so that the gate's peaks below are the ten replays' alone): the
/// gate's two costly workers are held by work that ends only when let go, and a replay asked
/// for meanwhile waits in the queue. A move is answered with its board beside them (the board
/// takes the worker costly work leaves); with the queue then filled to its limit, a further
/// replay is refused at once as busy, and a move is still answered. Let go, the waiting replay
/// is drawn whole, and it never ran beside the two held (the gate's peak of costly work).
async fn a_move_is_answered_while_every_costly_worker_is_held(
    db: &TestDb,
    clock: Arc<ManualClock>,
    other: &Game,
    plies: usize,
) {
    let s = Arc::new(Service::open(&db.url, config(true), clock).await.unwrap());
    let gate = s.probe().heavy_gate().clone();
    let stats = gate.stats();
    assert_eq!((stats.workers, stats.costly_workers), (3, 2), "{stats:?}");
    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
    let mut releases = Vec::new();
    let mut held = Vec::new();
    for n in 0..stats.costly_workers {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        releases.push(release);
        let (gate, started_tx) = (gate.clone(), started_tx.clone());
        held.push(tokio::spawn(async move {
            let place = gate.place()?;
            gate.run_costly(&place, move || {
                started_tx.send(n).unwrap();
                // Until let go (the sender dropped).
                let _ = wait.recv();
            })
            .await
        }));
    }
    for _ in 0..stats.costly_workers {
        started.recv().await.expect("a held job started");
    }
    assert_eq!(gate.stats().running, 2, "{:?}", gate.stats());
    // A replay asked for now takes a place in the queue at once, waiting for nothing (the bot
    // acknowledges the command then), and its drawing waits for a costly worker (to play the
    // game through and draw it).
    let asked = s.games().start_replay(50, Some(999));
    let pending = tokio::time::timeout(Duration::from_secs(30), asked)
        .await
        .expect("a replay asked for waits for no worker")
        .unwrap();
    let replay = tokio::spawn(pending.draw());
    let deadline = Instant::now() + Duration::from_secs(60);
    while gate.stats().queued < 3 {
        assert!(Instant::now() < deadline, "{:?}", gate.stats());
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let moves = &other.moves()[..HELD_MOVES];
    answered_with_board(&s, &moves[0]).await;
    // The board was drawn beside the two held jobs, which still run.
    let stats = gate.stats();
    assert_eq!((stats.running, stats.peak_running), (2, 3), "{stats:?}");
    assert_eq!(stats.queued, 3, "the held jobs and the replay: {stats:?}");
    // The queue filled to its limit: a further replay is refused at once, before anything is
    // drawn, and a move is still answered with its board.
    let places: Vec<_> = (stats.queued..stats.queue_limit)
        .map(|_| gate.place().unwrap())
        .collect();
    let limit = stats.queue_limit;
    match s.games().start_replay(50, Some(998)).await {
        Err(ServiceError::Busy(n)) => assert_eq!(n, limit),
        other => panic!("a replay beyond the queue: {:?}", other.map(drop)),
    }
    answered_with_board(&s, &moves[1]).await;
    // Let go: the waiting replay is drawn, whole, and never ran beside both held jobs.
    drop(places);
    drop(releases);
    for h in held {
        h.await.unwrap().unwrap();
    }
    let (info, gif) = replay.await.unwrap().unwrap();
    assert_eq!(info.ply as usize, plies);
    assert!(gif.starts_with(b"GIF89a"));
    let stats = gate.stats();
    assert_eq!(
        (stats.peak_running_costly, stats.queued),
        (2, 0),
        "{stats:?}"
    );
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_replays_of_a_long_game_at_once_stay_within_memory_and_moves_are_answered() {
    let db = TestDb::new(Backend::Sqlite, "replay_load").await.unwrap();
    let clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let plies = plies();
    let long = lasting_game(Rules::default(), 7, plies);
    let other = lasting_game(Rules::default(), 8, 600);
    // The games, set up without images: a game of `plies` plies (at 1000, drawn at the ply
    // limit) in channel 50, and one just started in channel 51.
    {
        let s = Service::open(&db.url, config(false), clock.clone())
            .await
            .unwrap();
        game_between(&s, 50).await;
        for m in long.moves() {
            let r = s
                .games()
                .play_move(50, by(m.side), &m.mv.to_string(), Answer::None)
                .await
                .unwrap()
                .done;
            assert_eq!(r.game.ply == 1000, r.game.outcome.is_over());
        }
        if plies < 1000 {
            s.games().resign(50, ASTRID, None).await.unwrap();
        }
        game_between(&s, 51).await;
        s.close().await;
    }
    a_move_is_answered_while_every_costly_worker_is_held(&db, clock.clone(), &other, plies).await;
    let s = Arc::new(
        Service::open(&db.url, config(true), clock.clone())
            .await
            .unwrap(),
    );
    // The sprites are drawn once, as the bot does when it starts.
    tokio::task::spawn_blocking(tablut_bot::render::warm_up)
        .await
        .unwrap();
    let start_rss = status("VmRSS:");
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let base = if reset {
        status("VmHWM:")
    } else {
        eprintln!("cannot reset the peak: measured from the start of the process");
        0
    };

    let started = Instant::now();
    let mut replays = tokio::task::JoinSet::new();
    for user in 1000..1010u64 {
        let s = s.clone();
        replays.spawn(async move {
            let (info, gif) = s.games().start_replay(50, Some(user)).await?.draw().await?;
            Ok::<_, ServiceError>((info, gif))
        });
    }
    // Moves in channel 51 until every replay is drawn, each timed from the command to its
    // answer with the board (a figure printed, not a bound: see the module's documentation).
    let mut moves = other.moves().iter().skip(HELD_MOVES);
    let (mut slowest, mut made, mut during) = (Duration::ZERO, 0, 0);
    let mut first_gif: Option<Vec<u8>> = None;
    let mut drawn = 0;
    loop {
        while let Some(done) = replays.try_join_next() {
            let (info, gif) = done.unwrap().unwrap();
            assert_eq!(info.ply as usize, plies);
            assert!(info.outcome.is_over());
            if plies == 1000 {
                assert_eq!(
                    info.outcome,
                    Outcome::Drawn {
                        reason: Reason::PlyLimit
                    }
                );
            }
            match &first_gif {
                None => first_gif = Some(gif),
                Some(first) => assert!(first == &gif, "every replay of a game is the same"),
            }
            drawn += 1;
        }
        if drawn == 10 {
            break;
        }
        let Some(m) = moves.next() else {
            // No moves left: the replays are awaited.
            let done = replays.join_next().await.expect("a replay left");
            let (_, gif) = done.unwrap().unwrap();
            assert!(first_gif.as_ref().is_none_or(|first| first == &gif));
            first_gif.get_or_insert(gif);
            drawn += 1;
            continue;
        };
        let asked = Instant::now();
        let r = s
            .games()
            .play_move(51, by(m.side), &m.mv.to_string(), Answer::None)
            .await
            .unwrap()
            .done;
        let took = asked.elapsed();
        assert!(r.png.starts_with(b"\x89PNG"), "the answer has the board");
        slowest = slowest.max(took);
        made += 1;
        if s.probe().heavy_stats().running > 0 {
            during += 1;
        }
    }
    let elapsed = started.elapsed();
    let stats = s.probe().heavy_stats();
    let peak = status("VmHWM:");
    let gif = first_gif.unwrap();
    eprintln!(
        "ten replays of {plies} plies ({} KB each) in {:.1} s: peak resident {} MB (the setup \
         left {} MB resident; peak {} MB above it); {made} moves meanwhile ({during} while \
         replays were drawn), the slowest answered in {} ms; the gate: {stats:?}",
        gif.len() / 1024,
        elapsed.as_secs_f64(),
        peak / MB,
        start_rss / MB,
        peak.saturating_sub(base.max(start_rss)) / MB,
        slowest.as_millis()
    );
    let added = peak.saturating_sub(base.max(start_rss));
    assert!(
        added < BOUND,
        "peak resident {} MB, {} MB above the setup",
        peak / MB,
        added / MB
    );
    assert!(during >= 3, "moves were made while replays were drawn");
    assert_eq!(stats.costly_workers, 2);
    assert!(stats.peak_running_costly <= 2, "{stats:?}");
    assert!(stats.peak_queued <= 10, "{stats:?}");
    // The replay is whole: the start and a frame per ply.
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&gif))
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, plies + 1);
    s.close().await;
}
