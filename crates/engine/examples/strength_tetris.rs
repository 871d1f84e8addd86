//! Tetris at a fixed time (or node budget) a piece over seeded 7-bag
//! games: pieces placed before a top-out (or the cap), lines and attack
//! per piece.
//!
//! `cargo run --release -p qipan-engine --example strength_tetris -- --runs 10 --pieces 10000 --ms 20`
//! (`--nodes N` for a node budget instead, `--first-seed S`, `--jobs J` to
//! play J runs at once).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use qipan_engine::{tetris, Limits};
use qipan_rules::tetris::Position;

struct Args {
    runs: u64,
    pieces: u64,
    ms: Option<u64>,
    nodes: Option<u64>,
    first_seed: u64,
    jobs: u64,
}

fn args() -> Args {
    let mut a = Args {
        runs: 10,
        pieces: 10_000,
        ms: Some(20),
        nodes: None,
        first_seed: 1,
        jobs: 1,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let n = pair.get(1).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        match pair[0].as_str() {
            "--runs" => a.runs = n,
            "--pieces" => a.pieces = n,
            "--ms" => a.ms = Some(n),
            "--nodes" => {
                a.nodes = Some(n);
                a.ms = None;
            }
            "--first-seed" => a.first_seed = n,
            "--jobs" => a.jobs = n.max(1),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

struct Run {
    seed: u64,
    pieces: u64,
    topped_out: bool,
    lines: u64,
    attack: u64,
    tetrises: u64,
    tspins: u64,
    nodes: u64,
    spent: Duration,
    max_height: usize,
}

fn height(pos: &Position) -> usize {
    (0..40u8)
        .rev()
        .find(|&r| (0..10u8).any(|c| pos.cell(c, r) == Some(true)))
        .map_or(0, |r| usize::from(r) + 1)
}

fn run(seed: u64, a: &Args) -> Run {
    let limits = Limits {
        nodes: a.nodes,
        time: a.ms.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut pos = Position::new(seed);
    let mut r = Run {
        seed,
        pieces: 0,
        topped_out: false,
        lines: 0,
        attack: 0,
        tetrises: 0,
        tspins: 0,
        nodes: 0,
        spent: Duration::ZERO,
        max_height: 0,
    };
    let mut b2b = false;
    while r.pieces < a.pieces {
        if !pos.status().is_ongoing() {
            r.topped_out = true;
            break;
        }
        let started = Instant::now();
        let an = tetris::analyse(&pos, &limits, 1);
        r.spent += started.elapsed();
        r.nodes += an.nodes;
        let Some(p) = an.best() else {
            r.topped_out = true;
            break;
        };
        for &act in &p.actions {
            let (next, lock) = pos.play_traced(act).expect("the engine's path is legal");
            pos = next;
            if let Some(lock) = lock {
                r.lines += u64::from(lock.lines);
                r.tetrises += u64::from(lock.lines == 4);
                r.tspins += u64::from(lock.tspin.is_some() && lock.lines > 0);
                r.attack += u64::from(tetris::attack(lock.lines, lock.tspin, &mut b2b));
            }
        }
        r.pieces += 1;
        r.max_height = r.max_height.max(height(&pos));
    }
    if !pos.status().is_ongoing() {
        r.topped_out = true;
    }
    r
}

fn main() {
    let a = args();
    let next = AtomicU64::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..a.jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.runs {
                    break;
                }
                let r = run(a.first_seed + i, &a);
                println!(
                    "seed {:>3}: {:>6} pieces{}, {:.3} lines/piece, {:.3} attack/piece, {} tetrises, {} T-spin clears, highest stack {}, {:.0} nodes/s",
                    r.seed,
                    r.pieces,
                    if r.topped_out { " (topped out)" } else { "" },
                    r.lines as f64 / r.pieces.max(1) as f64,
                    r.attack as f64 / r.pieces.max(1) as f64,
                    r.tetrises,
                    r.tspins,
                    r.max_height,
                    r.nodes as f64 / r.spent.as_secs_f64().max(1e-9)
                );
                done.lock().unwrap().push(r);
            });
        }
    });
    let runs = done.into_inner().unwrap();
    let survived = runs.iter().filter(|r| !r.topped_out).count();
    let pieces: u64 = runs.iter().map(|r| r.pieces).sum();
    let lines: u64 = runs.iter().map(|r| r.lines).sum();
    let attack: u64 = runs.iter().map(|r| r.attack).sum();
    let spent: f64 = runs.iter().map(|r| r.spent.as_secs_f64()).sum();
    println!(
        "{survived} of {} runs placed {} pieces without topping out; {:.3} lines/piece, {:.3} attack/piece, {:.1} ms a piece",
        runs.len(),
        a.pieces,
        lines as f64 / pieces.max(1) as f64,
        attack as f64 / pieces.max(1) as f64,
        1000.0 * spent / pieces.max(1) as f64
    );
}
