//! Search speed of the xiangqi engine: `cargo bench -p qipan-engine --bench xiangqi`.
//!
//! Each benchmark runs `analyse` with a fixed node budget, so the work is
//! the same on every machine and the throughput is nodes per second:
//!
//! - `xiangqi_search/start`: the starting position;
//! - `xiangqi_search/middlegame`: a central cannon against screen horses,
//!   eight plies in;
//! - `xiangqi_search/endgame`: a chariot against a horse, advisors and
//!   elephants.
//!
//! Every run checks that the node count is the one a node budget gives
//! (the search is deterministic) and that the first move is legal. The
//! same searches, once each, are `examples/xiangqi_nodes.rs`, to count
//! instructions under callgrind.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use qipan_engine::xiangqi::analyse;
use qipan_engine::Limits;
use qipan_rules::xiangqi::{Counters, Fen, History, Move, Position};

const NODES: u64 = 100_000;

fn positions() -> [(&'static str, History); 3] {
    let moves: Vec<Move> = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 b7a7"
        .split(' ')
        .map(|m| m.parse().expect("a move"))
        .collect();
    let middle =
        History::with_moves(Position::start(), Counters::default(), &moves).expect("legal moves");
    let end: Fen = "3akab2/9/4b4/6n2/9/9/9/9/4A4/2R1K4 b - - 0 1"
        .parse()
        .expect("a valid FEN");
    [
        (
            "start",
            History::new(Position::start(), Counters::default()),
        ),
        ("middlegame", middle),
        ("endgame", History::from(end)),
    ]
}

fn xiangqi(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi_search");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .sample_size(10);
    for (name, game) in positions() {
        let first = analyse(&game, &Limits::nodes(NODES), 1);
        group.throughput(Throughput::Elements(first.nodes));
        group.bench_with_input(BenchmarkId::from_parameter(name), &game, |b, game| {
            b.iter(|| {
                let a = analyse(black_box(game), &Limits::nodes(NODES), 1);
                assert_eq!(a.nodes, first.nodes);
                assert!(game.position().is_legal(*a.best().expect("a move")));
                a
            })
        });
    }
    group.finish();
}

criterion_group!(benches, xiangqi);
criterion_main!(benches);
