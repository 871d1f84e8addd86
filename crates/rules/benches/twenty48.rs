//! Benchmarks of the 2048 rules: `cargo bench -p qipan-rules --bench twenty48`.
//!
//! Over a fixed set of 1024 mid-game positions (seeded games played with a
//! corner strategy, sampled every 15 moves):
//!
//! - `twenty48/slide`: each position slid in all four directions, no spawn
//!   (the table lookups, the gain and the no-op check), the move of a search
//!   engine;
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
//!
//! Then `twenty48/nneonneo` sets our slide beside nneonneo/2048-ai's
//! `execute_move`, the best-known 2048 engine, on the same positions in the
//! same run. It needs their engine built into a timing program, which
//! `perf/scripts/build-nneonneo.sh` does under /tmp from a git directory of their
//! repository (this repository carries none of their code); name it in
//! `QIPAN_NNEONNEO`:
//!
//! ```text
//! QIPAN_NNEONNEO=$(bash perf/scripts/build-nneonneo.sh DIR | tail -n 1) \
//!     RUSTFLAGS='-C target-cpu=native' cargo bench -p qipan-rules --bench twenty48
//! ```
//!
//! (the program is built with `-march=native`, hence the flag for ours).
//! The bench writes the positions' boards to a file, runs the program on
//! them ([`NNEONNEO_ROUNDS`] times, alternating with ours) and prints each
//! side's moves per second and the ratio ours/theirs, the median of the
//! rounds' ratios, for the two workloads of `perf/scripts/slide-vs-nneonneo.sh`:
//! `tight`, every position's four moves over and over (throughput), and
//! `chain`, each move's result the next move's board (latency). Both sides
//! print checks of their results, which must agree. Each run of either side
//! is a process of its own (ours, this bench binary started again with
//! [`OURS_RUN`] set): where a process's tables land in the caches varies
//! from one process to the next and weighs on its speed for as long as it
//! lives, so each round draws that afresh for both sides. Without
//! `QIPAN_NNEONNEO` it says how to get the program and goes on.

use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
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

    versus_nneonneo(&positions);
}

/// Runs of each side in `twenty48/nneonneo`: a round's ratio strays by a
/// tenth now and then on a shared machine (the other process scheduled
/// on the same core, a frequency step), which the median of 15 rides out
/// where that of 7 did not always.
const NNEONNEO_ROUNDS: usize = 15;
/// Tight passes over the positions per run, four moves a position.
const NNEONNEO_PASSES: u64 = 4000;
/// Chain moves per run.
const NNEONNEO_CHAIN: u64 = 10_000_000;
/// Moves of one chain segment, as in `crates/rules/examples/slide_bench.rs`.
const SEGMENT: u32 = 8;

/// `twenty48/nneonneo`, see the module documentation.
fn versus_nneonneo(positions: &[Position]) {
    let Some(driver) = std::env::var_os("QIPAN_NNEONNEO") else {
        println!(
            "twenty48/nneonneo: not run. Set QIPAN_NNEONNEO to the program \
             `bash perf/scripts/build-nneonneo.sh DIR` prints (DIR: a git directory of \
             nneonneo/2048-ai) to set their execute_move beside our slide here."
        );
        return;
    };
    // Their engine holds no tile past 32768 (`packed` checks) and merges
    // two 32768s into 32768: no two may meet, which tiles that add up to
    // less than 65536 ensure.
    for p in positions {
        let sum: u32 = p.grid().iter().flatten().sum();
        assert!(
            sum < 1 << 16,
            "tiles adding up to {sum}: two 32768s could meet"
        );
    }
    let boards: Vec<u64> = positions.iter().map(packed).collect();
    let file = std::env::temp_dir().join(format!("qipan-twenty48-{}.txt", std::process::id()));
    let text: String = boards.iter().map(|b| format!("{b:016x}\n")).collect();
    std::fs::write(&file, text).expect("the temporary directory is writable");

    // The checks both sides print: the sum of the boards one tight pass
    // makes (the board itself after a no-op), and the chain's last board
    // and no-ops.
    let check = positions
        .iter()
        .flat_map(|p| Direction::ALL.map(|d| p.slide(d).map_or(packed(p), |(n, _)| packed(&n))))
        .fold(0u64, u64::wrapping_add);
    let (last, restarts) = chain(positions, NNEONNEO_CHAIN);
    let ours_checks = (
        format!("{check:016x}"),
        format!("{:016x} {restarts}", packed(&last)),
    );

    let mut rounds = Vec::with_capacity(NNEONNEO_ROUNDS);
    for round in 0..NNEONNEO_ROUNDS {
        // Alternate which goes first, so that neither always runs on a
        // machine the other has just warmed.
        let (theirs, ours) = if round % 2 == 0 {
            let theirs = run_nneonneo(Path::new(&driver), &file);
            (theirs, run_ours_apart())
        } else {
            let ours = run_ours_apart();
            (run_nneonneo(Path::new(&driver), &file), ours)
        };
        assert_eq!(
            theirs.checks, ours_checks,
            "nneonneo's execute_move and ours disagree on these boards"
        );
        rounds.push((ours, theirs.speeds));
    }
    let _ = std::fs::remove_file(&file);

    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "twenty48/nneonneo ({}): {} positions, {NNEONNEO_ROUNDS} rounds; \
         M moves/s ours, theirs, ours/theirs (median of the rounds' ratios)",
        Path::new(&driver).display(),
        positions.len()
    );
    for (i, workload) in ["tight", "chain"].into_iter().enumerate() {
        let ours = median(rounds.iter().map(|(o, _)| o[i]).collect());
        let theirs = median(rounds.iter().map(|(_, t)| t[i]).collect());
        let ratio = median(rounds.iter().map(|(o, t)| o[i] / t[i]).collect());
        println!("  {workload:<6} {ours:>8.1} {theirs:>8.1} {ratio:>6.2}");
    }
}

/// What one run of nneonneo's side printed: moves per second of `tight`
/// and `chain`, and the checks.
struct TheirRun {
    speeds: [f64; 2],
    checks: (String, String),
}

fn run_nneonneo(driver: &Path, boards: &Path) -> TheirRun {
    let out = Command::new(driver)
        .arg(boards)
        .arg(NNEONNEO_PASSES.to_string())
        .arg(NNEONNEO_CHAIN.to_string())
        .output()
        .unwrap_or_else(|e| panic!("QIPAN_NNEONNEO={}: {e}", driver.display()));
    assert!(
        out.status.success(),
        "QIPAN_NNEONNEO={} failed: {}",
        driver.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // `tight <M/s> check=<hex>` and `chain <M/s> final=<hex> restarts=<n>`.
    let line = |name: &str| -> Vec<&str> {
        text.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.first() == Some(&name))
            .unwrap_or_else(|| panic!("no `{name}` line in the driver's output: {text}"))
    };
    let value = |w: &[&str], i: usize, key: &str| -> String {
        w.get(i)
            .and_then(|v| v.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in the driver's output: {text}"))
            .to_string()
    };
    let speed = |w: &[&str]| -> f64 {
        w.get(1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no speed in the driver's output: {text}"))
    };
    let (tight, chain) = (line("tight"), line("chain"));
    TheirRun {
        speeds: [speed(&tight), speed(&chain)],
        checks: (
            value(&tight, 2, "check="),
            format!(
                "{} {}",
                value(&chain, 2, "final="),
                value(&chain, 3, "restarts=")
            ),
        ),
    }
}

/// Set in the environment of a run of our side: the bench binary then
/// times ours on [`mid_game_positions`], prints the two speeds and exits.
const OURS_RUN: &str = "QIPAN_TWENTY48_OURS_RUN";

/// [`run_ours`] in a process of its own, see the module documentation.
fn run_ours_apart() -> [f64; 2] {
    let me = std::env::current_exe().expect("the bench binary's path");
    let out = Command::new(&me)
        .env(OURS_RUN, "1")
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", me.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "a run of ours failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let speeds: Vec<f64> = text
        .split_whitespace()
        .map(|w| w.parse().expect("a speed"))
        .collect();
    speeds
        .try_into()
        .unwrap_or_else(|_| panic!("not two speeds from a run of ours: {text}"))
}

/// Moves per second (millions) of our `tight` and `chain`, timed as the
/// driver times theirs: one untimed pass, then the timed ones.
fn run_ours(positions: &[Position]) -> [f64; 2] {
    black_box(tight_pass(black_box(positions)));
    let start = Instant::now();
    let mut consumed = 0u64;
    for _ in 0..NNEONNEO_PASSES {
        let (sum, noops) = tight_pass(black_box(positions));
        consumed = consumed.wrapping_add(sum ^ noops);
    }
    let tight =
        (NNEONNEO_PASSES * 4 * positions.len() as u64) as f64 / start.elapsed().as_secs_f64();
    black_box(consumed);

    let start = Instant::now();
    black_box(chain(black_box(positions), black_box(NNEONNEO_CHAIN)));
    let chain = NNEONNEO_CHAIN as f64 / start.elapsed().as_secs_f64();
    [tight / 1e6, chain / 1e6]
}

/// A hasher that adds up what it is fed: takes in a whole position (board,
/// score, generator state) in a few additions.
struct Sum(u64);

impl Hasher for Sum {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.wrapping_add(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = self.0.wrapping_add(x);
    }
}

/// One pass of `tight`: every position's four moves (through
/// `Position::each_slide`, where the driver writes their four
/// `execute_move` calls out), each result consumed (the new position hashed
/// in, or the no-op counted), as the driver consumes theirs.
#[inline(never)]
fn tight_pass(positions: &[Position]) -> (u64, u64) {
    let mut sum = Sum(0);
    let mut noops = 0u64;
    let mut consume = |next: Option<(Position, u64)>| match next {
        Some((next, _)) => next.hash(&mut sum),
        None => noops += 1,
    };
    for p in positions {
        // The four moves of a position, as a search expands it.
        p.each_slide(|_, next| consume(next));
    }
    (sum.0, noops)
}

/// `chain`: each move's result is the next move's board, directions
/// cycling up, down, left, right; after [`SEGMENT`] moves, or a move that
/// changes nothing, it goes on from the next position. The last position
/// and the number of no-ops.
#[inline(never)]
fn chain(positions: &[Position], moves: u64) -> (Position, u64) {
    let mut pos = positions[0];
    let mut next = 1 % positions.len();
    let mut restarts = 0;
    let mut left = SEGMENT;
    for i in 0..moves {
        let slid = pos.slide(Direction::ALL[(i & 3) as usize]);
        left -= 1;
        match slid {
            Some((p, _)) if left != 0 => pos = p,
            _ => {
                restarts += u64::from(slid.is_none());
                pos = positions[next];
                next = (next + 1) % positions.len();
                left = SEGMENT;
            }
        }
    }
    (pos, restarts)
}

/// The board of `pos` as both engines write it: the exponent of the tile at
/// row `r`, column `c` in bits `16r + 4c ..` (0 = empty). Every tile of the
/// bench's positions is at most 32768, which four bits hold.
fn packed(pos: &Position) -> u64 {
    let mut b = 0;
    for (r, row) in pos.grid().iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            assert!(
                v <= 1 << 15,
                "a tile of {v}, which nneonneo's engine cannot hold"
            );
            let e = if v == 0 {
                0
            } else {
                u64::from(v.trailing_zeros())
            };
            b |= e << (16 * r + 4 * c);
        }
    }
    b
}

criterion_group!(benches, bench);

/// `criterion_main!`, but a run of our side (see [`run_ours_apart`]) only
/// times ours.
fn main() {
    if std::env::var_os(OURS_RUN).is_some() {
        let [tight, chain] = run_ours(&mid_game_positions());
        println!("{tight} {chain}");
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
