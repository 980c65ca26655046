//! A commit whose outcome is unknown (the connection lost during COMMIT: `Store::fail_next_commit`)
//! is looked up before anything is told, for every change a player is answered about, on both
//! backends: landed, it is answered as usual, its notice written once; lost, it is the error and
//! nothing of it stays; sent again, it lands. (Moves and game endings: `tests/service/outbox.rs`.)

use crate::support::fixture::{challenge_request, Fixture};
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::bot::messages::{plain_name, record_tags, FORMER_PLAYER_NAME};
use tablut_bot::both_backends;
use tablut_bot::service::puzzle::{PuzzleVerdict, ReplyTo};
use tablut_bot::service::*;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::{self, CommitFault};
use tablut_bot::tafl::{Game, Preset, Rules, Side};

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;

async fn fixture(db: TestDb) -> Fixture {
    let config = Config {
        images: false,
        ai_time: [Duration::from_millis(50); 3],
        ai_workers: 1,
        ai_tt_mb: 2,
        ai_game_cooldown: Duration::ZERO,
        open_challenges_per_user: 0,
        challenges_received: 0,
        ..Config::default()
    };
    Fixture::open(db, config).await
}

fn place(channel: u64) -> Place {
    Place {
        guild: Some(GUILD),
        channel,
    }
}

fn astrid() -> User {
    User::new(ASTRID, "Astrid")
}

fn birger() -> User {
    User::new(BIRGER, "Birger")
}

fn answering(token: &str) -> Option<Answer> {
    Some(Answer::Command(AnswerRef::new(format!("7/{token}"))))
}

fn reply_to(channel: u64, token: &str) -> ReplyTo {
    ReplyTo {
        channel,
        answer: Answer::Private(AnswerRef::new(format!("7/{token}"))),
    }
}

/// The kinds of the notices written for `channel`, in order.
async fn kinds(s: &Service, channel: u64) -> Vec<String> {
    let notices = s.probe().notices_in(channel).await.unwrap();
    notices.into_iter().map(|n| n.kind).collect()
}

/// Asserts that `notice` is `channel`'s last notice, of `kind`, and that the channel's notices
/// are then `count`.
async fn told_once(s: &Service, channel: u64, notice: Option<NoticeId>, kind: &str, count: usize) {
    let notices = s.probe().notices_in(channel).await.unwrap();
    assert_eq!(notices.len(), count, "{:?}", kinds(s, channel).await);
    let last = notices.last().unwrap();
    assert_eq!((Some(last.id), last.kind.as_str()), (notice, kind));
}

/// The error of a change whose commit did not land.
fn assert_lost<T: std::fmt::Debug>(result: Result<T, ServiceError>) {
    let e = result.unwrap_err();
    assert!(matches!(e, ServiceError::Database(_)), "{e:?}");
}

fn fail_next(s: &Service, fault: CommitFault) {
    s.store().fail_next_commit(fault);
}

async fn status(s: &Service, id: ChallengeId) -> ChallengeStatus {
    s.games().challenge_info(id).await.unwrap().status
}

both_backends! {
#[tokio::test]
async fn challenges_made_answered_and_expired_are_looked_up_when_their_commit_is_unknown(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let games = s.games();
    let request = |channel| challenge_request(place(channel), astrid(), birger());
    // Made: lost, then sent again; landed.
    fail_next(s, CommitFault::Lost);
    assert_lost(games.challenge(request(10), answering("c1")).await);
    assert!(kinds(s, 10).await.is_empty());
    let (c, notice) = games.challenge(request(10), answering("c2")).await.unwrap().done;
    told_once(s, 10, notice, "challenge", 1).await;
    fail_next(s, CommitFault::Landed);
    let (landed, notice) = games.challenge(request(11), answering("c3")).await.unwrap().done;
    told_once(s, 11, notice, "challenge", 1).await;
    assert_eq!(status(s, landed.id).await, ChallengeStatus::Pending);
    // Without a notice, the challenge itself is looked for.
    fail_next(s, CommitFault::Landed);
    let (quiet, _) = games.challenge(request(12), None).await.unwrap().done;
    assert_eq!(status(s, quiet.id).await, ChallengeStatus::Pending);
    fail_next(s, CommitFault::Lost);
    assert_lost(games.challenge(request(13), None).await);
    assert!(matches!(games.check_challenge(&request(13)).await, Ok(())));

    // Accepted: lost, the challenge stays open and no game starts; sent again, landed.
    fail_next(s, CommitFault::Lost);
    assert_lost(games.accept(c.id, BIRGER, None, answering("a1")).await);
    assert_eq!(status(s, c.id).await, ChallengeStatus::Pending);
    assert!(games.game_in_channel(10).await.unwrap().is_none());
    fail_next(s, CommitFault::Landed);
    let started = games.accept(c.id, BIRGER, None, answering("a2")).await.unwrap().done;
    told_once(s, 10, started.notice, "accepted", 2).await;
    assert_eq!(games.game_in_channel(10).await.unwrap().map(|g| g.id), Some(started.game.id));
    fail_next(s, CommitFault::Landed);
    let quiet = games.accept(quiet.id, BIRGER, None, None).await.unwrap().done;
    assert_eq!(games.game_in_channel(12).await.unwrap().map(|g| g.id), Some(quiet.game.id));

    // Declined and withdrawn.
    fail_next(s, CommitFault::Lost);
    assert_lost(games.decline(landed.id, BIRGER, answering("d1")).await);
    assert_eq!(status(s, landed.id).await, ChallengeStatus::Pending);
    assert_eq!(kinds(s, 11).await.len(), 1);
    fail_next(s, CommitFault::Landed);
    let (declined, notice) = games.decline(landed.id, BIRGER, answering("d2")).await.unwrap().done;
    assert_eq!(declined.status, ChallengeStatus::Declined);
    told_once(s, 11, notice, "challenge_closed", 2).await;
    let (open, _) = games.challenge(request(14), None).await.unwrap().done;
    fail_next(s, CommitFault::Lost);
    assert_lost(games.cancel(open.id, ASTRID, None).await);
    assert_eq!(status(s, open.id).await, ChallengeStatus::Pending);
    fail_next(s, CommitFault::Landed);
    let (cancelled, _) = games.cancel(open.id, ASTRID, None).await.unwrap().done;
    assert_eq!(cancelled.status, ChallengeStatus::Cancelled);

    // Expired when answered past its time: lost, still open; then the expiry lands, told once.
    let (old, _) = games.challenge(request(15), None).await.unwrap().done;
    f.clock.advance(f.config.challenge_ttl + Duration::from_secs(1));
    fail_next(s, CommitFault::Lost);
    assert_lost(games.accept(old.id, BIRGER, None, None).await);
    assert_eq!(status(s, old.id).await, ChallengeStatus::Pending);
    assert!(kinds(s, 15).await.is_empty());
    fail_next(s, CommitFault::Landed);
    assert!(matches!(
        games.accept(old.id, BIRGER, None, None).await,
        Err(ServiceError::ChallengeExpired)
    ));
    assert_eq!(status(s, old.id).await, ChallengeStatus::Expired);
    assert_eq!(kinds(s, 15).await, ["challenge_expired"]);
}
}

both_backends! {
#[tokio::test]
async fn games_against_the_ai_and_draw_offers_are_looked_up_when_their_commit_is_unknown(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let games = s.games();
    // A game against the AI: lost, none in the channel; sent again, it starts; landed, as usual.
    let request = |channel| AiGameRequest {
        place: place(channel),
        user: astrid(),
        side: SideChoice::Attackers,
        level: Level::Easy,
        rules: Rules::default(),
        time_control: TimeControl::None,
        start: None,
    };
    fail_next(s, CommitFault::Lost);
    assert_lost(games.start_ai_game(request(20), answering("s1")).await);
    assert!(games.game_in_channel(20).await.unwrap().is_none());
    assert!(kinds(s, 20).await.is_empty());
    games.start_ai_game(request(20), answering("s2")).await.unwrap();
    fail_next(s, CommitFault::Landed);
    let started = games.start_ai_game(request(21), answering("s3")).await.unwrap().done;
    told_once(s, 21, started.notice, "started", 1).await;
    fail_next(s, CommitFault::Landed);
    let quiet = games.start_ai_game(request(22), None).await.unwrap().done;
    assert_eq!(games.game_in_channel(22).await.unwrap().map(|g| g.id), Some(quiet.game.id));

    // Draw offers between people, and their answers.
    let (c, _) = games
        .challenge(challenge_request(place(23), astrid(), birger()), None)
        .await
        .unwrap()
        .done;
    games.accept(c.id, BIRGER, None, None).await.unwrap();
    let before = kinds(s, 23).await.len();
    fail_next(s, CommitFault::Lost);
    assert_lost(games.offer_draw(23, ASTRID, answering("o1")).await);
    games.check_offer_draw(23, ASTRID).await.unwrap();
    assert_eq!(kinds(s, 23).await.len(), before);
    fail_next(s, CommitFault::Landed);
    let (_, notice) = games.offer_draw(23, ASTRID, answering("o2")).await.unwrap().done;
    told_once(s, 23, notice, "draw_offer", before + 1).await;
    let game = games.game_in_channel(23).await.unwrap().unwrap().id;
    fail_next(s, CommitFault::Lost);
    assert_lost(games.respond_to_draw(23, BIRGER, false, answering("n1")).await);
    games.check_respond_to_draw(23, game, BIRGER).await.unwrap();
    fail_next(s, CommitFault::Landed);
    let declined = games.respond_to_draw(23, BIRGER, false, answering("n2")).await.unwrap().done;
    let DrawDecision::Declined(_, notice) = declined else {
        panic!("declined, not {declined:?}");
    };
    told_once(s, 23, notice, "draw_declined", before + 2).await;
    // Without notices, the offer itself is looked for.
    fail_next(s, CommitFault::Landed);
    games.offer_draw(23, BIRGER, None).await.unwrap();
    fail_next(s, CommitFault::Landed);
    let declined = games.respond_to_draw(23, ASTRID, false, None).await.unwrap().done;
    assert!(matches!(declined, DrawDecision::Declined(_, None)));
    assert!(matches!(
        games.check_respond_to_draw(23, game, ASTRID).await,
        Err(ServiceError::NoDrawOffer)
    ));
    assert_eq!(kinds(s, 23).await.len(), before + 2);
}
}

both_backends! {
#[tokio::test]
async fn puzzle_tries_and_answers_are_looked_up_when_their_commit_is_unknown(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let puzzles = s.puzzles();
    puzzles.seed().await.unwrap();
    // A try started: lost, none under way; sent again, landed, shown once.
    fail_next(s, CommitFault::Lost);
    assert_lost(puzzles.puzzle(GUILD, &astrid(), Some(&reply_to(30, "p1"))).await);
    assert!(kinds(s, 30).await.is_empty());
    fail_next(s, CommitFault::Landed);
    let view = puzzles.puzzle(GUILD, &astrid(), Some(&reply_to(30, "p2"))).await.unwrap().done;
    told_once(s, 30, view.notice, "puzzle_shown", 1).await;
    let puzzle = store::puzzles::by_id(s.store().pool(), view.puzzle_id).await.unwrap().unwrap();
    let solution = puzzle.line.split_whitespace().next().unwrap().to_string();
    // Its answer: lost, the try as it was; sent again, landed, told once.
    fail_next(s, CommitFault::Lost);
    assert_lost(puzzles.puzzle_move(GUILD, &astrid(), &solution, Some(&reply_to(30, "m1"))).await);
    assert_eq!(kinds(s, 30).await.len(), 1);
    let again = puzzles.puzzle(GUILD, &astrid(), None).await.unwrap().done;
    assert_eq!((again.puzzle_id, again.step), (view.puzzle_id, 1));
    fail_next(s, CommitFault::Landed);
    let answer = puzzles
        .puzzle_move(GUILD, &astrid(), &solution, Some(&reply_to(30, "m2")))
        .await
        .unwrap()
        .done;
    assert!(!matches!(answer, PuzzleVerdict::Failed { .. }), "{answer:?}");
    told_once(s, 30, answer.key().notice, "puzzle_answer", 2).await;
    // Without notices, the try itself is looked for.
    fail_next(s, CommitFault::Landed);
    let view = puzzles.puzzle(GUILD, &birger(), None).await.unwrap().done;
    assert_eq!(view.step, 1);
    let puzzle = store::puzzles::by_id(s.store().pool(), view.puzzle_id).await.unwrap().unwrap();
    let first = puzzle.line.split_whitespace().next().unwrap().to_string();
    fail_next(s, CommitFault::Landed);
    puzzles.puzzle_move(GUILD, &birger(), &first, None).await.unwrap();
    // The daily channel named.
    fail_next(s, CommitFault::Lost);
    assert_lost(puzzles.set_daily_channel(GUILD, Some(31), ASTRID, Some(&reply_to(32, "d1"))).await);
    fail_next(s, CommitFault::Landed);
    let (had, notice) = puzzles
        .set_daily_channel(GUILD, Some(31), ASTRID, Some(&reply_to(32, "d2")))
        .await
        .unwrap()
        .done;
    assert!(had);
    told_once(s, 32, notice, "daily_channel", 1).await;
    fail_next(s, CommitFault::Landed);
    assert_eq!(puzzles.set_daily_channel(GUILD, None, ASTRID, None).await.unwrap().done, (true, None));
}
}

both_backends! {
#[tokio::test]
async fn imports_and_forgetting_are_looked_up_when_their_commit_is_unknown(db: TestDb) {
    use tablut_bot::service::records;
    use tablut_bot::tafl::{write_record, RecordFormat, RecordTags};
    let f = fixture(db).await;
    let s = &f.service;
    let mut g = Game::new(Preset::CopenhagenHnefataflOrg.rules());
    for m in ["a4-b4", "e5-e3", "b4-c4"] {
        g.play_text(m).unwrap();
    }
    g.resign(Side::Defenders).unwrap();
    let tags = RecordTags {
        attackers: Some("Ingrid".into()),
        ..RecordTags::default()
    };
    let read = records::read(&write_record(&g, RecordFormat::OpenTafl, &tags)).unwrap();
    let games_in = |channel: u64| async move {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE channel_id = $1")
            .bind(channel as i64)
            .fetch_one(s.store().pool())
            .await
            .unwrap();
        count
    };
    // An import: lost, no game; landed, kept once; sent again, kept.
    fail_next(s, CommitFault::Lost);
    assert_lost(s.games().import_finished(40, &astrid(), &read).await);
    assert_eq!(games_in(40).await, 0);
    fail_next(s, CommitFault::Landed);
    let id = s.games().import_finished(40, &astrid(), &read).await.unwrap();
    assert_eq!(games_in(40).await, 1);
    assert_eq!(s.games().export(40, RecordFormat::Tafl, record_tags).await.unwrap().0.id, id);
    s.games().import_finished(41, &astrid(), &read).await.unwrap();
    assert_eq!(games_in(41).await, 1);
    // Forgetting: lost, her names stay and nothing is told; landed, told once.
    let names = || async { s.privacy().stored(&astrid()).await.unwrap().names };
    assert!(names().await.contains(&"Ingrid".to_string()));
    fail_next(s, CommitFault::Lost);
    assert_lost(s.privacy().forget(&astrid(), Some(&reply_to(42, "f1"))).await);
    assert!(names().await.contains(&"Ingrid".to_string()));
    assert!(kinds(s, 42).await.is_empty());
    fail_next(s, CommitFault::Landed);
    let forgotten = s.privacy().forget(&astrid(), Some(&reply_to(42, "f2"))).await.unwrap().done;
    // Both seats of both games were hers.
    assert_eq!(forgotten.games, 4);
    told_once(s, 42, forgotten.notice, "forgotten", 1).await;
    assert!(names().await.is_empty());
    let kept = s.games().export(40, RecordFormat::Tafl, record_tags).await.unwrap().0;
    assert_eq!(plain_name(&kept.attackers), FORMER_PLAYER_NAME);
    // Without a notice, her names are looked for.
    s.games().import_finished(43, &birger(), &read).await.unwrap();
    fail_next(s, CommitFault::Landed);
    let forgotten = s.privacy().forget(&birger(), None).await.unwrap().done;
    assert_eq!((forgotten.games, forgotten.notice), (2, None));
}
}
