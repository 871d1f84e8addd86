//! The board and the table-driven slide.
//!
//! A [`Board`] keeps the low four bits of every tile exponent as a nibble of a
//! `u64` (row `r` in bits `16r .. 16r + 16`, cell `(r, c)` at bit
//! `16r + 4c`) and the fifth bit, set only for 2^16 and 2^17, in a `u32`
//! (cell `(r, c)` at bit `4r + c`). An exponent is 0 for an empty cell and
//! `e` for the tile `2^e`, 1 ≤ e ≤ 17.
//!
//! Nibble path: while no fifth bit is set and at most one tile is 2^15 (so
//! that no merge can make 2^16, which no nibble holds), a move works on the
//! nibbles alone, four table lookups a move. A position knows this holds
//! without looking at its tiles when they add up to less than 65536, a sum
//! slides keep (see `Position`). A *line* is the 16 bits of one row, or of
//! one column with row `k` in nibble `k`; a line slides towards nibble 0
//! (left, up) or nibble 3 (right, down). Four tables indexed by the line
//! (1.4 MiB together, computed by the compiler) give:
//!
//! - `rows`: the XOR of the line and the line slid towards nibble 0, and
//!   the same towards nibble 3, two `u16` side by side (so that a
//!   horizontal move's lookups are as dense in the cache as they can be,
//!   and the two directions of one row share a cache line);
//! - `up`, `down`: the same two deltas spread to the column layout, nibble
//!   `k` at bit `16k`, so that a vertical move needs no transposition of
//!   the board and but a shift and an XOR a column;
//! - `quarters`: a quarter of what the line's merges gain, the same both
//!   ways (a run of `k` equal tiles makes `⌊k/2⌋` merges whichever end it is
//!   merged from).
//!
//! A horizontal move looks its four rows up; a vertical one gathers each
//! column into a line with one multiplication ([`column`]). The new board is
//! the old one XOR the deltas, so a zero delta is a move that changes
//! nothing. The gain is looked up apart, so a caller that drops it (the
//! position keeps its score in a form slides leave alone) does not wait for
//! it. The XOR deltas and the spread column deltas are nneonneo/2048-ai's
//! tricks; their engine has no score, no no-op check and no tile past 32768.
//!
//! Wide path: any other board goes through the 5-bit engine. There the board
//! is one `u128` with a 32-bit lane per row: row `r` in bits
//! `32r .. 32r + 20` (the top 12 bits of each lane always zero), cell
//! `(r, c)` the 5-bit exponent at bit `32r + 5c`. A row's 20 bits index two
//! tables of 2^20 entries, one per horizontal direction, so a horizontal move
//! is four lookups, and vertical moves transpose the board (two delta swaps),
//! slide the rows and transpose back. Each entry holds the slid row in bits
//! 0–19 and the exponents of the (at most two) tiles that merges created in
//! bits 20–24 and 25–29, 0 when there is none, from which the score gained
//! follows. The nibble tables are derived from these entries, so both paths
//! slide by the one rule of [`slide_row_left`].

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

/// Entries per nibble table: every 16-bit line.
const LINES: usize = 1 << 16;

/// The nibbles of column 0: cell `(r, 0)` at bit `16r`.
const COLUMN: u64 = 0x000F_000F_000F_000F;

/// The lowest bit of every nibble.
const NIBBLE_LOW_BITS: u64 = 0x1111_1111_1111_1111;
/// The low three bits of every nibble.
const NIBBLE_LOW_THREE: u64 = 0x7777_7777_7777_7777;
/// The top bit of every nibble.
const NIBBLE_TOP_BITS: u64 = 0x8888_8888_8888_8888;

/// The nibble tables (1.4 MiB), see the module documentation.
pub(crate) struct Tables {
    /// For every line, the XOR of the line and the line slid towards
    /// nibble 0, then the same towards nibble 3: the two deltas of a row
    /// side by side, so that the four slides of a board find both in one
    /// cache line.
    rows: [[u16; 2]; LINES],
    /// The first delta spread to the column layout: nibble `k` at bit
    /// `16k`.
    up: [u64; LINES],
    /// The second delta spread alike.
    down: [u64; LINES],
    /// A quarter of what the line's merges gain, the same whichever the
    /// direction. Every gain is a multiple of 4, and without a merge that
    /// makes 2^16 a line gains at most 2^15 + 2^15, so a quarter fits.
    quarters: [u16; LINES],
}

/// The two wide row tables, built on the first wide move (some 35 ms, 8 MiB).
struct WideTables {
    left: Box<RowTable>,
    right: Box<RowTable>,
}

/// Computed by the compiler (a few seconds of its time), so that using them
/// needs no check that they are built: the four slides of one board then
/// share their loads, which tables behind a `OnceLock` (an atomic load at
/// every use) would not allow.
static TABLES: Tables = Tables::build();
static WIDE_TABLES: OnceLock<WideTables> = OnceLock::new();

/// The nibble tables.
#[inline(always)]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

/// The wide row tables, built once per process.
fn wide_tables() -> &'static WideTables {
    WIDE_TABLES.get_or_init(WideTables::build)
}

/// Slides one row towards column 0: the tiles close up, then equal
/// neighbours merge, the pair nearest the wall first, each tile at most once.
/// Tiles of 2^17 never merge: 2^18 does not exist (two of them cannot both
/// arise in a game, see the module documentation). Exponents above 17 only
/// occur in table entries that no valid board looks up; they never merge.
///
/// Written with `while` so that the compiler can run it for [`TABLES`].
const fn slide_row_left(row: u32) -> u32 {
    let mut out = 0;
    // Tiles placed in `out`, merges made (their exponents from bit 20 on).
    let mut placed = 0;
    let mut merges = 0;
    // The exponent of the last tile placed while it may still merge, else 0.
    let mut last = 0;
    let mut c = 0;
    while c < 4 {
        let e = (row >> (5 * c)) & 0x1F;
        c += 1;
        if e == 0 {
            continue;
        }
        if e == last && e < MAX_EXP as u32 {
            // `last` is not 0, so a tile was placed; it becomes 2^(e+1)
            // (at most 17: its 5 bits do not carry into the next cell).
            out += 1 << (5 * (placed - 1));
            out |= (e + 1) << (20 + 5 * merges);
            merges += 1;
            last = 0;
        } else {
            out |= e << (5 * placed);
            placed += 1;
            last = e;
        }
    }
    out
}

/// The row read from column 3 to column 0.
const fn reverse_row(row: u32) -> u32 {
    ((row & 0x1F) << 15)
        | (((row >> 5) & 0x1F) << 10)
        | (((row >> 10) & 0x1F) << 5)
        | ((row >> 15) & 0x1F)
}

/// Slides one row towards column 3, as [`slide_row_left`] does towards 0.
const fn slide_row_right(row: u32) -> u32 {
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
const fn widen_row(row: u32) -> u32 {
    (row & 0xF) | ((row & 0xF0) << 1) | ((row & 0xF00) << 2) | ((row & 0xF000) << 3)
}

/// The low four bits of each exponent of a 20-bit row, as 16 bits of nibbles.
#[inline(always)]
const fn narrow_row(row: u32) -> u32 {
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

/// A 16-bit line read from nibble 3 to nibble 0.
const fn reverse_line(line: u32) -> u32 {
    ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | ((line >> 12) & 0xF)
}

/// Nibble `k` of the 16-bit line `line` at bit `16k`.
const fn spread(line: u32) -> u64 {
    let x = line as u64;
    (x | (x << 12) | (x << 24) | (x << 36)) & COLUMN
}

impl Tables {
    const ZERO: Tables = Tables {
        rows: [[0; 2]; LINES],
        up: [0; LINES],
        down: [0; LINES],
        quarters: [0; LINES],
    };

    const fn build() -> Tables {
        let mut t = Tables::ZERO;
        // The left delta and the gain of every line, from the wide slide.
        // A line whose merge would make 2^16 has two 2^15s, which the nibble
        // path never looks up (see `Board::slide`); its entries stay 0.
        let mut line = 0;
        while line < LINES {
            let e = slide_row_left(widen_row(line as u32));
            if (e >> 20) & 0x1F <= 15 && (e >> 25) & 0x1F <= 15 {
                t.rows[line][0] = (line as u32 ^ narrow_row(e & ROW_MASK)) as u16;
                t.quarters[line] = (entry_gain(e) / 4) as u16;
            }
            line += 1;
        }
        // Sliding right is sliding the reversed line left, so the right
        // delta is the reversed line's left delta, reversed.
        line = 0;
        while line < LINES {
            let left = t.rows[line][0] as u32;
            let right = reverse_line(t.rows[reverse_line(line as u32) as usize][0] as u32);
            t.rows[line][1] = right as u16;
            t.up[line] = spread(left);
            t.down[line] = spread(right);
            line += 1;
        }
        t
    }
}

/// Score gained by a wide table entry's merges: `2^a + 2^b`, an exponent of
/// 0 counting for nothing.
#[inline(always)]
const fn entry_gain(entry: u32) -> u32 {
    let a = (entry >> 20) & 0x1F;
    let b = (entry >> 25) & 0x1F;
    ((1u32 << a) & !1) + ((1u32 << b) & !1)
}

/// Column `c` of the nibbles as a 16-bit line, cell `(k, c)` in nibble `k`:
/// a shift, a mask, one multiplication and a shift, where transposing the
/// board would take a dozen operations and a longer wait.
///
/// Shifted down by `4c` and masked, the column's nibbles sit at bits `16k`.
/// Multiplying by `2^12 · (1 + 2^12 + 2^24 + 2^36)` adds copies of them
/// shifted by `12 + 12j`, and the copy of nibble `k` with `j = 3 - k` lands
/// at bit `48 + 4k`: the line, in order, in the top 16 bits. The sixteen
/// copies land on sixteen different nibbles (`16k + 12j` is different for
/// every `k, j` in 0–3), so no two overlap and nothing carries; the twelve
/// others fall below bit 48 or past bit 63. The same two constants serve
/// every column, which keeps them in registers in a loop over boards.
///
/// With AVX-512DQ the compiler turns the four columns' multiplications
/// into one `vpmullq` (a 64-bit multiplication of four lanes), whose
/// latency (some 15 cycles on Skylake-SP, against 3 for `imul`) then comes
/// before every lookup of a board: on a Cascade Lake the four slides of
/// [`Position::each_slide`](super::Position::each_slide) ran at some three
/// quarters of the speed of the same code built for x86-64-v3. There column
/// 1 is gathered another way, which leaves the compiler three alike, too few
/// for it to vectorize (Rust 1.95): its nibbles, masked in place at bits
/// `16k + 4`, times `2^24 + 2^36 + 2^48 + 2^60` in 128 bits, put nibble `k`
/// at bit `64 + 4k` (the copy shifted by `60 - 12k`); the other twelve
/// copies land on twelve other nibbles (`16k - 12j` differs for every
/// `k, j`), below bit 64 or past bit 79, so the line is the low 16 bits of
/// the product's high word. (Gathering all four columns so ran slower than
/// this, if faster than `vpmullq`.)
#[inline(always)]
fn column(b: u64, c: u32) -> usize {
    const GATHER: u64 = (1 | (1 << 12) | (1 << 24) | (1 << 36)) << 12;
    let gathered = |c: u32| (((b >> (4 * c)) & COLUMN).wrapping_mul(GATHER) >> 48) as usize;
    #[cfg(not(target_feature = "avx512dq"))]
    {
        gathered(c)
    }
    #[cfg(target_feature = "avx512dq")]
    {
        const WIDE: u64 = (1 << 24) | (1 << 36) | (1 << 48) | (1 << 60);
        if c == 1 {
            let x = b & (COLUMN << 4);
            usize::from(((u128::from(x) * u128::from(WIDE)) >> 64) as u16)
        } else {
            gathered(c)
        }
    }
}

/// What the four lines' merges gain.
#[inline(always)]
fn gain(lines: [usize; 4], t: &Tables) -> u32 {
    4 * lines
        .map(|line| u32::from(t.quarters[line]))
        .iter()
        .sum::<u32>()
}

/// Every row towards column 0 (`right` false) or column 3: the new
/// nibbles and the gain.
#[inline(always)]
fn slide_rows(b: u64, t: &Tables, right: bool) -> (u64, u32) {
    let lines = [0, 1, 2, 3].map(|r| ((b >> (16 * r)) & 0xFFFF) as usize);
    let way = usize::from(right);
    let delta = (0..4).fold(0, |acc, r| {
        acc ^ (u64::from(t.rows[lines[r]][way]) << (16 * r))
    });
    (b ^ delta, gain(lines, t))
}

/// Every column towards row 0 (`down` false) or row 3: the new nibbles and
/// the gain.
#[inline(always)]
fn slide_columns(b: u64, t: &Tables, down: bool) -> (u64, u32) {
    let lines = [0, 1, 2, 3].map(|c| column(b, c));
    let table = if down { &t.down } else { &t.up };
    let delta = (0..4).fold(0, |acc, c| acc ^ (table[lines[c]] << (4 * c)));
    (b ^ delta, gain(lines, t))
}

/// 16 tile exponents, see the module documentation for the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    /// The low four bits of every exponent.
    nibbles: u64,
    /// The fifth bit of every exponent, bit `4r + c` for cell `(r, c)`;
    /// bits 16–31 are 0.
    high: u32,
}

impl Board {
    /// The board of [`Board::parts`].
    #[inline(always)]
    pub(crate) fn from_parts(nibbles: u64, high: u32) -> Board {
        Board { nibbles, high }
    }

    /// The nibbles and the fifth bits, for a position to keep beside its
    /// other fields (see `Position`).
    #[inline(always)]
    pub(crate) fn parts(self) -> (u64, u32) {
        (self.nibbles, self.high)
    }

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
        let high = (self.high & !(1 << cell)) | (u32::from((exp >> 4) & 1) << cell);
        Board { nibbles, high }
    }

    /// The exponents in reading order (rows top first, each from column
    /// 0), read straight off the bits: what [`Board::exponents`] holds,
    /// for a caller that adds them up and needs no array of them.
    #[inline]
    pub(crate) fn cells(self) -> impl Iterator<Item = u8> {
        (0..16).map(move |cell| {
            let low = ((self.nibbles >> (4 * cell)) & 0xF) as u8;
            let high = ((self.high >> cell) & 1) as u8;
            low | (high << 4)
        })
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
        (m as u32 & !self.high) as u16
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

    /// Whether the nibble path slides this board correctly: no fifth bit
    /// set (every exponent at most 15), and at most one 2^15, so that no
    /// merge can make 2^16. A board with two 2^15s takes the wide path
    /// whether they would meet or not: counting them is cheaper than asking
    /// every line, and such boards come only near 65536.
    #[inline(always)]
    fn nibbles_suffice(self) -> bool {
        let b = self.nibbles;
        // One bit per nibble of 15 (its top bit, where adding 1 to its low
        // three bits carries only when they are all set: no nibble carries
        // into the next), then whether two are set.
        let fifteens = (b & NIBBLE_LOW_THREE).wrapping_add(NIBBLE_LOW_BITS) & b & NIBBLE_TOP_BITS;
        (fifteens & fifteens.wrapping_sub(1)) | u64::from(self.high) == 0
    }

    /// The nibble path: the nibbles after sliding towards `d` and the score
    /// gained, for the nibbles of a board that [`Board::nibbles_suffice`]
    /// allows (no fifth bit set: the result has none either). A position
    /// that knows its tiles add up to less than 65536 calls it directly.
    #[inline(always)]
    pub(crate) fn slide_nibbles(nibbles: u64, d: Direction, t: &Tables) -> (u64, u32) {
        match d {
            Direction::Up => slide_columns(nibbles, t, false),
            Direction::Down => slide_columns(nibbles, t, true),
            Direction::Left => slide_rows(nibbles, t, false),
            Direction::Right => slide_rows(nibbles, t, true),
        }
    }

    /// The wide path, for any board.
    fn slide_wide(self, d: Direction) -> (Board, u32) {
        let (wide, gain) = Wide::from_board(self).slide(d, wide_tables());
        (wide.to_board(), gain)
    }

    /// The board after sliding every tile towards `d` and the score gained,
    /// the board itself when nothing moves, through the nibble path when
    /// [`Board::nibbles_suffice`], else the wide path.
    pub(crate) fn slide_any(self, d: Direction, t: &Tables) -> (Board, u32) {
        if self.nibbles_suffice() {
            let (nibbles, gain) = Board::slide_nibbles(self.nibbles, d, t);
            (Board { nibbles, high: 0 }, gain)
        } else {
            self.slide_wide(d)
        }
    }

    /// [`Board::slide`] through the wide path: kept out of line, so that
    /// what callers inline is the nibble path alone.
    #[cold]
    #[inline(never)]
    fn slide_wide_changed(self, d: Direction) -> Option<(Board, u32)> {
        let (board, gain) = self.slide_wide(d);
        (board != self).then_some((board, gain))
    }

    /// The board after sliding every tile towards `d`, and the score gained
    /// (the sum of the merged tiles' values, below 2^21); `None` when nothing
    /// moves or merges. No tile spawns.
    #[inline(always)]
    pub(crate) fn slide(self, d: Direction, t: &Tables) -> Option<(Board, u32)> {
        // The lookups come before the look at the board: the nibbles index
        // the tables whatever they hold, and a caller sliding one board
        // several ways then shares the lookups between the slides.
        let (nibbles, gain) = Board::slide_nibbles(self.nibbles, d, t);
        if self.nibbles_suffice() {
            // The old nibbles XOR a delta: this is "the delta is not 0".
            (nibbles != self.nibbles).then_some((Board { nibbles, high: 0 }, gain))
        } else {
            self.slide_wide_changed(d)
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
            let high = (b.high >> (4 * r)) & 0xF;
            u128::from(widen_row(low) | widen_high(high)) << (32 * r)
        };
        Wide(lane(0) | lane(1) | lane(2) | lane(3))
    }

    fn to_board(self) -> Board {
        let mut board = Board::EMPTY;
        for r in 0..4 {
            let row = (self.0 >> (32 * r)) as u32 & ROW_MASK;
            board.nibbles |= u64::from(narrow_row(row)) << (16 * r);
            board.high |= narrow_high(row) << (4 * r);
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
    }

    #[test]
    fn column_gathers_each_column_into_a_line() {
        let rows = [
            [0x1, 0x2, 0x3, 0x4],
            [0x5, 0x6, 0x7, 0x8],
            [0x9, 0xA, 0xB, 0xC],
            [0xD, 0xE, 0xF, 0x0],
        ];
        let b = board(rows).nibbles;
        assert_eq!(column(b, 0), 0xD951);
        assert_eq!(column(b, 1), 0xEA62);
        assert_eq!(column(b, 2), 0xFB73);
        assert_eq!(column(b, 3), 0x0C84);
        // All ones: every nibble at its most, where a carry would show.
        assert_eq!([0, 1, 2, 3].map(|c| column(u64::MAX, c)), [0xFFFF; 4]);
        for line in 0..LINES as u32 {
            for c in 0..4 {
                assert_eq!(column(spread(line) << (4 * c), c), line as usize);
            }
        }
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
    fn nibble_entries_hold_both_deltas_and_the_gain() {
        let t = tables();
        // 2^14 four times: two 2^15 either way.
        assert_eq!(t.rows[0xEEEE][0], 0xEEEE ^ 0x00FF);
        assert_eq!(t.rows[0xEEEE][1], 0xEEEE ^ 0xFF00);
        assert_eq!(u32::from(t.quarters[0xEEEE]) * 4, 1 << 16);
        assert_eq!(t.up[0xEEEE], spread(0xEEEE ^ 0x00FF));
        assert_eq!(t.down[0xEEEE], spread(0xEEEE ^ 0xFF00));
        // Cells 0–3 hold 2, 2, 1, 1 (tiles 4, 4, 2, 2): 8, 4, 0, 0 or 0, 0,
        // 8, 4.
        assert_eq!(t.rows[0x1122][0], 0x1122 ^ 0x0023);
        assert_eq!(t.rows[0x1122][1], 0x1122 ^ 0x2300);
        assert_eq!(t.quarters[0x1122], (4 + 8) / 4);
        // Nothing merges: only the moves towards the empty cells change.
        assert_eq!(t.rows[0xF0E0][0], 0xF0E0 ^ 0x00FE);
        assert_eq!(t.rows[0xF0E0][1], 0xF0E0 ^ 0xFE00);
        assert_eq!(t.quarters[0xF0E0], 0);
        assert_eq!(
            (t.rows[0xFEDC], t.up[0xFEDC], t.down[0xFEDC]),
            ([0, 0], 0, 0)
        );
        // Two 2^15s would make 2^16, which the nibble path leaves alone.
        assert_eq!(
            (t.rows[0x00FF][0], t.rows[0xF00F][1], t.quarters[0xFF00]),
            (0, 0, 0)
        );
    }

    /// Every entry against the wide slides of its line, both ways.
    #[test]
    fn nibble_entries_are_the_wide_slides() {
        let t = tables();
        for line in 0..LINES as u32 {
            let i = line as usize;
            let left = slide_row_left(widen_row(line));
            let right = slide_row_right(widen_row(line));
            let made = |e: u32| [(e >> 20) & 0x1F, (e >> 25) & 0x1F];
            if made(left).into_iter().chain(made(right)).any(|m| m > 15) {
                // Two 2^15s: never looked up.
                assert_eq!(
                    (t.rows[i], t.quarters[i], t.up[i], t.down[i]),
                    ([0, 0], 0, 0, 0)
                );
                continue;
            }
            let left_delta = line ^ narrow_row(left & ROW_MASK);
            let right_delta = line ^ narrow_row(right & ROW_MASK);
            assert_eq!(u32::from(t.rows[i][0]), left_delta, "{line:04x}");
            assert_eq!(u32::from(t.rows[i][1]), right_delta, "{line:04x}");
            assert_eq!(t.up[i], spread(left_delta), "{line:04x}");
            assert_eq!(t.down[i], spread(right_delta), "{line:04x}");
            assert_eq!(u32::from(t.quarters[i]) * 4, entry_gain(left), "{line:04x}");
        }
    }

    #[test]
    fn a_line_gains_the_same_in_both_directions() {
        for line in 0..LINES as u32 {
            let left = slide_row_left(widen_row(line));
            let right = slide_row_right(widen_row(line));
            assert_eq!(entry_gain(left), entry_gain(right), "{line:04x}");
        }
    }

    #[test]
    fn the_nibble_path_takes_at_most_one_2_15() {
        let lone = board([[15, 14, 14, 0], [0; 4], [0; 4], [0, 0, 0, 1]]);
        assert!(lone.nibbles_suffice());
        // Two 2^15s anywhere, or a fifth bit, send the board the wide way.
        assert!(!board([[15, 0, 0, 0], [0; 4], [0; 4], [0, 0, 0, 15]]).nibbles_suffice());
        assert!(!board([[16, 0, 0, 0], [0; 4], [0; 4], [0; 4]]).nibbles_suffice());
        assert!(!board([[17, 1, 0, 0], [0; 4], [0; 4], [0; 4]]).nibbles_suffice());
        // 14 is the most a nibble holds below 15: no false alarm from it.
        assert!(board([[14; 4]; 4]).nibbles_suffice());
        let mut one = [[14; 4]; 4];
        one[2][1] = 15;
        assert!(board(one).nibbles_suffice());
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

        /// Every board the nibble path takes: the same board and gain as
        /// the wide path, and the same change.
        #[test]
        fn the_nibble_path_is_the_wide_path(b in boards_up_to(15), d in any_direction()) {
            let (wide, wide_gain) = b.slide_wide(d);
            let changed = (wide != b).then_some((wide, wide_gain));
            prop_assert_eq!(b.slide(d, tables()), changed);
            if b.nibbles_suffice() {
                let (nibbles, gain) = Board::slide_nibbles(b.nibbles, d, tables());
                prop_assert_eq!((Board { nibbles, high: 0 }, gain), (wide, wide_gain));
            } else {
                let fifteens = b.exponents().into_iter().flatten().filter(|&e| e == 15).count();
                prop_assert!(fifteens >= 2);
            }
        }

        /// Boards with 2^16 or 2^17 take the wide path, unchanged through
        /// the conversions.
        #[test]
        fn the_wide_board_round_trips(b in boards_up_to(17)) {
            prop_assert_eq!(Wide::from_board(b).to_board(), b);
            if b.high != 0 {
                prop_assert!(!b.nibbles_suffice());
            }
        }
    }
}
