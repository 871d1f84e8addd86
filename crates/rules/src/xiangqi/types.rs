//! Sides, pieces, points and moves: the small `Copy` types the rest of the
//! module is written in.

use std::fmt;
use std::str::FromStr;

use crate::Reason;

/// One of the two sides. Red moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red, at the bottom of the board (ICCS ranks 0–4), moves first.
    Red,
    /// Black, at the top of the board (ICCS ranks 5–9).
    Black,
}

impl Side {
    /// Both sides, red first.
    pub const ALL: [Side; 2] = [Side::Red, Side::Black];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// `0` for red, `1` for black.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Side::Red => 0,
            Side::Black => 1,
        }
    }

    /// The side's lower-case English name.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that is not a side `red` or `black`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a xiangqi side: expected red or black")]
pub struct ParseSideError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseSideError {
    fn reason(&self) -> &'static str {
        "unknown-player"
    }
}

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Side::ALL
            .into_iter()
            .find(|side| side.as_str() == s)
            .ok_or_else(|| ParseSideError { text: s.to_owned() })
    }
}

impl crate::Player for Side {
    const ALL: &'static [Side] = &Side::ALL;

    fn as_str(self) -> &'static str {
        Side::as_str(self)
    }

    fn opponent(self) -> Option<Side> {
        Some(Side::opponent(self))
    }
}

/// The seven kinds of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 帅/将, confined to the palace.
    General,
    /// 仕/士, diagonal steps inside the palace.
    Advisor,
    /// 相/象, two-point diagonal steps on its own side, blocked at the eye.
    Elephant,
    /// 马, the knight of xiangqi, blocked at the leg.
    Horse,
    /// 车, the rook.
    Chariot,
    /// 炮, moves like a chariot, captures over exactly one screen.
    Cannon,
    /// 兵/卒, forward only until across the river, then also sideways.
    Soldier,
}

impl Role {
    /// All roles, in the order of the state code's piece slots.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// How many pieces of this role each side starts with.
    pub fn count(self) -> usize {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            Role::Advisor | Role::Elephant | Role::Horse | Role::Chariot | Role::Cannon => 2,
        }
    }

    /// The role's lower-case English name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }

    /// The WXF letter (`K A E H R C P`).
    pub fn wxf_letter(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// The FEN letter as Pikafish and Fairy-Stockfish write it (upper case).
    pub fn fen_letter(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// The role of a FEN letter of either case; both the `B`/`N` and the
    /// `E`/`H` spellings are accepted.
    pub fn from_fen_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::General,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Chariot,
            'C' => Role::Cannon,
            'P' => Role::Soldier,
            _ => return None,
        })
    }

    /// The traditional character for this role on the given side.
    pub fn chinese(self, side: Side) -> char {
        match (side, self) {
            (Side::Red, Role::General) => '帅',
            (Side::Red, Role::Advisor) => '仕',
            (Side::Red, Role::Elephant) => '相',
            (Side::Red, Role::Soldier) => '兵',
            (Side::Black, Role::General) => '将',
            (Side::Black, Role::Advisor) => '士',
            (Side::Black, Role::Elephant) => '象',
            (Side::Black, Role::Soldier) => '卒',
            (_, Role::Horse) => '马',
            (_, Role::Chariot) => '车',
            (_, Role::Cannon) => '炮',
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A piece: a role of a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for red, lower case for black.
    pub fn fen_char(self) -> char {
        match self.side {
            Side::Red => self.role.fen_letter(),
            Side::Black => self.role.fen_letter().to_ascii_lowercase(),
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.role)
    }
}

/// One of the 90 points of the board.
///
/// The index is the state code's: `row * 9 + file`, where row 0 is black's
/// back rank (ICCS rank 9) and file 0 is red's left (ICCS file `a`). Displayed
/// and parsed in ICCS form (`e0` is red's general at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point with this code index, if it is below 90.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point on `file` (0 = `a`) and `row` (0 = black's back rank).
    #[inline]
    pub const fn from_file_row(file: u8, row: u8) -> Option<Square> {
        if file < 9 && row < 10 {
            Some(Square(row * 9 + file))
        } else {
            None
        }
    }

    /// The point with ICCS coordinates `file` (0 = `a`) and `rank` (0 = red's back rank).
    #[inline]
    pub const fn from_iccs(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square((9 - rank) * 9 + file))
        } else {
            None
        }
    }

    /// Every point, in code order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }

    /// The code index, 0–89.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The code value, 0–89.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// File 0–8 from red's left (ICCS `a`–`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Row 0–9 from black's back rank.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 9
    }

    /// ICCS rank 0–9 from red's back rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        9 - self.row()
    }

    /// Whether the point is on `side`'s half of the board.
    #[inline]
    pub const fn on_side_of(self, side: Side) -> bool {
        match side {
            Side::Red => self.row() >= 5,
            Side::Black => self.row() <= 4,
        }
    }

    /// Whether the point is inside `side`'s palace.
    #[inline]
    pub const fn in_palace_of(self, side: Side) -> bool {
        let f = self.file();
        let r = self.row();
        f >= 3
            && f <= 5
            && match side {
                Side::Red => r >= 7,
                Side::Black => r <= 2,
            }
    }
}

/// ICCS names of the points, in code order.
const NAMES: [&str; 90] = [
    "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "a8", "b8", "c8", "d8", "e8", "f8", "g8",
    "h8", "i8", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "a6", "b6", "c6", "d6", "e6",
    "f6", "g6", "h6", "i6", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "a4", "b4", "c4",
    "d4", "e4", "f4", "g4", "h4", "i4", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "a2",
    "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1",
    "i1", "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0",
];

impl Square {
    /// The ICCS name (`e0`), without allocating.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point that is not ICCS `a0`–`i9`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a point: expected a file a–i and a rank 0–9, like e0")]
pub struct ParseSquareError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseSquareError {
    fn reason(&self) -> &'static str {
        "malformed-square"
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseSquareError { text: s.to_owned() };
        match s.as_bytes() {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => {
                Square::from_iccs(f - b'a', r - b'0').ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}

/// A move from one point to another, written in ICCS coordinates (`h2e2`).
///
/// Parsing checks only the syntax; whether the move is legal is a question for
/// a [`Position`](super::Position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Text that is not an ICCS move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not an ICCS move: expected two points like h2e2 (files a–i, ranks 0–9)")]
pub struct ParseMoveError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseMoveError {
    fn reason(&self) -> &'static str {
        "malformed-action"
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseMoveError { text: s.to_owned() };
        if s.len() != 4 || !s.is_ascii() {
            return Err(err());
        }
        let from: Square = s[..2].parse().map_err(|_| err())?;
        let to: Square = s[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Move { from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_iccs_matches_code_index() {
        // Red's general starts on code square 85, ICCS e0; black's on 4, ICCS e9.
        assert_eq!("e0".parse::<Square>().unwrap().index(), 85);
        assert_eq!("e9".parse::<Square>().unwrap().index(), 4);
        assert_eq!("a9".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i0".parse::<Square>().unwrap().index(), 89);
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
    }

    #[test]
    fn sides_round_trip() {
        for side in Side::ALL {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
        assert!("Red".parse::<Side>().is_err());
    }

    #[test]
    fn move_syntax() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.to_string(), "h2e2");
        for bad in ["", "h2e", "h2e2x", "j2e2", "h2h2", "H2E2", "h-e2"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
