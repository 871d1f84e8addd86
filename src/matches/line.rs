//! A xiangqi match's line: what the repetition rules and the move limit
//! judge after every move.
//!
//! # Where the line is kept
//!
//! A match keeps at most [`HISTORY_CAP`] moves, but the move limit counts
//! every ply since the last capture (100 and more) and the repetition rules
//! compare every position since then. So the match row keeps the line
//! itself, beside its position ([`Match::line`], the columns `line_fen`
//! and `line_moves`): the FEN, with its halfmove clock, of the position
//! before the last capture (the match's start while nothing was captured)
//! and the moves from there. Each play replays it into a
//! [`History`](qipan_rules::xiangqi::History), pushes the new moves, takes
//! the verdict, and keeps the history cut to its new last capture
//! ([`Line::of`]); the line is never longer than the plies since the last
//! capture plus one.
//!
//! A takeback or a fork to a ply inside the line, after its capture, cuts
//! the line's moves ([`Line::cut`]), which is exact. One to the ply of
//! the capture or before it rebuilds the line from the kept moves up to
//! that ply: exact when the kept history reaches back to the match's first
//! move (which carries the match's starting halfmove clock: each kept move
//! keeps the clock it was played at) or to a capture before that ply. A
//! takeback across a capture into a stretch of more than [`HISTORY_CAP`]
//! capture-free moves (which only a game with more than ten checks by one
//! side can reach) rebuilds a line that starts at the oldest kept move with
//! a clock of 0: the positions and checks before it are gone, and counting
//! them as absent could end the game early, so the move limit and the
//! repetition rules then count from there and the game goes on longer
//! instead.
//!
//! A match started from a FEN (`import` in `POST /v1/matches`) starts its
//! line there, with the FEN's counters: its clock counts towards the move
//! limit, and, as for any FEN, the positions before it are not known.

use qipan_rules::xiangqi::{Counters, History, Move, Position, Side};
use qipan_rules::{AnyPlayer, Status};
use sqlx::AnyConnection;

#[cfg(doc)]
use super::HISTORY_CAP;
use super::{Match, MatchError};
use crate::games::line::{self as games_line, Line};
use crate::games::{GameError, Ply};
use crate::storage::matches as store;
use crate::storage::StorageError;
use crate::wire::StatusView;

/// What the line says of a batch: the line after it, its verdict, and the
/// halfmove clock each ply was played at.
#[derive(Debug)]
pub(super) struct Judged {
    /// The line after the batch, cut to its last capture.
    pub line: Line,
    /// Its verdict.
    pub verdict: Status<AnyPlayer>,
    /// The halfmove clock of the position before each ply, in order.
    pub clocks: Vec<u32>,
}

/// The line after `plies` are played on `line`, and its verdict.
///
/// # Errors
///
/// [`GameError::GameOver`] for a move after the one on which the rules
/// ended the game (the batch is refused whole, as for a mate);
/// [`StorageError::Corrupt`] when the kept line does not replay.
pub(super) fn judge(line: &Line, plies: &[Ply]) -> Result<Judged, MatchError> {
    let corrupt = || StorageError::Corrupt {
        column: "line_moves",
        value: line.to_string(),
    };
    let mut history = line.history().map_err(|_| corrupt())?;
    let mut verdict = games_line::verdict(&history);
    let mut clocks = Vec::with_capacity(plies.len());
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
        clocks.push(history.counters().halfmove_clock);
        history.push(m).map_err(|_| corrupt())?;
        verdict = games_line::verdict(&history);
    }
    Ok(Judged {
        line: Line::of(&history),
        verdict,
        clocks,
    })
}

/// A kept line, replayed.
///
/// # Errors
///
/// [`StorageError::Corrupt`] when it does not replay.
pub(super) fn history_of(line: &Line) -> Result<History, StorageError> {
    line.history().map_err(|_| StorageError::Corrupt {
        column: "line_moves",
        value: line.to_string(),
    })
}

/// The verdict of a kept line.
///
/// # Errors
///
/// [`StorageError::Corrupt`] when it does not replay.
pub(super) fn verdict_of(line: &Line) -> Result<Status<AnyPlayer>, StorageError> {
    Ok(games_line::verdict(&history_of(line)?))
}

impl Match {
    /// The line as it stood at `ply` (a takeback's or a fork's target); see
    /// the module documentation for how far back it is exact.
    ///
    /// # Errors
    ///
    /// Storage errors; [`StorageError::Corrupt`] when kept moves do not
    /// replay.
    pub(super) async fn line_at(
        &self,
        conn: &mut AnyConnection,
        ply: i64,
    ) -> Result<Option<Line>, MatchError> {
        let Some(line) = &self.line else {
            return Ok(None);
        };
        let len = i64::try_from(line.moves.len()).unwrap_or(i64::MAX);
        let start = self.ply - len;
        // A line that begins with a capture starts at the position before
        // it, with that position's clock but without the stretch that led
        // there: cut to no moves, it would judge that position alone. So
        // a takeback of the capture itself rebuilds the line, as one
        // before it does.
        let opens_with_capture = line
            .moves
            .first()
            .is_some_and(|m| line.start.position.piece_at(m.to).is_some());
        if ply > start || (ply == start && !opens_with_capture) {
            let keep = usize::try_from(ply - start).unwrap_or(0);
            return Ok(Some(line.cut(keep)));
        }
        let kept = store::moves_upto(conn, self, ply).await?;
        let corrupt = |value: String| StorageError::Corrupt {
            column: "moves.code_before",
            value,
        };
        // The fullmove number counts back from the line's start.
        let fullmove_at = |at: i64, position: &Position| {
            fullmove_before(
                line.start.counters.fullmove_number,
                start - at,
                position.turn(),
            )
        };
        let Some(first) = kept.first() else {
            // Nothing kept before: the line starts at the position there.
            let code = store::code_at(conn, self, ply)
                .await?
                .ok_or_else(|| corrupt(format!("no code at ply {ply}")))?;
            let position = xiangqi(&code)?;
            let counters = Counters {
                halfmove_clock: 0,
                fullmove_number: fullmove_at(ply, &position),
            };
            return Ok(Some(Line::new(position, counters)));
        };
        // The kept moves reach back to the match's start: its clock (a
        // FEN's, kept with the first move) is exact. Otherwise the stretch
        // without capture began before the oldest kept move, and the checks
        // and positions before it, which the move limit's allowance and the
        // repetition rules count, are gone: the line counts from 0 there,
        // so that a takeback lets play go on rather than ending the game on
        // counts the kept moves cannot check.
        let position = xiangqi(&first.code_before)?;
        let halfmove_clock = match first.ply {
            1 => first.halfmove.unwrap_or(0),
            _ => 0,
        };
        let counters = Counters {
            halfmove_clock,
            fullmove_number: fullmove_at(first.ply - 1, &position),
        };
        let mut history = History::new(position, counters);
        for mv in &kept {
            let m: Move = mv.action.parse().map_err(|_| corrupt(mv.action.clone()))?;
            history
                .push(m)
                .map_err(|_| corrupt(mv.code_before.clone()))?;
        }
        Ok(Some(Line::of(&history)))
    }
}

/// The fullmove number `plies` plies before a position whose number is
/// `fullmove`, given the side to move `plies` plies before: the number
/// grows after each black move, and of those plies black played half,
/// rounded up when black moved first.
fn fullmove_before(fullmove: u32, plies: i64, to_move: Side) -> u32 {
    let plies = u32::try_from(plies.max(0)).unwrap_or(u32::MAX);
    let black = match to_move {
        Side::Black => plies.div_ceil(2),
        Side::Red => plies / 2,
    };
    fullmove.saturating_sub(black).max(1)
}

/// The xiangqi position of a kept code.
fn xiangqi(code: &str) -> Result<Position, StorageError> {
    Position::from_code(code).map_err(|_| StorageError::Corrupt {
        column: "moves.code_before",
        value: code.to_owned(),
    })
}
