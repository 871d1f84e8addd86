//! Tetris: the visible field and the two hidden rows above it, the active
//! piece and its ghost, the hold piece, the next queue, score, lines and
//! level, in the guideline colours (I cyan, O yellow, T purple, S green,
//! Z red, J blue, L orange). Locked cells carry no kind in the rules'
//! field, so the stack is grey.

use std::sync::LazyLock;

use qipan_rules::tetris::{Cells, Kind, Position, Setup, VISIBLE, WIDTH};

use crate::canvas::Canvas;
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::Options;

/// A field cell's side, in drawing units.
const CELL: f64 = 32.0;
/// Hidden rows drawn above the field, where pieces appear.
const HIDDEN_SHOWN: u8 = 2;
const MARGIN: f64 = 24.0;
const PANEL: f64 = 150.0;
const GAP: f64 = 22.0;
/// A preview cell's side.
const MINI: f64 = 24.0;

const BACKGROUND: &str = "#1a1c27";
const FIELD: &str = "#0e1018";
const GRID: &str = "#222636";
const FRAME: &str = "#50566e";
const STACK: &str = "#7b8092";
const LABEL: &str = "#9499b3";
const VALUE: &str = "#f2f3f8";

fn colour(kind: Kind) -> &'static str {
    match kind {
        Kind::I => "#19c6e6",
        Kind::O => "#f3d01c",
        Kind::T => "#a23ed8",
        Kind::S => "#4ec53b",
        Kind::Z => "#e6333a",
        Kind::J => "#2c62e2",
        Kind::L => "#f08a1a",
    }
}

/// Each kind's cells as it appears, from the rules crate: a position on
/// an empty field with that piece active. `None` should the rules refuse
/// such a setup (then the preview is left empty).
static SPAWN_SHAPES: LazyLock<[Option<Cells>; 7]> = LazyLock::new(|| {
    Kind::ALL.map(|kind| {
        let setup = Setup {
            rows: Vec::new(),
            piece: kind,
            queue: Vec::new(),
            hold: None,
            seed: 0,
            score: 0,
            lines: 0,
            level: None,
        };
        Position::from_setup(&setup)
            .ok()
            .and_then(|p| p.piece())
            .map(|(_, _, cells)| cells)
    })
});

/// Where field cells go: column 0 at `x0`, the bottom of visible row 0 at
/// `bottom`.
#[derive(Clone, Copy)]
struct Field {
    x0: f64,
    bottom: f64,
}

impl Field {
    /// The top-left corner of cell (`col`, `row`), row 0 at the bottom.
    fn corner(self, col: u8, row: u8) -> (f64, f64) {
        (
            self.x0 + f64::from(col) * CELL,
            self.bottom - f64::from(row + 1) * CELL,
        )
    }
}

/// Draws a Tetris position. There are no coordinates and no sides to
/// flip; the ghost is the one highlight.
pub(crate) fn draw(pos: &Position, options: &Options) -> Canvas {
    let field_w = WIDTH as f64 * CELL;
    let field_h = VISIBLE as f64 * CELL;
    let hidden_h = f64::from(HIDDEN_SHOWN) * CELL;
    let width = MARGIN + PANEL + GAP + field_w + GAP + PANEL + MARGIN;
    let height = MARGIN + hidden_h + field_h + MARGIN;
    let mut c = Canvas::new(options.size, width, height);
    c.rect(0.0, 0.0, width, height).fill(BACKGROUND).crisp();

    let field_x = MARGIN + PANEL + GAP;
    let field_y = MARGIN + hidden_h;
    let field = Field {
        x0: field_x,
        bottom: field_y + field_h,
    };
    c.rect(field_x - 3.0, field_y - 3.0, field_w + 6.0, field_h + 6.0)
        .num("rx", 4.0)
        .fill(FIELD)
        .stroke(FRAME, 4.0);
    let mut grid = crate::canvas::PathData::default();
    for col in 1..WIDTH {
        let x = field_x + col as f64 * CELL;
        grid.move_to(x, field_y).line_to(x, field_y + field_h);
    }
    for row in 1..VISIBLE {
        let y = field_y + row as f64 * CELL;
        grid.move_to(field_x, y).line_to(field_x + field_w, y);
    }
    c.path(grid.as_str()).fill("none").stroke(GRID, 1.5).crisp();

    let shown_rows = VISIBLE as u8 + HIDDEN_SHOWN;
    for row in 0..shown_rows {
        for col in 0..WIDTH as u8 {
            if pos.cell(col, row) == Some(true) {
                let (x, y) = field.corner(col, row);
                block(&mut c, x, y, CELL, STACK);
            }
        }
    }

    if let Some((kind, _, cells)) = pos.piece() {
        let fill = colour(kind);
        if options.highlights {
            if let Some(ghost) = pos.ghost().filter(|g| *g != cells) {
                for (col, row) in ghost {
                    if row < shown_rows {
                        let (x, y) = field.corner(col, row);
                        c.rect(x + 2.5, y + 2.5, CELL - 5.0, CELL - 5.0)
                            .num("rx", 3.0)
                            .fill(fill)
                            .num("fill-opacity", 0.22)
                            .stroke(fill, 3.0);
                    }
                }
            }
        }
        for (col, row) in cells {
            if row < shown_rows {
                let (x, y) = field.corner(col, row);
                block(&mut c, x, y, CELL, fill);
            }
        }
    }

    if !pos.status().is_ongoing() {
        c.rect(field_x, field_y, field_w, field_h)
            .fill("#000")
            .opacity(0.55);
        let style = Style {
            font: Font::Latin,
            size: 46.0,
            fill: VALUE,
        };
        fonts::text(
            &mut c,
            "GAME OVER",
            field_x + field_w / 2.0,
            field_y + field_h / 2.0,
            style,
            Anchor::Middle,
            Middle::Cap,
        );
    }

    // Left: hold, then the figures. Right: the queue.
    let left_x = MARGIN;
    let right_x = field_x + field_w + GAP;
    let top = field_y;
    label(&mut c, "HOLD", left_x, top);
    let hold_box = (left_x, top + 28.0, PANEL, 96.0);
    panel_box(&mut c, hold_box);
    if let Some(kind) = pos.hold() {
        let dim = pos.status().is_ongoing() && !pos.can_hold();
        preview(&mut c, kind, hold_box, dim);
    }

    let mut y = top + 170.0;
    for (name, value) in [
        ("SCORE", pos.score().to_string()),
        ("LINES", pos.lines().to_string()),
        ("LEVEL", pos.level().to_string()),
    ] {
        label(&mut c, name, left_x, y);
        let style = Style {
            font: Font::Latin,
            size: value_size(&value),
            fill: VALUE,
        };
        fonts::text(
            &mut c,
            &value,
            left_x,
            y + 50.0,
            style,
            Anchor::Start,
            Middle::Cap,
        );
        y += 104.0;
    }

    label(&mut c, "NEXT", right_x, top);
    let queue_box = (right_x, top + 28.0, PANEL, 5.0 * 86.0 + 10.0);
    panel_box(&mut c, queue_box);
    for (i, kind) in pos.queue().into_iter().enumerate() {
        let slot = (right_x, top + 33.0 + i as f64 * 86.0, PANEL, 86.0);
        preview(&mut c, kind, slot, false);
    }
    c
}

/// The em size of a figure: 34 units, smaller when it would not fit the
/// panel.
fn value_size(text: &str) -> f64 {
    let size = 34.0;
    let width = fonts::measure(Font::Latin, text, size);
    if width > PANEL {
        size * PANEL / width
    } else {
        size
    }
}

fn label(c: &mut Canvas, text: &str, x: f64, y: f64) {
    let style = Style {
        font: Font::Latin,
        size: 22.0,
        fill: LABEL,
    };
    fonts::text(c, text, x, y + 8.0, style, Anchor::Start, Middle::Cap);
}

fn panel_box(c: &mut Canvas, (x, y, w, h): (f64, f64, f64, f64)) {
    c.rect(x, y, w, h)
        .num("rx", 6.0)
        .fill(FIELD)
        .stroke(FRAME, 3.0);
}

/// A piece's spawn shape centred in a box.
fn preview(c: &mut Canvas, kind: Kind, (x, y, w, h): (f64, f64, f64, f64), dim: bool) {
    let Some(cells) = SPAWN_SHAPES[kind.index()] else {
        return;
    };
    let (min_c, max_c, min_r, max_r) = cells
        .iter()
        .fold((u8::MAX, 0, u8::MAX, 0), |(a, b, c0, d), &(col, row)| {
            (a.min(col), b.max(col), c0.min(row), d.max(row))
        });
    let cols = f64::from(max_c) - f64::from(min_c) + 1.0;
    let rows = f64::from(max_r) - f64::from(min_r) + 1.0;
    let left = x + (w - cols * MINI) / 2.0;
    let top = y + (h - rows * MINI) / 2.0;
    let fill = if dim { STACK } else { colour(kind) };
    for (col, row) in cells {
        let bx = left + f64::from(col.saturating_sub(min_c)) * MINI;
        let by = top + f64::from(max_r.saturating_sub(row)) * MINI;
        block(c, bx, by, MINI, fill);
    }
}

/// One block: a rounded square with a light top edge.
fn block(c: &mut Canvas, x: f64, y: f64, side: f64, fill: &str) {
    let inset = side * 0.04;
    let inner = side - 2.0 * inset;
    c.rect(x + inset, y + inset, inner, inner)
        .num("rx", side * 0.1)
        .fill(fill);
    c.rect(x + inset, y + inset, inner, side * 0.16)
        .num("rx", side * 0.08)
        .fill("#fff")
        .opacity(0.28);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_preview_shape_of_four_cells_in_two_rows() {
        for kind in Kind::ALL {
            let cells = SPAWN_SHAPES[kind.index()].unwrap_or_else(|| panic!("{kind:?}"));
            let rows: std::collections::BTreeSet<u8> = cells.iter().map(|c| c.1).collect();
            let expected = if kind == Kind::I { 1 } else { 2 };
            assert_eq!(rows.len(), expected, "{kind:?}");
        }
    }
}
