//! Gomoku codes that decode although they are not the canonical code of
//! their position (found by the `code_gomoku` fuzz target, `fuzz/`).
//!
//! The module documentation says which form is canonical: the move list
//! while the position knows its order and the list is no longer than the
//! grid with a last move (46 moves on 15×15), the grid otherwise, and a
//! board of at most two stones always knows its order. The decoder does
//! not refuse the other form, so two codes name one position:
//!
//! - a grid of at most two stones (its canonical code is the move list);
//! - a move list longer than 46 moves on 15×15 (its canonical code is the
//!   grid with the last move).
//!
//! What must hold, and what these tests pin, is that such an alias decodes
//! to exactly the position of the canonical code and re-encodes to it, so
//! the service answers it with the canonical code. The reader accepts them
//! on purpose (the module documentation says why), unlike tetris, which
//! refuses `not-canonical` codes.

use qipan_rules::code::encode;
use qipan_rules::gomoku::{Point, Position, Variant};

/// Grid-form header: freestyle, 15×15, grid, no last move.
const GRID_15: u8 = 0b0000_1000;

/// The base-3 grid of a 15×15 board with `stones` (point, 1 black or 2
/// white), five points a byte, the first point the least significant digit.
fn grid_15(stones: &[(usize, u8)]) -> Vec<u8> {
    let mut bytes = vec![0u8; 45];
    for &(point, digit) in stones {
        bytes[point / 5] += digit * 3u8.pow((point % 5) as u32);
    }
    bytes
}

#[test]
fn a_grid_of_one_stone_reads_as_its_move_list() {
    // Black on h8, point 7 * 15 + 7 = 112.
    let mut bytes = vec![GRID_15];
    bytes.extend(grid_15(&[(112, 1)]));
    let alias = encode(&bytes);
    assert_eq!(
        alias,
        "CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAJAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    );
    let pos = Position::from_code(&alias).expect("the grid decodes");
    // Header 0 (freestyle, 15×15, move list), then point 112 = 0x70.
    assert_eq!(pos.to_code(), "AHA");
    assert_eq!(Position::from_code("AHA"), Ok(pos.clone()));
    assert_eq!(pos.moves(), Some(&["h8".parse::<Point>().unwrap()][..]));
}

#[test]
fn a_grid_of_two_stones_reads_as_its_move_list() {
    // Black h8 (112), white i9 (8 * 15 + 8 = 128).
    let mut bytes = vec![GRID_15];
    bytes.extend(grid_15(&[(112, 1), (128, 2)]));
    let pos = Position::from_code(&encode(&bytes)).expect("the grid decodes");
    let canonical = encode(&[0, 112, 128]);
    assert_eq!(pos.to_code(), canonical);
    assert_eq!(Position::from_code(&canonical), Ok(pos.clone()));
    let order: Vec<String> = pos.moves().unwrap().iter().map(|p| p.to_string()).collect();
    assert_eq!(order, ["h8", "i9"]);
}

/// 47 moves from the empty 15×15 freestyle board, none of which ends the
/// game: points taken row by row from a1, skipping any that would.
fn long_game() -> (Position, Vec<u8>) {
    let mut pos = Position::new(Variant::Freestyle, 15).unwrap();
    let mut indices = Vec::new();
    'fill: for row in 0..15u8 {
        for col in 0..15u8 {
            if indices.len() == 47 {
                break 'fill;
            }
            let point = Point::new(col, row).unwrap();
            if let Ok(next) = pos.play(point) {
                if next.status().is_ongoing() {
                    pos = next;
                    indices.push(row * 15 + col);
                }
            }
        }
    }
    assert_eq!(indices.len(), 47, "the fill finds 47 quiet moves");
    (pos, indices)
}

#[test]
fn a_move_list_longer_than_the_grid_reads_as_the_grid() {
    let (played, indices) = long_game();
    // Past 46 moves the position drops its order: its code is the grid
    // with the last move, 63 characters.
    assert_eq!(played.moves(), None);
    let canonical = played.to_code();
    assert_eq!(canonical.len(), 63);
    let mut bytes = vec![0u8];
    bytes.extend(&indices);
    let alias = encode(&bytes);
    assert_eq!(alias.len(), 64);
    let pos = Position::from_code(&alias).expect("the long move list decodes");
    assert_eq!(pos, played);
    assert_eq!(pos.to_code(), canonical);
    assert_eq!(Position::from_code(&canonical), Ok(pos));
}
