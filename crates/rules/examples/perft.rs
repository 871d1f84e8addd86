//! Xiangqi perft from the rules crate alone, for profiling the move generator
//! without building the service:
//!
//! ```sh
//! cargo run --release -p qipan-rules --example perft -- '<FEN>' 5
//! valgrind --tool=callgrind target/release/examples/perft '<FEN>' 4
//! ```
//!
//! Prints the node count on standard output and the time on standard error,
//! as `qipan perft xiangqi` does. With `--divide`, the count under each legal
//! move comes first, one `move: count` a line.

use std::process::ExitCode;
use std::time::Instant;

use qipan_rules::xiangqi::Position;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let plain: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let [fen, depth] = plain.as_slice() else {
        eprintln!("usage: perft <FEN> <depth> [--divide]");
        return ExitCode::FAILURE;
    };
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{fen}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("{depth}: not a depth");
        return ExitCode::FAILURE;
    };
    let started = Instant::now();
    let total = if divide && depth > 0 {
        let split = pos.perft_divide(depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        println!();
        split.iter().map(|&(_, n)| n).sum()
    } else {
        pos.perft_count(depth)
    };
    println!("{total}");
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{total} nodes in {secs:.3} s ({:.1} M nodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    ExitCode::SUCCESS
}
