//! Channels deleted and servers left, end to end: the fake Discord sends CHANNEL_DELETE,
//! THREAD_DELETE and GUILD_DELETE as Discord does, and what they held ends or pauses at once,
//! as the delivery rules say for a post that finds the channel gone (404: the game aborted,
//! unrated) or the bot shut out (403: the clock stopped), not at the next post.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use crate::support::until_async as until;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tablut_bot::service::{ChallengeStatus, NoticeStatus, Service};
use tablut_bot::tafl::Reason;

const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;
/// A server other than the fake's development guild.
const OTHER_GUILD: u64 = 800_000_000_000_000_777;

const SETTINGS: &[(&str, &str)] = &[
    ("AI_EASY_TIME_MS", "30"),
    ("AI_MEDIUM_TIME_MS", "30"),
    ("AI_HARD_TIME_MS", "30"),
    ("AI_GAME_COOLDOWN_SECS", "0"),
    ("DEFAULT_TIME_CONTROL", "none"),
    ("DELIVERY_RETRY_MS", "50"),
    ("DISCORD_TIMEOUT_MS", "400"),
];

/// [`SETTINGS`] with a failed post tried again only after ten minutes.
const SLOW_RETRY: &[(&str, &str)] = &[
    ("AI_EASY_TIME_MS", "30"),
    ("AI_MEDIUM_TIME_MS", "30"),
    ("AI_HARD_TIME_MS", "30"),
    ("AI_GAME_COOLDOWN_SECS", "0"),
    ("DEFAULT_TIME_CONTROL", "none"),
    ("DELIVERY_RETRY_MS", "600000"),
    ("DISCORD_TIMEOUT_MS", "400"),
];

fn astrid() -> Who {
    Who::member(ASTRID, "Astrid")
}

fn service(h: &BotHarness) -> std::sync::Arc<Service> {
    h.bot.as_ref().unwrap().service.clone()
}

/// Waits until the bot has handled `n` deletions and removals in all.
async fn removals_handled(h: &BotHarness, n: usize) {
    let count = h.bot.as_ref().unwrap().removals.clone();
    until(&format!("{n} removals handled"), || {
        let seen = count.load(Ordering::SeqCst);
        async move { seen >= n }
    })
    .await;
    assert_eq!(count.load(Ordering::SeqCst), n);
}

/// Birger challenges Astrid in `channel`; returns the challenge's id.
async fn open_challenge(h: &BotHarness, channel: u64) -> i64 {
    let id = h.fake.command(
        &Who::member(BIRGER, "Birger"),
        channel,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": ASTRID.to_string()}]),
        &[(ASTRID, "Astrid", false)],
    );
    let posted = h.fake.answer(id).await;
    posted
        .button_ids()
        .iter()
        .find_map(|b| b.strip_prefix("tablut:accept:")?.parse().ok())
        .unwrap_or_else(|| panic!("no accept button: {:?}", posted.json))
}

async fn challenge_status(h: &BotHarness, id: i64) -> ChallengeStatus {
    service(h).games().challenge_info(id).await.unwrap().status
}

/// Astrid plays the defenders against the easy AI in `channel`; returns the game's id once the
/// AI's first move is shown.
async fn ai_game(h: &BotHarness, channel: u64) -> i64 {
    let id = h.fake.command(
        &astrid(),
        channel,
        "tablut",
        Some("ai"),
        json!([{"name": "side", "type": 4, "value": 1},
               {"name": "level", "type": 4, "value": 0}]),
        &[],
    );
    h.fake.answer(id).await;
    h.fake
        .expect("the AI's first move", |r| {
            r.method == "POST"
                && r.path == format!("/api/v10/channels/{channel}/messages")
                && r.content().contains("played **")
        })
        .await;
    service(h)
        .games()
        .game_in_channel(channel)
        .await
        .unwrap()
        .expect("a game")
        .id
}

/// A game between Astrid and Birger in a thread of `channel` made for its challenge: the
/// thread and the game, once the thread's first post is shown.
async fn thread_game(h: &BotHarness, channel: u64) -> (u64, i64) {
    let (_, accepted) = h
        .challenge_accepted(
            channel,
            &astrid(),
            (BIRGER, "Birger"),
            json!([{"name": "thread", "type": 5, "value": true}]),
        )
        .await;
    let thread = accepted.channel_named();
    h.fake.channel_message(thread).await;
    let game = service(h)
        .games()
        .game_in_channel(thread)
        .await
        .unwrap()
        .expect("a game")
        .id;
    (thread, game)
}

async fn aborted(h: &BotHarness, game: i64) -> bool {
    service(h)
        .games()
        .game(game)
        .await
        .unwrap()
        .outcome
        .reason()
        == Some(Reason::Aborted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_channel_ends_its_game_withdraws_its_challenges_and_drops_its_notices() {
    // The failed reply is not tried again for ten minutes: the deletion is what ends it, not
    // a retry that meets the 404 first (both end the game, with different words).
    let h = BotHarness::start(SLOW_RETRY).await;
    let s = service(&h);
    let game = ai_game(&h, 160).await;
    // The AI's reply to Astrid's move fails to post (500) and waits in the outbox.
    h.fake.fail(
        "POST",
        "/channels/160/messages",
        usize::MAX,
        Fault::Status(500),
    );
    let moves = s.games().suggest_moves(160, ASTRID, "", 1).await.unwrap();
    h.play(&astrid(), 160, &moves[0]).await;
    until("the AI's reply tried and pending", || {
        let s = s.clone();
        async move {
            s.probe()
                .notices_in(160)
                .await
                .unwrap()
                .iter()
                .any(|n| n.status == NoticeStatus::Pending && n.attempts >= 1 && n.kind == "move")
        }
    })
    .await;
    let withdrawn = open_challenge(&h, 161).await;
    let kept = open_challenge(&h, 162).await;

    h.fake.delete_channel(160);
    h.fake.delete_channel(161);
    removals_handled(&h, 2).await;

    assert!(
        aborted(&h, game).await,
        "the game of a deleted channel ends"
    );
    assert!(s.games().game_in_channel(160).await.unwrap().is_none());
    let notices = s.probe().notices_in(160).await.unwrap();
    assert!(notices.iter().all(|n| !n.status.is_open()), "{notices:#?}");
    // The last move, the AI's reply (its first move was delivered, an attempt too).
    let reply = notices
        .iter()
        .rev()
        .find(|n| n.kind == "move" && n.attempts >= 1);
    assert_eq!(
        reply.and_then(|n| n.failure.as_deref()),
        Some("the channel was deleted")
    );
    assert_eq!(
        challenge_status(&h, withdrawn).await,
        ChallengeStatus::Cancelled
    );
    assert_eq!(challenge_status(&h, kept).await, ChallengeStatus::Pending);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_ends_its_game_and_the_channel_it_came_from_is_told() {
    let h = BotHarness::start(SETTINGS).await;
    let (thread, game) = thread_game(&h, 170).await;

    h.fake.delete_thread(thread);
    removals_handled(&h, 1).await;

    assert!(aborted(&h, game).await);
    let told = h
        .fake
        .expect("the channel told", |r| {
            r.method == "POST"
                && r.path == "/api/v10/channels/170/messages"
                && r.content().contains("its thread is gone")
        })
        .await;
    assert!(
        told.content().contains("does not count"),
        "{}",
        told.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_channel_takes_the_games_of_its_threads_with_it() {
    let h = BotHarness::start(SETTINGS).await;
    let s = service(&h);
    let (_, game) = thread_game(&h, 180).await;

    // Discord sends CHANNEL_DELETE alone: no THREAD_DELETE for the thread deleted with it.
    h.fake.delete_channel(180);
    removals_handled(&h, 1).await;

    assert!(
        aborted(&h, game).await,
        "the thread's game ends with its channel"
    );
    // Nobody is told in the channel: it is gone too.
    let notices = s.probe().notices_in(180).await.unwrap();
    assert!(
        notices.iter().all(|n| n.kind != "channel_gone"),
        "{notices:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_removes_the_bot_has_its_games_paused_and_an_outage_changes_nothing() {
    let h = BotHarness::start(SETTINGS).await;
    let s = service(&h);
    h.fake.add_guild(OTHER_GUILD, &[190, 191]);
    h.challenge_accepted(
        190,
        &astrid(),
        (BIRGER, "Birger"),
        json!([{"name": "time", "type": 3, "value": "1h"}]),
    )
    .await;
    h.play(&astrid(), 190, "a4-a3").await;
    // Shown: Birger's time runs from then.
    h.outbox_settled().await;
    let game = s
        .games()
        .game_in_channel(190)
        .await
        .unwrap()
        .expect("a game");
    assert!(game.turn_deadline.is_some());
    let challenge = open_challenge(&h, 191).await;
    // A game and a challenge in the development guild, which the bot stays in.
    let elsewhere = open_challenge(&h, 192).await;

    // An outage: GUILD_DELETE with `unavailable`. Nothing changes.
    h.fake.remove_guild(OTHER_GUILD, true);
    removals_handled(&h, 1).await;
    let same = s
        .games()
        .game_in_channel(190)
        .await
        .unwrap()
        .expect("the game goes on");
    assert_eq!(same.turn_deadline, game.turn_deadline);
    assert_eq!(
        challenge_status(&h, challenge).await,
        ChallengeStatus::Pending
    );

    // Removed: the game is paused, its challenge withdrawn; the other server's stands.
    h.fake.remove_guild(OTHER_GUILD, false);
    removals_handled(&h, 2).await;
    let paused = s
        .games()
        .game_in_channel(190)
        .await
        .unwrap()
        .expect("paused, not ended");
    assert_eq!(paused.turn_deadline, None);
    assert_eq!(
        challenge_status(&h, challenge).await,
        ChallengeStatus::Cancelled
    );
    assert_eq!(
        challenge_status(&h, elsewhere).await,
        ChallengeStatus::Pending
    );
    // Hours later nobody has lost on time.
    h.clock.advance(Duration::from_secs(3 * 3600));
    s.game_clock().tick().await.unwrap();
    let later = s
        .games()
        .game_in_channel(190)
        .await
        .unwrap()
        .expect("still on");
    assert!(!later.is_over());

    // Added back, the game goes on, and the next move starts the clock again.
    h.fake.add_guild(OTHER_GUILD, &[190, 191]);
    let r = h.play(&Who::member(BIRGER, "Birger"), 190, "e3-d3").await;
    assert!(r.content().contains("played **e3-d3**"), "{}", r.content());
    let resumed = s.games().game_in_channel(190).await.unwrap().unwrap();
    assert!(resumed.turn_deadline.is_some());
}
