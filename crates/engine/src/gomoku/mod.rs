//! Gomoku and Renju: threat-space search ahead of an alpha-beta over
//! candidate points.
//!
//! [`analyse`] looks for a forced win first — a VCF (fours only), then a
//! VCT (threes and fours) — each on a share of the budget, and otherwise
//! runs an iterative-deepening principal variation search over the points
//! near the stones, ordered and evaluated by line patterns kept up to date
//! stone by stone (see `pattern` and `board`), and checks its best moves
//! against a VCT of the opponent after them. Renju's forbidden points are
//! never played by black and are counted on by white: a four whose only
//! block is forbidden to black wins.
//!
//! [`choose`] is the computer opponent: [`Level::MAX`] plays the best move
//! found; lower levels search shallower and pick, by a seed, among the
//! moves near the best, and the lowest sometimes overlook a three.

mod board;
mod pattern;
mod search;
mod threat;

use std::fmt;

use qipan_rules::gomoku::{Point, Position};
use qipan_rules::Status;

use crate::choice::{draw, pick_near_best};
use crate::mate::{rank, verdict, Verdict, MATE, MATE_BOUND};
use crate::{Analysis, Budget, Level, Limits, Line};
use board::{Board, Idx};
use search::{Moves, Search, INFINITY};
use threat::Threats;

/// What a line is worth to the side to move at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// A forced win: the side to move makes five on its move this many
    /// plies from now (1 = at once).
    Win(u32),
    /// A forced loss: the opponent makes five this many plies from now.
    Loss(u32),
    /// No forced result seen: the pattern evaluation, positive when the
    /// side to move stands better (an open three is worth about 30).
    Eval(i32),
}

impl Score {
    /// Whether the score is a forced result.
    pub fn is_forced(self) -> bool {
        !matches!(self, Score::Eval(_))
    }

    /// An order on scores: wins (sooner better) above evaluations above
    /// losses (later better).
    fn rank(self) -> i64 {
        rank(match self {
            Score::Win(n) => Verdict::Win(n),
            Score::Loss(n) => Verdict::Loss(n),
            Score::Eval(e) => Verdict::Eval(e),
        })
    }

    fn from_value(v: i32) -> Score {
        match verdict(v) {
            Verdict::Win(n) => Score::Win(n),
            Verdict::Loss(n) => Score::Loss(n),
            Verdict::Eval(e) => Score::Eval(e),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
            Score::Eval(e) => write!(f, "{e:+}"),
        }
    }
}

/// What a search may use: the threat searches and how deep its leaves look
/// for fours. Full strength uses everything.
#[derive(Debug, Clone, Copy)]
struct Config {
    vcf: bool,
    vct: bool,
    leaf_fours: u32,
}

const FULL: Config = Config {
    vcf: true,
    vct: true,
    leaf_fours: 6,
};

/// Fours a root VCF may make (a long published VCF takes 71).
const VCF_FOURS: u32 = 100;
/// Threes a root VCT may make.
const VCT_THREES: u32 = 3;
/// Fours a root VCT may make.
const VCT_FOURS: u32 = 12;

/// Analyses `pos` for the side to move: up to `lines` lines (at least one),
/// best first, within `limits`. A finished game gives no lines.
///
/// With only a node limit the answer is the same on every machine.
pub fn analyse(pos: &Position, limits: &Limits, lines: usize) -> Analysis<Point, Score> {
    analyse_with(pos, limits, lines, FULL)
}

fn analyse_with(
    pos: &Position,
    limits: &Limits,
    lines: usize,
    config: Config,
) -> Analysis<Point, Score> {
    let mut budget = Budget::start(limits);
    let lines = lines.max(1);
    if pos.status() != Status::Ongoing {
        return Analysis {
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: budget.elapsed(),
        };
    }
    let mut board = Board::from_position(pos);
    let mut dead = threat::dead_ends();
    let mut forced: Option<Vec<Idx>> = None;
    if config.vcf {
        let mut part = threat_part(&budget);
        forced = Threats::new(&mut board, &mut part, &mut dead).win(0, VCF_FOURS);
        budget.absorb(&part);
    }
    if forced.is_none() && config.vct {
        let mut part = threat_part(&budget);
        forced = Threats::new(&mut board, &mut part, &mut dead).win(VCT_THREES, VCT_FOURS);
        budget.absorb(&part);
    }
    let mut found: Vec<Line<Point, Score>> = Vec::new();
    let mut depth = 0;
    if let Some(line) = &forced {
        found.push(Line {
            pv: line.iter().map(|&i| board.point(i)).collect(),
            score: Score::Win(line.len() as u32),
        });
        depth = line.len() as u32;
    }
    if found.len() < lines {
        // With the VCT on, a quarter of what is left goes to checking the
        // best moves against the opponent's forced wins, so the search
        // keeps two spare lines to fall back on.
        let (spare, share) = if config.vct {
            (REFUTE_SPARE, 3)
        } else {
            (0, 4)
        };
        let mut part = budget.part(share, 4);
        let (mut more, d) = alpha_beta(
            board.clone(),
            &mut part,
            lines + spare,
            config,
            forced.as_ref().and_then(|l| l.first().copied()),
        );
        budget.absorb(&part);
        if config.vct {
            more = refute(&mut board, &mut budget, more, &mut dead);
        }
        depth = depth.max(d);
        for l in more {
            if found.len() < lines && found.iter().all(|f| f.pv.first() != l.pv.first()) {
                found.push(l);
            }
        }
    }
    let lines = found.into_iter().filter_map(|l| checked(pos, l)).collect();
    Analysis {
        lines,
        depth,
        nodes: budget.nodes(),
        elapsed: budget.elapsed(),
    }
}

/// Lines searched beyond those asked for, to stand in for refuted ones.
const REFUTE_SPARE: usize = 2;

/// Checks each line that is not already decided against a VCT of the
/// opponent after its first move (what the alpha-beta's horizon may hide);
/// a refuted line becomes a loss, with the opponent's win as its moves, and
/// the lines are sorted again.
fn refute(
    board: &mut Board,
    budget: &mut Budget,
    lines: Vec<Line<Point, Score>>,
    dead: &mut [u64],
) -> Vec<Line<Point, Score>> {
    let n = lines.len();
    let mut out: Vec<Line<Point, Score>> = Vec::with_capacity(n);
    for (k, mut line) in lines.into_iter().enumerate() {
        let first = line.pv.first().copied();
        if let (Some(m), Score::Eval(_)) = (first, line.score) {
            let i = board.idx(m);
            if board.is_empty(i) {
                board.play(i);
                let mut part = budget.part(1, (n - k) as u64);
                let threat = Threats::new(board, &mut part, dead).win(VCT_THREES, VCT_FOURS);
                budget.absorb(&part);
                board.undo();
                if let Some(t) = threat {
                    line.score = Score::Loss(1 + t.len() as u32);
                    line.pv = std::iter::once(m)
                        .chain(t.iter().map(|&j| board.point(j)))
                        .collect();
                }
            }
        }
        out.push(line);
    }
    out.sort_by_key(|l| std::cmp::Reverse(l.score.rank()));
    out
}

/// Nodes a threat search may spend when the caller set neither a node nor
/// a time limit (a VCT can otherwise grow for a very long time).
const THREAT_NODES: u64 = 2_000_000;

/// A quarter of what is left, for one threat search.
fn threat_part(budget: &Budget) -> Budget {
    let part = budget.part(1, 4);
    let l = part.limits();
    if l.nodes.is_none() && l.time.is_none() {
        return Budget::start(&Limits {
            nodes: Some(THREAT_NODES),
            ..l.clone()
        });
    }
    part
}

/// Keeps the legal start of a line's moves (all of it, unless something
/// is wrong), or drops a line whose first move is not legal.
fn checked(pos: &Position, mut line: Line<Point, Score>) -> Option<Line<Point, Score>> {
    let mut p = pos.clone();
    let mut keep = 0;
    for &m in &line.pv {
        match p.play(m) {
            Ok(next) => {
                p = next;
                keep += 1;
            }
            Err(_) => break,
        }
    }
    line.pv.truncate(keep);
    (keep > 0).then_some(line)
}

/// Iterative deepening over the root moves; the lines of the deepest
/// iteration finished, and its depth. `skip` is a root move already
/// reported as a forced win.
fn alpha_beta(
    board: Board,
    budget: &mut Budget,
    lines: usize,
    config: Config,
    skip: Option<Idx>,
) -> (Vec<Line<Point, Score>>, u32) {
    let mut s = Search::new(board, budget);
    s.leaf_fours = config.leaf_fours;
    let mut roots: Vec<Idx> = match s.moves() {
        Moves::Win(p, _) => vec![p],
        Moves::Loss(..) | Moves::Some(_) => {
            let mut all: Vec<Idx> = s
                .board
                .points()
                .to_vec()
                .into_iter()
                .filter(|&i| s.board.is_empty(i) && (s.board.has_neighbour(i) || s.board.is_bare()))
                .collect();
            if s.board.is_bare() {
                all = vec![s.board.centre()];
            }
            if let Moves::Some(m) = s.moves() {
                all = m;
            }
            all.retain(|&i| s.board.legal(i));
            if all.is_empty() {
                all = s.board.points().to_vec();
                all.retain(|&i| s.board.legal(i));
            }
            all
        }
    };
    if roots.len() > 1 {
        roots.retain(|&i| Some(i) != skip);
    }
    s.order(&mut roots, None);
    // Lines of a zero-depth look, in case no iteration finishes.
    let mut best: Vec<(i32, Vec<Idx>)> = roots.iter().take(lines).map(|&m| (0, vec![m])).collect();
    let mut done = 0;
    let max_depth = s.budget.limits().depth.unwrap_or(60);
    for depth in 1..=max_depth as i32 {
        if !s.budget.may_deepen(depth as u32) {
            break;
        }
        let mut scored: Vec<(i32, Vec<Idx>)> = Vec::with_capacity(roots.len());
        let mut complete = true;
        for &m in &roots {
            let alpha = if scored.len() < lines {
                -INFINITY
            } else {
                let mut v: Vec<i32> = scored.iter().map(|x| x.0).collect();
                v.sort_unstable_by(|a, b| b.cmp(a));
                v[lines - 1]
            };
            s.board.play(m);
            let v = -s.search(depth - 1, -INFINITY, -alpha, 1);
            s.board.undo();
            if s.budget.exhausted() {
                complete = false;
                break;
            }
            let mut pv = vec![m];
            pv.extend_from_slice(s.pv(1));
            scored.push((v, pv));
        }
        if !complete {
            break;
        }
        scored.sort_by_key(|x| std::cmp::Reverse(x.0));
        roots = scored.iter().map(|x| x.1[0]).collect();
        done = depth as u32;
        let settled = scored
            .first()
            .is_some_and(|x| x.0.abs() > MATE_BOUND && (MATE - x.0.abs()) <= depth);
        best = scored.into_iter().take(lines).collect();
        if settled && lines == 1 {
            break;
        }
    }
    let b = &s.board;
    let out = best
        .into_iter()
        .map(|(v, pv)| Line {
            pv: pv.iter().map(|&i| b.point(i)).collect(),
            score: if done == 0 {
                Score::Eval(0)
            } else {
                Score::from_value(v)
            },
        })
        .collect();
    (out, done)
}

/// How a level plays: its depth, how many lines it weighs, how far below
/// the best a move may be and still be picked, whether it looks for forced
/// wins, and how often (in percent) it overlooks a three.
struct Style {
    depth: u32,
    lines: usize,
    margin: i64,
    config: Config,
    careless: u64,
}

fn style(level: Level) -> Style {
    let none = Config {
        vcf: false,
        vct: false,
        leaf_fours: 0,
    };
    let vcf = Config {
        vcf: true,
        vct: false,
        leaf_fours: 2,
    };
    let (depth, lines, margin, config, careless) = match level.get() {
        1 => (1, 8, 400, none, 50),
        2 => (1, 6, 250, none, 30),
        3 => (2, 5, 150, none, 15),
        4 => (2, 4, 80, vcf, 5),
        5 => (3, 4, 50, vcf, 0),
        6 => (4, 3, 30, vcf, 0),
        7 => (5, 3, 15, FULL, 0),
        8 => (6, 2, 8, FULL, 0),
        9 => (8, 2, 3, FULL, 0),
        _ => (u32::MAX, 1, 0, FULL, 0),
    };
    Style {
        depth,
        lines,
        margin,
        config,
        careless,
    }
}

/// The computer's move at `level` in `pos`, within `limits`; `None` when
/// the game is over. The same position, level, seed and node limit give
/// the same move.
///
/// Level 10 plays the best move found. Lower levels search less deep,
/// choose by the seed among the lines within a margin of the best, and the
/// lowest sometimes answer an open three as if it were not there; every
/// level makes a five when it can and blocks a four.
pub fn choose(pos: &Position, level: Level, seed: u64, limits: &Limits) -> Option<Point> {
    let st = style(level);
    let mut limits = limits.clone();
    if st.depth != u32::MAX {
        limits.depth = Some(limits.depth.map_or(st.depth, |d| d.min(st.depth)));
    }
    let salt = pos.stone_count(qipan_rules::gomoku::Stone::Black) as u64 * 2
        + pos.stone_count(qipan_rules::gomoku::Stone::White) as u64;
    if st.careless > 0 && u64::from(draw(seed, salt, 100)) < st.careless {
        if let Some(p) = careless(pos, seed ^ 0xa5a5, salt) {
            return Some(p);
        }
    }
    let a = analyse_with(pos, &limits, st.lines, st.config);
    pick_near_best(
        &a.lines,
        st.margin,
        |s| s.rank(),
        |s| s.is_forced(),
        seed,
        salt,
    )
}

/// A move that looks only at fives and fours: makes five, blocks a four,
/// and otherwise picks by the seed among the six points of best pattern
/// value, open threes of the opponent notwithstanding.
fn careless(pos: &Position, seed: u64, salt: u64) -> Option<Point> {
    let mut board = Board::from_position(pos);
    let mut unlimited = Budget::start(&Limits::depth(1));
    let mut s = Search::new(board.clone(), &mut unlimited);
    match s.moves() {
        Moves::Win(p, 1) => return Some(board.point(p)),
        Moves::Some(m) if m.len() == 1 => return m.first().map(|&p| board.point(p)),
        Moves::Loss(Some(p), _) => return Some(board.point(p)),
        _ => {}
    }
    if board.is_bare() {
        return Some(board.point(board.centre()));
    }
    let mut near: Vec<Idx> = board
        .points()
        .to_vec()
        .into_iter()
        .filter(|&i| board.is_empty(i) && board.has_neighbour(i))
        .collect();
    near.retain(|&i| board.legal(i));
    s.order(&mut near, None);
    near.truncate(6);
    let pick = draw(seed, salt, near.len() as u32) as usize;
    near.get(pick).map(|&i| board.point(i))
}

/// Whether the computer, to move in `pos`, accepts a draw: when its
/// search within `limits` sees no advantage (a loss, or an evaluation at
/// or below even).
pub fn accepts_draw(pos: &Position, limits: &Limits) -> bool {
    let a = analyse(pos, limits, 1);
    match a.lines.first().map(|l| l.score) {
        Some(Score::Loss(_)) | None => true,
        Some(Score::Eval(e)) => e <= 0,
        Some(Score::Win(_)) => false,
    }
}
