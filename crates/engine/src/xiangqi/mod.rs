//! Xiangqi: an alpha-beta search on a board of its own, checked against
//! the rules crate's move generator, with the rules crate's repetition
//! judgement.
//!
//! Everything takes a [`History`], not a bare position: whether a move
//! draws by repetition or loses by perpetual check or chase depends on
//! the moves before it. A position without a past is
//! `History::new(position, Counters::default())`.
//!
//! The search (`search`) is iterative deepening with aspiration windows,
//! principal variation search, a transposition table of at most 2^20
//! entries (16 MiB, smaller for small budgets; an [`Engine`] keeps its
//! table from one analysis to the next), null move (never in check,
//! never for a side without a chariot, horse or cannon, verified when the
//! side has few pieces, and a mate found behind it taken as a threat),
//! late-move reductions, extensions of checks and of a single reply to
//! check, killer and history ordering with MVV-LVA for captures, and a
//! quiescence search over captures and check evasions (and, on its first
//! ply, quiet checks). The evaluation (`eval`) is material and place
//! tables, mobility, king safety (with the palace's shape) and piece-pair
//! terms, their weights fitted to ElephantEye's scores (`tune`). Moves are generated,
//! made and unmade on the search's own 16×16 board (`board`), many times
//! faster than copying the rules crate's positions; the tests hold its
//! legal moves to the rules crate's.
//!
//! A repetition reached in the search is judged by the rules crate
//! ([`History::verdict`]), as if the cycle went round once more: a plain
//! repetition is a draw, a perpetual check or chase a loss for the side
//! that makes it. So the engine neither walks into a forbidden repetition
//! nor lets one the opponent would have to make go by. The natural-move
//! limit counts as a draw once 100 plies pass without a capture (the rules
//! crate's allowance for checks is not counted).

mod board;
mod eval;
mod search;
pub mod tune;

use std::fmt;

use qipan_rules::xiangqi::{History, Move, Position};
use qipan_rules::Status;

use crate::choice::pick_near_best;
use crate::mate::{rank, verdict, Verdict};
use crate::{Analysis, Budget, Level, Limits, Line};
use board::Mv;
use search::{Search, Table, MAX_TABLE_BITS};

/// What a line is worth to the side to move at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// The evaluation in centipawns (a horse is 400, a soldier before the
    /// river 70),
    /// positive when the side to move stands better.
    Centipawns(i32),
    /// A forced end in this many moves of the side to move: positive when
    /// it mates (or the opponent must lose by a forbidden repetition) on
    /// its `n`th move, negative when it is mated after `-n` moves of its
    /// own.
    Mate(i32),
}

impl Score {
    fn from_value(v: i32) -> Score {
        match verdict(v) {
            Verdict::Win(plies) => Score::Mate(plies.div_ceil(2) as i32),
            Verdict::Loss(plies) => Score::Mate(-((plies / 2).max(1) as i32)),
            Verdict::Eval(e) => Score::Centipawns(e),
        }
    }

    /// An order on scores: mates (sooner better) above evaluations above
    /// being mated (later better).
    fn rank(self) -> i64 {
        rank(match self {
            Score::Mate(n) if n > 0 => Verdict::Win(2 * n as u32 - 1),
            Score::Mate(n) => Verdict::Loss(2 * n.unsigned_abs()),
            Score::Centipawns(e) => Verdict::Eval(e),
        })
    }

    /// Whether the score is a forced result.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Mate(n) if *n > 0 => write!(f, "mate in {n}"),
            Score::Mate(n) => write!(f, "mated in {}", n.unsigned_abs()),
            Score::Centipawns(e) => {
                let sign = if *e < 0 { "-" } else { "+" };
                write!(f, "{sign}{}.{:02}", e.abs() / 100, e.abs() % 100)
            }
        }
    }
}

/// The transposition table's size for a budget: about one entry per node
/// it may visit, between 2^12 and 2^20 entries.
fn table_bits(limits: &Limits) -> u32 {
    let nodes = limits
        .nodes
        .or_else(|| {
            limits
                .time
                .map(|t| (t.as_millis() as u64).saturating_mul(2_000))
        })
        .unwrap_or(u64::MAX);
    (64 - nodes.leading_zeros()).min(MAX_TABLE_BITS)
}

/// Analyses the position after `game` for the side to move: up to `lines`
/// lines (at least one), best first, with distinct first moves, within
/// `limits`. A finished game (by [`History::verdict`]) gives no lines.
///
/// With only a node limit the answer is the same on every machine.
pub fn analyse(game: &History, limits: &Limits, lines: usize) -> Analysis<Move, Score> {
    let mut budget = Budget::start(limits);
    let mut table = Table::new(table_bits(limits));
    analyse_with(&mut table, &mut budget, game, lines)
}

/// A searcher that keeps its transposition table from one analysis to the
/// next, as a program playing a whole game does: what it learnt of the
/// positions after its last move is there when it is to move again. Its
/// answers depend on the analyses before (for reproducible answers, use
/// [`analyse`]). The table takes 16 MiB.
pub struct Engine {
    table: Table,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A searcher with an empty table of the largest size.
    pub fn new() -> Engine {
        Engine {
            table: Table::new(MAX_TABLE_BITS),
        }
    }

    /// [`analyse`], with the table of the searches before.
    pub fn analyse(
        &mut self,
        game: &History,
        limits: &Limits,
        lines: usize,
    ) -> Analysis<Move, Score> {
        let mut budget = Budget::start(limits);
        analyse_with(&mut self.table, &mut budget, game, lines)
    }
}

fn analyse_with(
    table: &mut Table,
    budget: &mut Budget,
    game: &History,
    lines: usize,
) -> Analysis<Move, Score> {
    if game.verdict() != Status::Ongoing {
        return Analysis {
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: budget.elapsed(),
        };
    }
    let (found, depth) = Search::new(game, budget, table).run(lines.max(1));
    let lines = found
        .into_iter()
        .map(|(v, pv)| Line {
            pv: legal_prefix(game.position(), &pv),
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

/// The moves of `pv` up to the first that is not legal where it stands,
/// by the rules crate.
fn legal_prefix(pos: &Position, pv: &[Mv]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if m.is_none() {
            break;
        }
        let mv = m.public();
        match p.play(mv) {
            Ok(next) => {
                p = next;
                out.push(mv);
            }
            Err(_) => break,
        }
    }
    out
}

/// The computer's move at `level` after `game`, within `limits`; `None`
/// once the game is over. The same game, level, seed and node limit give
/// the same move.
///
/// Level 10 plays the best move found. Lower levels search less deep (one
/// ply and the captures after it at level 1) and pick, by the seed, among
/// the lines within a margin of the best (three soldiers' worth at level
/// 1, none at level 10); a forced mate is always played.
pub fn choose(game: &History, level: Level, seed: u64, limits: &Limits) -> Option<Move> {
    let (depth, lines, margin): (u32, usize, i64) = match level.get() {
        1 => (1, 8, 300),
        2 => (1, 6, 200),
        3 => (2, 6, 150),
        4 => (2, 5, 100),
        5 => (3, 4, 70),
        6 => (4, 4, 45),
        7 => (5, 3, 25),
        8 => (6, 2, 12),
        9 => (8, 2, 5),
        _ => (u32::MAX, 1, 0),
    };
    let mut limits = limits.clone();
    if depth != u32::MAX {
        limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
    }
    let a = analyse(game, &limits, lines);
    let salt = game.position().key().value();
    pick_near_best(
        &a.lines,
        margin,
        |s| s.rank(),
        |s| matches!(s, Score::Mate(n) if *n > 0),
        seed,
        salt,
    )
}

/// Whether the computer, to move after `game`, accepts a draw: when its
/// search within `limits` does not see itself ahead (being mated, or an
/// evaluation at or below even). A finished game has nothing to accept.
pub fn accepts_draw(game: &History, limits: &Limits) -> bool {
    let a = analyse(game, limits, 1);
    match a.lines.first().map(|l| l.score) {
        None => false,
        Some(Score::Mate(n)) => n < 0,
        Some(Score::Centipawns(e)) => e <= 0,
    }
}

#[cfg(test)]
mod tests;
