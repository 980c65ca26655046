//! Moves: why a move typed or read from a record is not one the game takes.

use crate::echo::echo;
use crate::tafl::square::SquareError;
use crate::tafl::{IllegalMove, Move, MoveError};

/// Why a move is not taken, after "That move is not legal: " (or a record's ply): what is
/// wrong, and where the player typed it, how to write it.
pub fn move_problem(e: &MoveError) -> String {
    match e {
        MoveError::Square(e) => square_problem(e),
        MoveError::Malformed(text) => {
            format!(
                "'{}' is not a move: write it as from-to, like e1-e3",
                echo(text)
            )
        }
        MoveError::Illegal(e) => illegal_move(e),
        MoveError::Ambiguous { to, candidates } => format!(
            "more than one piece can reach {to}: say which with {}",
            either(candidates)
        ),
        MoveError::Unreachable { to } => format!("none of your pieces can reach {to}"),
        MoveError::BareFrom { square, moves } => format!(
            "{square} is your own piece: say where it goes, like {}",
            either(moves)
        ),
        MoveError::Stuck { square } => {
            format!("the piece on {square} cannot move: it is hemmed in")
        }
    }
}

/// Why text is not a square of the board, and how squares are named on it.
pub fn square_problem(e: &SquareError) -> String {
    match e {
        SquareError::OffBoard { name, size } => format!(
            "{} is off the board: files run from a to {} and ranks from 1 to {size}",
            echo(name),
            last_file(*size)
        ),
        SquareError::Malformed { text, size } => format!(
            "'{}' is not a square: write a file letter a-{} then a rank 1-{size}, like e5",
            echo(text),
            last_file(*size)
        ),
    }
}

/// Why a move is not legal in the position.
pub fn illegal_move(e: &IllegalMove) -> String {
    use IllegalMove as I;
    match e {
        I::EmptySquare(square) => format!("there is no piece on {square}"),
        I::NotYourPiece {
            square,
            owner,
            mover,
        } => format!("the piece on {square} belongs to the {owner}, and it is the {mover}' turn"),
        I::NotKing(square) => format!("the piece on {square} is not the king"),
        I::IsKing(square) => format!("the piece on {square} is the king, not a soldier"),
        I::NullMove(square) => format!("a move must go somewhere: {square} to {square} stays put"),
        I::NotStraight { from, to } => {
            format!("{from}-{to} is not a straight line: pieces move along a rank or a file")
        }
        I::Blocked { from, to, at } => {
            format!("the path from {from} to {to} is blocked by the piece on {at}")
        }
        I::Occupied { to } => format!("{to} is already occupied"),
        I::CastleLanding => "only the king may land on the castle (e5)".into(),
        I::ThroneLanding(throne) => format!("only the king may land on the throne ({throne})"),
        I::OffBoard(square) => format!("{square} is off the board"),
        I::KingCannotReenter => "the king may not return to the castle under these rules".into(),
        I::CastleNotPassable => {
            "no piece may pass through the castle (e5) under these rules".into()
        }
        I::CornerLanding => "only the king may land on a corner under these rules".into(),
        I::GameOver => "the game is over: no more moves can be played".into(),
        I::RepeatsBoard(mv) => format!(
            "{mv} would leave the board as it stood before: under these rules the defenders \
             may not repeat a board (hnefatafl.org's rule)"
        ),
    }
}

/// The last file's letter of a `size` × `size` board.
fn last_file(size: u8) -> char {
    (b'a' + size.clamp(1, 26) - 1) as char
}

/// Moves to choose from: "a", "a or b", "a, b or c", and past six the first five and the count.
fn either(moves: &[Move]) -> String {
    let names: Vec<String> = moves.iter().map(Move::to_string).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n if n <= 6 => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
        n => format!("{}, … ({n} moves)", names[..5].join(", ")),
    }
}
