//! Gomoku `.psq` files, RenLib `.pos` files and move lists, Quoridor move
//! lists: any bytes read or give a specific error; what reads writes back
//! to the same moves (a `.pos` file byte for byte).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_records::{gomoku, quoridor};
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    match gomoku::read(data) {
        Ok(list) => {
            let names = [list.players[0].as_deref(), list.players[1].as_deref()];
            let text = match list.size {
                Some(size) => gomoku::write_psq(size, &list.moves, names),
                None => gomoku::write_moves(&list.moves),
            };
            let back = gomoku::read(text.as_bytes()).expect("a written record reads");
            assert_eq!(back.moves, list.moves);
            if list.size.is_some() {
                assert_eq!(back.players, list.players);
            }
        }
        Err(e) => assert!(!e.reason().is_empty() && !e.to_string().is_empty()),
    }
    match gomoku::read_pos(data) {
        Ok(list) => {
            let bytes = gomoku::write_pos(&list.moves).expect("a .pos file's moves write");
            assert_eq!(bytes, data);
            let text = gomoku::write_psq(15, &list.moves, [None, None]);
            let back = gomoku::read(text.as_bytes()).expect("a written record reads");
            assert_eq!(back.moves, list.moves);
        }
        Err(e) => assert!(!e.reason().is_empty() && !e.to_string().is_empty()),
    }
    match quoridor::read_moves(data) {
        Ok(moves) => {
            let text = quoridor::write_moves(&moves);
            assert_eq!(quoridor::read_moves(text.as_bytes()).expect("reads"), moves);
        }
        Err(e) => assert!(!e.reason().is_empty() && !e.to_string().is_empty()),
    }
});
