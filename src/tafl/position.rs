//! A position: the pieces on the board, the side to move, and the rules they play under.
//! Legal move generation, captures and the king's fate live here.

use super::bitboard::Bitboard;
use super::movelist::MoveList;
use super::mv::Move;
use super::rules::{Escape, KingCapture, Rules};
use super::side::{Piece, Side};
use super::square::Square;
use super::tables::{slide, ADJACENT, DIRECTIONS, NEIGHBOURS, NONE, TO_CASTLE};
use super::zobrist::{DEFENDERS_TO_MOVE, PIECE_KEYS};
use std::fmt;

const CASTLE: usize = Square::CASTLE.index();

/// Which way a finished position went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The king has been captured: the attackers have won.
    KingCaptured,
    /// The king stands on a square he escapes to: the defenders have won.
    KingEscaped,
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

/// Why a move is not legal in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("there is no piece on {0}")]
    EmptySquare(Square),
    #[error("the piece on {square} belongs to the {owner}, and it is the {mover}' turn")]
    NotYourPiece {
        square: Square,
        owner: Side,
        mover: Side,
    },
    #[error("the piece on {0} is not the king")]
    NotKing(Square),
    #[error("the piece on {0} is the king, not a soldier")]
    IsKing(Square),
    #[error("a move must go somewhere: {0} to {0} stays put")]
    NullMove(Square),
    #[error("{from}-{to} is not a straight line: pieces move along a rank or a file")]
    NotStraight { from: Square, to: Square },
    #[error("the path from {from} to {to} is blocked by the piece on {at}")]
    Blocked {
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("{to} is already occupied")]
    Occupied { to: Square },
    #[error("only the king may land on the castle (e5)")]
    CastleLanding,
    #[error("the king may not return to the castle under these rules")]
    KingCannotReenter,
    #[error("no piece may pass through the castle (e5) under these rules")]
    CastleNotPassable,
    #[error("only the king may land on a corner under these rules")]
    CornerLanding,
    #[error("the game is over: no more moves can be played")]
    GameOver,
}

/// A move refused by [`Position::play`], with the position handed back unchanged.
#[derive(Debug, Clone)]
pub struct PlayError {
    pub position: Position,
    pub error: IllegalMove,
}

/// Why a set of pieces is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("two pieces stand on {0}")]
    Overlap(Square),
    #[error("there can be only one king")]
    TwoKings,
    #[error("only the king may stand on the castle (e5)")]
    PieceOnCastle,
    #[error("only the king may stand on a corner under corner-escape rules")]
    PieceOnCorner,
    #[error("too many attackers: at most 16")]
    TooManyAttackers,
    #[error("too many defenders: at most 15 besides the king")]
    TooManyDefenders,
}

#[derive(Clone, Copy)]
pub struct Position {
    attackers: Bitboard,
    defenders: Bitboard,
    king: Bitboard,
    turn: Side,
    rules: Rules,
    hash: u64,
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

fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|n| n.parse::<Square>().expect("start squares are valid"))
        .collect()
}

impl Position {
    /// The start position, attackers to move.
    pub fn start(rules: Rules) -> Position {
        Position::new(
            squares(&START_ATTACKERS),
            squares(&START_DEFENDERS),
            Some(Square::CASTLE),
            Side::Attackers,
            rules,
        )
        .expect("the start position is valid")
    }

    /// A position from its pieces, checked for sense.
    pub fn new(
        attackers: Bitboard,
        defenders: Bitboard,
        king: Option<Square>,
        turn: Side,
        rules: Rules,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (attackers & defenders).first() {
            return Err(PositionError::Overlap(sq));
        }
        let king = king.map(Bitboard::from_square).unwrap_or_default();
        if let Some(sq) = ((attackers | defenders) & king).first() {
            return Err(PositionError::Overlap(sq));
        }
        if ((attackers | defenders) & Bitboard::CASTLE).any() {
            return Err(PositionError::PieceOnCastle);
        }
        if rules.escape == Escape::Corner && ((attackers | defenders) & Bitboard::CORNERS).any() {
            return Err(PositionError::PieceOnCorner);
        }
        if attackers.count() > 16 {
            return Err(PositionError::TooManyAttackers);
        }
        if defenders.count() > 15 {
            return Err(PositionError::TooManyDefenders);
        }
        let mut pos = Position {
            attackers,
            defenders,
            king,
            turn,
            rules,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
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

    /// The squares the king wins on: the edge, or the corners.
    #[inline(always)]
    pub fn escape_squares(&self) -> Bitboard {
        match self.rules.escape {
            Escape::Edge => Bitboard::EDGE,
            Escape::Corner => Bitboard::CORNERS,
        }
    }

    /// Whether the game is decided on the board: the king captured or escaped.
    #[inline(always)]
    pub fn decided(&self) -> Option<Decided> {
        if self.king.is_empty() {
            Some(Decided::KingCaptured)
        } else if (self.king & self.escape_squares()).any() {
            Some(Decided::KingEscaped)
        } else {
            None
        }
    }

    /// Squares no soldier may land on.
    #[inline(always)]
    fn soldier_forbidden(&self) -> u128 {
        match self.rules.escape {
            Escape::Edge => Bitboard::CASTLE.0,
            Escape::Corner => Bitboard::CASTLE.0 | Bitboard::CORNERS.0,
        }
    }

    /// Where the piece on `from` may move (empty if it is not the side to move's, or the game
    /// is decided).
    pub fn destinations(&self, from: Square) -> Bitboard {
        if self.decided().is_some() || !self.side_pieces(self.turn).contains(from) {
            return Bitboard::EMPTY;
        }
        if self.king.contains(from) {
            self.king_destinations(from)
        } else {
            self.soldier_destinations(from)
        }
    }

    #[inline(always)]
    fn soldier_destinations(&self, from: Square) -> Bitboard {
        let mut blockers = self.occupied().0;
        if !self.rules.castle_passable {
            blockers |= Bitboard::CASTLE.0;
        }
        let sq = from.index();
        let reach = slide(sq, 0, blockers)
            | slide(sq, 1, blockers)
            | slide(sq, 2, blockers)
            | slide(sq, 3, blockers);
        Bitboard(reach & !self.soldier_forbidden())
    }

    #[inline(always)]
    fn king_destinations(&self, from: Square) -> Bitboard {
        let occ = self.occupied().0;
        let sq = from.index();
        let mut reach = 0;
        for dir in DIRECTIONS {
            let mut r = slide(sq, dir, occ);
            if !self.rules.castle_passable && r & Bitboard::CASTLE.0 != 0 {
                r &= TO_CASTLE[sq];
            }
            reach |= r;
        }
        if !self.rules.king_reenters_castle {
            reach &= !Bitboard::CASTLE.0;
        }
        Bitboard(reach)
    }

    /// Every legal move of the side to move, in no particular order. None once decided.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.decided().is_some() {
            return;
        }
        if self.turn == Side::Defenders {
            if let Some(k) = self.king() {
                for to in self.king_destinations(k) {
                    list.push(Move::new(k, to));
                }
            }
        }
        let soldiers = match self.turn {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        for from in soldiers {
            for to in self.soldier_destinations(from) {
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
        if self.decided().is_some() {
            return 0;
        }
        let occ = self.occupied().0;
        let mut pass = !occ & Bitboard::FULL.0;
        if !self.rules.castle_passable {
            pass &= !Bitboard::CASTLE.0;
        }
        let land = !self.soldier_forbidden();
        let soldiers = match self.turn {
            Side::Attackers => self.attackers.0,
            Side::Defenders => self.defenders.0,
        };
        let not_a = !Bitboard::FILE_A.0;
        let not_i = !Bitboard::FILE_I.0;
        let mut n = 0;
        let mut g = soldiers;
        while g != 0 {
            g = (g << 9) & pass;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g != 0 {
            g >>= 9;
            g &= pass;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g != 0 {
            g = (g << 1) & pass & not_a;
            n += (g & land).count_ones();
        }
        let mut g = soldiers;
        while g != 0 {
            g = (g >> 1) & pass & not_i;
            n += (g & land).count_ones();
        }
        if self.turn == Side::Defenders {
            if let Some(k) = self.king() {
                n += self.king_destinations(k).count();
            }
        }
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.decided().is_some() {
            return false;
        }
        let pieces = self.side_pieces(self.turn);
        pieces.into_iter().any(|sq| {
            if self.king.contains(sq) {
                self.king_destinations(sq).any()
            } else {
                self.soldier_destinations(sq).any()
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
        let Move { from, to } = mv;
        let piece = match self.piece_at(from) {
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
            if sq == Square::CASTLE && !self.rules.castle_passable {
                return Err(IllegalMove::CastleNotPassable);
            }
        }
        if self.occupied().contains(to) {
            return Err(IllegalMove::Occupied { to });
        }
        if to == Square::CASTLE {
            if piece != Piece::King {
                return Err(IllegalMove::CastleLanding);
            }
            if !self.rules.king_reenters_castle {
                return Err(IllegalMove::KingCannotReenter);
            }
        }
        if piece != Piece::King && self.rules.escape == Escape::Corner && to.is_corner() {
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

    /// Plays a move known to be legal in place; [`Position::unmake`] takes it back.
    #[inline]
    pub fn make_in_place(&mut self, mv: Move) -> Undo {
        let from = mv.from.index();
        let to = mv.to.index();
        let king_was = self.king;
        let mut undo = Undo {
            effect: MoveEffect::default(),
            hash: self.hash,
            king_was,
        };
        let from_to = (1u128 << from) | (1u128 << to);
        let mover_is_king = self.king.0 >> from & 1 != 0;
        let kind = if mover_is_king {
            self.king.0 ^= from_to;
            2
        } else if self.turn == Side::Attackers {
            self.attackers.0 ^= from_to;
            0
        } else {
            self.defenders.0 ^= from_to;
            1
        };
        self.hash ^= PIECE_KEYS[kind][from] ^ PIECE_KEYS[kind][to];

        let castle_empty = self.king.0 & Bitboard::CASTLE.0 == 0;
        let corners = match self.rules.escape {
            Escape::Edge => 0,
            Escape::Corner => Bitboard::CORNERS.0,
        };
        let neutral_hostile = corners | if castle_empty { Bitboard::CASTLE.0 } else { 0 };

        if !mover_is_king || self.rules.king_armed {
            let (anvils, enemies, enemy_kind) = match self.turn {
                Side::Attackers => (self.attackers.0, self.defenders.0, 1),
                Side::Defenders => {
                    let king = if self.rules.king_armed {
                        self.king.0
                    } else {
                        0
                    };
                    (self.defenders.0 | king, self.attackers.0, 0)
                }
            };
            let hostile = anvils | neutral_hostile;
            let mut captured = 0u128;
            for dir in DIRECTIONS {
                let y = NEIGHBOURS[to][dir];
                if y == NONE || enemies >> y & 1 == 0 {
                    continue;
                }
                let z = NEIGHBOURS[y as usize][dir];
                if z == NONE {
                    continue;
                }
                let z = z as usize;
                if hostile >> z & 1 != 0
                    || (z == CASTLE
                        && self.turn == Side::Attackers
                        && self.rules.king_armed
                        && self.rule_12(y as usize))
                {
                    captured |= 1u128 << y;
                }
            }
            if captured != 0 {
                if enemy_kind == 0 {
                    self.attackers.0 ^= captured;
                } else {
                    self.defenders.0 ^= captured;
                }
                for sq in Bitboard(captured) {
                    self.hash ^= PIECE_KEYS[enemy_kind][sq.index()];
                }
                undo.effect.captured = Bitboard(captured);
            }
        }

        if self.turn == Side::Attackers {
            if self.king.0 & ADJACENT[to] != 0 && self.king_is_taken(to, neutral_hostile) {
                let k = self.king.0.trailing_zeros() as usize;
                self.hash ^= PIECE_KEYS[2][k];
                self.king.0 = 0;
                undo.effect.king_captured = true;
            }
        } else if mover_is_king && self.escape_squares().0 >> to & 1 != 0 {
            undo.effect.escaped = true;
        }

        self.turn = self.turn.other();
        self.hash ^= DEFENDERS_TO_MOVE;
        undo
    }

    /// Rule 12: the king on his castle with attackers on the three neighbours other than `y`,
    /// where a defender stands. A disarmed king (`king_armed = false`) takes part in no capture,
    /// so this needs him armed.
    #[inline]
    fn rule_12(&self, y: usize) -> bool {
        self.king.0 == Bitboard::CASTLE.0 && {
            let others = ADJACENT[CASTLE] & !(1u128 << y);
            others & self.attackers.0 == others
        }
    }

    /// Whether the attacker that just arrived on `to` (next to the king) completes his capture.
    #[inline]
    fn king_is_taken(&self, to: usize, neutral_hostile: u128) -> bool {
        let k = self.king.0.trailing_zeros() as usize;
        let adj = ADJACENT[k];
        let att = self.attackers.0;
        match self.rules.king_capture {
            KingCapture::Linnaeus => {
                if k == CASTLE {
                    adj & att == adj
                } else if ADJACENT[CASTLE] >> k & 1 != 0 {
                    let sides = adj & !Bitboard::CASTLE.0;
                    sides & att == sides
                } else {
                    let hostile = att | neutral_hostile;
                    DIRECTIONS.into_iter().any(|dir| {
                        NEIGHBOURS[to][dir] as usize == k && {
                            let z = NEIGHBOURS[k][dir];
                            z != NONE && hostile >> z & 1 != 0
                        }
                    })
                }
            }
            KingCapture::FourSides => {
                let hostile = att | neutral_hostile;
                adj.count_ones() == 4 && adj & hostile == adj
            }
        }
    }

    /// Takes back the move `make_in_place` played.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.turn = self.turn.other();
        let from_to = (1u128 << mv.from.index()) | (1u128 << mv.to.index());
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
    }

    /// The king's free lines to a square he would win on (Linnaeus' *raichi* for one, *tuichu*
    /// for two or more): how many of his legal moves, were it his turn, reach an escape square.
    pub fn king_free_lines(&self) -> u32 {
        match self.king() {
            Some(k) if self.decided().is_none() => {
                (self.king_destinations(k) & self.escape_squares()).count()
            }
            _ => 0,
        }
    }

    /// Whether the attackers, were it their turn, could capture the king with one move.
    pub fn king_capturable(&self) -> bool {
        if self.decided().is_some() {
            return false;
        }
        let me = self.with_turn(Side::Attackers);
        let Some(k) = me.king() else { return false };
        let targets = Bitboard(ADJACENT[k.index()]) & !me.occupied();
        if targets.is_empty() {
            return false;
        }
        me.attackers.into_iter().any(|from| {
            (me.soldier_destinations(from) & targets)
                .into_iter()
                .any(|to| me.make(Move::new(from, to)).1.king_captured)
        })
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..9).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..9 {
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
        writeln!(f, "   a b c d e f g h i   ({} to move)", self.turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_small_enough_to_copy() {
        assert_eq!(std::mem::size_of::<Position>(), 64);
    }
}
