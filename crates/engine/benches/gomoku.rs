//! Search speed of the gomoku engine: `cargo bench -p qipan-engine --bench gomoku`.
//!
//! Each benchmark runs `analyse` with a fixed node budget, so the work is
//! the same on every machine and the throughput is nodes per second:
//!
//! - `gomoku_search/freestyle-opening`: a free-style position of 6 stones
//!   with no forced win (mostly alpha-beta);
//! - `gomoku_search/renju-vcf-deep`: `deep-1` of tests/data/gomoku-vcf.txt
//!   (junghyun397/mintaka's test position; a 161-ply VCF, mostly threat
//!   search).
//!
//! Every run checks that the node count is the one a node budget gives
//! (the search is deterministic) and that the first move is legal.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use qipan_engine::gomoku::analyse;
use qipan_engine::Limits;
use qipan_rules::gomoku::{Point, Position, Variant};

const NODES: u64 = 100_000;

fn deep_vcf() -> Position {
    let text = include_str!("../tests/data/gomoku-vcf.txt");
    let start = text.find("id deep-1").expect("deep-1 in the data");
    let rows: Vec<&str> = text[start..]
        .lines()
        .skip_while(|l| *l != "rows")
        .skip(1)
        .take(15)
        .collect();
    Position::from_rows(Variant::Renju, &rows.join("\n")).expect("a valid board")
}

fn gomoku(c: &mut Criterion) {
    let moves: Vec<Point> = ["h8", "i9", "g9", "i7", "j8", "h7"]
        .iter()
        .map(|s| s.parse().expect("a point"))
        .collect();
    let opening = Position::from_moves(Variant::Freestyle, 15, &moves).expect("legal moves");
    let mut group = c.benchmark_group("gomoku_search");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .sample_size(10);
    for (name, pos) in [
        ("freestyle-opening", opening),
        ("renju-vcf-deep", deep_vcf()),
    ] {
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

criterion_group!(benches, gomoku);
criterion_main!(benches);
