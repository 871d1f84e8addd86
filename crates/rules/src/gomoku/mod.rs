//! Gomoku (五子棋): free-style, standard and Renju.
//!
//! Black moves first and the sides alternate, so the side to move follows
//! from the stone counts. A stone goes on any empty point (`h8`: columns
//! `a`–`o` from the left, rows `1`–`15` from the bottom; `a`–`s`, `1`–`19`
//! on 19×19). A full board without a winner is a draw.
//!
//! | rule set | board | wins | forbidden |
//! |---|---|---|---|
//! | `freestyle` | 15×15 or 19×19 | five or more in a row | — |
//! | `standard` | 15×15 | exactly five (an overline is a legal move that does not win) | — |
//! | `renju` | 15×15 | black: exactly five; white: five or more | black: overline, double-four, double-three (see *Renju* below) |
//!
//! # Renju
//!
//! The Renju International Federation's rules (1996, corrected 1998):
//! black may not make an overline, a double-four (two fours on one line
//! count too) or a double-three, where a three counts only if the straight
//! four it threatens can be made on a point that is not itself forbidden;
//! a five made by the same stone takes priority over every prohibition.
//! A forbidden point is refused as an illegal action naming the reason, and
//! [`Position::forbidden`] lists them for black to move. There is no pass:
//! if every empty point is forbidden to black, the game is drawn
//! ([`EndReason::NoMoves`](crate::EndReason::NoMoves)). The opening rules
//! (first stone in the centre, swaps) are not part of a position.
//!
//! # State code
//!
//! URL-safe base64 without padding (RFC 4648 §5) of a header byte followed
//! by one of two bodies.
//!
//! **Header byte**
//!
//! | bits | meaning |
//! |---|---|
//! | 0–1 | rule set: 0 `freestyle`, 1 `standard`, 2 `renju` (3 is refused) |
//! | 2 | board: 0 = 15×15, 1 = 19×19 (only for `freestyle`) |
//! | 3 | form: 0 = move list, 1 = grid |
//! | 4 | grid form only: 1 = a last-move point follows the grid |
//! | 5–7 | zero |
//!
//! Points are numbered `row * size + col`, row 0 at the bottom (`1`) and
//! column 0 at the left (`a`): `a1` = 0, `h8` = 112 and `o15` = 224 on
//! 15×15.
//!
//! **Move-list form** (bit 3 = 0): the moves from the empty board in the
//! order played, black first. On 15×15 one byte per move (the point number,
//! 0–224); on 19×19 nine bits per move (0–360), most significant bit first,
//! packed without gaps, the last byte filled with zero bits. The moves are
//! replayed, so each must be legal where it stands.
//!
//! **Grid form** (bit 3 = 1): every point in point-number order, as a
//! base-3 digit (0 empty, 1 black, 2 white), five points a byte, the first
//! point of the five the least significant digit (a byte is
//! `d0 + 3·d1 + 9·d2 + 27·d3 + 81·d4`, at most 242). 15×15 takes 45 bytes;
//! 19×19 takes 73, the last holding one point. With bit 4 set, the last
//! move's point number follows: one byte on 15×15, two (big-endian) on
//! 19×19.
//!
//! | form | 15×15 | 19×19 |
//! |---|---|---|
//! | move list, *n* moves | 1 + *n* bytes | 1 + ⌈9*n*/8⌉ bytes |
//! | grid | 46 bytes = 62 characters | 74 bytes = 99 characters |
//! | grid + last move | 47 bytes = 63 characters | 76 bytes = 102 characters |
//!
//! **Which form is canonical.** A position knows its move order when it
//! was played from the empty board (or read from a move-list code) and the
//! list is no longer than the grid with a last move: up to 46 moves on
//! 15×15 and 66 on 19×19. Such a position's code is the move list. Past that
//! length the position drops the order and keeps only the last move, and
//! its code is the grid with the last move; a board read from the rows form
//! has neither, and its code is the grid alone. A board of at most two
//! stones always knows its order (the colours tell it). So the code is
//! never longer than 63 characters on 15×15 (102 on 19×19), every position
//! has exactly one code, and `Position::from_code(&p.to_code()) == Ok(p)`.
//!
//! The reader is lenient on purpose: it reads either form whichever is
//! canonical, so a client may append moves to a move-list code past 46
//! moves, or write a grid of one or two stones, and get the position;
//! every answer then carries the canonical code. (Two texts decode to one
//! position; one position encodes to one text.)
//! The start positions are `AA` (freestyle 15×15), `AQ` (standard), `Ag`
//! (renju) and `BA` (freestyle 19×19).
//!
//! A code is refused, with the offset, byte, move or rule at fault, when it
//! is not base64 of whole bytes, sets reserved header bits, names rule set 3
//! or a size its rule set is not played on, has the wrong length for its
//! form, holds a grid byte above 242 or a point number off the board,
//! replays a move that is taken, forbidden or after the game ended, or
//! describes a board that play cannot reach: white ahead or black two
//! ahead, a last move that is not a stone of the side that moved last, a
//! winning line of the side to move, a win that no single last stone
//! completed (or not the given last move), or (Renju) a black overline
//! without a black five.
//!
//! # Rows form, setups and move lists
//!
//! One line per row, top row first, `.` empty, `x` black, `o` white; see
//! [`Position::from_rows`] and [`Position::to_rows`]. The rows are read
//! into a [`Setup`] (rule set, size, stones, last move), which
//! [`Position::from_setup`] checks. A move order is read with
//! [`Position::from_moves`], which names the 0-based index of the first
//! move that cannot be played ([`MovesError`]).

mod board;
mod code;
mod position;
mod renju;
mod rows;
mod types;

pub use code::CodeError;
pub use position::{IllegalMove, MovesError, Position, PositionError, Setup, SetupError};
pub use rows::RowsError;
pub use types::{
    Forbidden, ParseForbiddenError, ParsePointError, ParseStoneError, ParseVariantError, Point,
    Stone, Variant, MAX_SIZE,
};
