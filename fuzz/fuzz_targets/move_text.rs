//! Xiangqi move text (Chinese, WXF, ICCS) read against a position.
//!
//! Input: a FEN line, then one move text per line. Every text that parses
//! prints to a text that parses to the same value; every text that
//! resolves names a legal move, whose Chinese and WXF names resolve back
//! to it; a text that does not resolve says why with a stable reason.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_rules::xiangqi::{chinese, read_move, wxf, MoveText, Position};
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let pos = lines
        .next()
        .and_then(|fen| Position::from_fen(fen).ok())
        .unwrap_or_else(Position::start);
    for line in lines.take(64) {
        let Ok(parsed) = line.parse::<MoveText>() else {
            continue;
        };
        let printed = parsed.to_string();
        let back: MoveText = printed.parse().unwrap_or_else(|e| {
            panic!("{line:?} prints as {printed:?}, which does not parse: {e}")
        });
        assert_eq!(back, parsed, "{line:?} → {printed:?}");
        match parsed.resolve(&pos) {
            Ok(m) => {
                assert!(
                    pos.is_legal(m),
                    "{line:?} resolves to {m}, not legal in {pos:?}"
                );
                for name in [chinese(&pos, m), wxf(&pos, m)].into_iter().flatten() {
                    assert_eq!(read_move(&pos, &name), Ok(m), "{name} in {pos:?}");
                }
            }
            Err(e) => assert!(!e.reason().is_empty() && !e.to_string().is_empty()),
        }
    }
});
