//! Players, squares, wall orientations, walls and actions: the small `Copy`
//! types the rest of the module is written in. Each has a notation
//! (`Display`) that `FromStr` reads back.

use std::fmt;
use std::str::FromStr;

use crate::Reason;

/// Squares along each side of the board.
pub const SIZE: u8 = 9;
/// Wall anchors along each side of the board (files `a`–`h`, ranks `1`–`8`).
pub const ANCHORS: u8 = SIZE - 1;
/// Walls each player has at the start of a two-player game.
pub const WALLS_PER_PLAYER: u8 = 10;

/// A seat. Player 1 starts on `e1`, aims for rank 9 and moves first;
/// player 2 starts on `e9` and aims for rank 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Starts on `e1`, wins on rank 9, moves first.
    One,
    /// Starts on `e9`, wins on rank 1.
    Two,
}

impl Player {
    /// Both players, in turn order.
    pub const ALL: [Player; 2] = [Player::One, Player::Two];

    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The seat number, 1 or 2.
    #[inline]
    pub fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }

    /// The seat number as text, `"1"` or `"2"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Player::One => "1",
            Player::Two => "2",
        }
    }

    /// The player's index in per-player arrays: 0 for player 1, 1 for
    /// player 2.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    /// The square the player's pawn starts on: `e1` or `e9`.
    pub fn start(self) -> Square {
        match self {
            Player::One => Square::E1,
            Player::Two => Square::E9,
        }
    }

    /// The rank (0-based, 0 = rank 1) the player's pawn must reach: 8 for
    /// player 1, 0 for player 2.
    #[inline]
    pub fn goal_rank(self) -> u8 {
        match self {
            Player::One => SIZE - 1,
            Player::Two => 0,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Text that is not a player number `1` or `2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a quoridor player: expected 1 or 2")]
pub struct ParsePlayerError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParsePlayerError {
    fn reason(&self) -> &'static str {
        "unknown-player"
    }
}

impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Player::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ParsePlayerError { text: s.to_owned() })
    }
}

impl crate::Player for Player {
    const ALL: &'static [Player] = &Player::ALL;

    fn as_str(self) -> &'static str {
        Player::as_str(self)
    }

    fn opponent(self) -> Option<Player> {
        Some(Player::opponent(self))
    }
}

/// A square of the 9×9 board, written `e1`: a file `a`–`i` from the left
/// and a rank `1`–`9` from player 1's side.
///
/// Squares order rank by rank from rank 1, left to right within a rank (the
/// order of legal-move listings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// `rank * 9 + file`, 0–80 (the order of the derived `Ord`).
    index: u8,
}

impl Square {
    /// Player 1's start square.
    pub const E1: Square = Square { index: 4 };
    /// Player 2's start square.
    pub const E9: Square = Square { index: 76 };

    /// The square on file `file` (0 = `a`) and rank `rank` (0 = `1`), if
    /// both are below 9.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square {
                index: rank * SIZE + file,
            })
        } else {
            None
        }
    }

    /// The square of index `rank * 9 + file`, if below 81.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < SIZE * SIZE {
            Some(Square { index })
        } else {
            None
        }
    }

    /// The square's index, `rank * 9 + file` (0–80): the code's pawn value
    /// and the bit of the internal bitboards.
    #[inline]
    pub const fn index(self) -> u8 {
        self.index
    }

    /// File, 0-based from the left (`a` = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.index % SIZE
    }

    /// Rank, 0-based from player 1's side (`1` = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.index / SIZE
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIZE * SIZE).map(|index| Square { index })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Text that is not a square `a1`–`i9`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a quoridor square: expected a file a–i and a rank 1–9, like e1")]
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
        match s.as_bytes() {
            [f @ b'a'..=b'i', r @ b'1'..=b'9'] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError { text: s.to_owned() })
    }
}

/// Which way a wall runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    /// Along a rank (`h`): it separates squares of two neighbouring ranks.
    Horizontal,
    /// Along a file (`v`): it separates squares of two neighbouring files.
    Vertical,
}

impl Orientation {
    /// Both orientations, horizontal first.
    pub const ALL: [Orientation; 2] = [Orientation::Horizontal, Orientation::Vertical];

    /// The notation's letter: `'h'` or `'v'`.
    pub fn letter(self) -> char {
        match self {
            Orientation::Horizontal => 'h',
            Orientation::Vertical => 'v',
        }
    }

    /// The other orientation.
    pub fn other(self) -> Orientation {
        match self {
            Orientation::Horizontal => Orientation::Vertical,
            Orientation::Vertical => Orientation::Horizontal,
        }
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A wall two squares long, written `e3h` or `e3v`: the square of the 2×2
/// block it touches that is nearest `a1` (its *anchor*, files `a`–`h`,
/// ranks `1`–`8`), then its orientation.
///
/// `e3h` lies between ranks 3 and 4, under `e4` and `f4`: it separates
/// `e3`|`e4` and `f3`|`f4`. `e3v` lies between files e and f, beside `e3` and
/// `e4`: it separates `e3`|`f3` and `e4`|`f4`. Both have their middle at the
/// corner shared by `e3`, `f3`, `e4` and `f4`.
///
/// Walls order by anchor (rank first, then file), horizontal before
/// vertical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wall {
    // Field order gives the derived `Ord`: anchor, then orientation.
    /// `rank * 8 + file` of the anchor square, 0–63.
    anchor: u8,
    orientation: Orientation,
}

impl Wall {
    /// The wall anchored on file `file` (0 = `a`) and rank `rank` (0 = `1`),
    /// if both are below 8 (a wall anchored on file `i` or rank 9 would
    /// stick out of the board).
    #[inline]
    pub const fn new(file: u8, rank: u8, orientation: Orientation) -> Option<Wall> {
        if file < ANCHORS && rank < ANCHORS {
            Some(Wall {
                anchor: rank * ANCHORS + file,
                orientation,
            })
        } else {
            None
        }
    }

    /// The wall anchored on `square`, if the square is not on file `i` or
    /// rank 9.
    pub fn at(square: Square, orientation: Orientation) -> Option<Wall> {
        Wall::new(square.file(), square.rank(), orientation)
    }

    /// The wall on the same anchor with orientation `orientation`.
    #[inline]
    pub const fn turned(self, orientation: Orientation) -> Wall {
        Wall {
            anchor: self.anchor,
            orientation,
        }
    }

    /// The anchor's index, `rank * 8 + file` (0–63): the slot of the code's
    /// wall map.
    #[inline]
    pub const fn anchor_index(self) -> u8 {
        self.anchor
    }

    /// The anchor square: the square of the 2×2 block nearest `a1`.
    #[inline]
    pub fn anchor(self) -> Square {
        Square {
            index: self.rank() * SIZE + self.file(),
        }
    }

    /// The anchor's file, 0–7.
    #[inline]
    pub const fn file(self) -> u8 {
        self.anchor % ANCHORS
    }

    /// The anchor's rank, 0–7.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.anchor / ANCHORS
    }

    /// Which way the wall runs.
    #[inline]
    pub const fn orientation(self) -> Orientation {
        self.orientation
    }

    /// The two pairs of squares the wall separates: `e3h` gives
    /// `[(e3, e4), (f3, f4)]`, `e3v` gives `[(e3, f3), (e4, f4)]`.
    pub fn separates(self) -> [(Square, Square); 2] {
        let a = self.anchor();
        let i = a.index;
        match self.orientation {
            Orientation::Horizontal => [
                (a, Square { index: i + SIZE }),
                (
                    Square { index: i + 1 },
                    Square {
                        index: i + SIZE + 1,
                    },
                ),
            ],
            Orientation::Vertical => [
                (a, Square { index: i + 1 }),
                (
                    Square { index: i + SIZE },
                    Square {
                        index: i + SIZE + 1,
                    },
                ),
            ],
        }
    }

    /// Every one of the 128 wall slots, in order.
    pub fn all() -> impl Iterator<Item = Wall> {
        (0..ANCHORS * ANCHORS).flat_map(|anchor| {
            Orientation::ALL.map(|orientation| Wall {
                anchor,
                orientation,
            })
        })
    }
}

impl fmt::Display for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.anchor(), self.orientation)
    }
}

/// Text that is not a wall `a1h`–`h8v`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a quoridor wall: expected an anchor square a1–h8 and h or v, like e3h")]
pub struct ParseWallError {
    /// The text that was given.
    pub text: String,
}

impl Reason for ParseWallError {
    fn reason(&self) -> &'static str {
        "malformed-wall"
    }
}

impl FromStr for Wall {
    type Err = ParseWallError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let orientation = match s.as_bytes() {
            [b'a'..=b'h', b'1'..=b'8', b'h'] => Some(Orientation::Horizontal),
            [b'a'..=b'h', b'1'..=b'8', b'v'] => Some(Orientation::Vertical),
            _ => None,
        };
        orientation
            .zip(s.get(..2).and_then(|sq| sq.parse::<Square>().ok()))
            .and_then(|(o, sq)| Wall::at(sq, o))
            .ok_or_else(|| ParseWallError { text: s.to_owned() })
    }
}

/// One turn: a pawn move, written as its destination (`e2`), or a wall
/// (`e3h`, `e3v`).
///
/// Actions order pawn moves first (by square), then walls (by anchor and
/// orientation): the order of legal-action listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Move the pawn to this square (a step or a jump).
    Move(Square),
    /// Place this wall.
    Wall(Wall),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(sq) => sq.fmt(f),
            Action::Wall(w) => w.fmt(f),
        }
    }
}

/// Text that is neither a square (`e2`) nor a wall (`e3h`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a quoridor action: expected a destination square a1–i9 (e2) or a wall a1h–h8v (e3h, e3v)")]
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

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseActionError { text: s.to_owned() };
        match s.len() {
            2 => s.parse().map(Action::Move).map_err(|_| err()),
            3 => s.parse().map(Action::Wall).map_err(|_| err()),
            _ => Err(err()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_notation_round_trips() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
        }
        let e1: Square = "e1".parse().unwrap();
        assert_eq!((e1.file(), e1.rank()), (4, 0));
        assert_eq!(e1, Square::E1);
        assert_eq!("e9".parse::<Square>().unwrap(), Square::E9);
        for bad in ["", "e", "e0", "j1", "a10", "E1", "e1 ", "1e", "a01"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn wall_notation_round_trips() {
        assert_eq!(Wall::all().count(), 128);
        for w in Wall::all() {
            assert_eq!(w.to_string().parse::<Wall>().unwrap(), w);
            assert_eq!(
                Action::Wall(w).to_string().parse::<Action>().unwrap(),
                Action::Wall(w)
            );
        }
        for bad in ["i1h", "a9v", "e3", "e3x", "e3H", "e3hh", "e0h", ""] {
            assert!(bad.parse::<Wall>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn wall_separates_named_pairs() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let h: Wall = "e3h".parse().unwrap();
        assert_eq!(h.separates(), [(sq("e3"), sq("e4")), (sq("f3"), sq("f4"))]);
        let v: Wall = "e3v".parse().unwrap();
        assert_eq!(v.separates(), [(sq("e3"), sq("f3")), (sq("e4"), sq("f4"))]);
    }

    #[test]
    fn players_round_trip() {
        for p in Player::ALL {
            assert_eq!(p.to_string().parse::<Player>().unwrap(), p);
            assert_eq!(p.opponent().opponent(), p);
        }
        assert_eq!(Player::Two.number(), 2);
        assert!("one".parse::<Player>().is_err());
    }
}
