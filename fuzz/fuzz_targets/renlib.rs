//! RenLib `.lib` libraries: any bytes read or give a specific error (with
//! the offset of the fault where it has one, inside the input); a library
//! read has a non-empty first line on the 15×15 board that writes back as
//! a one-line library, a `.pos` file and a `.psq` file reading back to the
//! same moves, and a tree at least as large as that line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_records::gomoku::{self, GomokuError};
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    match gomoku::read_lib(data) {
        Ok(library) => {
            let moves = &library.main_line.moves;
            assert!(!moves.is_empty());
            assert!(moves.iter().all(|p| p.is_on(15)));
            assert!(library.tree_moves >= moves.len() && library.lines >= 1);
            let bytes = gomoku::write_lib(moves).expect("a first line writes");
            let back = gomoku::read_lib(&bytes).expect("a written library reads");
            assert_eq!(&back.main_line.moves, moves);
            assert_eq!((back.tree_moves, back.lines), (moves.len(), 1));
            if let Some(pos) = gomoku::write_pos(moves) {
                assert_eq!(&gomoku::read_pos(&pos).expect("reads").moves, moves);
            }
            let psq = gomoku::write_psq(15, moves, [None, None]);
            assert_eq!(&gomoku::read(psq.as_bytes()).expect("reads").moves, moves);
        }
        Err(e) => {
            assert!(!e.reason().is_empty() && !e.to_string().is_empty());
            match e {
                GomokuError::LibTruncated { offset, .. }
                | GomokuError::LibPoint { offset, .. }
                | GomokuError::LibPass { offset, .. } => assert!(offset <= data.len()),
                _ => {}
            }
        }
    }
});
