//! The line the repetition rules and the move limit judge, in the form it
//! is kept and sent: a start position with its FEN counters, and the moves
//! played since.
//!
//! A [`History`] reaches every verdict from the moves since the last
//! capture and the position before it, so a [`Line`] cut by [`Line::of`]
//! keeps just that: the FEN, with its halfmove clock, before the last
//! capture (or of the line's start, when nothing was captured) and the
//! moves from there. Replayed ([`Line::history`]) it judges the next moves
//! as the whole game would.

use std::fmt;

use super::fen::{Counters, Fen};
use super::history::{History, HistoryError};
use super::position::Position;
use super::types::Move;

/// A start position with its counters, and the moves played since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The position the line starts from, with its halfmove clock and
    /// fullmove number.
    pub start: Fen,
    /// The moves played from it, in order.
    pub moves: Vec<Move>,
}

/// Why a line's moves cannot be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
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

impl Line {
    /// A line of no moves from `position` with `counters`.
    pub fn new(position: Position, counters: Counters) -> Line {
        Line {
            start: Fen { position, counters },
            moves: Vec::new(),
        }
    }

    /// Reads the moves of a line, given as ICCS strings.
    ///
    /// # Errors
    ///
    /// [`LineError::Syntax`] naming the first move that is not ICCS.
    pub fn parse_moves<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Move>, LineError> {
        texts
            .iter()
            .enumerate()
            .map(|(index, text)| {
                text.as_ref().parse().map_err(|_| LineError::Syntax {
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
    /// [`LineError::Illegal`] naming the first move that cannot be played.
    pub fn history(&self) -> Result<History, LineError> {
        Ok(History::with_moves(
            self.start.position.clone(),
            self.start.counters,
            &self.moves,
        )?)
    }

    /// The line of a history: cut to the position before its last
    /// capture, which every later verdict still sees the same way.
    pub fn of(history: &History) -> Line {
        let trimmed = history.trimmed();
        Line {
            start: Fen {
                position: trimmed.start().clone(),
                counters: trimmed.start_counters(),
            },
            moves: trimmed.moves().to_vec(),
        }
    }

    /// The same line with only its first `n` moves (a takeback).
    pub fn cut(&self, n: usize) -> Line {
        Line {
            start: self.start.clone(),
            moves: self.moves[..n.min(self.moves.len())].to_vec(),
        }
    }

    /// The moves in ICCS, space-separated (as a match row keeps them).
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

    /// A line from its FEN and its space-separated ICCS moves (as
    /// [`Line::moves_text`] writes them); `None` when either does not read.
    pub fn read(fen: &str, moves: &str) -> Option<Line> {
        let start: Fen = fen.parse().ok()?;
        let moves = moves
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<Vec<Move>, _>>()
            .ok()?;
        Some(Line { start, moves })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} moves {}", self.start, self.moves_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_line_reads_back() {
        let mut h = History::new(Position::start(), Counters::default());
        for m in ["h2e2", "h9g7", "e2e6"] {
            h.push(m.parse().expect("ICCS")).expect("legal");
        }
        let line = Line::of(&h);
        assert_eq!(line.moves_text(), "e2e6", "cut to the capture");
        let back = Line::read(&line.start.to_string(), &line.moves_text()).expect("reads");
        assert_eq!(back, line);
        assert_eq!(back.history().expect("legal").fen(), h.fen());
    }

    #[test]
    fn a_bad_move_is_named_by_index() {
        let err = Line::parse_moves(&["h2e2", "h2"]).expect_err("h2 is no move");
        assert_eq!(
            err,
            LineError::Syntax {
                index: 1,
                text: "h2".to_owned()
            }
        );
    }

    #[test]
    fn a_line_is_cut_to_its_last_capture_and_reads_back() {
        let start = Position::start();
        let mut history = History::new(start.clone(), Counters::default());
        // Cannons trade on the centre file: the line starts again before
        // the capture.
        for m in ["h2e2", "h7e7", "e2e6", "e7e3"] {
            history.push(m.parse().unwrap()).unwrap();
        }
        let line = Line::of(&history);
        assert!(line.moves.len() < 4);
        assert_eq!(
            line.history().unwrap().verdict(),
            history.verdict(),
            "the cut line judges as the whole"
        );
        let read = Line::read(&line.start.to_string(), &line.moves_text()).unwrap();
        assert_eq!(read, line);
        assert_eq!(line.cut(0).moves.len(), 0);
        assert_eq!(Line::new(start, Counters::default()).moves_text(), "");
        assert_eq!(Line::read("not a fen", ""), None);
        assert_eq!(
            Line::parse_moves(&["h2e2", "x"]),
            Err(LineError::Syntax {
                index: 1,
                text: "x".into()
            })
        );
    }
}
