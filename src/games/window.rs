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

use qipan_rules::xiangqi::{Counters, Fen, FenError, History, HistoryError, Move, Position};
use qipan_rules::{AnyPlayer, Reason, Status};

use super::{check_batch, render_judged, steps, Batch, GameError, Judged};
use crate::wire::state::LineBody;
use crate::wire::StatusView;

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

/// Why the line sent with a stateless play cannot be the one that led to
/// the position played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The start is not a FEN.
    #[error("`history.fen` is not a FEN: {0}")]
    Fen(#[source] FenError),
    /// A move is not ICCS, or cannot be played where it stands.
    #[error("`history.moves`: {0}")]
    Moves(#[from] WindowError),
    /// The line does not end at the position of the code.
    #[error(
        "the history ends at {reached}, not at the position of the code in the path ({expected}, with the line's counters)"
    )]
    OtherPosition {
        /// Where the line ends, with its counters.
        reached: Box<Fen>,
        /// The position of the code, with the same counters.
        expected: Box<Fen>,
    },
    /// The line and the rules disagree on an action the rules played
    /// (never expected: both read ICCS and play by the same rules).
    #[error("action {index} is played by the rules but not by the history")]
    Diverged {
        /// The action's place in the batch.
        index: usize,
    },
}

impl LineError {
    /// The member of the body at fault.
    pub fn field(&self) -> &'static str {
        match self {
            LineError::Fen(_) => "history.fen",
            LineError::Moves(_) | LineError::OtherPosition { .. } => "history.moves",
            LineError::Diverged { .. } => "actions",
        }
    }

    /// The place of the move at fault in `history.moves` (or of the action
    /// in `actions`), when one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            LineError::Moves(WindowError::Syntax { index, .. })
            | LineError::Moves(WindowError::Illegal(HistoryError { index, .. }))
            | LineError::Diverged { index } => Some(*index),
            LineError::Fen(_) | LineError::OtherPosition { .. } => None,
        }
    }
}

impl Reason for LineError {
    fn reason(&self) -> &'static str {
        match self {
            LineError::Fen(_) => "invalid-fen",
            LineError::Moves(WindowError::Syntax { .. }) => "not-iccs",
            LineError::Moves(WindowError::Illegal(_)) => "illegal-move",
            LineError::OtherPosition { .. } => "other-position",
            LineError::Diverged { .. } => "diverged",
        }
    }
}

impl LineBody {
    /// The line as the stateless API writes it.
    pub fn of(window: &Window) -> LineBody {
        LineBody {
            fen: window.start.to_string(),
            moves: window.moves.iter().map(ToString::to_string).collect(),
        }
    }

    /// Reads a line sent with a play.
    ///
    /// # Errors
    ///
    /// [`LineError::Fen`] or [`LineError::Moves`] for the first move that
    /// is not ICCS.
    pub fn window(&self) -> Result<Window, LineError> {
        Ok(Window {
            start: self.fen.parse().map_err(LineError::Fen)?,
            moves: Window::parse_moves(&self.moves)?,
        })
    }
}

/// The history of `line`, which must replay and end at `position`.
///
/// # Errors
///
/// [`GameError::HistoryMismatch`] when the line does not replay or ends
/// elsewhere.
pub fn leading_to(position: &Position, line: &LineBody) -> Result<History, GameError> {
    let window = line.window()?;
    let history = window.history().map_err(LineError::from)?;
    if history.position() != position {
        let counters = history.counters();
        return Err(LineError::OtherPosition {
            reached: Box::new(history.fen()),
            expected: Box::new(Fen {
                position: position.clone(),
                counters,
            }),
        }
        .into());
    }
    Ok(history)
}

/// Plays `actions` from `position`, which `line` must lead to, and renders
/// the view with the line's verdict and the line cut back to its last
/// capture.
///
/// The rules refuse an action first (malformed, illegal, after a mate);
/// an action after the move on which the line's verdict ended the game is
/// refused as `GameOver`, as in a match.
///
/// # Errors
///
/// [`GameError::HistoryMismatch`] when the line does not replay or does not
/// end at `position`; the batch's own errors as [`super::play`] has them.
pub fn play(
    position: &Position,
    actions: &[String],
    line: &LineBody,
    base: &str,
) -> Result<String, GameError> {
    check_batch(actions)?;
    let mut history = leading_to(position, line)?;
    // Judge first, on the line: where it ends the game, and how many
    // actions it could take; the rules then play up to there and name the
    // first action they refuse.
    let mut verdict = verdict(&history);
    let mut taken = 0;
    let mut over_at = None;
    for (index, text) in actions.iter().enumerate() {
        if !verdict.is_ongoing() {
            over_at = Some(index);
            break;
        }
        let Ok(m) = super::GameApi::read_action(history.position(), text) else {
            break;
        };
        if history.push(m).is_err() {
            break;
        }
        taken += 1;
        verdict = self::verdict(&history);
    }
    let end = over_at.unwrap_or(actions.len());
    let (state, trace, _) = steps(position, &actions[..end], Batch::default())?;
    if taken < end {
        return Err(LineError::Diverged { index: taken }.into());
    }
    if let Some(index) = over_at {
        return Err(GameError::GameOver {
            index,
            action: actions[index].clone(),
            outcome: StatusView::of(verdict, AnyPlayer::as_str),
        });
    }
    Ok(render_judged(
        &state,
        &qipan_rules::Game::to_code(&state),
        base,
        trace.as_ref(),
        Some(judged(&history)),
    ))
}

/// The state view of the position a line reaches, judged by the line: its
/// verdict, its FEN counters, and the line (cut to its last capture) to
/// send with the next play.
///
pub fn view(history: &History, base: &str) -> String {
    let position = history.position();
    render_judged(
        position,
        &qipan_rules::Game::to_code(position),
        base,
        None,
        Some(judged(history)),
    )
}

/// What a line says of the position it reaches.
fn judged(history: &History) -> Judged {
    Judged {
        status: StatusView::of(verdict(history), AnyPlayer::as_str),
        counters: history.counters(),
        history: LineBody::of(&Window::of(history)),
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
    fn a_line_as_the_api_writes_it_reads_back() {
        let mut h = History::new(Position::start(), Counters::default());
        for m in ["h2e2", "h9g7", "e2e6", "b9c7"] {
            h.push(m.parse().expect("ICCS")).expect("legal");
        }
        let w = Window::of(&h);
        let body = LineBody::of(&w);
        assert_eq!(
            body.fen,
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
        assert_eq!(body.moves, ["e2e6", "b9c7"]);
        assert_eq!(body.window().expect("reads"), w);
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
