//! Benchmarks of the pictures: `cargo bench -p qipan-picture --bench picture`.
//!
//! - `xiangqi_middlegame/svg`: position → SVG text at the default size
//!   (480 px) with the last move highlighted;
//! - `xiangqi_middlegame/png`: the same drawing rendered and encoded as PNG,
//!   what a chat preview asks for.
//!
//! Both assert what they made (an SVG of the expected width, a PNG that
//! decodes to 480 × 528 pixels), so a broken picture fails the run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use qipan_picture::{png, svg, Options};
use qipan_rules::{AnyAction, AnyPosition, GameKind};

/// The middlegame of the rules' own xiangqi bench (`benches/xiangqi.rs` at
/// the workspace root): h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5
/// g3g4 b7a7 b2b6 h7h3 c3c4 c5c4 h0h3 g6g5 g4g5 g7h5, red to move.
const MIDDLEGAME: &str = "VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o";
/// Black's last move in it.
const LAST: &str = "g7h5";

fn pictures(c: &mut Criterion) {
    let pos =
        AnyPosition::from_code(GameKind::Xiangqi, MIDDLEGAME).expect("the bench code is valid");
    let last = AnyAction::parse(GameKind::Xiangqi, LAST).expect("the last move parses");
    let options = Options {
        last: Some(last),
        ..Options::default()
    };
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

criterion_group!(benches, pictures);
criterion_main!(benches);
