//! A xiangqi match's line: what the repetition rules and the move limit
//! judge after every move.
//!
//! # Where the line is kept
//!
//! A match keeps at most [`HISTORY_CAP`] moves, but the move limit counts
//! every ply since the last capture (100 and more) and the repetition rules
//! compare every position since then. So the match row keeps the line
//! itself, beside its position ([`Match::window`], the columns `line_fen`
//! and `line_moves`): the FEN, with its halfmove clock, of the position
//! before the last capture (the match's start while nothing was captured)
//! and the moves from there. Each play replays it into a
//! [`History`](qipan_rules::xiangqi::History), pushes the new moves, takes
//! the verdict, and keeps the history cut to its new last capture
//! ([`Window::of`]); the line is never longer than the plies since the last
//! capture plus one.
//!
//! A takeback or a fork to a ply inside the line cuts the line's moves
//! ([`Window::cut`]), which is exact. One to a ply before the line's start
//! (before the last capture) rebuilds the line from the kept moves up to
//! that ply: exact when the kept history reaches back to the match's first
//! move or to a capture before that ply; otherwise (a takeback across a
//! capture into a stretch of more than [`HISTORY_CAP`] capture-free moves)
//! the rebuilt line starts at the oldest kept move with a halfmove clock of
//! 0, so positions and plies before it no longer count.

use qipan_rules::xiangqi::{Counters, History, Move, Position};
use qipan_rules::{AnyPlayer, AnyPosition, Status};
use sqlx::AnyConnection;

#[cfg(doc)]
use super::HISTORY_CAP;
use super::{Match, MatchError};
use crate::games::window::{self, Window};
use crate::games::{GameError, Ply};
use crate::storage::matches as store;
use crate::storage::StorageError;
use crate::wire::StatusView;

/// The line after `plies` are played on `line`, and its verdict.
///
/// # Errors
///
/// [`GameError::GameOver`] for a move after the one on which the rules
/// ended the game (the batch is refused whole, as for a mate);
/// [`StorageError::Corrupt`] when the kept line does not replay.
pub(super) fn judge(
    line: &Window,
    plies: &[Ply],
) -> Result<(Window, Status<AnyPlayer>), MatchError> {
    let corrupt = || StorageError::Corrupt {
        column: "line_moves",
        value: line.to_string(),
    };
    let mut history = line.history().map_err(|_| corrupt())?;
    let mut verdict = window::verdict(&history);
    for (index, ply) in plies.iter().enumerate() {
        if !verdict.is_ongoing() {
            return Err(GameError::GameOver {
                index,
                action: ply.action.clone(),
                outcome: StatusView::of(verdict, AnyPlayer::as_str),
            }
            .into());
        }
        let m: Move = ply.action.parse().map_err(|_| corrupt())?;
        history.push(m).map_err(|_| corrupt())?;
        verdict = window::verdict(&history);
    }
    Ok((Window::of(&history), verdict))
}

impl Match {
    /// The line as it stood at `ply` (a takeback's or a fork's target); see
    /// the module documentation for how far back it is exact.
    ///
    /// # Errors
    ///
    /// Storage errors; [`StorageError::Corrupt`] when kept moves do not
    /// replay.
    pub(super) async fn window_at(
        &self,
        conn: &mut AnyConnection,
        ply: i64,
    ) -> Result<Option<Window>, MatchError> {
        let Some(line) = &self.window else {
            return Ok(None);
        };
        let len = i64::try_from(line.moves.len()).unwrap_or(i64::MAX);
        let start = self.ply - len;
        if ply >= start {
            let keep = usize::try_from(ply - start).unwrap_or(0);
            return Ok(Some(line.cut(keep)));
        }
        let kept = store::moves_upto(conn, self, ply).await?;
        let corrupt = |value: String| StorageError::Corrupt {
            column: "moves.code_before",
            value,
        };
        let Some(first) = kept.first() else {
            // Nothing kept before: the line starts at the position there.
            let code = store::code_at(conn, self, ply)
                .await?
                .ok_or_else(|| corrupt(format!("no code at ply {ply}")))?;
            return Ok(Some(Window::new(xiangqi(&code)?, counters_at(ply, 0))));
        };
        // A match starts at a halfmove clock of 0; past the cap the clock
        // of the oldest kept position is no longer known.
        let mut history = History::new(xiangqi(&first.code_before)?, counters_at(first.ply - 1, 0));
        for mv in &kept {
            let m: Move = mv.action.parse().map_err(|_| corrupt(mv.action.clone()))?;
            history
                .push(m)
                .map_err(|_| corrupt(mv.code_before.clone()))?;
        }
        Ok(Some(Window::of(&history)))
    }
}

/// The counters of the position after `ply` plies, with `clock`.
fn counters_at(ply: i64, clock: u32) -> Counters {
    Counters {
        halfmove_clock: clock,
        fullmove_number: u32::try_from(ply / 2 + 1).unwrap_or(u32::MAX),
    }
}

/// The xiangqi position of a kept code.
fn xiangqi(code: &str) -> Result<Position, StorageError> {
    match AnyPosition::from_code(qipan_rules::GameKind::Xiangqi, code) {
        Ok(AnyPosition::Xiangqi(p)) => Ok(p),
        Ok(_) | Err(_) => Err(StorageError::Corrupt {
            column: "moves.code_before",
            value: code.to_owned(),
        }),
    }
}
