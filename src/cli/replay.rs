//! `tablut-bot replay`: apply moves and print the result as JSON.

use super::common::{CliError, Common};
use super::out;
use crate::tafl::{read_record, write_position, write_record, Game, RecordFormat, RecordTags};
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub(super) struct ReplayArgs {
    #[command(flatten)]
    pub common: Common,
    /// Print the game as a record in this format (tafl: the archives' record; opentafl:
    /// OpenTafl's) instead of JSON.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub record: Option<RecordFormat>,
    /// Moves in any accepted form (e2-c2, e2c2, "e2 c2", Ke5-e8, c2); read from stdin if none:
    /// moves, or a whole record in either format (its own rules then apply).
    pub moves: Vec<String>,
}

fn parse_format(s: &str) -> Result<RecordFormat, String> {
    s.parse()
}

/// The JSON object `replay` prints.
#[derive(Debug, Serialize)]
pub(super) struct ReplayOutput {
    pub position: String,
    pub to_move: &'static str,
    pub status: &'static str,
    pub reason: Option<&'static str>,
    pub moves: Vec<String>,
    pub legal_moves: Vec<String>,
}

impl ReplayOutput {
    pub(super) fn of(game: &Game) -> ReplayOutput {
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
                let mut moves: Vec<String> =
                    game.legal_moves().iter().map(|m| m.to_string()).collect();
                moves.sort();
                moves
            },
        }
    }
}

pub(super) fn run(args: ReplayArgs) -> Result<(), CliError> {
    let game = if args.moves.is_empty() {
        let mut input = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)
            .map_err(|e| CliError::Input(format!("cannot read moves from stdin: {e}")))?;
        if input.lines().any(|l| l.trim_start().starts_with('[')) {
            // A whole record: its own rules and start, unless it names none.
            read_record(&input, args.common.rules()?)
                .map_err(|e| CliError::Input(crate::bot::messages::record_read_problem(&e)))?
                .game
        } else {
            let moves: Vec<String> = crate::tafl::record::record_tokens(&input)
                .into_iter()
                .map(str::to_string)
                .collect();
            args.common.game_after(&moves)?
        }
    } else {
        args.common.game_after(&args.moves)?
    };
    if let Some(format) = args.record {
        let text = write_record(&game, format, &RecordTags::default());
        return out::line(text.trim_end());
    }
    let json = serde_json::to_string(&ReplayOutput::of(&game))
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}
