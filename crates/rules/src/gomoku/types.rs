//! Rule sets, stones, points and forbidden-point reasons: the small `Copy`
//! types the rest of the module is written in. Each has a notation
//! (`Display`) that `FromStr` reads back.

use std::fmt;
use std::str::FromStr;

use crate::Reason;

/// The three rule sets, chosen when a game starts and carried in its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Five or more in a row wins, for both sides (15×15 or 19×19).
    Freestyle,
    /// Exactly five wins, for both sides; an overline is a legal move that
    /// does not win (15×15).
    Standard,
    /// RIF rules: black wins only with exactly five and may not play an
    /// overline, a double-four or a double-three; white wins with five or
    /// more (15×15).
    Renju,
}

impl Variant {
    /// Every rule set, in code order.
    pub const ALL: [Variant; 3] = [Variant::Freestyle, Variant::Standard, Variant::Renju];

    /// The rule set's name as it appears in URLs and codes' readable forms.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Freestyle => "freestyle",
            Variant::Standard => "standard",
            Variant::Renju => "renju",
        }
    }

    /// The board sizes this rule set is played on: 15 for all, 19 also
    /// for free-style.
    pub fn sizes(self) -> &'static [u8] {
        match self {
            Variant::Freestyle => &[15, 19],
            Variant::Standard | Variant::Renju => &[15],
        }
    }

    /// Whether a line of `len` stones of `stone` wins under this rule set.
    #[inline]
    pub fn wins(self, stone: Stone, len: usize) -> bool {
        match (self, stone) {
            (Variant::Freestyle, _) | (Variant::Renju, Stone::White) => len >= 5,
            (Variant::Standard, _) | (Variant::Renju, Stone::Black) => len == 5,
        }
    }

    /// The 2-bit value of the rule set in the code's header byte.
    pub(crate) fn code_bits(self) -> u8 {
        match self {
            Variant::Freestyle => 0,
            Variant::Standard => 1,
            Variant::Renju => 2,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule-set name that is not `freestyle`, `standard` or `renju`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a gomoku variant: expected freestyle, standard or renju")]
pub struct ParseVariantError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseVariantError {
    fn reason(&self) -> &'static str {
        "unknown-variant"
    }
}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| ParseVariantError { text: s.to_owned() })
    }
}

/// A stone colour, and so a side. Black moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stone {
    /// Moves first (`x` in the rows form).
    Black,
    /// Moves second (`o` in the rows form).
    White,
}

impl Stone {
    /// Both colours, black first.
    pub const ALL: [Stone; 2] = [Stone::Black, Stone::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }

    /// The colour's lower-case English name.
    pub fn as_str(self) -> &'static str {
        match self {
            Stone::Black => "black",
            Stone::White => "white",
        }
    }

    /// The character of the rows form: `x` for black, `o` for white.
    pub fn rows_char(self) -> char {
        match self {
            Stone::Black => 'x',
            Stone::White => 'o',
        }
    }

    /// The cell value of the internal board and of the code's base-3
    /// digits: 1 for black, 2 for white (0 is an empty point).
    #[inline]
    pub(crate) fn cell(self) -> u8 {
        match self {
            Stone::Black => 1,
            Stone::White => 2,
        }
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A colour name that is not `black` or `white`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a stone colour: expected black or white")]
pub struct ParseStoneError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseStoneError {
    fn reason(&self) -> &'static str {
        "unknown-player"
    }
}

impl FromStr for Stone {
    type Err = ParseStoneError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Stone::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| ParseStoneError { text: s.to_owned() })
    }
}

impl crate::Player for Stone {
    const ALL: &'static [Stone] = &Stone::ALL;

    fn as_str(self) -> &'static str {
        Stone::as_str(self)
    }

    fn opponent(self) -> Option<Stone> {
        Some(Stone::opponent(self))
    }
}

/// The largest board side (free-style on 19×19).
pub const MAX_SIZE: u8 = 19;

/// An intersection of a board of up to 19×19, written `h8`: a column letter
/// `a`–`s` from the left and a row number `1`–`19` from the bottom.
///
/// A point is only syntax: whether it lies on a 15×15 board is a question
/// for the [`Position`](super::Position). Points order row by row from the
/// bottom, left to right within a row (the order of legal-move listings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    // Field order gives the derived `Ord`: row first, then column.
    row: u8,
    col: u8,
}

impl Point {
    /// The point in column `col` (0 = `a`) and row `row` (0 = `1`), if both
    /// are below 19.
    #[inline]
    pub const fn new(col: u8, row: u8) -> Option<Point> {
        if col < MAX_SIZE && row < MAX_SIZE {
            Some(Point { row, col })
        } else {
            None
        }
    }

    /// Column, 0-based from the left (`a` = 0).
    #[inline]
    pub const fn col(self) -> u8 {
        self.col
    }

    /// Row, 0-based from the bottom (`1` = 0).
    #[inline]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Whether the point lies on a `size`×`size` board.
    #[inline]
    pub const fn is_on(self, size: u8) -> bool {
        self.col < size && self.row < size
    }

    /// The point's index on a `size`×`size` board, `row * size + col`: the
    /// order of the code's grid and move list.
    #[inline]
    pub(crate) fn index_on(self, size: u8) -> usize {
        self.row as usize * size as usize + self.col as usize
    }

    /// The point of index `index` on a `size`×`size` board.
    #[inline]
    pub(crate) fn from_index(index: usize, size: u8) -> Option<Point> {
        let s = size as usize;
        if index < s * s {
            Point::new((index % s) as u8, (index / s) as u8)
        } else {
            None
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// Text that is not a point `a1`–`s19`. As the notation of gomoku's one
/// action, its [`Reason`] is `malformed-action`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a point: expected a column a–s and a row 1–19, like h8")]
pub struct ParsePointError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParsePointError {
    fn reason(&self) -> &'static str {
        "malformed-action"
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParsePointError { text: s.to_owned() };
        let (col, row) = match s.as_bytes() {
            [c @ b'a'..=b's', r @ b'1'..=b'9'] => (c - b'a', r - b'1'),
            [c @ b'a'..=b's', b'1', r @ b'0'..=b'9'] => (c - b'a', 9 + r - b'0'),
            _ => return Err(err()),
        };
        Point::new(col, row).ok_or_else(err)
    }
}

/// Why a point is forbidden to black under Renju rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Forbidden {
    /// The stone would make six or more in a row.
    Overline,
    /// The stone would make two or more fours at once (on one line or on
    /// several).
    DoubleFour,
    /// The stone would make two or more real threes at once.
    DoubleThree,
}

impl Forbidden {
    /// Every reason, in the order they are tested.
    pub const ALL: [Forbidden; 3] = [
        Forbidden::Overline,
        Forbidden::DoubleFour,
        Forbidden::DoubleThree,
    ];

    /// The reason's stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason name that is not `overline`, `double-four` or `double-three`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a forbidden-point reason: expected overline, double-four or double-three")]
pub struct ParseForbiddenError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseForbiddenError {
    fn reason(&self) -> &'static str {
        "unknown-forbidden"
    }
}

impl FromStr for Forbidden {
    type Err = ParseForbiddenError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Forbidden::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| ParseForbiddenError { text: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_notation_round_trips() {
        for row in 0..MAX_SIZE {
            for col in 0..MAX_SIZE {
                let p = Point::new(col, row).unwrap();
                assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
            }
        }
        let h8: Point = "h8".parse().unwrap();
        assert_eq!((h8.col(), h8.row()), (7, 7));
        let s19: Point = "s19".parse().unwrap();
        assert_eq!((s19.col(), s19.row()), (18, 18));
        for bad in [
            "", "h", "h0", "t1", "a20", "a01", "H8", "h8 ", "8h", "a-1", "a1x",
        ] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
        }
        for s in Stone::ALL {
            assert_eq!(s.to_string().parse::<Stone>().unwrap(), s);
            assert_eq!(s.opponent().opponent(), s);
        }
        for f in Forbidden::ALL {
            assert_eq!(f.to_string().parse::<Forbidden>().unwrap(), f);
        }
        assert!("Renju".parse::<Variant>().is_err());
    }
}
