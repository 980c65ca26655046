//! End to end: `/tablut puzzle …` through the real client against the fake Discord (every
//! request checked against Discord's OpenAPI description): a puzzle shown with its board, a
//! wrong answer judged and rated, a right one solved, and the daily puzzle's channel refused to a
//! member without Manage Server; the move option's suggestions; the daily puzzle's channel set
//! through the command, its puzzle posted there once with its button, answered privately from
//! the button and through `/tablut puzzle today`, and the day's line in the leaderboard.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use crate::support::Waiting;
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
    let p = current_puzzle(h).await;
    p.line.split_whitespace().map(str::to_string).collect()
}

/// The user's current puzzle, read from the bot's database.
async fn current_puzzle(h: &BotHarness) -> tablut_bot::store::puzzles::PuzzleRow {
    puzzle_row(h, None).await
}

/// A puzzle (by default the user's current one), read from the bot's database.
async fn puzzle_row(h: &BotHarness, id: Option<i64>) -> tablut_bot::store::puzzles::PuzzleRow {
    let url = format!("sqlite://{}", h.dir.path().join("bot.db").display());
    let pool = tablut_bot::store::open(&url).await.unwrap();
    let guild = h.fake.guild_of(CHANNEL);
    let id = match id {
        Some(id) => id,
        None => {
            tablut_bot::store::puzzles::active(&pool, guild, ASTRID)
                .await
                .unwrap()
                .expect("a current puzzle")
                .puzzle_id
        }
    };
    let p = tablut_bot::store::puzzles::by_id(&pool, id)
        .await
        .unwrap()
        .unwrap();
    pool.close().await;
    p
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
    // The next puzzle (once the answer is recorded as shown: until then, play shows it again),
    // answered right move by move.
    let service = h.bot.as_ref().unwrap().service.clone();
    answer_recorded_shown(&service, guild).await;
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

/// `/tablut puzzle move` whose reply Discord fails (500): what the fake was sent, and the
/// one-line error that followed it.
async fn answer_lost(h: &BotHarness, who: &Who, notation: &str) -> (Recorded, Recorded) {
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let id = h.fake.command(
        who,
        CHANNEL,
        "tablut",
        None,
        puzzle(
            "move",
            json!([{"name": "notation", "type": 3, "value": notation}]),
        ),
        &[],
    );
    let lost = h.fake.callback(id).await;
    assert_eq!(lost.status, 500);
    let error = h.fake.callback(id).await;
    assert_eq!(error.status, 204, "{:?}", error.json);
    assert!(
        error.ephemeral() && !error.content().contains('\n'),
        "{}",
        error.content()
    );
    (lost, error)
}

/// Waits until the bot has recorded that the user's last puzzle answer was shown (it does so
/// once Discord has taken the reply, so after the test has seen the reply).
async fn answer_recorded_shown(service: &tablut_bot::service::Service, guild: u64) {
    let waiting = Waiting::for_("the answer to be recorded as shown");
    while service
        .unshown_puzzle_answer(guild, ASTRID)
        .await
        .unwrap()
        .is_some()
    {
        waiting.again().await;
    }
}

/// An answer whose reply fails is not lost: the answer and the ratings' change are committed
/// once; the same `/tablut puzzle move` again, or `/tablut puzzle play`, shows exactly the reply
/// that failed (board included), judging and rating nothing again; once shown, it is not shown
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_answer_whose_reply_fails_is_shown_when_asked_again() {
    let h = BotHarness::start(&[("AI_TT_MB", "4")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let guild = h.fake.guild_of(CHANNEL);
    let astrid = Who::member(ASTRID, "Astrid");
    ask(&h, &astrid, "play", json!([])).await;
    let first = current_puzzle(&h).await;
    let line = current_line(&h).await;
    let suggested = suggestions(&h, &astrid, "").await;
    let wrong = suggested.iter().find(|m| **m != line[0]).unwrap().clone();

    // A wrong answer whose reply fails: failed and rated, once.
    let (lost, _) = answer_lost(&h, &astrid, &wrong).await;
    let rated = service.puzzle_player(guild, ASTRID).await.unwrap().unwrap();
    assert_eq!((rated.solved, rated.failed), (0, 1));
    assert!(rated.rating.rating < 1500.0);
    let puzzle_after = puzzle_row(&h, Some(first.id)).await.rating;
    assert!(puzzle_after.rating > first.rating.rating);
    assert_eq!(
        lost.content(),
        format!(
            "**{wrong}** is not it: the move was **{}**.\nYour puzzle rating: 1500 → {:.0} · the puzzle's: {:.0} → {:.0}",
            line[0], rated.rating.rating, first.rating.rating, puzzle_after.rating
        )
    );
    // The same answer again: the reply that failed, exactly, and nothing rated again.
    let again = ask(
        &h,
        &astrid,
        "move",
        json!([{"name": "notation", "type": 3, "value": wrong}]),
    )
    .await;
    assert_eq!(again.status, 204);
    assert_eq!(again.content(), lost.content());
    assert!(!again.ephemeral());
    assert_board(&again);
    assert_eq!(again.files, lost.files);
    let now = service.puzzle_player(guild, ASTRID).await.unwrap().unwrap();
    assert_eq!((now.solved, now.failed, now.rating), (0, 1, rated.rating));
    assert_eq!(puzzle_row(&h, Some(first.id)).await.rating, puzzle_after);
    answer_recorded_shown(&service, guild).await;
    // Shown: it is not given again.
    let none = ask(
        &h,
        &astrid,
        "move",
        json!([{"name": "notation", "type": 3, "value": wrong}]),
    )
    .await;
    assert_eq!(
        none.content(),
        "You have no puzzle to answer: ask for one with /tablut puzzle play."
    );

    // The next puzzle answered right, its reply failing: /tablut puzzle play shows it.
    ask(&h, &astrid, "play", json!([])).await;
    let line = current_line(&h).await;
    let (lost, _) = answer_lost(&h, &astrid, &line[0]).await;
    let after = service.puzzle_player(guild, ASTRID).await.unwrap().unwrap();
    let shown = ask(&h, &astrid, "play", json!([])).await;
    assert_eq!(shown.status, 204);
    assert_eq!(shown.content(), lost.content());
    assert_eq!(shown.files, lost.files);
    answer_recorded_shown(&service, guild).await;
    if line.len() == 1 {
        assert!(lost.content().contains(": solved!\nYour puzzle rating: "));
        assert_eq!((after.solved, after.failed), (1, 1));
        assert!(after.rating.rating > rated.rating.rating);
    } else {
        assert!(lost
            .content()
            .starts_with(&format!("**{}** is right.\n", line[0])));
        assert_eq!((after.solved, after.failed), (0, 1));
    }
    assert_eq!(
        service.puzzle_player(guild, ASTRID).await.unwrap().unwrap(),
        after
    );
    // Shown: play goes on with the puzzle (the next, or the same one's next move).
    let next = ask(&h, &astrid, "play", json!([])).await;
    assert!(
        next.content().contains("to move: find"),
        "{}",
        next.content()
    );
    assert_ne!(next.content(), lost.content());
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
