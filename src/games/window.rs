//! The line xiangqi's repetition rules and move limit judge: a start
//! position with its FEN counters and the moves played since.
//!
//! [`History`](qipan_rules::xiangqi::History) needs only the moves since
//! the last capture (and the position before it) to reach every verdict,
//! so a [`Window`] keeps just that: the FEN, with its halfmove clock,
//! before the last capture (or of the line's start, when nothing was
//! captured) and the moves from there. A match keeps one beside its
//! position; a client of the stateless API sends one with a play and gets
//! the next one back.

use std::fmt;

use qipan_rules::xiangqi::{Counters, Fen, History, HistoryError, Move, Position};
use qipan_rules::{AnyPlayer, Status};

/// A start position with its counters, and the moves played since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The position the line starts from, with its halfmove clock and
    /// fullmove number.
    pub start: Fen,
    /// The moves played from it, in order.
    pub moves: Vec<Move>,
}

/// Why a window's moves cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// A move is not ICCS.
    #[error("move {index} ({text:?}) is not ICCS (four characters like h2e2)")]
    Syntax {
        /// Its index in the list, from 0.
        index: usize,
        /// What was given.
        text: String,
    },
    /// A move cannot be played where it stands.
    #[error(transparent)]
    Illegal(#[from] HistoryError),
}

impl Window {
    /// A line of no moves from `position` with `counters`.
    pub fn new(position: Position, counters: Counters) -> Window {
        Window {
            start: Fen { position, counters },
            moves: Vec::new(),
        }
    }

    /// Reads the moves of a window, given as ICCS strings.
    ///
    /// # Errors
    ///
    /// [`WindowError::Syntax`] naming the first move that is not ICCS.
    pub fn parse_moves<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Move>, WindowError> {
        texts
            .iter()
            .enumerate()
            .map(|(index, text)| {
                text.as_ref().parse().map_err(|_| WindowError::Syntax {
                    index,
                    text: text.as_ref().to_owned(),
                })
            })
            .collect()
    }

    /// The history of the line, its moves replayed.
    ///
    /// # Errors
    ///
    /// [`WindowError::Illegal`] naming the first move that cannot be
    /// played.
    pub fn history(&self) -> Result<History, WindowError> {
        Ok(History::with_moves(
            self.start.position.clone(),
            self.start.counters,
            &self.moves,
        )?)
    }

    /// The window of a history: cut to the position before its last
    /// capture, which every later verdict still sees the same way.
    pub fn of(history: &History) -> Window {
        let trimmed = history.trimmed();
        Window {
            start: Fen {
                position: trimmed.start().clone(),
                counters: trimmed.start_counters(),
            },
            moves: trimmed.moves().to_vec(),
        }
    }

    /// The same line with only its first `n` moves (a takeback).
    pub fn cut(&self, n: usize) -> Window {
        Window {
            start: self.start.clone(),
            moves: self.moves[..n.min(self.moves.len())].to_vec(),
        }
    }

    /// The moves, space-separated, as a match row keeps them.
    pub fn moves_text(&self) -> String {
        let mut out = String::with_capacity(self.moves.len() * 5);
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&m.to_string());
        }
        out
    }

    /// A window as a match row keeps it: the FEN and the space-separated
    /// moves; `None` when either does not read.
    pub fn stored(fen: &str, moves: &str) -> Option<Window> {
        let start: Fen = fen.parse().ok()?;
        let moves = moves
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<Vec<Move>, _>>()
            .ok()?;
        Some(Window { start, moves })
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} moves {}", self.start, self.moves_text())
    }
}

/// The verdict of a history, with the winner as the service names
/// players.
pub fn verdict(history: &History) -> Status<AnyPlayer> {
    history.verdict().map(AnyPlayer::Xiangqi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_window_reads_back() {
        let mut h = History::new(Position::start(), Counters::default());
        for m in ["h2e2", "h9g7", "e2e6"] {
            h.push(m.parse().expect("ICCS")).expect("legal");
        }
        let w = Window::of(&h);
        assert_eq!(w.moves_text(), "e2e6", "cut to the capture");
        let back = Window::stored(&w.start.to_string(), &w.moves_text()).expect("reads");
        assert_eq!(back, w);
        assert_eq!(back.history().expect("legal").fen(), h.fen());
    }

    #[test]
    fn a_bad_move_is_named_by_index() {
        let err = Window::parse_moves(&["h2e2", "h2"]).expect_err("h2 is no move");
        assert_eq!(
            err,
            WindowError::Syntax {
                index: 1,
                text: "h2".to_owned()
            }
        );
    }
}
