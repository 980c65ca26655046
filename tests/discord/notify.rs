//! End to end: turn notifications through the real client against the fake Discord, whose
//! routes for direct messages (`POST /users/@me/channels`, then the direct channel's messages)
//! are checked against Discord's OpenAPI description like every other: `/tablut notify` shown
//! and changed, privately; a turn's direct message with the board, the opponent's move, the
//! time left and the link to the game's message, shown once across a restart whose attempt's
//! outcome the bot never learnt; a member who refuses direct messages (50007) turned off and
//! told once in the game's channel, with no further attempt; the daily digest once a day.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use serde_json::json;
use std::time::Duration;

const ASTRID: u64 = 900_000_000_000_000_401;
const BIRGER: u64 = 900_000_000_000_000_402;

/// Retries a minute (then two) apart: a test moves the clock past the next one. The time-out
/// leaves the fake Discord, which checks every request against Discord's description, time to
/// answer on a busy machine.
const SETTINGS: &[(&str, &str)] = &[
    ("DEFAULT_TIME_CONTROL", "2d"),
    ("DELIVERY_RETRY_MS", "60000"),
    ("DISCORD_TIMEOUT_MS", "5000"),
    ("CLOCK_INTERVAL_SECS", "1"),
];

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn birger() -> Who {
    Who::member(BIRGER, "Birger")
}

/// `/tablut notify` by `who` (`mode`: the choice's index, none for the setting): its answer.
async fn notify(h: &BotHarness, who: &Who, channel: u64, mode: Option<u64>) -> BotRequest {
    let options = match mode {
        Some(i) => json!([{"name": "mode", "type": 4, "value": i}]),
        None => json!([]),
    };
    h.tablut(who, channel, "notify", options, &[]).await.1
}

/// The link a message gives to `channel`'s message, or to the channel.
fn link_in(text: &str, channel: u64) -> Option<String> {
    let start = format!("https://discord.com/channels/{GUILD_ID}/{channel}");
    let at = text.find(&start)?;
    let link: String = text[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    Some(link)
}

/// The ids of the messages `channel` shows.
fn shown_ids(h: &BotHarness, channel: u64) -> Vec<u64> {
    h.fake
        .shown(channel)
        .iter()
        .filter_map(|r| r.created)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_message_is_sent_once_with_the_board_the_move_the_time_and_the_link() {
    let mut h = BotHarness::start(SETTINGS).await;
    const CHANNEL: u64 = 460;
    // The setting, for Birger alone: the default.
    let setting = notify(&h, &birger(), CHANNEL, None).await;
    assert!(setting.ephemeral());
    assert!(
        setting
            .content()
            .contains("a direct message when it is your move (the default)"),
        "{}",
        setting.content()
    );
    // The game starts: Astrid, to move, is told; Birger, who accepted, is not.
    h.challenge_accepted(CHANNEL, &astrid(), (BIRGER, "Birger"), json!([]))
        .await;
    let dms = h.fake.dms_to(ASTRID);
    assert_eq!(dms.len(), 1, "{dms:?}");
    let text = dms[0].content();
    assert!(text.starts_with("It is your move in game #"), "{text}");
    assert!(
        text.contains("you play the attackers against **Birger**, move 1. The game has started."),
        "{text}"
    );
    assert!(text.contains("You have 2 d for it."), "{text}");
    let link = link_in(&text, CHANNEL).expect("a link to the game");
    let message: u64 = link
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .expect("the message's id");
    assert!(shown_ids(&h, CHANNEL).contains(&message), "{link}");
    assert_board(&dms[0]);
    assert!(h.fake.dms_to(BIRGER).is_empty());
    // It waited for the start to be shown, to link to it: one attempt, no failure.
    let pool = h.database().await;
    let tried: Vec<(i64, Option<String>)> = sqlx::query_as(&format!(
        "SELECT attempts, failure FROM outbox WHERE channel_id = {ASTRID}"
    ))
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(tried, [(1, None)]);
    pool.close().await;

    // Her move: Birger is told of it, linked to the message that shows it.
    let moved = h.play(&astrid(), CHANNEL, "a4-a3").await;
    h.outbox_settled().await;
    let dms = h.fake.dms_to(BIRGER);
    assert_eq!(dms.len(), 1, "{dms:?}");
    let text = dms[0].content();
    assert!(text.contains(r"**Astrid** played **a4\-a3**."), "{text}");
    let link = link_in(&text, CHANNEL).unwrap();
    assert_eq!(
        link,
        format!(
            "https://discord.com/channels/{GUILD_ID}/{CHANNEL}/{}",
            moved.created.unwrap()
        )
    );
    assert_board(&dms[0]);

    // His move reaches Discord but its answer is lost; the bot, restarted before the retry,
    // finds it in the direct channel (Discord has forgotten the nonce by then): one message.
    let dm = h.fake.dm_channel(ASTRID).unwrap();
    let posts = format!("/channels/{dm}/messages");
    h.fake
        .fail("POST", &posts, 1, Fault::Lost(Duration::from_secs(10)));
    h.play(&birger(), CHANNEL, "e3-d3").await;
    h.fake
        .expect("the message made, its answer held", |r| {
            r.path.ends_with(&posts) && r.status == 0 && r.created.is_some()
        })
        .await;
    h.restart().await;
    h.fake.forget_nonces();
    // Past the retry.
    h.clock.advance(Duration::from_secs(180));
    h.outbox_settled().await;
    let dms = h.fake.dms_to(ASTRID);
    assert_eq!(dms.len(), 2, "shown once: {dms:?}");
    assert!(
        dms[1].content().contains(r"**Birger** played **e3\-d3**."),
        "{}",
        dms[1].content()
    );
    let looks = h
        .fake
        .requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path.ends_with(&posts))
        .count();
    assert!(looks >= 1, "the retry looked in the direct channel first");
    h.fake.assert_contract();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_who_takes_no_direct_messages_is_turned_off_and_told_once() {
    let h = BotHarness::start(SETTINGS).await;
    const CHANNEL: u64 = 461;
    h.fake.refuse_dms(BIRGER);
    h.challenge_accepted(CHANNEL, &astrid(), (BIRGER, "Birger"), json!([]))
        .await;
    h.play(&astrid(), CHANNEL, "a4-a3").await;
    h.outbox_settled().await;
    // Refused once; his notifications off; the game's channel told, mentioning him.
    assert_eq!(h.fake.dms_refused_to(BIRGER), 1);
    assert!(h.fake.dms_to(BIRGER).is_empty());
    let told = |h: &BotHarness| -> Vec<BotRequest> {
        h.fake
            .shown(CHANNEL)
            .into_iter()
            .filter(|r| {
                r.content()
                    .contains("does not let me send you direct messages")
            })
            .collect()
    };
    // Written once the refusal is recorded: waited for.
    crate::support::until("the channel told", || !told(&h).is_empty()).await;
    let once = told(&h);
    assert_eq!(once.len(), 1);
    assert!(
        once[0]
            .content()
            .starts_with(&format!("<@{BIRGER}>, Discord")),
        "{}",
        once[0].content()
    );
    let setting = notify(&h, &birger(), CHANNEL, None).await;
    assert!(
        setting.ephemeral()
            && setting
                .content()
                .contains("no direct messages (turned off on <t:"),
        "{}",
        setting.content()
    );
    // More turns: no attempt, no second word in the channel.
    h.play(&birger(), CHANNEL, "e3-d3").await;
    h.play(&astrid(), CHANNEL, "i4-i3").await;
    h.outbox_settled().await;
    assert_eq!(h.fake.dms_refused_to(BIRGER), 1, "no retry");
    assert_eq!(told(&h).len(), 1);
    // Astrid, who takes them, was told of his move.
    assert!(h
        .fake
        .dms_to(ASTRID)
        .iter()
        .any(|r| r.content().contains(r"**Birger** played **e3\-d3**")));
    // He turns them on again: his answer alone.
    let on = notify(&h, &birger(), CHANNEL, Some(0)).await;
    assert!(
        on.ephemeral() && on.content().contains("from your next turn on"),
        "{}",
        on.content()
    );
    h.fake.assert_contract();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_digest_is_sent_once_a_day() {
    let h = BotHarness::start(SETTINGS).await;
    const CHANNEL: u64 = 462;
    let chosen = notify(&h, &astrid(), CHANNEL, Some(1)).await;
    assert!(
        chosen.ephemeral() && chosen.content().contains("one direct message a day"),
        "{}",
        chosen.content()
    );
    // The clock looks at once: nothing waits on her today, so nothing is sent today.
    h.clock_ticks(1).await;
    // A week a move: the game outlasts the days the test moves on.
    let week = json!([{"name": "time", "type": 3, "value": "7d"}]);
    h.challenge_accepted(CHANNEL, &astrid(), (BIRGER, "Birger"), week)
        .await;
    h.clock_ticks(2).await;
    h.outbox_settled().await;
    assert!(
        h.fake.dms_to(ASTRID).is_empty(),
        "no message a move, no second look today"
    );
    // The next day: her game is listed, once.
    h.clock.advance(Duration::from_secs(24 * 3600));
    h.clock_ticks(1).await;
    h.outbox_settled().await;
    let digests = h.fake.dms_to(ASTRID);
    assert_eq!(digests.len(), 1, "{digests:?}");
    let text = digests[0].content();
    assert!(
        text.starts_with("Your daily digest: 1 game waiting on you."),
        "{text}"
    );
    assert!(
        text.contains("against **Birger**, move 1, 6 d left:"),
        "{text}"
    );
    assert!(link_in(&text, CHANNEL).is_some(), "{text}");
    h.clock_ticks(2).await;
    h.outbox_settled().await;
    assert_eq!(h.fake.dms_to(ASTRID).len(), 1);
    // The day after: another.
    h.clock.advance(Duration::from_secs(12 * 3600));
    h.clock_ticks(1).await;
    h.outbox_settled().await;
    assert_eq!(h.fake.dms_to(ASTRID).len(), 1, "the same day");
    h.clock.advance(Duration::from_secs(12 * 3600));
    h.clock_ticks(1).await;
    h.outbox_settled().await;
    assert_eq!(h.fake.dms_to(ASTRID).len(), 2);
    h.fake.assert_contract();
}
