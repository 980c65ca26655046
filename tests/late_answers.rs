//! An interaction's answer that starts late (a slow render, a slow database, a loaded machine)
//! while the outbox's dispatcher runs, on both backends: the service with the bot's dispatcher
//! against the fake Discord, the answer sent as the bot sends it, through
//! `Service::answer_news`. Whenever the answer starts, the news is shown exactly once: by the
//! answer, or by the dispatcher's post and then the answer says so to its caller alone.

mod support;

use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::fake_discord::{FakeDiscord, Fault, Recorded, Who, APP_ID, TOKEN};
use tablut_bot::bot::delivery::{self, Dispatcher, Poster};
use tablut_bot::both_backends;
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::NoticeStatus;
use tablut_bot::tafl::Rules;

const GUILD: u64 = 900_000_000_000_000_031;
const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;
/// The bot's time-out on a request to Discord, as `tests/faults.rs` and `tests/crash.rs` set it.
const TIMEOUT: Duration = Duration::from_millis(400);
/// The answer's grace and the dispatcher's lease the bot derives from it.
const GRACE: Duration = Duration::from_millis(2 * 400 + 1000);
const LEASE: Duration = Duration::from_millis(4 * 400 + 1000);

struct Setup {
    _db: TestDb,
    fake: FakeDiscord,
    service: Arc<Service>,
    dispatcher: Option<Dispatcher>,
    client: reqwest::Client,
}

/// A service on `db` with the bot's dispatcher posting to a fake Discord, and a game between
/// Astrid (attacking) and Birger in `channel`.
async fn setup(db: TestDb, channel: u64) -> Setup {
    let fake = FakeDiscord::start().await;
    let config = Config {
        images: false,
        ..Config::default()
    };
    let service = Service::open(&db.url, config, Arc::new(SystemClock))
        .await
        .unwrap()
        .with_delivery(DeliveryPolicy {
            answer_grace: GRACE,
            retry_min: Duration::from_millis(50),
            retry_max: Duration::from_secs(1),
            give_up: Duration::from_secs(600),
            retention: Duration::from_secs(3600),
            claim_lease: LEASE,
        });
    let service = Arc::new(service);
    // The dispatcher's requests get more time than the answer's, so that a test can hold its
    // look at the answer for a while.
    let dispatcher_client = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let poster = Poster::new(dispatcher_client, TOKEN, Some(&fake.base_url));
    let dispatcher = delivery::start(service.clone(), Arc::new(poster));
    let c = service
        .challenge(ChallengeRequest {
            place: Place {
                guild: Some(GUILD),
                channel,
            },
            challenger: User::new(ASTRID, "Astrid"),
            opponent: User::new(BIRGER, "Birger"),
            opponent_is_bot: false,
            side: SideChoice::Attackers,
            rules: Rules::default(),
            time_control: TimeControl::None,
            thread: false,
            rated: true,
            start: None,
        })
        .await
        .unwrap();
    service.accept(c.id, BIRGER, None).await.unwrap();
    let client = reqwest::Client::builder().timeout(TIMEOUT).build().unwrap();
    Setup {
        _db: db,
        fake,
        service,
        dispatcher: Some(dispatcher),
        client,
    }
}

/// A `/move` the fake knows (its token and channel); its notice held for its answer.
struct Move {
    interaction: u64,
    report: MoveReport,
    /// When it was committed.
    at: Instant,
}

impl Setup {
    async fn play(&self, who: u64, channel: u64, notation: &str) -> Move {
        let user = Who::member(who, "player");
        let options = json!([{"name": "notation", "type": 3, "value": notation}]);
        let interaction = self
            .fake
            .command(&user, channel, "move", None, options, &[]);
        let answer = AnswerRef {
            application: APP_ID,
            token: format!("token-{interaction}"),
            pressed: false,
        };
        let report = self
            .service
            .play_move_answering(channel, who, notation, Some(answer))
            .await
            .unwrap();
        Move {
            interaction,
            report,
            at: Instant::now(),
        }
    }

    /// Answers `m` as the bot does: the move with its news if it may still show it, else a
    /// line for its caller alone.
    async fn answer(&self, m: &Move) -> NewsAnswer<(), (), reqwest::Error> {
        let base = &self.fake.base_url;
        let token = format!("token-{}", m.interaction);
        let callback = format!(
            "{base}/api/v10/interactions/{}/{token}/callback",
            m.interaction
        );
        let news =
            json!({"type": 4, "data": {"content": format!("played **{}**", m.report.notation)}});
        let send = async {
            self.client
                .post(&callback)
                .header("content-type", "application/json")
                .body(news.to_string())
                .send()
                .await?
                .error_for_status()
                .map(|_| ())
        };
        let original = format!("{base}/api/v10/webhooks/{APP_ID}/{token}/messages/@original");
        let shown = || async {
            let r = self.client.get(&original).send().await.ok()?;
            r.status().is_success().then_some(())
        };
        let outcome = self
            .service
            .answer_news(m.report.notice, TIMEOUT, send, shown)
            .await
            .unwrap();
        if let NewsAnswer::TooLate = outcome {
            let note =
                json!({"type": 4, "data": {"content": "Done. The channel shows it.", "flags": 64}});
            // Not the news: sent with time to spare on a loaded machine.
            let r = reqwest::Client::new()
                .post(&callback)
                .header("content-type", "application/json")
                .body(note.to_string())
                .send()
                .await
                .unwrap();
            assert!(r.status().is_success(), "{r:?}");
        }
        outcome
    }

    /// Waits (up to 10 s) until the move `notation` is shown in `channel`, then a while more
    /// (past another grace) to see it shown no more; returns how many times it is.
    async fn shown(&self, channel: u64, notation: &str) -> Vec<Recorded> {
        let find = || {
            self.fake
                .shown(channel)
                .into_iter()
                .filter(|r| r.content().contains(notation))
                .collect::<Vec<_>>()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while find().is_empty() {
            assert!(Instant::now() < deadline, "{notation} never shown");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(GRACE + Duration::from_millis(500)).await;
        find()
    }

    /// The dispatcher's posts in `channel` so far.
    fn posts(&self, channel: u64) -> usize {
        let path = format!("/api/v10/channels/{channel}/messages");
        self.fake
            .requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path == path)
            .count()
    }

    async fn status(&self, channel: u64, notice: NoticeId) -> NoticeStatus {
        let rows = self.service.notices_in(channel).await.unwrap();
        rows.iter().find(|r| r.id == notice).unwrap().status
    }

    async fn stop(mut self) {
        self.dispatcher
            .take()
            .unwrap()
            .stop(Duration::from_secs(5))
            .await;
        self.fake.assert_contract();
    }
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_starting_after_its_grace_leaves_the_news_to_the_dispatcher(db: TestDb) {
    let s = setup(db, 310).await;
    let m = s.play(ASTRID, 310, "a4-a3").await;
    // The answer is late: the dispatcher has asked whether it is shown (no) and posted.
    let deadline = Instant::now() + Duration::from_secs(10);
    while s.posts(310) == 0 {
        assert!(Instant::now() < deadline, "the dispatcher never posted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let outcome = s.answer(&m).await;
    let shown = s.shown(310, "a4-a3").await;
    assert_eq!(shown.len(), 1, "the news once: {shown:#?}");
    assert!(matches!(outcome, NewsAnswer::TooLate), "{outcome:?}");
    assert_eq!(s.posts(310), 1);
    assert_eq!(s.status(310, m.report.notice).await, NoticeStatus::Delivered);
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_starting_as_the_dispatcher_looks_is_not_taken_for_the_news(db: TestDb) {
    let s = setup(db, 320).await;
    // The dispatcher's look at the answer takes a second and a half, during which the late
    // answer says, privately, that the channel shows the news: that is not the news.
    s.fake.fail("GET", "/messages/@original", 1, Fault::Slow(Duration::from_millis(1500)));
    let m = s.play(ASTRID, 320, "a4-a3").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    // Taken: claimed by the dispatcher.
    while s
        .service
        .notices_in(320)
        .await
        .unwrap()
        .iter()
        .all(|r| r.status != NoticeStatus::Claimed)
    {
        assert!(Instant::now() < deadline, "the dispatcher never took the notice");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(s.posts(320), 0, "still looking");
    let outcome = s.answer(&m).await;
    let shown = s.shown(320, "a4-a3").await;
    assert_eq!(shown.len(), 1, "the news once: {shown:#?}");
    assert!(matches!(outcome, NewsAnswer::TooLate), "{outcome:?}");
    assert_eq!(s.posts(320), 1, "posted by the dispatcher");
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_starting_late_in_its_grace_holds_the_news_again_and_shows_it(db: TestDb) {
    let s = setup(db, 330).await;
    let mut moves = [(ASTRID, "a4-a3"), (BIRGER, "e3-d3"), (ASTRID, "a3-a4")].into_iter();
    let mut answered = 0;
    // Started 0.2 s before the grace is over, and 0.35 s on its way (within the time-out):
    // still on its way when the grace is over. If the machine is so slow that the answer
    // starts after the dispatcher took the notice, the dispatcher shows it: once either way.
    let (who, notation) = moves.next().unwrap();
    s.fake.fail("POST", "/callback", 1, Fault::Slow(Duration::from_millis(350)));
    let m = s.play(who, 330, notation).await;
    tokio::time::sleep_until((m.at + GRACE - Duration::from_millis(200)).into()).await;
    let outcome = s.answer(&m).await;
    let shown = s.shown(330, notation).await;
    assert_eq!(shown.len(), 1, "the news once: {shown:#?}");
    match outcome {
        NewsAnswer::Sent(()) => {
            answered += 1;
            assert_eq!(s.posts(330), 0, "shown by the answer");
        }
        NewsAnswer::TooLate => assert_eq!(s.posts(330), 1, "shown by the dispatcher"),
        NewsAnswer::Failed { .. } => panic!("{outcome:?}"),
    }
    assert_eq!(s.status(330, m.report.notice).await, NoticeStatus::Delivered);
    // In time: the answer shows it, and nothing is written before it. (On a machine so
    // loaded that the answer is not over within its time-out, it is shown once all the same.)
    for (who, notation) in moves {
        let m = s.play(who, 330, notation).await;
        let before = s.service.notices_in(330).await.unwrap();
        let outcome = s.answer(&m).await;
        let after = s.service.notices_in(330).await.unwrap();
        assert_eq!(s.shown(330, notation).await.len(), 1);
        let held = |rows: &[tablut_bot::store::outbox::NoticeRow]| {
            rows.iter().find(|r| r.id == m.report.notice).unwrap().next_attempt_at
        };
        match outcome {
            NewsAnswer::Sent(()) => {
                assert_eq!(held(&before), held(&after), "not held again");
                answered += 1;
            }
            NewsAnswer::Failed { .. } => {}
            NewsAnswer::TooLate => panic!("an answer in time"),
        }
    }
    assert!(answered >= 1, "answers in time show their news");
    s.stop().await;
}
}
