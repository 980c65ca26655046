//! The transposition table: positions already searched, keyed by the Zobrist hash.
//!
//! Two-slot buckets of 16-byte entries: the full key and a packed word (best move, score,
//! depth, bound, generation). A new entry replaces the same position's, else the shallower of
//! the two. [`Table::clear`] empties the table in O(1) by starting a new generation: entries of
//! an older one read as empty, so a cleared table answers exactly as a fresh one would.

use crate::tafl::{Move, Square};

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// One probe's answer.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Table {
    entries: Vec<[u64; 2]>,
    mask: usize,
    /// The generation live entries carry (never 0: a zeroed entry is empty).
    generation: u64,
}

/// Where the generation sits in an entry's packed word.
const GEN_SHIFT: u32 = 48;

/// The default size in megabytes.
pub const DEFAULT_MB: usize = 64;

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u64) -> u64 {
    let m = match mv {
        Some(m) => 0x8000 | (m.from.index() as u64) << 7 | m.to.index() as u64,
        None => 0,
    };
    let b = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    m | (score as i16 as u16 as u64) << 16
        | (depth.clamp(0, 255) as u64) << 32
        | b << 40
        | generation << GEN_SHIFT
}

fn unpack(data: u64) -> Hit {
    let m = data & 0xFFFF;
    let mv = if m & 0x8000 != 0 {
        match (
            Square::new(((m >> 7) & 0x7F) as u8),
            Square::new((m & 0x7F) as u8),
        ) {
            (Some(from), Some(to)) => Some(Move::new(from, to)),
            _ => None,
        }
    } else {
        None
    };
    let bound = match (data >> 40) & 3 {
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => Bound::Exact,
    };
    Hit {
        mv,
        score: ((data >> 16) & 0xFFFF) as u16 as i16 as i32,
        depth: ((data >> 32) & 0xFF) as i32,
        bound,
    }
}

impl Table {
    /// A table of about `mb` megabytes (a power of two number of entries; at least 1024).
    /// The memory comes zeroed from the allocator, so a big table costs nothing until used.
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / 16;
        let mut n = 1024usize;
        while n * 2 <= want {
            n *= 2;
        }
        Table {
            entries: vec![[0u64; 2]; n],
            mask: n - 1,
            generation: 1,
        }
    }

    /// Empties the table: O(1), by a new generation (every 65 535 clears, the memory is zeroed
    /// once so that an old generation's entries can never come back).
    pub fn clear(&mut self) {
        self.generation += 1;
        if self.generation >> (64 - GEN_SHIFT) != 0 {
            self.entries.fill([0, 0]);
            self.generation = 1;
        }
    }

    /// Whether the entry holds a position of the current generation.
    #[inline(always)]
    fn live(&self, data: u64) -> bool {
        data >> GEN_SHIFT == self.generation
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask & !1
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        for e in &self.entries[i..i + 2] {
            if e[0] == key && self.live(e[1]) {
                return Some(unpack(e[1]));
            }
        }
        None
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = self.bucket(key);
        let data = pack(mv, score, depth, bound, self.generation);
        let mine = |e: &[u64; 2]| e[0] == key && self.live(e[1]);
        // An entry of an older generation counts as empty (depth 0).
        let depth_of = |e: &[u64; 2]| {
            if self.live(e[1]) {
                (e[1] >> 32) & 0xFF
            } else {
                0
            }
        };
        let slot = if mine(&self.entries[i]) {
            i
        } else if mine(&self.entries[i + 1])
            || depth_of(&self.entries[i + 1]) < depth_of(&self.entries[i])
        {
            i + 1
        } else {
            i
        };
        let keep_move = mv.is_none() && mine(&self.entries[slot]);
        let e = &mut self.entries[slot];
        // Keep the old best move when the new search found none.
        let data = if keep_move {
            data | (e[1] & 0xFFFF)
        } else {
            data
        };
        *e = [key, data];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let mut t = Table::new(1);
        let mv = Move::new("e1".parse().unwrap(), "e3".parse().unwrap());
        t.store(0xABCD, Some(mv), -1234, 7, Bound::Lower);
        let h = t.probe(0xABCD).unwrap();
        assert_eq!(h.mv, Some(mv));
        assert_eq!(h.score, -1234);
        assert_eq!(h.depth, 7);
        assert_eq!(h.bound, Bound::Lower);
        assert!(t.probe(0xABCE).is_none());
        // A later store without a move keeps the move.
        t.store(0xABCD, None, 50, 8, Bound::Upper);
        let h = t.probe(0xABCD).unwrap();
        assert_eq!(h.mv, Some(mv));
        assert_eq!((h.score, h.depth, h.bound), (50, 8, Bound::Upper));
    }

    #[test]
    fn a_cleared_table_reads_as_empty_and_fills_again() {
        let mut t = Table::new(1);
        let mv = Move::new("e1".parse().unwrap(), "e3".parse().unwrap());
        t.store(0xABCD, Some(mv), 10, 9, Bound::Exact);
        t.clear();
        assert!(t.probe(0xABCD).is_none(), "an old generation is empty");
        // A store without a move does not revive the old generation's move.
        t.store(0xABCD, None, 5, 1, Bound::Upper);
        assert_eq!(t.probe(0xABCD).unwrap().mv, None);
        // An old deep entry does not keep a new shallow one out of its bucket.
        let mut t = Table::new(1);
        t.store(2, Some(mv), 1, 30, Bound::Exact);
        t.clear();
        t.store(2 + (1 << 40), Some(mv), 1, 1, Bound::Exact);
        t.store(2 + (2 << 40), Some(mv), 1, 2, Bound::Exact);
        assert!(t.probe(2 + (1 << 40)).is_some() && t.probe(2 + (2 << 40)).is_some());
        // Clearing past the generation's range zeroes the memory and starts again.
        t.generation = (1 << (64 - GEN_SHIFT)) - 1;
        t.store(7, Some(mv), 1, 1, Bound::Exact);
        t.clear();
        assert_eq!(t.generation, 1);
        assert!(t.probe(7).is_none());
        assert!(t.entries.iter().all(|e| *e == [0, 0]));
    }
}
