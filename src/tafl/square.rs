//! A square of the 9×9 board.

use std::fmt;
use std::str::FromStr;

/// One of the 81 squares. Index = rank × 9 + file, with `a1` = 0 and `i9` = 80.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The castle, `e5`.
    pub const CASTLE: Square = Square(40);
    pub const A1: Square = Square(0);
    pub const I1: Square = Square(8);
    pub const A9: Square = Square(72);
    pub const I9: Square = Square(80);

    /// The square at `index` (0..81).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 9 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for file a, 8 for file i.
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// 0 for rank 1, 8 for rank 9.
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// Every square, a1 b1 … i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }

    /// The squares strictly between two squares on one rank or file, or `None` if they are not
    /// on one line (or are the same square).
    pub fn line_between(self, other: Square) -> Option<impl Iterator<Item = Square>> {
        if self == other || (self.file() != other.file() && self.rank() != other.rank()) {
            return None;
        }
        let step: i8 = if self.rank() == other.rank() { 1 } else { 9 };
        let (lo, hi) = if self.0 < other.0 {
            (self.0, other.0)
        } else {
            (other.0, self.0)
        };
        let ascending = self.0 < other.0;
        let squares: Vec<Square> = (1..)
            .map(move |k| lo as i16 + k as i16 * step as i16)
            .take_while(move |&i| i < hi as i16)
            .map(|i| Square(i as u8))
            .collect();
        let squares: Vec<Square> = if ascending {
            squares
        } else {
            squares.into_iter().rev().collect()
        };
        Some(squares.into_iter())
    }

    /// Whether the square is on the edge of the board.
    pub const fn is_edge(self) -> bool {
        let f = self.file();
        let r = self.rank();
        f == 0 || f == 8 || r == 0 || r == 8
    }

    /// Whether the square is one of the four corners.
    pub const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 8 | 72 | 80)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why text is not a square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("{} is off the board: files run from a to i and ranks from 1 to 9", crate::echo::echo(.0))]
    OffBoard(String),
    #[error("'{}' is not a square: write a file letter a-i then a rank 1-9, like e5", crate::echo::echo(.0))]
    Malformed(String),
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        let mut chars = s.chars();
        let file = chars.next();
        let rank: String = chars.collect();
        match file {
            Some(c) if c.is_ascii_alphabetic() && !rank.is_empty() => {
                let rank_num: u32 = rank
                    .parse()
                    .map_err(|_| SquareError::Malformed(s.to_string()))?;
                if !rank.chars().all(|c| c.is_ascii_digit()) {
                    return Err(SquareError::Malformed(s.to_string()));
                }
                let file_idx = c.to_ascii_lowercase() as u32 - 'a' as u32;
                if file_idx >= 9 || !(1..=9).contains(&rank_num) {
                    return Err(SquareError::OffBoard(s.to_ascii_lowercase()));
                }
                Ok(Square((rank_num as u8 - 1) * 9 + file_idx as u8))
            }
            _ => Err(SquareError::Malformed(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 80);
        assert_eq!("e5".parse::<Square>().unwrap(), Square::CASTLE);
        assert_eq!("E5".parse::<Square>().unwrap(), Square::CASTLE);
    }

    #[test]
    fn off_board_squares_are_named() {
        assert_eq!(
            "j4".parse::<Square>(),
            Err(SquareError::OffBoard("j4".into()))
        );
        assert_eq!(
            "a10".parse::<Square>(),
            Err(SquareError::OffBoard("a10".into()))
        );
        assert_eq!(
            "a0".parse::<Square>(),
            Err(SquareError::OffBoard("a0".into()))
        );
        assert!(matches!(
            "44".parse::<Square>(),
            Err(SquareError::Malformed(_))
        ));
        assert!(matches!(
            "".parse::<Square>(),
            Err(SquareError::Malformed(_))
        ));
        assert!(matches!(
            "é4".parse::<Square>(),
            Err(SquareError::Malformed(_)) | Err(SquareError::OffBoard(_))
        ));
    }

    #[test]
    fn between() {
        let a: Square = "e1".parse().unwrap();
        let b: Square = "e4".parse().unwrap();
        let v: Vec<String> = a.line_between(b).unwrap().map(|s| s.to_string()).collect();
        assert_eq!(v, ["e2", "e3"]);
        let v: Vec<String> = b.line_between(a).unwrap().map(|s| s.to_string()).collect();
        assert_eq!(v, ["e3", "e2"]);
        assert!(a.line_between("f2".parse().unwrap()).is_none());
    }
}
