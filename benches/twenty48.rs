//! Benchmarks of the 2048 rules: `cargo bench --bench twenty48`.
//!
//! Over a fixed set of 1024 mid-game positions (seeded games played with a
//! corner strategy, sampled every 15 moves):
//!
//! - `twenty48/slide`: each position slid in all four directions, no spawn
//!   (the table lookups, the gain and the no-op check), the move of a search
//!   engine (`scripts/slide-vs-nneonneo.sh` sets the same beside
//!   nneonneo/2048-ai's engine);
//! - `twenty48/slide_first_move`: each position slid in its first legal
//!   direction, which varies from one position to the next (the branch on
//!   the direction is not predictable, as in `play`);
//! - `twenty48/play`: each position's first legal move played in full
//!   (slide, generator, spawn), what one `POST …/actions` asks of the rules;
//! - `twenty48/legal_moves`: the four-direction legality check of a view;
//! - `twenty48/code_round_trip`: code → position → code;
//! - `twenty48/baseline_xorshift`: one xorshift64 step per element, a same-run
//!   yardstick for "a trivial u64 operation".
//!
//! Throughput is reported per element (one move, one position); every
//! benchmark asserts its result, so a wrong engine fails the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qipan_rules::twenty48::{Direction, Position};

const POSITIONS: usize = 1024;

/// Down, left, right, up: the first legal one.
fn corner_move(pos: &Position) -> Option<Direction> {
    let legal = pos.legal_actions();
    [
        Direction::Down,
        Direction::Left,
        Direction::Right,
        Direction::Up,
    ]
    .into_iter()
    .find(|d| legal.contains(d))
}

fn mid_game_positions() -> Vec<Position> {
    let mut out = Vec::with_capacity(POSITIONS);
    let mut seed = 0;
    while out.len() < POSITIONS {
        let mut pos = Position::new(seed);
        let mut moves = 0;
        while let Some(d) = corner_move(&pos) {
            pos = pos.play_traced(d).expect("a legal move").0;
            moves += 1;
            if moves >= 30
                && moves % 15 == 0
                && out.len() < POSITIONS
                && !pos.legal_actions().is_empty()
            {
                out.push(pos);
            }
        }
        seed += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let positions = mid_game_positions();
    let n = positions.len() as u64;
    let tiles: usize = positions
        .iter()
        .map(|p| p.grid().iter().flatten().filter(|&&v| v != 0).count())
        .sum();
    let max = positions.iter().map(Position::max_tile).max().unwrap_or(0);
    println!(
        "{n} positions, {:.1} tiles on average, largest tile {max}",
        tiles as f64 / n as f64
    );
    let slides: u64 = positions
        .iter()
        .map(|p| {
            Direction::ALL
                .iter()
                .filter(|&&d| p.slide(d).is_some())
                .count() as u64
        })
        .sum();
    let first_moves: Vec<Direction> = positions
        .iter()
        .map(|p| corner_move(p).expect("sampled positions still have a move"))
        .collect();
    let codes: Vec<String> = positions.iter().map(Position::to_code).collect();

    let mut group = c.benchmark_group("twenty48");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));

    group.throughput(Throughput::Elements(4 * n));
    group.bench_function("slide", |b| {
        b.iter(|| {
            let mut changed = 0;
            for p in black_box(&positions) {
                for d in Direction::ALL {
                    if let Some((next, gained)) = p.slide(d) {
                        black_box((next, gained));
                        changed += 1;
                    }
                }
            }
            assert_eq!(changed, slides);
            changed
        })
    });

    group.throughput(Throughput::Elements(n));
    group.bench_function("play", |b| {
        b.iter(|| {
            let mut spawned = 0u64;
            for (p, &d) in black_box(&positions).iter().zip(&first_moves) {
                let (next, slide) = p.play_traced(d).expect("a legal move");
                black_box(next);
                spawned += u64::from(slide.spawn.value);
            }
            assert!(spawned >= 2 * n && spawned <= 4 * n);
            spawned
        })
    });

    group.bench_function("slide_first_move", |b| {
        b.iter(|| {
            let mut gained = 0u64;
            for (p, &d) in black_box(&positions).iter().zip(&first_moves) {
                let (next, g) = p.slide(d).expect("a legal move");
                black_box(next);
                gained += g;
            }
            gained
        })
    });

    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let total: u64 = black_box(&positions)
                .iter()
                .map(|p| p.legal_actions().len() as u64)
                .sum();
            assert_eq!(total, slides);
            total
        })
    });

    group.bench_function("code_round_trip", |b| {
        b.iter(|| {
            for code in black_box(&codes) {
                let pos = Position::from_code(code).expect("a valid code");
                assert_eq!(&pos.to_code(), code);
            }
        })
    });

    group.throughput(Throughput::Elements(4 * n));
    group.bench_function("baseline_xorshift", |b| {
        b.iter(|| {
            let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
            let mut acc = 0u64;
            for _ in 0..4 * n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                acc = acc.wrapping_add(black_box(x));
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
