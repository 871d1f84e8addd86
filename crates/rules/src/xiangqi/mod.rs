//! Xiangqi (Chinese chess).
//!
//! Rules follow the Asian Xiangqi Federation / Chinese Xiangqi Association
//! basics that every engine agrees on: the general and advisors stay in the
//! palace; elephants stay on their own side on their seven points and are
//! blocked at the eye; horses are blocked at the leg; cannons capture over
//! exactly one screen; soldiers move forward only until across the river,
//! then sideways too; the two generals may never face each other on an open
//! file; no move may leave one's own general attacked. A side with no legal
//! move has lost, whether in check (checkmate) or not (stalemate).
//! Repetition and the 60-move rule need a game's history and are not part of
//! a single position.

mod code;
mod fen;
mod notation;
mod position;
mod tables;
mod types;

pub use code::{CodeError, CODE_LEN};
pub use fen::FenError;
pub use notation::{chinese, names, wxf, Name, Names};
pub use position::{IllegalMove, Position, PositionError, Setup};
pub use types::{
    Move, ParseMoveError, ParseSideError, ParseSquareError, Piece, Role, Side, Square,
};
