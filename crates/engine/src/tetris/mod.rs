//! Tetris: a beam search over the reachable placements, with hold, through
//! the visible queue, and a field evaluation.
//!
//! The moves are the rules crate's placements (every distinct place the
//! active piece can lock, with a shortest input path ending in `hard`),
//! and those of the piece that `hold` brings in, their path beginning with
//! `hold`. The search judges each root placement one piece deep, then runs
//! beams of growing width (2, 4, 8, …) through as many pieces as the queue
//! shows, while the budget lasts: at each step every placement of every
//! field in the beam is locked and judged, and the best fields go on. Past
//! the first piece the placements are the cheaper hard drops (each
//! rotation, shifted as far as it goes either way, with and without hold),
//! played out by the rules crate; the first piece has the full listing
//! with its tucks and spins.
//!
//! The evaluation (see `eval`) counts holes and the cells over them,
//! height (much more in the top half and near the top), bumps, row
//! transitions, a single well for tetrises and T-spin double slots; the
//! locks on the way add what their clears are worth, tetrises and T-spins
//! (back-to-back more) far above singles and doubles.

mod eval;
mod search;

use std::fmt;

use qipan_rules::tetris::{Placement, Position, QUEUE_LEN};

pub use eval::attack;

use crate::choice::draw;
use crate::{Analysis, Budget, Level, Limits, Line};
use eval::WEIGHTS;
use search::{RootLine, Search};

/// What a placement is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The evaluation at the end of the line: what its clears earned (a
    /// tetris 700, a T-spin double 900, a single −250) plus the field's
    /// own worth (holes −400 each, height, bumps, wells, T-slots; an empty
    /// field is about 0, a typical mid-game field some −1,000). Larger is
    /// better; comparable between the lines of one analysis.
    Eval(i32),
    /// Playing this placement ends the game (block out or lock out).
    TopsOut,
}

impl Score {
    fn rank(self) -> i64 {
        match self {
            Score::Eval(v) => i64::from(v),
            Score::TopsOut => i64::MIN,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Eval(v) => write!(f, "{v:+}"),
            Score::TopsOut => f.write_str("tops out"),
        }
    }
}

/// The widest beam tried.
const MAX_WIDTH: usize = 1024;

/// Analyses `pos`: up to `lines` placements (at least one), best first,
/// within `limits`. Each line's `pv` is the placements of the line, one per
/// piece, each with the whole input path that plays it (beginning with
/// `hold` when it holds, ending in `hard`); the first is exactly what to
/// play now. A finished game gives no lines. The depth is in pieces (at
/// most the active piece and the queue less one, so that only pieces shown
/// are placed whatever hold does); a depth limit lowers it.
///
/// With only a node limit the answer is the same on every machine.
pub fn analyse(pos: &Position, limits: &Limits, lines: usize) -> Analysis<Placement, Score> {
    analyse_with(pos, limits, lines, MAX_WIDTH)
}

fn analyse_with(
    pos: &Position,
    limits: &Limits,
    lines: usize,
    max_width: usize,
) -> Analysis<Placement, Score> {
    let mut budget = Budget::start(limits);
    if !pos.status().is_ongoing() {
        return Analysis {
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: budget.elapsed(),
        };
    }
    let depth = limits
        .depth
        .map_or(QUEUE_LEN as u32, |d| d.min(QUEUE_LEN as u32));
    let mut search = Search::new(&mut budget, &WEIGHTS);
    let (mut found, roots) = search.roots(pos, false);
    let mut reached = 1;
    if depth > 1 && !roots.is_empty() {
        let mut width = 2;
        while width <= max_width && search.beam(&roots, width, depth, &mut found) {
            reached = found.iter().map(|l| l.depth).max().unwrap_or(1);
            width *= 2;
        }
    }
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by_key(|&i| rank(&found[i]));
    let out = order
        .into_iter()
        .take(lines.max(1))
        .map(|i| {
            let l = &found[i];
            Line {
                pv: l.path.clone(),
                score: if l.tops_out {
                    Score::TopsOut
                } else {
                    Score::Eval(l.value)
                },
            }
        })
        .collect();
    Analysis {
        lines: out,
        depth: reached,
        nodes: budget.nodes(),
        elapsed: budget.elapsed(),
    }
}

/// The order of root lines, best first: those that do not top out, the
/// deeper searched, then the higher valued (ties in the order listed).
fn rank(l: &RootLine) -> (bool, std::cmp::Reverse<u32>, std::cmp::Reverse<i32>) {
    (
        l.tops_out,
        std::cmp::Reverse(l.depth),
        std::cmp::Reverse(l.value),
    )
}

/// The computer's placement at `level` in `pos`, within `limits`; `None`
/// once the game is over. The same position, level, seed and node limit
/// give the same placement.
///
/// Level 10 plays the best placement found. Lower levels look at fewer
/// pieces with narrower beams (the active piece alone at level 1) and pick,
/// by the seed, among the placements within a margin of the best (about a
/// hole's worth at level 1, none at level 10).
pub fn choose(pos: &Position, level: Level, seed: u64, limits: &Limits) -> Option<Placement> {
    let (depth, width, margin): (u32, usize, i64) = match level.get() {
        1 => (1, 1, 500),
        2 => (1, 1, 300),
        3 => (2, 2, 200),
        4 => (2, 4, 120),
        5 => (3, 8, 80),
        6 => (3, 16, 40),
        7 => (4, 32, 20),
        8 => (4, 64, 10),
        9 => (5, 128, 5),
        _ => (u32::MAX, MAX_WIDTH, 0),
    };
    let mut limits = limits.clone();
    if depth != u32::MAX {
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
    }
    let a = analyse_with(pos, &limits, 8, width);
    let best = a.lines.first()?;
    if margin == 0 {
        return best.pv.first().cloned();
    }
    let floor = best.score.rank().saturating_sub(margin);
    let near: Vec<&Line<Placement, Score>> =
        a.lines.iter().filter(|l| l.score.rank() >= floor).collect();
    let salt = pos.rng_state() ^ u64::from(pos.lines()) ^ pos.score();
    let pick = draw(seed, salt, near.len() as u32) as usize;
    near.get(pick)
        .and_then(|l| l.pv.first())
        .or(best.pv.first())
        .cloned()
}
