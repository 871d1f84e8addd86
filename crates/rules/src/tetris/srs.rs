//! The Super Rotation System: the cells of every piece in every rotation
//! state, and the two wall-kick tables.
//!
//! A piece lives in a square bounding box (3×3 for J, L, S, T, Z; 4×4 for I;
//! 2×2 for O) whose top-left corner is the piece's origin. Box cells are
//! written `(bx, by)` with `by` counting *down* from the box's top row, as the
//! wiki draws them; a box cell lands on the board at column `x + bx`, row
//! `y - by` (rows count up from the bottom).
//!
//! A basic rotation turns the box a quarter turn about its centre
//! (clockwise: `(bx, by) → (n-1-by, bx)` in an `n×n` box). When the turned
//! piece collides, the kick offsets for that transition are tried in order
//! and the first that fits wins; offsets are `(dx, dy)` with `dy` up, exactly
//! as on the wiki. Test 1 is always `(0, 0)`, the basic rotation.
//!
//! Source of the tables: TetrisWiki, "Super Rotation System", section "Wall
//! Kicks" (<https://tetris.wiki/Super_Rotation_System>), the "J, L, T, S, Z
//! Tetromino Wall Kick Data" and "I Tetromino Wall Kick Data" tables (the
//! guideline's). The J/L/S/T/Z rows agree test for test with
//! <https://tetris.wiki/User:Zircean/SRS_wallkicks> (whose I lists, from
//! Jago's analysis, give tests 4 and 5 in the other order), and both tables
//! entry for entry with the `SRSkicktable` of the open-source Yoreni/testtrip
//! (`src/game/RotationSystems.js`). The O piece does not rotate (every state
//! of it fills the same cells), so it has no kicks.

use super::types::{Kind, Rotation};

/// Cells of the spawn state in the box, `(bx, by)` with `by` down.
const SPAWN: [[(i8, i8); 4]; 7] = [
    // I: the second row of the 4×4 box.
    [(0, 1), (1, 1), (2, 1), (3, 1)],
    // O: the whole 2×2 box.
    [(0, 0), (1, 0), (0, 1), (1, 1)],
    // T: nub up.
    [(1, 0), (0, 1), (1, 1), (2, 1)],
    // S
    [(1, 0), (2, 0), (0, 1), (1, 1)],
    // Z
    [(0, 0), (1, 0), (1, 1), (2, 1)],
    // J: nub over the left end.
    [(0, 0), (0, 1), (1, 1), (2, 1)],
    // L: nub over the right end.
    [(2, 0), (0, 1), (1, 1), (2, 1)],
];

/// Side of each kind's box.
pub(crate) const BOX: [i8; 7] = [4, 2, 3, 3, 3, 3, 3];

/// Box cells of every kind in every state, `[kind][rotation]`.
pub(crate) const SHAPES: [[[(i8, i8); 4]; 4]; 7] = shapes();

const fn shapes() -> [[[(i8, i8); 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let n = BOX[k];
        out[k][0] = SPAWN[k];
        let mut r = 1;
        while r < 4 {
            let mut c = 0;
            while c < 4 {
                let (bx, by) = out[k][r - 1][c];
                // O is symmetric: turning its 2×2 box changes no cell.
                out[k][r][c] = (n - 1 - by, bx);
                c += 1;
            }
            r += 1;
        }
        k += 1;
    }
    out
}

/// A kick table: `[from][cw = 0, ccw = 1]`, five `(dx, dy)` tests each, `dy`
/// up.
type Kicks = [[[(i8, i8); 5]; 2]; 4];

/// J, L, S, T, Z (TetrisWiki, "J, L, T, S, Z Tetromino Wall Kick Data").
pub(crate) const KICKS_JLSTZ: Kicks = [
    // from 0: 0->R, 0->L
    [
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    ],
    // from R: R->2, R->0
    [
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    ],
    // from 2: 2->L, 2->R
    [
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    ],
    // from L: L->0, L->2
    [
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    ],
];

/// I (TetrisWiki, "I Tetromino Wall Kick Data").
pub(crate) const KICKS_I: Kicks = [
    // from 0: 0->R, 0->L
    [
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    ],
    // from R: R->2, R->0
    [
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    ],
    // from 2: 2->L, 2->R
    [
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    ],
    // from L: L->0, L->2
    [
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    ],
];

/// The five tests of turning `kind` out of `from`, clockwise or not; `None`
/// for O, which does not rotate.
#[inline]
pub(crate) fn kicks(kind: Kind, from: Rotation, clockwise: bool) -> Option<&'static [(i8, i8); 5]> {
    let dir = usize::from(!clockwise);
    match kind {
        Kind::O => None,
        Kind::I => Some(&KICKS_I[from.index()][dir]),
        Kind::T | Kind::S | Kind::Z | Kind::J | Kind::L => Some(&KICKS_JLSTZ[from.index()][dir]),
    }
}

/// Box cells of `kind` in `rotation`.
#[inline]
pub(crate) fn shape(kind: Kind, rotation: Rotation) -> &'static [(i8, i8); 4] {
    &SHAPES[kind.index()][rotation.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_four_times_is_the_identity_and_states_match_the_wiki_pictures() {
        for k in Kind::ALL {
            let mut a = SHAPES[k.index()][3];
            let mut b = SHAPES[k.index()][0];
            a.sort_unstable();
            b.sort_unstable();
            let n = BOX[k.index()];
            let mut turned: Vec<_> = a.iter().map(|&(bx, by)| (n - 1 - by, bx)).collect();
            turned.sort_unstable();
            assert_eq!(turned, b.to_vec(), "{k}");
        }
        // I in state R is the third column of its box, in L the second.
        let mut r = SHAPES[0][1];
        r.sort_unstable();
        assert_eq!(r, [(2, 0), (2, 1), (2, 2), (2, 3)]);
        let mut l = SHAPES[0][3];
        l.sort_unstable();
        assert_eq!(l, [(1, 0), (1, 1), (1, 2), (1, 3)]);
        // T in state R points right: the middle column plus (2, 1).
        let mut t = SHAPES[2][1];
        t.sort_unstable();
        assert_eq!(t, [(1, 0), (1, 1), (1, 2), (2, 1)]);
    }

    #[test]
    fn a_ccw_kick_is_the_reverse_of_the_cw_kick_back() {
        // X->Y ccw and Y->X cw are negatives of each other in both tables.
        for table in [KICKS_JLSTZ, KICKS_I] {
            for from in 0..4 {
                let to = (from + 1) % 4;
                let there = table[from][0];
                let back = table[to][1];
                for t in 0..5 {
                    assert_eq!((there[t].0, there[t].1), (-back[t].0, -back[t].1));
                }
            }
        }
    }
}
