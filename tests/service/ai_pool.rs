//! The AI as a shared resource, through the service on real SQLite files: its pool serves
//! users fairly, refuses beyond its limits with one line, keeps no more tables than workers,
//! and loses no AI turn to a restart or an abandoned request.

use crate::support::fixture::{ai_game_request, Fixture};
use crate::support::{until, until_async};
use std::time::Duration;
use tablut_bot::ai::queue::Class;
use tablut_bot::ai::Level;
use tablut_bot::service::*;

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
const CARL: u64 = 3;

fn config(workers: usize, hard_ms: u64) -> Config {
    Config {
        ai_time: [
            Duration::from_millis(50),
            Duration::from_millis(50),
            Duration::from_millis(hard_ms),
        ],
        hint_time: Duration::from_millis(50),
        images: false,
        ai_workers: workers,
        ai_tt_mb: 2,
        ai_games_per_user: 20,
        ai_game_cooldown: Duration::ZERO,
        ..Config::default()
    }
}

async fn fixture(config: Config) -> Fixture {
    Fixture::sqlite(config).await
}

/// `user` starts a game against the AI at `level` in `channel` of `guild`; `ai_first`: the AI
/// attacks and is to move.
fn request(guild: u64, channel: u64, user: u64, level: Level, ai_first: bool) -> AiGameRequest {
    let side = if ai_first {
        SideChoice::Defenders
    } else {
        SideChoice::Attackers
    };
    ai_game_request(
        Place {
            guild: Some(guild),
            channel,
        },
        User::new(user, format!("user {user}")),
        side,
        level,
    )
}

async fn start(s: &Service, channel: u64, user: u64, level: Level) -> GameId {
    s.games()
        .start_ai_game(request(GUILD, channel, user, level, true), None)
        .await
        .unwrap()
        .done
        .game
        .id
}

/// Occupies one of the pool's workers with a task of `owner`'s (served in the queue's order as
/// any move) until the returned sender is dropped; returns once a worker runs it. The queue
/// behind it stays still for as long as the test needs, however fast or slow the machine.
fn hold_worker(s: &Service, owner: u64) -> (std::sync::mpsc::Sender<()>, Held) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel();
    s.probe()
        .ai_pool()
        .submit_task(owner, Class::Play, move || {
            let _ = started.send(());
            // Until the sender is dropped.
            let _ = held.recv();
        });
    (release, Held(running))
}

/// A held worker's task, to await until a worker runs it.
struct Held(tokio::sync::oneshot::Receiver<()>);

impl Held {
    async fn running(self) {
        self.0.await.expect("a worker takes the task");
    }
}

/// Holds a worker (see [`hold_worker`]) once it runs the task.
async fn held_worker(s: &Service, owner: u64) -> std::sync::mpsc::Sender<()> {
    let (release, held) = hold_worker(s, owner);
    held.running().await;
    release
}

/// Waits until `n` AI requests wait for a worker.
async fn until_queued(s: &Service, n: usize) {
    until("AI requests queued", || s.probe().ai_queue_len() >= n).await;
}

/// Waits until at most `n` AI requests wait.
async fn until_queued_at_most(s: &Service, n: usize) {
    until("AI requests served", || s.probe().ai_queue_len() <= n).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_users_ten_games_delay_anothers_game_by_at_most_one_search() {
    let f = fixture(config(1, 30)).await;
    let s = &f.service;
    let (done, mut finished) = tokio::sync::mpsc::unbounded_channel();
    let turn = |id: GameId| {
        let s = s.clone();
        let done = done.clone();
        tokio::spawn(async move {
            let played = s.ai().turn(id).await.unwrap();
            assert!(played.is_some(), "the AI moved in game {id}");
            done.send(id).unwrap();
        })
    };
    // Carl's work holds the one worker while the others queue.
    let carls = held_worker(s, CARL).await;
    let mut astrids = Vec::new();
    for channel in 1..=10 {
        let id = start(s, channel, ASTRID, Level::Medium).await;
        turn(id);
        until("Astrid's turn queued", || s.ai().waiting(id).is_some()).await;
        assert_eq!(s.ai().waiting(id), Some(astrids.len()), "behind her own");
        astrids.push(id);
    }
    let birgers = start(s, 11, BIRGER, Level::Medium).await;
    turn(birgers);
    until("Birger's turn queued", || s.ai().waiting(birgers).is_some()).await;
    assert_eq!(
        s.ai().waiting(birgers),
        Some(1),
        "one of Astrid's ten goes first"
    );
    assert_eq!(s.ai().waiting(astrids[1]), Some(2), "then Astrid's next");
    drop(carls);
    let mut order = Vec::new();
    for _ in 0..11 {
        order.push(finished.recv().await.unwrap());
    }
    // Served so: Birger's game right after one of Astrid's.
    let at = order.iter().position(|&id| id == birgers).unwrap();
    assert!(
        at <= 1,
        "Birger's game waited for {} searches: {order:?}",
        at
    );
    assert_eq!(s.probe().ai_pool_tables(), (1, 1), "one worker, one table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_never_holds_more_tables_than_workers() {
    let f = fixture(config(2, 30)).await;
    let s = &f.service;
    let mut ids = Vec::new();
    for channel in 1..=12 {
        ids.push(start(s, channel, 100 + channel, Level::Hard).await);
    }
    let turns: Vec<_> = ids
        .iter()
        .map(|&id| {
            let s = s.clone();
            tokio::spawn(async move { s.ai().turn(id).await.unwrap().is_some() })
        })
        .collect();
    for t in turns {
        assert!(t.await.unwrap());
    }
    let (workers, peak) = s.probe().ai_pool_tables();
    assert_eq!(workers, 2);
    assert!(
        (1..=2).contains(&peak),
        "{peak} tables for 2 workers and 12 games"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_ai_are_limited_per_user_and_server_with_a_cooldown() {
    let f = fixture(Config {
        ai_games_per_user: 2,
        ai_game_cooldown: Duration::from_secs(60),
        ..config(1, 30)
    })
    .await;
    let s = &f.service;
    let ai_first = false;
    s.games()
        .start_ai_game(request(GUILD, 1, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap();
    let soon = s
        .games()
        .start_ai_game(request(GUILD, 2, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap_err();
    assert!(matches!(soon, ServiceError::AiGameTooSoon(60)), "{soon:?}");
    assert_eq!(
        tablut_bot::bot::messages::refusal(&soon),
        "You started a game against the AI a moment ago: try again in 60 s."
    );
    assert!(
        s.games().game_in_channel(2).await.unwrap().is_none(),
        "nothing changed"
    );
    // Another user is not held up by Astrid's cooldown.
    s.games()
        .start_ai_game(request(GUILD, 3, BIRGER, Level::Easy, ai_first), None)
        .await
        .unwrap();
    f.clock.advance(Duration::from_secs(45));
    assert!(matches!(
        s.games()
            .start_ai_game(request(GUILD, 2, ASTRID, Level::Easy, ai_first), None)
            .await,
        Err(ServiceError::AiGameTooSoon(15))
    ));
    f.clock.advance(Duration::from_secs(15));
    s.games()
        .start_ai_game(request(GUILD, 2, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap();
    f.clock.advance(Duration::from_secs(60));
    let many = s
        .games()
        .start_ai_game(request(GUILD, 4, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap_err();
    assert!(matches!(many, ServiceError::TooManyAiGames(2)), "{many:?}");
    assert_eq!(
        tablut_bot::bot::messages::refusal(&many),
        "You already have 2 games against the AI running in this server: finish or resign one first."
    );
    // The limit is per server.
    s.games()
        .start_ai_game(request(GUILD + 1, 5, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap();
    // A game finished frees its place.
    s.games().resign(1, ASTRID, None).await.unwrap();
    f.clock.advance(Duration::from_secs(60));
    s.games()
        .start_ai_game(request(GUILD, 4, ASTRID, Level::Easy, ai_first), None)
        .await
        .unwrap();
}

/// `AI_GAMES_PER_USER=0` means no limit, as 0 does for every other per-user cap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_limit_on_games_against_the_ai_when_it_is_zero() {
    let f = fixture(Config {
        ai_games_per_user: 0,
        ai_game_cooldown: Duration::ZERO,
        ..config(1, 30)
    })
    .await;
    for channel in 1..=4 {
        f.service
            .games()
            .start_ai_game(request(GUILD, channel, ASTRID, Level::Easy, false), None)
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_refuses_new_requests_and_changes_nothing() {
    let f = fixture(Config {
        ai_queue_limit: 1,
        ..config(1, 30)
    })
    .await;
    let s = &f.service;
    // Carl plays a game and is to move; the AI will be busy.
    s.games()
        .start_ai_game(request(GUILD, 9, CARL, Level::Hard, false), None)
        .await
        .unwrap();
    let waiting = start(s, 2, BIRGER, Level::Hard).await;
    // Astrid's work holds the one worker for as long as the refusals below take; Birger's
    // turn waits behind it.
    let running = held_worker(s, ASTRID).await;
    {
        let s = s.clone();
        tokio::spawn(async move { s.ai().turn(waiting).await });
    }
    until_queued(s, 1).await;
    let busy = "The AI is busy with 1 move or hint already waiting: try again in a minute.";
    let e = s
        .games()
        .start_ai_game(request(GUILD, 3, CARL, Level::Hard, true), None)
        .await
        .unwrap_err();
    assert!(matches!(e, ServiceError::AiBusy(1)), "{e:?}");
    assert_eq!(tablut_bot::bot::messages::refusal(&e), busy);
    assert!(s.games().game_in_channel(3).await.unwrap().is_none());
    let e = s
        .games()
        .play_move(9, CARL, "a4-a3", Answer::None)
        .await
        .unwrap_err();
    assert_eq!(tablut_bot::bot::messages::refusal(&e), busy);
    assert_eq!(s.games().game_in_channel(9).await.unwrap().unwrap().ply, 0);
    let e = s.ai().hint(9, CARL).await.unwrap_err();
    assert_eq!(tablut_bot::bot::messages::refusal(&e), busy);
    // Refused, the hint did not count against the cooldown.
    drop(running);
    until_queued_at_most(s, 0).await;
    assert!(!matches!(
        s.ai().hint(9, CARL).await,
        Err(ServiceError::HintTooSoon(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_that_waits_too_long_is_answered_with_an_apology() {
    let f = fixture(Config {
        hint_wait: Duration::from_millis(50),
        ..config(1, 30)
    })
    .await;
    let s = &f.service;
    s.games()
        .start_ai_game(request(GUILD, 9, CARL, Level::Hard, false), None)
        .await
        .unwrap();
    // Astrid's work holds the one worker.
    let busy = held_worker(s, ASTRID).await;
    let e = s.ai().hint(9, CARL).await.unwrap_err();
    assert!(matches!(e, ServiceError::HintTimedOut), "{e:?}");
    assert_eq!(s.probe().ai_queue_len(), 0, "the hint was withdrawn");
    drop(busy);
    // The apology did not count against the cooldown: a hint now is answered. (On a loaded
    // machine the free worker may still take longer than the 50 ms wait to pick it up: that is
    // another apology, never a refusal for the cooldown.)
    let mut tries = 0;
    let hint = loop {
        match s.ai().hint(9, CARL).await {
            Ok(hint) => break hint,
            Err(ServiceError::HintTimedOut) if tries < 50 => tries += 1,
            Err(e) => panic!("a hint after an apology: {e:?}"),
        }
    };
    assert!(!hint.best.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_turns_owed_survive_a_restart_and_an_abandoned_request() {
    let f = fixture(config(1, 30)).await;
    let a = start(&f.service, 1, ASTRID, Level::Medium).await;
    let b = start(&f.service, 2, BIRGER, Level::Easy).await;
    // Astrid's turn is requested and abandoned (its task is gone) before it is played.
    let s = f.service.clone();
    let abandoned = tokio::spawn(async move { s.ai().turn(a).await });
    abandoned.abort();
    let _ = abandoned.await;
    assert!(!f.service.ai().pending(a), "an abandoned turn lets go");

    // A restart: the database says which turns are owed.
    let f = f.reopen().await;
    let s = &f.service;
    let mut owed = s.ai().games_awaiting().await.unwrap();
    owed.sort();
    assert_eq!(owed, vec![(a, 1), (b, 2)]);
    // The abandoned turn may have been claimed in the database by the process before the
    // restart: its claim lapses with its lease (the search's time and a margin).
    f.clock
        .advance(config(1, 30).ai_time(Level::Medium) + tablut_bot::service::ai::AI_CLAIM_MARGIN);
    for (id, _) in owed {
        let played = s.ai().turn(id).await.unwrap().expect("the AI moves");
        assert_eq!(played.game.ply, 1);
    }
    assert!(s.ai().games_awaiting().await.unwrap().is_empty());
    // A turn already under way is not played twice.
    s.games()
        .play_move(
            1,
            ASTRID,
            &s.games().suggest_moves(1, ASTRID, "", 1).await.unwrap()[0],
            Answer::None,
        )
        .await
        .unwrap();
    let (first, second) = tokio::join!(s.ai().turn(a), s.ai().turn(a));
    let played = [first.unwrap(), second.unwrap()];
    assert_eq!(played.iter().filter(|p| p.is_some()).count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claims_renewed_beside_turns_committed_on_sqlite_never_deadlock() {
    // A lease of the search's time alone (30 ms): each turn's claim is renewed every 10 ms
    // while it waits, is searched and is committed, on SQLite under the same write lock the
    // turns' commits take.
    let f = fixture(Config {
        ai_time: [Duration::from_millis(30); 3],
        ai_claim_margin: Duration::ZERO,
        ai_games_per_user: 100,
        ..config(1, 30)
    })
    .await;
    let s = &f.service;
    let mut ids = Vec::new();
    for channel in 100..140 {
        ids.push(start(s, channel, ASTRID, Level::Easy).await);
    }
    // Carl's work holds the one worker: every turn waits in the queue, its claim renewed.
    let first = held_worker(s, CARL).await;
    let turns: Vec<_> = ids
        .iter()
        .map(|&id| {
            let s = s.clone();
            tokio::spawn(async move { s.ai().turn(id).await })
        })
        .collect();
    until_queued(s, ids.len()).await;
    until("every claim renewed", || {
        s.probe().ai_claim_renewals() >= ids.len() as u64
    })
    .await;
    // Carl's next work comes in the queue's order after one or two of Astrid's turns: it holds
    // the worker again once they are searched, while their moves are committed and the others'
    // claims renewed beside them.
    let (second, held) = hold_worker(s, CARL);
    drop(first);
    held.running().await;
    until_async("a turn committed", || async {
        s.ai().games_awaiting().await.unwrap().len() < ids.len()
    })
    .await;
    let renewals = s.probe().ai_claim_renewals();
    until("a claim renewed beside the commits", || {
        s.probe().ai_claim_renewals() > renewals
    })
    .await;
    drop(second);
    let all = async {
        for turn in turns {
            assert!(turn.await.unwrap().unwrap().is_some(), "the AI moved");
        }
    };
    tokio::time::timeout(Duration::from_secs(30), all)
        .await
        .expect("every turn ended: none waits on a renewal, nor a renewal on it");
    assert_eq!(s.probe().ai_turn_searches(), ids.len() as u64);
    assert!(s.ai().games_awaiting().await.unwrap().is_empty());
    // The turns are over: so are their renewals.
    until("the renewals over", || s.probe().ai_claim_renewers() == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_turn_whose_claim_another_process_took_is_withdrawn() {
    // Renewed every (50 ms + 300 ms) / 3.
    let f = fixture(Config {
        ai_claim_margin: Duration::from_millis(300),
        ..config(1, 30)
    })
    .await;
    let s = &f.service;
    // Carl's work holds the one worker.
    let carls = held_worker(s, CARL).await;
    let astrids = start(s, 61, ASTRID, Level::Easy).await;
    let turn = {
        let s = s.clone();
        tokio::spawn(async move { s.ai().turn(astrids).await.unwrap() })
    };
    until("Astrid's turn queued", || s.ai().waiting(astrids).is_some()).await;
    // Another process holds the claim now (as after a lease this one let lapse).
    sqlx::query("UPDATE games SET ai_claimed_by = 'other' WHERE id = $1")
        .bind(astrids)
        .execute(s.store().pool())
        .await
        .unwrap();
    // The next renewal finds it gone: the turn leaves the queue unsearched.
    assert!(turn.await.unwrap().is_none());
    assert!(!s.ai().pending(astrids));
    assert_eq!(s.probe().ai_queue_len(), 0, "withdrawn from the queue");
    drop(carls);
    assert_eq!(
        s.probe().ai_turn_searches(),
        0,
        "Astrid's turn was not searched"
    );
    let moves = tablut_bot::store::moves::of_game(s.store().pool(), astrids)
        .await
        .unwrap();
    assert!(moves.is_empty());
    let holder: Option<String> =
        sqlx::query_scalar("SELECT ai_claimed_by FROM games WHERE id = $1")
            .bind(astrids)
            .fetch_one(s.store().pool())
            .await
            .unwrap();
    assert_eq!(
        holder.as_deref(),
        Some("other"),
        "the other's claim is left alone"
    );
    until("the renewals over", || s.probe().ai_claim_renewers() == 0).await;
}
