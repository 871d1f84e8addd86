//! Benchmarks of the gomoku rules: `cargo bench -p qipan-rules --bench gomoku`.
//!
//! - `renju/legal_moves/{start,crowded}`: every legal move for black, which
//!   runs the forbidden-point test on every empty point;
//! - `renju/forbidden/crowded`: the forbidden points with their reasons;
//! - `renju/decode_legal_encode/crowded`: code → position → legal moves and
//!   forbidden points → code, the rules' share of a state view;
//! - `freestyle/legal_moves/crowded`: the same board without prohibitions,
//!   for scale.
//!
//! The crowded board is case `crowded-02` of
//! `crates/rules/tests/data/gomoku/renju-forbidden.txt` (78 stones, black to
//! move, six forbidden points, checked against an independent checker).
//! Every benchmark asserts its result, so a wrong generator fails the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use qipan_rules::gomoku::{Position, Variant};

const CROWDED: &str = "\
.......oooo....
.......oo.oo...
......oooo.o...
.....xx.oo.....
...x..oo.o.....
.x.xxx..xo.....
...xxooo.......
.xxxoxxx..o....
..x.xxoxxo.....
...xxxxoxoooo..
......xxooooxx.
......x.o.oxx.x
.........oo.x.x
.............xx
............x..";

/// Forbidden points of [`CROWDED`], as the reference checker lists them.
const CROWDED_FORBIDDEN: &str =
    "f4:double-four f5:double-four b7:double-four d7:overline i8:double-four c9:overline";
const CROWDED_STONES: usize = 78;

fn forbidden_text(pos: &Position) -> String {
    pos.forbidden()
        .iter()
        .map(|(p, f)| format!("{p}:{f}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn renju(c: &mut Criterion) {
    let crowded = Position::from_rows(Variant::Renju, CROWDED).expect("a valid board");
    assert_eq!(forbidden_text(&crowded), CROWDED_FORBIDDEN);
    let crowded_legal = 225 - CROWDED_STONES - 6;
    let start = Position::new(Variant::Renju, 15).expect("renju is played on 15×15");
    let code = crowded.to_code();

    let mut group = c.benchmark_group("renju");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, pos, n) in [("start", &start, 225), ("crowded", &crowded, crowded_legal)] {
        group.bench_with_input(BenchmarkId::new("legal_moves", name), pos, |b, pos| {
            b.iter(|| {
                let moves = black_box(pos).legal_actions();
                assert_eq!(moves.len(), n);
                moves
            })
        });
    }
    group.bench_function(BenchmarkId::new("forbidden", "crowded"), |b| {
        b.iter(|| {
            let f = black_box(&crowded).forbidden();
            assert_eq!(f.len(), 6);
            f
        })
    });
    group.bench_with_input(
        BenchmarkId::new("decode_legal_encode", "crowded"),
        code.as_str(),
        |b, code| {
            b.iter(|| {
                let pos = Position::from_code(black_box(code)).expect("a valid code");
                let moves = pos.legal_actions();
                let forbidden = pos.forbidden();
                assert_eq!((moves.len(), forbidden.len()), (crowded_legal, 6));
                assert_eq!(pos.to_code(), code);
                moves.len()
            })
        },
    );
    group.finish();

    let free = Position::from_rows(Variant::Freestyle, CROWDED).expect("a valid board");
    let mut group = c.benchmark_group("freestyle");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function(BenchmarkId::new("legal_moves", "crowded"), |b| {
        b.iter(|| {
            let moves = black_box(&free).legal_actions();
            assert_eq!(moves.len(), 225 - CROWDED_STONES);
            moves
        })
    });
    group.finish();
}

criterion_group!(benches, renju);
criterion_main!(benches);
