//! Turn notifications on both backends: the setting (the default, a choice, a change during a
//! game taking effect at the next move); a turn's direct message written in the transaction
//! that gives the turn (a move, the AI's move, a game's start), at most one a move, never to
//! the AI, to the player who made the change, to a member on vacation or for a finished game;
//! the daily digest, claimed in the database so that two processes send it once a day; and
//! Discord's refusal of a member's direct messages: their notifications turned off, their
//! waiting messages given up, one game's channel told, once.

use crate::support::fixture::{
    ai_game_request, challenge_request, config, user, Fixture, GUILD, PLAYERS, T0,
};
use crate::support::news_shown;
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::both_backends;
use tablut_bot::service::notify::{Digest, NotifyMode, NotifySetting, TurnDm};
use tablut_bot::service::vacation::DAY_MS;
use tablut_bot::service::*;

const ASTRID: u64 = PLAYERS;
const BIRGER: u64 = PLAYERS + 1;
const HOUR: i64 = 3_600_000;

fn place(channel: u64) -> Place {
    Place {
        guild: Some(GUILD),
        channel,
    }
}

/// Astrid (attacking) against Birger in `channel` under `time`, accepted by Birger: in a thread
/// `channel` itself, so that the start is a notice of its own (and Astrid's turn is told).
async fn game(f: &Fixture, channel: u64, time: &str) -> GameInfo {
    let c = f
        .service
        .games()
        .challenge(
            ChallengeRequest {
                time_control: time.parse().unwrap(),
                ..challenge_request(place(channel), user(ASTRID), user(BIRGER))
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    f.service
        .games()
        .accept(c.id, BIRGER, Some(channel), None)
        .await
        .unwrap()
        .done
        .game
}

/// The turn messages written for `to`, in order.
async fn dms(f: &Fixture, to: u64) -> Vec<TurnDm> {
    news_of(f, to)
        .await
        .into_iter()
        .filter_map(|(_, news)| match news {
            News::TurnDm(dm) => Some(dm),
            _ => None,
        })
        .collect()
}

/// The digests written for `to`, in order.
async fn digests(f: &Fixture, to: u64) -> Vec<Digest> {
    news_of(f, to)
        .await
        .into_iter()
        .filter_map(|(_, news)| match news {
            News::Digest(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// What the notices queued under `channel` (a channel, or a member's id) tell, with their
/// status.
async fn news_of(f: &Fixture, channel: u64) -> Vec<(NoticeStatus, News)> {
    let mut out = Vec::new();
    for n in f.service.probe().notices_in(channel).await.unwrap() {
        let payload: Payload = serde_json::from_str(&n.payload).unwrap();
        out.push((n.status, payload.news.unwrap()));
    }
    out
}

both_backends! {
/// The default is a message a move; each message is written with the move (or start) that
/// gives the turn, telling the move, the time and the notice that shows it, to the player to
/// move alone; a change of setting during the game takes effect at the next move; nothing to
/// the AI, to the one who moved, to a member on vacation, or once the game is over.
#[tokio::test]
async fn a_turn_message_is_written_with_the_move_that_gives_the_turn(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let n = f.service.notifications();
    assert_eq!(
        n.setting(ASTRID).await.unwrap(),
        NotifySetting { mode: NotifyMode::Move, chosen: false, refused_at: None }
    );
    // The start gives Astrid the turn: told, with her two days and the start's notice.
    let g = game(&f, 90, "2d").await;
    let start = f.service.probe().notices_in(90).await.unwrap()[0].id;
    let told = dms(&f, ASTRID).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!((told[0].user, told[0].game.id, told[0].shown_by), (ASTRID, g.id, start));
    assert_eq!((told[0].last_move.as_ref(), told[0].time_left_ms), (None, Some(2 * DAY_MS)));
    assert!(dms(&f, BIRGER).await.is_empty(), "Birger accepted: not his move");
    news_shown(&f.service, 90).await;

    // Her move: Birger told once, with it; nothing more to her.
    let r = f.service.games().play_move(90, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    let told = dms(&f, BIRGER).await;
    assert_eq!(told.len(), 1);
    let last = told[0].last_move.as_ref().unwrap();
    assert_eq!((last.notation.as_str(), &last.by), ("a4-a3", &Player::User(user(ASTRID))));
    assert_eq!((told[0].shown_by, told[0].game.ply), (r.notice, 1));
    assert_eq!(dms(&f, ASTRID).await.len(), 1);
    // The same move sent again is refused: still one message.
    assert!(f.service.games().play_move(90, ASTRID, "a4-a3", Answer::None).await.is_err());
    assert_eq!(dms(&f, BIRGER).await.len(), 1);

    // Astrid chooses the digest during the game: Birger's next move tells her nothing.
    let changed = n.set(ASTRID, NotifyMode::Digest).await.unwrap();
    assert_eq!((changed.before.chosen, changed.now), (false, NotifyMode::Digest));
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, BIRGER, "e3-d3", Answer::None).await.unwrap();
    assert_eq!(dms(&f, ASTRID).await.len(), 1);
    // Back to a message a move: her next turn is told again.
    n.set(ASTRID, NotifyMode::Move).await.unwrap();
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, ASTRID, "i4-i3", Answer::None).await.unwrap();
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, BIRGER, "e7-d7", Answer::None).await.unwrap();
    assert_eq!(dms(&f, ASTRID).await.len(), 2);
    // Off: nothing.
    n.set(BIRGER, NotifyMode::Off).await.unwrap();
    assert_eq!(n.setting(BIRGER).await.unwrap().mode, NotifyMode::Off);
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, ASTRID, "a6-a7", Answer::None).await.unwrap();
    assert_eq!(dms(&f, BIRGER).await.len(), 2);
    n.set(BIRGER, NotifyMode::Move).await.unwrap();

    // Birger on vacation: his turn is not told (his clock stands still).
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, BIRGER, "d3-c3", Answer::None).await.unwrap();
    f.service.vacations().start(&user(BIRGER), 2).await.unwrap();
    news_shown(&f.service, 90).await;
    f.service.games().play_move(90, ASTRID, "i6-i7", Answer::None).await.unwrap();
    assert_eq!(dms(&f, BIRGER).await.len(), 2);
    f.service.vacations().end(BIRGER).await.unwrap();

    // Resigned: nobody's turn.
    let before = (dms(&f, ASTRID).await.len(), dms(&f, BIRGER).await.len());
    f.service.games().resign(90, BIRGER, None).await.unwrap();
    assert_eq!((dms(&f, ASTRID).await.len(), dms(&f, BIRGER).await.len()), before);

    // Against the AI: its turn is never told; its move is, to the person (who is told nothing
    // of the game they just started).
    let ai = f
        .service
        .games()
        .start_ai_game(
            ai_game_request(place(91), user(BIRGER), SideChoice::Defenders, Level::Easy),
            None,
        )
        .await
        .unwrap()
        .done;
    assert!(ai.game.attackers.is_ai());
    assert_eq!(dms(&f, BIRGER).await.len(), 2);
    let moved = f.service.ai().turn(ai.game.id).await.unwrap().expect("the AI's move");
    let told = dms(&f, BIRGER).await;
    assert_eq!(told.len(), 3);
    assert_eq!((told[2].game.id, told[2].shown_by), (ai.game.id, moved.notice));
    assert_eq!(told[2].last_move.as_ref().unwrap().by, Player::Ai(Level::Easy));
    assert_eq!(told[2].time_left_ms, None, "an untimed game");
    // Every message is queued under its member's id, and tells a game that goes on.
    for (status, news) in news_of(&f, BIRGER).await {
        assert_eq!(status, NoticeStatus::Pending);
        assert!(matches!(news, News::TurnDm(dm) if !dm.game.is_over()));
    }
}
}

both_backends! {
/// A turn's message waits for the notice that shows the turn (to link to the message it
/// becomes): not due, and no attempt counted, until that notice is delivered or given up, or
/// for a minute at most; then due at once.
#[tokio::test]
async fn a_turn_message_waits_for_the_notice_that_shows_the_turn(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let outbox = f.service.outbox();
    let due = move |at: i64| async move {
        outbox.due(at, 100).await.unwrap().into_iter().map(|n| n.id).collect::<Vec<_>>()
    };
    let service = &f.service;
    let stored = move |to: u64| async move { service.probe().notices_in(to).await.unwrap() };
    // The start gives Astrid the turn: her message waits for the start's notice, a minute at
    // most.
    game(&f, 97, "2d").await;
    let start = stored(97).await[0].id;
    let dm = stored(ASTRID).await[0].clone();
    assert_eq!((dm.status, dm.waits_for), (NoticeStatus::Pending, Some(start)));
    assert_eq!((dm.created_at, dm.next_attempt_at), (T0, T0 + 60_000));
    assert_eq!(due(T0).await, [start]);
    assert_eq!(due(T0 + 59_999).await, [start]);
    assert_eq!(due(T0 + 60_000).await, [start, dm.id]);
    // Claimed alone (its attempt under way, it is still owed): the message waits on.
    let claimed = outbox.claim(T0, 100).await.unwrap();
    assert_eq!(claimed.iter().map(|n| n.id).collect::<Vec<_>>(), [start]);
    assert!(due(T0).await.is_empty());
    // Delivered: the message is due since its writing, and claimed as any other, its wait over
    // and never counted as an attempt.
    outbox.news_delivered(&claimed[0], Some(555)).await.unwrap();
    assert_eq!(due(T0).await, [dm.id]);
    assert_eq!(outbox.next_due_at().await.unwrap(), Some(T0));
    let claimed = outbox.claim(T0, 100).await.unwrap();
    assert_eq!((claimed.len(), claimed[0].id, claimed[0].attempts), (1, dm.id, 0));
    let row = stored(ASTRID).await[0].clone();
    assert_eq!((row.status, row.attempts, row.waits_for), (NoticeStatus::Claimed, 1, None));
    assert_eq!((row.failure, outbox.notice_message(start).await.unwrap()), (None, Some(555)));
    outbox.news_delivered(&claimed[0], Some(556)).await.unwrap();

    // Her move's notice given up: Birger's message goes at once, with nothing to link to.
    let moved = f.service.games().play_move(97, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    let dm = stored(BIRGER).await[0].clone();
    assert_eq!(dm.waits_for, Some(moved.notice));
    let now = f.service.database_now().await.unwrap();
    assert!(!due(now + 59_999).await.contains(&dm.id));
    let notice = f.service.probe().notice(moved.notice).await.unwrap().unwrap();
    outbox.news_failed(&notice, "refused").await.unwrap();
    assert_eq!(due(now).await, [dm.id]);
    assert_eq!(outbox.notice_message(moved.notice).await.unwrap(), None);

    // His move's notice never settled: Astrid's message is due a minute after it was written,
    // and not before.
    f.clock.advance(Duration::from_secs(5));
    f.service.games().play_move(97, BIRGER, "e3-d3", Answer::None).await.unwrap();
    let dm = stored(ASTRID).await[1].clone();
    assert_eq!(dm.next_attempt_at, dm.created_at + 60_000);
    assert!(!due(dm.created_at + 59_999).await.contains(&dm.id));
    assert!(due(dm.created_at + 60_000).await.contains(&dm.id));
    let claimed = outbox.claim(dm.created_at + 60_000, 100).await.unwrap();
    let mine: Vec<_> = claimed.iter().filter(|n| n.channel == ASTRID).collect();
    assert_eq!((mine.len(), mine[0].id, mine[0].attempts), (1, dm.id, 0));
}
}

both_backends! {
/// The digest: once a day for a member who chose it, listing the games where it is their move
/// with the time left, written by one of two processes sweeping at once; none on a day nothing
/// waits on them or they are away; across a restart.
#[tokio::test]
async fn the_daily_digest_is_sent_once_a_day_by_one_process(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    f.service.notifications().set(ASTRID, NotifyMode::Digest).await.unwrap();
    let first = game(&f, 92, "2d").await;
    let second = game(&f, 93, "1d+1h").await;
    news_shown(&f.service, 92).await;
    news_shown(&f.service, 93).await;
    // A game where it is Birger's move: not hers to list.
    game(&f, 94, "3d").await;
    news_shown(&f.service, 94).await;
    f.service.games().play_move(94, ASTRID, "a4-a3", Answer::None).await.unwrap();
    assert!(dms(&f, ASTRID).await.is_empty(), "the digest, not a message a move");
    f.clock.advance(Duration::from_millis((3 * HOUR) as u64));

    // Two processes sweep at once: one digest.
    let other = f.another().await;
    let (a, b) = tokio::join!(f.service.game_clock().tick(), other.game_clock().tick());
    a.unwrap();
    b.unwrap();
    let sent = digests(&f, ASTRID).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let d = &sent[0];
    assert_eq!((d.user, d.day), (ASTRID, (T0 + 3 * HOUR).div_euclid(DAY_MS)));
    let listed: Vec<(GameId, Option<i64>)> =
        d.games.iter().map(|w| (w.game.id, w.time_left_ms)).collect();
    assert_eq!(listed, [(first.id, Some(2 * DAY_MS - 3 * HOUR)), (second.id, Some(DAY_MS - 3 * HOUR))]);
    assert!(digests(&f, BIRGER).await.is_empty(), "Birger did not ask for one");
    // Again the same day, and after a restart: no more.
    f.service.game_clock().tick().await.unwrap();
    let f = f.reopen().await;
    f.service.game_clock().tick().await.unwrap();
    assert_eq!(digests(&f, ASTRID).await.len(), 1);

    // The next day: another, the times as they run.
    let next_day = (d.day + 1) * DAY_MS + HOUR;
    let now = f.service.database_now().await.unwrap();
    f.clock.advance(Duration::from_millis((next_day - now) as u64));
    f.service.game_clock().tick().await.unwrap();
    let sent = digests(&f, ASTRID).await;
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].day, d.day + 1);
    assert_eq!(sent[1].games.len(), 2);
    assert_eq!(sent[1].games[0].time_left_ms, Some(first.turn_deadline.unwrap() - next_day));

    // Away the day after: none; back, with nothing waiting on her another day: none.
    f.service.vacations().start(&user(ASTRID), 2).await.unwrap();
    f.clock.advance(Duration::from_millis(DAY_MS as u64));
    f.service.game_clock().tick().await.unwrap();
    assert_eq!(digests(&f, ASTRID).await.len(), 2);
    f.service.vacations().end(ASTRID).await.unwrap();
    for channel in [92, 93] {
        f.service.games().resign(channel, ASTRID, None).await.unwrap();
    }
    f.clock.advance(Duration::from_millis(DAY_MS as u64));
    f.service.game_clock().tick().await.unwrap();
    assert_eq!(digests(&f, ASTRID).await.len(), 2);
}
}

both_backends! {
/// Discord refuses a member's direct messages: the message fails, their notifications are
/// turned off (said so by their setting), their other messages still waiting are given up,
/// and the game's channel is told once; no message is written for them after it, until they
/// choose again.
#[tokio::test]
async fn a_member_who_refuses_direct_messages_is_turned_off_and_told_once(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    // Two games where Birger's turn comes: two messages queued under his id.
    for channel in [95, 96] {
        game(&f, channel, "2d").await;
        news_shown(&f.service, channel).await;
        f.service.games().play_move(channel, ASTRID, "a4-a3", Answer::None).await.unwrap();
        news_shown(&f.service, channel).await;
    }
    assert_eq!(dms(&f, BIRGER).await.len(), 2);
    // The dispatcher claims his first (a member's messages go one at a time); Discord refuses.
    let now = f.service.database_now().await.unwrap();
    let claimed = f.service.outbox().claim(now, 100).await.unwrap();
    let mine: Vec<&Notice> = claimed.iter().filter(|n| n.channel == BIRGER).collect();
    assert_eq!(mine.len(), 1, "{claimed:?}");
    let refused = "403: Cannot send messages to this user (code 50007)";
    let off = f.service.outbox().dms_refused(mine[0], refused).await.unwrap();
    assert_eq!(off, Some(true));
    // Recorded again (a late attempt): nothing more.
    assert_eq!(f.service.outbox().dms_refused(mine[0], refused).await.unwrap(), None);
    let setting = f.service.notifications().setting(BIRGER).await.unwrap();
    assert_eq!((setting.mode, setting.chosen), (NotifyMode::Off, true));
    assert!(setting.refused_at.is_some_and(|at| at >= now));
    let statuses: Vec<NoticeStatus> = news_of(&f, BIRGER).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses, [NoticeStatus::Failed, NoticeStatus::Failed], "the waiting one given up");
    // The first game's channel is told, once, naming him; the other's is not.
    let told: Vec<News> = news_of(&f, 95)
        .await
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| matches!(n, News::DmsRefused(_)))
        .collect();
    assert!(matches!(&told[..], [News::DmsRefused(r)] if r.user == user(BIRGER)), "{told:?}");
    assert!(!news_of(&f, 96).await.iter().any(|(_, n)| matches!(n, News::DmsRefused(_))));
    // His next turns are not told.
    f.service.games().play_move(95, BIRGER, "e3-d3", Answer::None).await.unwrap();
    news_shown(&f.service, 95).await;
    f.service.games().play_move(95, ASTRID, "i4-i3", Answer::None).await.unwrap();
    assert_eq!(dms(&f, BIRGER).await.len(), 2);
    // He chooses again: told again, and the refusal is forgotten.
    f.service.notifications().set(BIRGER, NotifyMode::Move).await.unwrap();
    assert_eq!(f.service.notifications().setting(BIRGER).await.unwrap().refused_at, None);
    news_shown(&f.service, 95).await;
    f.service.games().play_move(95, BIRGER, "e7-d7", Answer::None).await.unwrap();
    news_shown(&f.service, 95).await;
    f.service.games().play_move(95, ASTRID, "a6-a7", Answer::None).await.unwrap();
    assert_eq!(dms(&f, BIRGER).await.len(), 3);
}
}
