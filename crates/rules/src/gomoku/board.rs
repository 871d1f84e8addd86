//! The bare board: a cell per intersection and the line scans that the win
//! test, the position checks and the Renju analysis are built on. It knows
//! nothing of turns or rule sets.

use super::types::{Point, Stone, MAX_SIZE};

/// An empty intersection.
pub(crate) const EMPTY: u8 = 0;
/// A black stone (the value of [`Stone::cell`]).
pub(crate) const BLACK: u8 = 1;
/// A white stone.
pub(crate) const WHITE: u8 = 2;
/// What [`Board::get`] answers off the board, so that a line scan stops at
/// the edge exactly as it stops at an opponent's stone.
pub(crate) const WALL: u8 = 3;

/// The four line directions as (column step, row step): horizontal (left to
/// right), vertical (bottom to top), the rising diagonal and the falling
/// diagonal (upper left to lower right).
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

const STRIDE: usize = MAX_SIZE as usize;

/// A square board of side 15 or 19. Cells are kept at `row * 19 + col`
/// whatever the side, so one layout serves both sizes; cells beyond the side
/// stay empty and are never read (scans go through [`Board::get`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    size: u8,
    cells: [u8; STRIDE * STRIDE],
}

/// A maximal run of one colour along one direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    /// The first stone (the one with the lowest column, or the lowest row
    /// on a vertical line).
    pub start: (i8, i8),
    /// Index into [`DIRECTIONS`].
    pub dir: usize,
    /// Number of stones.
    pub len: usize,
}

impl Run {
    /// The stones of the run, in order along the line.
    pub fn points(&self) -> Vec<Point> {
        let (dc, dr) = DIRECTIONS[self.dir];
        (0..self.len as i8)
            .filter_map(|k| {
                let c = self.start.0 + k * dc;
                let r = self.start.1 + k * dr;
                Point::new(c as u8, r as u8)
            })
            .collect()
    }

    /// Whether the run covers `(c, r)`.
    pub fn covers(&self, c: i8, r: i8) -> bool {
        let (dc, dr) = DIRECTIONS[self.dir];
        (0..self.len as i8).any(|k| self.start.0 + k * dc == c && self.start.1 + k * dr == r)
    }
}

impl Board {
    /// An empty board of side `size` (15 or 19; the caller checks).
    pub fn new(size: u8) -> Board {
        Board {
            size,
            cells: [EMPTY; STRIDE * STRIDE],
        }
    }

    /// The side of the board.
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The cell at column `c`, row `r`, or [`WALL`] off the board.
    #[inline(always)]
    pub fn get(&self, c: i8, r: i8) -> u8 {
        let s = self.size as i8;
        if c < 0 || r < 0 || c >= s || r >= s {
            WALL
        } else {
            self.cells[r as usize * STRIDE + c as usize]
        }
    }

    /// Sets the cell at `(c, r)`, which must be on the board.
    #[inline(always)]
    pub fn set(&mut self, c: i8, r: i8, v: u8) {
        debug_assert!(self.get(c, r) != WALL);
        self.cells[r as usize * STRIDE + c as usize] = v;
    }

    /// The stone on `p`; `None` when empty or off the board.
    pub fn stone_at(&self, p: Point) -> Option<Stone> {
        match self.get(p.col() as i8, p.row() as i8) {
            BLACK => Some(Stone::Black),
            WHITE => Some(Stone::White),
            _ => None,
        }
    }

    /// How many cells of value `v` follow `(c, r)` backwards and forwards
    /// along direction `dir`, not counting `(c, r)` itself.
    #[inline(always)]
    pub fn extent(&self, c: i8, r: i8, dir: usize, v: u8) -> (i8, i8) {
        let (dc, dr) = DIRECTIONS[dir];
        let mut back = 0;
        while self.get(c - (back + 1) * dc, r - (back + 1) * dr) == v {
            back += 1;
        }
        let mut fwd = 0;
        while self.get(c + (fwd + 1) * dc, r + (fwd + 1) * dr) == v {
            fwd += 1;
        }
        (back, fwd)
    }

    /// The run of value `v` through `(c, r)` along `dir`, counting `(c, r)`
    /// as one of them whatever it holds.
    #[inline]
    pub fn run_through(&self, c: i8, r: i8, dir: usize, v: u8) -> Run {
        let (dc, dr) = DIRECTIONS[dir];
        let (back, fwd) = self.extent(c, r, dir, v);
        Run {
            start: (c - back * dc, r - back * dr),
            dir,
            len: (back + fwd + 1) as usize,
        }
    }

    /// Every maximal run of `stone` on the board for which `keep(len)` holds,
    /// in board order of their first stone, then by direction.
    pub fn runs(&self, stone: Stone, keep: impl Fn(usize) -> bool) -> Vec<Run> {
        let v = stone.cell();
        let s = self.size as i8;
        let mut out = Vec::new();
        for r in 0..s {
            for c in 0..s {
                if self.get(c, r) != v {
                    continue;
                }
                for (dir, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                    if self.get(c - dc, r - dr) == v {
                        continue; // not the first stone of its run
                    }
                    let mut len = 1;
                    while self.get(c + len * dc, r + len * dr) == v {
                        len += 1;
                    }
                    if keep(len as usize) {
                        out.push(Run {
                            start: (c, r),
                            dir,
                            len: len as usize,
                        });
                    }
                }
            }
        }
        out
    }

    /// The stones of row `r` (0 is the bottom), column `a` first: `size`
    /// cells, `None` where empty; nothing for a row off the board.
    pub fn row_stones(&self, r: u8) -> impl Iterator<Item = Option<Stone>> + '_ {
        let (s, r) = (usize::from(self.size), usize::from(r));
        let row = if r < s {
            &self.cells[r * STRIDE..r * STRIDE + s]
        } else {
            &[]
        };
        row.iter().map(|&cell| match cell {
            BLACK => Some(Stone::Black),
            WHITE => Some(Stone::White),
            _ => None,
        })
    }

    /// Appends every empty point to `out`, in board order: what
    /// [`Board::empties`] gives, in one pass over the rows.
    pub fn push_empties(&self, out: &mut Vec<Point>) {
        let s = usize::from(self.size);
        for (r, row) in self.cells.chunks_exact(STRIDE).take(s).enumerate() {
            for (c, &cell) in row[..s].iter().enumerate() {
                if cell == EMPTY {
                    out.push(point(c as i8, r as i8));
                }
            }
        }
    }

    /// Every empty point, in board order (row by row from the bottom,
    /// column `a` first).
    pub fn empties(&self) -> impl Iterator<Item = (i8, i8)> + '_ {
        let s = self.size as i8;
        (0..s)
            .flat_map(move |r| (0..s).map(move |c| (c, r)))
            .filter(|&(c, r)| self.get(c, r) == EMPTY)
    }

    /// Number of stones of each colour, black first.
    pub fn counts(&self) -> (usize, usize) {
        let s = self.size as i8;
        let mut n = (0, 0);
        for r in 0..s {
            for c in 0..s {
                match self.get(c, r) {
                    BLACK => n.0 += 1,
                    WHITE => n.1 += 1,
                    _ => {}
                }
            }
        }
        n
    }
}

/// The board coordinates of a point (which fits in `i8`: at most 18).
#[inline]
pub(crate) fn coords(p: Point) -> (i8, i8) {
    (p.col() as i8, p.row() as i8)
}

/// The point at board coordinates the caller knows to be on a board.
#[inline]
pub(crate) fn point(c: i8, r: i8) -> Point {
    Point::new(c as u8, r as u8).unwrap_or_else(|| unreachable!("coordinates come from the board"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_scans_of_the_empty_points_agree() {
        for size in [15, 19] {
            let mut board = Board::new(size);
            // Stones on every third cell, both colours, edges included.
            for i in 0..i16::from(size) * i16::from(size) {
                if i % 3 == 0 {
                    let (c, r) = ((i % i16::from(size)) as i8, (i / i16::from(size)) as i8);
                    board.set(c, r, if i % 2 == 0 { BLACK } else { WHITE });
                }
            }
            let mut pushed = Vec::new();
            board.push_empties(&mut pushed);
            let scanned: Vec<Point> = board.empties().map(|(c, r)| point(c, r)).collect();
            assert_eq!(pushed, scanned);
            assert_eq!(pushed.len(), usize::from(size) * usize::from(size) * 2 / 3);
        }
    }
}
