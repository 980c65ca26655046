//! A square of the board. Every board size (7×7, 9×9, 11×11, 13×13) numbers its squares the same
//! way, with a fixed stride of thirteen: index = rank × 13 + file, `a1` = 0. A square therefore names
//! itself (`e5`) without knowing the board; whether it is *on* a given board is the board's
//! question ([`Square::is_on`], [`crate::tafl::Variant`]).

use std::fmt;
use std::str::FromStr;

/// The stride of a rank in square indices and bitboards: the widest board, 13.
pub const STRIDE: usize = 13;
/// How many square indices there are (the 13×13 board): 169.
pub const SQUARES: usize = STRIDE * STRIDE;

/// A square. Index = rank × 13 + file, with `a1` = 0 and `m13` = 168. Tablut's 9×9 board uses
/// files a–i and ranks 1–9 of it, Brandubh's 7×7 a–g and 1–7, Copenhagen's 11×11 a–k and 1–11.
///
/// Stored (in a notice's data) as its name, `e5`; a number read back is an index of the
/// stride of eleven the squares had before 13×13 (`rank × 11 + file`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Name(String),
            Index11(u8),
        }
        match Stored::deserialize(d)? {
            Stored::Name(name) => {
                Square::parse_on(&name, STRIDE as u8).map_err(serde::de::Error::custom)
            }
            Stored::Index11(i) if i < 121 => Square::from_coords(i % 11, i / 11)
                .ok_or_else(|| serde::de::Error::custom("a square index")),
            Stored::Index11(i) => Err(serde::de::Error::custom(format!(
                "{i} is not a square index"
            ))),
        }
    }
}

impl Square {
    /// Tablut's castle, `e5`.
    pub const CASTLE: Square = Square(4 * STRIDE as u8 + 4);
    pub const A1: Square = Square(0);

    /// The square at `index` (0..169).
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), on a board of up to 13×13.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if (file as usize) < STRIDE && (rank as usize) < STRIDE {
            Some(Square(rank * STRIDE as u8 + file))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for file a, 12 for file m.
    pub const fn file(self) -> u8 {
        self.0 % STRIDE as u8
    }

    /// 0 for rank 1, 12 for rank 13.
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE as u8
    }

    /// Whether the square is on a board of `size` × `size`.
    pub const fn is_on(self, size: u8) -> bool {
        self.file() < size && self.rank() < size
    }

    /// Every square of a `size` × `size` board, rank by rank: a1 b1 … (lowest index first).
    pub fn all_on(size: u8) -> impl Iterator<Item = Square> {
        (0..size)
            .flat_map(move |rank| (0..size).map(move |file| Square(rank * STRIDE as u8 + file)))
    }

    /// The squares strictly between two squares on one rank or file, or `None` if they are not
    /// on one line (or are the same square).
    pub fn line_between(self, other: Square) -> Option<impl Iterator<Item = Square>> {
        if self == other || (self.file() != other.file() && self.rank() != other.rank()) {
            return None;
        }
        let step: i8 = if self.rank() == other.rank() {
            1
        } else {
            STRIDE as i8
        };
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

    /// Whether the square is a corner of a `size` × `size` board.
    pub const fn is_corner_on(self, size: u8) -> bool {
        let f = self.file();
        let r = self.rank();
        (f == 0 || f == size - 1) && (r == 0 || r == size - 1)
    }

    /// Reads a square of a `size` × `size` board (files `a`…, ranks from 1), in either case.
    pub fn parse_on(s: &str, size: u8) -> Result<Square, SquareError> {
        let mut chars = s.chars();
        let file = chars.next();
        let rank: String = chars.collect();
        match file {
            Some(c) if c.is_ascii_alphabetic() && !rank.is_empty() => {
                let rank_num: u32 = rank.parse().map_err(|_| SquareError::malformed(s, size))?;
                if !rank.chars().all(|c| c.is_ascii_digit()) {
                    return Err(SquareError::malformed(s, size));
                }
                let file_idx = c.to_ascii_lowercase() as u32 - 'a' as u32;
                if file_idx >= u32::from(size) || !(1..=u32::from(size)).contains(&rank_num) {
                    return Err(SquareError::off_board(s.to_ascii_lowercase(), size));
                }
                Ok(Square((rank_num as u8 - 1) * STRIDE as u8 + file_idx as u8))
            }
            _ => Err(SquareError::malformed(s, size)),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why text is not a square: data, worded for players by the bot (`bot::messages::moves`).
/// The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Off a `size` × `size` board.
    #[error("{} is off the {size}×{size} board", crate::echo::echo(name))]
    OffBoard { name: String, size: u8 },
    /// Not a file letter then a rank, on a `size` × `size` board.
    #[error("not a square: '{}'", crate::echo::echo(text))]
    Malformed { text: String, size: u8 },
}

impl SquareError {
    fn malformed(text: &str, size: u8) -> SquareError {
        SquareError::Malformed {
            text: text.to_string(),
            size,
        }
    }

    fn off_board(name: String, size: u8) -> SquareError {
        SquareError::OffBoard { name, size }
    }
}

impl FromStr for Square {
    type Err = SquareError;

    /// Reads a square of Tablut's 9×9 board; [`Square::parse_on`] reads other sizes.
    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::parse_on(s, 9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all_on(9) {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 8 * 13 + 8);
        assert_eq!("e5".parse::<Square>().unwrap(), Square::CASTLE);
        assert_eq!("E5".parse::<Square>().unwrap(), Square::CASTLE);
    }

    #[test]
    fn off_board_squares_are_named() {
        assert_eq!(
            "j4".parse::<Square>(),
            Err(SquareError::OffBoard {
                name: "j4".into(),
                size: 9
            })
        );
        assert_eq!(
            "a10".parse::<Square>(),
            Err(SquareError::OffBoard {
                name: "a10".into(),
                size: 9
            })
        );
        assert_eq!(
            "a0".parse::<Square>(),
            Err(SquareError::OffBoard {
                name: "a0".into(),
                size: 9
            })
        );
        assert!(matches!(
            "44".parse::<Square>(),
            Err(SquareError::Malformed { .. })
        ));
        assert!(matches!(
            "".parse::<Square>(),
            Err(SquareError::Malformed { .. })
        ));
        assert!(matches!(
            "é4".parse::<Square>(),
            Err(SquareError::Malformed { .. }) | Err(SquareError::OffBoard { .. })
        ));
    }

    #[test]
    fn a_malformed_square_names_its_board() {
        for size in [7, 9, 11, 13] {
            assert_eq!(
                Square::parse_on("5e", size),
                Err(SquareError::Malformed {
                    text: "5e".into(),
                    size
                })
            );
        }
        assert_eq!(
            Square::parse_on("5e", 9).unwrap_err().to_string(),
            "not a square: '5e'"
        );
    }

    #[test]
    fn a_square_is_stored_as_its_name_and_an_old_index_still_reads() {
        let m13 = Square::parse_on("m13", 13).unwrap();
        assert_eq!(m13.index(), 168);
        assert_eq!(serde_json::to_string(&m13).unwrap(), "\"m13\"");
        assert_eq!(serde_json::from_str::<Square>("\"m13\"").unwrap(), m13);
        // f6 under the stride of eleven: 5 × 11 + 5.
        assert_eq!(
            serde_json::from_str::<Square>("60").unwrap(),
            Square::parse_on("f6", 11).unwrap()
        );
        assert!(serde_json::from_str::<Square>("121").is_err());
        assert!(serde_json::from_str::<Square>("\"n1\"").is_err());
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
