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

use base64::alphabet;
use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;

use super::position::{PositionError, CAPTURED, SLOT_PIECE};
use super::types::{Piece, Side, Square};
use super::Position;

/// The start position's slots, as printed in the source article.
pub(crate) const START_SLOTS: [u8; 32] = [
    85, 84, 86, 83, 87, 82, 88, 81, 89, 64, 70, 54, 56, 58, 60, 62, 4, 3, 5, 2, 6, 1, 7, 0, 8, 19,
    25, 27, 29, 31, 33, 35,
];

/// Length of every code.
pub const CODE_LEN: usize = 43;

const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(false),
);

/// Why a string is not a xiangqi code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not 43 characters.
    #[error("a xiangqi code has {CODE_LEN} characters, this one has {length}")]
    WrongLength {
        /// The length found (in characters).
        length: usize,
    },
    /// A `=` padding character.
    #[error("padding '=' at offset {offset}: codes are written without padding")]
    Padding {
        /// Offset of the first `=`.
        offset: usize,
    },
    /// A character outside `A–Z a–z 0–9 - _`.
    #[error("character {character:?} at offset {offset} is not in the URL-safe base64 alphabet (A–Z a–z 0–9 - _)")]
    InvalidCharacter {
        /// Offset of the character, in characters.
        offset: usize,
        /// The character.
        character: char,
    },
    /// The last character carries bits beyond the 32 bytes.
    #[error("the last character {character:?} sets bits beyond the 32 bytes of a code; it must be one of AEIMQUYcgkosw048")]
    TrailingBits {
        /// The last character.
        character: char,
    },
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

impl Position {
    /// The canonical 43-character code.
    pub fn to_code(&self) -> String {
        let mut bytes = self.slots();
        if self.turn() == Side::Black {
            bytes[0] |= 0x80;
        }
        ENGINE.encode(bytes)
    }

    /// Reads a code. Same-kind pieces may come in any order.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte, point or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let length = code.chars().count();
        if let Some(offset) = code.chars().position(|c| c == '=') {
            return Err(CodeError::Padding { offset });
        }
        if let Some((offset, character)) = code
            .chars()
            .enumerate()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        {
            return Err(CodeError::InvalidCharacter { offset, character });
        }
        if length != CODE_LEN {
            return Err(CodeError::WrongLength { length });
        }
        let mut bytes = [0u8; 32];
        match ENGINE.decode_slice(code, &mut bytes) {
            Ok(32) => {}
            // The alphabet and length were checked above, so the only failure
            // left is a last character with non-zero trailing bits.
            _ => {
                return Err(CodeError::TrailingBits {
                    character: code.chars().last().unwrap_or('?'),
                })
            }
        }
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
