//! End to end: `/tablut puzzle …` through the real client against the fake Discord (every
//! request checked against Discord's OpenAPI description): a puzzle shown with its board, a
//! wrong answer judged and rated, a right one solved, and the daily puzzle's channel refused to a
//! member without Manage Server; the move option's suggestions; the daily puzzle's channel set
//! through the command, its puzzle posted there once with its button, answered privately from
//! the button and through `/tablut puzzle today`, and the day's line in the leaderboard.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use serde_json::{json, Value};

const ASTRID: u64 = 900_000_000_000_000_101;
const CHANNEL: u64 = 70;

fn puzzle(sub: &str, options: Value) -> Value {
    json!([{"name": "puzzle", "type": 2, "options": [{"name": sub, "type": 1, "options": options}]}])
}

async fn ask(h: &BotHarness, who: &Who, sub: &str, options: Value) -> Recorded {
    let id = h
        .fake
        .command(who, CHANNEL, "tablut", None, puzzle(sub, options), &[]);
    h.fake.callback(id).await
}

/// The suggestions for `/tablut puzzle move`'s notation when `who` has typed `typed`, checked
/// against Discord's limits (at most 25 choices, each name and value at most 100 characters).
async fn suggestions(h: &BotHarness, who: &Who, typed: &str) -> Vec<String> {
    let id = h.fake.autocomplete_in(
        who,
        CHANNEL,
        "tablut",
        &[("puzzle", 2), ("move", 1)],
        "notation",
        typed,
    );
    let r = h.fake.callback(id).await;
    assert_eq!(r.callback_type(), Some(8), "{:?}", r.json);
    let choices = r.json["data"]["choices"].as_array().unwrap();
    assert!(choices.len() <= 25);
    choices
        .iter()
        .map(|c| {
            let (name, value) = (c["name"].as_str().unwrap(), c["value"].as_str().unwrap());
            assert!(name.chars().count() <= 100 && value.chars().count() <= 100);
            value.to_string()
        })
        .collect()
}

/// The user's current puzzle's line, read from the bot's database.
async fn current_line(h: &BotHarness) -> Vec<String> {
    let url = format!("sqlite://{}", h.dir.path().join("bot.db").display());
    let pool = tablut_bot::store::open(&url).await.unwrap();
    let guild = h.fake.guild_of(CHANNEL);
    let a = tablut_bot::store::puzzles::active(&pool, guild, ASTRID)
        .await
        .unwrap()
        .expect("a current puzzle");
    let p = tablut_bot::store::puzzles::by_id(&pool, a.puzzle_id)
        .await
        .unwrap()
        .unwrap();
    pool.close().await;
    p.line.split_whitespace().map(str::to_string).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_shown_answered_wrong_then_right() {
    let h = BotHarness::start(&[("AI_TT_MB", "4")]).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let shown = ask(&h, &astrid, "play", json!([])).await;
    assert!(
        shown.content().contains("to move: find"),
        "{}",
        shown.content()
    );
    assert_board(&shown);
    let line = current_line(&h).await;
    // An illegal move: one line, nothing changes.
    let bad = ask(
        &h,
        &astrid,
        "move",
        json!([{"name": "notation", "type": 3, "value": "e5-e5"}]),
    )
    .await;
    assert!(
        bad.ephemeral() && !bad.content().contains('\n'),
        "{}",
        bad.content()
    );
    assert_eq!(current_line(&h).await, line);
    // A wrong legal move fails it and names the answer.
    let url = format!("sqlite://{}", h.dir.path().join("bot.db").display());
    let pool = tablut_bot::store::open(&url).await.unwrap();
    let guild = h.fake.guild_of(CHANNEL);
    let a = tablut_bot::store::puzzles::active(&pool, guild, ASTRID)
        .await
        .unwrap()
        .unwrap();
    let row = tablut_bot::store::puzzles::by_id(&pool, a.puzzle_id)
        .await
        .unwrap()
        .unwrap();
    pool.close().await;
    let rules: tablut_bot::tafl::Rules = serde_json::from_str(&row.rules).unwrap();
    let start =
        tablut_bot::tafl::parse_position(&row.position, row.to_move.parse().unwrap(), rules)
            .unwrap();
    let legal: Vec<String> = start
        .legal_moves_sorted()
        .into_iter()
        .map(|m| m.to_string())
        .collect();
    // The move option's suggestions (a subcommand group's option): the puzzle's legal moves.
    let all = suggestions(&h, &astrid, "").await;
    assert_eq!(all.len(), legal.len().min(25), "{all:?}");
    assert!(all.iter().all(|m| legal.contains(m)), "{all:?}");
    let from = &line[0][..line[0].find('-').unwrap()];
    let mut expected: Vec<&String> = legal
        .iter()
        .filter(|m| m.starts_with(&format!("{from}-")))
        .collect();
    let mut got = suggestions(&h, &astrid, from).await;
    expected.sort();
    got.sort();
    assert_eq!(got.iter().collect::<Vec<_>>(), expected);
    assert!(got.contains(&line[0]), "{got:?}");
    let birger = Who::member(ASTRID + 1, "Birger");
    assert!(
        suggestions(&h, &birger, "").await.is_empty(),
        "no puzzle, no suggestions"
    );
    let wrong = start
        .legal_moves_sorted()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| *m != line[0])
        .unwrap();
    let failed = ask(
        &h,
        &astrid,
        "move",
        json!([{"name": "notation", "type": 3, "value": wrong}]),
    )
    .await;
    assert!(
        failed.content().contains("is not it"),
        "{}",
        failed.content()
    );
    assert!(failed.content().contains(&line[0]));
    assert!(failed.content().contains("Your puzzle rating: 1500 →"));
    assert_board(&failed);
    // The next puzzle, answered right move by move.
    let next = ask(&h, &astrid, "play", json!([])).await;
    assert!(next.content().contains("Puzzle"), "{}", next.content());
    let line = current_line(&h).await;
    let mut last = None;
    for mv in line.iter().step_by(2) {
        last = Some(
            ask(
                &h,
                &astrid,
                "move",
                json!([{"name": "notation", "type": 3, "value": mv}]),
            )
            .await,
        );
    }
    let last = last.unwrap();
    assert!(last.content().contains("solved!"), "{}", last.content());
    let board = ask(&h, &astrid, "leaderboard", json!([])).await;
    assert!(board.content().contains("1. Astrid"), "{}", board.content());
    assert!(
        board.content().contains("1 solved, 1 failed"),
        "{}",
        board.content()
    );
    // The daily puzzle's channel: Manage Server only.
    let refused = ask(&h, &astrid, "daily", json!([])).await;
    assert!(refused.ephemeral() && refused.content().contains("Manage Server"));
    let admin = Who {
        permissions: "32".into(),
        ..Who::member(ASTRID, "Astrid")
    };
    let none = ask(&h, &admin, "daily", json!([])).await;
    assert!(
        none.content().contains("no daily puzzle to stop"),
        "{}",
        none.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_is_posted_with_its_board_once() {
    let h = BotHarness::start(&[("AI_TT_MB", "4"), ("CLOCK_INTERVAL_SECS", "1")]).await;
    const DAILY: u64 = 71;
    let guild = h.fake.guild_of(DAILY);
    assert_eq!(guild, h.fake.guild_of(CHANNEL));
    // The channel named through /tablut puzzle daily, by a member with Manage Server.
    let admin = Who {
        permissions: "32".into(),
        ..Who::member(ASTRID, "Astrid")
    };
    let id = h.fake.command_resolving(
        &admin,
        CHANNEL,
        "tablut",
        None,
        puzzle(
            "daily",
            json!([{"name": "channel", "type": 7, "value": DAILY.to_string()}]),
        ),
        &[],
        &[DAILY],
    );
    let set = h.fake.callback(id).await;
    assert!(
        set.ephemeral() && set.content().contains(&format!("<#{DAILY}>")),
        "{}",
        set.content()
    );
    let post = h.fake.channel_message(DAILY).await;
    assert!(
        post.content().contains("Today's puzzle"),
        "{}",
        post.content()
    );
    assert!(post.content().chars().count() <= 2000);
    assert_board(&post);
    // Its button: every member's try at today's puzzle.
    let buttons = post.button_ids();
    assert_eq!(buttons.len(), 1, "{buttons:?}");
    assert!(buttons[0].starts_with("tablut:daily:"), "{buttons:?}");
    let astrid = Who::member(ASTRID, "Astrid");
    let id = h
        .fake
        .click(&astrid, DAILY, post.created.unwrap(), &buttons[0]);
    let mine = h.fake.callback(id).await;
    assert_eq!(
        mine.callback_type(),
        Some(4),
        "a new message, the post left as it is"
    );
    assert!(mine.ephemeral(), "{:?}", mine.json);
    assert!(
        mine.content().contains("Today's puzzle · Puzzle"),
        "{}",
        mine.content()
    );
    assert_board(&mine);
    // Answered move by move, each answer for her alone.
    let line = current_line(&h).await;
    let mut last = None;
    for mv in line.iter().step_by(2) {
        let answer = ask(
            &h,
            &astrid,
            "move",
            json!([{"name": "notation", "type": 3, "value": mv}]),
        )
        .await;
        assert!(answer.ephemeral(), "{}", answer.content());
        last = Some(answer);
    }
    let last = last.unwrap();
    assert!(last.content().contains("solved!"), "{}", last.content());
    // One try a day.
    let id = h
        .fake
        .click(&astrid, DAILY, post.created.unwrap(), &buttons[0]);
    let again = h.fake.callback(id).await;
    assert!(
        again.ephemeral() && again.content().contains("You have had your try"),
        "{}",
        again.content()
    );
    // Birger's try through the command.
    let birger = Who::member(ASTRID + 1, "Birger");
    let his = ask(&h, &birger, "today", json!([])).await;
    assert!(
        his.ephemeral() && his.content().contains("Today's puzzle · Puzzle"),
        "{}",
        his.content()
    );
    assert_board(&his);
    // The leaderboard's line for the day: Astrid solved it; nobody is pinged.
    let board = ask(&h, &birger, "leaderboard", json!([])).await;
    assert!(!board.ephemeral());
    let text = board.content();
    assert!(
        text.starts_with("**Today's puzzle**") && text.contains(&format!("1. <@{ASTRID}> ")),
        "{text}"
    );
    assert_eq!(
        board.json["data"]["allowed_mentions"]["parse"],
        json!([]),
        "{:?}",
        board.json
    );
    // The next two clock ticks post nothing more the same day.
    h.clock_ticks(2).await;
    h.outbox_settled().await;
    let path = format!("/api/v10/channels/{DAILY}/messages");
    let posts = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == path)
        .count();
    assert_eq!(posts, 1);
    h.fake.assert_contract();
}
