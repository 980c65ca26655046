//! `tablut-bot selfplay`: two AI configurations play each other from a fixed set of openings,
//! both colours, and the match is reported as wins, draws, losses and an Elo difference with
//! its 95% error. `--tune` improves the evaluation's weights by such matches.

use super::common::{CliError, Common};
use super::out;
use crate::ai::{self, Level, Searcher, Stop, Weights};
use crate::tafl::{Game, Move, Outcome, Rules, Side};
use clap::Args;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Debug, Args)]
pub(super) struct SelfplayArgs {
    #[command(flatten)]
    pub common: Common,
    /// The first player: easy, medium or hard (timed by --time-ms), depth:N or nodes:N.
    #[arg(long, default_value = "hard", value_parser = parse_spec)]
    pub a: Spec,
    /// The second player, as --a.
    #[arg(long, default_value = "medium", value_parser = parse_spec)]
    pub b: Spec,
    /// Milliseconds per move for the level players.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub time_ms: u64,
    /// How many opening positions (the start, then two seeded plies from it); each is played
    /// twice, the colours swapped.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub openings: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=10_000))]
    pub max_plies: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Transposition table size per player, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,
    /// Weights for --a as a JSON object (a file path); the defaults otherwise.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<String>,
    /// Tune the weights instead: --a's configuration with changed weights plays the current
    /// best, one weight at a time; a change that scores at least 55% is kept. Prints the
    /// tuned weights as JSON.
    #[arg(long)]
    pub tune: bool,
    /// Tuning passes over all the weights.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub rounds: u64,
    /// The relative step of a tuning change, in percent of the weight (at least 2 points).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=200))]
    pub step: u64,
}

/// A player's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Spec {
    Level(Level),
    Depth(u32),
    Nodes(u64),
}

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        let bad = || {
            format!(
                "'{}' is not a player: say easy, medium, hard, depth:N or nodes:N",
                crate::echo::echo(s)
            )
        };
        if let Ok(level) = s.parse::<Level>() {
            return Ok(Spec::Level(level));
        }
        let (kind, n) = s.split_once(':').ok_or_else(bad)?;
        match kind {
            "depth" => match n.parse() {
                Ok(d) if (1..=40).contains(&d) => Ok(Spec::Depth(d)),
                _ => Err(bad()),
            },
            "nodes" => match n.parse() {
                Ok(k) if k >= 1 => Ok(Spec::Nodes(k)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Level(l) => write!(f, "{l}"),
            Spec::Depth(d) => write!(f, "depth:{d}"),
            Spec::Nodes(n) => write!(f, "nodes:{n}"),
        }
    }
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    s.parse()
}

/// A player in a match: its configuration and its own searcher.
pub(super) struct Player {
    spec: Spec,
    time: Duration,
    searcher: Searcher,
    /// The longest a move took, wall clock from the call to the answer.
    pub slowest: Duration,
    /// Moves played and the sum of their completed depths.
    pub moves: u64,
    pub depth_sum: u64,
}

impl Player {
    pub(super) fn new(spec: Spec, time: Duration, tt_mb: usize, weights: Weights) -> Player {
        Player {
            spec,
            time,
            searcher: Searcher::new(tt_mb, weights),
            slowest: Duration::ZERO,
            moves: 0,
            depth_sum: 0,
        }
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let started = std::time::Instant::now();
        let found = match self.spec {
            Spec::Level(level) => ai::choose_move_with(&mut self.searcher, game, level, self.time),
            Spec::Depth(d) => ai::search_with(
                &mut self.searcher,
                game,
                Stop {
                    depth: Some(d),
                    ..Stop::default()
                },
            ),
            Spec::Nodes(n) => ai::search_with(
                &mut self.searcher,
                game,
                Stop {
                    nodes: Some(n),
                    ..Stop::default()
                },
            ),
        };
        self.slowest = self.slowest.max(started.elapsed());
        let r = found?;
        self.moves += 1;
        self.depth_sum += u64::from(r.depth);
        Some(r.best)
    }
}

/// The fixed openings: the start, then two plies chosen by a generator seeded with the index.
pub(super) fn openings(rules: Rules, n: usize) -> Vec<Vec<Move>> {
    let mut out = vec![Vec::new()];
    let mut seed = 1;
    while out.len() < n {
        let mut rng = fastrand::Rng::with_seed(seed);
        seed += 1;
        let mut g = Game::new(rules);
        let mut line = Vec::new();
        for _ in 0..2 {
            let moves = g.position().legal_moves_sorted();
            let mv = moves[rng.usize(..moves.len())];
            g.play(mv).expect("a legal move");
            line.push(mv);
        }
        if !g.outcome().is_over() && !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// Plays one game from `start` after `opening`; the outcome (a draw after `max_plies`).
pub(super) fn play_game(
    start: &Game,
    opening: &[Move],
    attackers: &mut Player,
    defenders: &mut Player,
    max_plies: usize,
) -> Outcome {
    play_out(start, opening, attackers, defenders, max_plies).outcome()
}

/// Plays one game from `start` after `opening`, stopping after `max_plies`; the game.
pub(super) fn play_out(
    start: &Game,
    opening: &[Move],
    attackers: &mut Player,
    defenders: &mut Player,
    max_plies: usize,
) -> Game {
    let mut g = start.clone();
    for &mv in opening {
        if g.play(mv).is_err() {
            break;
        }
    }
    while !g.outcome().is_over() && g.moves().len() < max_plies {
        let player = match g.turn() {
            Side::Attackers => &mut *attackers,
            Side::Defenders => &mut *defenders,
        };
        match player.choose(&g) {
            Some(mv) => {
                g.play(mv).expect("the AI plays legal moves");
            }
            None => break,
        }
    }
    g
}

/// A match's result from the first player's view.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub(super) struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The slowest move of each player, in milliseconds.
    pub slowest_ms: [u64; 2],
    /// The mean completed depth of each player's moves.
    pub mean_depth: [f64; 2],
}

impl Tally {
    pub(super) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score, 0 to 1.
    pub(super) fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    /// The Elo difference and its 95% interval (low, high), from the normal approximation of
    /// the score with the spread of the games' own results (all draws, which have none, take
    /// a coin's). A score of 0 % or 100 % has no finite Elo: the difference and one end of the
    /// interval are then infinite, and the other end is the exact (Clopper–Pearson) 95% bound
    /// of n wins in n games, 0.025^(1/n) (its mirror for n losses). An end of the normal
    /// interval beyond 0 % or 100 % is infinite too. No game: (0, −∞, +∞).
    pub(super) fn elo_interval(&self) -> (f64, f64, f64) {
        let (inf, neg_inf) = (f64::INFINITY, f64::NEG_INFINITY);
        if self.games() == 0 {
            return (0.0, neg_inf, inf);
        }
        let n = f64::from(self.games());
        let p = self.score();
        let to_elo = |p: f64| {
            if p <= 0.0 {
                neg_inf
            } else if p >= 1.0 {
                inf
            } else {
                400.0 * (p / (1.0 - p)).log10()
            }
        };
        let exact = 0.025f64.powf(1.0 / n);
        if self.wins == self.games() {
            return (inf, to_elo(exact), inf);
        }
        if self.losses == self.games() {
            return (neg_inf, neg_inf, to_elo(1.0 - exact));
        }
        let mut var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        if var == 0.0 {
            var = p * (1.0 - p);
        }
        let se = (var / n).sqrt();
        (to_elo(p), to_elo(p - 1.96 * se), to_elo(p + 1.96 * se))
    }

    /// The Elo difference and the half-width of its 95% interval (infinite when an end is).
    pub(super) fn elo(&self) -> (f64, f64) {
        let (elo, lo, hi) = self.elo_interval();
        (elo, (hi - lo) / 2.0)
    }
}

/// An Elo figure as a match's summary prints it: rounded, with its sign (`+241`, `-35`, `0`).
fn elo_figure(elo: f64) -> String {
    let r = elo.round();
    if r == 0.0 {
        "0".to_string()
    } else {
        format!("{r:+.0}")
    }
}

/// A match's Elo difference with its 95% interval, in words where a 0 % or 100 % score leaves
/// an end open: `Elo +241 (95% +99 to +557)`, `Elo unbounded above (100 % of 20 games; 95%
/// from +277)`, `Elo +191 (95% from -68, unbounded above)`, `Elo: no game scored`.
pub(super) fn elo_text(tally: &Tally) -> String {
    let games = tally.games();
    if games == 0 {
        return "Elo: no game scored".to_string();
    }
    let (elo, low, high) = tally.elo_interval();
    let of = if games == 1 {
        "1 game".to_string()
    } else {
        format!("{games} games")
    };
    if elo == f64::INFINITY {
        return format!(
            "Elo unbounded above (100 % of {of}; 95% from {})",
            elo_figure(low)
        );
    }
    if elo == f64::NEG_INFINITY {
        return format!(
            "Elo unbounded below (0 % of {of}; 95% up to {})",
            elo_figure(high)
        );
    }
    let interval = match (low.is_finite(), high.is_finite()) {
        (true, true) => format!("{} to {}", elo_figure(low), elo_figure(high)),
        (true, false) => format!("from {}, unbounded above", elo_figure(low)),
        (false, true) => format!("up to {}, unbounded below", elo_figure(high)),
        (false, false) => "unbounded".to_string(),
    };
    format!("Elo {} (95% {interval})", elo_figure(elo))
}

/// What every game of a match shares: where the games start, the time per move, when a game
/// is scored a draw, and how the games are run.
struct MatchSetup<'a> {
    /// The position every opening is played from.
    start: &'a Game,
    /// The openings' moves from `start`; each is played twice, the colours swapped.
    openings: &'a [Vec<Move>],
    /// The time per move of the level players.
    time: Duration,
    /// A game still going after this many plies is scored a draw.
    max_plies: usize,
    /// Games played at once.
    threads: usize,
    /// Transposition table size per player, in MB.
    tt_mb: usize,
    /// Each game's result goes to stderr.
    verbose: bool,
}

/// One side of a match: its configuration and its evaluation's weights.
#[derive(Clone, Copy)]
struct Contender {
    spec: Spec,
    weights: Weights,
}

/// Plays every opening twice, colours swapped: `a` against `b`. Progress goes to stderr.
fn run_match(setup: &MatchSetup<'_>, a: Contender, b: Contender) -> Tally {
    let running = Running {
        setup,
        a_spec: a.spec,
        jobs: (0..setup.openings.len())
            .flat_map(|i| [(i, true), (i, false)])
            .collect(),
        next: AtomicUsize::new(0),
        tally: Mutex::new(Tally::default()),
        stats: Mutex::new([(Duration::ZERO, 0u64, 0u64); 2]),
    };
    std::thread::scope(|scope| {
        for _ in 0..setup.threads.max(1) {
            scope.spawn(|| running.play_jobs(a, b));
        }
    });
    running.into_tally()
}

/// A match being played by its threads: the games to play, the next one to take, and what the
/// games played add up to.
struct Running<'a> {
    setup: &'a MatchSetup<'a>,
    /// The first player's configuration, for the progress lines.
    a_spec: Spec,
    /// The games: an opening's index and whether the first player attacks.
    jobs: Vec<(usize, bool)>,
    /// The index in `jobs` of the next game to take.
    next: AtomicUsize,
    /// Wins, draws and losses so far, from the first player's view.
    tally: Mutex<Tally>,
    /// For each player: its slowest move, its moves, and the sum of their completed depths.
    stats: Mutex<[(Duration, u64, u64); 2]>,
}

impl Running<'_> {
    /// One thread's share: games taken one at a time, each with this thread's own players,
    /// until none is left; then the players' moves and depths added to the match's.
    fn play_jobs(&self, a: Contender, b: Contender) {
        let setup = self.setup;
        let mut pa = Player::new(a.spec, setup.time, setup.tt_mb, a.weights);
        let mut pb = Player::new(b.spec, setup.time, setup.tt_mb, b.weights);
        loop {
            let j = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(i, a_attacks)) = self.jobs.get(j) else {
                let mut stats = self.stats.lock().expect("no thread panics holding it");
                for (k, p) in [&pa, &pb].into_iter().enumerate() {
                    stats[k].1 += p.moves;
                    stats[k].2 += p.depth_sum;
                }
                break;
            };
            let opening = &setup.openings[i];
            let outcome = if a_attacks {
                play_game(setup.start, opening, &mut pa, &mut pb, setup.max_plies)
            } else {
                play_game(setup.start, opening, &mut pb, &mut pa, setup.max_plies)
            };
            let mut stats = self.stats.lock().expect("no thread panics holding it");
            for (k, p) in [&pa, &pb].into_iter().enumerate() {
                stats[k].0 = stats[k].0.max(p.slowest);
            }
            drop(stats);
            self.score(j, i, a_attacks, &outcome);
        }
    }

    /// Game `j` (opening `i`) counted as a win, draw or loss of the first player, and its
    /// progress line written when the match is verbose.
    fn score(&self, j: usize, i: usize, a_attacks: bool, outcome: &Outcome) {
        let a = self.a_spec;
        let a_side = if a_attacks {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let mut t = self.tally.lock().expect("no thread panics holding it");
        let result = match outcome.winner() {
            Some(w) if w == a_side => {
                t.wins += 1;
                "win"
            }
            Some(_) => {
                t.losses += 1;
                "loss"
            }
            None => {
                t.draws += 1;
                "draw"
            }
        };
        if self.setup.verbose {
            eprintln!(
                "game {:>3}: opening {i}, {a} as {a_side}: {result} ({})  [+{} ={} -{}]",
                j + 1,
                outcome.reason().map_or("unfinished", |r| r.name()),
                t.wins,
                t.draws,
                t.losses
            );
        }
    }

    /// The match's tally, with each player's slowest move and mean completed depth.
    fn into_tally(self) -> Tally {
        let mut t = self.tally.into_inner().expect("no thread panicked");
        let stats = self.stats.into_inner().expect("no thread panicked");
        for (k, (slowest, moves, depths)) in stats.into_iter().enumerate() {
            t.slowest_ms[k] = slowest.as_millis() as u64;
            t.mean_depth[k] = depths as f64 / moves.max(1) as f64;
        }
        t
    }
}

fn read_weights(path: &str) -> Result<Weights, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("--weights {path}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| CliError::Input(format!("--weights {path}: {e}")))
}

pub(super) fn run(args: SelfplayArgs) -> Result<(), CliError> {
    let rules = args.common.rules()?;
    let start = args.common.game()?;
    if start.outcome().is_over() {
        return Err(CliError::Input(
            "the start position is already decided: nothing to play".into(),
        ));
    }
    let book = if args.common.position.is_some() {
        vec![Vec::new(); 1]
    } else {
        openings(rules, args.openings as usize)
    };
    let weights = match &args.weights {
        Some(p) => read_weights(p)?,
        None => Weights::DEFAULT,
    };
    let setup = MatchSetup {
        start: &start,
        openings: &book,
        time: Duration::from_millis(args.time_ms),
        max_plies: args.max_plies as usize,
        threads: args.threads as usize,
        tt_mb: args.tt_mb as usize,
        verbose: !args.tune,
    };
    if args.tune {
        tune(&args, &setup, weights)
    } else {
        report_match(&args, &setup, weights)
    }
}

/// `--a` (with `weights`) against `--b` (with the default weights), and the match's summary
/// written as one JSON line.
fn report_match(
    args: &SelfplayArgs,
    setup: &MatchSetup<'_>,
    weights: Weights,
) -> Result<(), CliError> {
    let a = Contender {
        spec: args.a,
        weights,
    };
    let b = Contender {
        spec: args.b,
        weights: Weights::DEFAULT,
    };
    let t = run_match(setup, a, b);
    let (elo, err) = t.elo();
    let summary = serde_json::json!({
        "a": args.a.to_string(),
        "b": args.b.to_string(),
        "games": t.games(),
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "score": (t.score() * 1000.0).round() / 1000.0,
        "elo": elo.round(),
        "elo_error": err.round(),
        "elo_low": t.elo_interval().1.round(),
        "time_ms": args.time_ms,
        "slowest_move_ms": t.slowest_ms,
        "mean_depth": t.mean_depth.map(|d| (d * 10.0).round() / 10.0),
    });
    out::line(summary)?;
    Ok(())
}

/// `--tune`: for `--rounds` passes, each weight in turn is raised, then lowered, by `--step`
/// percent; `--a` with the changed weights plays `--a` with the best so far, and a change that
/// scores at least 55% is kept. The tuned weights are written as JSON.
fn tune(args: &SelfplayArgs, setup: &MatchSetup<'_>, mut weights: Weights) -> Result<(), CliError> {
    for round in 0..args.rounds {
        let names: Vec<&'static str> = weights.clone().fields_mut().iter().map(|f| f.0).collect();
        for (i, name) in names.iter().enumerate() {
            for sign in [1i32, -1] {
                let mut cand = changed(weights, i, sign, args.step);
                let t = run_match(
                    setup,
                    Contender {
                        spec: args.a,
                        weights: cand,
                    },
                    Contender {
                        spec: args.a,
                        weights,
                    },
                );
                let value = *cand.fields_mut()[i].1;
                eprintln!(
                    "round {} {name} -> {value}: +{} ={} -{} ({:.3})",
                    round + 1,
                    t.wins,
                    t.draws,
                    t.losses,
                    t.score()
                );
                if t.score() >= 0.55 {
                    weights = cand;
                    eprintln!("  kept");
                    break;
                }
            }
        }
    }
    let json = serde_json::to_string_pretty(&weights)
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    out::line(json)?;
    Ok(())
}

/// `weights` with its `i`th weight moved by `step_pct` percent of itself (at least 2 points),
/// up for a `sign` of 1 and down for -1.
fn changed(weights: Weights, i: usize, sign: i32, step_pct: u64) -> Weights {
    let mut cand = weights;
    let fields = cand.fields_mut();
    let v = &mut *fields[i].1;
    let step = (v.abs() * step_pct as i32 / 100).max(2);
    *v += sign * step;
    cand
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_matches() {
        let even = Tally {
            wins: 5,
            draws: 10,
            losses: 5,
            ..Tally::default()
        };
        assert_eq!(even.elo().0.round(), 0.0);
        let strong = Tally {
            wins: 15,
            draws: 2,
            losses: 3,
            ..Tally::default()
        };
        let (elo, err) = strong.elo();
        // 80% is about +241 Elo.
        assert!((elo - 240.8).abs() < 1.0, "{elo}");
        assert!(err > 50.0 && err < 400.0, "{err}");
        assert_eq!(elo_text(&strong), "Elo +241 (95% +99 to +557)");
        // A clean sweep still has an interval, and its low end is positive.
        let sweep = Tally {
            wins: 20,
            draws: 0,
            losses: 0,
            ..Tally::default()
        };
        let (elo, low, high) = sweep.elo_interval();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        // The exact bound of 20 wins in 20: 0.025^(1/20) = 83.2 %, +277 Elo.
        assert!((low - 277.4).abs() < 0.1, "{low}");
        assert_eq!(
            elo_text(&sweep),
            "Elo unbounded above (100 % of 20 games; 95% from +277)"
        );
        let whitewash = Tally {
            losses: 20,
            ..Tally::default()
        };
        assert_eq!(
            elo_text(&whitewash),
            "Elo unbounded below (0 % of 20 games; 95% up to -277)"
        );
        // One game won says little, and nothing is "+0".
        let one = Tally {
            wins: 1,
            ..Tally::default()
        };
        assert_eq!(
            elo_text(&one),
            "Elo unbounded above (100 % of 1 game; 95% from -636)"
        );
        // An even score is 0, not "-0"; its interval is symmetric.
        assert_eq!(elo_text(&even), "Elo 0 (95% -111 to +111)");
        let drawn = Tally {
            draws: 1,
            ..Tally::default()
        };
        assert_eq!(elo_text(&drawn), "Elo 0 (95% unbounded)");
        // A bound beyond 100 % is open.
        let close = Tally {
            wins: 1,
            draws: 1,
            ..Tally::default()
        };
        assert_eq!(elo_text(&close), "Elo +191 (95% from -68, unbounded above)");
        assert_eq!(elo_text(&Tally::default()), "Elo: no game scored");
    }

    #[test]
    fn specs_parse() {
        assert_eq!("hard".parse::<Spec>(), Ok(Spec::Level(Level::Hard)));
        assert_eq!("depth:3".parse::<Spec>(), Ok(Spec::Depth(3)));
        assert_eq!("nodes:5000".parse::<Spec>(), Ok(Spec::Nodes(5000)));
        assert!("depth:0".parse::<Spec>().is_err());
        assert!("fast".parse::<Spec>().is_err());
    }

    #[test]
    fn openings_are_fixed_and_distinct() {
        let a = openings(Rules::default(), 6);
        assert_eq!(a, openings(Rules::default(), 6));
        assert_eq!(a.len(), 6);
        assert!(a[0].is_empty());
    }
}
