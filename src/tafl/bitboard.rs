//! A set of squares as the bits of a [`Bits`], bit `rank × 13 + file` for a square: the 169
//! bits of the 13×13 board, of which an 11×11, 9×9 or 7×7 board uses the lower-left part.
//! The engine's and the AI's hot paths hold a board's sets in its [`Word`]: a `u128` on the
//! 7×7 and 9×9 boards, whose squares all lie in the low 128 bits, [`Bits`] on the others.

use super::square::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// 192 bits: the low 128 in a `u128`, the high 64 in a `u64`, packed to 24 bytes. Every board
/// of up to 9×9 lives in the low word (its squares' indices are below 128), and its hot paths
/// work on that word alone ([`Word`]); the 11×11 and 13×13 boards use both.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C, packed(8))]
pub struct Bits {
    lo: u128,
    hi: u64,
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (lo, hi) = (self.lo, self.hi);
        write!(f, "Bits({hi:#x}:{lo:#x})")
    }
}

impl Bits {
    pub const ZERO: Bits = Bits { lo: 0, hi: 0 };
    /// Every one of the 192 bits.
    pub const ONES: Bits = Bits {
        lo: u128::MAX,
        hi: u64::MAX,
    };
    /// How many bits there are.
    pub const WIDTH: u32 = 192;

    /// The low 128 bits.
    #[inline(always)]
    pub const fn lo(self) -> u128 {
        self.lo
    }

    /// The set of the low 128 bits `lo`.
    #[inline(always)]
    pub const fn from_lo(lo: u128) -> Bits {
        Bits { lo, hi: 0 }
    }

    /// The single bit `i` (0..192).
    #[inline(always)]
    pub const fn bit(i: usize) -> Bits {
        if i < 128 {
            Bits { lo: 1 << i, hi: 0 }
        } else {
            Bits {
                lo: 0,
                hi: 1 << (i - 128),
            }
        }
    }

    /// Whether bit `i` is set.
    #[inline(always)]
    pub const fn has(self, i: usize) -> bool {
        if i < 128 {
            self.lo >> i & 1 != 0
        } else {
            self.hi >> (i - 128) & 1 != 0
        }
    }

    #[inline(always)]
    pub const fn is_zero(self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        !self.is_zero()
    }

    #[inline(always)]
    pub const fn or(self, o: Bits) -> Bits {
        Bits {
            lo: self.lo | o.lo,
            hi: self.hi | o.hi,
        }
    }

    #[inline(always)]
    pub const fn and(self, o: Bits) -> Bits {
        Bits {
            lo: self.lo & o.lo,
            hi: self.hi & o.hi,
        }
    }

    #[inline(always)]
    pub const fn xor(self, o: Bits) -> Bits {
        Bits {
            lo: self.lo ^ o.lo,
            hi: self.hi ^ o.hi,
        }
    }

    /// Every bit not in the set, of all 192.
    #[inline(always)]
    pub const fn not(self) -> Bits {
        Bits {
            lo: !self.lo,
            hi: !self.hi,
        }
    }

    #[inline(always)]
    pub const fn count_ones(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }

    /// The lowest set bit's index; 192 for the empty set.
    #[inline(always)]
    pub const fn trailing_zeros(self) -> u32 {
        if self.lo != 0 {
            self.lo.trailing_zeros()
        } else {
            128 + self.hi.trailing_zeros()
        }
    }

    /// How many bits are clear above the highest set bit; 192 for the empty set.
    #[inline(always)]
    pub const fn leading_zeros(self) -> u32 {
        if self.hi != 0 {
            self.hi.leading_zeros()
        } else {
            64 + self.lo.leading_zeros()
        }
    }

    /// The set without its lowest bit.
    #[inline(always)]
    pub const fn without_lowest(self) -> Bits {
        if self.lo != 0 {
            Bits {
                lo: self.lo & (self.lo - 1),
                hi: self.hi,
            }
        } else {
            Bits {
                lo: 0,
                hi: self.hi & self.hi.wrapping_sub(1),
            }
        }
    }

    /// The bits below bit `i` (`i` ≤ 192).
    #[inline(always)]
    pub const fn below(i: u32) -> Bits {
        if i < 128 {
            Bits {
                lo: (1u128 << i) - 1,
                hi: 0,
            }
        } else if i < 192 {
            Bits {
                lo: u128::MAX,
                hi: (1u64 << (i - 128)) - 1,
            }
        } else {
            Bits::ONES
        }
    }

    /// Shifted toward higher bits by `n` (< 128).
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Bits {
        if n == 0 {
            return self;
        }
        Bits {
            lo: self.lo << n,
            hi: match self.hi.checked_shl(n) {
                Some(h) => h,
                None => 0,
            } | (self.lo >> (128 - n)) as u64,
        }
    }

    /// Shifted toward lower bits by `n` (< 128).
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Bits {
        if n == 0 {
            return self;
        }
        Bits {
            lo: self.lo >> n | (self.hi as u128) << (128 - n),
            hi: match self.hi.checked_shr(n) {
                Some(h) => h,
                None => 0,
            },
        }
    }
}

/// How the engine's hot paths hold a set of squares: [`Bits`], or a `u128` for the boards whose
/// squares' indices are all below 128 (7×7 and 9×9), where the high word would always be empty.
/// Each board size's code is compiled for its own word ([`crate::tafl::tables::Board`]).
pub trait Word:
    Copy
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
{
    const ZERO: Self;
    const ONES: Self;
    /// How many bits there are.
    const WIDTH: u32;
    /// The single bit `i` (below [`Word::WIDTH`]).
    fn bit(i: usize) -> Self;
    fn has(self, i: usize) -> bool;
    fn is_zero(self) -> bool;
    fn any(self) -> bool;
    fn count_ones(self) -> u32;
    /// The lowest set bit's index; `WIDTH` for the empty set.
    fn trailing_zeros(self) -> u32;
    /// The highest set bit's index (the set is not empty).
    fn highest(self) -> u32;
    fn without_lowest(self) -> Self;
    /// The bits below bit `i` (`i` < `WIDTH`).
    fn below(i: u32) -> Self;
    /// The bits above bit `i` (`i` < `WIDTH`).
    fn above(i: u32) -> Self;
    /// The word of a set (whose bits fit in it).
    fn from_bits(b: Bits) -> Self;
    fn to_bits(self) -> Bits;
}

impl Word for u128 {
    const ZERO: u128 = 0;
    const ONES: u128 = u128::MAX;
    const WIDTH: u32 = 128;
    #[inline(always)]
    fn bit(i: usize) -> u128 {
        1 << i
    }
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        self >> i & 1 != 0
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != 0
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        127 - u128::leading_zeros(self)
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn below(i: u32) -> u128 {
        (1 << i) - 1
    }
    #[inline(always)]
    fn above(i: u32) -> u128 {
        (u128::MAX << i) << 1
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> u128 {
        b.lo
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        Bits::from_lo(self)
    }
}

impl Word for Bits {
    const ZERO: Bits = Bits::ZERO;
    const ONES: Bits = Bits::ONES;
    const WIDTH: u32 = Bits::WIDTH;
    #[inline(always)]
    fn bit(i: usize) -> Bits {
        Bits::bit(i)
    }
    #[inline(always)]
    fn has(self, i: usize) -> bool {
        Bits::has(self, i)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        Bits::is_zero(self)
    }
    #[inline(always)]
    fn any(self) -> bool {
        Bits::any(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        Bits::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        Bits::trailing_zeros(self)
    }
    #[inline(always)]
    fn highest(self) -> u32 {
        Bits::WIDTH - 1 - Bits::leading_zeros(self)
    }
    #[inline(always)]
    fn without_lowest(self) -> Bits {
        Bits::without_lowest(self)
    }
    #[inline(always)]
    fn below(i: u32) -> Bits {
        Bits::below(i)
    }
    #[inline(always)]
    fn above(i: u32) -> Bits {
        Bits::below(i + 1).not()
    }
    #[inline(always)]
    fn from_bits(b: Bits) -> Bits {
        b
    }
    #[inline(always)]
    fn to_bits(self) -> Bits {
        self
    }
}

/// The squares of a word, lowest first.
#[inline(always)]
pub fn squares_of<W: Word>(mut w: W) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if w.is_zero() {
            return None;
        }
        let i = w.trailing_zeros();
        w = w.without_lowest();
        Square::new(i as u8)
    })
}

/// A set of squares. Bit `i` is the square with index `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub Bits);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(Bits::ZERO);
    /// Every square of Tablut's 9×9 board. (Each board size's masks are in its
    /// [`crate::tafl::tables::Geometry`], reached through [`crate::tafl::Variant::geometry`].)
    pub const FULL: Bitboard = Bitboard(mask(9, 0));
    /// Every square of the largest board, 13×13.
    pub const ALL_SQUARES: Bitboard = Bitboard(mask(13, 0));
    /// Tablut's castle, e5.
    pub const CASTLE: Bitboard = Bitboard(Bits::bit(Square::CASTLE.index()));
    /// Tablut's four corners.
    pub const CORNERS: Bitboard = Bitboard(mask(9, 1));
    /// Every square on the edge of Tablut's board.
    pub const EDGE: Bitboard = Bitboard(mask(9, 2));
    pub const FILE_A: Bitboard = Bitboard(mask(9, 3));
    /// Tablut's last file.
    pub const FILE_I: Bitboard = Bitboard(mask(9, 4));

    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(Bits::bit(sq.index()))
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0.has(sq.index())
    }

    pub const fn is_empty(self) -> bool {
        self.0.is_zero()
    }

    pub const fn any(self) -> bool {
        self.0.any()
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0.or(Bits::bit(sq.index())))
    }

    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0.and(Bits::bit(sq.index()).not()))
    }

    /// The lowest square in the set.
    pub fn first(self) -> Option<Square> {
        if self.0.is_zero() {
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
const fn mask(n: usize, which: u8) -> Bits {
    let mut m = Bits::ZERO;
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
                m = m.or(Bits::bit(r * super::square::STRIDE + f));
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
pub struct Squares(Bits);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 = self.0.without_lowest();
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

/// The complement within Tablut's 9×9 board.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(self.0.not() & Bitboard::FULL.0)
    }
}

macro_rules! bitsop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $m:ident) => {
        impl $tr for Bits {
            type Output = Bits;
            #[inline(always)]
            fn $f(self, rhs: Bits) -> Bits {
                self.$m(rhs)
            }
        }
        impl $tra for Bits {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bits) {
                *self = self.$m(rhs);
            }
        }
    };
}

bitsop!(BitAnd, bitand, BitAndAssign, bitand_assign, and);
bitsop!(BitOr, bitor, BitOrAssign, bitor_assign, or);
bitsop!(BitXor, bitxor, BitXorAssign, bitxor_assign, xor);

impl Not for Bits {
    type Output = Bits;
    #[inline(always)]
    fn not(self) -> Bits {
        Bits::not(self)
    }
}

impl Shl<usize> for Bits {
    type Output = Bits;
    #[inline(always)]
    fn shl(self, n: usize) -> Bits {
        Bits::shl(self, n as u32)
    }
}

impl Shr<usize> for Bits {
    type Output = Bits;
    #[inline(always)]
    fn shr(self, n: usize) -> Bits {
        Bits::shr(self, n as u32)
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
        assert_eq!(Bitboard::ALL_SQUARES.count(), 169);
    }

    #[test]
    fn a_u128_word_answers_as_bits_do() {
        let mut rng = fastrand::Rng::with_seed(13);
        for _ in 0..2000 {
            let x = rng.u128(..) >> rng.u32(0..128);
            let b = Bits::from_lo(x);
            let i = rng.u32(0..128);
            let w = |v: u128| Bits::from_lo(v);
            assert_eq!(Word::has(x, i as usize), Word::has(b, i as usize));
            assert_eq!(Word::count_ones(x), Word::count_ones(b));
            assert_eq!(w(Word::without_lowest(x)), Word::without_lowest(b));
            assert_eq!(w(<u128 as Word>::below(i)), <Bits as Word>::below(i));
            assert_eq!(
                w(<u128 as Word>::above(i)),
                <Bits as Word>::above(i) & Bits::below(128)
            );
            assert_eq!(
                w(<u128 as Word>::bit(i as usize)),
                <Bits as Word>::bit(i as usize)
            );
            assert_eq!(w(x << 13) & Bits::below(128), (b << 13) & Bits::below(128));
            assert_eq!(w(x >> 13), b >> 13);
            assert_eq!(<u128 as Word>::from_bits(b), x);
            assert_eq!(Word::to_bits(x), b);
            if x != 0 {
                assert_eq!(Word::trailing_zeros(x), Word::trailing_zeros(b));
                assert_eq!(Word::highest(x), Word::highest(b));
            }
            let squares: Vec<Square> = squares_of(x).collect();
            assert_eq!(squares, Bitboard(b).into_iter().collect::<Vec<_>>());
        }
        assert_eq!(
            Word::highest(Bits::bit(150) | Bits::bit(3)),
            150,
            "the high word counts"
        );
    }

    #[test]
    fn shifts_and_scans_cross_the_words() {
        let b = Bits::bit(120) | Bits::bit(3);
        assert_eq!(b << 13, Bits::bit(133) | Bits::bit(16));
        assert_eq!((b << 13) >> 13, b);
        assert_eq!(Bits::bit(168) >> 50, Bits::bit(118));
        assert_eq!(Bits::bit(100) << 90, Bits::bit(190));
        assert_eq!((Bits::bit(130) | Bits::bit(7)).trailing_zeros(), 7);
        assert_eq!(Bits::bit(130).trailing_zeros(), 130);
        assert_eq!(Bits::WIDTH - 1 - Bits::bit(130).leading_zeros(), 130);
        assert_eq!(Bits::WIDTH - 1 - Bits::bit(5).leading_zeros(), 5);
        assert_eq!(Bits::below(130).count_ones(), 130);
        assert_eq!(Bits::below(0), Bits::ZERO);
        assert_eq!(
            (Bits::bit(130) | Bits::bit(7)).without_lowest(),
            Bits::bit(130)
        );
        assert_eq!(Bits::bit(130).without_lowest(), Bits::ZERO);
        assert!(Bits::bit(168).has(168) && !Bits::bit(168).has(167));
        assert_eq!(std::mem::size_of::<Bits>(), 24);
    }
}
