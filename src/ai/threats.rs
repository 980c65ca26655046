//! Fast threat tests for the search: can the attackers take the king with one move, and where
//! does a move capture. Bitboard versions of what the rules engine works out move by move.

use crate::tafl::tables::{ADJACENT, DIRECTIONS, EAST, NEIGHBOURS, NONE, NORTH, RAYS};
use crate::tafl::{Bitboard, Escape, KingCapture, Position, Side};

const CASTLE: u128 = Bitboard::CASTLE.0;
const CASTLE_SQ: usize = 40;
const FULL: u128 = Bitboard::FULL.0;
const FILE_A: u128 = Bitboard::FILE_A.0;
const FILE_I: u128 = Bitboard::FILE_I.0;

/// Whether an attacker can slide to the empty square `t` in one move.
#[inline(always)]
fn attacker_reaches(att: u128, blockers: u128, t: usize) -> bool {
    for dir in DIRECTIONS {
        let hits = RAYS[dir][t] & blockers;
        if hits == 0 {
            continue;
        }
        let first = if dir == NORTH || dir == EAST {
            hits.trailing_zeros()
        } else {
            127 - hits.leading_zeros()
        };
        if att >> first & 1 != 0 {
            return true;
        }
    }
    false
}

/// Whether the attackers, were it their turn, could capture the king with one move: the same
/// answer as [`Position::king_capturable`], without playing any move.
#[inline]
pub fn king_capturable(pos: &Position) -> bool {
    let Some(k) = pos.king() else { return false };
    if pos.decided().is_some() {
        return false;
    }
    let k = k.index();
    let rules = pos.rules();
    let att = pos.attackers().0;
    let occ = pos.occupied().0;
    let corners = match rules.escape {
        Escape::Edge => 0,
        Escape::Corner => Bitboard::CORNERS.0,
    };
    let adj = ADJACENT[k];
    let targets = adj & !occ & !CASTLE & !corners;
    if targets == 0 {
        return false;
    }
    // The castle is empty unless the king stands on it.
    let neutral = corners | if k == CASTLE_SQ { 0 } else { CASTLE };
    let beside = ADJACENT[CASTLE_SQ] >> k & 1 != 0;
    // A quick count first: too few hostile neighbours and no single arrival can finish it.
    let needed = match rules.king_capture {
        KingCapture::FourSides => 4,
        KingCapture::Linnaeus if k == CASTLE_SQ => 4,
        KingCapture::Linnaeus if beside => 3,
        KingCapture::Linnaeus => 2,
    };
    let hostile_now = match rules.king_capture {
        KingCapture::FourSides => adj & (att | neutral),
        KingCapture::Linnaeus if beside => adj & !CASTLE & att,
        KingCapture::Linnaeus if k == CASTLE_SQ => adj & att,
        KingCapture::Linnaeus => adj & (att | neutral),
    };
    if hostile_now.count_ones() + 1 < needed {
        return false;
    }
    let mut blockers = occ;
    if !rules.castle_passable {
        blockers |= CASTLE;
    }
    let mut ts = targets;
    while ts != 0 {
        let t = ts.trailing_zeros() as usize;
        ts &= ts - 1;
        let att2 = att | 1u128 << t;
        let taken = match rules.king_capture {
            KingCapture::Linnaeus if k == CASTLE_SQ => adj & att2 == adj,
            KingCapture::Linnaeus if beside => {
                let sides = adj & !CASTLE;
                sides & att2 == sides
            }
            KingCapture::Linnaeus => {
                let hostile = att2 | neutral;
                DIRECTIONS.into_iter().any(|dir| {
                    NEIGHBOURS[t][dir] as usize == k && {
                        let z = NEIGHBOURS[k][dir];
                        z != NONE && hostile >> z & 1 != 0
                    }
                })
            }
            KingCapture::FourSides => {
                let hostile = att2 | neutral;
                adj.count_ones() == 4 && adj & hostile == adj
            }
        };
        if taken && attacker_reaches(att, blockers, t) {
            return true;
        }
    }
    false
}

/// For each empty square, how many enemy soldiers a piece of the side to move landing there
/// would capture (an estimate for move ordering: rule 12 is left out). Returned as three
/// bitboards: squares capturing at least one, at least two, at least three.
#[inline]
pub fn capture_squares(pos: &Position) -> [u128; 3] {
    let rules = pos.rules();
    let (mut anvils, enemies) = match pos.turn() {
        Side::Attackers => (pos.attackers().0, pos.defenders().0),
        Side::Defenders => {
            let king = if rules.king_armed { pos.king_bb().0 } else { 0 };
            (pos.defenders().0 | king, pos.attackers().0)
        }
    };
    if !pos.king_bb().contains(crate::tafl::Square::CASTLE) {
        anvils |= CASTLE;
    }
    if rules.escape == Escape::Corner {
        anvils |= Bitboard::CORNERS.0;
    }
    let empty = !pos.occupied().0 & FULL;
    // Landing on t with the enemy on t+d and the anvil on t+2d, for each direction d.
    let north = (enemies >> 9) & (anvils >> 18);
    let south = (enemies << 9) & (anvils << 18);
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

    #[test]
    fn capture_squares_match_the_engine_for_plain_captures() {
        let mut list = MoveList::new();
        for seed in 0..30u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut pos = Position::start(Rules::default());
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
                        let rule12 = pos.king_bb().contains(crate::tafl::Square::CASTLE);
                        assert!(
                            one >> mv.to.index() & 1 != 0 || rule12,
                            "{mv} captures but is not predicted in {pos:?}"
                        );
                    }
                }
                pos = pos.make(list[rng.usize(0..list.len())]).0;
            }
        }
    }
}
