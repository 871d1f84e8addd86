//! Animated replays: a game as a GIF, one frame per position.
//!
//! Each frame is the picture [`crate::duel_png`] draws of its position — the
//! last move marked, the players' bands, the result line — rasterised the
//! same way; the GIF holds them compactly:
//!
//! - **one palette for the whole replay**: 255 colours fitted by NeuQuant to
//!   a few frames spread over the game (the first, the last and some
//!   between: a board's colours hardly change from move to move), and every
//!   pixel mapped to the nearest of them, no dithering (flat drawings
//!   compress far better without it);
//! - **frame differencing**: after the first, a frame is only the rectangle
//!   that holds the pixels changed since the frame before, drawn over it
//!   (disposal "keep"), with the pixels in it that did not change left
//!   transparent, so that the LZW coder sees long runs of one index.
//!
//! A 100-ply xiangqi game at 480 px comes to some 0.4 MB (see the crate's
//! bench). The work is streamed: the frames are drawn one after another and
//! only the last one's pixels are kept, so memory does not grow with the
//! game's length.

use std::collections::HashMap;
use std::time::Duration;

use qipan_rules::{AnyAction, AnyPosition};
use resvg::tiny_skia::Pixmap;

use crate::canvas::Canvas;
use crate::panel::{self, PanelPlayer};
use crate::{games, render, Options, PictureError, Pieces, MIN_SIZE};

/// The widest replay, in pixels: a frame is rasterised per position, so a
/// replay costs its frames times a still picture.
pub const MAX_REPLAY_SIZE: u32 = 1024;
/// The most positions one replay may hold.
pub const MAX_REPLAY_FRAMES: usize = 1000;

/// One position of a replay and the action that led to it (`None` for
/// the first position of a game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayFrame {
    /// The position drawn.
    pub position: AnyPosition,
    /// The action that led to it, marked as [`Options::last`] marks it.
    pub last: Option<AnyAction>,
}

/// What the band around every frame says, in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReplayCaption {
    /// The players' names, in the game's order of players
    /// ([`qipan_rules::GameKind::players`]). In a two-player game a missing
    /// or `None` name is drawn as the side's name; in a one-player game the
    /// name's band is left out when there is none.
    pub names: Vec<Option<String>>,
    /// How the game ended, drawn under the board on every frame; `None`
    /// draws no result line.
    pub result: Option<String>,
}

/// How to draw a replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The width in pixels, [`MIN_SIZE`] to [`MAX_REPLAY_SIZE`].
    pub size: u32,
    /// Turn the board half a turn, as [`Options::flip`].
    pub flip: bool,
    /// Label files and ranks, as [`Options::coordinates`].
    pub coordinates: bool,
    /// How long each position but the last is shown. A GIF counts in
    /// hundredths of a second: the time is rounded down to them.
    pub delay: Duration,
    /// How long the last position is shown before the replay starts over.
    pub final_delay: Duration,
}

impl Default for ReplayOptions {
    /// 480 px wide, not flipped, with coordinates; 0.8 s a move, 4 s on
    /// the last position.
    fn default() -> ReplayOptions {
        ReplayOptions {
            size: 480,
            flip: false,
            coordinates: true,
            delay: Duration::from_millis(800),
            final_delay: Duration::from_secs(4),
        }
    }
}

/// How many frames the palette is fitted to, at most.
const PALETTE_SAMPLES: usize = 6;
/// The palette's colours; index 255 is the transparent one.
const COLOURS: usize = 255;
const TRANSPARENT: u8 = 255;
/// NeuQuant's sampling factor: 1 looks at every pixel, 30 at one in 30.
/// The frames are large flat areas, and one pixel in ten learns them well.
const SAMPLE_FACTOR: i32 = 10;

/// Checks the replay before any frame is drawn.
fn check(frames: &[ReplayFrame], options: &ReplayOptions) -> Result<(), PictureError> {
    if !(MIN_SIZE..=MAX_REPLAY_SIZE).contains(&options.size) {
        return Err(PictureError::ReplaySizeOutOfRange { size: options.size });
    }
    let Some(first) = frames.first() else {
        return Err(PictureError::EmptyReplay);
    };
    if frames.len() > MAX_REPLAY_FRAMES {
        return Err(PictureError::TooManyFrames {
            frames: frames.len(),
        });
    }
    let kind = first.position.kind();
    if let Some(index) = frames.iter().position(|f| f.position.kind() != kind) {
        return Err(PictureError::MixedFrames { index });
    }
    Ok(())
}

/// The drawing of frame `index`.
fn frame(
    frames: &[ReplayFrame],
    index: usize,
    caption: &ReplayCaption,
    options: &ReplayOptions,
) -> Result<Canvas, PictureError> {
    let Some(f) = frames.get(index) else {
        return Err(PictureError::EmptyReplay);
    };
    let board_options = Options {
        size: options.size,
        flip: options.flip,
        coordinates: options.coordinates,
        highlights: true,
        last: f.last,
        pieces: Pieces::default(),
    };
    let in_frame = |error| PictureError::InFrame {
        index,
        error: Box::new(error),
    };
    let board = games::draw(&f.position, &board_options).map_err(in_frame)?;
    let player = |i: usize| PanelPlayer {
        name: caption.names.get(i).cloned().flatten(),
        clock: None,
    };
    let result = caption.result.as_deref();
    let canvas = match *f.position.kind().players() {
        [first, second] => {
            let (p1, p2) = (player(0), player(1));
            let (top, bottom) = if options.flip {
                ((first, &p1), (second, &p2))
            } else {
                ((second, &p2), (first, &p1))
            };
            panel::around(board, options.size, [Some(top), Some(bottom)], result)
        }
        ref sides => {
            let p = player(0);
            let band = sides.first().filter(|_| p.name.is_some()).map(|&s| (s, &p));
            panel::around(board, options.size, [band, None], result)
        }
    };
    Ok(canvas)
}

/// Frame `index`'s pixels.
fn pixels(
    frames: &[ReplayFrame],
    index: usize,
    caption: &ReplayCaption,
    options: &ReplayOptions,
) -> Result<Pixmap, PictureError> {
    render::rasterise(&frame(frames, index, caption, options)?.finish())
}

/// The frames the palette is fitted to: the first, the last and some
/// evenly between.
fn samples(frames: usize) -> Vec<usize> {
    let n = PALETTE_SAMPLES.min(frames);
    let mut picked: Vec<usize> = (0..n)
        .map(|k| if n > 1 { k * (frames - 1) / (n - 1) } else { 0 })
        .collect();
    picked.dedup();
    picked
}

/// A palette and the exact nearest colour of every colour asked, kept.
struct Palette {
    rgb: Vec<[u8; 3]>,
    nearest: HashMap<[u8; 3], u8>,
}

impl Palette {
    fn fit(sample: &[u8]) -> Palette {
        let quant = color_quant::NeuQuant::new(SAMPLE_FACTOR, COLOURS, sample);
        let rgb = quant
            .color_map_rgb()
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        Palette {
            rgb,
            nearest: HashMap::new(),
        }
    }

    /// The index of the palette colour nearest `colour` (squared RGB
    /// distance; the first of equals).
    fn index(&mut self, colour: [u8; 3]) -> u8 {
        let rgb = &self.rgb;
        *self.nearest.entry(colour).or_insert_with(|| {
            let distance = |p: &[u8; 3]| -> u32 {
                p.iter()
                    .zip(colour)
                    .map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2))
                    .sum()
            };
            let best = rgb
                .iter()
                .enumerate()
                .min_by_key(|&(i, p)| (distance(p), i))
                .map_or(0, |(i, _)| i);
            u8::try_from(best).unwrap_or(0)
        })
    }

    /// The colour table as the GIF writes it: the fitted colours, then the
    /// transparent index's (never shown: black).
    fn table(&self) -> Vec<u8> {
        let mut table: Vec<u8> = self.rgb.iter().flatten().copied().collect();
        table.resize(256 * 3, 0);
        table
    }
}

/// The smallest rectangle (`x`, `y`, `width`, `height`) holding every
/// pixel where `a` and `b`, `width` pixels wide, differ.
fn changed(a: &[u8], b: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let row = width * 4;
    let rows_a = a.chunks_exact(row);
    let differing: Vec<usize> = rows_a
        .zip(b.chunks_exact(row))
        .enumerate()
        .filter(|(_, (ra, rb))| ra != rb)
        .map(|(y, _)| y)
        .collect();
    let (&top, &bottom) = (differing.first()?, differing.last()?);
    let (mut left, mut right) = (width, 0);
    for &y in &differing {
        let (ra, rb) = (&a[y * row..(y + 1) * row], &b[y * row..(y + 1) * row]);
        let mut pixels = ra.chunks_exact(4).zip(rb.chunks_exact(4));
        if let Some(first) = pixels.position(|(pa, pb)| pa != pb) {
            left = left.min(first);
            // `position` consumed up to `first`; the rest runs to the end.
            let last = pixels
                .rposition(|(pa, pb)| pa != pb)
                .map_or(first, |r| first + 1 + r);
            right = right.max(last);
        }
    }
    Some((left, top, right + 1 - left, bottom + 1 - top))
}

/// A GIF's delay: hundredths of a second, at most what fits.
fn centiseconds(d: Duration) -> u16 {
    u16::try_from(d.as_millis() / 10).unwrap_or(u16::MAX)
}

fn failed(e: gif::EncodingError) -> PictureError {
    PictureError::Render {
        detail: format!("GIF encoding failed: {e}"),
    }
}

/// The replay as GIF bytes: see [`crate::replay_gif`].
pub(crate) fn gif(
    frames: &[ReplayFrame],
    caption: &ReplayCaption,
    options: &ReplayOptions,
) -> Result<Vec<u8>, PictureError> {
    check(frames, options)?;
    let mut sample = Vec::new();
    for index in samples(frames.len()) {
        sample.extend_from_slice(pixels(frames, index, caption, options)?.data());
    }
    let mut palette = Palette::fit(&sample);
    drop(sample);

    let first = pixels(frames, 0, caption, options)?;
    let (width, height) = (first.width() as usize, first.height() as usize);
    let too_large = || PictureError::Render {
        detail: format!("{width}×{height} is too large for a GIF"),
    };
    let dimension = |n: usize| u16::try_from(n).map_err(|_| too_large());
    let mut encoder = gif::Encoder::new(
        Vec::new(),
        dimension(width)?,
        dimension(height)?,
        &palette.table(),
    )
    .map_err(failed)?;
    encoder.set_repeat(gif::Repeat::Infinite).map_err(failed)?;

    let last = frames.len() - 1;
    let delay = |index: usize| {
        centiseconds(if index == last {
            options.final_delay
        } else {
            options.delay
        })
    };
    // The indices shown so far, and the pixels they were mapped from.
    let mut shown: Vec<u8> = first
        .data()
        .chunks_exact(4)
        .map(|p| palette.index([p[0], p[1], p[2]]))
        .collect();
    let mut previous = first;
    encoder
        .write_frame(&gif::Frame {
            width: dimension(width)?,
            height: dimension(height)?,
            buffer: shown.as_slice().into(),
            delay: delay(0),
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        })
        .map_err(failed)?;

    for index in 1..frames.len() {
        let current = pixels(frames, index, caption, options)?;
        if (current.width() as usize, current.height() as usize) != (width, height) {
            return Err(PictureError::MixedFrames { index });
        }
        // No change at all still takes a frame, one transparent pixel, so
        // that every position has its frame and its delay.
        let (x, y, w, h) = changed(previous.data(), current.data(), width).unwrap_or((0, 0, 1, 1));
        let mut buffer = Vec::with_capacity(w * h);
        for row in y..y + h {
            for col in x..x + w {
                let at = row * width + col;
                let p = &current.data()[at * 4..at * 4 + 4];
                let new = palette.index([p[0], p[1], p[2]]);
                if shown[at] == new {
                    buffer.push(TRANSPARENT);
                } else {
                    shown[at] = new;
                    buffer.push(new);
                }
            }
        }
        encoder
            .write_frame(&gif::Frame {
                left: dimension(x)?,
                top: dimension(y)?,
                width: dimension(w)?,
                height: dimension(h)?,
                buffer: buffer.into(),
                transparent: Some(TRANSPARENT),
                delay: delay(index),
                dispose: gif::DisposalMethod::Keep,
                ..gif::Frame::default()
            })
            .map_err(failed)?;
        previous = current;
    }
    encoder.into_inner().map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_is_fitted_to_the_first_the_last_and_frames_between() {
        assert_eq!(samples(1), vec![0]);
        assert_eq!(samples(2), vec![0, 1]);
        assert_eq!(samples(101), vec![0, 20, 40, 60, 80, 100]);
        assert_eq!(samples(4), vec![0, 1, 2, 3]);
    }

    #[test]
    fn the_changed_rectangle_holds_every_changed_pixel() {
        let width = 5;
        let a = vec![0u8; width * 4 * 4];
        assert_eq!(changed(&a, &a, width), None);
        let mut b = a.clone();
        b[(width + 3) * 4] = 9; // (3, 1)
        b[(2 * width + 1) * 4 + 2] = 9; // (1, 2)
        assert_eq!(changed(&a, &b, width), Some((1, 1, 3, 2)));
        let mut c = a.clone();
        c[(3 * width) * 4 + 1] = 9; // (0, 3)
        c[(3 * width + 2) * 4 + 3] = 9; // (2, 3)
        assert_eq!(changed(&a, &c, width), Some((0, 3, 3, 1)));
    }

    #[test]
    fn delays_count_in_hundredths() {
        assert_eq!(centiseconds(Duration::from_millis(809)), 80);
        assert_eq!(centiseconds(Duration::from_secs(4)), 400);
        assert_eq!(centiseconds(Duration::from_secs(100_000)), u16::MAX);
    }
}
