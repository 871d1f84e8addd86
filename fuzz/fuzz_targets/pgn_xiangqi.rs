//! Xiangqi PGN: any bytes read as a list of games or a specific error.
//!
//! A file that reads writes back, in each notation, to PGN that reads as
//! the same games; each game writes to XQF that reads back to the same
//! moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qipan_fuzz::as_pgn_keeps_it;
use qipan_records::xiangqi::{pgn, xqf, Charset};
use qipan_rules::xiangqi::Family;
use qipan_rules::Reason;

fuzz_target!(|data: &[u8]| {
    let games = match pgn::read(data, None) {
        Ok(games) => games,
        Err(e) => {
            assert!(!e.reason().is_empty() && !e.to_string().is_empty());
            return;
        }
    };
    for game in games.iter().take(4) {
        for notation in [Family::Chinese, Family::Wxf, Family::Iccs] {
            let bytes = pgn::write(game, notation, Charset::Utf8).expect("a read game writes");
            let back = pgn::read(&bytes, Some(Charset::Utf8))
                .unwrap_or_else(|e| panic!("{notation}: {e}\n{}", String::from_utf8_lossy(&bytes)));
            assert_eq!(back, vec![as_pgn_keeps_it(game)], "{notation}");
        }
        let bytes = xqf::write(game).expect("a read game writes");
        let back = xqf::read(&bytes).expect("a written XQF reads");
        assert_eq!(back.main_line(), game.main_line());
    }
});
