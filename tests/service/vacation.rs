//! Vacations on both backends: a member's clocks stand still in every game where they are to
//! move (per-move and Fischer clocks, a turn that reaches them while away included), across a
//! restart, with no reminder and no loss on time; they run again with the time they had left
//! when the vacation is ended, by a move, or when its days have passed; each game's channel is
//! told once at the start and once at the end; the yearly allowance, and every refusal, which
//! changes nothing.

use crate::support::fixture::{challenge_request, config, user, Fixture, GUILD, PLAYERS, T0};
use crate::support::news_shown;
use std::time::Duration;
use tablut_bot::both_backends;
use tablut_bot::service::vacation::{
    VacationChange, VacationEnd, VacationStarted, VacationStatus, DAY_MS,
};
use tablut_bot::service::*;
use tablut_bot::store;

const ASTRID: u64 = PLAYERS;
const BIRGER: u64 = PLAYERS + 1;
const CARL: u64 = PLAYERS + 2;
const HOUR: i64 = 3_600_000;

fn wait(f: &Fixture, ms: i64) {
    f.clock.advance(Duration::from_millis(ms as u64));
}

/// `attacker` against `defender` in `channel` under `time`, its start shown: the attacker's
/// clock runs.
async fn game(f: &Fixture, channel: u64, attacker: u64, defender: u64, time: &str) -> GameInfo {
    let place = Place {
        guild: Some(GUILD),
        channel,
    };
    let c = f
        .service
        .games()
        .challenge(
            ChallengeRequest {
                time_control: time.parse().unwrap(),
                ..challenge_request(place, user(attacker), user(defender))
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    let game = f
        .service
        .games()
        .accept(c.id, defender, None, None)
        .await
        .unwrap()
        .done
        .game;
    news_shown(&f.service, channel).await;
    game
}

async fn row(f: &Fixture, id: GameId) -> store::games::GameRow {
    store::games::by_id(f.service.store().pool(), id)
        .await
        .unwrap()
        .unwrap()
}

/// What the vacation notices of `channel` told, in order.
async fn told(f: &Fixture, channel: u64) -> Vec<(u64, VacationChange)> {
    let mut out = Vec::new();
    for n in f.service.probe().notices_in(channel).await.unwrap() {
        if n.kind != "vacation" {
            continue;
        }
        let payload: Payload = serde_json::from_str(&n.payload).unwrap();
        match payload.news {
            Some(News::Vacation(v)) => {
                assert_eq!(v.game.place.channel, channel);
                out.push((v.user.id, v.change));
            }
            other => panic!("{other:?}"),
        }
    }
    out
}

/// The kinds of `channel`'s notices, in order.
async fn kinds(f: &Fixture, channel: u64) -> Vec<String> {
    let notices = f.service.probe().notices_in(channel).await.unwrap();
    notices.into_iter().map(|n| n.kind).collect()
}

both_backends! {
/// Per-move clocks: Astrid's stops where she is to move and starts stopped where her turn
/// comes while she is away; over days past her deadline, and a restart, no reminder and no loss
/// on time; ended, each runs from what it had left, the reminders at their usual fractions.
#[tokio::test]
async fn a_vacation_stops_per_move_clocks_across_a_restart(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    // Astrid to move in 80; Carl to move in 81 (a day a move), against her.
    let first = game(&f, 80, ASTRID, BIRGER, "2d").await;
    let second = game(&f, 81, CARL, ASTRID, "1d").await;
    wait(&f, 12 * HOUR);
    let started = f.service.vacations().start(&user(ASTRID), 5).await.unwrap();
    let until = T0 + 12 * HOUR + 5 * DAY_MS;
    assert_eq!(
        started,
        VacationStarted { until, games: 2, stopped: 1, days_left: 25 }
    );
    assert_eq!(row(&f, first.id).await.clock_frozen_at, Some(T0 + 12 * HOUR));
    assert_eq!(row(&f, second.id).await.clock_frozen_at, None, "Carl's clock runs");
    // Carl moves; the move shown, Astrid's turn starts stopped.
    wait(&f, 2 * HOUR);
    f.service.games().play_move(81, CARL, "a4-a3", Answer::None).await.unwrap();
    news_shown(&f.service, 81).await;
    let shown = T0 + 14 * HOUR;
    assert_eq!(row(&f, second.id).await.clock_frozen_at, Some(shown));
    // Three days, past both her deadlines, then a restart, then another day: nothing.
    wait(&f, 3 * DAY_MS);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    let f = f.reopen().await;
    wait(&f, DAY_MS);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    let status = f.service.vacations().status(ASTRID).await.unwrap();
    assert_eq!(status.on, Some((T0 + 12 * HOUR, until)));
    // Back: the day and a half she had in 80, the whole day in 81, from now.
    let back = T0 + 14 * HOUR + 4 * DAY_MS;
    let ended = f.service.vacations().end(ASTRID).await.unwrap();
    assert_eq!((ended.why, ended.restarted), (VacationEnd::Asked, 2));
    assert_eq!(ended.lasted, Duration::from_millis((4 * DAY_MS + 2 * HOUR) as u64));
    for (id, left) in [(first.id, 36 * HOUR), (second.id, 24 * HOUR)] {
        let r = row(&f, id).await;
        assert_eq!((r.turn_deadline, r.clock_frozen_at), (Some(back + left), None));
    }
    // Each channel told once of each.
    for channel in [80, 81] {
        assert_eq!(
            told(&f, channel).await,
            [
                (ASTRID, VacationChange::Started { until }),
                (ASTRID, VacationChange::Ended(VacationEnd::Asked))
            ]
        );
    }
    // The clocks run again: both first reminders twelve hours on, then 81's loss on time.
    wait(&f, 12 * HOUR - 1);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    wait(&f, 1);
    let events = f.service.game_clock().tick().await.unwrap();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events.iter().all(|e| matches!(e, ClockEvent::Reminder { user: ASTRID, number: 1, .. })));
    wait(&f, 12 * HOUR);
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(
        matches!(&events[..], [ClockEvent::TimedOut(e)] if e.game.id == second.id),
        "{events:?}"
    );
}
}

both_backends! {
/// A Fischer clock: Astrid's bank stands still while she is away (her turn reaching her then),
/// the board shows it as it stood; her move ends the vacation and takes nothing from the bank
/// for the days away; the channel reads the move, then that she is back.
#[tokio::test]
async fn a_move_ends_a_vacation_and_a_fischer_bank_keeps_what_it_had(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let g = game(&f, 82, ASTRID, BIRGER, "1d+1h").await;
    let banks = |a: i64, d: i64| Some(Clocks { attackers_ms: a, defenders_ms: d });
    wait(&f, 10 * HOUR);
    let r = f.service.games().play_move(82, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(15 * HOUR, 24 * HOUR));
    news_shown(&f.service, 82).await;
    wait(&f, 2 * HOUR);
    // Away while it is Birger's turn: no clock of hers runs yet.
    let started = f.service.vacations().start(&user(ASTRID), 3).await.unwrap();
    assert_eq!((started.games, started.stopped), (1, 0));
    wait(&f, 2 * HOUR);
    let r = f.service.games().play_move(82, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(15 * HOUR, 21 * HOUR));
    news_shown(&f.service, 82).await;
    wait(&f, 2 * DAY_MS);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    let board = f.service.games().board(82).await.unwrap();
    assert_eq!(board.game.clocks, banks(15 * HOUR, 21 * HOUR), "her bank as it stood");
    // Her move ends it: the bank she had, and the increment.
    let r = f.service.games().play_move(82, ASTRID, "a3-a4", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(16 * HOUR, 21 * HOUR));
    let status = f.service.vacations().status(ASTRID).await.unwrap();
    assert_eq!(status.on, None);
    assert_eq!(status.used, Duration::from_millis((2 * DAY_MS + 2 * HOUR) as u64));
    assert_eq!(
        told(&f, 82).await,
        [
            (ASTRID, VacationChange::Started { until: T0 + 12 * HOUR + 3 * DAY_MS }),
            (ASTRID, VacationChange::Ended(VacationEnd::Moved))
        ]
    );
    let kinds = kinds(&f, 82).await;
    assert_eq!(kinds[kinds.len() - 2..], ["move", "vacation"], "{kinds:?}");
    assert_eq!(row(&f, g.id).await.clock_frozen_at, None);
    // Birger's clock runs from the move's news: his 21 h.
    news_shown(&f.service, 82).await;
    wait(&f, 21 * HOUR - 1);
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(!events.iter().any(|e| matches!(e, ClockEvent::TimedOut(_))), "{events:?}");
    wait(&f, 1);
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(matches!(&events[..], [ClockEvent::TimedOut(_)]), "{events:?}");
}
}

both_backends! {
/// The allowance (30 days in any 365, counted in the days taken) and every refusal: a vacation
/// twice, an end with none on, 0 days or more than are left; each changes nothing. A vacation
/// whose days pass is ended by the clock, its channel told once.
#[tokio::test]
async fn the_allowance_counts_days_taken_and_refusals_change_nothing(db: TestDb) {
    let f = Fixture::open(db, config()).await;
    let g = game(&f, 83, ASTRID, BIRGER, "3d").await;
    let v = f.service.vacations();
    let left = |s: VacationStatus| (s.on.is_some(), s.days_left, s.allowance);
    assert_eq!(left(v.status(ASTRID).await.unwrap()), (false, 30, 30));
    assert!(matches!(v.end(ASTRID).await, Err(ServiceError::NotOnVacation)));
    assert!(matches!(v.check_end(ASTRID).await, Err(ServiceError::NotOnVacation)));
    for days in [0, 31] {
        assert!(matches!(
            v.start(&user(ASTRID), days).await,
            Err(ServiceError::VacationDays { asked, left: 30, allowance: 30 }) if asked == days
        ));
        assert!(v.check_start(ASTRID, days).await.is_err());
    }
    assert!(told(&f, 83).await.is_empty(), "nothing changed");
    assert_eq!(row(&f, g.id).await.clock_frozen_at, None);
    v.start(&user(ASTRID), 10).await.unwrap();
    let until = T0 + 10 * DAY_MS;
    assert!(matches!(
        v.start(&user(ASTRID), 1).await,
        Err(ServiceError::AlreadyOnVacation { until: u }) if u == until
    ));
    assert_eq!(told(&f, 83).await.len(), 1, "told once");
    // Its days pass: the clock ends it, once, and her three days run from then.
    wait(&f, 10 * DAY_MS + 60_000);
    f.service.game_clock().tick().await.unwrap();
    f.service.game_clock().tick().await.unwrap();
    assert_eq!(
        told(&f, 83).await,
        [
            (ASTRID, VacationChange::Started { until }),
            (ASTRID, VacationChange::Ended(VacationEnd::TimeUp))
        ]
    );
    let now = until + 60_000;
    assert_eq!(row(&f, g.id).await.turn_deadline, Some(now + 3 * DAY_MS));
    // Ten days taken: twenty left.
    let status = v.status(ASTRID).await.unwrap();
    assert_eq!(left(status), (false, 20, 30));
    assert_eq!(status.used, Duration::from_millis(10 * DAY_MS as u64));
    assert!(matches!(
        v.start(&user(ASTRID), 21).await,
        Err(ServiceError::VacationDays { asked: 21, left: 20, .. })
    ));
    // A day of twenty asked, ended after six hours: nineteen whole days left.
    v.start(&user(ASTRID), 20).await.unwrap();
    wait(&f, 6 * HOUR);
    v.end(ASTRID).await.unwrap();
    assert_eq!(left(v.status(ASTRID).await.unwrap()), (false, 19, 30));
    // A year on, what was taken no longer counts.
    wait(&f, 365 * DAY_MS);
    assert_eq!(left(v.status(ASTRID).await.unwrap()), (false, 30, 30));
}
}
