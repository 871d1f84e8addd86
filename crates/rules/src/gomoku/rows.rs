//! The readable form: one line per row, top row first, `.` for an empty
//! point, `x` for black, `o` for white.
//!
//! ```text
//! ...............   ← row 15
//! ...
//! .......x.......   ← row 8, a black stone on h8
//! ...
//! ...............   ← row 1
//! ```
//!
//! Reading is strict: exactly 15 lines (or 19 for free-style), each exactly
//! as long as the board is wide, no spaces; one final newline is allowed.
//! A board read this way has no move order (unless it holds at most two
//! stones, whose order the colours tell).

use super::position::{PositionError, Setup, SetupError};
use super::types::{Point, Stone, Variant};
use super::Position;
use crate::Reason;

/// Why a text is not a gomoku board in the rows form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowsError {
    /// Not 15 or 19 lines.
    #[error("the board has {count} rows; a gomoku board has 15 (or 19 for freestyle), one line each, top row first")]
    RowCount {
        /// Lines found.
        count: usize,
    },
    /// 19 rows for a rule set played only on 15×15.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A line of the wrong length.
    #[error("line {line} (row {row}) has {length} characters, a {expected}×{expected} board needs {expected}")]
    RowLength {
        /// Line number in the text, 1 = the top row.
        line: usize,
        /// The board row it describes, 1 = the bottom.
        row: usize,
        /// Its length, in characters.
        length: usize,
        /// The board width.
        expected: usize,
    },
    /// A character other than `.`, `x` or `o`.
    #[error("line {line}, column {column} ({point}): {character:?} is not '.' (empty), 'x' (black) or 'o' (white)")]
    BadCharacter {
        /// Line number in the text, 1 = the top row.
        line: usize,
        /// Column in the line, 1 = the left (`a`).
        column: usize,
        /// The point it stands for.
        point: Point,
        /// The character.
        character: char,
    },
    /// The board is read but cannot arise in a game.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Reason for RowsError {
    fn reason(&self) -> &'static str {
        match self {
            RowsError::RowCount { .. } => "row-count",
            RowsError::Setup(e) => e.reason(),
            RowsError::RowLength { .. } => "row-length",
            RowsError::BadCharacter { .. } => "invalid-character",
            RowsError::Position(e) => e.reason(),
        }
    }
}

impl Setup {
    /// Reads the rows form without checking that the board could arise in
    /// a game. The size comes from the number of rows and is checked
    /// against the rule set before the rows are read.
    ///
    /// # Errors
    ///
    /// A [`RowsError`] naming the line, column and character at fault.
    pub fn from_rows(variant: Variant, text: &str) -> Result<Setup, RowsError> {
        let text = text.strip_suffix('\n').unwrap_or(text);
        let lines: Vec<&str> = if text.is_empty() {
            Vec::new()
        } else {
            text.split('\n').collect()
        };
        let count = lines.len();
        let size = match count {
            15 => 15u8,
            19 => 19,
            _ => return Err(RowsError::RowCount { count }),
        };
        // Checks the size against the rule set before the rows.
        Position::new(variant, size)?;
        let mut setup = Setup::empty(variant, size);
        for (i, line) in lines.iter().enumerate() {
            let row = size - 1 - i as u8;
            let length = line.chars().count();
            if length != size as usize {
                return Err(RowsError::RowLength {
                    line: i + 1,
                    row: row as usize + 1,
                    length,
                    expected: size as usize,
                });
            }
            for (col, character) in line.chars().enumerate() {
                let point = Point::new(col as u8, row)
                    .unwrap_or_else(|| unreachable!("inside a board of at most 19×19"));
                let stone = match character {
                    '.' => None,
                    'x' => Some(Stone::Black),
                    'o' => Some(Stone::White),
                    _ => {
                        return Err(RowsError::BadCharacter {
                            line: i + 1,
                            column: col + 1,
                            point,
                            character,
                        })
                    }
                };
                if let Some(stone) = stone {
                    setup.stones.insert(point, stone);
                }
            }
        }
        Ok(setup)
    }
}

impl Position {
    /// The rows form: one line per row, top row first, `'\n'` between rows
    /// and none at the end.
    pub fn to_rows(&self) -> String {
        let size = self.size();
        let mut out = String::with_capacity((size as usize + 1) * size as usize);
        for row in (0..size).rev() {
            for col in 0..size {
                let c = Point::new(col, row)
                    .and_then(|p| self.stone_at(p))
                    .map_or('.', Stone::rows_char);
                out.push(c);
            }
            if row > 0 {
                out.push('\n');
            }
        }
        out
    }

    /// Reads the rows form. The size comes from the number of rows. The
    /// position knows neither its move order nor its last move (except on a
    /// board of at most two stones).
    ///
    /// # Errors
    ///
    /// A [`RowsError`] naming the line, column and character at fault, or
    /// the reason the board cannot arise.
    pub fn from_rows(variant: Variant, text: &str) -> Result<Position, RowsError> {
        let setup = Setup::from_rows(variant, text)?;
        Position::from_setup(&setup).map_err(|e| match e {
            SetupError::Position(e) => RowsError::Position(e),
            SetupError::UnsupportedSize { .. } | SetupError::StoneOffBoard { .. } => {
                RowsError::Setup(e)
            }
        })
    }
}
