//! Alpha-beta over candidate points: principal variation search with a
//! transposition table and iterative deepening, threats answered first.
//!
//! At every node the threats on the board decide what may be played:
//! a five is played at once; a four of the opponent is blocked (the only
//! move, searched without using depth); an open four (or two fours) wins;
//! an open three of the opponent leaves only the points that stop it and
//! one's own fours. Otherwise the moves are the empty points within two of
//! a stone, best by pattern value first, the weakest cut off.

use super::board::{Board, Idx, Shape};
use super::threat::Threats;
use crate::mate::{from_table, to_table, MATE, MATE_BOUND};
use crate::Budget;

const INF: i32 = 32_000;
/// Deepest ply a search reaches (depth plus forced replies).
const MAX_PLY: usize = 128;
/// Moves searched at an unforced node.
const WIDTH: usize = 20;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// What the threats leave to the side to move.
pub(crate) enum Moves {
    /// A win by force: the first move, and the plies to the five.
    Win(Idx, u32),
    /// A loss by force, whatever is played: a legal move (if any), and the
    /// plies to the opponent's five.
    Loss(Option<Idx>, u32),
    /// The moves worth searching, unordered.
    Some(Vec<Idx>),
}

pub(crate) struct Search<'a> {
    pub(crate) board: Board,
    pub(crate) budget: &'a mut Budget,
    tt: Vec<Entry>,
    dead: Vec<u64>,
    history: Vec<i32>,
    pv: Vec<Vec<Idx>>,
    /// Plies of the leaf threat search: fours the side to move may make.
    pub(crate) leaf_fours: u32,
}

impl<'a> Search<'a> {
    pub(crate) fn new(board: Board, budget: &'a mut Budget) -> Search<'a> {
        Search {
            board,
            budget,
            tt: vec![Entry::default(); 1 << 16],
            dead: super::threat::dead_ends(),
            history: vec![0; super::board::CELLS * 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
            leaf_fours: 6,
        }
    }

    /// The moves the threats on the board allow the side to move.
    pub(crate) fn moves(&mut self) -> Moves {
        let me = self.board.to_move();
        let opp = 1 - me;
        let mut fives = Vec::new();
        self.board.five_points(me, &mut fives);
        if let Some(&p) = fives.first() {
            return Moves::Win(p, 1);
        }
        self.board.five_points(opp, &mut fives);
        match fives.as_slice() {
            [] => {}
            [q] if self.board.legal(*q) => return Moves::Some(vec![*q]),
            _ => {
                let any = self.any_legal();
                return Moves::Loss(any, 2);
            }
        }
        let mut open_four = None;
        let mut opp_threat = false;
        let mut near = Vec::new();
        for &i in self.board.points() {
            if !self.board.is_empty(i) || !self.board.has_neighbour(i) {
                continue;
            }
            if self.board.shape(me, i) == Shape::OpenFour && open_four.is_none() {
                open_four = Some(i);
            }
            if self.board.shape(opp, i) == Shape::OpenFour {
                opp_threat = true;
            }
            near.push(i);
        }
        if let Some(p) = open_four {
            if self.board.legal(p) {
                return Moves::Win(p, 3);
            }
        }
        if opp_threat && opp == 0 {
            // Black's open fours may all be forbidden.
            opp_threat = near
                .iter()
                .any(|&i| self.board.shape(0, i) == Shape::OpenFour && !self.board.forbidden(i));
        }
        if opp_threat {
            near.retain(|&i| {
                self.board.pats(opp, i).iter().any(|p| p.is_four())
                    || self.board.shape(opp, i) >= Shape::OpenFour
                    || self.board.shape(me, i) >= Shape::Four
            });
        }
        near.retain(|&i| self.board.legal(i));
        if near.is_empty() {
            if self.board.is_bare() {
                return Moves::Some(vec![self.board.centre()]);
            }
            // Every point near the stones is forbidden (or the defence
            // fails): any legal point at all.
            let any = self.any_legal_anywhere();
            return match any {
                Some(i) if !opp_threat => Moves::Some(vec![i]),
                other => Moves::Loss(other, 4),
            };
        }
        Moves::Some(near)
    }

    fn any_legal(&mut self) -> Option<Idx> {
        let near: Vec<Idx> = self
            .board
            .points()
            .iter()
            .copied()
            .filter(|&i| self.board.is_empty(i) && self.board.has_neighbour(i))
            .collect();
        match near.into_iter().find(|&i| self.board.legal(i)) {
            Some(i) => Some(i),
            None => self.any_legal_anywhere(),
        }
    }

    fn any_legal_anywhere(&mut self) -> Option<Idx> {
        let points = self.board.points().to_vec();
        points.into_iter().find(|&i| self.board.legal(i))
    }

    /// Orders moves best first: the table's move, then pattern value for
    /// both sides and history.
    pub(crate) fn order(&self, moves: &mut [Idx], first: Option<Idx>) {
        let me = self.board.to_move();
        let opp = 1 - me;
        let key = |i: Idx| -> i64 {
            if Some(i) == first {
                return i64::MAX;
            }
            let attack = i64::from(self.board.value(me, i));
            let defend = i64::from(self.board.value(opp, i));
            (attack * 12 + defend * 10) * 64 + i64::from(self.history[i * 2 + me])
        };
        moves.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
    }

    fn probe(&self) -> Option<Entry> {
        let key = self.board.hash();
        let e = self.tt[(key as usize) & (self.tt.len() - 1)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    fn store(&mut self, depth: i32, score: i32, bound: u8, mv: Option<Idx>, ply: usize) {
        let key = self.board.hash();
        let slot = (key as usize) & (self.tt.len() - 1);
        let old = self.tt[slot];
        if old.key == key && i32::from(old.depth) > depth && bound != EXACT {
            return;
        }
        self.tt[slot] = Entry {
            key,
            score: to_table(score, ply),
            mv: mv.map_or(0, |m| m as u16),
            depth: depth.clamp(-1, 100) as i8,
            bound,
        };
    }

    /// The principal variation found by the last search from `ply`.
    pub(crate) fn pv(&self, ply: usize) -> &[Idx] {
        &self.pv[ply]
    }

    /// Negamax with a window: the score for the side to move.
    pub(crate) fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.budget.spend() {
            return 0;
        }
        if ply >= MAX_PLY || self.board.is_full() {
            return 0;
        }
        let moves = match self.moves() {
            Moves::Win(p, n) => {
                self.pv[ply].push(p);
                return MATE - (ply as i32 + n as i32);
            }
            Moves::Loss(p, n) => {
                self.pv[ply].extend(p);
                return -(MATE - (ply as i32 + n as i32));
            }
            Moves::Some(m) => m,
        };
        let forced = moves.len() == 1;
        if depth <= 0 && !forced {
            return self.leaf(ply);
        }
        let entry = self.probe();
        if let Some(e) = entry {
            if i32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    UPPER => s <= alpha,
                    _ => false,
                };
                if cut && moves.contains(&(e.mv as usize)) {
                    self.pv[ply].push(e.mv as usize);
                    return s;
                }
            }
        }
        let mut moves = moves;
        self.order(&mut moves, entry.map(|e| e.mv as usize));
        if !forced {
            moves.truncate(WIDTH);
        }
        let next_depth = if forced { depth } else { depth - 1 };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (n, &m) in moves.iter().enumerate() {
            self.board.play(m);
            let score = if n == 0 {
                -self.search(next_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves a ply shallower first.
                let reduce = i32::from(n >= 6 && depth >= 3);
                let mut s = -self.search(next_depth - reduce, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    s = -self.search(next_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.board.undo();
            if self.budget.exhausted() {
                return best.max(alpha0);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if score >= beta {
                    let me = self.board.to_move();
                    self.history[m * 2 + me] += depth * depth;
                    break;
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.store(depth, best, bound, best_move, ply);
        best
    }

    /// A leaf: a short VCF for the side to move, else the static value.
    fn leaf(&mut self, ply: usize) -> i32 {
        if self.leaf_fours > 0 {
            let me = self.board.to_move();
            let has_four = self.board.points().iter().any(|&i| {
                self.board.is_empty(i)
                    && self.board.has_neighbour(i)
                    && self.board.shape(me, i) >= Shape::Four
            });
            if has_four {
                let fours = self.leaf_fours;
                let line = Threats::new(&mut self.board, self.budget, &mut self.dead).win(0, fours);
                if let Some(line) = line {
                    let n = line.len() as i32;
                    self.pv[ply] = line;
                    return MATE - (ply as i32 + n);
                }
            }
        }
        self.board.eval().clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }
}

pub(crate) const INFINITY: i32 = INF;
