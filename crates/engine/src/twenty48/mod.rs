//! 2048: expectimax over the moves and the spawn chance nodes.
//!
//! A move node takes the best of the (up to four) moves; a chance node
//! averages over every empty cell the spawn may take, a 2 with probability
//! 0.9 and a 4 with 0.1, as the rules crate spawns (a draw below 10 for
//! the value, then a uniform draw among the empty cells). Leaves are
//! judged by a heuristic looked up per row and per column in a table over
//! every row of four exponents: empty cells and possible merges for a
//! line, breaks of monotonicity and big tiles against it (see `board`).
//!
//! The search deepens one move at a time while its budget lasts, up to a
//! depth that grows with the number of different tiles on the board (more
//! kinds of tiles, more to plan). A branch whose probability falls below
//! 10⁻⁴ is judged, not searched, and chance nodes are cached per search by
//! board and depth left. The root moves are the rules crate's legal moves,
//! so an answer is always playable.

mod board;
mod search;

use std::fmt;

use qipan_rules::twenty48::{Direction, Position};

use crate::choice::pick_near_best;
use crate::{Analysis, Budget, Level, Limits, Line};
use board::{distinct_tiles, empty_cells, from_grid, tables};
use search::Search;

/// What a move is worth: the expected value of the heuristic evaluation
/// over the spawns, at the depth searched, of the board after the move.
/// Larger is better; it is comparable between the moves of one position,
/// not between positions. Every line of a live board is worth 200,000, so
/// a position in which every line of play is lost within the depth searched
/// is worth about 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    /// The expected evaluation, rounded to a whole number.
    Expected(i64),
}

impl Score {
    /// The number itself.
    pub fn value(self) -> i64 {
        match self {
            Score::Expected(v) => v,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

/// The greatest depth searched (moves, the root move included).
const MAX_DEPTH: u32 = 8;

/// How deep a full search goes without a depth limit: one more move per
/// kind of tile past three, and one more when the board is nearly full,
/// from 3 to [`MAX_DEPTH`].
fn natural_depth(b: u64) -> u32 {
    let extra = u32::from(empty_cells(b) <= 3);
    (distinct_tiles(b).saturating_sub(2) + extra).clamp(3, MAX_DEPTH)
}

/// Analyses `pos`: up to `lines` of its legal moves (at least one), best
/// first, each with its expected value, within `limits`. A finished game
/// gives no lines. Each line is one move long: what follows depends on
/// the spawn.
///
/// With only a node limit the answer is the same on every machine.
pub fn analyse(pos: &Position, limits: &Limits, lines: usize) -> Analysis<Direction, Score> {
    let mut budget = Budget::start(limits);
    let t = tables();
    let b = from_grid(pos.grid());
    let moves: Vec<(Direction, u64)> = Direction::ALL
        .into_iter()
        .filter(|&d| pos.slide(d).is_some())
        .map(|d| (d, t.slide(b, d.index())))
        .collect();
    if moves.is_empty() {
        return Analysis {
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: budget.elapsed(),
        };
    }
    let after: Vec<u64> = moves.iter().map(|&(_, a)| a).collect();
    let natural = natural_depth(b);
    // At depth 1 every move is judged by the evaluation alone: always
    // affordable, so there is always an answer.
    let mut values: Vec<f32> = after.iter().map(|&a| t.value(a)).collect();
    let mut depth = 1;
    {
        let mut search = Search::new(t, &mut budget);
        let mut last = std::time::Duration::ZERO;
        let mut d = 2;
        while d <= natural && search.may_deepen(d, last) {
            let started = std::time::Instant::now();
            match search.iterate(&after, d) {
                Some(v) => {
                    values = v;
                    depth = d;
                }
                None => break,
            }
            last = started.elapsed();
            d += 1;
        }
    }
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&i, &j| values[j].total_cmp(&values[i]));
    let found = order
        .into_iter()
        .take(lines.max(1))
        .map(|i| Line {
            pv: vec![moves[i].0],
            score: Score::Expected(values[i].round() as i64),
        })
        .collect();
    Analysis {
        lines: found,
        depth,
        nodes: budget.nodes(),
        elapsed: budget.elapsed(),
    }
}

/// The computer's move at `level` in `pos`, within `limits`; `None` once
/// no move is left. The same position, level, seed and node limit give the
/// same move.
///
/// Level 10 plays the best move found. Lower levels look fewer moves ahead
/// (1 at levels 1 and 2: the board after the move alone) and pick, by the
/// seed, among the moves whose value is within a share of the best (a
/// third at level 1, none at level 10).
pub fn choose(pos: &Position, level: Level, seed: u64, limits: &Limits) -> Option<Direction> {
    let (depth, per_mille): (u32, i64) = match level.get() {
        1 => (1, 300),
        2 => (1, 150),
        3 => (2, 80),
        4 => (2, 40),
        5 => (3, 20),
        6 => (3, 10),
        7 => (4, 5),
        8 => (5, 2),
        9 => (6, 1),
        _ => (u32::MAX, 0),
    };
    let mut limits = limits.clone();
    if depth != u32::MAX {
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
    }
    let a = analyse(pos, &limits, 4);
    let best = a.lines.first()?.score.value();
    let margin = best.abs() * per_mille / 1000;
    pick_near_best(
        &a.lines,
        margin,
        |s| s.value(),
        |_| false,
        seed,
        pos.rng_state(),
    )
}
