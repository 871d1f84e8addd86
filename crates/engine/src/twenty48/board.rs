//! The search's own board: sixteen 4-bit exponents in a `u64`, row `r` in
//! bits `16r .. 16r + 16`, cell `(r, c)` at bit `16r + 4c`, and the tables
//! it is moved and judged with.
//!
//! The rules crate's position moves by the same rule (its nibble path),
//! but keeps its tiles to itself and spawns only by its generator; a
//! search must place every possible spawn, so it works on a copy it can
//! write. Exponents above 15 (tiles of 65536 and more) are kept as 15 and
//! a 15 never merges here: a search over such a board sees a slightly
//! different game, which only costs judgement, never legality, as the root
//! moves always come from the rules crate.

use std::sync::OnceLock;

/// Every 16-bit line (one row, four exponents, column 0 in the low nibble).
const LINES: usize = 1 << 16;

/// Largest exponent a nibble holds; it does not merge.
const TOP: u8 = 15;

/// The weights of a line's evaluation (see [`line_value`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Weights {
    /// Given to every line, so that a living board is worth more than a
    /// lost one (which is worth 0).
    pub(crate) alive: f32,
    /// Per empty cell.
    pub(crate) empty: f32,
    /// Per tile that could merge with a neighbour along the line.
    pub(crate) merges: f32,
    /// Against the smaller of the two monotonicity breaks, on exponents
    /// raised to `mono_power`.
    pub(crate) mono: f32,
    /// The power of exponents in the monotonicity term.
    pub(crate) mono_power: f32,
    /// Against the tiles' exponents raised to `sum_power`: big tiles in
    /// many lines cost.
    pub(crate) sum: f32,
    /// The power of exponents in the sum term.
    pub(crate) sum_power: f32,
    /// Against the differences of neighbouring tiles (smoothness).
    pub(crate) rough: f32,
}

/// The weights the engine plays with.
pub(crate) const WEIGHTS: Weights = Weights {
    alive: 200_000.0,
    empty: 270.0,
    merges: 700.0,
    mono: 47.0,
    mono_power: 4.0,
    sum: 11.0,
    sum_power: 3.5,
    rough: 0.0,
};

/// Per line: the line slid towards column 0 and towards column 3, and its
/// evaluation.
pub(crate) struct Tables {
    left: Box<[u16]>,
    right: Box<[u16]>,
    value: Box<[f32]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables, built on first use (a few milliseconds).
pub(crate) fn tables() -> &'static Tables {
    TABLES.get_or_init(|| Tables::build(&WEIGHTS))
}

fn exps(line: u16) -> [u8; 4] {
    [0, 1, 2, 3].map(|i| ((line >> (4 * i)) & 0xF) as u8)
}

fn line_of(e: [u8; 4]) -> u16 {
    e.iter()
        .enumerate()
        .fold(0, |acc, (i, &x)| acc | (u16::from(x) << (4 * i)))
}

/// The line slid towards nibble 0: tiles close up, then equal neighbours
/// merge, the pair nearest the wall first, each tile at most once (15s
/// never).
fn slide_left(line: u16) -> u16 {
    let mut out = [0u8; 4];
    let mut placed = 0;
    let mut last = 0;
    for e in exps(line) {
        if e == 0 {
            continue;
        }
        if e == last && e < TOP {
            out[placed - 1] = e + 1;
            last = 0;
        } else {
            out[placed] = e;
            placed += 1;
            last = e;
        }
    }
    line_of(out)
}

fn reverse(line: u16) -> u16 {
    let e = exps(line);
    line_of([e[3], e[2], e[1], e[0]])
}

/// What one line of four exponents is worth: empty cells and possible
/// merges count for it; a line that is not monotonic (the smaller of its
/// two breaks, so either direction may be the good one), big tiles and
/// rough neighbours count against it.
pub(crate) fn line_value(line: u16, w: &Weights) -> f32 {
    let e = exps(line);
    let mut empty = 0.0;
    let mut merges = 0.0;
    let mut run = 0.0;
    let mut prev = 0;
    let mut sum = 0.0;
    for &x in &e {
        sum += f32::from(x).powf(w.sum_power);
        if x == 0 {
            empty += 1.0;
            continue;
        }
        if x == prev {
            run += 1.0;
        } else {
            if run > 0.0 {
                merges += 1.0 + run;
            }
            run = 0.0;
        }
        prev = x;
    }
    if run > 0.0 {
        merges += 1.0 + run;
    }
    let (mut falling, mut rising) = (0.0f32, 0.0f32);
    let mut rough = 0.0;
    for i in 1..4 {
        let (a, b) = (f32::from(e[i - 1]), f32::from(e[i]));
        if a > b {
            falling += a.powf(w.mono_power) - b.powf(w.mono_power);
        } else {
            rising += b.powf(w.mono_power) - a.powf(w.mono_power);
        }
        if e[i - 1] != 0 && e[i] != 0 {
            rough += (a - b).abs();
        }
    }
    w.alive + w.empty * empty + w.merges * merges
        - w.mono * falling.min(rising)
        - w.sum * sum
        - w.rough * rough
}

impl Tables {
    pub(crate) fn build(w: &Weights) -> Tables {
        let left: Box<[u16]> = (0..LINES).map(|l| slide_left(l as u16)).collect();
        let right: Box<[u16]> = (0..LINES)
            .map(|l| reverse(slide_left(reverse(l as u16))))
            .collect();
        let value: Box<[f32]> = (0..LINES).map(|l| line_value(l as u16, w)).collect();
        Tables { left, right, value }
    }

    /// The board after a move (`0` up, `1` down, `2` left, `3` right, the
    /// order of the rules crate's `Direction::ALL`); the same board when
    /// nothing moves.
    #[inline]
    pub(crate) fn slide(&self, b: u64, d: usize) -> u64 {
        match d {
            0 => transpose(self.rows(transpose(b), &self.left)),
            1 => transpose(self.rows(transpose(b), &self.right)),
            2 => self.rows(b, &self.left),
            _ => self.rows(b, &self.right),
        }
    }

    #[inline]
    fn rows(&self, b: u64, table: &[u16]) -> u64 {
        (0..4).fold(0, |acc, r| {
            let line = ((b >> (16 * r)) & 0xFFFF) as usize;
            acc | (u64::from(table[line]) << (16 * r))
        })
    }

    /// The board's evaluation: its four rows and its four columns.
    #[inline]
    pub(crate) fn value(&self, b: u64) -> f32 {
        let t = transpose(b);
        (0..4)
            .map(|r| {
                self.value[((b >> (16 * r)) & 0xFFFF) as usize]
                    + self.value[((t >> (16 * r)) & 0xFFFF) as usize]
            })
            .sum()
    }
}

/// Rows become columns: cell `(r, c)` goes to `(c, r)`. Two rounds of
/// swapping blocks across the diagonal: the 1×1 blocks of each 2×2 block,
/// then the 2×2 blocks.
#[inline]
pub(crate) fn transpose(x: u64) -> u64 {
    let keep = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a = keep | ((x & 0x0000_F0F0_0000_F0F0) << 12) | ((x >> 12) & 0x0000_F0F0_0000_F0F0);
    let keep = a & 0xFF00_FF00_00FF_00FF;
    keep | ((a & 0x0000_0000_FF00_FF00) << 24) | ((a >> 24) & 0x0000_0000_FF00_FF00)
}

/// How many cells are empty.
#[inline]
pub(crate) fn empty_cells(b: u64) -> u32 {
    let mut x = b;
    x |= (x >> 2) & 0x3333_3333_3333_3333;
    x |= x >> 1;
    (!x & 0x1111_1111_1111_1111).count_ones()
}

/// How many different tile values the board holds.
pub(crate) fn distinct_tiles(b: u64) -> u32 {
    let mut seen = 0u16;
    for i in 0..16 {
        let e = (b >> (4 * i)) & 0xF;
        if e != 0 {
            seen |= 1 << e;
        }
    }
    seen.count_ones()
}

/// The board of a grid of tile values (rows top first), exponents above
/// 15 kept as 15.
pub(crate) fn from_grid(grid: [[u32; 4]; 4]) -> u64 {
    let mut b = 0;
    for (r, row) in grid.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let e = if v == 0 {
                0
            } else {
                u64::from(v.trailing_zeros().min(u32::from(TOP)))
            };
            b |= e << (16 * r + 4 * c);
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: [[u8; 4]; 4]) -> u64 {
        let mut b = 0;
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                b |= u64::from(e) << (16 * r + 4 * c);
            }
        }
        b
    }

    #[test]
    fn lines_slide_by_the_rules() {
        assert_eq!(exps(slide_left(line_of([1, 1, 2, 0]))), [2, 2, 0, 0]);
        assert_eq!(exps(slide_left(line_of([2, 2, 3, 3]))), [3, 4, 0, 0]);
        assert_eq!(exps(slide_left(line_of([1, 1, 1, 1]))), [2, 2, 0, 0]);
        assert_eq!(exps(slide_left(line_of([0, 1, 0, 1]))), [2, 0, 0, 0]);
        assert_eq!(exps(slide_left(line_of([15, 15, 0, 0]))), [15, 15, 0, 0]);
        let t = tables();
        let b = board([[1, 1, 1, 0], [0; 4], [0; 4], [0; 4]]);
        assert_eq!(t.slide(b, 3), board([[0, 0, 1, 2], [0; 4], [0; 4], [0; 4]]));
        let b = board([[1, 0, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [0; 4]]);
        assert_eq!(
            t.slide(b, 1),
            board([[0; 4], [0; 4], [2, 0, 0, 0], [2, 0, 0, 0]])
        );
        assert_eq!(
            t.slide(b, 0),
            board([[2, 0, 0, 0], [2, 0, 0, 0], [0; 4], [0; 4]])
        );
    }

    #[test]
    fn transposing_twice_is_nothing() {
        let b = 0x0123_4567_89AB_CDEF;
        assert_eq!(transpose(transpose(b)), b);
        let t = transpose(b);
        for r in 0..4 {
            for c in 0..4 {
                assert_eq!((t >> (16 * r + 4 * c)) & 0xF, (b >> (16 * c + 4 * r)) & 0xF);
            }
        }
        assert_eq!(empty_cells(b), 1);
        assert_eq!(empty_cells(0), 16);
        assert_eq!(distinct_tiles(b), 15);
    }
}
