//! The puzzle service on both backends (a SQLite file, a fresh PostgreSQL database when
//! TEST_POSTGRES_URL names a server): answers judged right and wrong, the player's and
//! the puzzle's Glicko-2 ratings moved once per first try (repeats unrated), a multi-move
//! puzzle answered with the reply, bad input refused without a change, the current puzzle kept
//! across a restart, the leaderboard, and the daily puzzle posted once a day through the outbox.

use crate::support::fixture::{challenge_request, Fixture, T0};
use crate::support::until_async;
use tablut_bot::ai::puzzle::{scan, Kind, Record, Solver, SCAN_PLIES};
use tablut_bot::both_backends;
use tablut_bot::rating::{rate_game, Rating, Score};
use tablut_bot::service::puzzle::{day_of, initial_rating, PuzzleVerdict, SEED};
use tablut_bot::service::*;
use tablut_bot::store::puzzles::{self as rows, NewPuzzle};
use tablut_bot::store::testdb::TestDb;

const GUILD: u64 = 900_000_000_000_000_001;
const ASTRID: u64 = 18_000_000_000_000_000_001;
const BIRGER: u64 = 5;
const DAY_MS: i64 = 86_400_000;

fn config() -> Config {
    Config {
        images: false,
        ai_tt_mb: 4,
        ai_workers: 1,
        ..Config::default()
    }
}

async fn fixture(db: TestDb) -> Fixture {
    Fixture::open(db, config()).await
}

impl Fixture {
    /// Stores only this puzzle (the seed is then not loaded: there is one already).
    async fn only(&self, r: &Record) {
        let rules = serde_json::to_string(&r.rules).unwrap();
        assert!(rows::insert(
            self.service.store().lock().await.unwrap().ex(),
            &NewPuzzle {
                position: &r.position,
                to_move: r.to_move.name(),
                rules: &rules,
                kind: r.kind.name(),
                moves: r.moves,
                line: &r.line.join(" "),
                source: "seed",
                game_id: None,
                rating: initial_rating(r.kind, r.moves),
                now: T0,
            },
        )
        .await
        .unwrap());
    }
}

fn user(id: u64, name: &str) -> User {
    User::new(id, name.to_string())
}

fn seed() -> Vec<Record> {
    serde_json::from_str(SEED).unwrap()
}

fn seed_where(f: impl Fn(&Record) -> bool) -> Record {
    seed().into_iter().find(f).expect("such a seed puzzle")
}

/// A legal move of the puzzle's start that is not its solution.
fn wrong_move(r: &Record) -> String {
    let (start, line) = r.read().unwrap();
    start
        .legal_moves_sorted()
        .into_iter()
        .find(|m| *m != line[0])
        .unwrap()
        .to_string()
}

both_backends! {
#[tokio::test]
async fn the_seed_loads_once(db: TestDb) {
    let f = fixture(db).await;
    let n = f.service.puzzles().seed().await.unwrap();
    assert_eq!(n as usize, seed().len());
    assert_eq!(f.service.puzzles().seed().await.unwrap(), 0);
}
}

both_backends! {
#[tokio::test]
async fn a_multi_move_puzzle_is_answered_with_the_reply_and_solved_and_rated(db: TestDb) {
    let f = fixture(db).await;
    let r = seed_where(|r| r.kind == Kind::Win && r.moves == 2);
    f.only(&r).await;
    let astrid = user(ASTRID, "Astrid");
    let view = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert_eq!((view.kind, view.moves, view.step), (Kind::Win, 2, 1));
    assert!(view.rated && view.reply.is_none());
    assert_eq!(view.side, r.to_move);
    // The same puzzle while it is not done.
    assert_eq!(
        f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done.puzzle_id,
        view.puzzle_id
    );
    let goes_on = f
        .service
        .puzzles().puzzle_move(GUILD, &astrid, &r.line[0], None)
        .await
        .unwrap()
        .done;
    match &goes_on {
        PuzzleVerdict::Continue { played, view, .. } => {
            assert!(played.starts_with(&r.line[0]), "{played}");
            assert_eq!(view.step, 2);
            assert!(view.reply.as_deref().unwrap().starts_with(&r.line[1]));
        }
        other => panic!("{other:?}"),
    }
    // Typed again before its reply is known to have been shown: the same answer, the puzzle
    // where it was.
    assert_eq!(
        f.service
            .puzzles().puzzle_move(GUILD, &astrid, &r.line[0], None)
            .await
            .unwrap()
            .done,
        goes_on
    );
    let before = Rating::default();
    let puzzle_before = initial_rating(Kind::Win, 2);
    let solved = f
        .service
        .puzzles().puzzle_move(GUILD, &astrid, &r.line[2], None)
        .await
        .unwrap()
        .done;
    match &solved {
        PuzzleVerdict::Solved { ratings, .. } => {
            let ratings = ratings.expect("a first try is rated");
            let (after, puzzle_after) = rate_game(before, puzzle_before, Score::Win);
            assert_eq!(ratings.player, (before, after));
            assert_eq!(ratings.puzzle, (puzzle_before, puzzle_after));
            assert!(after.rating > before.rating && puzzle_after.rating < puzzle_before.rating);
        }
        other => panic!("{other:?}"),
    }
    let stored = rows::by_id(f.service.store().pool(), view.puzzle_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stored.attempts, stored.solved), (1, 1));
    assert!(stored.rating.rating < puzzle_before.rating);
    let me = f
        .service
        .probe().puzzle_player(GUILD, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((me.solved, me.failed), (1, 0));
    // Until its reply is known to have been shown, the answer is given again, as it was: by
    // any move (there is no puzzle under way), and as the last answer not shown; nothing is
    // judged or rated again.
    assert_eq!(
        f.service.puzzles().puzzle_move(GUILD, &astrid, "a1-a2", None).await.unwrap().done,
        solved
    );
    assert_eq!(
        f.service.puzzles().unshown_verdict(GUILD, ASTRID, None).await.unwrap().map(|a| a.done),
        Some(solved.clone())
    );
    let unchanged = f.service.probe().puzzle_player(GUILD, ASTRID).await.unwrap();
    assert_eq!(unchanged.as_ref(), Some(&me));
    f.service.puzzles().verdict_shown(solved.key()).await.unwrap();
    assert_eq!(
        f.service.puzzles().unshown_verdict(GUILD, ASTRID, None).await.unwrap().map(|a| a.done),
        None
    );
    // No puzzle to answer now.
    assert!(matches!(
        f.service.puzzles().puzzle_move(GUILD, &astrid, &r.line[2], None).await,
        Err(ServiceError::NoPuzzle)
    ));
    // The only puzzle again: a repeat, unrated, and the ratings stay.
    let again = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert!(!again.rated);
    f.service
        .puzzles().puzzle_move(GUILD, &astrid, &r.line[0], None)
        .await
        .unwrap();
    match f
        .service
        .puzzles().puzzle_move(GUILD, &astrid, &r.line[2], None)
        .await
        .unwrap()
        .done
    {
        PuzzleVerdict::Solved { ratings: None, .. } => {}
        other => panic!("{other:?}"),
    }
    let me_after = f
        .service
        .probe().puzzle_player(GUILD, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(me_after, me);
    let stored_after = rows::by_id(f.service.store().pool(), view.puzzle_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored_after, stored);
}
}

both_backends! {
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_solving_one_puzzle_at_once_both_move_its_rating(db: TestDb) {
    let f = fixture(db).await;
    let backend = f.db.backend;
    let r = seed_where(|r| r.kind == Kind::Win && r.moves == 1);
    f.only(&r).await;
    let (astrid, birger) = (user(ASTRID, "Astrid"), user(BIRGER, "Birger"));
    let s = &f.service;
    let id = s.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done.puzzle_id;
    assert_eq!(s.puzzles().puzzle(GUILD, &birger, None).await.unwrap().done.puzzle_id, id);
    // Another writer holds the puzzle (SQLite: the database's write lock; PostgreSQL: the
    // puzzle's row) until both answers have read what they read before they write.
    let mut holder = s.store().pool().begin().await.unwrap();
    let hold = match backend {
        tablut_bot::store::Backend::Sqlite => "UPDATE puzzles SET attempts = attempts WHERE id = $1",
        tablut_bot::store::Backend::Postgres => "SELECT id FROM puzzles WHERE id = $1 FOR UPDATE",
    };
    sqlx::query(hold).bind(id).execute(&mut *holder).await.unwrap();
    let both_waiting = async {
        match backend {
            // One answer waits in SQLite's busy handler, holding the service's write lock;
            // the other waits for that lock.
            tablut_bot::store::Backend::Sqlite => until_async("one answer waiting for SQLite's lock", || async { s.probe().writes_waiting() == 1 }).await,
            // Both wait for a row lock.
            tablut_bot::store::Backend::Postgres => {
                until_async("both answers waiting for the row lock", || async {
                    let n: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM pg_stat_activity \
                         WHERE datname = current_database() AND wait_event_type = 'Lock'",
                    )
                    .fetch_one(s.store().pool())
                    .await
                    .unwrap();
                    n == 2
                })
                .await
            }
        }
        holder.rollback().await.unwrap();
    };
    let (a, b, ()) = tokio::join!(
        s.puzzles().puzzle_move(GUILD, &astrid, &r.line[0], None),
        s.puzzles().puzzle_move(GUILD, &birger, &r.line[0], None),
        both_waiting
    );
    let solved = |answer: Result<Answered<PuzzleVerdict>, ServiceError>| match answer.unwrap().done {
        PuzzleVerdict::Solved { ratings, .. } => ratings.expect("a first try is rated"),
        other => panic!("{other:?}"),
    };
    let (a, b) = (solved(a), solved(b));
    // One after the other, whichever came first: the second moved the puzzle's rating on
    // from where the first left it.
    let p0 = initial_rating(Kind::Win, 1);
    let (first, p1) = rate_game(Rating::default(), p0, Score::Win);
    let (second, p2) = rate_game(Rating::default(), p1, Score::Win);
    let mut seen = [a.puzzle, b.puzzle];
    seen.sort_by(|x, y| y.0.rating.total_cmp(&x.0.rating));
    assert_eq!(seen, [(p0, p1), (p1, p2)], "each answer rated from the rating the other left");
    let stored = rows::by_id(s.store().pool(), id).await.unwrap().unwrap();
    assert_eq!((stored.attempts, stored.solved), (2, 2));
    assert!(
        (stored.rating.rating - p2.rating).abs() < 1e-9
            && (stored.rating.deviation - p2.deviation).abs() < 1e-9,
        "both solves moved the puzzle's rating: {:?}, not {:?} (one lost)",
        stored.rating,
        p1
    );
    let mut players = [a.player.1.rating, b.player.1.rating];
    players.sort_by(f64::total_cmp);
    let mut want = [first.rating, second.rating];
    want.sort_by(f64::total_cmp);
    assert_eq!(players, want);
}
}

both_backends! {
#[tokio::test]
async fn a_wrong_answer_fails_and_is_rated_as_a_loss(db: TestDb) {
    let f = fixture(db).await;
    let r = seed_where(|r| r.kind == Kind::Save);
    f.only(&r).await;
    let birger = user(BIRGER, "Birger");
    f.service.puzzles().puzzle(GUILD, &birger, None).await.unwrap();
    let wrong = wrong_move(&r);
    match f.service.puzzles().puzzle_move(GUILD, &birger, &wrong, None).await.unwrap().done {
        PuzzleVerdict::Failed {
            solution, ratings, ..
        } => {
            assert_eq!(solution, r.line[0]);
            let ratings = ratings.unwrap();
            let (after, puzzle_after) = rate_game(
                Rating::default(),
                initial_rating(Kind::Save, 1),
                Score::Loss,
            );
            assert_eq!(ratings.player.1, after);
            assert_eq!(ratings.puzzle.1, puzzle_after);
            assert!(after.rating < 1500.0);
        }
        other => panic!("{other:?}"),
    }
    let me = f
        .service
        .probe().puzzle_player(GUILD, BIRGER)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((me.solved, me.failed), (0, 1));
    let board = f.service.puzzles().leaderboard(GUILD, 10).await.unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!(board[0].name, "Birger");
}
}

both_backends! {
#[tokio::test]
async fn bad_answers_change_nothing(db: TestDb) {
    let f = fixture(db).await;
    let r = seed_where(|r| r.kind == Kind::Win);
    f.only(&r).await;
    let astrid = user(ASTRID, "Astrid");
    assert!(matches!(
        f.service.puzzles().puzzle_move(GUILD, &astrid, "e1-e3", None).await,
        Err(ServiceError::NoPuzzle)
    ));
    f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap();
    for bad in ["", "zz", "e5-e5", "a1-i9", &"x".repeat(5000)] {
        let e = f
            .service
            .puzzles().puzzle_move(GUILD, &astrid, bad, None)
            .await
            .unwrap_err();
        assert!(
            matches!(e, ServiceError::IllegalMove(_)),
            "{bad:.20}: {e:?}"
        );
        let words = tablut_bot::bot::messages::refusal(&e);
        assert!(words.len() < 200 && !words.contains('\n'));
    }
    // Still the first move, still rated.
    let view = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert_eq!(view.step, 1);
    assert!(view.rated);
    assert!(f
        .service
        .probe().puzzle_player(GUILD, ASTRID)
        .await
        .unwrap()
        .is_none());
    // Autocomplete lists legal moves only, at most 25.
    let all = f
        .service
        .puzzles().suggest_moves(GUILD, ASTRID, "", 25)
        .await
        .unwrap();
    assert!(!all.is_empty() && all.len() <= 25);
    let (start, _) = r.read().unwrap();
    for m in &all {
        assert!(tablut_bot::tafl::parse_move(&start, m).is_ok(), "{m}");
    }
    let from = &r.line[0][..2];
    let sol = f
        .service
        .puzzles().suggest_moves(GUILD, ASTRID, from, 25)
        .await
        .unwrap();
    assert!(sol.contains(&r.line[0]), "{sol:?}");
    assert!(f
        .service
        .puzzles().suggest_moves(GUILD, BIRGER, "", 25)
        .await
        .unwrap()
        .is_empty());
}
}

both_backends! {
#[tokio::test]
async fn the_current_puzzle_survives_a_restart(db: TestDb) {
    let f = fixture(db).await;
    let r = seed_where(|r| r.kind == Kind::Win && r.moves == 2);
    f.only(&r).await;
    let astrid = user(ASTRID, "Astrid");
    let view = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    f.service
        .puzzles().puzzle_move(GUILD, &astrid, &r.line[0], None)
        .await
        .unwrap();
    let f = f.reopen().await;
    let again = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert_eq!((again.puzzle_id, again.step), (view.puzzle_id, 2));
    assert!(matches!(
        f.service
            .puzzles().puzzle_move(GUILD, &astrid, &r.line[2], None)
            .await
            .unwrap()
            .done,
        PuzzleVerdict::Solved {
            ratings: Some(_),
            ..
        }
    ));
}
}

both_backends! {
#[tokio::test]
async fn each_player_gets_puzzles_they_have_not_tried(db: TestDb) {
    let f = fixture(db).await;
    let astrid = user(ASTRID, "Astrid");
    let mut seen = std::collections::HashSet::new();
    for _ in 0..3 {
        let view = f.service.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
        assert!(view.rated);
        assert!(
            seen.insert(view.puzzle_id),
            "puzzle {} again",
            view.puzzle_id
        );
        let p = rows::by_id(f.service.store().pool(), view.puzzle_id)
            .await
            .unwrap()
            .unwrap();
        let first = p.line.split_whitespace().next().unwrap().to_string();
        // Solve or fail it to move on.
        let answer = f.service.puzzles().puzzle_move(GUILD, &astrid, &first, None).await.unwrap().done;
        if let PuzzleVerdict::Continue { .. } = answer {
            let third = p.line.split_whitespace().nth(2).unwrap().to_string();
            f.service.puzzles().puzzle_move(GUILD, &astrid, &third, None).await.unwrap();
        }
    }
    let me = f
        .service
        .probe().puzzle_player(GUILD, ASTRID)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((me.solved, me.failed), (3, 0));
}
}

both_backends! {
#[tokio::test]
async fn the_daily_puzzle_is_posted_once_a_day_through_the_outbox(db: TestDb) {
    let f = fixture(db).await;
    const CHANNEL: u64 = 777;
    // No channel named: nothing.
    assert!(f.service.puzzles().post_daily().await.unwrap().is_empty());
    f.service
        .puzzles().set_daily_channel(GUILD, Some(CHANNEL), ASTRID, None)
        .await
        .unwrap();
    assert_eq!(f.service.puzzles().post_daily().await.unwrap(), vec![GUILD]);
    assert!(f.service.puzzles().post_daily().await.unwrap().is_empty());
    // A restart the same day posts nothing more.
    let f = f.reopen().await;
    assert!(f.service.puzzles().post_daily().await.unwrap().is_empty());
    let notices = f.service.probe().notices_in(CHANNEL).await.unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].kind, "daily_puzzle");
    let payload: Payload = serde_json::from_str(&notices[0].payload).unwrap();
    let Some(News::DailyPuzzle(view)) = &payload.news else {
        panic!("{:?}", payload.news);
    };
    assert_eq!(view.day, Some(day_of(T0)));
    let text = tablut_bot::bot::messages::notice_text(payload.news.as_ref().unwrap());
    assert!(text.contains("puzzle") && text.len() <= 2000, "{text}");
    let board = payload.puzzle.expect("the puzzle's board");
    assert!(rows::by_id(f.service.store().pool(), board.puzzle)
        .await
        .unwrap()
        .is_some());
    // The next day: the next puzzle.
    f.clock
        .advance(std::time::Duration::from_millis(DAY_MS as u64));
    assert_eq!(f.service.puzzles().post_daily().await.unwrap(), vec![GUILD]);
    let notices = f.service.probe().notices_in(CHANNEL).await.unwrap();
    assert_eq!(notices.len(), 2);
    let second: Payload = serde_json::from_str(&notices[1].payload).unwrap();
    assert_ne!(second.puzzle.unwrap().puzzle, board.puzzle);
    assert_eq!(day_of(T0 + DAY_MS), day_of(T0) + 1);
    // Stopped: nothing more.
    assert!(f
        .service
        .puzzles().set_daily_channel(GUILD, None, ASTRID, None)
        .await
        .unwrap()
        .done
        .0);
    f.clock
        .advance(std::time::Duration::from_millis(DAY_MS as u64));
    assert!(f.service.puzzles().post_daily().await.unwrap().is_empty());
}
}

/// Answers the user's current puzzle with the solver's moves of `line` to the end; the last
/// answer.
async fn solve(s: &Service, who: &User, line: &[String]) -> PuzzleVerdict {
    let mut last = None;
    for mv in line.iter().step_by(2) {
        last = Some(
            s.puzzles()
                .puzzle_move(GUILD, who, mv, None)
                .await
                .unwrap()
                .done,
        );
    }
    last.unwrap()
}

both_backends! {
#[tokio::test]
async fn everyone_answers_the_daily_puzzle_once_beside_their_own(db: TestDb) {
    let f = fixture(db).await;
    const CHANNEL: u64 = 777;
    let s = &f.service;
    let (astrid, birger, carl) = (user(ASTRID, "Astrid"), user(BIRGER, "Birger"), user(6, "Carl"));
    let day = day_of(T0);
    // Nothing posted today: nothing to answer, no day's line.
    assert!(matches!(
        s.puzzles().daily_puzzle(GUILD, &astrid, None, None).await,
        Err(ServiceError::NoDailyPuzzle)
    ));
    assert!(s.puzzles().daily_board(GUILD).await.unwrap().is_none());
    // Astrid has a puzzle of her own under way.
    let own = s.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert_eq!(own.day, None);
    s.puzzles().set_daily_channel(GUILD, Some(CHANNEL), ASTRID, None)
        .await
        .unwrap();
    assert_eq!(s.puzzles().post_daily().await.unwrap(), vec![GUILD]);
    let notice: Payload =
        serde_json::from_str(&s.probe().notices_in(CHANNEL).await.unwrap()[0].payload).unwrap();
    assert_eq!(notice.buttons, Some(Buttons::DailyPuzzle(day)));
    let text = tablut_bot::bot::messages::notice_text(notice.news.as_ref().unwrap());
    assert!(text.contains("/tablut puzzle today"), "{text}");
    let posted = notice.puzzle.unwrap().puzzle;
    // Puzzles found later the same day would change the turn of puzzles, not today's puzzle.
    let mut count = rows::count(s.store().pool()).await.unwrap();
    for n in 0.. {
        if rows::of_day(s.store().pool(), day, count).await.unwrap().unwrap().id != posted {
            break;
        }
        assert!(n < 10);
        assert!(rows::insert(
            s.store().lock().await.unwrap().ex(),
            &NewPuzzle {
                position: &format!("found later {n}"),
                to_move: "attackers",
                rules: "{}",
                kind: "win",
                moves: 1,
                line: "a4-a3",
                source: "seed",
                game_id: None,
                rating: Rating::default(),
                now: T0,
            },
        )
        .await
        .unwrap());
        count += 1;
    }
    let line: Vec<String> = rows::by_id(s.store().pool(), posted)
        .await
        .unwrap()
        .unwrap()
        .line
        .split_whitespace()
        .map(str::to_string)
        .collect();
    // Astrid's try: the posted puzzle, rated unless she had it as her own; her current puzzle
    // until it is over.
    let view = s.puzzles().daily_puzzle(GUILD, &astrid, None, None).await.unwrap().done;
    assert_eq!((view.puzzle_id, view.day, view.step), (posted, Some(day), 1));
    assert_eq!(view.rated, own.puzzle_id != posted);
    assert_eq!(s.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done.day, Some(day));
    // Solved 42 s after she pressed.
    f.clock.advance(std::time::Duration::from_secs(42));
    match solve(s, &astrid, &line).await {
        PuzzleVerdict::Solved { day: d, ratings, .. } => {
            assert_eq!(d, Some(day));
            assert_eq!(ratings.is_some(), view.rated);
        }
        other => panic!("{other:?}"),
    }
    // Her own puzzle is back where it was; the day's puzzle is hers no more.
    let back = s.puzzles().puzzle(GUILD, &astrid, None).await.unwrap().done;
    assert_eq!((back.puzzle_id, back.day, back.step), (own.puzzle_id, None, 1));
    assert!(matches!(
        s.puzzles().daily_puzzle(GUILD, &astrid, None, None).await,
        Err(ServiceError::DailyPuzzleDone { solved: true })
    ));
    // Birger's try, rated, answered wrong.
    let birgers = s.puzzles().daily_puzzle(GUILD, &birger, Some(day), None).await.unwrap().done;
    assert!(birgers.rated && birgers.puzzle_id == posted);
    let (start, solution) = rows::by_id(s.store().pool(), posted)
        .await
        .map(|r| {
            let r = r.unwrap();
            let rules = serde_json::from_str(&r.rules).unwrap();
            let start = tablut_bot::tafl::parse_position(
                &r.position,
                r.to_move.parse().unwrap(),
                rules,
            )
            .unwrap();
            (start, line[0].clone())
        })
        .unwrap();
    let wrong = start
        .legal_moves_sorted()
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| *m != solution)
        .unwrap();
    f.clock.advance(std::time::Duration::from_secs(5));
    match s.puzzles().puzzle_move(GUILD, &birger, &wrong, None).await.unwrap().done {
        PuzzleVerdict::Failed { day: d, ratings, .. } => {
            assert_eq!(d, Some(day));
            assert!(ratings.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        s.puzzles().daily_puzzle(GUILD, &birger, None, None).await,
        Err(ServiceError::DailyPuzzleDone { solved: false })
    ));
    // Carl presses twice at once: one try.
    let (a, b) = tokio::join!(
        s.puzzles().daily_puzzle(GUILD, &carl, None, None),
        s.puzzles().daily_puzzle(GUILD, &carl, None, None)
    );
    assert_eq!(a.unwrap().done.puzzle_id, b.unwrap().done.puzzle_id);
    let tries: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_attempts WHERE day = $1")
        .bind(day)
        .fetch_one(s.store().pool())
        .await
        .unwrap();
    assert_eq!(tries, 3);
    // The day's line: who solved it and how fast; who tried and did not. Carl's try is not over.
    let board = s.puzzles().daily_board(GUILD).await.unwrap().unwrap();
    assert_eq!((board.day, board.puzzle_id, board.channel), (day, posted, CHANNEL));
    let results: Vec<(u64, bool, i64)> = board
        .results
        .iter()
        .map(|r| (r.user_id, r.solved, r.took_ms))
        .collect();
    assert_eq!(results, [(ASTRID, true, 42_000), (BIRGER, false, 5_000)]);
    // The next day: yesterday's button starts nothing new, and today's puzzle is not posted yet.
    f.clock
        .advance(std::time::Duration::from_millis(DAY_MS as u64));
    assert!(matches!(
        s.puzzles().daily_puzzle(GUILD, &user(7, "Dagny"), Some(day), None).await,
        Err(ServiceError::DailyPuzzleOver)
    ));
    assert!(matches!(
        s.puzzles().daily_puzzle(GUILD, &user(7, "Dagny"), None, None).await,
        Err(ServiceError::NoDailyPuzzle)
    ));
    assert!(s.puzzles().daily_board(GUILD).await.unwrap().is_none());
    // Carl's try from yesterday is still his to finish.
    let carls = s.puzzles().daily_puzzle(GUILD, &carl, Some(day), None).await.unwrap().done;
    assert_eq!(carls.day, Some(day));
    assert!(matches!(
        solve(s, &carl, &line).await,
        PuzzleVerdict::Solved { .. }
    ));
}
}

both_backends! {
#[tokio::test]
async fn finished_games_on_the_bot_are_searched_for_puzzles_once(db: TestDb) {
    let f = fixture(db).await;
    // A game between two people from a seed puzzle's position, played along its line to the
    // win: its start is a puzzle again, found in the game.
    let r = seed_where(|r| r.kind == Kind::Win && r.moves == 2);
    let (start, line) = r.read().unwrap();
    let c = f
        .service
        .games().challenge(ChallengeRequest {
            rules: r.rules,
            start: Some(start),
            ..challenge_request(
                Place { guild: Some(GUILD), channel: 50 },
                user(ASTRID, "Astrid"),
                user(BIRGER, "Birger"),
            )
        }, None)
        .await
        .unwrap().done.0;
    let mut game = f.service.games().accept(c.id, BIRGER, None, None).await.unwrap().done.game;
    for mv in &line {
        let to_move = game.to_move().unwrap().user_id().unwrap();
        game = f.service.games().play_move(50, to_move, &mv.to_string(), Answer::None).await.unwrap().done.game;
    }
    assert!(game.is_over());
    // What the finder makes of the same game, directly.
    let mut played = tablut_bot::tafl::Game::from_position(start);
    for &mv in &line {
        played.play(mv).unwrap();
    }
    let mut solver = Solver::new();
    let expected = scan(&mut solver, &played, SCAN_PLIES);
    assert!(expected.iter().any(|(p, _)| *p == start), "the start is found");
    assert_eq!(f.service.puzzles().find_in_games(10).await.unwrap() as usize, expected.len());
    let stored: Vec<(String, String, Option<i64>)> = sqlx::query_as(
        "SELECT position, line, game_id FROM puzzles WHERE source = 'game' ORDER BY id",
    )
    .fetch_all(f.service.store().pool())
    .await
    .unwrap();
    let want: Vec<(String, String, Option<i64>)> = expected
        .iter()
        .map(|(p, found)| {
            let rec = Record::new(p, found, "game");
            (rec.position, rec.line.join(" "), Some(game.id))
        })
        .collect();
    assert_eq!(stored, want);
    // Once: the game is not searched again.
    assert_eq!(f.service.puzzles().find_in_games(10).await.unwrap(), 0);
    let scans: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_scans")
        .fetch_one(f.service.store().pool())
        .await
        .unwrap();
    assert_eq!(scans, 1);
}
}

both_backends! {
/// An answer given to an interaction is written with its notice in the transaction that judges
/// it: held for the handler's edit, naming the interaction, telling the answer as it was and
/// its board (drawn at delivery: no image stored), private for the daily puzzle's. Delivered,
/// the answer is shown and not given again. A daily answer asked from a public response is
/// refused, and nothing changes.
#[tokio::test]
async fn an_answer_given_to_an_interaction_is_written_with_its_notice(db: TestDb) {
    use tablut_bot::service::puzzle::ReplyTo;
    let f = fixture(db).await;
    let s = &f.service;
    const ASKED: u64 = 55;
    const DAILY: u64 = 778;
    let birger = user(BIRGER, "Birger");
    let to = |private| ReplyTo {
        channel: ASKED,
        answer: match private {
            true => Answer::Private(AnswerRef::new("1/token-1".into())),
            false => Answer::Command(AnswerRef::new("1/token-1".into())),
        },
    };
    // The daily puzzle, and Birger's try at it.
    s.puzzles().set_daily_channel(GUILD, Some(DAILY), ASTRID, None)
        .await
        .unwrap();
    assert_eq!(s.puzzles().post_daily().await.unwrap(), vec![GUILD]);
    let view = s.puzzles().daily_puzzle(GUILD, &birger, None, None).await.unwrap().done;
    let p = rows::by_id(s.store().pool(), view.puzzle_id)
        .await
        .unwrap()
        .unwrap();
    let r = Record {
        position: p.position.clone(),
        to_move: p.to_move.parse().unwrap(),
        rules: serde_json::from_str(&p.rules).unwrap(),
        kind: Kind::from_name(&p.kind).unwrap(),
        moves: p.moves,
        line: p.line.split_whitespace().map(str::to_string).collect(),
        source: p.source.clone(),
    };
    let wrong = wrong_move(&r);
    assert!(s
        .puzzles().verdict_private(GUILD, BIRGER, Some(&wrong))
        .await
        .unwrap());
    // Asked from a public response: refused, nothing judged, nothing written.
    assert!(matches!(
        s.puzzles().puzzle_move(GUILD, &birger, &wrong, Some(&to(false))).await,
        Err(ServiceError::PositionChanged)
    ));
    assert!(s.probe().notices_in(ASKED).await.unwrap().is_empty());
    assert!(s.probe().puzzle_player(GUILD, BIRGER).await.unwrap().is_none());
    // From a private one: judged, rated, and its notice written.
    let answer = s
        .puzzles().puzzle_move(GUILD, &birger, &wrong, Some(&to(true)))
        .await
        .unwrap()
        .done;
    let id = answer.key().notice.expect("a notice");
    let stored = s.probe().notices_in(ASKED).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].id, stored[0].kind.as_str(), stored[0].status),
        (id, "puzzle_answer", NoticeStatus::Held)
    );
    let notice = s.probe().notice(id).await.unwrap().unwrap();
    let mut told = answer.clone();
    if let PuzzleVerdict::Failed { key, .. } = &mut told {
        key.notice = None;
    } else {
        panic!("{told:?}");
    }
    assert_eq!(notice.news, News::PuzzleVerdict(told));
    assert!(notice.payload.answer.is_private() && notice.payload.answer.handle().is_some());
    let board = notice.payload.puzzle.clone().unwrap();
    assert_eq!(
        (board.puzzle, board.plies, board.then.as_deref()),
        (view.puzzle_id, 0, Some(wrong.as_str()))
    );
    assert!(!stored[0].payload.contains("png"), "{}", stored[0].payload);
    let rated = s.probe().puzzle_player(GUILD, BIRGER).await.unwrap().unwrap();
    assert_eq!((rated.solved, rated.failed), (0, 1));
    // Until delivered, play would give it again (privately); once delivered, not.
    assert!(s.puzzles().verdict_private(GUILD, BIRGER, None).await.unwrap());
    assert!(s
        .puzzles().unshown_verdict(GUILD, BIRGER, None)
        .await
        .unwrap()
        .is_some());
    s.outbox().news_delivered(&notice, None).await.unwrap();
    assert_eq!(
        s.puzzles().unshown_verdict(GUILD, BIRGER, None).await.unwrap().map(|a| a.done),
        None
    );
    assert!(!s.puzzles().verdict_private(GUILD, BIRGER, None).await.unwrap());
    assert_eq!(s.probe().puzzle_player(GUILD, BIRGER).await.unwrap().unwrap(), rated);
}
}

both_backends! {
/// A puzzle handed out to an interaction (the player's own, the daily puzzle's try) starts its
/// try in the transaction that writes the notice showing it there: held for the handler's
/// edit, naming the interaction, telling the puzzle as shown with its board (drawn at
/// delivery), private for the daily puzzle's. Shown again while under way, it is read: no
/// notice. The daily puzzle's channel is set with the notice that says so, privately.
#[tokio::test]
async fn a_puzzle_handed_out_or_a_daily_channel_set_is_written_with_its_notice(db: TestDb) {
    use tablut_bot::service::puzzle::ReplyTo;
    let f = fixture(db).await;
    let s = &f.service;
    const ASKED: u64 = 56;
    const DAILY: u64 = 779;
    let (astrid, birger) = (user(ASTRID, "Astrid"), user(BIRGER, "Birger"));
    let to = |private| ReplyTo {
        channel: ASKED,
        answer: match private {
            true => Answer::Private(AnswerRef::new("1/token-2".into())),
            false => Answer::Command(AnswerRef::new("1/token-2".into())),
        },
    };
    let alone = to(true);
    // The notice `id`: its kind, its state, what it tells, whether private, its board.
    let stored = |id: NoticeId| async move {
        let row = s.probe().notices_in(ASKED).await.unwrap();
        let row = row.into_iter().find(|n| n.id == id).expect("stored");
        let notice = s.probe().notice(id).await.unwrap().unwrap();
        assert!(notice.payload.answer.handle().is_some() && !row.payload.contains("png"));
        (row.kind, row.status, notice.news, notice.payload)
    };
    let told = |view: &tablut_bot::service::puzzle::PuzzleView| {
        News::PuzzleShown(tablut_bot::service::puzzle::PuzzleView {
            png: Vec::new(),
            notice: None,
            ..view.clone()
        })
    };
    // Her own puzzle, handed out: the try and its notice.
    let view = s.puzzles().puzzle(GUILD, &astrid, Some(&to(false))).await.unwrap().done;
    let id = view.notice.expect("a notice");
    let (kind, status, news, payload) = stored(id).await;
    assert_eq!((kind.as_str(), status), ("puzzle_shown", NoticeStatus::Held));
    assert_eq!(news, told(&view));
    assert!(!payload.answer.is_private());
    let board = payload.puzzle.unwrap();
    assert_eq!((board.puzzle, board.plies), (view.puzzle_id, 0));
    let active = rows::active(s.store().pool(), GUILD, ASTRID).await.unwrap();
    assert_eq!(active.map(|a| a.puzzle_id), Some(view.puzzle_id));
    // Under way: read again, no notice.
    let again = s.puzzles().puzzle(GUILD, &astrid, Some(&to(false))).await.unwrap().done;
    assert_eq!((again.puzzle_id, again.notice), (view.puzzle_id, None));
    assert_eq!(s.probe().notices_in(ASKED).await.unwrap().len(), 1);
    // The daily puzzle's channel, set with its private notice.
    let (had, notice) = s
        .puzzles().set_daily_channel(GUILD, Some(DAILY), ASTRID, Some(&alone))
        .await
        .unwrap()
        .done;
    assert!(had);
    let (kind, status, news, payload) = stored(notice.expect("a notice")).await;
    assert_eq!((kind.as_str(), status), ("daily_channel", NoticeStatus::Held));
    let set = News::DailyPuzzleChannel {
        channel: Some(DAILY),
        had: true,
    };
    assert_eq!(news, set);
    assert!(payload.answer.is_private() && payload.puzzle.is_none());
    assert_eq!(s.puzzles().post_daily().await.unwrap(), vec![GUILD]);
    // Birger's try at it: started with its private notice; then read.
    let daily = s.puzzles().daily_puzzle(GUILD, &birger, None, Some(&alone));
    let daily = daily.await.unwrap().done;
    let (kind, status, news, payload) = stored(daily.notice.expect("a notice")).await;
    assert_eq!((kind.as_str(), status), ("puzzle_shown", NoticeStatus::Held));
    assert_eq!(news, told(&daily));
    assert!(daily.day.is_some() && payload.answer.is_private());
    let again = s.puzzles().daily_puzzle(GUILD, &birger, None, Some(&alone));
    assert_eq!(again.await.unwrap().done.notice, None);
    assert_eq!(s.probe().notices_in(ASKED).await.unwrap().len(), 3);
    // Stopped, and stopped again: each said so.
    let stop = s.puzzles().set_daily_channel(GUILD, None, ASTRID, Some(&alone));
    let (had, notice) = stop.await.unwrap().done;
    let news = stored(notice.unwrap()).await.2;
    let stopped = |had| News::DailyPuzzleChannel { channel: None, had };
    assert!(had && news == stopped(true));
    let stop = s.puzzles().set_daily_channel(GUILD, None, ASTRID, Some(&alone));
    let (had, notice) = stop.await.unwrap().done;
    assert!(!had && stored(notice.unwrap()).await.2 == stopped(false));
}
}
