//! A set of squares as the bits of a `u128`, bit `rank × 11 + file` for a square: the 121 bits
//! of the 11×11 board, of which a 9×9 or 7×7 board uses the lower-left part.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Bit `i` is the square with index `i`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of Tablut's 9×9 board. (Each board size's masks are in its
    /// [`crate::tafl::tables::Geometry`], reached through [`crate::tafl::Variant::geometry`].)
    pub const FULL: Bitboard = Bitboard(mask(9, 0));
    /// Every square of the largest board, 11×11.
    pub const ALL_SQUARES: Bitboard = Bitboard(mask(11, 0));
    /// Tablut's castle, e5.
    pub const CASTLE: Bitboard = Bitboard(1u128 << Square::CASTLE.index());
    /// Tablut's four corners.
    pub const CORNERS: Bitboard = Bitboard(mask(9, 1));
    /// Every square on the edge of Tablut's board.
    pub const EDGE: Bitboard = Bitboard(mask(9, 2));
    pub const FILE_A: Bitboard = Bitboard(mask(9, 3));
    /// Tablut's last file.
    pub const FILE_I: Bitboard = Bitboard(mask(9, 4));

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

/// The masks of a board size, as constants (statics cannot be read in a `const`).
const fn mask(n: usize, which: u8) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < n {
        let mut f = 0;
        while f < n {
            let edge_f = f == 0 || f == n - 1;
            let edge_r = r == 0 || r == n - 1;
            let take = match which {
                0 => true,
                1 => edge_f && edge_r,
                2 => edge_f || edge_r,
                3 => f == 0,
                _ => f == n - 1,
            };
            if take {
                m |= 1u128 << (r * super::square::STRIDE + f);
            }
            f += 1;
        }
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

impl Bitboard {
    /// The squares of a `size` × `size` board not in the set.
    pub fn complement_on(self, size: u8) -> Bitboard {
        Bitboard(!self.0 & super::tables::geometry(size).full)
    }
}

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

/// The complement within Tablut's 9×9 board. For another board size, use
/// [`Bitboard::complement_on`].
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
    use crate::tafl::tables::{GEOMETRY_11, GEOMETRY_9};

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
        assert_eq!(Bitboard::FULL.0, GEOMETRY_9.full);
        assert_eq!(Bitboard::EDGE.0, GEOMETRY_9.edge);
        assert_eq!(Bitboard::CORNERS.0, GEOMETRY_9.corners);
        assert_eq!(Bitboard::CASTLE.0, GEOMETRY_9.centre);
        assert_eq!(Bitboard::FILE_A.0, GEOMETRY_9.first_file);
        assert_eq!(Bitboard::FILE_I.0, GEOMETRY_9.last_file);
        assert_eq!(Bitboard::ALL_SQUARES.0, GEOMETRY_11.full);
        assert_eq!(Bitboard::EMPTY.complement_on(7).count(), 49);
    }
}
