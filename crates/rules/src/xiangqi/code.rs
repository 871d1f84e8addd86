//! The 43-character state code.
//!
//! 32 bytes, one per piece slot, in the order red general, advisors ×2,
//! elephants ×2, horses ×2, chariots ×2, cannons ×2, soldiers ×5, then black in
//! the same order. Each byte is the piece's point, `row * 9 + file` with row 0
//! at black's back rank, or 90 when the piece is captured. The side to move
//! rides in the top bit of byte 0 (0 = red), so a red-to-move position has
//! exactly the code of the source article's layout. Same-kind pieces are
//! listed in ascending point order, so one position has one code. The bytes
//! are written as URL-safe base64 without padding (RFC 4648 §5): 43
//! characters, the last of which carries two zero bits.

use crate::code::{decode_fixed, encode, SyntaxError};
use crate::Reason;

use super::position::{PositionError, CAPTURED, SLOT_PIECE};
use super::types::{Piece, Side, Square};
use super::Position;

/// The start position's slots, as printed in the source article.
pub(crate) const START_SLOTS: [u8; 32] = [
    85, 84, 86, 83, 87, 82, 88, 81, 89, 64, 70, 54, 56, 58, 60, 62, 4, 3, 5, 2, 6, 1, 7, 0, 8, 19,
    25, 27, 29, 31, 33, 35,
];

/// Bytes behind every code.
const BYTES: usize = 32;

/// Length of every code, in characters.
pub const CODE_LEN: usize = crate::code::chars_for(BYTES);

/// Why a string is not a xiangqi code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64 of 32 bytes: the length, a padding or foreign
    /// character, or bits after the last byte.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The top bit of a byte other than the first is set.
    #[error("byte {byte} ({piece}) has its unused top bit set")]
    UnusedBitSet {
        /// Which byte, 1–31.
        byte: usize,
        /// The piece of that slot.
        piece: Piece,
    },
    /// A point value above 90.
    #[error("byte {byte} ({piece}) holds {value}, but points are 0–89 and 90 means captured")]
    SquareOutOfRange {
        /// Which byte, 0–31.
        byte: usize,
        /// The piece of that slot.
        piece: Piece,
        /// The value found.
        value: u8,
    },
    /// Two pieces on one point.
    #[error(
        "{first} (byte {first_byte}) and {second} (byte {second_byte}) both stand on {square}"
    )]
    TwoPiecesOnOnePoint {
        /// The point.
        square: Square,
        /// The first piece.
        first: Piece,
        /// Its byte.
        first_byte: usize,
        /// The second piece.
        second: Piece,
        /// Its byte.
        second_byte: usize,
    },
    /// The bytes are well formed but the position is impossible.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Reason for CodeError {
    fn reason(&self) -> &'static str {
        match self {
            CodeError::Syntax(e) => e.reason(),
            CodeError::UnusedBitSet { .. } => "unused-bit",
            CodeError::SquareOutOfRange { .. } => "square-out-of-range",
            CodeError::TwoPiecesOnOnePoint { .. } => "two-pieces-on-one-point",
            CodeError::Position(e) => e.reason(),
        }
    }
}

impl Position {
    /// The canonical 43-character code.
    pub fn to_code(&self) -> String {
        let mut bytes = self.slots();
        if self.turn() == Side::Black {
            bytes[0] |= 0x80;
        }
        encode(&bytes)
    }

    /// Reads a code. Same-kind pieces may come in any order.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte, point or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let mut bytes: [u8; BYTES] = decode_fixed(code, "xiangqi")?;
        let turn = if bytes[0] & 0x80 != 0 {
            Side::Black
        } else {
            Side::Red
        };
        bytes[0] &= 0x7f;
        for (byte, &v) in bytes.iter().enumerate() {
            let piece = SLOT_PIECE[byte];
            if v & 0x80 != 0 {
                return Err(CodeError::UnusedBitSet { byte, piece });
            }
            if v > CAPTURED {
                return Err(CodeError::SquareOutOfRange {
                    byte,
                    piece,
                    value: v,
                });
            }
        }
        let mut owner = [usize::MAX; 90];
        for (byte, &v) in bytes.iter().enumerate() {
            if v == CAPTURED {
                continue;
            }
            let first_byte = owner[v as usize];
            if first_byte != usize::MAX {
                return Err(CodeError::TwoPiecesOnOnePoint {
                    square: Square::new(v).unwrap_or_else(|| unreachable!("checked above")),
                    first: SLOT_PIECE[first_byte],
                    first_byte,
                    second: SLOT_PIECE[byte],
                    second_byte: byte,
                });
            }
            owner[v as usize] = byte;
        }
        Ok(Position::from_slots(bytes, turn)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_articles_code() {
        assert_eq!(
            Position::start().to_code(),
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM"
        );
    }
}
