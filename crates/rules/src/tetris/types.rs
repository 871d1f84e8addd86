//! Pieces, rotation states, actions and what a lock did: the small `Copy`
//! types the rest of the module is written in.

use std::fmt;
use std::str::FromStr;

use crate::Reason;

/// A tetromino.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Four in a row (cyan).
    I,
    /// The 2×2 square (yellow).
    O,
    /// Three in a row with a nub in the middle (purple).
    T,
    /// Skew, lower half to the left (green).
    S,
    /// Skew, lower half to the right (red).
    Z,
    /// Three in a row with a nub over the left end (blue).
    J,
    /// Three in a row with a nub over the right end (orange).
    L,
}

impl Kind {
    /// Every kind, in the order a fresh bag is laid out before shuffling and
    /// the order of [`Kind::index`].
    pub const ALL: [Kind; 7] = [
        Kind::I,
        Kind::O,
        Kind::T,
        Kind::S,
        Kind::Z,
        Kind::J,
        Kind::L,
    ];

    /// `0` for I, `1` O, `2` T, `3` S, `4` Z, `5` J, `6` L.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Kind::I => 0,
            Kind::O => 1,
            Kind::T => 2,
            Kind::S => 3,
            Kind::Z => 4,
            Kind::J => 5,
            Kind::L => 6,
        }
    }

    /// The kind's letter.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::I => "I",
            Kind::O => "O",
            Kind::T => "T",
            Kind::S => "S",
            Kind::Z => "Z",
            Kind::J => "J",
            Kind::L => "L",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no tetromino.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a tetromino: expected one of I, O, T, S, Z, J, L")]
pub struct ParseKindError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseKindError {
    fn reason(&self) -> &'static str {
        "unknown-kind"
    }
}

impl FromStr for Kind {
    type Err = ParseKindError;

    /// Reads one upper-case letter `I`, `O`, `T`, `S`, `Z`, `J` or `L`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| ParseKindError { text: s.to_owned() })
    }
}

/// A rotation state of the Super Rotation System.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rotation {
    /// The spawn state, `0`.
    Spawn,
    /// One clockwise turn from spawn, `R`.
    Right,
    /// Two turns from spawn, `2`.
    Reverse,
    /// One counter-clockwise turn from spawn, `L`.
    Left,
}

impl Rotation {
    /// The four states in clockwise order from spawn, the order of
    /// [`Rotation::index`].
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Reverse,
        Rotation::Left,
    ];

    /// `0` for spawn, `1` R, `2` reverse, `3` L: quarter turns clockwise.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Rotation::Spawn => 0,
            Rotation::Right => 1,
            Rotation::Reverse => 2,
            Rotation::Left => 3,
        }
    }

    /// The state one quarter turn clockwise.
    #[inline]
    pub fn cw(self) -> Rotation {
        match self {
            Rotation::Spawn => Rotation::Right,
            Rotation::Right => Rotation::Reverse,
            Rotation::Reverse => Rotation::Left,
            Rotation::Left => Rotation::Spawn,
        }
    }

    /// The state one quarter turn counter-clockwise.
    #[inline]
    pub fn ccw(self) -> Rotation {
        match self {
            Rotation::Spawn => Rotation::Left,
            Rotation::Right => Rotation::Spawn,
            Rotation::Reverse => Rotation::Right,
            Rotation::Left => Rotation::Reverse,
        }
    }

    /// The wiki's name of the state: `0`, `R`, `2` or `L`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rotation::Spawn => "0",
            Rotation::Right => "R",
            Rotation::Reverse => "2",
            Rotation::Left => "L",
        }
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no rotation state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a rotation state: expected 0, R, 2 or L")]
pub struct ParseRotationError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseRotationError {
    fn reason(&self) -> &'static str {
        "unknown-rotation"
    }
}

impl FromStr for Rotation {
    type Err = ParseRotationError;

    /// Reads `0`, `R`, `2` or `L`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rotation::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| ParseRotationError { text: s.to_owned() })
    }
}

/// One player input, or one step of gravity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Shift one column left.
    Left,
    /// Shift one column right.
    Right,
    /// Rotate clockwise (with SRS kicks).
    Cw,
    /// Rotate counter-clockwise (with SRS kicks).
    Ccw,
    /// Soft drop: one row down, 1 point.
    Soft,
    /// Hard drop: straight down and lock, 2 points a row.
    Hard,
    /// Swap the piece with the hold (once per piece).
    Hold,
    /// Gravity: one row down, or lock when the piece cannot fall.
    Tick,
}

impl Action {
    /// Every action, in the order legal actions are listed.
    pub const ALL: [Action; 8] = [
        Action::Left,
        Action::Right,
        Action::Cw,
        Action::Ccw,
        Action::Soft,
        Action::Hard,
        Action::Hold,
        Action::Tick,
    ];

    /// The action's notation: `left`, `right`, `cw`, `ccw`, `soft`, `hard`,
    /// `hold` or `tick`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Left => "left",
            Action::Right => "right",
            Action::Cw => "cw",
            Action::Ccw => "ccw",
            Action::Soft => "soft",
            Action::Hard => "hard",
            Action::Hold => "hold",
            Action::Tick => "tick",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A string that names no Tetris action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a tetris action: expected left, right, cw, ccw, soft, hard, hold or tick")]
pub struct ParseActionError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseActionError {
    fn reason(&self) -> &'static str {
        "malformed-action"
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Reads an action's notation (lower case, as written).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Action::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| ParseActionError { text: s.to_owned() })
    }
}

/// Four cells, `(column, row)` with row 0 at the bottom, in ascending
/// order.
pub type Cells = [(u8, u8); 4];

/// The kind of T-spin a lock made (see the module documentation for the
/// three-corner rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TSpin {
    /// Three corners taken, but not both on the side the T points to (and
    /// no kick test 5).
    Mini,
    /// Both front corners taken, or the rotation used kick test 5.
    Full,
}

impl TSpin {
    /// Both kinds, mini first.
    pub const ALL: [TSpin; 2] = [TSpin::Mini, TSpin::Full];

    /// The stable name: `t-spin-mini` or `t-spin`.
    pub fn as_str(self) -> &'static str {
        match self {
            TSpin::Mini => "t-spin-mini",
            TSpin::Full => "t-spin",
        }
    }
}

impl fmt::Display for TSpin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a lock did: the [`Game::Trace`](crate::Game::Trace) of Tetris, when
/// an action locked the piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lock {
    /// The four cells the piece locked in, before any row was cleared.
    pub cells: Cells,
    /// Rows cleared, 0–4.
    pub lines: u8,
    /// The T-spin the lock made, if any.
    pub tspin: Option<TSpin>,
    /// Every point the action scored: the clear (or T-spin) times the level
    /// before the clear, plus the drop points of a hard drop.
    pub points: u32,
}

/// One place the current piece can lock, and how to get it there.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece.
    pub kind: Kind,
    /// Its rotation state when it locks (of the listed action sequence; S,
    /// Z and I fill the same cells in two states, and only one is listed).
    pub rotation: Rotation,
    /// The cells it fills.
    pub cells: Cells,
    /// The T-spin locking this way makes, if any.
    pub tspin: Option<TSpin>,
    /// A shortest action sequence that locks the piece here, ending in
    /// [`Action::Hard`].
    pub actions: Vec<Action>,
}
