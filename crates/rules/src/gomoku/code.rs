//! The state code: a header byte, then a move list or a base-3 grid, in
//! URL-safe base64 without padding. The layout is documented in the module
//! documentation ([`super`]).

use crate::code::{decode, encode, Layout, SyntaxError};
use crate::Reason;

use super::board::Board;
use super::position::{IllegalMove, PositionError, SetupError};
use super::types::{Point, Variant};
use super::Position;

/// Codes of every length that makes whole bytes.
const LAYOUT: Layout = Layout::variable("gomoku");

/// Header bit: the board is 19×19 (else 15×15).
const SIZE_19: u8 = 0b0000_0100;
/// Header bit: the grid form (else the move-list form).
const GRID: u8 = 0b0000_1000;
/// Header bit, grid form only: a last-move point follows the grid.
const LAST: u8 = 0b0001_0000;
/// Header bits that are always zero.
const RESERVED: u8 = 0b1110_0000;

/// Bytes of the base-3 grid of a `size`×`size` board: five points a byte.
fn grid_bytes(size: u8) -> usize {
    (size as usize * size as usize).div_ceil(5)
}

/// Bytes of a last-move point in the grid form.
fn last_bytes(size: u8) -> usize {
    if size == 15 {
        1
    } else {
        2
    }
}

/// Why a string is not a gomoku code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64 of whole bytes: empty, a padding or foreign character,
    /// a length of 4n + 1, or bits after the last byte.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Header bits that the layout leaves zero are set.
    #[error("header byte {header:#010b} sets bits the layout leaves zero (bits 5–7; bit 4 outside the grid form)")]
    HeaderBits {
        /// The header byte.
        header: u8,
    },
    /// The rule-set bits of the header are 3.
    #[error("header byte {header:#010b} names rule set 3; 0 is freestyle, 1 standard, 2 renju")]
    UnknownVariant {
        /// The header byte.
        header: u8,
    },
    /// The header names a size the rule set is not played on.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A grid code of the wrong length.
    #[error("a {size}×{size} grid code {with} the last move has {expected} characters, this one has {length}", with = if *with_last { "with" } else { "without" })]
    GridLength {
        /// The board side.
        size: u8,
        /// Whether the header announces a last move.
        with_last: bool,
        /// The length found, in characters.
        length: usize,
        /// The length the header calls for, in characters.
        expected: usize,
    },
    /// A 19×19 move list whose bytes hold no whole number of 9-bit moves.
    #[error(
        "a 19×19 move list packs 9 bits a move; {length} characters hold no whole number of moves"
    )]
    MoveListLength {
        /// The length found, in characters.
        length: usize,
    },
    /// The zero bits after a 19×19 move list are not zero.
    #[error("the bits after the last move of a 19×19 move list must be zero")]
    MoveListPadding,
    /// A grid byte above what its base-3 digits can make.
    #[error("grid byte {byte} holds {value}; five points of three states make at most {max}")]
    GridValue {
        /// Offset of the byte in the decoded code (the header is byte 0).
        byte: usize,
        /// The value found.
        value: u8,
        /// The largest value the byte may hold.
        max: u8,
    },
    /// A move's point index beyond the board.
    #[error("move {number} is point index {value}, but a {size}×{size} board has points 0–{}", *size as u16 * *size as u16 - 1)]
    MoveOutOfRange {
        /// The move number, 1 for black's first.
        number: usize,
        /// The index found.
        value: u16,
        /// The board side.
        size: u8,
    },
    /// The last move's point index beyond the board.
    #[error("the last move is point index {value}, but a {size}×{size} board has points 0–{}", *size as u16 * *size as u16 - 1)]
    LastMoveOutOfRange {
        /// The index found.
        value: u16,
        /// The board side.
        size: u8,
    },
    /// A move of the list that cannot be played where it stands.
    #[error("move {number} ({point}) cannot be played: {reason}")]
    IllegalMove {
        /// The move number, 1 for black's first.
        number: usize,
        /// Its point.
        point: Point,
        /// Why not (taken, forbidden, game already over).
        reason: IllegalMove,
    },
    /// The grid is read but cannot arise in a game.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Reason for CodeError {
    fn reason(&self) -> &'static str {
        match self {
            CodeError::Syntax(e) => e.reason(),
            CodeError::GridLength { .. } | CodeError::MoveListLength { .. } => "wrong-length",
            CodeError::MoveListPadding => "trailing-bits",
            CodeError::HeaderBits { .. } => "header-bits",
            CodeError::UnknownVariant { .. } => "unknown-variant",
            CodeError::Setup(e) => e.reason(),
            CodeError::GridValue { .. } => "grid-value",
            CodeError::MoveOutOfRange { .. } | CodeError::LastMoveOutOfRange { .. } => {
                "point-out-of-range"
            }
            CodeError::IllegalMove { .. } => "illegal-move",
            CodeError::Position(e) => e.reason(),
        }
    }
}

impl Position {
    /// The canonical code: the move-list form when the position knows its
    /// move order, the grid form otherwise (see the module documentation).
    pub fn to_code(&self) -> String {
        let size = self.size();
        let mut header = self.variant().code_bits();
        if size == 19 {
            header |= SIZE_19;
        }
        let mut bytes = Vec::with_capacity(1 + grid_bytes(size) + 2);
        match self.moves() {
            Some(moves) if size == 15 => {
                bytes.push(header);
                bytes.extend(moves.iter().map(|p| p.index_on(size) as u8));
            }
            Some(moves) => {
                bytes.push(header);
                let mut acc: u32 = 0;
                let mut bits = 0;
                for p in moves {
                    acc = (acc << 9) | p.index_on(size) as u32;
                    bits += 9;
                    while bits >= 8 {
                        bits -= 8;
                        bytes.push((acc >> bits) as u8);
                    }
                    acc &= (1 << bits) - 1;
                }
                if bits > 0 {
                    bytes.push((acc << (8 - bits)) as u8);
                }
            }
            None => {
                header |= GRID;
                if self.last_move().is_some() {
                    header |= LAST;
                }
                bytes.push(header);
                let cells: Vec<u8> = self.cells().collect();
                for chunk in cells.chunks(5) {
                    bytes.push(chunk.iter().rev().fold(0, |acc, &d| acc * 3 + d));
                }
                if let Some(p) = self.last_move() {
                    let i = p.index_on(size);
                    if size == 15 {
                        bytes.push(i as u8);
                    } else {
                        bytes.push((i >> 8) as u8);
                        bytes.push(i as u8);
                    }
                }
            }
        }
        encode(&bytes)
    }

    /// Reads a code. Both forms are read whichever is canonical, so a move
    /// list longer than the grid form is accepted (its position then keeps
    /// only the last move, and its canonical code is the grid).
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte, move or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let bytes = decode(code, &LAYOUT)?;
        // Only URL-safe ASCII is left, so bytes are characters.
        let length = code.len();
        let Some((&header, body)) = bytes.split_first() else {
            // A text that decodes has at least two characters, so one byte.
            return Err(SyntaxError::WrongLength {
                game: LAYOUT.game,
                length,
                expected: None,
            }
            .into());
        };
        if header & RESERVED != 0 || (header & GRID == 0 && header & LAST != 0) {
            return Err(CodeError::HeaderBits { header });
        }
        let variant = match header & 0b11 {
            0 => Variant::Freestyle,
            1 => Variant::Standard,
            2 => Variant::Renju,
            _ => return Err(CodeError::UnknownVariant { header }),
        };
        let size = if header & SIZE_19 != 0 { 19 } else { 15 };
        let start = Position::new(variant, size)?;
        if header & GRID == 0 {
            read_move_list(start, body, length)
        } else {
            read_grid(variant, size, header & LAST != 0, body, length)
        }
    }
}

/// Plays the moves of a move-list body from the empty board.
fn read_move_list(start: Position, body: &[u8], length: usize) -> Result<Position, CodeError> {
    let size = start.size();
    let indices: Vec<u16> = if size == 15 {
        body.iter().map(|&b| u16::from(b)).collect()
    } else {
        let n = body.len() * 8 / 9;
        if (9 * n).div_ceil(8) != body.len() {
            return Err(CodeError::MoveListLength { length });
        }
        let mut out = Vec::with_capacity(n);
        let (mut acc, mut bits) = (0u32, 0);
        for &b in body {
            acc = (acc << 8) | u32::from(b);
            bits += 8;
            if bits >= 9 && out.len() < n {
                bits -= 9;
                out.push((acc >> bits) as u16);
                acc &= (1 << bits) - 1;
            }
        }
        if acc != 0 {
            return Err(CodeError::MoveListPadding);
        }
        out
    };
    let mut pos = start;
    for (i, &value) in indices.iter().enumerate() {
        let number = i + 1;
        let point = Point::from_index(value as usize, size).ok_or(CodeError::MoveOutOfRange {
            number,
            value,
            size,
        })?;
        pos.place(point).map_err(|reason| CodeError::IllegalMove {
            number,
            point,
            reason,
        })?;
    }
    Ok(pos)
}

/// Unpacks a grid body (and its last move) and checks the board.
fn read_grid(
    variant: Variant,
    size: u8,
    with_last: bool,
    body: &[u8],
    length: usize,
) -> Result<Position, CodeError> {
    let grid = grid_bytes(size);
    let expected = 1 + grid + if with_last { last_bytes(size) } else { 0 };
    if body.len() + 1 != expected {
        return Err(CodeError::GridLength {
            size,
            with_last,
            length,
            expected: crate::code::chars_for(expected),
        });
    }
    let points = size as usize * size as usize;
    let mut board = Board::new(size);
    for (k, &value) in body[..grid].iter().enumerate() {
        let digits = (points - 5 * k).min(5);
        let max = (3u16.pow(digits as u32) - 1) as u8;
        if value > max {
            return Err(CodeError::GridValue {
                byte: k + 1,
                value,
                max,
            });
        }
        let mut v = value;
        for j in 0..digits {
            let d = v % 3;
            v /= 3;
            if let Some(p) = Point::from_index(5 * k + j, size) {
                board.set(p.col() as i8, p.row() as i8, d);
            }
        }
    }
    let last = if with_last {
        let value = match body[grid..] {
            [i] => u16::from(i),
            [hi, lo] => u16::from(hi) << 8 | u16::from(lo),
            _ => unreachable!("the length was checked"),
        };
        Some(
            Point::from_index(value as usize, size)
                .ok_or(CodeError::LastMoveOutOfRange { value, size })?,
        )
    } else {
        None
    };
    Ok(Position::from_board(variant, board, last)?)
}
