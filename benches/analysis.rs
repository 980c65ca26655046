//! Post-game analysis benchmarks: the analysis of a 100-ply game at the bot's default settings
//! (goal: within 60 s of one core), and the evaluation graph's render time and size.
//!
//! The game: the first 100 plies of a game the AI played against itself at `medium` (depth 3,
//! deterministic) from two seeded opening plies, the first seed whose game lasts that long. Its
//! analysis searches each position for `DEFAULT_MS_PER_PLY` on one thread, as one AI worker
//! does; it is timed once (wall clock and the thread's CPU time), since one run takes tens of
//! seconds. The graph of that analysis is then timed by criterion.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tablut_bot::ai::analysis::{self, Review};
use tablut_bot::ai::{analyze_at, Level, Limits, Searcher, Weights};
use tablut_bot::render::graph::evaluation_graph;
use tablut_bot::service::analysis::graph_input;
use tablut_bot::service::{graph_labels, DEFAULT_AI_TT_MB};
use tablut_bot::tafl::{Game, Rules};

const PLIES: usize = 100;

fn hundred_ply_game() -> Game {
    for seed in 1..1000u64 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut g = Game::new(Rules::default());
        for _ in 0..2 {
            let moves = g.position().legal_moves_sorted();
            g.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        while !g.outcome().is_over() && g.moves().len() < PLIES {
            let found = analyze_at(&g, Level::Medium, &limits, 4).unwrap();
            g.play(found.best).unwrap();
        }
        if g.moves().len() == PLIES && !g.outcome().is_over() {
            return g;
        }
    }
    panic!("no seed played on to {PLIES} plies");
}

/// The calling thread's CPU time.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The 100-ply game's analysis at the default settings, timed once.
fn reviewed() -> &'static (Game, Review) {
    static REVIEWED: OnceLock<(Game, Review)> = OnceLock::new();
    REVIEWED.get_or_init(|| {
        let game = hundred_ply_game();
        let limits = analysis::limits_per_ply(Duration::from_millis(analysis::DEFAULT_MS_PER_PLY));
        let mut searcher = Searcher::new(DEFAULT_AI_TT_MB, Weights::DEFAULT);
        let (wall, cpu) = (Instant::now(), thread_cpu());
        let evals = analysis::evaluate_game(&mut searcher, &game, &limits);
        let (wall, cpu) = (wall.elapsed(), thread_cpu() - cpu);
        let searched: Vec<_> = evals.iter().flatten().collect();
        let depth: f64 =
            searched.iter().map(|e| f64::from(e.depth)).sum::<f64>() / searched.len() as f64;
        let nodes: u64 = searched.iter().map(|e| e.nodes).sum();
        println!(
            "analysis of a {PLIES}-ply game, {} ms per position: {:.1} s wall, {:.1} s CPU of one \
             thread; {} positions searched, mean depth {depth:.1}, {:.1} M nodes",
            analysis::DEFAULT_MS_PER_PLY,
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            searched.len(),
            nodes as f64 / 1e6
        );
        let review = analysis::review(&game, &evals, analysis::DEFAULT_SCALE);
        (game, review)
    })
}

fn bench_graph(c: &mut Criterion) {
    let (game, review) = reviewed();
    let input = graph_input(
        review,
        format!(
            "Game #1 · {} plies · the AI against itself",
            game.moves().len()
        ),
        graph_labels(Some(tablut_bot::bot::messages::caption)),
    );
    let png = evaluation_graph(&input).png;
    let decoded = image::load_from_memory(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (1200, 600));
    println!(
        "evaluation graph of {PLIES} plies: {:.1} KB ({} marks, {} calls)",
        png.len() as f64 / 1024.0,
        input.marks.len(),
        input.calls.len()
    );
    let mut group = c.benchmark_group("analysis");
    group.bench_function("graph 100 plies", |b| {
        b.iter(|| evaluation_graph(black_box(&input)))
    });
    group.finish();
}

criterion_group!(benches, bench_graph);
criterion_main!(benches);
