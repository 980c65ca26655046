//! Post-game analysis, pure: every position of a game searched at a bounded cost, each move
//! judged by the expected score it gave away, and each side's accuracy.
//!
//! - A search's score (centi-soldiers, from the side to move) becomes an expected score by the
//!   logistic curve `1 / (1 + exp(-score / scale))`; [`DEFAULT_SCALE`] was fitted by maximum
//!   likelihood on self-play outcomes ([`fit_scale`], `tablut-bot fit-scale`). A forced win or
//!   loss found by the search, and a position the rules have decided, is 1 or 0 (a draw ½).
//! - A move's loss is the mover's expected score before it less the one after it (never
//!   below 0; 0 when the move is the one the search chose). A loss of at least 0.1 is an
//!   inaccuracy, 0.2 a mistake, 0.3 a blunder (lichess's thresholds, on the same 0–1 scale).
//! - A move's accuracy is lichess's curve of the loss in percentage points,
//!   `103.1668 · exp(−0.04354 · loss) − 3.1669`, clamped to 0–100 (and exactly 100 for no loss);
//!   a side's accuracy is the mean over its moves.

use super::{search_with, Limits, SearchResult, Searcher, Stop, MATE_BOUND};
use crate::tafl::{Call, Game, Move, Outcome, Side};
use std::time::{Duration, Instant};

/// The logistic curve's scale, fitted on self-play (`tablut-bot fit-scale --openings 15
/// --time-ms 200 --threads 2`: 30 games, 1 244 scored moves, maximum likelihood at 164.1; see
/// docs/AI.md): a score of this many centi-soldiers is an expected score of 1/(1+e⁻¹) ≈ 0.73.
pub const DEFAULT_SCALE: f64 = 164.0;

/// The time a position is searched for by default: a 100-ply game stays within a minute of one
/// core.
pub const DEFAULT_MS_PER_PLY: u64 = 400;

/// Expected-score losses from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 0.1;
pub const MISTAKE: f64 = 0.2;
pub const BLUNDER: f64 = 0.3;

/// How a move is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement of an expected-score loss.
    pub fn of_loss(loss: f64) -> Judgement {
        if loss >= BLUNDER {
            Judgement::Blunder
        } else if loss >= MISTAKE {
            Judgement::Mistake
        } else if loss >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::Good
        }
    }

    pub const fn word(self) -> &'static str {
        match self {
            Judgement::Good => "good",
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The mark after the move in a record: `?!`, `?`, `??`.
    pub const fn mark(self) -> &'static str {
        match self {
            Judgement::Good => "",
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// One position's search: its score from the side to move and the move it chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evaluation {
    pub score: i32,
    pub best: Move,
    pub depth: u32,
    pub nodes: u64,
}

impl From<&SearchResult> for Evaluation {
    fn from(r: &SearchResult) -> Evaluation {
        Evaluation {
            score: r.score,
            best: r.best,
            depth: r.depth,
            nodes: r.nodes,
        }
    }
}

/// The expected score of the side to move for a search's score.
pub fn expected(score: i32, scale: f64) -> f64 {
    if score > MATE_BOUND {
        return 1.0;
    }
    if score < -MATE_BOUND {
        return 0.0;
    }
    1.0 / (1.0 + (-f64::from(score) / scale).exp())
}

/// `side`'s expected score in a position the rules decided.
pub fn decided(outcome: Outcome, side: Side) -> f64 {
    match outcome.winner() {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// A move's accuracy (0–100) for its expected-score loss (0–1).
pub fn move_accuracy(loss: f64) -> f64 {
    if loss <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * loss * 100.0).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The limits a position is searched with: a time, or (deterministic) a depth.
pub fn limits_per_ply(time: Duration) -> Limits {
    Limits {
        time: Some(time),
        ..Limits::default()
    }
}

/// Searches one position of a game (its history counts for repetitions) within `limits`, the
/// table cleared first so the answer does not depend on what was searched before. `None` when
/// the rules have decided the position.
pub fn evaluate(searcher: &mut Searcher, game: &Game, limits: &Limits) -> Option<Evaluation> {
    let started = Instant::now();
    searcher.clear();
    search_with(searcher, game, stop_for(limits, started)).map(|r| Evaluation::from(&r))
}

/// The stop conditions for `limits`, a time counted from `started` (with no limit at all: the
/// default depth).
pub fn stop_for(limits: &Limits, started: Instant) -> Stop {
    let mut stop = match limits.time {
        Some(t) => super::timed(started, t),
        None => Stop::default(),
    };
    stop.depth = limits.depth;
    stop.nodes = limits.nodes;
    if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
        stop.depth = Some(super::DEFAULT_DEPTH);
    }
    stop
}

/// Plays `game` again from its start, one move at a time, and shows `visit` each of its
/// positions as a game of its own, the start first: position `i` is the game after its first
/// `i` moves, its outcome the one the rules give (a resignation or a time-out is not on the
/// board). One game is held, grown by a move between two visits: a game of `n` plies costs
/// `O(n)` memory, not a game per position.
pub fn walk(game: &Game, mut visit: impl FnMut(usize, &Game)) {
    let mut g = Game::from_position(*game.start());
    visit(0, &g);
    for (i, m) in game.moves().iter().enumerate() {
        g.play(m.mv).expect("a game's own moves are legal");
        visit(i + 1, &g);
    }
}

/// The game after its first `ply` moves, as the rules judge it (the position an analysis
/// searches next).
///
/// # Panics
/// If the game has fewer than `ply` moves.
pub fn prefix(game: &Game, ply: usize) -> Game {
    assert!(ply <= game.moves().len(), "the game has {ply} moves");
    let mut g = Game::from_position(*game.start());
    for m in &game.moves()[..ply] {
        g.play(m.mv).expect("a game's own moves are legal");
    }
    g
}

/// Searches every undecided position of `game` (for tools and benchmarks; the bot does it one
/// position at a time on its AI pool).
pub fn evaluate_game(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
) -> Vec<Option<Evaluation>> {
    let mut out = Vec::with_capacity(game.moves().len() + 1);
    walk(game, |_, g| out.push(evaluate(searcher, g, limits)));
    out
}

/// A move as the analysis judges it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReview {
    /// The ply the move made (1 for the first move).
    pub ply: u32,
    pub side: Side,
    /// The move as recorded (`d1-d4xd5+`).
    pub played: String,
    pub mv: Move,
    /// The mover's expected score before and after the move.
    pub before: f64,
    pub after: f64,
    /// `before − after`, at least 0 (0 when the search chose this move).
    pub loss: f64,
    pub judgement: Judgement,
    pub accuracy: f64,
    /// The move the search preferred, when the move gave something away.
    pub better: Option<Move>,
    /// The opponent's best answer to the move played, when it gave something away.
    pub refutation: Option<Move>,
}

/// A whole game's analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// The attackers' expected score in each position, the start first (one more than moves).
    pub curve: Vec<f64>,
    /// The plies after which the king had a free line (raichi) or two (tuichu).
    pub calls: Vec<(u32, Call)>,
    /// Each side's accuracy, attackers first (`None`: the side made no move).
    pub accuracy: [Option<f64>; 2],
    pub outcome: Outcome,
}

impl Review {
    /// A side's moves with a judgement worse than good, the costliest first, at most `n`.
    pub fn worst(&self, side: Side, n: usize) -> Vec<&MoveReview> {
        let mut out: Vec<&MoveReview> = self
            .moves
            .iter()
            .filter(|m| m.side == side && m.judgement > Judgement::Good)
            .collect();
        out.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        out.truncate(n);
        out
    }

    /// How many of a side's moves got `judgement`.
    pub fn count(&self, side: Side, judgement: Judgement) -> usize {
        self.moves
            .iter()
            .filter(|m| m.side == side && m.judgement == judgement)
            .count()
    }
}

fn side_index(side: Side) -> usize {
    match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    }
}

/// Judges a game's moves from its positions' evaluations (`evals[i]`: the position after `i`
/// moves, `None` where the rules decided it), with the logistic `scale`.
///
/// # Panics
/// If `evals` does not hold one entry per position (moves + 1), or an undecided position has
/// no evaluation.
pub fn review(game: &Game, evals: &[Option<Evaluation>], scale: f64) -> Review {
    assert_eq!(
        evals.len(),
        game.moves().len() + 1,
        "one evaluation per position"
    );
    // Each position's side to move, and that side's expected score.
    let mut turns = Vec::with_capacity(evals.len());
    let mut own = Vec::with_capacity(evals.len());
    walk(game, |i, g| {
        turns.push(g.turn());
        own.push(match (g.outcome(), &evals[i]) {
            (o, _) if o.is_over() => decided(o, g.turn()),
            (_, Some(e)) => expected(e.score, scale),
            (_, None) => panic!("an undecided position without an evaluation"),
        });
    });
    let curve: Vec<f64> = turns
        .iter()
        .zip(&own)
        .map(|(turn, &e)| match turn {
            Side::Attackers => e,
            Side::Defenders => 1.0 - e,
        })
        .collect();
    let mut moves = Vec::with_capacity(game.moves().len());
    let mut calls = Vec::new();
    let mut sums = [0.0; 2];
    let mut counts = [0usize; 2];
    for (i, m) in game.moves().iter().enumerate() {
        let ply = i as u32 + 1;
        if let Some(call) = m.call {
            calls.push((ply, call));
        }
        let before = own[i];
        // The mover's expected score after the move: the opponent's, turned round.
        let after = match turns[i + 1] == m.side {
            true => own[i + 1],
            false => 1.0 - own[i + 1],
        };
        let best = evals[i].map(|e| e.best);
        let loss = if best == Some(m.mv) {
            0.0
        } else {
            (before - after).max(0.0)
        };
        let judgement = Judgement::of_loss(loss);
        let accuracy = move_accuracy(loss);
        let s = side_index(m.side);
        sums[s] += accuracy;
        counts[s] += 1;
        let gave = judgement > Judgement::Good;
        moves.push(MoveReview {
            ply,
            side: m.side,
            played: m.to_string(),
            mv: m.mv,
            before,
            after,
            loss,
            judgement,
            accuracy,
            better: best.filter(|_| gave),
            refutation: evals[i + 1].map(|e| e.best).filter(|_| gave),
        });
    }
    let accuracy = [0, 1].map(|s| (counts[s] > 0).then(|| sums[s] / counts[s] as f64));
    Review {
        moves,
        curve,
        calls,
        accuracy,
        outcome: game.outcome(),
    }
}

/// The logistic scale that makes self-play outcomes most likely: `samples` are (a search's
/// score from the side to move, that side's result: 1, ½ or 0). Maximum likelihood by Newton's
/// method on `1/scale` (the log-likelihood is concave in it); scores of forced wins and losses
/// are left out. `None` with no usable sample or when the outcomes do not follow the scores.
pub fn fit_scale(samples: &[(i32, f64)]) -> Option<f64> {
    let data: Vec<(f64, f64)> = samples
        .iter()
        .filter(|(s, _)| s.abs() <= MATE_BOUND && *s != 0)
        .map(|&(s, y)| (f64::from(s), y))
        .collect();
    if data.is_empty() {
        return None;
    }
    let mut b = 1.0 / 300.0;
    for _ in 0..100 {
        let (mut g, mut h) = (0.0, 0.0);
        for &(s, y) in &data {
            let p = 1.0 / (1.0 + (-b * s).exp());
            g += (y - p) * s;
            h -= p * (1.0 - p) * s * s;
        }
        if h >= 0.0 {
            return None;
        }
        let step = g / h;
        // Damped: never more than halve or double b in one step.
        let next = (b - step).clamp(b / 2.0, b * 2.0);
        let done = (next - b).abs() < 1e-12;
        b = next;
        if done {
            break;
        }
    }
    (b > 0.0).then(|| 1.0 / b)
}

/// The log-likelihood of `samples` under `scale` (to compare fits).
pub fn log_likelihood(samples: &[(i32, f64)], scale: f64) -> f64 {
    samples
        .iter()
        .filter(|(s, _)| s.abs() <= MATE_BOUND)
        .map(|&(s, y)| {
            let p = expected(s, scale).clamp(1e-12, 1.0 - 1e-12);
            y * p.ln() + (1.0 - y) * (1.0 - p).ln()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Weights;
    use crate::tafl::Rules;

    #[test]
    fn the_curve_is_even_at_zero_and_certain_at_a_forced_result() {
        assert_eq!(expected(0, 300.0), 0.5);
        assert!((expected(300, 300.0) - 0.7311).abs() < 1e-4);
        assert!((expected(-300, 300.0) + expected(300, 300.0) - 1.0).abs() < 1e-12);
        assert_eq!(expected(crate::ai::MATE - 3, 300.0), 1.0);
        assert_eq!(expected(-crate::ai::MATE + 3, 300.0), 0.0);
    }

    #[test]
    fn judgements_follow_the_thresholds() {
        assert_eq!(Judgement::of_loss(0.0), Judgement::Good);
        assert_eq!(Judgement::of_loss(0.099), Judgement::Good);
        assert_eq!(Judgement::of_loss(0.1), Judgement::Inaccuracy);
        assert_eq!(Judgement::of_loss(0.2), Judgement::Mistake);
        assert_eq!(Judgement::of_loss(0.3), Judgement::Blunder);
        assert_eq!(Judgement::of_loss(1.0), Judgement::Blunder);
    }

    #[test]
    fn accuracy_is_full_for_no_loss_and_falls_with_it() {
        assert_eq!(move_accuracy(0.0), 100.0);
        let a = [0.05, 0.1, 0.3, 0.6, 1.0].map(move_accuracy);
        assert!(a.windows(2).all(|w| w[0] > w[1]), "{a:?}");
        assert!(
            (move_accuracy(0.1) - 63.3).abs() < 0.5,
            "{}",
            move_accuracy(0.1)
        );
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    #[test]
    fn the_fit_recovers_the_scale_outcomes_were_drawn_from() {
        for true_scale in [150.0, 400.0] {
            let mut rng = fastrand::Rng::with_seed(7);
            let samples: Vec<(i32, f64)> = (0..20_000)
                .map(|_| {
                    let s = rng.i32(-1200..=1200);
                    let p = expected(s, true_scale);
                    (s, if rng.f64() < p { 1.0 } else { 0.0 })
                })
                .collect();
            let fitted = fit_scale(&samples).unwrap();
            assert!(
                (fitted - true_scale).abs() < true_scale * 0.08,
                "fitted {fitted} for {true_scale}"
            );
            let ll = log_likelihood(&samples, fitted);
            assert!(ll >= log_likelihood(&samples, fitted * 1.2));
            assert!(ll >= log_likelihood(&samples, fitted / 1.2));
        }
        assert_eq!(fit_scale(&[]), None);
        assert_eq!(fit_scale(&[(crate::ai::MATE - 1, 1.0)]), None);
    }

    #[test]
    fn the_walk_shows_each_prefix_of_the_game_once_in_order() {
        let mut game = Game::new(Rules::default());
        for m in ["e2-c2", "e4-d4", "a4-a2", "d4-d2"] {
            game.play_text(m).unwrap();
        }
        let mut seen = Vec::new();
        walk(&game, |i, g| {
            assert_eq!(g.moves().len(), i);
            assert_eq!(g.moves(), &game.moves()[..i]);
            assert_eq!(g.position(), prefix(&game, i).position());
            seen.push(i);
        });
        assert_eq!(seen, [0, 1, 2, 3, 4]);
        assert_eq!(prefix(&game, 4).position(), game.position());
    }

    #[test]
    fn evaluations_of_a_game_are_deterministic_at_a_fixed_depth() {
        let mut game = Game::new(Rules::default());
        for m in ["e2-c2", "e4-d4", "a4-a2"] {
            game.play_text(m).unwrap();
        }
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mut s = Searcher::new(1, Weights::DEFAULT);
        let a = evaluate_game(&mut s, &game, &limits);
        let b = evaluate_game(&mut Searcher::new(1, Weights::DEFAULT), &game, &limits);
        assert_eq!(a, b);
        assert_eq!(a.len(), 4);
        assert!(a.iter().all(|e| e.is_some()));
        let r = review(&game, &a, DEFAULT_SCALE);
        assert_eq!(r.curve.len(), 4);
        assert_eq!(r.moves.len(), 3);
        assert!(r.curve.iter().all(|p| (0.0..=1.0).contains(p)));
    }
}
