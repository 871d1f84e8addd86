//! Gomoku state codes (both forms: move list and grid): a code that
//! decodes re-encodes to a canonical code that decodes to the same
//! position, and is that code unless it is one of the two aliases the
//! decoder lets through (a grid of at most two stones, whose canonical
//! code is the move list; a move list longer than a grid, whose canonical
//! code is the grid); exactly the legal points play;
//! the rows export reads back as the same board and side to move. The
//! bytes after a newline walk on through legal moves (each position's code
//! round-trips) to a position checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_position, code_and_walk, decode_lenient, walk};
use qipan_rules::gomoku::{Point, Position, Stone};

fn check(pos: &Position) {
    let size = pos.size();
    let universe: Vec<Point> = (0..size)
        .flat_map(|row| (0..size).filter_map(move |col| Point::new(col, row)))
        .collect();
    assert_position(pos, &universe);
    let rows = pos.to_rows();
    let back = Position::from_rows(pos.variant(), &rows)
        .unwrap_or_else(|e| panic!("rows {rows:?} refused: {e}"));
    assert_eq!(back.to_rows(), rows, "rows read back otherwise");
    assert_eq!(back.turn(), pos.turn(), "rows {rows:?} give the other side");
    assert_eq!(
        back.status(),
        pos.status(),
        "rows {rows:?} give another status"
    );
}

/// Whether a code that decoded is in the grid form (header bit 3, which is
/// bit 1 of the first base64 digit).
fn is_grid(code: &str) -> bool {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let first = code
        .bytes()
        .next()
        .and_then(|c| DIGITS.iter().position(|&d| d == c));
    first.is_some_and(|v| v & 0b10 != 0)
}

fuzz_target!(|data: &[u8]| {
    let Some((code, steps)) = code_and_walk(data) else {
        return;
    };
    let Some(pos) = decode_lenient::<Position>(code) else {
        return;
    };
    let canonical = pos.to_code();
    if canonical != code {
        let stones = pos.stone_count(Stone::Black) + pos.stone_count(Stone::White);
        let alias = if is_grid(code) {
            stones <= 2
        } else {
            pos.moves().is_none()
        };
        assert!(
            alias,
            "{code:?} decodes, but the position's code is {canonical:?}"
        );
    }
    check(&pos);
    walk(&pos, steps, check);
});
