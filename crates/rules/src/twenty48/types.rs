//! Directions, the spawned tile and what a move did: the small `Copy` types
//! the rest of the module is written in.

use std::fmt;
use std::str::FromStr;

/// A move: every tile slides as far as it can towards one wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards row 0, the top.
    Up,
    /// Towards row 3, the bottom.
    Down,
    /// Towards column 0.
    Left,
    /// Towards column 3.
    Right,
}

impl Direction {
    /// All four directions in the order legal moves are listed.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The direction's notation: `up`, `down`, `left` or `right`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    /// `0` for up, `1` down, `2` left, `3` right (the order of [`Direction::ALL`]).
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Direction::Up => 0,
            Direction::Down => 1,
            Direction::Left => 2,
            Direction::Right => 3,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no direction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a 2048 move: expected up, down, left or right")]
pub struct ParseDirectionError {
    /// The text that was given.
    pub text: String,
}

impl crate::Reason for ParseDirectionError {
    fn reason(&self) -> &'static str {
        "malformed-action"
    }
}

impl FromStr for Direction {
    type Err = ParseDirectionError;

    /// Reads `up`, `down`, `left` or `right` (lower case, as written).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Direction::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| ParseDirectionError { text: s.to_owned() })
    }
}

/// The tile that appeared after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Spawn {
    /// Row, 0 = top.
    pub row: u8,
    /// Column, 0 = left.
    pub col: u8,
    /// 2 or 4.
    pub value: u32,
}

impl fmt::Display for Spawn {
    /// `2 at row 0, column 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at row {}, column {}", self.value, self.row, self.col)
    }
}

/// What a move did beyond the new board: the tile that spawned and the
/// score the merges gained (the [`Game::Trace`](crate::Game::Trace) of
/// 2048).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The tile that appeared after the tiles slid.
    pub spawn: Spawn,
    /// The sum of the values of the tiles the merges made.
    pub gained: u64,
}
