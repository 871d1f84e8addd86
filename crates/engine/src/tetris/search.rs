//! Beam search over placements: every reachable placement of the active
//! piece and of the held (or next) piece, one piece after another through
//! the visible queue, keeping the best few fields at each step.

use qipan_rules::tetris::{Action, Kind, Placement, Position};

use super::eval::{field_value, lock_reward, Field, Weights};
use crate::Budget;

/// A field the search reached: the position (for the placements from it),
/// the field as masks, what the locks on the way earned, and the way.
#[derive(Clone)]
pub(crate) struct Node {
    pos: Position,
    field: Field,
    earned: i32,
    b2b: bool,
    /// The root placement it descends from.
    root: usize,
    /// Placements from the root, each with its whole input path.
    path: Vec<Placement>,
}

/// A child: its parent, the placement, the position after it and its
/// value.
struct Candidate {
    parent: usize,
    placement: Placement,
    pos: Position,
    field: Field,
    earned: i32,
    b2b: bool,
    value: i32,
}

/// Every placement from `pos`, and, when hold is allowed and brings in
/// another kind, every placement after `hold`, its path starting with
/// `hold`. In the rules crate's order, those without hold first.
pub(crate) fn placements(pos: &Position) -> Vec<Placement> {
    let mut out = pos.placements();
    if pos.can_hold() {
        if let Ok(held) = pos.play(Action::Hold) {
            let same = held.piece().map(|p| p.0) == pos.piece().map(|p| p.0);
            if !same {
                out.extend(held.placements().into_iter().map(|mut p| {
                    p.actions.insert(0, Action::Hold);
                    p
                }));
            }
        }
    }
    out
}

/// The placements a search looks at past the first piece: every rotation
/// (none, `cw`, `ccw`, `cw cw`) followed by shifts one way as far as they
/// go, then `hard`, from where the piece is, and the same after `hold`
/// when it brings in another kind. Each comes with the position after it
/// (those that end the game are left out). Some ten times cheaper than the
/// rules crate's full listing, which also finds the soft drops, tucks and
/// spins: the search gives those to the first piece only, where the
/// field is known, and keeps the cheap list for the pieces that follow.
pub(crate) fn drops(pos: &Position) -> Vec<(Placement, Position)> {
    let mut out = Vec::with_capacity(64);
    drops_of(pos, &[], &mut out);
    if pos.can_hold() {
        if let Ok(held) = pos.play(Action::Hold) {
            if held.piece().map(|p| p.0) != pos.piece().map(|p| p.0) {
                drops_of(&held, &[Action::Hold], &mut out);
            }
        }
    }
    out
}

fn drops_of(pos: &Position, prefix: &[Action], out: &mut Vec<(Placement, Position)>) {
    let Some((kind, ..)) = pos.piece() else {
        return;
    };
    let first = out.len();
    let turns: &[&[Action]] = if kind == Kind::O {
        &[&[]]
    } else {
        &[
            &[],
            &[Action::Cw],
            &[Action::Ccw],
            &[Action::Cw, Action::Cw],
        ]
    };
    for turn in turns {
        let mut turned = pos.clone();
        let mut path = prefix.to_vec();
        let mut fits = true;
        for &a in *turn {
            match turned.play(a) {
                Ok(next) => {
                    turned = next;
                    path.push(a);
                }
                Err(_) => {
                    fits = false;
                    break;
                }
            }
        }
        if !fits {
            continue;
        }
        drop_here(&turned, &path, first, out);
        for way in [Action::Left, Action::Right] {
            let mut at = turned.clone();
            let mut way_path = path.clone();
            while let Ok(next) = at.play(way) {
                at = next;
                way_path.push(way);
                drop_here(&at, &way_path, first, out);
            }
        }
    }
}

/// Hard-drops the piece of `pos` (reached by `path`) and lists the result
/// unless the game ends or an earlier entry (from `first` on) filled the
/// same cells.
fn drop_here(pos: &Position, path: &[Action], first: usize, out: &mut Vec<(Placement, Position)>) {
    let Some((kind, rotation, _)) = pos.piece() else {
        return;
    };
    let Ok((next, Some(lock))) = pos.play_traced(Action::Hard) else {
        return;
    };
    if !next.status().is_ongoing() || out[first..].iter().any(|(p, _)| p.cells == lock.cells) {
        return;
    }
    let mut actions = path.to_vec();
    actions.push(Action::Hard);
    out.push((
        Placement {
            kind,
            rotation,
            cells: lock.cells,
            tspin: lock.tspin,
            actions,
        },
        next,
    ));
}

/// Plays a placement's path; `None` when any action is refused or the
/// game ends by it.
pub(crate) fn play(pos: &Position, p: &Placement) -> Option<Position> {
    let mut next = pos.clone();
    for &a in &p.actions {
        next = next.play(a).ok()?;
    }
    next.status().is_ongoing().then_some(next)
}

/// One root placement's result: its value at the depth reached (the best
/// of its descendants in the last step), the depth, and its best path.
pub(crate) struct RootLine {
    pub(crate) value: i32,
    pub(crate) depth: u32,
    pub(crate) path: Vec<Placement>,
    /// Whether playing it ends the game.
    pub(crate) tops_out: bool,
}

pub(crate) struct Search<'a> {
    budget: &'a mut Budget,
    weights: &'a Weights,
}

impl<'a> Search<'a> {
    pub(crate) fn new(budget: &'a mut Budget, weights: &'a Weights) -> Search<'a> {
        Search { budget, weights }
    }

    /// The root placements, each judged one piece deep: always computed
    /// in full, so that there is an answer whatever the budget.
    pub(crate) fn roots(&mut self, pos: &Position, b2b: bool) -> (Vec<RootLine>, Vec<Node>) {
        let field = Field::of(pos);
        let mut lines = Vec::new();
        let mut nodes = Vec::new();
        for (i, p) in placements(pos).into_iter().enumerate() {
            self.budget.spend();
            let (after, cleared) = field.lock(&p.cells);
            let reward = lock_reward(cleared, p.tspin, b2b, self.weights);
            let b2b_after = if cleared > 0 {
                cleared == 4 || p.tspin.is_some()
            } else {
                b2b
            };
            let next = play(pos, &p);
            let value = reward + field_value(&after, self.weights);
            lines.push(RootLine {
                value,
                depth: 1,
                path: vec![p.clone()],
                tops_out: next.is_none(),
            });
            if let Some(next) = next {
                nodes.push(Node {
                    pos: next,
                    field: after,
                    earned: reward,
                    b2b: b2b_after,
                    root: i,
                    path: vec![p],
                });
            }
        }
        (lines, nodes)
    }

    /// A beam `width` wide from the root nodes, `depth` pieces deep in all;
    /// the root lines it improves are updated. `false` when the budget ran
    /// out first (then nothing is updated).
    pub(crate) fn beam(
        &mut self,
        roots: &[Node],
        width: usize,
        depth: u32,
        lines: &mut [RootLine],
    ) -> bool {
        let mut beam = best_of(roots.to_vec(), width, self.weights);
        let mut reached = 1;
        for _ in 1..depth {
            let mut candidates = Vec::new();
            for (i, node) in beam.iter().enumerate() {
                // A node here costs some microseconds, far more than the
                // nodes the budget's own clock checks are spaced for: look
                // at the clock (and the stop flag) once per field expanded.
                if !self.budget.may_deepen(0) {
                    return false;
                }
                for (p, pos) in drops(&node.pos) {
                    if self.budget.spend() {
                        return false;
                    }
                    let (after, cleared) = node.field.lock(&p.cells);
                    let reward = lock_reward(cleared, p.tspin, node.b2b, self.weights);
                    let b2b = if cleared > 0 {
                        cleared == 4 || p.tspin.is_some()
                    } else {
                        node.b2b
                    };
                    let earned = node.earned + reward;
                    candidates.push(Candidate {
                        parent: i,
                        value: earned + field_value(&after, self.weights),
                        placement: p,
                        pos,
                        field: after,
                        earned,
                        b2b,
                    });
                }
            }
            // Best first; ties by the order found, so the result does not
            // depend on the sort.
            candidates.sort_by_key(|c| std::cmp::Reverse(c.value));
            let mut next = Vec::with_capacity(width);
            for c in candidates {
                if next.len() == width {
                    break;
                }
                let parent = &beam[c.parent];
                let pos = c.pos;
                let mut path = parent.path.clone();
                path.push(c.placement);
                next.push(Node {
                    pos,
                    field: c.field,
                    earned: c.earned,
                    b2b: c.b2b,
                    root: parent.root,
                    path,
                });
            }
            if next.is_empty() {
                break;
            }
            beam = next;
            reached += 1;
        }
        // The best node of the last step for each root it reached.
        let mut best: Vec<Option<(i32, &Node)>> = vec![None; lines.len()];
        for node in &beam {
            let v = node.earned + field_value(&node.field, self.weights);
            let slot = &mut best[node.root];
            if slot.is_none_or(|(b, _)| v > b) {
                *slot = Some((v, node));
            }
        }
        for (line, b) in lines.iter_mut().zip(best) {
            if let Some((v, node)) = b {
                if reached >= line.depth {
                    *line = RootLine {
                        value: v,
                        depth: reached,
                        path: node.path.clone(),
                        tops_out: false,
                    };
                }
            }
        }
        true
    }
}

/// The `width` best nodes, best first (ties in the order given).
fn best_of(mut nodes: Vec<Node>, width: usize, w: &Weights) -> Vec<Node> {
    nodes.sort_by_cached_key(|n| std::cmp::Reverse(n.earned + field_value(&n.field, w)));
    nodes.truncate(width);
    nodes
}
