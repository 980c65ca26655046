//! Board image benchmarks: one board PNG, and the replay of a 100-ply game.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tablut_bot::render::{board_png, replay_gif};
use tablut_bot::tafl::Rules;

#[path = "../tests/render_support/mod.rs"]
mod support;

fn bench_board(c: &mut Criterion) {
    let game = support::long_game(Rules::default(), 40);
    let position = *game.position();
    let last = *game.moves().last().expect("the game has moves");
    let caption = "Move 21 · Astrid (attackers) to play";
    // The sprites are drawn once, at first use; the figure is for every board after that.
    let png = board_png(&position, Some(&last), Some(caption));
    eprintln!("board PNG: {} bytes", png.len());
    c.bench_function("board png", |b| {
        b.iter(|| board_png(black_box(&position), Some(&last), Some(caption)))
    });
}

fn bench_replay(c: &mut Criterion) {
    let game = support::long_game(Rules::default(), 100);
    let gif = replay_gif(&game);
    eprintln!(
        "replay GIF of {} plies: {} bytes",
        game.moves().len(),
        gif.len()
    );
    let mut group = c.benchmark_group("replay");
    group.sample_size(20);
    group.bench_function("gif 100 plies", |b| b.iter(|| replay_gif(black_box(&game))));
    group.finish();
}

criterion_group!(benches, bench_board, bench_replay);
criterion_main!(benches);
