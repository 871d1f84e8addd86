//! Quoridor records: the algebraic move list players write (`e2 e8 e3h …`):
//! a pawn's move is the square it goes to (`e2`), a wall the square at its
//! top-left end (seen from the first player) and `h` or `v`. Move numbers
//! (`1.`) are skipped; the writer numbers each pair of moves.
//!
//! The reader checks the notation; whether a move is legal is for the
//! rules to say as the record is played.

use qipan_rules::quoridor::Action;

use crate::MAX_INPUT_BYTES;

/// Why a text is not a Quoridor move list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuoridorError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the file has {size} bytes, more than the {limit} a record may have")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not UTF-8.
    #[error("byte {offset} is not UTF-8 (a move list is plain ASCII)")]
    Encoding {
        /// The first bad byte.
        offset: usize,
    },
    /// A word that is not a move.
    #[error(
        "move {number} ({text:?}, line {line}) is not a move: a square like e2, or a wall like e3h"
    )]
    BadMove {
        /// The move's number, from 1.
        number: usize,
        /// Its text.
        text: String,
        /// Its line, from 1.
        line: usize,
    },
    /// No move at all.
    #[error("the record has no move")]
    Empty,
}

impl qipan_rules::Reason for QuoridorError {
    fn reason(&self) -> &'static str {
        match self {
            QuoridorError::TooLarge { .. } => "too-large",
            QuoridorError::Encoding { .. } => "bad-encoding",
            QuoridorError::BadMove { .. } => "unreadable-move",
            QuoridorError::Empty => "no-game",
        }
    }
}

/// The moves of a move list.
///
/// # Errors
///
/// [`QuoridorError`]: too large, not UTF-8, a word that is not a move, no
/// move.
pub fn read_moves(bytes: &[u8]) -> Result<Vec<Action>, QuoridorError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(QuoridorError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| QuoridorError::Encoding {
        offset: e.valid_up_to(),
    })?;
    let mut moves = Vec::new();
    for (line, word) in crate::move_words(text) {
        let action: Action =
            word.to_ascii_lowercase()
                .parse()
                .map_err(|_| QuoridorError::BadMove {
                    number: moves.len() + 1,
                    text: word.to_owned(),
                    line,
                })?;
        moves.push(action);
    }
    if moves.is_empty() {
        return Err(QuoridorError::Empty);
    }
    Ok(moves)
}

/// A move list numbered by pairs: `1. e2 e8\n2. e3h …`.
pub fn write_moves(moves: &[Action]) -> String {
    crate::gomoku::write_moves(moves)
}

/// [`write_moves`] of moves already written in the notation.
pub fn write_texts<T: AsRef<str>>(moves: &[T]) -> String {
    let texts: Vec<&str> = moves.iter().map(AsRef::as_ref).collect();
    crate::gomoku::write_moves(&texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_and_write_back() {
        let moves = read_moves(b"1. e2 e8\n2. e3h E7\n3. d3v").unwrap();
        let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(texts, ["e2", "e8", "e3h", "e7", "d3v"]);
        let written = write_moves(&moves);
        assert_eq!(written, "1. e2 e8\n2. e3h e7\n3. d3v\n");
        assert_eq!(read_moves(written.as_bytes()).unwrap(), moves);
    }

    #[test]
    fn bad_words_are_named() {
        assert_eq!(
            read_moves(b"e2 e8\nz9x"),
            Err(QuoridorError::BadMove {
                number: 3,
                text: "z9x".into(),
                line: 2
            })
        );
        assert_eq!(read_moves(b"1. 2."), Err(QuoridorError::Empty));
    }
}
