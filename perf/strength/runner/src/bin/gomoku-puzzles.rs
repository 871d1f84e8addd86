//! The VCF puzzles of crates/engine/tests/data/gomoku-vcf.txt, one line
//! each: the score the engine reports, the nodes it spent, and the time.
//! The test `every_vcf_puzzle_is_solved` checks the lines; this prints the
//! figures for docs/strength.md.
//!
//! ```text
//! gomoku-puzzles [nodes]
//! ```

use qipan_engine::gomoku::analyse;
use qipan_engine::Limits;
use qipan_rules::gomoku::{Position, Variant};

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .map_or(1_000_000, |s| s.parse().expect("a node budget"));
    let text = include_str!("../../../../../crates/engine/tests/data/gomoku-vcf.txt");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut id = String::new();
    let mut solved = 0;
    let mut total = 0;
    while let Some(l) = lines.next() {
        if let Some(v) = l.strip_prefix("id ") {
            id = v.to_owned();
        } else if l == "rows" {
            let board: Vec<&str> = lines.by_ref().take(15).collect();
            let pos =
                Position::from_rows(Variant::Renju, &board.join("\n")).expect("a valid puzzle");
            let a = analyse(&pos, &Limits::nodes(nodes), 1);
            let line = a.lines.first().expect("a line");
            total += 1;
            if matches!(line.score, qipan_engine::gomoku::Score::Win(_)) {
                solved += 1;
            }
            println!(
                "{id:<18} {} {:<12} {:>8} nodes {:>9.1} ms  first move {}",
                pos.turn(),
                line.score,
                a.nodes,
                a.elapsed.as_secs_f64() * 1000.0,
                line.pv[0]
            );
        }
    }
    println!("{solved} of {total} solved within {nodes} nodes each");
}
