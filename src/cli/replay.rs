//! `tablut-bot replay`: apply moves and print the result as JSON.

use super::common::{moves_or_stdin, CliError, Common};
use super::out;
use crate::tafl::{write_position, Game};
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub common: Common,
    /// Moves in any accepted form (e2-c2, e2c2, "e2 c2", Ke5-e8, c2); read from stdin if none.
    pub moves: Vec<String>,
}

/// The JSON object `replay` prints.
#[derive(Debug, Serialize)]
pub struct ReplayOutput {
    pub position: String,
    pub to_move: &'static str,
    pub status: &'static str,
    pub reason: Option<&'static str>,
    pub moves: Vec<String>,
    pub legal_moves: Vec<String>,
}

impl ReplayOutput {
    pub fn of(game: &Game) -> ReplayOutput {
        let pos = game.position();
        let outcome = game.outcome();
        ReplayOutput {
            position: write_position(pos),
            to_move: pos.turn().name(),
            status: outcome.status(),
            reason: outcome.reason().map(|r| r.name()),
            moves: game.moves().iter().map(|m| m.to_string()).collect(),
            legal_moves: if outcome.is_over() {
                Vec::new()
            } else {
                pos.legal_moves_sorted()
                    .iter()
                    .map(|m| m.to_string())
                    .collect()
            },
        }
    }
}

pub fn run(args: ReplayArgs) -> Result<(), CliError> {
    let moves = moves_or_stdin(args.moves)?;
    let game = args.common.game_after(&moves)?;
    let json = serde_json::to_string(&ReplayOutput::of(&game))
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}
