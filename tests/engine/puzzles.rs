//! Puzzles proven by an independent search: every puzzle of the seed file the bot serves, and
//! every puzzle the finder makes from games, is checked by a plain exhaustive search written
//! here (no move ordering, no shortcut for a win in one, no bound on what a move can take away,
//! its own judge of the rules' endings), one move deeper than the puzzle. The solver is also
//! compared with it position by position, and the finder tried on composed positions.

use tablut_bot::ai::puzzle::{self, Kind, Record, Solver, SAVE_MOVES};
use tablut_bot::tafl::{Bitboard, Game, MoveList, NoMoves, Outcome, Position, Rules, Side, Square};

/// The result of the move that led to `q`, by docs/RULES.md: the king captured or escaped
/// (rules 9, 10), then a repeated position (11), then no legal move (12). `None`: the game goes
/// on; `Some(None)`: drawn.
fn ending(path: &[Position], q: &Position) -> Option<Option<Side>> {
    match q.king() {
        None => return Some(Some(Side::Attackers)),
        Some(k) if q.escape_squares().contains(k) => return Some(Some(Side::Defenders)),
        Some(_) => {}
    }
    let seen = path.iter().filter(|p| *p == q).count() + 1;
    if seen >= usize::from(q.rules().repetition_limit) {
        return Some(None);
    }
    if !q.has_legal_move() {
        return match q.rules().no_moves {
            NoMoves::Lose => Some(Some(q.turn().other())),
            NoMoves::Draw => Some(None),
        };
    }
    None
}

/// Whether `w` wins within `plies` plies from the end of `path`, whatever the other side does:
/// every move tried, in the engine's order.
fn wins(path: &mut Vec<Position>, w: Side, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let pos = *path.last().unwrap();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mine = pos.turn() == w;
    for &mv in list.iter() {
        let (q, _) = pos.make(mv);
        let r = match ending(path, &q) {
            Some(winner) => winner == Some(w),
            None => {
                path.push(q);
                let r = wins(path, w, plies - 1);
                path.pop();
                r
            }
        };
        if mine && r {
            return true;
        }
        if !mine && !r {
            return false;
        }
    }
    !mine
}

/// Whether `w` wins within `plies` after `mv` is played at the end of `path`.
fn wins_after(path: &mut Vec<Position>, mv: tablut_bot::tafl::Move, w: Side, plies: u32) -> bool {
    let pos = *path.last().unwrap();
    let (q, _) = pos.make(mv);
    match ending(path, &q) {
        Some(winner) => winner == Some(w),
        None => {
            path.push(q);
            let r = wins(path, w, plies);
            path.pop();
            r
        }
    }
}

/// Checks one puzzle independently; an error says what fails.
fn check(record: &Record) -> Result<(), String> {
    let (start, line) = record.read().map_err(|e| e.to_string())?;
    let solver_side = start.turn();
    let mut game = Game::from_position(start);
    if game.outcome().is_over() {
        return Err("the start is already decided".into());
    }
    let mut path = vec![start];
    match record.kind {
        Kind::Win => {
            let n = record.moves;
            for j in 0..n {
                let left = n - j;
                let pos = *path.last().unwrap();
                let solution = line[2 * j as usize];
                // The solution wins within the moves left (its own included)…
                if !wins_after(&mut path, solution, solver_side, 2 * left - 2) {
                    return Err(format!("move {}: {solution} does not win in {left}", j + 1));
                }
                // … no other move wins even within one move more.
                for other in pos.legal_moves_sorted() {
                    if other != solution && wins_after(&mut path, other, solver_side, 2 * left) {
                        return Err(format!(
                            "move {}: {other} also wins within {}",
                            j + 1,
                            left + 1
                        ));
                    }
                }
                // The shortest: nothing wins sooner.
                if left > 1 && wins(&mut path, solver_side, 2 * left - 3) {
                    return Err(format!("move {}: a win in {} exists", j + 1, left - 1));
                }
                game.play(solution).map_err(|e| e.to_string())?;
                path.push(*game.position());
                if j + 1 < n {
                    let reply = line[2 * j as usize + 1];
                    game.play(reply).map_err(|e| e.to_string())?;
                    path.push(*game.position());
                }
            }
            match game.outcome() {
                Outcome::Won { winner, .. } if winner == solver_side => Ok(()),
                o => Err(format!("the line ends {o:?}")),
            }
        }
        Kind::Save => {
            let opponent = solver_side.other();
            let solution = line[0];
            let pos = start;
            // The opponent threatens to win at once.
            if !wins(&mut vec![pos.with_turn(opponent)], opponent, 1) {
                return Err("nothing is threatened".into());
            }
            for other in pos.legal_moves_sorted() {
                if other != solution && !wins_after(&mut path, other, opponent, 2 * SAVE_MOVES - 1)
                {
                    return Err(format!("{other} also holds for {SAVE_MOVES} moves"));
                }
            }
            if wins_after(&mut path, solution, opponent, 2 * SAVE_MOVES + 1) {
                return Err(format!("{solution} loses within {} moves", SAVE_MOVES + 1));
            }
            game.play(solution).map_err(|e| e.to_string())?;
            Ok(())
        }
    }
}

/// Checks every record on both cores; the failures.
fn check_all(records: &[Record]) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(r) = records.get(i) else { break };
                if let Err(e) = check(r) {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("puzzle {i} ({}): {e}", r.position));
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

fn seed() -> Vec<Record> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/puzzles.json");
    let text = std::fs::read_to_string(path).expect("the seed file");
    serde_json::from_str(&text).expect("the seed file parses")
}

#[test]
fn every_seed_puzzle_is_unique_by_an_independent_deeper_search() {
    let records = seed();
    assert!(records.len() >= 20, "only {} puzzles", records.len());
    let kinds = |k: Kind| records.iter().filter(|r| r.kind == k).count();
    assert!(kinds(Kind::Win) > 0 && kinds(Kind::Save) > 0);
    assert!(records.iter().any(|r| r.kind == Kind::Win && r.moves >= 2));
    let failures = check_all(&records);
    assert!(failures.is_empty(), "{failures:#?}");
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn position(attackers: &[&str], defenders: &[&str], king: &str, turn: Side) -> Position {
    let bb = |names: &[&str]| names.iter().map(|n| sq(n)).collect::<Bitboard>();
    Position::new(
        bb(attackers),
        bb(defenders),
        Some(sq(king)),
        turn,
        Rules::default(),
    )
    .unwrap()
}

#[test]
fn two_free_lines_now_make_no_puzzle() {
    // The king on c3 sees c1 and a3 (c5 and e3 shut the other two lines): two winning moves,
    // so no unique solution.
    let p = position(&["c5", "e3", "h8"], &[], "c3", Side::Defenders);
    let mut solver = Solver::new();
    assert!(solver.wins_within(&[p], 1));
    assert_eq!(solver.winning_moves(&[p], 1, 5).len(), 2);
    assert_eq!(puzzle::find(&mut solver, &[p]), None);
}

#[test]
fn one_free_line_is_a_win_in_one() {
    // The king on e3 sees only e1; his one other move, e2, wins nothing even in two: a1-e1
    // shuts the file and d2, f2 the rank.
    let p = position(
        &["a1", "d2", "f2", "d3", "f3", "e4"],
        &[],
        "e3",
        Side::Defenders,
    );
    let mut solver = Solver::new();
    let f = puzzle::find(&mut solver, &[p]).expect("a win in one");
    assert_eq!((f.kind, f.moves), (Kind::Win, 1));
    assert_eq!(f.line[0].to_string(), "e3-e1");
    check(&Record::new(&p, &f, "test")).unwrap();
}

#[test]
fn the_solver_agrees_with_the_independent_search_on_random_positions() {
    let mut solver = Solver::new();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut compared = 0;
    for _ in 0..40 {
        let mut g = Game::new(Rules::default());
        for _ in 0..rng.usize(20..120) {
            let moves = g.position().legal_moves_sorted();
            if g.outcome().is_over() || moves.is_empty() {
                break;
            }
            g.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if g.outcome().is_over() {
            continue;
        }
        let p = *g.position();
        for n in 1..=2u32 {
            let mut path = vec![p];
            let expected = wins(&mut path, p.turn(), 2 * n - 1);
            assert_eq!(solver.wins_within(&[p], n), expected, "{p:?} in {n}");
        }
        compared += 1;
    }
    assert!(compared > 20);
}

#[test]
fn puzzles_found_in_random_games_pass_the_independent_check() {
    let mut solver = Solver::new();
    let mut rng = fastrand::Rng::with_seed(11);
    let mut records = Vec::new();
    for _ in 0..60 {
        let mut g = Game::new(Rules::default());
        while !g.outcome().is_over() && g.moves().len() < 300 {
            let moves = g.position().legal_moves_sorted();
            g.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        let positions = g.positions();
        for p in &positions[positions.len().saturating_sub(6)..] {
            if let Some(f) = puzzle::find(&mut solver, std::slice::from_ref(p)) {
                records.push(Record::new(p, &f, "test"));
            }
        }
    }
    assert!(records.len() >= 5, "only {} found", records.len());
    let failures = check_all(&records);
    assert!(failures.is_empty(), "{failures:#?}");
}
