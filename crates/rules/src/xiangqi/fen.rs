//! FEN, as Pikafish, Fairy-Stockfish and UCCI tools write it:
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks run from black's back rank (first) to red's (last); upper case is
//! red. Elephants and horses may be written `B`/`N` or `E`/`H`; the side to
//! move `w` (or `r`) for red and `b` for black.
//!
//! The trailing `- - <halfmove clock> <fullmove number>` is optional on
//! input. [`Position::from_fen`] and [`Position::to_fen`] deal in positions
//! alone: they check the counters' syntax, drop them, and write `- - 0 1`.
//! [`Fen`] keeps them: the halfmove clock counts the plies since the last
//! capture (as Fairy-Stockfish counts it for xiangqi: only a capture resets
//! it, a soldier's move does not, since xiangqi has no irreversible move
//! besides a capture that a rule needs to know of), and the fullmove number
//! starts at 1 and grows after black's move. Missing counters read as
//! `0 1`; a fullmove number of 0, which some tools write, reads as 1, as
//! Fairy-Stockfish reads it.

use std::fmt;
use std::str::FromStr;

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

/// The two move counters a FEN carries after the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counters {
    /// Plies since the last capture (or since the game's start): the
    /// natural-move counter that the move limit is judged by.
    pub halfmove_clock: u32,
    /// The number of the move being played, from 1, counting a red move and
    /// black's reply as one.
    pub fullmove_number: u32,
}

impl Default for Counters {
    /// `0 1`, the counters of a game's start.
    fn default() -> Counters {
        Counters {
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl Counters {
    /// The counters after one more ply by `mover`: the clock goes back to
    /// 0 on a capture, and the move number grows after black's move.
    pub fn after(self, mover: Side, capture: bool) -> Counters {
        Counters {
            halfmove_clock: if capture {
                0
            } else {
                self.halfmove_clock.saturating_add(1)
            },
            fullmove_number: match mover {
                Side::Red => self.fullmove_number,
                Side::Black => self.fullmove_number.saturating_add(1),
            },
        }
    }
}

/// A FEN with its move counters: a position and how far the game has gone.
///
/// `FromStr` reads what [`Position::from_fen`] reads and keeps the
/// counters; `Display` writes them back, so a FEN in the canonical form
/// (`w`/`b`, `B`/`N` letters, all six fields) round-trips exactly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fen {
    /// The position.
    pub position: Position,
    /// The halfmove clock and the fullmove number.
    pub counters: Counters,
}

impl FromStr for Fen {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Fen, FenError> {
        let (setup, counters) = parse(text)?;
        Ok(Fen {
            position: Position::from_setup(&setup)?,
            counters,
        })
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position.to_fen_with(self.counters))
    }
}

impl Setup {
    /// Reads the board and side of a FEN without checking that the position
    /// could arise in a game.
    ///
    /// # Errors
    ///
    /// A [`FenError`] naming the rank and character at fault.
    pub fn from_fen(text: &str) -> Result<Setup, FenError> {
        parse(text).map(|(setup, _)| setup)
    }
}

/// Reads a FEN's board, side and counters.
fn parse(text: &str) -> Result<(Setup, Counters), FenError> {
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
    let mut counters = Counters::default();
    for (i, &(offset, field)) in fields.iter().enumerate().skip(2) {
        let ok = match i {
            2 | 3 => field == "-",
            4 => field
                .parse::<u32>()
                .map(|n| counters.halfmove_clock = n)
                .is_ok(),
            5 => field
                .parse::<u32>()
                .map(|n| counters.fullmove_number = n.max(1))
                .is_ok(),
            _ => false,
        };
        if !ok {
            return Err(FenError::InvalidTrailer {
                found: field.to_owned(),
                offset,
            });
        }
    }
    Ok((setup, counters))
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
        self.to_fen_with(Counters::default())
    }

    /// The FEN, with `w`/`b`, `- -` and the given counters. (Written
    /// without the formatting machinery but for the counters: every state
    /// view carries it.)
    pub fn to_fen_with(&self, counters: Counters) -> String {
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
                            out.push(empty_run(empty));
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                out.push(empty_run(empty));
            }
        }
        // What `write!(out, " {} - - {} {}", …)` writes, without the
        // formatting machinery: every xiangqi view carries a FEN.
        out.push_str(match self.turn() {
            Side::Red => " w - - ",
            Side::Black => " b - - ",
        });
        push_decimal(&mut out, counters.halfmove_clock);
        out.push(' ');
        push_decimal(&mut out, counters.fullmove_number);
        out
    }
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut rest = n;
    let mut len = 0;
    loop {
        digits[len] = (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in digits[..len].iter().rev() {
        out.push(char::from(b'0' + d));
    }
}

/// The digit of a run of 1 to 9 empty points in a FEN rank (a rank has nine
/// points).
fn empty_run(count: u8) -> char {
    debug_assert!((1..=9).contains(&count), "a run of {count} points");
    char::from(b'0' + count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_written_in_decimal() {
        for n in [0, 7, 9, 10, 99, 100, 4_000_000, u32::MAX] {
            let mut out = String::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string());
        }
        let counters = Counters {
            halfmove_clock: 120,
            fullmove_number: 1_000_001,
        };
        let fen = Position::start().to_fen_with(counters);
        assert!(fen.ends_with(" w - - 120 1000001"), "{fen}");
    }
}
