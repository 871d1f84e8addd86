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

// Golden values from the engine with the fitted evaluation and the quiet
// checks of the quiescence search; a speed change must not change the
// search tree.
const GOLDEN: &[&str] = &[
    "start: depth 6 nodes 200000\n+0.24 h0g2 h9g7 i0i1 i9i8 i1d1 i8f8 d1d5",
    "start: depth 5 nodes 77777\n+0.21 b0c2 b9c7 a0a1 a9a8 a1d1 a8f8",
    "start, three lines: depth 6 nodes 200000\n+0.31 h0g2 b9c7 g3g4 a9a8 g2f4 a8d8 f4g6\n+0.21 b0c2 b9c7 a0a1 a9a8 a1d1 a8f8\n+0.12 h2e2 b9c7 i0i1 a9a8 i1d1 a8f8",
    "start, three lines: depth 5 nodes 77777\n+0.36 b0c2 b7b5 a0a1 b5e5 h2e2 a9a8 e2e5 e6e5\n+0.36 h0g2 b7b5 i0i1 b5e5 b2e2 a9a8 e2e5 e6e5\n+0.36 b2e2 h9g7 a0a1 a9a8 a1d1",
    "central cannon against screen horses: depth 8 nodes 200000\n+0.55 h0h5 a9b9 b0c2 g9e7 h5h6 b9b3 h6g6 b3c3 g6g7 c3c2",
    "central cannon against screen horses: depth 7 nodes 77777\n+0.71 h0h5 a9b9 b0c2 b9b3 a0a1 h7i7 h5h9 g7h9",
    "both sides' horses out: depth 7 nodes 200000\n+0.29 c3c4 a9a8 c2d4 a8d8 d4c6 d8d5 a0a1 i9i8",
    "both sides' horses out: depth 6 nodes 77777\n+0.39 h2h4 c6c5 h4e4 f9e8 i0h0 c7d5 h0h5",
    "a hanging chariot: depth 9 nodes 200000\n+9.34 b0c2 b9c7 a0a1 h7e7 a1d1 i9i8 d1d4 i8f8 i0i1",
    "a hanging chariot: depth 8 nodes 77777\n+9.52 b0c2 b9c7 a0a1 h9g7 b2b4 i9i8 b4e4 c9e7 a1d1",
    "chariot against soldier and elephant: depth 10 nodes 200000\n+17.12 f0f9 d9d8 f9e9 c5c4 e2c4 e7c5 g4g5 c5a7 g5g6 a7c5 g6g7 c5a7 c4e2",
    "chariot against soldier and elephant: depth 8 nodes 77777\n+16.89 f0f9 d9d8 f9e9 e7g9 e9g9 d8e8 g4g5 e8d8 g5g6 d8e8 g9f9",
    "horse and soldier against advisors: depth 11 nodes 200000\nmate in 8 c4b6 e8f7 b6c8 e9e8 e6e7 e8f8 c8d6 f9e8 d6f7 e8f7 d0e0 f7e8 e7e8 f8f9 e0e1",
    "horse and soldier against advisors: depth 11 nodes 77777\n+8.33 c4b6 e8d7 b6d7 e9d9 d0e0 f9e8 d7f6 d9e9 e6d6 e9d9 f6e8 d9e9",
    "horse and guards against a chariot: depth 10 nodes 200000\n-2.21 g6f4 c0c4 f4d3 c4c3 d3c5 c3a3 f9e8 a3e3 e7c9 e3f3 c5e4",
    "horse and guards against a chariot: depth 9 nodes 77777\n-1.72 g6f4 c0c6 f4e2 e0d0 f9e8 c6d6 e2g1 d6d5 g1f3",
    "a perpetual check in the history: depth 12 nodes 176316\nmated in 6 i8i1 a5a0 d0d1 a0a1 d1d0 a1i1 c3c4 i1a1 g3g4 a1a3 c4c5 a3d3",
    "a perpetual check in the history: depth 10 nodes 77777\nmated in 6 i8i1 a5a0 d0d1 a0a1 d1d0 a1i1 c3c4 i1a1 g3g4 a1a3 c4c5 a3d3",
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
