//! Xiangqi state codes: a code that decodes re-encodes to the canonical
//! code (same-kind pieces may come in any order, as docs/games/xiangqi.md allows),
//! which decodes to the same position; the position's legal moves all
//! play, exactly the legal ones of every move from a piece of the side to
//! move do, each has WXF and Chinese names, and the FEN export reads back
//! as the same position. The bytes after a newline walk on through legal
//! moves (each code round-trips) to a position checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::{assert_position, code_target, decode_lenient};
use qipan_rules::xiangqi::{self, Move, Position, Square};

fn check(pos: &Position) {
    let universe: Vec<Move> = pos
        .pieces()
        .filter(|(_, piece)| piece.side == pos.turn())
        .flat_map(|(from, _)| {
            Square::all()
                .filter(move |&to| to != from)
                .map(move |to| Move { from, to })
        })
        .collect();
    assert_position(pos, &universe);
    for m in pos.legal_actions() {
        assert!(pos.is_legal(m), "{m} is listed but not is_legal");
        let names = xiangqi::names(pos, m).unwrap_or_else(|| panic!("{m} has no names"));
        assert_eq!(names.wxf.chars().count(), 4, "WXF {:?} of {m}", names.wxf);
        assert_eq!(
            names.chinese.chars().count(),
            4,
            "{:?} of {m}",
            names.chinese
        );
    }
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("FEN {fen:?} refused: {e}"));
    assert_eq!(&back, pos, "FEN {fen:?} reads as another position");
    assert_eq!(back.to_fen(), fen);
}

fuzz_target!(|data: &[u8]| {
    code_target::<Position>(data, decode_lenient, check);
});
