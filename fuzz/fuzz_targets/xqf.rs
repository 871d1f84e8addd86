//! XQF: any bytes read as a record or a specific error with an offset.
//!
//! A record that reads writes to XQF 1.0 and to PGN, and both read back to
//! the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_records::xiangqi::{pgn, xqf, Charset};
use qipan_rules::xiangqi::Family;
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    let record = match xqf::read(data) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.reason().is_empty() && !e.to_string().is_empty());
            return;
        }
    };
    let bytes = xqf::write(&record).expect("a read record writes");
    let back = xqf::read(&bytes).expect("a written XQF reads");
    assert_eq!(back.moves, record.moves);
    let text = pgn::write(&record, Family::Chinese, Charset::Gbk).expect("a read record writes");
    let games = pgn::read(&text, Some(Charset::Gbk)).expect("written PGN reads");
    assert_eq!(games[0].main_line(), record.main_line());
});
