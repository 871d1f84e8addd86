//! The alpha-beta search: iterative deepening, principal variation search,
//! a transposition table and killer moves, over pawn moves and the walls
//! that lengthen the opponent's shortest path more than one's own.
//!
//! A wall can lengthen a path only by cutting every shortest path, so it
//! cuts the one the search finds: the candidates are the wall slots along
//! one shortest path of the opponent (at most two per step), each tried and
//! measured, the best few kept.

use std::hash::{Hash, Hasher};

use qipan_rules::quoridor::{Action, Orientation, Player, Position, Square, Wall, SIZE};

use crate::mate::{from_table, to_table, MATE, MATE_BOUND};
use crate::Budget;

const INF: i32 = 32_000;
const MAX_PLY: usize = 64;
/// Walls searched at a node, best first.
const WALL_WIDTH: usize = 8;

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: Option<Action>,
    depth: i8,
    bound: u8,
}

/// A multiply-rotate hasher: positions hash into the table without the
/// cost of SipHash.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

fn key(pos: &Position) -> u64 {
    let mut h = Fx::default();
    pos.hash(&mut h);
    h.finish()
}

/// Steps to the goal, ignoring pawns (always some in a checked position).
fn dist(pos: &Position, p: Player) -> i32 {
    pos.shortest_path(p).map_or(99, i32::from)
}

/// The static value for the side to move, in hundredths of a step.
pub(crate) fn eval(pos: &Position) -> i32 {
    let me = pos.turn();
    let opp = me.opponent();
    let race = 100 * (dist(pos, opp) - dist(pos, me)) + 50;
    let walls = i32::from(pos.walls_left(me)) - i32::from(pos.walls_left(opp));
    race + 20 * walls
}

/// The wall slots that cut one shortest path of `p`'s pawn to its goal.
fn path_walls(pos: &Position, p: Player) -> Vec<Wall> {
    let mut cut = [[false; 4]; 81]; // north, south, east, west
    for w in pos.walls() {
        for (a, b) in w.separates() {
            let (a, b) = (usize::from(a.index()), usize::from(b.index()));
            match w.orientation() {
                Orientation::Horizontal => {
                    cut[a][0] = true;
                    cut[b][1] = true;
                }
                Orientation::Vertical => {
                    cut[a][2] = true;
                    cut[b][3] = true;
                }
            }
        }
    }
    let n = i32::from(SIZE);
    let start = usize::from(pos.pawn(p).index());
    let goal = i32::from(p.goal_rank());
    let mut prev = [usize::MAX; 81];
    prev[start] = start;
    let mut queue = std::collections::VecDeque::from([start]);
    let mut end = None;
    while let Some(s) = queue.pop_front() {
        if s as i32 / n == goal {
            end = Some(s);
            break;
        }
        let steps = [(0, n), (1, -n), (2, 1), (3, -1)];
        for (d, delta) in steps {
            let f = s as i32 % n;
            let off = (d == 2 && f == n - 1) || (d == 3 && f == 0);
            let t = s as i32 + delta;
            if cut[s][d] || off || !(0..81).contains(&t) || prev[t as usize] != usize::MAX {
                continue;
            }
            prev[t as usize] = s;
            queue.push_back(t as usize);
        }
    }
    let mut out = Vec::new();
    let Some(mut s) = end else { return out };
    while prev[s] != s {
        let a = prev[s];
        let (lo, hi) = (a.min(s), a.max(s));
        let (f, r) = ((lo as i32 % n) as u8, (lo as i32 / n) as u8);
        if hi - lo == usize::from(SIZE) {
            out.extend(Wall::new(f, r, Orientation::Horizontal));
            out.extend(
                f.checked_sub(1)
                    .and_then(|f| Wall::new(f, r, Orientation::Horizontal)),
            );
        } else {
            out.extend(Wall::new(f, r, Orientation::Vertical));
            out.extend(
                r.checked_sub(1)
                    .and_then(|r| Wall::new(f, r, Orientation::Vertical)),
            );
        }
        s = a;
    }
    out.sort_unstable();
    out.dedup();
    out
}

pub(crate) struct Search<'a> {
    budget: &'a mut Budget,
    tt: Vec<Entry>,
    killers: Vec<[Option<Action>; 2]>,
    pv: Vec<Vec<Action>>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(budget: &'a mut Budget) -> Search<'a> {
        Search {
            budget,
            tt: vec![Entry::default(); 1 << 16],
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// The moves worth searching, each with the position after it, best
    /// first by a quick look: pawn moves by the path they leave, walls by
    /// how much longer they make the opponent's path than one's own.
    fn moves(&self, pos: &Position, first: Option<Action>, ply: usize) -> Vec<(Action, Position)> {
        let me = pos.turn();
        let opp = me.opponent();
        let (dm, d_opp) = (dist(pos, me), dist(pos, opp));
        let mut scored: Vec<(i32, Action, Position)> = Vec::new();
        for sq in pos.pawn_moves() {
            let a = Action::Move(sq);
            if let Ok(next) = pos.play(a) {
                let gain = dm - dist(&next, me);
                scored.push((1000 + 100 * gain, a, next));
            }
        }
        if pos.walls_left(me) > 0 {
            let mut walls: Vec<(i32, Action, Position)> = Vec::new();
            for w in path_walls(pos, opp) {
                let a = Action::Wall(w);
                let Ok(next) = pos.play(a) else { continue };
                let gain = (dist(&next, opp) - d_opp) - (dist(&next, me) - dm);
                if gain > 0 {
                    walls.push((1000 + 100 * gain - 150, a, next));
                }
            }
            walls.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            walls.truncate(WALL_WIDTH);
            scored.extend(walls);
        }
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        for s in scored.iter_mut() {
            if Some(s.1) == first {
                s.0 = i32::MAX;
            } else if killers.contains(&Some(s.1)) {
                s.0 += 60;
            }
        }
        scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        scored.into_iter().map(|(_, a, p)| (a, p)).collect()
    }

    fn probe(&self, k: u64) -> Option<Entry> {
        let e = self.tt[(k as usize) & (self.tt.len() - 1)];
        (e.key == k && e.bound != 0).then_some(e)
    }

    fn store(&mut self, k: u64, depth: i32, score: i32, bound: u8, mv: Option<Action>, ply: usize) {
        let slot = (k as usize) & (self.tt.len() - 1);
        let score = to_table(score, ply);
        self.tt[slot] = Entry {
            key: k,
            score,
            mv,
            depth: depth.clamp(0, 100) as i8,
            bound,
        };
    }

    fn search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.budget.spend() {
            return 0;
        }
        if pos.winner().is_some() {
            // The player who just moved has arrived.
            return -(MATE - ply as i32);
        }
        let me = pos.turn();
        let goal = me.goal_rank();
        if let Some(sq) = pos
            .pawn_moves()
            .into_iter()
            .find(|s: &Square| s.rank() == goal)
        {
            self.pv[ply].push(Action::Move(sq));
            return MATE - (ply as i32 + 1);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return eval(pos);
        }
        let k = key(pos);
        let entry = self.probe(k);
        if let Some(e) = entry {
            if i32::from(e.depth) >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    self.pv[ply].extend(e.mv);
                    return s;
                }
            }
        }
        let moves = self.moves(pos, entry.and_then(|e| e.mv), ply);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for (n, (a, next)) in moves.into_iter().enumerate() {
            let score = if n == 0 {
                -self.search(&next, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut s = -self.search(&next, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    s = -self.search(&next, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if self.budget.exhausted() {
                return best.max(alpha0);
            }
            if score > best {
                best = score;
                best_move = Some(a);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(a);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if score >= beta {
                    if let Some(k) = self.killers.get_mut(ply) {
                        if k[0] != Some(a) {
                            k[1] = k[0];
                            k[0] = Some(a);
                        }
                    }
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
        self.store(k, depth, best, bound, best_move, ply);
        best
    }

    /// Iterative deepening at the root with `lines` principal variations:
    /// the lines of the deepest iteration finished, best first, and its
    /// depth.
    pub(crate) fn root(&mut self, pos: &Position, lines: usize) -> (Vec<(i32, Vec<Action>)>, u32) {
        let mut roots: Vec<(Action, Position)> = self.moves(pos, None, 0);
        if roots.is_empty() {
            return (Vec::new(), 0);
        }
        let mut best: Vec<(i32, Vec<Action>)> = roots
            .iter()
            .take(lines)
            .map(|(a, next)| (-eval(next), vec![*a]))
            .collect();
        let mut done = 0;
        let max_depth = self.budget.limits().depth.unwrap_or(40);
        for depth in 1..=max_depth as i32 {
            if !self.budget.may_deepen(depth as u32) {
                break;
            }
            let mut scored: Vec<(i32, Vec<Action>)> = Vec::with_capacity(roots.len());
            let mut complete = true;
            for (a, next) in &roots {
                let alpha = if scored.len() < lines {
                    -INF
                } else {
                    let mut v: Vec<i32> = scored.iter().map(|x| x.0).collect();
                    v.sort_unstable_by(|x, y| y.cmp(x));
                    v[lines - 1]
                };
                let v = -self.search(next, depth - 1, -INF, -alpha, 1);
                if self.budget.exhausted() {
                    complete = false;
                    break;
                }
                let mut pv = vec![*a];
                pv.extend_from_slice(&self.pv[1]);
                scored.push((v, pv));
            }
            if !complete {
                break;
            }
            // Stable: equal scores keep the previous order.
            let mut order: Vec<usize> = (0..scored.len()).collect();
            order.sort_by(|&x, &y| scored[y].0.cmp(&scored[x].0));
            roots = order.iter().map(|&i| roots[i]).collect();
            let sorted: Vec<(i32, Vec<Action>)> =
                order.iter().map(|&i| scored[i].clone()).collect();
            done = depth as u32;
            let settled = sorted
                .first()
                .is_some_and(|x| x.0.abs() > MATE_BOUND && (MATE - x.0.abs()) <= depth);
            best = sorted.into_iter().take(lines).collect();
            if settled && lines == 1 {
                break;
            }
        }
        (best, done)
    }
}
