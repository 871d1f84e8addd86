//! The text layer every state code shares: URL-safe base64 without padding
//! (RFC 4648 §5), read strictly.
//!
//! Each game lays out its own bytes; this module turns them into text and
//! back, and says what is wrong with a text that is not base64 of whole
//! bytes. Keeping it in one place means one engine configuration and one set
//! of syntax errors, so the five games refuse the same bad text the same way
//! and in the same order: the empty string, then the first `=`, then the
//! first character outside `A–Z a–z 0–9 - _`, then the length, then bits
//! after the last byte. Offsets and lengths count characters, not bytes, so
//! a pasted non-ASCII character is named whole.
//!
//! ```
//! use qipan_rules::code::{decode, encode, Layout, SyntaxError};
//!
//! let layout = Layout::variable("gomoku");
//! assert_eq!(encode(&[0x04]), "BA");
//! assert_eq!(decode("BA", &layout), Ok(vec![0x04]));
//! assert_eq!(
//!     decode("BA=", &layout),
//!     Err(SyntaxError::Padding { offset: 2 })
//! );
//! ```

use std::fmt;

use base64::alphabet;
use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;

/// URL-safe alphabet, no padding written or accepted, and no set bits after
/// the last byte: so every byte string has exactly one code.
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(false),
);

/// The URL-safe alphabet in value order (RFC 4648 §5, table 2).
const ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Number of characters that `bytes` bytes take without padding.
pub const fn chars_for(bytes: usize) -> usize {
    (bytes * 8).div_ceil(6)
}

/// What a game's code looks like from outside: the game's name (for
/// messages) and, for a code of one fixed length, that length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The game's name as messages write it (`xiangqi`, `2048`).
    pub game: &'static str,
    /// The length of every code in characters, or `None` when the length
    /// depends on the position.
    pub chars: Option<usize>,
}

impl Layout {
    /// A code of always `bytes` bytes.
    pub const fn fixed(game: &'static str, bytes: usize) -> Layout {
        Layout {
            game,
            chars: Some(chars_for(bytes)),
        }
    }

    /// A code whose length depends on the position.
    pub const fn variable(game: &'static str) -> Layout {
        Layout { game, chars: None }
    }
}

/// Why a text is not base64 of whole bytes in a code's layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
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
    /// The empty string; for a fixed layout any other length; for a
    /// variable one a length of 4n + 1, which no whole number of bytes has.
    #[error("{}", WrongLengthText { game, length: *length, expected: *expected })]
    WrongLength {
        /// The game whose code was expected.
        game: &'static str,
        /// The length found, in characters.
        length: usize,
        /// The length of every code of a fixed layout.
        expected: Option<usize>,
    },
    /// The last character carries bits beyond the last byte.
    #[error("{}", TrailingBitsText { offset: *offset, character: *character, bytes: *bytes })]
    TrailingBits {
        /// Offset of the last character (the length less one).
        offset: usize,
        /// The last character.
        character: char,
        /// The bytes of every code of a fixed layout, which the message
        /// names with the last characters allowed.
        bytes: Option<usize>,
    },
}

/// The message of [`SyntaxError::WrongLength`].
struct WrongLengthText<'a> {
    game: &'a str,
    length: usize,
    expected: Option<usize>,
}

impl fmt::Display for WrongLengthText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.length, self.expected) {
            (0, _) => f.write_str("the code is empty"),
            (length, Some(expected)) => write!(
                f,
                "a {} code has {expected} characters, this one has {length}",
                self.game
            ),
            (length, None) => write!(
                f,
                "{length} characters do not make whole bytes in base64 (a length of 4n + 1 never does)"
            ),
        }
    }
}

/// The message of [`SyntaxError::TrailingBits`].
struct TrailingBitsText {
    offset: usize,
    character: char,
    bytes: Option<usize>,
}

impl fmt::Display for TrailingBitsText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let character = self.character;
        match self.bytes {
            Some(bytes) => {
                // The bits the last character carries past the last byte
                // must be zero: its value is a multiple of 2^spare.
                let spare = ((self.offset + 1) * 6).saturating_sub(bytes * 8) as u32;
                let step = 1usize << spare.min(6);
                let allowed: String = ALPHABET.chars().step_by(step).collect();
                write!(
                    f,
                    "the last character {character:?} sets bits beyond the {bytes} bytes of a code; it must be one of {allowed}"
                )
            }
            None => write!(
                f,
                "the last character {character:?} sets bits beyond the code's last byte"
            ),
        }
    }
}

impl crate::Reason for SyntaxError {
    fn reason(&self) -> &'static str {
        match self {
            SyntaxError::Padding { .. } => "padding",
            SyntaxError::InvalidCharacter { .. } => "invalid-character",
            SyntaxError::WrongLength { .. } => "wrong-length",
            SyntaxError::TrailingBits { .. } => "trailing-bits",
        }
    }
}

/// The code of `bytes`.
pub fn encode(bytes: &[u8]) -> String {
    ENGINE.encode(bytes)
}

/// The bytes of a code, after the checks every game makes in this order:
/// not empty, no `=`, only URL-safe characters, a length the layout allows,
/// no bits set after the last byte.
///
/// # Errors
///
/// The first [`SyntaxError`] found, in that order.
pub fn decode(code: &str, layout: &Layout) -> Result<Vec<u8>, SyntaxError> {
    let bytes = layout.chars.map(|chars| chars * 6 / 8);
    let wrong_length = |length| SyntaxError::WrongLength {
        game: layout.game,
        length,
        expected: layout.chars,
    };
    if code.is_empty() {
        return Err(wrong_length(0));
    }
    if let Some(offset) = code.chars().position(|c| c == '=') {
        return Err(SyntaxError::Padding { offset });
    }
    if let Some((offset, character)) = code
        .chars()
        .enumerate()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        return Err(SyntaxError::InvalidCharacter { offset, character });
    }
    // Only ASCII is left, so bytes are characters from here on.
    let length = code.len();
    let length_ok = match layout.chars {
        Some(chars) => length == chars,
        None => length % 4 != 1,
    };
    if !length_ok {
        return Err(wrong_length(length));
    }
    // The alphabet and the length are checked, so the only failure left is
    // a last character with bits set past the last byte.
    ENGINE.decode(code).map_err(|_| SyntaxError::TrailingBits {
        offset: length - 1,
        character: code
            .chars()
            .last()
            .expect("a code of the right length is not empty"),
        bytes,
    })
}

/// [`decode`] for a code of always `N` bytes, as an array.
///
/// # Errors
///
/// As [`decode`] with [`Layout::fixed`]`(game, N)`.
pub fn decode_fixed<const N: usize>(
    code: &str,
    game: &'static str,
) -> Result<[u8; N], SyntaxError> {
    let layout = Layout::fixed(game, N);
    let bytes = decode(code, &layout)?;
    // `chars_for(N)` characters always carry exactly `N` bytes.
    bytes.try_into().map_err(|_| SyntaxError::WrongLength {
        game,
        length: code.len(),
        expected: layout.chars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_is_in_value_order() {
        let decoded = ENGINE
            .decode(ALPHABET)
            .expect("64 characters make 48 bytes");
        assert_eq!(encode(&decoded), ALPHABET);
    }

    #[test]
    fn fixed_messages_name_the_allowed_last_characters() {
        let e = SyntaxError::TrailingBits {
            offset: 42,
            character: 'N',
            bytes: Some(32),
        };
        assert_eq!(
            e.to_string(),
            "the last character 'N' sets bits beyond the 32 bytes of a code; it must be one of AEIMQUYcgkosw048"
        );
        let e = SyntaxError::TrailingBits {
            offset: 25,
            character: 'B',
            bytes: Some(19),
        };
        assert!(e.to_string().ends_with("it must be one of AQgw"), "{e}");
    }
}
