//! A chat card: a landscape picture of 1.91:1 (1200 × 630 pixels at its
//! full size), the shape link previews show whole, with the board on the
//! left and a caption on the right — the game, the players with the one to
//! move marked, how the game stands, and lines such as the last move.
//!
//! The caption's texts are the caller's, already in the reader's language:
//! the crate draws text, it does not write it. A text too long for the
//! caption is made smaller, down to a floor, and then cut short with `...`.

use qipan_rules::AnyPosition;

use crate::canvas::Canvas;
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::{games, panel, Options, PictureError};

/// A card's width in pixels at its full size, what link previews ask for.
pub const CARD_WIDTH: u32 = 1200;
/// A card's height in pixels at its full size.
pub const CARD_HEIGHT: u32 = 630;

/// What a card's caption says. Every text is drawn as it is given, in any
/// script the embedded text font holds (see [`crate::missing_glyphs`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Card {
    /// The first line, small: the game's name (`象棋 Xiangqi`).
    pub title: String,
    /// The players, in the game's order of players
    /// ([`qipan_rules::GameKind::players`]), each drawn beside a disc of
    /// its side's colour, the one to move marked while the game goes on.
    /// Empty for a position that belongs to no match; names beyond the
    /// game's players are not drawn.
    pub players: Vec<String>,
    /// How the game stands, large: `红方走棋`, `Checkmate: black wins`.
    pub headline: String,
    /// Lines under the headline: the last move, the move number.
    pub details: Vec<String>,
}

/// The card's units: its full size in pixels.
const W: f64 = CARD_WIDTH as f64;
const H: f64 = CARD_HEIGHT as f64;
/// The space around the board and the caption.
const MARGIN: f64 = 36.0;
/// The widest the board may be, so that the caption keeps its room.
const BOARD_MAX_W: f64 = 600.0;
/// The gap between the board and the caption.
const GAP: f64 = 48.0;

const BACKGROUND: &str = "#262421";
const TITLE: &str = "#a9a49d";
const NAME: &str = "#ece9e4";
const TURN_BACK: &str = "#3b3834";
const HEADLINE: &str = "#f0c15a";
const DETAIL: &str = "#d6d1c9";

/// One line of the caption: its text, its em size, how much room it
/// takes down, and how it is drawn.
struct Line<'a> {
    text: &'a str,
    size: f64,
    height: f64,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Title,
    Player { index: usize, to_move: bool },
    Headline,
    Detail,
}

/// Draws the card of `pos`: the board as [`crate::svg`] draws it with
/// `options`, and `card`'s caption. `options.size` is the card's width; its
/// height keeps 1.91:1.
pub(crate) fn draw(
    pos: &AnyPosition,
    options: &Options,
    card: &Card,
) -> Result<Canvas, PictureError> {
    let board = games::draw(pos, options)?;
    let (bw, bh) = board.view();
    let scale = ((H - 2.0 * MARGIN) / bh).min(BOARD_MAX_W / bw);
    let (board_w, board_h) = (bw * scale, bh * scale);
    let mut c = Canvas::new(options.size, W, H);
    c.rect(0.0, 0.0, W, H).fill(BACKGROUND).crisp();
    c.place_scaled(board, MARGIN, (H - board_h) / 2.0, scale);

    let x0 = MARGIN + board_w + GAP;
    let room = W - MARGIN - x0;
    let sides = pos.kind().players();
    let turn = pos
        .status()
        .is_ongoing()
        .then(|| pos.to_move())
        .and_then(|p| sides.iter().position(|&s| s == p));
    let mut lines = Vec::new();
    if !card.title.is_empty() {
        lines.push(Line {
            text: &card.title,
            size: 30.0,
            height: 58.0,
            kind: Kind::Title,
        });
    }
    for (index, name) in card.players.iter().take(sides.len()).enumerate() {
        lines.push(Line {
            text: name,
            size: 36.0,
            height: 62.0,
            kind: Kind::Player {
                index,
                to_move: turn == Some(index) && sides.len() > 1,
            },
        });
    }
    if !card.headline.is_empty() {
        lines.push(Line {
            text: &card.headline,
            size: 48.0,
            height: 84.0,
            kind: Kind::Headline,
        });
    }
    for detail in &card.details {
        lines.push(Line {
            text: detail,
            size: 30.0,
            height: 48.0,
            kind: Kind::Detail,
        });
    }
    // The caption's lines, centred down as a block.
    let total: f64 = lines.iter().map(|l| l.height).sum();
    let mut y = ((H - total) / 2.0).max(MARGIN);
    for line in &lines {
        if y + line.height > H - MARGIN / 2.0 {
            break;
        }
        caption_line(&mut c, line, x0, y, room, pos);
        y += line.height;
    }
    Ok(c)
}

/// Draws one line of the caption in the band from `y`, `line.height` high.
fn caption_line(c: &mut Canvas, line: &Line<'_>, x0: f64, y: f64, room: f64, pos: &AnyPosition) {
    let mid = y + line.height / 2.0;
    let (x, room, fill) = match line.kind {
        Kind::Title => (x0, room, TITLE),
        Kind::Headline => (x0, room, HEADLINE),
        Kind::Detail => (x0, room, DETAIL),
        Kind::Player { index, to_move } => {
            let r = 14.0;
            if to_move {
                c.rect(x0 - 12.0, y + 5.0, room + 12.0, line.height - 10.0)
                    .num("rx", 10.0)
                    .fill(TURN_BACK);
            }
            if let Some(&side) = pos.kind().players().get(index) {
                let (fill, ring) = panel::mark(side);
                c.circle(x0 + r, mid, r).fill(fill).stroke(ring, r * 0.18);
            }
            let indent = 2.0 * r + 16.0;
            (x0 + indent, room - indent - 8.0, NAME)
        }
    };
    // Shrink a long line down to 70% before cutting it.
    let width = fonts::measure(Font::Text, line.text, line.size);
    let size = if width > room {
        (line.size * room / width).max(line.size * 0.7)
    } else {
        line.size
    };
    let text = fonts::fit(Font::Text, line.text, room, size);
    let style = Style {
        font: Font::Text,
        size,
        fill,
    };
    fonts::text(c, &text, x, mid, style, Anchor::Start, Middle::Cap);
}

/// The height in pixels of a card `width` pixels wide.
pub(crate) fn height(width: u32) -> u32 {
    (f64::from(width) * H / W).round().max(1.0) as u32
}
