//! Reading moves as people type them. Parsing is separate from legality: [`MoveText::parse_on`]
//! reads the text, [`MoveText::resolve`] checks it against a position.

use super::movelist::MoveList;
use super::mv::Move;
use super::position::{IllegalMove, Position};
use super::side::Piece;
use super::square::{Square, SquareError};
use std::fmt;

/// A move as typed, before it is checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveText {
    /// `e1-e3`, `e1e3`, `e1 e3`, `Ke5-e8`: the piece letter, if one was given, must match.
    FromTo {
        piece: Option<PieceLetter>,
        from: Square,
        to: Square,
    },
    /// `e3`: the one piece of the side to move that can go there.
    To(Square),
}

/// OpenTafl's piece letter in front of a move: `K` for the king, `T`/`t` for a soldier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceLetter {
    King,
    Soldier,
}

/// Why a move was not accepted: data, worded for players by the bot
/// (`bot::messages::moves`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("{0}")]
    Square(#[from] SquareError),
    /// Not a move's text (the text as typed, trimmed).
    #[error("not a move: '{}'", crate::echo::echo(.0))]
    Malformed(String),
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
    /// A bare destination more than one piece of the side to move reaches (the moves, sorted).
    #[error("more than one piece reaches {to}: {}", list(.candidates))]
    Ambiguous { to: Square, candidates: Vec<Move> },
    /// A bare destination no piece of the side to move reaches.
    #[error("no piece of the side to move reaches {to}")]
    Unreachable { to: Square },
    /// A bare square holding a piece of the side to move, which has these moves (sorted).
    #[error("a square of the side to move's own piece, not a destination: {square}")]
    BareFrom { square: Square, moves: Vec<Move> },
    /// A bare square holding a piece of the side to move that has no move.
    #[error("the piece on {square} has no move")]
    Stuck { square: Square },
}

/// The moves, comma-separated.
fn list(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    names.join(", ")
}

impl MoveText {
    /// Reads every accepted input form on a `size` × `size` board: `e1-e3`, `e1e3`, `e1 e3`,
    /// `E1-E3`, `Ke5-e8`, trailing marks (`+`, `++`, `-`, `--`), captures copied from a record
    /// (`d1-d4xd5`) and a bare destination (`e3`); files `a`… and ranks `1`… as far as the board
    /// goes (to `k` and `11` on 11×11).
    pub fn parse_on(text: &str, size: u8) -> Result<MoveText, MoveError> {
        let malformed = || MoveError::Malformed(text.trim().to_string());
        let mut s = text.trim();
        // A copied record move: drop the captures.
        if let Some(i) = s.find(['x', 'X']) {
            s = &s[..i];
        }
        let s = s.trim_end_matches(['+', '-', '#', '!', '?']).trim();
        let mut chars = s.chars().peekable();
        // On the 11×11 board `k` is also a file: a `k` followed by a digit is the square.
        let file_k = size >= 11 && s.chars().nth(1).is_some_and(|c| c.is_ascii_digit());
        let piece = match chars.peek() {
            Some('K' | 'k') if !file_k => Some(PieceLetter::King),
            Some('T' | 't') => Some(PieceLetter::Soldier),
            _ => None,
        };
        if piece.is_some() {
            chars.next();
        }
        let rest: String = chars.collect();
        let mut squares = Vec::with_capacity(2);
        let mut it = rest.chars().peekable();
        loop {
            while matches!(it.peek(), Some('-' | ' ' | '\t')) {
                it.next();
            }
            let Some(c) = it.next() else { break };
            if !c.is_ascii_alphabetic() {
                return Err(malformed());
            }
            let mut name = c.to_string();
            while let Some(d) = it.peek().copied().filter(char::is_ascii_digit) {
                name.push(d);
                it.next();
            }
            if name.len() == 1 || squares.len() == 2 {
                return Err(malformed());
            }
            squares.push(Square::parse_on(&name, size)?);
        }
        match (squares.as_slice(), piece) {
            ([from, to], piece) => Ok(MoveText::FromTo {
                piece,
                from: *from,
                to: *to,
            }),
            ([to], None) => Ok(MoveText::To(*to)),
            _ => Err(malformed()),
        }
    }

    /// The legal move this text names in `pos`, or exactly why there is none.
    pub fn resolve(&self, pos: &Position) -> Result<Move, MoveError> {
        if pos.decided().is_some() {
            return Err(IllegalMove::GameOver.into());
        }
        match *self {
            MoveText::FromTo { piece, from, to } => {
                let on_from = pos.piece_at(from);
                if let (Some(letter), Some(p)) = (piece, on_from) {
                    if p.side() == pos.turn() {
                        match (letter, p) {
                            (PieceLetter::King, Piece::Attacker | Piece::Defender) => {
                                return Err(IllegalMove::NotKing(from).into())
                            }
                            (PieceLetter::Soldier, Piece::King) => {
                                return Err(IllegalMove::IsKing(from).into())
                            }
                            _ => {}
                        }
                    }
                }
                let mv = Move::new(from, to);
                pos.check(mv)?;
                Ok(mv)
            }
            MoveText::To(to) => {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                let mut candidates: Vec<Move> =
                    list.iter().copied().filter(|m| m.to == to).collect();
                candidates.sort();
                match candidates.len() {
                    1 => Ok(candidates[0]),
                    0 => {
                        if pos.side_pieces(pos.turn()).contains(to) {
                            let mut moves: Vec<Move> =
                                list.iter().copied().filter(|m| m.from == to).collect();
                            moves.sort();
                            if moves.is_empty() {
                                Err(MoveError::Stuck { square: to })
                            } else {
                                Err(MoveError::BareFrom { square: to, moves })
                            }
                        } else {
                            Err(MoveError::Unreachable { to })
                        }
                    }
                    _ => Err(MoveError::Ambiguous { to, candidates }),
                }
            }
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::FromTo { from, to, .. } => write!(f, "{from}-{to}"),
            MoveText::To(to) => write!(f, "{to}"),
        }
    }
}

/// Parses and resolves in one step.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    MoveText::parse_on(text, pos.variant().size())?.resolve(pos)
}
