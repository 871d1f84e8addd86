//! The board as one `u128` of tile exponents, and the table-driven slide.
//!
//! Row `r` lives in bits `32r .. 32r + 20` (a 32-bit lane per row, the top
//! 12 bits of each lane always zero); cell `(r, c)` is the 5-bit exponent at
//! bit `32r + 5c`: 0 for an empty cell, `e` for the tile `2^e`, 1 ≤ e ≤ 17.
//!
//! A row's 20 bits index two precomputed tables of 2^20 entries, one per
//! horizontal direction, so a horizontal move is four lookups. Vertical moves
//! transpose the board (two delta swaps), slide the rows and transpose back.
//! Each table entry holds the slid row in bits 0–19 and the exponents of the
//! (at most two) tiles that merges created in bits 20–24 and 25–29, 0 when
//! there is none, from which the score gained follows.

use std::fmt;
use std::sync::OnceLock;

use super::types::Direction;

/// Exponent of the largest tile, 131072 = 2^17.
pub(crate) const MAX_EXP: u8 = 17;

/// Entries per row table: every 20-bit row.
const ROWS: usize = 1 << 20;
const ROW_MASK: u32 = (1 << 20) - 1;

/// One row table: slid row and merged exponents for every 20-bit row.
type RowTable = [u32; ROWS];

/// The two row tables, built on first use (some 35 ms, 8 MiB).
pub(crate) struct Tables {
    left: Box<RowTable>,
    right: Box<RowTable>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The row tables, built once per process.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

/// The four exponents of a 20-bit row, column 0 first.
fn cells_of_row(row: u32) -> [u8; 4] {
    [0, 1, 2, 3].map(|c| ((row >> (5 * c)) & 0x1F) as u8)
}

fn row_of_cells(cells: [u8; 4]) -> u32 {
    cells
        .iter()
        .enumerate()
        .fold(0, |acc, (c, &e)| acc | (u32::from(e) << (5 * c)))
}

/// Slides one row towards column 0: the tiles close up, then equal
/// neighbours merge, the pair nearest the wall first, each tile at most once.
/// Tiles of 2^17 never merge: 2^18 does not exist (two of them cannot both
/// arise in a game, see the module documentation). Exponents above 17 only
/// occur in table entries that no valid board looks up; they never merge.
fn slide_row_left(row: u32) -> u32 {
    let mut out = [0u8; 4];
    let mut merged = [0u8; 2];
    let mut n = 0;
    let mut merges = 0;
    let mut last_can_merge = false;
    for e in cells_of_row(row) {
        if e == 0 {
            continue;
        }
        if last_can_merge && out[n - 1] == e && e < MAX_EXP {
            out[n - 1] = e + 1;
            merged[merges] = e + 1;
            merges += 1;
            last_can_merge = false;
        } else {
            out[n] = e;
            n += 1;
            last_can_merge = true;
        }
    }
    row_of_cells(out) | (u32::from(merged[0]) << 20) | (u32::from(merged[1]) << 25)
}

/// The row read from column 3 to column 0.
fn reverse_row(row: u32) -> u32 {
    let mut cells = cells_of_row(row);
    cells.reverse();
    row_of_cells(cells)
}

fn build_table(f: impl Fn(u32) -> u32) -> Box<RowTable> {
    let entries: Box<[u32]> = (0..ROWS as u32).map(f).collect();
    entries
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has exactly 2^20 entries"))
}

impl Tables {
    fn build() -> Tables {
        let left = build_table(slide_row_left);
        let right = build_table(|row| {
            let e = slide_row_left(reverse_row(row));
            reverse_row(e & ROW_MASK) | (e & !ROW_MASK)
        });
        Tables { left, right }
    }
}

/// Score gained by a table entry's merges: `2^a + 2^b`, an exponent of 0
/// counting for nothing.
#[inline(always)]
fn entry_gain(entry: u32) -> u32 {
    let a = (entry >> 20) & 0x1F;
    let b = (entry >> 25) & 0x1F;
    ((1u32 << a) & !1) + ((1u32 << b) & !1)
}

/// One bit per cell, at the cell's lowest bit.
const LOW_BITS: u128 = {
    let lane: u128 = 1 | (1 << 5) | (1 << 10) | (1 << 15);
    lane | (lane << 32) | (lane << 64) | (lane << 96)
};

/// 16 tile exponents, see the module documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Board(u128);

impl Board {
    /// The empty board.
    pub(crate) const EMPTY: Board = Board(0);

    /// The exponent at `(row, col)`, both 0–3.
    #[inline]
    pub(crate) fn get(self, row: usize, col: usize) -> u8 {
        ((self.0 >> (32 * (row & 3) + 5 * (col & 3))) & 0x1F) as u8
    }

    /// The board with `exp` (at most 31; callers keep it at most 17) at
    /// `(row, col)`, both 0–3.
    #[inline]
    pub(crate) fn with(self, row: usize, col: usize, exp: u8) -> Board {
        let shift = 32 * (row & 3) + 5 * (col & 3);
        Board((self.0 & !(0x1F << shift)) | (u128::from(exp & 0x1F) << shift))
    }

    /// The exponents, rows top first.
    pub(crate) fn exponents(self) -> [[u8; 4]; 4] {
        let mut out = [[0; 4]; 4];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, e) in row.iter_mut().enumerate() {
                *e = self.get(r, c);
            }
        }
        out
    }

    /// One bit per empty cell, at the cell's lowest bit.
    #[inline]
    fn empty_bits(self) -> u128 {
        let b = self.0;
        !(b | (b >> 1) | (b >> 2) | (b >> 3) | (b >> 4)) & LOW_BITS
    }

    /// How many cells are empty.
    #[inline]
    pub(crate) fn empty_count(self) -> u32 {
        self.empty_bits().count_ones()
    }

    /// The `n`-th empty cell (0-based) in reading order: row 0 first, each
    /// row from column 0.
    #[inline]
    pub(crate) fn nth_empty(self, n: u32) -> Option<(usize, usize)> {
        let mut bits = self.empty_bits();
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        (bits != 0).then(|| {
            let at = bits.trailing_zeros() as usize;
            (at / 32, at % 32 / 5)
        })
    }

    /// The transposed board: cell `(r, c)` moves to `(c, r)`.
    #[inline(always)]
    fn transpose(self) -> Board {
        #[inline(always)]
        fn delta_swap(b: u128, mask: u128, delta: u32) -> u128 {
            let t = (b ^ (b >> delta)) & mask;
            b ^ t ^ (t << delta)
        }
        // Swap (r, c) with (r + 1, c - 1) for even r and odd c: the
        // off-diagonal cells of each 2×2 block, 32 - 5 = 27 bits apart.
        const M1: u128 = {
            let lane: u128 = (0x1F << 5) | (0x1F << 15);
            lane | (lane << 64)
        };
        // Swap the top-right 2×2 block with the bottom-left one:
        // (r, c) with (r + 2, c - 2), 64 - 10 = 54 bits apart.
        const M2: u128 = {
            let lane: u128 = 0x3FF << 10;
            lane | (lane << 32)
        };
        Board(delta_swap(delta_swap(self.0, M1, 27), M2, 54))
    }

    /// Every row through `table`: the new board and the score gained.
    #[inline(always)]
    fn slide_rows(self, table: &RowTable) -> (Board, u32) {
        let b = self.0;
        let look = |lane: u32| table[((b >> (32 * lane)) as u32 & ROW_MASK) as usize];
        let (e0, e1, e2, e3) = (look(0), look(1), look(2), look(3));
        let board = u128::from(e0 & ROW_MASK)
            | (u128::from(e1 & ROW_MASK) << 32)
            | (u128::from(e2 & ROW_MASK) << 64)
            | (u128::from(e3 & ROW_MASK) << 96);
        let gain = entry_gain(e0) + entry_gain(e1) + entry_gain(e2) + entry_gain(e3);
        (Board(board), gain)
    }

    /// The board after sliding every tile towards `d`, and the score gained
    /// (the sum of the merged tiles' values, below 2^21). No tile spawns.
    #[inline]
    pub(crate) fn slide(self, d: Direction, t: &Tables) -> (Board, u32) {
        match d {
            Direction::Left => self.slide_rows(&t.left),
            Direction::Right => self.slide_rows(&t.right),
            Direction::Up => {
                let (b, gain) = self.transpose().slide_rows(&t.left);
                (b.transpose(), gain)
            }
            Direction::Down => {
                let (b, gain) = self.transpose().slide_rows(&t.right);
                (b.transpose(), gain)
            }
        }
    }
}

impl fmt::Debug for Board {
    /// The tile values, rows top first: `[[2, 0, 0, 0], …]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values = self
            .exponents()
            .map(|row| row.map(|e| if e == 0 { 0 } else { 1u64 << e }));
        write!(f, "Board({values:?})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: [[u8; 4]; 4]) -> Board {
        let mut b = Board::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                b = b.with(r, c, e);
            }
        }
        b
    }

    #[test]
    fn transpose_moves_every_cell() {
        let rows = [
            [1, 2, 3, 4],
            [5, 6, 7, 8],
            [9, 10, 11, 12],
            [13, 14, 15, 16],
        ];
        let t = board(rows).transpose();
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                assert_eq!(t.get(c, r), e);
            }
        }
        assert_eq!(t.transpose(), board(rows));
    }

    #[test]
    fn row_entries_hold_the_merged_exponents() {
        let row = row_of_cells([1, 1, 2, 2]);
        let e = slide_row_left(row);
        assert_eq!(cells_of_row(e & ROW_MASK), [2, 3, 0, 0]);
        assert_eq!(entry_gain(e), 4 + 8);
        let e = slide_row_left(row_of_cells([17, 17, 16, 16]));
        assert_eq!(cells_of_row(e & ROW_MASK), [17, 17, 17, 0]);
        assert_eq!(entry_gain(e), 1 << 17);
    }

    #[test]
    fn counts_and_finds_empty_cells() {
        let b = board([[0, 1, 0, 0], [17, 17, 17, 17], [0, 0, 0, 2], [31, 0, 0, 0]]);
        assert_eq!(b.empty_count(), 9);
        assert_eq!(b.nth_empty(0), Some((0, 0)));
        assert_eq!(b.nth_empty(2), Some((0, 3)));
        assert_eq!(b.nth_empty(5), Some((2, 2)));
        assert_eq!(b.nth_empty(8), Some((3, 3)));
        assert_eq!(b.nth_empty(9), None);
    }
}
