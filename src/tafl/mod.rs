//! The rules engine: board, moves, captures, rule options, notation and game records.
//! Pure and fast: it imports nothing from Discord, SQL, images or async runtimes.

pub mod bitboard;
pub mod game;
pub mod movelist;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod rules;
pub mod side;
pub mod square;
pub mod tables;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use game::{Game, Outcome, Reason};
pub use movelist::MoveList;
pub use mv::Move;
pub use notation::{parse_move, MoveError, MoveText};
pub use position::{Decided, IllegalMove, MoveEffect, PlayError, Position, PositionError};
pub use record::{parse_position, write_position, Call, Mark, RecordError, RecordedMove};
pub use rules::{Escape, KingCapture, NoMoves, Preset, Rules, RulesError};
pub use side::{Piece, Side};
pub use square::Square;

/// The longest piece of someone's input an error message quotes, in characters.
pub const EXCERPT_CHARS: usize = 24;

/// Input quoted back in an error message: on one line, and at most [`EXCERPT_CHARS`]
/// characters, cut with `…`. A message that quotes a mistake stays short whatever was typed.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.chars().map(|c| if c.is_control() { ' ' } else { c });
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_excerpt_is_one_short_line() {
        assert_eq!(super::excerpt("e1-e3"), "e1-e3");
        assert_eq!(super::excerpt(&"é".repeat(24)), "é".repeat(24));
        assert_eq!(
            super::excerpt(&"é".repeat(5000)),
            format!("{}…", "é".repeat(24))
        );
        assert_eq!(super::excerpt("a\nb\tc"), "a b c");
    }
}
