//! End to end: `/tablut vacation start` · `end` · `status` through the real client against the
//! fake Discord (every request checked against Discord's OpenAPI description): each refusal
//! (0 days, more than the allowance, a vacation twice, an end with none on) one private line,
//! answered before anything is acknowledged, nothing posted; the answers the member's alone;
//! the game's channel told once at the start and once at the end, naming the member as text.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use serde_json::{json, Value};

const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;
const CHANNEL: u64 = 45;

fn vacation(sub: &str, options: Value) -> Value {
    json!([{"name": "vacation", "type": 2, "options": [{"name": sub, "type": 1, "options": options}]}])
}

/// `/tablut vacation sub` by `who`: its callback, and what it shows.
async fn ask(h: &BotHarness, who: &Who, sub: &str, options: Value) -> (BotRequest, BotRequest) {
    let id = h
        .fake
        .command(who, CHANNEL, "tablut", None, vacation(sub, options), &[]);
    let answer = h.fake.answer(id).await;
    let prefix = format!("/api/v10/interactions/{id}/");
    let callback = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.path.starts_with(&prefix));
    (callback.expect("a callback"), answer)
}

/// The channel's posts about vacations.
fn told(h: &BotHarness) -> Vec<String> {
    h.fake
        .shown(CHANNEL)
        .iter()
        .map(BotRequest::content)
        .filter(|c| c.contains("vacation"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_started_and_ended_privately_and_told_in_the_games_channel_once_each() {
    let h = BotHarness::start(&[("DEFAULT_TIME_CONTROL", "2d")]).await;
    let astrid = Who::member(ASTRID, "Astrid [x](https://x.io)");
    h.challenge_accepted(CHANNEL, &astrid, (BIRGER, "Birger"), json!([]))
        .await;

    // Refusals: one private line each, at once, nothing posted.
    for (sub, options, words) in [
        ("end", json!([]), "You are not on vacation"),
        (
            "start",
            json!([{"name": "days", "type": 4, "value": 0}]),
            "ask for 1 to 30",
        ),
        (
            "start",
            json!([{"name": "days", "type": 4, "value": 31}]),
            "ask for 1 to 30",
        ),
    ] {
        let (callback, refused) = ask(&h, &astrid, sub, options).await;
        assert_eq!(
            callback.callback_type(),
            Some(4),
            "refused before any acknowledgement"
        );
        assert!(refused.ephemeral(), "{:?}", refused.json);
        let text = refused.content();
        assert!(text.contains(words) && !text.contains('\n'), "{text}");
    }
    assert!(told(&h).is_empty());

    // Started: her answer alone; the channel told once, her name as text.
    let (callback, started) = ask(
        &h,
        &astrid,
        "start",
        json!([{"name": "days", "type": 4, "value": 3}]),
    )
    .await;
    assert!(callback.ephemeral(), "acknowledged for her alone");
    assert!(started.ephemeral());
    assert!(
        started
            .content()
            .starts_with("You are on vacation until <t:"),
        "{}",
        started.content()
    );
    assert!(
        started.content().contains("27 days"),
        "{}",
        started.content()
    );
    h.outbox_settled().await;
    let posts = told(&h);
    assert_eq!(posts.len(), 1, "{posts:?}");
    assert!(
        posts[0].starts_with(r"**Astrid \[x\]\(https\://x\.io\)** is on vacation until <t:"),
        "{}",
        posts[0]
    );

    // Twice: refused. The status: on vacation.
    let (_, twice) = ask(
        &h,
        &astrid,
        "start",
        json!([{"name": "days", "type": 4, "value": 1}]),
    )
    .await;
    assert!(
        twice.ephemeral() && twice.content().contains("already on vacation"),
        "{}",
        twice.content()
    );
    let (_, status) = ask(&h, &astrid, "status", json!([])).await;
    assert!(
        status.ephemeral()
            && status
                .content()
                .starts_with("You are on vacation since <t:"),
        "{}",
        status.content()
    );

    // Ended: her answer alone; the channel told once more.
    let (_, ended) = ask(&h, &astrid, "end", json!([])).await;
    assert!(
        ended.ephemeral() && ended.content().starts_with("Welcome back"),
        "{}",
        ended.content()
    );
    h.outbox_settled().await;
    let posts = told(&h);
    assert_eq!(posts.len(), 2, "{posts:?}");
    assert!(posts[1].contains("is back from vacation"), "{}", posts[1]);
    let (_, status) = ask(&h, &astrid, "status", json!([])).await;
    assert!(
        status.content().starts_with("You are not on vacation."),
        "{}",
        status.content()
    );
    h.fake.assert_contract();
}
