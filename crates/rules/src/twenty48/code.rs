//! The 31-character state code (layout in the module documentation).

use crate::code::{decode_fixed, encode, SyntaxError};
use crate::Reason;

use super::board::{Board, MAX_EXP};
use super::position::GridError;
use super::Position;

/// Length of every code, in characters.
pub const CODE_LEN: usize = crate::code::chars_for(BYTES);

/// The layout version written in byte 0.
pub const CODE_VERSION: u8 = 1;

/// Bytes behind a code: version, 10 bytes of exponents, 4 of score, 8 of
/// generator state.
const BYTES: usize = 23;

/// Why a string is not a 2048 code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64 of 23 bytes: the length, a padding or foreign
    /// character, or bits after the last byte.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
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

impl Reason for CodeError {
    fn reason(&self) -> &'static str {
        match self {
            CodeError::Syntax(e) => e.reason(),
            CodeError::UnknownVersion { .. } => "unknown-version",
            CodeError::ExponentOutOfRange { .. } => "tile-out-of-range",
            CodeError::Grid(e) => e.reason(),
        }
    }
}

impl Position {
    /// The canonical 31-character code.
    pub fn to_code(&self) -> String {
        let mut cells: u128 = 0;
        for e in self.board().cells() {
            cells = (cells << 5) | u128::from(e);
        }
        let mut bytes = [0u8; BYTES];
        bytes[0] = CODE_VERSION;
        bytes[1..11].copy_from_slice(&cells.to_be_bytes()[6..]);
        bytes[11..15].copy_from_slice(&self.score_u32().to_be_bytes());
        bytes[15..23].copy_from_slice(&self.rng_state().to_be_bytes());
        encode(&bytes)
    }

    /// Reads a code.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte, cell or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let bytes: [u8; BYTES] = decode_fixed(code, "2048")?;
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
