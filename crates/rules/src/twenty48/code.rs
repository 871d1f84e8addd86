//! The 31-character state code (layout in the module documentation).

use base64::alphabet;
use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;

use super::board::{Board, MAX_EXP};
use super::position::GridError;
use super::Position;

/// Length of every code, in characters.
pub const CODE_LEN: usize = 31;

/// The layout version written in byte 0.
pub const CODE_VERSION: u8 = 1;

/// Bytes behind a code: version, 10 bytes of exponents, 4 of score, 8 of
/// generator state.
const BYTES: usize = 23;

const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(false),
);

/// Why a string is not a 2048 code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not 31 characters.
    #[error("a 2048 code has {CODE_LEN} characters, this one has {length}")]
    WrongLength {
        /// The length found, in characters.
        length: usize,
    },
    /// A `=` padding character.
    #[error("padding '=' at offset {offset}: codes are written without padding")]
    Padding {
        /// Offset of the first `=`, in characters.
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
    /// The last character carries bits beyond the 23 bytes.
    #[error("the last character {character:?} sets bits beyond the 23 bytes of a code; it must be one of AEIMQUYcgkosw048")]
    TrailingBits {
        /// The last character.
        character: char,
    },
    /// Byte 0 is not a known layout version.
    #[error("version byte {version}: this is not a 2048 code of a known layout (the current version is {CODE_VERSION})")]
    UnknownVersion {
        /// The version byte found.
        version: u8,
    },
    /// A 5-bit cell above 17 (131072 = 2^17 is the largest tile).
    #[error("row {row}, column {col} holds exponent {exponent}, but tiles go up to 2^17 = 131072")]
    ExponentOutOfRange {
        /// Row, 0 = top.
        row: u8,
        /// Column, 0 = left.
        col: u8,
        /// The exponent found, 18–31.
        exponent: u8,
    },
    /// The fields are well formed but do not make a position.
    #[error(transparent)]
    Grid(#[from] GridError),
}

impl Position {
    /// The canonical 31-character code.
    pub fn to_code(&self) -> String {
        let mut cells: u128 = 0;
        for row in self.board().exponents() {
            for e in row {
                cells = (cells << 5) | u128::from(e);
            }
        }
        let mut bytes = [0u8; BYTES];
        bytes[0] = CODE_VERSION;
        bytes[1..11].copy_from_slice(&cells.to_be_bytes()[6..]);
        bytes[11..15].copy_from_slice(&self.score_u32().to_be_bytes());
        bytes[15..23].copy_from_slice(&self.rng_state().to_be_bytes());
        ENGINE.encode(bytes)
    }

    /// Reads a code.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte, cell or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
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
        let length = code.chars().count();
        if length != CODE_LEN {
            return Err(CodeError::WrongLength { length });
        }
        let mut bytes = [0u8; BYTES];
        match ENGINE.decode_slice(code, &mut bytes) {
            Ok(BYTES) => {}
            // Alphabet and length are checked above, so the only failure
            // left is a last character with non-zero trailing bits.
            _ => {
                return Err(CodeError::TrailingBits {
                    character: code.chars().last().unwrap_or('?'),
                })
            }
        }
        if bytes[0] != CODE_VERSION {
            return Err(CodeError::UnknownVersion { version: bytes[0] });
        }
        let mut wide = [0u8; 16];
        wide[6..].copy_from_slice(&bytes[1..11]);
        let cells = u128::from_be_bytes(wide);
        let mut board = Board::EMPTY;
        for row in 0..4 {
            for col in 0..4 {
                let shift = 5 * (15 - (4 * row + col));
                let exponent = ((cells >> shift) & 0x1F) as u8;
                if exponent > MAX_EXP {
                    return Err(CodeError::ExponentOutOfRange {
                        row: row as u8,
                        col: col as u8,
                        exponent,
                    });
                }
                board = board.with(row, col, exponent);
            }
        }
        let mut score = [0u8; 4];
        score.copy_from_slice(&bytes[11..15]);
        let mut rng = [0u8; 8];
        rng.copy_from_slice(&bytes[15..23]);
        Ok(Position::from_parts(
            board,
            u64::from(u32::from_be_bytes(score)),
            u64::from_be_bytes(rng),
        )?)
    }
}
