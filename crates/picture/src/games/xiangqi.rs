//! Xiangqi: the 9×10 board with river, palaces and position marks, pieces
//! as discs with their glyphs, the last move and a general in check.
//!
//! The pieces carry the simplified characters by default, as the Chinese
//! notation prints them (帅/将, 马, 车, 炮), or the traditional set that
//! tells the sides apart by the character as well as by the colour
//! (帥/將, 仕/士, 相/象, 傌/馬, 俥/車, 炮/砲, 兵/卒), which stays readable in
//! grey. The river reads 楚河 漢界 in the traditional script either way,
//! as boards are printed.

use qipan_rules::xiangqi::{Move, Piece, Position, Role, Side, Square};

use super::{turn_token, Grid};
use crate::canvas::Canvas;
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::{ImpossibleLast, Options, PictureError, Pieces};

/// Every character drawn, for the font subset: red's traditional pieces,
/// black's, the river, then the simplified forms the traditional ones lack
/// (the same list as `scripts/subset-fonts.sh`).
pub(crate) const GLYPHS: &str = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界帅将马车";

/// Distance between neighbouring points, in drawing units.
const STEP: f64 = 100.0;
/// How far the frame stands outside the outer lines.
const FRAME: f64 = 12.0;
/// The piece radius.
const PIECE: f64 = 44.0;
/// How far pieces and their shadows reach outside the outer lines.
const REACH: f64 = PIECE + 4.0;

const BACKGROUND: &str = "#e3bd7d";
const BOARD: &str = "#f1d9a6";
const INK: &str = "#5a3514";
const RED: &str = "#c0161b";
const BLACK: &str = "#1c1c1c";
const DISC: &str = "#f3e0b5";
const SHADOW: &str = "#4a3012";
const LAST: &str = "#2b77d8";
const CHECK: &str = "#e5281e";

/// The glyph of a piece in a style.
fn glyph(piece: Piece, pieces: Pieces) -> &'static str {
    match (pieces, piece.side, piece.role) {
        (_, Side::Red, Role::Advisor) => "仕",
        (_, Side::Red, Role::Elephant) => "相",
        (_, Side::Red, Role::Soldier) => "兵",
        (_, Side::Black, Role::Advisor) => "士",
        (_, Side::Black, Role::Elephant) => "象",
        (_, Side::Black, Role::Soldier) => "卒",
        (Pieces::Simplified, Side::Red, Role::General) => "帅",
        (Pieces::Simplified, Side::Black, Role::General) => "将",
        (Pieces::Simplified, _, Role::Horse) => "马",
        (Pieces::Simplified, _, Role::Chariot) => "车",
        (Pieces::Simplified, _, Role::Cannon) => "炮",
        (Pieces::Traditional, Side::Red, Role::General) => "帥",
        (Pieces::Traditional, Side::Red, Role::Horse) => "傌",
        (Pieces::Traditional, Side::Red, Role::Chariot) => "俥",
        (Pieces::Traditional, Side::Red, Role::Cannon) => "炮",
        (Pieces::Traditional, Side::Black, Role::General) => "將",
        (Pieces::Traditional, Side::Black, Role::Horse) => "馬",
        (Pieces::Traditional, Side::Black, Role::Chariot) => "車",
        (Pieces::Traditional, Side::Black, Role::Cannon) => "砲",
    }
}

fn side_colour(side: Side) -> &'static str {
    match side {
        Side::Red => RED,
        Side::Black => BLACK,
    }
}

/// The fill and ring of the small disc that stands for `side` (the turn
/// token, a duel's player).
pub(crate) fn mark(side: Side) -> (&'static str, &'static str) {
    (side_colour(side), "#f6dcb0")
}

/// Checks that `m` can have been the move that led to `pos`: the side not
/// to move has a piece on the destination and the origin is empty.
fn check_last(pos: &Position, m: Move) -> Result<(), ImpossibleLast> {
    let mover = pos.turn().opponent();
    match pos.piece_at(m.to) {
        None => return Err(ImpossibleLast::EmptyDestination { square: m.to }),
        Some(piece) if piece.side != mover => {
            return Err(ImpossibleLast::NotMoversPiece {
                square: m.to,
                piece,
                mover,
            })
        }
        Some(_) => {}
    }
    match pos.piece_at(m.from) {
        Some(piece) => Err(ImpossibleLast::OriginOccupied {
            square: m.from,
            piece,
        }),
        None => Ok(()),
    }
}

/// Draws a xiangqi position.
pub(crate) fn draw(
    pos: &Position,
    options: &Options,
    last: Option<Move>,
) -> Result<Canvas, PictureError> {
    if let Some(m) = last {
        check_last(pos, m).map_err(|why| PictureError::ImpossibleLast {
            action: qipan_rules::AnyAction::Xiangqi(m),
            why,
        })?;
    }
    let margin = if options.coordinates { 104.0 } else { 62.0 };
    let width = 8.0 * STEP + 2.0 * margin;
    let height = 9.0 * STEP + 2.0 * margin;
    let mut c = Canvas::new(options.size, width, height);
    let grid = Grid {
        x0: margin,
        y0: margin,
        step: STEP,
    };
    // Picture column and row of a point: black's back rank at the top
    // unless flipped.
    let flip = options.flip;
    let place = |sq: Square| -> (f64, f64) {
        let (col, row) = if flip {
            (8 - sq.file(), 9 - sq.row())
        } else {
            (sq.file(), sq.row())
        };
        grid.at(col, row)
    };

    c.rect(0.0, 0.0, width, height).fill(BACKGROUND).crisp();
    board(&mut c, grid);
    if options.coordinates {
        coordinates(&mut c, grid, flip);
    }

    let highlights = options.highlights;
    if highlights {
        if let Some(m) = last {
            let (x, y) = place(m.from);
            c.circle(x, y, 17.0).fill(LAST).opacity(0.55);
            c.circle(x, y, 31.0)
                .fill("none")
                .stroke(LAST, 4.0)
                .opacity(0.8);
            let (x, y) = place(m.to);
            c.circle(x, y, PIECE + 9.0).fill(LAST).opacity(0.6);
        }
    }
    let in_check = highlights && pos.is_check();
    let checked = pos.general(pos.turn());
    if in_check {
        let (x, y) = place(checked);
        c.circle(x, y, PIECE + 14.0).fill(CHECK).opacity(0.3);
        c.circle(x, y, PIECE + 8.0).fill(CHECK).opacity(0.75);
    }
    for (sq, piece) in pos.pieces() {
        let (x, y) = place(sq);
        disc(&mut c, x, y, piece, options.pieces);
    }
    if in_check {
        let (x, y) = place(checked);
        c.circle(x, y, PIECE - 1.5).fill("none").stroke(CHECK, 4.0);
    }

    if pos.status().is_ongoing() {
        // The side to move is at the bottom unless the board is flipped.
        let at_bottom = (pos.turn() == Side::Red) != flip;
        // In the corner beside the mover's back rank, clear of the corner
        // piece and of the labels.
        let r = 11.0;
        let inset = if options.coordinates {
            REACH + (margin - REACH) / 2.0
        } else {
            margin - r - 5.0
        };
        let x = margin + 8.0 * STEP + inset;
        let y = if at_bottom {
            margin + 9.0 * STEP + inset
        } else {
            margin - inset
        };
        let (fill, ring) = mark(pos.turn());
        turn_token(&mut c, x, y, r, fill, ring);
    }
    Ok(c)
}

/// Lines, frame, palaces, river and position marks.
fn board(c: &mut Canvas, g: Grid) {
    let (left, top) = g.at(0, 0);
    let (right, bottom) = g.at(8, 9);
    c.rect(
        left - FRAME,
        top - FRAME,
        right - left + 2.0 * FRAME,
        bottom - top + 2.0 * FRAME,
    )
    .fill(BOARD)
    .stroke(INK, 5.0)
    .crisp();
    // The straight lines and the marks in one path, drawn without
    // anti-aliasing: they run along the pixel grid, and smoothing thin lines
    // that cross the whole board was the costliest part of the picture.
    let mut d = crate::canvas::PathData::default();
    for row in 0..10 {
        let (_, y) = g.at(0, row);
        d.move_to(left, y).line_to(right, y);
    }
    for col in 0..9 {
        let (x, _) = g.at(col, 0);
        if col == 0 || col == 8 {
            d.move_to(x, top).line_to(x, bottom);
        } else {
            let (_, y4) = g.at(col, 4);
            let (_, y5) = g.at(col, 5);
            d.move_to(x, top).line_to(x, y4);
            d.move_to(x, y5).line_to(x, bottom);
        }
    }
    // Position marks: cannon and soldier points, the same set either way
    // up, so they are placed by picture column and row.
    let points = [(1, 2), (7, 2), (1, 7), (7, 7)]
        .into_iter()
        .chain([0, 2, 4, 6, 8].into_iter().flat_map(|f| [(f, 3), (f, 6)]));
    let (gap, arm) = (7.0, 17.0);
    for (col, row) in points {
        let (x, y) = g.at(col, row);
        for dx in [-1.0, 1.0] {
            if (col == 0 && dx < 0.0) || (col == 8 && dx > 0.0) {
                continue;
            }
            for dy in [-1.0, 1.0] {
                d.move_to(x + dx * gap, y + dy * (gap + arm))
                    .line_to(x + dx * gap, y + dy * gap)
                    .line_to(x + dx * (gap + arm), y + dy * gap);
            }
        }
    }
    c.path(d.as_str())
        .fill("none")
        .stroke(INK, 2.5)
        .attr("stroke-linecap", "square")
        .crisp();
    // The palaces' diagonals keep their smoothing.
    let mut d = crate::canvas::PathData::default();
    for (a, b) in [
        ((3, 0), (5, 2)),
        ((5, 0), (3, 2)),
        ((3, 7), (5, 9)),
        ((5, 7), (3, 9)),
    ] {
        let (x1, y1) = g.at(a.0, a.1);
        let (x2, y2) = g.at(b.0, b.1);
        d.move_to(x1, y1).line_to(x2, y2);
    }
    c.path(d.as_str()).fill("none").stroke(INK, 2.5);

    // The river's words, upright for the viewer whichever way the board is.
    let (_, y4) = g.at(0, 4);
    let style = Style {
        font: Font::Cjk,
        size: 60.0,
        fill: INK,
    };
    let mid = y4 + STEP / 2.0;
    for (text, col) in [("楚", 1.5), ("河", 2.5), ("漢", 5.5), ("界", 6.5)] {
        let x = left + col * STEP;
        fonts::text(c, text, x, mid, style, Anchor::Middle, Middle::Ink);
    }
}

/// Files `a`–`i` under the board and ranks `0`–`9` on its left, as ICCS
/// names the points.
fn coordinates(c: &mut Canvas, g: Grid, flip: bool) {
    let style = Style {
        font: Font::Latin,
        size: 34.0,
        fill: INK,
    };
    let (left, _) = g.at(0, 0);
    let (_, bottom) = g.at(0, 9);
    // Outside the pieces on the edge lines, halfway to the picture's edge.
    let away = REACH + (g.x0 - REACH) / 2.0;
    let below = bottom + away;
    let beside = left - away;
    for i in 0..9u8 {
        let file = if flip { 8 - i } else { i };
        let (x, _) = g.at(i, 0);
        let name = char::from(b'a' + file).to_string();
        fonts::text(c, &name, x, below, style, Anchor::Middle, Middle::XHeight);
    }
    for row in 0..10u8 {
        let rank = if flip { row } else { 9 - row };
        let (_, y) = g.at(0, row);
        let name = char::from(b'0' + rank).to_string();
        fonts::text(c, &name, beside, y, style, Anchor::Middle, Middle::Cap);
    }
}

/// A piece: shadow, disc, inner ring and glyph. The shadow is a little
/// larger than the disc and set off down-right, so it also draws the
/// disc's rim (one shape fewer to render than a stroked edge).
fn disc(c: &mut Canvas, x: f64, y: f64, piece: Piece, pieces: Pieces) {
    let colour = side_colour(piece.side);
    c.circle(x + 1.0, y + 2.5, PIECE + 1.8)
        .fill(SHADOW)
        .opacity(0.6);
    c.circle(x, y, PIECE).fill(DISC);
    c.circle(x, y, PIECE - 7.5).fill("none").stroke(colour, 2.5);
    let style = Style {
        font: Font::Cjk,
        size: 54.0,
        fill: colour,
    };
    fonts::text(
        c,
        glyph(piece, pieces),
        x,
        y,
        style,
        Anchor::Middle,
        Middle::Ink,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_glyph_is_in_the_font_subset_and_traditional_sides_differ() {
        for role in Role::ALL {
            for pieces in Pieces::ALL {
                let [red, black] =
                    [Side::Red, Side::Black].map(|side| glyph(Piece { side, role }, pieces));
                assert!(GLYPHS.contains(red) && GLYPHS.contains(black), "{role}");
                if pieces == Pieces::Traditional {
                    assert_ne!(red, black, "{role}");
                }
            }
        }
    }
}
