//! FEN, as Pikafish, Fairy-Stockfish and UCCI tools write it:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks run from black's back rank (first) to red's (last); upper case is
//! red. Elephants and horses may be written `B`/`N` or `E`/`H`; the side to
//! move `w` (or `r`) for red and `b` for black. The trailing `- - 0 1` is
//! optional on input and always written on output.

use std::fmt::Write as _;

use super::position::{PositionError, Setup};
use super::types::{Piece, Role, Side, Square};
use super::Position;

/// Why a string is not a xiangqi FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but whitespace.
    #[error("the FEN is empty")]
    Empty,
    /// Not ten ranks.
    #[error("the board part has {found} ranks separated by '/', a xiangqi board has 10")]
    WrongRankCount {
        /// How many ranks were found.
        found: usize,
    },
    /// A character that is no piece letter or digit.
    #[error("rank {rank} (counted from the top, 1–10), character {character:?} at offset {offset}: not a piece letter (KABNRCP / EH, upper case red) or a digit 1–9")]
    InvalidCharacter {
        /// Rank, 1 = black's back rank.
        rank: usize,
        /// Offset in the whole FEN, in characters.
        offset: usize,
        /// The character.
        character: char,
    },
    /// A rank with more than nine points.
    #[error("rank {rank} (counted from the top, 1–10) covers more than 9 points")]
    RankTooLong {
        /// Rank, 1 = black's back rank.
        rank: usize,
        /// Offset of the character that went past the ninth point.
        offset: usize,
    },
    /// A rank with fewer than nine points.
    #[error("rank {rank} (counted from the top, 1–10) covers {points} points, it needs 9")]
    RankTooShort {
        /// Rank, 1 = black's back rank.
        rank: usize,
        /// How many points it covers.
        points: usize,
    },
    /// No side to move after the board.
    #[error("the side to move is missing after the board: add ' w' (red) or ' b' (black)")]
    MissingSide,
    /// A side to move other than `w`, `r` or `b`.
    #[error(
        "side to move {found:?} at offset {offset}: expected 'w' (or 'r') for red, 'b' for black"
    )]
    InvalidSide {
        /// What was found.
        found: String,
        /// Its offset in the FEN.
        offset: usize,
    },
    /// Fields after the side that are not `- - <halfmoves> <moves>`.
    #[error("unexpected {found:?} at offset {offset}: after the side to move only '- - <halfmove clock> <move number>' may follow")]
    InvalidTrailer {
        /// The offending field.
        found: String,
        /// Its offset in the FEN.
        offset: usize,
    },
    /// The board is read but cannot arise in a game.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl crate::Reason for FenError {
    fn reason(&self) -> &'static str {
        match self {
            FenError::Empty => "empty",
            FenError::WrongRankCount { .. } => "wrong-rank-count",
            FenError::InvalidCharacter { .. } => "invalid-character",
            FenError::RankTooLong { .. } => "rank-too-long",
            FenError::RankTooShort { .. } => "rank-too-short",
            FenError::MissingSide => "missing-side",
            FenError::InvalidSide { .. } => "invalid-side",
            FenError::InvalidTrailer { .. } => "invalid-trailer",
            FenError::Position(e) => crate::Reason::reason(e),
        }
    }
}

/// Splits on single spaces, keeping each field's character offset.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, (byte, c)) in text.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((i, byte)),
            (true, Some((ci, b))) => {
                out.push((ci, &text[b..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((ci, b)) = start {
        out.push((ci, &text[b..]));
    }
    out
}

impl Setup {
    /// Reads the board and side of a FEN without checking that the position
    /// could arise in a game.
    ///
    /// # Errors
    ///
    /// A [`FenError`] naming the rank and character at fault.
    pub fn from_fen(text: &str) -> Result<Setup, FenError> {
        let fields = fields(text);
        let Some(&(board_offset, board)) = fields.first() else {
            return Err(FenError::Empty);
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::WrongRankCount { found: ranks.len() });
        }
        let mut setup = Setup::empty();
        let mut offset = board_offset;
        for (row, rank) in ranks.iter().enumerate() {
            let number = row + 1;
            let mut file = 0usize;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(role) = Role::from_fen_letter(c) {
                    let side = if c.is_ascii_uppercase() {
                        Side::Red
                    } else {
                        Side::Black
                    };
                    if file < 9 {
                        setup.board[row * 9 + file] = Some(Piece { side, role });
                    }
                    file += 1;
                } else {
                    return Err(FenError::InvalidCharacter {
                        rank: number,
                        offset,
                        character: c,
                    });
                }
                if file > 9 {
                    return Err(FenError::RankTooLong {
                        rank: number,
                        offset,
                    });
                }
                offset += 1;
            }
            if file < 9 {
                return Err(FenError::RankTooShort {
                    rank: number,
                    points: file,
                });
            }
            offset += 1; // the '/'
        }
        let Some(&(side_offset, side)) = fields.get(1) else {
            return Err(FenError::MissingSide);
        };
        setup.turn = match side {
            "w" | "r" => Side::Red,
            "b" => Side::Black,
            _ => {
                return Err(FenError::InvalidSide {
                    found: side.to_owned(),
                    offset: side_offset,
                })
            }
        };
        for (i, &(offset, field)) in fields.iter().enumerate().skip(2) {
            let ok = match i {
                2 | 3 => field == "-",
                4 | 5 => field.parse::<u32>().is_ok(),
                _ => false,
            };
            if !ok {
                return Err(FenError::InvalidTrailer {
                    found: field.to_owned(),
                    offset,
                });
            }
        }
        Ok(setup)
    }
}

impl Position {
    /// Reads a FEN and checks the position.
    ///
    /// # Errors
    ///
    /// A [`FenError`] for the syntax, or [`FenError::Position`] when the
    /// board cannot arise in a game.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(&Setup::from_fen(text)?)?)
    }

    /// The FEN, with `w`/`b` and the trailing `- - 0 1`.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(64);
        for row in 0..10u8 {
            if row > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for file in 0..9u8 {
                let piece = Square::from_file_row(file, row).and_then(|s| self.piece_at(s));
                match piece {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
        }
        out.push_str(match self.turn() {
            Side::Red => " w - - 0 1",
            Side::Black => " b - - 0 1",
        });
        out
    }
}
