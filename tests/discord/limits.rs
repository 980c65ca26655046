//! The limits a server expects: per-user rates on commands and button presses (through the real
//! client against the fake Discord), and the caps the database keeps (games against the AI,
//! open challenges, challenges received) under real concurrency on both backends.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use serde_json::json;
use std::time::Duration;

const ASTRID: u64 = 900_000_000_000_000_101;
const BIRGER: u64 = 900_000_000_000_000_102;

fn assert_refused(r: &BotRequest, words: &str) {
    assert!(r.ephemeral(), "refusals are private: {:?}", r.json);
    let text = r.content();
    assert!(text.contains(words), "expected '{words}' in '{text}'");
    assert!(!text.contains('\n'), "one line: '{text}'");
}

fn assert_answered(r: &BotRequest) {
    let text = r.content();
    assert!(
        !text.contains("try again in"),
        "answered, not refused: '{text}'"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_and_presses_past_a_users_rate_are_refused_with_the_wait() {
    let h = BotHarness::start(&[("COMMANDS_PER_MINUTE", "3"), ("AI_TT_MB", "4")]).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let birger = Who::member(BIRGER, "Birger");
    // Autocomplete is typing, not a use: it does not count.
    for typed in ["e", "e1", "e1-"] {
        let id = h.fake.autocomplete(&astrid, 10, "move", "notation", typed);
        assert_eq!(h.fake.callback(id).await.callback_type(), Some(8));
    }
    // Three uses in a burst (a subcommand counts once, not once per level of /tablut sub).
    for _ in 0..3 {
        let (_, answer) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
        assert_answered(&answer);
        assert!(answer.content().contains("Tablut"), "{}", answer.content());
    }
    // The fourth waits for a use to come back: a minute / 3.
    let (_, refused) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_refused(&refused, "try again in 20 s");
    // A button press counts as a command does.
    let press = h.fake.click(&astrid, 10, 1, "tablut:lb:0");
    assert_refused(&h.fake.callback(press).await, "try again in 20 s");
    // Each user has their own rate.
    let (_, other) = h.tablut(&birger, 10, "rules", json!([]), &[]).await;
    assert_answered(&other);
    // One use comes back every 20 s.
    h.clock.advance(Duration::from_secs(15));
    let (_, refused) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_refused(&refused, "try again in 5 s");
    h.clock.advance(Duration::from_secs(5));
    let (_, answer) = h.tablut(&astrid, 10, "rules", json!([]), &[]).await;
    assert_answered(&answer);
    h.fake.assert_contract();
}

use crate::support::fixture::challenge_request;
use std::sync::Arc;
use tablut_bot::ai::Level;
use tablut_bot::both_backends;
use tablut_bot::service::{
    AiGameRequest, ChallengeRequest, Config, ManualClock, Place, Service, ServiceError, SideChoice,
    TimeControl, User,
};
use tablut_bot::store::testdb::TestDb;
use tablut_bot::tafl::Rules;

const T0: i64 = 1_800_000_000_000;
const GUILD: u64 = 900_000_000_000_000_001;
const HOUR: Duration = Duration::from_secs(3600);

/// A service on `db` with these limits (0: none) and a clock the test moves.
async fn service(
    db: &TestDb,
    open_challenges: u32,
    received: u32,
    ai_games: u32,
) -> (Arc<Service>, ManualClock) {
    let clock = ManualClock::new(T0);
    let config = Config {
        images: false,
        ai_workers: 1,
        ai_tt_mb: 4,
        ai_game_cooldown: Duration::ZERO,
        ai_games_per_user: ai_games,
        open_challenges_per_user: open_challenges,
        challenges_received: received,
        challenges_received_window: HOUR,
        challenge_ttl: 24 * HOUR,
        ..Config::default()
    };
    let s = Service::open(&db.url, config, Arc::new(clock.clone()))
        .await
        .unwrap();
    (Arc::new(s), clock)
}

fn challenge(channel: u64, from: u64, to: u64) -> ChallengeRequest {
    ChallengeRequest {
        side: SideChoice::Random,
        ..challenge_request(
            Place {
                guild: Some(GUILD),
                channel,
            },
            User::new(from, "Challenger"),
            User::new(to, "Challenged"),
        )
    }
}

/// One line, saying when to try again.
fn assert_says_when(e: &ServiceError, when: &str) {
    let text = tablut_bot::bot::messages::refusal(e);
    assert!(!text.contains('\n'), "one line: {text}");
    assert!(text.contains(when), "expected '{when}' in '{text}'");
}

/// `requests` made all at once; how many were allowed, and the refusals.
async fn at_once<T: Send + 'static>(
    requests: Vec<tokio::task::JoinHandle<Result<T, ServiceError>>>,
) -> (usize, Vec<ServiceError>) {
    let mut allowed = 0;
    let mut refused = Vec::new();
    for r in requests {
        match r.await.unwrap() {
            Ok(_) => allowed += 1,
            Err(e) => refused.push(e),
        }
    }
    (allowed, refused)
}

both_backends! {
/// A player holds at most so many open challenges: the next is refused with when the first
/// expires, until one is answered, withdrawn or expired; challenges made at once pass the limit
/// no more than one by one.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_player_holds_only_so_many_open_challenges(db: TestDb) {
    let (s, clock) = service(&db, 3, 0, 3).await;
    let mut open = Vec::new();
    for channel in 1..=3 {
        open.push(s.games().challenge(challenge(channel, ASTRID, BIRGER), None).await.unwrap().done.0);
        clock.advance(Duration::from_secs(60));
    }
    let e = s.games().challenge(challenge(4, ASTRID, BIRGER), None).await.unwrap_err();
    assert!(
        matches!(e, ServiceError::TooManyOpenChallenges { open: 3, .. }),
        "{e:?}"
    );
    // The first expires 24 h after it was made, 3 min ago.
    assert_says_when(&e, "when the first expires in 24 h");
    // Another player is not held to Astrid's count.
    s.games().challenge(challenge(4, BIRGER, ASTRID), None).await.unwrap();
    // One withdrawn: room for one more.
    s.games().cancel(open[0].id, ASTRID, None).await.unwrap();
    s.games().challenge(challenge(5, ASTRID, BIRGER), None).await.unwrap();
    assert!(s.games().challenge(challenge(6, ASTRID, BIRGER), None).await.is_err());
    // Expired ones do not count, swept or not.
    clock.advance(24 * HOUR);
    s.games().challenge(challenge(6, ASTRID, BIRGER), None).await.unwrap();

    // Eight at once from a new player, in eight channels: three open.
    let requests = (0..8)
        .map(|i| {
            let s = s.clone();
            tokio::spawn(async move { s.games().challenge(challenge(100 + i, 77, BIRGER), None).await })
        })
        .collect();
    let (allowed, refused) = at_once(requests).await;
    assert_eq!(allowed, 3, "{refused:?}");
    assert!(refused
        .iter()
        .all(|e| matches!(e, ServiceError::TooManyOpenChallenges { open: 3, .. })));
    s.close().await;
}
}

both_backends! {
/// A person is sent at most so many challenges in the window, from everyone together (those
/// they accepted do not count); the next challenger is told when to try again (when the first
/// of them leaves the window).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_person_is_challenged_only_so_often(db: TestDb) {
    let (s, clock) = service(&db, 0, 3, 3).await;
    // Accepted: wanted, not counted.
    let c = s.games().challenge(challenge(50, 10, BIRGER), None).await.unwrap().done.0;
    s.games().accept(c.id, BIRGER, None, None).await.unwrap();
    for (i, from) in [11, 12, 13].into_iter().enumerate() {
        let c = s.games().challenge(challenge(i as u64 + 1, from, BIRGER), None).await.unwrap().done.0;
        // Declined at once: answered challenges count too (each was a ping).
        s.games().decline(c.id, BIRGER, None).await.unwrap();
        clock.advance(Duration::from_secs(600));
    }
    let e = s.games().challenge(challenge(4, 14, BIRGER), None).await.unwrap_err();
    assert!(
        matches!(e, ServiceError::ChallengedTooOften { received: 3, .. }),
        "{e:?}"
    );
    // The first was made 30 min ago: it leaves the hour's window in 30 min.
    assert_says_when(&e, "in the last 60 min: try again in 30 min");
    // Others may still be challenged.
    s.games().challenge(challenge(4, 14, ASTRID), None).await.unwrap();
    clock.advance(Duration::from_secs(30 * 60));
    s.games().challenge(challenge(5, 14, BIRGER), None).await.unwrap();

    // Eight challengers at once, in eight channels, to one person: three challenges.
    let requests = (0..8)
        .map(|i| {
            let s = s.clone();
            tokio::spawn(async move { s.games().challenge(challenge(100 + i, 200 + i, 99), None).await })
        })
        .collect();
    let (allowed, refused) = at_once(requests).await;
    assert_eq!(allowed, 3, "{refused:?}");
    assert!(refused
        .iter()
        .all(|e| matches!(e, ServiceError::ChallengedTooOften { received: 3, .. })));
    s.close().await;
}
}

both_backends! {
/// The cap on games against the AI holds under concurrency: `/tablut ai` sent at once in eight
/// channels starts as many games as the cap allows, no more (on PostgreSQL too, where the
/// count and the insert run in transactions side by side).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn games_against_the_ai_started_at_once_stay_within_the_cap(db: TestDb) {
    let (s, _clock) = service(&db, 0, 0, 3).await;
    for user in 1..=4u64 {
        let requests = (0..8)
            .map(|i| {
                let s = s.clone();
                tokio::spawn(async move {
                    s.games().start_ai_game(AiGameRequest {
                        place: Place {
                            guild: Some(GUILD),
                            channel: user * 1000 + i,
                        },
                        user: User::new(user, "Player"),
                        side: SideChoice::Attackers,
                        level: Level::Easy,
                        rules: Rules::default(),
                        time_control: TimeControl::None,
                        start: None,
                    }, None)
                    .await
                })
            })
            .collect();
        let (allowed, refused) = at_once(requests).await;
        assert_eq!(allowed, 3, "user {user}: {refused:?}");
        for e in &refused {
            assert!(matches!(e, ServiceError::TooManyAiGames(3)), "{e:?}");
            assert_says_when(e, "finish or resign one first");
        }
    }
    s.close().await;
}
}
