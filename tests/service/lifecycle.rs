//! A game's life beyond single moves, on both backends (a SQLite file, a fresh PostgreSQL
//! database when TEST_POSTGRES_URL names a server): one item that cannot be handled (a
//! challenge that cannot be closed, a game whose puzzle search fails) holds up no other and is
//! not tried on every tick.

use crate::support::fixture::{challenge_request, Fixture};
use std::time::Duration;
use tablut_bot::ai::puzzle::{Kind, Record};
use tablut_bot::both_backends;
use tablut_bot::service::puzzle::{SCAN_GIVE_UP, SEED};
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::Position;

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
const DAY: Duration = Duration::from_secs(24 * 3600);

fn config() -> Config {
    Config {
        images: false,
        ai_tt_mb: 4,
        ai_workers: 1,
        ai_time: [Duration::from_millis(50); 3],
        challenge_ttl: DAY,
        ..Config::default()
    }
}

async fn fixture(db: TestDb) -> Fixture {
    Fixture::open(db, config()).await
}

fn request(channel: u64, start: Option<Position>, time_control: TimeControl) -> ChallengeRequest {
    ChallengeRequest {
        time_control,
        start,
        ..challenge_request(
            Place {
                guild: Some(GUILD),
                channel,
            },
            User::new(ASTRID, "Astrid"),
            User::new(BIRGER, "Birger"),
        )
    }
}

/// Astrid (attackers) against Birger in `channel`.
async fn game_between(
    s: &Service,
    channel: u64,
    start: Option<Position>,
    time_control: TimeControl,
) -> GameInfo {
    let c = s
        .games()
        .challenge(request(channel, start, time_control), None)
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

/// Makes the database refuse `event` (INSERT, UPDATE) on `table` for the rows where `when`
/// holds (a trigger): a row the service cannot process.
async fn refuse(s: &Service, name: &str, event: &str, table: &str, when: &str) {
    let statements = match s.backend() {
        Backend::Sqlite => vec![format!(
            "CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW WHEN {when} \
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )],
        Backend::Postgres => vec![
            format!(
                "CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$"
            ),
            format!(
                "CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW WHEN ({when}) \
                 EXECUTE FUNCTION {name}()"
            ),
        ],
    };
    for sql in statements {
        sqlx::query(&sql).execute(s.store().pool()).await.unwrap();
    }
}

async fn allow(s: &Service, name: &str, table: &str) {
    let sql = match s.backend() {
        Backend::Sqlite => format!("DROP TRIGGER {name}"),
        Backend::Postgres => format!("DROP TRIGGER {name} ON {table}"),
    };
    sqlx::query(&sql).execute(s.store().pool()).await.unwrap();
}

both_backends! {
#[tokio::test]
async fn an_expired_challenge_that_cannot_be_closed_holds_up_no_other_item_of_the_clock(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let game = game_between(s, 12, None, TimeControl::PerMove(2 * DAY)).await;
    let stuck = s.games().challenge(request(10, None, TimeControl::None), None).await.unwrap().done.0;
    let other = s.games().challenge(request(11, None, TimeControl::None), None).await.unwrap().done.0;
    refuse(s, "stuck_challenge", "UPDATE", "challenges", &format!("OLD.id = {}", stuck.id)).await;
    // Both challenges expire, and half the game's time is gone.
    f.clock.advance(DAY + Duration::from_secs(1));
    let events = s.game_clock().tick().await.expect("the tick goes on past the stuck challenge");
    let expired: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::ChallengeExpired(c) => Some(c.id),
            _ => None,
        })
        .collect();
    assert_eq!(expired, vec![other.id]);
    assert!(
        events.iter().any(|e| matches!(e, ClockEvent::Reminder { game: g, .. } if g.id == game.id)),
        "the game's clock acted: {events:?}"
    );
    assert_eq!(s.games().challenge_info(stuck.id).await.unwrap().status, ChallengeStatus::Pending);
    assert_eq!(s.games().challenge_info(other.id).await.unwrap().status, ChallengeStatus::Expired);
    // Set aside for a while: the next ticks go on without it.
    assert!(s.game_clock().tick().await.unwrap().is_empty());
    // Once it can be closed, it is, after its wait.
    allow(s, "stuck_challenge", "challenges").await;
    assert!(s.game_clock().tick().await.unwrap().is_empty(), "still set aside");
    f.clock.advance(Duration::from_secs(61));
    let events = s.game_clock().tick().await.unwrap();
    assert!(
        matches!(&events[..], [ClockEvent::ChallengeExpired(c)] if c.id == stuck.id),
        "{events:?}"
    );
    assert_eq!(s.games().challenge_info(stuck.id).await.unwrap().status, ChallengeStatus::Expired);
}
}

/// The games recorded as searched for puzzles, with how many were found.
async fn scans(s: &Service) -> Vec<(i64, i64)> {
    sqlx::query_as("SELECT game_id, found FROM puzzle_scans ORDER BY game_id")
        .fetch_all(s.store().pool())
        .await
        .unwrap()
}

both_backends! {
#[tokio::test]
async fn a_game_whose_puzzle_search_fails_is_set_aside_then_given_up_and_the_next_is_searched(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    // The first game, played along a seed puzzle's line, holds a puzzle; the second ends at
    // once and holds none.
    let seed: Vec<Record> = serde_json::from_str(SEED).unwrap();
    let r = seed
        .into_iter()
        .find(|r| r.kind == Kind::Win && r.moves == 2)
        .unwrap();
    let (start, line) = r.read().unwrap();
    let first = game_between(s, 20, Some(start), TimeControl::None).await;
    let mut game = first.clone();
    for mv in &line {
        let to_move = game.to_move().unwrap().user_id().unwrap();
        game = s.games().play_move(20, to_move, &mv.to_string(), Answer::None).await.unwrap().done.game;
    }
    assert!(game.is_over());
    let second = game_between(s, 21, None, TimeControl::None).await;
    s.games().resign(21, BIRGER, None).await.unwrap();
    // What the first game's search finds cannot be stored.
    refuse(s, "no_found_scans", "INSERT", "puzzle_scans", "NEW.found > 0").await;
    assert_eq!(s.puzzles().find_in_games(1).await.expect("a failed game is set aside"), 0);
    assert!(scans(s).await.is_empty());
    // The next search takes the next game.
    assert_eq!(s.puzzles().find_in_games(1).await.unwrap(), 0);
    assert_eq!(scans(s).await, vec![(second.id, 0)]);
    // Nothing left to try until the failed game's wait is over.
    assert_eq!(s.puzzles().find_in_games(1).await.unwrap(), 0);
    assert_eq!(scans(s).await, vec![(second.id, 0)]);
    // Each wait over, it is tried again; after the last failure it is recorded as searched,
    // with nothing found, and not tried again.
    for _ in 1..SCAN_GIVE_UP {
        f.clock.advance(Duration::from_secs(3600));
        assert_eq!(s.puzzles().find_in_games(1).await.unwrap(), 0);
    }
    assert_eq!(scans(s).await, vec![(first.id, 0), (second.id, 0)]);
    let puzzles: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzles WHERE source = 'game'")
        .fetch_one(s.store().pool())
        .await
        .unwrap();
    assert_eq!(puzzles, 0, "the failed search stored nothing");
}
}
