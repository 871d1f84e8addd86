//! Round trips over random games: a gomoku game written as `.psq`, a move
//! list, `.pos` or a one-line RenLib `.lib` reads back to the same moves,
//! and the moves replay to the same position.
//!
//! Games are random legal play on 15×15 (every rule set) or 19×19
//! (free-style) until the game ends or the drawn points run out.

use proptest::prelude::*;
use qipan_records::gomoku;
use qipan_rules::gomoku::{Point, Position, Variant};
use qipan_rules::Status;

/// A legal game: `picks` choose among the legal points, one a move.
fn game(variant: Variant, size: u8, picks: &[usize]) -> Vec<Point> {
    let mut pos = Position::new(variant, size).expect("a size the rule set plays");
    let mut moves = Vec::new();
    for &pick in picks {
        if pos.status() != Status::Ongoing {
            break;
        }
        let legal = pos.legal_actions();
        let Some(&p) = legal.get(pick % legal.len().max(1)) else {
            break;
        };
        pos = pos.play(p).expect("a legal point plays");
        moves.push(p);
    }
    moves
}

fn rules() -> impl Strategy<Value = (Variant, u8)> {
    prop_oneof![
        Just((Variant::Freestyle, 15)),
        Just((Variant::Standard, 15)),
        Just((Variant::Renju, 15)),
        Just((Variant::Freestyle, 19)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_format_reads_back_the_same_game(
        (variant, size) in rules(),
        picks in prop::collection::vec(any::<usize>(), 1..120),
        names in prop::option::of("[A-Za-z林黑白][A-Za-z0-9 林黑白.-]{0,19}"),
    ) {
        let moves = game(variant, size, &picks);
        prop_assume!(!moves.is_empty());
        let end = Position::from_moves(variant, size, &moves).expect("the game replays");

        let black = names.as_deref().map(str::trim).filter(|n| !n.is_empty());
        let psq = gomoku::write_psq(size, &moves, [black, None]);
        let back = gomoku::read(psq.as_bytes()).expect(".psq reads");
        prop_assert_eq!(&back.moves, &moves);
        prop_assert_eq!(back.size, Some(size));
        prop_assert_eq!(back.players[0].as_deref(), black);

        let list = gomoku::write_moves(&moves);
        let back = gomoku::read(list.as_bytes()).expect("the move list reads");
        prop_assert_eq!(&back.moves, &moves);

        if size == 15 {
            let bytes = gomoku::write_pos(&moves).expect("15×15 writes as .pos");
            prop_assert_eq!(&gomoku::read_pos(&bytes).expect(".pos reads").moves, &moves);
            let bytes = gomoku::write_lib(&moves).expect("15×15 writes as .lib");
            let back = gomoku::read_lib(&bytes).expect(".lib reads");
            prop_assert_eq!(&back.main_line.moves, &moves);
            prop_assert!(gomoku::is_lib(&bytes));
        } else {
            // A 19×19 game has points the 15×15 formats cannot hold, or
            // none (then it writes).
            let off = moves.iter().any(|p| !p.is_on(15));
            prop_assert_eq!(gomoku::write_pos(&moves).is_none(), off);
            prop_assert_eq!(gomoku::write_lib(&moves).is_none(), off);
        }

        let again = Position::from_moves(variant, size, &back.moves).expect("replays");
        prop_assert_eq!(again.to_code(), end.to_code());
    }
}

/// The gathered RenLib libraries, to be damaged at random.
const LIBRARIES: &[&str] = &[
    "example_for_science_with_variant_maybe.lib",
    "I7.lib",
    "rps-fail.lib",
    "lib_documented.lib",
    "pos_4th_is_a_pass.lib",
];

fn library(i: usize) -> Vec<u8> {
    let name = LIBRARIES[i % LIBRARIES.len()];
    let path = format!(
        "{}/tests/data/gomoku/renlib-board/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Damaged libraries (bytes overwritten, the end cut off) read or get
    /// an error with a reason, its offset inside the input; what reads has
    /// a first line on 15×15 that writes back as a library of that line.
    #[test]
    fn damaged_libraries_read_or_say_why(
        file in 0..LIBRARIES.len(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
        keep_all in any::<bool>(),
    ) {
        let mut bytes = library(file);
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if !keep_all {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        match gomoku::read_lib(&bytes) {
            Ok(read) => {
                let moves = &read.main_line.moves;
                prop_assert!(!moves.is_empty() && moves.iter().all(|p| p.is_on(15)));
                prop_assert!(read.tree_moves >= moves.len() && read.lines >= 1);
                let again = gomoku::write_lib(moves).expect("a first line writes");
                prop_assert_eq!(&gomoku::read_lib(&again).expect("reads").main_line.moves, moves);
            }
            Err(e) => {
                prop_assert!(!qipan_rules::Reason::reason(&e).is_empty());
                if let Some(offset) = e.offset() {
                    prop_assert!(offset <= bytes.len(), "{e}");
                }
            }
        }
    }
}
