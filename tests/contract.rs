//! The fake Discord's contract check: it refuses what Discord's OpenAPI document refuses,
//! accepts what the bot legitimately sends, answers a violation as Discord would, and fails the
//! test that let one through.

mod support;

use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use support::fake_discord::contract::{check, Body};
use support::fake_discord::*;

fn post(path: &str, body: Value) -> Result<(), u16> {
    check("POST", path, &Body::Json(Some(&body))).map_err(|v| v.status)
}

const CALLBACK: &str = "/api/v10/interactions/1/token-1/callback";

#[test]
fn routes_and_methods_come_from_the_document() {
    assert_eq!(
        check("GET", "/api/v10/gateway", &Body::Empty).map_err(|v| v.status),
        Ok(())
    );
    assert_eq!(
        check("GET", "/api/v10/oauth2/applications/@me", &Body::Empty).map_err(|v| v.status),
        Ok(())
    );
    let no_route = check(
        "POST",
        "/api/v10/channels/1/messagez",
        &Body::Json(Some(&json!({}))),
    );
    assert_eq!(no_route.map_err(|v| v.status), Err(404));
    assert_eq!(
        check("POST", "/v9/channels/1/messages", &Body::Empty).map_err(|v| v.status),
        Err(404)
    );
    let wrong_method = check("PUT", "/api/v10/gateway", &Body::Empty);
    assert_eq!(wrong_method.map_err(|v| v.status), Err(405));
    // The literal `@original` wins over `{message_id}`; both take a PATCH.
    let edit = json!({"content": "edited", "components": []});
    let original = check(
        "PATCH",
        "/api/v10/webhooks/1/token-1/messages/@original",
        &Body::Json(Some(&edit)),
    );
    assert_eq!(original.map_err(|v| v.status), Ok(()));
    // A body where the route requires one.
    assert_eq!(
        check("POST", CALLBACK, &Body::Empty).map_err(|v| v.status),
        Err(400)
    );
    assert_eq!(
        check("POST", CALLBACK, &Body::Json(None)).map_err(|v| v.status),
        Err(400)
    );
}

#[test]
fn message_bodies_are_held_to_the_schema_and_the_content_limit() {
    let messages = "/api/v10/channels/5/messages";
    assert_eq!(post(messages, json!({"content": "hello"})), Ok(()));
    assert_eq!(post(messages, json!({"content": "x".repeat(2000)})), Ok(()));
    // The schema allows 4 000 here; Discord holds messages to 2 000.
    assert_eq!(
        post(messages, json!({"content": "x".repeat(2001)})),
        Err(400)
    );
    assert_eq!(
        post(messages, json!({"content": "x".repeat(4001)})),
        Err(400)
    );
    assert_eq!(post(messages, json!({"content": 5})), Err(400));
    assert_eq!(post(messages, json!({"tts": "yes"})), Err(400));
    // Characters, not bytes: 2 000 two-byte characters are within the limit.
    assert_eq!(post(messages, json!({"content": "é".repeat(2000)})), Ok(()));
    let button = |label: &str, id: &str| {
        json!({"content": "c", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": label, "custom_id": id}]}]})
    };
    assert_eq!(post(messages, button("Accept", "tablut:accept:1")), Ok(()));
    assert_eq!(
        post(messages, button(&"l".repeat(81), "tablut:accept:1")),
        Err(400)
    );
    assert_eq!(post(messages, button("Accept", &"i".repeat(101))), Err(400));
    let thread = |name: String| json!({"name": name, "type": 11});
    assert_eq!(
        post("/api/v10/channels/5/threads", thread("x".repeat(100))),
        Ok(())
    );
    assert_eq!(
        post("/api/v10/channels/5/threads", thread("x".repeat(101))),
        Err(400)
    );
}

#[test]
fn snowflakes_may_be_non_negative_integers_and_nothing_else() {
    let messages = "/api/v10/channels/5/messages";
    let attachment = |id: Value| json!({"content": "c", "attachments": [{"id": id}]});
    assert_eq!(post(messages, attachment(json!("0"))), Ok(()));
    assert_eq!(post(messages, attachment(json!(0))), Ok(()));
    assert_eq!(post(messages, attachment(json!(u64::MAX))), Ok(()));
    assert_eq!(post(messages, attachment(json!(-1))), Err(400));
    assert_eq!(post(messages, attachment(json!(1.5))), Err(400));
    assert_eq!(post(messages, attachment(json!("01"))), Err(400));
    assert_eq!(post(messages, attachment(json!("abc"))), Err(400));
}

#[test]
fn interaction_callbacks_and_autocomplete_limits() {
    assert_eq!(post(CALLBACK, json!({"type": 6})), Ok(()));
    assert_eq!(
        post(
            CALLBACK,
            json!({"type": 4, "data": {"content": "hi", "flags": 64}})
        ),
        Ok(())
    );
    assert_eq!(
        post(
            CALLBACK,
            json!({"type": 4, "data": {"content": "x".repeat(2001)}})
        ),
        Err(400)
    );
    assert_eq!(post(CALLBACK, json!({"type": 42})), Err(400));
    let choices = |n: usize, len: usize| {
        let c: Vec<Value> = (0..n)
            .map(|i| json!({"name": format!("{i:02}{}", "n".repeat(len - 2)), "value": "v"}))
            .collect();
        json!({"type": 8, "data": {"choices": c}})
    };
    assert_eq!(post(CALLBACK, choices(25, 100)), Ok(()));
    assert_eq!(post(CALLBACK, choices(26, 5)), Err(400));
    assert_eq!(post(CALLBACK, choices(3, 101)), Err(400));
    // A multipart body's payload_json is checked the same way, and its parts must be files.
    let long = json!({"type": 4, "data": {"content": "x".repeat(2001)}});
    let multipart = |payload: &Value, parts: &[&str]| {
        check(
            "POST",
            CALLBACK,
            &Body::Multipart {
                payload: Some(Some(payload)),
                parts: parts.iter().map(|p| p.to_string()).collect(),
            },
        )
        .map_err(|v| v.status)
    };
    let short = json!({"type": 4, "data": {"content": "board", "attachments": [{"id": 0}]}});
    assert_eq!(multipart(&short, &["files[0]"]), Ok(()));
    assert_eq!(multipart(&long, &["files[0]"]), Err(400));
    assert_eq!(multipart(&short, &["file"]), Err(400));
}

fn http(fake: &FakeDiscord) -> serenity::Http {
    serenity::HttpBuilder::new(TOKEN)
        .proxy(fake.base_url.as_str())
        .ratelimiter_disabled(true)
        .build()
}

#[tokio::test]
async fn the_fake_answers_a_violation_as_discord_would_and_records_it() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = serenity::ChannelId::new(5);
    let fine = http
        .send_message(channel, Vec::new(), &json!({"content": "hello"}))
        .await;
    assert!(fine.is_ok(), "{fine:?}");
    assert!(fake.violations().is_empty());
    let refused = http
        .send_message(channel, Vec::new(), &json!({"content": "x".repeat(2001)}))
        .await;
    match refused {
        Err(serenity::Error::Http(e)) => {
            assert_eq!(e.status_code(), Some(serenity::StatusCode::BAD_REQUEST))
        }
        other => panic!("expected a 400, got {other:?}"),
    }
    let violations = fake.take_violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(violations[0].contains("2001 characters"), "{violations:?}");
    fake.assert_contract();
}

#[tokio::test]
#[should_panic(expected = "the bot sent requests Discord would refuse")]
async fn a_violation_fails_the_test_when_the_fake_is_dropped() {
    let fake = FakeDiscord::start().await;
    let copy = fake.clone();
    let _ = http(&fake)
        .send_message(
            serenity::ChannelId::new(5),
            Vec::new(),
            &json!({"tts": "yes"}),
        )
        .await;
    drop(fake);
    // The check waits for the last handle.
    assert_eq!(copy.violations().len(), 1);
    drop(copy);
}
