//! Tetris state codes: a code that decodes is canonical and round-trips;
//! of the eight inputs, exactly the legal ones play; the setup (what the
//! import body carries) of a game in progress builds a position with the
//! same setup. The bytes
//! after a newline walk on through legal inputs (each code round-trips)
//! to a position checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_position, code_target, decode_canonical};
use qipan_rules::tetris::{Action, Position};

fn check(pos: &Position) {
    assert_position(pos, &Action::ALL);
    let setup = pos.to_setup();
    match Position::from_setup(&setup) {
        Ok(back) => assert_eq!(back.to_setup(), setup, "the setup builds another setup"),
        // A setup is a game in progress: a finished game's next piece may
        // have no room (block out), which the import refuses by design.
        Err(e) => assert!(
            !pos.status().is_ongoing(),
            "{setup:?} of a game in progress is refused: {e}"
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    code_target::<Position>(data, decode_canonical, check);
});
