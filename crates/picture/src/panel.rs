//! A duel's picture: the board between two bands, one per player — a disc
//! of the side's colour, the player's name and, in a timed duel, the time
//! the side has left — and under them, once the match is over, a line that
//! says how it ended.
//!
//! The bands follow the board: the side drawn at the bottom of the board
//! (the first player, or the second when flipped) has the bottom band.
//! The crate draws what it is given and reads no clock: the times are
//! those of the match's last move, and the clock that runs is lit.

use std::time::Duration;

use qipan_rules::{AnyPlayer, AnyPosition};

use crate::canvas::Canvas;
use crate::fonts::{self, Anchor, Font, Middle, Style};
use crate::games::{self, gomoku, quoridor, xiangqi};
use crate::{Options, PictureError};

/// What a duel's picture shows around the board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Panel {
    /// The two players, in the game's order of players
    /// ([`qipan_rules::GameKind::players`]).
    pub players: [PanelPlayer; 2],
    /// How the match ended, as one line of text in the reader's language
    /// (drawn as names are, see [`PanelPlayer::name`]); `None` while it is
    /// played.
    pub result: Option<String>,
}

/// One player of a duel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PanelPlayer {
    /// The name the player chose; the side's name (`Red`, `White`,
    /// `Player 2`) when `None`. Any script the embedded text font holds is
    /// drawn (see [`crate::missing_glyphs`]); a character it lacks is drawn
    /// as its letter without the accent where that is in the font, and as
    /// a box otherwise. A name too long for the band is cut short with
    /// `...`.
    pub name: Option<String>,
    /// The side's clock, in a timed duel.
    pub clock: Option<ClockFace>,
}

/// A clock as the picture shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockFace {
    /// The time the side has left.
    pub left: Duration,
    /// Whether it is this side's clock that runs.
    pub running: bool,
}

/// The bands' background and the result line's.
const BAND: &str = "#262421";
/// The name.
const NAME: &str = "#ece9e4";
/// A clock that stands still: its box and its digits.
const IDLE_BOX: &str = "#3b3834";
const IDLE_TEXT: &str = "#a9a49d";
/// The clock that runs.
const RUNNING_BOX: &str = "#f2f0ec";
const RUNNING_TEXT: &str = "#1b1a18";
/// The result line.
const RESULT: &str = "#f0c15a";

/// Draws `pos` with `panel` around it.
pub(crate) fn draw(
    pos: &AnyPosition,
    options: &Options,
    panel: &Panel,
) -> Result<Canvas, PictureError> {
    let kind = pos.kind();
    let &[first, second] = kind.players() else {
        return Err(PictureError::NotADuel { game: kind });
    };
    let board = games::draw(pos, options)?;
    let (top, bottom) = if options.flip {
        ((first, &panel.players[0]), (second, &panel.players[1]))
    } else {
        ((second, &panel.players[1]), (first, &panel.players[0]))
    };
    Ok(around(
        board,
        options.size,
        [Some(top), Some(bottom)],
        panel.result.as_deref(),
    ))
}

/// A player's band: the side it plays and what to show of it.
pub(crate) type Band<'a> = (AnyPlayer, &'a PanelPlayer);

/// `board` in a picture `size` pixels wide, with the bands given above and
/// below it and, under them, the result line if there is one.
pub(crate) fn around(
    board: Canvas,
    size: u32,
    [top, bottom]: [Option<Band<'_>>; 2],
    result: Option<&str>,
) -> Canvas {
    let (w, h) = board.view();
    // Everything is measured in the board's own units, so it keeps its
    // scale and the bands scale with it.
    let band = (w * 0.12).round();
    let top_h = if top.is_some() { band } else { 0.0 };
    let bottom_h = if bottom.is_some() { band } else { 0.0 };
    let footer = if result.is_some() {
        (w * 0.09).round()
    } else {
        0.0
    };
    let total = top_h + h + bottom_h + footer;
    let mut c = Canvas::new(size, w, total);
    c.rect(0.0, 0.0, w, total).fill(BAND);
    c.place(board, 0.0, top_h);
    if let Some(player) = top {
        player_band(&mut c, 0.0, w, band, player);
    }
    if let Some(player) = bottom {
        player_band(&mut c, top_h + h, w, band, player);
    }
    if let Some(result) = result {
        let y0 = top_h + h + bottom_h;
        c.rect(0.0, y0, w, footer).fill(BAND);
        let style = Style {
            font: Font::Text,
            size: footer * 0.5,
            fill: RESULT,
        };
        let result = fonts::fit(Font::Text, result, w * 0.94, style.size);
        fonts::text(
            &mut c,
            &result,
            w / 2.0,
            y0 + footer / 2.0 - footer * 0.08,
            style,
            Anchor::Middle,
            Middle::Cap,
        );
    }
    c
}

/// One player's band, `height` high from `y`: disc, name, clock.
fn player_band(c: &mut Canvas, y: f64, w: f64, height: f64, (side, player): Band<'_>) {
    let mid = y + height / 2.0;
    let pad = height * 0.22;
    let r = height * 0.22;
    let (fill, ring) = mark(side);
    c.circle(pad + r, mid, r).fill(fill).stroke(ring, r * 0.18);
    let name_x = pad + 2.0 * r + pad * 0.8;
    let mut name_end = w - pad;
    if let Some(clock) = player.clock {
        let box_w = w * 0.27;
        let box_h = height * 0.7;
        let x = w - pad * 0.7 - box_w;
        let (back, ink) = if clock.running {
            (RUNNING_BOX, RUNNING_TEXT)
        } else {
            (IDLE_BOX, IDLE_TEXT)
        };
        c.rect(x, mid - box_h / 2.0, box_w, box_h)
            .num("rx", box_h * 0.12)
            .fill(back);
        let style = Style {
            font: Font::Latin,
            size: box_h * 0.62,
            fill: ink,
        };
        fonts::text(
            c,
            &clock_text(clock.left),
            x + box_w - box_h * 0.22,
            mid,
            style,
            Anchor::End,
            Middle::Cap,
        );
        name_end = x - pad * 0.8;
    }
    let style = Style {
        font: Font::Text,
        size: height * 0.4,
        fill: NAME,
    };
    let name = player.name.as_deref().map_or_else(
        || label(side).to_owned(),
        |n| fonts::fit(Font::Text, n, name_end - name_x, style.size),
    );
    fonts::text(c, &name, name_x, mid, style, Anchor::Start, Middle::Cap);
}

/// The side's name, for a player who chose none.
fn label(side: AnyPlayer) -> &'static str {
    use qipan_rules::{gomoku::Stone, quoridor::Player as Q, xiangqi::Side};
    match side {
        AnyPlayer::Xiangqi(Side::Red) => "Red",
        AnyPlayer::Xiangqi(Side::Black) => "Black",
        AnyPlayer::Gomoku(Stone::Black) => "Black",
        AnyPlayer::Gomoku(Stone::White) => "White",
        AnyPlayer::Quoridor(Q::One) => "Player 1",
        AnyPlayer::Quoridor(Q::Two) => "Player 2",
        AnyPlayer::Solo(_) => "Player",
    }
}

/// The disc that stands for `side`, as the board marks its turn.
pub(crate) fn mark(side: AnyPlayer) -> (&'static str, &'static str) {
    match side {
        AnyPlayer::Xiangqi(s) => xiangqi::mark(s),
        AnyPlayer::Gomoku(s) => gomoku::mark(s),
        AnyPlayer::Quoridor(p) => quoridor::mark(p),
        AnyPlayer::Solo(_) => (NAME, BAND),
    }
}

/// A clock's time as players read it: `1d 04h` from a day, `1:02:03` from
/// an hour, `4:05` from ten seconds, `0:09.4` below (tenths, as the last
/// seconds matter). Counted down, a clock shows the time begun: 4.96 s
/// left reads `0:04.9`, never more than is left.
pub(crate) fn clock_text(left: Duration) -> String {
    let ms = left.as_millis();
    let s = ms / 1000;
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}d {h:02}h")
    } else if s >= 3600 {
        format!("{h}:{m:02}:{sec:02}")
    } else if s >= 10 {
        format!("{m}:{sec:02}")
    } else {
        format!("0:{sec:02}.{}", ms / 100 % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_as_players_read_them() {
        let t = |ms| clock_text(Duration::from_millis(ms));
        assert_eq!(t(0), "0:00.0");
        assert_eq!(t(4_960), "0:04.9");
        assert_eq!(t(9_999), "0:09.9");
        assert_eq!(t(10_000), "0:10");
        assert_eq!(t(298_500), "4:58");
        assert_eq!(t(3_723_000), "1:02:03");
        assert_eq!(t(86_400_000 + 4 * 3_600_000 + 5), "1d 04h");
        assert_eq!(t(3 * 86_400_000), "3d 00h");
    }

    fn named(first: &str, second: &str) -> String {
        let player = |name: &str| PanelPlayer {
            name: Some(name.to_owned()),
            clock: None,
        };
        let panel = Panel {
            players: [player(first), player(second)],
            result: Some("红方胜 · 将死".to_owned()),
        };
        let pos = qipan_rules::xiangqi::Position::start().into();
        let options = Options::default();
        draw(&pos, &options, &panel)
            .expect("the start position draws")
            .finish()
    }

    #[test]
    fn names_in_gb2312_draw_no_fallback_box() {
        let boxed = fonts::notdef_path();
        assert!(boxed.starts_with('M') && boxed.len() > 20, "{boxed}");
        assert!(!named("王小明", "欧阳娜娜").contains(boxed));
        assert!(named("王小明", "สมชาย").contains(boxed));
    }
}
