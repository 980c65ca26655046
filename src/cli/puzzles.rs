//! `tablut-bot puzzles`: the AI plays itself from varied openings, and every position of the
//! last plies of each game is searched for a puzzle (see [`crate::ai::puzzle`]). The puzzles
//! are written as a JSON array, one puzzle a line: the seed file `assets/puzzles.json` the bot
//! loads at start-up is made this way.

use super::common::{CliError, Common};
use super::selfplay::{play_out, Player, Spec};
use crate::ai::puzzle::{self, Kind, Record, Solver};
use crate::ai::Weights;
use crate::tafl::{Game, Move};
use clap::Args;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub(super) struct PuzzlesArgs {
    #[command(flatten)]
    pub common: Common,
    /// Where to write the puzzles (a JSON array, one puzzle a line).
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Self-play games to play.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub games: u64,
    /// The attackers' player: easy, medium, hard (timed by --time-ms), depth:N or nodes:N.
    #[arg(long, default_value = "medium", value_parser = parse_spec)]
    pub attackers: Spec,
    /// The defenders' player, as --attackers.
    #[arg(long, default_value = "medium", value_parser = parse_spec)]
    pub defenders: Spec,
    /// Milliseconds per move for the level players.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub time_ms: u64,
    /// Random plies played from the start before the AI takes over (each game its own seed).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=40))]
    pub random_plies: u64,
    /// The first game's seed; game i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many of each game's last plies are searched for puzzles.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub scan_plies: u64,
    /// A game still going after this many plies stops there.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    pub max_plies: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    s.parse()
}

/// The puzzles found in a finished game's last `scan` plies, with the time each position took
/// to search. Each puzzle starts a fresh game at its position.
pub(super) fn scan_game(
    solver: &mut Solver,
    game: &Game,
    scan: usize,
    source: &str,
) -> (Vec<Record>, Vec<Duration>) {
    let positions = game.positions();
    let from = positions.len().saturating_sub(scan);
    let mut found = Vec::new();
    let mut times = Vec::new();
    for pos in &positions[from..] {
        let started = Instant::now();
        if let Some(f) = puzzle::find(solver, std::slice::from_ref(pos)) {
            found.push(Record::new(pos, &f, source));
        }
        times.push(started.elapsed());
    }
    (found, times)
}

pub(super) fn run(args: PuzzlesArgs) -> Result<(), CliError> {
    let start = args.common.game()?;
    if start.outcome().is_over() {
        return Err(CliError::Input(
            "the start position is already decided: nothing to play".into(),
        ));
    }
    let time = Duration::from_millis(args.time_ms);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let began = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut a = Player::new(args.attackers, time, 16, Weights::DEFAULT);
                let mut d = Player::new(args.defenders, time, 16, Weights::DEFAULT);
                let mut solver = Solver::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= args.games {
                        break;
                    }
                    let opening = random_opening(&start, args.random_plies, args.seed + i);
                    let game = play_out(&start, &opening, &mut a, &mut d, args.max_plies as usize);
                    let (found, times) =
                        scan_game(&mut solver, &game, args.scan_plies as usize, "selfplay");
                    eprintln!(
                        "game {:>3}: {} plies, {} ({}), {} puzzles",
                        i + 1,
                        game.moves().len(),
                        game.outcome().status(),
                        game.outcome().reason().map_or("unfinished", |r| r.name()),
                        found.len()
                    );
                    results
                        .lock()
                        .expect("no thread panics holding it")
                        .push((i, found, times));
                }
            });
        }
    });
    let (puzzles, mut times) = distinct(results.into_inner().expect("no thread panicked"));
    write_json(&args.out, &puzzles)?;
    times.sort();
    let total: Duration = times.iter().sum();
    let count = |k: Kind, n: u32| {
        puzzles
            .iter()
            .filter(|p| p.kind == k && (k == Kind::Save || p.moves == n))
            .count()
    };
    eprintln!(
        "{} games in {:.1} s; {} positions searched in {:.1} s (median {:.1} ms, slowest {:.0} ms); \
         {} puzzles: win in 1 {}, in 2 {}, in 3 {}, save {}",
        args.games,
        began.elapsed().as_secs_f64(),
        times.len(),
        total.as_secs_f64(),
        times
            .get(times.len() / 2)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        puzzles.len(),
        count(Kind::Win, 1),
        count(Kind::Win, 2),
        count(Kind::Win, 3),
        count(Kind::Save, 1),
    );
    Ok(())
}

/// `plies` random legal moves from `start` (fewer if the game ends first), drawn from `seed`.
fn random_opening(start: &Game, plies: u64, seed: u64) -> Vec<Move> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut opening = Vec::new();
    let mut g = start.clone();
    for _ in 0..plies {
        let moves = g.position().legal_moves_sorted();
        if moves.is_empty() || g.outcome().is_over() {
            break;
        }
        let mv = moves[rng.usize(..moves.len())];
        if g.play(mv).is_err() {
            break;
        }
        opening.push(mv);
    }
    opening
}

/// The games' puzzles in the games' order, each position once, and every search's time.
fn distinct(mut results: Vec<(u64, Vec<Record>, Vec<Duration>)>) -> (Vec<Record>, Vec<Duration>) {
    results.sort_by_key(|r| r.0);
    let mut seen = HashSet::new();
    let mut puzzles = Vec::new();
    let mut times: Vec<Duration> = Vec::new();
    for (_, found, t) in results {
        times.extend(t);
        for r in found {
            if seen.insert((r.position.clone(), r.to_move, r.rules)) {
                puzzles.push(r);
            }
        }
    }
    (puzzles, times)
}

/// Writes `puzzles` to `out` as a JSON array, one puzzle a line.
fn write_json(out: &str, puzzles: &[Record]) -> Result<(), CliError> {
    let mut text = String::from("[\n");
    for (i, r) in puzzles.iter().enumerate() {
        let line = serde_json::to_string(r)
            .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
        text.push_str(&line);
        text.push_str(if i + 1 < puzzles.len() { ",\n" } else { "\n" });
    }
    text.push_str("]\n");
    std::fs::write(out, text).map_err(|e| CliError::Failed(format!("cannot write {out}: {e}")))
}
