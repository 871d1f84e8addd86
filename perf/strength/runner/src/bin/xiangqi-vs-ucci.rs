//! qipan's xiangqi engine (full strength) against a UCCI engine such as
//! ElephantEye, or a UCI one such as Fairy-Stockfish, at the same time per
//! move, from a list of common openings,
//! each played with both colours. The rules crate referees: a move it
//! refuses loses, and `History::verdict` ends the game (mate, stalemate,
//! repetition with perpetual check or chase, the move limit).
//!
//!   xiangqi-vs-ucci --engine /tmp/eleeye/eleeye.bin --ms 300 --openings 12 [--skip 0] [--moves]
//!
//! `--skip K` leaves out the first K openings (so that two runs can share a
//! match); `--moves` prints every game's moves after its result.
//! `--nodes N --their-nodes M` gives each side a node budget instead of
//! time (`go nodes M` for the UCCI engine): a match that the machine's
//! load does not change, for comparing two versions of the engine.
//! `--keep-table` plays each game with one `xiangqi::Engine`, which keeps
//! its transposition table from move to move (as ElephantEye keeps its
//! hash table); without it every move is a fresh `xiangqi::analyse`, as
//! the service's are.
//!
//! `--protocol uci --variant xiangqi --option "Use NNUE=false"` speaks UCI
//! (Fairy-Stockfish): `UCI_Variant` set to the variant, each `--option
//! name=value` set after it, `go movetime MS` (or `go nodes M`), moves
//! written with ranks 1–10.

use std::time::{Duration, Instant};

use qipan_engine::xiangqi;
use qipan_engine::Limits;
use qipan_rules::xiangqi::{Counters, History, Position, Side};
use qipan_rules::Status;
use qipan_strength::{arg, Protocol, SeesDraw, Tally, Ucci};

/// Common openings (ICCS, red first): the central cannon against the
/// screen horses, the same- and opposite-direction cannons, the pawn,
/// elephant and horse openings, and others. The first 12 are the match of
/// docs/strength.md; the next 12 widen it.
const OPENINGS: [(&str, &str); 24] = [
    (
        "central cannon v screen horses",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9",
    ),
    ("same-direction cannons", "h2e2 h7e7 h0g2 h9g7"),
    ("opposite-direction cannons", "h2e2 b7e7 h0g2 b9c7"),
    ("pawn opening", "g3g4 c6c5 h0g2 h9g7"),
    ("elephant opening", "c0e2 h9g7 h0g2 g6g5"),
    ("horse opening", "b0c2 h9g7 g3g4 b9c7"),
    ("palace-crossing cannon", "h2d2 h9g7 h0g2 i9h9"),
    ("corner cannon", "b2d2 b9c7 b0c2 a9b9"),
    ("central cannon v single horse", "h2e2 b9a7 h0g2 h9g7"),
    (
        "river-crossing chariot",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 h0h6 g6g5",
    ),
    ("pawn v bottom cannon", "g3g4 h7g7 h2e2 h9i7"),
    ("pawns facing", "c3c4 c6c5 b0c2 b9c7"),
    (
        "central cannon v reversed palace horse",
        "h2e2 b9c7 h0g2 h7f7 i0h0 h9g7",
    ),
    ("elephant v left central cannon", "c0e2 b7e7 b0c2 b9c7"),
    (
        "same-direction cannons, horizontal chariot",
        "h2e2 h7e7 h0g2 h9g7 i0i1 i9h9",
    ),
    (
        "central cannon v screen horses, left horse at the river",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 c3c4 g6g5 b0c2 g7f5",
    ),
    (
        "chariot at the river v screen horses",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 h0h4 g6g5",
    ),
    ("horse opening v pawn", "b0c2 g6g5 g3g4 h9g7"),
    ("edge horse", "b0a2 h9g7 g3g4 b9c7"),
    (
        "central cannon v three-step tiger",
        "h2e2 b9c7 h0g2 b7a7 i0h0 a9b9",
    ),
    (
        "five-seven cannons v screen horses",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 b2c2 c6c5",
    ),
    (
        "five-six cannons v screen horses",
        "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 b2d2 a9b9",
    ),
    (
        "cannon at the palace corner v central cannon",
        "b2d2 h7e7 h0g2 h9g7",
    ),
    ("central cannon v elephant", "h2e2 c9e7 h0g2 h9g7"),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = arg(&args, "--engine", "/tmp/eleeye/eleeye.bin");
    let ms: u64 = arg(&args, "--ms", "300").parse().expect("--ms");
    let nodes: u64 = arg(&args, "--nodes", "0").parse().expect("--nodes");
    let their_nodes: u64 = arg(&args, "--their-nodes", "0")
        .parse()
        .expect("--their-nodes");
    let limits = if nodes > 0 {
        Limits::nodes(nodes)
    } else {
        Limits::time(Duration::from_millis(ms))
    };
    let protocol = match arg(&args, "--protocol", "ucci").as_str() {
        "ucci" => Protocol::Ucci,
        "uci" => Protocol::Uci {
            variant: arg(&args, "--variant", "xiangqi"),
            options: args
                .windows(2)
                .filter(|w| w[0] == "--option")
                .map(|w| match w[1].split_once('=') {
                    Some((name, value)) => (name.trim().to_owned(), value.trim().to_owned()),
                    None => panic!("--option {}: expected name=value", w[1]),
                })
                .collect(),
        },
        other => panic!("--protocol {other}: expected ucci or uci"),
    };
    let go = if their_nodes > 0 {
        format!("go nodes {their_nodes}")
    } else {
        protocol.go_time(ms)
    };
    let openings: usize = arg(&args, "--openings", "12").parse().expect("--openings");
    let max_plies: usize = arg(&args, "--max-plies", "400")
        .parse()
        .expect("--max-plies");
    let skip: usize = arg(&args, "--skip", "0").parse().expect("--skip");
    let verbose = args.iter().any(|a| a == "--moves");
    let keep_table = args.iter().any(|a| a == "--keep-table");
    let start_fen = Position::start().to_fen();
    let mut tally = Tally::default();
    let (mut our_nodes, mut our_time, mut our_depth, mut our_moves) = (0u64, 0f64, 0u64, 0u64);
    let (mut their_depth, mut their_moves, mut their_shallow) = (0u64, 0u64, 0u64);
    for (g, (name, line)) in OPENINGS.iter().enumerate().skip(skip).take(openings) {
        for ours in Side::ALL {
            let mut game = History::new(Position::start(), Counters::default());
            for m in line.split_whitespace() {
                game.push(m.parse().expect("ICCS"))
                    .unwrap_or_else(|e| panic!("opening {name}: {e}"));
            }
            let mut them = Ucci::start_with(&engine, protocol.clone());
            let mut ours_kept = keep_table.then(xiangqi::Engine::new);
            let (result, why) = loop {
                match game.verdict() {
                    Status::Won { winner, reason } => {
                        break (if winner == ours { 1 } else { -1 }, format!("{reason:?}"));
                    }
                    Status::Drawn { reason } | Status::Over { reason } => {
                        break (0, format!("{reason:?}"));
                    }
                    Status::Ongoing => {}
                }
                if game.moves().len() >= max_plies {
                    break (0, "ply cap".to_owned());
                }
                let mover = game.position().turn();
                let m = if mover == ours {
                    let t = Instant::now();
                    let a = match ours_kept.as_mut() {
                        Some(e) => e.analyse(&game, &limits, 1),
                        None => xiangqi::analyse(&game, &limits, 1),
                    };
                    our_time += t.elapsed().as_secs_f64();
                    our_nodes += a.nodes;
                    our_depth += u64::from(a.depth);
                    our_moves += 1;
                    a.best().copied()
                } else {
                    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
                    let reply = them.play(&start_fen, &moves, &go);
                    their_depth += u64::from(them.last_depth);
                    their_moves += 1;
                    their_shallow += u64::from(them.last_depth <= 3);
                    match reply {
                        Ok(m) => m,
                        // The rules crate says the game goes on: ask again
                        // from the bare position, so that ElephantEye's own
                        // repetition rule does not end it; the rules crate
                        // still judges repetition on the whole game. (UCI
                        // has no `nobestmove`.)
                        Err(SeesDraw) => match them.play(&game.position().to_fen(), &[], &go) {
                            Ok(m) => m,
                            Err(SeesDraw) => break (0, "the engine sees a draw".to_owned()),
                        },
                    }
                };
                match m.map(|m| game.push(m)) {
                    Some(Ok(())) => {}
                    _ => {
                        let r = if mover == ours { -1 } else { 1 };
                        break (r, format!("no legal move from {mover}"));
                    }
                }
            };
            match result {
                1 => tally.wins += 1,
                0 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            println!(
                "game {:2} {:32} qipan {:5}: {:4} ({why}) after {} plies",
                2 * g + usize::from(ours == Side::Black) + 1,
                name,
                ours.as_str(),
                ["loss", "draw", "win"][(result + 1) as usize],
                game.moves().len(),
            );
            if verbose {
                let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
                println!("    {}", moves.join(" "));
            }
        }
    }
    println!("{}", tally.report());
    if our_moves > 0 {
        println!(
            "qipan: {} moves, mean depth {:.1}, {:.0} nodes/s",
            our_moves,
            our_depth as f64 / our_moves as f64,
            our_nodes as f64 / our_time
        );
    }
    if their_moves > 0 {
        println!(
            "them: {} moves, mean depth {:.1} (of their last info line), {} moves at depth 3 or less",
            their_moves,
            their_depth as f64 / their_moves as f64,
            their_shallow
        );
    }
}
