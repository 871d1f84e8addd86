//! Black's forbidden points under the rules of the Renju International
//! Federation (RIF, 1996, corrected 1998).
//!
//! The definitions this follows, from the RIF rule text (section 3):
//!
//! - *five*: an unbroken row of exactly five stones; *overline*: six or more;
//! - *four*: a row of four stones to which one more stone makes five;
//! - *straight four*: an unbroken four that can become five in two ways;
//! - *three*: a row of three stones to which one more stone, without making
//!   a five at the same time, makes a straight four;
//! - *double-four* / *double-three*: one stone making more than one four /
//!   three that meet at that stone.
//!
//! and from the rules themselves: black may not make an overline, a
//! double-four or a double-three; a five made at the same time takes
//! priority over all of them; a three counts only when the straight four
//! it threatens can be made on a point that is itself not forbidden to
//! black (so the test is recursive).
//!
//! How the test works, for a black stone on the empty point `p`:
//!
//! 1. Put the stone down. If some line through `p` now holds exactly five,
//!    the point is allowed (five takes priority).
//! 2. If some line holds six or more, it is an overline.
//! 3. Fours: along each line, the black run through `p` can be completed
//!    only at the first empty point beyond each of its ends (a five that
//!    contains `p` has its one gap next to `p`'s run). Each end that gives
//!    exactly five is a four — except that when both ends do and the run
//!    is four long it is one straight four, not two. Two ends on one line
//!    with a shorter run (`x.xxx.x`, `xx.xx.xx`, `xxx.x.xxx`) are the
//!    same-line double-four. Two or more fours in all is a double-four.
//! 4. Threes: along each line, a stone on the first empty point `q` beyond
//!    either end of `p`'s run must give an unbroken run of exactly four
//!    whose two ends both give exactly five (a straight four), must not
//!    make a five anywhere, and `q` must not be forbidden itself with `p`
//!    on the board (steps 1–4 again, for `q`). A line with such a `q` holds
//!    a three; two or more lines with a three is a double-three.
//!
//! The reason reported is the first that applies in the order overline,
//! double-four, double-three. Wenzhe Lu's open-source `ForbiddenPointFinder`
//! (used by Piskvork-era renju engines and the renju fork of KataGo) tests
//! the same things the same way; the code here was written from the rule
//! text above, and its answers were compared with that checker's on 23,000
//! random positions, with no difference (see `tests/data/gomoku/`).

use super::board::{Board, BLACK, DIRECTIONS, EMPTY};
use super::types::Forbidden;

/// Whether black on the empty point `(c, r)` would be forbidden, and why.
///
/// The board is used as scratch space and left as it was.
pub(crate) fn forbidden_at(board: &mut Board, c: i8, r: i8) -> Option<Forbidden> {
    debug_assert_eq!(board.get(c, r), EMPTY);
    if !enough_black_nearby(board, c, r) {
        return None;
    }
    board.set(c, r, BLACK);
    let verdict = classify(board, c, r);
    board.set(c, r, EMPTY);
    verdict
}

/// Every forbidden pattern needs at least four other black stones within
/// five points of `p` along its lines (a double-three: two per three; a
/// same-line double-four: four; an overline: five), so fewer rules it out
/// without any pattern analysis. This keeps listings cheap on open boards.
fn enough_black_nearby(board: &Board, c: i8, r: i8) -> bool {
    let mut n = 0;
    for &(dc, dr) in &DIRECTIONS {
        for k in 1..=5 {
            if board.get(c + k * dc, r + k * dr) == BLACK {
                n += 1;
            }
            if board.get(c - k * dc, r - k * dr) == BLACK {
                n += 1;
            }
        }
    }
    n >= 4
}

/// Steps 1–4 for a black stone already standing on `(c, r)`.
fn classify(board: &mut Board, c: i8, r: i8) -> Option<Forbidden> {
    let mut overline = false;
    for dir in 0..4 {
        let len = board.run_through(c, r, dir, BLACK).len;
        if len == 5 {
            return None;
        }
        overline |= len > 5;
    }
    if overline {
        return Some(Forbidden::Overline);
    }
    let fours: u32 = (0..4).map(|dir| fours_along(board, c, r, dir)).sum();
    if fours >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    let mut threes = 0;
    for dir in 0..4 {
        if three_along(board, c, r, dir) {
            threes += 1;
            if threes == 2 {
                return Some(Forbidden::DoubleThree);
            }
        }
    }
    None
}

/// The two points where the black run through `(c, r)` along `dir` could
/// grow: the first cell beyond each end (possibly off the board or taken).
#[inline]
fn run_ends(board: &Board, c: i8, r: i8, dir: usize) -> ([(i8, i8); 2], usize) {
    let (dc, dr) = DIRECTIONS[dir];
    let (back, fwd) = board.extent(c, r, dir, BLACK);
    let ends = [
        (c - (back + 1) * dc, r - (back + 1) * dr),
        (c + (fwd + 1) * dc, r + (fwd + 1) * dr),
    ];
    (ends, (back + fwd + 1) as usize)
}

/// Whether black on the empty `(c, r)` would make exactly five along `dir`.
#[inline]
fn completes_five(board: &Board, c: i8, r: i8, dir: usize) -> bool {
    board.get(c, r) == EMPTY && board.run_through(c, r, dir, BLACK).len == 5
}

/// The number of fours the black stone on `(c, r)` is part of along `dir`.
fn fours_along(board: &Board, c: i8, r: i8, dir: usize) -> u32 {
    let (ends, len) = run_ends(board, c, r, dir);
    let n = ends
        .iter()
        .filter(|&&(ec, er)| completes_five(board, ec, er, dir))
        .count() as u32;
    if n == 2 && len == 4 {
        1 // a straight four is one four with two ways to five
    } else {
        n
    }
}

/// Whether the black stone on `(c, r)` makes a straight four along `dir`:
/// a run of exactly four both of whose ends give exactly five.
fn straight_four_along(board: &Board, c: i8, r: i8, dir: usize) -> bool {
    let (ends, len) = run_ends(board, c, r, dir);
    len == 4
        && ends
            .iter()
            .all(|&(ec, er)| completes_five(board, ec, er, dir))
}

/// Whether the black stone on `(c, r)` makes a real three along `dir`.
fn three_along(board: &mut Board, c: i8, r: i8, dir: usize) -> bool {
    let (ends, len) = run_ends(board, c, r, dir);
    if len >= 4 {
        return false; // adding a stone to the run cannot make an unbroken four
    }
    for (qc, qr) in ends {
        if board.get(qc, qr) != EMPTY {
            continue;
        }
        board.set(qc, qr, BLACK);
        let real = straight_four_along(board, qc, qr, dir)
            && !(0..4).any(|d| board.run_through(qc, qr, d, BLACK).len == 5)
            && classify(board, qc, qr).is_none();
        board.set(qc, qr, EMPTY);
        if real {
            return true;
        }
    }
    false
}
