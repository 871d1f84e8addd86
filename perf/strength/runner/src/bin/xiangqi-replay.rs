//! Where a game went wrong: for every position of a game (ICCS moves, red
//! first), qipan's score, depth and move beside a UCCI engine's, both for
//! the side to move, at the same time per move.
//!
//!   xiangqi-replay --engine /tmp/eleeye/eleeye.bin --ms 300 --moves "h2e2 h9g7 ..." [--from 20]

use std::time::Duration;

use qipan_engine::xiangqi;
use qipan_engine::Limits;
use qipan_rules::xiangqi::{Counters, History, Position};
use qipan_strength::{arg, Ucci};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = arg(&args, "--engine", "/tmp/eleeye/eleeye.bin");
    let ms: u64 = arg(&args, "--ms", "300").parse().expect("--ms");
    let from: usize = arg(&args, "--from", "0").parse().expect("--from");
    let line = arg(&args, "--moves", "");
    let moves: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    let start_fen = Position::start().to_fen();
    let mut them = Ucci::start(&engine);
    let mut game = History::new(Position::start(), Counters::default());
    for (ply, m) in moves.iter().enumerate() {
        if ply >= from {
            let a = xiangqi::analyse(&game, &Limits::time(Duration::from_millis(ms)), 1);
            let (ours, pv) = a
                .lines
                .first()
                .map(|l| {
                    let pv: Vec<String> = l.pv.iter().take(6).map(|m| m.to_string()).collect();
                    (l.score.to_string(), pv.join(" "))
                })
                .unwrap_or_default();
            let (s, d, best) = them.think(&start_fen, &moves[..ply], ms);
            println!(
                "{ply:3} {:5} played {m}  qipan {ours:>9} d{:2} {pv:30}  eleeye {:>6} d{:2} {best}",
                game.position().turn().as_str(),
                a.depth,
                s.map_or("?".to_owned(), |s| s.to_string()),
                d.unwrap_or(0),
            );
        }
        if game.push(m.parse().expect("ICCS")).is_err() {
            println!("{ply}: {m} is not legal");
            return;
        }
    }
}
