//! Benchmarks of the pictures: `cargo bench -p qipan-picture --bench picture`.
//!
//! - `xiangqi_middlegame/svg`: position → SVG text at the default size
//!   (480 px) with the last move highlighted;
//! - `xiangqi_middlegame/png`: the same drawing rendered and encoded as PNG,
//!   what a chat preview asks for.
//!
//! - `xiangqi_duel/png_cjk_names`: the same position as a match's picture,
//!   both players named in Chinese and a result line in Chinese, what the
//!   text font costs over ASCII-only bands (`png_ascii_names`);
//! - `xiangqi_card/png`: the 1200 × 630 chat card with a Chinese caption;
//! - `xiangqi_replay/gif_100_plies_480px`: an animated replay of the first
//!   100 plies of a real game (`tests/data/xiangqi-1982-liu-yang.txt`), 101
//!   frames at 480 px, checked to stay within 1 MB; and
//!   `xiangqi_replay/png_one_frame_480px`, one PNG of its last position at
//!   the same width, which the GIF's time is read against.
//!
//! Each asserts what it made (an SVG of the expected width, PNGs of the
//! expected size, a GIF of 101 frames under 1 MB), so a broken picture fails
//! the run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use qipan_picture::{
    card_png, duel_png, png, replay_gif, svg, Card, Options, Panel, PanelPlayer, ReplayCaption,
    ReplayOptions, CARD_WIDTH,
};
use qipan_rules::{AnyAction, AnyPosition, GameKind};

#[path = "../tests/common/mod.rs"]
mod common;

/// The middlegame of the rules' own xiangqi bench (`benches/xiangqi.rs` at
/// the workspace root): h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5
/// g3g4 b7a7 b2b6 h7h3 c3c4 c5c4 h0h3 g6g5 g4g5 g7h5, red to move.
const MIDDLEGAME: &str = "VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o";
/// Black's last move in it.
const LAST: &str = "g7h5";

/// The middlegame and the options that mark its last move.
fn middlegame() -> (AnyPosition, Options) {
    let pos =
        AnyPosition::from_code(GameKind::Xiangqi, MIDDLEGAME).expect("the bench code is valid");
    let last = AnyAction::parse(GameKind::Xiangqi, LAST).expect("the last move parses");
    let options = Options {
        last: Some(last),
        ..Options::default()
    };
    (pos, options)
}

fn pictures(c: &mut Criterion) {
    let (pos, options) = middlegame();
    let text = svg(&pos, &options).expect("the middlegame draws");
    assert!(text.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="528""#));
    let bytes = png(&pos, &options).expect("the middlegame renders");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("the PNG decodes");
    assert_eq!((pixmap.width(), pixmap.height()), (480, 528));

    let mut group = c.benchmark_group("xiangqi_middlegame");
    group.bench_function("svg", |b| {
        b.iter(|| svg(black_box(&pos), black_box(&options)))
    });
    group.bench_function("png", |b| {
        b.iter(|| png(black_box(&pos), black_box(&options)))
    });
    group.finish();
}

fn named(first: &str, second: &str, result: &str) -> Panel {
    let player = |name: &str| PanelPlayer {
        name: Some(name.to_owned()),
        clock: None,
    };
    Panel {
        players: [player(first), player(second)],
        result: Some(result.to_owned()),
    }
}

fn duels_and_cards(c: &mut Criterion) {
    let (pos, options) = middlegame();
    let cjk = named("柳大华", "杨官璘", "和棋 · 双方同意");
    let ascii = named("Liu Dahua", "Yang Guanlin", "Drawn by agreement");
    let mut group = c.benchmark_group("xiangqi_duel");
    group.bench_function("png_cjk_names", |b| {
        b.iter(|| duel_png(black_box(&pos), black_box(&options), black_box(&cjk)))
    });
    group.bench_function("png_ascii_names", |b| {
        b.iter(|| duel_png(black_box(&pos), black_box(&options), black_box(&ascii)))
    });
    group.finish();

    let card = Card {
        title: "象棋".to_owned(),
        players: vec!["柳大华".to_owned(), "杨官璘".to_owned()],
        headline: "红方走棋".to_owned(),
        details: vec!["上一步 马７进６".to_owned(), "第11回合".to_owned()],
    };
    let card_options = Options {
        size: CARD_WIDTH,
        ..options
    };
    let bytes = card_png(&pos, &card_options, &card).expect("the card renders");
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("the card decodes");
    assert_eq!((pixmap.width(), pixmap.height()), (1200, 630));
    let mut group = c.benchmark_group("xiangqi_card");
    group.bench_function("png", |b| {
        b.iter(|| card_png(black_box(&pos), black_box(&card_options), black_box(&card)))
    });
    group.finish();
}

fn replays(c: &mut Criterion) {
    let frames = common::xiangqi_record(100);
    let caption = ReplayCaption {
        names: vec![Some("柳大华".to_owned()), Some("杨官璘".to_owned())],
        result: Some("和棋 1/2-1/2".to_owned()),
    };
    let options = ReplayOptions::default();
    let bytes = replay_gif(&frames, &caption, &options).expect("the replay draws");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(bytes.as_slice())
        .expect("the GIF reads");
    let mut count = 0;
    while decoder.next_frame_info().expect("a frame reads").is_some() {
        count += 1;
    }
    assert_eq!(count, 101);
    assert!(bytes.len() < 1_000_000, "{} bytes", bytes.len());
    eprintln!("replay of 100 plies at 480 px: {} bytes", bytes.len());

    // One still of the same game at the same width, in the same run: the
    // GIF's time is read against it (docs/records.md).
    let last = frames.last().expect("a frame");
    let still = Options {
        size: options.size,
        last: last.last,
        ..Options::default()
    };

    let mut group = c.benchmark_group("xiangqi_replay");
    group.sample_size(10);
    group.bench_function("gif_100_plies_480px", |b| {
        b.iter(|| replay_gif(black_box(&frames), black_box(&caption), black_box(&options)))
    });
    group.bench_function("png_one_frame_480px", |b| {
        b.iter(|| png(black_box(&last.position), black_box(&still)))
    });
    group.finish();
}

criterion_group!(benches, pictures, duels_and_cards, replays);
criterion_main!(benches);
