//! Benchmarks of the Tetris rules: `cargo bench -p qipan-rules --bench tetris`.
//!
//! - `tetris/placements/empty_T`: every placement of a T on an empty field
//!   (34, with a shortest action sequence each), the bot's move generator;
//! - `tetris/placements/messy_T`: the same on a ragged ten-row stack with
//!   holes and overhangs, where kicks and tucks open more places;
//! - `tetris/placements/messy_all`: the seven pieces on that stack in turn;
//! - `tetris/hard_drop`: one `hard` from the messy stack (lock, clears,
//!   the next piece dealt), what one `POST …/actions` asks of the rules;
//! - `tetris/code_round_trip`: code → position → code on the messy stack.
//!
//! Every benchmark asserts its result, so a wrong generator fails the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use qipan_rules::tetris::{Action, Kind, Position, Setup};

/// The stack of the rules tests' `MESSY` board.
const MESSY: [&str; 10] = [
    "..........",
    "X.........",
    "XX.....XX.",
    "XX.X...XX.",
    "X..X..XXX.",
    "XX.XX.XXXX",
    "X.XXXX.XXX",
    "XX..XXXXX.",
    "X.XXXXX.XX",
    "XXXX.XXXXX",
];

/// Placements of each kind (I, O, T, S, Z, J, L) on [`MESSY`], counts the
/// rules test `placements_agree_with_a_plain_search_and_their_actions_reach_them`
/// confirms with its plain search through `play_traced`. T's one beyond
/// the 34 of an empty field is a mini T-spin against the right wall, the
/// same cells as a plain drop there.
const MESSY_COUNTS: [usize; 7] = [17, 9, 35, 17, 17, 34, 34];

fn position(rows: &[&str], kind: Kind) -> Position {
    let setup = Setup {
        rows: rows.iter().map(|r| (*r).to_owned()).collect(),
        piece: kind,
        queue: Vec::new(),
        hold: None,
        seed: 1,
        score: 0,
        lines: 0,
        level: None,
    };
    Position::from_setup(&setup).expect("a valid setup")
}

fn tetris(c: &mut Criterion) {
    let empty = position(&[], Kind::T);
    assert_eq!(empty.placements().len(), 34);
    let messy: Vec<Position> = Kind::ALL.iter().map(|&k| position(&MESSY, k)).collect();
    let counts: Vec<usize> = messy.iter().map(|p| p.placements().len()).collect();
    assert_eq!(counts, MESSY_COUNTS);
    let messy_t = messy[2].clone();
    let code = messy_t.to_code();

    let mut group = c.benchmark_group("tetris");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("placements/empty_T", |b| {
        b.iter(|| black_box(&empty).placements().len())
    });
    group.bench_function("placements/messy_T", |b| {
        b.iter(|| black_box(&messy_t).placements().len())
    });
    group.bench_function("placements/messy_all", |b| {
        b.iter(|| {
            black_box(&messy)
                .iter()
                .map(|p| p.placements().len())
                .sum::<usize>()
        })
    });
    group.bench_function("hard_drop", |b| {
        b.iter(|| {
            black_box(&messy_t)
                .play_traced(Action::Hard)
                .expect("hard is legal")
                .1
                .map(|s| s.lines)
        })
    });
    group.bench_function("code_round_trip", |b| {
        b.iter(|| {
            let pos = Position::from_code(black_box(&code)).expect("a valid code");
            pos.to_code().len()
        })
    });
    group.finish();
}

criterion_group!(benches, tetris);
criterion_main!(benches);
