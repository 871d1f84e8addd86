//! The 2048 slide against a plain reference, cell by cell, on random boards
//! in all four directions: the new board, the score gained, the score the
//! new position carries, and whether the move changes anything.
//!
//! The engine keeps exponents of up to 15 in four bits and sends other
//! boards (a tile of 65536 or more, or two of 32768, which could merge into
//! 65536) through a 5-bit engine; the strategies here lean on that
//! boundary: boards of large tiles, boards of 8192 … 32768 with one or two
//! 32768s, and boards mixing both sides of it. A position knows which side
//! it is on from the sum of its tiles, which it carries from move to move:
//! games played on from tiles that add up to just under 65536 cross that
//! line too.
//!
//! [`reference_slide`] is written from the rules in the module
//! documentation of `twenty48` alone: for each line, read the cells from
//! the wall, drop the empty ones, merge equal neighbours from the wall (each
//! tile once; 131072 never merges), and write the line back from the wall.

use proptest::prelude::*;
use qipan_rules::twenty48::{Direction, Position, Setup};

/// Exponents, rows top first: 0 for an empty cell, `e` for the tile `2^e`.
type Exps = [[u8; 4]; 4];

/// The exponent of the largest tile, 131072.
const MAX_EXP: u8 = 17;

/// Cell `i` (0 nearest the wall) of line `k` for a move towards `d`.
fn cell(d: Direction, k: usize, i: usize) -> (usize, usize) {
    match d {
        Direction::Left => (k, i),
        Direction::Right => (k, 3 - i),
        Direction::Up => (i, k),
        Direction::Down => (3 - i, k),
    }
}

/// The board after the move and the score it gains.
fn reference_slide(board: &Exps, d: Direction) -> (Exps, u64) {
    let mut out = [[0u8; 4]; 4];
    let mut gained = 0u64;
    for k in 0..4 {
        // The tiles of the line, nearest the wall first.
        let mut tiles = [0u8; 4];
        let mut n = 0;
        for i in 0..4 {
            let (r, c) = cell(d, k, i);
            if board[r][c] != 0 {
                tiles[n] = board[r][c];
                n += 1;
            }
        }
        // Merged from the wall, each tile at most once.
        let mut placed = 0;
        let mut i = 0;
        while i < n {
            let e = tiles[i];
            let (r, c) = cell(d, k, placed);
            if i + 1 < n && tiles[i + 1] == e && e < MAX_EXP {
                out[r][c] = e + 1;
                gained += 1 << (e + 1);
                i += 2;
            } else {
                out[r][c] = e;
                i += 1;
            }
            placed += 1;
        }
    }
    (out, gained)
}

fn exponents(pos: &Position) -> Exps {
    pos.grid()
        .map(|row| row.map(|v| if v == 0 { 0 } else { v.trailing_zeros() as u8 }))
}

fn values(board: &Exps) -> [[u32; 4]; 4] {
    board.map(|row| row.map(|e| if e == 0 { 0 } else { 1 << e }))
}

/// The position of `board` with the greatest score its tiles allow (every
/// tile built from 2s), so that adding a gain can never be clamped.
fn position(board: &Exps, seed: u64) -> Position {
    let score = board
        .iter()
        .flatten()
        .filter(|&&e| e > 0)
        .map(|&e| u64::from(e - 1) << e)
        .sum();
    Position::from_setup(&Setup {
        board: values(board),
        score: Some(score),
        seed,
    })
    .unwrap_or_else(|e| panic!("{board:?} is a board: {e}"))
}

/// Checks every direction of `board` against the reference.
fn check(board: &Exps, seed: u64) -> Result<(), TestCaseError> {
    check_position(&position(board, seed))
}

/// Checks every direction of `pos` against the reference.
fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let board = &exponents(pos);
    let mut legal = Vec::new();
    for d in Direction::ALL {
        let (expected, gained) = reference_slide(board, d);
        let changes = expected != *board;
        match pos.slide(d) {
            None => prop_assert!(!changes, "{d} changes {board:?} but was reported a no-op"),
            Some((next, gain)) => {
                prop_assert!(changes, "{d} does not change {board:?} but was played");
                prop_assert_eq!(next.grid(), values(&expected), "{} of {:?}", d, board);
                prop_assert_eq!(gain, gained, "{} of {:?}", d, board);
                prop_assert_eq!(next.score(), pos.score() + gained);
                prop_assert_eq!(next.rng_state(), pos.rng_state());
                legal.push(d);
            }
        }
        prop_assert_eq!(pos.play(d).is_ok(), changes);
    }
    prop_assert_eq!(pos.legal_actions(), legal);
    Ok(())
}

/// A board of `cell`s with at least one tile.
fn boards(cell: impl Strategy<Value = u8> + Clone) -> impl Strategy<Value = Exps> {
    prop::array::uniform4(prop::array::uniform4(cell))
        .prop_filter("at least one tile", |b| b.iter().flatten().any(|&e| e > 0))
}

/// Any tiles, small ones more often, every exponent possible.
fn any_board() -> impl Strategy<Value = Exps> {
    boards(prop_oneof![
        6 => Just(0u8),
        5 => 1u8..=6,
        3 => 7u8..=12,
        2 => 13u8..=MAX_EXP,
    ])
}

/// Large tiles only, around the four-bit limit: 8192 … 131072.
fn large_board() -> impl Strategy<Value = Exps> {
    boards(prop_oneof![3 => Just(0u8), 6 => 13u8..=15, 2 => 16u8..=MAX_EXP])
}

/// Tiles up to 32768 with exactly `fifteens` of them 32768, placed among
/// 16384s and 8192s that may merge beside them.
fn board_with_fifteens(fifteens: usize) -> impl Strategy<Value = Exps> {
    let cells = prop::array::uniform16(prop_oneof![2 => Just(0u8), 3 => 12u8..=14, 1 => 1u8..=11]);
    let places = prop::sample::subsequence((0..16).collect::<Vec<usize>>(), fifteens);
    (cells, places).prop_map(|(cells, places)| {
        let mut b = [[0u8; 4]; 4];
        for (i, &e) in cells.iter().enumerate() {
            b[i / 4][i % 4] = e;
        }
        for i in places {
            b[i / 4][i % 4] = 15;
        }
        b
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_board_slides_as_the_reference(b in any_board(), seed in any::<u64>()) {
        check(&b, seed)?;
    }

    #[test]
    fn large_tiles_slide_as_the_reference(b in large_board(), seed in any::<u64>()) {
        check(&b, seed)?;
    }

    #[test]
    fn one_32768_slides_as_the_reference(b in board_with_fifteens(1)) {
        check(&b, 0)?;
    }

    #[test]
    fn two_32768s_slide_as_the_reference(b in board_with_fifteens(2)) {
        check(&b, 0)?;
    }

    #[test]
    fn many_32768s_slide_as_the_reference(n in 3usize..=16, b in board_with_fifteens(3)) {
        // Three or more: a few more of the 16384s turned into 32768s.
        let mut b = b;
        let mut extra = n - 3;
        for cell in b.iter_mut().flatten() {
            if extra > 0 && *cell == 14 {
                *cell = 15;
                extra -= 1;
            }
        }
        check(&b, 0)?;
    }
}

/// One tile each of 4 … 32768 (they add up to 65532) on random cells, one
/// of 4 … 64 sometimes left out, and the 2 or 3 cells left empty.
fn staircase_below_65536() -> impl Strategy<Value = Exps> {
    let tiles: Vec<u8> = (2..=15).chain([0, 0]).collect();
    (
        Just(tiles).prop_shuffle(),
        prop_oneof![Just(None), (2u8..=6).prop_map(Some)],
    )
        .prop_map(|(tiles, left_out)| {
            let mut b = [[0u8; 4]; 4];
            for (i, &e) in tiles.iter().enumerate() {
                b[i / 4][i % 4] = if Some(e) == left_out { 0 } else { e };
            }
            b
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Games played on from boards whose tiles add up to just under 65536,
    /// and soon to more: the position carries the sum of its tiles (which
    /// picks the path a slide takes), its spawned 4s and its fifth bits,
    /// kept up to date by every move rather than worked out from the tiles.
    /// After every move the position is the one its setup describes, and
    /// every direction slides as the reference.
    #[test]
    fn positions_played_across_65536_stay_whole(
        b in staircase_below_65536(),
        seed in any::<u64>(),
        moves in prop::collection::vec(prop::sample::select(Direction::ALL.to_vec()), 1..60),
    ) {
        let mut pos = position(&b, seed);
        for d in moves {
            check_position(&pos)?;
            let Ok(next) = pos.play(d) else { continue };
            prop_assert_eq!(Position::from_setup(&next.to_setup()), Ok(next));
            pos = next;
        }
    }
}

/// Lines that merge into and beside 65536 and 131072, in every row and
/// column and every direction, each checked on its own board.
#[test]
fn merges_at_the_top_slide_as_the_reference() {
    let lines: [[u8; 4]; 10] = [
        [15, 15, 0, 0],
        [15, 0, 15, 14],
        [14, 14, 15, 0],
        [14, 14, 14, 14],
        [15, 15, 15, 15],
        [16, 16, 15, 15],
        [17, 17, 16, 16],
        [17, 16, 16, 0],
        [0, 15, 14, 14],
        [13, 13, 14, 15],
    ];
    for line in lines {
        for k in 0..4 {
            let mut row = [[0u8; 4]; 4];
            row[k] = line;
            let mut column = [[0u8; 4]; 4];
            for (r, &e) in line.iter().enumerate() {
                column[r][k] = e;
            }
            for b in [row, column] {
                if let Err(e) = check(&b, 7) {
                    panic!("{b:?}: {e}");
                }
            }
        }
    }
}
