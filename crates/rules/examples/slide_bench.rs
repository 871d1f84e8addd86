//! Slide throughput of the 2048 engine, our half of
//! `perf/scripts/slide-vs-nneonneo.sh` (the other half is
//! `perf/scripts/nneonneo-driver.cpp`, built around nneonneo/2048-ai's
//! `execute_move` by `perf/scripts/build-nneonneo.sh`).
//!
//! ```text
//! slide_bench positions COUNT SEED > boards.txt
//! slide_bench run boards.txt PASSES CHAIN
//! ```
//!
//! `positions` writes COUNT mid-game boards, one a line as 16 hex digits
//! in the layout both engines share: the exponent of the tile at row `r`,
//! column `c` in bits `16r + 4c .. 16r + 4c + 4` (0 = empty). They come from
//! games seeded SEED, SEED + 1, … and played by a corner strategy (down,
//! left, right, up: the first that changes the board), one board every
//! seventh move after the tenth. Such games rarely pass 1024, so every
//! second board is lifted: each exponent raised by the same random amount,
//! which keeps every pair of equal neighbours (the same merges happen) and
//! brings in tiles up to 32768. A lift never brings the tile sum to 65536 or
//! more, so no sequence of slides can make 65536: nneonneo's engine, with
//! four bits a cell, cannot hold it, and both engines must agree on every
//! board for the checks below to compare.
//!
//! `run` reads such a file and times three workloads, over the same boards
//! and in the same order as the C++ half:
//!
//! - `tight`: PASSES passes over every board × the four directions (the
//!   four moves of `Position::each_slide`, as a search expands a position;
//!   the C++ half writes its four `execute_move` calls out), every result
//!   consumed: the new position (board, score, generator state, through its
//!   `Hash`) or the no-op;
//! - `gains`: the same, and the score each move gains summed as well (the
//!   position carries its score in a form a slide leaves alone, so `tight`
//!   does not ask for the gain; this one does, as a search that adds up
//!   scores would). The C++ half has no gain to sum and runs only `tight`;
//! - `chain`: CHAIN moves where each move's result is the next move's board,
//!   directions cycling up, down, left, right; after eight moves, or a move
//!   that changes nothing, the chain goes on from the next board of the file
//!   (without spawns a board soon settles into a cycle of four slides that
//!   never ends, and the chain would measure that one cycle).
//!
//! It prints one line per workload: `tight <moves/s> check=<hex>`, where
//! the check is the wrapping sum over one pass of the resulting boards (the
//! board itself after a no-op), `gains <moves/s> sum=<n>` with the gains of
//! one pass, and `chain <moves/s> final=<hex> restarts=<n>` with the last
//! board and the number of no-ops. The two halves print the same checks
//! when they slide alike.

use std::hash::{Hash, Hasher};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use qipan_rules::rng::SplitMix64;
use qipan_rules::twenty48::{Direction, Position, Setup};

/// Down, left, right, up: the first that changes the board.
fn corner_move(pos: &Position) -> Option<Direction> {
    [
        Direction::Down,
        Direction::Left,
        Direction::Right,
        Direction::Up,
    ]
    .into_iter()
    .find(|&d| pos.slide(d).is_some())
}

/// The board of `pos` in the shared 64-bit layout.
fn packed(pos: &Position) -> u64 {
    let mut b = 0;
    for (r, row) in pos.grid().iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            // Every tile of these boards is at most 32768 = 2^15.
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

/// The position of a packed board, with the least score its tiles allow.
fn unpacked(b: u64, seed: u64) -> Option<Position> {
    let mut board = [[0; 4]; 4];
    for (r, row) in board.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            let e = (b >> (16 * r + 4 * c)) & 0xF;
            *v = if e == 0 { 0 } else { 1 << e };
        }
    }
    Position::from_setup(&Setup {
        board,
        score: None,
        seed,
    })
    .ok()
}

/// `b` with every exponent raised by `k`.
fn lifted(b: u64, k: u64) -> u64 {
    (0..16).fold(0, |acc, cell| {
        let e = (b >> (4 * cell)) & 0xF;
        acc | (if e == 0 { 0 } else { e + k } << (4 * cell))
    })
}

fn tile_sum(b: u64) -> u64 {
    (0..16)
        .map(|cell| (b >> (4 * cell)) & 0xF)
        .filter(|&e| e != 0)
        .map(|e| 1 << e)
        .sum()
}

fn positions(count: usize, seed: u64) {
    let mut lift = SplitMix64(seed ^ 0x5EED);
    let mut written = 0;
    let mut game = seed;
    while written < count {
        let mut pos = Position::new(game);
        let mut moves = 0u32;
        while let Some(d) = corner_move(&pos) {
            pos = match pos.play(d) {
                Ok(next) => next,
                Err(_) => break,
            };
            moves += 1;
            if moves < 10 || !moves.is_multiple_of(7) || written == count {
                continue;
            }
            let mut b = packed(&pos);
            if written % 2 == 1 {
                // The largest k with (tile sum)·2^k < 2^16; the board holds
                // at least one tile.
                let room = 15u32.saturating_sub(tile_sum(b).ilog2());
                b = lifted(b, u64::from(lift.below(room + 1)));
            }
            println!("{b:016x}");
            written += 1;
        }
        game += 1;
    }
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
    fn write_u16(&mut self, x: u16) {
        self.0 = self.0.wrapping_add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.0 = self.0.wrapping_add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = self.0.wrapping_add(x);
    }
}

/// One pass of the tight workload: the sum of what the resulting
/// positions hash to, the sum of the gains if `GAINS`, and the number of
/// no-ops.
#[inline(always)]
fn pass<const GAINS: bool>(positions: &[Position]) -> (u64, u64) {
    let mut sum = Sum(0);
    let mut noops = 0u64;
    let mut consume = |next: Option<(Position, u64)>| match next {
        Some((next, gained)) => {
            next.hash(&mut sum);
            if GAINS {
                sum.write_u64(gained);
            }
        }
        None => noops += 1,
    };
    for p in positions {
        // The four moves of the position, which the C++ half writes out.
        p.each_slide(|_, next| consume(next));
    }
    (sum.0, noops)
}

/// A pass of `tight`; a function of its own, so that the script can count
/// its instructions under callgrind.
#[inline(never)]
fn tight_pass(positions: &[Position]) -> (u64, u64) {
    pass::<false>(positions)
}

/// A pass of `gains`.
#[inline(never)]
fn gains_pass(positions: &[Position]) -> (u64, u64) {
    pass::<true>(positions)
}

/// Moves per second of PASSES timed calls of `pass`, after one untimed
/// call (which brings the tables into the caches).
fn time_passes(pass: fn(&[Position]) -> (u64, u64), boards: &[Position], passes: u64) -> f64 {
    black_box(pass(black_box(boards)));
    let start = Instant::now();
    let mut consumed = 0u64;
    for _ in 0..passes {
        let (s, n) = pass(black_box(boards));
        consumed = consumed.wrapping_add(s ^ n);
    }
    let seconds = start.elapsed().as_secs_f64();
    black_box(consumed);
    (passes * 4 * boards.len() as u64) as f64 / seconds / 1e6
}

/// Moves of one chain segment, see the module documentation.
const SEGMENT: u32 = 8;

/// The chain workload: the final position and the number of no-ops.
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

fn run(path: &str, passes: u64, chain_moves: u64) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let b =
            u64::from_str_radix(line.trim(), 16).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let pos = unpacked(b, i as u64)
            .ok_or_else(|| format!("{path}:{}: {line} is not a 2048 board", i + 1))?;
        boards.push(pos);
    }
    if boards.is_empty() {
        return Err(format!("{path}: no boards"));
    }

    // The checks, outside the timing: the boards after each move and the
    // gains.
    let mut check = 0u64;
    let mut gains = 0u64;
    for p in &boards {
        for d in Direction::ALL {
            let (after, gained) = p.slide(d).unwrap_or((*p, 0));
            check = check.wrapping_add(packed(&after));
            gains += gained;
        }
    }

    println!(
        "tight {:.1} check={check:016x}",
        time_passes(tight_pass, &boards, passes)
    );
    println!(
        "gains {:.1} sum={gains}",
        time_passes(gains_pass, &boards, passes)
    );

    let start = Instant::now();
    let (last, restarts) = chain(black_box(&boards), black_box(chain_moves));
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "chain {:.1} final={:016x} restarts={restarts}",
        chain_moves as f64 / seconds / 1e6,
        packed(&last)
    );
    Ok(())
}

fn usage() -> ExitCode {
    eprintln!("usage: slide_bench positions COUNT SEED | slide_bench run FILE PASSES CHAIN");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |s: &String| s.parse::<u64>().ok();
    match args.as_slice() {
        [cmd, count, seed] if cmd == "positions" => match (num(count), num(seed)) {
            (Some(count), Some(seed)) => {
                positions(count as usize, seed);
                ExitCode::SUCCESS
            }
            _ => usage(),
        },
        [cmd, path, passes, chain] if cmd == "run" => match (num(passes), num(chain)) {
            (Some(passes), Some(chain)) => match run(path, passes, chain) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("slide_bench: {e}");
                    ExitCode::FAILURE
                }
            },
            _ => usage(),
        },
        _ => usage(),
    }
}
