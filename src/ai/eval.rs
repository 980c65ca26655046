//! The static evaluation: what a tablut position is worth to the side to move.
//!
//! Everything is computed from bitboards, without allocation: material, the king's distance to
//! the squares he escapes to, his free lines and his two-move escape routes, the attackers'
//! blockade of the approaches, the king's safety on, beside and away from his castle, and
//! mobility. The weights are tuned by self-play (`tablut-bot selfplay --tune`).

use crate::tafl::bitboard::{Bits, Word};
use crate::tafl::tables::{slide_on, Board, Geometry, Size, WordOf, DIRECTIONS};
use crate::tafl::{Bitboard, Escape, KingCapture, Position, Side, Variant};

/// The evaluation's weights, in centi-soldiers (an attacker is worth about 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Weights {
    /// Each attacker on the board (counts for the attackers).
    pub attacker: i32,
    /// Each defender on the board (counts for the defenders).
    pub defender: i32,
    /// Each step the king is closer to the nearest square he escapes to (out of four).
    pub king_near_edge: i32,
    /// Each free line the king has to an escape square.
    pub king_free_line: i32,
    /// Each square the king reaches in one move from which a line to an escape square is free:
    /// the two-move escape routes the attackers have not yet closed.
    pub king_route: i32,
    /// Each square the king reaches in one move from which two lines are free (a *tuichu* in one).
    pub king_double: i32,
    /// Each hostile square next to the king, weighted by how few more the attackers need.
    pub king_danger: i32,
    /// The king still on his castle (safest, but far from the edge).
    pub king_on_castle: i32,
    /// The king next to the castle.
    pub king_beside_castle: i32,
    /// Each attacker on a blockade square (the diagonal wall squares before the corners).
    pub blockade: i32,
    /// Each diagonally touching pair of attackers (the links of a tafl wall).
    pub diagonal: i32,
    /// Each legal move the defenders have more than the attackers, per 4 moves (costly: the
    /// moves of both sides are counted; 0 skips it).
    pub mobility: i32,
    /// Each square the king can move to.
    pub king_mobility: i32,
    /// Having the move.
    pub tempo: i32,
}

impl Weights {
    /// The tuned default weights: one `selfplay --tune` round at depth 3 moved `attacker`,
    /// `king_route`, `king_danger`, `diagonal`, `king_mobility` and `tempo`, and the result beat
    /// the previous weights by +161 ± 93 Elo at `hard`, 200 ms a move, over 60 games.
    pub const DEFAULT: Weights = Weights {
        attacker: 130,
        defender: 130,
        king_near_edge: 20,
        king_free_line: 120,
        king_route: 21,
        king_double: 90,
        king_danger: 18,
        king_on_castle: 10,
        king_beside_castle: 0,
        blockade: 20,
        diagonal: 15,
        mobility: 0,
        king_mobility: 6,
        tempo: 13,
    };

    /// The weights by name, for the tuner.
    pub fn fields_mut(&mut self) -> [(&'static str, &mut i32); 14] {
        [
            ("attacker", &mut self.attacker),
            ("defender", &mut self.defender),
            ("king_near_edge", &mut self.king_near_edge),
            ("king_free_line", &mut self.king_free_line),
            ("king_route", &mut self.king_route),
            ("king_double", &mut self.king_double),
            ("king_danger", &mut self.king_danger),
            ("king_on_castle", &mut self.king_on_castle),
            ("king_beside_castle", &mut self.king_beside_castle),
            ("blockade", &mut self.blockade),
            ("diagonal", &mut self.diagonal),
            ("mobility", &mut self.mobility),
            ("king_mobility", &mut self.king_mobility),
            ("tempo", &mut self.tempo),
        ]
    }
}

impl Weights {
    /// Brandubh's weights (7×7, corner escape, eight attackers against four defenders): each
    /// piece is worth more, the king is near a corner at once and his safety counts for more.
    pub const BRANDUBH: Weights = Weights {
        attacker: 150,
        defender: 170,
        king_near_edge: 24,
        king_free_line: 120,
        king_route: 30,
        king_double: 100,
        king_danger: 30,
        king_on_castle: 0,
        king_beside_castle: 0,
        blockade: 22,
        diagonal: 10,
        mobility: 0,
        king_mobility: 6,
        tempo: 13,
    };

    /// Copenhagen's weights (11×11, corner escape, twenty-four attackers against twelve
    /// defenders): the attackers' corner guards and wall count for more, a single piece less.
    pub const COPENHAGEN: Weights = Weights {
        attacker: 100,
        defender: 120,
        king_near_edge: 16,
        king_free_line: 120,
        king_route: 26,
        king_double: 90,
        king_danger: 14,
        king_on_castle: 0,
        king_beside_castle: 0,
        blockade: 30,
        diagonal: 14,
        mobility: 0,
        king_mobility: 5,
        tempo: 13,
    };

    /// The default weights of a variant: [`Weights::DEFAULT`] for Tablut.
    pub const fn of(variant: Variant) -> Weights {
        match variant {
            Variant::Tablut => Weights::DEFAULT,
            Variant::Brandubh => Weights::BRANDUBH,
            Variant::Copenhagen | Variant::Copenhagen13 => Weights::COPENHAGEN,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

const fn rank_mask(rank: usize) -> u128 {
    0x1FF << (rank * STRIDE)
}

/// Squares are numbered rank × STRIDE + file (see `crate::tafl::square`).
const STRIDE: usize = crate::tafl::square::STRIDE;
const SQUARES: usize = crate::tafl::square::SQUARES;
/// The castle's index.
const CASTLE_SQ: usize = crate::tafl::Square::CASTLE.index();

// Tablut's masks: its 9×9 board's squares' indices are below 128.
const FILE_A: u128 = Bitboard::FILE_A.0.lo();
const FILE_I: u128 = Bitboard::FILE_I.0.lo();
const CASTLE: u128 = Bitboard::CASTLE.0.lo();
const FULL: u128 = Bitboard::FULL.0.lo();

const fn squares_mask(list: &[(u8, u8)]) -> Bits {
    let mut m = Bits::ZERO;
    let mut i = 0;
    while i < list.len() {
        let (f, r) = list[i];
        m = m.or(Bits::bit(r as usize * STRIDE + f as usize));
        i += 1;
    }
    m
}

/// b3, c2 and their seven mirror images: where attackers wall off the corners.
const BLOCKADE: u128 = squares_mask(&[
    (1, 2),
    (2, 1),
    (6, 1),
    (7, 2),
    (1, 6),
    (2, 7),
    (6, 7),
    (7, 6),
])
.lo();

/// Manhattan-free distance to the nearest edge: 0 on the edge, 4 on the castle.
const fn edge_distance() -> [u8; SQUARES] {
    let mut d = [0u8; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let f = i % STRIDE;
        let r = i / STRIDE;
        if f > 8 || r > 8 {
            i += 1;
            continue;
        }
        let mut m = f;
        if 8 - f < m {
            m = 8 - f;
        }
        if r < m {
            m = r;
        }
        if 8 - r < m {
            m = 8 - r;
        }
        d[i] = m as u8;
        i += 1;
    }
    d
}

/// Steps to the nearest corner along ranks and files, capped at 8: 0 on a corner.
const fn corner_distance() -> [u8; SQUARES] {
    let mut d = [0u8; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let f = i % STRIDE;
        let r = i / STRIDE;
        if f > 8 || r > 8 {
            i += 1;
            continue;
        }
        let df = if f < 8 - f { f } else { 8 - f };
        let dr = if r < 8 - r { r } else { 8 - r };
        let mut m = df + dr;
        if m > 8 {
            m = 8;
        }
        d[i] = m as u8;
        i += 1;
    }
    d
}

static EDGE_DISTANCE: [u8; SQUARES] = edge_distance();
static CORNER_DISTANCE: [u8; SQUARES] = corner_distance();

/// The squares from which the line in each direction to an escape square is free, given the
/// squares that block (`empty` is where a king may pass).
#[inline(always)]
fn free_line_fills(empty: u128, escape: u128) -> [u128; 4] {
    // North: seeds on rank 9, spread south through empty squares.
    let mut n = escape & empty & rank_mask(8);
    let mut e = escape & empty & FILE_I;
    let mut s = escape & empty & rank_mask(0);
    let mut w = escape & empty & FILE_A;
    for _ in 0..8 {
        n |= (n >> STRIDE) & empty;
        s |= (s << STRIDE) & empty & FULL;
        e |= (e >> 1) & empty & !FILE_I;
        w |= (w << 1) & empty & !FILE_A & FULL;
    }
    [n, e, s, w]
}

/// The king's reach in one move, as the rules let him move (`occ` without the king).
#[inline(always)]
pub(crate) fn king_reach(pos: &Position, k: usize, occ: u128) -> u128 {
    let rules = pos.rules();
    let g = geo::<9>();
    let mut reach = 0;
    for dir in DIRECTIONS {
        let mut r = slide_on(g, k, dir, occ);
        if !rules.castle_passable && (r & CASTLE).any() {
            // Cut the slide at the castle (he may land there only if he may re-enter).
            r &= g.to_centre[k];
        }
        reach |= r;
    }
    if !rules.king_reenters_castle {
        reach &= !CASTLE;
    }
    reach
}

/// The position's worth to the side to move, in centi-soldiers, measured from the start
/// position's worth under the same rules (`bias`, see [`start_bias`]): the start is even.
#[inline]
pub fn evaluate(pos: &Position, w: &Weights, bias: i32) -> i32 {
    let v = evaluate_defenders(pos, w) - bias;
    match pos.turn() {
        Side::Defenders => v + w.tempo,
        Side::Attackers => w.tempo - v,
    }
}

/// The start position's worth to the defenders under `rules`.
pub fn start_bias(rules: &crate::tafl::Rules, w: &Weights) -> i32 {
    evaluate_defenders(&Position::start(*rules), w)
}

/// The king's free lines and two-move routes, used by the search too.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct KingLines {
    /// Free lines to an escape square now.
    pub free: u32,
    /// (square, direction) pairs with a free line, over the squares the king reaches in one move.
    pub routes: u32,
    /// Squares the king reaches in one move with two or more free lines.
    pub doubles: u32,
    /// Squares the king reaches in one move.
    pub reach: u32,
}

#[inline(always)]
pub(crate) fn king_lines(pos: &Position) -> KingLines {
    let Some(k) = pos.king() else {
        return KingLines::default();
    };
    let k = k.index();
    match pos.variant() {
        Variant::Tablut => {}
        Variant::Brandubh => return king_lines_n::<7>(pos, k),
        Variant::Copenhagen => return king_lines_n::<11>(pos, k),
        Variant::Copenhagen13 => return king_lines_n::<13>(pos, k),
    }
    let occ = w::<9>(pos.occupied()) & !u128::bit(k);
    let escape = w::<9>(pos.escape_squares());
    let mut block = occ;
    if !pos.rules().castle_passable {
        block |= CASTLE;
    }
    let reach = king_reach(pos, k, occ);
    let free = (reach & escape).count_ones();
    let [n, e, s, wst] = free_line_fills(FULL & !block, escape);
    let cand = reach & !escape;
    let routes = (cand & n).count_ones()
        + (cand & e).count_ones()
        + (cand & s).count_ones()
        + (cand & wst).count_ones();
    let two = (n & (e | s | wst)) | (e & (s | wst)) | (s & wst);
    let doubles = (cand & two).count_ones();
    KingLines {
        free,
        routes,
        doubles,
        reach: reach.count_ones(),
    }
}

/// The position's worth to the defenders.
#[inline]
pub fn evaluate_defenders(pos: &Position, w: &Weights) -> i32 {
    match pos.variant() {
        Variant::Tablut => evaluate_tablut(pos, w),
        Variant::Brandubh => evaluate_corner::<7>(pos, w),
        Variant::Copenhagen => evaluate_corner::<11>(pos, w),
        Variant::Copenhagen13 => evaluate_corner::<13>(pos, w),
    }
}

/// Tablut's evaluation (9×9, every preset and option).
fn evaluate_tablut(pos: &Position, w: &Weights) -> i32 {
    let att = self::w::<9>(pos.attackers());
    let def = self::w::<9>(pos.defenders());
    // Material against the start's 8 defenders and 16 attackers, so the start is about even.
    let mut v =
        w.defender * (def.count_ones() as i32 - 8) - w.attacker * (att.count_ones() as i32 - 16);
    let Some(ksq) = pos.king() else {
        return v;
    };
    let k = ksq.index();
    let rules = pos.rules();

    // Distance to the squares he escapes to.
    let dist = match rules.escape {
        Escape::Edge => EDGE_DISTANCE[k] as i32,
        Escape::Corner => (CORNER_DISTANCE[k] as i32 + 1) / 2,
    };
    v += w.king_near_edge * (4 - dist.min(4));

    let lines = king_lines(pos);
    v += w.king_free_line * lines.free as i32
        + w.king_route * lines.routes as i32
        + w.king_double * lines.doubles as i32
        + w.king_mobility * lines.reach as i32;

    // Safety: hostile squares around him, against how many the attackers need.
    let g = geo::<9>();
    let adj = g.adjacent[k];
    let castle_empty = k != CASTLE_SQ;
    let mut hostile = att;
    if castle_empty {
        hostile |= CASTLE;
    }
    if rules.escape == Escape::Corner {
        hostile |= g.corners;
    }
    let around = (adj & hostile).count_ones() as i32;
    let beside = g.adjacent[CASTLE_SQ].has(k);
    let needed = match rules.king_capture {
        KingCapture::FourSides => 4,
        KingCapture::Linnaeus | KingCapture::FourOnThrone if k == CASTLE_SQ => 4,
        KingCapture::Linnaeus if beside => 3,
        KingCapture::Linnaeus | KingCapture::FourOnThrone | KingCapture::TwoSides => 2,
    };
    // Two of two is a capture already; one of two matters more than three of four.
    v -= w.king_danger * around * 4 / needed;
    if k == CASTLE_SQ {
        v += w.king_on_castle;
    } else if beside {
        v += w.king_beside_castle;
    }

    // The attackers' wall.
    v -= w.blockade * (att & BLOCKADE).count_ones() as i32;
    let ne = (att << (STRIDE + 1)) & !FILE_A & att & FULL;
    let nw = (att << (STRIDE - 1)) & !FILE_I & att & FULL;
    v -= w.diagonal * (ne.count_ones() + nw.count_ones()) as i32;

    if w.mobility != 0 {
        let d = pos.with_turn(Side::Defenders).count_legal_moves() as i32;
        let a = pos.with_turn(Side::Attackers).count_legal_moves() as i32;
        v += w.mobility * (d - a) / 4;
    }
    v
}

// Brandubh and Copenhagen: corner escape on the 7×7 and 11×11 boards. The same terms as
// Tablut's, measured on the variant's geometry: the king's distance to the corners, his free
// lines to a corner and his two-move routes, the attackers guarding the corners' approaches,
// his safety against the variant's capture, his mobility and the material.

/// The geometry of the `N` × `N` board, in its word.
#[inline(always)]
pub(crate) fn geo<const N: usize>() -> &'static Geometry<WordOf<N>>
where
    Size<N>: Board,
{
    Size::<N>::geo()
}

/// A set of the position's in the `N` × `N` board's word.
#[inline(always)]
pub(crate) fn w<const N: usize>(b: Bitboard) -> WordOf<N>
where
    Size<N>: Board,
{
    WordOf::<N>::from_bits(b.0)
}

/// Steps to the nearest corner along ranks and files on an `n` × `n` board: 0 on a corner.
const fn corner_distance_on(n: usize) -> [u8; SQUARES] {
    let mut d = [0u8; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let f = i % STRIDE;
        let r = i / STRIDE;
        if f < n && r < n {
            let last = n - 1;
            let df = if f < last - f { f } else { last - f };
            let dr = if r < last - r { r } else { last - r };
            d[i] = (df + dr) as u8;
        }
        i += 1;
    }
    d
}

/// The squares a knight's move from each corner, towards the board (b3, c2 and their mirror
/// images): where attackers wall off a corner's approaches.
const fn corner_guards_on(n: usize) -> Bits {
    let last = n as u8 - 1;
    squares_mask(&[
        (1, 2),
        (2, 1),
        (last - 1, 2),
        (last - 2, 1),
        (1, last - 2),
        (2, last - 1),
        (last - 1, last - 2),
        (last - 2, last - 1),
    ])
}

static CORNER_DISTANCE_7: [u8; SQUARES] = corner_distance_on(7);
static CORNER_DISTANCE_11: [u8; SQUARES] = corner_distance_on(11);
static CORNER_DISTANCE_13: [u8; SQUARES] = corner_distance_on(13);
const GUARDS_7: Bits = corner_guards_on(7);
const GUARDS_11: Bits = corner_guards_on(11);
const GUARDS_13: Bits = corner_guards_on(13);

#[inline(always)]
fn corner_distance_n<const N: usize>(k: usize) -> i32
where
    Size<N>: Board,
{
    match N {
        7 => CORNER_DISTANCE_7[k] as i32,
        11 => CORNER_DISTANCE_11[k] as i32,
        _ => CORNER_DISTANCE_13[k] as i32,
    }
}

/// [`free_line_fills`] on the `N` × `N` board.
#[inline(always)]
fn free_line_fills_n<const N: usize>(empty: WordOf<N>, escape: WordOf<N>) -> [WordOf<N>; 4]
where
    Size<N>: Board,
{
    let g = geo::<N>();
    let top = g.full & !(g.full >> STRIDE);
    let bottom = g.full & !(g.full << STRIDE);
    let mut n = escape & empty & top;
    let mut e = escape & empty & g.last_file;
    let mut s = escape & empty & bottom;
    let mut w = escape & empty & g.first_file;
    // A line is at most N - 1 steps; the fills stop growing as soon as the lines end.
    for _ in 0..N - 1 {
        let grown = [
            n | (n >> STRIDE) & empty,
            e | (e >> 1) & empty & !g.last_file,
            s | (s << STRIDE) & empty,
            w | (w << 1) & empty & !g.first_file,
        ];
        if grown == [n, e, s, w] {
            break;
        }
        [n, e, s, w] = grown;
    }
    [n, e, s, w]
}

/// The king's reach in one move on any board, as the rules let him move (`occ` without the
/// king).
#[inline(always)]
pub(crate) fn king_reach_on<W: Word>(pos: &Position, g: &Geometry<W>, k: usize, occ: W) -> W {
    let rules = pos.rules();
    let mut reach = W::ZERO;
    for dir in DIRECTIONS {
        let mut r = slide_on(g, k, dir, occ);
        if !rules.castle_passable && (r & g.centre).any() {
            r &= g.to_centre[k];
        }
        reach |= r;
    }
    if !rules.king_reenters_castle {
        reach &= !g.centre;
    }
    reach
}

/// [`king_lines`] on the `N` × `N` board.
#[inline(always)]
fn king_lines_n<const N: usize>(pos: &Position, k: usize) -> KingLines
where
    Size<N>: Board,
{
    let g = geo::<N>();
    let occ = w::<N>(pos.occupied()) & !(WordOf::<N>::bit(k));
    let escape = w::<N>(pos.escape_squares());
    let mut block = occ;
    if !pos.rules().castle_passable {
        block |= g.centre;
    }
    let reach = king_reach_on(pos, g, k, occ);
    let free = (reach & escape).count_ones();
    let [n, e, s, wst] = free_line_fills_n::<N>(g.full & !block, escape);
    let cand = reach & !escape;
    let routes = (cand & n).count_ones()
        + (cand & e).count_ones()
        + (cand & s).count_ones()
        + (cand & wst).count_ones();
    let two = (n & (e | s | wst)) | (e & (s | wst)) | (s & wst);
    let doubles = (cand & two).count_ones();
    KingLines {
        free,
        routes,
        doubles,
        reach: reach.count_ones(),
    }
}

/// The worth to the defenders of a Brandubh (`N` = 7) or Copenhagen (`N` = 11) position.
fn evaluate_corner<const N: usize>(pos: &Position, w: &Weights) -> i32
where
    Size<N>: Board,
{
    let g = geo::<N>();
    let att = self::w::<N>(pos.attackers());
    let def = self::w::<N>(pos.defenders());
    // Material (the start's is taken off by the bias).
    let mut v = w.defender * def.count_ones() as i32 - w.attacker * att.count_ones() as i32;
    let Some(ksq) = pos.king() else {
        return v;
    };
    let k = ksq.index();
    let rules = pos.rules();

    // Distance to the nearest corner, in king moves along an edge (two steps a move).
    let half = (N as i32 - 1) / 2;
    let dist = (corner_distance_n::<N>(k) + 1) / 2;
    v += w.king_near_edge * (half - dist.min(half));

    let lines = king_lines_n::<N>(pos, k);
    v += w.king_free_line * lines.free as i32
        + w.king_route * lines.routes as i32
        + w.king_double * lines.doubles as i32
        + w.king_mobility * lines.reach as i32;

    // Safety: hostile squares around him, against how many the attackers need.
    let adj = g.adjacent[k];
    let on_throne = k == g.centre_sq;
    let beside = g.adjacent[g.centre_sq].has(k);
    let mut hostile = att | g.corners;
    let throne_hostile = match rules.king_capture {
        KingCapture::FourOnThrone => false,
        _ => rules.throne == crate::tafl::Throne::Hostile,
    };
    if !on_throne && throne_hostile {
        hostile |= g.centre;
    }
    let around = (adj & hostile).count_ones() as i32;
    let needed = match rules.king_capture {
        // Taken on four sides only: never on the edge.
        KingCapture::FourSides if adj.count_ones() < 4 => 0,
        KingCapture::FourSides => 4,
        KingCapture::Linnaeus if on_throne || beside => 4,
        KingCapture::FourOnThrone if on_throne => 4,
        KingCapture::Linnaeus | KingCapture::FourOnThrone | KingCapture::TwoSides => 2,
    };
    if needed > 0 {
        v -= w.king_danger * around * 4 / needed;
    }
    if on_throne {
        v += w.king_on_castle;
    } else if beside {
        v += w.king_beside_castle;
    }

    // The attackers' guards on the corners' approaches, and their wall's diagonal links.
    let guards = WordOf::<N>::from_bits(match N {
        7 => GUARDS_7,
        11 => GUARDS_11,
        _ => GUARDS_13,
    });
    v -= w.blockade * (att & guards).count_ones() as i32;
    let ne = (att << (STRIDE + 1)) & !g.first_file & att;
    let nw = (att << (STRIDE - 1)) & !g.last_file & att;
    v -= w.diagonal * (ne.count_ones() + nw.count_ones()) as i32;

    if w.mobility != 0 {
        let d = pos.with_turn(Side::Defenders).count_legal_moves() as i32;
        let a = pos.with_turn(Side::Attackers).count_legal_moves() as i32;
        v += w.mobility * (d - a) / 4;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::{parse_position, Rules};

    #[test]
    fn start_position_is_balanced_by_symmetry() {
        let pos = Position::start(Rules::default());
        let w = Weights::DEFAULT;
        let bias = start_bias(pos.rules(), &w);
        assert_eq!(evaluate(&pos, &w, bias), w.tempo);
        assert_eq!(evaluate(&pos.with_turn(Side::Defenders), &w, bias), w.tempo);
        // An attacker less is better for the defenders.
        let fewer = Position::new(
            pos.attackers().without("e2".parse().unwrap()),
            pos.defenders(),
            pos.king(),
            Side::Defenders,
            *pos.rules(),
        )
        .unwrap();
        assert!(evaluate(&fewer, &w, bias) > w.tempo + w.attacker / 2);
    }

    #[test]
    fn king_lines_count_free_lines_and_routes() {
        // King on c3 with one attacker on e9: free lines to a3, c1, c9 and i3.
        let pos =
            parse_position("/9/9/2K6/9/9/9/9/9/4t4/", Side::Defenders, Rules::default()).unwrap();
        let l = king_lines(&pos);
        assert_eq!(l.free, 4);
        assert!(l.routes > 0);
        assert_eq!(king_lines(&pos).free, pos.king_free_lines());
    }
}
