//! The board and the table-driven slide.
//!
//! A [`Board`] keeps the low four bits of every tile exponent as a nibble of a
//! `u64` (row `r` in bits `16r .. 16r + 16`, cell `(r, c)` at bit
//! `16r + 4c`) and the fifth bit, set only for 2^16 and 2^17, in a `u16`
//! (cell `(r, c)` at bit `4r + c`). An exponent is 0 for an empty cell and
//! `e` for the tile `2^e`, 1 ≤ e ≤ 17.
//!
//! Nibble path: while no fifth bit is set (every exponent at most 15) a move
//! works on the nibbles alone. A row's 16 bits index one of two 2^16-entry
//! tables of `u32` (left, right; 512 KiB together) whose entry holds the slid
//! row in bits 0–15, a quarter of the score gained in bits 16–30 and, in bit
//! 31, whether a merge made 2^16, which no nibble holds. Vertical moves
//! transpose the nibbles, slide the rows and transpose back.
//!
//! Wide path: a board with a fifth bit set, or a move that makes 2^16, goes
//! through the 5-bit engine. There the board is one `u128` with a 32-bit lane
//! per row: row `r` in bits `32r .. 32r + 20` (the top 12 bits of each lane
//! always zero), cell `(r, c)` the 5-bit exponent at bit `32r + 5c`. A row's
//! 20 bits index two tables of 2^20 entries, one per horizontal direction, so
//! a horizontal move is four lookups, and vertical moves transpose the board
//! (two delta swaps), slide the rows and transpose back. Each entry holds the
//! slid row in bits 0–19 and the exponents of the (at most two) tiles that
//! merges created in bits 20–24 and 25–29, 0 when there is none, from which
//! the score gained follows. The nibble tables are derived from these entries,
//! so both paths slide by the one rule of [`slide_row_left`].

use std::fmt;
use std::sync::OnceLock;

use super::types::Direction;

/// Exponent of the largest tile, 131072 = 2^17.
pub(crate) const MAX_EXP: u8 = 17;

/// Entries per wide row table: every 20-bit row.
const ROWS: usize = 1 << 20;
const ROW_MASK: u32 = (1 << 20) - 1;

/// One wide row table: slid row and merged exponents for every 20-bit row.
type RowTable = [u32; ROWS];

/// Entries per nibble row table: every 16-bit row.
const NIBBLE_ROWS: usize = 1 << 16;

/// One nibble row table: slid row, quarter gain and escape bit for every
/// 16-bit row.
type NibbleTable = [u32; NIBBLE_ROWS];

/// The bit of a nibble table entry that says a merge made 2^16.
const ESCAPE: u32 = 1 << 31;

/// The two nibble row tables, built on first use (512 KiB).
pub(crate) struct Tables {
    left: Box<NibbleTable>,
    right: Box<NibbleTable>,
}

/// The two wide row tables, built on the first wide move (some 35 ms, 8 MiB).
struct WideTables {
    left: Box<RowTable>,
    right: Box<RowTable>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();
static WIDE_TABLES: OnceLock<WideTables> = OnceLock::new();

/// The nibble row tables, built once per process.
#[inline]
pub(crate) fn tables() -> &'static Tables {
    TABLES.get_or_init(Tables::build)
}

/// The wide row tables, built once per process.
fn wide_tables() -> &'static WideTables {
    WIDE_TABLES.get_or_init(WideTables::build)
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

/// Slides one row towards column 3, as [`slide_row_left`] does towards 0.
fn slide_row_right(row: u32) -> u32 {
    let e = slide_row_left(reverse_row(row));
    reverse_row(e & ROW_MASK) | (e & !ROW_MASK)
}

fn build_table(f: impl Fn(u32) -> u32) -> Box<RowTable> {
    let entries: Box<[u32]> = (0..ROWS as u32).map(f).collect();
    entries
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has exactly 2^20 entries"))
}

impl WideTables {
    fn build() -> WideTables {
        WideTables {
            left: build_table(slide_row_left),
            right: build_table(slide_row_right),
        }
    }
}

/// The 20-bit row of a 16-bit row of nibbles: nibble `c` to bits `5c ..`.
#[inline(always)]
fn widen_row(row: u32) -> u32 {
    (row & 0xF) | ((row & 0xF0) << 1) | ((row & 0xF00) << 2) | ((row & 0xF000) << 3)
}

/// The low four bits of each exponent of a 20-bit row, as 16 bits of nibbles.
#[inline(always)]
fn narrow_row(row: u32) -> u32 {
    (row & 0xF) | ((row >> 1) & 0xF0) | ((row >> 2) & 0xF00) | ((row >> 3) & 0xF000)
}

/// The fifth bits of a row (bit `c` for column `c`) at bits `5c + 4`.
#[inline(always)]
fn widen_high(high: u32) -> u32 {
    ((high & 1) << 4) | ((high & 2) << 8) | ((high & 4) << 12) | ((high & 8) << 16)
}

/// The fifth bits of a 20-bit row, bit `c` for column `c`.
#[inline(always)]
fn narrow_high(row: u32) -> u32 {
    ((row >> 4) & 1) | ((row >> 8) & 2) | ((row >> 12) & 4) | ((row >> 16) & 8)
}

/// The nibble table entry of the 16-bit row `row` from `slide`, a wide
/// slide: the slid row, a quarter of the gain, or [`ESCAPE`] when a merge
/// made 2^16 (or more, which no row of nibbles can).
fn nibble_entry(row: u32, slide: impl Fn(u32) -> u32) -> u32 {
    let e = slide(widen_row(row));
    let (a, b) = ((e >> 20) & 0x1F, (e >> 25) & 0x1F);
    if a > 15 || b > 15 {
        return ESCAPE;
    }
    // Two merges into at most 2^15 gain at most 2^16: the quarter fits in
    // bits 16–30.
    narrow_row(e & ROW_MASK) | ((entry_gain(e) / 4) << 16)
}

fn build_nibble_table(f: impl Fn(u32) -> u32) -> Box<NibbleTable> {
    let entries: Box<[u32]> = (0..NIBBLE_ROWS as u32).map(f).collect();
    entries
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has exactly 2^16 entries"))
}

impl Tables {
    fn build() -> Tables {
        Tables {
            left: build_nibble_table(|row| nibble_entry(row, slide_row_left)),
            right: build_nibble_table(|row| nibble_entry(row, slide_row_right)),
        }
    }
}

/// Score gained by a wide table entry's merges: `2^a + 2^b`, an exponent of
/// 0 counting for nothing.
#[inline(always)]
fn entry_gain(entry: u32) -> u32 {
    let a = (entry >> 20) & 0x1F;
    let b = (entry >> 25) & 0x1F;
    ((1u32 << a) & !1) + ((1u32 << b) & !1)
}

/// The transposed nibbles: cell `(r, c)` moves to `(c, r)`.
#[inline(always)]
fn transpose_nibbles(x: u64) -> u64 {
    // Swap the off-diagonal cells of each 2×2 block, (r, c) with
    // (r + 1, c - 1) for even r and odd c: 16 - 4 = 12 bits apart.
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    // Swap the top-right 2×2 block with the bottom-left one: 32 - 8 = 24
    // bits apart.
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// Every row of nibbles through `table`: the slid rows, the entries OR-ed
/// (for the escape bit) and the sum of the quarter gains.
#[inline(always)]
fn slide_nibble_rows(b: u64, table: &NibbleTable) -> (u64, u32, u32) {
    let look = |r: u32| table[((b >> (16 * r)) & 0xFFFF) as usize];
    let (e0, e1, e2, e3) = (look(0), look(1), look(2), look(3));
    let rows = u64::from(e0 & 0xFFFF)
        | (u64::from(e1 & 0xFFFF) << 16)
        | (u64::from(e2 & 0xFFFF) << 32)
        | (u64::from(e3 & 0xFFFF) << 48);
    let quarter = (e0 >> 16) + (e1 >> 16) + (e2 >> 16) + (e3 >> 16);
    (rows, e0 | e1 | e2 | e3, quarter)
}

/// One bit per nibble, at the nibble's lowest bit.
const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;

/// 16 tile exponents, see the module documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    /// The low four bits of every exponent.
    nibbles: u64,
    /// The fifth bit of every exponent, bit `4r + c` for cell `(r, c)`.
    high: u16,
}

impl Board {
    /// The empty board.
    pub(crate) const EMPTY: Board = Board {
        nibbles: 0,
        high: 0,
    };

    /// The exponent at `(row, col)`, both 0–3.
    #[inline]
    pub(crate) fn get(self, row: usize, col: usize) -> u8 {
        let cell = 4 * (row & 3) + (col & 3);
        let low = ((self.nibbles >> (4 * cell)) & 0xF) as u8;
        let high = ((self.high >> cell) & 1) as u8;
        low | (high << 4)
    }

    /// The board with `exp` (at most 31; callers keep it at most 17) at
    /// `(row, col)`, both 0–3.
    #[inline]
    pub(crate) fn with(self, row: usize, col: usize, exp: u8) -> Board {
        let cell = 4 * (row & 3) + (col & 3);
        let nibbles = (self.nibbles & !(0xF << (4 * cell))) | (u64::from(exp & 0xF) << (4 * cell));
        let high = (self.high & !(1 << cell)) | (u16::from((exp >> 4) & 1) << cell);
        Board { nibbles, high }
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

    /// One bit per empty cell, bit `4r + c` for cell `(r, c)`.
    #[inline]
    fn empty_bits(self) -> u16 {
        let b = self.nibbles;
        // One bit per zero nibble at its lowest bit, then gathered to bits
        // 0–15.
        let m = !(b | (b >> 1) | (b >> 2) | (b >> 3)) & NIBBLE_LOW_BITS;
        let m = (m | (m >> 3)) & 0x0303_0303_0303_0303;
        let m = (m | (m >> 6)) & 0x000F_000F_000F_000F;
        let m = (m | (m >> 12)) & 0x0000_00FF_0000_00FF;
        let m = (m | (m >> 24)) & 0xFFFF;
        m as u16 & !self.high
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
            (at / 4, at % 4)
        })
    }

    /// The nibble path: the board after sliding towards `d` and the score
    /// gained, `None` when some exponent is above 15 or a merge makes 2^16.
    #[inline(always)]
    fn slide_nibbles(self, d: Direction, t: &Tables) -> Option<(Board, u32)> {
        if self.high != 0 {
            return None;
        }
        let (nibbles, flags, quarter) = match d {
            Direction::Left => slide_nibble_rows(self.nibbles, &t.left),
            Direction::Right => slide_nibble_rows(self.nibbles, &t.right),
            Direction::Up => {
                let (b, f, q) = slide_nibble_rows(transpose_nibbles(self.nibbles), &t.left);
                (transpose_nibbles(b), f, q)
            }
            Direction::Down => {
                let (b, f, q) = slide_nibble_rows(transpose_nibbles(self.nibbles), &t.right);
                (transpose_nibbles(b), f, q)
            }
        };
        (flags & ESCAPE == 0).then_some((Board { nibbles, high: 0 }, 4 * quarter))
    }

    /// The wide path, for any board.
    #[cold]
    #[inline(never)]
    fn slide_wide(self, d: Direction) -> (Board, u32) {
        let (wide, gain) = Wide::from_board(self).slide(d, wide_tables());
        (wide.to_board(), gain)
    }

    /// The board after sliding every tile towards `d`, and the score gained
    /// (the sum of the merged tiles' values, below 2^21). No tile spawns.
    #[inline]
    pub(crate) fn slide(self, d: Direction, t: &Tables) -> (Board, u32) {
        match self.slide_nibbles(d, t) {
            Some(slid) => slid,
            None => self.slide_wide(d),
        }
    }
}

/// The 5-bit board of the wide path, see the module documentation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Wide(u128);

impl Wide {
    fn from_board(b: Board) -> Wide {
        let lane = |r: u32| {
            let low = ((b.nibbles >> (16 * r)) & 0xFFFF) as u32;
            let high = (u32::from(b.high) >> (4 * r)) & 0xF;
            u128::from(widen_row(low) | widen_high(high)) << (32 * r)
        };
        Wide(lane(0) | lane(1) | lane(2) | lane(3))
    }

    fn to_board(self) -> Board {
        let mut board = Board::EMPTY;
        for r in 0..4 {
            let row = (self.0 >> (32 * r)) as u32 & ROW_MASK;
            board.nibbles |= u64::from(narrow_row(row)) << (16 * r);
            board.high |= (narrow_high(row) as u16) << (4 * r);
        }
        board
    }

    /// The exponent at `(row, col)`, both 0–3.
    #[cfg(test)]
    fn get(self, row: usize, col: usize) -> u8 {
        ((self.0 >> (32 * (row & 3) + 5 * (col & 3))) & 0x1F) as u8
    }

    /// The transposed board: cell `(r, c)` moves to `(c, r)`.
    #[inline(always)]
    fn transpose(self) -> Wide {
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
        Wide(delta_swap(delta_swap(self.0, M1, 27), M2, 54))
    }

    /// Every row through `table`: the new board and the score gained.
    #[inline(always)]
    fn slide_rows(self, table: &RowTable) -> (Wide, u32) {
        let b = self.0;
        let look = |lane: u32| table[((b >> (32 * lane)) as u32 & ROW_MASK) as usize];
        let (e0, e1, e2, e3) = (look(0), look(1), look(2), look(3));
        let board = u128::from(e0 & ROW_MASK)
            | (u128::from(e1 & ROW_MASK) << 32)
            | (u128::from(e2 & ROW_MASK) << 64)
            | (u128::from(e3 & ROW_MASK) << 96);
        let gain = entry_gain(e0) + entry_gain(e1) + entry_gain(e2) + entry_gain(e3);
        (Wide(board), gain)
    }

    /// The board after sliding every tile towards `d`, and the score gained.
    fn slide(self, d: Direction, t: &WideTables) -> (Wide, u32) {
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
    use proptest::prelude::*;

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
        let wide = Wide::from_board(board(rows));
        let t = wide.transpose();
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                assert_eq!(t.get(c, r), e);
            }
        }
        assert_eq!(t.transpose(), wide);
        let nibbles = board(rows.map(|row| row.map(|e| e & 0xF))).nibbles;
        let t = Board {
            nibbles: transpose_nibbles(nibbles),
            high: 0,
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                assert_eq!(t.get(c, r), e & 0xF);
            }
        }
        assert_eq!(transpose_nibbles(t.nibbles), nibbles);
    }

    #[test]
    fn the_wide_board_holds_every_exponent() {
        let rows = [
            [0, 16, 17, 31],
            [15, 1, 0, 16],
            [17, 17, 2, 3],
            [4, 5, 18, 0],
        ];
        let b = board(rows);
        assert_eq!(b.exponents(), rows);
        let wide = Wide::from_board(b);
        for (r, row) in rows.iter().enumerate() {
            for (c, &e) in row.iter().enumerate() {
                assert_eq!(wide.get(r, c), e);
            }
        }
        assert_eq!(wide.to_board(), b);
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
    fn nibble_entries_hold_a_quarter_of_the_gain_or_escape() {
        let t = tables();
        let e = t.left[0xEEEE];
        assert_eq!((e & 0xFFFF, e >> 16), (0x00FF, (1 << 16) / 4));
        // Columns 0–3 hold 2, 2, 1, 1 (a row of 4, 4, 2, 2): 0, 0, 8, 4.
        let e = t.right[0x1122];
        assert_eq!((e & 0xFFFF, e >> 16), (0x2300, (4 + 8) / 4));
        assert_eq!(t.left[0x00FF], ESCAPE);
        assert_eq!(t.right[0xF0F0], ESCAPE);
        assert_eq!(t.left[0xF0E0], 0xFE);
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
        let b = board([[16, 0, 16, 0], [0; 4], [0; 4], [0, 0, 0, 16]]);
        assert_eq!(b.empty_count(), 13);
        assert_eq!(b.nth_empty(0), Some((0, 1)));
        assert_eq!(b.nth_empty(12), Some((3, 2)));
    }

    fn boards_up_to(max: u8) -> impl Strategy<Value = Board> {
        let cell = prop_oneof![2 => Just(0u8), 3 => 1..=max, 1 => (max - 2)..=max];
        prop::array::uniform4(prop::array::uniform4(cell)).prop_map(board)
    }

    fn any_direction() -> impl Strategy<Value = Direction> {
        prop::sample::select(Direction::ALL.to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Every board both paths hold: the same board, gain and change.
        #[test]
        fn the_nibble_path_is_the_wide_path(b in boards_up_to(14), d in any_direction()) {
            let (wide, wide_gain) = b.slide_wide(d);
            let fast = b.slide_nibbles(d, tables());
            prop_assert_eq!(fast, Some((wide, wide_gain)));
            prop_assert_eq!(b.slide(d, tables()), (wide, wide_gain));
            prop_assert_eq!(fast.map(|(next, _)| next != b), Some(wide != b));
        }

        /// With tiles of 2^15 the nibble path escapes exactly when a merge
        /// makes 2^16, and agrees otherwise.
        #[test]
        fn the_nibble_path_escapes_to_2_16(b in boards_up_to(15), d in any_direction()) {
            let (wide, wide_gain) = b.slide_wide(d);
            let makes_2_16 = wide.exponents().into_iter().flatten().any(|e| e == 16);
            match b.slide_nibbles(d, tables()) {
                None => prop_assert!(makes_2_16),
                Some(fast) => {
                    prop_assert!(!makes_2_16);
                    prop_assert_eq!(fast, (wide, wide_gain));
                }
            }
            prop_assert_eq!(b.slide(d, tables()), (wide, wide_gain));
        }

        /// Boards with 2^16 or 2^17 take the wide path, unchanged through
        /// the conversions.
        #[test]
        fn the_wide_board_round_trips(b in boards_up_to(17)) {
            prop_assert_eq!(Wide::from_board(b).to_board(), b);
            if b.high != 0 {
                prop_assert_eq!(b.slide_nibbles(Direction::Left, tables()), None);
            }
        }
    }
}
