//! End to end: the real serenity/poise client, started as `main` starts it (with DISCORD_PROXY
//! pointing at a fake Discord on 127.0.0.1), playing through slash commands, autocomplete and
//! buttons, on a real SQLite file.

use crate::support::bot_harness::{assert_board, BotHarness};
use crate::support::fake_discord::*;
use serde_json::json;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

const ASTRID: u64 = 900_000_000_000_000_101;
const BIRGER: u64 = 900_000_000_000_000_102;
const CARL: u64 = 900_000_000_000_000_103;

/// The bot with short AI times, no default time control and a fast clock; players by id.
struct Harness(BotHarness);

impl Deref for Harness {
    type Target = BotHarness;
    fn deref(&self) -> &BotHarness {
        &self.0
    }
}

impl DerefMut for Harness {
    fn deref_mut(&mut self) -> &mut BotHarness {
        &mut self.0
    }
}

fn who(id: u64) -> Who {
    let name = match id {
        ASTRID => "Astrid",
        BIRGER => "Birger",
        _ => "Carl",
    };
    Who::member(id, name)
}

impl Harness {
    async fn start() -> Harness {
        let h = Harness(
            BotHarness::start(&[
                ("AI_EASY_TIME_MS", "100"),
                ("AI_MEDIUM_TIME_MS", "100"),
                ("AI_HARD_TIME_MS", "100"),
                ("AI_HINT_TIME_MS", "100"),
                ("AI_TT_MB", "4"),
                ("AI_GAME_COOLDOWN_SECS", "0"),
                ("CLOCK_INTERVAL_SECS", "1"),
                ("DEFAULT_TIME_CONTROL", "none"),
            ])
            .await,
        );
        let put = h
            .fake
            .requests()
            .into_iter()
            .find(|r| r.method == "PUT")
            .unwrap();
        assert_registered(&put);
        h
    }

    async fn restart(&mut self) {
        let put = self.0.restart().await;
        assert_registered(&put);
    }

    /// `/move notation` by `user` in `channel`; returns the callback.
    async fn play(&self, user: u64, channel: u64, notation: &str) -> BotRequest {
        self.0.play(&who(user), channel, notation).await
    }

    /// `/tablut sub` with options; returns (interaction id, callback).
    async fn tablut(
        &self,
        user: u64,
        channel: u64,
        sub: &str,
        options: serde_json::Value,
    ) -> (u64, BotRequest) {
        self.0.tablut(&who(user), channel, sub, options, &[]).await
    }

    /// Astrid challenges Birger (Astrid attacks) and Birger accepts; returns the start message.
    async fn game(&self, channel: u64) -> BotRequest {
        let (challenge, started) = self
            .challenge_accepted(channel, &who(ASTRID), (BIRGER, "Birger"), json!([]))
            .await;
        assert!(challenge
            .content()
            .contains(&format!("<@{BIRGER}>, <@{ASTRID}> challenges you")));
        assert_eq!(
            (started.method.as_str(), started.created),
            ("PATCH", challenge.created),
            "the challenge message becomes the game"
        );
        started
    }
}

/// The two commands, registered in the development guild.
fn assert_registered(put: &BotRequest) {
    assert_eq!(
        put.path,
        format!("/api/v10/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    );
    let names: Vec<&str> = put
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tablut", "move"]);
}

/// A refusal answered at once: the interaction's first response, ephemeral, one line (nothing
/// acknowledged before it, written, or waited for).
fn assert_refusal(r: &BotRequest, words: &str) {
    assert_eq!(
        r.callback_type(),
        Some(4),
        "refused at once, as the first response: {} {:?}",
        r.path,
        r.json
    );
    assert_private_line(r, words);
}

/// A line for the caller alone (a refusal after a private acknowledgement, or one the commit
/// found).
fn assert_private_line(r: &BotRequest, words: &str) {
    assert!(r.ephemeral(), "refusals are ephemeral: {:?}", r.json);
    let text = r.content();
    assert!(text.contains(words), "expected '{words}' in '{text}'");
    assert!(!text.contains('\n'), "one line: '{text}'");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_between_two_users_ends_in_an_escape() {
    let h = Harness::start().await;
    let started = h.game(10).await;
    assert!(started
        .content()
        .contains(&format!("Your move, <@{ASTRID}> (attackers)")));
    assert_board(&started);
    let moves = [
        (ASTRID, "a6-a7"),
        (BIRGER, "e4-c4"),
        (ASTRID, "i6-i7"),
        (BIRGER, "e5-e4"),
        (ASTRID, "a4-a3"),
        (BIRGER, "e4-g4"),
        (ASTRID, "i4-i3"),
    ];
    for (i, (user, m)) in moves.iter().enumerate() {
        let r = h.play(*user, 10, m).await;
        assert!(!r.ephemeral());
        assert!(
            r.content().contains(&format!("played **{m}")),
            "{}",
            r.content()
        );
        let next = if i % 2 == 0 { BIRGER } else { ASTRID };
        assert!(
            r.content().contains(&format!("Your move, <@{next}>")),
            "{}",
            r.content()
        );
        assert_board(&r);
    }
    let raichi = h
        .requests()
        .into_iter()
        .any(|r| r.content().contains("Raichi"));
    assert!(raichi, "Linnaeus' call after e4-g4");
    let last = h.play(BIRGER, 10, "g4-g1").await;
    let text = last.content();
    assert!(text.contains("played **g4-g1++**"), "{text}");
    assert!(
        text.contains("**Birger** wins with the defenders: the king escaped."),
        "{text}"
    );
    assert!(
        text.contains("Ratings: Astrid 1500 → 1338 · Birger 1500 → 1662"),
        "{text}"
    );
    assert_board(&last);
    // The record, as text and as a file.
    let (_, history) = h.tablut(CARL, 10, "history", json!([])).await;
    assert!(history.content().contains("1. a6-a7 e4-c4  2. i6-i7 e5-e4"));
    let file = String::from_utf8(history.file(".txt").unwrap().to_vec()).unwrap();
    assert!(file.contains("g4-g1++") && file.contains("position: /"));
    // The game is over: moving is refused.
    assert_refusal(&h.play(ASTRID, 10, "a7-a8").await, "This game is over");
}

impl Harness {
    fn requests(&self) -> Vec<BotRequest> {
        self.fake.requests()
    }

    /// Waits until the newest challenge has its message id stored (the bot stores it after
    /// fetching its reply).
    async fn wait_for_challenge_message(&self) {
        let pool = self.bot.as_ref().unwrap().service.store().pool().clone();
        let waiting = crate::support::Waiting::for_("the challenge message id stored");
        while sqlx::query_scalar::<_, Option<i64>>(
            "SELECT message_id FROM challenges ORDER BY id DESC LIMIT 1",
        )
        .fetch_one(&pool)
        .await
        .unwrap()
        .is_none()
        {
            waiting.again().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_against_the_ai_as_each_side() {
    let h = Harness::start().await;
    // Astrid defends: the AI attacks and moves at once.
    let (_, started) = h
        .tablut(
            ASTRID,
            20,
            "ai",
            json!([{"name": "side", "type": 4, "value": 1},
                   {"name": "level", "type": 4, "value": 0}]),
        )
        .await;
    assert!(
        started.content().contains("the AI (easy) attacks"),
        "{}",
        started.content()
    );
    assert_board(&started);
    // The AI's move is announced in the channel, through the outbox.
    let ai_move = h.fake.channel_message(20).await;
    assert!(
        ai_move
            .content()
            .contains("**the AI (easy)** (attackers) played"),
        "{}",
        ai_move.content()
    );
    assert!(ai_move
        .content()
        .contains(&format!("Your move, <@{ASTRID}> (defenders)")));
    assert_board(&ai_move);

    // Astrid attacks: her move, then the AI's, each with a board.
    let (_, started) = h
        .tablut(
            ASTRID,
            21,
            "ai",
            json!([{"name": "side", "type": 4, "value": 0}]),
        )
        .await;
    assert!(started.content().contains("the AI (medium) defends"));
    let id = h.fake.command(
        &who(ASTRID),
        21,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": "a4-a3"}]),
        &[],
    );
    let mine = h.fake.answer(id).await;
    assert!(mine.content().contains("is thinking"), "{}", mine.content());
    let reply = h.fake.channel_message(21).await;
    assert!(
        reply.content().contains("(defenders) played"),
        "{}",
        reply.content()
    );
    assert_board(&reply);
    // Hints are for the player to move, privately.
    let (id, hint) = h.tablut(ASTRID, 21, "hint", json!([])).await;
    assert_eq!(
        h.fake
            .requests()
            .iter()
            .find(|r| r.path.contains(&format!("/interactions/{id}/")))
            .and_then(|r| r.callback_type()),
        Some(5),
        "deferred while the AI thinks"
    );
    assert!(
        hint.ephemeral() && hint.content().starts_with("Try **"),
        "{:?}",
        hint.json
    );
    // A draw offer to the AI is refused.
    let (_, draw) = h.tablut(ASTRID, 21, "draw", json!([])).await;
    assert_refusal(&draw, "The AI plays on");
}

/// `rated:false`: the challenge and the start say the game is casual, its players get hints,
/// and its end changes no ratings. `time:3d+6h`: the challenge and the start name the bank and
/// the increment, and the board tells both sides' banks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_casual_game_says_so_and_allows_hints() {
    let h = Harness::start().await;
    let (challenge, started) = h
        .challenge_accepted(
            22,
            &who(ASTRID),
            (BIRGER, "Birger"),
            json!([{"name": "rated", "type": 5, "value": false},
                   {"name": "time", "type": 3, "value": "3d+6h"}]),
        )
        .await;
    assert!(
        challenge
            .content()
            .contains("challenges you to a casual game of Tablut"),
        "{}",
        challenge.content()
    );
    assert!(
        started.content().contains("casual: no rating change"),
        "{}",
        started.content()
    );
    for text in [challenge.content(), started.content()] {
        assert!(
            text.contains("a bank of 3d each, 6h added each move"),
            "{text}"
        );
    }
    let (_, board) = h.tablut(BIRGER, 22, "board", json!([])).await;
    assert!(
        board
            .content()
            .contains("Time left: Astrid 3 d · Birger 3 d"),
        "{}",
        board.content()
    );
    // A hint whose answer Discord refuses (500) does not count against the cooldown: asked
    // again at once, it is answered; once shown, the next is too soon.
    h.fake.fail("POST", "/webhooks/", 1, Fault::Status(500));
    let id = h
        .fake
        .command(&who(ASTRID), 22, "tablut", Some("hint"), json!([]), &[]);
    h.fake.answer(id).await;
    let token = format!("/token-{id}");
    let mut requests = h.fake.requests().into_iter();
    let lost = requests
        .find(|r| r.method == "POST" && r.path.ends_with(&token))
        .unwrap();
    assert_eq!(lost.status, 500);
    assert!(lost.content().starts_with("Try **"), "{:?}", lost.json);
    let (_, hint) = h.tablut(ASTRID, 22, "hint", json!([])).await;
    assert!(
        hint.ephemeral() && hint.content().starts_with("Try **"),
        "{:?}",
        hint.json
    );
    let (_, again) = h.tablut(ASTRID, 22, "hint", json!([])).await;
    assert_private_line(&again, "You asked for a hint a moment ago");
    let (_, resigned) = h.tablut(BIRGER, 22, "resign", json!([])).await;
    let text = resigned.content();
    assert!(
        text.contains("A casual game: ratings unchanged") && !text.contains("Ratings:"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_accepted_declined_withdrawn_and_expire() {
    let h = Harness::start().await;
    let challenge = |channel| {
        h.fake.command(
            &who(ASTRID),
            channel,
            "tablut",
            Some("challenge"),
            json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
            &[(BIRGER, "Birger", false)],
        )
    };
    // Declined.
    let c = h.fake.answer(challenge(30)).await;
    let decline = c
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":decline:"))
        .unwrap();
    let accept = c
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":accept:"))
        .unwrap();
    // Only the challenged player may answer.
    let wrong = h.fake.click(&who(ASTRID), 30, 1, &accept);
    assert_refusal(&h.fake.answer(wrong).await, "not yours to answer");
    let wrong = h.fake.click(&who(CARL), 30, 1, &decline);
    assert_refusal(&h.fake.answer(wrong).await, "not yours to answer");
    let click = h.fake.click(&who(BIRGER), 30, 1, &decline);
    let r = h.fake.answer(click).await;
    assert_eq!(r.method, "PATCH", "the challenge's message edited");
    assert!(r.content().contains("declined the challenge"));
    assert!(r.button_ids().is_empty(), "the buttons are gone");
    let again = h.fake.click(&who(BIRGER), 30, 1, &accept);
    assert_refusal(&h.fake.answer(again).await, "already declined");

    // Withdrawn by the challenger.
    let c = h.fake.answer(challenge(30)).await;
    let cancel = c
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":cancel:"))
        .unwrap();
    let click = h.fake.click(&who(ASTRID), 30, 1, &cancel);
    assert!(h
        .fake
        .answer(click)
        .await
        .content()
        .contains("withdrew the challenge"));

    // Expired: the clock edits the challenge message.
    let id = challenge(31);
    let c = h.fake.answer(id).await;
    let accept = c
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":accept:"))
        .unwrap();
    h.wait_for_challenge_message().await;
    h.clock.advance(Duration::from_secs(24 * 3600));
    let edit = h
        .fake
        .expect("the expired challenge edited", |r| {
            r.method == "PATCH" && r.path.starts_with("/api/v10/channels/31/messages/")
        })
        .await;
    assert!(edit.content().contains("expired unanswered"));
    assert!(edit.button_ids().is_empty());
    let late = h.fake.click(&who(BIRGER), 31, 1, &accept);
    assert_refusal(&h.fake.answer(late).await, "expired");
}

/// A press answers Discord before anything that writes or waits for the write lock: Accept on
/// a challenge past its time is refused at once, privately, while the write lock is held (the
/// challenge's expiry, a write, comes after).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_is_answered_while_the_write_lock_is_held() {
    let h = Harness::start().await;
    let id = h.fake.command(
        &who(ASTRID),
        32,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    let c = h.fake.answer(id).await;
    let accept = c
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":accept:"))
        .unwrap();
    h.wait_for_challenge_message().await;
    let service = h.bot.as_ref().unwrap().service.clone();
    let held = service.store().lock().await.unwrap();
    h.clock.advance(Duration::from_secs(24 * 3600));
    let pressed = std::time::Instant::now();
    let press = h.fake.click(&who(BIRGER), 32, 1, &accept);
    let r = h.fake.answer(press).await;
    assert_eq!(r.callback_type(), Some(4), "answered at once: {r:?}");
    assert_eq!(r.status, 204, "Discord took it: {r:?}");
    assert!(r.at.duration_since(pressed) < Duration::from_secs(3));
    assert_refusal(&r, "expired");
    drop(held);
}

/// A refusal the commit itself finds (the game changed between the check and the commit: here
/// the opponent resigned while the move's acknowledgement was on its way) is the caller's alone
/// too: the channel shows neither the refusal nor a "thinking" left behind. So is a press's
/// (Accept on a challenge withdrawn while the press's acknowledgement was on its way).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_the_commit_finds_is_private_too() {
    let h = Harness::start().await;
    h.game(33).await;
    let gate = Gate::new();
    h.fake
        .fail("POST", "/callback", 1, Fault::Gate(gate.clone()));
    let notation = json!([{"name": "notation", "type": 3, "value": "a4-a3"}]);
    let id = h
        .fake
        .command(&who(ASTRID), 33, "move", None, notation, &[]);
    // Checked and acknowledged: the acknowledgement is held at Discord's door meanwhile.
    gate.arrived(1).await;
    let (_, resigned) = h.tablut(BIRGER, 33, "resign", json!([])).await;
    assert!(
        resigned.content().contains("resign"),
        "{}",
        resigned.content()
    );
    gate.open();
    let r = h.fake.answer(id).await;
    assert_private_line(&r, "This game is over");
    h.outbox_settled().await;
    let shown = h.fake.shown(33);
    assert!(
        shown
            .iter()
            .all(|m| !m.content().contains("This game is over") && !m.content().is_empty()),
        "{shown:#?}"
    );
    // A press likewise: Accept, checked and acknowledged (a deferred update), finds the
    // challenge withdrawn meanwhile.
    let id = h.fake.command(
        &who(ASTRID),
        34,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()}]),
        &[(BIRGER, "Birger", false)],
    );
    let accept = h
        .fake
        .answer(id)
        .await
        .button_ids()
        .into_iter()
        .find(|b| b.contains(":accept:"))
        .unwrap();
    let challenge: i64 = accept.rsplit(':').next().unwrap().parse().unwrap();
    let gate = Gate::new();
    h.fake
        .fail("POST", "/callback", 1, Fault::Gate(gate.clone()));
    let press = h.fake.click(&who(BIRGER), 34, 1, &accept);
    gate.arrived(1).await;
    let service = h.bot.as_ref().unwrap().service.clone();
    service
        .games()
        .cancel(challenge, ASTRID, None)
        .await
        .unwrap();
    gate.open();
    let r = h.fake.answer(press).await;
    assert_private_line(&r, "already cancelled");
    h.outbox_settled().await;
    let shown = h.fake.shown(34);
    assert!(
        shown
            .iter()
            .all(|m| !m.content().contains("already cancelled")),
        "{shown:#?}"
    );
    assert!(h.fake.violations().is_empty(), "{:?}", h.fake.violations());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_suggests_the_callers_legal_moves() {
    let h = Harness::start().await;
    h.game(40).await;
    let id = h
        .fake
        .autocomplete(&who(ASTRID), 40, "move", "notation", "a4");
    let r = h.fake.answer(id).await;
    assert_eq!(r.callback_type(), Some(8));
    let choices: Vec<&str> = r.json["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap())
        .collect();
    assert_eq!(
        choices,
        ["a4-a1", "a4-a2", "a4-a3", "a4-b4", "a4-c4", "a4-d4"]
    );
    let id = h
        .fake
        .autocomplete(&who(BIRGER), 40, "move", "notation", "");
    let r = h.fake.answer(id).await;
    assert_eq!(
        r.json["data"]["choices"].as_array().unwrap().len(),
        0,
        "not his turn"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_accepted_and_a_resignation() {
    let h = Harness::start().await;
    h.game(50).await;
    let (_, offer) = h.tablut(ASTRID, 50, "draw", json!([])).await;
    assert!(offer.content().contains("offers a draw"));
    let yes = offer
        .button_ids()
        .into_iter()
        .find(|b| b.contains("draw-yes"))
        .unwrap();
    let own = h.fake.click(&who(ASTRID), 50, 1, &yes);
    assert_refusal(&h.fake.answer(own).await, "your opponent has to answer");
    let spectator = h.fake.click(&who(CARL), 50, 1, &yes);
    assert_refusal(&h.fake.answer(spectator).await, "not playing this game");
    let click = h.fake.click(&who(BIRGER), 50, 1, &yes);
    let r = h.fake.answer(click).await;
    assert!(r.content().contains("Draw agreed"), "{}", r.content());

    h.game(50).await;
    h.play(ASTRID, 50, "a4-a3").await;
    let (_, r) = h.tablut(CARL, 50, "resign", json!([])).await;
    assert_refusal(&r, "not playing this game");
    let (_, r) = h.tablut(BIRGER, 50, "resign", json!([])).await;
    assert!(
        r.content()
            .contains("**Birger** resigned. **Astrid** wins with the attackers"),
        "{}",
        r.content()
    );
    assert_board(&r);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_is_one_ephemeral_line() {
    let h = Harness::start().await;
    assert_refusal(
        &h.play(ASTRID, 60, "a4-a3").await,
        "There is no game in this channel",
    );
    let (_, r) = h.tablut(ASTRID, 60, "board", json!([])).await;
    assert_refusal(&r, "There is no game in this channel");
    // Challenging yourself, or a bot.
    let id = h.fake.command(
        &who(ASTRID),
        60,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": ASTRID.to_string()}]),
        &[(ASTRID, "Astrid", false)],
    );
    assert_refusal(&h.fake.answer(id).await, "cannot challenge yourself");
    let id = h.fake.command(
        &who(ASTRID),
        60,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BOT_ID.to_string()}]),
        &[(BOT_ID, "tablut-bot", true)],
    );
    assert_refusal(&h.fake.answer(id).await, "Bots cannot play");
    let id = h.fake.command(
        &who(ASTRID),
        60,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()},
               {"name": "time", "type": 3, "value": "soon"}]),
        &[(BIRGER, "Birger", false)],
    );
    assert_refusal(&h.fake.answer(id).await, "is not a time control");
    // An increment longer than the bank.
    let id = h.fake.command(
        &who(ASTRID),
        60,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": BIRGER.to_string()},
               {"name": "time", "type": 3, "value": "3d+40d"}]),
        &[(BIRGER, "Birger", false)],
    );
    assert_refusal(&h.fake.answer(id).await, "'3d+40d' is not a time control");
    // An option Discord would not send: a level that is not one of the choices.
    let id = h.fake.command(
        &who(ASTRID),
        62,
        "tablut",
        Some("ai"),
        json!([{"name": "level", "type": 4, "value": 9}]),
        &[],
    );
    assert_refusal(&h.fake.answer(id).await, "That option is not valid");

    h.game(60).await;
    let id = h.fake.command(
        &who(CARL),
        60,
        "tablut",
        Some("challenge"),
        json!([{"name": "opponent", "type": 6, "value": ASTRID.to_string()}]),
        &[(ASTRID, "Astrid", false)],
    );
    assert_refusal(&h.fake.answer(id).await, "already running in this channel");
    assert_refusal(&h.play(BIRGER, 60, "e3-d3").await, "It is not your turn");
    assert_refusal(
        &h.play(CARL, 60, "a4-a3").await,
        "You are not playing this game",
    );
    assert_refusal(
        &h.play(ASTRID, 60, "d1-d6").await,
        "blocked by the piece on d5",
    );
    assert_refusal(&h.play(ASTRID, 60, "hello").await, "is not a move");
    assert_refusal(
        &h.play(ASTRID, 60, "c7").await,
        "none of your pieces can reach c7",
    );
    // No engine help in a rated game between people.
    let (_, r) = h.tablut(ASTRID, 60, "hint", json!([])).await;
    assert_private_line(&r, "No hints in a rated game between people");
    // Abort: not by a spectator, by a moderator at any time.
    let (_, r) = h.tablut(CARL, 60, "abort", json!([])).await;
    assert_refusal(&r, "You are not playing this game");
    let moderator = Who {
        permissions: "8192".into(),
        ..who(CARL)
    };
    let id = h
        .fake
        .command(&moderator, 60, "tablut", Some("abort"), json!([]), &[]);
    assert!(h
        .fake
        .answer(id)
        .await
        .content()
        .contains("aborted the game"));
    // In a direct message.
    let dm = Who {
        dm: true,
        ..who(ASTRID)
    };
    let id = h.fake.command(
        &dm,
        61,
        "move",
        None,
        json!([{"name": "notation", "type": 3, "value": "a4-a3"}]),
        &[],
    );
    assert_refusal(&h.fake.answer(id).await, "use this command in a server");
    // The rules answer anywhere.
    let id = h
        .fake
        .command(&dm, 61, "tablut", Some("rules"), json!([]), &[]);
    assert!(h.fake.answer(id).await.content().contains("Tablut"));
    // However each ended, every command has been counted out (shut-down waits for none).
    let in_flight = &h.bot.as_ref().unwrap().in_flight;
    let waiting = crate::support::Waiting::for_("every command counted out");
    while !in_flight.is_empty() {
        waiting.again().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_continues_the_game() {
    let mut h = Harness::start().await;
    h.game(70).await;
    h.play(ASTRID, 70, "a4-a3").await;
    h.restart().await;
    assert_eq!(h.fake.identifies(), 2, "a new client connected");
    let r = h.play(BIRGER, 70, "e3-d3").await;
    assert!(r.content().contains("played **e3-d3**"), "{}", r.content());
    let (_, board) = h.tablut(CARL, 70, "board", json!([])).await;
    assert!(board.content().contains("Last move: **e3-d3**"));
    let (_, history) = h.tablut(CARL, 70, "history", json!([])).await;
    assert!(history.content().contains("1. a4-a3 e3-d3"));
}

/// Runs the binary with these variables (and no others of the bot's) in a fresh directory.
async fn run_binary(vars: Vec<(&'static str, String)>) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    run_binary_in(dir.path(), vars).await
}

/// Runs the binary with these variables (and no others of the bot's) in `dir`.
async fn run_binary_in(
    dir: &std::path::Path,
    vars: Vec<(&'static str, String)>,
) -> std::process::Output {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tablut-bot"));
        for k in [
            "DISCORD_TOKEN",
            "DISCORD_PROXY",
            "DATABASE_URL",
            "DEV_GUILD_ID",
            "RUST_LOG",
        ] {
            c.env_remove(k);
        }
        c.current_dir(&dir).env("NO_PROXY", "127.0.0.1");
        for (k, v) in vars {
            c.env(k, v);
        }
        c.output().unwrap()
    })
    .await
    .unwrap()
}

/// The one line the bot ended with on stderr. Log lines may come before it (on a loaded machine
/// sqlx warns of a slow statement at start-up), but nothing else does: the message is one line.
fn one_line(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains(TOKEN), "the token is never printed");
    let ansi = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
    let log = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\S+\s+(TRACE|DEBUG|INFO|WARN|ERROR) ").unwrap();
    let plain = ansi.replace_all(&err, "");
    let lines: Vec<&str> = plain.trim_end().lines().collect();
    let (last, before) = lines.split_last().expect("a line on stderr");
    assert!(
        !log.is_match(last),
        "the last line is the bot's message: {err}"
    );
    assert!(
        before.iter().all(|l| log.is_match(l)),
        "one line, after log lines only: {err}"
    );
    last.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_or_rejected_token_stops_the_bot_with_one_line() {
    let out = run_binary(vec![("DISCORD_TOKEN", "not-a-token".into())]).await;
    assert!(!out.status.success());
    assert!(one_line(&out).contains("does not look like a bot token"));

    let fake = FakeDiscord::start().await;
    fake.reject_token();
    let out = run_binary(vec![
        ("DISCORD_TOKEN", TOKEN.into()),
        ("DISCORD_PROXY", fake.base_url.clone()),
    ])
    .await;
    assert!(!out.status.success());
    assert!(one_line(&out).contains("Discord rejected DISCORD_TOKEN"));
}

/// No password is ever printed: a `DATABASE_URL` holding one that cannot be opened (a
/// PostgreSQL port nothing listens on: sqlx tries again until its 30 s acquire timeout, and
/// logs at debug meanwhile), one in a `password=` parameter, one a URL sqlx refuses, a
/// `DISCORD_PROXY` with a password that cannot be reached, and one that is not an HTTP URL.
/// Each stops the bot with its one line, the URL shown without its password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_password_is_ever_printed() {
    const SECRET: &str = "Pa55-w0rd-never-shown";
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cases: Vec<(&str, String, i32, String)> = vec![
        (
            "DATABASE_URL",
            format!("postgres://tablut:{SECRET}@127.0.0.1:{port}/tablut"),
            1,
            format!(
                "cannot open the database postgres://tablut:<redacted>@127.0.0.1:{port}/tablut"
            ),
        ),
        (
            "DATABASE_URL",
            format!("postgres://tablut@127.0.0.1:{port}/tablut?password={SECRET}"),
            1,
            "?password=<redacted>".into(),
        ),
        (
            "DATABASE_URL",
            format!("postgres://tablut:{SECRET}@127.0.0.1:{port}/tablut?sslmode=sometimes"),
            1,
            "is not a database URL".into(),
        ),
        (
            "DISCORD_PROXY",
            format!("http://bot:{SECRET}@127.0.0.1:{port}"),
            1,
            "cannot reach Discord".into(),
        ),
        (
            "DISCORD_PROXY",
            format!("ftp://bot:{SECRET}@127.0.0.1:{port}"),
            2,
            "DISCORD_PROXY (--proxy)='ftp://bot:<redacted>@".into(),
        ),
    ];
    let runs: Vec<_> = cases
        .iter()
        .map(|(var, value, _, _)| {
            tokio::spawn(run_binary(vec![
                ("DISCORD_TOKEN", TOKEN.into()),
                ("RUST_LOG", "debug".into()),
                (var, value.clone()),
            ]))
        })
        .collect();
    for ((var, value, code, says), run) in cases.into_iter().zip(runs) {
        let out = run.await.unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(
            !stdout.contains(SECRET) && !stderr.contains(SECRET),
            "{var}={value}: {stdout}{stderr}"
        );
        assert_eq!(out.status.code(), Some(code), "{var}={value}: {stderr}");
        let last = stderr.trim_end().lines().last().unwrap_or_default();
        assert!(last.contains(&says), "{var}={value}: {last}");
    }
}

/// The files in `dir`, by name.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_discord_is_named_with_its_cause_and_the_database_is_closed() {
    // A port nothing listens on: the connection is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let out = run_binary_in(
        dir.path(),
        vec![
            ("DISCORD_TOKEN", TOKEN.into()),
            ("DISCORD_PROXY", format!("http://127.0.0.1:{port}")),
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    let line = one_line(&out);
    assert!(line.contains("cannot reach Discord"), "{line}");
    assert!(line.to_lowercase().contains("connection refused"), "{line}");
    assert_eq!(
        files_in(dir.path()),
        ["tablut.db"],
        "the database was opened, then closed: no -wal or -shm left"
    );

    // The same after Discord refuses the token.
    let fake = FakeDiscord::start().await;
    fake.reject_token();
    let dir = tempfile::tempdir().unwrap();
    let out = run_binary_in(
        dir.path(),
        vec![
            ("DISCORD_TOKEN", TOKEN.into()),
            ("DISCORD_PROXY", fake.base_url.clone()),
        ],
    )
    .await;
    assert!(one_line(&out).contains("Discord rejected DISCORD_TOKEN"));
    assert_eq!(files_in(dir.path()), ["tablut.db"]);
}

/// Registering the commands on the first READY fails (Discord answers 500): the bot handles
/// commands all the same (Discord keeps the ones registered before) and registers them again
/// in the background until Discord takes them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_registration_is_tried_again_and_commands_are_answered_meanwhile() {
    let fake = FakeDiscord::start().await;
    fake.fail("PUT", "/commands", 2, Fault::Status(500));
    let dir = tempfile::tempdir().unwrap();
    let config = fake.bot_config(&dir.path().join("bot.db"), &[]);
    let clock = tablut_bot::service::ManualClock::new(crate::support::bot_harness::T0);
    let bot = tablut_bot::bot::start(config, std::sync::Arc::new(clock))
        .await
        .unwrap();
    fake.wait_ready().await;
    let registering = |r: &BotRequest| r.method == "PUT" && r.path.ends_with("/commands");
    assert_eq!(fake.expect("a registration", registering).await.status, 500);
    let id = fake.command(&who(ASTRID), 80, "tablut", Some("rules"), json!([]), &[]);
    assert!(fake.answer(id).await.content().contains("Tablut"));
    // Tried again after 1 s, then 2 s more: the third is taken.
    assert_eq!(
        fake.expect("a second registration", registering)
            .await
            .status,
        500
    );
    let third = fake.expect("a third registration", registering).await;
    assert_eq!(third.status, 200);
    assert_eq!(
        third.json.as_array().map(Vec::len),
        fake.requests()
            .iter()
            .find(|r| registering(r))
            .and_then(|r| r.json.as_array().map(Vec::len)),
        "the same commands"
    );
    bot.shutdown().await;
}

/// A shutdown leaves no task of the bot's running: the clock, the sweeps and a registration that Discord keeps refusing (its retry waiting) have all ended when it
/// returns, before the database closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_ends_every_background_task_a_registration_being_retried_included() {
    let fake = FakeDiscord::start().await;
    fake.fail("PUT", "/commands", 1000, Fault::Status(500));
    let dir = tempfile::tempdir().unwrap();
    let config = fake.bot_config(&dir.path().join("bot.db"), &[]);
    let clock = tablut_bot::service::ManualClock::new(crate::support::bot_harness::T0);
    let bot = tablut_bot::bot::start(config, std::sync::Arc::new(clock))
        .await
        .unwrap();
    fake.wait_ready().await;
    let registering = |r: &BotRequest| r.method == "PUT" && r.path.ends_with("/commands");
    assert_eq!(fake.expect("a registration", registering).await.status, 500);
    let id = fake.command(&who(ASTRID), 80, "tablut", Some("rules"), json!([]), &[]);
    assert!(fake.callback(id).await.content().contains("Tablut"));
    let tasks = bot.tasks();
    // The clock, the AI's sweep and the registration's retry.
    assert!(tasks.len() >= 3, "{} tasks", tasks.len());
    bot.shutdown().await;
    assert!(tasks.is_closed());
    assert_eq!(tasks.len(), 0, "tasks left running after the shutdown");
}

/// Names are text: two members whose nickname and name are a masked link, a bare link, an
/// invite, mentions (everyone, another member, a role), a heading, a quote, subtext, code and a
/// spoiler play a whole rated game. Every message the bot sends (the challenge, the start, each
/// move, the board, the result and ratings, the history, the games, the stats and the
/// leaderboard) shows the names as typed, and inert: no link, no preview, no mention but the
/// players' own, and only the players may be pinged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_names_show_as_text_in_every_post() {
    let h = Harness::start().await;
    let astrid = Who {
        nick: Some("[Free Nitro](https://x.io) @everyone".into()),
        ..who(ASTRID)
    };
    let birger = Who {
        nick: Some("> `q` -# <@&1> ~~s~~".into()),
        ..Who::member(BIRGER, &format!("# <@{CARL}> ||discord.gg/x||"))
    };
    let channel = 80;
    let (challenge, _) = h
        .fake
        .challenge_accepted(channel, &astrid, &birger, json!([]))
        .await;
    assert!(
        challenge
            .content()
            .contains(r"\[Free Nitro\]\(https\://x\.io\) \@everyone to play the attackers"),
        "{}",
        challenge.content()
    );
    let moves = [
        (&astrid, "a6-a7"),
        (&birger, "e4-c4"),
        (&astrid, "i6-i7"),
        (&birger, "e5-e4"),
        (&astrid, "a4-a3"),
        (&birger, "e4-g4"),
        (&astrid, "i4-i3"),
    ];
    let mut shown = Vec::new();
    for (who, m) in moves {
        let r = h.0.play(who, channel, m).await;
        assert!(
            r.content().contains(&format!("played **{m}")),
            "{}",
            r.content()
        );
        shown.push(r);
    }
    h.tablut(CARL, channel, "board", json!([])).await;
    let (_, games) = h.tablut(CARL, channel, "games", json!([])).await;
    let last = h.0.play(&birger, channel, "g4-g1").await;
    assert!(
        last.content().contains("wins with the defenders"),
        "{}",
        last.content()
    );
    let (_, history) = h.tablut(CARL, channel, "history", json!([])).await;
    let (_, stats) = h.0.tablut(&astrid, channel, "stats", json!([]), &[]).await;
    let (_, leaderboard) = h.tablut(CARL, channel, "leaderboard", json!([])).await;
    // The names as each post shows them, escapes taken out: as typed.
    let rendered = |r: &BotRequest| {
        let mut out = String::new();
        let mut chars = r
            .content()
            .chars()
            .collect::<Vec<_>>()
            .into_iter()
            .peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek()) {
                ('\\', Some(n)) if n.is_ascii_punctuation() => out.push(chars.next().unwrap()),
                (c, _) => out.push(c),
            }
        }
        out
    };
    let a = astrid.nick.as_deref().unwrap();
    let b_names = [birger.name.as_str(), birger.nick.as_deref().unwrap()];
    let names_b = |r: &BotRequest| b_names.iter().any(|b| rendered(r).contains(b));
    for (what, r, shows_a, shows_b) in [
        ("Astrid's move", &shown[0], true, false),
        ("Birger's move", &shown[1], false, true),
        ("the games", &games, true, true),
        ("the result", &last, true, true),
        ("the history", &history, true, true),
        ("the leaderboard", &leaderboard, true, true),
    ] {
        if shows_a {
            assert!(
                rendered(r).contains(a),
                "{what} shows {a:?}: {}",
                r.content()
            );
        }
        if shows_b {
            assert!(names_b(r), "{what} shows Birger's name: {}", r.content());
        }
    }
    assert!(
        names_b(&stats),
        "the stats show the opponent: {}",
        stats.content()
    );
    // Whatever the bot sent, nothing in it is live but its own words and the players' mentions.
    let mut sent = 0;
    for r in h.requests() {
        // A turn's direct message links to the game's message: the bot's own link.
        let text = r.content().replace("https://discord.com/channels/", "");
        if text.is_empty() {
            continue;
        }
        sent += 1;
        for live in [
            "](",
            "https://",
            "discord.gg",
            "<@&",
            "||",
            "~~",
            "`q`",
            "\n#",
            "\n>",
            "\n-#",
        ] {
            assert!(
                !text.contains(live),
                "{live:?} live in {} {}: {text}",
                r.method,
                r.path
            );
        }
        for at in ["@everyone", &format!("<@{CARL}>")] {
            for (i, _) in text.match_indices(at) {
                assert!(
                    text[..i].ends_with('\\') || text[..i].ends_with("<\\"),
                    "{at} live: {text}"
                );
            }
        }
        assert!(!text.starts_with('#') && !text.starts_with('>'), "{text}");
        let mentions = if r.json["allowed_mentions"].is_object() {
            &r.json["allowed_mentions"]
        } else {
            &r.json["data"]["allowed_mentions"]
        };
        let parse = mentions["parse"].as_array().cloned().unwrap_or_default();
        assert!(parse.is_empty(), "{} {}: {mentions}", r.method, r.path);
        for user in mentions["users"].as_array().cloned().unwrap_or_default() {
            assert!(
                [ASTRID.to_string(), BIRGER.to_string()].contains(&user.as_str().unwrap().into()),
                "only the players may be pinged: {mentions} for {text}"
            );
        }
    }
    assert!(sent >= 14, "{sent} messages");
}
