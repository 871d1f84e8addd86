//! 2048 state codes: a code that decodes is canonical and round-trips;
//! exactly the legal directions play; the grid setup (what the import body
//! carries) builds the same position. The bytes after a newline walk on
//! (each code round-trips) to a position checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_position, code_target, decode_canonical};
use qipan_rules::twenty48::{Direction, Position};

fn check(pos: &Position) {
    assert_position(pos, &Direction::ALL);
    let setup = pos.to_setup();
    let back = Position::from_setup(&setup).unwrap_or_else(|e| panic!("{setup:?} is refused: {e}"));
    assert_eq!(&back, pos, "the setup builds another position");
}

fuzz_target!(|data: &[u8]| {
    code_target::<Position>(data, decode_canonical, check);
});
