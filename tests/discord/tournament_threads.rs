//! A tournament's sign-up that ends at its time, through the fake Discord: the clock starts it
//! by itself (a match game's thread whose answer was lost is found again, not made twice, and
//! every post of a match game names the tournament and the round), and one with too few
//! entrants is cancelled with a post that says why.

use crate::support::bot_harness::{is_post_in, organiser, BotHarness};
use crate::support::fake_discord::*;
use serde_json::json;
use std::time::Duration;

const HALL: u64 = 62;
const ORG: u64 = 900_000_000_000_000_300;
const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn birger() -> Who {
    Who::member(BIRGER, "Birger")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signup_that_ends_starts_the_tournament_and_its_threads_are_made_once() {
    let h = BotHarness::start(&[
        ("AI_TT_MB", "4"),
        ("CLOCK_INTERVAL_SECS", "1"),
        ("DEFAULT_TIME_CONTROL", "none"),
        ("DISCORD_TIMEOUT_MS", "1000"),
    ])
    .await;
    let create = |name: &'static str| {
        json!([
            {"name": "name", "type": 3, "value": name},
            {"name": "format", "type": 4, "value": 0},
            {"name": "seats", "type": 4, "value": 4},
            {"name": "signup", "type": 3, "value": "1m"},
        ])
    };
    let created = h
        .tournament(&organiser(ORG), HALL, "create", create("Spring Open"))
        .await;
    assert!(
        created.content().contains("Spring Open"),
        "{}",
        created.content()
    );
    let lonely = h
        .tournament(&organiser(ORG), HALL, "create", create("Winter Cup"))
        .await;
    assert!(
        lonely.content().contains("Winter Cup"),
        "{}",
        lonely.content()
    );
    // A sign-up's end that is no time: one private line.
    let bad = json!([
        {"name": "name", "type": 3, "value": "Other"},
        {"name": "format", "type": 4, "value": 0},
        {"name": "seats", "type": 4, "value": 4},
        {"name": "signup", "type": 3, "value": "yesterday"},
    ]);
    let refused = h.tournament(&organiser(ORG), HALL, "create", bad).await;
    assert!(
        refused.ephemeral() && refused.content().contains("'yesterday'"),
        "{}",
        refused.content()
    );
    let announced = h
        .fake
        .expect("the announcement with its end", |r| {
            is_post_in(r, HALL) && r.content().contains("Spring Open")
        })
        .await;
    assert!(
        announced.content().contains("Sign-up is open until <t:"),
        "{}",
        announced.content()
    );
    // Spring Open (#1): Astrid and Birger join; Winter Cup (#2): Astrid alone.
    for (who, which) in [(astrid(), "1"), (birger(), "1"), (astrid(), "2")] {
        let option = json!([{"name": "tournament", "type": 3, "value": which}]);
        let joined = h.tournament(&who, HALL, "join", option).await;
        assert!(
            joined.content().contains("You are in"),
            "{}",
            joined.content()
        );
    }
    h.outbox_settled().await;

    // The first match game's thread is made, but Discord's answer is lost: the bot must find
    // it again rather than make a second.
    let threads_path = format!("/channels/{HALL}/threads");
    h.fake.fail(
        "POST",
        &threads_path,
        1,
        Fault::Lost(Duration::from_secs(3)),
    );
    h.clock.advance(Duration::from_secs(61));
    h.clock_ticks(1).await;
    let cancelled = h
        .fake
        .expect("Winter Cup cancelled, and why", |r| {
            is_post_in(r, HALL) && r.content().contains("**Winter Cup** is cancelled")
        })
        .await;
    assert!(
        cancelled.content().contains("1 entrant"),
        "{}",
        cancelled.content()
    );
    let mut firsts = Vec::new();
    for _ in 1..=2 {
        let first = h
            .fake
            .expect("a match game's first post", |r| {
                r.method == "POST"
                    && r.path.ends_with("/messages")
                    && !r.path.contains(&format!("/channels/{HALL}/"))
                    && r.content().contains("round 1 · game")
            })
            .await;
        firsts.push(first);
    }
    h.outbox_settled().await;
    let made: Vec<BotRequest> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/api/v10{threads_path}"))
        .collect();
    let names: Vec<&str> = made
        .iter()
        .map(|r| r.json["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        made.len(),
        2,
        "one thread per game, the lost one not made again: {names:?}"
    );
    assert_ne!(names[0], names[1]);
    assert!(h
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "GET" && r.path.ends_with("/threads/active")));
    let thread_of = |r: &BotRequest| -> u64 { r.path.split('/').nth(4).unwrap().parse().unwrap() };
    let threads: Vec<u64> = firsts.iter().map(thread_of).collect();
    assert_ne!(threads[0], threads[1], "each game in its own thread");

    // Every post of a match game names the tournament and the round: a move, a draw offered,
    // a resignation, whichever player is to move.
    let thread = threads[0];
    let mut moved = None;
    for who in [astrid(), birger()] {
        let notation = json!([{"name": "notation", "type": 3, "value": "a4-a3"}]);
        let id = h.fake.command(&who, thread, "move", None, notation, &[]);
        let answer = h.fake.answer(id).await;
        if !answer.ephemeral() {
            moved = Some((who, answer));
            break;
        }
    }
    let (mover, answer) = moved.expect("the attackers' player moved");
    let line = "**Spring Open** · round 1 · game";
    assert!(answer.content().starts_with(line), "{}", answer.content());
    assert!(answer.content().contains("a4-a3"), "{}", answer.content());
    let other = if mover.id == ASTRID {
        birger()
    } else {
        astrid()
    };
    let id = h
        .fake
        .command(&other, thread, "tablut", Some("draw"), json!([]), &[]);
    let offered = h.fake.answer(id).await;
    assert!(offered.content().starts_with(line), "{}", offered.content());
    let id = h
        .fake
        .command(&mover, thread, "tablut", Some("resign"), json!([]), &[]);
    let resigned = h.fake.answer(id).await;
    assert!(
        resigned.content().starts_with(line),
        "{}",
        resigned.content()
    );
    assert!(
        resigned.content().contains("resign"),
        "{}",
        resigned.content()
    );
    h.outbox_settled().await;
    assert!(h.fake.violations().is_empty(), "{:?}", h.fake.violations());
}
