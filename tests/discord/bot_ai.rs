//! The AI pool end to end: the real client against the fake Discord. Users are served in turn,
//! a wait is shown (typing, and a line saying how many games are ahead), refusals are one
//! line, and no game waits on the AI: a restart or a game the bot never heard of is picked up
//! by the sweep, and the AI's move is posted once.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use crate::support::fixture::ai_game_request;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablut_bot::ai::Level;
use tablut_bot::service::{Config, Place, Service, SideChoice, SystemClock, User};

const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;

/// `/tablut ai` at hard, the AI attacking (it moves first); returns the callback.
async fn ai_game(h: &BotHarness, user: u64, channel: u64) -> Recorded {
    let (_, r) = h
        .tablut(
            &Who::member(user, "Player"),
            channel,
            "ai",
            json!([{"name": "side", "type": 4, "value": 1},
                   {"name": "level", "type": 4, "value": 2}]),
            &[],
        )
        .await;
    r
}

/// The messages posted in `channel` so far.
fn posts(fake: &FakeDiscord, channel: u64) -> Vec<Recorded> {
    let path = format!("/api/v10/channels/{channel}/messages");
    fake.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == path && r.created.is_some())
        .collect()
}

/// Waits (up to 20 s) for the AI's move in `channel`; returns when it came.
async fn ai_move(fake: &FakeDiscord, channel: u64) -> usize {
    let path = format!("/api/v10/channels/{channel}/messages");
    fake.expect(&format!("the AI's move in channel {channel}"), |r| {
        r.method == "POST" && r.path == path && r.content().contains("played")
    })
    .await
    .index
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_are_served_in_turn_and_a_wait_is_shown() {
    let h = BotHarness::start(&[
        ("AI_WORKERS", "1"),
        ("AI_TT_MB", "4"),
        // Each search outlasts several answers to `/tablut ai` (a debug build on a loaded
        // machine can take a few hundred ms for one), so the last game opened still finds
        // games ahead of it when its wait is announced.
        ("AI_HARD_TIME_MS", "1500"),
        ("AI_WAIT_NOTICE_MS", "150"),
        ("AI_GAMES_PER_USER", "5"),
        ("AI_GAME_COOLDOWN_SECS", "0"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await;
    // Astrid opens five games against the AI, then Birger one.
    for channel in 301..=305 {
        let r = ai_game(&h, ASTRID, channel).await;
        assert!(r.content().contains("attacks"), "{}", r.content());
    }
    let birger_asked = ai_game(&h, BIRGER, 306).await.index;
    // A sixth is one too many for Astrid: one line, only she sees it, nothing starts.
    let refused = ai_game(&h, ASTRID, 307).await;
    assert!(refused.ephemeral());
    assert_eq!(
        refused.content(),
        "You already have 5 games against the AI running in this server: finish or resign one first."
    );

    let mut came = Vec::new();
    for channel in 301..=306 {
        came.push((ai_move(&h.fake, channel).await, channel));
    }
    came.sort();
    let birgers = came.iter().position(|&(_, c)| c == 306).unwrap();
    let astrids_before = came[..birgers]
        .iter()
        .filter(|&&(at, _)| at > birger_asked)
        .count();
    assert!(
        astrids_before <= 2,
        "Birger's game waited for {astrids_before} of Astrid's (the one running, and one): {came:?}"
    );
    // Astrid's own games in the order she opened them.
    let hers: Vec<u64> = came.iter().map(|&(_, c)| c).filter(|&c| c != 306).collect();
    assert_eq!(hers, [301, 302, 303, 304, 305]);

    // Her last game waited: its channel showed typing and said, once, how many were ahead.
    let last = posts(&h.fake, 305);
    let notices: Vec<String> = last
        .iter()
        .map(Recorded::content)
        .filter(|c| c.starts_with("The AI is thinking;"))
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("games ahead of this one") || notices[0].contains("1 game ahead"),
        "{}",
        notices[0]
    );
    assert!(
        last.iter()
            .position(|r| r.content().starts_with("The AI is thinking;"))
            < last.iter().position(|r| r.content().contains("played")),
        "the notice came before the move"
    );
    assert!(h
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "POST" && r.path == "/api/v10/channels/305/typing"));
    // The first game, served at once, said nothing about waiting.
    assert!(posts(&h.fake, 301)
        .iter()
        .all(|r| !r.content().starts_with("The AI is thinking;")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_game_waits_on_the_ai_after_a_restart_or_unannounced() {
    let mut h = BotHarness::start(&[
        ("AI_HARD_TIME_MS", "1500"),
        ("AI_TT_MB", "4"),
        ("AI_SWEEP_SECS", "1"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await;
    // The AI is thinking when the bot restarts.
    ai_game(&h, ASTRID, 401).await;
    h.restart().await;
    // The turn the bot was searching is claimed until its lease lapses (on the database's
    // clock, which the test moves on): the search's time and the margin.
    h.bot
        .as_ref()
        .unwrap()
        .service
        .probe()
        .advance_database_clock(
            Duration::from_millis(1500) + tablut_bot::service::ai::AI_CLAIM_MARGIN,
        );
    ai_move(&h.fake, 401).await;
    // A game the bot was never told of (written by another process) is found by the sweep.
    let url = format!("sqlite://{}", h.dir.path().join("bot.db").display());
    let other = Service::open(&url, Config::default(), Arc::new(SystemClock))
        .await
        .unwrap();
    let started = other
        .start_ai_game(
            ai_game_request(
                Place {
                    guild: Some(GUILD_ID),
                    channel: 402,
                },
                User::new(BIRGER, "Birger"),
                SideChoice::Defenders,
                Level::Easy,
            ),
            None,
        )
        .await
        .unwrap();
    other.close().await;
    let since = Instant::now();
    ai_move(&h.fake, 402).await;
    assert!(since.elapsed() < Duration::from_secs(10));
    assert_eq!(started.game.ply, 0);
    // Each AI move was posted once: once the outbox owes nothing, nothing more comes (a
    // second search of a turn already played cannot commit a move).
    h.outbox_settled().await;
    for channel in [401, 402] {
        let moves = posts(&h.fake, channel)
            .iter()
            .filter(|r| r.content().contains("played"))
            .count();
        assert_eq!(moves, 1, "channel {channel}");
    }
}
