//! A position: the pieces on the board, the side to move, and the rules they play under.
//! Legal move generation, captures and the king's fate live here.

use super::bitboard::{squares_of, Bitboard, Bits, Word};
use super::movelist::MoveList;
use super::mv::Move;
use super::rules::{Escape, KingCapture, Rules, Throne, Variant};
use super::side::{Piece, Side};
use super::square::Square;
use super::tables::{slide_on, Board, Geometry, Size, WordOf, DIRECTIONS, NONE};
use super::zobrist::{DEFENDERS_TO_MOVE, PIECE_KEYS};
use std::fmt;

/// The geometry of the `N` × `N` board in its word, resolved at compile time.
#[inline(always)]
fn geo<const N: usize>() -> &'static Geometry<WordOf<N>>
where
    Size<N>: Board,
{
    Size::<N>::geo()
}

/// A board's set in the `N` × `N` board's word.
#[inline(always)]
fn w<const N: usize>(b: Bitboard) -> WordOf<N>
where
    Size<N>: Board,
{
    WordOf::<N>::from_bits(b.0)
}

/// Calls the board-size specialisation of a method: `by_size!(self, method(args))`. The hot
/// paths are generic over the board size, so each size's code is compiled with its own
/// constant masks and tables in its own word (a `u128` up to 9×9).
macro_rules! by_size {
    ($self:ident . $f:ident ( $($arg:expr),* )) => {
        match $self.rules.variant {
            Variant::Tablut => $self.$f::<9>($($arg),*),
            Variant::Brandubh => $self.$f::<7>($($arg),*),
            Variant::Copenhagen => $self.$f::<11>($($arg),*),
            Variant::Copenhagen13 => $self.$f::<13>($($arg),*),
        }
    };
}

/// Which way a finished position went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The king has been captured: the attackers have won.
    KingCaptured,
    /// The king stands on a square he escapes to: the defenders have won.
    KingEscaped,
    /// Copenhagen: the king on the edge, free to move, in a fort of defenders the attackers
    /// cannot break: the defenders have won.
    ExitFort,
    /// Brandubh and Copenhagen: the attackers enclose the king and every defender, none of them
    /// on the edge: the attackers have won.
    Encircled,
}

impl Decided {
    /// The side that has won.
    pub const fn winner(self) -> Side {
        match self {
            Decided::KingCaptured | Decided::Encircled => Side::Attackers,
            Decided::KingEscaped | Decided::ExitFort => Side::Defenders,
        }
    }
}

/// What a move did besides moving its piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveEffect {
    /// The squares of the pieces it captured (not counting the king).
    pub captured: Bitboard,
    /// Whether it captured the king.
    pub king_captured: bool,
    /// Whether the king escaped with it.
    pub escaped: bool,
}

/// What [`Position::make_in_place`] needs to take a move back.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    effect: MoveEffect,
    hash: u64,
    king_was: Bitboard,
}

/// Why a move is not legal in a position: data, worded for players by the bot
/// (`bot::messages::moves`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("no piece on {0}")]
    EmptySquare(Square),
    #[error("the piece on {square} is the {owner}', and the {mover} are to move")]
    NotYourPiece {
        square: Square,
        owner: Side,
        mover: Side,
    },
    /// The move's text names the king (`K`), and the piece is a soldier.
    #[error("the piece on {0} is not the king")]
    NotKing(Square),
    /// The move's text names a soldier (`T`, `t`), and the piece is the king.
    #[error("the piece on {0} is the king")]
    IsKing(Square),
    #[error("a move from {0} to itself")]
    NullMove(Square),
    #[error("{from}-{to} is not along a rank or a file")]
    NotStraight { from: Square, to: Square },
    #[error("{from}-{to} is blocked at {at}")]
    Blocked {
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("{to} is occupied")]
    Occupied { to: Square },
    /// A soldier landing on Tablut's castle (e5).
    #[error("a soldier landing on the castle")]
    CastleLanding,
    /// A soldier landing on another variant's throne.
    #[error("a soldier landing on the throne {0}")]
    ThroneLanding(Square),
    #[error("{0} is off the board")]
    OffBoard(Square),
    /// The king returning to the castle, under rules where he may not.
    #[error("the king returning to the castle")]
    KingCannotReenter,
    /// A piece passing through the castle (e5), under rules where none may.
    #[error("a piece passing through the castle")]
    CastleNotPassable,
    /// A soldier landing on a corner, under corner-escape rules.
    #[error("a soldier landing on a corner")]
    CornerLanding,
    #[error("the game is over")]
    GameOver,
    /// A defenders' move that leaves the board as it stood before, under hnefatafl.org's rule.
    #[error("{0} repeats a board")]
    RepeatsBoard(Move),
}

/// A move refused by [`Position::play`], with the position handed back unchanged.
#[derive(Debug, Clone)]
pub struct PlayError {
    pub position: Position,
    pub error: IllegalMove,
}

/// Why a set of pieces is not a position: data, worded for players by the bot
/// (`bot::messages::imports`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("two pieces on {0}")]
    Overlap(Square),
    #[error("more than one king")]
    TwoKings,
    /// A soldier on Tablut's castle (e5).
    #[error("a soldier on the castle")]
    PieceOnCastle,
    /// A soldier on a corner, under corner-escape rules.
    #[error("a soldier on a corner")]
    PieceOnCorner,
    /// More than 16 attackers, on Tablut's board.
    #[error("more than 16 attackers")]
    TooManyAttackers,
    /// More than 15 defenders besides the king, on Tablut's, Brandubh's or Copenhagen's board.
    #[error("more than 15 defenders besides the king")]
    TooManyDefenders,
    /// More attackers than the variant's most.
    #[error("more than {0} attackers")]
    TooManyAttackersFor(u32),
    /// More defenders besides the king than the variant's most.
    #[error("more than {0} defenders besides the king")]
    TooManyDefendersFor(u32),
    /// A soldier on another variant's throne.
    #[error("a soldier on the throne {0}")]
    PieceOnThrone(Square),
    #[error("{0} is off the {1}×{1} board")]
    OffBoard(Square, u8),
}

/// Stored (with a notice) as its record, side to move and rules: see
/// [`super::record::StoredPosition`].
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(
    into = "super::record::StoredPosition",
    try_from = "super::record::StoredPosition"
)]
pub struct Position {
    attackers: Bitboard,
    defenders: Bitboard,
    king: Bitboard,
    turn: Side,
    rules: Rules,
    hash: u64,
    /// An exit fort or an encirclement (Brandubh and Copenhagen), found when the move that made
    /// it was played. A capture or an escape is read from the pieces.
    end: Option<Decided>,
}

impl PartialEq for Position {
    /// Two positions are equal when every piece stands on the same square and the same side is
    /// to move (the rules are the game's, not the position's).
    fn eq(&self, other: &Position) -> bool {
        self.attackers == other.attackers
            && self.defenders == other.defenders
            && self.king == other.king
            && self.turn == other.turn
    }
}

impl Eq for Position {}

const START_ATTACKERS: [&str; 16] = [
    "d1", "e1", "f1", "e2", "d9", "e9", "f9", "e8", "a4", "a5", "a6", "b5", "i4", "i5", "i6", "h5",
];
const START_DEFENDERS: [&str; 8] = ["e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"];

const BRANDUBH_ATTACKERS: [&str; 8] = ["d1", "d2", "a4", "b4", "f4", "g4", "d6", "d7"];
const BRANDUBH_DEFENDERS: [&str; 4] = ["d3", "d5", "c4", "e4"];

const COPENHAGEN_ATTACKERS: [&str; 24] = [
    "d1", "e1", "f1", "g1", "h1", "f2", "a4", "a5", "a6", "a7", "a8", "b6", "k4", "k5", "k6", "k7",
    "k8", "j6", "d11", "e11", "f11", "g11", "h11", "f10",
];
const COPENHAGEN_DEFENDERS: [&str; 12] = [
    "f4", "e5", "f5", "g5", "d6", "e6", "g6", "h6", "e7", "f7", "g7", "f8",
];

/// hnefatafl.org's 13×13 start: 32 attackers, 16 defenders and the king on g7.
const COPENHAGEN13_ATTACKERS: [&str; 32] = [
    "d1", "e1", "f1", "g1", "h1", "i1", "j1", "g2", "a4", "a5", "a6", "a7", "a8", "a9", "a10",
    "b7", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "l7", "d13", "e13", "f13", "g13", "h13",
    "i13", "j13", "g12",
];
const COPENHAGEN13_DEFENDERS: [&str; 16] = [
    "g4", "g5", "f6", "g6", "h6", "d7", "e7", "f7", "h7", "i7", "j7", "f8", "g8", "h8", "g9", "g10",
];

fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|n| Square::parse_on(n, 13).expect("start squares are valid"))
        .collect()
}

impl Position {
    /// The start position of the rules' variant, attackers to move.
    pub fn start(rules: Rules) -> Position {
        let (attackers, defenders) = match rules.variant {
            Variant::Tablut => (squares(&START_ATTACKERS), squares(&START_DEFENDERS)),
            Variant::Brandubh => (squares(&BRANDUBH_ATTACKERS), squares(&BRANDUBH_DEFENDERS)),
            Variant::Copenhagen => (
                squares(&COPENHAGEN_ATTACKERS),
                squares(&COPENHAGEN_DEFENDERS),
            ),
            Variant::Copenhagen13 => (
                squares(&COPENHAGEN13_ATTACKERS),
                squares(&COPENHAGEN13_DEFENDERS),
            ),
        };
        Position::new(
            attackers,
            defenders,
            Some(rules.variant.castle()),
            Side::Attackers,
            rules,
        )
        .expect("the start position is valid")
    }

    /// The start position of a variant under its default rules.
    pub fn start_of(variant: Variant) -> Position {
        Position::start(variant.rules())
    }

    /// A position from its pieces, checked for sense.
    pub fn new(
        attackers: Bitboard,
        defenders: Bitboard,
        king: Option<Square>,
        turn: Side,
        rules: Rules,
    ) -> Result<Position, PositionError> {
        let rules = rules.normalized();
        let variant = rules.variant;
        let g = variant.geometry();
        if let Some(sq) = (attackers & defenders).first() {
            return Err(PositionError::Overlap(sq));
        }
        let king = king.map(Bitboard::from_square).unwrap_or_default();
        if let Some(sq) = ((attackers | defenders) & king).first() {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = ((attackers | defenders | king) & Bitboard(!g.full)).first() {
            return Err(PositionError::OffBoard(sq, g.size));
        }
        if ((attackers | defenders) & Bitboard(g.centre)).any() {
            return Err(match variant {
                Variant::Tablut => PositionError::PieceOnCastle,
                _ => PositionError::PieceOnThrone(variant.castle()),
            });
        }
        if rules.escape == Escape::Corner && ((attackers | defenders) & Bitboard(g.corners)).any() {
            return Err(PositionError::PieceOnCorner);
        }
        let (max_attackers, max_defenders) = match variant {
            Variant::Copenhagen => (24, 15),
            Variant::Copenhagen13 => (32, 16),
            _ => (16, 15),
        };
        if attackers.count() > max_attackers {
            return Err(match variant {
                Variant::Tablut => PositionError::TooManyAttackers,
                _ => PositionError::TooManyAttackersFor(max_attackers),
            });
        }
        if defenders.count() > max_defenders {
            return Err(match variant {
                Variant::Copenhagen13 => PositionError::TooManyDefendersFor(max_defenders),
                _ => PositionError::TooManyDefenders,
            });
        }
        let mut pos = Position {
            attackers,
            defenders,
            king,
            turn,
            rules,
            hash: 0,
            end: None,
        };
        pos.hash = pos.hash_from_scratch();
        let (a, d, k, mover) = (attackers.0, defenders.0, king.0, turn.other());
        let encircle = rules.encirclement;
        pos.end = match variant {
            Variant::Tablut => None,
            Variant::Brandubh => ending::<7>(a.lo(), d.lo(), k.lo(), mover, encircle),
            Variant::Copenhagen => ending::<11>(a, d, k, mover, encircle),
            Variant::Copenhagen13 => ending::<13>(a, d, k, mover, encircle),
        };
        Ok(pos)
    }

    pub fn attackers(&self) -> Bitboard {
        self.attackers
    }

    /// The defenders other than the king.
    pub fn defenders(&self) -> Bitboard {
        self.defenders
    }

    /// The king's square, unless he has been captured.
    pub fn king(&self) -> Option<Square> {
        self.king.first()
    }

    pub fn king_bb(&self) -> Bitboard {
        self.king
    }

    pub fn occupied(&self) -> Bitboard {
        self.attackers | self.defenders | self.king
    }

    /// All the pieces of one side (the king counts for the defenders).
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders | self.king,
        }
    }

    pub fn turn(&self) -> Side {
        self.turn
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The Zobrist hash of the placement and the side to move, kept up to date move by move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else if self.king.contains(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// The hash computed from nothing: equal to [`Position::hash`] at all times.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in self.attackers {
            h ^= PIECE_KEYS[0][sq.index()];
        }
        for sq in self.defenders {
            h ^= PIECE_KEYS[1][sq.index()];
        }
        for sq in self.king {
            h ^= PIECE_KEYS[2][sq.index()];
        }
        if self.turn == Side::Defenders {
            h ^= DEFENDERS_TO_MOVE;
        }
        h
    }

    /// The same pieces with the other side to move.
    pub fn with_turn(mut self, turn: Side) -> Position {
        if turn != self.turn {
            self.turn = turn;
            self.hash ^= DEFENDERS_TO_MOVE;
        }
        self
    }

    /// The variant this position is played in.
    #[inline(always)]
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The board's masks and tables.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        self.rules.variant.geometry()
    }

    /// The squares the king wins on: the edge, or the corners.
    #[inline(always)]
    pub fn escape_squares(&self) -> Bitboard {
        by_size!(self.escape_squares_n())
    }

    #[inline(always)]
    fn escape_squares_n<const N: usize>(&self) -> Bitboard
    where
        Size<N>: Board,
    {
        Bitboard(self.escape_n::<N>().to_bits())
    }

    #[inline(always)]
    fn escape_n<const N: usize>(&self) -> WordOf<N>
    where
        Size<N>: Board,
    {
        let g = geo::<N>();
        match self.rules.escape {
            Escape::Edge => g.edge,
            Escape::Corner => g.corners,
        }
    }

    /// Whether the game is decided on the board: the king captured or escaped.
    #[inline(always)]
    pub fn decided(&self) -> Option<Decided> {
        by_size!(self.decided_n())
    }

    #[inline(always)]
    pub(crate) fn decided_n<const N: usize>(&self) -> Option<Decided>
    where
        Size<N>: Board,
    {
        let king = w::<N>(self.king);
        if king.is_zero() {
            Some(Decided::KingCaptured)
        } else if (king & self.escape_n::<N>()).any() {
            Some(Decided::KingEscaped)
        } else if N != 9 {
            self.end
        } else {
            None
        }
    }

    /// Squares no soldier may land on.
    #[inline(always)]
    fn soldier_forbidden<const N: usize>(&self) -> WordOf<N>
    where
        Size<N>: Board,
    {
        let g = geo::<N>();
        match self.rules.escape {
            Escape::Edge => g.centre,
            Escape::Corner => g.centre | g.corners,
        }
    }

    /// Where the piece on `from` may move (empty if it is not the side to move's, or the game
    /// is decided).
    pub fn destinations(&self, from: Square) -> Bitboard {
        if self.decided().is_some() || !self.side_pieces(self.turn).contains(from) {
            return Bitboard::EMPTY;
        }
        if self.king.contains(from) {
            by_size!(self.king_destinations_bb(from))
        } else {
            by_size!(self.soldier_destinations_bb(from))
        }
    }

    fn king_destinations_bb<const N: usize>(&self, from: Square) -> Bitboard
    where
        Size<N>: Board,
    {
        Bitboard(self.king_destinations::<N>(from).to_bits())
    }

    fn soldier_destinations_bb<const N: usize>(&self, from: Square) -> Bitboard
    where
        Size<N>: Board,
    {
        Bitboard(self.soldier_destinations::<N>(from).to_bits())
    }

    /// The board's pieces, in the `N` × `N` board's word.
    #[inline(always)]
    fn occupied_n<const N: usize>(&self) -> WordOf<N>
    where
        Size<N>: Board,
    {
        w::<N>(self.attackers) | w::<N>(self.defenders) | w::<N>(self.king)
    }

    #[inline(always)]
    fn soldier_destinations<const N: usize>(&self, from: Square) -> WordOf<N>
    where
        Size<N>: Board,
    {
        let g = geo::<N>();
        let mut blockers = self.occupied_n::<N>();
        if !self.rules.castle_passable {
            blockers |= g.centre;
        }
        let sq = from.index();
        let reach = slide_on(g, sq, 0, blockers)
            | slide_on(g, sq, 1, blockers)
            | slide_on(g, sq, 2, blockers)
            | slide_on(g, sq, 3, blockers);
        reach & !self.soldier_forbidden::<N>()
    }

    #[inline(always)]
    fn king_destinations<const N: usize>(&self, from: Square) -> WordOf<N>
    where
        Size<N>: Board,
    {
        let g = geo::<N>();
        let occ = self.occupied_n::<N>();
        let sq = from.index();
        let mut reach = WordOf::<N>::ZERO;
        for dir in DIRECTIONS {
            let mut r = slide_on(g, sq, dir, occ);
            if !self.rules.castle_passable && (r & g.centre).any() {
                r &= g.to_centre[sq];
            }
            reach |= r;
        }
        if !self.rules.king_reenters_castle {
            reach &= !g.centre;
        }
        reach
    }

    /// Every legal move of the side to move, in no particular order. None once decided.
    pub fn legal_moves(&self, list: &mut MoveList) {
        by_size!(self.legal_moves_n(list))
    }

    /// [`Position::legal_moves`] for the `N` × `N` board.
    #[inline]
    pub(crate) fn legal_moves_n<const N: usize>(&self, list: &mut MoveList)
    where
        Size<N>: Board,
    {
        list.clear();
        if self.decided_n::<N>().is_some() {
            return;
        }
        if self.turn == Side::Defenders {
            if let Some(k) = self.king() {
                for to in squares_of(self.king_destinations::<N>(k)) {
                    list.push(Move::new(k, to));
                }
            }
        }
        let soldiers = match self.turn {
            Side::Attackers => w::<N>(self.attackers),
            Side::Defenders => w::<N>(self.defenders),
        };
        for from in squares_of(soldiers) {
            for to in squares_of(self.soldier_destinations::<N>(from)) {
                list.push(Move::new(from, to));
            }
        }
    }

    /// The legal moves sorted by their `from-to` text.
    pub fn legal_moves_sorted(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut v = list.to_vec();
        v.sort_by_key(|m| m.to_string());
        v
    }

    /// How many legal moves the side to move has, counted without listing them.
    pub fn count_legal_moves(&self) -> u32 {
        by_size!(self.count_legal_moves_n())
    }

    /// [`Position::count_legal_moves`] for the `N` × `N` board.
    #[inline]
    pub(crate) fn count_legal_moves_n<const N: usize>(&self) -> u32
    where
        Size<N>: Board,
    {
        const STRIDE: u32 = super::square::STRIDE as u32;
        let geo = geo::<N>();
        if self.decided_n::<N>().is_some() {
            return 0;
        }
        let occ = self.occupied_n::<N>();
        // Off-board squares are never passable: on boards narrower than the stride a shift east
        // or west off the board lands on one of them, and needs no file mask.
        let mut pass = !occ & geo.full;
        if !self.rules.castle_passable {
            pass &= !geo.centre;
        }
        let land = !self.soldier_forbidden::<N>();
        let soldiers = match self.turn {
            Side::Attackers => w::<N>(self.attackers),
            Side::Defenders => w::<N>(self.defenders),
        };
        // Only the widest board fills its rows and needs the wrap masks.
        let (not_first, not_last) = if N == STRIDE as usize {
            (!geo.first_file, !geo.last_file)
        } else {
            (WordOf::<N>::ONES, WordOf::<N>::ONES)
        };
        let mut n = 0;
        let mut g = soldiers;
        while g.any() {
            g = (g << STRIDE as usize) & pass;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g.any() {
            g = g >> STRIDE as usize;
            g &= pass;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g.any() {
            g = (g << 1) & pass & not_first;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g.any() {
            g = (g >> 1) & pass & not_last;
            n += (g & land).count_ones();
        }
        if self.turn == Side::Defenders {
            if let Some(k) = self.king() {
                n += self.king_destinations::<N>(k).count_ones();
            }
        }
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        by_size!(self.has_legal_move_n())
    }

    fn has_legal_move_n<const N: usize>(&self) -> bool
    where
        Size<N>: Board,
    {
        if self.decided_n::<N>().is_some() {
            return false;
        }
        let pieces = self.side_pieces(self.turn);
        pieces.into_iter().any(|sq| {
            if self.king.contains(sq) {
                self.king_destinations::<N>(sq).any()
            } else {
                self.soldier_destinations::<N>(sq).any()
            }
        })
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.destinations(mv.from).contains(mv.to)
    }

    /// Checks a move and says exactly why it is illegal.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.decided().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let variant = self.variant();
        let castle = variant.castle();
        let Move { from, to } = mv;
        let piece = match self.piece_at(from) {
            None if !variant.contains(from) => return Err(IllegalMove::OffBoard(from)),
            None => return Err(IllegalMove::EmptySquare(from)),
            Some(p) if p.side() != self.turn => {
                return Err(IllegalMove::NotYourPiece {
                    square: from,
                    owner: p.side(),
                    mover: self.turn,
                })
            }
            Some(p) => p,
        };
        if !variant.contains(to) {
            return Err(IllegalMove::OffBoard(to));
        }
        if from == to {
            return Err(IllegalMove::NullMove(from));
        }
        let Some(path) = from.line_between(to) else {
            return Err(IllegalMove::NotStraight { from, to });
        };
        for sq in path {
            if self.occupied().contains(sq) {
                return Err(IllegalMove::Blocked { from, to, at: sq });
            }
            if sq == castle && !self.rules.castle_passable {
                return Err(IllegalMove::CastleNotPassable);
            }
        }
        if self.occupied().contains(to) {
            return Err(IllegalMove::Occupied { to });
        }
        if to == castle {
            if piece != Piece::King {
                return Err(match variant {
                    Variant::Tablut => IllegalMove::CastleLanding,
                    _ => IllegalMove::ThroneLanding(castle),
                });
            }
            if !self.rules.king_reenters_castle {
                return Err(IllegalMove::KingCannotReenter);
            }
        }
        if piece != Piece::King
            && self.rules.escape == Escape::Corner
            && to.is_corner_on(variant.size())
        {
            return Err(IllegalMove::CornerLanding);
        }
        debug_assert!(self.is_legal(mv));
        Ok(())
    }

    /// Plays a legal move, or hands the position back unchanged with the reason it is illegal.
    pub fn play(self, mv: Move) -> Result<(Position, MoveEffect), PlayError> {
        match self.check(mv) {
            Ok(()) => Ok(self.make(mv)),
            Err(error) => Err(PlayError {
                position: self,
                error,
            }),
        }
    }

    /// Copy-make: the position after a move known to be legal.
    #[inline]
    pub fn make(&self, mv: Move) -> (Position, MoveEffect) {
        let mut next = *self;
        let undo = next.make_in_place(mv);
        (next, undo.effect)
    }

    /// [`Position::make`] for the `N` × `N` board.
    #[inline]
    pub(crate) fn make_n<const N: usize>(&self, mv: Move) -> (Position, MoveEffect)
    where
        Size<N>: Board,
    {
        let mut next = *self;
        let undo = next.make_in_place_n::<N>(mv);
        (next, undo.effect)
    }

    /// Plays a move known to be legal in place; [`Position::unmake`] takes it back.
    #[inline]
    pub fn make_in_place(&mut self, mv: Move) -> Undo {
        by_size!(self.make_in_place_n(mv))
    }

    #[inline(always)]
    fn make_in_place_n<const N: usize>(&mut self, mv: Move) -> Undo
    where
        Size<N>: Board,
    {
        type W<const N: usize> = WordOf<N>;
        let g = geo::<N>();
        let castle = g.centre_sq;
        let from = mv.from.index();
        let to = mv.to.index();
        let king_was = self.king;
        let mut undo = Undo {
            effect: MoveEffect::default(),
            hash: self.hash,
            king_was,
        };
        let from_to = W::<N>::bit(from) | W::<N>::bit(to);
        let mover_is_king = w::<N>(self.king).has(from);
        let kind = if mover_is_king {
            self.king.0 ^= from_to.to_bits();
            2
        } else if self.turn == Side::Attackers {
            self.attackers.0 ^= from_to.to_bits();
            0
        } else {
            self.defenders.0 ^= from_to.to_bits();
            1
        };
        let attackers = w::<N>(self.attackers);
        let defenders = w::<N>(self.defenders);
        let king = w::<N>(self.king);
        self.hash ^= PIECE_KEYS[kind][from] ^ PIECE_KEYS[kind][to];

        let castle_empty = (king & g.centre).is_zero();
        let corners = match self.rules.escape {
            Escape::Edge => W::<N>::ZERO,
            Escape::Corner => g.corners,
        };
        let throne = castle_empty && self.rules.throne == Throne::Hostile;
        let neutral_hostile = corners | if throne { g.centre } else { W::<N>::ZERO };

        if !mover_is_king || self.rules.king_armed {
            let (anvils, enemies, enemy_kind) = match self.turn {
                Side::Attackers => (attackers, defenders, 1),
                Side::Defenders => {
                    let armed = if self.rules.king_armed {
                        king
                    } else {
                        W::<N>::ZERO
                    };
                    (defenders | armed, attackers, 0)
                }
            };
            let hostile = anvils | neutral_hostile;
            let mut captured = W::<N>::ZERO;
            for dir in DIRECTIONS {
                let y = g.neighbours[to][dir];
                if y == NONE || !enemies.has(y as usize) {
                    continue;
                }
                let z = g.neighbours[y as usize][dir];
                if z == NONE {
                    continue;
                }
                let z = z as usize;
                // Rule 12 (a defender beside the occupied castle) is Tablut's alone.
                if hostile.has(z)
                    || (N == 9
                        && z == castle
                        && self.turn == Side::Attackers
                        && self.rules.king_armed
                        && rule_12(king.to_bits(), attackers.to_bits(), y as usize))
                {
                    captured |= W::<N>::bit(y as usize);
                }
            }
            if N >= 11 && g.edge.has(to) {
                captured |= match self.turn {
                    Side::Attackers => shieldwall::<N>(attackers, defenders | king, defenders, to),
                    Side::Defenders => shieldwall::<N>(defenders | king, attackers, attackers, to),
                };
            }
            if captured.any() {
                if enemy_kind == 0 {
                    self.attackers.0 ^= captured.to_bits();
                } else {
                    self.defenders.0 ^= captured.to_bits();
                }
                for sq in squares_of(captured) {
                    self.hash ^= PIECE_KEYS[enemy_kind][sq.index()];
                }
                undo.effect.captured = Bitboard(captured.to_bits());
            }
        }

        if self.turn == Side::Attackers {
            if (king & g.adjacent[to]).any()
                && king_is_taken::<N>(&self.rules, attackers, king, to, neutral_hostile)
            {
                let k = king.trailing_zeros() as usize;
                self.hash ^= PIECE_KEYS[2][k];
                self.king = Bitboard::EMPTY;
                undo.effect.king_captured = true;
            }
        } else if mover_is_king && self.escape_n::<N>().has(to) {
            undo.effect.escaped = true;
        }
        if N != 9 && !undo.effect.king_captured && !undo.effect.escaped {
            self.end = ending::<N>(
                w::<N>(self.attackers),
                w::<N>(self.defenders),
                w::<N>(self.king),
                self.turn,
                self.rules.encirclement,
            );
        }

        self.turn = self.turn.other();
        self.hash ^= DEFENDERS_TO_MOVE;
        undo
    }

    /// Takes back the move `make_in_place` played.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.turn = self.turn.other();
        let from_to = Bits::bit(mv.from.index()) | Bits::bit(mv.to.index());
        // The king's square before the move also undoes a king move or his capture.
        self.king = undo.king_was;
        if !undo.king_was.contains(mv.from) {
            match self.turn {
                Side::Attackers => self.attackers.0 ^= from_to,
                Side::Defenders => self.defenders.0 ^= from_to,
            }
        }
        match self.turn {
            Side::Attackers => self.defenders |= undo.effect.captured,
            Side::Defenders => self.attackers |= undo.effect.captured,
        }
        self.hash = undo.hash;
        // Moves are made only from undecided positions.
        self.end = None;
    }

    /// The king's free lines to a square he would win on (Linnaeus' *raichi* for one, *tuichu*
    /// for two or more): how many of his legal moves, were it his turn, reach an escape square.
    pub fn king_free_lines(&self) -> u32 {
        by_size!(self.king_free_lines_n())
    }

    fn king_free_lines_n<const N: usize>(&self) -> u32
    where
        Size<N>: Board,
    {
        match self.king() {
            Some(k) if self.decided_n::<N>().is_none() => {
                (self.king_destinations::<N>(k) & self.escape_n::<N>()).count_ones()
            }
            _ => 0,
        }
    }

    /// Whether the attackers, were it their turn, could capture the king with one move.
    pub fn king_capturable(&self) -> bool {
        by_size!(self.king_capturable_n())
    }

    fn king_capturable_n<const N: usize>(&self) -> bool
    where
        Size<N>: Board,
    {
        if self.decided_n::<N>().is_some() {
            return false;
        }
        let me = self.with_turn(Side::Attackers);
        let Some(k) = me.king() else { return false };
        let targets = geo::<N>().adjacent[k.index()] & !me.occupied_n::<N>();
        if targets.is_zero() {
            return false;
        }
        squares_of(w::<N>(me.attackers)).any(|from| {
            squares_of(me.soldier_destinations::<N>(from) & targets)
                .any(|to| me.make_n::<N>(Move::new(from, to)).1.king_captured)
        })
    }
}

// Brandubh's and Copenhagen's own rules. Free functions over bitboards passed by value, never
// inlined: Tablut's make, which shares a caller with them, keeps its position in registers.

/// Rule 12: the king on his castle with attackers on the three neighbours other than `y`,
/// where a defender stands. A disarmed king (`king_armed = false`) takes part in no capture,
/// so this needs him armed. Tablut's only.
#[inline]
fn rule_12(king: Bits, attackers: Bits, y: usize) -> bool {
    let g = &super::tables::GEOMETRY_9;
    king == g.centre && {
        let others = g.adjacent[g.centre_sq] & !Bits::bit(y);
        others & attackers == others
    }
}

/// Whether the attacker that just arrived on `to` (next to the king) completes his capture.
#[inline]
fn king_is_taken<const N: usize>(
    rules: &Rules,
    att: WordOf<N>,
    king: WordOf<N>,
    to: usize,
    neutral_hostile: WordOf<N>,
) -> bool
where
    Size<N>: Board,
{
    let g = geo::<N>();
    let castle = g.centre_sq;
    let k = king.trailing_zeros() as usize;
    let adj = g.adjacent[k];
    // Two sides: the arrival on `to` and a hostile square beyond the king.
    let by_two = |hostile: WordOf<N>| {
        DIRECTIONS.into_iter().any(|dir| {
            g.neighbours[to][dir] as usize == k && {
                let z = g.neighbours[k][dir];
                z != NONE && hostile.has(z as usize)
            }
        })
    };
    match rules.king_capture {
        KingCapture::Linnaeus => {
            if k == castle {
                adj & att == adj
            } else if g.adjacent[castle].has(k) {
                let sides = adj & !g.centre;
                sides & att == sides
            } else {
                by_two(att | neutral_hostile)
            }
        }
        KingCapture::FourSides => {
            let hostile = att | neutral_hostile;
            adj.count_ones() == 4 && adj & hostile == adj
        }
        // The empty throne is never hostile to the king; a corner is.
        KingCapture::FourOnThrone if k == castle => adj & att == adj,
        KingCapture::FourOnThrone => by_two(att | (neutral_hostile & !g.centre)),
        KingCapture::TwoSides => by_two(att | neutral_hostile),
    }
}

/// The squares next to any square of `b`, on the `N` × `N` board.
#[inline(always)]
fn dilate<const N: usize>(b: WordOf<N>) -> WordOf<N>
where
    Size<N>: Board,
{
    const S: usize = super::square::STRIDE;
    let g = geo::<N>();
    let (not_first, not_last) = if N == S {
        (!g.first_file, !g.last_file)
    } else {
        (WordOf::<N>::ONES, WordOf::<N>::ONES)
    };
    ((b << S) | (b >> S) | ((b << 1) & not_first) | ((b >> 1) & not_last)) & g.full
}

/// The end a move by `mover` made besides a capture or escape of the king: an exit fort
/// (Copenhagen, after a defenders' move) or an encirclement (Brandubh and Copenhagen, after an
/// attackers' move, where the rules have it).
#[inline(never)]
fn ending<const N: usize>(
    attackers: WordOf<N>,
    defenders: WordOf<N>,
    king: WordOf<N>,
    mover: Side,
    encircle: bool,
) -> Option<Decided>
where
    Size<N>: Board,
{
    match mover {
        Side::Defenders if N >= 11 && exit_fort::<N>(attackers, defenders, king) => {
            Some(Decided::ExitFort)
        }
        Side::Attackers if encircle && encircled::<N>(attackers, defenders, king) => {
            Some(Decided::Encircled)
        }
        _ => None,
    }
}

/// The shieldwall (Copenhagen): the piece that has just landed on the edge square `to` brackets
/// one end of a row of two or more enemies along that edge, the other end is bracketed by a piece
/// of the mover's side (`own`) or a corner, and every piece of the row has a piece of the mover's
/// side in front of it. The row's soldiers are captured; a king in the row counts toward the two
/// but is not captured. Both directions along the edge are looked at.
#[inline(never)]
fn shieldwall<const N: usize>(
    own: WordOf<N>,
    enemies: WordOf<N>,
    soldiers: WordOf<N>,
    to: usize,
) -> WordOf<N>
where
    Size<N>: Board,
{
    use super::tables::{EAST, NORTH, SOUTH, WEST};
    let g = geo::<N>();
    let n = N as u8;
    let sq = Square::new(to as u8).expect("a square");
    let (front, walks) = if sq.rank() == 0 {
        (NORTH, [EAST, WEST])
    } else if sq.rank() == n - 1 {
        (SOUTH, [EAST, WEST])
    } else if sq.file() == 0 {
        (EAST, [NORTH, SOUTH])
    } else {
        (WEST, [NORTH, SOUTH])
    };
    let mut captured = WordOf::<N>::ZERO;
    for walk in walks {
        let mut row = WordOf::<N>::ZERO;
        let mut count = 0;
        let mut t = g.neighbours[to][walk];
        while t != NONE {
            let b = WordOf::<N>::bit(t as usize);
            if ((g.corners | own) & b).any() {
                if count >= 2 {
                    captured |= row;
                }
                break;
            }
            if (enemies & b).is_zero() {
                break;
            }
            let f = g.neighbours[t as usize][front];
            if f == NONE || !own.has(f as usize) {
                break;
            }
            row |= b;
            count += 1;
            t = g.neighbours[t as usize][walk];
        }
    }
    captured & soldiers
}

/// The exit fort (Copenhagen): the king on the edge with an empty square beside him, in a space
/// of empty squares closed by defenders and the edge that reaches no attacker and no corner, and
/// every defender of its wall safe from capture: along each line through him, at least one
/// neighbour is off the board, a piece of his side, or inside the fort (not the empty throne).
fn exit_fort<const N: usize>(attackers: WordOf<N>, defenders: WordOf<N>, k: WordOf<N>) -> bool
where
    Size<N>: Board,
{
    const S: usize = super::square::STRIDE;
    let g = geo::<N>();
    if (k & g.edge).is_zero() {
        return false;
    }
    let empty = g.full & !(attackers | defenders | k);
    if (dilate::<N>(k) & empty).is_zero() {
        return false;
    }
    let mut inside = k;
    loop {
        let grown = (inside | dilate::<N>(inside)) & (empty | k);
        if grown == inside {
            break;
        }
        inside = grown;
    }
    let around = dilate::<N>(inside) & !inside;
    if (around & attackers).any() || (inside & g.corners).any() {
        return false;
    }
    let wall = around & defenders;
    let empty_throne = g.centre & empty;
    let safe = defenders | k | (inside & !empty_throne);
    let top = g.full & !(g.full >> S);
    let bottom = g.full & !(g.full << S);
    let (not_first, not_last) = if N == S {
        (!g.first_file, !g.last_file)
    } else {
        (WordOf::<N>::ONES, WordOf::<N>::ONES)
    };
    let vertical = top | bottom | (safe >> S) | (safe << S);
    let horizontal =
        g.first_file | g.last_file | ((safe >> 1) & not_last) | ((safe << 1) & not_first);
    wall & vertical & horizontal == wall
}

/// Encirclement (Brandubh and Copenhagen): the squares the king can reach through empty squares
/// and his own pieces, closed by attackers, touch no edge and hold every defender.
fn encircled<const N: usize>(attackers: WordOf<N>, defenders: WordOf<N>, k: WordOf<N>) -> bool
where
    Size<N>: Board,
{
    let g = geo::<N>();
    if k.is_zero() || ((defenders | k) & g.edge).any() {
        return false;
    }
    let open = g.full & !attackers;
    // The squares reached from the king, then from him alone: a defender's space that reaches
    // the edge is the king's, or that defender is outside his; either way there is no
    // encirclement, and the defenders, closer to the edge than he is, find it sooner.
    let reaches_edge = |from: WordOf<N>| {
        let mut inside = from;
        loop {
            let grown = (inside | dilate::<N>(inside)) & open;
            if (grown & g.edge).any() {
                return None;
            }
            if grown == inside {
                return Some(inside);
            }
            inside = grown;
        }
    };
    if reaches_edge(defenders | k).is_none() {
        return false;
    }
    reaches_edge(k).is_some_and(|inside| (defenders & !inside).is_zero())
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.variant().size();
        writeln!(f)?;
        for rank in (0..n).rev() {
            if n > 9 {
                write!(f, "{:>2} ", rank + 1)?;
            } else {
                write!(f, "{} ", rank + 1)?;
            }
            for file in 0..n {
                let sq = Square::from_coords(file, rank).expect("on the board");
                let c = match self.piece_at(sq) {
                    Some(Piece::Attacker) => 'A',
                    Some(Piece::Defender) => 'D',
                    Some(Piece::King) => 'K',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        let files: Vec<String> = (0..n).map(|i| char::from(b'a' + i).to_string()).collect();
        let pad = if n > 9 { "    " } else { "   " };
        writeln!(f, "{pad}{}   ({} to move)", files.join(" "), self.turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_small_enough_to_copy() {
        // Three 192-bit boards of 24 bytes, the hash, the rules (with the variant) and the turn.
        assert!(std::mem::size_of::<Position>() <= 96);
    }

    #[test]
    fn a_position_is_stored_as_its_record_and_read_back_the_same() {
        for variant in Variant::ALL {
            let rules = variant.rules();
            let mut p = Position::start(rules);
            let first = p.legal_moves_sorted()[0];
            p = p.play(first).unwrap().0;
            let json = serde_json::to_string(&p).unwrap();
            assert!(json.contains(&crate::tafl::write_position(&p)), "{json}");
            let back: Position = serde_json::from_str(&json).unwrap();
            assert_eq!(back, p);
            assert_eq!((back.turn(), back.rules()), (Side::Defenders, &rules));
            assert!(serde_json::from_str::<Position>(&json.replace('/', "/x")).is_err());
        }
    }
}
