//! `tablut-bot fit-scale`: fits the analysis's logistic scale on self-play. The AI plays itself
//! at `hard` from the self-play openings, both colours; every move's search score (from the
//! mover's side) is paired with the mover's result (1, ½, 0), and the scale that makes those
//! results most likely is found by maximum likelihood (logistic regression of the result on
//! the score, through the origin). Prints one JSON object; a line per game on stderr.

use super::common::{CliError, Common};
use super::out;
use super::selfplay::openings;
use crate::ai::analysis::{self, fit_scale, log_likelihood};
use crate::ai::{self, Level, Searcher, Weights};
use crate::tafl::{Game, Outcome, Side};
use clap::Args;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Debug, Args)]
pub(super) struct FitScaleArgs {
    #[command(flatten)]
    pub common: Common,
    /// Opening positions; each is played twice, the colours swapped.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub openings: u64,
    /// Milliseconds per move.
    #[arg(long, default_value_t = analysis::DEFAULT_MS_PER_PLY,
        value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub time_ms: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    pub max_plies: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Transposition table size per game, in MB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
}

#[derive(Debug, Serialize)]
struct FitOutput {
    games: usize,
    attackers_won: usize,
    defenders_won: usize,
    draws: usize,
    /// Moves whose score entered the fit (forced wins and losses, and scores of 0, left out).
    positions: usize,
    scale: f64,
    log_likelihood: f64,
    /// The log-likelihood at the scale in force, for comparison.
    default_scale: f64,
    default_log_likelihood: f64,
}

/// One self-play game: every move's (score from the mover's side, the mover) and the outcome.
fn play(
    start: &Game,
    opening: &[crate::tafl::Move],
    args: &FitScaleArgs,
) -> (Vec<(i32, Side)>, Outcome) {
    let mut g = start.clone();
    for &mv in opening {
        if g.play(mv).is_err() {
            break;
        }
    }
    let time = Duration::from_millis(args.time_ms);
    let mut searcher = Searcher::new(args.tt_mb as usize, Weights::DEFAULT);
    let mut scored = Vec::new();
    while !g.outcome().is_over() && (g.moves().len() as u64) < args.max_plies {
        let Some(found) = ai::choose_move_with(&mut searcher, &g, Level::Hard, time) else {
            break;
        };
        scored.push((found.score, g.turn()));
        g.play(found.best).expect("the AI plays legal moves");
    }
    let outcome = if g.outcome().is_over() {
        g.outcome()
    } else {
        Outcome::Drawn {
            reason: crate::tafl::Reason::Repetition,
        }
    };
    (scored, outcome)
}

pub(super) fn run(args: FitScaleArgs) -> Result<(), CliError> {
    let start = args.common.game()?;
    let lines = openings(*start.rules(), args.openings as usize);
    let jobs: Vec<&[crate::tafl::Move]> = lines
        .iter()
        .flat_map(|l| [l.as_slice(), l.as_slice()])
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(opening) = jobs.get(i) else { break };
                let (scored, outcome) = play(&start, opening, &args);
                eprintln!(
                    "game {:3}: {} plies, {}",
                    i + 1,
                    scored.len() + opening.len(),
                    outcome.status()
                );
                results.lock().expect("results").push((scored, outcome));
            });
        }
    });
    let results = results.into_inner().expect("results");
    let mut samples = Vec::new();
    let (mut a, mut d, mut draws) = (0, 0, 0);
    for (scored, outcome) in &results {
        match outcome.winner() {
            Some(Side::Attackers) => a += 1,
            Some(Side::Defenders) => d += 1,
            None => draws += 1,
        }
        for &(score, side) in scored {
            samples.push((score, analysis::decided(*outcome, side)));
        }
    }
    let positions = samples
        .iter()
        .filter(|(s, _)| s.abs() <= ai::MATE_BOUND && *s != 0)
        .count();
    let scale = fit_scale(&samples).ok_or_else(|| {
        CliError::Failed("the results do not follow the scores: no scale fits".into())
    })?;
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let out = FitOutput {
        games: results.len(),
        attackers_won: a,
        defenders_won: d,
        draws,
        positions,
        scale: round(scale),
        log_likelihood: round(log_likelihood(&samples, scale)),
        default_scale: analysis::DEFAULT_SCALE,
        default_log_likelihood: round(log_likelihood(&samples, analysis::DEFAULT_SCALE)),
    };
    let json = serde_json::to_string(&out)
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}
