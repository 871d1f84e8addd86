//! The rows of `matches`, `seats` and `moves` as sqlx reads them, and their
//! conversion to the domain's typed [`Match`] by `TryFrom`: a row that does
//! not make a match is [`StorageError::Corrupt`], naming the column.

#[allow(unused_imports)]
use super::*;

row! {

/// A `matches` row.
#[derive(Debug, Clone)]
pub(super) struct MatchRow {
    pub(super) id: String,
    pub(super) game: String,
    pub(super) mode: String,
    pub(super) code: String,
    pub(super) to_move: String,
    pub(super) ply: i64,
    pub(super) version: i64,
    pub(super) status: String,
    pub(super) winner: Option<String>,
    pub(super) reason: Option<String>,
    pub(super) undo_seat: Option<String>,
    pub(super) undo_ply: Option<i64>,
    pub(super) parent_id: Option<String>,
    pub(super) parent_ply: Option<i64>,
    pub(super) created_at: i64,
    pub(super) updated_at: i64,
    pub(super) draw_seat: Option<String>,
    pub(super) time_control: Option<String>,
    pub(super) clock_base: Option<i64>,
    pub(super) clock_increment: Option<i64>,
    pub(super) clock_first: Option<i64>,
    pub(super) clock_second: Option<i64>,
    pub(super) clock_since: Option<i64>,
    pub(super) moved_at: Option<i64>,
    pub(super) line_fen: Option<String>,
    pub(super) line_moves: Option<String>,
}
}

row! {

/// A `seats` row, with how many instances hold a stream of it.
#[derive(Debug, Clone)]
pub(super) struct SeatRow {
    pub(super) seat: String,
    pub(super) name: Option<String>,
    pub(super) token_hash: Option<String>,
    pub(super) invite_hash: Option<String>,
    pub(super) joined_at: Option<i64>,
    pub(super) online: i64,
    pub(super) computer_level: Option<i64>,
    pub(super) computer_ms: Option<i64>,
}
}

/// A match joined with one of its seats.
#[derive(Debug)]
pub(super) struct MatchSeatRow {
    pub(super) m: MatchRow,
    pub(super) seat: SeatRow,
}

row! {

/// A `moves` row.
#[derive(Debug, Clone)]
pub(super) struct MoveRow {
    pub(super) ply: i64,
    pub(super) seat: String,
    pub(super) side: String,
    pub(super) action: String,
    pub(super) code_before: String,
    pub(super) code_after: String,
    pub(super) played_at: i64,
    pub(super) clock_first: Option<i64>,
    pub(super) clock_second: Option<i64>,
    pub(super) halfmove: Option<i64>,
}
}

/// A match left-joined with one of its moves (all `mv_` columns NULL when it
/// has none).
#[derive(Debug)]
pub(super) struct MatchMoveRow {
    pub(super) m: MatchRow,
    pub(super) mv_ply: Option<i64>,
    pub(super) mv_seat: Option<String>,
    pub(super) mv_side: Option<String>,
    pub(super) mv_action: Option<String>,
    pub(super) mv_code_before: Option<String>,
    pub(super) mv_code_after: Option<String>,
    pub(super) mv_played_at: Option<i64>,
    pub(super) mv_clock_first: Option<i64>,
    pub(super) mv_clock_second: Option<i64>,
    pub(super) mv_halfmove: Option<i64>,
}

pub(super) fn corrupt(column: &'static str, value: impl std::fmt::Debug) -> StorageError {
    StorageError::Corrupt {
        column,
        value: format!("{value:?}"),
    }
}

pub(super) fn seat_of(
    game: GameKind,
    column: &'static str,
    text: &str,
) -> Result<Seat, StorageError> {
    Seat::parse(game, text).ok_or_else(|| corrupt(column, text))
}

pub(super) fn side_of(
    game: GameKind,
    column: &'static str,
    text: &str,
) -> Result<AnyPlayer, StorageError> {
    AnyPlayer::parse(game, text).ok_or_else(|| corrupt(column, text))
}

pub(super) fn time_of(column: &'static str, ms: i64) -> Result<Timestamp, StorageError> {
    Timestamp::from_millis(ms).ok_or_else(|| corrupt(column, ms))
}

pub(super) fn status_of(
    game: GameKind,
    state: &str,
    winner: Option<&str>,
    reason: Option<&str>,
) -> Result<MatchStatus, StorageError> {
    let ending = || {
        let text = reason.ok_or_else(|| corrupt("reason", reason))?;
        MatchEnd::parse(text).ok_or_else(|| corrupt("reason", text))
    };
    let status = match state {
        "ongoing" => MatchStatus::Ongoing,
        "won" => {
            let winner = winner.ok_or_else(|| corrupt("winner", winner))?;
            MatchStatus::Won {
                winner: side_of(game, "winner", winner)?,
                reason: ending()?,
            }
        }
        "drawn" => MatchStatus::Drawn { reason: ending()? },
        "over" => MatchStatus::Over { reason: ending()? },
        other => return Err(corrupt("status", other)),
    };
    // An ongoing match has no ending, and only a won one a winner.
    if status.is_ongoing() && reason.is_some() {
        return Err(corrupt("reason", (state, reason)));
    }
    if status.winner().is_none() && winner.is_some() {
        return Err(corrupt("winner", (state, winner)));
    }
    Ok(status)
}

impl TryFrom<MatchRow> for Match {
    type Error = StorageError;

    fn try_from(r: MatchRow) -> Result<Match, StorageError> {
        let id: MatchId = r.id.parse().map_err(|_| corrupt("id", &r.id))?;
        let game: GameKind = r.game.parse().map_err(|_| corrupt("game", &r.game))?;
        let mode = Mode::parse(&r.mode).ok_or_else(|| corrupt("mode", &r.mode))?;
        let position =
            AnyPosition::from_code(game, &r.code).map_err(|_| corrupt("code", &r.code))?;
        // The side to move is kept beside the code (a capped history no
        // longer tells it); the two must agree.
        if side_of(game, "to_move", &r.to_move)? != position.to_move() {
            return Err(corrupt("to_move", (&r.to_move, &r.code)));
        }
        let status = status_of(game, &r.status, r.winner.as_deref(), r.reason.as_deref())?;
        let line = line_of(&position, r.line_fen.as_deref(), r.line_moves.as_deref())?;
        let undo = match (&r.undo_seat, r.undo_ply) {
            (Some(seat), Some(back_to)) => Some(UndoOffer {
                seat: seat_of(game, "undo_seat", seat)?,
                back_to,
            }),
            (None, None) => None,
            _ => return Err(corrupt("undo_ply", (&r.undo_seat, r.undo_ply))),
        };
        let draw = r
            .draw_seat
            .as_deref()
            .map(|seat| seat_of(game, "draw_seat", seat))
            .transpose()?;
        let clock = match (&r.time_control, r.clock_base, r.clock_increment) {
            (None, None, None) => None,
            (Some(kind), Some(base), Some(increment)) => {
                let control = TimeControl::stored(kind, Millis::new(base), Millis::new(increment))
                    .ok_or_else(|| corrupt("time_control", kind))?;
                let left = match (r.clock_first, r.clock_second) {
                    (Some(a), Some(b)) => [Millis::new(a), Millis::new(b)],
                    other => return Err(corrupt("clock_first", other)),
                };
                Some(Clock {
                    control,
                    left,
                    since: r
                        .clock_since
                        .map(|ms| time_of("clock_since", ms))
                        .transpose()?,
                })
            }
            other => return Err(corrupt("time_control", other)),
        };
        let parent = match (&r.parent_id, r.parent_ply) {
            (Some(parent), Some(ply)) => Some(Parent {
                id: parent.parse().map_err(|_| corrupt("parent_id", parent))?,
                ply,
            }),
            (None, None) => None,
            _ => return Err(corrupt("parent_ply", (&r.parent_id, r.parent_ply))),
        };
        Ok(Match {
            id,
            game,
            mode,
            position,
            code: r.code,
            ply: r.ply,
            version: Version::new(r.version),
            status,
            undo,
            draw,
            clock,
            // Matches from before positions were timed: since creation.
            moved_at: time_of("moved_at", r.moved_at.unwrap_or(r.created_at))?,
            parent,
            created_at: time_of("created_at", r.created_at)?,
            updated_at: time_of("updated_at", r.updated_at)?,
            line,
        })
    }
}

/// A match's line since the last capture (xiangqi), read from its row. A
/// row written before lines were kept has none: its line starts at its
/// position, with a halfmove clock of 0.
pub(super) fn line_of(
    position: &AnyPosition,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Option<Line>, StorageError> {
    let Some(fresh) = position.new_line() else {
        return Ok(None);
    };
    match (fen, moves) {
        (Some(fen), Some(moves)) => Line::read(fen, moves)
            .map(Some)
            .ok_or_else(|| corrupt("line_fen", (fen, moves))),
        (None, None) => Ok(Some(fresh)),
        other => Err(corrupt("line_fen", other)),
    }
}

impl SeatRow {
    pub(super) fn into_slot(self, game: GameKind) -> Result<SeatSlot, StorageError> {
        Ok(SeatSlot {
            seat: seat_of(game, "seat", &self.seat)?,
            name: self.name.map(SeatName::stored),
            token: self.token_hash.map(SecretHash::stored),
            invite: self.invite_hash.map(SecretHash::stored),
            joined_at: self
                .joined_at
                .map(|ms| time_of("joined_at", ms))
                .transpose()?,
            // The computer is always there.
            online: self.online > 0 || self.computer_level.is_some(),
            computer: crate::storage::computer::of_columns(self.computer_level, self.computer_ms)?,
        })
    }
}

impl MoveRow {
    pub(super) fn into_move(self, game: GameKind) -> Result<KeptMove, StorageError> {
        Ok(KeptMove {
            ply: self.ply,
            seat: seat_of(game, "moves.seat", &self.seat)?,
            side: side_of(game, "moves.side", &self.side)?,
            action: self.action,
            code_before: self.code_before,
            code_after: self.code_after,
            played_at: time_of("played_at", self.played_at)?,
            clock_before: match (self.clock_first, self.clock_second) {
                (Some(a), Some(b)) => Some([Millis::new(a), Millis::new(b)]),
                (None, None) => None,
                other => return Err(corrupt("moves.clock_first", other)),
            },
            halfmove: self
                .halfmove
                .map(|h| u32::try_from(h).map_err(|_| corrupt("moves.halfmove", h)))
                .transpose()?,
        })
    }
}

impl<'r> sqlx::FromRow<'r, AnyRow> for MatchSeatRow {
    fn from_row(row: &'r AnyRow) -> Result<MatchSeatRow, sqlx::Error> {
        Ok(MatchSeatRow {
            m: MatchRow::from_row(row)?,
            seat: SeatRow::from_row(row)?,
        })
    }
}

impl<'r> sqlx::FromRow<'r, AnyRow> for MatchMoveRow {
    fn from_row(row: &'r AnyRow) -> Result<MatchMoveRow, sqlx::Error> {
        Ok(MatchMoveRow {
            m: MatchRow::from_row(row)?,
            mv_ply: row.try_get("mv_ply")?,
            mv_seat: row.try_get("mv_seat")?,
            mv_side: row.try_get("mv_side")?,
            mv_action: row.try_get("mv_action")?,
            mv_code_before: row.try_get("mv_code_before")?,
            mv_code_after: row.try_get("mv_code_after")?,
            mv_played_at: row.try_get("mv_played_at")?,
            mv_clock_first: row.try_get("mv_clock_first")?,
            mv_clock_second: row.try_get("mv_clock_second")?,
            mv_halfmove: row.try_get("mv_halfmove")?,
        })
    }
}
