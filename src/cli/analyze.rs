//! `tablut-bot analyze`: the AI's best move, score and principal variation as one JSON object.

use super::common::{CliError, Common};
use super::out;
use crate::ai::{self, Level, Limits};
use clap::{ArgGroup, Args};
use serde::Serialize;
use std::time::Duration;

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("limit").required(true).args(["depth", "time_ms", "nodes"])))]
pub(super) struct AnalyzeArgs {
    #[command(flatten)]
    pub common: Common,
    /// Moves to play from the position before analysing (e2-c2, e2c2, Ke5-e8, ...).
    pub moves: Vec<String>,
    /// Search to this many plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub time_ms: Option<u64>,
    /// Search this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Analyse as this level plays: easy, medium or hard (the default, full strength).
    #[arg(long, default_value = "hard", value_parser = parse_level)]
    pub level: Level,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = ai::tt::DEFAULT_MB as u64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse().map_err(|e: ai::LevelError| e.to_string())
}

/// The JSON object `analyze` prints.
#[derive(Debug, Serialize)]
pub(super) struct AnalyzeOutput {
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

pub(super) fn run(args: AnalyzeArgs) -> Result<(), CliError> {
    let game = args.common.game_after(&args.moves)?;
    if let Some(reason) = game.outcome().reason() {
        return Err(CliError::Input(format!(
            "the game is over ({}): there is nothing to analyse",
            crate::bot::messages::reason_words(reason)
        )));
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        time: args.time_ms.map(Duration::from_millis),
    };
    let found =
        ai::analyze_at(&game, args.level, &limits, args.tt_mb as usize).ok_or_else(|| {
            CliError::Input(
                "the side to move has no legal move: there is nothing to analyse".into(),
            )
        })?;
    let out = AnalyzeOutput {
        best: found.best.to_string(),
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        time_ms: found.time_ms,
        pv: found.pv.iter().map(|m| m.to_string()).collect(),
    };
    let json = serde_json::to_string(&out)
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}
