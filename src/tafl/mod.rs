//! The rules engine: board, moves, captures, rule options, notation and game records.
//! Pure and fast: it imports nothing from Discord, SQL, images or async runtimes.

pub mod bitboard;
pub mod game;
pub mod gamefile;
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
pub use gamefile::{
    read_record, write_record, LineProblem, OpenTaflRulesError, PlyProblem, ReadRecord,
    RecordFormat, RecordReadError, RecordTags, RulesNameError,
};
pub use movelist::MoveList;
pub use mv::Move;
pub use notation::{parse_move, MoveError, MoveText};
pub use position::{Decided, IllegalMove, MoveEffect, PlayError, Position, PositionError};
pub use record::{parse_position, write_position, Call, Mark, RecordError, RecordedMove};
pub use rules::{
    Escape, KingCapture, NoMoves, Preset, Repetition, Rules, RulesError, Throne, Variant,
    VariantError,
};
pub use side::{Piece, Side};
pub use square::{Square, SquareError};
