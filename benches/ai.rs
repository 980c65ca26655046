//! AI benchmarks: nodes per second and time to a depth from fixed positions (the start, an
//! early middle game, a sharp king race), and the hard level's reply time.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use tablut_bot::ai::{self, Level, Limits};
use tablut_bot::tafl::{parse_position, Game, Rules, Side};

const MIDDLE: &str = "e2-c2 e4-b4 e1-e2 e5-e4 i4-h4 e4-c4 h4-e4 f5-f4 f9-f5 e6-f6";
const RACE: &str = "/5t3/2T6/t1K1T2t1/1T7/ttT5t/t2t5/4T4/4t4/3tt4/";

fn positions() -> Vec<(&'static str, Game)> {
    let mut middle = Game::new(Rules::default());
    for m in MIDDLE.split(' ') {
        middle.play_text(m).unwrap();
    }
    let race =
        Game::from_position(parse_position(RACE, Side::Attackers, Rules::default()).unwrap());
    vec![
        ("start", Game::new(Rules::default())),
        ("middle", middle),
        ("race", race),
    ]
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn bench_nodes_per_second(c: &mut Criterion) {
    const NODES: u64 = 1_000_000;
    let mut group = c.benchmark_group("ai nodes per second");
    group.sample_size(10);
    group.throughput(Throughput::Elements(NODES));
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    for (name, game) in positions() {
        group.bench_function(name, |b| {
            b.iter(|| {
                let r = ai::analyze(black_box(&game), &limits).unwrap();
                assert!(r.nodes == NODES || r.depth >= 40, "{} nodes", r.nodes);
                r
            })
        });
    }
    group.finish();
}

fn bench_time_to_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai time to depth");
    group.sample_size(10);
    let games = positions();
    for d in [4, 6] {
        for (name, game) in &games {
            group.bench_function(format!("{name} depth {d}"), |b| {
                b.iter(|| ai::analyze(black_box(game), &depth(d)).unwrap())
            });
        }
    }
    group.finish();
}

fn bench_hard_reply(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai hard reply");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(25));
    let (_, start) = &positions()[0];
    group.bench_function("start 2 s", |b| {
        b.iter(|| ai::choose_move(black_box(start), Level::Hard, Duration::from_secs(2)).unwrap())
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_nodes_per_second,
    bench_time_to_depth,
    bench_hard_reply
);
criterion_main!(benches);
