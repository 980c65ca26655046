//! The transposition table: positions already searched, keyed by the Zobrist hash.
//!
//! Two-slot buckets of 16-byte entries: the full key and a packed word (best move, score,
//! depth, bound). A new entry replaces the same position's, else the shallower of the two.

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
}

/// The default size in megabytes.
pub const DEFAULT_MB: usize = 64;

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound) -> u64 {
    let m = match mv {
        Some(m) => 0x8000 | (m.from.index() as u64) << 7 | m.to.index() as u64,
        None => 0,
    };
    let b = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    m | (score as i16 as u16 as u64) << 16 | (depth.clamp(0, 255) as u64) << 32 | b << 40
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
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask & !1
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let i = self.bucket(key);
        for e in &self.entries[i..i + 2] {
            if e[0] == key && e[1] != 0 {
                return Some(unpack(e[1]));
            }
        }
        None
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let i = self.bucket(key);
        let data = pack(mv, score, depth, bound);
        let slot = if self.entries[i][0] == key {
            i
        } else if self.entries[i + 1][0] == key {
            i + 1
        } else {
            let d0 = (self.entries[i][1] >> 32) & 0xFF;
            let d1 = (self.entries[i + 1][1] >> 32) & 0xFF;
            if d1 < d0 {
                i + 1
            } else {
                i
            }
        };
        let e = &mut self.entries[slot];
        // Keep the old best move when the new search found none.
        let data = if mv.is_none() && e[0] == key {
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
}
