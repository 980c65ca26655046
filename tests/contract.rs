//! The fake Discord's contract check: it refuses what Discord's OpenAPI document refuses,
//! accepts what the bot legitimately sends, answers a violation as Discord would, and fails the
//! test that let one through.

mod support;

use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex, OnceLock};
use support::bot_harness::BotHarness;
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

const ASTRID: u64 = 900_000_000_000_000_301;

fn command_option<'a>(commands: &'a Value, path: &[&str]) -> &'a Value {
    let mut node = commands
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == path[0]))
        .unwrap_or_else(|| panic!("no command {}", path[0]));
    for name in &path[1..] {
        node = node["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == *name))
            .unwrap_or_else(|| panic!("no option {name} in {path:?}"));
    }
    node
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_input_is_quoted_short_and_free_text_options_have_a_max_length() {
    let h = BotHarness::start(&[]).await;
    let registered = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .expect("the commands registered");
    let commands = &registered.json;
    assert_eq!(
        command_option(commands, &["move", "notation"])["max_length"],
        40
    );
    for sub in ["challenge", "ai"] {
        assert_eq!(
            command_option(commands, &["tablut", sub, "time"])["max_length"],
            20
        );
    }

    let astrid = Who::member(ASTRID, "Astrid");
    let ai = json!([{"name": "side", "type": 4, "value": 0}]);
    let (_, started) = h.tablut(&astrid, 10, "ai", ai, &[]).await;
    assert!(
        started.content().contains("Game on!"),
        "{}",
        started.content()
    );
    // Discord holds options to their max_length; the bot must not rely on it.
    const LIMIT: usize = tablut_bot::echo::ECHO_LIMIT;
    for (typed, quoted) in [
        (
            "Q".repeat(5000),
            format!("'{}…' is not a move", "Q".repeat(LIMIT)),
        ),
        (
            format!("a{}", "9".repeat(5000)),
            format!("'a{}…' is not a square", "9".repeat(LIMIT - 1)),
        ),
        (
            format!("e1-\n{}", "3".repeat(5000)),
            format!("'e1- {}…' is not a move", "3".repeat(LIMIT - 4)),
        ),
    ] {
        let r = h.play(&astrid, 10, &typed).await;
        let text = r.content();
        assert!(r.ephemeral() && text.contains(&quoted), "{text}");
        assert!(text.chars().count() < 200 && !text.contains('\n'), "{text}");
    }
    let time = json!([
        {"name": "opponent", "type": 6, "value": "5"},
        {"name": "time", "type": 3, "value": format!("1{}", "d".repeat(5000))},
    ]);
    let (_, r) = h
        .tablut(&astrid, 11, "challenge", time, &[(5, "Birger", false)])
        .await;
    let text = r.content();
    assert!(
        r.ephemeral()
            && text.starts_with(&format!(
                "'1{}…' is not a time control",
                "d".repeat(LIMIT - 1)
            )),
        "{text}"
    );
    assert!(text.chars().count() < 200, "{text}");

    // Autocomplete: at most 25 choices, whatever is typed.
    let id = h.fake.autocomplete(&astrid, 10, "move", "notation", "");
    let choices = h.fake.callback(id).await.json["data"]["choices"].clone();
    assert_eq!(choices.as_array().map(Vec::len), Some(25), "{choices}");
    let id = h
        .fake
        .autocomplete(&astrid, 10, "move", "notation", &"e".repeat(5000));
    let choices = h.fake.callback(id).await.json["data"]["choices"].clone();
    assert_eq!(choices, json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_are_listed_within_the_limit_on_pages() {
    let h = BotHarness::start(&[]).await;
    // Names as long as Discord allows (32), every character one that is escaped.
    let name = "*_".repeat(16);
    let ai = json!([{"name": "side", "type": 4, "value": 0}]);
    for k in 0..30u64 {
        let who = Who::member(ASTRID + k, &name);
        let (_, started) = h.tablut(&who, 100 + k, "ai", ai.clone(), &[]).await;
        assert!(
            started.content().contains("Game on!"),
            "{}",
            started.content()
        );
    }
    let (_, games) = h
        .tablut(&Who::member(ASTRID, "Astrid"), 1, "games", json!([]), &[])
        .await;
    let text = games.content();
    assert!(
        text.chars().count() <= 2000,
        "{} characters",
        text.chars().count()
    );
    // The first of the pages (a page's lines within Discord's 2 000 characters).
    let pages: usize = text
        .strip_prefix("**Games in progress** (30, page 1/")
        .and_then(|rest| rest.split_once(")\n"))
        .and_then(|(pages, _)| pages.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let shown = text.lines().filter(|l| l.starts_with("• <#")).count();
    assert!(shown >= 5, "{text}");
    assert!(pages > 1 && pages * shown >= 30, "{text}");
}

const BIRGER: u64 = 900_000_000_000_000_302;

/// Astrid challenges Birger in `channel`, Astrid attacking, with `extra` options; returns the
/// Accept button.
async fn challenge(h: &BotHarness, channel: u64, extra: &[Value]) -> String {
    let mut options = vec![
        json!({"name": "opponent", "type": 6, "value": BIRGER.to_string()}),
        json!({"name": "side", "type": 4, "value": 0}),
    ];
    options.extend_from_slice(extra);
    let (_, challenge) = h
        .tablut(
            &Who::member(ASTRID, "Astrid"),
            channel,
            "challenge",
            json!(options),
            &[(BIRGER, "Birger", false)],
        )
        .await;
    challenge
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:accept:"))
        .unwrap_or_else(|| panic!("no accept button: {:?}", challenge.json))
}

/// Birger presses `button` twice at once; returns (the winner's id and answer, the other's
/// answer), the winner being the press not refused.
async fn double_press(
    h: &BotHarness,
    channel: u64,
    button: &str,
) -> ((u64, BotRequest), BotRequest) {
    let birger = Who::member(BIRGER, "Birger");
    let first = h.fake.click(&birger, channel, 1, button);
    let second = h.fake.click(&birger, channel, 1, button);
    let (a, b) = (h.fake.answer(first).await, h.fake.answer(second).await);
    let (winner, other) = if a.ephemeral() {
        ((second, b), a)
    } else {
        ((first, a), b)
    };
    let text = other.content();
    assert!(
        other.ephemeral() && !text.contains('\n'),
        "the second press gets one line for the presser alone: {:?}",
        other.json
    );
    assert!(
        text.contains("being answered right now") || text.contains("already accepted"),
        "{text}"
    );
    (winner, other)
}

fn count(h: &BotHarness, method: &str, path: &str) -> usize {
    h.fake
        .requests()
        .iter()
        .filter(|r| r.method == method && r.path == path)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_is_acknowledged_first_and_a_double_accept_makes_one_game_and_one_thread() {
    let h = BotHarness::start(&[]).await;
    let astrid = Who::member(ASTRID, "Astrid");

    // In a thread: acknowledged (a deferred update) before the thread is made, then edited.
    let accept = challenge(
        &h,
        20,
        &[json!({"name": "thread", "type": 5, "value": true})],
    )
    .await;
    let ((id, edited), _) = double_press(&h, 20, &accept).await;
    let prefix = format!("/api/v10/interactions/{id}/");
    let acknowledged = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.path.starts_with(&prefix))
        .expect("the press acknowledged");
    assert_eq!(
        acknowledged.callback_type(),
        Some(6),
        "{:?}",
        acknowledged.json
    );
    assert_eq!(edited.method, "PATCH");
    assert!(
        edited.path.ends_with("/messages/@original"),
        "{}",
        edited.path
    );
    assert!(edited.button_ids().is_empty() && edited.json["components"] == json!([]));
    let text = edited.content();
    assert!(
        text.starts_with("Challenge accepted: the game is on in <#"),
        "{text}"
    );
    let thread = edited.channel_named();
    let threads: Vec<BotRequest> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/api/v10/channels/20/threads")
        .collect();
    assert_eq!(threads.len(), 1, "one thread");
    assert!(
        acknowledged.index < threads[0].index,
        "acknowledged before the thread"
    );
    let first = h.fake.channel_message(thread).await;
    assert!(first.content().contains("Game on!"), "{}", first.content());
    let r = h.play(&astrid, thread, "a4-a3").await;
    assert!(r.content().contains("played **a4-a3**"), "{}", r.content());

    // In the channel: answered at once with the game; the double press starts one game.
    let accept = challenge(&h, 21, &[]).await;
    let ((_, started), _) = double_press(&h, 21, &accept).await;
    assert_eq!(started.method, "PATCH", "the challenge's message edited");
    assert!(
        started.content().contains("Game on!"),
        "{}",
        started.content()
    );
    let (_, games) = h.tablut(&astrid, 1, "games", json!([]), &[]).await;
    assert!(
        games.content().starts_with("**Games in progress** (2)"),
        "{}",
        games.content()
    );

    // A later press is told the challenge is taken, in one line.
    let late = h.fake.click(&Who::member(BIRGER, "Birger"), 21, 1, &accept);
    let late = h.fake.answer(late).await;
    assert!(
        late.ephemeral() && late.content().contains("already accepted"),
        "{}",
        late.content()
    );
    assert_eq!(count(&h, "POST", "/api/v10/channels/21/threads"), 0);
    assert_eq!(count(&h, "POST", "/api/v10/channels/20/threads"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_that_cannot_be_made_is_told_after_the_acknowledgement_and_the_challenge_stays() {
    let h = BotHarness::start(&[]).await;
    let birger = Who::member(BIRGER, "Birger");
    let accept = challenge(
        &h,
        22,
        &[json!({"name": "thread", "type": 5, "value": true})],
    )
    .await;
    for (fault, words) in [
        (Fault::Status(403), "may not create threads in this channel"),
        (Fault::Status(500), "please try again"),
    ] {
        h.fake.fail("POST", "/channels/22/threads", 1, fault);
        let id = h.fake.click(&birger, 22, 1, &accept);
        // The answer past the neutral first follow-up (deleted at once) that Discord shows
        // with the acknowledgement's visibility.
        let told = h.fake.answer(id).await;
        let acknowledged = h
            .fake
            .requests()
            .into_iter()
            .find(|r| r.path.starts_with(&format!("/api/v10/interactions/{id}/")))
            .expect("acknowledged");
        assert_eq!(acknowledged.callback_type(), Some(6));
        assert_eq!(
            told.method, "POST",
            "a follow-up, the message left as it was"
        );
        let text = told.content();
        assert!(
            told.ephemeral() && text.contains(words) && !text.contains('\n'),
            "{text}"
        );
    }
    // The challenge is still open: the next press starts the game in a thread.
    let id = h.fake.click(&birger, 22, 1, &accept);
    assert_eq!(h.fake.callback(id).await.callback_type(), Some(6));
    let edited = h.fake.followup(id).await;
    assert!(
        edited.content().starts_with("Challenge accepted"),
        "{}",
        edited.content()
    );
    let (_, games) = h
        .tablut(&Who::member(ASTRID, "Astrid"), 1, "games", json!([]), &[])
        .await;
    assert!(
        games.content().starts_with("**Games in progress** (1)"),
        "{}",
        games.content()
    );
}

/// Everything logged in this test binary, as the bot's log would show it (no redaction here:
/// the code that logs must leave tokens out).
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
            .with_ansi(false)
            .with_writer(move || LogSink(sink.clone()))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
        logs
    })
    .clone()
}

struct LogSink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Waits until the log holds `line`.
async fn logged(logs: &Mutex<Vec<u8>>, line: &str) -> String {
    let waiting = support::Waiting::for_(format!("'{line}' logged"));
    loop {
        let text = String::from_utf8_lossy(&logs.lock().unwrap()).to_string();
        if text.contains(line) {
            return text;
        }
        waiting.again().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_logs_of_failed_answers_carry_no_token() {
    let logs = captured_logs();
    let h = BotHarness::start(&[]).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let ai = json!([{"name": "side", "type": 4, "value": 0}]);
    h.tablut(&astrid, 30, "ai", ai, &[]).await;
    let mut tokens = Vec::new();

    // A command whose answer fails, and then its error message too.
    h.fake.fail("POST", "/callback", 2, Fault::Status(500));
    let id = h
        .fake
        .command(&astrid, 30, "tablut", Some("board"), json!([]), &[]);
    tokens.push(format!("token-{id}"));
    logged(&logs, "could not send a private answer").await;
    // A button refused (not hers to decline), its acknowledgement and its refusal failing.
    let decline = challenge(&h, 31, &[])
        .await
        .replace("tablut:accept:", "tablut:decline:");
    h.fake.fail("POST", "/callback", 2, Fault::Status(500));
    let id = h.fake.click(&astrid, 31, 1, &decline);
    tokens.push(format!("token-{id}"));
    logged(&logs, "could not answer a button").await;
    // A button whose change lands and whose acknowledgement fails (its news is shown all the
    // same).
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let id = h
        .fake
        .click(&Who::member(BIRGER, "Birger"), 31, 1, &decline);
    tokens.push(format!("token-{id}"));
    logged(&logs, "could not acknowledge a press").await;
    // A move whose acknowledgement fails (its news is shown all the same).
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let id = send_move(&h, 30, &(astrid.clone(), "a4-a3"));
    tokens.push(format!("token-{id}"));
    let text = logged(&logs, "could not acknowledge a command").await;

    for line in ["command failed", "could not acknowledge a press", "500"] {
        assert!(
            text.contains(line),
            "the log says what failed ({line}):\n{text}"
        );
    }
    assert!(text.contains("<redacted>"), "{text}");
    for token in tokens.iter().map(String::as_str).chain([TOKEN]) {
        assert!(!text.contains(token), "the log holds {token}:\n{text}");
    }
    assert!(
        !text.contains("token-"),
        "the log holds an interaction token:\n{text}"
    );
}

/// A game in `channel`, Astrid attacking Birger; the moves it goes on with, in turn.
async fn game_for_faults(h: &BotHarness, channel: u64) -> Vec<(Who, &'static str)> {
    let accept = challenge(h, channel, &[]).await;
    let click = h
        .fake
        .click(&Who::member(BIRGER, "Birger"), channel, 1, &accept);
    let started = h.fake.answer(click).await;
    assert!(
        started.content().contains("Game on!"),
        "{}",
        started.content()
    );
    let (a, b) = (Who::member(ASTRID, "Astrid"), Who::member(BIRGER, "Birger"));
    vec![
        (a.clone(), "a6-a7"),
        (b.clone(), "e4-c4"),
        (a.clone(), "i6-i7"),
        (b.clone(), "e5-e4"),
        (a, "a4-a3"),
    ]
}

/// `/move` dispatched now; its answer awaited later.
fn send_move(h: &BotHarness, channel: u64, (who, notation): &(Who, &str)) -> u64 {
    h.fake.command(
        who,
        channel,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": notation}]),
        &[],
    )
}

async fn assert_played(h: &BotHarness, id: u64, notation: &str) {
    let answer = h.fake.answer(id).await;
    let text = answer.content();
    assert!(text.contains(&format!("played **{notation}")), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_abnormal_close_or_a_4000_the_client_resumes_and_gets_what_it_missed() {
    let h = BotHarness::start(&[]).await;
    let moves = game_for_faults(&h, 40).await;
    let identified = h.fake.identifies();
    for (round, code) in [None, Some(4000)].into_iter().enumerate() {
        let resumed = h.fake.resumes();
        h.fake.close_gateway(code);
        // Dispatched while the client is away: delivered when it resumes.
        let during = &moves[2 * round];
        let id = send_move(&h, 40, during);
        assert_played(&h, id, during.1).await;
        assert_eq!(h.fake.resumes(), resumed + 1, "{code:?}: resumed");
        assert_eq!(h.fake.identifies(), identified, "{code:?}: no new session");
        // And the game goes on.
        let after = &moves[2 * round + 1];
        let id = send_move(&h, 40, after);
        assert_played(&h, id, after.1).await;
    }
    // Each move was acknowledged once, and shown once.
    let answers = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/callback") && r.callback_type() == Some(5))
        .count();
    assert_eq!(answers, 4 + 1, "the moves and the challenge");
    let shown = h.fake.shown(40);
    assert_eq!(
        shown
            .iter()
            .filter(|r| r.content().contains("played **"))
            .count(),
        4
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_heartbeats_go_unacknowledged_the_client_resumes_and_gets_what_it_missed() {
    let h = BotHarness::start(&[]).await;
    let moves = game_for_faults(&h, 41).await;
    let (identified, resumed) = (h.fake.identifies(), h.fake.resumes());
    // A zombied connection: open, but heartbeats go unacknowledged and nothing is dispatched
    // on it. The move sent meanwhile waits in the session.
    h.fake.withhold_heartbeat_acks();
    let during = send_move(&h, 41, &moves[0]);
    // The client closes the connection and RESUMEs the session on a new one (not a fresh
    // IDENTIFY, which would lose the move), and the move is delivered and answered.
    assert_played(&h, during, moves[0].1).await;
    assert_eq!(h.fake.resumes(), resumed + 1, "resumed");
    assert_eq!(h.fake.identifies(), identified, "no new session");
    // The resumed connection's heartbeats are acknowledged: it stays (three heartbeats later,
    // still one RESUME), and the game goes on.
    let acks = h.fake.heartbeat_acks();
    h.fake.wait_heartbeat_acks(acks, 3).await;
    let after = send_move(&h, 41, &moves[1]);
    assert_played(&h, after, moves[1].1).await;
    assert_eq!(h.fake.resumes(), resumed + 1, "one RESUME");
    assert_eq!(h.fake.identifies(), identified, "still no new session");
    // Each move answered once.
    for id in [during, after] {
        let prefix = format!("/api/v10/interactions/{id}/");
        let answers = h
            .fake
            .requests()
            .into_iter()
            .filter(|r| r.path.starts_with(&prefix))
            .count();
        assert_eq!(answers, 1, "interaction {id} answered once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zombied_connection_whose_session_cannot_be_resumed_identifies_afresh() {
    let h = BotHarness::start(&[]).await;
    let moves = game_for_faults(&h, 43).await;
    let (identified, resumed) = (h.fake.identifies(), h.fake.resumes());
    // Heartbeats go unacknowledged, and the session has expired by the time the client
    // RESUMEs: Discord answers INVALID_SESSION, and the client starts a new session.
    h.fake.expire_sessions();
    h.fake.withhold_heartbeat_acks();
    let lost = send_move(&h, 43, &moves[0]);
    h.fake.wait_reconnected(identified + 1, u64::MAX).await;
    assert_eq!(h.fake.resumes(), resumed, "the RESUME was refused");
    assert_eq!(h.fake.identifies(), identified + 1, "a fresh IDENTIFY");
    // The move dispatched in the expired session is gone (as on Discord); sent again, it is
    // played.
    let again = send_move(&h, 43, &moves[0]);
    assert_played(&h, again, moves[0].1).await;
    let prefix = format!("/api/v10/interactions/{lost}/");
    assert!(
        h.fake
            .requests()
            .iter()
            .all(|r| !r.path.starts_with(&prefix)),
        "the lost interaction never reached the bot"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_session_makes_the_client_identify_afresh_and_the_game_goes_on() {
    let h = BotHarness::start(&[]).await;
    let moves = game_for_faults(&h, 42).await;
    let (identified, resumed) = (h.fake.identifies(), h.fake.resumes());
    h.fake.invalidate_session();
    h.fake.wait_reconnected(identified + 1, u64::MAX).await;
    assert_eq!(
        h.fake.resumes(),
        resumed,
        "an invalid session is not resumed"
    );
    assert_eq!(h.fake.identifies(), identified + 1);
    for m in &moves[..2] {
        let id = send_move(&h, 42, m);
        assert_played(&h, id, m.1).await;
    }
}
