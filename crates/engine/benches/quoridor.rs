//! Search speed of the quoridor engine: `cargo bench -p qipan-engine --bench quoridor`.
//!
//! `analyse` with a fixed node budget, so the throughput is nodes per
//! second: `quoridor_search/start` (the start position) and
//! `quoridor_search/crowded` (`crowded-winding` of the rules crate's perft
//! data: 14 walls, 3 left each, both paths 12 steps). Every run checks the
//! node count a node budget gives and that the first move is legal.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use qipan_engine::quoridor::analyse;
use qipan_engine::Limits;
use qipan_rules::quoridor::Position;

const NODES: u64 = 20_000;
const CROWDED: &str = "DkwzABKACQIhQAKEAAIAQAAAAA";

fn quoridor(c: &mut Criterion) {
    let crowded = Position::from_code(CROWDED).expect("a valid code");
    let mut group = c.benchmark_group("quoridor_search");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6))
        .sample_size(10);
    for (name, pos) in [("start", Position::start()), ("crowded", crowded)] {
        let first = analyse(&pos, &Limits::nodes(NODES), 1);
        group.throughput(Throughput::Elements(first.nodes));
        group.bench_with_input(BenchmarkId::from_parameter(name), &pos, |b, pos| {
            b.iter(|| {
                let a = analyse(black_box(pos), &Limits::nodes(NODES), 1);
                assert_eq!(a.nodes, first.nodes);
                assert!(pos.play(*a.best().expect("a move")).is_ok());
                a
            })
        });
    }
    group.finish();
}

criterion_group!(benches, quoridor);
criterion_main!(benches);
