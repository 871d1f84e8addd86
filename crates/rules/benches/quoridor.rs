//! Benchmarks of the quoridor rules: `cargo bench -p qipan-rules --bench quoridor`.
//!
//! - `quoridor/legal_actions/{start,crowded}`: every legal action, with the
//!   path check for each wall that cuts a current shortest path (the wall
//!   list of a state view);
//! - `quoridor/count_legal_actions/crowded`: the same without building the
//!   list (what perft leaves do);
//! - `quoridor/try_every_wall/crowded`: each of the 128 walls played through
//!   `try_play`, which searches both paths for every wall that neither
//!   overlaps nor crosses — the naive generator, as a yardstick for the
//!   path-slot shortcut;
//! - `quoridor/decode_legal_encode/crowded`: code → position → legal actions
//!   and shortest paths → code, the rules' share of a state view;
//! - `quoridor/perft2/crowded`: 79 positions' legal actions.
//!
//! The crowded position is `crowded-winding` of
//! `crates/rules/tests/data/quoridor/quoridor.perft` (14 walls, 3 left each,
//! both shortest paths 12 steps, so many walls touch a path), whose counts
//! were checked against an independent reference generator. Every benchmark
//! asserts its result, so a wrong generator fails the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use qipan_rules::quoridor::{Action, Player, Position, Wall};
use qipan_rules::Game;

/// `crowded-winding` of the perft data: f2 / e9, 14 walls, player 1 to move.
const CROWDED: &str = "DkwzABKACQIhQAKEAAIAQAAAAA";
/// Its legal actions and perft 2, from the data file.
const CROWDED_LEGAL: usize = 79;
const CROWDED_PERFT2: u64 = 6121;

fn quoridor(c: &mut Criterion) {
    let crowded = Position::from_code(CROWDED).expect("a valid code");
    assert_eq!(crowded.walls().len(), 14);
    assert_eq!(crowded.shortest_path(Player::One), Some(12));
    assert_eq!(crowded.shortest_path(Player::Two), Some(12));
    let crowded_walls = crowded
        .legal_actions()
        .iter()
        .filter(|a| matches!(a, Action::Wall(_)))
        .count();
    let start = Position::start();

    let mut group = c.benchmark_group("quoridor");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, pos, n) in [("start", &start, 131), ("crowded", &crowded, CROWDED_LEGAL)] {
        group.bench_with_input(BenchmarkId::new("legal_actions", name), pos, |b, pos| {
            b.iter(|| {
                let actions = black_box(pos).legal_actions();
                assert_eq!(actions.len(), n);
                actions
            })
        });
    }
    group.bench_function(BenchmarkId::new("count_legal_actions", "crowded"), |b| {
        b.iter(|| {
            let n = black_box(&crowded).count_legal_actions();
            assert_eq!(n, CROWDED_LEGAL);
            n
        })
    });
    group.bench_function(BenchmarkId::new("try_every_wall", "crowded"), |b| {
        b.iter(|| {
            let pos = black_box(&crowded);
            let n = Wall::all()
                .filter(|&w| pos.play(Action::Wall(w)).is_ok())
                .count();
            assert_eq!(n, crowded_walls);
            n
        })
    });
    group.bench_function(BenchmarkId::new("decode_legal_encode", "crowded"), |b| {
        b.iter(|| {
            let pos = Position::from_code(black_box(CROWDED)).expect("a valid code");
            let actions = pos.legal_actions();
            let paths = Player::ALL.map(|p| pos.shortest_path(p));
            assert_eq!(actions.len(), CROWDED_LEGAL);
            assert_eq!(paths, [Some(12), Some(12)]);
            assert_eq!(pos.to_code(), CROWDED);
            actions.len()
        })
    });
    group.bench_function(BenchmarkId::new("perft2", "crowded"), |b| {
        b.iter(|| {
            let n = black_box(&crowded).perft(2);
            assert_eq!(n, CROWDED_PERFT2);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, quoridor);
criterion_main!(benches);
