//! The AI pool end to end: the real client against the fake Discord. Users are served in turn,
//! a wait is shown (typing, and a line saying how many games are ahead), refusals are one
//! line, and no game waits on the AI: a restart or a game the bot never heard of is picked up
//! by the sweep, and the AI's move is posted once.

use crate::support::bot_harness::BotHarness;
use crate::support::fake_discord::*;
use crate::support::fixture::ai_game_request;
use crate::support::Waiting;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tablut_bot::ai::queue::Class;
use tablut_bot::ai::Level;
use tablut_bot::service::{Config, GameId, Place, Service, SideChoice, User};

const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;
/// Whom the test's own work on the AI pool is queued for.
const HOLDER: u64 = 1;

/// `/tablut ai` at hard, the AI attacking (it moves first); returns the callback.
async fn ai_game(h: &BotHarness, user: u64, channel: u64) -> BotRequest {
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
fn posts(fake: &FakeDiscord, channel: u64) -> Vec<BotRequest> {
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

/// The game in `channel` (its latest).
async fn game_in(service: &Service, channel: u64) -> GameId {
    service.games().history(channel).await.unwrap().game.id
}

/// The AI's move in `channel`, as stored: its notice's id, which orders the AI's moves across
/// channels as they were committed.
async fn ai_move_stored(service: &Service, channel: u64) -> Option<i64> {
    service
        .probe()
        .notices_in(channel)
        .await
        .unwrap()
        .into_iter()
        .find(|n| n.kind == "move")
        .map(|n| n.id)
}

/// Waits until the AI's turn in `channel`, the only work the pool was ever given, has left
/// the queue: the worker took it (or has even played its move).
async fn taken(service: &Service, channel: u64) {
    let waiting = Waiting::for_("the AI's turn taken by the worker");
    while service.probe().ai_pool().running() == 0
        && ai_move_stored(service, channel).await.is_none()
    {
        waiting.again().await;
    }
}

/// Waits until game `id`'s AI turn waits in the queue for the worker; returns how many
/// requests are ahead of it.
async fn queued(service: &Service, id: GameId) -> usize {
    let waiting = Waiting::for_("the AI's turn queued");
    loop {
        if let Some(ahead) = service.ai().waiting(id) {
            return ahead;
        }
        waiting.again().await;
    }
}

/// Occupies the pool's only worker with a task of `owner`'s (served in the queue's order as any
/// move) until the returned sender is dropped; returns once the worker runs it. The queue
/// behind it stays still for as long as the test needs, however fast or slow the machine.
async fn hold_the_worker(service: &Service, owner: u64) -> std::sync::mpsc::Sender<()> {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel();
    service
        .probe()
        .ai_pool()
        .submit_task(owner, Class::Play, move || {
            let _ = started.send(());
            // Until the sender is dropped.
            let _ = held.recv();
        });
    running.await.expect("the worker takes the task");
    release
}

/// The AI's wait said in `channel`: waits for it to be posted.
async fn wait_said(fake: &FakeDiscord, channel: u64) -> String {
    let path = format!("/api/v10/channels/{channel}/messages");
    fake.expect(&format!("the AI's wait said in channel {channel}"), |r| {
        r.method == "POST" && r.path == path && r.content().starts_with("The AI is thinking;")
    })
    .await
    .content()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_are_served_in_turn_and_a_wait_is_shown() {
    let h = BotHarness::start(&[
        ("AI_WORKERS", "1"),
        ("AI_TT_MB", "4"),
        // A search lasts far longer than committing the move found before it, so the moves
        // are stored in the order the worker searched them.
        ("AI_HARD_TIME_MS", "1500"),
        ("AI_WAIT_NOTICE_MS", "150"),
        ("AI_GAMES_PER_USER", "5"),
        ("AI_GAME_COOLDOWN_SECS", "0"),
        ("DEFAULT_TIME_CONTROL", "none"),
    ])
    .await;
    let service = h.bot.as_ref().unwrap().service.clone();
    // The queue's order is the order requests reach it: each game's AI turn is queued (by a
    // task of its own, after the answer) before the next game is opened.
    //
    // Astrid's first game finds the worker idle: taken at once, so no wait is said, however
    // late a loaded machine runs the worker's thread.
    let r = ai_game(&h, ASTRID, 301).await;
    assert!(r.content().contains("attacks"), "{}", r.content());
    let first = game_in(&service, 301).await;
    taken(&service, 301).await;
    // Work of the test's own comes next and holds the worker once that search is over: the
    // turns queued behind it wait, still, in the order the worker will serve them.
    let release = hold_the_worker(&service, HOLDER).await;
    // Astrid opens four more games, each queued behind her own, each saying so once.
    let mut games = vec![(first, 301)];
    for channel in 302..=305 {
        let r = ai_game(&h, ASTRID, channel).await;
        assert!(r.content().contains("attacks"), "{}", r.content());
        let id = game_in(&service, channel).await;
        let ahead = (channel - 302) as usize;
        assert_eq!(queued(&service, id).await, ahead, "behind her own");
        let said = wait_said(&h.fake, channel).await;
        let expected = match ahead {
            0 => "The AI is thinking; this game is next in line.".to_string(),
            1 => "The AI is thinking; 1 game ahead of this one.".to_string(),
            n => format!("The AI is thinking; {n} games ahead of this one."),
        };
        assert_eq!(said, expected);
        games.push((id, channel));
    }
    // Birger's one game goes before all four of hers: he is next.
    ai_game(&h, BIRGER, 306).await;
    let birgers = game_in(&service, 306).await;
    assert_eq!(queued(&service, birgers).await, 0, "Birger's game is next");
    assert_eq!(
        wait_said(&h.fake, 306).await,
        "The AI is thinking; this game is next in line."
    );
    games.push((birgers, 306));
    // A sixth is one too many for Astrid: one line, only she sees it, nothing starts.
    let refused = ai_game(&h, ASTRID, 307).await;
    assert!(refused.ephemeral());
    assert_eq!(
        refused.content(),
        "You already have 5 games against the AI running in this server: finish or resign one first."
    );
    // The order the worker will serve them in, while the queue is still.
    let mut ahead: Vec<(usize, u64)> = Vec::new();
    for &(id, channel) in &games[1..] {
        ahead.push((service.ai().waiting(id).unwrap(), channel));
    }
    ahead.sort();
    let serving: Vec<u64> = ahead.iter().map(|&(_, c)| c).collect();
    assert_eq!(serving, [306, 302, 303, 304, 305]);
    drop(release);

    // Every AI move is posted, stored in that order after the first.
    for channel in 301..=306 {
        ai_move(&h.fake, channel).await;
    }
    let mut stored = Vec::new();
    for channel in 301..=306 {
        stored.push((ai_move_stored(&service, channel).await.unwrap(), channel));
    }
    stored.sort();
    let order: Vec<u64> = stored.iter().map(|&(_, c)| c).collect();
    assert_eq!(order, [301, 306, 302, 303, 304, 305]);

    // Each waiting game said so once, before its move; the first said nothing.
    for channel in 301..=306 {
        let posted = posts(&h.fake, channel);
        let said = posted
            .iter()
            .filter(|r| r.content().starts_with("The AI is thinking;"))
            .count();
        assert_eq!(said, usize::from(channel != 301), "channel {channel}");
        assert!(
            posted
                .iter()
                .position(|r| r.content().starts_with("The AI is thinking;"))
                < posted.iter().position(|r| r.content().contains("played")),
            "the wait was said before the move in channel {channel}"
        );
    }
    // A waiting game's channel showed typing.
    assert!(h
        .fake
        .requests()
        .iter()
        .any(|r| r.method == "POST" && r.path == "/api/v10/channels/305/typing"));
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
    // A game the bot was never told of (written by another process, on the same database's
    // time) is found by the sweep.
    let url = format!("sqlite://{}", h.dir.path().join("bot.db").display());
    let other = Service::open(&url, Config::default(), Arc::new(h.clock.clone()))
        .await
        .unwrap();
    let started = other
        .games()
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
        .unwrap()
        .done;
    other.close().await;
    // Nothing tells the bot of this game: its move, once posted, was found by the sweep.
    ai_move(&h.fake, 402).await;
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
