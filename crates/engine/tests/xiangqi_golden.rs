//! The xiangqi search's tree, frozen: on varied positions at a fixed node
//! budget, the exact depth, nodes, scores and lines the engine gives.
//!
//! A change meant only to make the search faster must leave every value
//! here as it is: then the strength measured at equal nodes (against
//! ElephantEye, in docs/strength.md) still holds for it. A change that
//! means to alter the search (ordering, pruning, evaluation) updates the
//! values and is measured again.

use qipan_engine::xiangqi::analyse;
use qipan_engine::Limits;
use qipan_rules::xiangqi::{Counters, Fen, History, Move, Position};

/// The budgets: the larger lets most searches finish several
/// iterations; the odd one stops them at another point of an iteration,
/// where the line kept depends on the order the moves were searched in.
const BUDGETS: [u64; 2] = [200_000, 77_777];

fn fen(text: &str) -> History {
    History::from(
        text.parse::<Fen>()
            .unwrap_or_else(|e| panic!("{text}: {e}")),
    )
}

fn after(moves: &str) -> History {
    let moves: Vec<Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
    History::with_moves(Position::start(), Counters::default(), &moves).unwrap()
}

/// Depth, nodes and every line (score and moves) of an analysis, one per
/// line of text.
fn summary(game: &History, nodes: u64, lines: usize) -> String {
    let a = analyse(game, &Limits::nodes(nodes), lines);
    let mut out = format!("depth {} nodes {}", a.depth, a.nodes);
    for l in &a.lines {
        let pv: Vec<String> = l.pv.iter().map(Move::to_string).collect();
        out += &format!("\n{} {}", l.score, pv.join(" "));
    }
    out
}

/// The positions, each with the number of lines asked for.
fn positions() -> Vec<(&'static str, History, usize)> {
    vec![
        (
            "start",
            History::new(Position::start(), Counters::default()),
            1,
        ),
        (
            "start, three lines",
            History::new(Position::start(), Counters::default()),
            3,
        ),
        (
            "central cannon against screen horses",
            after("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 b7a7"),
            1,
        ),
        (
            "both sides' horses out",
            fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"),
            1,
        ),
        (
            "a hanging chariot",
            fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1Cr4C1/9/RNBAKABNR w - - 0 1"),
            1,
        ),
        (
            "chariot against soldier and elephant",
            fen("3k5/9/4b4/9/2p6/6P2/9/4B4/4A4/3AKR3 w - - 0 1"),
            1,
        ),
        (
            "horse and soldier against advisors",
            fen("4ka3/4a4/9/4P4/9/2N6/9/9/9/3K5 w - - 0 1"),
            1,
        ),
        (
            "horse and guards against a chariot",
            fen("3akab2/9/4b4/6n2/9/9/9/9/4A4/2R1K4 b - - 0 1"),
            1,
        ),
        (
            "a perpetual check in the history",
            {
                let start: Fen = "4k4/9/1n7/9/r8/9/2P3P2/9/8R/3K5 w - - 0 1".parse().unwrap();
                let moves: Vec<Move> = "i1i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9"
                    .split(' ')
                    .map(|m| m.parse().unwrap())
                    .collect();
                History::with_moves(start.position, start.counters, &moves).unwrap()
            },
            1,
        ),
    ]
}

// Golden values from the engine at commit 2f8b897; a speed change must not
// change the search tree.
const GOLDEN: &[&str] = &[
    "start: depth 6 nodes 200000\n+0.30 b0c2 b7g7 a0a1 g7g3 h2e2 b9c7 i0i1 g3c3",
    "start: depth 5 nodes 77777\n+0.14 h2h4 h7c7 h4a4 b9a7 a4e4 g9e7 i0i1 c7c3",
    "start, three lines: depth 6 nodes 200000\n+0.14 h2h4 h7c7 h4a4 b9a7 a4e4 g9e7 i0i1 c7c3\n+0.10 h0g2 b9c7 i0i1 a9a8 i1f1 a8d8\n+0.10 b0c2 b9c7 a0a1 a9a8 a1f1 a8d8",
    "start, three lines: depth 5 nodes 77777\n+0.50 h0g2 b9c7 i0i1 a9a8 i1f1\n+0.50 b0c2 b9c7 a0a1 a9a8 a1f1\n+0.13 h2h4 h7c7 i0i1 c7c3 h4e4 c9e7",
    "central cannon against screen horses: depth 8 nodes 200000\n+0.41 b2c2 a9b9 c2c6 c9e7 b0c2 b9b1 a0a1 b1a1 c2a1 a7a3",
    "central cannon against screen horses: depth 6 nodes 77777\n+0.13 h0h6 g6g5 b0c2 a9b9 a0b0 a7a3 b2b3",
    "both sides' horses out: depth 7 nodes 200000\n+0.17 b2b4 i9i8 i0i1 e6e5 i1f1 a9a8 f1f5 a8d8 f5e5 g9e7",
    "both sides' horses out: depth 7 nodes 77777\n+0.41 a0a1 a9a8 i0i1 i9i8 a1d1 a8d8 i1f1",
    "a hanging chariot: depth 9 nodes 200000\n+9.20 b0c2 b7c7 c3c4 h9g7 c2d4 i9i8 a0a1 b9a7 b2b7",
    "a hanging chariot: depth 8 nodes 77777\n+9.22 b0c2 b7c7 h0g2 c7c3 a0b0 b9c7 i0i1 h9g7",
    "chariot against soldier and elephant: depth 10 nodes 200000\n+18.09 f0f9 d9d8 f9e9 e7g9 e9g9 d8e8 g4g5 e8e7 g9g7 e7e8 g5g6 c5c4 e2c4 e8e9 g7e7 e9d9",
    "chariot against soldier and elephant: depth 9 nodes 77777\n+17.09 f0f9 d9d8 f9e9 c5c4 e2c4 e7c5 g4g5 d8d7 g5g6 d7d8 g6g7",
    "horse and soldier against advisors: depth 12 nodes 200000\nmate in 8 c4b6 e8f7 b6c8 e9e8 e6e7 e8f8 c8d6 f9e8 d6f7 e8d9 f7h8 d9e8 d0e0 e8d9 e7f7",
    "horse and soldier against advisors: depth 11 nodes 77777\n+8.46 e6e7 e8d9 e7f7 d9e8 f7f8 e8d7 c4b6 e9d9 b6d7 d9d8 f8f9 d8d9",
    "horse and guards against a chariot: depth 12 nodes 200000\n-1.76 g6f4 c0c6 d9e8 c6f6 f4e2 e0d0 e8d9 f6e6 e2g3 e6g6 g3e2 g6f6",
    "horse and guards against a chariot: depth 10 nodes 77777\n-1.74 g6f4 c0c6 d9e8 c6f6 f4e2 e0f0 e7c9 f6e6 e2c3 e6d6",
    "a perpetual check in the history: depth 12 nodes 99895\nmated in 6 i8i1 a5a0 d0d1 a0a1 d1d0 a1i1 c3c4 i1i6 c4c5 i6d6 c5d5 d6d5",
    "a perpetual check in the history: depth 11 nodes 77777\nmated in 6 i8i1 a5a0 d0d1 a0a1 d1d0 a1i1 c3c4 i1i6 c4c5 i6d6 c5d5 d6d5",
];

#[test]
fn a_node_limit_gives_the_same_tree_as_the_engine_it_was_frozen_on() {
    let mut got = Vec::new();
    for (name, game, lines) in positions() {
        for nodes in BUDGETS {
            got.push(format!("{name}: {}", summary(&game, nodes, lines)));
        }
    }
    assert_eq!(got.len(), GOLDEN.len());
    for (got, want) in got.iter().zip(GOLDEN) {
        assert_eq!(got, want);
    }
}
