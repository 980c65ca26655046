//! A tournament through the fake Discord: created, its announcement's Join and Leave buttons
//! editing the entrant list, started (each match game's thread made and its game's first post
//! there, the round's post with a standings image), and a round's last game's end pairing the
//! next round.

use crate::support::bot_harness::{assert_board, is_post_in, organiser, BotHarness};
use crate::support::fake_discord::*;
use serde_json::json;

const HALL: u64 = 61;
const ORG: u64 = 900_000_000_000_000_200;
const ASTRID: u64 = 900_000_000_000_000_201;
const BIRGER: u64 = 900_000_000_000_000_202;
const CARL: u64 = 900_000_000_000_000_203;

fn is_edit_of(r: &BotRequest, message: u64) -> bool {
    r.method == "PATCH" && r.path == format!("/api/v10/channels/{HALL}/messages/{message}")
}

/// The standings image a round's post carries: a PNG that decodes.
fn assert_standings(r: &BotRequest) {
    let png = r.file("standings.png").expect("the standings image");
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
    assert!(img.width() > 0 && img.height() > 0);
}

/// Waits for the two threads of a round's match (named for the tournament, the round, the
/// players and the game) and the game's first post in each; returns the threads.
async fn threads_opened(h: &BotHarness, round: u32) -> Vec<u64> {
    let threads_path = format!("/api/v10/channels/{HALL}/threads");
    let mut legs = Vec::new();
    for _ in 1..=2 {
        let made = h
            .fake
            .expect("a match game's thread", |r| {
                r.method == "POST" && r.path == threads_path
            })
            .await;
        let name = made.json["name"].as_str().unwrap().to_string();
        assert!(
            name.starts_with(&format!("Spring Open · R{round} · ")),
            "{name}"
        );
        assert!(name.chars().count() <= 100);
        assert_eq!(made.json["type"], 11, "a public thread");
        legs.push(name.rsplit(" · ").next().unwrap().to_string());
    }
    legs.sort();
    assert_eq!(legs, ["1/2", "2/2"]);
    let mut threads = Vec::new();
    for _ in 1..=2 {
        let first = h
            .fake
            .expect("a match game's first post", |r| {
                r.method == "POST"
                    && r.path.ends_with("/messages")
                    && !r.path.contains(&format!("/channels/{HALL}/"))
                    && r.content().contains(&format!("round {round} · game"))
            })
            .await;
        assert!(first.content().contains("Spring Open"));
        assert_board(&first);
        let channel = first.path.split('/').nth(4).unwrap().parse().unwrap();
        threads.push(channel);
    }
    threads
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_announced_joined_started_and_paired_round_after_round() {
    let h = BotHarness::start(&[
        ("AI_TT_MB", "4"),
        ("CLOCK_INTERVAL_SECS", "1"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await;
    let created = h
        .tournament(
            &organiser(ORG),
            HALL,
            "create",
            json!([
                {"name": "name", "type": 3, "value": "Spring Open"},
                {"name": "format", "type": 4, "value": 0},
                {"name": "seats", "type": 4, "value": 8},
            ]),
        )
        .await;
    assert!(created.ephemeral(), "{:?}", created.json);
    assert!(
        created.content().contains("Spring Open"),
        "{}",
        created.content()
    );
    // A member without Manage Server may not create one: one private line.
    let refused = h
        .tournament(
            &Who::member(CARL, "Carl"),
            HALL,
            "create",
            json!([
                {"name": "name", "type": 3, "value": "Other"},
                {"name": "format", "type": 4, "value": 1},
                {"name": "seats", "type": 4, "value": 8},
                {"name": "rounds", "type": 4, "value": 3},
            ]),
        )
        .await;
    assert!(refused.ephemeral() && refused.content().contains("Manage Server"));
    let announced = h
        .fake
        .expect("the announcement", |r| {
            is_post_in(r, HALL) && r.content().contains("Spring Open")
        })
        .await;
    let message = announced.created.expect("a message");
    let join = announced
        .button_ids()
        .into_iter()
        .find(|b| b.contains("t-join"))
        .expect("a Join button");
    let leave = join.replace("t-join", "t-leave");
    // Join, Leave and Join again: each edit of the announcement lists the entrants as they are.
    for (id, name) in [(ASTRID, "Astrid"), (BIRGER, "Birger"), (CARL, "Carl")] {
        let press = h.fake.click(&Who::member(id, name), HALL, message, &join);
        let answer = h.fake.callback(press).await;
        assert!(
            answer.ephemeral() && answer.content().contains("You are in"),
            "{:?}",
            answer.json
        );
        let edit = h
            .fake
            .expect("the entrant list edited", |r| is_edit_of(r, message))
            .await;
        assert!(edit.content().contains(name), "{}", edit.content());
        assert!(
            edit.button_ids().contains(&join),
            "the buttons stay while it signs up"
        );
    }
    let press = h
        .fake
        .click(&Who::member(BIRGER, "Birger"), HALL, message, &leave);
    assert!(h.fake.callback(press).await.content().contains("You left"));
    let edit = h
        .fake
        .expect("Birger gone from the list", |r| is_edit_of(r, message))
        .await;
    assert!(!edit.content().contains("Birger") && edit.content().contains("(2/8)"));
    let press = h
        .fake
        .click(&Who::member(BIRGER, "Birger"), HALL, message, &join);
    h.fake.callback(press).await;
    h.fake
        .expect("Birger back", |r| is_edit_of(r, message))
        .await;
    // Joining twice: one private line, nothing edited.
    let press = h
        .fake
        .click(&Who::member(BIRGER, "Birger"), HALL, message, &join);
    let twice = h.fake.callback(press).await;
    assert!(
        twice.ephemeral() && twice.content().contains("already"),
        "{}",
        twice.content()
    );

    let started = h
        .tournament(&organiser(ORG), HALL, "start", json!([]))
        .await;
    assert!(
        started.content().contains("started"),
        "{}",
        started.content()
    );
    let edit = h
        .fake
        .expect("the announcement says it started", |r| {
            is_edit_of(r, message)
        })
        .await;
    assert!(edit.button_ids().is_empty(), "no Join once started");
    // Three players: one match of two games (the third's bye), each game in its thread.
    let threads = threads_opened(&h, 1).await;
    let round = h
        .fake
        .expect("round 1's post", |r| {
            is_post_in(r, HALL) && r.content().contains("round 1")
        })
        .await;
    assert_standings(&round);
    h.outbox_settled().await;
    // Both games resigned by whoever is to move: round 2 is paired.
    for &thread in &threads {
        let mut resigned = None;
        for (id, name) in [(ASTRID, "Astrid"), (BIRGER, "Birger"), (CARL, "Carl")] {
            let options = json!([]);
            let command = h.fake.command(
                &Who::member(id, name),
                thread,
                "tablut",
                Some("resign"),
                options,
                &[],
            );
            let answer = h.fake.answer(command).await;
            if answer.content().contains("resign") && !answer.ephemeral() {
                resigned = Some(answer);
                break;
            }
        }
        assert!(resigned.is_some(), "a player resigned in {thread}");
    }
    threads_opened(&h, 2).await;
    let round = h
        .fake
        .expect("round 2's post", |r| {
            is_post_in(r, HALL) && r.content().contains("round 2")
        })
        .await;
    assert_standings(&round);
    h.outbox_settled().await;
    let standings = h
        .tournament(&Who::member(CARL, "Carl"), HALL, "standings", json!([]))
        .await;
    assert!(standings.content().contains("Spring Open"));
    assert!(standings.file("standings.png").is_some());
}
