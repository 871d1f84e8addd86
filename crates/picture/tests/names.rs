//! Players' names in any script: the embedded text font draws every hanzi
//! of GB 2312, and different names make different pictures.
//!
//! The GB 2312 table is read from `encoding_rs`'s GBK decoder (the WHATWG
//! Encoding Standard's index, a source apart from the Python codecs that
//! `scripts/subset-fonts.sh` takes its list from): GBK keeps GB 2312's
//! codes, and its rows 16–87 (bytes 0xB0–0xF7) are GB 2312's two levels of
//! hanzi, 3,755 + 3,008 = 6,763.

mod common;

use qipan_picture::{duel_png, missing_glyphs, Options, Panel, PanelPlayer};
use resvg::tiny_skia::Pixmap;

/// Every hanzi of GB 2312 levels 1 and 2, in code order.
fn gb2312_hanzi() -> Vec<char> {
    let mut chars = Vec::new();
    for hi in 0xB0..=0xF7u8 {
        for lo in 0xA1..=0xFEu8 {
            let bytes = [hi, lo];
            let (text, had_errors) = encoding_rs::GBK.decode_without_bom_handling(&bytes);
            let mut it = text.chars();
            let (Some(c), None) = (it.next(), it.next()) else {
                continue;
            };
            // GB 2312 leaves 0xD7FA–0xD7FE empty; GBK maps them to the
            // Private Use Area.
            if had_errors || ('\u{E000}'..='\u{F8FF}').contains(&c) {
                continue;
            }
            chars.push(c);
        }
    }
    chars
}

#[test]
fn every_gb2312_hanzi_is_drawn_with_its_own_glyph() {
    let hanzi = gb2312_hanzi();
    assert_eq!(hanzi.len(), 6763);
    assert_eq!(hanzi.first(), Some(&'啊'));
    assert_eq!(hanzi.last(), Some(&'齄'));
    let all: String = hanzi.iter().collect();
    assert_eq!(missing_glyphs(&all), Vec::<char>::new());
}

fn duel(first: &str, second: &str) -> Panel {
    let player = |name: &str| PanelPlayer {
        name: Some(name.to_owned()),
        clock: None,
    };
    Panel {
        players: [player(first), player(second)],
        result: None,
    }
}

fn pixels(panel: &Panel) -> Pixmap {
    let (pos, last) = common::xiangqi_middlegame();
    let options = Options {
        size: 240,
        last,
        ..Options::default()
    };
    let bytes = duel_png(&pos, &options, panel).expect("the duel draws");
    Pixmap::decode_png(&bytes).expect("the PNG decodes")
}

/// The rows in which two pictures of the same size differ.
fn differing_rows(a: &Pixmap, b: &Pixmap) -> Vec<u32> {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let w = a.width() as usize;
    (0..a.height())
        .filter(|&y| {
            let row = y as usize * w..(y as usize + 1) * w;
            a.pixels()[row.clone()] != b.pixels()[row]
        })
        .collect()
}

#[test]
fn two_matches_with_different_cjk_names_give_different_pictures() {
    // 240 px wide: bands of 0.12 × the board's width, 29 px, above and
    // below a board 264 px high.
    let a = pixels(&duel("王小明", "李华"));
    let b = pixels(&duel("陈大文", "张伟"));
    let rows = differing_rows(&a, &b);
    let band = 29;
    let board_end = band + 264;
    assert!(rows.iter().any(|&y| y < band), "the top band differs");
    assert!(
        rows.iter().any(|&y| y >= board_end),
        "the bottom band differs"
    );
    assert!(
        rows.iter().all(|&y| y < band || y >= board_end),
        "the board is the same: {rows:?}"
    );
    // One character changed in one name changes that band only.
    let c = pixels(&duel("王小明", "李花"));
    let rows = differing_rows(&a, &c);
    assert!(
        !rows.is_empty() && rows.iter().all(|&y| y < band),
        "{rows:?}"
    );
}

#[test]
fn names_in_other_scripts_draw_without_a_box() {
    for name in [
        "陳大文",
        "黃志強",
        "山田太郎",
        "さくら",
        "김민준",
        "Zoë",
        "Лев",
        "Nguyễn",
    ] {
        assert_eq!(missing_glyphs(name), Vec::<char>::new(), "{name}");
    }
    // Scripts the font does not hold are boxed: Thai, Arabic, emoji.
    assert_eq!(missing_glyphs("ส"), vec!['ส']);
    assert_eq!(missing_glyphs("علي"), vec!['ع', 'ل', 'ي']);
    assert_eq!(missing_glyphs("王🐉"), vec!['🐉']);
}
