//! Puzzles: positions where the side to move has exactly one move that wins by force within a
//! few of its moves, or exactly one move that saves the game. Pure and exact: the proofs are a
//! dedicated AND/OR search over the rules engine (every defence refuted, repetition and "no
//! legal move" judged as [`crate::tafl::Game`] judges them), never the AI's evaluation.
//!
//! A puzzle starts a fresh game at its position: a repetition counts positions from there on.
//!
//! - **Win in n**: exactly one move wins within n of the solver's moves, none wins sooner, and
//!   no other first move wins even within n + 1 (the deeper search). At each later turn of the
//!   solution line (after the defence that holds out longest) the winning move is again unique,
//!   and no other wins within one move more.
//! - **Save**: the opponent threatens to win at once; every move but one loses by force within
//!   [`SAVE_MOVES`] of the opponent's moves, and after that one the opponent has no forced win
//!   within [`SAVE_MOVES`] + 1 (the deeper search).

use crate::tafl::{
    parse_move, parse_position, write_position, Move, MoveList, NoMoves, Position, Rules, Side,
    Square,
};
use serde::{Deserialize, Serialize};

/// The longest win the finder looks for, in the solver's moves.
pub const MAX_WIN_MOVES: u32 = 2;
/// A save puzzle: every other move loses within this many of the opponent's moves.
pub const SAVE_MOVES: u32 = 1;
/// The deepest the solver searches, in plies (a win in 2 checked to 3 moves: 5 plies).
const MAX_PLIES: usize = 2 * (MAX_WIN_MOVES as usize + 1) + 1;
/// How many legal moves a single move can take away from the other side at most: the moved
/// piece blocks at most one piece in each of four directions (at most 8 squares each), and up
/// to three captured pieces lose at most 16 moves each.
const MAX_MOVES_TAKEN: u32 = 4 * 8 + 3 * 16;

/// What a puzzle asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Find the move that wins (within `moves` of the solver's moves).
    Win,
    /// Find the one move that does not lose.
    Save,
}

impl Kind {
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::Save => "save",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        [Kind::Win, Kind::Save].into_iter().find(|k| k.name() == s)
    }
}

/// A puzzle found in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPuzzle {
    pub kind: Kind,
    /// Win: the solver's moves to the win. Save: 1.
    pub moves: u32,
    /// The solution: the solver's move, the opponent's reply, the solver's move… ending with
    /// the solver's last move (2 × moves − 1 moves).
    pub line: Vec<Move>,
}

/// What a move led to, for the side that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judged {
    MoverWins,
    MoverLoses,
    Drawn,
    Ongoing,
}

/// The solver: a depth-limited AND/OR search. Its buffers are made once; the search itself
/// allocates nothing.
pub struct Solver {
    /// The positions from the puzzle's start to the current node, for repetition.
    path: Vec<Position>,
    lists: Vec<MoveList>,
    nodes: u64,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            path: Vec::with_capacity(2 * MAX_PLIES + 2),
            lists: (0..MAX_PLIES + 2).map(|_| MoveList::new()).collect(),
            nodes: 0,
        }
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn set_path(&mut self, history: &[Position]) {
        self.path.clear();
        self.path.extend_from_slice(history);
    }

    /// Whether the side to move at the end of `history` (the positions since the puzzle's
    /// start, the current one last) wins by force within `moves` of its own moves.
    pub fn wins_within(&mut self, history: &[Position], moves: u32) -> bool {
        let Some(&pos) = history.last() else {
            return false;
        };
        if moves == 0 || 2 * moves as usize - 1 > MAX_PLIES {
            return false;
        }
        self.set_path(history);
        self.or_node(&pos, 2 * moves - 1, 0)
    }

    /// Whether `mv`, played at the end of `history`, wins by force within `moves` of the
    /// mover's moves (this one included).
    pub fn move_wins_within(&mut self, history: &[Position], mv: Move, moves: u32) -> bool {
        let Some(&pos) = history.last() else {
            return false;
        };
        if moves == 0 || 2 * moves as usize - 1 > MAX_PLIES || !pos.is_legal(mv) {
            return false;
        }
        self.set_path(history);
        let (q, _) = pos.make(mv);
        match self.judge(&q) {
            Judged::MoverWins => true,
            Judged::MoverLoses | Judged::Drawn => false,
            Judged::Ongoing => moves > 1 && self.and_node_pushed(q, 2 * moves - 2, 1),
        }
    }

    /// Whether, after `mv` is played at the end of `history`, the opponent wins by force within
    /// `moves` of its moves.
    pub fn move_loses_within(&mut self, history: &[Position], mv: Move, moves: u32) -> bool {
        let Some(&pos) = history.last() else {
            return false;
        };
        if moves == 0 || 2 * moves as usize - 1 > MAX_PLIES || !pos.is_legal(mv) {
            return false;
        }
        self.set_path(history);
        let (q, _) = pos.make(mv);
        match self.judge(&q) {
            Judged::MoverLoses => true,
            Judged::MoverWins | Judged::Drawn => false,
            Judged::Ongoing => {
                self.path.push(q);
                let r = self.or_node(&q, 2 * moves - 1, 1);
                self.path.pop();
                r
            }
        }
    }

    /// The legal moves at the end of `history` that win within `moves`, in sorted order,
    /// stopping once `limit` are found.
    pub fn winning_moves(&mut self, history: &[Position], moves: u32, limit: usize) -> Vec<Move> {
        let Some(pos) = history.last() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for mv in pos.legal_moves_sorted() {
            if self.move_wins_within(history, mv, moves) {
                out.push(mv);
                if out.len() >= limit {
                    break;
                }
            }
        }
        out
    }

    /// How a move that led to `q` (not yet on the path) ended, as the game would judge it.
    fn judge(&self, q: &Position) -> Judged {
        let mover = q.turn().other();
        if let Some(d) = q.decided() {
            let winner = d.winner();
            return if winner == mover {
                Judged::MoverWins
            } else {
                Judged::MoverLoses
            };
        }
        let seen = self
            .path
            .iter()
            .filter(|p| p.hash() == q.hash() && *p == q)
            .count();
        if seen + 1 >= usize::from(q.rules().repetition_limit) {
            return Judged::Drawn;
        }
        if !q.has_legal_move() {
            return match q.rules().no_moves {
                NoMoves::Lose => Judged::MoverWins,
                NoMoves::Draw => Judged::Drawn,
            };
        }
        Judged::Ongoing
    }

    /// Whether the side to move wins with its next move.
    fn wins_now(&mut self, pos: &Position, depth: usize) -> bool {
        self.nodes += 1;
        let me = pos.turn();
        let threat = match me {
            Side::Defenders => pos.king_free_lines() > 0,
            Side::Attackers => pos.king_capturable(),
        };
        if threat {
            return true;
        }
        if pos.rules().no_moves == NoMoves::Draw
            || pos.with_turn(me.other()).count_legal_moves() > MAX_MOVES_TAKEN
        {
            return false;
        }
        // A move that leaves the other side without a legal move.
        pos.legal_moves(&mut self.lists[depth]);
        for i in 0..self.lists[depth].len() {
            let (q, _) = pos.make(self.lists[depth][i]);
            if self.judge(&q) == Judged::MoverWins {
                return true;
            }
        }
        false
    }

    /// The side to move wins within `plies` (odd).
    fn or_node(&mut self, pos: &Position, plies: u32, depth: usize) -> bool {
        if plies == 0 {
            return false;
        }
        if self.wins_now(pos, depth) {
            return true;
        }
        if plies < 3 {
            return false;
        }
        self.list_ordered(pos, depth);
        for i in 0..self.lists[depth].len() {
            let mv = self.lists[depth][i];
            let (q, _) = pos.make(mv);
            let r = match self.judge(&q) {
                Judged::MoverWins => true,
                Judged::MoverLoses | Judged::Drawn => false,
                Judged::Ongoing => self.and_node_pushed(q, plies - 1, depth + 1),
            };
            if r {
                return true;
            }
        }
        false
    }

    /// Pushes `q` on the path, asks whether its mover's opponent (the winner-to-be) wins within
    /// `plies` whatever the side to move in `q` does, and pops it.
    fn and_node_pushed(&mut self, q: Position, plies: u32, depth: usize) -> bool {
        self.path.push(q);
        let r = self.and_node(&q, plies, depth);
        self.path.pop();
        r
    }

    /// The side not to move wins within `plies` (even, at least 2) whatever the side to move
    /// does.
    fn and_node(&mut self, pos: &Position, plies: u32, depth: usize) -> bool {
        self.nodes += 1;
        self.list_ordered(pos, depth);
        for i in 0..self.lists[depth].len() {
            let mv = self.lists[depth][i];
            let (q, _) = pos.make(mv);
            let holds = match self.judge(&q) {
                Judged::MoverWins | Judged::Drawn => true,
                Judged::MoverLoses => false,
                Judged::Ongoing => {
                    self.path.push(q);
                    let w = self.or_node(&q, plies - 1, depth + 1);
                    self.path.pop();
                    !w
                }
            };
            if holds {
                return false;
            }
        }
        true
    }

    /// The legal moves, those near the king first (the likeliest wins and defences).
    fn list_ordered(&mut self, pos: &Position, depth: usize) {
        let list = &mut self.lists[depth];
        pos.legal_moves(list);
        let Some(k) = pos.king() else { return };
        list.as_mut_slice()
            .sort_unstable_by_key(|mv| std::cmp::Reverse(near_king(k, *mv)));
    }
}

/// How close a move comes to the king: the king's own moves, then moves next to him, then moves
/// onto his rank or file.
fn near_king(k: Square, mv: Move) -> u8 {
    if mv.from == k {
        return 3;
    }
    let (kf, kr) = (k.file(), k.rank());
    let (f, r) = (mv.to.file(), mv.to.rank());
    let d = kf.abs_diff(f) + kr.abs_diff(r);
    if d == 1 {
        2
    } else if f == kf || r == kr {
        1
    } else {
        0
    }
}

/// Looks for a puzzle at the end of `history` (the positions since the puzzle would start; a
/// puzzle from a game starts a fresh game at its position, so pass just that position).
pub fn find(solver: &mut Solver, history: &[Position]) -> Option<FoundPuzzle> {
    let pos = *history.last()?;
    if pos.decided().is_some() || !pos.has_legal_move() {
        return None;
    }
    if let Some(f) = find_win(solver, history) {
        return Some(f);
    }
    find_save(solver, history)
}

/// The shortest win, if exactly one first move gives it and the line stays unique.
fn find_win(solver: &mut Solver, history: &[Position]) -> Option<FoundPuzzle> {
    for n in 1..=MAX_WIN_MOVES {
        let winners = solver.winning_moves(history, n, 2);
        match winners.len() {
            0 => continue,
            1 => {}
            _ => return None,
        }
        let mut line = Vec::new();
        let mut path = history.to_vec();
        unique_line(solver, &mut path, n, &mut line)?;
        return Some(FoundPuzzle {
            kind: Kind::Win,
            moves: n,
            line,
        });
    }
    None
}

/// Extends `line` from the end of `path` (the solver to move, a win in exactly `n`): the one
/// winning move, proven unique to n + 1, then the longest-holding reply, and so on.
fn unique_line(
    solver: &mut Solver,
    path: &mut Vec<Position>,
    n: u32,
    line: &mut Vec<Move>,
) -> Option<()> {
    let pos = *path.last()?;
    let winners = solver.winning_moves(path, n, 2);
    let [mv] = winners[..] else { return None };
    // The deeper search: no other move wins even within one move more.
    for other in pos.legal_moves_sorted() {
        if other != mv && solver.move_wins_within(path, other, n + 1) {
            return None;
        }
    }
    line.push(mv);
    let (q, _) = pos.make(mv);
    if n == 1 {
        return (q.decided().is_some() || !q.has_legal_move()).then_some(());
    }
    path.push(q);
    // The reply that holds out longest: the solver then needs n − 1 moves, not fewer.
    let reply = q.legal_moves_sorted().into_iter().find(|&r| {
        let (after, _) = q.make(r);
        path.push(after);
        let quick = n >= 3 && solver.wins_within(path, n - 2);
        path.pop();
        !quick
    })?;
    line.push(reply);
    let (after, _) = q.make(reply);
    path.push(after);
    unique_line(solver, path, n - 1, line)
}

/// A save: the opponent threatens to win at once, and exactly one move avoids a forced loss.
fn find_save(solver: &mut Solver, history: &[Position]) -> Option<FoundPuzzle> {
    let pos = *history.last()?;
    let threatened = match pos.turn() {
        Side::Attackers => pos.king_free_lines() > 0,
        Side::Defenders => pos.king_capturable(),
    };
    if !threatened {
        return None;
    }
    let mut saves = Vec::new();
    for mv in pos.legal_moves_sorted() {
        if !solver.move_loses_within(history, mv, SAVE_MOVES) {
            saves.push(mv);
            if saves.len() > 1 {
                return None;
            }
        }
    }
    let [mv] = saves[..] else { return None };
    // The deeper search: after the save the opponent has no forced win within one move more.
    if solver.move_loses_within(history, mv, SAVE_MOVES + 1) {
        return None;
    }
    Some(FoundPuzzle {
        kind: Kind::Save,
        moves: 1,
        line: vec![mv],
    })
}

/// The puzzles in the last `last` positions of a game, each as a fresh start at its position.
pub fn scan(
    solver: &mut Solver,
    game: &crate::tafl::Game,
    last: usize,
) -> Vec<(Position, FoundPuzzle)> {
    let positions = game.positions();
    let from = positions.len().saturating_sub(last);
    positions[from..]
        .iter()
        .filter_map(|p| find(solver, std::slice::from_ref(p)).map(|f| (*p, f)))
        .collect()
}

/// How many of a finished game's last positions the bot searches for puzzles.
pub const SCAN_PLIES: usize = 24;

/// A puzzle as the seed file (`assets/puzzles.json`) and the database keep it: the position as
/// an OpenTafl record, the side to move, the rules, and the solution line as `from-to` moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub position: String,
    pub to_move: Side,
    pub rules: Rules,
    pub kind: Kind,
    pub moves: u32,
    pub line: Vec<String>,
    /// Where it comes from: `selfplay` or `game <id>`.
    pub source: String,
}

/// A record that does not read back as a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad position: {0}")]
    Position(#[from] crate::tafl::RecordError),
    #[error("bad move {index} in the line: {reason}")]
    Line {
        index: usize,
        reason: crate::tafl::MoveError,
    },
    #[error("the line has {got} moves; a {kind} in {moves} has {want}")]
    Length {
        kind: &'static str,
        moves: u32,
        got: usize,
        want: usize,
    },
}

impl Record {
    pub fn new(start: &Position, found: &FoundPuzzle, source: &str) -> Record {
        Record {
            position: write_position(start),
            to_move: start.turn(),
            rules: *start.rules(),
            kind: found.kind,
            moves: found.moves,
            line: found.line.iter().map(Move::to_string).collect(),
            source: source.to_string(),
        }
    }

    /// The start position and the line, every move checked legal in turn.
    pub fn read(&self) -> Result<(Position, Vec<Move>), RecordError> {
        let start = parse_position(&self.position, self.to_move, self.rules)?;
        let want = 2 * self.moves as usize - 1;
        if self.moves == 0 || self.line.len() != want {
            return Err(RecordError::Length {
                kind: self.kind.name(),
                moves: self.moves,
                got: self.line.len(),
                want: want.max(1),
            });
        }
        let mut pos = start;
        let mut line = Vec::with_capacity(self.line.len());
        for (index, text) in self.line.iter().enumerate() {
            let mv =
                parse_move(&pos, text).map_err(|reason| RecordError::Line { index, reason })?;
            pos = pos.make(mv).0;
            line.push(mv);
        }
        Ok((start, line))
    }
}
