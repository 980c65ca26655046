//! Rules engine benchmarks: perft, move generation, parsing and formatting.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tablut_bot::tafl::perft::perft;
use tablut_bot::tafl::{parse_move, Game, MoveList, Position, Rules, Variant};

/// A game of `plies` moves chosen by a fixed-seed generator.
fn seeded_game(plies: usize) -> Game {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut g = Game::new(Rules::default());
    for _ in 0..plies {
        if g.outcome().is_over() {
            break;
        }
        let moves = g.position().legal_moves_sorted();
        g.play(moves[rng.usize(..moves.len())]).unwrap();
    }
    g
}

/// A handful of positions: the start, an opening, a middle game.
fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("start", Position::start(Rules::default())),
        ("opening", *seeded_game(10).position()),
        ("middle", *seeded_game(30).position()),
    ]
}

fn bench_perft(c: &mut Criterion) {
    let start = Position::start(Rules::default());
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(19_913_864));
    group.bench_function("depth 4", |b| b.iter(|| perft(black_box(&start), 4)));
    group.throughput(Throughput::Elements(1_611_674_360));
    group.bench_function("depth 5", |b| b.iter(|| perft(black_box(&start), 5)));
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, pos) in positions() {
        group.bench_function(format!("legal_moves {name}"), |b| {
            let mut list = MoveList::new();
            b.iter(|| {
                black_box(&pos).legal_moves(&mut list);
                list.len()
            })
        });
        group.bench_function(format!("count_legal_moves {name}"), |b| {
            b.iter(|| black_box(&pos).count_legal_moves())
        });
        group.bench_function(format!("make_in_place and unmake every move {name}"), |b| {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut p = pos;
            b.iter(|| {
                let mut acc = 0;
                for &m in list.iter() {
                    let undo = p.make_in_place(black_box(m));
                    acc ^= p.hash();
                    p.unmake(m, undo);
                }
                acc
            })
        });
        group.bench_function(format!("make every move {name}"), |b| {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            b.iter(|| {
                list.iter()
                    .map(|&m| black_box(&pos).make(m).0.hash())
                    .fold(0, |a, h| a ^ h)
            })
        });
    }
    group.finish();
}

fn bench_notation(c: &mut Criterion) {
    let (_, pos) = positions()[1];
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    let mut group = c.benchmark_group("notation");
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function("parse every legal move", |b| {
        b.iter(|| {
            texts
                .iter()
                .filter(|t| parse_move(black_box(&pos), t).is_ok())
                .count()
        })
    });
    group.bench_function("format every legal move", |b| {
        b.iter(|| list.iter().map(|m| m.to_string().len()).sum::<usize>())
    });
    let game = seeded_game(30);
    let texts: Vec<String> = game.moves().iter().map(|m| m.mv.to_string()).collect();
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function(format!("play and record a {}-ply game", texts.len()), |b| {
        b.iter(|| {
            let mut g = Game::new(Rules::default());
            for m in &texts {
                g.play_text(m).unwrap();
            }
            g.record().len()
        })
    });
    group.finish();
}

/// Brandubh's and Copenhagen's perft, and their move generation in a middle game.
fn bench_variants(c: &mut Criterion) {
    let mut group = c.benchmark_group("variants");
    group.sample_size(10);
    let brandubh = Position::start_of(Variant::Brandubh);
    group.throughput(Throughput::Elements(41_843_336));
    group.bench_function("brandubh perft 5", |b| {
        b.iter(|| perft(black_box(&brandubh), 5))
    });
    let copenhagen = Position::start_of(Variant::Copenhagen);
    group.throughput(Throughput::Elements(50_456_804));
    group.bench_function("copenhagen perft 4", |b| {
        b.iter(|| perft(black_box(&copenhagen), 4))
    });
    for variant in [Variant::Brandubh, Variant::Copenhagen] {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut g = Game::new(variant.rules());
        for _ in 0..20 {
            let moves = g.position().legal_moves_sorted();
            if g.outcome().is_over() || moves.is_empty() {
                break;
            }
            g.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        let pos = *g.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function(format!("{variant} make every move (middle game)"), |b| {
            b.iter(|| {
                list.iter()
                    .map(|&m| black_box(&pos).make(m).0.hash())
                    .fold(0, |a, h| a ^ h)
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_movegen,
    bench_notation,
    bench_variants
);
criterion_main!(benches);
