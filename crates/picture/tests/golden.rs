//! Golden pictures: each case draws a position and compares the SVG with
//! `tests/golden/<name>.svg` as text and the PNG with
//! `tests/golden/<name>.png` pixel by pixel, within a small tolerance (the
//! SVG is exact; the rasteriser's arithmetic may differ in the last bit
//! between CPUs).
//!
//! A missing golden is written, and the test says so; `QIPAN_BLESS=1`
//! rewrites them all after an intended change. Under `CI=true` a missing
//! golden fails instead, so a run that wrote files cannot pass unseen.
//! Look at every PNG written before committing it.
//!
//! The positions come from `common/mod.rs`, which says where each is from.

mod common;

use std::path::{Path, PathBuf};

use std::time::Duration;

use qipan_picture::{
    card_png, card_svg, duel_png, duel_svg, png, svg, Card, ClockFace, Options, Panel, PanelPlayer,
    PictureError, Pieces, CARD_WIDTH,
};
use qipan_rules::{AnyAction, AnyPosition, GameKind};
use resvg::tiny_skia::Pixmap;

/// How far one channel of one pixel may differ.
const CHANNEL_TOLERANCE: u8 = 24;
/// How many pixels may differ by more than 2 in some channel.
const DIFFERING_SHARE: f64 = 0.005;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn env_is(name: &str, value: &str) -> bool {
    std::env::var(name).as_deref() == Ok(value)
}

/// Writes `bytes` to `path` when blessing or when the golden is missing
/// (outside CI); otherwise hands both to `compare`.
fn golden(path: &Path, bytes: &[u8], compare: impl FnOnce(&[u8], &[u8])) {
    let bless = env_is("QIPAN_BLESS", "1");
    match std::fs::read(path) {
        Ok(expected) if !bless => compare(&expected, bytes),
        Ok(_) | Err(_) => {
            if !bless && env_is("CI", "true") {
                panic!("golden {} is missing, and CI=true", path.display());
            }
            std::fs::create_dir_all(golden_dir()).expect("the golden folder can be made");
            std::fs::write(path, bytes).expect("the golden can be written");
            eprintln!(
                "wrote golden {} — look at it before committing",
                path.display()
            );
        }
    }
}

fn compare_svg(name: &str, expected: &[u8], actual: &[u8]) {
    if expected == actual {
        return;
    }
    let at = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let context = |b: &[u8]| {
        let from = at.saturating_sub(60);
        String::from_utf8_lossy(&b[from..(at + 60).min(b.len())]).into_owned()
    };
    panic!(
        "{name}.svg differs from the golden at byte {at} (lengths {} and {}):\n  golden: …{}…\n  drawn:  …{}…\n\
         rerun with QIPAN_BLESS=1 if the change is intended",
        expected.len(),
        actual.len(),
        context(expected),
        context(actual)
    );
}

fn compare_png(name: &str, expected: &[u8], actual: &[u8]) {
    let expected = Pixmap::decode_png(expected).expect("the golden PNG decodes");
    let actual = Pixmap::decode_png(actual).expect("the drawn PNG decodes");
    assert_eq!(
        (actual.width(), actual.height()),
        (expected.width(), expected.height()),
        "{name}.png: size differs from the golden"
    );
    let mut differing = 0usize;
    let mut worst = 0u8;
    for (a, b) in expected.pixels().iter().zip(actual.pixels()) {
        let d = [
            a.red().abs_diff(b.red()),
            a.green().abs_diff(b.green()),
            a.blue().abs_diff(b.blue()),
            a.alpha().abs_diff(b.alpha()),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        worst = worst.max(d);
        if d > 2 {
            differing += 1;
        }
    }
    let share = differing as f64 / expected.pixels().len() as f64;
    assert!(
        worst <= CHANNEL_TOLERANCE && share <= DIFFERING_SHARE,
        "{name}.png differs from the golden: {differing} pixels ({:.3}%) differ, by up to {worst}; \
         rerun with QIPAN_BLESS=1 if the change is intended",
        share * 100.0
    );
}

/// Compares a drawing's SVG and PNG with their goldens.
fn check_drawn(
    name: &str,
    text: Result<String, PictureError>,
    bytes: Result<Vec<u8>, PictureError>,
) {
    let text = text.unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = bytes.unwrap_or_else(|e| panic!("{name}: {e}"));
    let dir = golden_dir();
    golden(&dir.join(format!("{name}.svg")), text.as_bytes(), |e, a| {
        compare_svg(name, e, a)
    });
    golden(&dir.join(format!("{name}.png")), &bytes, |e, a| {
        compare_png(name, e, a)
    });
}

fn check(name: &str, pos: &AnyPosition, options: &Options) {
    check_drawn(name, svg(pos, options), png(pos, options));
}

fn check_duel(name: &str, pos: &AnyPosition, options: &Options, panel: &Panel) {
    check_drawn(
        name,
        duel_svg(pos, options, panel),
        duel_png(pos, options, panel),
    );
}

fn check_card(name: &str, pos: &AnyPosition, options: &Options, card: &Card) {
    check_drawn(
        name,
        card_svg(pos, options, card),
        card_png(pos, options, card),
    );
}

fn clock(ms: u64, running: bool) -> Option<ClockFace> {
    Some(ClockFace {
        left: Duration::from_millis(ms),
        running,
    })
}

fn with_last(last: Option<AnyAction>) -> Options {
    Options {
        last,
        ..Options::default()
    }
}

#[test]
fn xiangqi_middlegame_with_check_and_last_move() {
    let (pos, last) = common::xiangqi_middlegame();
    check("xiangqi-middlegame", &pos, &with_last(last));
}

#[test]
fn xiangqi_middlegame_flipped() {
    let (pos, last) = common::xiangqi_middlegame();
    let options = Options {
        flip: true,
        size: 400,
        ..with_last(last)
    };
    check("xiangqi-middlegame-flipped", &pos, &options);
}

#[test]
fn xiangqi_start_without_coordinates_or_highlights() {
    let options = Options {
        size: 320,
        coordinates: false,
        highlights: false,
        ..Options::default()
    };
    check("xiangqi-start-plain", &common::xiangqi_start(), &options);
}

#[test]
fn xiangqi_middlegame_in_traditional_pieces() {
    let (pos, last) = common::xiangqi_middlegame();
    let options = Options {
        size: 400,
        pieces: Pieces::Traditional,
        ..with_last(last)
    };
    check("xiangqi-middlegame-traditional", &pos, &options);
}

#[test]
fn gomoku_winning_line_and_recorded_last_stone() {
    check("gomoku-won", &common::gomoku_won(), &Options::default());
}

#[test]
fn renju_forbidden_points_for_black() {
    let last = common::action(GameKind::Gomoku, "o12");
    check(
        "gomoku-renju-forbidden",
        &common::renju_forbidden(),
        &with_last(Some(last)),
    );
}

#[test]
fn gomoku_19_flipped_without_coordinates() {
    let (pos, _) = common::gomoku_19();
    let options = Options {
        flip: true,
        coordinates: false,
        size: 360,
        ..Options::default()
    };
    check("gomoku-19-flipped-plain", &pos, &options);
}

#[test]
fn twenty48_large_tiles() {
    check(
        "2048-large-tiles",
        &common::twenty48_large(),
        &Options::default(),
    );
}

#[test]
fn twenty48_early_game() {
    let options = Options {
        size: 300,
        ..Options::default()
    };
    check("2048-early", &common::twenty48_early(), &options);
}

#[test]
fn quoridor_paths_walls_and_last_wall() {
    let (pos, last) = common::quoridor_walls();
    check("quoridor-walls", &pos, &with_last(last));
}

#[test]
fn quoridor_flipped_last_pawn_move() {
    let (pos, last) = common::quoridor_pawn_move();
    let options = Options {
        flip: true,
        ..with_last(last)
    };
    check("quoridor-pawn-move-flipped", &pos, &options);
}

#[test]
fn tetris_ghost_hold_and_next() {
    let (pos, last) = common::tetris_midgame();
    check("tetris-midgame", &pos, &with_last(last));
}

#[test]
fn tetris_topped_out() {
    let options = Options {
        size: 320,
        ..Options::default()
    };
    check("tetris-over", &common::tetris_over(), &options);
}

#[test]
fn xiangqi_timed_duel_with_names_and_clocks() {
    let (pos, last) = common::xiangqi_middlegame();
    let panel = Panel {
        players: [
            PanelPlayer {
                name: Some("Lin".to_owned()),
                clock: clock(298_500, false),
            },
            PanelPlayer {
                name: Some("Ada Lovelace".to_owned()),
                clock: clock(7_400, true),
            },
        ],
        result: None,
    };
    check_duel("duel-xiangqi-timed", &pos, &with_last(last), &panel);
}

#[test]
fn gomoku_duel_over_with_a_long_name_and_one_without() {
    let panel = Panel {
        players: [
            PanelPlayer {
                name: Some("Wolfeschlegelsteinhausenberger Zoë".to_owned()),
                clock: clock(3 * 86_400_000, false),
            },
            PanelPlayer {
                name: None,
                clock: clock(86_400_000 + 3_600_000, false),
            },
        ],
        result: Some("Black wins: five in a row".to_owned()),
    };
    let options = Options {
        size: 400,
        ..Options::default()
    };
    check_duel("duel-gomoku-over", &common::gomoku_won(), &options, &panel);
}

#[test]
fn quoridor_untimed_duel_flipped() {
    let (pos, last) = common::quoridor_pawn_move();
    let panel = Panel {
        players: [
            PanelPlayer {
                name: Some("Ana".to_owned()),
                clock: None,
            },
            PanelPlayer {
                name: Some("Bo".to_owned()),
                clock: None,
            },
        ],
        result: Some("Drawn by agreement".to_owned()),
    };
    let options = Options {
        flip: true,
        ..with_last(last)
    };
    check_duel("duel-quoridor-flipped", &pos, &options, &panel);
}

#[test]
fn xiangqi_duel_card_in_chinese() {
    let (pos, last) = common::xiangqi_middlegame();
    let card = Card {
        title: "象棋".to_owned(),
        players: vec!["王小明".to_owned(), "陳大文 (Chan Tai-man)".to_owned()],
        headline: "黑方走棋，被将军".to_owned(),
        details: vec!["上一步 车三进二".to_owned(), "第10回合".to_owned()],
    };
    let options = Options {
        size: CARD_WIDTH,
        ..with_last(last)
    };
    check_card("card-xiangqi-duel", &pos, &options, &card);
}

#[test]
fn gomoku_position_card_with_a_long_headline_at_half_size() {
    // No players: a position of no match. The headline is made smaller,
    // then cut short.
    let card = Card {
        title: "Gomoku 五子棋".to_owned(),
        players: Vec::new(),
        headline: "Five in a row: black wins, and the headline goes on".to_owned(),
        details: vec!["Last move: l8".to_owned()],
    };
    let options = Options {
        size: CARD_WIDTH / 2,
        ..Options::default()
    };
    check_card("card-gomoku-half", &common::gomoku_won(), &options, &card);
}

#[test]
fn a_duel_panel_is_for_two_players() {
    let panel = Panel::default();
    let err = duel_svg(&common::twenty48_early(), &Options::default(), &panel)
        .expect_err("2048 has one player");
    assert_eq!(
        err.to_string(),
        "2048 has one player: a duel's panel is for the two-player games"
    );
}
