//! `tablut-bot engine`: the OpenTafl Engine Protocol on stdin and stdout, so the AI can play
//! inside OpenTafl and in automated matches.
//!
//! From the host: `rules`, `position`, `side`, `start`, `play`, `opponent-move`, `move` (the
//! acknowledgement of our move), `clock`, `analyze`, `error`, `finish`, `goodbye`. From the
//! engine: `hello` at start, `move <from-to>` when asked to play, `analysis`, `status`, `error`.
//! Every line is flushed at once; the end of input ends the engine cleanly.

use super::common::CliError;
use crate::ai::{self, Level, Limits, Searcher, Weights};
use crate::bot::messages::variant_title;
use crate::echo::echo;
use crate::tafl::{
    parse_position, write_position, Escape, Game, KingCapture, Rules, Side, Variant,
};
use clap::Args;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

#[derive(Debug, Args)]
pub(super) struct EngineArgs {
    /// Seconds per move when the host sends no clock.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
}

/// Reads an OpenTafl rules record (`dim:9 esc:e ka:y … start:/…/`) into the rule options and
/// the start position's record and side to move. Records the engine cannot play are refused
/// with the reason.
pub(super) fn parse_rules_record(record: &str) -> Result<(Rules, String, Side), String> {
    let variant = record_variant(record)?;
    if variant != Variant::Tablut {
        return parse_fixed_record(record, variant);
    }
    let keys = read_tablut_keys(record)?;
    let (mut rules, turn, cens, cenp) = (keys.rules, keys.turn, keys.cens, keys.cenp);
    let start = keys
        .start
        .ok_or("the rules record has no start: position")?;
    rules.escape = keys.escape;
    rules.king_capture = if keys.linnaean || !keys.king_strong {
        KingCapture::Linnaeus
    } else {
        KingCapture::FourSides
    };
    if cens.chars().any(|c| c != 'K' && c != 'k') {
        return Err(format!("cens:{cens}: only the king may stop on the castle"));
    }
    rules.king_reenters_castle = cens.contains('K') || cens.contains('k');
    let soldiers_pass = (cenp.contains('t'), cenp.contains('T'));
    rules.castle_passable = match soldiers_pass {
        (true, true) => true,
        (false, false) => false,
        _ => {
            return Err(format!(
                "cenp:{cenp}: the castle is passable by both sides or neither"
            ))
        }
    };
    parse_position(&start, turn, rules).map_err(|e| format!("start: {e}"))?;
    Ok((rules, start, turn))
}

/// The game a rules record's board size (`dim:`) says.
fn record_variant(record: &str) -> Result<Variant, String> {
    // The board size first: it says which game.
    let size = record
        .split_whitespace()
        .find_map(|t| t.strip_prefix("dim:"))
        .map(|d| d.parse::<u32>().ok());
    match size {
        Some(Some(9)) => Ok(Variant::Tablut),
        Some(Some(7)) => Ok(Variant::Brandubh),
        Some(Some(11)) => Ok(Variant::Copenhagen),
        Some(Some(13)) => Ok(Variant::Copenhagen13),
        Some(Some(d)) => Err(format!(
                "dim:{d}: only 7×7 brandubh, 9×9 tablut, 11×11 copenhagen and 13×13 copenhagen13 are supported"
        )),
        Some(None) => Err("the dim: entry is not a number".into()),
        None => Err("the rules record has no dim: entry".into()),
    }
}

/// A Tablut rules record's entries, OpenTafl's defaults where one is absent.
struct TablutKeys {
    rules: Rules,
    start: Option<String>,
    turn: Side,
    escape: Escape,
    king_strong: bool,
    linnaean: bool,
    cens: String,
    cenp: String,
}

/// Reads a Tablut rules record's entries.
///
/// # Errors
/// An entry the engine cannot play, and why.
fn read_tablut_keys(record: &str) -> Result<TablutKeys, String> {
    let mut rules = Rules::default();
    let mut start = None;
    let mut turn = Side::Attackers;
    // OpenTafl's defaults where a key is absent.
    let mut escape = Escape::Corner;
    let mut king_strong = true;
    let mut linnaean = false;
    let mut cens = "K".to_string();
    let mut cenp = "tcnkTCNK".to_string();
    for token in record.split_whitespace() {
        let (key, value) = token.split_once(':').unwrap_or((token, ""));
        let yes_no = |v: &str| -> Result<bool, String> {
            match v {
                "y" => Ok(true),
                "n" => Ok(false),
                _ => Err(format!("{key}:{v} is not y or n")),
            }
        };
        match key {
            "start" => start = Some(value.to_string()),
            "esc" => {
                escape = match value {
                    "e" => Escape::Edge,
                    "c" => Escape::Corner,
                    _ => return Err(format!("unknown escape esc:{value}")),
                }
            }
            "atkf" => {
                turn = if yes_no(value)? {
                    Side::Attackers
                } else {
                    Side::Defenders
                }
            }
            "tfr" => match value {
                "d" => rules.repetition_limit = 3,
                _ => {
                    return Err(format!(
                        "tfr:{value}: only a drawn threefold repetition (tfr:d) is supported"
                    ))
                }
            },
            "ka" => rules.king_armed = yes_no(value)?,
            "ks" => {
                king_strong = match value {
                    "y" | "s" => true,
                    "n" | "w" | "c" => false,
                    _ => return Err(format!("ks:{value}: unsupported king strength")),
                }
            }
            "linc" => linnaean = yes_no(value)?,
            "cens" => cens = value.to_string(),
            "cenp" => cenp = value.to_string(),
            "cenhe" if !(value.contains('t') && value.contains('T')) => {
                return Err(format!(
                    "cenhe:{value}: the empty castle is hostile to both sides in tablut"
                ));
            }
            "cenh" if value.contains('T') => {
                return Err(format!(
                    "cenh:{value}: an occupied castle hostile to defenders is not supported"
                ));
            }
            "sw" | "ber" | "kj" if value != "n" => {
                return Err(format!("{key}:{value} is not part of tablut"));
            }
            "efe" if value == "y" => return Err("efe:y (edge forts) is not part of tablut".into()),
            "cen" | "cor" if !value.is_empty() && value != "default" => {
                return Err(format!(
                    "{key}:{value}: only the standard castle and corners"
                ));
            }
            _ => {}
        }
    }
    Ok(TablutKeys {
        rules,
        start,
        turn,
        escape,
        king_strong,
        linnaean,
        cens,
        cenp,
    })
}

/// Brandubh's or Copenhagen's record: the game is played under its own fixed rules (see
/// docs/RULES.md), so only what would make it another game is refused: edge escape, berserk
/// or jumping pieces, and a start that is not a position of that board.
fn parse_fixed_record(record: &str, variant: Variant) -> Result<(Rules, String, Side), String> {
    // Brandubh's preset from the king's strength: OpenTafl's own Brandub (`ks:w`), the king
    // strong on and beside the throne (`ks:c`, `linnaeus`), or the default.
    let mut rules = variant.rules();
    if variant == Variant::Brandubh {
        for token in record.split_whitespace() {
            match token {
                "ks:w" => rules = crate::tafl::Preset::BrandubhOpenTafl.rules(),
                "ks:c" => rules = crate::tafl::Preset::BrandubhLinnaeus.rules(),
                _ => {}
            }
        }
    }
    let mut start = None;
    let mut turn = Side::Attackers;
    for token in record.split_whitespace() {
        let (key, value) = token.split_once(':').unwrap_or((token, ""));
        match key {
            "start" => start = Some(value.to_string()),
            "atkf" => {
                turn = match value {
                    "y" => Side::Attackers,
                    "n" => Side::Defenders,
                    _ => return Err(format!("atkf:{value} is not y or n")),
                }
            }
            "esc" if value != "c" => {
                return Err(format!(
                    "esc:{value}: {} is won in a corner",
                    variant_title(variant)
                ))
            }
            "ber" | "kj" if value != "n" => {
                return Err(format!(
                    "{key}:{value} is not part of {}",
                    variant_title(variant)
                ));
            }
            _ => {}
        }
    }
    let start = start.ok_or("the rules record has no start: position")?;
    parse_position(&start, turn, rules).map_err(|e| format!("start: {e}"))?;
    Ok((rules, start, turn))
}

struct Engine<W: Write> {
    out: W,
    game: Game,
    side: Option<Side>,
    /// Our remaining main time and the overtime period, in milliseconds.
    clock: Option<(u64, u64)>,
    default_time: Duration,
    /// The transposition table's size in MB (`--tt-mb`), for each new game's searcher.
    tt_mb: usize,
    searcher: Searcher,
    /// Set once a write to the host has failed: the host has gone away (or closed our
    /// output), and the engine stops.
    closed: bool,
}

impl<W: Write> Engine<W> {
    fn send(&mut self, line: &str) {
        // A host that has gone away cannot be told anything: the engine stops.
        if writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .is_err()
        {
            self.closed = true;
        }
    }

    /// A game from a position record with `turn` to move, under the current rules.
    fn reset(&mut self, record: &str, turn: Side) -> Result<(), String> {
        let pos = parse_position(record, turn, *self.game.rules()).map_err(|e| e.to_string())?;
        self.game = Game::from_position(pos);
        Ok(())
    }

    /// The time to spend on this move.
    fn budget(&self) -> Duration {
        match self.clock {
            Some((main, overtime)) if main > 0 || overtime > 0 => {
                let ms = if main > 0 {
                    main / 30 + overtime / 2
                } else {
                    overtime / 2
                };
                Duration::from_millis(ms.clamp(20, 60_000))
            }
            _ => self.default_time,
        }
    }

    fn play(&mut self, side: Side) {
        if self.game.turn() != side || self.game.outcome().is_over() {
            let record = write_position(self.game.position());
            if let Err(e) = self.reset(&record, side) {
                self.send(&format!("error 0 {e}"));
                return;
            }
        }
        let time = self.budget();
        match ai::choose_move_with(&mut self.searcher, &self.game, Level::Hard, time) {
            Some(r) => {
                self.send(&format!(
                    "status depth {} score {} nodes {} time {} ms",
                    r.depth, r.score, r.nodes, r.time_ms
                ));
                self.send(&format!("move {}", r.best));
                let _ = self.game.play(r.best);
            }
            None => self.send("error 0 no legal move in this position"),
        }
    }

    fn analyze(&mut self, seconds: f64) {
        let limits = Limits {
            time: Some(Duration::from_secs_f64(seconds.clamp(0.01, 3600.0))),
            ..Limits::default()
        };
        match ai::analyze(&self.game, &limits) {
            Some(r) => {
                let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
                self.send(&format!("analysis 1 {} {}", pv.join("|"), r.score));
            }
            None => self.send("error 0 nothing to analyse: the game is over"),
        }
    }

    /// Handles one line; false when the engine should stop.
    fn handle(&mut self, line: &str, lines: &Receiver<String>) -> bool {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" | "hello" | "start" | "simple-moves" => {}
            "goodbye" => return false,
            "rules" => self.take_rules(rest),
            "position" => {
                let turn = self.game.turn();
                if let Err(e) = self.reset(rest, turn) {
                    self.send(&format!("error 0 position: {e}"));
                }
            }
            "side" => match parse_side(rest) {
                Some(s) => self.side = Some(s),
                None => self.send(&format!("error 0 '{}' is not a side", echo(rest))),
            },
            "clock" => self.clock = parse_clock(rest, self.side),
            "play" => match parse_side(rest) {
                Some(side) => return self.play_when_asked(side, lines),
                None => self.send(&format!("error 0 '{}' is not a side", echo(rest))),
            },
            "opponent-move" => self.take_opponent_move(rest),
            "move" => self.confirm_our_move(rest),
            "analyze" => {
                let mut parts = rest.split_whitespace();
                let _number = parts.next();
                let seconds = parts
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .unwrap_or(2.0);
                self.analyze(seconds);
            }
            "error" => {
                self.send(&format!("status the host reports error {rest}"));
            }
            "finish" => {
                self.clock = None;
            }
            other => self.send(&format!("error 0 unknown command '{}'", echo(other))),
        }
        true
    }

    /// `rules`: a new game from the host's rules record (its start, the side to move) with a
    /// fresh searcher, or the reason the rules are refused.
    fn take_rules(&mut self, record: &str) {
        match parse_rules_record(record) {
            Ok((rules, start, turn)) => {
                let pos = parse_position(&start, turn, rules).expect("checked when parsed");
                self.game = Game::from_position(pos);
                self.searcher = Searcher::new(self.tt_mb, Weights::DEFAULT);
                self.send(&format!("status rules accepted: {rules}"));
            }
            Err(e) => self.send(&format!("error -1 rules not supported: {e}")),
        }
    }

    /// `play <side>`: we play `side` and move now, after taking the clock the host sends right
    /// behind `play` (waited for a moment). A line other than the clock is handled after our
    /// move; false when the engine should stop (the host gone, or that line saying goodbye).
    fn play_when_asked(&mut self, side: Side, lines: &Receiver<String>) -> bool {
        self.side = Some(side);
        // The host sends the clock right after 'play': wait a moment for it.
        match lines.recv_timeout(Duration::from_millis(30)) {
            Ok(next) if next.trim_start().starts_with("clock") => {
                let (_, args) = next.trim().split_once(' ').unwrap_or(("", ""));
                self.clock = parse_clock(args.trim(), self.side);
                self.play(side);
            }
            Ok(next) => {
                self.play(side);
                return self.handle(&next, lines);
            }
            Err(RecvTimeoutError::Timeout) => self.play(side),
            Err(RecvTimeoutError::Disconnected) => {
                self.play(side);
                return false;
            }
        }
        true
    }

    /// `opponent-move <moves> [record]`: the opponent's moves played on our board; when they do
    /// not all play or the board differs from the host's record, the game is reset to that
    /// record.
    fn take_opponent_move(&mut self, rest: &str) {
        let (moves, record) = rest.split_once(' ').unwrap_or((rest, ""));
        let mover = self.game.turn();
        let mut ok = true;
        for mv in moves.split('|').filter(|m| !m.is_empty()) {
            ok &= self.game.play_text(mv).is_ok();
        }
        let record = record.trim();
        if !record.is_empty() && (!ok || write_position(self.game.position()) != record) {
            let turn = self.side.unwrap_or(mover.other());
            if let Err(e) = self.reset(record, turn) {
                self.send(&format!("error 0 opponent-move: {e}"));
            }
        }
    }

    /// `move [record]`: the host accepted our move; our board is reset to the host's record
    /// when it differs.
    fn confirm_our_move(&mut self, record: &str) {
        if !record.is_empty() && write_position(self.game.position()) != record {
            let turn = self.side.map_or(self.game.turn(), Side::other);
            if let Err(e) = self.reset(record, turn) {
                self.send(&format!("error 0 move: {e}"));
            }
        }
    }
}

fn parse_side(s: &str) -> Option<Side> {
    match s.trim() {
        "attackers" => Some(Side::Attackers),
        "defenders" => Some(Side::Defenders),
        _ => None,
    }
}

/// `clock <attacker-ms>[*] <defender-ms>[*] [overtime-s] [attacker-overtimes] [defender-overtimes]`:
/// our remaining time and overtime period in milliseconds.
fn parse_clock(args: &str, side: Option<Side>) -> Option<(u64, u64)> {
    let parts: Vec<&str> = args.split_whitespace().collect();
    let num = |i: usize| -> Option<i64> {
        parts
            .get(i)
            .and_then(|p| p.trim_end_matches('*').parse::<i64>().ok())
    };
    let mine = match side {
        Some(Side::Defenders) => num(1)?,
        _ => num(0)?,
    };
    let overtime = num(2).unwrap_or(0).max(0) as u64 * 1000;
    let overtimes_left = match side {
        Some(Side::Defenders) => num(4),
        _ => num(3),
    }
    .unwrap_or(0);
    let overtime = if overtimes_left > 0 { overtime } else { 0 };
    if mine < 0 {
        None
    } else {
        Some((mine as u64, overtime))
    }
}

pub(super) fn run(args: EngineArgs) -> Result<(), CliError> {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(CliError::Input(
            "--seconds must be more than 0 and at most 3600".into(),
        ));
    }
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
    });
    let stdout = std::io::stdout();
    let mut engine = Engine {
        out: stdout.lock(),
        game: Game::new(Rules::default()),
        side: None,
        clock: None,
        default_time: Duration::from_secs_f64(args.seconds),
        tt_mb: args.tt_mb as usize,
        searcher: Searcher::new(args.tt_mb as usize, Weights::DEFAULT),
        closed: false,
    };
    engine.send("hello");
    while !engine.closed {
        let Ok(line) = rx.recv() else { break };
        if !engine.handle(&line, &rx) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLUT: &str = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
    const BRANDUBH: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    #[test]
    fn rules_records_map_to_options() {
        let (r, start, turn) = parse_rules_record(&format!(
            "dim:9 esc:e ka:y ks:n linc:y cens:K tfr:d start:{TABLUT}"
        ))
        .unwrap();
        assert_eq!(start, TABLUT);
        assert_eq!(turn, Side::Attackers);
        assert_eq!(r.escape, Escape::Edge);
        assert!(r.king_armed && r.castle_passable && r.king_reenters_castle);
        assert_eq!(r.king_capture, KingCapture::Linnaeus);
        assert_eq!(r.repetition_limit, 3);

        let (r, _, turn) =
            parse_rules_record(&format!("dim:9 atkf:n ka:n cens: cenp:K start:{TABLUT}")).unwrap();
        assert_eq!(turn, Side::Defenders);
        assert_eq!(r.escape, Escape::Corner);
        assert!(!r.king_armed && !r.castle_passable && !r.king_reenters_castle);
        assert_eq!(r.king_capture, KingCapture::FourSides);
    }

    #[test]
    fn other_games_are_refused() {
        assert!(
            parse_rules_record("dim:15 start:/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/")
                .unwrap_err()
                .contains("dim:15")
        );
        assert!(parse_rules_record(&format!("dim:9 ber:c start:{TABLUT}")).is_err());
        assert!(parse_rules_record(&format!("dim:9 tfr:w start:{TABLUT}")).is_err());
        assert!(parse_rules_record(&format!("dim:9 cens:tK start:{TABLUT}")).is_err());
        assert!(parse_rules_record("dim:9 esc:e").is_err());
        // Brandubh and Copenhagen are won in a corner, without berserk moves.
        assert!(parse_rules_record(&format!("dim:7 esc:e start:{BRANDUBH}"))
            .unwrap_err()
            .contains("corner"));
        assert!(parse_rules_record(&format!("dim:11 ber:c start:{BRANDUBH}")).is_err());
        // A start that is not of the board's size.
        assert!(parse_rules_record(&format!("dim:11 start:{BRANDUBH}")).is_err());
    }

    #[test]
    fn brandubh_and_copenhagen_records_are_their_games() {
        // OpenTafl's Brandub record (its options are read as Brandubh's own rules).
        let (r, start, turn) = parse_rules_record(&format!(
            "dim:7 name:Brandub ks:w cenhe: cenh: start:{BRANDUBH}"
        ))
        .unwrap();
        assert_eq!(r, crate::tafl::Preset::BrandubhOpenTafl.rules());
        assert_eq!(start, BRANDUBH);
        let (r, _, _) =
            parse_rules_record(&format!("dim:7 name:Brandubh ks:c start:{BRANDUBH}")).unwrap();
        assert_eq!(r, Rules::BRANDUBH);
        assert_eq!(turn, Side::Attackers);
        let copenhagen = write_position(&crate::tafl::Position::start_of(Variant::Copenhagen));
        let (r, start, turn) = parse_rules_record(&format!(
            "dim:11 name:Copenhagen atkf:n tfr:w sw:s efe:y start:{copenhagen}"
        ))
        .unwrap();
        assert_eq!(r, Rules::COPENHAGEN);
        assert_eq!(start, copenhagen);
        assert_eq!(turn, Side::Defenders);
    }

    #[test]
    fn clocks_read_our_side() {
        assert_eq!(
            parse_clock("60000 30000 10 3 3", Some(Side::Defenders)),
            Some((30000, 10000))
        );
        assert_eq!(
            parse_clock("5000* 1000 10 0 2", Some(Side::Attackers)),
            Some((5000, 0))
        );
        assert_eq!(parse_clock("-1 -1 0 0 0", Some(Side::Attackers)), None);
    }
}
