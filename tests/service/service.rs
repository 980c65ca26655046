//! The game service on both backends (a SQLite file in a temporary directory, a fresh PostgreSQL
//! database): whole games to every ending, restarts, concurrency, every refusal, the AI, time
//! control and ratings.

use crate::support::fixture::{ai_game_request, challenge_request};
use crate::support::fixture::{Fixture, T0};
use std::sync::Arc;
use std::time::Duration;
use tablut_bot::ai::Level;
use tablut_bot::bot::messages::{board_caption, plain_name, record_tags, refusal};
use tablut_bot::both_backends;
use tablut_bot::rating::{rate_game, Rating, Score};
use tablut_bot::service::*;
use tablut_bot::store;
use tablut_bot::store::testdb::TestDb;
use tablut_bot::store::Backend;
use tablut_bot::tafl::{
    parse_position, write_position, Game, Outcome, Position, Reason, Rules, Side, Variant,
};

const GUILD: u64 = 900_000_000_000_000_001;
/// Ids above i64::MAX check that ids are stored losslessly.
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 18_000_000_000_000_000_002;
const CARL: u64 = 3;

fn config(images: bool) -> Config {
    Config {
        ai_time: [Duration::from_millis(100); 3],
        hint_time: Duration::from_millis(100),
        hint_cooldown: Duration::from_secs(30),
        challenge_ttl: Duration::from_secs(24 * 3600),
        images,
        ai_tt_mb: 4,
        ai_game_cooldown: Duration::ZERO,
        ..Config::default()
    }
}

async fn fixture(db: TestDb) -> Fixture {
    fixture_with(db, false).await
}

async fn fixture_with(db: TestDb, images: bool) -> Fixture {
    Fixture::open(db, config(images)).await
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

fn request(channel: u64, side: SideChoice) -> ChallengeRequest {
    ChallengeRequest {
        side,
        ..challenge_request(place(channel), astrid(), birger())
    }
}

/// Astrid's challenge `request` (she attacks) made and accepted by Birger: the game started.
async fn accepted(s: &Service, request: ChallengeRequest) -> GameInfo {
    let c = s.games().challenge(request, None).await.unwrap().done.0;
    let started = s
        .games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done;
    assert_eq!(started.game.attackers.user_id(), Some(ASTRID));
    assert_eq!(started.game.defenders.user_id(), Some(BIRGER));
    assert_eq!(started.game.rated, c.rated);
    started.game
}

/// Astrid (attackers) against Birger (defenders) in `channel`, from `start` if given.
async fn game_between(s: &Service, channel: u64, start: Option<Position>) -> GameInfo {
    let request = ChallengeRequest {
        start,
        ..request(channel, SideChoice::Attackers)
    };
    accepted(s, request).await
}

/// A casual game (`rated:false`) between Astrid (attackers) and Birger in `channel`.
async fn casual_game(s: &Service, channel: u64) -> GameInfo {
    let request = ChallengeRequest {
        rated: false,
        ..request(channel, SideChoice::Attackers)
    };
    let game = accepted(s, request).await;
    assert!(!game.rated && game.is_casual());
    game
}

fn position(record: &str, turn: Side) -> Position {
    parse_position(record, turn, Rules::default()).unwrap()
}

/// The user to move in `game`.
fn mover(game: &GameInfo) -> u64 {
    game.to_move().unwrap().user_id().unwrap()
}

/// The stored game rebuilt from its moves alone agrees with the service and the cache.
async fn check_store(s: &Service, id: GameId) -> Game {
    let row = store::games::by_id(s.store().pool(), id)
        .await
        .unwrap()
        .unwrap();
    let moves = store::moves::of_game(s.store().pool(), id).await.unwrap();
    let info = s.games().game(id).await.unwrap();
    let mut game = Game::from_position(info.start);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.ply as usize, i + 1, "plies are consecutive");
        game.play_text(&m.notation).unwrap();
    }
    assert_eq!(row.ply as usize, moves.len());
    assert_eq!(row.position, write_position(game.position()));
    game
}

both_backends! {
#[tokio::test]
async fn migrations_apply_to_an_empty_database_and_again_at_each_start(db: TestDb) {
    let f = fixture(db).await;
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(f.service.store().pool())
        .await
        .unwrap();
    let dir = match f.db.backend {
        Backend::Sqlite => "migrations/sqlite",
        Backend::Postgres => "migrations/postgres",
    };
    let files = std::fs::read_dir(dir).unwrap().count() as i64;
    assert_eq!(applied, files);
    if f.db.backend == Backend::Sqlite {
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(f.service.store().pool())
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(f.service.store().pool())
            .await
            .unwrap();
        assert_eq!(fk, 1);
    }
    game_between(&f.service, 1, None).await;
    let f = f.reopen().await;
    let again: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(f.service.store().pool())
        .await
        .unwrap();
    assert_eq!(again, files);
    assert!(f.service.games().game_in_channel(1).await.unwrap().is_some());
}
}

both_backends! {
#[tokio::test]
async fn a_whole_game_from_the_start_ends_in_a_repetition_draw_and_is_rated(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let game = game_between(s, 10, None).await;
    assert!(game.rated);
    let mut last = None;
    for (user, text) in [
        (ASTRID, "a4-a3"),
        (BIRGER, "e3 d3"),
        (ASTRID, "A3A4"),
        (BIRGER, "d3-e3"),
    ] {
        last = Some(s.games().play_move(10, user, text, Answer::None).await.unwrap().done);
    }
    let last = last.unwrap();
    assert_eq!(
        last.game.outcome,
        Outcome::Drawn {
            reason: Reason::Repetition
        }
    );
    assert_eq!(last.notation, "d3-e3");
    let ratings = last.ratings.expect("a rated game between two people");
    assert_eq!(ratings.attackers.1, Rating::default());
    let (a, d) = rate_game(Rating::default(), Rating::default(), Score::Draw);
    assert_eq!((ratings.attackers.2, ratings.defenders.2), (a, d));
    let history = s.games().history(10).await.unwrap();
    assert_eq!(history.record, "1. a4-a3 e3-d3  2. a3-a4 d3-e3");
    assert!(
        s.games().game_in_channel(10).await.unwrap().is_none(),
        "the channel is free again"
    );
    assert!(matches!(
        s.games().play_move(10, ASTRID, "a4-a3", Answer::None).await,
        Err(ServiceError::GameOver)
    ));
    check_store(s, game.id).await;
    // A new game can start in the channel.
    game_between(s, 10, None).await;
}
}

both_backends! {
#[tokio::test]
async fn the_king_escapes(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let start = position("/9/9/4K4/9/9/9/9/9/t7t/", Side::Defenders);
    let game = game_between(s, 11, Some(start)).await;
    let r = s.games().play_move(11, BIRGER, "e3-e1", Answer::None).await.unwrap().done;
    assert_eq!(r.notation, "e3-e1++");
    assert_eq!(
        r.game.outcome,
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::KingEscaped
        }
    );
    assert!(board_caption(&r.game).contains("Defenders win"));
    let ratings = r.ratings.unwrap();
    assert!(ratings.defenders.2.rating > 1500.0 && ratings.attackers.2.rating < 1500.0);
    check_store(s, game.id).await;
}
}

both_backends! {
#[tokio::test]
async fn the_king_is_captured(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let start = position("/3t5/9/1tK6/9/9/9/9/9/t8/", Side::Attackers);
    game_between(s, 12, Some(start)).await;
    let r = s.games().play_move(12, ASTRID, "d1-d3", Answer::None).await.unwrap().done;
    assert_eq!(
        r.game.outcome,
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::KingCaptured
        }
    );
    assert!(r.recorded.king_captured);
}
}

both_backends! {
#[tokio::test]
async fn a_side_without_a_legal_move_loses(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let start = position("/tT7/T8/9/9/4K4/9/9/9/9/", Side::Defenders);
    game_between(s, 13, Some(start)).await;
    let r = s.games().play_move(13, BIRGER, "e5-e6", Answer::None).await.unwrap().done;
    assert_eq!(
        r.game.outcome,
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::NoMoves
        }
    );
}
}

both_backends! {
#[tokio::test]
async fn resignation_ends_the_game_and_moves_ratings_to_known_glicko2_values(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let game = game_between(s, 14, None).await;
    s.games().play_move(14, ASTRID, "a4-a3", Answer::None).await.unwrap();
    assert!(matches!(
        s.games().resign(14, CARL, None).await,
        Err(ServiceError::NotAPlayer)
    ));
    let ended = s.games().resign(14, BIRGER, None).await.unwrap().done;
    assert_eq!(
        ended.game.outcome,
        Outcome::Won {
            winner: Side::Attackers,
            reason: Reason::Resigned
        }
    );
    // Two new players (1500, RD 350, σ 0.06), one game: Glicko-2 gives the winner 1662.3 and
    // the loser 1337.7, both with RD 290.3.
    let r = ended.ratings.unwrap();
    assert!((r.attackers.2.rating - 1662.31).abs() < 0.05, "{:?}", r);
    assert!((r.defenders.2.rating - 1337.69).abs() < 0.05, "{:?}", r);
    assert!((r.attackers.2.deviation - 290.32).abs() < 0.05, "{:?}", r);
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert_eq!((stats.games, stats.wins_as_attackers), (1, 1));
    assert_eq!(stats.rating(Variant::Tablut).unwrap().rating.rating, r.attackers.2.rating);
    assert_eq!(stats.recent[0].reason, "resigned");
    let stats = s.games().stats(GUILD, BIRGER, 5).await.unwrap();
    assert_eq!((stats.games, stats.losses_as_defenders), (1, 1));
    assert_eq!(stats.recent[0].result, "loss");
    check_store(s, game.id).await;
}
}

both_backends! {
#[tokio::test]
async fn a_draw_offer_is_answered_by_the_opponent_only(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    game_between(s, 15, None).await;
    assert!(matches!(
        s.games().respond_to_draw(15, BIRGER, true, None).await,
        Err(ServiceError::NoDrawOffer)
    ));
    s.games().offer_draw(15, ASTRID, None).await.unwrap();
    assert!(matches!(
        s.games().offer_draw(15, BIRGER, None).await,
        Err(ServiceError::DrawOfferOpen)
    ));
    assert!(matches!(
        s.games().respond_to_draw(15, ASTRID, true, None).await,
        Err(ServiceError::OwnDrawOffer)
    ));
    assert!(matches!(
        s.games().respond_to_draw(15, BIRGER, false, None).await.unwrap().done,
        DrawDecision::Declined(..)
    ));
    // A move lets an open offer lapse.
    s.games().offer_draw(15, ASTRID, None).await.unwrap();
    s.games().play_move(15, ASTRID, "a4-a3", Answer::None).await.unwrap();
    assert!(matches!(
        s.games().respond_to_draw(15, BIRGER, true, None).await,
        Err(ServiceError::NoDrawOffer)
    ));
    s.games().offer_draw(15, BIRGER, None).await.unwrap();
    let DrawDecision::Accepted(ended) = s.games().respond_to_draw(15, ASTRID, true, None).await.unwrap().done else {
        panic!("accepted")
    };
    assert_eq!(
        ended.game.outcome,
        Outcome::Drawn {
            reason: Reason::DrawAgreed
        }
    );
    assert!(ended.ratings.is_some());
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn accept_and_decline_pressed_together_take_the_draw_offer_once(db: TestDb) {
    let clock = ManualClock::new(T0);
    let s = Arc::new(
        Service::open(&db.url, config(false), Arc::new(clock))
            .await
            .unwrap(),
    );
    let (mut accepted, mut declined) = (0, 0);
    for channel in 100..130u64 {
        let game = game_between(&s, channel, None).await;
        s.games().offer_draw(channel, ASTRID, None).await.unwrap();
        let (a, d) = (s.clone(), s.clone());
        let accept = tokio::spawn(async move { a.games().respond_to_draw(channel, BIRGER, true, None).await.map(|r| r.done) });
        let decline = tokio::spawn(async move { d.games().respond_to_draw(channel, BIRGER, false, None).await.map(|r| r.done) });
        let (accept, decline) = (accept.await.unwrap(), decline.await.unwrap());
        let after = s.games().game(game.id).await.unwrap();
        let status: String =
            sqlx::query_scalar("SELECT status FROM draw_offers WHERE game_id = $1")
                .bind(game.id)
                .fetch_one(s.store().pool())
                .await
                .unwrap();
        match (&accept, &decline) {
            (Ok(DrawDecision::Accepted(_)), Err(_)) => {
                accepted += 1;
                assert_eq!(
                    after.outcome,
                    Outcome::Drawn {
                        reason: Reason::DrawAgreed
                    }
                );
                assert_ne!(status, "declined", "the drawn game's offer was declined");
            }
            (Err(e), Ok(DrawDecision::Declined(..))) => {
                declined += 1;
                assert!(!e.is_internal(), "{e:?}");
                assert!(!after.is_over(), "declined, yet the game ended: {after:?}");
                assert_eq!(status, "declined");
            }
            other => panic!("exactly one answer takes the offer: {other:?}"),
        }
    }
    eprintln!("{accepted} accepted, {declined} declined");
}
}

both_backends! {
#[tokio::test]
async fn abort_is_for_players_before_the_second_move_and_for_moderators(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    game_between(s, 16, None).await;
    assert!(matches!(
        s.games().abort(16, CARL, false, None).await,
        Err(ServiceError::NotAPlayer)
    ));
    s.games().play_move(16, ASTRID, "a4-a3", Answer::None).await.unwrap();
    let ended = s.games().abort(16, BIRGER, false, None).await.unwrap().done;
    assert_eq!(ended.game.outcome.reason(), Some(Reason::Aborted));
    assert!(ended.ratings.is_none(), "an aborted game is unrated");

    game_between(s, 16, None).await;
    s.games().play_move(16, ASTRID, "a4-a3", Answer::None).await.unwrap();
    s.games().play_move(16, BIRGER, "e3-d3", Answer::None).await.unwrap();
    assert!(matches!(
        s.games().abort(16, ASTRID, false, None).await,
        Err(ServiceError::TooLateToAbort)
    ));
    let ended = s.games().abort(16, CARL, true, None).await.unwrap().done;
    assert_eq!(ended.game.outcome.reason(), Some(Reason::Aborted));
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert_eq!(stats.games, 0, "aborted games do not count");
    assert!(stats.ratings.is_empty());
}
}

both_backends! {
#[tokio::test]
async fn every_refusal_is_typed_and_changes_nothing(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    assert!(matches!(
        s.games().play_move(20, ASTRID, "a4-a3", Answer::None).await,
        Err(ServiceError::NoGame)
    ));
    assert!(matches!(s.games().board(20).await, Err(ServiceError::NoGame)));
    let self_challenge = ChallengeRequest {
        opponent: astrid(),
        ..request(20, SideChoice::Random)
    };
    assert!(matches!(
        s.games().challenge(self_challenge, None).await,
        Err(ServiceError::SelfChallenge)
    ));
    let bot = ChallengeRequest {
        opponent_is_bot: true,
        ..request(20, SideChoice::Random)
    };
    assert!(matches!(
        s.games().challenge(bot, None).await,
        Err(ServiceError::OpponentIsBot)
    ));

    let game = game_between(s, 20, None).await;
    assert!(matches!(
        s.games().challenge(request(20, SideChoice::Random), None).await,
        Err(ServiceError::GameRunning)
    ));
    assert!(matches!(
        s.games().play_move(20, CARL, "a4-a3", Answer::None).await,
        Err(ServiceError::NotAPlayer)
    ));
    assert!(matches!(
        s.games().play_move(20, BIRGER, "e3-d3", Answer::None).await,
        Err(ServiceError::NotYourTurn(Side::Attackers))
    ));
    let err = s.games().play_move(20, ASTRID, "d1-d6", Answer::None).await.unwrap_err();
    assert!(matches!(err, ServiceError::IllegalMove(_)));
    assert_eq!(
        refusal(&err),
        "That move is not legal: the path from d1 to d6 is blocked by the piece on d5."
    );
    assert!(matches!(
        s.games().play_move(20, ASTRID, "zz9", Answer::None).await,
        Err(ServiceError::IllegalMove(_))
    ));
    assert!(matches!(
        s.games().play_move(20, ASTRID, "", Answer::None).await,
        Err(ServiceError::IllegalMove(_))
    ));
    assert_eq!(
        check_store(s, game.id).await.moves().len(),
        0,
        "nothing was played"
    );
    // Every message is one line.
    for e in [
        ServiceError::NoGame,
        ServiceError::GameRunning,
        ServiceError::NotAPlayer,
        err,
    ] {
        assert!(!refusal(&e).contains('\n') && !e.is_internal());
    }
}
}

both_backends! {
#[tokio::test]
async fn challenges_are_answered_by_the_challenged_only_and_expire(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let c = s.games().challenge(request(30, SideChoice::Random), None).await.unwrap().done.0;
    assert_eq!(c.status, ChallengeStatus::Pending);
    assert!(matches!(
        s.games().challenge(request(30, SideChoice::Random), None).await,
        Err(ServiceError::ChallengeOpen)
    ));
    assert!(matches!(
        s.games().accept(c.id, ASTRID, None, None).await,
        Err(ServiceError::ChallengeNotYours)
    ));
    assert!(matches!(
        s.games().accept(c.id, CARL, None, None).await,
        Err(ServiceError::ChallengeNotYours)
    ));
    assert!(matches!(
        s.games().cancel(c.id, BIRGER, None).await,
        Err(ServiceError::NotYourChallenge)
    ));
    let declined = s.games().decline(c.id, BIRGER, None).await.unwrap().done.0;
    assert_eq!(declined.status, ChallengeStatus::Declined);
    assert!(matches!(
        s.games().accept(c.id, BIRGER, None, None).await,
        Err(ServiceError::ChallengeClosed(_))
    ));

    let c = s.games().challenge(request(30, SideChoice::Random), None).await.unwrap().done.0;
    assert_eq!(
        s.games().cancel(c.id, ASTRID, None).await.unwrap().done.0.status,
        ChallengeStatus::Cancelled
    );

    let c = s.games().challenge(request(30, SideChoice::Random), None).await.unwrap().done.0;
    f.clock.advance(Duration::from_secs(24 * 3600));
    assert!(matches!(
        s.games().accept(c.id, BIRGER, None, None).await,
        Err(ServiceError::ChallengeExpired)
    ));
    assert!(s.games().game_in_channel(30).await.unwrap().is_none());

    // The clock expires open challenges and reports each once.
    let c = s.games().challenge(request(30, SideChoice::Random), None).await.unwrap().done.0;
    f.clock.advance(Duration::from_secs(23 * 3600));
    assert!(s.game_clock().tick().await.unwrap().is_empty());
    f.clock.advance(Duration::from_secs(3600));
    let events = s.game_clock().tick().await.unwrap();
    assert!(matches!(&events[..], [ClockEvent::ChallengeExpired(e)] if e.id == c.id));
    assert!(s.game_clock().tick().await.unwrap().is_empty());
    assert!(matches!(
        s.games().decline(c.id, BIRGER, None).await,
        Err(ServiceError::ChallengeExpired)
    ));
    assert!(matches!(
        s.games().accept(9999, BIRGER, None, None).await,
        Err(ServiceError::NoChallenge)
    ));
}
}

both_backends! {
#[tokio::test]
async fn a_challenge_accepted_after_another_game_started_is_refused_by_the_constraint(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let c = s.games().challenge(request(31, SideChoice::Random), None).await.unwrap().done.0;
    // Carl starts a game against the AI in the channel meanwhile.
    s.games().start_ai_game(ai_game_request(place(31), User::new(CARL, "Carl"), SideChoice::Attackers, Level::Easy), None)
    .await
    .unwrap();
    assert!(matches!(
        s.games().accept(c.id, BIRGER, None, None).await,
        Err(ServiceError::GameRunning)
    ));
    // Nothing changed: the challenge is still open.
    assert_eq!(
        s.games().challenge_info(c.id).await.unwrap().status,
        ChallengeStatus::Pending
    );
    // Accepted into a thread of its own, it starts there.
    let started = s.games().accept(c.id, BIRGER, Some(32), None).await.unwrap().done;
    assert_eq!(started.game.place.channel, 32);
    // The closed challenge names the game it started.
    let row = store::challenges::by_id(s.store().pool(), c.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (row.status.as_str(), row.game_id),
        ("accepted", Some(started.game.id))
    );
}
}

both_backends! {
#[tokio::test]
async fn a_game_survives_a_restart(db: TestDb) {
    let f = fixture(db).await;
    let game = game_between(&f.service, 40, None).await;
    f.service.games().play_move(40, ASTRID, "a4-a3", Answer::None).await.unwrap();
    f.service.games().play_move(40, BIRGER, "e3-d3", Answer::None).await.unwrap();
    let f = f.reopen().await;
    let board = f.service.games().board(40).await.unwrap();
    assert_eq!(board.game.ply, 2);
    assert_eq!(board.last.unwrap().to_string(), "e3-d3");
    f.service.games().play_move(40, ASTRID, "a3-a2", Answer::None).await.unwrap();
    let game = check_store(&f.service, game.id).await;
    assert_eq!(game.record(), "1. a4-a3 e3-d3  2. a3-a2");
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_moves_never_land_twice_and_none_is_lost(db: TestDb) {
    let f = fixture(db).await;
    let s = f.service.clone();
    let channels: Vec<u64> = (100..116).collect();
    let mut ids = Vec::new();
    for &ch in &channels {
        ids.push(game_between(&s, ch, None).await.id);
    }
    let plies = 12;
    let mut tasks = Vec::new();
    for &ch in &channels {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = fastrand::Rng::with_seed(ch);
            let mut applied = 0;
            let mut refused = 0;
            while applied < plies {
                let Some(game) = s.games().game_in_channel(ch).await.unwrap() else {
                    break;
                };
                let user = mover(&game);
                let moves = s.games().suggest_moves(ch, user, "", 400).await.unwrap();
                // Two different moves for the same turn, sent at once.
                let a = moves[rng.usize(..moves.len())].clone();
                let b = moves[rng.usize(..moves.len())].clone();
                let (ra, rb) = tokio::join!(s.games().play_move(ch, user, &a, Answer::None), s.games().play_move(ch, user, &b, Answer::None));
                // Both answers are counted before the game's end stops the loop: the move that
                // ended it may be either one.
                let mut over = false;
                for r in [ra, rb] {
                    match r {
                        Ok(_) => applied += 1,
                        Err(ServiceError::PositionChanged) | Err(ServiceError::NotYourTurn(_)) => {
                            refused += 1
                        }
                        Err(ServiceError::IllegalMove(_)) => refused += 1,
                        Err(ServiceError::GameOver) => over = true,
                        Err(e) => panic!("unexpected: {e:?}"),
                    }
                }
                if over {
                    break;
                }
            }
            (applied, refused)
        }));
    }
    let mut total_refused = 0;
    for (task, id) in tasks.into_iter().zip(ids) {
        let (applied, refused) = task.await.unwrap();
        total_refused += refused;
        let game = check_store(&s, id).await;
        assert_eq!(
            game.moves().len(),
            applied,
            "every acknowledged move is stored, once"
        );
    }
    assert!(total_refused > 0, "the race was exercised");
}
}

both_backends! {
#[tokio::test]
async fn games_against_the_ai_as_each_side(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let ai_game = |channel, side| AiGameRequest {
        place: place(channel),
        user: astrid(),
        side,
        level: Level::Easy,
        rules: Rules::default(),
        time_control: TimeControl::PerMove(Duration::from_secs(3600)),
        start: None,
    };
    // Astrid defends: the AI attacks and moves first.
    let started = s
        .games().start_ai_game(ai_game(50, SideChoice::Defenders), None)
        .await
        .unwrap()
        .done;
    assert!(!started.game.rated);
    assert_eq!(started.game.turn_deadline, None, "the AI has no clock");
    let reply = s
        .ai().turn(started.game.id)
        .await
        .unwrap()
        .expect("the AI moves");
    assert!(reply.by.is_ai());
    assert_eq!(reply.game.turn_deadline, Some(T0 + 3_600_000));
    assert!(
        s.ai().turn(started.game.id).await.unwrap().is_none(),
        "not its turn"
    );
    let moves = s.games().suggest_moves(50, ASTRID, "", 1).await.unwrap();
    s.games().play_move(50, ASTRID, &moves[0], Answer::None).await.unwrap();
    assert_eq!(
        s.ai().games_awaiting().await.unwrap(),
        vec![(started.game.id, 50)]
    );
    let reply = s.ai().turn(started.game.id).await.unwrap().unwrap();
    assert_eq!(reply.game.ply, 3);
    assert!(matches!(
        s.games().offer_draw(50, ASTRID, None).await,
        Err(ServiceError::AiDeclinesDraw)
    ));

    // Astrid attacks: her move first, then the AI's.
    let started = s
        .games().start_ai_game(ai_game(51, SideChoice::Attackers), None)
        .await
        .unwrap()
        .done;
    assert!(s.ai().turn(started.game.id).await.unwrap().is_none());
    s.games().play_move(51, ASTRID, "a4-a3", Answer::None).await.unwrap();
    let reply = s.ai().turn(started.game.id).await.unwrap().unwrap();
    assert_eq!(reply.recorded.side, Side::Defenders);
    check_store(s, started.game.id).await;
    let ended = s.games().resign(51, ASTRID, None).await.unwrap().done;
    assert!(ended.ratings.is_none(), "games against the AI are unrated");
}
}

both_backends! {
#[tokio::test]
async fn boards_are_real_pngs_and_replays_real_gifs(db: TestDb) {
    let f = fixture_with(db, true).await;
    let s = &f.service;
    game_between(s, 60, None).await;
    let r = s.games().play_move(60, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    let img = image::load_from_memory_with_format(&r.png, image::ImageFormat::Png).unwrap();
    assert_eq!(
        (img.width(), img.height()),
        (
            tablut_bot::render::BOARD_SIZE_PX,
            tablut_bot::render::BOARD_SIZE_PX
        )
    );
    let board = s.games().board(60).await.unwrap();
    assert_eq!(board.png, r.png, "the same position draws the same board");
    let (_, gif) = s.games().replay(60).await.unwrap();
    assert_eq!(&gif[..6], b"GIF89a");
    let frames = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
    use image::AnimationDecoder;
    assert_eq!(frames.into_frames().count(), 2, "the start and one ply");
}
}

both_backends! {
#[tokio::test]
async fn autocomplete_lists_the_callers_matching_moves(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    game_between(s, 70, None).await;
    let from_a4 = s.games().suggest_moves(70, ASTRID, "a4", 25).await.unwrap();
    assert_eq!(
        from_a4,
        ["a4-a1", "a4-a2", "a4-a3", "a4-b4", "a4-c4", "a4-d4"]
    );
    let to_c2 = s.games().suggest_moves(70, ASTRID, "c2", 25).await.unwrap();
    assert!(to_c2.contains(&"e2-c2".to_string()) && to_c2.iter().all(|m| m.contains("c2")));
    assert_eq!(
        s.games().suggest_moves(70, ASTRID, "A4-A", 25).await.unwrap(),
        ["a4-a1", "a4-a2", "a4-a3"]
    );
    assert_eq!(s.games().suggest_moves(70, ASTRID, "", 5).await.unwrap().len(), 5);
    assert!(
        s.games().suggest_moves(70, BIRGER, "e", 25)
            .await
            .unwrap()
            .is_empty(),
        "not his turn"
    );
    assert!(s
        .games().suggest_moves(70, ASTRID, "x9", 25)
        .await
        .unwrap()
        .is_empty());
}
}

both_backends! {
#[tokio::test]
async fn hints_are_legal_and_rate_limited(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    casual_game(s, 80).await;
    assert!(matches!(
        s.ai().hint(80, BIRGER).await,
        Err(ServiceError::NotYourTurn(_))
    ));
    let hint = s.ai().hint(80, ASTRID).await.unwrap();
    let legal = s.games().suggest_moves(80, ASTRID, "", 400).await.unwrap();
    assert!(legal.contains(&hint.best));
    assert!(matches!(
        s.ai().hint(80, ASTRID).await,
        Err(ServiceError::HintTooSoon(30))
    ));
    f.clock.advance(Duration::from_secs(30));
    assert!(s.ai().hint(80, ASTRID).await.is_ok());
}
}

both_backends! {
/// As on lichess: no engine help in a rated game between people (one line saying why, and the
/// refusal does not count against the hint's cooldown); a casual game allows hints and changes
/// no ratings, and a challenge is rated unless it says otherwise (challenges stored before
/// the choice existed read as rated).
#[tokio::test]
async fn hints_are_refused_in_rated_games_and_casual_games_change_no_ratings(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    let rated = game_between(s, 81, None).await;
    assert!(rated.rated && !rated.is_casual());
    let e = s.ai().hint(81, ASTRID).await.unwrap_err();
    assert!(matches!(e, ServiceError::HintInRatedGame), "{e:?}");
    assert!(!refusal(&e).contains('\n') && refusal(&e).contains("casual"));
    assert!(matches!(
        s.ai().hint(81, CARL).await,
        Err(ServiceError::NotAPlayer)
    ));
    // Casual: a hint, and the game ends with no rating change.
    casual_game(s, 82).await;
    assert!(s.ai().hint(82, ASTRID).await.is_ok(), "the rated refusal did not count");
    let ended = s.games().resign(82, BIRGER, None).await.unwrap().done;
    assert!(ended.ratings.is_none() && !ended.game.rated);
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert!(stats.ratings.is_empty(), "{:?}", stats.ratings);
    // The rated game still rates.
    let ended = s.games().resign(81, BIRGER, None).await.unwrap().done;
    assert!(ended.ratings.is_some());
    // A challenge stored before the column existed (no value given) reads as rated.
    sqlx::query(
        "INSERT INTO challenges (channel_id, challenger_id, challenger_name, challenged_id, \
         challenged_name, side, rules, created_at, expires_at) \
         VALUES (83, 1, 'A', 2, 'B', 'random', $1, 0, $2)",
    )
    .bind(serde_json::to_string(&Rules::default()).unwrap())
    .bind(T0 + 1_000_000)
    .execute(s.store().pool())
    .await
    .unwrap();
    let id: i64 = sqlx::query_scalar("SELECT MAX(id) FROM challenges")
        .fetch_one(s.store().pool())
        .await
        .unwrap();
    assert!(store::challenges::by_id(s.store().pool(), id).await.unwrap().unwrap().rated);
}
}

both_backends! {
#[tokio::test]
async fn reminders_come_once_each_and_time_runs_out_even_across_a_restart(db: TestDb) {
    let f = fixture(db).await;
    let day = Duration::from_secs(24 * 3600);
    let c = f
        .service
        .games().challenge(ChallengeRequest {
            time_control: TimeControl::PerMove(2 * day),
            ..request(90, SideChoice::Attackers)
        }, None)
        .await
        .unwrap().done.0;
    let game = f.service.games().accept(c.id, BIRGER, None, None).await.unwrap().done.game;
    assert_eq!(game.turn_deadline, Some(T0 + 2 * 86_400_000));
    f.clock.advance(day - Duration::from_secs(1));
    assert!(
        f.service.game_clock().tick().await.unwrap().is_empty(),
        "not yet half the time"
    );
    f.clock.advance(Duration::from_secs(1));
    let events = f.service.game_clock().tick().await.unwrap();
    match &events[..] {
        [ClockEvent::Reminder {
            user,
            number: 1,
            remaining,
            ..
        }] => {
            assert_eq!(*user, ASTRID);
            assert_eq!(*remaining, day);
        }
        other => panic!("{other:?}"),
    }
    assert!(f.service.game_clock().tick().await.unwrap().is_empty(), "once only");
    // A move restarts the clock for the other player, once it is shown.
    f.service.games().play_move(90, ASTRID, "a4-a3", Answer::None).await.unwrap();
    f.clock.advance(day);
    assert!(
        f.service.game_clock().tick().await.unwrap().is_empty(),
        "no time runs before the move is shown"
    );
    crate::support::news_shown(&f.service, 90).await;
    f.clock.advance(day);
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(matches!(
        &events[..],
        [ClockEvent::Reminder {
            user: BIRGER,
            number: 1,
            ..
        }]
    ));
    // Restart in the middle of the time control.
    let f = f.reopen().await;
    f.clock.advance(day - Duration::from_secs(3600));
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(matches!(
        &events[..],
        [ClockEvent::Reminder {
            user: BIRGER,
            number: 2,
            ..
        }]
    ));
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    f.clock.advance(Duration::from_secs(3600));
    let events = f.service.game_clock().tick().await.unwrap();
    match &events[..] {
        [ClockEvent::TimedOut(ended)] => assert_eq!(
            ended.game.outcome,
            Outcome::Won {
                winner: Side::Attackers,
                reason: Reason::Timeout
            }
        ),
        other => panic!("{other:?}"),
    }
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    let stats = f.service.games().stats(GUILD, BIRGER, 1).await.unwrap();
    assert_eq!(stats.recent[0].reason, "timeout");
}
}

both_backends! {
/// Time the bot was away is not charged to the players: a start after a downtime moves every
/// running game's deadline and every open challenge's expiry on by the time since the last
/// beat, once, even with two processes starting together; beats while the bot runs give
/// nothing back, nor does a start within the promise, and the clock then runs as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downtime_is_given_back_to_running_games_and_open_challenges_once(db: TestDb) {
    let f = fixture(db).await;
    let (day, every) = (Duration::from_secs(24 * 3600), Duration::from_secs(60));
    let ms = |d: Duration| d.as_millis() as i64;
    assert_eq!(
        f.service.game_clock().resume(every).await.unwrap(),
        None,
        "a first start knows no downtime"
    );
    let c = f
        .service
        .games().challenge(ChallengeRequest {
            time_control: TimeControl::PerMove(day),
            ..request(95, SideChoice::Attackers)
        }, None)
        .await
        .unwrap().done.0;
    let game = f.service.games().accept(c.id, BIRGER, None, None).await.unwrap().done.game;
    assert_eq!(game.turn_deadline, Some(T0 + ms(day)));
    let open = f.service.games().challenge(request(96, SideChoice::Defenders), None).await.unwrap().done.0;
    let expiry = |s: &Service| {
        let pool = s.store().pool().clone();
        async move {
            store::challenges::by_id(&pool, open.id)
                .await
                .unwrap()
                .unwrap()
        }
    };
    assert_eq!(expiry(&f.service).await.expires_at, T0 + ms(day));
    // Running: a beat every minute, even one a little late, then a quick restart.
    for late in [0, 0, 30] {
        f.clock.advance(every + Duration::from_secs(late));
        f.service.game_clock().keep_alive(every).await.unwrap();
    }
    let f = f.reopen().await;
    f.clock.advance(2 * every);
    assert_eq!(f.service.game_clock().resume(every).await.unwrap(), None, "within the promise");
    let last_beat = T0 + ms(5 * every) + 30_000;
    // Down for two days: past the deadline and the challenge's expiry.
    let f = f.reopen().await;
    f.clock.advance(2 * day);
    let now = last_beat + ms(2 * day);
    // Two processes start together on the database: one gives the time back.
    let other = f.another().await;
    let (a, b) = tokio::join!(f.service.game_clock().resume(every), other.game_clock().resume(every));
    let given: Vec<Downtime> = [a.unwrap(), b.unwrap()].into_iter().flatten().collect();
    assert_eq!(
        given,
        [Downtime {
            away: Duration::from_millis((now - last_beat) as u64),
            games: 1,
            challenges: 1
        }],
        "given back once, by one of them"
    );
    let moved = now - last_beat;
    assert_eq!(
        f.service.games().game(game.id).await.unwrap().turn_deadline,
        Some(T0 + ms(day) + moved)
    );
    assert_eq!(expiry(&f.service).await.expires_at, T0 + ms(day) + moved);
    assert_eq!(expiry(&f.service).await.status, store::ChallengeStatus::Pending);
    // Nothing is charged for the downtime: no loss on time, no expiry, no reminder yet (the
    // player has the day they had left, less the minutes before the bot stopped).
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    assert_eq!(other.game_clock().resume(every).await.unwrap(), None, "given back once");
    other.close().await;
    // A beat while running gives nothing back, however late (the clock is the bot's own).
    f.clock.advance(day / 2);
    f.service.game_clock().keep_alive(every).await.unwrap();
    let f = f.reopen().await;
    assert_eq!(f.service.game_clock().resume(every).await.unwrap(), None);
    f.clock.advance(day / 2);
    // The clock runs on from there.
    let events = f.service.game_clock().tick().await.unwrap();
    assert!(
        events.iter().any(|e| matches!(e, ClockEvent::TimedOut(_)))
            && events.iter().any(|e| matches!(e, ClockEvent::ChallengeExpired(_))),
        "{events:?}"
    );
}
}

both_backends! {
#[tokio::test]
async fn the_leaderboard_orders_by_rating_and_pages(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    // Players 1..=12; player n beats player n+1 ... so ratings spread.
    for n in 1..=12u64 {
        let c = s
            .games().challenge(ChallengeRequest {
                place: place(200 + n),
                challenger: User::new(1000 + n, format!("P{n}")),
                opponent: User::new(1000 + n + 1, format!("P{}", n + 1)),
                ..request(0, SideChoice::Attackers)
            }, None)
            .await
            .unwrap().done.0;
        s.games().accept(c.id, 1000 + n + 1, None, None).await.unwrap();
        s.games().resign(200 + n, 1000 + n + 1, None).await.unwrap();
    }
    let page0 = s.games().leaderboard(GUILD, Variant::Tablut, 0).await.unwrap();
    assert_eq!((page0.players, page0.pages, page0.lines.len()), (13, 2, 10));
    let page1 = s.games().leaderboard(GUILD, Variant::Tablut, 1).await.unwrap();
    assert_eq!(page1.lines.len(), 3);
    assert_eq!(page1.lines[0].rank, 11);
    let all: Vec<_> = page0.lines.iter().chain(&page1.lines).collect();
    for w in all.windows(2) {
        assert!(w[0].rating.rating >= w[1].rating.rating);
    }
    assert_eq!(all[0].name, "P1", "unbeaten, with a win");
    assert_eq!(all.last().unwrap().name, "P13", "one loss and no win");
    assert_eq!(
        s.games().leaderboard(GUILD, Variant::Tablut, 99).await.unwrap().page,
        1,
        "a page past the end is the last"
    );
    assert_eq!(s.games().leaderboard(7, Variant::Tablut, 0).await.unwrap().lines.len(), 0);
    let listed = s.games().games_in_guild(GUILD).await.unwrap();
    assert!(listed.is_empty());
}
}

both_backends! {
#[tokio::test]
async fn the_games_of_a_server_are_listed_with_whose_turn_it_is(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    game_between(s, 300, None).await;
    game_between(s, 301, None).await;
    s.games().play_move(301, ASTRID, "a4-a3", Answer::None).await.unwrap();
    let games = s.games().games_in_guild(GUILD).await.unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].place.channel, 300);
    assert_eq!(mover(&games[0]), ASTRID);
    assert_eq!(mover(&games[1]), BIRGER);
}
}

#[test]
fn time_controls_read_and_write() {
    for (text, secs) in [
        ("3d", 259_200),
        ("12h", 43_200),
        ("90m", 5400),
        ("1d12h", 129_600),
    ] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(tc.per_move(), Some(Duration::from_secs(secs)));
    }
    assert_eq!("none".parse::<TimeControl>().unwrap(), TimeControl::None);
    assert_eq!(TimeControl::DEFAULT.to_string(), "3d");
    assert_eq!("36h".parse::<TimeControl>().unwrap().to_string(), "36h");
    for bad in ["", "3", "3x", "10s", "99d", "h", "-1d"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
    // A bank and an increment: the bank from a minute to thirty days, the increment from
    // none to the bank.
    let secs = Duration::from_secs;
    for (text, bank, increment, written) in [
        ("3d+6h", 259_200, 21_600, "3d+6h"),
        ("7d+1d", 604_800, 86_400, "7d+1d"),
        ("10m+30s", 600, 30, "10m+30s"),
        ("1m+0s", 60, 0, "1m+0s"),
        (" 1d12h + 90m ", 129_600, 5400, "36h+90m"),
        ("30d+30d", 2_592_000, 2_592_000, "30d+30d"),
    ] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(
            tc,
            TimeControl::Fischer {
                bank: secs(bank),
                increment: secs(increment)
            },
            "{text}"
        );
        assert_eq!(tc.per_move(), None);
        assert_eq!(tc.to_string(), written);
        assert_eq!(written.parse::<TimeControl>().unwrap(), tc);
    }
    for bad in [
        "0d+1d", "31d", "3d+40d", "30s+0s", "1m+2m", "3d+", "+6h", "3d+6h+1h", "3d+x", "none+1h",
    ] {
        let e: ServiceError = bad.parse::<TimeControl>().unwrap_err().into();
        assert!(matches!(e, ServiceError::BadTimeControl(_)), "{bad}: {e:?}");
        assert!(refusal(&e).contains("3d+6h"), "{e}");
    }
}

both_backends! {
#[tokio::test]
async fn a_game_that_cannot_be_rebuilt_holds_up_no_other_clock(db: TestDb) {
    let f = fixture(db).await;
    let day = Duration::from_secs(24 * 3600);
    let mut ids = Vec::new();
    for channel in [95, 96] {
        let c = f
            .service
            .games().challenge(ChallengeRequest {
                time_control: TimeControl::PerMove(2 * day),
                ..request(channel, SideChoice::Attackers)
            }, None)
            .await
            .unwrap().done.0;
        ids.push(f.service.games().accept(c.id, BIRGER, None, None).await.unwrap().done.game.id);
    }
    // The first game's stored rules are damaged: it cannot be rebuilt.
    sqlx::query("UPDATE games SET rules = 'not json' WHERE id = $1")
        .bind(ids[0])
        .execute(f.service.store().pool())
        .await
        .unwrap();
    f.clock.advance(day);
    let events = f.service.game_clock().tick().await.unwrap();
    match &events[..] {
        [ClockEvent::Reminder { game, user, .. }] => {
            assert_eq!((game.id, *user), (ids[1], ASTRID));
        }
        other => panic!("{other:?}"),
    }
    // The damaged game is refused with the internal error, not taken for another.
    assert!(matches!(
        f.service.games().board(95).await,
        Err(ServiceError::Internal(_))
    ));
}
}

/// A quick Brandubh game: the defenders clear c4, and the king runs d4-c4-c1-a1 (Astrid
/// attacks).
const BRANDUBH_ESCAPE: [&str; 8] = [
    "g4-g5", "c4-c6", "g5-g6", "d4-c4", "f4-f6", "c4-c1", "d7-e7", "c1-a1",
];

/// A quick Copenhagen game: e7 and f7 step aside, and the king runs f6-f7-c7-c11-a11 while the
/// attackers shuffle a piece in the far corner.
const COPENHAGEN_ESCAPE: [&str; 12] = [
    "h1-h3", "e7-e9", "h3-i3", "f7-b7", "i3-i2", "f6-f7", "i2-j2", "f7-c7", "j2-j3", "c7-c11",
    "j3-i3", "c11-a11",
];

/// Astrid (attackers) against Birger (defenders) in `channel`, a game of `variant`.
async fn variant_game(s: &Service, channel: u64, variant: Variant) -> GameInfo {
    let c = s
        .games()
        .challenge(
            ChallengeRequest {
                rules: variant.rules(),
                ..request(channel, SideChoice::Attackers)
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    assert_eq!(c.rules.variant, variant);
    let started = s
        .games()
        .accept(c.id, BIRGER, None, None)
        .await
        .unwrap()
        .done;
    assert_eq!(started.game.variant(), variant);
    assert_eq!(started.game.start, Position::start_of(variant));
    started.game
}

/// Plays `moves` from the start, Astrid first; the last report.
async fn play_out(s: &Service, channel: u64, moves: &[&str]) -> MoveReport {
    let mut last = None;
    for (i, m) in moves.iter().enumerate() {
        let by = if i % 2 == 0 { ASTRID } else { BIRGER };
        last = Some(
            s.games()
                .play_move(channel, by, m, Answer::None)
                .await
                .unwrap()
                .done,
        );
    }
    last.unwrap()
}

both_backends! {
#[tokio::test]
async fn each_variant_is_played_stored_and_rated_on_its_own(db: TestDb) {
    let f = fixture(db).await;
    let s = &f.service;
    // Tablut: Birger resigns, Astrid's Tablut rating goes up.
    let tablut = game_between(s, 60, None).await;
    s.games().resign(60, BIRGER, None).await.unwrap();
    // Brandubh: Birger's king escapes.
    let brandubh = variant_game(s, 61, Variant::Brandubh).await;
    // A square off the 7×7 board, and one in no board's notation: one line each, nothing played.
    let e = s.games().play_move(61, ASTRID, "d2-h2", Answer::None).await.unwrap_err();
    assert_eq!(
        refusal(&e),
        "That move is not legal: h2 is off the board: files run from a to g and ranks from 1 to 7."
    );
    assert!(matches!(s.games().play_move(61, ASTRID, "k11", Answer::None).await, Err(ServiceError::IllegalMove(_))));
    assert_eq!(s.games().game(brandubh.id).await.unwrap().ply, 0);
    // Autocomplete reads the 7×7 board: d1's moves and none to a square off it.
    let d1 = s.games().suggest_moves(61, ASTRID, "d1", 25).await.unwrap();
    // (a1 and g1 are corners, the king's alone.)
    assert_eq!(d1, ["d1-b1", "d1-c1", "d1-e1", "d1-f1"]);
    let last = play_out(s, 61, &BRANDUBH_ESCAPE).await;
    assert_eq!(
        last.game.outcome,
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::KingEscaped
        }
    );
    assert_eq!(last.notation, "c1-a1++");
    let r = last.ratings.unwrap();
    assert!((r.defenders.2.rating - 1662.31).abs() < 0.05, "a first Brandubh game: {r:?}");
    // Copenhagen: the king escapes on the 11×11 board (files to k, ranks to 11).
    let copenhagen = variant_game(s, 62, Variant::Copenhagen).await;
    let k = s.games().suggest_moves(62, ASTRID, "k4", 25).await.unwrap();
    assert!(!k.is_empty() && k.iter().all(|m| m.starts_with("k4-")), "{k:?}");
    let last = play_out(s, 62, &COPENHAGEN_ESCAPE).await;
    assert_eq!(
        last.game.outcome,
        Outcome::Won {
            winner: Side::Defenders,
            reason: Reason::KingEscaped
        }
    );
    assert_eq!(last.notation, "c11-a11++");
    // Each variant's ratings are its own: Astrid won her one Tablut game and lost the others.
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert_eq!(stats.games, 3);
    let ratings: Vec<(Variant, i64, u32)> = stats
        .ratings
        .iter()
        .map(|r| (r.variant, r.rating.rating.round() as i64, r.rated_games))
        .collect();
    assert_eq!(
        ratings,
        [
            (Variant::Tablut, 1662, 1),
            (Variant::Brandubh, 1338, 1),
            (Variant::Copenhagen, 1338, 1)
        ]
    );
    assert_eq!(stats.recent[0].variant, Variant::Copenhagen);
    assert_eq!(stats.recent[2].variant, Variant::Tablut);
    for (variant, first) in [
        (Variant::Tablut, "Astrid"),
        (Variant::Brandubh, "Birger"),
        (Variant::Copenhagen, "Birger"),
    ] {
        let board = s.games().leaderboard(GUILD, variant, 0).await.unwrap();
        assert_eq!((board.variant, board.players), (variant, 2));
        assert_eq!(board.lines[0].name, first, "{variant}");
    }
    // The store keeps each game's variant in its rules, Tablut's as before (no variant named).
    let stored: Vec<String> = sqlx::query_scalar("SELECT rules FROM games ORDER BY id")
        .fetch_all(s.store().pool())
        .await
        .unwrap();
    assert_eq!(stored[0], serde_json::to_string(&Rules::default()).unwrap());
    assert!(!stored[0].contains("variant"), "{}", stored[0]);
    assert!(stored[1].contains("\"variant\":\"brandubh\""), "{}", stored[1]);
    assert!(stored[2].contains("\"variant\":\"copenhagen\""), "{}", stored[2]);
    for id in [brandubh.id, copenhagen.id] {
        check_store(s, id).await;
    }
    // Read back after a restart: the same games, each of its variant.
    let f = f.reopen().await;
    let s = &f.service;
    for (id, variant) in [
        (tablut.id, Variant::Tablut),
        (brandubh.id, Variant::Brandubh),
        (copenhagen.id, Variant::Copenhagen),
    ] {
        let g = s.games().game(id).await.unwrap();
        assert_eq!(g.variant(), variant);
        assert!(g.is_over());
    }
    let h = s.games().history(62).await.unwrap();
    assert_eq!(h.moves.len(), 12);
    assert!(h.position_record.matches('/').count() >= 11, "11 rows: {}", h.position_record);
}
}

both_backends! {
#[tokio::test]
async fn ratings_stored_before_the_variants_are_tablut_s(db: TestDb) {
    // A database as it was before the variants: the migrations up to 0014, a rated player.
    let dir = tempfile::tempdir().unwrap();
    let from = match db.backend {
        Backend::Sqlite => "migrations/sqlite",
        Backend::Postgres => "migrations/postgres",
    };
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name[..4].parse::<u32>().unwrap() <= 14 {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    sqlx::any::install_default_drivers();
    let url = match db.backend {
        Backend::Sqlite => format!("{}?mode=rwc", db.url),
        Backend::Postgres => db.url.clone(),
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let old = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    old.run(&pool).await.unwrap();
    sqlx::query(
        "INSERT INTO players (guild_id, user_id, name, rating, deviation, volatility, rated_games, updated_at) \
         VALUES ($1, $2, 'Astrid', 1701.0, 80.0, 0.06, 42, 0)",
    )
    .bind(GUILD as i64)
    .bind(ASTRID as i64)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    // The bot's start migrates it: the rating is Astrid's Tablut rating.
    let f = fixture(db).await;
    let s = &f.service;
    let board = s.games().leaderboard(GUILD, Variant::Tablut, 0).await.unwrap();
    assert_eq!(board.lines.len(), 1);
    assert_eq!((board.lines[0].user, board.lines[0].rating.rating), (ASTRID, 1701.0));
    assert_eq!(board.lines[0].rated_games, 42);
    for v in [Variant::Brandubh, Variant::Copenhagen] {
        assert!(s.games().leaderboard(GUILD, v, 0).await.unwrap().lines.is_empty());
    }
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert_eq!(stats.ratings.len(), 1);
    assert_eq!(stats.rating(Variant::Tablut).unwrap().rated_games, 42);
    // A Brandubh game won by Astrid rates her Brandubh rating from the start, not her Tablut one.
    let game = variant_game(s, 70, Variant::Brandubh).await;
    let ended = s.games().resign(70, BIRGER, None).await.unwrap().done;
    let r = ended.ratings.unwrap();
    assert_eq!(r.attackers.1.rating, 1500.0, "{:?}", game.id);
    let stats = s.games().stats(GUILD, ASTRID, 5).await.unwrap();
    assert_eq!(stats.rating(Variant::Tablut).unwrap().rating.rating, 1701.0);
    assert_eq!(stats.rating(Variant::Brandubh).unwrap().rated_games, 1);
}
}

both_backends! {
/// A step after the commit that fails (here the challenge read back after it is written, its
/// stored rules spoiled by a trigger) does not tell the user that nothing was changed: the
/// challenge stands, and the answer says so and that it will show.
#[tokio::test]
async fn a_failure_after_the_commit_says_the_change_stands(db: TestDb) {
    let backend = db.backend;
    let f = fixture(db).await;
    let s = &f.service;
    let spoil = match backend {
        Backend::Sqlite => vec![
            "CREATE TRIGGER spoil AFTER INSERT ON challenges BEGIN \
             UPDATE challenges SET rules = 'not rules' WHERE id = NEW.id; END",
        ],
        Backend::Postgres => vec![
            "CREATE FUNCTION spoil() RETURNS trigger AS $$ BEGIN \
             UPDATE challenges SET rules = 'not rules' WHERE id = NEW.id; RETURN NULL; \
             END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER spoil AFTER INSERT ON challenges FOR EACH ROW \
             EXECUTE FUNCTION spoil()",
        ],
    };
    for sql in spoil {
        sqlx::raw_sql(sql).execute(s.store().pool()).await.unwrap();
    }
    let e = s
        .games().challenge(request(84, SideChoice::Attackers), None)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            ServiceError::Recorded {
                done: Done::Challenge,
                ..
            }
        ),
        "{e:?}"
    );
    let text = refusal(&e);
    assert!(!text.contains('\n'), "{text}");
    assert!(
        text.starts_with("Your challenge was made") && !text.contains("nothing was changed"),
        "{text}"
    );
    assert!(e.is_internal(), "logged as a failure");
    // True: the challenge is there, open; made again, it is refused as open.
    let open: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM challenges WHERE channel_id = 84 AND status = 'pending'",
    )
    .fetch_one(s.store().pool())
    .await
    .unwrap();
    assert_eq!(open, 1);
    assert!(matches!(
        s.games().challenge(request(84, SideChoice::Attackers), None).await,
        Err(ServiceError::ChallengeOpen)
    ));
}
}

both_backends! {
#[tokio::test]
async fn an_imported_record_is_kept_as_a_finished_game_in_no_ones_stats(db: TestDb) {
    use tablut_bot::tafl::{read_record, write_record, Preset, RecordFormat, RecordTags};
    let f = fixture(db).await;
    let s = &f.service;
    // A Copenhagen game under hnefatafl.org's rules, won by a resignation.
    let mut g = Game::new(Preset::CopenhagenHnefataflOrg.rules());
    for m in ["a4-b4", "e5-e3", "b4-c4"] {
        g.play_text(m).unwrap();
    }
    g.resign(Side::Defenders).unwrap();
    let tags = RecordTags {
        attackers: Some("Ingrid".into()),
        defenders: Some("Olav".into()),
        ..RecordTags::default()
    };
    let text = write_record(&g, RecordFormat::OpenTafl, &tags);
    let read = records::read(&text).unwrap();
    let me = User::new(ASTRID, "Astrid".to_string());
    let id = s.games().import_finished(80, &me, &read).await.unwrap();
    // The channel's latest game is it: exported, it reads back as it was.
    let (info, again) = s.games().export(80, RecordFormat::Tafl, record_tags).await.unwrap();
    assert_eq!(info.id, id);
    assert!(!info.rated);
    assert_eq!(info.outcome, g.outcome());
    assert_eq!(plain_name(&info.attackers), "Ingrid");
    let back = read_record(&again, Rules::default()).unwrap();
    assert_eq!(back.game.rules(), g.rules());
    assert_eq!(back.game.moves(), g.moves());
    assert_eq!(back.game.outcome(), g.outcome());
    // In no one's stats.
    assert_eq!(s.games().stats(GUILD, ASTRID, 5).await.unwrap().games, 0);
    // A game not over, or without a move, is not kept.
    let unfinished = records::read("1. a4-a3").unwrap();
    assert!(matches!(
        s.games().import_finished(80, &me, &unfinished).await,
        Err(ServiceError::RecordUnfinished)
    ));
    assert!(matches!(
        records::read("1. e1-e3"),
        Err(ServiceError::BadRecord(RecordProblem::Unreadable(why)))
            if why.to_string().starts_with("ply 1: 'e1-e3': ")
    ));
}
}

both_backends! {
/// A Fischer clock (a day's bank, an hour's increment): each move leaves its side what its
/// turn left plus the increment, never more than the bank; the turn's time runs only once
/// the move that gave it is shown; the board tells both banks; the player to move loses on
/// time when the bank is empty, to the millisecond.
#[tokio::test]
async fn a_fischer_game_is_won_on_time_with_its_increments_counted_exactly(db: TestDb) {
    let f = fixture(db).await;
    let (min, hour) = (60_000i64, 3_600_000i64);
    let wait = |ms: i64| f.clock.advance(Duration::from_millis(ms as u64));
    let fischer: TimeControl = "1d+1h".parse().unwrap();
    let c = f
        .service
        .games()
        .challenge(
            ChallengeRequest {
                time_control: fischer,
                ..request(91, SideChoice::Attackers)
            },
            None,
        )
        .await
        .unwrap()
        .done
        .0;
    assert_eq!(c.time_control, fischer);
    let game = f.service.games().accept(c.id, BIRGER, None, None).await.unwrap().done.game;
    assert_eq!(game.time_control, fischer);
    assert_eq!(game.clocks, Some(Clocks::both(24 * hour)));
    assert!(
        board_caption(&game).ends_with("· Astrid 1 d · Birger 1 d"),
        "{}",
        board_caption(&game)
    );
    let banks = |a: i64, d: i64| {
        Some(Clocks {
            attackers_ms: a,
            defenders_ms: d,
        })
    };
    // Ten minutes, then the hour: the bank is full again, and no fuller.
    wait(10 * min);
    let r = f.service.games().play_move(91, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(24 * hour, 24 * hour));
    // Birger's time waits for the move to be shown.
    wait(3 * hour);
    crate::support::news_shown(&f.service, 91).await;
    wait(10 * hour);
    let r = f.service.games().play_move(91, BIRGER, "e3-d3", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(24 * hour, 15 * hour));
    crate::support::news_shown(&f.service, 91).await;
    wait(5 * hour);
    let r = f.service.games().play_move(91, ASTRID, "a3-a4", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, banks(20 * hour, 15 * hour));
    assert!(
        board_caption(&r.game).ends_with("· Astrid 20 h · Birger 15 h"),
        "{}",
        board_caption(&r.game)
    );
    crate::support::news_shown(&f.service, 91).await;
    // The reminders fall at fractions of the 15 h the turn started with.
    wait(15 * hour / 2 - 1);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    wait(1);
    assert!(matches!(
        &f.service.game_clock().tick().await.unwrap()[..],
        [ClockEvent::Reminder { user: BIRGER, number: 1, .. }]
    ));
    wait(6 * hour);
    let board = f.service.games().board(91).await.unwrap();
    assert_eq!(board.game.clocks, banks(20 * hour, 90 * min));
    assert!(matches!(
        &f.service.game_clock().tick().await.unwrap()[..],
        [ClockEvent::Reminder { user: BIRGER, number: 2, .. }]
    ));
    wait(90 * min - 1);
    assert!(f.service.game_clock().tick().await.unwrap().is_empty());
    wait(1);
    match &f.service.game_clock().tick().await.unwrap()[..] {
        [ClockEvent::TimedOut(ended)] => assert_eq!(
            ended.game.outcome,
            Outcome::Won {
                winner: Side::Attackers,
                reason: Reason::Timeout
            }
        ),
        other => panic!("{other:?}"),
    }
}
}

both_backends! {
/// A game stored before Fischer clocks (migration 0026) keeps its time per move: it reads as
/// one, and its next turn has the time per move.
#[tokio::test]
async fn a_game_from_before_the_banks_keeps_its_time_per_move(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let backend = match db.backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    for entry in std::fs::read_dir(format!("migrations/{backend}")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if name[..4].parse::<u32>().unwrap() <= 25 {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    sqlx::any::install_default_drivers();
    let url = match db.backend {
        Backend::Sqlite => format!("{}?mode=rwc", db.url),
        Backend::Postgres => db.url.clone(),
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::migrate::Migrator::new(dir.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    let rules = Rules::default();
    let day = 86_400_000i64;
    sqlx::query(
        "INSERT INTO games (guild_id, channel_id, attacker_user_id, attacker_name, \
         defender_user_id, defender_name, rules, status, ply, position, time_per_move_ms, \
         turn_deadline, created_at, updated_at) \
         VALUES ($1, 92, $2, 'Astrid', $3, 'Birger', $4, 'active', 0, $5, $6, $7, $8, $8)",
    )
    .bind(store::to_db(GUILD))
    .bind(store::to_db(ASTRID))
    .bind(store::to_db(BIRGER))
    .bind(serde_json::to_string(&rules).unwrap())
    .bind(tablut_bot::tafl::write_position(&Position::start(rules)))
    .bind(2 * day)
    .bind(T0 + 2 * day)
    .bind(T0)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let f = fixture(db).await;
    let board = f.service.games().board(92).await.unwrap();
    assert_eq!(board.game.time_control, TimeControl::PerMove(Duration::from_millis(2 * day as u64)));
    assert_eq!(board.game.clocks, None);
    assert_eq!(board.game.turn_deadline, Some(T0 + 2 * day));
    f.clock.advance(Duration::from_secs(3600));
    let r = f.service.games().play_move(92, ASTRID, "a4-a3", Answer::None).await.unwrap().done;
    assert_eq!(r.game.clocks, None);
    crate::support::news_shown(&f.service, 92).await;
    let board = f.service.games().board(92).await.unwrap();
    assert_eq!(board.game.turn_deadline, Some(T0 + 3_600_000 + 2 * day));
}
}

both_backends! {
/// Copenhagen 13×13: the game, its moves and a capture on the l file are stored and read back,
/// and its record, in both formats, reads back as the game.
#[tokio::test]
async fn a_copenhagen13_game_is_stored_and_its_record_reads_back(db: TestDb) {
    use tablut_bot::tafl::{read_record, RecordFormat};
    let f = fixture(db).await;
    let s = &f.service;
    let v = Variant::Copenhagen13;
    let started = variant_game(s, 63, v).await;
    assert_eq!(started.rules, v.rules());
    let moves = ["a4-b4", "g5-l5", "l7-l6", "g4-h4", "m4-l4"];
    let last = play_out(s, 63, &moves).await;
    assert_eq!(last.notation, "m4-l4xl5");
    let captured: Vec<String> = last.captured.iter().map(|s| s.to_string()).collect();
    assert_eq!(captured, ["l5"]);
    let mut g = Game::new(v.rules());
    for m in moves {
        g.play_text(m).unwrap();
    }
    let info = s.games().game(started.id).await.unwrap();
    assert_eq!((info.ply, info.rules, info.start), (5, v.rules(), Position::start_of(v)));
    assert_eq!(info.outcome, Outcome::Ongoing);
    for format in [RecordFormat::Tafl, RecordFormat::OpenTafl] {
        let (exported, text) = s.games().export(63, format, record_tags).await.unwrap();
        assert_eq!(exported.id, started.id);
        let back = read_record(&text, Rules::default()).unwrap();
        assert_eq!(back.game.rules(), &v.rules(), "{text}");
        assert_eq!(back.game.moves(), g.moves(), "{text}");
        assert_eq!(back.game.position(), g.position(), "{text}");
    }
}
}
