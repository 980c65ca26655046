//! End to end: `/tablut privacy` and `/tablut forget-me` through the real client against the
//! fake Discord: the file the member alone receives, decoded and checked against the database;
//! forget-me refused in one private line while a game is under way and a tournament she entered
//! is in sign-up (she leaves it), then asked, its button
//! refused to another member and while a challenge to her is open, then confirmed and shown in
//! place of the question; afterwards the member's id and name are in no
//! column of any table, the opponent's rating is as it was, and the game still replays.

use crate::support::bot_harness::{organiser, BotHarness};
use crate::support::fake_discord::*;
use serde_json::{json, Value};
use sqlx::{Column, Row};

const ASTRID: u64 = 900_000_000_000_000_201;
const BIRGER: u64 = 900_000_000_000_000_202;
const CHANNEL: u64 = 40;
const ORG: u64 = 900_000_000_000_000_200;
/// The tournament's channel.
const HALL: u64 = 41;

/// Interaction `id`'s response (seen already or not).
fn response(h: &BotHarness, id: u64) -> BotRequest {
    let prefix = format!("/api/v10/interactions/{id}/");
    h.fake
        .requests()
        .into_iter()
        .find(|r| r.path.starts_with(&prefix))
        .expect("a response")
}

/// Every table and column of the bot's database holding `id` (as stored) or text with its
/// digits or `name`.
async fn where_held(h: &BotHarness, id: u64, name: &str) -> Vec<(String, String)> {
    let pool = h.database().await;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> '_sqlx_migrations'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut found = Vec::new();
    for table in tables {
        for row in sqlx::query(&format!("SELECT * FROM {table}"))
            .fetch_all(&pool)
            .await
            .unwrap()
        {
            for (i, column) in row.columns().iter().enumerate() {
                let held = match row.try_get::<Option<i64>, _>(i) {
                    Ok(v) => v == Some(id as i64),
                    Err(_) => row
                        .try_get::<Option<String>, _>(i)
                        .ok()
                        .flatten()
                        .is_some_and(|t| t.contains(&id.to_string()) || t.contains(name)),
                };
                if held {
                    found.push((table.clone(), column.name().to_string()));
                }
            }
        }
    }
    pool.close().await;
    found
}

/// A player's stored rating rows: (rating, deviation, rated games).
async fn ratings(h: &BotHarness, user: u64) -> Vec<(f64, f64, i64)> {
    let pool = h.database().await;
    let rows = sqlx::query_as(
        "SELECT rating, deviation, rated_games FROM players WHERE user_id = $1 ORDER BY variant",
    )
    .bind(user as i64)
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_reads_what_is_stored_about_them_and_is_forgotten_by_a_button() {
    let h = BotHarness::start(&[("DEFAULT_TIME_CONTROL", "none")]).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let birger = Who::member(BIRGER, "Birger");
    h.challenge_accepted(CHANNEL, &astrid, (BIRGER, "Birger"), json!([]))
        .await;
    h.play(&astrid, CHANNEL, "a4-a3").await;
    h.play(&birger, CHANNEL, "e3-d3").await;

    // A tournament in sign-up, which she enters.
    let organiser = organiser(ORG);
    let options = json!([
        {"name": "name", "type": 3, "value": "Spring Open"},
        {"name": "format", "type": 4, "value": 0},
        {"name": "seats", "type": 4, "value": 8},
    ]);
    let created = h.tournament(&organiser, HALL, "create", options).await;
    assert!(
        created.content().contains("Spring Open"),
        "{}",
        created.content()
    );
    let joined = h.tournament(&astrid, HALL, "join", json!([])).await;
    assert!(
        joined.content().contains("Spring Open"),
        "{}",
        joined.content()
    );

    // Under way: refused in one line for her alone, nothing changed.
    let (_, refused) = h
        .tablut(&astrid, CHANNEL, "forget-me", json!([]), &[])
        .await;
    assert!(refused.ephemeral(), "{:?}", refused.json);
    let words = refused.content();
    assert!(
        words.contains("1 game under way")
            && words.contains("1 tournament not over")
            && !words.contains('\n'),
        "{words}"
    );
    assert!(refused.button_ids().is_empty());
    let left = h.tournament(&astrid, HALL, "leave", json!([])).await;
    assert!(left.content().contains("Spring Open"), "{}", left.content());

    let (_, resigned) = h.tablut(&astrid, CHANNEL, "resign", json!([]), &[]).await;
    assert!(
        resigned.content().contains("resign"),
        "{}",
        resigned.content()
    );
    h.outbox_settled().await;

    // What is stored about her: a file for her alone, the rows as the database holds them.
    let (id, answer) = h.tablut(&astrid, CHANNEL, "privacy", json!([]), &[]).await;
    assert!(response(&h, id).ephemeral(), "acknowledged for her alone");
    assert!(
        answer.content().contains("attached file"),
        "{}",
        answer.content()
    );
    let file: Value = serde_json::from_slice(answer.file(".json").expect("a JSON file")).unwrap();
    assert_eq!(file["user"], ASTRID.to_string());
    assert_eq!(file["names"], json!(["Astrid"]));
    // A read of many rows: once per wait between costly commands, refused at once otherwise.
    let (_, again) = h.tablut(&astrid, CHANNEL, "privacy", json!([]), &[]).await;
    assert_eq!(
        again.callback_type(),
        Some(4),
        "refused before any acknowledgement"
    );
    assert!(
        again.ephemeral() && again.content().contains("try again in"),
        "{}",
        again.content()
    );
    let table = |name: &str| -> Vec<Value> {
        file["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["table"] == name)
            .unwrap_or_else(|| panic!("no table {name}"))["rows"]
            .as_array()
            .unwrap()
            .clone()
    };
    let mine = ratings(&h, ASTRID).await;
    let players = table("players");
    assert_eq!(players.len(), mine.len());
    assert_eq!(players[0]["rating"].as_f64(), Some(mine[0].0));
    assert_eq!(players[0]["rated_games"], mine[0].2);
    let games = table("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["attacker_user_id"], ASTRID.to_string());
    assert_eq!(games[0]["defender_name"], "Birger");
    assert_eq!(games[0]["result"], "defenders_won");
    assert_eq!(table("moves").len(), 1);
    assert_eq!(table("challenges").len(), 1);
    let held: Vec<String> = where_held(&h, ASTRID, "Astrid")
        .await
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    for t in file["tables"].as_array().unwrap() {
        let name = t["table"].as_str().unwrap();
        let has_rows = !t["rows"].as_array().unwrap().is_empty();
        assert_eq!(has_rows, held.iter().any(|h| h == name), "{name}");
    }

    // Forget me: asked privately with a button, shown in place of the question once pressed.
    let birger_before = ratings(&h, BIRGER).await;
    let (_, question) = h
        .tablut(&astrid, CHANNEL, "forget-me", json!([]), &[])
        .await;
    assert!(question.ephemeral());
    assert!(
        question.content().contains("cannot be undone"),
        "{}",
        question.content()
    );
    let buttons = question.button_ids();
    assert_eq!(buttons, [format!("tablut:forget-me:{ASTRID}")]);
    let question_id = question.created.unwrap();
    // Pressed by another: refused. Pressed while a challenge to her is open: refused at once,
    // for her alone, and nothing changed.
    let other = h.fake.click(&birger, CHANNEL, question_id, &buttons[0]);
    let refused = h.fake.answer(other).await;
    assert!(refused.ephemeral() && refused.content().contains("for the member who asked"));
    let id = h.fake.command(
        &birger,
        CHANNEL,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": ASTRID.to_string()}]),
        &[(ASTRID, "Astrid", false)],
    );
    let challenge = h.fake.answer(id).await;
    let early = h.fake.click(&astrid, CHANNEL, question_id, &buttons[0]);
    let refused = h.fake.answer(early).await;
    assert_eq!(
        refused.callback_type(),
        Some(4),
        "refused before any acknowledgement"
    );
    assert!(refused.ephemeral(), "{:?}", refused.json);
    assert!(
        refused.content().contains("1 open challenge"),
        "{}",
        refused.content()
    );
    assert!(!ratings(&h, ASTRID).await.is_empty(), "nothing changed");
    let decline = challenge
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:decline:"))
        .unwrap();
    let declined = h
        .fake
        .click(&astrid, CHANNEL, challenge.created.unwrap(), &decline);
    h.fake.answer(declined).await;
    h.outbox_settled().await;
    let press = h.fake.click(&astrid, CHANNEL, question_id, &buttons[0]);
    let done = h.fake.answer(press).await;
    assert_eq!(
        response(&h, press).callback_type(),
        Some(6),
        "a deferred update"
    );
    assert!(
        done.content()
            .starts_with("Done: the bot has forgotten you"),
        "{}",
        done.content()
    );
    assert!(
        done.content().contains("1 finished game"),
        "{}",
        done.content()
    );
    assert!(done.button_ids().is_empty(), "the button goes");
    h.outbox_settled().await;
    assert!(h
        .fake
        .shown(CHANNEL)
        .iter()
        .all(|m| !m.content().contains("forgotten")));

    let left = where_held(&h, ASTRID, "Astrid").await;
    assert!(left.is_empty(), "her id or name is still in {left:?}");
    assert_eq!(ratings(&h, BIRGER).await, birger_before);
    assert!(ratings(&h, ASTRID).await.is_empty());
    let (_, history) = h.tablut(&birger, CHANNEL, "history", json!([]), &[]).await;
    assert!(
        history.content().contains("a former player"),
        "{}",
        history.content()
    );
    let (_, replay) = h.tablut(&birger, CHANNEL, "replay", json!([]), &[]).await;
    let gif = replay.file(".gif").expect("the replay");
    assert!(gif.starts_with(b"GIF89a"));
    h.fake.assert_contract();
}
