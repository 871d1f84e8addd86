//! DhtmlXQ: any bytes read as a record or a specific error.
//!
//! A record that reads writes to PGN that reads back as the same record
//! (with `}` in comments written `｝`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::as_pgn_keeps_it;
use qipan_records::xiangqi::{dhtmlxq, pgn, Charset};
use qipan_rules::xiangqi::Family;
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    let record = match dhtmlxq::read(data, None) {
        Ok(r) => r,
        Err(e) => {
            assert!(!e.reason().is_empty() && !e.to_string().is_empty());
            return;
        }
    };
    let text = pgn::write(&record, Family::Wxf, Charset::Utf8).expect("a read record writes");
    let games = pgn::read(&text, Some(Charset::Utf8)).expect("written PGN reads");
    assert_eq!(games, vec![as_pgn_keeps_it(&record)]);
});
