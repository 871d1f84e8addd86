//! The alpha-beta search: iterative deepening with aspiration windows,
//! principal variation search, a transposition table (kept between
//! searches by [`super::Engine`]), null move (reduced by 2, by 3 from
//! depth 6, verified by a shallower search when the side has few pieces;
//! a null move answered by a mate marks a threat, and no move of that node
//! is then reduced or pruned), late-move reductions, extensions of checks
//! and of the only reply to a check, killer, countermove and history
//! ordering with MVV-LVA for captures (a capture of a lesser, guarded
//! piece after the killers), and a quiescence search over captures and
//! check evasions, and on its first ply the quiet checks from unguarded
//! points.
//!
//! Repetitions are judged by the rules crate. The search keeps the keys of
//! the game's positions since the last capture and of its own path; when a
//! position comes round again, the cycle is played out on a copy of the
//! game's [`History`] (the path, then the cycle once more, so the position
//! occurs a third time) and [`History::verdict`] says what repeating it
//! means: a draw, or a loss for the side that checks or chases
//! perpetually. The answers are cached by cycle.

use std::collections::HashMap;

use qipan_rules::xiangqi::{History, Side, MOVE_LIMIT_PLIES};
use qipan_rules::Status;

use super::board::{
    kind_of, side_of, Board, MoveList, Mv, Undo, CANNON, CHARIOT, HORSE, MAX_MOVES,
};
use super::eval::{evaluate, MATERIAL};
use crate::mate::{from_table, to_table, MATE, MATE_BOUND};
use crate::Budget;

pub(crate) const INF: i32 = 32_000;
pub(crate) const MAX_PLY: usize = 96;
/// The deepest iteration.
const MAX_DEPTH: u32 = 64;

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// Transposition table entries: at most 2^20 (16 MiB).
pub(crate) const MAX_TABLE_BITS: u32 = 20;
const MIN_TABLE_BITS: u32 = 12;

/// The transposition table: two words per entry, the key, and move |
/// score | depth | bound. A power of two entries long.
pub(crate) struct Table(Vec<[u64; 2]>);

impl Table {
    /// An empty table of 2^`bits` entries (`bits` between 12 and 20).
    pub(crate) fn new(bits: u32) -> Table {
        Table(vec![
            [0u64; 2];
            1 << bits.clamp(MIN_TABLE_BITS, MAX_TABLE_BITS)
        ])
    }
}

/// What the search knows of each position of the game's window and its
/// own path.
#[derive(Clone, Copy)]
struct Ply {
    key: u64,
    check: bool,
    /// The move that led here (none at the start or after a null move).
    mv: Mv,
    /// Plies since the last capture or null move.
    clock: u32,
}

pub(crate) struct Search<'a> {
    pub(crate) board: Board,
    budget: &'a mut Budget,
    tt: &'a mut Table,
    killers: [[Mv; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    /// The quiet move that last refuted each move (by the piece moved and
    /// its destination), tried after the killers.
    counters: Vec<Mv>,
    pv: Vec<[Mv; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    line: Vec<Ply>,
    /// Where the root stands in `line`.
    root: usize,
    game: History,
    verdicts: HashMap<u64, i8>,
    /// Null moves on the current path: below one, the rules crate cannot
    /// replay the path, and a repetition counts as a draw.
    nulls: u32,
}

impl<'a> Search<'a> {
    /// A search of `game`'s position with `tt` (empty, or left by earlier
    /// searches).
    pub(crate) fn new(game: &History, budget: &'a mut Budget, tt: &'a mut Table) -> Search<'a> {
        let game = game.trimmed();
        let mut board = Board::new(game.start());
        let mut line = vec![Ply {
            key: board.key,
            check: board.in_check(),
            mv: Mv(0),
            clock: game.start_counters().halfmove_clock,
        }];
        for &m in game.moves() {
            let mv = Mv::of(m);
            let capture = board.cells[mv.to()] != 0;
            board.make(mv);
            let clock = if capture {
                0
            } else {
                line[line.len() - 1].clock + 1
            };
            line.push(Ply {
                key: board.key,
                check: board.in_check(),
                mv,
                clock,
            });
        }
        Search {
            board,
            budget,
            tt,
            killers: [[Mv(0); 2]; MAX_PLY + 1],
            history: vec![0; 14 * 256],
            counters: vec![Mv(0); 14 * 256],
            pv: vec![[Mv(0); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root: line.len() - 1,
            line,
            game,
            verdicts: HashMap::new(),
            nulls: 0,
        }
    }

    #[inline]
    fn current(&self) -> &Ply {
        &self.line[self.line.len() - 1]
    }

    fn push(&mut self, mv: Mv, capture: bool) {
        let clock = if capture || mv.is_none() {
            0
        } else {
            self.current().clock + 1
        };
        let p = Ply {
            key: self.board.key,
            check: self.board.in_check(),
            mv,
            clock,
        };
        self.line.push(p);
    }

    fn pop(&mut self) {
        self.line.pop();
    }

    fn probe(&self, key: u64) -> Option<(Mv, i32, i32, u8)> {
        let e = self.tt.0[(key as usize) & (self.tt.0.len() - 1)];
        if e[0] != key || e[1] == 0 {
            return None;
        }
        let d = e[1];
        let mv = Mv((d & 0xffff) as u16);
        let score = i32::from(((d >> 16) & 0xffff) as u16 as i16);
        let depth = i32::from(((d >> 32) & 0xff) as u8 as i8);
        let bound = ((d >> 40) & 0xff) as u8;
        Some((mv, score, depth, bound))
    }

    fn store(&mut self, key: u64, depth: i32, score: i32, bound: u8, mv: Mv, ply: usize) {
        let slot = (key as usize) & (self.tt.0.len() - 1);
        let score = to_table(score, ply).clamp(-INF, INF) as i16 as u16;
        let d = u64::from(mv.0)
            | u64::from(score) << 16
            | u64::from(depth.clamp(-100, 100) as i8 as u8) << 32
            | u64::from(bound) << 40;
        self.tt.0[slot] = [key, d];
    }

    /// The score of a repetition the current position closes, if it does.
    fn repetition(&mut self, ply: usize) -> Option<i32> {
        let n = self.line.len() - 1;
        let now = self.line[n];
        let reach = (now.clock as usize).min(n);
        let mut i = 4;
        while i <= reach {
            if self.line[n - i].key == now.key {
                return Some(self.judge_cycle(n, i, ply));
            }
            i += 2;
        }
        None
    }

    /// What repeating the cycle of the last `len` plies means for the side
    /// to move, asked of the rules crate.
    fn judge_cycle(&mut self, n: usize, len: usize, ply: usize) -> i32 {
        let mut id = 0x9e37_79b9_7f4a_7c15u64;
        for p in &self.line[n - len..=n] {
            id = (id.rotate_left(7) ^ p.key ^ u64::from(p.mv.0)).wrapping_mul(0x100_0000_01b3);
        }
        if self.nulls > 0 {
            return 0;
        }
        let outcome = match self.verdicts.get(&id) {
            Some(&o) => o,
            None => {
                let o = self.play_out(n, len);
                self.verdicts.insert(id, o);
                o
            }
        };
        match outcome {
            1 => MATE - ply as i32,
            -1 => -(MATE - ply as i32),
            _ => 0,
        }
    }

    /// 1 when the side to move at `n` wins by the repetition, -1 when it
    /// loses, 0 for a draw.
    fn play_out(&self, n: usize, len: usize) -> i8 {
        let mut h = self.game.clone();
        let mover = if self.board.turn == 0 {
            Side::Red
        } else {
            Side::Black
        };
        let path = self.line[self.root + 1..=n].iter().map(|p| p.mv);
        let cycle = self.line[n - len + 1..=n].iter().map(|p| p.mv);
        let path_len = n - self.root;
        for (k, mv) in path.chain(cycle).enumerate() {
            if h.push(mv.public()).is_err() {
                return 0;
            }
            if k + 1 < path_len {
                continue;
            }
            match h.verdict() {
                Status::Ongoing => {}
                Status::Won { winner, .. } => return if winner == mover { 1 } else { -1 },
                Status::Drawn { .. } | Status::Over { .. } => return 0,
            }
        }
        0
    }

    /// Where the answer to the move that led here is kept in `counters`:
    /// none at the start or after a null move.
    fn counter_slot(&self) -> Option<usize> {
        let prev = self.current().mv;
        if prev.is_none() {
            return None;
        }
        Some(hist_index(self.board.cells[prev.to()], prev.to()))
    }

    /// A score per move of `list` to order it by.
    fn scores(&self, list: &MoveList, tt_move: Mv, ply: usize) -> [i32; MAX_MOVES] {
        let mut s = [0i32; MAX_MOVES];
        let b = &self.board;
        let counter = self.counter_slot().map_or(Mv(0), |c| self.counters[c]);
        for (i, &m) in list.as_slice().iter().enumerate() {
            let piece = b.cells[m.from()];
            let victim = b.cells[m.to()];
            s[i] = if m == tt_move {
                1 << 30
            } else if victim != 0 {
                let gain = MATERIAL[kind_of(victim)] * 16 - MATERIAL[kind_of(piece)] / 16;
                // A capture of a lesser, guarded piece comes after the
                // killers: it most likely loses material.
                if MATERIAL[kind_of(piece)] > MATERIAL[kind_of(victim)] + 50
                    && b.attacked_by(m.to(), b.turn ^ 1)
                {
                    (1 << 22) + gain
                } else {
                    (1 << 24) + gain
                }
            } else if self.killers[ply][0] == m {
                (1 << 23) + 1
            } else if self.killers[ply][1] == m {
                1 << 23
            } else if counter == m {
                (1 << 23) - 1
            } else {
                self.history[hist_index(piece, m.to())]
            };
        }
        s
    }

    /// The search proper: the score of the current position for the side
    /// to move, `depth` plies deep within (`alpha`, `beta`).
    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        // Once out of budget, a re-search after a cut-short child costs no
        // node: the count stays exactly at a node limit.
        if self.budget.exhausted() || self.budget.spend() {
            return 0;
        }
        if ply > 0 {
            if let Some(v) = self.repetition(ply) {
                return v;
            }
            if self.current().clock >= MOVE_LIMIT_PLIES {
                return 0;
            }
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.current().check;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(alpha, beta, ply, true);
        }
        let pv_node = beta - alpha > 1;
        let key = self.board.key;
        let mut tt_move = Mv(0);
        if let Some((mv, score, d, bound)) = self.probe(key) {
            tt_move = mv;
            if !pv_node && d >= depth {
                let s = from_table(score, ply);
                let cut = match bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    return s;
                }
            }
        }
        // Only non-PV nodes out of check look at the static evaluation.
        let static_eval = if in_check || pv_node {
            -INF
        } else {
            evaluate(&self.board)
        };
        // A position far above beta at a shallow depth is not searched.
        if !pv_node && !in_check && depth <= 3 && beta.abs() < MATE_BOUND {
            let margin = 120 * depth;
            if static_eval - margin >= beta {
                return static_eval - margin;
            }
        }
        // Whether passing loses to a mate: the opponent threatens one, so
        // no move here is reduced or pruned.
        let mut threat = false;
        if !pv_node
            && !in_check
            && null_ok
            && depth >= 2
            && static_eval >= beta
            && self.has_pieces(self.board.turn)
        {
            let r = 2 + i32::from(depth >= 6);
            self.board.make_null();
            self.push(Mv(0), false);
            self.nulls += 1;
            let v = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.nulls -= 1;
            self.pop();
            self.board.unmake_null();
            if self.budget.exhausted() {
                return 0;
            }
            if v >= beta {
                // With few pieces left a pass may be the best move
                // (zugzwang): a shallower search without the pass confirms.
                let verified = self.has_many_pieces(self.board.turn)
                    || self.search(depth - r, beta - 1, beta, ply, false) >= beta;
                if self.budget.exhausted() {
                    return 0;
                }
                if verified {
                    return if v > MATE_BOUND { beta } else { v };
                }
            } else if v < -MATE_BOUND {
                threat = true;
            }
        }
        if tt_move.is_none() && pv_node && depth >= 4 {
            // Internal deepening: a move to try first.
            self.search(depth - 2, alpha, beta, ply, false);
            if self.budget.exhausted() {
                return 0;
            }
            if let Some((mv, ..)) = self.probe(key) {
                tt_move = mv;
            }
        }
        let mut list = MoveList::new();
        self.board.generate(false, &mut list);
        let mut order = self.scores(&list, tt_move, ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = Mv(0);
        let mut legal = 0;
        let side = self.board.turn;
        let single_reply = in_check && self.only_one_legal(&list);
        for i in 0..list.len {
            let j = i + first_best(&order[i..list.len]);
            list.moves.swap(i, j);
            order.swap(i, j);
            let m = list.moves[i];
            let quiet = self.board.cells[m.to()] == 0;
            let piece = self.board.cells[m.from()];
            let u: Undo = self.board.make(m);
            if self.board.attacked(side) {
                self.board.unmake(u);
                continue;
            }
            legal += 1;
            self.push(m, !quiet);
            let gives_check = self.current().check;
            // Futility: a quiet move near the leaves that cannot lift a
            // position far below alpha up to it is not searched.
            if depth <= 2
                && legal > 1
                && quiet
                && !pv_node
                && !in_check
                && !threat
                && !gives_check
                && alpha.abs() < MATE_BOUND
                && static_eval + 140 * depth <= alpha
            {
                self.pop();
                self.board.unmake(u);
                continue;
            }
            // Checks are extended, and so is the only way out of a check.
            let new_depth = depth - 1 + i32::from(gives_check || single_reply);
            let v = if legal == 1 {
                -self.search(new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let reduce = if depth >= 3
                    && legal > 3
                    && quiet
                    && !in_check
                    && !threat
                    && !gives_check
                    && order[i] < (1 << 23)
                {
                    let r = 1
                        + i32::from(depth >= 5 && legal > 8)
                        + i32::from(depth >= 9 && legal > 24);
                    if pv_node {
                        r.min(1)
                    } else {
                        r
                    }
                } else {
                    0
                };
                let mut v = -self.search(new_depth - reduce, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && reduce > 0 {
                    v = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(new_depth, -beta, -alpha, ply + 1, true);
                }
                v
            };
            self.pop();
            self.board.unmake(u);
            if self.budget.exhausted() {
                return best.max(alpha0);
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    self.extend_pv(ply, m);
                }
                if v >= beta {
                    if quiet {
                        if self.killers[ply][0] != m {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = m;
                        }
                        if let Some(c) = self.counter_slot() {
                            self.counters[c] = m;
                        }
                        let h = &mut self.history[hist_index(piece, m.to())];
                        *h = (*h + depth * depth).min(1 << 22);
                    }
                    break;
                }
            }
        }
        if legal == 0 {
            // Checkmated or stalemated: either way lost.
            return -(MATE - ply as i32);
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.store(key, depth, best, bound, best_move, ply);
        best
    }

    /// `m` at `ply` followed by the line found below it becomes the
    /// principal variation from `ply`.
    fn extend_pv(&mut self, ply: usize, m: Mv) {
        self.pv[ply][ply] = m;
        let len = self.pv_len[ply + 1];
        for k in ply + 1..len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = len.max(ply + 1);
    }

    /// Captures only (all evasions when in check), standing pat otherwise;
    /// with `checks` (its first ply), when no capture cuts the node off,
    /// also the quiet moves that check from a point the opponent does not
    /// attack.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.pv_len[ply] = ply;
        // Once out of budget, a re-search after a cut-short child costs no
        // node: the count stays exactly at a node limit.
        if self.budget.exhausted() || self.budget.spend() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.board);
        }
        let in_check = self.current().check;
        let mut best = -(MATE - ply as i32);
        if !in_check {
            let stand = evaluate(&self.board);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut list = MoveList::new();
        self.board.generate(!in_check, &mut list);
        let mut order = self.scores(&list, Mv(0), ply);
        for i in 0..list.len {
            let j = i + first_best(&order[i..list.len]);
            list.moves.swap(i, j);
            order.swap(i, j);
            let m = list.moves[i];
            let victim = self.board.cells[m.to()];
            // Delta pruning: a capture that cannot bring the score near
            // alpha even with a margin is not tried.
            if !in_check && victim != 0 && best + MATERIAL[kind_of(victim)] + 200 < alpha {
                continue;
            }
            let Some(v) = self.quiesce_move(m, in_check, alpha, beta, ply) else {
                continue;
            };
            if let Some(r) = self.take(m, v, (&mut best, &mut alpha), beta, ply) {
                return r;
            }
        }
        if checks && !in_check {
            let mut quiet = MoveList::new();
            self.board.generate(false, &mut quiet);
            for &m in quiet.as_slice() {
                if self.board.cells[m.to()] != 0 || !self.board.may_check(m) {
                    continue;
                }
                let Some(v) = self.quiesce_move(m, false, alpha, beta, ply) else {
                    continue;
                };
                if let Some(r) = self.take(m, v, (&mut best, &mut alpha), beta, ply) {
                    return r;
                }
            }
        }
        best
    }

    /// Takes the score `v` of the move `m` into a quiescence node's best
    /// score and alpha: `Some` of what the node returns when it stops here
    /// (out of budget, or `v` at or above `beta`).
    fn take(
        &mut self,
        m: Mv,
        v: i32,
        (best, alpha): (&mut i32, &mut i32),
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if self.budget.exhausted() {
            return Some((*best).max(*alpha));
        }
        if v > *best {
            *best = v;
            if v > *alpha {
                *alpha = v;
                self.extend_pv(ply, m);
            }
            if v >= beta {
                return Some(v);
            }
        }
        None
    }

    /// The score of `m` in the quiescence search, or `None` when it is not
    /// searched: illegal, or (out of check) a capture of a lesser piece on
    /// a guarded point, which loses the difference at once, or a quiet
    /// move that does not check or checks from a guarded point.
    fn quiesce_move(
        &mut self,
        m: Mv,
        in_check: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let side = self.board.turn;
        let victim = self.board.cells[m.to()];
        let attacker = kind_of(self.board.cells[m.from()]);
        let u = self.board.make(m);
        let skip = self.board.attacked(side)
            || (!in_check
                && if victim == 0 {
                    !self.board.in_check() || self.board.attacked_by(m.to(), side ^ 1)
                } else {
                    MATERIAL[attacker] > MATERIAL[kind_of(victim)] + 50
                        && self.board.attacked_by(m.to(), side ^ 1)
                });
        if skip {
            self.board.unmake(u);
            return None;
        }
        self.push(m, victim != 0);
        let v = -self.quiesce(-beta, -alpha, ply + 1, false);
        self.pop();
        self.board.unmake(u);
        Some(v)
    }

    /// Whether exactly one move of `list` is legal.
    fn only_one_legal(&mut self, list: &MoveList) -> bool {
        let side = self.board.turn;
        let mut n = 0;
        for &m in list.as_slice() {
            let u = self.board.make(m);
            n += usize::from(!self.board.attacked(side));
            self.board.unmake(u);
            if n > 1 {
                return false;
            }
        }
        n == 1
    }

    /// Whether `side` has pieces enough (a chariot and another chariot,
    /// horse or cannon) that passing is never its best move.
    fn has_many_pieces(&self, side: usize) -> bool {
        let b = &self.board;
        b.count(side, CHARIOT) >= 1
            && b.count(side, CHARIOT) + b.count(side, HORSE) + b.count(side, CANNON) >= 2
    }

    /// Whether `side` has a chariot, horse or cannon: without one, passing
    /// may be the best move (zugzwang), so null move is not tried.
    fn has_pieces(&self, side: usize) -> bool {
        self.board.count(side, CHARIOT)
            + self.board.count(side, HORSE)
            + self.board.count(side, CANNON)
            > 0
    }

    /// The root at `depth` within (`alpha`, `beta`), over `moves` less
    /// `exclude`: the best score and its line among the moves searched to
    /// the end, and whether every move was (false when the budget ran out
    /// first).
    fn root_search(
        &mut self,
        moves: &[Mv],
        exclude: &[Mv],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<(i32, Vec<Mv>)>, bool) {
        let mut best: Option<(i32, Vec<Mv>)> = None;
        let mut first = true;
        for &m in moves.iter().filter(|m| !exclude.contains(m)) {
            let capture = self.board.cells[m.to()] != 0;
            let u = self.board.make(m);
            self.push(m, capture);
            let gives_check = self.current().check;
            let d = depth - 1 + i32::from(gives_check);
            let v = if first {
                -self.search(d, -beta, -alpha, 1, true)
            } else {
                let mut v = -self.search(d, -alpha - 1, -alpha, 1, true);
                if v > alpha && v < beta {
                    v = -self.search(d, -beta, -alpha, 1, true);
                }
                v
            };
            self.pop();
            self.board.unmake(u);
            if self.budget.exhausted() {
                return (best, false);
            }
            if first || v > alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                if best.as_ref().is_none_or(|b| v > b.0) {
                    best = Some((v, pv));
                }
                first = false;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    break;
                }
            }
        }
        (best, true)
    }

    /// Iterative deepening: up to `lines` lines (score and moves), best
    /// first, of the deepest iteration finished, and its depth.
    pub(crate) fn run(&mut self, lines: usize) -> (Vec<(i32, Vec<Mv>)>, u32) {
        let mut moves = self.board.legal_moves();
        if moves.is_empty() {
            return (Vec::new(), 0);
        }
        // Captures of the most valuable pieces first before the first iteration.
        moves.sort_by_key(|m| {
            let v = self.board.cells[m.to()];
            if v == 0 {
                0
            } else {
                -MATERIAL[kind_of(v)]
            }
        });
        let lines = lines.clamp(1, moves.len());
        let mut found: Vec<(i32, Vec<Mv>)> =
            moves.iter().take(lines).map(|&m| (0, vec![m])).collect();
        let mut done = 0;
        let mut prev: Vec<i32> = vec![0; lines];
        let max_depth = self
            .budget
            .limits()
            .depth
            .unwrap_or(MAX_DEPTH)
            .min(MAX_DEPTH);
        'deepen: for depth in 1..=max_depth {
            if !self.budget.may_deepen(depth) {
                break;
            }
            let mut this: Vec<(i32, Vec<Mv>)> = Vec::with_capacity(lines);
            for &guess in prev.iter().take(lines) {
                let exclude: Vec<Mv> = this.iter().map(|l| l.1[0]).collect();
                if exclude.len() >= moves.len() {
                    break;
                }
                let mut delta = 40;
                let (mut lo, mut hi) = if depth >= 4 && guess.abs() < MATE_BOUND {
                    (guess - delta, guess + delta)
                } else {
                    (-INF, INF)
                };
                let line = loop {
                    let (res, complete) = self.root_search(&moves, &exclude, depth as i32, lo, hi);
                    if !complete {
                        // Cut short: a best line that held within the
                        // window (the last best confirmed, or a better
                        // one) is still worth playing.
                        if let (Some((v, pv)), 1) = (res, lines) {
                            if v > lo || lo == -INF {
                                found = vec![(v, pv)];
                            }
                        }
                        break 'deepen;
                    }
                    let Some((v, pv)) = res else {
                        break 'deepen;
                    };
                    if v <= lo && lo > -INF {
                        lo = (lo - delta).max(-INF);
                        if delta > 400 {
                            lo = -INF;
                        }
                    } else if v >= hi && hi < INF {
                        hi = (hi + delta).min(INF);
                        if delta > 400 {
                            hi = INF;
                        }
                    } else {
                        break (v, pv);
                    }
                    delta *= 3;
                };
                this.push(line);
            }
            this.sort_by_key(|l| std::cmp::Reverse(l.0));
            // The best lines' first moves go first next time.
            let firsts: Vec<Mv> = this.iter().map(|l| l.1[0]).collect();
            moves.sort_by_key(|m| firsts.iter().position(|f| f == m).unwrap_or(usize::MAX));
            prev = this.iter().map(|l| l.0).collect();
            prev.resize(lines, 0);
            found = this;
            done = depth;
            let settled = found
                .first()
                .is_some_and(|l| l.0.abs() > MATE_BOUND && (MATE - l.0.abs()) <= depth as i32);
            if settled && lines == 1 {
                break;
            }
        }
        (found, done)
    }
}

/// The index of the first of the greatest scores (0 for none): the move
/// to try next. Finding the greatest first lets the compiler compare
/// several at once.
#[inline]
fn first_best(scores: &[i32]) -> usize {
    let best = scores.iter().copied().max().unwrap_or(0);
    scores.iter().position(|&s| s == best).unwrap_or(0)
}

#[inline]
fn hist_index(piece: u8, to: usize) -> usize {
    (side_of(piece) * 7 + kind_of(piece)) * 256 + to
}
