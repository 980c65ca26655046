//! The outbox on both backends (a SQLite file, a fresh PostgreSQL database): what each change owes a channel is written with it, and the
//! delivery policy (order within a channel, the answer's grace, backoff, `retry_after`, a
//! channel gone or refusing the bot, other refusals, the bot's token refused) decides what
//! happens next. Wall-clock times are passed in, so nothing here sleeps.

use crate::support::fixture::{challenge_request, Fixture};
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::bot::delivery::{
    self, answer_ref, answer_webhook, Consequence, Delivery, DeliveryPolicy,
};
use tablut_bot::both_backends;
use tablut_bot::service::*;
use tablut_bot::store;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::tafl::{Outcome, Reason, Rules};

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
const GRACE: Duration = Duration::from_secs(5);
const GIVE_UP: Duration = Duration::from_secs(600);
const RETENTION: Duration = Duration::from_secs(3 * 3600);
const CLAIM_LEASE: Duration = Duration::from_secs(30);

async fn fixture(db: TestDb, images: bool) -> Fixture {
    let config = Config {
        ai_time: [Duration::from_millis(50); 3],
        images,
        // Many challenges between the same two players: the caps on them are tests/discord/limits.rs's.
        open_challenges_per_user: 0,
        challenges_received: 0,
        ..Config::default()
    };
    Fixture::with_delivery(db, config, policy()).await
}

fn policy() -> DeliveryPolicy {
    DeliveryPolicy {
        times: OutboxTimes {
            answer_grace: GRACE,
            retention: RETENTION,
            claim_lease: CLAIM_LEASE,
        },
        retry_min: Duration::from_secs(1),
        retry_max: Duration::from_secs(8),
        give_up: GIVE_UP,
    }
}

/// Records an attempt at `n` as the dispatcher does, under [`policy`].
async fn record(
    s: &Service,
    n: &Notice,
    delivery: Delivery,
    now: i64,
) -> Result<Consequence, ServiceError> {
    delivery::record(s, &policy(), n, delivery, now).await
}

fn place(channel: u64) -> Place {
    Place {
        guild: Some(GUILD),
        channel,
    }
}

/// Now, as the dispatcher passes it: the database's time as the service reads it (the
/// fixture's clock, which the test moves).
async fn now(s: &Service) -> i64 {
    s.database_now().await.unwrap()
}

async fn later(s: &Service, by: Duration) -> i64 {
    now(s).await + by.as_millis() as i64
}

/// The notices due in `channel` at `at`, claimed for an attempt as the dispatcher claims them
/// (and those of other channels with them).
async fn claimed_in(s: &Service, channel: u64, at: i64) -> Vec<Notice> {
    s.outbox()
        .claim(at, 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|n| n.channel == channel)
        .collect()
}

/// The notices due in `channel` at `at`.
async fn due_in(s: &Service, channel: u64, at: i64) -> Vec<Notice> {
    s.outbox()
        .due(at, 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|n| n.channel == channel)
        .collect()
}

/// Astrid against the AI in `channel`, her turn notifications off: the channel's notices
/// alone are in the outbox (tests/service/notify.rs has her direct messages).
async fn ai_game(s: &Service, channel: u64, side: SideChoice) -> GameInfo {
    let off = tablut_bot::service::notify::NotifyMode::Off;
    s.notifications().set(ASTRID, off).await.unwrap();
    s.games()
        .start_ai_game(
            AiGameRequest {
                place: place(channel),
                user: User::new(ASTRID, "Astrid"),
                side,
                level: Level::Easy,
                rules: Rules::default(),
                time_control: TimeControl::PerMove(Duration::from_secs(3600)),
                start: None,
            },
            None,
        )
        .await
        .unwrap()
        .done
        .game
}

async fn two_player_game(s: &Service, channel: u64, time: TimeControl) -> GameInfo {
    let c = s
        .games()
        .challenge(
            ChallengeRequest {
                time_control: time,
                ..challenge_request(
                    place(channel),
                    User::new(ASTRID, "Astrid"),
                    User::new(BIRGER, "Birger"),
                )
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    s.games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done
        .game
}

both_backends! {
#[tokio::test]
async fn the_ais_move_is_written_with_it_and_due_at_once(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 10, SideChoice::Defenders).await;
    assert!(
        s.probe().notices_in(10).await.unwrap().is_empty(),
        "the start is answered"
    );
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    let due = due_in(s, 10, now(s).await).await;
    assert_eq!(due.len(), 1, "{due:?}");
    let n = &due[0];
    assert_eq!((n.id, n.kind.as_str()), (reply.notice, "move"));
    match &n.news {
        News::Moved(r) => assert_eq!(
            (r.notation.as_str(), r.game.id, r.game.ply),
            (reply.notation.as_str(), game.id, reply.game.ply)
        ),
        other => panic!("{other:?}"),
    }
    assert!(n.news.on_the_clock());
    assert_eq!(
        n.payload.board,
        Some(BoardRef {
            game: game.id,
            ply: 1,
            caption: tablut_bot::bot::messages::board_caption(&reply.game)
        })
    );
    assert!(n.nonce.len() <= 25 && !n.nonce.is_empty());
    assert!(reply.png.is_empty(), "the board is drawn at delivery");
    // Delivered once, it is not due again.
    let recorded = record(
            s,
            n,
            Delivery::Delivered {
                message_id: Some(7),
            },
            now(s).await,
        )
        .await
        .unwrap();
    assert_eq!(recorded, Consequence::Delivered);
    assert!(due_in(s, 10, later(s, Duration::from_secs(3600)).await)
        .await
        .is_empty());
    let rows = s.probe().notices_in(10).await.unwrap();
    assert_eq!(
        (rows[0].status, rows[0].message_id),
        (NoticeStatus::Delivered, Some(7))
    );
}
}

both_backends! {
#[tokio::test]
async fn a_players_move_waits_for_its_answer_and_holds_back_the_ais_reply(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 11, SideChoice::Attackers).await;
    let mine = s.games().play_move(11, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    // Both are written; the AI's reply waits behind the held move, in order.
    let rows = s.probe().notices_in(11).await.unwrap();
    assert_eq!(
        rows.iter().map(|r| r.id).collect::<Vec<_>>(),
        vec![mine.notice, reply.notice]
    );
    assert!(due_in(s, 11, now(s).await).await.is_empty(), "held for the answer");
    let t = now(s).await;
    assert_eq!(s.outbox().next_due_at().await.unwrap().map(|n| n > t), Some(true));
    // The answer showed the move: the reply is due at once, the move is never posted.
    answered(s, mine.notice).await;
    let due = due_in(s, 11, now(s).await).await;
    assert_eq!(
        due.iter().map(|n| n.id).collect::<Vec<_>>(),
        vec![reply.notice]
    );
}
}

both_backends! {
#[tokio::test]
async fn a_moves_notice_as_its_commit_returns_it_is_the_notice_stored(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 28, TimeControl::None).await;
    // Held for the command's answer: the handler shows the notice the commit returns, which
    // is the row as stored, its answer's end included.
    let answer = Answer::Command(answer_ref(1, "token-28"));
    let held = s.games().play_move(28, ASTRID, "a4-a3", answer).await.unwrap();
    let (report, notice) = (held.done, held.notice.expect("a notice"));
    let stored = s.probe().notice(notice.id).await.unwrap().unwrap();
    assert_eq!(notice, stored);
    assert_eq!((notice.id, notice.kind.as_str()), (report.notice, "move"));
    assert!(notice.payload.answer.handle().is_some_and(|a| a.expires_at.is_some()));
    let News::Moved(told) = &notice.news else {
        panic!("{:?}", notice.news);
    };
    assert_eq!((told.notation.as_str(), told.game.ply), ("a4-a3", report.game.ply));
    // No interaction to answer: the notice names none, as stored.
    let posted = s.games().play_move(28, BIRGER, "e3-d3", Answer::None).await.unwrap();
    let notice = posted.notice.expect("a notice");
    let stored = s.probe().notice(notice.id).await.unwrap().unwrap();
    assert_eq!(notice, stored);
    assert_eq!(notice.payload.answer, Answer::None);
}
}

both_backends! {
/// A move's commit reads the database's clock once, and stamps the move, its clock's deadline,
/// its notice and the answer's end with that one time; a game's end (a resignation) likewise.
#[tokio::test]
async fn a_moves_commit_reads_the_database_clock_once(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 29, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let life = ANSWER_LIFE.as_millis() as i64;
    let reads = || s.probe().database_clock_reads();
    let before = reads();
    let answer = Answer::Command(answer_ref(1, "token-29"));
    let played = s.games().play_move(29, ASTRID, "a4-a3", answer).await.unwrap();
    assert_eq!(reads() - before, 1, "one read for the move's transaction");
    let notice = played.notice.expect("a notice");
    let at = notice.created_at;
    assert_eq!(notice.payload.answer.handle().unwrap().expires_at, Some(at + life));
    assert_eq!(played.done.game.turn_deadline, Some(at + 3_600_000));
    let before = reads();
    let answer = Some(Answer::Command(answer_ref(1, "token-29-resign")));
    let ended = s.games().resign(29, BIRGER, answer).await.unwrap();
    assert_eq!(reads() - before, 1, "one read for the ending's transaction");
    let notice = ended.notice.expect("a notice");
    let at = notice.created_at;
    assert_eq!(notice.payload.answer.handle().unwrap().expires_at, Some(at + life));
    assert_eq!(ended.done.game.id, played.done.game.id);
}
}

both_backends! {
#[tokio::test]
async fn a_move_whose_answer_failed_is_posted_and_so_is_one_never_answered(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 12, TimeControl::None).await;
    // The answer failed: posted at once.
    let first = s.games().play_move(12, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    s.outbox().answer_failed(first.notice).await.unwrap();
    let due = due_in(s, 12, now(s).await).await;
    assert_eq!(due.len(), 1);
    assert!(
        matches!(&due[0].news, News::Moved(r) if r.notation == "a4-a3"),
        "{:?}",
        due[0].news
    );
    record(s, &due[0], Delivery::Delivered { message_id: None }, now(s).await)
        .await
        .unwrap();
    // No word from the answer (the bot died): posted once the grace is over.
    let second = s.games().play_move(12, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    assert!(due_in(s, 12, now(s).await).await.is_empty());
    let due = due_in(s, 12, later(s, GRACE + Duration::from_millis(100)).await).await;
    assert_eq!(
        due.iter().map(|n| n.id).collect::<Vec<_>>(),
        vec![second.notice]
    );
    // A late "answered" after the post changes nothing.
    record(s,
        &due[0],
        Delivery::Delivered {
            message_id: Some(9),
        },
        now(s).await,
    )
    .await
    .unwrap();
    answered(s, second.notice).await;
    let rows = s.probe().notices_in(12).await.unwrap();
    assert_eq!(rows[1].message_id, Some(9));
}
}

both_backends! {
#[tokio::test]
async fn failures_are_retried_with_capped_backoff_or_after_retry_after(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 13, SideChoice::Defenders).await;
    s.ai().turn(game.id).await.unwrap().unwrap();
    let t = now(s).await;
    let mut waits = Vec::new();
    let mut at = t;
    for _ in 0..6 {
        let n = claimed_in(s, 13, at).await.pop().expect("due again");
        let retry = Delivery::Retry {
            reason: "500: Internal Server Error".into(),
            after: None,
        };
        let Consequence::RetryAt(next) = record(s, &n, retry, at).await.unwrap() else {
            panic!("retried")
        };
        assert!(
            due_in(s, 13, next - 1).await.is_empty(),
            "not before its time"
        );
        waits.push(next - at);
        at = next;
    }
    assert_eq!(waits, vec![1000, 2000, 4000, 8000, 8000, 8000]);
    // A 429 waits what Discord says, however many attempts came before.
    let n = claimed_in(s, 13, at).await.pop().unwrap();
    assert_eq!(n.attempts, 6);
    let limited = Delivery::Retry {
        reason: "429".into(),
        after: Some(Duration::from_millis(300)),
    };
    assert_eq!(
        record(s, &n, limited, at).await.unwrap(),
        Consequence::RetryAt(at + 300)
    );
    let nonce = due_in(s, 13, at + 300).await[0].nonce.clone();
    let n = claimed_in(s, 13, at + 300).await.pop().unwrap();
    assert_eq!(n.nonce, nonce);
    record(s, &n, Delivery::Delivered { message_id: None }, at)
        .await
        .unwrap();
    // Eight attempts, each counted when it was claimed: six failed, one 429, one delivered.
    let row = &s.probe().notices_in(13).await.unwrap()[0];
    assert_eq!((row.status, row.attempts), (NoticeStatus::Delivered, 8));
}
}

both_backends! {
#[tokio::test]
async fn a_channel_that_is_gone_aborts_its_game_and_one_that_refuses_stops_its_clock(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    // 404: the game is aborted, unrated, and the notice recorded as failed with the reason.
    let game = ai_game(s, 14, SideChoice::Defenders).await;
    s.ai().turn(game.id).await.unwrap().unwrap();
    let n = due_in(s, 14, now(s).await).await.pop().unwrap();
    let gone = Delivery::ChannelGone {
        reason: "404: Unknown Channel (code 10003)".into(),
    };
    let Consequence::GameAborted(ended) = record(s, &n, gone, now(s).await).await.unwrap() else {
        panic!("aborted")
    };
    assert_eq!(
        ended.game.outcome,
        Outcome::Drawn {
            reason: Reason::Aborted
        }
    );
    assert!(ended.ratings.is_none());
    assert!(s.games().game_in_channel(14).await.unwrap().is_none());
    let rows = s.probe().notices_in(14).await.unwrap();
    assert_eq!(rows[0].status, NoticeStatus::Failed);
    assert_eq!(
        rows[0].failure.as_deref(),
        Some("404: Unknown Channel (code 10003)")
    );
    assert!(due_in(s, 14, later(s, Duration::from_secs(3600)).await)
        .await
        .is_empty());

    // 403: the notice fails, the game goes on without its clock, and a move restarts it.
    let game = two_player_game(s, 15, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let mine = s.games().play_move(15, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    assert!(mine.game.turn_deadline.is_some());
    s.outbox().answer_failed(mine.notice).await.unwrap();
    let n = due_in(s, 15, now(s).await).await.pop().unwrap();
    let refused = Delivery::ChannelRefusesUs {
        reason: "403: Missing Permissions (code 50013)".into(),
    };
    assert_eq!(
        record(s, &n, refused, now(s).await).await.unwrap(),
        Consequence::ClockStopped(game.id)
    );
    f.clock.advance(Duration::from_secs(7200));
    assert!(s.game_clock().tick().await.unwrap().is_empty(), "nobody loses on time");
    let info = s.games().game_in_channel(15).await.unwrap().unwrap();
    assert_eq!(info.turn_deadline, None);
    let next = s.games().play_move(15, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    assert!(next.game.turn_deadline.is_some(), "the next move starts it");
}
}

both_backends! {
/// Another refusal fails the notice; where a player could lose on time for it (a move in a
/// timed game) the game's clock stops, otherwise the game goes on as it was. The bot's token
/// refused is not the notice's fault: it stays pending, due at once.
#[tokio::test]
async fn another_refusal_stops_the_clock_only_for_news_on_the_clock_and_a_refused_token_keeps_the_notice(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let refused = || Delivery::Refused {
        reason: "400: Invalid Form Body (code 50035)".into(),
    };
    // A move in a timed game: failed, and the clock stopped.
    let game = two_player_game(s, 17, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let mine = s.games().play_move(17, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    s.outbox().answer_failed(mine.notice).await.unwrap();
    let n = due_in(s, 17, now(s).await).await.pop().unwrap();
    assert_eq!(n.kind, "move");
    assert_eq!(
        record(s, &n, refused(), now(s).await).await.unwrap(),
        Consequence::ClockStopped(game.id)
    );
    let row = s.probe().notices_in(17).await.unwrap().pop().unwrap();
    assert_eq!(row.status, NoticeStatus::Failed);
    assert_eq!(row.failure.as_deref(), Some("400: Invalid Form Body (code 50035)"));
    let info = s.games().game_in_channel(17).await.unwrap().unwrap();
    assert!(!info.is_over());
    assert_eq!(info.turn_deadline, None);
    // News no one loses on time for (a draw offer): failed, the clock runs on.
    let game = two_player_game(s, 18, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let (_, id) = s
        .games().offer_draw(18, ASTRID, Some(Answer::None))
        .await
        .unwrap()
        .done;
    let id = id.expect("the offer's notice");
    s.outbox().answer_failed(id).await.unwrap();
    let n = due_in(s, 18, now(s).await).await.pop().unwrap();
    assert_eq!(n.id, id);
    assert_eq!(
        record(s, &n, refused(), now(s).await).await.unwrap(),
        Consequence::Failed
    );
    let info = s.games().game_in_channel(18).await.unwrap().unwrap();
    assert_eq!(info.id, game.id);
    assert!(info.turn_deadline.is_some(), "the clock runs on");
    // The bot's token refused: the notice stays pending, due at once, with why.
    let game = ai_game(s, 19, SideChoice::Defenders).await;
    s.ai().turn(game.id).await.unwrap().unwrap();
    let t = now(s).await;
    let n = s.outbox().claim(t, 100).await.unwrap();
    let n = n.into_iter().find(|n| n.channel == 19).unwrap();
    let unauthorized = Delivery::Unauthorized {
        reason: "401: 401: Unauthorized (code 0)".into(),
    };
    assert_eq!(
        record(s, &n, unauthorized, t).await.unwrap(),
        Consequence::Kept
    );
    let again = due_in(s, 19, t).await;
    assert_eq!(again.iter().map(|a| a.id).collect::<Vec<_>>(), [n.id]);
    assert_eq!(again[0].failure.as_deref(), Some("401: 401: Unauthorized (code 0)"));
    let info = s.games().game_in_channel(19).await.unwrap().unwrap();
    assert!(info.turn_deadline.is_some(), "the clock runs on");
}
}

both_backends! {
/// A notice whose stored payload cannot be read is given up alone, with why: the other
/// channels' notices are delivered, and so is its own channel's next one.
#[tokio::test]
async fn a_notice_that_cannot_be_read_fails_alone(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let bad = ai_game(s, 20, SideChoice::Defenders).await;
    let bad_reply = s.ai().turn(bad.id).await.unwrap().unwrap();
    f.clock.advance(Duration::from_secs(60));
    let good = ai_game(s, 21, SideChoice::Defenders).await;
    let good_reply = s.ai().turn(good.id).await.unwrap().unwrap();
    let moves = s.games().suggest_moves(20, ASTRID, "", 1).await.unwrap();
    let mine = s.games().play_move(20, ASTRID, &moves[0], Answer::None).await.unwrap().done;
    s.outbox().answer_failed(mine.notice).await.unwrap();
    sqlx::query("UPDATE outbox SET payload = '{\"text\": 7' WHERE id = $1")
        .bind(bad_reply.notice)
        .execute(s.store().pool())
        .await
        .unwrap();
    let t = now(s).await;
    let claimed = s.outbox().claim(t, 100).await.unwrap();
    let ids: Vec<NoticeId> = claimed.iter().map(|n| n.id).collect();
    assert!(ids.contains(&good_reply.notice), "{ids:?}");
    assert!(!ids.contains(&bad_reply.notice), "{ids:?}");
    let rows = s.probe().notices_in(20).await.unwrap();
    assert_eq!(rows[0].id, bad_reply.notice);
    assert_eq!(rows[0].status, NoticeStatus::Failed);
    let failure = rows[0].failure.as_deref().unwrap();
    assert!(failure.starts_with("the stored payload cannot be read"), "{failure}");
    // The channel's next notice is its to deliver now.
    let next = s.outbox().claim(t, 100).await.unwrap();
    assert_eq!(next.iter().map(|n| n.id).collect::<Vec<_>>(), [mine.notice]);
}
}

both_backends! {
/// A notice written before notices were typed (its payload holds the words it was written
/// with, not what it tells) is still delivered after an upgrade (whose migration makes those
/// words its news): in those words, with its board; and whether a player could lose on time for
/// it, never shown, is read from its kind.
#[tokio::test]
async fn a_notice_written_in_the_old_format_is_delivered_in_its_words(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let refused = || Delivery::Refused {
        reason: "400: Invalid Form Body (code 50035)".into(),
    };
    // Stored as the older version stored it, then given today's payload by the upgrade's
    // migration.
    let old = |id: NoticeId, payload: serde_json::Value| async move {
        sqlx::query("UPDATE outbox SET payload = $1 WHERE id = $2")
            .bind(payload.to_string())
            .bind(id)
            .execute(s.store().pool())
            .await?;
        crate::support::migrate_again(s.store(), "0024_outbox_payloads.sql").await;
        Ok::<_, sqlx::Error>(())
    };
    // A move, as the older version stored it: its words and its board.
    let game = two_player_game(s, 22, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let mine = s.games().play_move(22, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    let text = "**Astrid** (attackers) played **a4-a3**.\nYour move, <@18000000000000000002> (defenders) · move 1";
    let board = serde_json::json!({"game": game.id, "ply": 1, "caption": "Move 1 · Birger (defenders) to play"});
    old(mine.notice, serde_json::json!({"text": text, "board": board}))
        .await
        .unwrap();
    s.outbox().answer_failed(mine.notice).await.unwrap();
    let n = claimed_in(s, 22, now(s).await).await.pop().unwrap();
    assert_eq!(n.id, mine.notice);
    assert_eq!(
        n.news,
        News::Worded {
            kind: "move".into(),
            text: text.into()
        }
    );
    assert_eq!(
        n.payload.board,
        Some(BoardRef {
            game: game.id,
            ply: 1,
            caption: "Move 1 · Birger (defenders) to play".into()
        })
    );
    assert!(n.news.on_the_clock());
    assert_eq!(
        record(s, &n, refused(), now(s).await).await.unwrap(),
        Consequence::ClockStopped(game.id)
    );
    assert_eq!(s.games().game_in_channel(22).await.unwrap().unwrap().turn_deadline, None);
    // A draw offer, with its buttons: nobody loses on time for it.
    two_player_game(s, 23, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let (_, id) = s
        .games().offer_draw(23, ASTRID, Some(Answer::None))
        .await
        .unwrap()
        .done;
    let id = id.unwrap();
    let offer = "<@18000000000000000001> offers a draw. <@18000000000000000002>, do you accept?";
    let game = s.games().game_in_channel(23).await.unwrap().unwrap();
    old(id, serde_json::json!({"text": offer, "buttons": {"draw": game.id}}))
        .await
        .unwrap();
    s.outbox().answer_failed(id).await.unwrap();
    let n = claimed_in(s, 23, now(s).await).await.pop().unwrap();
    assert_eq!(
        (&n.news, n.payload.buttons),
        (
            &News::Worded {
                kind: "draw_offer".into(),
                text: offer.into()
            },
            Some(Buttons::Draw(game.id))
        )
    );
    assert!(!n.news.on_the_clock());
    assert_eq!(
        record(s, &n, refused(), now(s).await).await.unwrap(),
        Consequence::Failed
    );
    assert!(s.games().game_in_channel(23).await.unwrap().unwrap().turn_deadline.is_some());
    // Delivered in its words: marked so, like any other.
    let mine = s.games().play_move(22, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    old(mine.notice, serde_json::json!({"text": "old words"}))
        .await
        .unwrap();
    s.outbox().answer_failed(mine.notice).await.unwrap();
    let n = claimed_in(s, 22, now(s).await).await.pop().unwrap();
    assert_eq!(n.payload.board, None);
    record(s, &n, Delivery::Delivered { message_id: Some(5) }, now(s).await)
        .await
        .unwrap();
    let row = s.probe().notices_in(22).await.unwrap().pop().unwrap();
    assert_eq!((row.status, row.message_id), (NoticeStatus::Delivered, Some(5)));
}
}

both_backends! {
#[tokio::test]
async fn a_thread_that_is_gone_is_said_in_its_channel(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let c = s
        .games().challenge(ChallengeRequest {
            thread: true,
            ..challenge_request(place(16), User::new(ASTRID, "Astrid"), User::new(BIRGER, "Birger"))
        }, None)
        .await
        .unwrap().done.0;
    s.games().accept(c.id, BIRGER, Some(160), None).await.unwrap();
    // The thread's first post is in the outbox with the board at the start.
    let first = due_in(s, 160, now(s).await).await.pop().expect("the first post");
    assert_eq!(first.kind, "game_started");
    assert_eq!(first.payload.board.as_ref().map(|b| b.ply), Some(0));
    let gone = Delivery::ChannelGone {
        reason: "404: Unknown Channel (code 10003)".into(),
    };
    assert!(matches!(
        record(s, &first, gone, now(s).await).await.unwrap(),
        Consequence::GameAborted(_)
    ));
    let told = due_in(s, 16, now(s).await).await;
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].kind, "channel_gone");
}
}

both_backends! {
#[tokio::test]
async fn the_clock_writes_its_reminders_losses_and_expiries_with_them(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = two_player_game(s, 17, TimeControl::PerMove(Duration::from_secs(3600))).await;
    f.clock.advance(Duration::from_secs(1800));
    assert_eq!(s.game_clock().tick().await.unwrap().len(), 1);
    f.clock.advance(Duration::from_secs(1800));
    assert_eq!(s.game_clock().tick().await.unwrap().len(), 1);
    let rows = s.probe().notices_in(17).await.unwrap();
    let kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    assert_eq!(kinds, vec!["reminder", "timeout"]);
    assert!(s.games().game(game.id).await.unwrap().is_over());
    // A challenge that expires edits its message (removing the buttons).
    let c = s
        .games().challenge(ChallengeRequest {
            side: SideChoice::Random,
            ..challenge_request(place(18), User::new(ASTRID, "Astrid"), User::new(BIRGER, "Birger"))
        }, None)
        .await
        .unwrap().done.0;
    s.probe().set_challenge_message(c.id, 4242).await.unwrap();
    f.clock.advance(Duration::from_secs(25 * 3600));
    s.game_clock().tick().await.unwrap();
    let n = due_in(s, 18, now(s).await).await.pop().unwrap();
    assert_eq!(
        (n.kind.as_str(), n.payload.edit),
        ("challenge_expired", Some(4242))
    );
    assert!(s.game_clock().tick().await.unwrap().is_empty(), "once");
    assert_eq!(s.probe().notices_in(18).await.unwrap().len(), 1);
}
}

both_backends! {
#[tokio::test]
async fn a_notices_board_is_the_position_at_its_ply(db: TestDb) {
    let f = fixture(db, true).await;
    let s = &f.service;
    two_player_game(s, 19, TimeControl::None).await;
    let first = s.games().play_move(19, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    s.games().play_move(19, BIRGER, "e3-d3", Answer::None).await.unwrap();
    let rows = s.probe().notices_in(19).await.unwrap();
    let payload: Payload = serde_json::from_str(&rows[0].payload).unwrap();
    let board = payload.board.unwrap();
    assert_eq!(board.ply, 1);
    let png = s.outbox().board(&board).await.unwrap();
    assert_eq!(
        png, first.png,
        "the board after the first move, not the latest"
    );
    let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
    assert_eq!(img.width(), tablut_bot::render::BOARD_SIZE_PX);
    // Stored, not drawn: the row holds no image (a board's PNG is tens of kilobytes; what a
    // move's notice tells, the move and its game, about one).
    let sizes: Vec<usize> = rows.iter().map(|r| r.payload.len()).collect();
    assert!(sizes.iter().all(|&n| n < 2000), "{sizes:?}");
    let row = store::outbox::by_id(s.store().pool(), rows[0].id).await.unwrap();
    assert_eq!(row.map(|r| r.payload).as_ref(), Some(&rows[0].payload));
}
}

both_backends! {
#[tokio::test]
async fn a_moves_notice_remembers_its_answer_until_delivered(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 20, TimeControl::None).await;
    let answer = answer_ref(7, "interaction-token-1");
    let mine = s
        .games().play_move(20, ASTRID, "a4-a3", Answer::Command(answer.clone()))
        .await
        .unwrap()
        .done;
    let n = due_in(s, 20, later(s, GRACE + Duration::from_millis(100)).await)
        .await
        .pop()
        .unwrap();
    let remembered = n.payload.answer.handle().and_then(answer_webhook);
    assert_eq!((n.id, remembered), (mine.notice, Some((7, "interaction-token-1"))));
    assert!(
        !format!("{:?}", n.payload).contains("interaction-token"),
        "never printed"
    );
    record(s,
        &n,
        Delivery::Delivered {
            message_id: Some(5),
        },
        now(s).await,
    )
    .await
    .unwrap();
    let row = &s.probe().notices_in(20).await.unwrap()[0];
    assert!(
        !row.payload.contains("interaction-token"),
        "{}",
        row.payload
    );
}
}

/// A command's answer, or (with the pressed `message`) a press's.
fn answering(token: &str, message: Option<u64>) -> Answer {
    let answer = answer_ref(7, token);
    match message {
        Some(message) => Answer::Pressed { answer, message },
        None => Answer::Command(answer),
    }
}

async fn challenge_in(s: &Service, channel: u64, thread: bool) -> ChallengeInfo {
    s.games()
        .challenge(
            ChallengeRequest {
                time_control: TimeControl::PerMove(Duration::from_secs(3600)),
                thread,
                ..challenge_request(
                    place(channel),
                    User::new(ASTRID, "Astrid"),
                    User::new(BIRGER, "Birger"),
                )
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0
}

/// The notice `id` as it is due after the answer's grace.
async fn held(s: &Service, channel: u64, id: NoticeId) -> Notice {
    let n = due_in(
        s,
        channel,
        later(s, GRACE + Duration::from_millis(100)).await,
    )
    .await
    .pop()
    .expect("due after the grace");
    assert_eq!(n.id, id);
    assert!(
        due_in(s, channel, now(s).await).await.is_empty(),
        "held for the answer"
    );
    n
}

both_backends! {
#[tokio::test]
async fn every_button_that_changes_something_holds_its_news_for_its_answer(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    // Accept: "Game on" with the board, held, in the challenge's channel.
    let c = challenge_in(s, 30, false).await;
    let started = s
        .games().accept(c.id, BIRGER, None, Some(answering("t-accept", Some(31))))
        .await
        .unwrap()
        .done;
    let n = held(s, 30, started.notice.expect("a notice")).await;
    assert_eq!(n.kind, "accepted");
    assert_eq!(n.payload.board.as_ref().map(|b| b.ply), Some(0));
    assert_eq!(answer_webhook(n.payload.answer.handle().unwrap()), Some((7, "t-accept")));
    assert_eq!(n.payload.edit, None, "a board is posted, not edited in");
    answered(s, n.id).await;
    // A draw declined, then one agreed.
    s.games().offer_draw(30, ASTRID, None).await.unwrap();
    let DrawDecision::Declined(_, notice) = s
        .games().respond_to_draw(30, BIRGER, false, Some(answering("t-no", Some(32))))
        .await
        .unwrap()
        .done
    else {
        panic!("declined")
    };
    let n = held(s, 30, notice.unwrap()).await;
    assert_eq!(
        (n.kind.as_str(), n.payload.edit),
        ("draw_declined", Some(32))
    );
    s.outbox().answer_failed(n.id).await.unwrap();
    assert_eq!(due_in(s, 30, now(s).await).await.len(), 1, "released at once");
    record(s, &n, Delivery::Delivered { message_id: None }, now(s).await)
        .await
        .unwrap();
    s.games().offer_draw(30, ASTRID, None).await.unwrap();
    let DrawDecision::Accepted(ended) = s
        .games().respond_to_draw(30, BIRGER, true, Some(answering("t-yes", Some(33))))
        .await
        .unwrap()
        .done
    else {
        panic!("agreed")
    };
    let n = held(s, 30, ended.notice.unwrap()).await;
    assert_eq!(n.kind, "ended");
    assert!(n.payload.board.is_some());
    answered(s, n.id).await;
    // Declined and withdrawn challenges: the pressed message is edited if the answer fails.
    let c = challenge_in(s, 34, false).await;
    let (_, notice) = s
        .games().decline(c.id, BIRGER, Some(answering("t-decline", Some(35))))
        .await
        .unwrap()
        .done;
    let n = held(s, 34, notice.unwrap()).await;
    assert_eq!(
        (n.kind.as_str(), n.payload.edit),
        ("challenge_closed", Some(35))
    );
    answered(s, n.id).await;
    let c = challenge_in(s, 34, false).await;
    let (closed, notice) = s
        .games().cancel(c.id, ASTRID, Some(answering("t-cancel", Some(36))))
        .await
        .unwrap()
        .done;
    assert_eq!(closed.status, ChallengeStatus::Cancelled);
    let n = held(s, 34, notice.unwrap()).await;
    assert_eq!(n.payload.edit, Some(36));
    // Accepted into a thread: the thread's first post goes at once, the news where the
    // challenge was made is held for the answer.
    let c = challenge_in(s, 37, true).await;
    let started = s
        .games().accept(
            c.id,
            BIRGER,
            Some(370),
            Some(answering("t-thread", Some(38))),
        )
        .await
        .unwrap()
        .done;
    assert_eq!(due_in(s, 370, now(s).await).await[0].kind, "game_started");
    let n = held(s, 37, started.notice.unwrap()).await;
    assert_eq!(n.payload.edit, Some(38));
    assert!(
        matches!(&n.news, News::ChallengeClosed { challenge, thread: Some(370) } if challenge.id == c.id),
        "{:?}",
        n.news
    );
    // Refused presses write nothing.
    let before = s.probe().notices_in(37).await.unwrap().len();
    assert!(s
        .games().accept(c.id, BIRGER, None, Some(answering("t-again", Some(38))))
        .await
        .is_err());
    assert_eq!(s.probe().notices_in(37).await.unwrap().len(), before);
}
}

both_backends! {
#[tokio::test]
async fn a_resignation_and_an_abort_remember_their_interaction(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 40, TimeControl::None).await;
    let ended = s
        .games().resign(40, BIRGER, Some(answering("t-resign", None)))
        .await
        .unwrap()
        .done;
    let n = held(s, 40, ended.notice.unwrap()).await;
    assert_eq!(answer_webhook(n.payload.answer.handle().unwrap()), Some((7, "t-resign")));
    two_player_game(s, 41, TimeControl::None).await;
    let ended = s
        .games().abort(41, ASTRID, false, Some(answering("t-abort", None)))
        .await
        .unwrap()
        .done;
    let n = held(s, 41, ended.notice.unwrap()).await;
    assert_eq!(answer_webhook(n.payload.answer.handle().unwrap()), Some((7, "t-abort")));
    record(s, &n, Delivery::Delivered { message_id: None }, now(s).await)
        .await
        .unwrap();
    let row = &s.probe().notices_in(41).await.unwrap()[0];
    assert!(!row.payload.contains("t-abort"), "the token is dropped");
}
}

both_backends! {
#[tokio::test]
async fn a_challenge_that_expires_while_its_thread_is_made_says_so_in_the_thread(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let c = challenge_in(s, 42, true).await;
    // The press is checked, the thread is made... and meanwhile the challenge expires.
    s.games().check_accept(c.id, BIRGER).await.unwrap();
    f.clock.advance(Duration::from_secs(2 * 86_400));
    assert_eq!(s.game_clock().expire_challenges().await.unwrap().len(), 1);
    let lost = s
        .games().accept(c.id, BIRGER, Some(420), Some(answering("t", Some(43))))
        .await;
    assert!(
        matches!(lost, Err(ServiceError::ChallengeExpired)),
        "{lost:?}"
    );
    assert!(s.games().game_in_channel(420).await.unwrap().is_none());
    // The thread is told why it has no game, at once; the challenge's message says it expired.
    let told = due_in(s, 420, now(s).await).await;
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].kind, "not_started");
    assert!(
        matches!(&told[0].news, News::NotStarted {
            why: NotStartedWhy::Refused(StartRefused::ChallengeExpired)
        }),
        "{:?}",
        told[0].news
    );
    assert_eq!(due_in(s, 42, now(s).await).await[0].kind, "challenge_expired");
    // The same when the expiry is found by the accept itself.
    let c = challenge_in(s, 44, true).await;
    s.games().check_accept(c.id, BIRGER).await.unwrap();
    f.clock.advance(Duration::from_secs(2 * 86_400));
    assert!(s.games().accept(c.id, BIRGER, Some(440), None).await.is_err());
    assert_eq!(due_in(s, 440, now(s).await).await[0].kind, "not_started");
}
}

both_backends! {
#[tokio::test]
async fn a_notice_retried_past_the_give_up_time_fails_with_its_reason_and_stops_the_clock(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = two_player_game(s, 45, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let mine = s.games().play_move(45, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    s.outbox().answer_failed(mine.notice).await.unwrap();
    let n = claimed_in(s, 45, now(s).await).await.pop().unwrap();
    let retry = || Delivery::Retry {
        reason: "503: Service Unavailable".into(),
        after: None,
    };
    // Within the time: retried.
    let at = n.created_at + GIVE_UP.as_millis() as i64 - 5_000;
    assert!(matches!(
        record(s, &n, retry(), at).await.unwrap(),
        Consequence::RetryAt(_)
    ));
    // Past it: given up, with why, and nobody loses on time for it.
    let n = claimed_in(s, 45, later(s, GIVE_UP).await).await.pop().unwrap();
    let at = n.created_at + GIVE_UP.as_millis() as i64;
    assert_eq!(
        record(s, &n, retry(), at).await.unwrap(),
        Consequence::GaveUp(Some(game.id))
    );
    let row = &s.probe().notices_in(45).await.unwrap()[0];
    assert_eq!(row.status, NoticeStatus::Failed);
    let failure = row.failure.as_deref().unwrap();
    assert!(
        failure.starts_with("given up after 2 attempts")
            && failure.ends_with("503: Service Unavailable"),
        "{failure}"
    );
    assert!(due_in(s, 45, later(s, GIVE_UP * 10).await).await.is_empty());
    let info = s.games().game_in_channel(45).await.unwrap().unwrap();
    assert_eq!(info.turn_deadline, None);
    // The game goes on.
    s.games().play_move(45, BIRGER, "e3-d3", Answer::None).await.unwrap();
}
}

both_backends! {
#[tokio::test]
async fn delivered_and_given_up_notices_are_pruned_after_the_retention_pending_ones_never(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 46, SideChoice::Defenders).await;
    s.ai().turn(game.id).await.unwrap().unwrap();
    let t = now(s).await;
    let n = due_in(s, 46, t).await.pop().unwrap();
    record(s,
        &n,
        Delivery::Delivered {
            message_id: Some(1),
        },
        t,
    )
    .await
    .unwrap();
    // A failed one (refused in another channel), and a pending one.
    f.clock.advance(Duration::from_secs(60));
    let other = ai_game(s, 47, SideChoice::Defenders).await;
    s.ai().turn(other.id).await.unwrap().unwrap();
    let n = due_in(s, 47, now(s).await).await.pop().unwrap();
    let refused = Delivery::Refused {
        reason: "400: Invalid Form Body (code 50035)".into(),
    };
    record(s, &n, refused, t).await.unwrap();
    two_player_game(s, 48, TimeControl::None).await;
    s.games().play_move(48, ASTRID, "a4-a3", Answer::None).await.unwrap();
    let retention = RETENTION.as_millis() as i64;
    assert_eq!(s.outbox().prune(t + retention - 60_000).await.unwrap(), 0);
    assert_eq!(s.probe().notices_in(46).await.unwrap().len(), 1);
    // The refused one was written a minute after `t` (the cooldown between games against the
    // AI, on the database's clock): both are past the retention a minute after that.
    assert_eq!(s.outbox().prune(t + retention + 120_000).await.unwrap(), 2);
    assert!(s.probe().notices_in(46).await.unwrap().is_empty());
    assert!(s.probe().notices_in(47).await.unwrap().is_empty());
    // The pending one stays, however old.
    assert_eq!(s.outbox().prune(t + 100 * retention).await.unwrap(), 0);
    assert_eq!(s.probe().notices_in(48).await.unwrap().len(), 1);
}
}

both_backends! {
/// A claimed notice is no other dispatcher's until its attempt is recorded or its lease is
/// over (its dispatcher died): then it is due again, once.
#[tokio::test]
async fn a_claimed_notice_is_due_again_only_when_its_lease_is_over(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 60, SideChoice::Defenders).await;
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    let t = now(s).await;
    let claimed = s.outbox().claim(t, 10).await.unwrap();
    assert_eq!(claimed.iter().map(|n| n.id).collect::<Vec<_>>(), [reply.notice]);
    assert!(s.outbox().claim(t, 10).await.unwrap().is_empty());
    let lease = CLAIM_LEASE.as_millis() as i64;
    assert!(s.outbox().claim(t + lease - 1, 10).await.unwrap().is_empty());
    assert!(due_in(s, 60, t + lease - 1).await.is_empty(), "not due while claimed");
    // Its dispatcher never recorded the attempt: at the lease's end it is claimed again.
    let again = s.outbox().claim(t + lease, 10).await.unwrap();
    assert_eq!(again.iter().map(|n| n.id).collect::<Vec<_>>(), [reply.notice]);
    // The first attempt, late, neither renews nor settles the claim another attempt holds now.
    assert!(!s.outbox().renew(&claimed[0]).await.unwrap());
    for late in [
        Delivery::Retry { reason: "late".into(), after: None },
        Delivery::ChannelGone { reason: "late".into() },
        Delivery::Delivered { message_id: Some(4) },
    ] {
        assert_eq!(record(s, &claimed[0], late, t + lease).await.unwrap(), Consequence::NotOurs);
    }
    assert!(s.games().game_in_channel(60).await.unwrap().is_some(), "not aborted");
    assert!(s.outbox().claim(t + lease + 1, 10).await.unwrap().is_empty(), "still claimed");
    // The live claim renews (a lease from now) and settles.
    assert!(s.outbox().renew(&again[0]).await.unwrap());
    let delivered = Delivery::Delivered { message_id: Some(5) };
    assert_eq!(record(s, &again[0], delivered, t + lease).await.unwrap(), Consequence::Delivered);
    assert!(s.outbox().claim(t + 10 * lease, 10).await.unwrap().is_empty());
    let stored = s.probe().notices_in(60).await.unwrap();
    let stored = stored.iter().find(|n| n.id == reply.notice).unwrap();
    assert_eq!(stored.message_id, Some(5));
}
}

both_backends! {
/// A claim given back (its dispatcher stops before the attempt begins) leaves the notice due
/// at once, its attempts counted as before; a claim no longer held gives nothing back.
#[tokio::test]
async fn a_claim_given_back_is_due_again_at_once(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 61, SideChoice::Defenders).await;
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    let t = now(s).await;
    let claimed = s.outbox().claim(t, 10).await.unwrap();
    assert_eq!(claimed.iter().map(|n| n.id).collect::<Vec<_>>(), [reply.notice]);
    assert!(s.outbox().claim(now(s).await, 10).await.unwrap().is_empty(), "claimed");
    assert!(s.outbox().unclaim(&claimed[0]).await.unwrap());
    assert!(!s.outbox().unclaim(&claimed[0]).await.unwrap(), "given back once");
    // Due again well within the lease, as an attempt not made.
    let again = s.outbox().claim(now(s).await, 10).await.unwrap();
    assert_eq!(again.iter().map(|n| n.id).collect::<Vec<_>>(), [reply.notice]);
    assert_eq!((again[0].attempts, again[0].claim), (claimed[0].attempts, claimed[0].claim));
    // Delivered, it has no claim to give back.
    let delivered = Delivery::Delivered { message_id: Some(6) };
    assert_eq!(record(s, &again[0], delivered, now(s).await).await.unwrap(), Consequence::Delivered);
    assert!(!s.outbox().unclaim(&again[0]).await.unwrap());
    assert!(s.outbox().claim(now(s).await, 10).await.unwrap().is_empty());
}
}

both_backends! {
/// A commit whose outcome is unknown (the connection lost during COMMIT, as sqlx reports it)
/// is looked up before the player is told anything: a move or a resignation that landed is
/// answered as usual, its notice written; one that did not is the error ("something went
/// wrong"), and nothing of it stays.
#[tokio::test]
async fn a_commit_whose_outcome_is_unknown_is_looked_up_before_anything_is_told(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    two_player_game(s, 75, TimeControl::None).await;
    let legal = |user| async move {
        s.games().suggest_moves(75, user, "", 1).await.unwrap_or_default()
    };
    let (first, second) = match legal(ASTRID).await.is_empty() {
        true => (BIRGER, ASTRID),
        false => (ASTRID, BIRGER),
    };
    let played = legal(first).await[0].clone();
    s.store().fail_next_commit(store::CommitFault::Landed);
    let report = s.games().play_move(75, first, &played, Answer::None).await.unwrap().done;
    assert_eq!(report.game.ply, 1);
    let notices = s.probe().notices_in(75).await.unwrap();
    assert!(notices.iter().any(|n| n.id == report.notice && n.kind == "move"));
    // Lost: the error, and the game as it was.
    let reply = legal(second).await[0].clone();
    s.store().fail_next_commit(store::CommitFault::Lost);
    let lost = s.games().play_move(75, second, &reply, Answer::None).await.unwrap_err();
    assert!(matches!(lost, ServiceError::Database(_)), "{lost:?}");
    assert_eq!(s.games().history(75).await.unwrap().moves, std::slice::from_ref(&played));
    assert_eq!(s.probe().notices_in(75).await.unwrap().len(), notices.len());
    // Sent again, it lands.
    s.games().play_move(75, second, &reply, Answer::None).await.unwrap();
    assert_eq!(s.games().history(75).await.unwrap().moves, [played, reply]);
    // A resignation whose commit landed is answered as usual.
    s.store().fail_next_commit(store::CommitFault::Landed);
    let ended = s.games().resign(75, first, None).await.unwrap().done;
    assert!(ended.game.is_over());
    assert!(s.games().game_in_channel(75).await.unwrap().is_none());
}
}

both_backends! {
#[tokio::test]
async fn a_challenge_a_draw_offer_and_a_game_against_the_ai_hold_their_message_for_the_answer(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    // The challenge, with its buttons, held; posted, its message is the one to edit later.
    let (c, notice) = s
        .games().challenge(
            challenge_request(place(50), User::new(ASTRID, "Astrid"), User::new(BIRGER, "Birger")),
            Some(answering("t-challenge", None)),
        )
        .await
        .unwrap()
        .done;
    let n = held(s, 50, notice.unwrap()).await;
    assert_eq!(n.kind, "challenge");
    assert_eq!(n.payload.buttons, Some(Buttons::Challenge(c.id)));
    s.outbox().answer_failed(n.id).await.unwrap();
    let delivered = Delivery::Delivered {
        message_id: Some(501),
    };
    record(s, &n, delivered, now(s).await).await.unwrap();
    assert_eq!(s.games().challenge_info(c.id).await.unwrap().message_id, Some(501));
    // A draw offer, with its buttons.
    s.games().accept(c.id, BIRGER, None, None).await.unwrap();
    let (game, notice) = s
        .games().offer_draw(50, ASTRID, Some(answering("t-offer", None)))
        .await
        .unwrap()
        .done;
    let n = held(s, 50, notice.unwrap()).await;
    assert_eq!(
        (n.kind.as_str(), n.payload.buttons),
        ("draw_offer", Some(Buttons::Draw(game.id)))
    );
    answered(s, n.id).await;
    // A game against the AI: its start, with the board, held; the AI's first move waits
    // behind it in the channel.
    let started = s
        .games().start_ai_game(
            AiGameRequest {
                place: place(51),
                user: User::new(ASTRID, "Astrid"),
                side: SideChoice::Defenders,
                level: Level::Easy,
                rules: Rules::default(),
                time_control: TimeControl::None,
                start: None,
            },
            Some(answering("t-ai", None)),
        )
        .await
        .unwrap()
        .done;
    s.ai().turn(started.game.id).await.unwrap().unwrap();
    let n = held(s, 51, started.notice.unwrap()).await;
    assert_eq!(n.kind, "started");
    assert_eq!(n.payload.board.as_ref().map(|b| b.ply), Some(0));
    answered(s, n.id).await;
    assert_eq!(
        due_in(s, 51, now(s).await).await[0].kind,
        "move",
        "then the AI's move"
    );
}
}

/// What the handler of notice `id`'s interaction records once its edit showed the news.
async fn answered(s: &Service, id: NoticeId) {
    let notice = s.probe().notice(id).await.unwrap().expect("the notice");
    s.outbox().news_delivered(&notice, None).await.unwrap();
}

/// A challenge in `channel` whose news is held for its answer; returns the notice as stored.
async fn held_challenge(s: &Service, channel: u64) -> StoredNotice {
    let (_, notice) = s
        .games()
        .challenge(
            challenge_request(
                place(channel),
                User::new(ASTRID, "Astrid"),
                User::new(BIRGER, "Birger"),
            ),
            Some(answering(&format!("token-{channel}"), None)),
        )
        .await
        .unwrap()
        .done;
    let row = s.probe().notices_in(channel).await.unwrap().pop().unwrap();
    assert_eq!(Some(row.id), notice);
    row
}

both_backends! {
#[tokio::test]
async fn a_changes_notice_records_its_tokens_life_and_whoever_shows_it_first_settles_it(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let grace = GRACE.as_millis() as i64;
    let life = ANSWER_LIFE.as_millis() as i64;
    // Held for its handler's edit, the token's end recorded on the database's clock.
    let row = held_challenge(s, 80).await;
    assert_eq!((row.status, row.next_attempt_at), (NoticeStatus::Held, row.created_at + grace));
    let n = s.probe().notice(row.id).await.unwrap().unwrap();
    let answer = n.payload.answer.handle().cloned().unwrap();
    assert_eq!(answer.expires_at, Some(row.created_at + life));
    assert!(answer.alive_at(row.created_at + life - 1));
    assert!(!answer.alive_at(row.created_at + life));
    // A handle whose end is not recorded yet serves nothing.
    assert!(!answer_ref(7, "t").alive_at(row.created_at));
    // The handler's edit failed: the dispatcher takes the notice at once, not after the hold.
    s.outbox().answer_failed(row.id).await.unwrap();
    let released = s.probe().notices_in(80).await.unwrap().pop().unwrap();
    assert_eq!(released.status, NoticeStatus::Pending);
    assert!(released.next_attempt_at <= row.next_attempt_at);
    assert!(due_in(s, 80, released.next_attempt_at).await.iter().any(|n| n.id == row.id));
    // The handler and a dispatcher both editing (the hold lapsed while the handler's edit was
    // on its way): whichever records it shown settles it, and the other's outcome changes
    // nothing, failure or not.
    let row = held_challenge(s, 81).await;
    let claimed = s.outbox().claim(row.next_attempt_at, 100).await.unwrap();
    let notice = claimed.into_iter().find(|n| n.channel == 81).expect("claimed");
    answered(s, row.id).await;
    let retry = Delivery::Retry { reason: "500".into(), after: None };
    record(s, &notice, retry, row.next_attempt_at).await.unwrap();
    s.outbox().answer_failed(row.id).await.unwrap();
    let settled = s.probe().notices_in(81).await.unwrap().pop().unwrap();
    assert_eq!(settled.status, NoticeStatus::Delivered);
    assert!(!settled.payload.contains("token-81"), "the token dropped once delivered");
}
}

both_backends! {
/// A notice written when the service stored the interaction's application and token (not the
/// bot's handle on its response) is given the handle the bot makes of them by migration 0024,
/// with the end it recorded (or, older still, its life counted from the row), the token gone
/// from anything but the handle; a row already holding a handle, or one whose payload is not
/// JSON, is left as it is. Once delivered, the token is gone from the row.
#[tokio::test]
async fn a_notice_stored_with_the_interactions_token_is_given_the_bots_handle(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let life = ANSWER_LIFE.as_millis() as i64;
    let row = held_challenge(s, 82).await;
    let mut payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap();
    // Written now: the bot's handle alone, and its end.
    assert_eq!(payload["answer"]["reply"], "7/token-82", "{payload}");
    assert!(payload["answer"].get("token").is_none(), "{payload}");
    assert!(payload["answer"].get("application").is_none(), "{payload}");
    let expires_at = payload["answer"]["expires_at"].as_i64().expect("its end");
    let store_as = |payload: String| {
        sqlx::query("UPDATE outbox SET payload = $1 WHERE id = $2")
            .bind(payload)
            .bind(row.id)
            .execute(s.store().pool())
    };
    let stored = || async {
        let payload = s.probe().notices_in(82).await.unwrap().pop().unwrap().payload;
        serde_json::from_str::<serde_json::Value>(&payload).unwrap()
    };
    let migrate = || crate::support::migrate_again(s.store(), "0024_outbox_payloads.sql");
    // Written now, it stays as it is.
    migrate().await;
    assert_eq!(stored().await, payload);
    // As the older version stored it.
    payload["answer"] =
        serde_json::json!({"application": 7, "token": "token-82", "expires_at": expires_at});
    store_as(payload.to_string()).await.unwrap();
    migrate().await;
    let migrated = stored().await;
    assert_eq!(
        migrated["answer"],
        serde_json::json!({"reply": "7/token-82", "expires_at": expires_at})
    );
    assert_eq!(migrated["news"], payload["news"], "the rest as it was");
    let n = s.probe().notice(row.id).await.unwrap().unwrap();
    let answer = n.payload.answer.handle().cloned().unwrap();
    assert_eq!(answer_webhook(&answer), Some((7, "token-82")));
    assert_eq!(
        answer,
        AnswerRef {
            expires_at: Some(expires_at),
            ..answer_ref(7, "token-82")
        }
    );
    assert!(!format!("{:?}", n.payload).contains("token-82"), "never printed");
    // Without a token the bot could use: no handle (posted instead).
    payload["answer"] = serde_json::json!({"token": "token-82"});
    store_as(payload.to_string()).await.unwrap();
    migrate().await;
    let answer = s.probe().notice(row.id).await.unwrap().unwrap().payload.answer;
    let answer = answer.handle().cloned().unwrap();
    assert_eq!((answer_webhook(&answer), answer.reply.as_str()), (None, ""));
    // Not JSON: left as it is, for the claim to give up.
    store_as("{not json \"token\"".to_string()).await.unwrap();
    migrate().await;
    let unread = s.probe().notices_in(82).await.unwrap().pop().unwrap();
    assert_eq!(unread.payload, "{not json \"token\"");
    // Older still, its end not recorded: given the life counted from the row.
    payload["answer"] = serde_json::json!({"application": 7, "token": "token-82"});
    store_as(payload.to_string()).await.unwrap();
    migrate().await;
    let n = s.probe().notice(row.id).await.unwrap().unwrap();
    let answer = n.payload.answer.handle().cloned().unwrap();
    assert_eq!(
        (answer_webhook(&answer), answer.expires_at),
        (Some((7, "token-82")), Some(row.created_at + life))
    );
    // Delivered like any other, the token dropped with its handle.
    s.outbox().answer_failed(row.id).await.unwrap();
    let n = claimed_in(s, 82, now(s).await).await.pop().expect("released");
    assert_eq!(n.id, row.id);
    assert_eq!(answer_webhook(n.payload.answer.handle().unwrap()), Some((7, "token-82")));
    let delivered = Delivery::Delivered { message_id: Some(8) };
    record(s, &n, delivered, now(s).await).await.unwrap();
    let settled = s.probe().notices_in(82).await.unwrap().pop().unwrap();
    assert_eq!(settled.status, NoticeStatus::Delivered);
    assert!(!settled.payload.contains("token-82"), "{}", settled.payload);
}
}

both_backends! {
#[tokio::test]
async fn a_deleted_channel_ends_its_threads_games_and_a_server_left_pauses_its_own(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    // A game in a thread made for a challenge in channel 40 (its first post pending), a timed
    // game in channel 41, and an open challenge in channel 42.
    let c = challenge_in(s, 40, true).await;
    s.games().accept(c.id, BIRGER, Some(400), None).await.unwrap();
    let in_thread = s.games().game_in_channel(400).await.unwrap().unwrap();
    assert!(s.probe().notices_in(400).await.unwrap().iter().any(|n| n.status.is_open()));
    let timed = two_player_game(s, 41, TimeControl::PerMove(Duration::from_secs(3600))).await;
    let open = challenge_in(s, 42, false).await;

    // Channel 40 deleted (Discord says nothing of its thread): the thread's game is aborted,
    // its notices given up, and nobody is told in channel 40, gone too.
    let gone = s.games().channel_deleted(40, &[]).await.unwrap();
    assert_eq!(gone.aborted, vec![in_thread.id]);
    let ended = s.games().game(in_thread.id).await.unwrap();
    assert_eq!(ended.outcome.reason(), Some(Reason::Aborted));
    assert!(s.probe().notices_in(400).await.unwrap().iter().all(|n| !n.status.is_open()));
    assert!(s.probe().notices_in(40).await.unwrap().iter().all(|n| n.kind != "channel_gone"));
    // Again (a RESUME replays it): nothing more.
    assert_eq!(s.games().channel_deleted(40, &[]).await.unwrap(), Gone::default());

    // The server left: its game paused, its challenge withdrawn, its notices given up.
    let left = s.games().left_guild(GUILD).await.unwrap();
    assert_eq!(left.paused, vec![timed.id]);
    assert_eq!(left.withdrawn, 1);
    assert_eq!(
        s.games().challenge_info(open.id).await.unwrap().status,
        ChallengeStatus::Cancelled
    );
    let paused = s.games().game_in_channel(41).await.unwrap().unwrap();
    assert_eq!(paused.turn_deadline, None);
    assert!(!paused.is_over());
    for channel in [41, 42] {
        let notices = s.probe().notices_in(channel).await.unwrap();
        assert!(notices.iter().all(|n| !n.status.is_open()), "{notices:#?}");
    }
}
}

both_backends! {
/// The time of the player to move starts when the news that gave them the turn is shown, on
/// the database's clock: while the AI's move is being delivered, no reminder and no loss on
/// time; once it is, the whole time per move, the reminders following. Shown twice (the
/// handler's edit and the dispatcher's), it starts once. A game's start shown late starts the
/// first player's time then.
#[tokio::test]
async fn a_turns_time_starts_when_the_news_that_gave_it_is_shown(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let hour = Duration::from_secs(3600);
    let deadline = |id| async move { s.games().game(id).await.unwrap().turn_deadline };
    let game = ai_game(s, 24, SideChoice::Defenders).await;
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    // Two hours of failed posts: nothing is due from a player who has not seen the move.
    f.clock.advance(2 * hour);
    assert!(s.game_clock().tick().await.unwrap().is_empty(), "no reminder, no loss on time");
    assert!(!s.games().game(game.id).await.unwrap().is_over());
    let n = claimed_in(s, 24, now(s).await).await.pop().unwrap();
    assert_eq!(n.id, reply.notice);
    let shown_at = now(s).await;
    record(s, &n, Delivery::Delivered { message_id: Some(5) }, shown_at)
        .await
        .unwrap();
    assert_eq!(deadline(game.id).await, Some(shown_at + 3_600_000));
    // Shown again (a late record of the same news): the time does not start again.
    f.clock.advance(hour / 4);
    s.outbox().news_delivered(&n, None).await.unwrap();
    assert_eq!(deadline(game.id).await, Some(shown_at + 3_600_000));
    f.clock.advance(hour / 4);
    let events = s.game_clock().tick().await.unwrap();
    assert!(
        matches!(&events[..], [ClockEvent::Reminder { number: 1, remaining, .. }] if *remaining == hour / 2),
        "{events:?}"
    );
    f.clock.advance(hour / 2 - Duration::from_millis(1));
    let events = s.game_clock().tick().await.unwrap();
    assert!(matches!(&events[..], [ClockEvent::Reminder { number: 2, .. }]), "{events:?}");
    f.clock.advance(Duration::from_millis(1));
    let events = s.game_clock().tick().await.unwrap();
    assert!(matches!(&events[..], [ClockEvent::TimedOut(_)]), "{events:?}");

    // A game's start, the player to move first, shown by its command's edit a while later.
    let answering = Answer::Command(answer_ref(1, "token"));
    let started = s
        .games()
        .start_ai_game(
            AiGameRequest {
                place: place(25),
                user: User::new(ASTRID, "Astrid"),
                side: SideChoice::Attackers,
                level: Level::Easy,
                rules: Rules::default(),
                time_control: TimeControl::PerMove(hour),
                start: None,
            },
            Some(answering),
        )
        .await
        .unwrap()
        .done;
    f.clock.advance(2 * hour);
    assert!(s.game_clock().tick().await.unwrap().is_empty(), "not shown yet");
    answered(s, started.notice.expect("the start's notice")).await;
    assert_eq!(deadline(started.game.id).await, Some(now(s).await + 3_600_000));
}
}

both_backends! {
/// A channel's news goes out in the game's order: a player's move committed while the AI's
/// move before it is still owed (its post being retried) is not held for the player's
/// response, which would stand above the AI's move, but posted after it. The channel says it
/// owes news until the AI's move is shown; news held for its own interaction's edit is no
/// debt (it shows in a response already in place).
#[tokio::test]
async fn a_move_made_while_the_channel_owes_news_is_posted_after_it(db: TestDb) {
    let f = fixture(db, false).await;
    let s = &f.service;
    let game = ai_game(s, 26, SideChoice::Defenders).await;
    assert!(!s.outbox().owes(26).await.unwrap());
    let reply = s.ai().turn(game.id).await.unwrap().unwrap();
    assert!(s.outbox().owes(26).await.unwrap(), "the AI's move is owed");
    let n = claimed_in(s, 26, now(s).await).await.pop().unwrap();
    let retry = Delivery::Retry {
        reason: "500: Internal Server Error".into(),
        after: None,
    };
    let Consequence::RetryAt(next) = record(s, &n, retry, now(s).await).await.unwrap() else {
        panic!("retried")
    };
    assert!(s.outbox().owes(26).await.unwrap(), "still owed while retried");
    // The player, who read the position with /tablut board, moves: with a response to show it.
    let moves = s.games().suggest_moves(26, ASTRID, "", 1).await.unwrap();
    let answer = answer_ref(1, "token");
    let mine = s
        .games()
        .play_move(26, ASTRID, &moves[0], Answer::Command(answer))
        .await
        .unwrap()
        .done;
    let rows = s.probe().notices_in(26).await.unwrap();
    let row = rows.iter().find(|r| r.id == mine.notice).unwrap();
    assert_eq!(row.status, NoticeStatus::Pending, "not held for the response");
    let notice = s.probe().notice(mine.notice).await.unwrap().unwrap();
    assert_eq!(notice.payload.answer, Answer::None, "posted, not edited in");
    // The AI's move goes first; the player's once it is shown.
    let due = due_in(s, 26, next).await;
    assert_eq!(due.iter().map(|n| n.id).collect::<Vec<_>>(), [reply.notice]);
    let n = claimed_in(s, 26, next).await.pop().unwrap();
    record(s, &n, Delivery::Delivered { message_id: Some(1) }, next)
        .await
        .unwrap();
    let due = due_in(s, 26, next).await;
    assert_eq!(due.iter().map(|n| n.id).collect::<Vec<_>>(), [mine.notice]);
    // A resignation and a draw offer made by command while their channel owes news (a move
    // whose answer failed, posted by the dispatcher): posted after it, not held.
    for channel in [28, 29] {
        two_player_game(s, channel, TimeControl::None).await;
        let moved = s.games().play_move(channel, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
        s.outbox().answer_failed(moved.notice).await.unwrap();
        assert!(s.outbox().owes(channel).await.unwrap());
    }
    let command = || {
        Some(Answer::Command(answer_ref(1, "token")))
    };
    let ended = s.games().resign(28, BIRGER, command()).await.unwrap().done;
    let (_, offer) = s.games().offer_draw(29, BIRGER, command()).await.unwrap().done;
    for id in [ended.notice.unwrap(), offer.unwrap()] {
        let notice = s.probe().notice(id).await.unwrap().unwrap();
        assert_eq!(notice.payload.answer, Answer::None, "{notice:?}");
        let rows = s.probe().notices_in(notice.channel).await.unwrap();
        let row = rows.iter().find(|r| r.id == id).unwrap();
        assert_eq!(row.status, NoticeStatus::Pending);
    }
    // A move held for its own response is no debt of the channel.
    let held = two_player_game(s, 27, TimeControl::None).await;
    let first = s
        .games()
        .play_move(27, ASTRID, "a4-a3", Answer::Command(answer_ref(1, "token")))
        .await
        .unwrap()
        .done;
    assert_eq!(first.game.id, held.id);
    assert!(!s.outbox().owes(27).await.unwrap());
}
}
