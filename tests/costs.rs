//! What a user can make the bot spend is bounded: a game's length (the bot's ply limit, a draw
//! in every variant), the memory an analysis holds (one game played through at a time, never
//! every position at once), and the memory and time replays take (frames encoded as they are
//! drawn, heavy work on a small pool, a per-user cooldown).
//!
//! Memory is measured two ways: here, by this binary's own allocator, which counts the bytes
//! live and their peak (so the tests in this file run one at a time); and for the CLI and the
//! bot, by the peak resident memory of their process (`VmHWM`, or `wait4`'s `ru_maxrss`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{parse_position, Game, Outcome, Reason, Rules, Side, Variant};

mod long_game;
use long_game::lasting_game;
// The service's tests' fixture, of which this binary uses the challenge.
#[allow(dead_code)]
#[path = "support/fixture.rs"]
mod fixture;
use fixture::challenge_request;

/// The system allocator, counting the bytes live and the most live at once.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        q
    }
}

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes live at once while `work` ran, above what was live when it started.
async fn peak_during<T>(work: impl std::future::Future<Output = T>) -> (T, usize) {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let out = work.await;
    (out, PEAK.load(Ordering::SeqCst).saturating_sub(base))
}

/// The tests of this file one at a time: each measures the process's memory.
async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    SERIAL.lock().await
}

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 101;
const BIRGER: u64 = 102;
const MB: usize = 1024 * 1024;

fn config() -> Config {
    Config {
        ai_tt_mb: 1,
        ai_workers: 1,
        ai_game_cooldown: Duration::ZERO,
        analysis_depth: Some(1),
        images: false,
        commands_per_minute: 0,
        ..Config::default()
    }
}

async fn service(db: &TestDb, config: Config) -> Service {
    Service::open(
        &db.url,
        config,
        Arc::new(ManualClock::new(1_800_000_000_000)),
    )
    .await
    .unwrap()
}

/// Astrid (attackers) against Birger (defenders) in `channel`, under `rules`, from `start`.
async fn game_between(
    s: &Service,
    channel: u64,
    rules: Rules,
    start: Option<tablut_bot::tafl::Position>,
) -> GameInfo {
    let c = s
        .games()
        .challenge(
            ChallengeRequest {
                rules,
                start,
                ..challenge_request(
                    Place {
                        guild: Some(GUILD),
                        channel,
                    },
                    User::new(ASTRID, "Astrid"),
                    User::new(BIRGER, "Birger"),
                )
            },
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

/// Plays `game`'s moves in `channel` through the service, each by its side's player; the
/// reports.
async fn play_through(s: &Service, channel: u64, game: &Game) -> Vec<MoveReport> {
    let mut out = Vec::new();
    for m in game.moves() {
        let by = match m.side {
            Side::Attackers => ASTRID,
            Side::Defenders => BIRGER,
        };
        out.push(
            s.games()
                .play_move(channel, by, &m.mv.to_string(), Answer::None)
                .await
                .unwrap()
                .done,
        );
    }
    out
}

const PLY_LIMIT: Outcome = Outcome::Drawn {
    reason: Reason::PlyLimit,
};

#[tokio::test]
async fn a_game_that_reaches_the_ply_limit_is_drawn_in_every_variant() {
    let _serial = serial().await;
    let db = TestDb::new(Backend::Sqlite, "ply_limit").await.unwrap();
    let s = service(
        &db,
        Config {
            max_plies: 6,
            ..config()
        },
    )
    .await;
    for (i, variant) in [Variant::Tablut, Variant::Brandubh, Variant::Copenhagen]
        .into_iter()
        .enumerate()
    {
        let channel = 10 + i as u64;
        let info = game_between(&s, channel, variant.rules(), None).await;
        let game = lasting_game(variant.rules(), 1 + i as u64, 7);
        let first = tablut_bot::ai::analysis::prefix(&game, 6);
        let reports = play_through(&s, channel, &first).await;
        for r in &reports[..5] {
            assert_eq!(r.game.outcome, Outcome::Ongoing, "{variant:?}");
        }
        let last = reports.last().unwrap();
        assert_eq!(last.game.ply, 6);
        assert_eq!(last.game.outcome, PLY_LIMIT, "{variant:?}");
        assert_eq!(
            tablut_bot::bot::messages::board_caption(&last.game),
            "Draw: the game reached the bot's limit on a game's length"
        );
        // The seventh move is refused: the game is over, and stays over when read again.
        let seventh = game.moves()[6].mv.to_string();
        assert!(matches!(
            s.games()
                .play_move(channel, ASTRID, &seventh, Answer::None)
                .await,
            Err(ServiceError::GameOver)
        ));
        let stored = s.games().game(info.id).await.unwrap();
        assert_eq!((stored.ply, stored.outcome), (6, PLY_LIMIT));
    }
}

#[tokio::test]
async fn a_move_that_decides_the_game_at_the_limit_keeps_the_rules_result() {
    let _serial = serial().await;
    let db = TestDb::new(Backend::Sqlite, "ply_limit_decided")
        .await
        .unwrap();
    let s = service(
        &db,
        Config {
            max_plies: 1,
            ..config()
        },
    )
    .await;
    let start =
        parse_position("/9/9/4K4/9/9/9/9/9/t7t/", Side::Defenders, Rules::default()).unwrap();
    game_between(&s, 20, Rules::default(), Some(start)).await;
    let r = s
        .games()
        .play_move(20, BIRGER, "e3-e1", Answer::None)
        .await
        .unwrap()
        .done;
    assert_eq!(
        r.game.outcome,
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::KingEscaped
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_ply_game_is_drawn_and_its_analysis_holds_one_position_at_a_time() {
    let _serial = serial().await;
    assert_eq!(Config::default().max_plies, 1000, "the documented default");
    let db = TestDb::new(Backend::Sqlite, "long_analysis").await.unwrap();
    let s = service(&db, config()).await;
    let game = lasting_game(Rules::default(), 7, 1000);
    let info = game_between(&s, 30, Rules::default(), None).await;
    let reports = play_through(&s, 30, &game).await;
    assert_eq!(reports[998].game.outcome, Outcome::Ongoing);
    assert_eq!(reports[999].game.outcome, PLY_LIMIT);

    match s.analysis().request(30, None, Some(ASTRID)).await.unwrap() {
        analysis::AnalysisStatus::Started { total, .. } => assert_eq!(total, 1000),
        other => panic!("{other:?}"),
    }
    // Each step plays the game through again to the position it searches: one game of 1000
    // plies, a few hundred kilobytes, not a game per position (1001 games of up to 1000
    // positions each: tens of megabytes).
    let one_game = std::mem::size_of::<tablut_bot::tafl::Position>() * 1001
        + std::mem::size_of::<tablut_bot::tafl::RecordedMove>() * 1000;
    let every_prefix = one_game * 1001 / 2;
    for _ in 0..3 {
        let (step, peak) = peak_during(s.analysis().step(info.id)).await;
        assert!(matches!(step.unwrap(), analysis::Step::Reviewed { .. }));
        eprintln!(
            "analysis step: peak {} KB above the start (one game: {} KB; every prefix: {} KB)",
            peak / 1024,
            one_game / 1024,
            every_prefix / 1024
        );
        assert!(
            peak < 8 * MB && peak < every_prefix / 4,
            "an analysis step held {peak} bytes at once"
        );
    }
    // The review of the whole game, from its evaluations, walks it once too.
    let evals: Vec<_> = (0..=1000)
        .map(|_| {
            Some(tablut_bot::ai::analysis::Evaluation {
                score: 0,
                best: game.moves()[0].mv,
                depth: 1,
                nodes: 1,
            })
        })
        .collect();
    let (review, peak) = peak_during(async {
        tablut_bot::ai::analysis::review(&game, &evals, tablut_bot::ai::analysis::DEFAULT_SCALE)
    })
    .await;
    assert_eq!(review.moves.len(), 1000);
    eprintln!("review: peak {} KB", peak / 1024);
    assert!(peak < 4 * MB, "the review held {peak} bytes at once");
    s.close().await;
}

/// A replay holds one frame at a time. 300 plies, so that the test stays quick in a debug
/// build (a replay of 1000 plies is measured from the command line and by
/// tests/replay_load.rs): keeping every frame held about 200 KB a ply, 60 MB here.
#[tokio::test]
async fn a_long_replay_holds_one_frame_at_a_time() {
    let _serial = serial().await;
    let game = lasting_game(Rules::default(), 7, 300);
    tablut_bot::render::warm_up();
    let (gif, peak) = peak_during(async {
        tablut_bot::render::replay_gif(&game, &|ply| {
            tablut_bot::bot::messages::replay_caption(&game, ply)
        })
    })
    .await;
    let frame = (tablut_bot::render::BOARD_SIZE_PX * tablut_bot::render::BOARD_SIZE_PX) as usize;
    eprintln!(
        "replay of 300 plies: a GIF of {} KB, peak {} KB above the start (one frame: {} KB)",
        gif.len() / 1024,
        peak / 1024,
        frame / 1024
    );
    // What it holds: the GIF as it grows (its buffer at most twice its length), the canvas,
    // the frame before and the frame being compressed. Keeping every frame until the end held
    // hundreds of megabytes (a changed rectangle per ply, each reaching down to the caption).
    assert!(
        peak < 2 * gif.len() + 8 * frame,
        "a replay held {peak} bytes at once for a GIF of {} bytes",
        gif.len()
    );
    // Every frame is there: the start and one per ply.
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&gif))
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 301);
}

/// A finished game of four plies in `channel` (Astrid resigns).
async fn finished_game(s: &Service, channel: u64) -> GameInfo {
    let info = game_between(s, channel, Rules::default(), None).await;
    play_through(s, channel, &lasting_game(Rules::default(), 3, 4)).await;
    s.games().resign(channel, ASTRID, None).await.unwrap();
    info
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replays_and_analyses_share_a_cooldown_per_user_and_a_full_queue_refuses_first() {
    let _serial = serial().await;
    let db = TestDb::new(Backend::Sqlite, "costly_cooldown")
        .await
        .unwrap();
    let clock = ManualClock::new(1_800_000_000_000);
    let s = Service::open(
        &db.url,
        Config {
            costly_cooldown: Duration::from_secs(30),
            heavy_workers: 2,
            heavy_queue_limit: 1,
            ..config()
        },
        Arc::new(clock.clone()),
    )
    .await
    .unwrap();
    const CARL: u64 = 103;
    // Nothing to replay or analyse: refused as such, and the cooldown does not start.
    assert!(matches!(
        s.games().start_replay(40, Some(ASTRID)).await,
        Err(ServiceError::NoGame)
    ));
    assert!(matches!(
        s.analysis().request(40, None, Some(ASTRID)).await,
        Err(ServiceError::NoFinishedGame)
    ));
    finished_game(&s, 40).await;

    // Astrid's replay holds the queue's one place until it is drawn: meanwhile Birger's
    // request and the autocomplete's list are refused as busy, and Birger's cooldown does not
    // start.
    let pending = s.games().start_replay(40, Some(ASTRID)).await.unwrap();
    assert_eq!(s.probe().heavy_stats().queued, 1);
    assert!(matches!(
        s.games().start_replay(40, Some(BIRGER)).await,
        Err(ServiceError::Busy(1))
    ));
    assert!(matches!(
        s.analysis().finished_games(40).await,
        Err(ServiceError::Busy(1))
    ));
    let (info, gif) = pending.draw().await.unwrap();
    assert_eq!(info.ply, 4);
    assert!(gif.starts_with(b"GIF89a"));
    assert_eq!(s.probe().heavy_stats().queued, 0);
    s.games()
        .start_replay(40, Some(BIRGER))
        .await
        .expect("Birger was not counted while the queue was full")
        .draw()
        .await
        .unwrap();

    // Astrid again, a replay or an analysis: refused with the wait, which runs on the clock.
    for _ in 0..2 {
        assert!(matches!(
            s.games().start_replay(40, Some(ASTRID)).await,
            Err(ServiceError::CostlyTooSoon(30))
        ));
        assert!(matches!(
            s.analysis().request(40, None, Some(ASTRID)).await,
            Err(ServiceError::CostlyTooSoon(30))
        ));
    }
    let refusal = tablut_bot::bot::messages::refusal(&ServiceError::CostlyTooSoon(30));
    assert!(refusal.contains("try again in 30 s") && !refusal.contains('\n'));
    // The autocomplete has no cooldown (Discord asks at every key typed), and another user
    // has their own.
    for _ in 0..3 {
        assert_eq!(s.analysis().finished_games(40).await.unwrap().len(), 1);
    }
    assert!(matches!(
        s.analysis().request(40, None, Some(CARL)).await.unwrap(),
        analysis::AnalysisStatus::Started { total: 4, .. }
    ));
    clock.advance(Duration::from_millis(29_500));
    assert!(matches!(
        s.analysis().request(40, None, Some(ASTRID)).await,
        Err(ServiceError::CostlyTooSoon(1))
    ));
    clock.advance(Duration::from_millis(500));
    assert!(matches!(
        s.analysis().request(40, None, Some(ASTRID)).await.unwrap(),
        analysis::AnalysisStatus::Running { total: 4, .. }
    ));
    assert!(matches!(
        s.games().start_replay(40, Some(ASTRID)).await,
        Err(ServiceError::CostlyTooSoon(30))
    ));
    // Without a user (the bot's own work, the tests), no cooldown.
    s.games().replay(40).await.unwrap();
    s.games().replay(40).await.unwrap();
    s.close().await;
}

/// `tests/data/game-1000-plies.txt`, the record `docs/BENCHMARKS.md` replays from the command
/// line to measure a replay's peak memory, is this file's 1000-ply game.
#[test]
fn the_thousand_ply_record_is_the_generated_game() {
    let game = lasting_game(Rules::default(), 7, 1000);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/game-1000-plies.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        text.trim(),
        game.record(),
        "regenerate {path} from the game"
    );
}
