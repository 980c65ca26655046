//! `tablut-bot review`: the post-game analysis of a game on the command line: every position
//! searched as the bot's `/tablut analysis` does, each move judged, each side's accuracy, as
//! one JSON object; `--graph FILE` writes the evaluation graph.

use super::common::{moves_or_stdin, CliError, Common};
use super::out;
use crate::ai::analysis::{self, Judgement};
use crate::ai::{Limits, Searcher, Weights};
use crate::render::graph::evaluation_graph;
use crate::service::analysis::graph_input;
use crate::tafl::Side;
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub(super) struct ReviewArgs {
    #[command(flatten)]
    pub common: Common,
    /// Milliseconds of search per position (the bot's default).
    #[arg(long, default_value_t = analysis::DEFAULT_MS_PER_PLY,
        value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub ms_per_ply: u64,
    /// Search each position to this depth instead (deterministic).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: Option<u32>,
    /// The logistic curve's scale, in centi-soldiers.
    #[arg(long, default_value_t = analysis::DEFAULT_SCALE)]
    pub scale: f64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = crate::service::DEFAULT_AI_TT_MB as u64,
        value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
    /// Write the evaluation graph (PNG) here.
    #[arg(long, value_name = "FILE")]
    pub graph: Option<PathBuf>,
    /// The graph's title (default: the result).
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Moves in any accepted form; read from stdin (a game record) if none.
    pub moves: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Judged {
    ply: u32,
    side: &'static str,
    played: String,
    loss: f64,
    judgement: &'static str,
    better: Option<String>,
    refutation: Option<String>,
}

#[derive(Debug, Serialize)]
struct ReviewOutput {
    plies: usize,
    positions_searched: usize,
    time_ms: u64,
    result: &'static str,
    accuracy: [Option<f64>; 2],
    /// The costly moves.
    moves: Vec<Judged>,
    /// The attackers' expected score after each ply.
    curve: Vec<f64>,
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

pub(super) fn run(args: ReviewArgs) -> Result<(), CliError> {
    if !(args.scale.is_finite() && args.scale > 0.0) {
        return Err(CliError::Input("--scale must be a positive number".into()));
    }
    let moves = moves_or_stdin(args.moves)?;
    let game = args.common.game_after(&moves)?;
    let limits = match args.depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => analysis::limits_per_ply(Duration::from_millis(args.ms_per_ply)),
    };
    let started = Instant::now();
    let mut searcher = Searcher::new(args.tt_mb as usize, Weights::DEFAULT);
    let evals = analysis::evaluate_game(&mut searcher, &game, &limits);
    let time_ms = started.elapsed().as_millis() as u64;
    let review = analysis::review(&game, &evals, args.scale);
    let result = game.outcome().status();
    if let Some(path) = &args.graph {
        let title = args.title.clone().unwrap_or_else(|| match game.outcome() {
            o if o.is_over() => format!(
                "{} · {}",
                match o.winner() {
                    Some(Side::Attackers) => "Attackers won",
                    Some(Side::Defenders) => "Defenders won",
                    None => "Drawn",
                },
                o.reason()
                    .map(crate::bot::messages::reason_words)
                    .unwrap_or_default()
            ),
            _ => format!("After {} plies", game.moves().len()),
        });
        let labels = crate::service::graph_labels(Some(crate::bot::messages::caption));
        let graph = evaluation_graph(&graph_input(&review, title, labels));
        std::fs::write(path, graph.png)
            .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display())))?;
    }
    let out = ReviewOutput {
        plies: game.moves().len(),
        positions_searched: evals.iter().filter(|e| e.is_some()).count(),
        time_ms,
        result,
        accuracy: review.accuracy.map(|a| a.map(|a| round(a, 1))),
        moves: review
            .moves
            .iter()
            .filter(|m| m.judgement > Judgement::Good)
            .map(|m| Judged {
                ply: m.ply,
                side: m.side.name(),
                played: m.played.clone(),
                loss: round(m.loss, 3),
                judgement: m.judgement.name(),
                better: m.better.map(|b| b.to_string()),
                refutation: m.refutation.map(|r| r.to_string()),
            })
            .collect(),
        curve: review.curve.iter().map(|&v| round(v, 3)).collect(),
    };
    let json = serde_json::to_string(&out)
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}
