//! A set of squares as the low 81 bits of a `u128`.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Bit `i` is the square with index `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard((1u128 << 81) - 1);
    pub const CASTLE: Bitboard = Bitboard(1u128 << 40);
    pub const CORNERS: Bitboard = Bitboard(1 | 1 << 8 | 1 << 72 | 1 << 80);
    /// Every square on the edge of the board.
    pub const EDGE: Bitboard = Bitboard(edge_mask());
    pub const FILE_A: Bitboard = Bitboard(file_mask(0));
    pub const FILE_I: Bitboard = Bitboard(file_mask(8));

    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn any(self) -> bool {
        self.0 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// The lowest square in the set.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(self.0.trailing_zeros() as u8)
        }
    }

    /// The single square of a one-square set.
    pub fn single(self) -> Option<Square> {
        if self.0.count_ones() == 1 {
            self.first()
        } else {
            None
        }
    }
}

const fn edge_mask() -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < 81 {
        let f = i % 9;
        let r = i / 9;
        if f == 0 || f == 8 || r == 0 || r == 8 {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

const fn file_mask(file: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9 + file);
        r += 1;
    }
    m
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a [`Bitboard`], lowest first.
#[derive(Debug, Clone)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Square::new(i as u8)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, |bb, sq| bb.with(sq))
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(Bitboard::EDGE.count(), 32);
        assert_eq!(Bitboard::FULL.count(), 81);
        assert_eq!(Bitboard::FILE_A.count(), 9);
        assert!(Bitboard::CASTLE.contains(Square::CASTLE));
        let corners: Vec<String> = Bitboard::CORNERS
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(corners, ["a1", "i1", "a9", "i9"]);
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
    }
}
