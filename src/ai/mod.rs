//! The AI: search and evaluation over the rules engine. Pure CPU and synchronous: the bot runs
//! it on a blocking thread.
//!
//! - [`choose_move`]: the move the AI plays at a [`Level`] within a time.
//! - [`analyze`]: full-strength analysis with explicit [`Limits`].

pub mod analysis;
pub mod eval;
pub mod pool;
pub mod puzzle;
pub mod queue;
pub mod search;
pub mod threats;
pub mod tt;

pub use eval::Weights;
pub use search::{Found, Searcher, Stop, MATE, MATE_BOUND};

use crate::tafl::{Game, Move};
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How strongly the AI plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Plausible moves with human-like mistakes: it sees one move ahead and the king's threats,
    /// and picks among the good-looking moves, not always the best.
    Easy,
    /// A short full-width search.
    Medium,
    /// Full strength within its time.
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level '{}' (easy, medium or hard)", crate::echo::echo(.0))]
pub struct LevelError(pub String);

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| LevelError(s.to_string()))
    }
}

/// Explicit limits for [`analyze`]: the search stops at the first one reached. With none, it
/// searches to [`DEFAULT_DEPTH`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

/// The depth [`analyze`] searches to when given no limit.
pub const DEFAULT_DEPTH: u32 = 5;
/// The deepest `medium` searches.
pub const MEDIUM_DEPTH: u32 = 3;
/// The depth `easy` looks ahead: its own move and the king's threats after it.
pub const EASY_DEPTH: i32 = 1;
/// The default time for `hard`.
pub const DEFAULT_HARD_TIME: Duration = Duration::from_secs(2);

/// A search's answer. `score` is from the side to move's view, in centi-soldiers; a forced win
/// in n plies is `MATE - n` (see [`MATE`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

thread_local! {
    /// The searcher `choose_move` keeps per thread, so its table carries over between moves.
    static PLAYER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

fn result(found: Found, started: Instant) -> SearchResult {
    SearchResult {
        best: found.best,
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        time_ms: started.elapsed().as_millis() as u64,
        pv: found.pv,
    }
}

/// The stop conditions for a timed search: the hard deadline a little before `time` runs out,
/// and no new iteration once half of it is gone.
fn timed(started: Instant, time: Duration) -> Stop {
    // Leave room to unwind and answer: 2% of the time, at most 20 ms.
    let margin = (time / 50).min(Duration::from_millis(20));
    Stop {
        depth: None,
        nodes: None,
        deadline: Some(started + time.saturating_sub(margin)),
        soft: Some(time / 2),
    }
}

/// The move the AI plays at `level` within `time` (a hard deadline: never more than 5% over).
/// `None` iff the game is over or the side to move has no legal move.
pub fn choose_move(game: &Game, level: Level, time: Duration) -> Option<SearchResult> {
    let started = Instant::now();
    if game.outcome().is_over() {
        return None;
    }
    match level {
        Level::Easy => easy_move(
            &mut Searcher::new(1, Weights::DEFAULT),
            game,
            Some(timed(started, time)),
            started,
        ),
        Level::Medium | Level::Hard => PLAYER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let searcher =
                slot.get_or_insert_with(|| Searcher::new(tt::DEFAULT_MB, Weights::DEFAULT));
            choose_since(searcher, game, level, time, started)
        }),
    }
}

/// [`choose_move`] with a searcher of one's own (its table and weights): self-play gives each
/// player its own.
pub fn choose_move_with(
    searcher: &mut Searcher,
    game: &Game,
    level: Level,
    time: Duration,
) -> Option<SearchResult> {
    choose_since(searcher, game, level, time, Instant::now())
}

/// The move at `level`, with `time` counted from `started` (a pool's worker counts it from
/// when it takes the request, not from when it was queued).
pub fn choose_since(
    searcher: &mut Searcher,
    game: &Game,
    level: Level,
    time: Duration,
    started: Instant,
) -> Option<SearchResult> {
    if game.outcome().is_over() {
        return None;
    }
    let mut stop = timed(started, time);
    match level {
        Level::Easy => return easy_move(searcher, game, Some(stop), started),
        Level::Medium => stop.depth = Some(MEDIUM_DEPTH),
        Level::Hard => {}
    }
    searcher.run(game, stop).map(|f| result(f, started))
}

/// A search of `game` with explicit stop conditions and a searcher of one's own.
pub fn search_with(searcher: &mut Searcher, game: &Game, stop: Stop) -> Option<SearchResult> {
    let started = Instant::now();
    searcher.run(game, stop).map(|f| result(f, started))
}

/// Full-strength analysis with explicit limits, from a fresh table: with a depth or node limit
/// and no time limit the answer is deterministic.
pub fn analyze(game: &Game, limits: &Limits) -> Option<SearchResult> {
    analyze_with(game, limits, tt::DEFAULT_MB, Weights::DEFAULT)
}

/// [`analyze`] with a table size (MB) and weights of one's own.
pub fn analyze_with(
    game: &Game,
    limits: &Limits,
    tt_mb: usize,
    weights: Weights,
) -> Option<SearchResult> {
    let started = Instant::now();
    if game.outcome().is_over() {
        return None;
    }
    let mut stop = match limits.time {
        Some(t) => timed(started, t),
        None => Stop::default(),
    };
    stop.depth = limits.depth;
    stop.nodes = limits.nodes;
    if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
        stop.depth = Some(DEFAULT_DEPTH);
    }
    let mut searcher = Searcher::new(tt_mb, weights);
    searcher.run(game, stop).map(|f| result(f, started))
}

/// Analysis as a level plays, with a table of `tt_mb` MB: `hard` is the full search; `medium`
/// caps the depth at
/// [`MEDIUM_DEPTH`]; `easy` makes its (deterministic) pick, within the time limit if any.
pub fn analyze_at(
    game: &Game,
    level: Level,
    limits: &Limits,
    tt_mb: usize,
) -> Option<SearchResult> {
    match level {
        Level::Hard => analyze_with(game, limits, tt_mb, Weights::DEFAULT),
        Level::Medium => {
            let mut l = *limits;
            l.depth = Some(l.depth.unwrap_or(MEDIUM_DEPTH).min(MEDIUM_DEPTH));
            analyze_with(game, &l, tt_mb, Weights::DEFAULT)
        }
        Level::Easy => {
            let started = Instant::now();
            easy_move(
                &mut Searcher::new(1, Weights::DEFAULT),
                game,
                limits.time.map(|t| timed(started, t)),
                started,
            )
        }
    }
}

/// The easy level: every move scored one ply deep (with the king's threats played out), then a
/// pick among the moves that look nearly as good as the best, seeded by the position so the same
/// game always gets the same answer. It always takes a win in one, never walks into a loss it
/// can see when it has a way out, and never plays an illegal move. The searcher's table is
/// cleared first, so the pick does not depend on what it searched before.
fn easy_move(
    searcher: &mut Searcher,
    game: &Game,
    stop: Option<Stop>,
    started: Instant,
) -> Option<SearchResult> {
    if game.outcome().is_over() {
        return None;
    }
    searcher.clear();
    let mut scored = searcher.score_moves(game, EASY_DEPTH, stop.unwrap_or_default());
    if scored.is_empty() {
        // Out of time before the first move was scored: the first legal move in text order.
        let mv = *game.position().legal_moves_sorted().first()?;
        scored.push((mv, 0));
    }
    // Text order first, so the pick depends on the position alone.
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.to_string().cmp(&b.0.to_string())));
    let best = scored[0].1;
    let seed = game.position().hash() ^ (game.moves().len() as u64).wrapping_mul(0x9E37_79B9);
    let mut rng = fastrand::Rng::with_seed(seed);
    // Now and then it looks less carefully and settles for a worse move.
    let margin = if best.abs() > MATE_BOUND {
        0
    } else if rng.u32(0..4) == 0 {
        160
    } else {
        60
    };
    let floor = best - margin;
    let candidates: Vec<(Move, i32)> = scored
        .iter()
        .copied()
        .filter(|&(_, s)| s >= floor && (s > -MATE_BOUND || best <= -MATE_BOUND))
        .collect();
    let weights: Vec<u64> = candidates
        .iter()
        .map(|&(_, s)| {
            let d = (s - floor + 10) as u64;
            d * d
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut r = rng.u64(0..total.max(1));
    let mut pick = candidates[0];
    for (c, w) in candidates.iter().zip(&weights) {
        if r < *w {
            pick = *c;
            break;
        }
        r -= w;
    }
    Some(SearchResult {
        best: pick.0,
        score: pick.1,
        depth: EASY_DEPTH as u32,
        nodes: searcher.nodes(),
        time_ms: started.elapsed().as_millis() as u64,
        pv: vec![pick.0],
    })
}
