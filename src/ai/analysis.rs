//! Post-game analysis, pure: every position of a game searched at a bounded cost, each move
//! judged by the expected score it gave away, and each side's accuracy.
//!
//! - A search's score (centi-soldiers, from the side to move) becomes an expected score by the
//!   logistic curve `1 / (1 + exp(-score / scale))`; [`DEFAULT_SCALE`] was fitted by maximum
//!   likelihood on self-play outcomes ([`fit_scale`], `tablut-bot fit-scale`). A forced win or
//!   loss found by the search, and a position the rules have decided, is 1 or 0 (a draw ½).
//! - A move's loss is the mover's expected score before it less the one after it (never
//!   below 0; 0 when the move is the one the search chose). A loss of at least 0.1 is an
//!   inaccuracy, 0.2 a mistake, 0.3 a blunder (lichess's thresholds, on the same 0–1 scale),
//!   judged on the loss rounded to a whole percentage point, the figure the bot shows, so a
//!   label never contradicts its percentage.
//! - Forced results weigh more than the curve (lichess's `MateAdvice`): a move after which the
//!   search finds the mover lost by force, from a position it did not find lost, is a blunder
//!   whatever the loss (a mistake when the mover's expected score before it was under
//!   [`LOST_MISTAKE`], an inaccuracy under [`LOST_INACCURACY`]: the game was all but gone); a
//!   move that lets a forced win go is a blunder (a mistake when the mover's expected score
//!   after it stays above [`WON_MISTAKE`], an inaccuracy above [`WON_INACCURACY`]). A forced win
//!   or loss is a score beyond [`MATE_BOUND`] (the search's `MATE − plies`), or a position the
//!   rules decided.
//! - A move's accuracy is lichess's curve of the loss in percentage points,
//!   `103.1668 · exp(−0.04354 · loss) − 3.1669`, clamped to 0–100 (and exactly 100 for no loss);
//!   a side's accuracy is the mean over its moves.

use super::{search_with, Limits, SearchResult, Searcher, Stop, MATE_BOUND};
use crate::tafl::{Call, Game, Move, Outcome, RecordedMove, Side};
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

/// Below these expected scores, a position a move turns into a forced loss was all but lost
/// already: the move is only a mistake, or an inaccuracy (lichess's −700 and −999 centipawns
/// on its winning-chances curve).
pub const LOST_MISTAKE: f64 = 0.07;
pub const LOST_INACCURACY: f64 = 0.025;
/// Above these expected scores after it, a move that lets a forced win go still keeps the game
/// all but won: only a mistake, or an inaccuracy (lichess's 700 and 999 centipawns).
pub const WON_MISTAKE: f64 = 0.93;
pub const WON_INACCURACY: f64 = 0.975;

/// An expected-score loss as the whole percentage the bot shows (`0.196` is 20).
pub fn percent(loss: f64) -> u32 {
    (loss.clamp(0.0, 1.0) * 100.0).round() as u32
}

/// How a move changed a forced result the search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Forced {
    /// The mover was not lost by force before the move and is after it.
    LossAllowed,
    /// The mover had a forced win before the move and has none after it.
    WinMissed,
}

impl Forced {
    /// The judgement of a move that did this: `before` and `after` are the mover's expected
    /// scores.
    pub fn judgement(self, before: f64, after: f64) -> Judgement {
        match self {
            Forced::LossAllowed if before < LOST_INACCURACY => Judgement::Inaccuracy,
            Forced::LossAllowed if before < LOST_MISTAKE => Judgement::Mistake,
            Forced::WinMissed if after > WON_INACCURACY => Judgement::Inaccuracy,
            Forced::WinMissed if after > WON_MISTAKE => Judgement::Mistake,
            _ => Judgement::Blunder,
        }
    }
}

/// How a move is judged.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Judgement {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement of an expected-score loss, rounded to the whole percentage shown.
    pub fn of_loss(loss: f64) -> Judgement {
        // k/100 is the double nearest the thresholds' literals for whole k.
        let loss = f64::from(percent(loss)) / 100.0;
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

    /// The name in the command-line tools' JSON: `good`, `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
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
    /// The forced result the move allowed or let go, when it did.
    pub forced: Option<Forced>,
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
    /// A side's moves with a judgement worse than good, the worst judged first, then the
    /// costliest, at most `n`.
    pub fn worst(&self, side: Side, n: usize) -> Vec<&MoveReview> {
        let mut out: Vec<&MoveReview> = self
            .moves
            .iter()
            .filter(|m| m.side == side && m.judgement > Judgement::Good)
            .collect();
        out.sort_by(|a, b| {
            b.judgement
                .cmp(&a.judgement)
                .then(b.loss.total_cmp(&a.loss))
                .then(a.ply.cmp(&b.ply))
        });
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
    let seen = positions_seen(game, evals, scale);
    let curve: Vec<f64> = seen
        .iter()
        .map(|p| match p.turn {
            Side::Attackers => p.own,
            Side::Defenders => 1.0 - p.own,
        })
        .collect();
    let mut moves = Vec::with_capacity(game.moves().len());
    let mut calls = Vec::new();
    let mut sums = [0.0; 2];
    let mut counts = [0usize; 2];
    for (i, m) in game.moves().iter().enumerate() {
        let judged = judge_move(i, m, &seen, evals);
        if let Some(call) = m.call {
            calls.push((judged.ply, call));
        }
        let s = side_index(m.side);
        sums[s] += judged.accuracy;
        counts[s] += 1;
        moves.push(judged);
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

/// What a review reads off one position of a game.
struct Seen {
    /// The side to move.
    turn: Side,
    /// That side's expected score.
    own: f64,
    /// Whether that side wins (true) or loses (false) by force, when it does either.
    forced: Option<bool>,
}

/// Each position of `game` as a review reads it: decided ones from the rules, the others from
/// their evaluations (`evals[i]`, after `i` moves) with the logistic `scale`.
///
/// # Panics
/// If an undecided position has no evaluation.
fn positions_seen(game: &Game, evals: &[Option<Evaluation>], scale: f64) -> Vec<Seen> {
    let mut seen = Vec::with_capacity(evals.len());
    walk(game, |i, g| {
        let (own, forced) = match (g.outcome(), &evals[i]) {
            (o, _) if o.is_over() => (decided(o, g.turn()), o.winner().map(|w| w == g.turn())),
            (_, Some(e)) => (
                expected(e.score, scale),
                (e.score.abs() > MATE_BOUND).then_some(e.score > 0),
            ),
            (_, None) => panic!("an undecided position without an evaluation"),
        };
        seen.push(Seen {
            turn: g.turn(),
            own,
            forced,
        });
    });
    seen
}

/// The game's move `i` (`m`, played from position `i`) judged from the positions before and
/// after it: its loss, the forced result it allowed or let go, its judgement and accuracy, and,
/// when it gave something away, the search's preferred move and the opponent's best answer.
fn judge_move(
    i: usize,
    m: &RecordedMove,
    seen: &[Seen],
    evals: &[Option<Evaluation>],
) -> MoveReview {
    let before = seen[i].own;
    // The mover's expected score after the move: the opponent's, turned round.
    let next = &seen[i + 1];
    let (after, forced_after) = match next.turn == m.side {
        true => (next.own, next.forced),
        false => (1.0 - next.own, next.forced.map(|w| !w)),
    };
    let best = evals[i].map(|e| e.best);
    let chosen = best == Some(m.mv);
    let loss = if chosen {
        0.0
    } else {
        (before - after).max(0.0)
    };
    let forced_change = match (seen[i].forced, forced_after) {
        _ if chosen => None,
        (Some(false), _) => None,
        (_, Some(false)) => Some(Forced::LossAllowed),
        (Some(true), None) => Some(Forced::WinMissed),
        _ => None,
    };
    let judgement = Judgement::of_loss(loss)
        .max(forced_change.map_or(Judgement::Good, |f| f.judgement(before, after)));
    let gave = judgement > Judgement::Good;
    MoveReview {
        ply: i as u32 + 1,
        side: m.side,
        played: m.to_string(),
        mv: m.mv,
        before,
        after,
        loss,
        judgement,
        forced: forced_change,
        accuracy: move_accuracy(loss),
        better: best.filter(|_| gave),
        refutation: evals[i + 1].map(|e| e.best).filter(|_| gave),
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
        assert_eq!(Judgement::of_loss(0.094), Judgement::Good);
        assert_eq!(Judgement::of_loss(0.1), Judgement::Inaccuracy);
        assert_eq!(Judgement::of_loss(0.2), Judgement::Mistake);
        // Judged on the whole percentage shown: 19.6% is shown as 20%, a mistake's figure.
        for loss in [0.0951, 0.1996, 0.2951, 0.1, 0.14999, 0.25] {
            let shown = percent(loss);
            let want = match shown {
                0..=9 => Judgement::Good,
                10..=19 => Judgement::Inaccuracy,
                20..=29 => Judgement::Mistake,
                _ => Judgement::Blunder,
            };
            assert_eq!(Judgement::of_loss(loss), want, "{loss} shown as {shown}%");
        }
        assert_eq!(percent(0.1996), 20);
        assert_eq!(Judgement::of_loss(0.1996), Judgement::Mistake);
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

    /// `moves` played from `record` (`turn` to move), each position searched at depth 3, and
    /// reviewed.
    fn reviewed(record: &str, turn: Side, moves: &[&str]) -> Review {
        let start = crate::tafl::parse_position(record, turn, Rules::default()).unwrap();
        let mut game = Game::from_position(start);
        for m in moves {
            game.play_text(m).unwrap();
        }
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let evals = evaluate_game(&mut Searcher::new(1, Weights::DEFAULT), &game, &limits);
        review(&game, &evals, DEFAULT_SCALE)
    }

    /// The king on d8 sees the edge at a8; the attackers are behind (the search gives them
    /// about 13%) but can still shut the line. a3-a1 does not, and d8-a8 wins at once.
    const KING_SEES_A8: &str = "/3t1t3/2tTt4/t3T4/2T2T2t/tt5Tt/t3T1t2/2T1T2t1/3Kt4/3t1t3/";

    #[test]
    fn a_move_that_lets_the_king_escape_at_once_is_a_blunder_whatever_the_loss() {
        let r = reviewed(KING_SEES_A8, Side::Attackers, &["a3-a1", "d8-a8"]);
        assert_eq!(r.outcome.winner(), Some(Side::Defenders));
        let m = &r.moves[0];
        // Playable before (not lost by force, and not all but lost), lost by force after, and
        // the curve alone gives away less than a blunder's 30%.
        assert!(m.before > LOST_MISTAKE && m.before < BLUNDER, "{m:?}");
        assert_eq!(m.after, 0.0, "{m:?}");
        assert!(Judgement::of_loss(m.loss) < Judgement::Blunder, "{m:?}");
        assert_eq!(m.forced, Some(Forced::LossAllowed), "{m:?}");
        assert_eq!(m.judgement, Judgement::Blunder, "{m:?}");
        assert_eq!(
            m.refutation.map(|r| r.to_string()).as_deref(),
            Some("d8-a8")
        );
        assert!(m.better.is_some_and(|b| b != m.mv));
        // The escape itself is the search's move: good, and no forced result changed hands.
        assert_eq!(r.moves[1].judgement, Judgement::Good);
        assert_eq!(r.moves[1].forced, None);
        assert_eq!(r.worst(Side::Attackers, 3)[0].ply, 1);
    }

    /// The king on e4 can reach e1, on the edge, at once (the search's move); c6-c4 lets that
    /// win go, though the defenders stay well ahead.
    const KING_SEES_E1: &str = "/9/2tT1t3/t1T3t2/4K2t1/tt1T4t/tTT5t/7T1/4t4/3ttt3/";

    #[test]
    fn a_move_that_lets_a_forced_win_go_is_a_blunder_whatever_the_loss() {
        let r = reviewed(KING_SEES_E1, Side::Defenders, &["c6-c4"]);
        let m = &r.moves[0];
        assert_eq!(m.before, 1.0, "{m:?}");
        assert!(m.after > 1.0 - BLUNDER && m.after < WON_MISTAKE, "{m:?}");
        assert!(Judgement::of_loss(m.loss) < Judgement::Blunder, "{m:?}");
        assert_eq!(m.forced, Some(Forced::WinMissed), "{m:?}");
        assert_eq!(m.judgement, Judgement::Blunder, "{m:?}");
        assert_eq!(m.better.map(|b| b.to_string()).as_deref(), Some("e4-e1"));
    }

    #[test]
    fn forced_results_are_graded_as_lichess_grades_mates() {
        use Forced::*;
        assert_eq!(LossAllowed.judgement(0.15, 0.0), Judgement::Blunder);
        assert_eq!(LossAllowed.judgement(0.05, 0.0), Judgement::Mistake);
        assert_eq!(LossAllowed.judgement(0.01, 0.0), Judgement::Inaccuracy);
        assert_eq!(WinMissed.judgement(1.0, 0.8), Judgement::Blunder);
        assert_eq!(WinMissed.judgement(1.0, 0.95), Judgement::Mistake);
        assert_eq!(WinMissed.judgement(1.0, 0.99), Judgement::Inaccuracy);
    }
}
