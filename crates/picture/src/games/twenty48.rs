//! 2048: the 4×4 board in the colours of Gabriele Cirulli's original game,
//! the score above it, and the original's veil when no move is left.
//!
//! Units are the original's pixels: a 500-unit board, 15-unit gaps and
//! 106.25-unit tiles, with its font sizes (55, 45 from 128 on, 35 from
//! 1024 on, 30 above), shrunk further when a number would not fit.

use qipan_rules::twenty48::Position;

use crate::canvas::Canvas;
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::Options;

const PAGE: &str = "#faf8ef";
const BOARD: &str = "#bbada0";
/// Empty cells: rgba(238, 228, 218, 0.35), as fill and fill-opacity.
const EMPTY: &str = "#eee4da";
const DARK_TEXT: &str = "#776e65";
const LIGHT_TEXT: &str = "#f9f6f2";

const MARGIN: f64 = 20.0;
const HEADER: f64 = 92.0;
const BOARD_SIDE: f64 = 500.0;
const GAP: f64 = 15.0;
const TILE: f64 = (BOARD_SIDE - 5.0 * GAP) / 4.0;

/// A tile's background and text colours.
fn colours(value: u32) -> (&'static str, &'static str) {
    match value {
        2 => ("#eee4da", DARK_TEXT),
        4 => ("#ede0c8", DARK_TEXT),
        8 => ("#f2b179", LIGHT_TEXT),
        16 => ("#f59563", LIGHT_TEXT),
        32 => ("#f67c5f", LIGHT_TEXT),
        64 => ("#f65e3b", LIGHT_TEXT),
        128 => ("#edcf72", LIGHT_TEXT),
        256 => ("#edcc61", LIGHT_TEXT),
        512 => ("#edc850", LIGHT_TEXT),
        1024 => ("#edc53f", LIGHT_TEXT),
        2048 => ("#edc22e", LIGHT_TEXT),
        _ => ("#3c3a32", LIGHT_TEXT),
    }
}

/// The em size of a tile's number: the original's step for its length,
/// then smaller until it fits the tile with some room.
fn number_size(text: &str) -> f64 {
    let size: f64 = match text.len() {
        0..=2 => 55.0,
        3 => 45.0,
        4 => 35.0,
        _ => 30.0,
    };
    let room = TILE * 0.84;
    let width = fonts::measure(Font::Latin, text, size);
    if width > room {
        size * room / width
    } else {
        size
    }
}

/// Draws a 2048 position. There are no coordinates, no sides to flip and
/// no highlights.
pub(crate) fn draw(pos: &Position, options: &Options) -> Canvas {
    let width = BOARD_SIDE + 2.0 * MARGIN;
    let height = MARGIN + HEADER + BOARD_SIDE + MARGIN;
    let mut c = Canvas::new(options.size, width, height);
    c.rect(0.0, 0.0, width, height).fill(PAGE).crisp();

    // The header: the game's name left, the score box right.
    let title = Style {
        font: Font::Latin,
        size: 78.0,
        fill: DARK_TEXT,
    };
    let header_mid = MARGIN + HEADER / 2.0 - 6.0;
    fonts::text(
        &mut c,
        "2048",
        MARGIN,
        header_mid,
        title,
        Anchor::Start,
        Middle::Cap,
    );
    let score = pos.score().to_string();
    let value = Style {
        font: Font::Latin,
        size: 30.0,
        fill: "#ffffff",
    };
    let label = Style {
        font: Font::Latin,
        size: 15.0,
        fill: "#eee4da",
    };
    let box_w = (fonts::measure(Font::Latin, &score, value.size) + 50.0).max(110.0);
    let box_h = 66.0;
    let box_x = MARGIN + BOARD_SIDE - box_w;
    let box_y = header_mid - box_h / 2.0;
    c.rect(box_x, box_y, box_w, box_h)
        .num("rx", 4.0)
        .fill(BOARD);
    let box_mid = box_x + box_w / 2.0;
    fonts::text(
        &mut c,
        "SCORE",
        box_mid,
        box_y + 19.0,
        label,
        Anchor::Middle,
        Middle::Cap,
    );
    fonts::text(
        &mut c,
        &score,
        box_mid,
        box_y + 45.0,
        value,
        Anchor::Middle,
        Middle::Cap,
    );

    let top = MARGIN + HEADER;
    c.rect(MARGIN, top, BOARD_SIDE, BOARD_SIDE)
        .num("rx", 6.0)
        .fill(BOARD);
    for (r, row) in pos.grid().iter().enumerate() {
        for (col, &v) in row.iter().enumerate() {
            let x = MARGIN + GAP + col as f64 * (TILE + GAP);
            let y = top + GAP + r as f64 * (TILE + GAP);
            if v == 0 {
                c.rect(x, y, TILE, TILE)
                    .num("rx", 3.0)
                    .fill(EMPTY)
                    .num("fill-opacity", 0.35);
                continue;
            }
            let (bg, fg) = colours(v);
            c.rect(x, y, TILE, TILE).num("rx", 3.0).fill(bg);
            let text = v.to_string();
            let style = Style {
                font: Font::Latin,
                size: number_size(&text),
                fill: fg,
            };
            fonts::text(
                &mut c,
                &text,
                x + TILE / 2.0,
                y + TILE / 2.0,
                style,
                Anchor::Middle,
                Middle::Cap,
            );
        }
    }

    if !pos.status().is_ongoing() {
        c.rect(MARGIN, top, BOARD_SIDE, BOARD_SIDE)
            .num("rx", 6.0)
            .fill("#eee4da")
            .opacity(0.6);
        let style = Style {
            font: Font::Latin,
            size: 60.0,
            fill: DARK_TEXT,
        };
        fonts::text(
            &mut c,
            "Game over!",
            MARGIN + BOARD_SIDE / 2.0,
            top + BOARD_SIDE / 2.0,
            style,
            Anchor::Middle,
            Middle::Cap,
        );
    }
    c
}
