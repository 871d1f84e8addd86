//! Xiangqi FEN import and export: a FEN that reads gives a position whose
//! FEN reads back as the same position and writes the same text, whose
//! code round-trips, and whose legal moves all play.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_code_round_trips, assert_position};
use qipan_rules::xiangqi::{Position, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup = Setup::from_fen(text);
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    assert!(setup.is_ok(), "the position reads but the setup does not");
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("FEN {fen:?} refused: {e}"));
    assert_eq!(back, pos, "{text:?} and its FEN {fen:?} differ");
    assert_eq!(back.to_fen(), fen);
    assert_code_round_trips(&pos);
    assert_position(&pos, &[]);
});
