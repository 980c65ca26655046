//! Delivery under faults, end to end: the real client against the fake Discord, which fails
//! chosen requests the way Discord does (500, 502, a request that hangs until the client's
//! time-out, a request taken but whose answer is lost, 429 per route and global, Discord's
//! error codes: Unknown Channel, Missing Permissions, Invalid Form Body; 401) or a proxy in
//! front of it would (a bare 404 or 502, without Discord's error body).
//! Each test checks what the channel shows: every message once, nothing lost, and the game
//! going on.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use crate::support::Waiting;
use serde_json::json;
use std::time::Duration;

const ASTRID: u64 = 900_000_000_000_000_201;
const BIRGER: u64 = 900_000_000_000_000_202;

/// Short AI times, a fast clock, quick retries and a short HTTP time-out (so a move's answer
/// not shown is posted after 1.8 s), so faults resolve in a second or two.
const SETTINGS: &[(&str, &str)] = &[
    ("AI_EASY_TIME_MS", "30"),
    ("AI_MEDIUM_TIME_MS", "30"),
    ("AI_HARD_TIME_MS", "30"),
    ("AI_GAME_COOLDOWN_SECS", "0"),
    ("AI_GAMES_PER_USER", "20"),
    ("CLOCK_INTERVAL_SECS", "1"),
    ("DEFAULT_TIME_CONTROL", "none"),
    ("DELIVERY_RETRY_MS", "50"),
    ("DISCORD_TIMEOUT_MS", "400"),
];

/// The same with a minute's time-out, so a slow request is waited for (longer than any wait
/// for an event here).
const PATIENT: &[(&str, &str)] = &[
    ("AI_EASY_TIME_MS", "30"),
    ("AI_MEDIUM_TIME_MS", "30"),
    ("AI_HARD_TIME_MS", "30"),
    ("AI_GAME_COOLDOWN_SECS", "0"),
    ("AI_GAMES_PER_USER", "20"),
    ("CLOCK_INTERVAL_SECS", "1"),
    ("DEFAULT_TIME_CONTROL", "none"),
    ("DELIVERY_RETRY_MS", "50"),
    ("DISCORD_TIMEOUT_MS", "60000"),
];

/// Longer than the bot's HTTP time-out.
const HOLD: Duration = Duration::from_secs(3);

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn birger() -> Who {
    Who::member(BIRGER, "Birger")
}

/// The move a message announces (`… played **e1-e3** …`).
pub(crate) fn played(content: &str) -> Option<String> {
    let rest = &content[content.find("played **")? + "played **".len()..];
    Some(rest[..rest.find("**")?].to_string())
}

/// Waits until `channel` shows `n` messages matching `pred`, then until the outbox owes
/// nothing, to see that no more come; returns them.
async fn shown(
    h: &BotHarness,
    channel: u64,
    n: usize,
    pred: impl Fn(&BotRequest) -> bool,
) -> Vec<BotRequest> {
    let found = || -> Vec<BotRequest> { h.fake.shown(channel).into_iter().filter(&pred).collect() };
    let waiting = Waiting::for_("the messages a channel shows");
    while found().len() < n {
        waiting.again().await;
    }
    h.outbox_settled().await;
    let found = found();
    assert_eq!(found.len(), n, "shown more than once: {found:#?}");
    found
}

/// Waits until `channel` has had `n` POSTs to its messages, then until the outbox owes
/// nothing, to see that no more come; returns them.
async fn attempts(h: &BotHarness, channel: u64, n: usize) -> Vec<BotRequest> {
    let waiting = Waiting::for_("the attempts at a channel's post");
    while posts(h, channel).len() < n {
        waiting.again().await;
    }
    h.outbox_settled().await;
    let posts = posts(h, channel);
    assert_eq!(posts.len(), n, "{posts:#?}");
    posts
}

/// The POSTs to a channel's messages so far (every attempt).
fn posts(h: &BotHarness, channel: u64) -> Vec<BotRequest> {
    let path = format!("/api/v10/channels/{channel}/messages");
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == path)
        .collect()
}

/// Astrid starts a game against the easy AI in `channel` (the AI attacking moves first).
async fn ai_attacks(h: &BotHarness, channel: u64) {
    let id = h.fake.command(
        &astrid(),
        channel,
        "tablut",
        Some("ai"),
        json!([{"name": "side", "type": 4, "value": 1},
               {"name": "level", "type": 4, "value": 0}]),
        &[],
    );
    // Its answer, or the post that shows the start if the answer came too late to.
    let started = h.fake.answer(id).await;
    assert!(
        started.content().contains("attacks"),
        "{}",
        started.content()
    );
}

/// A timed game in `channel` whose posts Discord refuses with `refusal`: Astrid's move, its
/// answer failing, is posted by the outbox and refused. Returns once the game's clock has
/// stopped, the game still on.
async fn refused_move(h: &BotHarness, channel: u64, refusal: Fault) {
    let service = h.bot.as_ref().unwrap().service.clone();
    h.challenge_accepted(
        channel,
        &astrid(),
        (BIRGER, "Birger"),
        json!([{"name": "time", "type": 3, "value": "1h"}]),
    )
    .await;
    let path = format!("/channels/{channel}/messages");
    h.fake.fail("POST", &path, usize::MAX, refusal);
    // The answer fails, so the outbox posts the move, and Discord refuses it.
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    h.play(&astrid(), channel, "a4-a3").await;
    let waiting = Waiting::for_("the game's clock to stop");
    loop {
        let game = service
            .games()
            .game_in_channel(channel)
            .await
            .unwrap()
            .unwrap();
        assert!(!game.is_over());
        if game.turn_deadline.is_none() {
            break;
        }
        waiting.again().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ais_move_survives_5xx_time_outs_lost_answers_and_rate_limits() {
    let h = BotHarness::start(SETTINGS).await;
    let faults = [
        (Fault::Status(500), 2),
        (Fault::Status(502), 1),
        (Fault::Hang(HOLD), 1),
        (Fault::Lost(HOLD), 1),
        (
            Fault::RateLimited {
                retry_after: 0.3,
                global: false,
            },
            1,
        ),
    ];
    for (i, (fault, times)) in faults.into_iter().enumerate() {
        let channel = 100 + i as u64;
        let path = format!("/channels/{channel}/messages");
        h.fake.fail("POST", &path, times, fault.clone());
        ai_attacks(&h, channel).await;
        // A post made whose answer was lost is found in the channel by the retry, which
        // does not post again.
        let made = matches!(fault, Fault::Lost(_));
        let attempts = attempts(&h, channel, times + usize::from(!made)).await;
        let moves = shown(&h, channel, 1, |r| played(&r.content()).is_some()).await;
        assert_board(&moves[0]);
        assert!(
            attempts
                .iter()
                .all(|a| a.json["nonce"] == attempts[0].json["nonce"]
                    && a.json["enforce_nonce"] == json!(true)),
            "every attempt carries the same nonce"
        );
        if let Fault::RateLimited { .. } = fault {
            let waited = attempts[1].at - attempts[0].at;
            assert!(waited >= Duration::from_millis(300), "{waited:?}");
        }
        // The game goes on: Astrid answers and the AI replies.
        let moves = h
            .bot
            .as_ref()
            .unwrap()
            .service
            .games()
            .suggest_moves(channel, ASTRID, "", 1)
            .await
            .unwrap();
        let answer = h.play(&astrid(), channel, &moves[0]).await;
        assert_eq!(played(&answer.content()), Some(moves[0].clone()));
        let shown = shown(&h, channel, 3, |r| played(&r.content()).is_some()).await;
        assert_eq!(played(&shown[1].content()), Some(moves[0].clone()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_rate_limit_holds_every_channel() {
    let h = BotHarness::start(SETTINGS).await;
    h.fake.fail(
        "POST",
        "/channels/110/messages",
        1,
        Fault::RateLimited {
            retry_after: 0.5,
            global: true,
        },
    );
    ai_attacks(&h, 110).await;
    let limited = h
        .fake
        .expect("the rate-limited post", |r| r.status == 429)
        .await;
    ai_attacks(&h, 111).await;
    shown(&h, 110, 1, |r| played(&r.content()).is_some()).await;
    shown(&h, 111, 1, |r| played(&r.content()).is_some()).await;
    for channel in [110, 111] {
        // The AI's moves, posted (the start is the command's edited answer).
        let after: Vec<Duration> = posts(&h, channel)
            .iter()
            .filter(|r| r.status == 200 && played(&r.content()).is_some())
            .map(|r| r.at - limited.at)
            .collect();
        assert!(
            after.len() == 1 && after[0] >= Duration::from_millis(500),
            "channel {channel}: {after:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_losses_on_time_first_posts_and_expiries_are_retried_until_they_land() {
    let h = BotHarness::start(SETTINGS).await;
    // A reminder and a loss on time, each through a 500 and a time-out.
    h.challenge_accepted(
        120,
        &astrid(),
        (BIRGER, "Birger"),
        json!([{"name": "time", "type": 3, "value": "1h"}]),
    )
    .await;
    h.fake
        .fail("POST", "/channels/120/messages", 1, Fault::Status(500));
    h.fake
        .fail("POST", "/channels/120/messages", 1, Fault::Hang(HOLD));
    h.clock.advance(Duration::from_secs(1800));
    let reminder = shown(&h, 120, 1, |r| r.content().contains("it is your move")).await;
    assert_board(&reminder[0]);
    h.fake
        .fail("POST", "/channels/120/messages", 1, Fault::Status(502));
    h.fake
        .fail("POST", "/channels/120/messages", 1, Fault::Lost(HOLD));
    h.clock.advance(Duration::from_secs(1800));
    // The retry after the lost answer finds the loss on time in the channel: no third post.
    attempts(&h, 120, 5).await;
    shown(&h, 120, 1, |r| r.content().contains("ran out of time")).await;

    // A game's first post in its thread, through a 500 and a lost answer.
    h.fake.fail("POST", "/messages", 1, Fault::Status(500));
    h.fake.fail("POST", "/messages", 1, Fault::Lost(HOLD));
    let (_, accepted) = h
        .challenge_accepted(
            121,
            &astrid(),
            (BIRGER, "Birger"),
            json!([{"name": "thread", "type": 5, "value": true}]),
        )
        .await;
    let thread = accepted.channel_named();
    let first = shown(&h, thread, 1, |r| r.content().contains("Game on")).await;
    assert_board(&first[0]);

    // An expired challenge's message is edited, through a 502.
    let id = h.fake.command(
        &astrid(),
        122,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    let challenge = h.fake.answer(id).await;
    assert!(!challenge.button_ids().is_empty());
    h.fake
        .fail("PATCH", "/channels/122/messages/", 1, Fault::Status(502));
    // Wait for the challenge's message id to be stored, then let it expire.
    let db = h.database().await;
    let waiting = Waiting::for_("the message id stored");
    while sqlx::query_scalar::<_, i64>(
        "SELECT COUNT(*) FROM challenges WHERE message_id IS NOT NULL",
    )
    .fetch_one(&db)
    .await
    .unwrap()
        == 0
    {
        waiting.again().await;
    }
    db.close().await;
    h.clock.advance(Duration::from_secs(25 * 3600));
    let edit = h
        .fake
        .expect("the challenge message edited", |r| {
            r.method == "PATCH" && r.path.contains("/channels/122/messages/") && r.status == 200
        })
        .await;
    assert!(edit.content().contains("expired"), "{}", edit.content());
    assert_eq!(edit.json["components"], json!([]), "the buttons are gone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_answer_fails_stands_and_is_shown_once() {
    let h = BotHarness::start(SETTINGS).await;
    h.challenge_accepted(130, &astrid(), (BIRGER, "Birger"), json!([]))
        .await;
    let cases = [
        (astrid(), "a4-a3", Fault::Status(500)),
        (birger(), "e3-d3", Fault::Hang(HOLD)),
        (astrid(), "a3-a4", Fault::Lost(HOLD)),
        (birger(), "d3-d2", Fault::Status(502)),
    ];
    // The acknowledgement (the deferred answer) fails: the move goes on, and its news is shown
    // by the edit if Discord took the acknowledgement after all, else posted in the channel.
    for (n, (player, notation, fault)) in cases.into_iter().enumerate() {
        h.fake.fail("POST", "/callback", 1, fault);
        h.play(&player, 130, notation).await;
        let moves = shown(&h, 130, n + 1, |r| played(&r.content()).is_some()).await;
        assert_eq!(played(&moves[n].content()).as_deref(), Some(notation));
    }
    // The edit that shows the move fails: the dispatcher sends it again, shown once, in the
    // deferred answer.
    let service = h.bot.as_ref().unwrap().service.clone();
    let mut played_moves = vec![
        "a4-a3".to_string(),
        "e3-d3".into(),
        "a3-a4".into(),
        "d3-d2".into(),
    ];
    let edit_faults = [
        Fault::Status(500),
        Fault::Hang(HOLD),
        Fault::Lost(HOLD),
        Fault::Status(502),
    ];
    for (n, fault) in edit_faults.into_iter().enumerate() {
        let (player, id) = match n % 2 {
            0 => (astrid(), ASTRID),
            _ => (birger(), BIRGER),
        };
        let notation = service
            .games()
            .suggest_moves(130, id, "", 1)
            .await
            .unwrap()
            .remove(0);
        h.fake.fail("PATCH", "/messages/@original", 1, fault);
        let shown_by = h.play(&player, 130, &notation).await;
        assert_eq!(played(&shown_by.content()), Some(notation.clone()));
        assert_eq!(shown_by.method, "PATCH");
        let moves = shown(&h, 130, 5 + n, |r| played(&r.content()).is_some()).await;
        assert_eq!(played(&moves[4 + n].content()), Some(notation.clone()));
        played_moves.push(notation);
    }
    // Nobody was told to try again, and the moves all landed.
    assert!(!h
        .fake
        .requests()
        .iter()
        .any(|r| r.content().contains("try again")));
    let history = service.games().history(130).await.unwrap();
    assert_eq!(history.moves, played_moves);
    // A resignation whose answer fails is posted by the outbox, once.
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    h.tablut(&birger(), 130, "resign", json!([]), &[]).await;
    let resigned = shown(&h, 130, 1, |r| r.content().contains("resigned")).await;
    assert_board(&resigned[0]);
    assert!(!h
        .fake
        .requests()
        .iter()
        .any(|r| r.content().contains("try again")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_deleted_mid_game_ends_its_game_as_aborted() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    ai_attacks(&h, 140).await;
    shown(&h, 140, 1, |r| played(&r.content()).is_some()).await;
    // The post and the look at the channel that confirms it both say the channel is gone.
    for method in ["POST", "GET"] {
        h.fake.fail(
            method,
            "/channels/140",
            usize::MAX,
            Fault::Error {
                status: 404,
                code: 10003,
                message: "Unknown Channel",
            },
        );
    }
    let moves = service
        .games()
        .suggest_moves(140, ASTRID, "", 1)
        .await
        .unwrap();
    h.play(&astrid(), 140, &moves[0]).await;
    let waiting = Waiting::for_("the game aborted");
    while service
        .games()
        .game_in_channel(140)
        .await
        .unwrap()
        .is_some()
    {
        waiting.again().await;
    }
    let board = service.games().board(140).await.unwrap();
    assert_eq!(
        board.game.outcome.reason(),
        Some(tablut_bot::tafl::Reason::Aborted)
    );
    let notices = service.probe().notices_in(140).await.unwrap();
    let last = notices.last().unwrap();
    assert_eq!(last.status, tablut_bot::service::NoticeStatus::Failed);
    assert_eq!(
        last.failure.as_deref(),
        Some("404: Unknown Channel (code 10003)")
    );
    // Not retried: one attempt only, confirmed by one look at the channel.
    h.outbox_settled().await;
    assert_eq!(posts(&h, 140).iter().filter(|r| r.status == 404).count(), 1);
    let looks = h.fake.requests();
    let looks = looks
        .iter()
        .filter(|r| r.method == "GET" && r.path == "/api/v10/channels/140");
    assert_eq!(looks.count(), 1);
}

/// A single *Unknown Channel* on a post, whose channel a look finds there, is no verdict: the
/// post is tried again and the game goes on (an abort cannot be undone). Discord's codes that
/// mean "later" (too many edits of old messages, a channel's write rate limit) are tried again
/// too, never taken as a refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_unknown_channel_and_codes_that_mean_later_are_tried_again() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let later = [
        (404, 10003, "Unknown Channel"),
        (
            400,
            30046,
            "Maximum number of edits to messages older than 1 hour reached. Try again later",
        ),
        (
            429,
            20028,
            "The channel you are writing has hit the write rate limit",
        ),
    ];
    for (status, code, message) in later {
        let fault = Fault::Error {
            status,
            code,
            message,
        };
        h.fake.fail("POST", "/channels/145/messages", 1, fault);
    }
    ai_attacks(&h, 145).await;
    shown(&h, 145, 1, |r| played(&r.content()).is_some()).await;
    let statuses: Vec<u16> = posts(&h, 145).iter().map(|r| r.status).collect();
    assert_eq!(statuses, [404, 400, 429, 200]);
    assert!(h
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "GET" && r.path == "/api/v10/channels/145"));
    assert!(service
        .games()
        .game_in_channel(145)
        .await
        .unwrap()
        .is_some());
}

/// Writes notices in one transaction, each telling its text in its channel with its nonce, due
/// at once, as the service writes them.
async fn worded_notices(h: &BotHarness, notices: &[(u64, String, String)]) {
    let service = h.bot.as_ref().unwrap().service.clone();
    let now = service.database_now().await.unwrap();
    let pool = h.database().await;
    let mut tx = pool.begin().await.unwrap();
    for (channel, text, nonce) in notices {
        let payload = json!({"news": {"worded": {"kind": "reminder", "text": text}}});
        sqlx::query(
            "INSERT INTO outbox (channel_id, kind, payload, nonce, created_at, next_attempt_at) \
             VALUES (?, 'reminder', ?, ?, ?, ?)",
        )
        .bind(*channel as i64)
        .bind(payload.to_string())
        .bind(nonce)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    pool.close().await;
}

async fn worded_notice(h: &BotHarness, channel: u64, text: &str, nonce: &str) {
    worded_notices(h, &[(channel, text.to_string(), nonce.to_string())]).await;
}

/// The look through a channel before a post tried before finds only the bot's own message that
/// carries the notice's mark: not another notice that reads alike (two reminders, two "busy"
/// notices), nor a member's message, even one that copies the notice's text and mark.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_look_through_the_channel_finds_only_the_bots_own_message_of_the_notice() {
    let h = BotHarness::start(SETTINGS).await;
    let text = "It is your move.";
    worded_notice(&h, 240, text, "first-notice-of-240").await;
    shown(&h, 240, 1, |r| r.content() == text).await;
    // A member posts the next notice's words with its mark (the nonce in tag characters).
    let nonce = "second-notice-of-240";
    let mark: String = std::iter::once('\u{2060}')
        .chain(
            nonce
                .chars()
                .map(|c| char::from_u32(0xE0000 + c as u32).unwrap()),
        )
        .collect();
    h.fake.say(
        240,
        user_json(ASTRID, "Astrid", false),
        &format!("{text}{mark}"),
    );
    // Its first post times out unmade; its retry looks through the channel, and posts.
    h.fake
        .fail("POST", "/channels/240/messages", 1, Fault::Hang(HOLD));
    worded_notice(&h, 240, text, nonce).await;
    shown(&h, 240, 2, |r| r.content() == text).await;
    assert!(h
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "GET" && r.path.ends_with("/channels/240/messages")));
    let marks: Vec<String> = h.fake.shown(240).iter().map(|r| r.raw_content()).collect();
    assert!(marks[1].ends_with(&mark), "{marks:?}");
}

/// After an outage, a backlog of 50 notices in 16 channels drains within Discord's rate limits
/// as its headers state them (here 2 posts a second in each channel): the bot waits for a
/// bucket's reset rather than being refused, so (nearly) no post meets a 429.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backlog_drains_within_the_rate_limits_discords_headers_state() {
    let h = BotHarness::start(SETTINGS).await;
    h.fake.limit_posts(2, Duration::from_secs(1));
    let channels: Vec<u64> = (300..316).collect();
    let backlog: Vec<(u64, String, String)> = (0..50)
        .map(|i| {
            let channel = channels[i % channels.len()];
            (
                channel,
                format!("Notice {i} of the backlog."),
                format!("backlog-{i}"),
            )
        })
        .collect();
    worded_notices(&h, &backlog).await;
    h.outbox_settled().await;
    for (c, &channel) in channels.iter().enumerate() {
        let shown: Vec<String> = h.fake.shown(channel).iter().map(|r| r.content()).collect();
        let owed: Vec<String> = (c..50)
            .step_by(channels.len())
            .map(|i| format!("Notice {i} of the backlog."))
            .collect();
        assert_eq!(shown, owed, "channel {channel}: each once, in order");
    }
    let refused = (h.fake.requests().iter())
        .filter(|r| r.status == 429)
        .count();
    println!("429s while 50 notices drained in 16 channels: {refused}");
    assert!(refused <= 2, "{refused} posts refused with a 429");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_that_refuses_the_bot_stops_its_games_clock() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    refused_move(
        &h,
        150,
        Fault::Error {
            status: 403,
            code: 50013,
            message: "Missing Permissions",
        },
    )
    .await;
    let notices = service.probe().notices_in(150).await.unwrap();
    assert_eq!(
        notices.last().unwrap().failure.as_deref(),
        Some("403: Missing Permissions (code 50013)")
    );
    // Hours later nobody has lost on time; the next move starts the clock again.
    h.clock.advance(Duration::from_secs(2 * 3600));
    h.clock_ticks(1).await;
    let game = service.games().game_in_channel(150).await.unwrap().unwrap();
    assert!(!game.is_over());
    assert_eq!(game.turn_deadline, None);
    h.play(&birger(), 150, "e3-d3").await;
    let game = service.games().game_in_channel(150).await.unwrap().unwrap();
    assert!(game.turn_deadline.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxys_bare_404_or_502_is_retried_and_the_game_goes_on() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    // Not Discord's verdict (no error body): no reason to end the game.
    h.fake
        .fail("POST", "/channels/141/messages", 1, Fault::Bare(404));
    h.fake
        .fail("POST", "/channels/141/messages", 1, Fault::Bare(502));
    ai_attacks(&h, 141).await;
    let tried = attempts(&h, 141, 3).await;
    assert_eq!(
        tried.iter().map(|r| r.status).collect::<Vec<_>>(),
        [404, 502, 200]
    );
    shown(&h, 141, 1, |r| played(&r.content()).is_some()).await;
    let rows = service.probe().notices_in(141).await.unwrap();
    let reply = rows.last().unwrap();
    // Three attempts, each counted when it was claimed: two retried, one delivered.
    assert_eq!(
        (reply.status, reply.attempts),
        (tablut_bot::service::NoticeStatus::Delivered, 3)
    );
    let game = service.games().game_in_channel(141).await.unwrap().unwrap();
    assert!(!game.is_over());
    // The game goes on: Astrid answers and the AI replies.
    let moves = service
        .games()
        .suggest_moves(141, ASTRID, "", 1)
        .await
        .unwrap();
    h.play(&astrid(), 141, &moves[0]).await;
    shown(&h, 141, 3, |r| played(&r.content()).is_some()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_refusal_fails_the_move_and_stops_the_clock_of_its_timed_game() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    refused_move(
        &h,
        151,
        Fault::Error {
            status: 400,
            code: 50035,
            message: "Invalid Form Body",
        },
    )
    .await;
    // The clock stopped with the row, in the same recording.
    let failed = service
        .probe()
        .notices_in(151)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.status == tablut_bot::service::NoticeStatus::Failed)
        .expect("the move failed");
    assert_eq!(failed.kind, "move");
    assert_eq!(
        failed.failure.as_deref(),
        Some("400: Invalid Form Body (code 50035)")
    );
    // Recorded as failed after one attempt, not retried.
    assert_eq!(failed.attempts, 1);
    assert_eq!(posts(&h, 151).len(), 1);
    h.play(&birger(), 151, "e3-d3").await;
    let game = service.games().game_in_channel(151).await.unwrap().unwrap();
    assert!(game.turn_deadline.is_some(), "the next move starts it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_delivery_and_keeps_the_notice_for_the_next_start() {
    // No request times out (a post timed out and tried again would be refused twice).
    let mut h = BotHarness::start(PATIENT).await;
    ai_attacks(&h, 190).await;
    shown(&h, 190, 1, |r| played(&r.content()).is_some()).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let moves = service
        .games()
        .suggest_moves(190, ASTRID, "", 1)
        .await
        .unwrap();
    // Discord refuses the token from now on (the interaction's answer needs none).
    h.fake.reject_token();
    h.play(&astrid(), 190, &moves[0]).await;
    // Delivery stops (first), and the reply's attempt is recorded.
    let kept = || async {
        let rows = service.probe().notices_in(190).await.unwrap();
        let reply = rows.last().unwrap().clone();
        reply.status != tablut_bot::service::NoticeStatus::Claimed && reply.failure.is_some()
    };
    let waiting = Waiting::for_("delivery to stop and the reply's attempt recorded");
    while !h.bot.as_ref().unwrap().delivery_stopped() || !kept().await {
        waiting.again().await;
    }
    // One attempt, refused; the reply kept, due at once, and not tried again.
    let statuses: Vec<u16> = posts(&h, 190).iter().map(|r| r.status).collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 401).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(statuses.last(), Some(&401), "{statuses:?}");
    let rows = service.probe().notices_in(190).await.unwrap();
    let reply = rows.last().unwrap();
    assert_eq!(reply.status, tablut_bot::service::NoticeStatus::Pending);
    assert!(
        reply
            .failure
            .as_deref()
            .is_some_and(|f| f.starts_with("401")),
        "{reply:?}"
    );
    // Started again with a valid token: the reply is shown, once.
    h.fake.accept_token();
    h.restart().await;
    shown(&h, 190, 3, |r| played(&r.content()).is_some()).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let rows = service.probe().notices_in(190).await.unwrap();
    assert!(rows
        .iter()
        .all(|r| r.status == tablut_bot::service::NoticeStatus::Delivered));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_channel_delays_only_itself() {
    let h = BotHarness::start(PATIENT).await;
    // The AI's move in channel 200 is held on its way to Discord...
    let gate = Gate::new();
    h.fake.fail(
        "POST",
        "/channels/200/messages",
        1,
        Fault::Gate(gate.clone()),
    );
    ai_attacks(&h, 200).await;
    gate.arrived(1).await;
    // ...while channel 201's game starts and its AI's move is shown.
    ai_attacks(&h, 201).await;
    h.fake
        .expect("the AI's move in channel 201", |r| {
            r.path == "/api/v10/channels/201/messages" && r.created.is_some()
        })
        .await;
    assert!(
        posts(&h, 200).is_empty(),
        "channel 200's post is still held: {:?}",
        posts(&h, 200)
    );
    // Let through, channel 200's move is shown, once.
    gate.open();
    shown(&h, 200, 1, |r| played(&r.content()).is_some()).await;
    assert_eq!(posts(&h, 200).len(), 1);
    shown(&h, 201, 1, |r| played(&r.content()).is_some()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_retried_after_discord_forgot_its_nonce_is_not_shown_twice() {
    let h = BotHarness::start(SETTINGS).await;
    // The AI's move is made, its answer lost; by the retry, Discord no longer knows the nonce.
    h.fake
        .fail("POST", "/channels/150/messages", 1, Fault::Lost(HOLD));
    ai_attacks(&h, 150).await;
    h.fake
        .expect("the post held", |r| {
            r.path.ends_with("/channels/150/messages") && r.status == 0
        })
        .await;
    h.fake.forget_nonces();
    // The retry looks in the channel first, finds the move, and does not post it again.
    h.fake
        .expect("a look at the channel", |r| {
            r.method == "GET" && r.path.ends_with("/channels/150/messages")
        })
        .await;
    shown(&h, 150, 1, |r| played(&r.content()).is_some()).await;
    assert_eq!(posts(&h, 150).len(), 1, "one post, not retried");
    let rows = h
        .bot
        .as_ref()
        .unwrap()
        .service
        .probe()
        .notices_in(150)
        .await
        .unwrap();
    assert!(rows
        .iter()
        .all(|r| r.status == tablut_bot::service::NoticeStatus::Delivered));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_whose_answer_fails_stands_and_its_news_is_shown_once() {
    let h = BotHarness::start(SETTINGS).await;
    // Accept, answered with a 500: the outbox posts the start with its board, once.
    let challenge = h.fake.command(
        &astrid(),
        160,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    let challenge = h.fake.answer(challenge).await;
    let accept = challenge
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:accept:"))
        .unwrap();
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let click = h
        .fake
        .click(&birger(), 160, challenge.created.unwrap(), &accept);
    assert_eq!(h.fake.callback(click).await.status, 500);
    let started = shown(&h, 160, 1, |r| r.content().starts_with("Game on")).await;
    assert_board(&started[0]);
    let service = &h.bot.as_ref().unwrap().service;
    assert!(service
        .games()
        .game_in_channel(160)
        .await
        .unwrap()
        .is_some());
    // A draw agreed whose answer Discord showed but lost on the way back: not posted again.
    let offer = h
        .fake
        .command(&astrid(), 160, "tablut", Some("draw"), json!([]), &[]);
    let offer = h.fake.answer(offer).await;
    let yes = offer
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:draw-yes:"))
        .unwrap();
    h.fake.fail("POST", "/callback", 1, Fault::Lost(HOLD));
    let click = h.fake.click(&birger(), 160, offer.created.unwrap(), &yes);
    // The acknowledgement was taken: the offer's message is edited into the agreement.
    let agreed = h.fake.answer(click).await;
    assert_eq!(
        (agreed.method.as_str(), agreed.created),
        ("PATCH", offer.created)
    );
    assert!(
        agreed.content().contains("Draw agreed"),
        "{}",
        agreed.content()
    );
    h.outbox_settled().await;
    // The challenge, the start and the offer (become the agreement), nothing more.
    assert_eq!(
        h.fake.shown(160).len(),
        3,
        "not posted again: {:#?}",
        h.fake.shown(160)
    );
    assert!(service
        .games()
        .game_in_channel(160)
        .await
        .unwrap()
        .is_none());
    // Declined, answered with a 502: the outbox edits the challenge's message (its buttons
    // removed) to say so.
    let c = h.fake.command(
        &astrid(),
        161,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    let challenge = h.fake.answer(c).await;
    let decline = challenge
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:decline:"))
        .unwrap();
    h.fake.fail("POST", "/callback", 1, Fault::Status(502));
    h.fake.click(&birger(), 161, 77, &decline);
    let edit = h
        .fake
        .expect("the challenge's message edited", |r| {
            r.method == "PATCH" && r.path.ends_with("/channels/161/messages/77")
        })
        .await;
    assert!(edit.content().contains("declined"), "{}", edit.content());
    assert_eq!(edit.json["components"], json!([]));
    assert!(!h
        .fake
        .requests()
        .iter()
        .any(|r| r.content().contains("try again")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_or_draw_offer_whose_answer_fails_is_posted_with_its_buttons() {
    let h = BotHarness::start(SETTINGS).await;
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let id = h.fake.command(
        &astrid(),
        170,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    assert_eq!(h.fake.callback(id).await.status, 500);
    let posted = shown(&h, 170, 1, |r| !r.button_ids().is_empty()).await;
    let accept = posted[0]
        .button_ids()
        .into_iter()
        .find(|b| b.starts_with("tablut:accept:"))
        .expect("the challenge's buttons");
    // Its buttons work.
    let click = h
        .fake
        .click(&birger(), 170, posted[0].created.unwrap(), &accept);
    let started = h.fake.answer(click).await;
    assert!(
        started.content().starts_with("Game on"),
        "{}",
        started.content()
    );
    // A draw offer whose answer times out: posted, with its buttons, once.
    h.fake.fail("POST", "/callback", 1, Fault::Hang(HOLD));
    h.tablut(&astrid(), 170, "draw", json!([]), &[]).await;
    let offer = shown(&h, 170, 1, |r| r.content().contains("offers a draw")).await;
    assert!(offer[0]
        .button_ids()
        .iter()
        .any(|b| b.starts_with("tablut:draw-yes:")));
}

/// A notice written by an older version, which stored the words of its notices rather than what
/// they tell, is delivered after the upgrade (whose migration makes those words its news): in
/// those words, with its board drawn, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notice_written_in_the_old_format_is_delivered_after_an_upgrade() {
    let mut h = BotHarness::start(SETTINGS).await;
    ai_attacks(&h, 230).await;
    shown(&h, 230, 1, |r| played(&r.content()).is_some()).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let game = service.games().game_in_channel(230).await.unwrap().unwrap();
    h.bot.take().unwrap().shutdown().await;
    // As the older version left it in the outbox, not yet delivered.
    let text = format!(
        "**the AI (easy)** (attackers) played **a4-a3**.\nYour move, <@{ASTRID}> (defenders) · move 1"
    );
    let payload = json!({"text": text,
        "board": {"game": game.id, "ply": 1, "caption": "Move 1 · Astrid (defenders) to play"}});
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let pool = h.database().await;
    sqlx::query(
        "INSERT INTO outbox (channel_id, kind, payload, nonce, created_at, next_attempt_at) \
         VALUES (230, 'move', ?, 'written-by-an-older-bot', ?, ?)",
    )
    .bind(payload.to_string())
    .bind(now)
    .bind(now)
    .execute(&pool)
    .await
    .unwrap();
    // The upgrade's migration makes its words its news.
    let migration = std::fs::read_to_string("migrations/sqlite/0024_outbox_payloads.sql").unwrap();
    sqlx::raw_sql(&migration).execute(&pool).await.unwrap();
    pool.close().await;
    h.boot().await;
    let posted = shown(&h, 230, 1, |r| r.content() == text).await;
    assert_board(&posted[0]);
    let service = h.bot.as_ref().unwrap().service.clone();
    let rows = service.probe().notices_in(230).await.unwrap();
    assert!(rows
        .iter()
        .all(|r| r.status == tablut_bot::service::NoticeStatus::Delivered));
}

/// A channel's news is shown in the game's order. While the AI's move is retried (500s), the
/// player, who read the position from the bot, moves: their answer is private (a response made
/// now would stand above the AI's move), and the channel shows the AI's move, then theirs, then
/// the AI's reply, each once. A resignation made while the AI's move is retried likewise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_while_the_ais_move_is_retried_is_shown_after_it() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    h.fake.fail(
        "POST",
        "/channels/240/messages",
        usize::MAX,
        Fault::Status(500),
    );
    ai_attacks(&h, 240).await;
    h.fake
        .expect("the AI's move refused", |r| {
            r.path.ends_with("/channels/240/messages") && r.status == 500
        })
        .await;
    let mine = service
        .games()
        .suggest_moves(240, ASTRID, "", 1)
        .await
        .unwrap()
        .remove(0);
    let answer = h.play(&astrid(), 240, &mine).await;
    assert!(answer.ephemeral(), "{:?}", answer.json);
    assert!(answer.content().contains(&mine), "{}", answer.content());
    assert!(h
        .fake
        .shown(240)
        .iter()
        .all(|r| played(&r.content()).is_none()));
    h.fake.clear_faults();
    let moves = shown(&h, 240, 3, |r| played(&r.content()).is_some()).await;
    let history = service.games().history(240).await.unwrap().moves;
    let order: Vec<String> = moves.iter().filter_map(|r| played(&r.content())).collect();
    assert_eq!(order, history[..3], "in the game's order");
    assert_eq!(order[1], mine);
    // The channel owing nothing, her next move is answered in public; while the AI's reply to
    // it is retried, her resignation is answered privately and shown after that reply.
    h.fake.fail(
        "POST",
        "/channels/240/messages",
        usize::MAX,
        Fault::Status(500),
    );
    let mark = h.fake.requests().len();
    let next = service
        .games()
        .suggest_moves(240, ASTRID, "", 1)
        .await
        .unwrap()
        .remove(0);
    let answer = h.play(&astrid(), 240, &next).await;
    assert!(!answer.ephemeral() && answer.content().contains(&next));
    h.fake
        .expect("the AI's reply refused", |r| {
            r.index >= mark && r.path.ends_with("/channels/240/messages") && r.status == 500
        })
        .await;
    let (_, resigned) = h.tablut(&astrid(), 240, "resign", json!([]), &[]).await;
    assert!(resigned.ephemeral(), "{:?}", resigned.json);
    h.fake.clear_faults();
    shown(&h, 240, 5, |r| played(&r.content()).is_some()).await;
    let all = h.fake.shown(240);
    let last = all.last().unwrap().content();
    assert!(last.contains("resigned"), "{last}");
    assert!(played(&all[all.len() - 2].content()).is_some());
}

/// No time lost to delivery: on a one-minute clock, the AI's first move refused for 80 s (the
/// clock moved by hand) costs the player nothing: no reminder and no loss on time before it is
/// shown; then the whole minute, counted from its delivery on the database's clock, with its
/// two reminders.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_time_starts_when_the_move_that_gave_them_the_turn_is_shown() {
    let h = BotHarness::start(SETTINGS).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    h.fake.fail(
        "POST",
        "/channels/250/messages",
        usize::MAX,
        Fault::Status(500),
    );
    let id = h.fake.command(
        &astrid(),
        250,
        "tablut",
        Some("ai"),
        json!([{"name": "side", "type": 4, "value": 1},
               {"name": "level", "type": 4, "value": 0},
               {"name": "time", "type": 3, "value": "1m"}]),
        &[],
    );
    h.fake.answer(id).await;
    h.fake
        .expect("the AI's move refused", |r| {
            r.path.ends_with("/channels/250/messages") && r.status == 500
        })
        .await;
    h.clock.advance(Duration::from_secs(80));
    h.clock_ticks(2).await;
    let game = service.games().game_in_channel(250).await.unwrap();
    assert!(game.is_some_and(|g| !g.is_over()), "no loss on time");
    let kinds = |notices: Vec<tablut_bot::service::StoredNotice>| -> Vec<String> {
        notices.into_iter().map(|n| n.kind).collect()
    };
    let stored = kinds(service.probe().notices_in(250).await.unwrap());
    assert!(
        !stored.iter().any(|k| k == "reminder" || k == "timeout"),
        "{stored:?}"
    );
    h.fake.clear_faults();
    shown(&h, 250, 1, |r| played(&r.content()).is_some()).await;
    let notices = service.probe().notices_in(250).await.unwrap();
    let shown_at = notices
        .iter()
        .find(|n| n.kind == "move")
        .and_then(|n| n.delivered_at)
        .expect("the AI's move delivered");
    let game = service.games().game_in_channel(250).await.unwrap().unwrap();
    assert_eq!(game.turn_deadline, Some(shown_at + 60_000));
    // The database's clock moved to `ms` after the move was shown (it runs on from there).
    let at = |ms: i64| {
        let behind = shown_at + ms - h.clock.database_now_ms();
        h.clock.advance(Duration::from_millis(behind.max(0) as u64));
    };
    // Half the minute gone: the first reminder, the game on.
    at(30_000);
    shown(&h, 250, 1, |r| r.content().contains("it is your move")).await;
    h.clock_ticks(1).await;
    let game = service.games().game_in_channel(250).await.unwrap();
    assert!(game.is_some_and(|g| !g.is_over()), "the minute is not over");
    // A tenth left: the second (sent only while the minute is not over).
    at(54_000);
    shown(&h, 250, 2, |r| r.content().contains("it is your move")).await;
    // The minute over: lost on time.
    at(60_000);
    shown(&h, 250, 1, |r| r.content().contains("ran out of time")).await;
}
