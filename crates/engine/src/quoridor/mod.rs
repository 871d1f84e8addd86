//! Quoridor: alpha-beta over pawn moves and the walls that lengthen the
//! opponent's way most, with a shortest-path evaluation.
//!
//! The evaluation is the race: the opponent's shortest path to its goal
//! less one's own (pawns ignored, as the rules measure it), half a step
//! for having the move, and a little for each wall in hand. The moves
//! searched are every pawn move and, of the legal walls, those that
//! lengthen the opponent's path more than one's own, most first, the best
//! few only. Iterative deepening, a transposition table, principal
//! variation search and killer moves do the rest.

mod search;

use std::fmt;

use qipan_rules::quoridor::{Action, Position};

use crate::choice::pick_near_best;
use crate::mate::{rank, verdict, Verdict};
use crate::{Analysis, Budget, Level, Limits, Line};
use search::Search;

/// What a line is worth to the side to move at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// A forced win: the side to move's pawn reaches its goal on its move
    /// this many plies from now (1 = at once).
    Win(u32),
    /// A forced loss: the opponent's pawn arrives this many plies from now.
    Loss(u32),
    /// The path difference, in hundredths of a step: the opponent's
    /// shortest path less one's own, counting the move and walls in hand.
    /// Positive when the side to move is ahead in the race.
    Eval(i32),
}

impl Score {
    fn from_value(v: i32) -> Score {
        match verdict(v) {
            Verdict::Win(n) => Score::Win(n),
            Verdict::Loss(n) => Score::Loss(n),
            Verdict::Eval(e) => Score::Eval(e),
        }
    }

    fn rank(self) -> i64 {
        rank(match self {
            Score::Win(n) => Verdict::Win(n),
            Score::Loss(n) => Verdict::Loss(n),
            Score::Eval(e) => Verdict::Eval(e),
        })
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
            Score::Eval(e) => {
                let sign = if *e < 0 { "-" } else { "+" };
                write!(f, "{sign}{}.{:02}", e.abs() / 100, e.abs() % 100)
            }
        }
    }
}

/// Analyses `pos` for the side to move: up to `lines` lines (at least
/// one), best first, within `limits`. A finished game gives no lines.
///
/// With only a node limit the answer is the same on every machine.
pub fn analyse(pos: &Position, limits: &Limits, lines: usize) -> Analysis<Action, Score> {
    let mut budget = Budget::start(limits);
    if pos.winner().is_some() {
        return Analysis {
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: budget.elapsed(),
        };
    }
    let (found, depth) = Search::new(&mut budget).root(pos, lines.max(1));
    let lines = found
        .into_iter()
        .map(|(v, pv)| Line {
            pv: legal_prefix(pos, pv),
            score: Score::from_value(v),
        })
        .filter(|l| !l.pv.is_empty())
        .collect();
    Analysis {
        lines,
        depth,
        nodes: budget.nodes(),
        elapsed: budget.elapsed(),
    }
}

/// The moves of `pv` up to the first that is not legal where it stands.
fn legal_prefix(pos: &Position, pv: Vec<Action>) -> Vec<Action> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for a in pv {
        match p.play(a) {
            Ok(next) => {
                p = next;
                out.push(a);
            }
            Err(_) => break,
        }
    }
    out
}

/// The computer's move at `level` in `pos`, within `limits`; `None` once
/// the game is won. The same position, level, seed and node limit give the
/// same move.
///
/// Level 10 plays the best move found. Lower levels search less deep (1
/// ply at level 1) and pick, by the seed, among the lines within a margin
/// of the best (two steps at level 1, none at level 10); a move that wins
/// at once is always taken.
pub fn choose(pos: &Position, level: Level, seed: u64, limits: &Limits) -> Option<Action> {
    let (depth, lines, margin): (u32, usize, i64) = match level.get() {
        1 => (1, 6, 200),
        2 => (1, 5, 150),
        3 => (2, 5, 110),
        4 => (2, 4, 80),
        5 => (3, 4, 60),
        6 => (3, 3, 40),
        7 => (4, 3, 25),
        8 => (5, 2, 15),
        9 => (6, 2, 5),
        _ => (u32::MAX, 1, 0),
    };
    let mut limits = limits.clone();
    if depth != u32::MAX {
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
    }
    let a = analyse(pos, &limits, lines);
    let salt = u64::from(pos.walls_left(qipan_rules::quoridor::Player::One)) * 131
        + u64::from(pos.walls_left(qipan_rules::quoridor::Player::Two)) * 17
        + u64::from(pos.pawn(pos.turn()).index());
    pick_near_best(
        &a.lines,
        margin,
        |s| s.rank(),
        |s| matches!(s, Score::Win(_)),
        seed,
        salt,
    )
}

/// Whether the computer, to move in `pos`, accepts a draw: when its search
/// within `limits` does not see itself ahead (a loss, or a path difference
/// at or below even). Quoridor has no draw by the rules; this answers an
/// offer.
pub fn accepts_draw(pos: &Position, limits: &Limits) -> bool {
    let a = analyse(pos, limits, 1);
    match a.lines.first().map(|l| l.score) {
        Some(Score::Loss(_)) | None => true,
        Some(Score::Eval(e)) => e <= 0,
        Some(Score::Win(_)) => false,
    }
}
