//! The field as row masks, and what a field and a lock are worth.

use qipan_rules::tetris::{Cells, Position, TSpin, HEIGHT, WIDTH};

/// A full row.
const FULL: u16 = (1 << WIDTH) - 1;

/// The locked cells: `rows[r]` has bit `c` set when `(c, r)` is filled,
/// row 0 at the bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    pub(crate) rows: [u16; HEIGHT],
}

impl Field {
    /// The field of a position (without its active piece).
    pub(crate) fn of(pos: &Position) -> Field {
        let mut rows = [0u16; HEIGHT];
        for (r, row) in rows.iter_mut().enumerate() {
            for c in 0..WIDTH {
                if pos.cell(c as u8, r as u8) == Some(true) {
                    *row |= 1 << c;
                }
            }
        }
        Field { rows }
    }

    /// The field after locking `cells`, and how many rows that cleared.
    pub(crate) fn lock(&self, cells: &Cells) -> (Field, u8) {
        let mut rows = self.rows;
        for &(c, r) in cells {
            if usize::from(r) < HEIGHT && usize::from(c) < WIDTH {
                rows[usize::from(r)] |= 1 << c;
            }
        }
        let mut kept = 0;
        for r in 0..HEIGHT {
            if rows[r] != FULL {
                rows[kept] = rows[r];
                kept += 1;
            }
        }
        for row in &mut rows[kept..] {
            *row = 0;
        }
        (Field { rows }, (HEIGHT - kept) as u8)
    }

    fn filled(&self, c: i32, r: i32) -> bool {
        if !(0..WIDTH as i32).contains(&c) || r < 0 {
            return true;
        }
        r < HEIGHT as i32 && self.rows[r as usize] >> c & 1 == 1
    }
}

/// Attack (garbage lines sent) of a lock by the guideline's table: 0, 0,
/// 1, 2, 4 for 0–4 lines; a T-spin single, double and triple 2, 4 and 6; a
/// mini T-spin double 1; one more for a back-to-back (a tetris or a T-spin
/// clear after another, with no other clear between). `b2b` is whether
/// the last clear was one of those, and is brought up to date. Combos are
/// not counted.
pub fn attack(lines: u8, spin: Option<TSpin>, b2b: &mut bool) -> u32 {
    if lines == 0 {
        return 0;
    }
    let base = match spin {
        Some(TSpin::Full) => 2 * u32::from(lines),
        Some(TSpin::Mini) => u32::from(lines.saturating_sub(1)),
        None => [0, 0, 1, 2, 4][usize::from(lines.min(4))],
    };
    let difficult = lines == 4 || spin.is_some();
    let bonus = u32::from(difficult && *b2b);
    *b2b = difficult;
    base + bonus
}

/// The evaluation's weights.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weights {
    pub(crate) height: i32,
    pub(crate) height_top_half: i32,
    pub(crate) height_danger: i32,
    pub(crate) holes: i32,
    pub(crate) covered: i32,
    pub(crate) bumpiness: i32,
    pub(crate) bumpiness_sq: i32,
    pub(crate) row_transitions: i32,
    pub(crate) well_depth: i32,
    pub(crate) extra_wells: i32,
    pub(crate) tslot: i32,
    pub(crate) clear: [i32; 5],
    pub(crate) tspin: [i32; 4],
    pub(crate) mini: i32,
    pub(crate) b2b: i32,
}

/// The weights the engine plays with.
pub(crate) const WEIGHTS: Weights = Weights {
    height: -30,
    height_top_half: -150,
    height_danger: -1500,
    holes: -400,
    covered: -30,
    bumpiness: -25,
    bumpiness_sq: -6,
    row_transitions: -40,
    well_depth: 60,
    extra_wells: -80,
    tslot: 150,
    clear: [0, -250, -200, -100, 700],
    tspin: [0, 300, 900, 1300],
    mini: -50,
    b2b: 150,
};

/// What a lock earns: its clear or T-spin, and a back-to-back bonus.
pub(crate) fn lock_reward(lines: u8, spin: Option<TSpin>, b2b: bool, w: &Weights) -> i32 {
    let l = usize::from(lines.min(4));
    let mut v = match spin {
        Some(TSpin::Full) => w.tspin[l.min(3)],
        Some(TSpin::Mini) => w.mini,
        None => w.clear[l],
    };
    if lines > 0 && b2b && (lines == 4 || spin.is_some()) {
        v += w.b2b;
    }
    v
}

/// What a field is worth: low and flat with no holes is good, a deep well
/// (one, for tetrises) and T-slots better; holes, cells over holes,
/// height (much more in the top half and in the rows near the top),
/// bumps, row transitions and more than one well are bad.
pub(crate) fn field_value(f: &Field, w: &Weights) -> i32 {
    let mut heights = [0i32; WIDTH];
    let top = f.rows.iter().rposition(|&r| r != 0).map_or(0, |r| r + 1);
    for (c, h) in heights.iter_mut().enumerate() {
        *h = (0..top)
            .rev()
            .find(|&r| f.rows[r] >> c & 1 == 1)
            .map_or(0, |r| r as i32 + 1);
    }
    let mut holes = 0;
    let mut covered = 0;
    for (c, &h) in heights.iter().enumerate() {
        let mut above = 0;
        for r in (0..h).rev() {
            if f.rows[r as usize] >> c & 1 == 1 {
                above += 1;
            } else {
                holes += 1;
                covered += above.min(6);
            }
        }
    }
    let mut row_transitions = 0;
    for r in 0..top {
        // Walls count as filled on both sides.
        let row = u32::from(f.rows[r]) << 1 | 1 | 1 << (WIDTH + 1);
        row_transitions += ((row ^ (row >> 1)) & ((1 << (WIDTH + 1)) - 1)).count_ones() as i32;
    }
    // The well: the lowest column; its depth below the lower neighbour.
    let (well, _) = heights
        .iter()
        .enumerate()
        .min_by_key(|&(c, &h)| (h, c))
        .unwrap_or((0, &0));
    let mut bumpiness = 0;
    let mut bumpiness_sq = 0;
    let mut prev: Option<i32> = None;
    for (c, &h) in heights.iter().enumerate() {
        if c == well {
            continue;
        }
        if let Some(p) = prev {
            let d = (h - p).abs();
            bumpiness += d;
            bumpiness_sq += d * d;
        }
        prev = Some(h);
    }
    let side = |c: i32| {
        if (0..WIDTH as i32).contains(&c) {
            heights[c as usize]
        } else {
            i32::MAX
        }
    };
    let wc = well as i32;
    let well_depth = (side(wc - 1).min(side(wc + 1)) - heights[well]).clamp(0, 4);
    let mut extra_wells = 0;
    for c in 0..WIDTH as i32 {
        if c == wc {
            continue;
        }
        let d = side(c - 1).min(side(c + 1)) - heights[c as usize];
        if d >= 3 {
            extra_wells += d - 2;
        }
    }
    let max_h = heights.iter().copied().max().unwrap_or(0);
    let mean = heights.iter().sum::<i32>() / WIDTH as i32;
    let mut v = w.height * mean
        + w.height_top_half * (max_h - 10).max(0)
        + w.height_danger * (max_h - 15).max(0)
        + w.holes * holes
        + w.covered * covered
        + w.bumpiness * bumpiness
        + w.bumpiness_sq * bumpiness_sq
        + w.row_transitions * row_transitions
        + w.well_depth * well_depth
        + w.extra_wells * extra_wells;
    if max_h <= 12 && holes <= 2 {
        v += w.tslot * tslots(f, &heights).min(2);
    }
    v
}

/// T-spin double slots: a T, pointing down, would fit under an overhang
/// and clear the two rows it fills (the lower row full but for the T's
/// stem, the upper row full but for the T's three cells).
fn tslots(f: &Field, heights: &[i32; WIDTH]) -> i32 {
    let mut n = 0;
    for cx in 1..WIDTH as i32 - 1 {
        // The stem sits on the stack in its column, at that column's
        // height; the T's bar one row above.
        let stem = heights[cx as usize];
        let bar = stem + 1;
        if bar + 1 >= HEIGHT as i32 {
            continue;
        }
        let empty = |c: i32, r: i32| !f.filled(c, r);
        if !(empty(cx, stem) && empty(cx - 1, bar) && empty(cx, bar) && empty(cx + 1, bar)) {
            continue;
        }
        if !(f.filled(cx - 1, stem) && f.filled(cx + 1, stem) && empty(cx, bar + 1)) {
            continue;
        }
        let roof_left = f.filled(cx - 1, bar + 1);
        let roof_right = f.filled(cx + 1, bar + 1);
        if roof_left == roof_right {
            continue;
        }
        let lower = f.rows[stem as usize];
        let upper = f.rows[bar as usize];
        if lower.count_ones() == WIDTH as u32 - 1 && upper.count_ones() == WIDTH as u32 - 3 {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(rows: &[&str]) -> Field {
        let mut f = Field { rows: [0; HEIGHT] };
        for (i, row) in rows.iter().rev().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == 'X' {
                    f.rows[i] |= 1 << c;
                }
            }
        }
        f
    }

    #[test]
    fn locking_clears_full_rows() {
        let f = field(&["XXXXXXXXX.", "XXXXXXXXX."]);
        let (g, lines) = f.lock(&[(9, 0), (9, 1), (9, 2), (9, 3)]);
        assert_eq!(lines, 2);
        assert_eq!(g.rows[0], 1 << 9);
        assert_eq!(g.rows[1], 1 << 9);
        assert_eq!(g.rows[2], 0);
    }

    #[test]
    fn holes_cost_and_a_tslot_is_seen() {
        let flat = field(&["XXXXXXXXX."]);
        let holed = field(&["XXXXXXXXXX", "XXXX.XXXX."]);
        assert!(field_value(&flat, &WEIGHTS) > field_value(&holed, &WEIGHTS));
        let slot = field(&["XX........", "X...XXXXXX", "XX.XXXXXXX"]);
        let heights = [3, 3, 0, 1, 2, 2, 2, 2, 2, 2];
        assert_eq!(tslots(&slot, &heights), 1);
    }

    #[test]
    fn attack_follows_the_guideline_table() {
        let mut b2b = false;
        assert_eq!(attack(4, None, &mut b2b), 4);
        assert_eq!(attack(4, None, &mut b2b), 5);
        assert_eq!(attack(0, None, &mut b2b), 0);
        assert!(b2b);
        assert_eq!(attack(2, Some(TSpin::Full), &mut b2b), 5);
        assert_eq!(attack(1, None, &mut b2b), 0);
        assert!(!b2b);
        assert_eq!(attack(2, None, &mut b2b), 1);
    }
}
