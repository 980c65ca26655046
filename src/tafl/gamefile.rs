//! Whole game records in and out (docs/RULES.md, "Game records"): the algebraic record of the
//! communities' archives (tags, the moves numbered by turn with their captures, the result) and
//! OpenTafl's game record (its tags, its rules string, its move records). Both are written and
//! read here; [`read_record`] tells them apart, and also reads a bare list of moves.

use super::game::{Game, Outcome, Reason};
use super::notation::MoveError;
use super::position::Position;
use super::record::{parse_position, write_position, Mark, RecordError, RecordedMove};
use super::rules::{Escape, KingCapture, Preset, Repetition, Rules, Throne, Variant};
use super::side::Side;
use super::square::{Square, SquareError};
use std::fmt;
use std::str::FromStr;

/// The two record formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// The archives' algebraic record: `[Tag "value"]` lines, then `1. b4-b6 e4-e6` a turn a
    /// line, captures after an `x` (`f4-f2xf3`), and the result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    Tafl,
    /// OpenTafl's game record: `[tag:value]` lines ending with `[rules:…]`, then the turns,
    /// OpenTafl's move records (`Kd4-e4-`, `e3-e4++`).
    OpenTafl,
}

impl RecordFormat {
    pub const ALL: [RecordFormat; 2] = [RecordFormat::Tafl, RecordFormat::OpenTafl];

    /// `tafl` or `opentafl`.
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Tafl => "tafl",
            RecordFormat::OpenTafl => "opentafl",
        }
    }

    /// The file name's ending: `txt` (the archives' record) or `otg` (OpenTafl's).
    pub const fn extension(self) -> &'static str {
        match self {
            RecordFormat::Tafl => "txt",
            RecordFormat::OpenTafl => "otg",
        }
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RecordFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<RecordFormat, String> {
        RecordFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                format!(
                    "unknown record format '{}' (tafl or opentafl)",
                    crate::echo::echo(s)
                )
            })
    }
}

/// What a record says about its game besides the moves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordTags {
    pub event: Option<String>,
    pub site: Option<String>,
    /// `YYYY.MM.DD`.
    pub date: Option<String>,
    pub attackers: Option<String>,
    pub defenders: Option<String>,
}

/// A record read back: its format, tags and game (ended as the record says where the moves
/// alone do not end it: a resignation, time, an agreed draw).
#[derive(Debug, Clone)]
pub struct ReadRecord {
    pub format: Option<RecordFormat>,
    pub tags: RecordTags,
    pub game: Game,
}

/// Why a record cannot be read, naming the line or the ply: data, worded for players by the
/// bot (`bot::messages::imports`). The `Display` is plain, for logs and the command-line tools.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordReadError {
    /// A line (counted from 1; 0 is the start position the tags give) that cannot be read.
    #[error("line {line}: {problem}")]
    Line { line: usize, problem: LineProblem },
    /// A move (its ply counted from 1, and its text) that cannot be read or played.
    #[error("ply {ply}: '{}': {problem}", crate::echo::echo(.text))]
    Ply {
        ply: usize,
        text: String,
        problem: PlyProblem,
    },
    /// The stated result (a winner, or none for a draw) is not the one the moves reach.
    #[error("the record states {}, and its moves end with {}", result_name(*.says), result_name(*.ends))]
    Result {
        says: Option<Side>,
        ends: Option<Side>,
    },
}

/// Why a record's line cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    /// A line starting with `[` that is no tag (the line, trimmed).
    #[error("not a tag: '{}'", crate::echo::echo(.0))]
    NotATag(String),
    /// The `Variant` tag's rules.
    #[error("variant: {0}")]
    Variant(RulesNameError),
    /// OpenTafl's rules string.
    #[error("rules: {0}")]
    OpenTaflRules(OpenTaflRulesError),
    /// The `ToMove` tag's value, which is not a side.
    #[error("ToMove: not a side: '{}'", crate::echo::echo(.0))]
    ToMove(String),
    /// The `Result` tag's value, which is not a result.
    #[error("result: not a result: '{}'", crate::echo::echo(.0))]
    Result(String),
    /// The start position the tags give.
    #[error("the start position: {0}")]
    Start(RecordError),
}

/// Why a [`rules_name`] text names no rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesNameError {
    #[error("no variant named")]
    NoVariant,
    #[error("{0}")]
    Variant(#[from] super::rules::VariantError),
    #[error("{0}")]
    Rules(#[from] super::rules::RulesError),
}

/// Why OpenTafl's rules string names no rules this program plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenTaflRulesError {
    /// No `dim:` (the board's size).
    #[error("no dim: (the board's size)")]
    NoDim,
    /// A board size (the `dim:` value) of no variant.
    #[error("dim:{}: no variant is played on that board", crate::echo::echo(.0))]
    Dim(String),
}

/// Why a record's move cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlyProblem {
    #[error("{0}")]
    Move(#[from] MoveError),
    /// The captures it states (after its `x`) name a square that is not one.
    #[error("its captures: {0}")]
    Captures(SquareError),
    /// The captures it states are not the ones it makes (each list sorted).
    #[error("it states the captures [{}], and it makes [{}]", squares(.stated), squares(.made))]
    CapturesDiffer {
        stated: Vec<Square>,
        made: Vec<Square>,
    },
}

/// The squares, comma-separated.
fn squares(list: &[Square]) -> String {
    let names: Vec<String> = list.iter().map(Square::to_string).collect();
    names.join(", ")
}

/// A result's plain name: the winner's, or a draw.
fn result_name(winner: Option<Side>) -> String {
    match winner {
        Some(side) => format!("the {side} winning"),
        None => "a draw".into(),
    }
}

/// The variant and rules as one name: `brandubh aagenielsen`, `tablut walker`, or Tablut's
/// options (`tablut king_armed=false …`) when they are no preset.
pub fn rules_name(rules: &Rules) -> String {
    match rules.preset() {
        Some(p) => format!("{} {}", rules.variant.name(), p.name()),
        None => {
            let options: Vec<String> = rules
                .options()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{} {}", rules.variant.name(), options.join(" "))
        }
    }
}

/// Reads [`rules_name`]'s form (a variant alone means its default preset).
///
/// # Errors
/// No variant, an unknown one, or a preset or option setting the variant does not have.
pub fn parse_rules_name(text: &str) -> Result<Rules, RulesNameError> {
    let mut words = text.split_whitespace();
    let variant: Variant = words.next().ok_or(RulesNameError::NoVariant)?.parse()?;
    let rest: Vec<&str> = words.collect();
    match rest.as_slice() {
        [] => Ok(variant.rules()),
        [name] if !name.contains('=') => Ok(Preset::find(variant, name)?.rules()),
        settings => {
            let mut rules = variant.rules();
            for s in settings {
                rules.apply_setting(s)?;
            }
            Ok(rules)
        }
    }
}

/// `1-0` (the attackers won), `0-1` (the defenders), `1/2-1/2`, or `*` (not over).
fn result_token(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "*",
        Outcome::Won {
            winner: Side::Attackers,
            ..
        } => "1-0",
        Outcome::Won { .. } => "0-1",
        Outcome::Drawn { .. } => "1/2-1/2",
    }
}

fn opentafl_result(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "?",
        Outcome::Won {
            winner: Side::Attackers,
            ..
        } => "1",
        Outcome::Won { .. } => "-1",
        Outcome::Drawn { .. } => "0",
    }
}

/// Whether the game starts elsewhere than the variant's start with the attackers to move.
fn custom_start(game: &Game) -> bool {
    let start = game.start();
    let standard = Position::start(*start.rules());
    *start != standard
}

/// Writes the game in `format`.
pub fn write_record(game: &Game, format: RecordFormat, tags: &RecordTags) -> String {
    match format {
        RecordFormat::Tafl => write_tafl(game, tags),
        RecordFormat::OpenTafl => write_opentafl(game, tags),
    }
}

fn write_tafl(game: &Game, tags: &RecordTags) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace(['"', '\n', '\r'], "'");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    for (name, value) in [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
    ] {
        if let Some(v) = value {
            tag(name, v);
        }
    }
    tag("Variant", &rules_name(game.rules()));
    tag("Attackers", tags.attackers.as_deref().unwrap_or("?"));
    tag("Defenders", tags.defenders.as_deref().unwrap_or("?"));
    if custom_start(game) {
        tag("Position", &write_position(game.start()));
        tag("ToMove", game.start().turn().name());
    }
    let outcome = game.outcome();
    tag("Result", result_token(outcome));
    if let Some(r) = outcome.reason() {
        tag("Termination", r.name());
    }
    out.push('\n');
    for line in turns(game, |m| m.to_string()) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(result_token(outcome));
    out.push('\n');
    out
}

/// The moves a turn a line: `1. b4-b6 e4-e6`; a game whose first move is the defenders'
/// starts `1. … e4-d4`.
fn turns(game: &Game, mut write: impl FnMut(&RecordedMove) -> String) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for (i, m) in game.moves().iter().enumerate() {
        if m.side == Side::Attackers || i == 0 {
            let mut line = format!("{}.", lines.len() + 1);
            if m.side == Side::Defenders {
                line.push_str(" …");
            }
            lines.push(line);
        }
        let line = lines.last_mut().expect("a turn has begun");
        line.push(' ');
        line.push_str(&write(m));
    }
    lines
}

/// OpenTafl's move record: the king's letter for his moves, the captures, then `+` (the king
/// may be taken next turn), `-` (he has a way out), `++` (taken), `--` (escaped).
fn otn_move(m: &RecordedMove, king_moved: bool, escaped: bool) -> String {
    let mut s = String::new();
    if king_moved {
        s.push('K');
    }
    s.push_str(&m.mv.to_string());
    let mut sep = 'x';
    for sq in m.captured {
        s.push(sep);
        s.push_str(&sq.to_string());
        sep = '/';
    }
    s.push_str(match (m.side, m.mark) {
        (_, Mark::Win) if m.king_captured => "++",
        (_, Mark::Win) if escaped => "--",
        (Side::Attackers, Mark::Threat) => "+",
        (Side::Defenders, Mark::Threat) => "-",
        _ => "",
    });
    s
}

/// OpenTafl's rules string for these rules and the game's start.
pub fn opentafl_rules(rules: &Rules, start: &Position) -> String {
    let yn = |b: bool| if b { "y" } else { "n" };
    let variant = rules.variant;
    let mut s = format!(
        "dim:{} name:{} esc:{} atkf:{} ka:{}",
        variant.size(),
        match variant {
            Variant::Tablut => "Tablut",
            Variant::Brandubh => "Brandubh",
            Variant::Copenhagen | Variant::Copenhagen13 => "Copenhagen",
        },
        match rules.escape {
            Escape::Edge => "e",
            Escape::Corner => "c",
        },
        yn(start.turn() == Side::Attackers),
        yn(rules.king_armed),
    );
    s.push_str(match rules.repetition() {
        Repetition::Draw => " tfr:d",
        Repetition::DefendersLose => " tfr:w",
        Repetition::DefendersMayNotRepeat => " tfr:i",
    });
    s.push_str(match rules.king_capture {
        KingCapture::Linnaeus if variant == Variant::Tablut => " ks:c linc:y",
        KingCapture::Linnaeus => " ks:c",
        KingCapture::FourSides => " ks:s linc:n",
        KingCapture::FourOnThrone | KingCapture::TwoSides => " ks:w",
    });
    if rules.throne == Throne::Neutral {
        s.push_str(" cenh: cenhe:");
    }
    s.push_str(if rules.king_reenters_castle {
        " cens:K"
    } else {
        " cens:"
    });
    s.push_str(if rules.castle_passable {
        " cenp:tTK"
    } else {
        " cenp:"
    });
    if variant.is_copenhagen() {
        s.push_str(" sw:s efe:y");
    }
    s.push_str(&format!(" start:{}", write_position(start)));
    s
}

fn write_opentafl(game: &Game, tags: &RecordTags) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace([']', '\n', '\r'], ")");
        out.push_str(&format!("[{name}:{value}]\n"));
    };
    for (name, value) in [
        ("event", &tags.event),
        ("site", &tags.site),
        ("date", &tags.date),
        ("attackers", &tags.attackers),
        ("defenders", &tags.defenders),
    ] {
        if let Some(v) = value {
            tag(name, v);
        }
    }
    let outcome = game.outcome();
    tag("result", opentafl_result(outcome));
    if let Some(r) = outcome.reason() {
        tag("termination", termination(r));
    }
    tag("variant", &rules_name(game.rules()));
    tag("rules", &opentafl_rules(game.rules(), game.start()));
    out.push('\n');
    let positions = game.positions();
    let mut i = 0;
    for line in turns(game, |m| {
        let before = &positions[i];
        let after = &positions[i + 1];
        i += 1;
        let king_moved = before.king() == Some(m.mv.from);
        let escaped = king_moved && after.escape_squares().contains(m.mv.to);
        otn_move(m, king_moved, escaped)
    }) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A tag line: `[Name "value"]` (the archives') or `[name:value]` (OpenTafl's).
fn tag_line(line: &str) -> Option<(String, String, RecordFormat)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    if let Some((name, value)) = inner.split_once(char::is_whitespace) {
        let value = value.trim();
        if let Some(v) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            if !name.contains(':') {
                return Some((name.to_ascii_lowercase(), v.to_string(), RecordFormat::Tafl));
            }
        }
    }
    let (name, value) = inner.split_once(':')?;
    Some((
        name.trim().to_ascii_lowercase(),
        value.to_string(),
        RecordFormat::OpenTafl,
    ))
}

/// What an OpenTafl rules string says: the rules (by its variant, and for Brandubh and Tablut
/// the options it can express), the start and the side to move.
///
/// # Errors
/// No board size, or one of no variant.
fn read_opentafl_rules(text: &str) -> Result<(Rules, Option<String>, Side), OpenTaflRulesError> {
    let mut dim = None;
    let mut start = None;
    let mut turn = Side::Attackers;
    let mut values = std::collections::HashMap::new();
    for token in text.split_whitespace() {
        let (key, value) = token.split_once(':').unwrap_or((token, ""));
        match key {
            "dim" => dim = Some(value.to_string()),
            "start" => start = Some(value.to_string()),
            "atkf" => {
                turn = if value == "n" {
                    Side::Defenders
                } else {
                    Side::Attackers
                }
            }
            _ => {
                values.insert(key.to_string(), value.to_string());
            }
        }
    }
    let variant = match dim.as_deref() {
        Some("7") => Variant::Brandubh,
        Some("9") => Variant::Tablut,
        Some("11") => Variant::Copenhagen,
        Some("13") => Variant::Copenhagen13,
        Some(d) => return Err(OpenTaflRulesError::Dim(d.to_string())),
        None => return Err(OpenTaflRulesError::NoDim),
    };
    let get = |k: &str| values.get(k).map(String::as_str);
    let mut rules = variant.rules();
    match variant {
        Variant::Brandubh => {
            let neutral = get("cenhe") == Some("");
            rules = match get("ks") {
                Some("c") => Preset::BrandubhLinnaeus.rules(),
                Some("w") if neutral => Preset::BrandubhOpenTafl.rules(),
                _ => rules,
            };
        }
        Variant::Tablut => {
            if let Some(e) = get("esc") {
                rules.escape = if e == "c" {
                    Escape::Corner
                } else {
                    Escape::Edge
                };
            }
            if let Some(ka) = get("ka") {
                rules.king_armed = ka != "n";
            }
            if get("ks") == Some("s") && get("linc") != Some("y") {
                rules.king_capture = KingCapture::FourSides;
            }
            if let Some(c) = get("cens") {
                rules.king_reenters_castle = c.contains(['K', 'k']);
            }
            if let Some(c) = get("cenp") {
                rules.castle_passable = c.contains('t') && c.contains('T');
            }
        }
        Variant::Copenhagen => {
            if get("tfr") == Some("i") {
                rules = Preset::CopenhagenHnefataflOrg.rules();
            }
        }
        Variant::Copenhagen13 => {
            if get("tfr") == Some("w") {
                rules = Preset::Copenhagen13Aagenielsen.rules();
            }
        }
    }
    Ok((rules, start, turn))
}

/// The squares a move record says it captures (after its `x`, separated by `/`, each perhaps
/// with a piece letter), or `None` when it says nothing.
fn claimed_captures(text: &str, size: u8) -> Option<Result<Vec<Square>, SquareError>> {
    let i = text.find(['x', 'X'])?;
    let caps = text[i + 1..].trim_end_matches(['+', '-', '#', '!', '?']);
    Some(
        caps.split('/')
            .map(|c| {
                let c = c.trim_start_matches(['t', 'T', 'K', 'k']);
                // A `k` file on 11×11 was taken for a letter: put it back.
                let name = if c.starts_with(|ch: char| ch.is_ascii_digit()) {
                    format!("k{c}")
                } else {
                    c.to_string()
                };
                Square::parse_on(&name, size)
            })
            .collect(),
    )
}

/// The result a record states: `1-0`, `0-1`, `1/2-1/2`, `*` (the archives'); `1`, `-1`, `0`,
/// `?` (OpenTafl's result tag).
fn parse_result(text: &str) -> Option<Option<Option<Side>>> {
    match text.trim() {
        "1-0" | "1" => Some(Some(Some(Side::Attackers))),
        "0-1" | "-1" => Some(Some(Some(Side::Defenders))),
        "1/2-1/2" | "½-½" | "0" => Some(Some(None)),
        "*" | "?" => Some(None),
        _ => None,
    }
}

/// Reads a record in either format, or a bare list of moves (`1. e2-c2 e4-d4 2. …`), played
/// under the record's own rules (its `Variant`/`variant` tag, or OpenTafl's rules string), or
/// `fallback` when it names none.
///
/// # Errors
/// The first line or ply that cannot be read or played, and why; a stated result the moves
/// contradict.
pub fn read_record(text: &str, fallback: Rules) -> Result<ReadRecord, RecordReadError> {
    let scanned = scan_record(text)?;
    // The rules: the variant tag, else OpenTafl's rules string, else the fallback.
    let (otn_rules, otn_start, otn_turn) = match &scanned.otn {
        Some((r, s, t)) => (Some(*r), s.clone(), Some(*t)),
        None => (None, None, None),
    };
    let rules = scanned.rules.or(otn_rules).unwrap_or(fallback);
    let turn = scanned.to_move.or(otn_turn).unwrap_or(Side::Attackers);
    let start_text = scanned.position.or(otn_start);
    let start = match start_text {
        Some(s) => parse_position(&s, turn, rules).map_err(|e| RecordReadError::Line {
            line: 0,
            problem: LineProblem::Start(e),
        })?,
        None => Position::start(rules).with_turn(turn),
    };
    let mut game = Game::from_position(start);
    play_moves(&mut game, &scanned.moves)?;
    if let Some(Some(says)) = scanned.result {
        settle_result(&mut game, says, scanned.termination.as_deref())?;
    }
    Ok(ReadRecord {
        format: scanned.format,
        tags: scanned.tags,
        game,
    })
}

/// What a record's lines say, read but not yet played.
#[derive(Default)]
struct Scanned<'a> {
    tags: RecordTags,
    format: Option<RecordFormat>,
    /// The `Variant` tag's rules.
    rules: Option<Rules>,
    /// OpenTafl's rules string: its rules, start position and side to move.
    otn: Option<(Rules, Option<String>, Side)>,
    position: Option<String>,
    to_move: Option<Side>,
    /// The stated result: none, unknown (`*`), or a winner or a draw.
    result: Option<Option<Option<Side>>>,
    termination: Option<String>,
    /// The move tokens, in order.
    moves: Vec<&'a str>,
}

/// Reads a record's tag lines and move tokens.
///
/// # Errors
/// The first line that is not a tag, or a tag whose value cannot be read.
fn scan_record(text: &str) -> Result<Scanned<'_>, RecordReadError> {
    let mut scanned = Scanned::default();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            scanned.tag(line).map_err(|problem| RecordReadError::Line {
                line: n + 1,
                problem,
            })?;
        } else {
            scanned.tokens(line);
        }
    }
    Ok(scanned)
}

impl<'a> Scanned<'a> {
    /// Takes a tag line: the tags it knows, the rest passed over.
    ///
    /// # Errors
    /// A line that is no tag, or a tag whose value cannot be read.
    fn tag(&mut self, line: &str) -> Result<(), LineProblem> {
        let (name, value, f) =
            tag_line(line).ok_or_else(|| LineProblem::NotATag(line.to_string()))?;
        self.format.get_or_insert(f);
        match name.as_str() {
            "event" => self.tags.event = Some(value),
            "site" => self.tags.site = Some(value),
            "date" => self.tags.date = Some(value),
            "attackers" => self.tags.attackers = Some(value),
            "defenders" => self.tags.defenders = Some(value),
            "variant" => match parse_rules_name(&value) {
                Ok(r) => self.rules = Some(r),
                // OpenTafl names variants its own way: its rules string says what they are.
                Err(_) if f == RecordFormat::OpenTafl => {}
                Err(e) => return Err(LineProblem::Variant(e)),
            },
            "rules" => {
                self.otn = Some(read_opentafl_rules(&value).map_err(LineProblem::OpenTaflRules)?)
            }
            "position" => self.position = Some(value),
            "tomove" => {
                self.to_move = Some(match value.trim() {
                    "attackers" => Side::Attackers,
                    "defenders" => Side::Defenders,
                    v => return Err(LineProblem::ToMove(v.to_string())),
                })
            }
            "result" => {
                let result = parse_result(&value).ok_or(LineProblem::Result(value))?;
                self.result = Some(result);
            }
            "termination" => self.termination = Some(value),
            _ => {}
        }
        Ok(())
    }

    /// Takes a line of moves: its move tokens, and a result at its end; turn numbers and
    /// ellipses passed over.
    fn tokens(&mut self, line: &'a str) {
        for token in line.split_whitespace() {
            let t = token.trim_end_matches(['.', '…']);
            if t.is_empty()
                || t.chars().all(|c| c.is_ascii_digit())
                || token == "…"
                || token == "....."
            {
                continue;
            }
            if let Some(r) = parse_result(token).filter(|_| token.contains(['-', '*', '/'])) {
                self.result = Some(r);
                continue;
            }
            self.moves.push(token);
        }
    }
}

/// Plays a record's move tokens (`---`: the side to move resigns), checking each move's stated
/// captures against the ones it makes.
///
/// # Errors
/// The first ply that cannot be read or played, or whose stated captures differ.
fn play_moves(game: &mut Game, moves: &[&str]) -> Result<(), RecordReadError> {
    let size = game.rules().variant.size();
    for (i, token) in moves.iter().enumerate() {
        let ply = |problem: PlyProblem| RecordReadError::Ply {
            ply: i + 1,
            text: token.to_string(),
            problem,
        };
        if *token == "---" {
            // OpenTafl's resignation: the side to move resigns.
            let side = game.turn();
            game.resign(side)
                .map_err(|e| ply(MoveError::from(e).into()))?;
            continue;
        }
        let played = game.play_text(token).map_err(|e| ply(e.into()))?;
        if let Some(stated) = claimed_captures(token, size) {
            let mut stated = stated.map_err(|e| ply(PlyProblem::Captures(e)))?;
            let mut made: Vec<Square> = played.captured.into_iter().collect();
            made.sort();
            stated.sort();
            if made != stated {
                return Err(ply(PlyProblem::CapturesDiffer { stated, made }));
            }
        }
    }
    Ok(())
}

/// The stated result (`says`: the winner, or none for a draw): the moves' own, or the one they
/// leave to a resignation, time or an agreement, its reason from the `termination` tag.
///
/// # Errors
/// A result the moves contradict.
fn settle_result(
    game: &mut Game,
    says: Option<Side>,
    termination: Option<&str>,
) -> Result<(), RecordReadError> {
    let reason =
        termination.and_then(|t| Reason::from_name(t.trim()).or_else(|| reason_from_words(t)));
    match game.outcome() {
        Outcome::Ongoing => {
            let outcome = match says {
                Some(winner) => Outcome::Won {
                    winner,
                    reason: reason.unwrap_or(Reason::Resigned),
                },
                None => Outcome::Drawn {
                    reason: reason.unwrap_or(Reason::DrawAgreed),
                },
            };
            game.end(outcome).expect("the game was not over");
        }
        over => {
            let ends = over.winner();
            if ends != says || (says.is_none() && !matches!(over, Outcome::Drawn { .. })) {
                return Err(RecordReadError::Result { says, ends });
            }
        }
    }
    Ok(())
}

/// OpenTafl's `termination` tag: a few words of how the game ended. They are part of the
/// record format (records written by earlier versions read back by them), not the bot's
/// wording, and do not change.
const fn termination(reason: Reason) -> &'static str {
    match reason {
        Reason::KingCaptured => "the king was captured",
        Reason::KingEscaped => "the king escaped",
        Reason::Repetition => "a position was repeated",
        Reason::NoMoves => "a side had no legal move",
        Reason::Resigned => "a player resigned",
        Reason::DrawAgreed => "the players agreed a draw",
        Reason::Timeout => "a player ran out of time",
        Reason::Aborted => "the game was aborted",
        Reason::ExitFort => "the king made an exit fort",
        Reason::Encircled => "the attackers encircled the king and all his defenders",
        Reason::PlyLimit => "the game reached the bot's limit on a game's length",
    }
}

/// A reason from OpenTafl's `termination` tag, as [`termination`] writes it.
fn reason_from_words(text: &str) -> Option<Reason> {
    Reason::ALL
        .into_iter()
        .find(|r| termination(*r).eq_ignore_ascii_case(text.trim()))
}
