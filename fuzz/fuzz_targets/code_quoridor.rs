//! Quoridor state codes: a code that decodes is canonical and round-trips;
//! of every pawn square and wall, exactly the legal ones play; the count
//! of legal actions agrees with the list; the setup (what the import body
//! carries) builds the same position. The bytes after a newline walk on
//! (each code round-trips) to a position checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_position, code_target, decode_canonical};
use qipan_rules::quoridor::{Action, Position, Square, Wall};

fn check(pos: &Position) {
    let universe: Vec<Action> = Square::all()
        .map(Action::Move)
        .chain(Wall::all().map(Action::Wall))
        .collect();
    assert_position(pos, &universe);
    assert_eq!(pos.count_legal_actions(), pos.legal_actions().len());
    let setup = pos.to_setup();
    let back = Position::from_setup(&setup).unwrap_or_else(|e| panic!("{setup:?} is refused: {e}"));
    assert_eq!(&back, pos, "the setup builds another position");
}

fuzz_target!(|data: &[u8]| {
    code_target::<Position>(data, decode_canonical, check);
});
