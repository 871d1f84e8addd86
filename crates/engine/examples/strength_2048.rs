//! 2048 at a fixed time (or node budget) a move over seeded games: how
//! often each tile is reached, the scores, and the search's speed.
//!
//! `cargo run --release -p qipan-engine --example strength_2048 -- --games 20 --ms 20`
//! (`--nodes N` for a node budget instead, `--first-seed S`, `--max-moves M`
//! to cut games short, `--jobs J` to play J games at once).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use qipan_engine::{twenty48, Limits};
use qipan_rules::twenty48::Position;

struct Args {
    games: u64,
    ms: Option<u64>,
    nodes: Option<u64>,
    first_seed: u64,
    max_moves: u64,
    jobs: u64,
}

fn args() -> Args {
    let mut a = Args {
        games: 20,
        ms: Some(20),
        nodes: None,
        first_seed: 1,
        max_moves: u64::MAX,
        jobs: 1,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    for pair in v.chunks(2) {
        let n = pair.get(1).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        match pair[0].as_str() {
            "--games" => a.games = n,
            "--ms" => a.ms = Some(n),
            "--nodes" => {
                a.nodes = Some(n);
                a.ms = None;
            }
            "--first-seed" => a.first_seed = n,
            "--max-moves" => a.max_moves = n,
            "--jobs" => a.jobs = n.max(1),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

struct Game {
    seed: u64,
    max_tile: u32,
    score: u64,
    moves: u64,
    nodes: u64,
    spent: Duration,
    depth_sum: u64,
}

fn play(seed: u64, a: &Args) -> Game {
    let limits = Limits {
        nodes: a.nodes,
        time: a.ms.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut pos = Position::new(seed);
    let (mut moves, mut nodes, mut depth_sum) = (0, 0, 0);
    let mut spent = Duration::ZERO;
    while moves < a.max_moves {
        let started = Instant::now();
        let an = twenty48::analyse(&pos, &limits, 1);
        spent += started.elapsed();
        let Some(&d) = an.best() else { break };
        nodes += an.nodes;
        depth_sum += u64::from(an.depth);
        pos = pos.play(d).expect("the engine's move is legal");
        moves += 1;
    }
    Game {
        seed,
        max_tile: pos.max_tile(),
        score: pos.score(),
        moves,
        nodes,
        spent,
        depth_sum,
    }
}

fn main() {
    let a = args();
    let next = AtomicU64::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..a.jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.games {
                    break;
                }
                let g = play(a.first_seed + i, &a);
                println!(
                    "seed {:>3}: max tile {:>6}, score {:>7}, {:>6} moves, {:>8.0} nodes/s, mean depth {:.2}",
                    g.seed,
                    g.max_tile,
                    g.score,
                    g.moves,
                    g.nodes as f64 / g.spent.as_secs_f64().max(1e-9),
                    g.depth_sum as f64 / g.moves.max(1) as f64
                );
                done.lock().unwrap().push(g);
            });
        }
    });
    let games = done.into_inner().unwrap();
    let n = games.len() as f64;
    for tile in [2048, 4096, 8192, 16384, 32768] {
        let k = games.iter().filter(|g| g.max_tile >= tile).count();
        println!(
            "{tile:>6}: {k} of {} ({:.0}%)",
            games.len(),
            100.0 * k as f64 / n
        );
    }
    let mut scores: Vec<u64> = games.iter().map(|g| g.score).collect();
    scores.sort_unstable();
    let nodes: u64 = games.iter().map(|g| g.nodes).sum();
    let spent: f64 = games.iter().map(|g| g.spent.as_secs_f64()).sum();
    let moves: u64 = games.iter().map(|g| g.moves).sum();
    println!(
        "median score {}, mean score {:.0}; {moves} moves, {:.0} nodes/s, {:.1} ms a move",
        scores.get(scores.len() / 2).copied().unwrap_or(0),
        scores.iter().sum::<u64>() as f64 / n,
        nodes as f64 / spent.max(1e-9),
        1000.0 * spent / moves.max(1) as f64
    );
}
