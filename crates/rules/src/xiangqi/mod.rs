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
//!
//! A [`Position`] is one position and knows nothing of how it was reached.
//! The rules that need the game's past — repetition (a draw, or a loss for
//! a side that checks or chases perpetually) and the natural-move limit —
//! live in [`History`]: a start position with its FEN [`Counters`] and the
//! moves since, judged as Fairy-Stockfish's `xiangqi` variant judges them
//! (threefold occurrence; 100 plies without a capture, plus an allowance
//! for checks). Its documentation lists the rules, which chases are
//! detected, and where the Asian Xiangqi Federation's rule book would
//! differ. [`Position::key`] is the Zobrist key the history compares, and
//! [`Position::has_mating_material`] says whether a side could still win
//! when the other's clock runs out. [`Fen`] reads and writes a FEN with its
//! halfmove clock and fullmove number; [`Position::from_fen`] and
//! [`Position::to_fen`] go on dealing in the position alone.

mod code;
mod fen;
mod history;
mod key;
mod line;
mod material;
mod notation;
mod position;
mod tables;
mod types;

pub use code::{CodeError, CODE_LEN};
pub use fen::{Counters, Fen, FenError};
pub use history::{History, HistoryError, MOVE_LIMIT_PLIES, REPETITIONS};
pub use key::PositionKey;
pub use line::{Line, LineError};
pub use notation::{
    chinese, names, read_move, wxf, Candidate, Descriptive, Direction, Family, MoveText,
    MoveTextError, Name, Namer, Names, Numerals, ParseMoveTextError, Place, ResolveError, Which,
};
pub use position::{IllegalMove, Position, PositionError, Setup};
pub use types::{
    Move, ParseMoveError, ParseSideError, ParseSquareError, Piece, Role, Side, Square,
};
