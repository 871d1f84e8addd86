//! The xiangqi benchmark's searches (`benches/xiangqi.rs`), once each: a
//! fixed number of nodes from the start, a middlegame and an endgame, for
//! counting instructions per node where hardware counters are not to be
//! had:
//!
//! ```text
//! cargo build --release -p qipan-engine --example xiangqi_nodes
//! valgrind --tool=callgrind --dump-instr=no target/release/examples/xiangqi_nodes 100000
//! ```
//!
//! The instruction count over the nodes printed is instructions per node
//! (the positions' setup is a few thousand instructions). The argument is
//! the node budget of each search (100,000 if none).

use std::time::Instant;

use qipan_engine::xiangqi::analyse;
use qipan_engine::Limits;
use qipan_rules::xiangqi::{Counters, Fen, History, Move, Position};

fn positions() -> Result<[(&'static str, History); 3], String> {
    let moves = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 b7a7"
        .split(' ')
        .map(|m| m.parse::<Move>().map_err(|e| format!("{m}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let middle = History::with_moves(Position::start(), Counters::default(), &moves)
        .map_err(|e| e.to_string())?;
    let end: Fen = "3akab2/9/4b4/6n2/9/9/9/9/4A4/2R1K4 b - - 0 1"
        .parse()
        .map_err(|e| format!("{e}"))?;
    Ok([
        (
            "start",
            History::new(Position::start(), Counters::default()),
        ),
        ("middlegame", middle),
        ("endgame", History::from(end)),
    ])
}

fn main() -> Result<(), String> {
    let nodes = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|e| format!("{n}: {e}"))?,
        None => 100_000,
    };
    let mut total = 0;
    let start = Instant::now();
    for (name, game) in positions()? {
        let a = analyse(&game, &Limits::nodes(nodes), 1);
        let best = a.best().map_or("none".to_owned(), Move::to_string);
        println!("{name}: depth {} nodes {} best {best}", a.depth, a.nodes);
        total += a.nodes;
    }
    let ns = start.elapsed().as_nanos() as f64 / total.max(1) as f64;
    println!("{total} nodes, {ns:.0} ns a node");
    Ok(())
}
