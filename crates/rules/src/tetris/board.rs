//! The playfield: 40 rows of 10 cells as bit masks, and the active piece.

use super::srs::shape;
use super::types::{Cells, Kind, Rotation};

/// Columns.
pub const WIDTH: usize = 10;
/// Visible rows (rows 0–19 from the bottom).
pub const VISIBLE: usize = 20;
/// All rows: 20 visible and 20 hidden above them (rows 20–39).
pub const HEIGHT: usize = 40;

/// A full row's mask.
pub(crate) const FULL: u16 = (1 << WIDTH) - 1;

/// Row from the bottom of the top of every spawn box (the box's top row).
pub(crate) const SPAWN_TOP: i8 = 21;

/// The locked cells: `rows[r]` has bit `c` set when column `c` of row `r`
/// (0 = bottom) is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    pub(crate) rows: [u16; HEIGHT],
}

impl Board {
    pub(crate) const EMPTY: Board = Board { rows: [0; HEIGHT] };

    /// Whether `(col, row)` is a wall, the floor, above the top, or filled.
    #[inline]
    pub(crate) fn blocked(&self, col: i8, row: i8) -> bool {
        if !(0..WIDTH as i8).contains(&col) || !(0..HEIGHT as i8).contains(&row) {
            return true;
        }
        self.rows[row as usize] >> col & 1 == 1
    }

    /// Whether `piece` lies inside the field on empty cells.
    #[inline]
    pub(crate) fn fits(&self, piece: Piece) -> bool {
        piece.cells().iter().all(|&(c, r)| !self.blocked(c, r))
    }

    /// Rows from the bottom up to the highest filled one.
    pub(crate) fn height(&self) -> usize {
        self.rows.iter().rposition(|&r| r != 0).map_or(0, |r| r + 1)
    }

    /// Fills the piece's cells, which must be inside the field.
    pub(crate) fn place(&mut self, piece: Piece) {
        for (c, r) in piece.cells() {
            if (0..WIDTH as i8).contains(&c) && (0..HEIGHT as i8).contains(&r) {
                self.rows[r as usize] |= 1 << c;
            }
        }
    }

    /// Removes every full row, moving the rows above down; returns how many.
    pub(crate) fn clear_full(&mut self) -> u8 {
        let mut kept = 0;
        for r in 0..HEIGHT {
            let row = self.rows[r];
            if row != FULL {
                self.rows[kept] = row;
                kept += 1;
            }
        }
        let cleared = HEIGHT - kept;
        for row in &mut self.rows[kept..] {
            *row = 0;
        }
        cleared as u8
    }

    /// The row as `.`/`X`, column 0 first.
    pub(crate) fn row_text(&self, r: usize) -> String {
        (0..WIDTH)
            .map(|c| if self.rows[r] >> c & 1 == 1 { 'X' } else { '.' })
            .collect()
    }
}

/// A piece in the field: its kind, rotation state and the top-left corner
/// of its SRS box (column `x`, row `y` from the bottom; see [`super::srs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Piece {
    pub(crate) kind: Kind,
    pub(crate) rot: Rotation,
    pub(crate) x: i8,
    pub(crate) y: i8,
}

impl Piece {
    /// The piece where it appears, before the one-row drop that follows:
    /// spawn state, box top on row 21, I and the 3-wide pieces from column
    /// 3, O from column 4.
    pub(crate) fn spawn(kind: Kind) -> Piece {
        let x = match kind {
            Kind::O => 4,
            Kind::I | Kind::T | Kind::S | Kind::Z | Kind::J | Kind::L => 3,
        };
        Piece {
            kind,
            rot: Rotation::Spawn,
            x,
            y: SPAWN_TOP,
        }
    }

    /// The four cells, `(column, row)`.
    #[inline]
    pub(crate) fn cells(self) -> [(i8, i8); 4] {
        shape(self.kind, self.rot).map(|(bx, by)| (self.x + bx, self.y - by))
    }

    /// The cells as `(column, row)` in ascending order; the piece must be
    /// inside the field.
    pub(crate) fn sorted_cells(self) -> Cells {
        let mut cells = self.cells().map(|(c, r)| (c.max(0) as u8, r.max(0) as u8));
        cells.sort_unstable();
        cells
    }

    #[inline]
    pub(crate) fn shifted(self, dx: i8, dy: i8) -> Piece {
        Piece {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }
}
