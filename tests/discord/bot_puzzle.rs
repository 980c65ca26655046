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

/// What `/tablut puzzle sub` shows: its response, or the edit of its deferred response.
async fn ask(h: &BotHarness, who: &Who, sub: &str, options: Value) -> BotRequest {
    let id = h
        .fake
        .command(who, CHANNEL, "tablut", None, puzzle(sub, options), &[]);
    h.fake.answer(id).await
}

/// `/tablut puzzle move notation`: the interaction's id.
fn answer_with(h: &BotHarness, who: &Who, notation: &str) -> u64 {
    h.fake.command(
        who,
        CHANNEL,
        "tablut",
        None,
        puzzle(
            "move",
            json!([{"name": "notation", "type": 3, "value": notation}]),
        ),
        &[],
    )
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

/// Waits until the bot has recorded that the user's last puzzle answer was shown (it does so
/// once Discord has taken the edit that shows it, so after the test has seen it).
async fn answer_recorded_shown(service: &tablut_bot::service::Service, guild: u64) {
    let waiting = Waiting::for_("the answer to be recorded as shown");
    while service
        .puzzles()
        .unshown_verdict(guild, ASTRID, None)
        .await
        .unwrap()
        .is_some()
    {
        waiting.again().await;
    }
}

/// What interaction `id` shows, acknowledged privately (a deferred response for its caller
/// alone, then edited or followed up).
async fn private_answer(h: &BotHarness, id: u64) -> BotRequest {
    let shown = h.fake.answer(id).await;
    let deferred = response(h, id);
    assert_eq!(deferred.callback_type(), Some(5), "{:?}", deferred.json);
    assert!(deferred.ephemeral(), "{:?}", deferred.json);
    shown
}

/// Interaction `id`'s response (seen already or not).
fn response(h: &BotHarness, id: u64) -> BotRequest {
    let prefix = format!("/api/v10/interactions/{id}/");
    h.fake
        .requests()
        .into_iter()
        .find(|r| r.path.starts_with(&prefix))
        .expect("a response")
}

/// The posts the bot made in `channel` (not interaction responses).
fn posts(h: &BotHarness, channel: u64) -> Vec<BotRequest> {
    let path = format!("/api/v10/channels/{channel}/messages");
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == path)
        .collect()
}

/// An answer is acknowledged at once (a deferred response, public for the player's own
/// puzzle), committed with its notice, and shown by editing that response. When the handler's
/// edit fails (500), the dispatcher sends the same edit: the answer shows exactly once, in the
/// response, never posted beside it; the ratings moved once; once shown it is not given again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_answer_whose_edit_fails_is_shown_once_by_the_dispatcher() {
    let h = BotHarness::start(&[("AI_TT_MB", "4")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let guild = h.fake.guild_of(CHANNEL);
    let astrid = Who::member(ASTRID, "Astrid");
    ask(&h, &astrid, "play", json!([])).await;
    let first = current_puzzle(&h).await;
    let line = current_line(&h).await;
    let suggested = suggestions(&h, &astrid, "").await;
    let wrong = suggested.iter().find(|m| **m != line[0]).unwrap().clone();

    h.fake
        .fail("PATCH", "/messages/@original", 1, Fault::Status(500));
    let id = answer_with(&h, &astrid, &wrong);
    let shown = h.fake.answer(id).await;
    let deferred = response(&h, id);
    assert_eq!(deferred.callback_type(), Some(5), "{:?}", deferred.json);
    assert!(!deferred.ephemeral());
    h.outbox_settled().await;
    // The handler's edit (refused) and the dispatcher's (taken): the same edit.
    let edits = h.fake.edits(id);
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(edits[0].status, 500);
    assert_eq!(edits[0].content(), shown.content());
    let rated = service
        .probe()
        .puzzle_player(guild, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((rated.solved, rated.failed), (0, 1));
    assert!(rated.rating.rating < 1500.0);
    let puzzle_after = puzzle_row(&h, Some(first.id)).await.rating;
    assert!(puzzle_after.rating > first.rating.rating);
    assert_eq!(
        shown.content(),
        format!(
            "**{wrong}** is not it: the move was **{}**.\nYour puzzle rating: 1500 → {:.0} · the puzzle's: {:.0} → {:.0}",
            line[0], rated.rating.rating, first.rating.rating, puzzle_after.rating
        )
    );
    assert_board(&shown);
    // Shown once, in the response: nothing posted.
    let in_channel: Vec<BotRequest> = h
        .fake
        .shown(CHANNEL)
        .into_iter()
        .filter(|r| r.content().contains("is not it"))
        .collect();
    assert_eq!(in_channel.len(), 1, "{in_channel:?}");
    assert!(posts(&h, CHANNEL).is_empty());
    answer_recorded_shown(&service, guild).await;
    // Shown: the same move again is not answered again, and nothing is rated again.
    let none = ask(
        &h,
        &astrid,
        "move",
        json!([{"name": "notation", "type": 3, "value": wrong}]),
    )
    .await;
    assert!(none.ephemeral());
    assert_eq!(
        none.content(),
        "You have no puzzle to answer: ask for one with /tablut puzzle play."
    );
    let now = service
        .probe()
        .puzzle_player(guild, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((now.solved, now.failed, now.rating), (0, 1, rated.rating));
    assert_eq!(puzzle_row(&h, Some(first.id)).await.rating, puzzle_after);

    // The next puzzle answered right whose acknowledgement Discord refuses (500): the answer is
    // committed all the same, and with no response to edit, the dispatcher posts it in the
    // channel, once.
    ask(&h, &astrid, "play", json!([])).await;
    let line = current_line(&h).await;
    h.fake.fail("POST", "/callback", 1, Fault::Status(500));
    let id = answer_with(&h, &astrid, &line[0]);
    assert_eq!(h.fake.callback(id).await.status, 500);
    let post = h.fake.channel_message(CHANNEL).await;
    h.outbox_settled().await;
    let after = service
        .probe()
        .puzzle_player(guild, ASTRID)
        .await
        .unwrap()
        .unwrap();
    if line.len() == 1 {
        assert!(post.content().contains(": solved!\nYour puzzle rating: "));
        assert_eq!((after.solved, after.failed), (1, 1));
        assert!(after.rating.rating > rated.rating.rating);
    } else {
        assert!(post
            .content()
            .starts_with(&format!("**{}** is right.\n", line[0])));
        assert_eq!((after.solved, after.failed), (0, 1));
    }
    assert_board(&post);
    assert_eq!(posts(&h, CHANNEL).len(), 1);
    answer_recorded_shown(&service, guild).await;
    // Shown: play goes on with the puzzle (the next, or the same one's next move).
    let next = ask(&h, &astrid, "play", json!([])).await;
    assert!(
        next.content().contains("to move: find"),
        "{}",
        next.content()
    );
    assert_eq!(
        service
            .probe()
            .puzzle_player(guild, ASTRID)
            .await
            .unwrap()
            .unwrap(),
        after
    );
    h.fake.assert_contract();
}

/// Today's puzzle posted in `daily` (named by an admin) and Astrid's try at it started with
/// `/tablut puzzle today`: its line.
async fn daily_try(h: &BotHarness, daily: u64) -> Vec<String> {
    let admin = Who {
        permissions: "32".into(),
        ..Who::member(ASTRID + 9, "Admin")
    };
    let id = h.fake.command_resolving(
        &admin,
        CHANNEL,
        "tablut",
        None,
        puzzle(
            "daily",
            json!([{"name": "channel", "type": 7, "value": daily.to_string()}]),
        ),
        &[],
        &[daily],
    );
    private_answer(h, id).await;
    h.fake.channel_message(daily).await;
    let astrid = Who::member(ASTRID, "Astrid");
    let id = h.fake.command(
        &astrid,
        CHANNEL,
        "tablut",
        None,
        puzzle("today", json!([])),
        &[],
    );
    let mine = private_answer(h, id).await;
    assert!(
        mine.content().contains("Today's puzzle · Puzzle"),
        "{}",
        mine.content()
    );
    current_line(h).await
}

/// An answer to the daily puzzle is acknowledged privately and shown in that private response
/// alone: when the handler's edit fails, the dispatcher's edit completes it, privately; nothing
/// of it shows in the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_answer_whose_edit_fails_is_completed_privately() {
    let h = BotHarness::start(&[("AI_TT_MB", "4"), ("CLOCK_INTERVAL_SECS", "1")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let guild = h.fake.guild_of(CHANNEL);
    let line = daily_try(&h, 71).await;
    let astrid = Who::member(ASTRID, "Astrid");
    h.fake
        .fail("PATCH", "/messages/@original", 1, Fault::Status(500));
    let id = answer_with(&h, &astrid, &line[0]);
    let shown = h.fake.answer(id).await;
    let deferred = response(&h, id);
    assert_eq!(deferred.callback_type(), Some(5));
    assert!(deferred.ephemeral(), "{:?}", deferred.json);
    h.outbox_settled().await;
    assert_eq!(h.fake.edits(id).len(), 2);
    assert!(
        shown.content().starts_with(&format!("**{}", line[0])),
        "{}",
        shown.content()
    );
    assert_board(&shown);
    answer_recorded_shown(&service, guild).await;
    // Nowhere in the channel: not in what it shows, and never posted.
    assert!(
        h.fake
            .shown(CHANNEL)
            .iter()
            .all(|r| !r.content().contains(&line[0])),
        "{:?}",
        h.fake.shown(CHANNEL)
    );
    assert!(posts(&h, CHANNEL).is_empty());
    h.fake.assert_contract();
}

/// A private answer cannot be posted in the channel: when its interaction's token has expired
/// before any edit showed it, the dispatcher gives it up instead of posting it, and the try
/// keeps it; the next `/tablut puzzle play` gives it, privately, exactly as it was, with the
/// ratings moved once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_answer_past_its_token_is_never_posted_and_given_again_when_asked() {
    let h = BotHarness::start(&[("AI_TT_MB", "4"), ("CLOCK_INTERVAL_SECS", "1")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let guild = h.fake.guild_of(CHANNEL);
    let line = daily_try(&h, 71).await;
    let wrong = suggestions(&h, &Who::member(ASTRID, "Astrid"), "")
        .await
        .into_iter()
        .find(|m| *m != line[0])
        .unwrap();
    let astrid = Who::member(ASTRID, "Astrid");
    // The handler's edit held until the token has expired.
    let gate = Gate::new();
    h.fake
        .fail("PATCH", "/messages/@original", 1, Fault::Gate(gate.clone()));
    let id = answer_with(&h, &astrid, &wrong);
    assert!(h.fake.callback(id).await.ephemeral());
    gate.arrived(1).await;
    h.fake.expire_token(id);
    gate.open();
    h.outbox_settled().await;
    let edits = h.fake.edits(id);
    assert!(
        !edits.is_empty() && edits.iter().all(|e| e.status == 401),
        "{edits:?}"
    );
    let lost = edits[0].clone();
    assert!(lost.content().contains("is not it"), "{}", lost.content());
    // Given up, not posted: the channel shows nothing of it.
    let notices = service.probe().notices_in(CHANNEL).await.unwrap();
    let notice = notices.iter().find(|n| n.kind == "puzzle_answer").unwrap();
    assert_eq!(notice.status, tablut_bot::service::NoticeStatus::Failed);
    assert!(posts(&h, CHANNEL).is_empty());
    assert!(h
        .fake
        .shown(CHANNEL)
        .iter()
        .all(|r| !r.content().contains("is not it")));
    let rated = service
        .probe()
        .puzzle_player(guild, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((rated.solved, rated.failed), (0, 1));
    // Asked again: the same answer, privately, and nothing rated again.
    let id = h.fake.command(
        &astrid,
        CHANNEL,
        "tablut",
        None,
        puzzle("play", json!([])),
        &[],
    );
    let again = h.fake.answer(id).await;
    assert!(response(&h, id).ephemeral());
    assert_eq!(again.content(), lost.content());
    assert_eq!(again.files, lost.files);
    assert_board(&again);
    answer_recorded_shown(&service, guild).await;
    assert_eq!(
        service
            .probe()
            .puzzle_player(guild, ASTRID)
            .await
            .unwrap()
            .unwrap(),
        rated
    );
    assert!(posts(&h, CHANNEL).is_empty());
    assert!(h
        .fake
        .shown(CHANNEL)
        .iter()
        .all(|r| !r.content().contains("is not it")));
    // Shown: play gives her own puzzle now, in the channel.
    let own = ask(&h, &astrid, "play", json!([])).await;
    assert!(
        !own.ephemeral() && own.content().contains("to move: find"),
        "{}",
        own.content()
    );
    h.fake.assert_contract();
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
    let set = private_answer(&h, id).await;
    assert_eq!(
        set.content(),
        format!("The daily puzzle will be posted in <#{DAILY}> once a day.")
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
    // A new message for her alone (deferred, then edited), the post left as it is.
    let mine = private_answer(&h, id).await;
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
        let id = answer_with(&h, &astrid, mv);
        let answer = h.fake.answer(id).await;
        // Acknowledged privately, and shown by editing that private response.
        assert!(response(&h, id).ephemeral(), "{}", answer.content());
        last = Some(answer);
    }
    let last = last.unwrap();
    assert!(last.content().contains("solved!"), "{}", last.content());
    // One try a day: a second press is refused at once, privately (its response, nothing
    // deferred).
    let id = h
        .fake
        .click(&astrid, DAILY, post.created.unwrap(), &buttons[0]);
    let again = h.fake.answer(id).await;
    assert_eq!(again.callback_type(), Some(4), "{:?}", again.json);
    assert!(
        again.ephemeral() && again.content().contains("You have had your try"),
        "{}",
        again.content()
    );
    // Birger's try through the command.
    let birger = Who::member(ASTRID + 1, "Birger");
    let id = h.fake.command(
        &birger,
        CHANNEL,
        "tablut",
        None,
        puzzle("today", json!([])),
        &[],
    );
    let his = private_answer(&h, id).await;
    assert!(
        his.content().contains("Today's puzzle · Puzzle"),
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

/// What interaction `id` shows when the handler's edit of its deferred response was refused
/// (a 500 the test asked for): the dispatcher's edit, the same as the handler's, the two the
/// only edits; nothing posted in the channel.
async fn shown_by_the_dispatcher(h: &BotHarness, id: u64) -> BotRequest {
    let shown = h.fake.answer(id).await;
    h.outbox_settled().await;
    let edits = h.fake.edits(id);
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(edits[0].status, 500);
    assert_eq!(edits[0].content(), shown.content());
    assert_eq!(edits[0].files, shown.files);
    assert!(posts(h, CHANNEL).is_empty());
    shown
}

/// A puzzle handed out (its try started), and the daily puzzle's channel set, are acknowledged
/// at once, committed with their notice, and shown by editing the deferred response: when the
/// handler's edit fails (500), the dispatcher sends the same edit, and each shows exactly once,
/// in its response (public for her own puzzle, private for the daily puzzle's try and the
/// setting), never posted. Asked again while under way, the same puzzle is shown directly:
/// nothing changed, no notice written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_handed_out_whose_edit_fails_is_shown_once_by_the_dispatcher() {
    let h = BotHarness::start(&[("AI_TT_MB", "4"), ("CLOCK_INTERVAL_SECS", "1")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let astrid = Who::member(ASTRID, "Astrid");
    let refuse_edit = || {
        h.fake
            .fail("PATCH", "/messages/@original", 1, Fault::Status(500))
    };
    // Her own puzzle, in public.
    refuse_edit();
    let id = h.fake.command(
        &astrid,
        CHANNEL,
        "tablut",
        None,
        puzzle("play", json!([])),
        &[],
    );
    let shown = shown_by_the_dispatcher(&h, id).await;
    assert!(!response(&h, id).ephemeral());
    let p = current_puzzle(&h).await;
    assert!(
        shown
            .content()
            .starts_with(&format!("**Puzzle {}** (rated ", p.id)),
        "{}",
        shown.content()
    );
    assert!(shown.content().contains("to move: find"));
    assert_board(&shown);
    let in_channel = |text: String| {
        let shown = h.fake.shown(CHANNEL).into_iter();
        shown.filter(|r| r.content() == text).count()
    };
    assert_eq!(in_channel(shown.content()), 1);
    // Under way: shown again as it is, directly; no second notice.
    let again = ask(&h, &astrid, "play", json!([])).await;
    assert_eq!(
        (again.content(), &again.files),
        (shown.content(), &shown.files)
    );
    let notices = service.probe().notices_in(CHANNEL).await.unwrap();
    let kinds: Vec<&str> = notices.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(kinds, ["puzzle_shown"]);
    // The daily puzzle's channel, set by an admin: privately.
    const DAILY: u64 = 71;
    let admin = Who {
        permissions: "32".into(),
        ..Who::member(ASTRID + 9, "Admin")
    };
    refuse_edit();
    let daily = puzzle(
        "daily",
        json!([{"name": "channel", "type": 7, "value": DAILY.to_string()}]),
    );
    let id = h
        .fake
        .command_resolving(&admin, CHANNEL, "tablut", None, daily, &[], &[DAILY]);
    let set = shown_by_the_dispatcher(&h, id).await;
    assert!(response(&h, id).ephemeral());
    assert_eq!(
        set.content(),
        format!("The daily puzzle will be posted in <#{DAILY}> once a day.")
    );
    assert_eq!(in_channel(set.content()), 0);
    h.fake.channel_message(DAILY).await;
    // Birger's try at it: privately.
    let birger = Who::member(ASTRID + 1, "Birger");
    refuse_edit();
    let id = h.fake.command(
        &birger,
        CHANNEL,
        "tablut",
        None,
        puzzle("today", json!([])),
        &[],
    );
    let his = shown_by_the_dispatcher(&h, id).await;
    assert!(response(&h, id).ephemeral());
    assert!(
        his.content().starts_with("**Today's puzzle · Puzzle"),
        "{}",
        his.content()
    );
    assert_board(&his);
    assert_eq!(in_channel(his.content()), 0);
    h.fake.assert_contract();
}

/// The daily post's button hands out the presser's try in a new response for them alone
/// (deferred, the post left as it is), committed with its notice: when the handler's edit
/// fails, the dispatcher's shows it once, privately. When the token expires before any edit,
/// the try is never posted (its notice given up), and the next press shows the try under way,
/// privately, as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_try_from_the_button_is_shown_privately_once_and_again_past_its_token() {
    let h = BotHarness::start(&[("AI_TT_MB", "4"), ("CLOCK_INTERVAL_SECS", "1")]).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    const DAILY: u64 = 71;
    daily_try(&h, DAILY).await;
    let post = h.fake.shown(DAILY).remove(0);
    let button = &post.button_ids()[0];
    let press = |who: &Who| h.fake.click(who, DAILY, post.created.unwrap(), button);
    // Birger's press, whose handler's edit Discord refuses.
    let birger = Who::member(ASTRID + 1, "Birger");
    h.fake
        .fail("PATCH", "/messages/@original", 1, Fault::Status(500));
    let id = press(&birger);
    let his = shown_by_the_dispatcher(&h, id).await;
    assert!(response(&h, id).ephemeral());
    assert!(
        his.content().starts_with("**Today's puzzle · Puzzle"),
        "{}",
        his.content()
    );
    assert_board(&his);
    // The post is left as it is: never edited.
    assert!(h.fake.requests().iter().all(
        |r| r.method != "PATCH" || !r.path.starts_with(&format!("/api/v10/channels/{DAILY}/"))
    ));
    // Carl's press, whose handler's edit is held until the token has expired.
    let carl = Who::member(ASTRID + 2, "Carl");
    let gate = Gate::new();
    h.fake
        .fail("PATCH", "/messages/@original", 1, Fault::Gate(gate.clone()));
    let id = press(&carl);
    assert!(h.fake.callback(id).await.ephemeral());
    gate.arrived(1).await;
    h.fake.expire_token(id);
    gate.open();
    h.outbox_settled().await;
    let edits = h.fake.edits(id);
    assert!(
        !edits.is_empty() && edits.iter().all(|e| e.status == 401),
        "{edits:?}"
    );
    let lost = edits[0].clone();
    assert!(lost.content().starts_with("**Today's puzzle · Puzzle"));
    // Given up, never posted: the daily channel shows its post alone.
    let notices = service.probe().notices_in(DAILY).await.unwrap();
    let shown: Vec<_> = notices
        .iter()
        .filter(|n| n.kind == "puzzle_shown")
        .collect();
    let statuses: Vec<_> = shown.iter().map(|n| n.status).collect();
    use tablut_bot::service::NoticeStatus::{Delivered, Failed};
    assert_eq!(statuses, [Delivered, Failed], "Birger's, then Carl's");
    assert_eq!(posts(&h, DAILY).len(), 1);
    assert_eq!(h.fake.shown(DAILY).len(), 1);
    // Pressed again: his try under way, privately, as it was.
    let id = press(&carl);
    let again = private_answer(&h, id).await;
    assert_eq!(
        (again.content(), &again.files),
        (lost.content(), &lost.files)
    );
    assert_board(&again);
    assert_eq!(posts(&h, DAILY).len(), 1);
    h.fake.assert_contract();
}
