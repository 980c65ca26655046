//! The news of a change made by an interaction is shown by editing the interaction's original
//! response, and an edit shows once however often it is sent: the handler sends it, and the
//! outbox's dispatcher sends it again whenever the handler did not record it shown (its edit
//! failed, or the bot died first). Past the token's life the news is posted in the channel. On
//! both backends: the service with the bot's dispatcher against the fake Discord, the handler's
//! edit sent as the bot sends it (`delivery::show_notice`, of the notice the move's commit
//! returns).

use crate::support::fake_discord::{BotRequest, FakeDiscord, Fault, Who, APP_ID, TOKEN};
use crate::support::fixture::challenge_request;
use crate::support::Waiting;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tablut_bot::bot::delivery::{self, DeliveryPolicy, Dispatcher, Poster};
use tablut_bot::both_backends;
use tablut_bot::service::NoticeStatus;
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;

const GUILD: u64 = 900_000_000_000_000_031;
const ASTRID: u64 = 900_000_000_000_000_301;
const BIRGER: u64 = 900_000_000_000_000_302;
/// The bot's time-out on a request to Discord, as `tests/discord/faults.rs` and `tests/discord/crash.rs` set it.
const TIMEOUT: Duration = Duration::from_millis(400);
/// How long a change's news is left to its handler, and the dispatcher's lease, as the bot
/// derives them from the time-out.
const GRACE: Duration = Duration::from_millis(2 * 400 + 1000);
const LEASE: Duration = Duration::from_millis(4 * 400 + 1000);

struct Setup {
    db: TestDb,
    fake: FakeDiscord,
    service: Arc<Service>,
    poster: Arc<Poster>,
    dispatcher: Option<Dispatcher>,
}

fn policy() -> DeliveryPolicy {
    DeliveryPolicy {
        times: OutboxTimes {
            answer_grace: GRACE,
            retention: Duration::from_secs(3600),
            claim_lease: LEASE,
        },
        retry_min: Duration::from_millis(50),
        retry_max: Duration::from_secs(1),
        give_up: Duration::from_secs(600),
    }
}

/// A service on `db` with the bot's dispatcher (unless `dispatching` is false) delivering to
/// the fake Discord `fake`.
async fn open(
    db: &TestDb,
    fake: &FakeDiscord,
    dispatching: bool,
) -> (Arc<Service>, Arc<Poster>, Option<Dispatcher>) {
    open_drawing(db, fake, dispatching, false).await
}

/// [`open`], drawing boards when `images`.
async fn open_drawing(
    db: &TestDb,
    fake: &FakeDiscord,
    dispatching: bool,
    images: bool,
) -> (Arc<Service>, Arc<Poster>, Option<Dispatcher>) {
    let config = Config {
        images,
        ..Config::default()
    };
    let service = Service::open(&db.url, config, Arc::new(SystemClock))
        .await
        .unwrap()
        .with_delivery(policy());
    let service = Arc::new(service);
    let client = reqwest::Client::builder().timeout(TIMEOUT).build().unwrap();
    let poster = Arc::new(Poster::new(client, TOKEN, Some(&fake.base_url)));
    let dispatcher =
        dispatching.then(|| delivery::start(service.clone(), poster.clone(), policy()));
    (service, poster, dispatcher)
}

/// A service on `db` with the bot's dispatcher delivering to a fake Discord, and a game between
/// Astrid (attacking) and Birger in `channel`.
async fn setup(db: TestDb, channel: u64, dispatching: bool) -> Setup {
    setup_drawing(db, channel, dispatching, false).await
}

/// [`setup`], drawing boards when `images`.
async fn setup_drawing(db: TestDb, channel: u64, dispatching: bool, images: bool) -> Setup {
    let fake = FakeDiscord::start().await;
    let (service, poster, dispatcher) = open_drawing(&db, &fake, dispatching, images).await;
    let c = service
        .games()
        .challenge(
            challenge_request(
                Place {
                    guild: Some(GUILD),
                    channel,
                },
                User::new(ASTRID, "Astrid"),
                User::new(BIRGER, "Birger"),
            ),
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    service
        .games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap();
    Setup {
        db,
        fake,
        service,
        poster,
        dispatcher,
    }
}

/// A `/move` acknowledged (deferred, as the bot does at once) and committed with its news.
struct Move {
    interaction: u64,
    report: MoveReport,
    /// Its notice, as its commit wrote it.
    notice: Notice,
}

impl Setup {
    async fn play(&self, who: u64, channel: u64, notation: &str) -> Move {
        let user = Who::member(who, "player");
        let options = json!([{"name": "notation", "type": 3, "value": notation}]);
        let interaction = self
            .fake
            .command(&user, channel, "move", None, options, &[]);
        let callback = format!(
            "{}/api/v10/interactions/{interaction}/token-{interaction}/callback",
            self.fake.base_url
        );
        let deferred = reqwest::Client::new()
            .post(callback)
            .header("content-type", "application/json")
            .body(json!({"type": 5}).to_string())
            .send()
            .await
            .unwrap();
        assert!(deferred.status().is_success(), "{deferred:?}");
        let answer = delivery::answer_ref(APP_ID, &format!("token-{interaction}"));
        let played = self
            .service
            .games()
            .play_move(channel, who, notation, Answer::Command(answer))
            .await
            .unwrap();
        Move {
            interaction,
            report: played.done,
            notice: played.notice.expect("a move's notice"),
        }
    }

    /// The handler's edit, as the bot sends it.
    async fn show(&self, m: &Move) {
        delivery::show_notice(&self.service, &self.poster, &m.notice, Vec::new()).await;
    }

    /// The messages `channel` shows with `notation`'s news, once the outbox owes nothing.
    async fn shown(&self, channel: u64, notation: &str) -> Vec<BotRequest> {
        self.settled(channel).await;
        self.fake
            .shown(channel)
            .into_iter()
            .filter(|r| r.content().contains(notation))
            .collect()
    }

    /// Waits until the outbox owes `channel` nothing.
    async fn settled(&self, channel: u64) {
        let waiting = Waiting::for_("an outbox that owes the channel nothing");
        while self
            .service
            .probe()
            .notices_in(channel)
            .await
            .unwrap()
            .iter()
            .any(|r| !matches!(r.status, NoticeStatus::Delivered | NoticeStatus::Failed))
        {
            waiting.again().await;
        }
    }

    /// The posts in `channel` so far.
    fn posts(&self, channel: u64) -> Vec<BotRequest> {
        let path = format!("/api/v10/channels/{channel}/messages");
        self.fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == path)
            .collect()
    }

    async fn status(&self, channel: u64, notice: NoticeId) -> NoticeStatus {
        let rows = self.service.probe().notices_in(channel).await.unwrap();
        rows.iter().find(|r| r.id == notice).unwrap().status
    }

    async fn stop(mut self) {
        if let Some(dispatcher) = self.dispatcher.take() {
            dispatcher.stop(Duration::from_secs(5)).await;
        }
        self.fake.assert_contract();
    }
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handlers_edit_shows_the_news_and_nothing_else_does(db: TestDb) {
    let s = setup(db, 310, true).await;
    let m = s.play(ASTRID, 310, "a4-a3").await;
    s.show(&m).await;
    assert_eq!(s.status(310, m.report.notice).await, NoticeStatus::Delivered);
    let shown = s.shown(310, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(s.fake.edits(m.interaction).len(), 1, "one edit: the handler's");
    assert!(s.posts(310).is_empty());
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_that_failed_is_sent_again_by_the_dispatcher_and_shows_once(db: TestDb) {
    let s = setup(db, 320, true).await;
    s.fake.fail("PATCH", "/messages/@original", 1, Fault::Status(500));
    let m = s.play(ASTRID, 320, "a4-a3").await;
    s.show(&m).await;
    // The handler's edit failed: the dispatcher's is sent at once, not after the hold.
    let edit = s
        .fake
        .expect("the dispatcher's edit", |r| {
            r.method == "PATCH" && r.path.contains(&format!("token-{}", m.interaction)) && r.status == 200
        })
        .await;
    assert!(edit.content().contains("a4-a3"), "{}", edit.content());
    let shown = s.shown(320, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    let statuses: Vec<u16> = s.fake.edits(m.interaction).iter().map(|r| r.status).collect();
    assert_eq!(statuses, [500, 200]);
    assert!(s.posts(320).is_empty());
    assert_eq!(s.status(320, m.report.notice).await, NoticeStatus::Delivered);
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handler_and_the_dispatcher_both_editing_show_the_news_once(db: TestDb) {
    let s = setup(db, 330, true).await;
    // The handler's edit reaches Discord, which takes it, but its answer is lost on the way
    // back (the handler's request times out): the dispatcher sends the edit again.
    s.fake.fail("PATCH", "/messages/@original", 1, Fault::Lost(Duration::from_secs(2)));
    let m = s.play(ASTRID, 330, "a4-a3").await;
    s.show(&m).await;
    let again = s
        .fake
        .expect("the dispatcher's edit", |r| {
            r.method == "PATCH" && r.path.contains(&format!("token-{}", m.interaction)) && r.status == 200
        })
        .await;
    assert!(again.content().contains("a4-a3"), "{}", again.content());
    let shown = s.shown(330, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    let edits = s.fake.edits(m.interaction);
    assert_eq!(edits.len(), 2);
    assert!(edits.iter().all(|r| r.created.is_some()), "both edits took effect");
    assert!(s.posts(330).is_empty());
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_news_of_an_expired_token_is_posted_in_the_channel_once(db: TestDb) {
    let s = setup(db, 340, true).await;
    let m = s.play(ASTRID, 340, "a4-a3").await;
    // The token's 15 minutes are over by the time the edits are sent.
    s.fake.expire_token(m.interaction);
    s.show(&m).await;
    let post = s.fake.channel_message(340).await;
    assert!(post.content().contains("a4-a3"), "{}", post.content());
    let shown = s.shown(340, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(s.posts(340).len(), 1);
    let statuses: Vec<u16> = s.fake.edits(m.interaction).iter().map(|r| r.status).collect();
    assert_eq!(statuses, [401, 401], "the handler's edit and the dispatcher's, refused");
    assert_eq!(s.status(340, m.report.notice).await, NoticeStatus::Delivered);
    s.stop().await;
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_the_commit_and_the_edit_shows_the_news_once_after_the_restart(db: TestDb) {
    // No dispatcher: the process dies after the commit, before its handler's edit.
    let s = setup(db, 350, false).await;
    let m = s.play(ASTRID, 350, "a4-a3").await;
    // Birger's reply lands too (from another process): it must not show before Astrid's move.
    let reply = s.service.games().play_move(350, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    assert!(s.fake.edits(m.interaction).is_empty());
    // The restart: a new service and dispatcher on the same database.
    let (service, _poster, dispatcher) = open(&s.db, &s.fake, true).await;
    let edit = s
        .fake
        .expect("the restarted dispatcher's edit", |r| {
            r.method == "PATCH" && r.path.contains(&format!("token-{}", m.interaction))
        })
        .await;
    assert!(edit.content().contains("a4-a3"), "{}", edit.content());
    let post = s.fake.channel_message(350).await;
    assert!(post.content().contains("e3-d3"), "{}", post.content());
    assert!(edit.index < post.index, "the move's edit, then the reply");
    let shown = s.shown(350, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(s.fake.edits(m.interaction).len(), 1);
    assert_eq!(s.fake.shown(350).len(), 2, "the move and the reply, once each");
    assert_eq!(service.probe().notices_in(350).await.unwrap().iter().find(|r| r.id == reply.notice).unwrap().status, NoticeStatus::Delivered);
    dispatcher.unwrap().stop(Duration::from_secs(5)).await;
    s.stop().await;
}
}

/// Discord's error code in a response.
async fn code(r: reqwest::Response) -> serde_json::Value {
    serde_json::from_slice::<serde_json::Value>(&r.bytes().await.unwrap()).unwrap()["code"].clone()
}

both_backends! {
/// A database clock that cannot be read when the dispatcher sends a change's news never makes
/// the interaction's live token look expired: the news is the edit of its deferred answer, never
/// a post beside the answer still "thinking". (The token is judged at the time the notice was
/// claimed; a claim whose read of the clock fails is tried again.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_clock_that_cannot_be_read_never_expires_a_live_answer(db: TestDb) {
    let s = setup_drawing(db, 375, true, true).await;
    // The handler's edit never comes (as if it failed): the dispatcher's attempt shows it.
    let m = s.play(ASTRID, 375, "a4-a3").await;
    // Every worker of the drawing held, so the dispatcher's attempt waits in its drawing of the
    // board, after its claim and before its send.
    let gate = s.service.probe().heavy_gate().clone();
    let workers = gate.stats().workers;
    let mut releases = Vec::new();
    for _ in 0..workers {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        releases.push(release);
        let gate = gate.clone();
        tokio::spawn(async move { gate.run_board(move || wait.recv()).await });
    }
    let waiting = Waiting::for_("the drawing's workers held");
    while gate.stats().running < workers {
        waiting.again().await;
    }
    let waiting = Waiting::for_("the dispatcher's claim of the move's news");
    while s.status(375, m.report.notice).await != NoticeStatus::Claimed {
        waiting.again().await;
    }
    // Now the database's clock cannot be read; the attempt goes on.
    s.service.probe().fail_database_clock(true);
    drop(releases);
    let edit = s
        .fake
        .expect("the dispatcher's edit", |r| {
            r.method == "PATCH"
                && r.path.contains(&format!("token-{}", m.interaction))
                && r.status == 200
        })
        .await;
    assert!(edit.content().contains("a4-a3"), "{}", edit.content());
    s.service.probe().fail_database_clock(false);
    let shown = s.shown(375, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(s.posts(375).is_empty(), "{:#?}", s.posts(375));
    assert_eq!(s.status(375, m.report.notice).await, NoticeStatus::Delivered);
    s.stop().await;
}
}

/// The fake Discord holds the bot to Discord's clock: a first response later than 3 s after
/// the interaction is refused (*Unknown interaction*), a second one too (*already
/// acknowledged*), and past 15 minutes the token edits nothing (*Invalid Webhook Token*).
#[tokio::test]
async fn the_fake_refuses_a_late_first_response_and_an_expired_token() {
    let fake = FakeDiscord::start().await;
    let client = reqwest::Client::new();
    let who = Who::member(ASTRID, "Astrid");
    let respond = |id: u64| {
        let url = format!(
            "{}/api/v10/interactions/{id}/token-{id}/callback",
            fake.base_url
        );
        client
            .post(url)
            .header("content-type", "application/json")
            .body(json!({"type": 5}).to_string())
            .send()
    };
    let late = fake.command(&who, 360, "move", None, json!([]), &[]);
    fake.advance(Duration::from_millis(3100));
    let r = respond(late).await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(code(r).await, 10062);
    let id = fake.command(&who, 360, "move", None, json!([]), &[]);
    assert!(respond(id).await.unwrap().status().is_success());
    let again = respond(id).await.unwrap();
    assert_eq!(again.status(), 400);
    let edit = |content: &str| {
        let url = format!(
            "{}/api/v10/webhooks/{APP_ID}/token-{id}/messages/@original",
            fake.base_url
        );
        client
            .patch(url)
            .header("content-type", "application/json")
            .body(json!({"content": content}).to_string())
            .send()
    };
    assert!(edit("in time").await.unwrap().status().is_success());
    fake.advance(Duration::from_secs(15 * 60 + 1));
    let r = edit("too late").await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(code(r).await, 50027);
    let shown = fake.shown(360);
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(shown[0].content(), "in time");
}

/// The fake Discord holds the bot to Discord's rule on deferred answers: the first follow-up
/// after a deferred acknowledgement takes the acknowledgement's visibility whatever its own
/// flags, and deleting the deferred answer first changes nothing. So a private line sent as
/// that first follow-up after a public deferral shows to everyone (a violation); after a
/// first follow-up (here deleted at once), a follow-up's own flags hold; after a private
/// deferral, the first follow-up is private.
#[tokio::test]
async fn the_fake_gives_the_first_follow_up_the_deferrals_visibility() {
    let fake = FakeDiscord::start().await;
    let client = reqwest::Client::new();
    let who = Who::member(ASTRID, "Astrid");
    let base = fake.base_url.clone();
    let send = |method: reqwest::Method, path: String, body: serde_json::Value| {
        let request = client.request(method.clone(), format!("{base}/api/v10/{path}"));
        match method == reqwest::Method::DELETE {
            true => request.send(),
            false => request
                .header("content-type", "application/json")
                .body(body.to_string())
                .send(),
        }
    };
    let (post, delete) = (reqwest::Method::POST, reqwest::Method::DELETE);
    let callback = |id: u64| format!("interactions/{id}/token-{id}/callback");
    let webhook = |id: u64| format!("webhooks/{APP_ID}/token-{id}");
    // Public, then deleted, then a "private" refusal: it shows to everyone.
    let id = fake.command(&who, 365, "move", None, json!([]), &[]);
    send(post.clone(), callback(id), json!({"type": 5}))
        .await
        .unwrap();
    let r = send(
        delete.clone(),
        format!("{}/messages/@original", webhook(id)),
        json!({}),
    );
    assert!(r.await.unwrap().status().is_success());
    let refusal = json!({"content": "not your turn", "flags": 64});
    send(post.clone(), webhook(id), refusal).await.unwrap();
    let shown = fake.shown(365);
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(shown[0].content(), "not your turn");
    assert!(!shown[0].ephemeral());
    let violations = fake.take_violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(
        violations[0].contains("shows to everyone"),
        "{violations:?}"
    );
    // Public, a first follow-up deleted, then a private line: private.
    let id = fake.command(&who, 366, "move", None, json!([]), &[]);
    send(post.clone(), callback(id), json!({"type": 5}))
        .await
        .unwrap();
    let first = send(post.clone(), webhook(id), json!({"content": "..."}))
        .await
        .unwrap();
    let first = serde_json::from_slice::<serde_json::Value>(&first.bytes().await.unwrap()).unwrap()
        ["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = send(
        delete,
        format!("{}/messages/{first}", webhook(id)),
        json!({}),
    );
    assert!(r.await.unwrap().status().is_success());
    let refusal = json!({"content": "not your turn", "flags": 64});
    send(post.clone(), webhook(id), refusal).await.unwrap();
    // A press acknowledged with a deferred update: the same.
    let press = fake.click(&who, 366, 1, "tablut:accept:1");
    send(post.clone(), callback(press), json!({"type": 6}))
        .await
        .unwrap();
    let refusal = json!({"content": "not yours", "flags": 64});
    send(post.clone(), webhook(press), refusal).await.unwrap();
    assert_eq!(fake.shown(366).len(), 1, "{:#?}", fake.shown(366));
    assert_eq!(fake.shown(366)[0].content(), "not yours");
    assert_eq!(fake.take_violations().len(), 1);
    // Private: its first follow-up is private, whatever it asks.
    let id = fake.command(&who, 367, "move", None, json!([]), &[]);
    let private = json!({"type": 5, "data": {"flags": 64}});
    send(post.clone(), callback(id), private).await.unwrap();
    send(post, webhook(id), json!({"content": "yours alone"}))
        .await
        .unwrap();
    assert!(fake.shown(367).is_empty(), "{:#?}", fake.shown(367));
    assert!(fake.violations().is_empty());
}

both_backends! {
/// A row written before the handle on the interaction's response was the bot's alone (its
/// payload holding the interaction's application and token) is shown by the dispatcher's edit
/// of that response after an upgrade (whose migration gives it the bot's handle), once, and
/// never posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_stored_with_the_interactions_token_is_shown_by_its_edit(db: TestDb) {
    let s = setup(db, 395, true).await;
    let m = s.play(ASTRID, 395, "a4-a3").await;
    let rows = s.service.probe().notices_in(395).await.unwrap();
    let row = rows.iter().find(|r| r.id == m.report.notice).unwrap();
    let mut payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap();
    let expires_at = payload["answer"]["expires_at"].clone();
    assert!(expires_at.is_i64(), "{payload}");
    payload["answer"] = json!({
        "application": APP_ID,
        "token": format!("token-{}", m.interaction),
        "expires_at": expires_at,
    });
    // Still held for the handler, which died before its edit (the dispatcher has not taken it).
    let stored = sqlx::query("UPDATE outbox SET payload = $1 WHERE id = $2 AND status = 'held'")
        .bind(payload.to_string())
        .bind(row.id)
        .execute(s.service.store().pool())
        .await
        .unwrap();
    assert_eq!(stored.rows_affected(), 1);
    // The upgrade's migration gives it the bot's handle.
    crate::support::migrate_again(s.service.store(), "0024_outbox_payloads.sql").await;
    s.service.outbox().answer_failed(row.id).await.unwrap();
    let shown = s.shown(395, "a4-a3").await;
    assert_eq!(shown.len(), 1, "{shown:#?}");
    let statuses: Vec<u16> = s.fake.edits(m.interaction).iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200], "the dispatcher's edit, with the stored token");
    assert!(s.posts(395).is_empty());
    assert_eq!(s.status(395, row.id).await, NoticeStatus::Delivered);
    s.stop().await;
}
}
