//! Every place the active piece can lock, with a shortest way there: a
//! breadth-first search over (column, row, rotation state, last-move) states
//! reached by `left`, `right`, `cw`, `ccw` (with kicks) and `soft`, each
//! state then hard-dropped.

use std::collections::HashSet;

use super::board::{Board, Piece};
use super::position::{drop_distance, rotate, tspin, LastMove, Position};
use super::types::{Action, Placement, TSpin};

/// Box columns range over -2..=11 and box rows over 0..=43: every piece
/// inside the field has its box corner there.
const XS: usize = 14;
const YS: usize = 44;

fn slot(p: Piece, last: LastMove) -> Option<usize> {
    let x = usize::try_from(i16::from(p.x) + 2).ok()?;
    let y = usize::try_from(p.y).ok()?;
    (x < XS && y < YS).then(|| ((p.rot.index() * 3 + usize::from(last.index())) * YS + y) * XS + x)
}

/// A placement's identity: its four cells and its T-spin class.
fn key(cells: &[(u8, u8); 4], spin: Option<TSpin>) -> u64 {
    let mut k = 0u64;
    for &(c, r) in cells {
        k = k << 9 | (u64::from(r) * 10 + u64::from(c));
    }
    k << 2 | spin_class(spin) as u64
}

/// Index of a piece's place, without the last-move flag.
fn place(p: Piece) -> Option<usize> {
    slot(p, LastMove::Other).map(|s| s % (YS * XS) + p.rot.index() * YS * XS)
}

/// The row the box top of `p` rests on when it falls straight down,
/// memoised in `rest` for every row it passes.
fn resting_row(board: &Board, p: Piece, rest: &mut [i8]) -> i8 {
    let Some(start) = place(p) else {
        return p.y - drop_distance(board, p);
    };
    if rest[start] != i8::MIN {
        return rest[start];
    }
    let mut y = p.y;
    loop {
        let down = p.shifted(0, y - 1 - p.y);
        if !board.fits(down) {
            break;
        }
        if let Some(i) = place(down) {
            if rest[i] != i8::MIN {
                y = rest[i];
                break;
            }
        }
        y -= 1;
    }
    let mut at = p;
    while at.y >= y {
        if let Some(i) = place(at) {
            rest[i] = y;
        }
        at = at.shifted(0, -1);
    }
    y
}

/// 0 for no spin, 1 mini, 2 full.
fn spin_class(spin: Option<TSpin>) -> usize {
    match spin {
        None => 0,
        Some(TSpin::Mini) => 1,
        Some(TSpin::Full) => 2,
    }
}

struct Node {
    piece: Piece,
    last: LastMove,
    parent: usize,
    action: Action,
}

impl Position {
    /// Every distinct way the active piece can lock from where it is, by
    /// shifts, rotations (with kicks) and soft drops followed by a hard
    /// drop. Two placements differ by their cells or by their T-spin class
    /// (the same cells reached with and without a T-spin are both listed).
    /// Each comes with one shortest action sequence, ending in `hard`, that
    /// locks the piece there. Hold is not searched. Listed in the order the
    /// search finds them (by sequence length); empty once the game is over.
    pub fn placements(&self) -> Vec<Placement> {
        if self.over.is_some() {
            return Vec::new();
        }
        let board: &Board = &self.board;
        let mut seen = vec![false; 4 * 3 * YS * XS];
        let mut found = HashSet::new();
        let mut landed_seen = vec![false; 4 * YS * XS * 3];
        let mut out = Vec::new();
        let mut nodes = vec![Node {
            piece: self.piece,
            last: self.last,
            parent: usize::MAX,
            action: Action::Hard,
        }];
        if let Some(s) = slot(self.piece, self.last) {
            seen[s] = true;
        }
        // Resting row of each (rotation, column, row): filled for a whole
        // fall at once, so every column is walked down only once.
        let mut rest = vec![i8::MIN; 4 * YS * XS];
        let mut head = 0;
        while head < nodes.len() {
            let (p, last) = (nodes[head].piece, nodes[head].last);
            let d = p.y - resting_row(board, p, &mut rest);
            let landed = p.shifted(0, -d);
            let landed_last = if d > 0 { LastMove::Other } else { last };
            let spin = tspin(board, landed, landed_last);
            // Most nodes land where an earlier one did: a flat table of
            // landed (place, spin) answers those before any hashing.
            let landed_slot = place(landed).map(|i| i * 3 + spin_class(spin));
            let fresh = match landed_slot {
                Some(i) => !std::mem::replace(&mut landed_seen[i], true),
                None => true,
            };
            let cells = landed.sorted_cells();
            if fresh && found.insert(key(&cells, spin)) {
                let mut actions = vec![Action::Hard];
                let mut i = head;
                while i != 0 {
                    actions.push(nodes[i].action);
                    i = nodes[i].parent;
                }
                actions.reverse();
                out.push(Placement {
                    kind: p.kind,
                    rotation: landed.rot,
                    cells,
                    tspin: spin,
                    actions,
                });
            }
            let moves = [
                (
                    Action::Left,
                    board
                        .fits(p.shifted(-1, 0))
                        .then(|| (p.shifted(-1, 0), LastMove::Other)),
                ),
                (
                    Action::Right,
                    board
                        .fits(p.shifted(1, 0))
                        .then(|| (p.shifted(1, 0), LastMove::Other)),
                ),
                (Action::Cw, rotate(board, p, true)),
                (Action::Ccw, rotate(board, p, false)),
                (
                    Action::Soft,
                    (d > 0).then(|| (p.shifted(0, -1), LastMove::Other)),
                ),
            ];
            for (action, next) in moves {
                let Some((q, how)) = next else { continue };
                let Some(s) = slot(q, how) else { continue };
                if !seen[s] {
                    seen[s] = true;
                    nodes.push(Node {
                        piece: q,
                        last: how,
                        parent: head,
                        action,
                    });
                }
            }
            head += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_spins_apart() {
        let cells = [(0, 0), (1, 0), (2, 0), (1, 1)];
        assert_ne!(key(&cells, None), key(&cells, Some(TSpin::Full)));
        assert_ne!(
            key(&cells, Some(TSpin::Mini)),
            key(&cells, Some(TSpin::Full))
        );
    }
}
