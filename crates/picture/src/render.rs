//! SVG to PNG with `resvg`: parse the crate's own SVG, rasterise it at its
//! pixel size, encode the pixels.
//!
//! Every picture paints its whole background, so every pixel is opaque
//! and the PNG is written as 8-bit RGB, a quarter smaller than RGBA. The
//! encoder uses `png`'s fast deflate: a picture for a chat preview is
//! wanted quickly, and the default deflate took several times as long as
//! the rasterising for files only some 15% smaller.

use resvg::{tiny_skia, usvg};

use crate::PictureError;

/// Renders an SVG this crate drew to PNG bytes, at the document's own
/// `width` × `height` in pixels.
pub(crate) fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let pixmap = rasterise(svg)?;
    encode(&pixmap)
}

fn failed(detail: String) -> PictureError {
    PictureError::Render { detail }
}

/// The SVG's pixels.
fn rasterise(svg: &str) -> Result<tiny_skia::Pixmap, PictureError> {
    // No font database is needed: the drawing has no text elements.
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| failed(format!("the SVG does not parse: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        failed(format!(
            "no {}×{} pixel buffer can be made",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The pixels as an RGB PNG. A pixel that is not opaque (none is, see the
/// module docs) is written as its colour over black.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    let mut rgb = Vec::with_capacity(pixmap.pixels().len() * 3);
    for p in pixmap.pixels() {
        // Premultiplied colour over black is the colour as stored.
        rgb.extend_from_slice(&[p.red(), p.green(), p.blue()]);
    }
    let mut out = Vec::with_capacity(rgb.len() / 4);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder
        .write_header()
        .map_err(|e| failed(format!("PNG encoding failed: {e}")))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| failed(format!("PNG encoding failed: {e}")))?;
    writer
        .finish()
        .map_err(|e| failed(format!("PNG encoding failed: {e}")))?;
    Ok(out)
}

#[cfg(test)]
pub(crate) mod timing {
    //! Stage timings, printed by `cargo test -p qipan-picture --release
    //! stage_timings -- --ignored --nocapture`.

    #[test]
    #[ignore = "prints timings; run by hand"]
    fn stage_timings() {
        use qipan_rules::{AnyPosition, GameKind};
        use std::time::Instant;
        let pos = AnyPosition::from_code(
            GameKind::Xiangqi,
            "VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o",
        )
        .expect("valid code");
        let svg = crate::svg(&pos, &crate::Options::default()).expect("draws");
        for _ in 0..5 {
            let t = Instant::now();
            let pixmap = super::rasterise(&svg).expect("renders");
            let t1 = t.elapsed();
            let bytes = super::encode(&pixmap).expect("encodes");
            let t2 = t.elapsed();
            let rgba = pixmap.encode_png().expect("encodes");
            let t3 = t.elapsed();
            println!(
                "rasterise {:?}, encode fast RGB {:?} ({} bytes), tiny-skia RGBA {:?} ({} bytes)",
                t1,
                t2 - t1,
                bytes.len(),
                t3 - t2,
                rgba.len()
            );
        }
    }
}
