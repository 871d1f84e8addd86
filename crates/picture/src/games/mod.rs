//! One module per game, each drawing its position onto a [`Canvas`]; this
//! file dispatches and holds what they share.

use qipan_rules::{AnyAction, AnyPosition, GameKind};

use crate::canvas::Canvas;
use crate::{check_size, Options, PictureError};

pub(crate) mod gomoku;
pub(crate) mod quoridor;
pub(crate) mod tetris;
pub(crate) mod twenty48;
pub(crate) mod xiangqi;

/// Draws any position after checking the options that apply to every game.
pub(crate) fn draw(pos: &AnyPosition, options: &Options) -> Result<Canvas, PictureError> {
    check_size(options.size)?;
    let kind = pos.kind();
    match pos {
        AnyPosition::Xiangqi(p) => {
            let last = last_of(kind, options.last, |a| match a {
                AnyAction::Xiangqi(m) => Some(m),
                _ => None,
            })?;
            xiangqi::draw(p, options, last)
        }
        AnyPosition::Gomoku(p) => {
            let last = last_of(kind, options.last, |a| match a {
                AnyAction::Gomoku(m) => Some(m),
                _ => None,
            })?;
            gomoku::draw(p, options, last)
        }
        AnyPosition::Twenty48(p) => {
            // A direction leaves no mark to draw; only its game is checked.
            last_of(kind, options.last, |a| match a {
                AnyAction::Twenty48(d) => Some(d),
                _ => None,
            })?;
            Ok(twenty48::draw(p, options))
        }
        AnyPosition::Quoridor(p) => {
            let last = last_of(kind, options.last, |a| match a {
                AnyAction::Quoridor(m) => Some(m),
                _ => None,
            })?;
            quoridor::draw(p, options, last)
        }
        AnyPosition::Tetris(p) => {
            // An input leaves no mark to draw; only its game is checked.
            last_of(kind, options.last, |a| match a {
                AnyAction::Tetris(t) => Some(t),
                _ => None,
            })?;
            Ok(tetris::draw(p, options))
        }
    }
}

/// The last move as the game's own action, or the error for an action of
/// another game.
fn last_of<A>(
    position: GameKind,
    last: Option<AnyAction>,
    pick: impl Fn(AnyAction) -> Option<A>,
) -> Result<Option<A>, PictureError> {
    match last {
        None => Ok(None),
        Some(action) => pick(action)
            .map(Some)
            .ok_or(PictureError::LastOfAnotherGame { action, position }),
    }
}

/// Where a board point is drawn: files across and ranks down, both
/// counted in the picture's own order (already flipped where asked).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Grid {
    /// The drawing x of column 0.
    pub x0: f64,
    /// The drawing y of row 0 (the top).
    pub y0: f64,
    /// The distance between neighbouring points.
    pub step: f64,
}

impl Grid {
    /// The centre of column `col`, row `row` (row 0 at the top).
    pub(crate) fn at(self, col: u8, row: u8) -> (f64, f64) {
        (
            self.x0 + f64::from(col) * self.step,
            self.y0 + f64::from(row) * self.step,
        )
    }
}

/// A small token in a corner that says whose turn it is: a disc of the
/// side's colours at (`x`, `y`).
pub(crate) fn turn_token(canvas: &mut Canvas, x: f64, y: f64, r: f64, fill: &str, ring: &str) {
    canvas
        .circle(x + r * 0.12, y + r * 0.18, r)
        .fill("#000")
        .opacity(0.25);
    canvas.circle(x, y, r).fill(fill).stroke(ring, r * 0.18);
}
