//! Property tests: every position reached by random legal play, and every
//! position the decoders accept from random codes, draws to SVG and PNG
//! without error, with the last action played highlighted.
//!
//! PNGs are rendered small (64–200 px) so that the cases stay quick in a
//! debug build; `options.rs` covers the largest size.

use proptest::prelude::*;
use qipan_picture::{png, svg, Options, Pieces};
use qipan_rules::{gomoku, quoridor, tetris, twenty48, xiangqi, AnyPosition, GameKind};
use resvg::tiny_skia::Pixmap;

/// The start positions play begins from: every game, every gomoku rule
/// set and size, 2048 and Tetris from the given seed.
fn start(game: usize, seed: u64) -> AnyPosition {
    match game % 7 {
        0 => xiangqi::Position::start().into(),
        1 => gomoku::Position::new(gomoku::Variant::Freestyle, 15)
            .expect("15×15 free-style")
            .into(),
        2 => gomoku::Position::new(gomoku::Variant::Freestyle, 19)
            .expect("19×19 free-style")
            .into(),
        3 => gomoku::Position::new(gomoku::Variant::Renju, 15)
            .expect("Renju")
            .into(),
        4 => twenty48::Position::new(seed).into(),
        5 => quoridor::Position::start().into(),
        _ => tetris::Position::new(seed).into(),
    }
}

fn draws(pos: &AnyPosition, options: &Options) -> Result<(), TestCaseError> {
    let text = svg(pos, options).map_err(|e| TestCaseError::fail(format!("svg: {e}")))?;
    prop_assert!(text.starts_with("<svg"));
    let bytes = png(pos, options).map_err(|e| TestCaseError::fail(format!("png: {e}")))?;
    let pixmap = Pixmap::decode_png(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(pixmap.width(), options.size);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_play_draws(
        game in 0usize..7,
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u16>(), 0..120),
        size in 64u32..=200,
        flip in any::<bool>(),
        coordinates in any::<bool>(),
        highlights in any::<bool>(),
    ) {
        let mut pos = start(game, seed);
        let mut last = None;
        for pick in picks {
            let actions = pos.legal_actions();
            if actions.is_empty() {
                break;
            }
            let action = actions[usize::from(pick) % actions.len()];
            pos = pos.play(action).map_err(|e| TestCaseError::fail(e.to_string()))?;
            last = Some(action);
        }
        let pieces = Pieces::ALL[usize::from(coordinates != flip)];
        let options = Options { size, flip, coordinates, highlights, last, pieces };
        draws(&pos, &options)?;
    }

    #[test]
    fn decoded_codes_draw(
        game in 0usize..5,
        bytes in proptest::collection::vec(any::<u8>(), 1..80),
    ) {
        use base64::Engine as _;
        let kind = GameKind::ALL[game];
        let code = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
        if let Ok(pos) = AnyPosition::from_code(kind, &code) {
            draws(&pos, &Options { size: 96, ..Options::default() })?;
        }
    }
}
