//! A game: its rules, its start, every move played and how it ended.

use super::bitboard::Bitboard;
use super::movelist::MoveList;
use super::mv::Move;
use super::notation::{parse_move, MoveError};
use super::position::{Decided, IllegalMove, Position};
use super::record::{write_game_record, Call, Mark, RecordedMove};
use super::rules::{NoMoves, Repetition, Rules};
use super::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    KingCaptured,
    KingEscaped,
    Repetition,
    NoMoves,
    Resigned,
    DrawAgreed,
    Timeout,
    Aborted,
    /// Copenhagen: the king made an exit fort.
    ExitFort,
    /// Brandubh and Copenhagen: the attackers encircled the king and all his defenders.
    Encircled,
    /// The bot's own rule, not the game's: the game reached the bot's limit on its length
    /// (a setting; see docs/RULES.md). The engine never gives it by itself: the bot ends a
    /// game with it, as it ends one on time.
    PlyLimit,
}

impl Reason {
    /// Every reason, in declaration order.
    pub const ALL: [Reason; 11] = [
        Reason::KingCaptured,
        Reason::KingEscaped,
        Reason::Repetition,
        Reason::NoMoves,
        Reason::Resigned,
        Reason::DrawAgreed,
        Reason::Timeout,
        Reason::Aborted,
        Reason::ExitFort,
        Reason::Encircled,
        Reason::PlyLimit,
    ];

    /// The reason's name in stored rows and records (`king_captured`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Reason::KingCaptured => "king_captured",
            Reason::KingEscaped => "king_escaped",
            Reason::Repetition => "repetition",
            Reason::NoMoves => "no_moves",
            Reason::Resigned => "resigned",
            Reason::DrawAgreed => "draw_agreed",
            Reason::Timeout => "timeout",
            Reason::Aborted => "aborted",
            Reason::ExitFort => "exit_fort",
            Reason::Encircled => "encircled",
            Reason::PlyLimit => "ply_limit",
        }
    }

    /// The reason [`Reason::name`] names.
    pub fn from_name(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Ongoing,
    Won { winner: Side, reason: Reason },
    Drawn { reason: Reason },
}

impl Outcome {
    pub const fn is_over(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// `ongoing`, `attackers_won`, `defenders_won` or `draw`.
    pub const fn status(self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::Won {
                winner: Side::Attackers,
                ..
            } => "attackers_won",
            Outcome::Won {
                winner: Side::Defenders,
                ..
            } => "defenders_won",
            Outcome::Drawn { .. } => "draw",
        }
    }

    pub const fn reason(self) -> Option<Reason> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Won { reason, .. } | Outcome::Drawn { reason } => Some(reason),
        }
    }

    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Won { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

/// A game in progress or finished.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    /// Every position so far, the start first and the current one last.
    history: Vec<Position>,
    moves: Vec<RecordedMove>,
    outcome: Outcome,
}

impl Game {
    /// A new game from the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A new game from any position (its rules are the game's).
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            start,
            history: vec![start],
            moves: Vec::new(),
            outcome: Outcome::Ongoing,
        };
        game.outcome = game.judge(None);
        game
    }

    pub fn rules(&self) -> &Rules {
        self.start.rules()
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        self.history.last().expect("history is never empty")
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.history
    }

    pub fn moves(&self) -> &[RecordedMove] {
        &self.moves
    }

    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    pub fn turn(&self) -> Side {
        self.position().turn()
    }

    /// How many times the current position has occurred in this game (at least 1).
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        self.history
            .iter()
            .filter(|p| p.hash() == cur.hash() && *p == cur)
            .count()
    }

    /// The outcome of the current position, given the move (and its mover) that led to it.
    fn judge(&self, last: Option<Side>) -> Outcome {
        let pos = self.position();
        match pos.decided() {
            Some(Decided::KingCaptured) => {
                return Outcome::Won {
                    winner: Side::Attackers,
                    reason: Reason::KingCaptured,
                }
            }
            Some(Decided::KingEscaped) => {
                return Outcome::Won {
                    winner: Side::Defenders,
                    reason: Reason::KingEscaped,
                }
            }
            Some(Decided::ExitFort) => {
                return Outcome::Won {
                    winner: Side::Defenders,
                    reason: Reason::ExitFort,
                }
            }
            Some(Decided::Encircled) => {
                return Outcome::Won {
                    winner: Side::Attackers,
                    reason: Reason::Encircled,
                }
            }
            None => {}
        }
        let repetition = pos.rules().repetition();
        if last.is_some()
            && repetition != Repetition::DefendersMayNotRepeat
            && self.repetitions() >= usize::from(pos.rules().repetition_limit)
        {
            // Tablut draws; Brandubh and Copenhagen forbid perpetual repetition, and the
            // defenders, who could otherwise hold a lost game for ever, lose by it.
            return if repetition == Repetition::DefendersLose {
                Outcome::Won {
                    winner: Side::Attackers,
                    reason: Reason::Repetition,
                }
            } else {
                Outcome::Drawn {
                    reason: Reason::Repetition,
                }
            };
        }
        if !self.has_legal_move() {
            return match pos.rules().no_moves {
                NoMoves::Lose => Outcome::Won {
                    winner: pos.turn().other(),
                    reason: Reason::NoMoves,
                },
                NoMoves::Draw => Outcome::Drawn {
                    reason: Reason::NoMoves,
                },
            };
        }
        Outcome::Ongoing
    }

    /// Whether `mv`, a legal move on the board, is refused because the defenders may not
    /// recreate an earlier board (`Repetition::DefendersMayNotRepeat`, hnefatafl.org's rule):
    /// the pieces as the move leaves them before its captures are taken off stand as they stood
    /// after an earlier move or at the start, whichever side was then to move.
    pub fn repeats_board(&self, mv: Move) -> bool {
        let pos = self.position();
        if pos.turn() != Side::Defenders
            || pos.rules().repetition() != Repetition::DefendersMayNotRepeat
        {
            return false;
        }
        let step = Bitboard::from_square(mv.from).0 | Bitboard::from_square(mv.to).0;
        let (mut defenders, mut king) = (pos.defenders(), pos.king_bb());
        if king.contains(mv.from) {
            king = Bitboard(king.0 ^ step);
        } else {
            defenders = Bitboard(defenders.0 ^ step);
        }
        let attackers = pos.attackers();
        self.history.iter().any(|p| {
            p.attackers() == attackers && p.defenders() == defenders && p.king_bb() == king
        })
    }

    /// Every legal move of the side to move, in no particular order: the board's, less those
    /// [`Game::repeats_board`] refuses. None once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        self.position().legal_moves(&mut list);
        list.iter()
            .copied()
            .filter(|&mv| !self.repeats_board(mv))
            .collect()
    }

    /// Whether the side to move has a legal move (the board's, less the repeats refused).
    fn has_legal_move(&self) -> bool {
        let pos = self.position();
        if !pos.has_legal_move() {
            return false;
        }
        if pos.turn() != Side::Defenders
            || pos.rules().repetition() != Repetition::DefendersMayNotRepeat
        {
            return true;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        list.iter().any(|&mv| !self.repeats_board(mv))
    }

    /// Plays a move, recording it with its captures, mark and call.
    pub fn play(&mut self, mv: Move) -> Result<RecordedMove, IllegalMove> {
        if self.outcome.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let before = *self.position();
        let side = before.turn();
        before.check(mv)?;
        if self.repeats_board(mv) {
            return Err(IllegalMove::RepeatsBoard(mv));
        }
        let (after, effect) = before.play(mv).map_err(|e| e.error)?;
        self.history.push(after);
        self.outcome = self.judge(Some(side));
        let mark = if self.outcome.winner() == Some(side) {
            Mark::Win
        } else if self.outcome.is_over() {
            Mark::None
        } else {
            let threat = match side {
                Side::Attackers => after.king_capturable(),
                Side::Defenders => after.king_free_lines() > 0,
            };
            if threat {
                Mark::Threat
            } else {
                Mark::None
            }
        };
        let call = match side {
            Side::Defenders if !self.outcome.is_over() => {
                Call::from_free_lines(after.king_free_lines())
            }
            _ => None,
        };
        let recorded = RecordedMove {
            mv,
            side,
            captured: effect.captured,
            king_captured: effect.king_captured,
            mark,
            call,
        };
        self.moves.push(recorded);
        Ok(recorded)
    }

    /// Reads a move in any accepted form and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<RecordedMove, MoveError> {
        if self.outcome.is_over() {
            return Err(IllegalMove::GameOver.into());
        }
        let mv = parse_move(self.position(), text)?;
        Ok(self.play(mv)?)
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Side) -> Result<(), IllegalMove> {
        self.end(Outcome::Won {
            winner: side.other(),
            reason: Reason::Resigned,
        })
    }

    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), IllegalMove> {
        self.end(Outcome::Drawn {
            reason: Reason::DrawAgreed,
        })
    }

    /// Ends the game with an outcome decided off the board (resignation, agreement, time).
    pub fn end(&mut self, outcome: Outcome) -> Result<(), IllegalMove> {
        if self.outcome.is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.outcome = outcome;
        Ok(())
    }

    /// The game record: `1. e2-c2 e4-d4  2. …`.
    pub fn record(&self) -> String {
        write_game_record(&self.moves)
    }
}
