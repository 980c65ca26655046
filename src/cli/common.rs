//! The options every game-reading command shares, and the command line's error. What is wrong
//! with a game's input is said in the bot's words (`bot::messages`), as a player reads it there.

use crate::bot::messages as words;
use crate::echo::echo;
use crate::tafl::{parse_position, Game, Position, Preset, Rules, Side, Variant};
use clap::Args;

/// A command's failure: its one-line message and the exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input: exit code 2.
    #[error("{0}")]
    Input(String),
    /// Anything else: exit code 1.
    #[error("{0}")]
    Failed(String),
    /// Stdout was closed by its reader (`| head`): exit code 0, nothing said.
    #[error("stdout was closed")]
    Closed,
}

impl CliError {
    pub fn code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failed(_) => 1,
            CliError::Closed => 0,
        }
    }
}

/// `--variant`, `--rules`, `--set`, `--position`, `--to-move`.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// The game: tablut, brandubh, copenhagen or copenhagen13 (--set is Tablut's).
    #[arg(long, default_value = "tablut", value_parser = parse_variant)]
    pub variant: Variant,
    /// The variant's rules preset (`tablut-bot presets` lists them; default: the variant's
    /// default, linnaeus for Tablut, aagenielsen for Brandubh and Copenhagen).
    #[arg(long, value_name = "PRESET")]
    pub rules: Option<String>,
    /// A rule option on top of the preset, as option=value (repeatable), e.g. king_armed=false.
    #[arg(long = "set", value_name = "OPTION=VALUE")]
    pub set: Vec<String>,
    /// The starting position as an OpenTafl position record (default: the start position).
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    /// The side to move in --position.
    #[arg(long, default_value = "attackers", value_parser = parse_side)]
    pub to_move: Side,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse().map_err(|e| words::variant_problem(&e))
}

fn parse_side(s: &str) -> Result<Side, String> {
    match s {
        "attackers" => Ok(Side::Attackers),
        "defenders" => Ok(Side::Defenders),
        _ => Err(format!(
            "'{}' is not a side: say attackers or defenders",
            echo(s)
        )),
    }
}

impl Common {
    /// The rule options: the preset with every `--set` applied.
    pub fn rules(&self) -> Result<Rules, CliError> {
        let preset = match &self.rules {
            None => Preset::default_of(self.variant),
            Some(name) => Preset::find(self.variant, name)
                .map_err(|e| CliError::Input(format!("--rules: {}", words::rules_problem(&e))))?,
        };
        let mut rules = preset.rules();
        for s in &self.set {
            rules
                .apply_setting(s)
                .map_err(|e| CliError::Input(format!("--set: {}", words::rules_problem(&e))))?;
        }
        Ok(rules)
    }

    /// The position to start from.
    pub fn position(&self) -> Result<Position, CliError> {
        let rules = self.rules()?;
        match &self.position {
            None => Ok(Position::start(rules).with_turn(self.to_move)),
            Some(record) => parse_position(record, self.to_move, rules).map_err(|e| {
                let why = words::position_record_problem(&e);
                CliError::Input(format!("--position: {why}"))
            }),
        }
    }

    /// A game from the start position.
    pub fn game(&self) -> Result<Game, CliError> {
        Ok(Game::from_position(self.position()?))
    }

    /// A game with `moves` played, or the first refusal as a one-line error naming the ply.
    pub fn game_after(&self, moves: &[String]) -> Result<Game, CliError> {
        let mut game = self.game()?;
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| {
                let why = words::move_problem(&e);
                CliError::Input(format!("ply {}: '{}': {why}", i + 1, echo(text)))
            })?;
        }
        Ok(game)
    }
}

/// The moves given as arguments, or read whitespace-separated from stdin when there are none.
pub(super) fn moves_or_stdin(moves: Vec<String>) -> Result<Vec<String>, CliError> {
    if !moves.is_empty() {
        return Ok(moves);
    }
    let mut input = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
        .map_err(|e| CliError::Input(format!("cannot read moves from stdin: {e}")))?;
    Ok(crate::tafl::record::record_tokens(&input)
        .into_iter()
        .map(str::to_string)
        .collect())
}
