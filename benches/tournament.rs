//! Tournament pairings: a Swiss round of 256 players (target: at most 50 ms), after 0 and
//! after 6 seeded rounds, and every round of a 32-player round robin.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tablut_bot::tournament::{round_robin, swiss_round, MatchResult, Pairing};

/// The results of `rounds` Swiss rounds of `n` players, seeded.
fn history(n: usize, rounds: u32) -> Vec<MatchResult> {
    let mut rng = fastrand::Rng::with_seed(256);
    let mut played = Vec::new();
    for round in 1..=rounds {
        for p in swiss_round(n, &[], &played) {
            played.push(match p {
                Pairing::Bye(s) => MatchResult::bye(round, s),
                Pairing::Match { first, second } => {
                    let h = rng.u8(0..=4);
                    MatchResult::played(round, first, second, h, 4 - h)
                }
            });
        }
    }
    played
}

fn bench_pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairing");
    group.sample_size(20);
    for rounds in [0, 6] {
        let played = history(256, rounds);
        group.bench_function(format!("swiss 256 players after {rounds} rounds"), |b| {
            b.iter(|| swiss_round(256, &[], black_box(&played)))
        });
    }
    let played = history(255, 6);
    group.bench_function("swiss 255 players after 6 rounds (a bye)", |b| {
        b.iter(|| swiss_round(255, &[], black_box(&played)))
    });
    group.bench_function("round robin 32 players, every round", |b| {
        b.iter(|| round_robin(black_box(32)))
    });
    group.finish();
}

criterion_group!(benches, bench_pairing);
criterion_main!(benches);
