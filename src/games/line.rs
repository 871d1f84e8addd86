//! The xiangqi [`Line`] at the edge of the stateless API: read from the
//! `history` a client sends with a play, checked to lead to the position
//! played from, judged, and sent back cut to its last capture for the next
//! play. (A match keeps its line beside its position: `matches::line`.)

pub use qipan_rules::xiangqi::Line;
use qipan_rules::xiangqi::{Fen, FenError, History, HistoryError, LineError, Position};
use qipan_rules::{AnyPlayer, Reason, Status};

use super::{check_batch, render_judged, steps, Batch, GameError, Judged};
use crate::wire::state::LineBody;
use crate::wire::StatusView;

/// Why the line sent with a stateless play cannot be the one that led to
/// the position played from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineMismatch {
    /// The start is not a FEN.
    #[error("`history.fen` is not a FEN: {0}")]
    Fen(#[source] FenError),
    /// A move is not ICCS, or cannot be played where it stands.
    #[error("`history.moves`: {0}")]
    Moves(#[from] LineError),
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

impl LineMismatch {
    /// The member of the body at fault.
    pub fn field(&self) -> &'static str {
        match self {
            LineMismatch::Fen(_) => "history.fen",
            LineMismatch::Moves(_) | LineMismatch::OtherPosition { .. } => "history.moves",
            LineMismatch::Diverged { .. } => "actions",
        }
    }

    /// The place of the move at fault in `history.moves` (or of the action
    /// in `actions`), when one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            LineMismatch::Moves(LineError::Syntax { index, .. })
            | LineMismatch::Moves(LineError::Illegal(HistoryError { index, .. }))
            | LineMismatch::Diverged { index } => Some(*index),
            LineMismatch::Fen(_) | LineMismatch::OtherPosition { .. } => None,
        }
    }
}

impl Reason for LineMismatch {
    fn reason(&self) -> &'static str {
        match self {
            LineMismatch::Fen(_) => "invalid-fen",
            LineMismatch::Moves(LineError::Syntax { .. }) => "not-iccs",
            LineMismatch::Moves(LineError::Illegal(_)) => "illegal-move",
            LineMismatch::OtherPosition { .. } => "other-position",
            LineMismatch::Diverged { .. } => "diverged",
        }
    }
}

impl LineBody {
    /// The line as the stateless API writes it.
    pub fn of(line: &Line) -> LineBody {
        LineBody {
            fen: line.start.to_string(),
            moves: line.moves.iter().map(ToString::to_string).collect(),
        }
    }

    /// Reads a line sent with a play.
    ///
    /// # Errors
    ///
    /// [`LineMismatch::Fen`] or [`LineMismatch::Moves`] for the first move
    /// that is not ICCS.
    pub fn line(&self) -> Result<Line, LineMismatch> {
        Ok(Line {
            start: self.fen.parse().map_err(LineMismatch::Fen)?,
            moves: Line::parse_moves(&self.moves)?,
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
    let history = line.line()?.history().map_err(LineMismatch::from)?;
    if history.position() != position {
        let counters = history.counters();
        return Err(LineMismatch::OtherPosition {
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
        return Err(LineMismatch::Diverged { index: taken }.into());
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
        history: LineBody::of(&Line::of(history)),
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
    use qipan_rules::xiangqi::Counters;

    #[test]
    fn a_line_as_the_api_writes_it_reads_back() {
        let mut h = History::new(Position::start(), Counters::default());
        for m in ["h2e2", "h9g7", "e2e6", "b9c7"] {
            h.push(m.parse().expect("ICCS")).expect("legal");
        }
        let w = Line::of(&h);
        let body = LineBody::of(&w);
        assert_eq!(
            body.fen,
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
        assert_eq!(body.moves, ["e2e6", "b9c7"]);
        assert_eq!(body.line().expect("reads"), w);
    }
}
