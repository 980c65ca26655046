//! Two "processes" on one PostgreSQL database: two services, each with its own pool, doing the
//! same work at once. What must happen once happens once because the database decides
//! (constraints, conditional updates, claims with `FOR UPDATE SKIP LOCKED`), not a lock inside
//! one process. Each test makes a fresh database on the server `TEST_POSTGRES_URL` names; see
//! `store::testdb` for how they are skipped outside CI. The tournaments' races run on one
//! SQLite file shared by two services too.

use crate::support::fake_discord::{FakeDiscord, TOKEN};
use crate::support::fixture::{ai_game_request, challenge_request};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::bot::delivery::{self, DeliveryPolicy, Poster};
use tablut_bot::rating::{rate_game, Rating, Score};
use tablut_bot::service::timecontrol::CLOCK_CLAIM_LEASE;
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::{self, Backend};
use tablut_bot::tafl::{Game, Rules};

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
const T0: i64 = 1_800_000_000_000;

fn config() -> Config {
    Config {
        ai_time: [Duration::from_millis(50); 3],
        images: false,
        ai_workers: 1,
        ai_tt_mb: 4,
        ai_games_per_user: 100,
        ai_game_cooldown: Duration::ZERO,
        ..Config::default()
    }
}

/// Two services ("processes") on one fresh PostgreSQL database, sharing a clock.
struct Two {
    _db: TestDb,
    clock: ManualClock,
    a: Arc<Service>,
    b: Arc<Service>,
}

impl Two {
    /// Lets `by` pass on the database's clock, which leases and claims are measured on, as
    /// both services read it.
    fn advance_database_clock(&self, by: Duration) {
        self.a.probe().advance_database_clock(by);
        self.b.probe().advance_database_clock(by);
    }
}

async fn two(test: &str) -> Option<Two> {
    let clock = ManualClock::new(T0);
    let (db, a, b) = two_with(test, config(), Arc::new(clock.clone())).await?;
    Some(Two {
        _db: db,
        clock,
        a,
        b,
    })
}

/// Two services with `config` on one fresh PostgreSQL database, reading `clock`.
async fn two_with(
    test: &str,
    config: Config,
    clock: Arc<dyn Clock>,
) -> Option<(TestDb, Arc<Service>, Arc<Service>)> {
    let db = TestDb::new(Backend::Postgres, test).await?;
    let a = Service::open(&db.url, config.clone(), clock.clone())
        .await
        .unwrap();
    let b = Service::open(&db.url, config, clock).await.unwrap();
    Some((db, Arc::new(a), Arc::new(b)))
}

fn place(channel: u64) -> Place {
    Place {
        guild: Some(GUILD),
        channel,
    }
}

fn request(channel: u64, time_control: TimeControl) -> ChallengeRequest {
    ChallengeRequest {
        time_control,
        ..challenge_request(
            place(channel),
            User::new(ASTRID, "Astrid"),
            User::new(BIRGER, "Birger"),
        )
    }
}

async fn game(s: &Service, channel: u64, time_control: TimeControl) -> GameInfo {
    let c = s
        .games()
        .challenge(request(channel, time_control), None)
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn moves_sent_to_two_processes_at_once_land_once_per_ply() {
    let Some(t) = two("races::moves").await else {
        return;
    };
    let channels: Vec<u64> = (100..108).collect();
    for &ch in &channels {
        game(&t.a, ch, TimeControl::None).await;
    }
    let mut tasks = Vec::new();
    for &ch in &channels {
        let (a, b) = (t.a.clone(), t.b.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = fastrand::Rng::with_seed(ch);
            let mut landed = 0;
            for _ in 0..10 {
                let Some(game) = a.games().game_in_channel(ch).await.unwrap() else {
                    break;
                };
                if game.is_over() {
                    break;
                }
                let user = game.to_move().unwrap().user_id().unwrap();
                let moves = a.games().suggest_moves(ch, user, "", 400).await.unwrap();
                let m1 = moves[rng.usize(..moves.len())].clone();
                let m2 = moves[rng.usize(..moves.len())].clone();
                let (r1, r2) = tokio::join!(
                    a.games().play_move(ch, user, &m1, Answer::None),
                    b.games().play_move(ch, user, &m2, Answer::None)
                );
                let won = [&r1, &r2].iter().filter(|r| r.is_ok()).count();
                for r in [&r1, &r2] {
                    match r {
                        Ok(_)
                        | Err(ServiceError::PositionChanged)
                        | Err(ServiceError::NotYourTurn(_))
                        | Err(ServiceError::IllegalMove(_))
                        | Err(ServiceError::GameOver) => {}
                        Err(e) => panic!("unexpected: {e:?}"),
                    }
                }
                assert_eq!(
                    won, 1,
                    "exactly one of two moves for a ply lands: {r1:?} {r2:?}"
                );
                landed += 1;
            }
            (ch, landed)
        }));
    }
    for task in tasks {
        let (ch, landed) = task.await.unwrap();
        // The channel's game, running or ended (random moves may end it).
        let game = store::games::latest_in_channel(t.b.store().pool(), ch)
            .await
            .unwrap()
            .unwrap();
        let moves = store::moves::of_game(t.b.store().pool(), game.id)
            .await
            .unwrap();
        assert_eq!(
            moves.len(),
            landed,
            "every move that landed is stored, once"
        );
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m.ply as usize, i + 1);
        }
        // One notice per move, none for the refused ones.
        let notices = t.b.probe().notices_in(ch).await.unwrap();
        let move_notices = notices.iter().filter(|n| n.kind == "move").count();
        assert_eq!(move_notices, landed);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_challenge_accepted_in_two_processes_at_once_starts_one_game() {
    let Some(t) = two("races::accept").await else {
        return;
    };
    for ch in 200..212u64 {
        let c =
            t.a.games()
                .challenge(request(ch, TimeControl::None), None)
                .await
                .unwrap()
                .done
                .0;
        let (a, b) = (t.a.clone(), t.b.clone());
        let (r1, r2) = tokio::join!(
            async move { a.games().accept(c.id, BIRGER, None, None).await },
            async move { b.games().accept(c.id, BIRGER, None, None).await }
        );
        assert_eq!(
            [&r1, &r2].iter().filter(|r| r.is_ok()).count(),
            1,
            "one accept wins: {r1:?} {r2:?}"
        );
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE channel_id = $1")
            .bind(store::to_db(ch))
            .fetch_one(t.a.store().pool())
            .await
            .unwrap();
        assert_eq!(games, 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_clocks_remind_once_and_end_each_game_on_time_once() {
    let Some(t) = two("races::clocks").await else {
        return;
    };
    let per_move = Duration::from_secs(600);
    let n = 10u64;
    for ch in 300..300 + n {
        let c =
            t.a.games()
                .challenge(request(ch, TimeControl::PerMove(per_move)), None)
                .await
                .unwrap()
                .done
                .0;
        t.a.games().accept(c.id, BIRGER, None, None).await.unwrap();
    }
    let mut reminders = 0;
    let mut timeouts = 0;
    // Half the time, then near the end, then past it: each time both clocks tick at once.
    for at in [per_move / 2, per_move * 95 / 100, per_move * 2] {
        t.clock
            .advance(at - Duration::from_millis((t.clock.now_ms() - T0) as u64));
        let (a, b) = (t.a.clone(), t.b.clone());
        let (ea, eb) = tokio::join!(async move { a.game_clock().tick().await }, async move {
            b.game_clock().tick().await
        });
        for e in ea.unwrap().into_iter().chain(eb.unwrap()) {
            match e {
                ClockEvent::Reminder { .. } => reminders += 1,
                ClockEvent::TimedOut(_) => timeouts += 1,
                ClockEvent::ChallengeExpired(_) => panic!("no challenge was open"),
            }
        }
    }
    assert_eq!(reminders, 2 * n, "two reminders per game, each once");
    assert_eq!(timeouts, n, "each game lost on time once");
    let kinds: Vec<(String, i64)> =
        sqlx::query_as("SELECT kind, COUNT(*) FROM outbox GROUP BY kind ORDER BY kind")
            .fetch_all(t.a.store().pool())
            .await
            .unwrap();
    let count = |k: &str| kinds.iter().find(|(kind, _)| kind == k).map_or(0, |c| c.1);
    assert_eq!(count("reminder"), 2 * n as i64, "{kinds:?}");
    assert_eq!(count("timeout"), n as i64, "{kinds:?}");
    // The ratings changed once per game: each player has n rated games.
    for user in [ASTRID, BIRGER] {
        let p = store::players::get(
            t.b.store().pool(),
            GUILD,
            user,
            tablut_bot::tafl::Variant::Tablut.name(),
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(p.rated_games, n as u32);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_whose_clock_a_dead_process_claimed_is_looked_at_once_its_lease_ends() {
    let Some(t) = two("races::clock_lease").await else {
        return;
    };
    let per_move = Duration::from_secs(600);
    let c =
        t.a.games()
            .challenge(request(350, TimeControl::PerMove(per_move)), None)
            .await
            .unwrap()
            .done
            .0;
    let id =
        t.a.games()
            .accept(c.id, BIRGER, None, None)
            .await
            .unwrap()
            .done
            .game
            .id;
    // Half the time gone: a reminder is due. A process claims the game's clock (on the
    // database's clock, as the service does) and dies.
    t.clock.advance(per_move / 2);
    let now = t.a.database_now().await.unwrap();
    let until = now + CLOCK_CLAIM_LEASE.as_millis() as i64;
    assert!(store::games::claim_clock(
        t.a.store().lock().await.unwrap().ex(),
        id,
        "dead",
        now,
        until
    )
    .await
    .unwrap());
    let (a, b) = (t.a.clone(), t.b.clone());
    let (ea, eb) = tokio::join!(async move { a.game_clock().tick().await }, async move {
        b.game_clock().tick().await
    });
    assert!(ea.unwrap().is_empty() && eb.unwrap().is_empty(), "claimed");
    // At the lease's end the two clocks look again: one reminder, from one of them.
    t.advance_database_clock(CLOCK_CLAIM_LEASE);
    let (a, b) = (t.a.clone(), t.b.clone());
    let (ea, eb) = tokio::join!(async move { a.game_clock().tick().await }, async move {
        b.game_clock().tick().await
    });
    let events: Vec<_> = ea.unwrap().into_iter().chain(eb.unwrap()).collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(matches!(events[0], ClockEvent::Reminder { number: 1, .. }));
    // The claim was given up after the look: the next look needs no lease to end.
    t.clock.advance(per_move * 46 / 100);
    let events = t.b.game_clock().tick().await.unwrap();
    assert!(matches!(
        events[..],
        [ClockEvent::Reminder { number: 2, .. }]
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_ai_sweeps_play_each_ai_turn_once() {
    let Some(t) = two("races::ai").await else {
        return;
    };
    let mut ids = Vec::new();
    for ch in 400..406u64 {
        let started =
            t.a.games()
                .start_ai_game(
                    ai_game_request(
                        place(ch),
                        User::new(ASTRID, "Astrid"),
                        SideChoice::Defenders,
                        Level::Easy,
                    ),
                    None,
                )
                .await
                .unwrap()
                .done;
        ids.push((started.game.id, ch));
    }
    // Both processes find every owed turn and play it at once.
    let owed_a = t.a.ai().games_awaiting().await.unwrap();
    let owed_b = t.b.ai().games_awaiting().await.unwrap();
    assert_eq!(owed_a.len(), ids.len());
    assert_eq!(owed_a, owed_b);
    let mut tasks = Vec::new();
    for &(id, _) in &ids {
        for s in [t.a.clone(), t.b.clone()] {
            tasks.push(tokio::spawn(async move { s.ai().turn(id).await.unwrap() }));
        }
    }
    let mut played = 0;
    for task in tasks {
        played += usize::from(task.await.unwrap().is_some());
    }
    assert_eq!(played, ids.len(), "each AI turn is played once");
    assert_eq!(
        t.a.probe().ai_turn_searches() + t.b.probe().ai_turn_searches(),
        ids.len() as u64,
        "each AI turn is searched once, by the process that claimed it"
    );
    for (id, ch) in ids {
        let moves = store::moves::of_game(t.a.store().pool(), id).await.unwrap();
        assert_eq!(moves.len(), 1, "game {id}: the AI's one move");
        let notices = t.a.probe().notices_in(ch).await.unwrap();
        assert_eq!(notices.iter().filter(|n| n.kind == "move").count(), 1);
    }
    assert!(t.b.ai().games_awaiting().await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_ai_turn_claimed_by_a_dead_process_is_played_once_its_lease_ends() {
    let Some(t) = two("races::ai_lease").await else {
        return;
    };
    let started =
        t.a.games()
            .start_ai_game(
                ai_game_request(
                    place(450),
                    User::new(ASTRID, "Astrid"),
                    SideChoice::Defenders,
                    Level::Easy,
                ),
                None,
            )
            .await
            .unwrap()
            .done;
    let id = started.game.id;
    // A process claims the turn (as the service does, on the database's clock, for its
    // search's time and the margin) and dies before it moves.
    let lease = config().ai_time(Level::Easy) + tablut_bot::service::ai::AI_CLAIM_MARGIN;
    let now = t.a.database_now().await.unwrap();
    let until = now + lease.as_millis() as i64;
    assert!(store::games::claim_ai_turn(
        t.a.store().lock().await.unwrap().ex(),
        id,
        0,
        "dead",
        now,
        until
    )
    .await
    .unwrap());
    // While its lease lasts (a second of it left, for the looks below to take), neither
    // living process searches the turn.
    t.advance_database_clock(lease - Duration::from_secs(1));
    let (ra, rb) = tokio::join!(t.a.ai().turn(id), t.b.ai().turn(id));
    assert!(ra.unwrap().is_none() && rb.unwrap().is_none());
    assert_eq!(
        t.a.probe().ai_turn_searches() + t.b.probe().ai_turn_searches(),
        0
    );
    assert_eq!(
        t.b.ai().games_awaiting().await.unwrap().len(),
        1,
        "still owed"
    );
    // Once it ends, one of them plays it (and only one).
    t.advance_database_clock(Duration::from_secs(1));
    let (ra, rb) = tokio::join!(t.a.ai().turn(id), t.b.ai().turn(id));
    let played = usize::from(ra.unwrap().is_some()) + usize::from(rb.unwrap().is_some());
    assert_eq!(played, 1);
    assert_eq!(
        t.a.probe().ai_turn_searches() + t.b.probe().ai_turn_searches(),
        1
    );
    let moves = store::moves::of_game(t.a.store().pool(), id).await.unwrap();
    assert_eq!(moves.len(), 1, "the AI's one move");
    assert!(t.a.ai().games_awaiting().await.unwrap().is_empty());
}

/// A process whose AI pool is busy keeps its claim on a turn that waits in its queue past the
/// claim's first lease: the other process's sweep, trying the turn all along, never searches
/// it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_ai_turn_waiting_in_a_busy_queue_past_its_lease_is_searched_once() {
    // Real time: the lease, its renewals and the wait in the queue all run on the wall clock.
    let margin = Duration::from_millis(1500);
    let config = Config {
        // A's one worker is kept busy by a hint for at least half this long (a search starts
        // no new iteration after half its time).
        hint_time: Duration::from_secs(5),
        ai_claim_margin: margin,
        ..config()
    };
    let lease = config.ai_time(Level::Easy) + margin;
    let Some((_db, a, b)) = two_with("races::ai_busy", config, Arc::new(SystemClock)).await else {
        return;
    };
    let id = a
        .games()
        .start_ai_game(
            ai_game_request(
                place(460),
                User::new(ASTRID, "Astrid"),
                SideChoice::Defenders,
                Level::Easy,
            ),
            None,
        )
        .await
        .unwrap()
        .done
        .game
        .id;
    // A person's casual game in A (hints are for casual games) whose hint takes A's only
    // worker.
    let c = a
        .games()
        .challenge(
            ChallengeRequest {
                rated: false,
                ..request(461, TimeControl::None)
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    a.games().accept(c.id, BIRGER, None, None).await.unwrap();
    let hint = {
        let a = a.clone();
        tokio::spawn(async move { a.ai().hint(461, ASTRID).await })
    };
    until(|| a.probe().ai_pool_tables().1 == 1).await;
    // A claims the AI's turn and queues it behind the hint.
    let turn = {
        let a = a.clone();
        tokio::spawn(async move { a.ai().turn(id).await })
    };
    until(|| a.ai().waiting(id).is_some()).await;
    let queued = std::time::Instant::now();
    // B's sweep tries the turn over and over while it waits in A's queue and is searched.
    let mut waited = Duration::ZERO;
    let mut by_b = 0;
    while !turn.is_finished() {
        if a.ai().waiting(id).is_some() {
            waited = queued.elapsed();
        }
        for (owed, _) in b.ai().games_awaiting().await.unwrap() {
            if owed == id && b.ai().turn(id).await.unwrap().is_some() {
                by_b += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(queued.elapsed() < Duration::from_secs(60), "the turn ended");
    }
    let by_a = turn.await.unwrap().unwrap();
    hint.await.unwrap().unwrap();
    assert!(
        waited > lease + Duration::from_millis(200),
        "the turn waited in A's queue for {waited:?}, longer than its first lease ({lease:?})"
    );
    assert_eq!(by_b, 0, "B never played the turn A holds");
    assert!(by_a.is_some(), "A played it");
    assert_eq!(
        a.probe().ai_turn_searches() + b.probe().ai_turn_searches(),
        1,
        "the turn was searched once, by A (A: {}, B: {})",
        a.probe().ai_turn_searches(),
        b.probe().ai_turn_searches()
    );
    let moves = store::moves::of_game(a.store().pool(), id).await.unwrap();
    assert_eq!(moves.len(), 1, "the AI's one move");
    let notices = a.probe().notices_in(460).await.unwrap();
    assert_eq!(notices.iter().filter(|n| n.kind == "move").count(), 1);
    assert!(b.ai().games_awaiting().await.unwrap().is_empty());
}

/// Waits (up to 30 s) until `done` holds.
async fn until(done: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(30), "timed out");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_dispatchers_deliver_each_notice_once() {
    let Some(t) = two("races::dispatchers").await else {
        return;
    };
    // Notices in 12 channels, several in each (a challenge, the start, moves).
    for ch in 500..512u64 {
        game(&t.a, ch, TimeControl::None).await;
        t.a.games()
            .play_move(ch, ASTRID, "d1-d3", Answer::None)
            .await
            .unwrap();
        t.b.games()
            .play_move(ch, BIRGER, "e3-d3", Answer::None)
            .await
            .ok();
    }
    let pending: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE status IN ('pending', 'held')")
            .fetch_one(t.a.store().pool())
            .await
            .unwrap();
    assert!(pending >= 12, "{pending}");
    // Past every hold: all are due. A fake sender counts what each dispatcher "posted".
    let at = t.a.database_now().await.unwrap() + 3_600_000;
    let sent: Arc<std::sync::Mutex<HashMap<i64, u32>>> = Arc::default();
    let mut tasks = Vec::new();
    for s in [t.a.clone(), t.b.clone()] {
        let sent = sent.clone();
        tasks.push(tokio::spawn(async move {
            let mut empty_rounds = 0;
            while empty_rounds < 3 {
                let due = s.outbox().claim(at, 4).await.unwrap();
                if due.is_empty() {
                    empty_rounds += 1;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                empty_rounds = 0;
                for notice in due {
                    *sent.lock().unwrap().entry(notice.id).or_default() += 1;
                    tokio::task::yield_now().await;
                    s.outbox()
                        .news_delivered(&notice, Some(notice.id as u64))
                        .await
                        .unwrap();
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let sent = sent.lock().unwrap().clone();
    assert_eq!(sent.len() as i64, pending, "every notice was delivered");
    assert!(
        sent.values().all(|&n| n == 1),
        "each notice was delivered once: {sent:?}"
    );
    let left: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE status NOT IN ('delivered', 'failed')",
    )
    .fetch_one(t.a.store().pool())
    .await
    .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_games_of_one_player_ending_at_once_are_both_rated() {
    let Some(t) = two("races::ratings").await else {
        return;
    };
    let won_once = rate_game(Rating::default(), Rating::default(), Score::Win).0;
    let won_twice = rate_game(won_once, Rating::default(), Score::Win).0;
    for round in 0..6u64 {
        // Carl plays Dagny in one channel and Einar in another; both resign at once, each
        // through another process.
        let carl = User::new(1_000 + round, "Carl");
        let mut games = Vec::new();
        for (i, opponent) in [
            User::new(2_000 + round, "Dagny"),
            User::new(3_000 + round, "Einar"),
        ]
        .into_iter()
        .enumerate()
        {
            let channel = 600 + 10 * round + i as u64;
            let c =
                t.a.games()
                    .challenge(
                        ChallengeRequest {
                            challenger: carl.clone(),
                            opponent: opponent.clone(),
                            ..request(channel, TimeControl::None)
                        },
                        None,
                    )
                    .await
                    .unwrap()
                    .done
                    .0;
            t.a.games()
                .accept(c.id, opponent.id, None, None)
                .await
                .unwrap();
            games.push((channel, opponent.id));
        }
        let (a, b) = (t.a.clone(), t.b.clone());
        let ((c1, u1), (c2, u2)) = (games[0], games[1]);
        let (r1, r2) = tokio::join!(
            async move { a.games().resign(c1, u1, None).await },
            async move { b.games().resign(c2, u2, None).await }
        );
        r1.unwrap();
        r2.unwrap();
        let stored = store::players::get(
            t.a.store().pool(),
            GUILD,
            carl.id,
            tablut_bot::tafl::Variant::Tablut.name(),
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(stored.rated_games, 2);
        assert!(
            (stored.rating.rating - won_twice.rating).abs() < 1e-9
                && (stored.rating.deviation - won_twice.deviation).abs() < 1e-9,
            "round {round}: both wins counted: {:?}, not {:?} (one lost)",
            stored.rating,
            won_once
        );
    }
}

/// A process whose clock is `.0` ahead of the system's.
struct Ahead(Duration);

impl Clock for Ahead {
    fn now_ms(&self) -> i64 {
        SystemClock.now_ms() + self.0.as_millis() as i64
    }
}

/// The moves a channel's posts announce (`… played **d1-d3** …`), in order.
fn posted_moves(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    fake.shown(channel)
        .iter()
        .filter_map(|r| {
            let content = r.content();
            let rest = &content[content.find(" played **")? + " played **".len()..];
            Some(rest[..rest.find("**")?].to_string())
        })
        .collect()
}

/// A legal move after `moves` that does not end the game.
fn quiet_move(moves: &[String]) -> String {
    let mut game = Game::new(Rules::default());
    for m in moves {
        game.play_text(m).unwrap();
    }
    let quiet: Vec<_> = game
        .position()
        .legal_moves_sorted()
        .into_iter()
        .filter(|&mv| {
            let mut after = game.clone();
            after.play(mv).unwrap();
            !after.outcome().is_over()
        })
        .collect();
    quiet[(moves.len() * 7 + 3) % quiet.len()].to_string()
}

/// Two processes whose clocks are a minute apart, each with its dispatcher posting to one fake
/// Discord, on one PostgreSQL database. Every AI turn is tried by both at once, and every
/// notice is there for both dispatchers to claim: the AI searches each turn once, and each
/// channel shows each move once, in order, because every lease and claim is measured on the
/// database's clock. (On its own clock the process a minute ahead would find every claim of
/// the other's expired, and search its turns too.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_whose_clocks_are_a_minute_apart_double_and_lose_nothing() {
    let Some(db) = TestDb::new(Backend::Postgres, "races::skew").await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let policy = DeliveryPolicy {
        times: OutboxTimes {
            answer_grace: Duration::from_millis(1800),
            retention: Duration::from_secs(3600),
            claim_lease: Duration::from_millis(2600),
        },
        retry_min: Duration::from_millis(50),
        retry_max: Duration::from_secs(1),
        give_up: Duration::from_secs(600),
    };
    let mut processes = Vec::new();
    let mut dispatchers = Vec::new();
    let clocks: [Arc<dyn Clock>; 2] = [
        Arc::new(SystemClock),
        Arc::new(Ahead(Duration::from_secs(60))),
    ];
    for clock in clocks {
        let service = Service::open(&db.url, config(), clock)
            .await
            .unwrap()
            .with_delivery(policy);
        let service = Arc::new(service);
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap();
        let poster = Poster::new(client, TOKEN, Some(&fake.base_url));
        dispatchers.push(delivery::start(service.clone(), Arc::new(poster), policy));
        processes.push(service);
    }
    let (a, b) = (processes[0].clone(), processes[1].clone());
    // A player of her own in each channel: the AI's cooldown between one player's games reads
    // the game clock, which differs between the two processes.
    let channels: Vec<u64> = (700..710).collect();
    let player = |channel: u64| 5_000 + channel;
    let mut games = Vec::new();
    for (i, &channel) in channels.iter().enumerate() {
        let by = if i % 2 == 0 { &a } else { &b };
        let started = by
            .games()
            .start_ai_game(
                ai_game_request(
                    place(channel),
                    User::new(player(channel), "Astrid"),
                    SideChoice::Defenders,
                    Level::Easy,
                ),
                None,
            )
            .await
            .unwrap()
            .done;
        games.push(started.game.id);
    }
    // Three rounds: the AI's turn, tried by both processes at once, then Astrid's move,
    // through one or the other.
    let mut ai_moves = 0;
    for round in 0..3 {
        for (i, (&channel, &id)) in channels.iter().zip(&games).enumerate() {
            let (x, y) = (a.clone(), b.clone());
            let (ra, rb) = tokio::join!(async move { x.ai().turn(id).await }, async move {
                y.ai().turn(id).await
            });
            let played = usize::from(ra.unwrap().is_some()) + usize::from(rb.unwrap().is_some());
            assert_eq!(played, 1, "round {round}, channel {channel}");
            ai_moves += 1;
            let moves = a.games().history(channel).await.unwrap().moves;
            let by = if (i + round) % 2 == 0 { &b } else { &a };
            by.games()
                .play_move(channel, player(channel), &quiet_move(&moves), Answer::None)
                .await
                .unwrap();
        }
    }
    assert_eq!(
        a.probe().ai_turn_searches() + b.probe().ai_turn_searches(),
        ai_moves,
        "each AI turn searched once"
    );
    // Every move shown once, in order, in every channel; every notice delivered.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    for &channel in &channels {
        loop {
            let stored = a.games().history(channel).await.unwrap().moves;
            let shown = posted_moves(&fake, channel);
            assert!(
                stored.starts_with(&shown),
                "channel {channel}: shown {shown:?}, stored {stored:?}"
            );
            let notices = a.probe().notices_in(channel).await.unwrap();
            if shown == stored && notices.iter().all(|n| n.status == NoticeStatus::Delivered) {
                assert_eq!(stored.len(), 6);
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "channel {channel}: shown {shown:?}, stored {stored:?}, {notices:#?}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
    for dispatcher in dispatchers {
        dispatcher.stop(Duration::from_secs(10)).await;
    }
}

/// Both processes' clock sweeps at once; what they did, together.
async fn both_tick(a: &Service, b: &Service) -> Vec<ClockEvent> {
    let (ea, eb) = tokio::join!(a.game_clock().tick(), b.game_clock().tick());
    let mut events = ea.unwrap();
    events.extend(eb.unwrap());
    events
}

/// Two processes whose own clocks are a minute apart (one 30 s behind the database's, one 30 s
/// ahead) agree on every time the game's clock keeps, because each is measured on the
/// database's clock: a turn's deadline and a challenge's expiry are the same whichever process
/// writes them; a reminder goes out once, when half the time is gone and not a moment before
/// (the process ahead would send it 30 s early on its own clock); a challenge expires once, at
/// its time; a player loses on time once, exactly at the deadline; the heartbeat and the
/// downtime it finds are the database's times. The database's time is set by hand (frozen
/// between the test's moves), so every time here is exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_whose_clocks_are_a_minute_apart_agree_on_deadlines_reminders_and_expiry() {
    let Some(db) = TestDb::new(Backend::Postgres, "races::skew_time").await else {
        return;
    };
    let database = ManualClock::new(T0);
    let behind = database.skewed(-30_000);
    let ahead = database.skewed(30_000);
    assert_eq!(ahead.now_ms() - behind.now_ms(), 60_000);
    let a = Service::open(&db.url, config(), Arc::new(behind))
        .await
        .unwrap();
    let b = Service::open(&db.url, config(), Arc::new(ahead))
        .await
        .unwrap();
    let per_move = Duration::from_secs(3600);
    let per_move_ms = per_move.as_millis() as i64;
    let ttl = config().challenge_ttl.as_millis() as i64;

    // The heartbeat: each process's beat is the database's time, not its own.
    a.game_clock()
        .keep_alive(Duration::from_secs(10))
        .await
        .unwrap();
    b.game_clock()
        .keep_alive(Duration::from_secs(10))
        .await
        .unwrap();
    let alive = store::heartbeat::alive_at(a.store().pool()).await.unwrap();
    assert_eq!(alive, Some(T0), "the last beat, on the database's clock");

    // A game between two people: challenged through A, accepted through B. Its deadline is the
    // database's time plus the time per move, whichever process writes it.
    let (c, _) = a
        .games()
        .challenge(request(800, TimeControl::PerMove(per_move)), None)
        .await
        .unwrap()
        .done;
    assert_eq!(c.expires_at, T0 + ttl);
    let started = b
        .games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done
        .game;
    assert_eq!(started.turn_deadline, Some(T0 + per_move_ms));
    database.advance(Duration::from_secs(5));
    let moved = b
        .games()
        .play_move(800, ASTRID, "d1-d3", Answer::None)
        .await
        .unwrap()
        .done;
    let deadline = T0 + 5_000 + per_move_ms;
    assert_eq!(moved.game.turn_deadline, Some(deadline));
    // Shown at once (the database's time is frozen here): Birger's time runs from then.
    crate::support::news_shown(&a, 800).await;
    // A challenge opened through B, a minute ahead: it expires a day after the database's now.
    let (open, _) = b
        .games()
        .challenge(request(801, TimeControl::None), None)
        .await
        .unwrap()
        .done;
    let expires = T0 + 5_000 + ttl;
    assert_eq!(open.expires_at, expires);
    // A draw offer, written through B, is dated by the database too.
    let (offered, _) = b.games().offer_draw(800, ASTRID, None).await.unwrap().done;
    let offered_at: i64 =
        sqlx::query_scalar("SELECT created_at FROM draw_offers WHERE game_id = $1")
            .bind(offered.id)
            .fetch_one(a.store().pool())
            .await
            .unwrap();
    assert_eq!(offered_at, T0 + 5_000);

    // The first reminder: not a millisecond before half the time is gone, then once.
    let half = deadline - per_move_ms / 2;
    database.set(half - 1);
    assert!(both_tick(&a, &b).await.is_empty(), "nothing is due yet");
    database.set(half);
    let events = both_tick(&a, &b).await;
    let [ClockEvent::Reminder {
        number: 1,
        remaining,
        user,
        ..
    }] = events.as_slice()
    else {
        panic!("one first reminder: {events:?}");
    };
    assert_eq!(*remaining, per_move / 2);
    assert_eq!(*user, BIRGER);
    assert!(both_tick(&a, &b).await.is_empty(), "sent once");

    // The second, when a tenth of the time is left.
    let last = deadline - per_move_ms / timecontrol::LAST_REMINDER_FRACTION;
    database.set(last - 1);
    assert!(both_tick(&a, &b).await.is_empty());
    database.set(last);
    let events = both_tick(&a, &b).await;
    assert!(
        matches!(events.as_slice(), [ClockEvent::Reminder { number: 2, remaining, .. }] if *remaining == per_move / 10),
        "one second reminder: {events:?}"
    );
    assert!(both_tick(&a, &b).await.is_empty(), "sent once");

    // The loss on time: exactly at the deadline, once.
    database.set(deadline - 1);
    assert!(
        both_tick(&a, &b).await.is_empty(),
        "not lost before the deadline"
    );
    database.set(deadline);
    let events = both_tick(&a, &b).await;
    let [ClockEvent::TimedOut(ended)] = events.as_slice() else {
        panic!("one loss on time: {events:?}");
    };
    assert_eq!(ended.game.id, started.id);
    assert!(both_tick(&a, &b).await.is_empty(), "decided once");
    let row = store::games::by_id(a.store().pool(), started.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.ended_at, Some(deadline), "ended at the deadline");
    assert_eq!(row.reason.as_deref(), Some("timeout"));

    // The open challenge: not a millisecond early (the process ahead would close it 30 s
    // early on its own clock), then once.
    database.set(expires - 1);
    assert!(both_tick(&a, &b).await.is_empty(), "still open");
    database.set(expires);
    let events = both_tick(&a, &b).await;
    assert!(
        matches!(events.as_slice(), [ClockEvent::ChallengeExpired(c)] if c.id == open.id),
        "one expiry: {events:?}"
    );
    assert!(both_tick(&a, &b).await.is_empty(), "expired once");

    // The outbox holds each reminder once.
    let kinds: Vec<String> = a
        .probe()
        .notices_in(800)
        .await
        .unwrap()
        .into_iter()
        .map(|n| n.kind)
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| *k == "reminder").count(),
        2,
        "{kinds:?}"
    );

    // Downtime: no beat for longer than the promise; the first start after it, through either
    // process, gives back exactly the database's time since the last beat, once.
    database.set(expires + 3_600_000);
    let (ra, rb) = tokio::join!(
        a.game_clock().resume(Duration::from_secs(10)),
        b.game_clock().resume(Duration::from_secs(10))
    );
    let given: Vec<Downtime> = [ra.unwrap(), rb.unwrap()].into_iter().flatten().collect();
    assert_eq!(given.len(), 1, "claimed once: {given:?}");
    assert_eq!(
        given[0].away,
        Duration::from_millis((expires + 3_600_000 - T0) as u64)
    );
    a.close().await;
    b.close().await;
}

/// A channel's news in the game's order across two processes: the AI's move, written and
/// claimed by process A (its post under way), is news the channel owes as process B sees it; a
/// player's move B commits for a command's response is posted after it instead, and no
/// dispatcher takes it before A records the AI's move shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_sent_to_another_process_while_the_ais_is_posted_is_shown_after_it() {
    let Some(t) = two("races::news_order").await else {
        return;
    };
    let astrid = User::new(ASTRID, "Astrid");
    // Her turn notifications off: the channel's notices alone are in the outbox.
    let off = tablut_bot::service::notify::NotifyMode::Off;
    t.a.notifications().set(ASTRID, off).await.unwrap();
    let request = ai_game_request(place(360), astrid, SideChoice::Defenders, Level::Easy);
    let game =
        t.a.games()
            .start_ai_game(request, None)
            .await
            .unwrap()
            .done
            .game;
    let reply = t.a.ai().turn(game.id).await.unwrap().unwrap();
    let now = t.a.database_now().await.unwrap();
    let claimed = t.a.outbox().claim(now, 10).await.unwrap();
    let ids = |notices: &[Notice]| notices.iter().map(|n| n.id).collect::<Vec<_>>();
    assert_eq!(ids(&claimed), [reply.notice]);
    assert!(
        t.b.outbox().owes(360).await.unwrap(),
        "owed while A posts it"
    );
    let moves = t.b.games().suggest_moves(360, ASTRID, "", 1).await.unwrap();
    let answer = Answer::Command(delivery::answer_ref(1, "token"));
    let mine =
        t.b.games()
            .play_move(360, ASTRID, &moves[0], answer)
            .await
            .unwrap()
            .done;
    let notice = t.b.probe().notice(mine.notice).await.unwrap().unwrap();
    assert!(
        notice.payload.answer == Answer::None,
        "posted, not shown in B's response"
    );
    assert!(
        t.b.outbox().claim(now, 10).await.unwrap().is_empty(),
        "behind the AI's move"
    );
    t.a.outbox()
        .news_delivered(&claimed[0], Some(1))
        .await
        .unwrap();
    let next = t.b.outbox().claim(now, 10).await.unwrap();
    assert_eq!(ids(&next), [mine.notice]);
}

/// A notice's claim outlives its attempt: process A claims a notice whose board it draws
/// slowly (its heavy-work gate held, many leases long), and renews the claim meanwhile, so
/// process B, whose dispatcher runs on the same database, never takes it; once drawn, it is
/// posted once, by A. (Without the renewal B would take it at the lease's end and post it too,
/// and A's late attempt would then write over B's claim; `tests/service/outbox.rs` checks that a
/// late attempt settles nothing.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_claim_outlives_its_attempts_slow_drawing() {
    let Some(db) = TestDb::new(Backend::Postgres, "races::slow_drawing").await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let lease = Duration::from_millis(900);
    let policy = DeliveryPolicy {
        times: OutboxTimes {
            answer_grace: Duration::from_secs(1),
            retention: Duration::from_secs(3600),
            claim_lease: lease,
        },
        retry_min: Duration::from_millis(50),
        retry_max: Duration::from_secs(1),
        give_up: Duration::from_secs(600),
    };
    let config = Config {
        images: true,
        heavy_workers: 1,
        ..config()
    };
    let open = || async {
        let service = Service::open(&db.url, config.clone(), Arc::new(SystemClock))
            .await
            .unwrap()
            .with_delivery(policy);
        Arc::new(service)
    };
    let (a, b) = (open().await, open().await);
    let dispatcher = |service: &Arc<Service>| {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap();
        let poster = Poster::new(client, TOKEN, Some(&fake.base_url));
        delivery::start(service.clone(), Arc::new(poster), policy)
    };
    // The AI's move, with its board, owed to the channel.
    let request = ai_game_request(
        place(780),
        User::new(ASTRID, "Astrid"),
        SideChoice::Defenders,
        Level::Easy,
    );
    let started = a.games().start_ai_game(request, None).await.unwrap().done;
    a.ai().turn(started.game.id).await.unwrap().unwrap();
    // A's only worker drawing something else until let go: its boards wait.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let gate = a.probe().heavy_gate().clone();
    let drawing = tokio::spawn(async move { gate.run_board(move || held.recv()).await });
    until(|| a.probe().heavy_stats().running == 1).await;
    let first = dispatcher(&a);
    // A claims the game's start, whose board it cannot draw yet...
    let claimed = {
        let waiting = std::time::Instant::now();
        loop {
            let notices = a.probe().notices_in(780).await.unwrap();
            let board = notices
                .into_iter()
                .find(|n| n.status == NoticeStatus::Claimed && n.payload.contains("\"board\""));
            if let Some(notice) = board {
                break notice;
            }
            assert!(
                waiting.elapsed() < Duration::from_secs(30),
                "not claimed: {:#?}",
                a.probe().notices_in(780).await.unwrap()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    // ...while B's dispatcher looks at the outbox each time that claim's lease would end.
    let second = dispatcher(&b);
    let renewed_past = claimed.next_attempt_at + 3 * lease.as_millis() as i64;
    let waiting = std::time::Instant::now();
    loop {
        let notices = a.probe().notices_in(780).await.unwrap();
        let row = notices.iter().find(|n| n.id == claimed.id).unwrap();
        assert_eq!(row.status, NoticeStatus::Claimed);
        assert_eq!(row.attempts, claimed.attempts, "claimed once");
        if row.next_attempt_at >= renewed_past {
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(30), "not renewed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let posted = |nonce: &str| {
        (fake.requests().iter())
            .filter(|r| r.method == "POST" && r.json["nonce"] == nonce)
            .count()
    };
    assert_eq!(posted(&claimed.nonce), 0, "nobody posted it while A draws");
    // Drawn: posted once, and every notice of the channel delivered once.
    release.send(()).unwrap();
    drawing.await.unwrap().unwrap().unwrap();
    let waiting = std::time::Instant::now();
    loop {
        let notices = a.probe().notices_in(780).await.unwrap();
        if notices.iter().all(|n| n.status == NoticeStatus::Delivered) {
            assert!(notices.iter().all(|n| n.attempts == 1), "{notices:#?}");
            assert_eq!(posted(&claimed.nonce), 1);
            break;
        }
        assert!(waiting.elapsed() < Duration::from_secs(30), "{notices:#?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.stop(Duration::from_secs(10)).await;
    second.stop(Duration::from_secs(10)).await;
}

/// Two services on one fresh database of `backend` (a SQLite file both open, or PostgreSQL),
/// with the races' configuration and the system's clock.
async fn two_on(backend: Backend, test: &str) -> Option<(TestDb, Arc<Service>, Arc<Service>)> {
    let db = TestDb::new(backend, test).await?;
    let open = || Service::open(&db.url, config(), Arc::new(SystemClock));
    let (a, b) = (open().await.unwrap(), open().await.unwrap());
    Some((db, Arc::new(a), Arc::new(b)))
}

/// The kinds and news of a channel's notices, in order.
async fn tournament_news(s: &Service, channel: u64) -> Vec<(String, tournament::TournamentNews)> {
    (s.probe().notices_in(channel).await.unwrap().into_iter())
        .filter_map(|n| {
            let payload: Payload = serde_json::from_str(&n.payload).unwrap();
            match payload.news {
                Some(News::Tournament(news)) => Some((n.kind, news)),
                _ => None,
            }
        })
        .collect()
}

/// Starts every match game of round `round` whose thread the hall's notices owe (the thread
/// "made" as the dispatcher makes it, its id 1 000 000 plus the slot), in order.
async fn open_round(s: &Service, hall: u64, round: u32) -> Vec<(tournament::MatchGame, GameInfo)> {
    let mut opened = Vec::new();
    for (_, news) in tournament_news(s, hall).await {
        if let tournament::TournamentNews::Thread(game) = news {
            if game.round != round {
                continue;
            }
            let thread = 1_000_000 + game.slot as u64;
            let info = s.tournaments().open_game(&game, thread).await.unwrap();
            opened.push((game, info.expect("the game starts in its thread")));
        }
    }
    opened
}

/// Round robins of four played by two processes (two services on one database), the last
/// games of round 1 ended at once, one in each: by the two matches' second games, or by both
/// games of one match. Round 2 is paired exactly once (its matches, its four threads owed, its
/// post), whichever transaction ends last. The events are casual, so that no rating row makes
/// the two ends take turns.
async fn the_last_games_of_a_round_ended_in_two_processes_pair_the_next_once(backend: Backend) {
    use tournament::*;
    let Some((_db, a, b)) = two_on(backend, "races::tournament_round").await else {
        return;
    };
    let organiser = Member {
        user: User::new(42, "Org"),
        manage_server: true,
        roles: Vec::new(),
    };
    let names = ["Astrid", "Birger", "Carl", "Dagny"];
    for event in 0..8u64 {
        let hall = 700 + event;
        let created = a
            .tournaments()
            .create(TournamentRequest {
                guild: GUILD,
                channel: hall,
                organiser: organiser.clone(),
                name: format!("Race {event}"),
                rules: Rules::default(),
                format: TournamentFormat::RoundRobin,
                time_control: TimeControl::None,
                rated: false,
                seats: 4,
                signup_for: None,
            })
            .await
            .unwrap();
        let id = Some(created.id);
        for (i, name) in names.iter().enumerate() {
            let user = User::new(ASTRID + 10 * event + i as u64, *name);
            a.tournaments().join(GUILD, id, user).await.unwrap();
        }
        a.tournaments().start(GUILD, id, &organiser).await.unwrap();
        let games = open_round(&a, hall, 1).await;
        assert_eq!(games.len(), 4, "two matches of two games");
        // The first seat resigns every game: each ended by its loser in its thread.
        let resign = |s: Arc<Service>, (game, info): (MatchGame, GameInfo)| async move {
            s.games()
                .resign(info.place.channel, game.first.id, None)
                .await
        };
        let (first, last) = if event % 2 == 0 {
            // One game of each match first; the two matches' second games at once.
            ([&games[0], &games[2]], [&games[1], &games[3]])
        } else {
            // The first match first; both games of the second at once.
            ([&games[0], &games[1]], [&games[2], &games[3]])
        };
        for g in first {
            resign(a.clone(), g.clone()).await.unwrap();
        }
        let (r1, r2) = tokio::join!(
            tokio::spawn(resign(a.clone(), last[0].clone())),
            tokio::spawn(resign(b.clone(), last[1].clone())),
        );
        r1.unwrap().unwrap();
        r2.unwrap().unwrap();
        let view = b.tournaments().view(GUILD, id).await.unwrap();
        assert_eq!(view.info.round, 2, "event {event}: round 2 paired");
        assert_eq!(view.rounds.len(), 2, "event {event}");
        assert_eq!(
            view.rounds[1].len(),
            2,
            "event {event}: two matches in round 2"
        );
        let told = tournament_news(&a, hall).await;
        let count = |kind: &str| told.iter().filter(|(k, _)| k == kind).count();
        assert_eq!(
            count("tournament_round"),
            2,
            "event {event}: one post a round"
        );
        assert_eq!(
            count("tournament_thread"),
            8,
            "event {event}: four threads a round"
        );
        let round2 = open_round(&b, hall, 2).await;
        assert_eq!(round2.len(), 4, "event {event}");
        let mut pairs: Vec<(u64, u64)> = (round2.iter())
            .map(|(g, _)| (g.first.id.min(g.second.id), g.first.id.max(g.second.id)))
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(
            pairs.len(),
            2,
            "event {event}: each pair's match once: {pairs:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_games_of_a_round_ended_in_two_processes_pair_the_next_once_on_postgres() {
    the_last_games_of_a_round_ended_in_two_processes_pair_the_next_once(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_last_games_of_a_round_ended_in_two_processes_pair_the_next_once_on_sqlite() {
    the_last_games_of_a_round_ended_in_two_processes_pair_the_next_once(Backend::Sqlite).await;
}

/// Members joining an event of four seats at once through two processes: four are in, the
/// others refused as the event is full, and the announcement's list says the four.
async fn joins_at_once_in_two_processes_fill_the_seats_and_no_more(backend: Backend) {
    use tournament::*;
    let Some((_db, a, b)) = two_on(backend, "races::tournament_joins").await else {
        return;
    };
    for event in 0..4u64 {
        let created = a
            .tournaments()
            .create(TournamentRequest {
                guild: GUILD,
                channel: 800 + event,
                organiser: Member {
                    user: User::new(42, "Org"),
                    manage_server: true,
                    roles: Vec::new(),
                },
                name: format!("Full {event}"),
                rules: Rules::default(),
                format: TournamentFormat::RoundRobin,
                time_control: TimeControl::None,
                rated: false,
                seats: 4,
                signup_for: None,
            })
            .await
            .unwrap();
        let joins = (0..10u64).map(|i| {
            let s = if i % 2 == 0 { a.clone() } else { b.clone() };
            let user = User::new(ASTRID + 100 * event + i, format!("Member {i}"));
            tokio::spawn(async move { s.tournaments().join(GUILD, Some(created.id), user).await })
        });
        let mut joined = 0;
        for join in joins.collect::<Vec<_>>() {
            match join.await.unwrap() {
                Ok(_) => joined += 1,
                Err(ServiceError::Tournament(TournamentRefusal::Full { seats: 4 })) => {}
                Err(other) => panic!("event {event}: {other:?}"),
            }
        }
        assert_eq!(joined, 4, "event {event}");
        let view = a.tournaments().view(GUILD, Some(created.id)).await.unwrap();
        assert_eq!(view.info.entrants.len(), 4, "event {event}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn joins_at_once_in_two_processes_fill_the_seats_and_no_more_on_postgres() {
    joins_at_once_in_two_processes_fill_the_seats_and_no_more(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn joins_at_once_in_two_processes_fill_the_seats_and_no_more_on_sqlite() {
    joins_at_once_in_two_processes_fill_the_seats_and_no_more(Backend::Sqlite).await;
}

/// Two tournaments of one name in one channel, each with a match game whose thread's answer
/// was lost, adopt a thread at once through two processes, among the same threads found by
/// that name: each takes a thread of its own, never the same one.
async fn twin_tournaments_adopting_threads_at_once_take_one_each(backend: Backend) {
    use tournament::*;
    let Some((_db, a, b)) = two_on(backend, "races::tournament_adopt").await else {
        return;
    };
    let organiser = Member {
        user: User::new(42, "Org"),
        manage_server: true,
        roles: Vec::new(),
    };
    for event in 0..10u64 {
        let hall = 900 + event;
        let mut slots = Vec::new();
        for twin in 0..2u64 {
            let created = a
                .tournaments()
                .create(TournamentRequest {
                    guild: GUILD,
                    channel: hall,
                    organiser: organiser.clone(),
                    name: "Twin Cup".into(),
                    rules: Rules::default(),
                    format: TournamentFormat::RoundRobin,
                    time_control: TimeControl::None,
                    rated: false,
                    seats: 2,
                    signup_for: None,
                })
                .await
                .unwrap();
            let id = Some(created.id);
            for (i, name) in ["Astrid", "Birger"].iter().enumerate() {
                let user = User::new(ASTRID + 100 * event + 10 * twin + i as u64, *name);
                a.tournaments().join(GUILD, id, user).await.unwrap();
            }
            a.tournaments().start(GUILD, id, &organiser).await.unwrap();
            let owed = (tournament_news(&a, hall).await.into_iter())
                .filter_map(|(_, news)| match news {
                    TournamentNews::Thread(game) if game.tournament == created.id => Some(game),
                    _ => None,
                })
                .find(|game| game.leg == 1)
                .expect("a match game owed its thread");
            slots.push(owed.slot);
        }
        let found = [7_000 + 10 * event, 7_001 + 10 * event];
        let adopt = |s: Arc<Service>, slot: i64| async move {
            s.tournaments().adopt_thread(slot, &found).await
        };
        let (one, two) = tokio::join!(
            tokio::spawn(adopt(a.clone(), slots[0])),
            tokio::spawn(adopt(b.clone(), slots[1])),
        );
        let got = [one.unwrap().unwrap(), two.unwrap().unwrap()];
        let mut taken = got;
        taken.sort();
        assert_eq!(taken, found.map(Some), "event {event}: a thread each");
        for (slot, thread) in slots.into_iter().zip(got) {
            let recorded = a.tournaments().thread_of(slot).await.unwrap();
            assert_eq!(recorded, thread, "event {event}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twin_tournaments_adopting_threads_at_once_take_one_each_on_postgres() {
    twin_tournaments_adopting_threads_at_once_take_one_each(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twin_tournaments_adopting_threads_at_once_take_one_each_on_sqlite() {
    twin_tournaments_adopting_threads_at_once_take_one_each(Backend::Sqlite).await;
}
