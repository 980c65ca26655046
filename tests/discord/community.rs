//! Correspondence play and community, end to end against the fake Discord: reminders and losses
//! on time (with a clock the test moves), ratings, the leaderboard's pages, stats, the games of a
//! server, and games in threads.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use serde_json::json;
use std::time::Duration;

const ASTRID: u64 = 900_000_000_000_000_201;
const BIRGER: u64 = 900_000_000_000_000_202;
const HOUR: Duration = Duration::from_secs(3600);

const A: (u64, &str) = (ASTRID, "Astrid");
const B: (u64, &str) = (BIRGER, "Birger");

fn who((id, name): (u64, &str)) -> Who {
    Who::member(id, name)
}

/// The bot with a clock that looks every second.
async fn start() -> BotHarness {
    BotHarness::start(&[("CLOCK_INTERVAL_SECS", "1")]).await
}

/// `challenger` challenges `opponent` (challenger attacks) with extra options; the opponent
/// accepts. Returns the accept callback.
async fn game(
    h: &BotHarness,
    channel: u64,
    challenger: (u64, &str),
    opponent: (u64, &str),
    extra: serde_json::Value,
) -> BotRequest {
    h.challenge_accepted(channel, &who(challenger), opponent, extra)
        .await
        .1
}

async fn tablut(
    h: &BotHarness,
    user: (u64, &str),
    channel: u64,
    sub: &str,
    options: serde_json::Value,
    users: &[(u64, &str, bool)],
) -> BotRequest {
    h.tablut(&who(user), channel, sub, options, users).await.1
}

async fn play(h: &BotHarness, user: (u64, &str), channel: u64, notation: &str) -> BotRequest {
    h.play(&who(user), channel, notation).await
}

fn channel_messages(h: &BotHarness, channel: u64) -> usize {
    let path = format!("/api/v10/channels/{channel}/messages");
    h.fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == path)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_come_once_each_and_time_runs_out_across_a_restart() {
    let mut h = start().await;
    let started = game(
        &h,
        10,
        A,
        B,
        json!([{"name": "time", "type": 3, "value": "1d"}]),
    )
    .await;
    assert!(
        started.content().contains("1d a move"),
        "{}",
        started.content()
    );
    h.clock.advance(12 * HOUR);
    let reminder = h.fake.channel_message(10).await;
    assert!(
        reminder
            .content()
            .starts_with(&format!("<@{ASTRID}>, it is your move")),
        "{}",
        reminder.content()
    );
    assert!(reminder.content().contains("12 h 0 min left"));
    assert_board(&reminder);
    // Once only: two more clock ticks send nothing.
    let ticked = h.clock_ticks(2).await;
    h.outbox_settled().await;
    assert_eq!(channel_messages(&h, 10), 1);

    // The bot restarts in the middle of the time control.
    h.restart().await;
    h.clock
        .advance(10 * HOUR + Duration::from_secs(30 * 60) - ticked);
    let second = h.fake.channel_message(10).await;
    assert!(
        second.content().contains("1 h 30 min left"),
        "{}",
        second.content()
    );
    h.clock.advance(2 * HOUR);
    let out = h.fake.channel_message(10).await;
    let text = out.content();
    assert!(
        text.contains(&format!("<@{ASTRID}> ran out of time.")),
        "{text}"
    );
    assert!(
        text.contains("**Birger** wins with the defenders: a player ran out of time."),
        "{text}"
    );
    assert_board(&out);
    let r = play(&h, A, 10, "a4-a3").await;
    assert!(r.ephemeral() && r.content().contains("This game is over"));
    // The loss counts in the ratings.
    let stats = tablut(
        &h,
        A,
        11,
        "stats",
        json!([{"name": "player", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    )
    .await;
    let text = stats.content();
    assert!(text.contains("**Birger**: 1 game ·"), "{text}");
    assert!(text.contains("as defenders 1 won"), "{text}");
    assert!(text.contains("rating **1662**"), "{text}");
    assert!(
        text.contains("win as defenders against Astrid (timeout)"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_pages_with_buttons_and_the_games_are_listed() {
    let h = start().await;
    // Twelve players: player 2k beats player 2k+1 by resignation.
    for k in 0..6u64 {
        let (w, l) = (1000 + 2 * k, 1001 + 2 * k);
        let (wn, ln) = (format!("W{k}"), format!("L{k}"));
        game(&h, 100 + k, (w, &wn), (l, &ln), json!([])).await;
        let r = tablut(&h, (l, &ln), 100 + k, "resign", json!([]), &[]).await;
        assert!(r.content().contains("resigned"));
    }
    let board = tablut(&h, A, 1, "leaderboard", json!([]), &[]).await;
    let text = board.content();
    assert!(
        text.starts_with("**Tablut leaderboard** (page 1/2)"),
        "{text}"
    );
    assert!(text.contains("\n1. W0 1662"), "{text}");
    assert_eq!(text.lines().count(), 11, "ten players a page");
    let next = board
        .button_ids()
        .into_iter()
        .find(|b| b == "tablut:lb:1")
        .expect("a next-page button");
    let click = h.fake.click(&Who::member(ASTRID, "Astrid"), 1, 1, &next);
    let page2 = h.fake.callback(click).await;
    assert_eq!(page2.callback_type(), Some(7));
    let text = page2.content();
    assert!(
        text.starts_with("**Tablut leaderboard** (page 2/2)"),
        "{text}"
    );
    assert!(
        text.contains("\n11. L") && text.contains("\n12. L"),
        "{text}"
    );

    // The games running in the server, with whose turn it is.
    game(&h, 200, A, B, json!([])).await;
    game(&h, 201, B, A, json!([])).await;
    play(&h, B, 201, "a4-a3").await;
    let games = tablut(&h, A, 1, "games", json!([]), &[]).await;
    let text = games.content();
    assert!(text.contains("**Games in progress** (2)"), "{text}");
    assert!(
        text.contains("<#200>: Astrid vs Birger, move 1, Astrid (attackers) to move"),
        "{text}"
    );
    assert!(
        text.contains("<#201>: Birger vs Astrid, move 1, Astrid (defenders) to move"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_a_thread_is_played_there_and_spectators_only_look() {
    let h = start().await;
    let accepted = game(
        &h,
        300,
        A,
        B,
        json!([{"name": "thread", "type": 5, "value": true}]),
    )
    .await;
    let thread = h
        .fake
        .expect("a thread created in the channel", |r| {
            r.method == "POST" && r.path == "/api/v10/channels/300/threads"
        })
        .await;
    assert!(thread.json["name"]
        .as_str()
        .unwrap()
        .contains("Astrid vs Birger"));
    let thread_id = accepted.channel_named();
    let first = h.fake.channel_message(thread_id).await;
    assert!(first.content().contains("Game on!"));
    assert_board(&first);
    // The game lives in the thread: the channel is free, the thread plays.
    let r = play(&h, A, 300, "a4-a3").await;
    assert!(
        r.content().contains("There is no game in this channel"),
        "{}",
        r.content()
    );
    let r = play(&h, A, thread_id, "a4-a3").await;
    assert!(r.content().contains("played **a4-a3**"), "{}", r.content());
    // A spectator looks, but cannot play, resign or offer a draw.
    let carl = (3u64, "Carl");
    let board = tablut(&h, carl, thread_id, "board", json!([]), &[]).await;
    assert!(!board.ephemeral() && board.content().contains("Last move: **a4-a3**"));
    assert_board(&board);
    let history = tablut(&h, carl, thread_id, "history", json!([]), &[]).await;
    assert!(history.content().contains("1. a4-a3"));
    for sub in ["resign", "draw"] {
        let r = tablut(&h, carl, thread_id, sub, json!([]), &[]).await;
        assert!(
            r.ephemeral() && r.content().contains("You are not playing this game"),
            "{sub}"
        );
    }
    let r = play(&h, carl, thread_id, "e3-d3").await;
    assert!(r.ephemeral() && r.content().contains("You are not playing this game"));
    // The replay is an animated GIF.
    let id = h.fake.command(
        &Who::member(3, "Carl"),
        thread_id,
        "tablut",
        Some("replay"),
        json!([]),
        &[],
    );
    let deferred = h.fake.callback(id).await;
    assert_eq!(deferred.callback_type(), Some(5));
    let replay = h.fake.followup(id).await;
    assert_eq!(&replay.file(".gif").expect("a GIF")[..6], b"GIF89a");
}

/// `/tablut games` lists only the games in channels the caller can see, as Discord's
/// permissions say (the server's roles, the channel's overwrites; a thread through its
/// parent), and only to the caller: a member who cannot view a private channel is not shown its
/// game, nor the game in a thread of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_listed_are_only_those_in_channels_the_caller_can_see() {
    let h = start().await;
    h.fake.add_private_channel(GUILD_ID, 400, &[ASTRID, BIRGER]);
    game(&h, 400, A, B, json!([])).await;
    let in_thread = game(
        &h,
        400,
        B,
        A,
        json!([{"name": "thread", "type": 5, "value": true}]),
    )
    .await;
    let thread = in_thread.channel_named();
    assert_ne!(thread, 400);
    game(&h, 401, A, B, json!([])).await;

    let carl = (3u64, "Carl");
    let listed = tablut(&h, carl, 401, "games", json!([]), &[]).await;
    let text = listed.content();
    assert!(
        listed.ephemeral(),
        "for the caller alone: {:?}",
        listed.json
    );
    assert!(text.starts_with("**Games in progress** (1)\n"), "{text}");
    assert!(text.contains("<#401>"), "{text}");
    assert!(
        !text.contains("<#400>") && !text.contains(&format!("<#{thread}>")),
        "{text}"
    );
    // The members the channel lets in see all three.
    let listed = tablut(&h, A, 401, "games", json!([]), &[]).await;
    let text = listed.content();
    assert!(text.starts_with("**Games in progress** (3)\n"), "{text}");
    for channel in [400, thread, 401] {
        assert!(text.contains(&format!("<#{channel}>")), "{text}");
    }
}

/// `/tablut games` stays paged: ten games a page, with Previous and Next on the caller's own
/// (ephemeral) answer; each page pressed is worked out again for the presser, with the same
/// visibility: a game in a channel they cannot see is on no page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_listed_are_paged_with_buttons_for_the_caller() {
    use tablut_bot::ai::Level;
    use tablut_bot::service::{AiGameRequest, Place, SideChoice, TimeControl, User};
    let h = BotHarness::start(&[("AI_GAMES_PER_USER", "20"), ("AI_GAME_COOLDOWN_SECS", "0")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    h.fake.add_private_channel(GUILD_ID, 520, &[ASTRID]);
    let seen: Vec<u64> = (500..513).collect();
    for &channel in seen.iter().chain([520].iter()) {
        service
            .games()
            .start_ai_game(
                AiGameRequest {
                    place: Place {
                        guild: Some(GUILD_ID),
                        channel,
                    },
                    user: User::new(ASTRID, "Astrid"),
                    side: SideChoice::Attackers,
                    level: Level::Easy,
                    rules: Default::default(),
                    time_control: TimeControl::None,
                    start: None,
                },
                None,
            )
            .await
            .unwrap();
    }
    let listed_channels = |text: &str| -> Vec<u64> {
        text.lines()
            .filter_map(|l| l.strip_prefix("• <#")?.split('>').next()?.parse().ok())
            .collect()
    };
    let carl = (3u64, "Carl");
    let first = tablut(&h, carl, 500, "games", json!([]), &[]).await;
    assert!(first.ephemeral(), "for the caller alone: {:?}", first.json);
    let text = first.content();
    assert!(
        text.starts_with("**Games in progress** (13, page 1/2)\n"),
        "{text}"
    );
    assert_eq!(listed_channels(&text), seen[..10].to_vec(), "{text}");
    assert!(!text.contains(" more"), "{text}");
    assert_eq!(
        first.button_ids(),
        vec!["tablut:games:0".to_string(), "tablut:games:1".to_string()]
    );
    // Carl presses Next on his answer: the second page, for him.
    let click = h.fake.click(&who(carl), 500, 1, "tablut:games:1");
    let second = h.fake.callback(click).await;
    assert_eq!(second.callback_type(), Some(7), "{:?}", second.json);
    let text = second.content();
    assert!(
        text.starts_with("**Games in progress** (13, page 2/2)\n"),
        "{text}"
    );
    assert_eq!(listed_channels(&text), seen[10..].to_vec(), "{text}");
    assert_eq!(
        second.button_ids(),
        vec!["tablut:games:0".to_string(), "tablut:games:2".to_string()]
    );
    // Previous goes back.
    let click = h.fake.click(&who(carl), 500, 1, "tablut:games:0");
    let back = h.fake.callback(click).await;
    assert_eq!(listed_channels(&back.content()), seen[..10].to_vec());
    // A page past the last (the games ended meanwhile, or a forged press) shows the last.
    let click = h.fake.click(&who(carl), 500, 1, "tablut:games:7");
    let last = h.fake.callback(click).await;
    assert!(last.content().contains("page 2/2"), "{}", last.content());
    // Astrid, who may see the private channel, pages through all fourteen.
    let mine = tablut(&h, A, 500, "games", json!([]), &[]).await;
    assert!(mine
        .content()
        .starts_with("**Games in progress** (14, page 1/2)\n"));
    let click = h.fake.click(&who(A), 500, 1, "tablut:games:1");
    let text = h.fake.callback(click).await.content();
    assert_eq!(listed_channels(&text), vec![510, 511, 512, 520], "{text}");
}
