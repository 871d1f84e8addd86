//! Quoridor (围追堵截) for two players.
//!
//! A 9×9 board of squares `a1`–`i9`: files `a`–`i` from the left, ranks
//! `1`–`9` from player 1's side. Player 1 starts on `e1` and wins on
//! reaching rank 9; player 2 starts on `e9` and wins on reaching rank 1;
//! player 1 moves first. Each player has 10 walls.
//!
//! A turn is one of:
//!
//! - **a pawn move**, written as its destination (`e2`): one step to an
//!   orthogonally adjacent square, not through a wall and not onto the other
//!   pawn; or, when the other pawn is adjacent with no wall between, a
//!   straight jump over it to the square behind, if that square is on the
//!   board and no wall is between them; only when a wall or the board edge
//!   is behind the jumped pawn, a diagonal step to either side of it (not
//!   through a wall). Jumps work in every direction, backwards too.
//! - **a wall**, written as its anchor square and orientation (`e3h`,
//!   `e3v`).
//!
//! # Wall notation
//!
//! A wall is two squares long and lies in the gaps of a 2×2 block of
//! squares. It is named by the square of that block **nearest `a1`**, its
//! anchor (files `a`–`h`, ranks `1`–`8`), then `h` (horizontal, along a
//! rank) or `v` (vertical, along a file):
//!
//! - `e3h` lies between ranks 3 and 4 and separates `e3`|`e4` and `f3`|`f4`;
//! - `e3v` lies between files e and f and separates `e3`|`f3` and `e4`|`f4`.
//!
//! Both have their middle at the corner shared by `e3`, `f3`, `e4` and `f4`.
//! That makes 8 × 8 × 2 = 128 wall slots. A wall may not overlap a placed
//! wall of its orientation (`e3h` overlaps `d3h`, `e3h` and `f3h`), may not
//! cross one at its middle (`e3h` and `e3v`), and may not leave either pawn
//! without a path to its goal rank (pawns do not block paths). A wall may
//! touch another end to end or in a T (`e3h` with `d3v` or `f3v`). A player
//! with no walls left must move the pawn.
//!
//! The game ends as soon as a pawn reaches its goal rank
//! ([`EndReason::ReachedGoal`](crate::EndReason::ReachedGoal)); there is no
//! draw, since both pawns always keep a path.
//!
//! # State code
//!
//! URL-safe base64 without padding (RFC 4648 §5) of 19 bytes, so every code
//! is 26 characters. Square numbers are `rank * 9 + file` (`a1` = 0, `e1` =
//! 4, `e9` = 76, `i9` = 80); anchor numbers are `rank * 8 + file` of the
//! wall's anchor (`a1` = 0, `e3` = 20, `h8` = 63).
//!
//! | byte | bits | meaning |
//! |---|---|---|
//! | 0 | 0–6 | player 1's pawn square, 0–80 |
//! | 0 | 7 | side to move: 0 = player 1, 1 = player 2 |
//! | 1 | 0–6 | player 2's pawn square, 0–80 |
//! | 1 | 7 | reserved, 0 (room for other player counts) |
//! | 2 | 4–7 | walls left to player 1, 0–10 |
//! | 2 | 0–3 | walls left to player 2, 0–10 |
//! | 3–18 | | the wall map: 2 bits per anchor, anchor *k* in bits 2(*k* mod 4)…2(*k* mod 4)+1 of byte 3 + ⌊*k*/4⌋; 0 no wall, 1 horizontal, 2 vertical (3 is refused) |
//!
//! The start is `BEyqAAAAAAAAAAAAAAAAAAAAAA` (bytes `04 4c aa` and 16 zero
//! bytes). A code is refused, naming what is wrong, when it is not 26
//! characters of the URL-safe alphabet, sets bits after its last byte or the
//! reserved bit, names a square above 80 or a wall slot value 3, or
//! describes a position [`Position::from_setup`] refuses: more than 10 walls
//! left to a player, pawns on one square, overlapping or crossing walls,
//! placed walls and walls left that do not add up to 20, a pawn on its goal
//! whose player is to move, or a pawn with no path to its goal.
//!
//! # Four players
//!
//! Not supported. Four pawns bring jumps over several pawns in a row and a
//! turn order of four; the code keeps byte 1's top bit reserved for such a
//! form, but the types here ([`Player`], [`Position`]) are two-player.

mod board;
mod code;
mod position;
mod types;

pub use code::{CodeError, CODE_LENGTH};
pub use position::{ActionError, Position, Setup, SetupError};
pub use types::{
    Action, Orientation, ParseActionError, ParsePlayerError, ParseSquareError, ParseWallError,
    Player, Square, Wall, ANCHORS, SIZE, WALLS_PER_PLAYER,
};
