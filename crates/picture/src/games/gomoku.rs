//! Gomoku and Renju: the grid of the variant's size with its star points,
//! the stones, the last stone, the winning line(s), and under Renju black's
//! forbidden points when black is to move.

use qipan_rules::gomoku::{Point, Position, Stone};

use super::{turn_token, Grid};
use crate::canvas::{Canvas, PathData};
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::{ImpossibleLast, Options, PictureError};

/// Distance between neighbouring points, in drawing units.
const STEP: f64 = 100.0;
/// The stone radius.
const STONE: f64 = 46.0;
/// How far stones and their shadows reach past the outer lines.
const REACH: f64 = STONE + 5.0;
/// How far the board's edge stands outside the outer lines.
const EDGE: f64 = 20.0;

const BACKGROUND: &str = "#c99a4b";
const BOARD: &str = "#e2b866";
const INK: &str = "#2e1f0c";
const MARK: &str = "#e0261d";

/// The fill and ring of the small stone that stands for `stone` (the turn
/// token, a duel's player).
pub(crate) fn mark(stone: Stone) -> (&'static str, &'static str) {
    match stone {
        Stone::Black => ("#111111", "#5a5a5a"),
        Stone::White => ("#f6f4ee", "#8a8a8a"),
    }
}

/// Checks that a stone on `p` can have been the last move of `pos`.
fn check_last(pos: &Position, p: Point) -> Result<(), ImpossibleLast> {
    let size = pos.size();
    if !p.is_on(size) {
        return Err(ImpossibleLast::OffBoard { point: p, size });
    }
    let Some(stone) = pos.stone_at(p) else {
        return Err(ImpossibleLast::NoStone { point: p });
    };
    let mover = pos.turn().opponent();
    if stone != mover {
        return Err(ImpossibleLast::NotMoversStone {
            point: p,
            stone,
            mover,
        });
    }
    match pos.last_move() {
        Some(recorded) if recorded != p => Err(ImpossibleLast::OtherLastStone { recorded }),
        _ => Ok(()),
    }
}

/// The star points of a board: the 3-3 points, the middle of each side's
/// 4th line and the centre on 19×19; the four 4-4 points and the centre
/// on 15×15.
fn star_points(size: u8) -> Vec<(u8, u8)> {
    let last = size.saturating_sub(1);
    if size >= 19 {
        let at = [3, last / 2, last - 3];
        at.iter()
            .flat_map(|&c| at.iter().map(move |&r| (c, r)))
            .collect()
    } else {
        let (a, m, b) = (3, last / 2, last.saturating_sub(3));
        vec![(a, a), (b, a), (m, m), (a, b), (b, b)]
    }
}

/// Draws a gomoku position.
pub(crate) fn draw(
    pos: &Position,
    options: &Options,
    last: Option<Point>,
) -> Result<Canvas, PictureError> {
    if let Some(p) = last {
        check_last(pos, p).map_err(|why| PictureError::ImpossibleLast {
            action: qipan_rules::AnyAction::Gomoku(p),
            why,
        })?;
    }
    let last = last.or(pos.last_move());
    let size = pos.size();
    let n = f64::from(size.saturating_sub(1));
    let margin = if options.coordinates { 118.0 } else { 66.0 };
    let side = n * STEP + 2.0 * margin;
    let mut c = Canvas::new(options.size, side, side);
    let grid = Grid {
        x0: margin,
        y0: margin,
        step: STEP,
    };
    let top = size.saturating_sub(1);
    let flip = options.flip;
    // Row 1 at the bottom; the board turned half a turn when flipped.
    let view = |col: u8, row: u8| -> (u8, u8) {
        if flip {
            (top - col, row)
        } else {
            (col, top - row)
        }
    };
    let place = |p: Point| -> (f64, f64) {
        let (col, row) = view(p.col(), p.row());
        grid.at(col, row)
    };

    c.raw(concat!(
        r##"<defs><radialGradient id="black" cx="0.36" cy="0.3" r="0.72">"##,
        r##"<stop offset="0" stop-color="#6a6a6a"/><stop offset="1" stop-color="#0d0d0d"/>"##,
        r##"</radialGradient><radialGradient id="white" cx="0.36" cy="0.3" r="0.8">"##,
        r##"<stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#d3d0c8"/>"##,
        r##"</radialGradient></defs>"##
    ));
    c.rect(0.0, 0.0, side, side).fill(BACKGROUND).crisp();
    let far = n * STEP;
    c.rect(
        margin - EDGE,
        margin - EDGE,
        far + 2.0 * EDGE,
        far + 2.0 * EDGE,
    )
    .fill(BOARD)
    .crisp();
    let mut lines = PathData::default();
    for i in 0..size {
        let (x, y) = grid.at(i, i);
        lines
            .move_to(margin, y)
            .line_to(margin + far, y)
            .move_to(x, margin)
            .line_to(x, margin + far);
    }
    // Without anti-aliasing: the lines run along the pixel grid, and
    // smoothing them was a large share of the rendering time.
    c.path(lines.as_str()).fill("none").stroke(INK, 3.0).crisp();
    c.rect(margin, margin, far, far)
        .fill("none")
        .stroke(INK, 6.0)
        .crisp();
    for (col, row) in star_points(size) {
        let (vc, vr) = view(col, row);
        let (x, y) = grid.at(vc, vr);
        c.circle(x, y, 10.0).fill(INK);
    }
    if options.coordinates {
        coordinates(&mut c, grid, size, flip);
    }

    for row in 0..size {
        for col in 0..size {
            let Some(p) = Point::new(col, row) else {
                continue;
            };
            if let Some(stone) = pos.stone_at(p) {
                let (x, y) = place(p);
                draw_stone(&mut c, x, y, STONE, stone);
            }
        }
    }

    if options.highlights {
        for line in pos.winning_lines() {
            if let (Some(&first), Some(&end)) = (line.first(), line.last()) {
                let (x1, y1) = place(first);
                let (x2, y2) = place(end);
                c.line(x1, y1, x2, y2)
                    .stroke(MARK, 16.0)
                    .attr("stroke-linecap", "round")
                    .opacity(0.85);
            }
        }
        if let Some(p) = last {
            if let Some(stone) = pos.stone_at(p) {
                let (x, y) = place(p);
                let ring = match stone {
                    Stone::Black => "#ffffff",
                    Stone::White => "#1a1a1a",
                };
                c.circle(x, y, 13.0).fill(MARK).stroke(ring, 2.5);
            }
        }
        let mut crosses = PathData::default();
        let arm = 15.0;
        for (p, _) in pos.forbidden() {
            let (x, y) = place(p);
            crosses
                .move_to(x - arm, y - arm)
                .line_to(x + arm, y + arm)
                .move_to(x - arm, y + arm)
                .line_to(x + arm, y - arm);
        }
        if !crosses.as_str().is_empty() {
            c.path(crosses.as_str())
                .fill("none")
                .stroke(MARK, 6.0)
                .attr("stroke-linecap", "round");
        }
    }

    if pos.status().is_ongoing() {
        let r = 14.0;
        let inset = if options.coordinates {
            REACH + (margin - REACH) / 2.0
        } else {
            margin - r - 6.0
        };
        let (fill, ring) = mark(pos.turn());
        turn_token(
            &mut c,
            margin + far + inset,
            margin + far + inset,
            r,
            fill,
            ring,
        );
    }
    Ok(c)
}

/// A stone with its shadow.
fn draw_stone(c: &mut Canvas, x: f64, y: f64, r: f64, stone: Stone) {
    c.circle(x + r * 0.06, y + r * 0.1, r)
        .fill("#000")
        .opacity(0.3);
    match stone {
        Stone::Black => {
            c.circle(x, y, r).fill("url(#black)");
        }
        Stone::White => {
            c.circle(x, y, r).fill("url(#white)").stroke("#8f8b80", 1.5);
        }
    }
}

/// Columns `a`… under the board, rows `1`… on its left.
fn coordinates(c: &mut Canvas, g: Grid, size: u8, flip: bool) {
    let style = Style {
        font: Font::Latin,
        size: 38.0,
        fill: INK,
    };
    let top = size.saturating_sub(1);
    let away = REACH + (g.x0 - REACH) / 2.0;
    let (_, bottom) = g.at(0, top);
    for i in 0..size {
        let col = if flip { top - i } else { i };
        let (x, _) = g.at(i, 0);
        let name = char::from(b'a' + col).to_string();
        fonts::text(
            c,
            &name,
            x,
            bottom + away,
            style,
            Anchor::Middle,
            Middle::XHeight,
        );
        let row = if flip { i } else { top - i };
        let (_, y) = g.at(0, i);
        fonts::text(
            c,
            &(u32::from(row) + 1).to_string(),
            g.x0 - away,
            y,
            style,
            Anchor::Middle,
            Middle::Cap,
        );
    }
}
