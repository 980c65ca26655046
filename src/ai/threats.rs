//! Fast threat tests for the search: can the attackers take the king with one move, and where
//! does a move capture. Bitboard versions of what the rules engine works out move by move.

use super::eval::{geo, w};
use crate::tafl::bitboard::{Bits, Word};
use crate::tafl::tables::{Board, Size, WordOf, DIRECTIONS, EAST, NONE, NORTH};
use crate::tafl::{Bitboard, Escape, KingCapture, Position, Side, Throne, Variant};

const CASTLE: u128 = Bitboard::CASTLE.0.lo();
const CASTLE_SQ: usize = crate::tafl::Square::CASTLE.index();
/// Squares are numbered rank × STRIDE + file (see `crate::tafl::square`).
const STRIDE: usize = crate::tafl::square::STRIDE;
const FULL: u128 = Bitboard::FULL.0.lo();
const FILE_A: u128 = Bitboard::FILE_A.0.lo();
const FILE_I: u128 = Bitboard::FILE_I.0.lo();

/// Whether the attackers, were it their turn, could capture the king with one move: the same
/// answer as [`Position::king_capturable`], without playing any move.
#[inline]
pub fn king_capturable(pos: &Position) -> bool {
    match pos.variant() {
        Variant::Tablut => king_capturable_tablut(pos),
        Variant::Brandubh => king_capturable_n::<7>(pos),
        Variant::Copenhagen => king_capturable_n::<11>(pos),
        Variant::Copenhagen13 => king_capturable_n::<13>(pos),
    }
}

#[inline(always)]
fn king_capturable_tablut(pos: &Position) -> bool {
    let Some(k) = pos.king() else { return false };
    if pos.decided().is_some() {
        return false;
    }
    let g = geo::<9>();
    let k = k.index();
    let rules = pos.rules();
    let att = w::<9>(pos.attackers());
    let occ = w::<9>(pos.occupied());
    let corners = match rules.escape {
        Escape::Edge => 0,
        Escape::Corner => g.corners,
    };
    let adj = g.adjacent[k];
    let targets = adj & !occ & !CASTLE & !corners;
    if targets.is_zero() {
        return false;
    }
    // The castle is empty unless the king stands on it.
    let castle = if k == CASTLE_SQ || rules.throne == Throne::Neutral {
        0
    } else {
        CASTLE
    };
    let neutral = corners | castle;
    let beside = g.adjacent[CASTLE_SQ].has(k);
    let on_castle = k == CASTLE_SQ;
    // A quick count first: too few hostile neighbours and no single arrival can finish it.
    let needed = match rules.king_capture {
        KingCapture::FourSides => 4,
        KingCapture::Linnaeus | KingCapture::FourOnThrone if on_castle => 4,
        KingCapture::Linnaeus if beside => 3,
        KingCapture::Linnaeus | KingCapture::FourOnThrone | KingCapture::TwoSides => 2,
    };
    let hostile_now = match rules.king_capture {
        KingCapture::FourSides | KingCapture::TwoSides => adj & (att | neutral),
        KingCapture::Linnaeus if beside => adj & !CASTLE & att,
        KingCapture::Linnaeus | KingCapture::FourOnThrone if on_castle => adj & att,
        KingCapture::Linnaeus => adj & (att | neutral),
        KingCapture::FourOnThrone => adj & (att | corners),
    };
    if hostile_now.count_ones() + 1 < needed {
        return false;
    }
    let mut blockers = occ;
    if !rules.castle_passable {
        blockers |= CASTLE;
    }
    let by_two = |t: usize, hostile: u128| {
        DIRECTIONS.into_iter().any(|dir| {
            g.neighbours[t][dir] as usize == k && {
                let z = g.neighbours[k][dir];
                z != NONE && hostile.has(z as usize)
            }
        })
    };
    let mut ts = targets;
    while ts.any() {
        let t = ts.trailing_zeros() as usize;
        ts = ts.without_lowest();
        let att2 = att | u128::bit(t);
        let taken = match rules.king_capture {
            KingCapture::Linnaeus | KingCapture::FourOnThrone if on_castle => adj & att2 == adj,
            KingCapture::Linnaeus if beside => {
                let sides = adj & !CASTLE;
                sides & att2 == sides
            }
            KingCapture::Linnaeus | KingCapture::TwoSides => by_two(t, att2 | neutral),
            KingCapture::FourOnThrone => by_two(t, att2 | corners),
            KingCapture::FourSides => {
                let hostile = att2 | neutral;
                adj.count_ones() == 4 && adj & hostile == adj
            }
        };
        if taken && attacker_reaches_n::<9>(att, blockers, t) {
            return true;
        }
    }
    false
}

/// For each empty square, how many enemy soldiers a piece of the side to move landing there
/// would capture (an estimate for move ordering: rule 12 is left out). Returned as three
/// bitboards: squares capturing at least one, at least two, at least three.
#[inline]
pub fn capture_squares(pos: &Position) -> [Bits; 3] {
    fn bits<W: Word>(sets: [W; 3]) -> [Bits; 3] {
        sets.map(W::to_bits)
    }
    match pos.variant() {
        Variant::Tablut => bits(capture_squares_of::<9>(pos)),
        Variant::Brandubh => bits(capture_squares_of::<7>(pos)),
        Variant::Copenhagen => bits(capture_squares_of::<11>(pos)),
        Variant::Copenhagen13 => bits(capture_squares_of::<13>(pos)),
    }
}

/// [`capture_squares`] on the `N` × `N` board, in its word.
#[inline(always)]
pub(crate) fn capture_squares_of<const N: usize>(pos: &Position) -> [WordOf<N>; 3]
where
    Size<N>: Board,
{
    if N == 9 {
        let [a, b, c] = capture_squares_tablut(pos);
        [a, b, c].map(|x| WordOf::<N>::from_bits(Bits::from_lo(x)))
    } else {
        capture_squares_n::<N>(pos)
    }
}

#[inline(always)]
fn capture_squares_tablut(pos: &Position) -> [u128; 3] {
    let rules = pos.rules();
    let (mut anvils, enemies) = match pos.turn() {
        Side::Attackers => (w::<9>(pos.attackers()), w::<9>(pos.defenders())),
        Side::Defenders => {
            let king = if rules.king_armed {
                w::<9>(pos.king_bb())
            } else {
                0
            };
            (w::<9>(pos.defenders()) | king, w::<9>(pos.attackers()))
        }
    };
    if !pos.king_bb().contains(crate::tafl::Square::CASTLE) {
        anvils |= CASTLE;
    }
    if rules.escape == Escape::Corner {
        anvils |= Bitboard::CORNERS.0.lo();
    }
    let empty = !w::<9>(pos.occupied()) & FULL;
    // Landing on t with the enemy on t+d and the anvil on t+2d, for each direction d.
    let north = (enemies >> STRIDE) & (anvils >> (2 * STRIDE));
    let south = (enemies << STRIDE) & (anvils << (2 * STRIDE));
    let east = (enemies >> 1) & (anvils >> 2) & !FILE_I & !(FILE_I >> 1);
    let west = (enemies << 1) & (anvils << 2) & !FILE_A & !(FILE_A << 1);
    let dirs = [north & empty, south & empty, east & empty, west & empty];
    let mut one = 0;
    let mut two = 0;
    let mut three = 0;
    for d in dirs {
        three |= two & d;
        two |= one & d;
        one |= d;
    }
    [one, two, three]
}

/// Whether an attacker can slide to the empty square `t` in one move, on the `N` × `N` board.
#[inline(always)]
fn attacker_reaches_n<const N: usize>(att: WordOf<N>, blockers: WordOf<N>, t: usize) -> bool
where
    Size<N>: Board,
{
    let g = geo::<N>();
    for dir in DIRECTIONS {
        let hits = g.rays[dir][t] & blockers;
        if hits.is_zero() {
            continue;
        }
        let first = if dir == NORTH || dir == EAST {
            hits.trailing_zeros()
        } else {
            hits.highest()
        };
        if att.has(first as usize) {
            return true;
        }
    }
    false
}

/// [`king_capturable`] on Brandubh's (`N` = 7) or Copenhagen's (`N` = 11) board: corners
/// hostile, the empty throne hostile, the king taken as the variant's rules say.
#[inline(always)]
fn king_capturable_n<const N: usize>(pos: &Position) -> bool
where
    Size<N>: Board,
{
    let Some(k) = pos.king() else { return false };
    if pos.decided().is_some() {
        return false;
    }
    let g = geo::<N>();
    let k = k.index();
    let rules = pos.rules();
    let att = w::<N>(pos.attackers());
    let occ = w::<N>(pos.occupied());
    let castle = g.centre;
    let castle_sq = g.centre_sq;
    let corners = match rules.escape {
        Escape::Edge => WordOf::<N>::ZERO,
        Escape::Corner => g.corners,
    };
    let adj = g.adjacent[k];
    let targets = adj & !occ & !castle & !corners;
    if targets.is_zero() {
        return false;
    }
    let on_throne = k == castle_sq;
    let throne = if on_throne || rules.throne == Throne::Neutral {
        WordOf::<N>::ZERO
    } else {
        castle
    };
    let neutral = corners | throne;
    let beside = g.adjacent[castle_sq].has(k);
    let needed = match rules.king_capture {
        KingCapture::FourSides => 4,
        KingCapture::Linnaeus | KingCapture::FourOnThrone if on_throne => 4,
        KingCapture::Linnaeus if beside => 3,
        KingCapture::Linnaeus | KingCapture::FourOnThrone | KingCapture::TwoSides => 2,
    };
    let hostile_now = match rules.king_capture {
        KingCapture::FourSides | KingCapture::TwoSides => adj & (att | neutral),
        KingCapture::Linnaeus if beside => adj & !castle & att,
        KingCapture::Linnaeus | KingCapture::FourOnThrone if on_throne => adj & att,
        KingCapture::Linnaeus => adj & (att | neutral),
        KingCapture::FourOnThrone => adj & (att | corners),
    };
    if hostile_now.count_ones() + 1 < needed {
        return false;
    }
    let mut blockers = occ;
    if !rules.castle_passable {
        blockers |= castle;
    }
    let by_two = |t: usize, hostile: WordOf<N>| {
        DIRECTIONS.into_iter().any(|dir| {
            g.neighbours[t][dir] as usize == k && {
                let z = g.neighbours[k][dir];
                z != NONE && hostile.has(z as usize)
            }
        })
    };
    let mut ts = targets;
    while ts.any() {
        let t = ts.trailing_zeros() as usize;
        ts = ts.without_lowest();
        let att2 = att | WordOf::<N>::bit(t);
        let taken = match rules.king_capture {
            KingCapture::Linnaeus | KingCapture::FourOnThrone if on_throne => adj & att2 == adj,
            KingCapture::Linnaeus if beside => {
                let sides = adj & !castle;
                sides & att2 == sides
            }
            KingCapture::Linnaeus | KingCapture::TwoSides => by_two(t, att2 | neutral),
            KingCapture::FourOnThrone => by_two(t, att2 | corners),
            KingCapture::FourSides => {
                let hostile = att2 | neutral;
                adj.count_ones() == 4 && adj & hostile == adj
            }
        };
        if taken && attacker_reaches_n::<N>(att, blockers, t) {
            return true;
        }
    }
    false
}

/// [`capture_squares`] on the `N` × `N` board (the shieldwall is left out).
#[inline(always)]
fn capture_squares_n<const N: usize>(pos: &Position) -> [WordOf<N>; 3]
where
    Size<N>: Board,
{
    let g = geo::<N>();
    let rules = pos.rules();
    let (mut anvils, enemies) = match pos.turn() {
        Side::Attackers => (w::<N>(pos.attackers()), w::<N>(pos.defenders())),
        Side::Defenders => {
            let king = if rules.king_armed {
                w::<N>(pos.king_bb())
            } else {
                WordOf::<N>::ZERO
            };
            (w::<N>(pos.defenders()) | king, w::<N>(pos.attackers()))
        }
    };
    if (w::<N>(pos.king_bb()) & g.centre).is_zero() && rules.throne == Throne::Hostile {
        anvils |= g.centre;
    }
    if rules.escape == Escape::Corner {
        anvils |= g.corners;
    }
    let empty = !w::<N>(pos.occupied()) & g.full;
    let first2 = g.first_file | (g.first_file << 1);
    let last2 = g.last_file | (g.last_file >> 1);
    let north = (enemies >> STRIDE) & (anvils >> (2 * STRIDE));
    let south = (enemies << STRIDE) & (anvils << (2 * STRIDE));
    let east = (enemies >> 1) & (anvils >> 2) & !last2;
    let west = (enemies << 1) & (anvils << 2) & !first2;
    let dirs = [north & empty, south & empty, east & empty, west & empty];
    let mut one = WordOf::<N>::ZERO;
    let mut two = WordOf::<N>::ZERO;
    let mut three = WordOf::<N>::ZERO;
    for d in dirs {
        three |= two & d;
        two |= one & d;
        one |= d;
    }
    [one, two, three]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::{MoveList, Preset, Rules};

    /// Random games under every preset and option: the fast test agrees with the engine's.
    #[test]
    fn king_capturable_agrees_with_the_engine() {
        let mut rule_sets: Vec<Rules> = Preset::ALL.iter().map(|p| p.rules()).collect();
        let mut r = Rules {
            king_capture: KingCapture::FourSides,
            ..Rules::default()
        };
        rule_sets.push(r);
        r.castle_passable = false;
        r.king_armed = false;
        rule_sets.push(r);
        rule_sets.push(Rules::BRANDUBH);
        rule_sets.push(Rules::COPENHAGEN);
        let mut list = MoveList::new();
        let mut checked = 0;
        for (i, rules) in rule_sets.into_iter().enumerate() {
            for seed in 0..40u64 {
                let mut rng = fastrand::Rng::with_seed(seed * 31 + i as u64);
                let mut pos = Position::start(rules);
                for _ in 0..150 {
                    if pos.decided().is_some() {
                        break;
                    }
                    for turn in [Side::Attackers, Side::Defenders] {
                        let p = pos.with_turn(turn);
                        assert_eq!(king_capturable(&p), p.king_capturable(), "{p:?}");
                        checked += 1;
                    }
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    pos = pos.make(list[rng.usize(0..list.len())]).0;
                }
            }
        }
        assert!(checked > 10_000);
    }

    /// Brandubh's and Copenhagen's kings in random crowded positions (most random games
    /// never bring the attackers round the king): the fast test agrees with the engine's.
    #[test]
    fn king_capturable_agrees_with_the_engine_on_crowded_boards() {
        use crate::tafl::Variant;
        let mut checked = 0;
        let mut capturable = 0;
        for variant in [
            Variant::Brandubh,
            Variant::Copenhagen,
            Variant::Copenhagen13,
        ] {
            let g = variant.geometry();
            let squares: Vec<usize> = (0..crate::tafl::square::SQUARES)
                .filter(|&i| g.full.has(i))
                .collect();
            let mut rng = fastrand::Rng::with_seed(variant.size() as u64);
            for _ in 0..20_000 {
                // The king near the throne or anywhere, with attackers around him.
                let k = if rng.bool() {
                    let near = g.adjacent[g.centre_sq] | g.centre;
                    let c: Vec<usize> = squares.iter().copied().filter(|&i| near.has(i)).collect();
                    c[rng.usize(0..c.len())]
                } else {
                    squares[rng.usize(0..squares.len())]
                };
                if g.corners.has(k) {
                    continue;
                }
                let mut att = Bits::ZERO;
                let mut def = Bits::ZERO;
                for &i in &squares {
                    if i == k || g.corners.has(i) || i == g.centre_sq {
                        continue;
                    }
                    let near = g.adjacent[k].has(i);
                    let r = rng.u32(0..100);
                    if r < if near { 55 } else { 12 } {
                        att |= Bits::bit(i);
                    } else if r < if near { 60 } else { 16 } {
                        def |= Bits::bit(i);
                    }
                }
                let Ok(pos) = Position::new(
                    Bitboard(att),
                    Bitboard(def),
                    crate::tafl::Square::new(k as u8),
                    Side::Attackers,
                    variant.rules(),
                ) else {
                    continue;
                };
                let fast = king_capturable(&pos);
                assert_eq!(fast, pos.king_capturable(), "{pos:?}");
                checked += 1;
                capturable += usize::from(fast);
            }
        }
        assert!(
            checked > 20_000 && capturable > 500,
            "{checked} {capturable}"
        );
    }

    #[test]
    fn capture_squares_match_the_engine_for_plain_captures() {
        let mut list = MoveList::new();
        for seed in 0..60u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let rules = [Rules::default(), Rules::BRANDUBH, Rules::COPENHAGEN][seed as usize % 3];
            let mut pos = Position::start(rules);
            for _ in 0..80 {
                if pos.decided().is_some() {
                    break;
                }
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let [one, _, _] = capture_squares(&pos);
                for &mv in list.iter() {
                    let (_, effect) = pos.make(mv);
                    if effect.captured.any() && !pos.king_bb().contains(mv.from) {
                        // Every real capture but rule 12's is predicted.
                        let rule12 = rules.variant.is_tablut()
                            && pos.king_bb().contains(crate::tafl::Square::CASTLE);
                        // Copenhagen's shieldwall takes a row along the edge.
                        let edge = pos.geometry().edge;
                        let shieldwall = rules.variant.is_copenhagen()
                            && edge.has(mv.to.index())
                            && (effect.captured.0 & edge).any();
                        assert!(
                            one.has(mv.to.index()) || rule12 || shieldwall,
                            "{mv} captures but is not predicted in {pos:?}"
                        );
                    }
                }
                pos = pos.make(list[rng.usize(0..list.len())]).0;
            }
        }
    }
}
