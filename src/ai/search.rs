//! The search: iterative deepening principal variation search over a transposition table,
//! with a quiescence step for the king's threats and exact repetition counting.

use super::eval::{evaluate, geo, king_reach_on, w, Weights};
use super::threats;
use super::tt::{Bound, Table};
use crate::tafl::bitboard::{squares_of, Bits, Word};
use crate::tafl::movelist::MAX_MOVES;
use crate::tafl::square::SQUARES;
use crate::tafl::tables::{slide_on, Board, Size, WordOf, DIRECTIONS};
use crate::tafl::zobrist::DEFENDERS_TO_MOVE;
use crate::tafl::{
    Bitboard, Game, Move, MoveList, NoMoves, Position, Repetition, Rules, Side, Variant,
};
use std::time::{Duration, Instant};

/// A won game is worth `MATE - plies`; a lost one the opposite.
pub const MATE: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub(crate) const INF: i32 = 31_000;
/// The deepest the search goes, extensions and quiescence included.
pub const MAX_PLY: usize = 100;
/// What a draw is worth less than an even position to the side the search plays for.
pub const DEFAULT_CONTEMPT: i32 = 30;
/// How many plies the quiescence step may add.
const QMAX: u32 = 8;

/// How a search stops.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stop {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The hard deadline: the search returns by then.
    pub deadline: Option<Instant>,
    /// No new iteration starts after this much time.
    pub soft: Option<Duration>,
}

/// What a finished search found.
#[derive(Debug, Clone)]
pub struct Found {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// A key that tells positions under different rules apart in the table.
fn rules_key(rules: &Rules) -> u64 {
    let mut x = 0x51AB_u64;
    if !rules.variant.is_tablut() {
        // "brandubh aagenielsen": the variant and its preset.
        for b in rules.to_string().bytes() {
            x = (x ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    for (name, value) in rules.options() {
        for b in name.bytes().chain(value.bytes()) {
            x = (x ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    x ^ (x >> 29)
}

pub struct Searcher {
    tt: Table,
    /// The weights the searcher was made with.
    given: Weights,
    /// The weights of the game being searched: `given`, or the variant's own when `given` are
    /// the default (Tablut's) weights.
    w: Weights,
    rules_key: u64,
    rep_limit: u32,
    /// The repetition limit loses for the defenders (Brandubh and Copenhagen) rather than
    /// drawing (Tablut).
    repetition_loses: bool,
    /// hnefatafl.org's rule: a defenders' move that recreates an earlier board is refused;
    /// the search scores it as lost for the defenders, which they then avoid as they would an
    /// illegal move (and with no other move, lose as a side without a move does).
    no_defender_repeat: bool,
    no_moves_lose: bool,
    /// Hashes of the game's positions since its last capture, then the search's path.
    path: Vec<u64>,
    /// For each entry of `path`, the first index a position equal to it could have.
    since: Vec<u32>,
    nodes: u64,
    stop: Stop,
    stopped: bool,
    started: Instant,
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Move-ordering scores, one row per ply (no allocation or clearing in the search).
    scores: Box<[[i32; MAX_MOVES]; MAX_PLY]>,
    history: Box<[[i32; SQUARES * SQUARES]; 2]>,
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    ext_limit: usize,
    /// Use null-move pruning.
    pub null_move: bool,
    /// What a draw costs the side to move at the root (and gains its opponent).
    pub contempt: i32,
    root_side: Side,
    bias: i32,
}

/// The game's legal moves (those the board allows, less a defenders' repeat the rules refuse).
fn root_moves(game: &Game) -> MoveList {
    let mut root = MoveList::new();
    for mv in game.legal_moves() {
        root.push(mv);
    }
    root
}

#[inline(always)]
fn side_index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

impl Searcher {
    pub fn new(tt_mb: usize, weights: Weights) -> Searcher {
        let none = Move::new(crate::tafl::Square::A1, crate::tafl::Square::A1);
        Searcher {
            tt: Table::new(tt_mb),
            given: weights,
            w: weights,
            rules_key: 0,
            rep_limit: 2,
            repetition_loses: false,
            no_defender_repeat: false,
            no_moves_lose: true,
            path: Vec::with_capacity(1024),
            since: Vec::with_capacity(1024),
            nodes: 0,
            stop: Stop::default(),
            stopped: false,
            started: Instant::now(),
            killers: [[None; 2]; MAX_PLY],
            scores: vec![[0; MAX_MOVES]; MAX_PLY]
                .into_boxed_slice()
                .try_into()
                .expect("MAX_PLY rows"),
            history: Box::new([[0; SQUARES * SQUARES]; 2]),
            pv: Box::new([[none; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            ext_limit: 0,
            null_move: true,
            contempt: DEFAULT_CONTEMPT,
            root_side: Side::Attackers,
            bias: 0,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every position searched so far (O(1)): the next search answers as a fresh
    /// searcher of the same table size would.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Sets up the game's history (for repetitions) and its rules.
    fn prepare(&mut self, game: &Game, stop: Stop) {
        let rules = game.rules();
        self.rules_key = rules_key(rules);
        self.w = if self.given == Weights::DEFAULT {
            Weights::of(rules.variant)
        } else {
            self.given
        };
        let repetition = rules.repetition();
        self.no_defender_repeat = repetition == Repetition::DefendersMayNotRepeat;
        self.rep_limit = if self.no_defender_repeat {
            u32::MAX
        } else {
            u32::from(rules.repetition_limit.max(1))
        };
        self.repetition_loses = repetition == Repetition::DefendersLose;
        self.no_moves_lose = rules.no_moves == NoMoves::Lose;
        self.path.clear();
        self.since.clear();
        let positions = game.positions();
        // Positions before the last capture can never come back.
        let pieces = |p: &Position| p.occupied().count();
        let last = pieces(game.position());
        let mut first = positions.len() - 1;
        while first > 0 && pieces(&positions[first - 1]) == last {
            first -= 1;
        }
        for p in &positions[first..] {
            self.path.push(p.hash());
            self.since.push(0);
        }
        self.root_side = game.turn();
        self.bias = super::eval::start_bias(rules, &self.w);
        self.nodes = 0;
        self.stop = stop;
        self.stopped = false;
        self.started = Instant::now();
        self.killers = [[None; 2]; MAX_PLY];
        for h in self.history.iter_mut() {
            h.fill(0);
        }
    }

    #[inline(always)]
    fn push(&mut self, hash: u64, irreversible: bool) {
        let since = if irreversible {
            self.path.len() as u32
        } else {
            *self.since.last().unwrap_or(&0)
        };
        self.path.push(hash);
        self.since.push(since);
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.path.pop();
        self.since.pop();
    }

    /// Whether the position on top of the path has now occurred `repetition_limit` times.
    #[inline]
    fn repeated(&self) -> bool {
        let i = self.path.len() - 1;
        let h = self.path[i];
        let lo = self.since[i] as usize;
        let mut count = 1;
        let mut j = i;
        while j >= lo + 2 {
            j -= 2;
            if self.path[j] == h {
                count += 1;
                if count >= self.rep_limit {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the board on top of the path (the defenders just moved) stood so before, with
    /// either side to move, since the last capture.
    #[inline]
    fn board_seen(&self) -> bool {
        let i = self.path.len() - 1;
        let h = self.path[i];
        let other = h ^ DEFENDERS_TO_MOVE;
        let lo = self.since[i] as usize;
        self.path[lo..i].iter().any(|&p| p == h || p == other)
    }

    /// Counts a node; true once the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if let Some(n) = self.stop.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes & 255 == 0 {
            if let Some(d) = self.stop.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// What every node checks first: the stop, a decided game, a repetition and the ply limit.
    /// `Some(score)` ends the node there.
    #[inline(always)]
    fn settled(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.pv_len[ply] = ply;
        if self.tick() {
            return Some(0);
        }
        if pos.decided().is_some() {
            return Some(Self::lost(ply));
        }
        if self.repeated() {
            return Some(self.repetition(pos, ply));
        }
        if self.no_defender_repeat && pos.turn() == Side::Attackers && self.board_seen() {
            return Some(-Self::lost(ply));
        }
        if ply >= MAX_PLY - 2 {
            return Some(evaluate(pos, &self.w, self.bias));
        }
        None
    }

    /// The score of a game the side to move lost at `ply`.
    #[inline(always)]
    fn lost(ply: usize) -> i32 {
        -(MATE - ply as i32)
    }

    /// What having no legal move means for the side to move at `ply`.
    fn no_moves(&self, pos: &Position, ply: usize) -> i32 {
        if self.no_moves_lose {
            Self::lost(ply)
        } else {
            self.draw(pos)
        }
    }

    /// The score of a position that has come back `repetition_limit` times: a draw in Tablut;
    /// in Brandubh and Copenhagen, perpetual repetition loses for the defenders.
    #[inline(always)]
    fn repetition(&self, pos: &Position, ply: usize) -> i32 {
        if !self.repetition_loses {
            self.draw(pos)
        } else if pos.turn() == Side::Defenders {
            Self::lost(ply)
        } else {
            -Self::lost(ply)
        }
    }

    /// A draw's score for the side to move in `pos`.
    #[inline(always)]
    fn draw(&self, pos: &Position) -> i32 {
        if pos.turn() == self.root_side {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The squares on the king's free lines, his escape squares included.
    fn free_line_squares(pos: &Position) -> Bits {
        let Some(k) = pos.king() else {
            return Bits::ZERO;
        };
        let k = k.index();
        let g = pos.geometry();
        let occ = pos.occupied().0 & !(Bits::bit(k));
        let reach = king_reach_on(pos, g, k, occ);
        let escape = pos.escape_squares().0;
        let mut m = Bits::ZERO;
        for dir in DIRECTIONS {
            let s = slide_on(g, k, dir, occ) & reach;
            if (s & escape).any() {
                m |= s;
            }
        }
        m
    }

    /// Ordering scores for a list of moves, into `self.scores[ply]`.
    fn order(&mut self, pos: &Position, list: &MoveList, hash_move: Option<Move>, ply: usize) {
        match pos.variant() {
            Variant::Tablut => self.order_n::<9>(pos, list, hash_move, ply),
            Variant::Brandubh => self.order_n::<7>(pos, list, hash_move, ply),
            Variant::Copenhagen => self.order_n::<11>(pos, list, hash_move, ply),
            Variant::Copenhagen13 => self.order_n::<13>(pos, list, hash_move, ply),
        }
    }

    /// [`Searcher::order`] on the `N` × `N` board.
    #[inline(always)]
    fn order_n<const N: usize>(
        &mut self,
        pos: &Position,
        list: &MoveList,
        hash_move: Option<Move>,
        ply: usize,
    ) where
        Size<N>: Board,
    {
        let us = pos.turn();
        let si = side_index(us);
        let king = w::<N>(pos.king_bb());
        let king_adj = pos
            .king()
            .map_or(WordOf::<N>::ZERO, |k| geo::<N>().adjacent[k.index()]);
        let killers = if ply < MAX_PLY {
            self.killers[ply]
        } else {
            [None; 2]
        };
        let [one, two, three] = threats::capture_squares_of::<N>(pos);
        for (i, &mv) in list.iter().enumerate() {
            let s = if Some(mv) == hash_move {
                1 << 30
            } else {
                let t = mv.to.index();
                let caps = one.has(t) as u32 + two.has(t) as u32 + three.has(t) as u32;
                let mut s =
                    self.history[si][mv.from.index() * SQUARES + mv.to.index()].min(400_000);
                if caps > 0 {
                    s += 2_000_000 + caps as i32 * 100_000;
                } else if Some(mv) == killers[0] {
                    s += 1_000_000;
                } else if Some(mv) == killers[1] {
                    s += 900_000;
                }
                if king.has(mv.from.index()) {
                    s += 500_000;
                } else if us == Side::Attackers && king_adj.has(mv.to.index()) {
                    s += 450_000;
                }
                s
            };
            self.scores[ply][i] = s;
        }
    }

    /// Picks the best-scored move at or after `i` and swaps it into place.
    #[inline(always)]
    fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
        let n = list.len();
        let mut best = i;
        for j in i + 1..n {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        let moves = list.as_mut_slice();
        moves.swap(i, best);
        scores.swap(i, best);
        moves[i]
    }

    #[inline(always)]
    fn tt_score_in(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score + ply as i32
        } else if score < -MATE_BOUND {
            score - ply as i32
        } else {
            score
        }
    }

    #[inline(always)]
    fn tt_score_out(score: i32, ply: usize) -> i32 {
        if score > MATE_BOUND {
            score - ply as i32
        } else if score < -MATE_BOUND {
            score + ply as i32
        } else {
            score
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let next = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            ply + 1
        };
        for j in ply + 1..next {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = next.max(ply + 1);
    }

    /// The principal variation search below the root.
    fn search(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(score) = self.settled(pos, ply) {
            return score;
        }
        let us = pos.turn();
        let mut free = 0;
        let threatened = match us {
            Side::Defenders => {
                if pos.king_free_lines() > 0 {
                    return MATE - ply as i32 - 1;
                }
                threats::king_capturable(pos)
            }
            Side::Attackers => {
                if threats::king_capturable(pos) {
                    return MATE - ply as i32 - 1;
                }
                free = pos.king_free_lines();
                if free >= 2 {
                    return Self::lost(ply + 2);
                }
                free == 1
            }
        };
        if threatened && ply < self.ext_limit {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash() ^ self.rules_key;
        let mut hash_move = None;
        if let Some(hit) = self.tt.probe(key) {
            hash_move = hit.mv;
            if !pv_node && hit.depth >= depth {
                let s = Self::tt_score_out(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Null move: if passing still holds beta, the position is good enough.
        if self.null_move
            && !pv_node
            && !threatened
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && evaluate(pos, &self.w, self.bias) >= beta
        {
            let child = pos.with_turn(us.other());
            self.push(child.hash(), true);
            let r = 2 + depth / 6;
            let s = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta && s < MATE_BOUND {
                return s;
            }
        }

        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return self.no_moves(pos, ply);
        }
        if free == 1 {
            let block = Self::free_line_squares(pos);
            let mut i = 0;
            while i < list.len() {
                if !block.has(list[i].to.index()) {
                    list.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            if list.is_empty() {
                return Self::lost(ply + 2);
            }
        }
        self.order(pos, &list, hash_move, ply);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let si = side_index(us);
        for i in 0..list.len() {
            let mv = Self::pick(&mut list, &mut self.scores[ply], i);
            let quiet = self.scores[ply][i] < 450_000;
            let (child, effect) = pos.make(mv);
            self.push(child.hash(), effect.captured.any());
            let score = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r = if depth >= 3 && i >= 3 && quiet && !threatened {
                    if i >= 10 && depth >= 5 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut s = -self.search(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 {
                    s = -self.search(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            self.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h =
                                &mut self.history[si][mv.from.index() * SQUARES + mv.to.index()];
                            *h += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, Self::tt_score_in(best, ply), depth, bound);
        best
    }

    /// The quiescence step: the king's threats are played out, everything else stands pat.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, qd: u32) -> i32 {
        if let Some(score) = self.settled(pos, ply) {
            return score;
        }
        let us = pos.turn();
        let mut list = MoveList::new();
        match us {
            Side::Attackers => {
                if threats::king_capturable(pos) {
                    return MATE - ply as i32 - 1;
                }
                let free = pos.king_free_lines();
                if free >= 2 {
                    return Self::lost(ply + 2);
                }
                if free == 1 {
                    // Forced: block the line or lose.
                    let block = Self::free_line_squares(pos);
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        return self.no_moves(pos, ply);
                    }
                    let mut best = Self::lost(ply + 2);
                    for &mv in list.iter() {
                        if !block.has(mv.to.index()) {
                            continue;
                        }
                        let (child, effect) = pos.make(mv);
                        self.push(child.hash(), effect.captured.any());
                        let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1);
                        self.pop();
                        if self.stopped {
                            return 0;
                        }
                        if s > best {
                            best = s;
                            if s > alpha {
                                alpha = s;
                                self.update_pv(ply, mv);
                                if s >= beta {
                                    break;
                                }
                            }
                        }
                    }
                    return best;
                }
                evaluate(pos, &self.w, self.bias)
            }
            Side::Defenders => {
                if pos.king_free_lines() > 0 {
                    return MATE - ply as i32 - 1;
                }
                let threatened = threats::king_capturable(pos);
                let stand = evaluate(pos, &self.w, self.bias);
                if qd >= QMAX {
                    return stand;
                }
                let mut best;
                if threatened {
                    // The king is attacked: every reply is searched, standing pat is no answer.
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        return self.no_moves(pos, ply);
                    }
                    best = -INF;
                } else {
                    if stand >= beta {
                        return stand;
                    }
                    best = stand;
                    if stand > alpha {
                        alpha = stand;
                    }
                    // King moves that open a free line (raichi) force the attackers' answer.
                    let Some(k) = pos.king() else { return stand };
                    let routes = {
                        let lines_from = Self::route_squares(pos);
                        pos.destinations(k) & Bitboard(lines_from)
                    };
                    for to in routes {
                        list.push(Move::new(k, to));
                    }
                }
                for i in 0..list.len() {
                    let mv = list[i];
                    let (child, effect) = pos.make(mv);
                    self.push(child.hash(), effect.captured.any());
                    let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qd + 1);
                    self.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s > best {
                        best = s;
                        if s > alpha {
                            alpha = s;
                            self.update_pv(ply, mv);
                            if s >= beta {
                                break;
                            }
                        }
                    }
                }
                best
            }
        }
    }

    /// Squares from which the king would have a free line (the king's own square counted empty).
    fn route_squares(pos: &Position) -> Bits {
        match pos.variant() {
            Variant::Tablut => Self::route_squares_n::<9>(pos).to_bits(),
            Variant::Brandubh => Self::route_squares_n::<7>(pos).to_bits(),
            Variant::Copenhagen => Self::route_squares_n::<11>(pos).to_bits(),
            Variant::Copenhagen13 => Self::route_squares_n::<13>(pos).to_bits(),
        }
    }

    /// [`Searcher::route_squares`] on the `N` × `N` board.
    #[inline(always)]
    fn route_squares_n<const N: usize>(pos: &Position) -> WordOf<N>
    where
        Size<N>: Board,
    {
        let Some(k) = pos.king() else {
            return WordOf::<N>::ZERO;
        };
        let k = k.index();
        let g = geo::<N>();
        let occ = w::<N>(pos.occupied()) & !WordOf::<N>::bit(k);
        let escape = w::<N>(pos.escape_squares());
        let mut m = WordOf::<N>::ZERO;
        // Squares that see an escape square along a line: scan from each escape square inward.
        for e in squares_of(escape & !occ) {
            for dir in DIRECTIONS {
                m |= slide_on(g, e.index(), dir, occ);
            }
        }
        m & !escape
    }

    /// Searches `game`'s position: iterative deepening until a limit is hit.
    /// `None` when the game is over or there is no legal move.
    pub fn run(&mut self, game: &Game, stop: Stop) -> Option<Found> {
        if game.outcome().is_over() {
            return None;
        }
        let pos = *game.position();
        let root = root_moves(game);
        if root.is_empty() {
            return None;
        }
        self.prepare(game, stop);
        let key = pos.hash() ^ self.rules_key;
        let hash_move = self.tt.probe(key).and_then(|h| h.mv);
        self.order(&pos, &root, hash_move, 0);
        // Sort once by the ordering scores; later iterations put the best first.
        let mut moves: Vec<(Move, i32)> = root
            .iter()
            .copied()
            .zip(self.scores[0].iter().copied())
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut moves: Vec<Move> = moves.into_iter().map(|(m, _)| m).collect();

        let max_depth = stop
            .depth
            .unwrap_or(MAX_PLY as u32 / 2)
            .clamp(1, MAX_PLY as u32 / 2);
        let mut found = Found {
            best: moves[0],
            score: evaluate(&pos, &self.w, self.bias),
            depth: 0,
            nodes: 0,
            pv: vec![moves[0]],
        };
        for depth in 1..=max_depth as i32 {
            self.ext_limit = (2 * depth as usize + 4).min(MAX_PLY - 4);
            let mut alpha = -INF;
            let beta = INF;
            let mut best: Option<(Move, i32, Vec<Move>)> = None;
            for (i, &mv) in moves.iter().enumerate() {
                let (child, effect) = pos.make(mv);
                self.push(child.hash(), effect.captured.any());
                let score = if i == 0 {
                    -self.search(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    let s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1);
                    if s > alpha && !self.stopped {
                        -self.search(&child, depth - 1, -beta, -alpha, 1)
                    } else {
                        s
                    }
                };
                self.pop();
                if self.stopped {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    let mut pv = vec![mv];
                    pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                    best = Some((mv, score, pv));
                }
            }
            if let Some((mv, score, pv)) = best {
                // Every move that raised alpha was searched in full, so the best of this
                // iteration is trusted even if the iteration was cut short.
                found.best = mv;
                found.score = score;
                found.pv = pv;
                if !self.stopped {
                    found.depth = depth as u32;
                }
                let at = moves.iter().position(|&m| m == mv).unwrap_or(0);
                let m = moves.remove(at);
                moves.insert(0, m);
                self.tt.store(key, Some(mv), score, depth, Bound::Exact);
            }
            if self.stopped {
                break;
            }
            if found.score.abs() > MATE_BOUND && MATE - found.score.abs() <= depth {
                break;
            }
            if let Some(soft) = self.stop.soft {
                if self.started.elapsed() >= soft {
                    break;
                }
            }
            if moves.len() == 1 && self.stop.deadline.is_some() {
                break;
            }
        }
        found.nodes = self.nodes;
        Some(found)
    }

    /// Every root move with its score from a search of `depth` plies (for the easy level).
    /// Moves not reached before `stop` trips are left out.
    pub fn score_moves(&mut self, game: &Game, depth: i32, stop: Stop) -> Vec<(Move, i32)> {
        if game.outcome().is_over() {
            return Vec::new();
        }
        let pos = *game.position();
        let root = root_moves(game);
        self.prepare(game, stop);
        self.ext_limit = 4;
        let mut out = Vec::with_capacity(root.len());
        for &mv in root.iter() {
            let (child, effect) = pos.make(mv);
            self.push(child.hash(), effect.captured.any());
            let s = -self.search(&child, depth - 1, -INF, INF, 1);
            self.pop();
            if self.stopped {
                break;
            }
            out.push((mv, s));
        }
        out
    }
}
