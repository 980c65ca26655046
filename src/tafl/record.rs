//! Records: OpenTafl position records, recorded moves with their captures and marks, and game
//! records numbered in pairs.

use super::bitboard::Bitboard;
use super::mv::Move;
use super::position::{Position, PositionError};
use super::rules::Rules;
use super::side::{Piece, Side};
use super::square::Square;
use std::fmt;

/// Why a position record cannot be read: data, worded for players by the bot
/// (`bot::messages::imports`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A 9×9 record with this many rows between slashes.
    #[error("{0} rows, not 9")]
    Rows(usize),
    /// A 9×9 record's row (counted from 1) covering this many squares.
    #[error("row {row} covers {width} squares, not 9")]
    Width { row: usize, width: usize },
    #[error("{found} rows, not {size}")]
    RowsOf { size: u8, found: usize },
    #[error("row {row} covers {width} squares, not {size}")]
    WidthOf { row: usize, width: usize, size: u8 },
    #[error("not a piece letter: '{0}'")]
    Letter(char),
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// Writes the OpenTafl position record: rows from rank 1 to the last rank, `t` attacker, `T`
/// defender, `K` king, numbers for runs of empty squares (`11` for an empty row of the 11×11
/// board), every row between slashes.
pub fn write_position(pos: &Position) -> String {
    let n = pos.variant().size();
    let mut out = String::with_capacity(64);
    out.push('/');
    for rank in 0..n {
        let mut run = 0u8;
        for file in 0..n {
            let sq = Square::from_coords(file, rank).expect("on the board");
            match pos.piece_at(sq) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        push_run(&mut out, run);
                        run = 0;
                    }
                    out.push(p.letter());
                }
            }
        }
        if run > 0 {
            push_run(&mut out, run);
        }
        out.push('/');
    }
    out
}

fn push_run(out: &mut String, run: u8) {
    if run < 10 {
        out.push(char::from(b'0' + run));
    } else {
        out.push_str(&run.to_string());
    }
}

/// A position as it is stored (with a notice): its OpenTafl record, the side to move and the
/// rules, not its bitboards, so what is stored does not depend on how positions are held.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StoredPosition {
    record: String,
    turn: Side,
    rules: Rules,
}

impl From<Position> for StoredPosition {
    fn from(p: Position) -> StoredPosition {
        StoredPosition {
            record: write_position(&p),
            turn: p.turn(),
            rules: *p.rules(),
        }
    }
}

impl TryFrom<StoredPosition> for Position {
    type Error = RecordError;
    fn try_from(p: StoredPosition) -> Result<Position, RecordError> {
        parse_position(&p.record, p.turn, p.rules)
    }
}

/// Reads an OpenTafl position record, with the side to move and the rules given beside it (the
/// rules' variant gives the board's size).
pub fn parse_position(record: &str, turn: Side, rules: Rules) -> Result<Position, RecordError> {
    let n = rules.variant.size();
    let size = usize::from(n);
    let rows: Vec<&str> = record.trim().trim_matches('/').split('/').collect();
    if rows.len() != size {
        return Err(if n == 9 {
            RecordError::Rows(rows.len())
        } else {
            RecordError::RowsOf {
                size: n,
                found: rows.len(),
            }
        });
    }
    let mut attackers = Bitboard::EMPTY;
    let mut defenders = Bitboard::EMPTY;
    let mut king = None;
    for (rank, row) in rows.iter().enumerate() {
        let mut file = 0usize;
        let mut digits = 0usize;
        let mut place = |file: usize, piece: Option<Piece>| -> Result<(), RecordError> {
            if file >= size {
                return Ok(());
            }
            let sq = Square::from_coords(file as u8, rank as u8).expect("checked");
            match piece {
                Some(Piece::Attacker) => attackers = attackers.with(sq),
                Some(Piece::Defender) => defenders = defenders.with(sq),
                Some(Piece::King) if king.replace(sq).is_some() => {
                    return Err(PositionError::TwoKings.into());
                }
                Some(Piece::King) => {}
                None => {}
            }
            Ok(())
        };
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                digits = digits.saturating_mul(10).saturating_add(d as usize);
                continue;
            }
            file = file.saturating_add(std::mem::take(&mut digits));
            let piece = match c {
                't' => Piece::Attacker,
                'T' => Piece::Defender,
                'K' | 'k' => Piece::King,
                other => return Err(RecordError::Letter(other)),
            };
            place(file, Some(piece))?;
            file += 1;
        }
        file = file.saturating_add(digits);
        if file != size {
            return Err(if n == 9 {
                RecordError::Width {
                    row: rank + 1,
                    width: file,
                }
            } else {
                RecordError::WidthOf {
                    row: rank + 1,
                    width: file,
                    size: n,
                }
            });
        }
    }
    Ok(Position::new(attackers, defenders, king, turn, rules)?)
}

/// `+` where a move threatens to win next turn, `++` where it wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mark {
    None,
    Threat,
    Win,
}

/// Linnaeus' calls: the king sees one free line to a winning square (*raichi*) or two
/// (*tuichu*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Call {
    Raichi,
    Tuichu,
}

impl Call {
    pub fn from_free_lines(lines: u32) -> Option<Call> {
        match lines {
            0 => None,
            1 => Some(Call::Raichi),
            _ => Some(Call::Tuichu),
        }
    }
}

/// A move as the record keeps it. Stored (with a notice) as [`StoredMove`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "StoredMove", from = "StoredMove")]
pub struct RecordedMove {
    pub mv: Move,
    pub side: Side,
    pub captured: Bitboard,
    pub king_captured: bool,
    pub mark: Mark,
    pub call: Option<Call>,
}

/// A [`RecordedMove`] as it is stored: its captures on the 11×11 board as the bits of a
/// number, bit `rank × 11 + file` (the form every stored move has had), and those off it (on
/// 13×13) as a list of names, left out when there are none.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StoredMove {
    mv: Move,
    side: Side,
    captured: u128,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    captured_beyond_11: Vec<Square>,
    king_captured: bool,
    mark: Mark,
    call: Option<Call>,
}

impl From<RecordedMove> for StoredMove {
    fn from(m: RecordedMove) -> StoredMove {
        let (on_11, beyond): (Vec<Square>, Vec<Square>) =
            m.captured.into_iter().partition(|sq| sq.is_on(11));
        StoredMove {
            mv: m.mv,
            side: m.side,
            captured: on_11.iter().fold(0, |bits, sq| {
                bits | 1u128 << (usize::from(sq.rank()) * 11 + usize::from(sq.file()))
            }),
            captured_beyond_11: beyond,
            king_captured: m.king_captured,
            mark: m.mark,
            call: m.call,
        }
    }
}

impl From<StoredMove> for RecordedMove {
    fn from(m: StoredMove) -> RecordedMove {
        let on_11 = (0..121u8)
            .filter(|i| m.captured >> i & 1 != 0)
            .filter_map(|i| Square::from_coords(i % 11, i / 11));
        RecordedMove {
            mv: m.mv,
            side: m.side,
            captured: on_11.chain(m.captured_beyond_11).collect(),
            king_captured: m.king_captured,
            mark: m.mark,
            call: m.call,
        }
    }
}

impl fmt::Display for RecordedMove {
    /// Canonical: `d1-d4xd5`, `e7-c7xc6/c8`, then `+` or `++`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        let mut sep = 'x';
        for sq in self.captured {
            write!(f, "{sep}{sq}")?;
            sep = '/';
        }
        match self.mark {
            Mark::None => Ok(()),
            Mark::Threat => f.write_str("+"),
            Mark::Win => f.write_str("++"),
        }
    }
}

/// The moves numbered in pairs, attackers first: `1. e2-c2 e4-d4  2. …`. A game whose first
/// move is the defenders' starts `1. … e4-d4`.
pub fn write_game_record(moves: &[RecordedMove]) -> String {
    let mut out = String::new();
    let mut number = 0;
    for (i, m) in moves.iter().enumerate() {
        if m.side == Side::Attackers || i == 0 {
            number += 1;
            if !out.is_empty() {
                out.push_str("  ");
            }
            out.push_str(&format!("{number}."));
            if m.side == Side::Defenders {
                out.push_str(" …");
            }
        }
        out.push(' ');
        out.push_str(&m.to_string());
    }
    out
}

/// The move texts of a game record or a plain list of moves: move numbers (`1.`, `12...`) and
/// ellipses are left out.
pub fn record_tokens(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .filter(|t| {
            let t = t.trim_end_matches(['.', '…']);
            !(t.is_empty() || t.chars().all(|c| c.is_ascii_digit()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse_on(name, 13).unwrap()
    }

    #[test]
    fn a_recorded_move_is_stored_as_before_and_a_13x13_capture_beside_it() {
        // As a move of Copenhagen was stored when squares had a stride of eleven: f6 = 60.
        let old = r#"{"mv":{"from":3,"to":60},"side":"attackers","captured":1329227995784915872903807060280344584,"king_captured":false,"mark":"None","call":null}"#;
        let read: RecordedMove = serde_json::from_str(old).unwrap();
        assert_eq!(read.mv, Move::new(sq("d1"), sq("f6")));
        let caps: Vec<String> = read.captured.into_iter().map(|s| s.to_string()).collect();
        // Bits 3 and 120: d1 and k11.
        assert_eq!(caps, ["d1", "k11"]);
        let json = serde_json::to_string(&read).unwrap();
        assert!(
            json.contains(r#""captured":1329227995784915872903807060280344584,"#),
            "{json}"
        );
        assert!(!json.contains("beyond"), "{json}");
        assert_eq!(serde_json::from_str::<RecordedMove>(&json).unwrap(), read);
        let far = RecordedMove {
            captured: [sq("a1"), sq("m13"), sq("l1")].into_iter().collect(),
            ..read
        };
        let json = serde_json::to_string(&far).unwrap();
        assert!(
            json.contains(r#""captured":1,"captured_beyond_11":["l1","m13"]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<RecordedMove>(&json).unwrap(), far);
    }
}
