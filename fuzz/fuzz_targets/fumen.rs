//! Fumen: any text decodes to pages or a specific error; pages that decode
//! encode to a fumen that decodes to the same pages, and every page's
//! position (when it makes one) writes a fumen that reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_records::tetris::{self, EncodePage};
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let pages = match tetris::decode(text) {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.reason().is_empty() && !e.to_string().is_empty());
            return;
        }
    };
    let again: Vec<EncodePage> = pages.iter().map(EncodePage::from).collect();
    let written = tetris::encode(&again);
    let back = tetris::decode(&written).expect("a written fumen decodes");
    assert_eq!(back.len(), pages.len());
    for (a, b) in back.iter().zip(&pages) {
        assert_eq!(a.field, b.field);
        assert_eq!(a.operation, b.operation);
    }
    for pos in tetris::positions(&pages).into_iter().flatten() {
        if let Ok(one) = tetris::from_position(&pos) {
            let read = tetris::read(&one).expect("a position's fumen reads");
            let back = read[0].as_ref().expect("and makes a position");
            assert_eq!(back.rows(), pos.rows());
        }
    }
});
