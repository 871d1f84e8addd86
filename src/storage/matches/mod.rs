//! The SQL of persisted matches: plain queries over the `matches`, `seats`
//! and `moves` tables (see `migrations/`), read with `sqlx::FromRow` into
//! row structs and turned into the domain's typed [`Match`] by `TryFrom`. A
//! row that does not make a match is [`StorageError::Corrupt`], naming the
//! column — never a silent default.
//!
//! Every write is one transaction that starts by bumping the match's
//! `version` where it still has the version the caller read, so of two racing
//! writes exactly one lands and the other gets [`StorageError::Conflict`]
//! with nothing written. (Writing first also takes SQLite's write lock at
//! once, so a transaction never has to upgrade a read lock.) On PostgreSQL a
//! move is written as one statement (data-modifying `WITH` clauses), which is
//! one transaction and one round trip.
//!
//! Every function runs on a connection the caller holds, so that reading a
//! match and writing it back take the pool once.

mod clocks;
mod events;
mod forks;
mod moves;
mod rows;
mod seats;

pub use clocks::*;
pub use events::*;
pub use forks::*;
pub use moves::*;
use rows::*;
pub use seats::*;

use qipan_rules::{AnyPlayer, AnyPosition, GameKind};
use sqlx::any::AnyRow;
use sqlx::{Any, AnyConnection, Connection, Row, Transaction};

use super::{Backend, StorageError};
use crate::matches::clock::Reading;
use crate::matches::events::{EventKind, EventMove, MatchEvent, EVENT_CAP};
use crate::matches::{
    Clock, FileHeaders, KeptMove, Match, MatchEnd, MatchId, MatchStatus, Millis, Mode, Parent,
    Seat, SeatName, SeatSlot, SecretHash, TimeControl, Timestamp, UndoOffer, Version, HISTORY_CAP,
};
use qipan_rules::xiangqi::Line;

/// The guarded `UPDATE` of a match row, with parameters `$1` to
/// [`UPDATE_PARAMS`]. The window's floor rises to `$12` (never falls: an
/// undo does not bring back what left the window), and a fork's share of
/// its base narrows to `$13` when an undo drops what it read. The deadline is kept beside
/// the clock (`clock_since` plus the side to move's time) so that the
/// sweeper finds the next flag to fall by an index.
macro_rules! update_match_sql {
    () => {
        "UPDATE matches SET code = $1, to_move = $2, ply = $3, status = $4, winner = $5, \
         reason = $6, undo_seat = $7, undo_ply = $8, version = version + 1, updated_at = $9, \
         kept_from = CASE WHEN kept_from < $12 THEN $12 ELSE kept_from END, \
         base_ply = CASE WHEN base_ply > $13 THEN $13 ELSE base_ply END, \
         draw_seat = $14, clock_first = $15, clock_second = $16, clock_since = $17, \
         deadline = $18, moved_at = $19, line_fen = $20, line_moves = $21 \
         WHERE id = $10 AND version = $11"
    };
}

/// The cut-off of `seat_presence.seen_at`: rows older than this are of
/// instances that stopped without cleaning up.
pub(crate) fn presence_cutoff() -> i64 {
    Timestamp::now()
        .minus(crate::matches::presence::STALE)
        .millis()
}

/// The PostgreSQL channel writes are announced on (payload `<match
/// id>:<version>`), so every instance's streams learn of them.
pub const CHANNEL: &str = "qipan_match";

/// The parameters of [`update_match_sql`].
const UPDATE_PARAMS: usize = 21;

const MATCH_COLUMNS: &str = "id, game, mode, code, to_move, ply, version, status, winner, \
     reason, undo_seat, undo_ply, parent_id, parent_ply, created_at, updated_at, draw_seat, \
     time_control, clock_base, clock_increment, clock_first, clock_second, clock_since, moved_at, \
     line_fen, line_moves";

pub(super) const MOVE_COLUMNS: &str =
    "ply, seat, side, action, code_before, code_after, played_at, clock_first, clock_second, halfmove";

/// How many columns of a move are bound after `match_id`.
const MOVE_PARAMS: usize = 10;

/// `columns` with each name prefixed by `table.`.
pub(super) fn prefixed(table: &str, columns: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{table}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// The state columns of a match as they are written.
struct StateColumns<'a> {
    code: &'a str,
    to_move: &'static str,
    ply: i64,
    status: &'static str,
    winner: Option<&'static str>,
    reason: Option<&'static str>,
    undo_seat: Option<&'static str>,
    undo_ply: Option<i64>,
    updated_at: i64,
    draw_seat: Option<&'static str>,
    clock_first: Option<i64>,
    clock_second: Option<i64>,
    clock_since: Option<i64>,
    deadline: Option<i64>,
    moved_at: i64,
    line_fen: Option<String>,
    line_moves: Option<String>,
}

impl<'a> StateColumns<'a> {
    fn of(m: &'a Match) -> StateColumns<'a> {
        StateColumns {
            draw_seat: m.draw.map(Seat::as_str),
            clock_first: m.clock.map(|c| c.left[0].get()),
            clock_second: m.clock.map(|c| c.left[1].get()),
            clock_since: m.clock.and_then(|c| c.since).map(Timestamp::millis),
            deadline: m.deadline().map(Timestamp::millis),
            moved_at: m.moved_at.millis(),
            line_fen: m.line.as_ref().map(|w| w.start.to_string()),
            line_moves: m.line.as_ref().map(Line::moves_text),
            code: &m.code,
            to_move: m.to_move().as_str(),
            ply: m.ply,
            status: state_name(m.status),
            winner: m.status.winner().map(AnyPlayer::as_str),
            reason: m.status.reason().map(MatchEnd::as_str),
            undo_seat: m.undo.map(|u| u.seat.as_str()),
            undo_ply: m.undo.map(|u| u.back_to),
            updated_at: m.updated_at.millis(),
        }
    }
}

fn state_name(s: MatchStatus) -> &'static str {
    match s {
        MatchStatus::Ongoing => "ongoing",
        MatchStatus::Won { .. } => "won",
        MatchStatus::Drawn { .. } => "drawn",
        MatchStatus::Over { .. } => "over",
    }
}

/// Inserts a new match with its seats, in one transaction.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip_all, fields(id = %m.id))]
pub async fn insert(
    conn: &mut AnyConnection,
    m: &Match,
    seats: &[SeatSlot],
) -> Result<(), StorageError> {
    let mut tx = conn.begin().await?;
    insert_in(&mut tx, m, seats).await?;
    tx.commit().await?;
    Ok(())
}

/// [`insert`] inside a transaction the caller holds.
///
/// # Errors
///
/// [`StorageError`].
pub async fn insert_in(
    tx: &mut Transaction<'_, Any>,
    m: &Match,
    seats: &[SeatSlot],
) -> Result<(), StorageError> {
    insert_sharing(tx, m, seats, (m.ply - HISTORY_CAP).max(0), None).await
}

/// [`insert_in`] for a match whose window's floor is `kept_from` and that
/// reads the record of `base` (a match id) up to its ply.
async fn insert_sharing(
    tx: &mut Transaction<'_, Any>,
    m: &Match,
    seats: &[SeatSlot],
    kept_from: i64,
    base: Option<(&str, i64)>,
) -> Result<(), StorageError> {
    let id = m.id.to_string();
    let s = StateColumns::of(m);
    let sql = format!(
        "INSERT INTO matches ({MATCH_COLUMNS}, deadline, kept_from, base_id, base_ply) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)"
    );
    let control = m.clock.map(|c| c.control);
    let columns = control.map(TimeControl::columns);
    sqlx::query(&sql)
        .bind(&id)
        .bind(m.game.as_str())
        .bind(m.mode.as_str())
        .bind(s.code)
        .bind(s.to_move)
        .bind(s.ply)
        .bind(m.version.get())
        .bind(s.status)
        .bind(s.winner)
        .bind(s.reason)
        .bind(s.undo_seat)
        .bind(s.undo_ply)
        .bind(m.parent.map(|p| p.id.to_string()))
        .bind(m.parent.map(|p| p.ply))
        .bind(m.created_at.millis())
        .bind(s.updated_at)
        .bind(s.draw_seat)
        .bind(control.map(TimeControl::as_str))
        .bind(columns.map(|(base, _)| base.get()))
        .bind(columns.map(|(_, increment)| increment.get()))
        .bind(s.clock_first)
        .bind(s.clock_second)
        .bind(s.clock_since)
        .bind(s.moved_at)
        .bind(s.line_fen.clone())
        .bind(s.line_moves.clone())
        .bind(s.deadline)
        .bind(kept_from)
        .bind(base.map(|(id, _)| id))
        .bind(base.map(|(_, ply)| ply))
        .execute(&mut **tx)
        .await?;
    for seat in seats {
        sqlx::query(
            "INSERT INTO seats (match_id, seat, token_hash, invite_hash, joined_at, name) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(seat.seat.as_str())
        .bind(seat.token.as_ref().map(SecretHash::as_str))
        .bind(seat.invite.as_ref().map(SecretHash::as_str))
        .bind(seat.joined_at.map(Timestamp::millis))
        .bind(seat.name.as_ref().map(SeatName::as_str))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A match and its seats, in one query.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no match.
#[tracing::instrument(skip(conn))]
pub async fn load(
    conn: &mut AnyConnection,
    id: MatchId,
) -> Result<Option<(Match, Vec<SeatSlot>)>, StorageError> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS}, seats.seat, name, token_hash, invite_hash, joined_at, \
         (SELECT count(*) FROM seat_presence p WHERE p.match_id = seats.match_id \
          AND p.seat = seats.seat AND p.seen_at > $2) AS online, \
         c.level AS computer_level, c.ms AS computer_ms \
         FROM matches JOIN seats ON seats.match_id = matches.id \
         LEFT JOIN computer_seats c ON c.match_id = seats.match_id AND c.seat = seats.seat \
         WHERE matches.id = $1 \
         ORDER BY joined_at IS NULL, joined_at, seats.seat"
    );
    let rows: Vec<MatchSeatRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .bind(presence_cutoff())
        .fetch_all(&mut *conn)
        .await?;
    let mut rows = rows.into_iter();
    let Some(first) = rows.next() else {
        return Ok(None);
    };
    let m = Match::try_from(first.m)?;
    let seats = std::iter::once(first.seat)
        .chain(rows.map(|r| r.seat))
        .map(|s| s.into_slot(m.game))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((m, seats)))
}

/// A match and its kept moves, oldest first, read in one query so that
/// both come from one snapshot (the history always belongs to the row).
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no match or move.
#[tracing::instrument(skip(conn))]
pub async fn with_history(
    conn: &mut AnyConnection,
    id: MatchId,
) -> Result<Option<(Match, Vec<KeptMove>)>, StorageError> {
    let move_columns: Vec<String> = MOVE_COLUMNS
        .split(", ")
        .map(|c| format!("k.{c} AS mv_{c}"))
        .collect();
    let sql = format!(
        "SELECT {}, {} FROM matches m LEFT JOIN {} ON 1 = 1 WHERE m.id = $1 ORDER BY k.ply",
        prefixed("m", MATCH_COLUMNS),
        move_columns.join(", "),
        kept_moves(1),
    );
    let rows: Vec<MatchMoveRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .fetch_all(&mut *conn)
        .await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let m = Match::try_from(first.m.clone())?;
    let mut moves = Vec::with_capacity(rows.len());
    for r in rows {
        // A match without kept moves comes back as one row of NULLs.
        let row = match r {
            MatchMoveRow { mv_ply: None, .. } => continue,
            MatchMoveRow {
                mv_ply: Some(ply),
                mv_seat: Some(seat),
                mv_side: Some(side),
                mv_action: Some(action),
                mv_code_before: Some(code_before),
                mv_code_after: Some(code_after),
                mv_played_at: Some(played_at),
                mv_clock_first: clock_first,
                mv_clock_second: clock_second,
                mv_halfmove: halfmove,
                ..
            } => MoveRow {
                ply,
                seat,
                side,
                action,
                code_before,
                code_after,
                played_at,
                clock_first,
                clock_second,
                halfmove,
            },
            MatchMoveRow { mv_ply, .. } => return Err(corrupt("moves", mv_ply)),
        };
        moves.push(row.into_move(m.game)?);
    }
    Ok(Some((m, moves)))
}

/// Writes `m`'s state (position, status, takeback offer, time) if the match
/// is still at `read_at`, in one transaction: drops the moves after
/// `truncate_after` (an undo; forks reading them get copies first, see
/// [`release`]), appends `moves` and raises the window's floor to the last
/// [`HISTORY_CAP`] plies. No row is dropped by a move: the record keeps
/// them all. Returns the new version.
///
/// # Errors
///
/// [`StorageError::Conflict`] when the match is no longer at `read_at`;
/// nothing is written then.
#[tracing::instrument(skip(conn, m, moves), fields(id = %m.id, version = %read_at))]
pub async fn write(
    conn: &mut AnyConnection,
    backend: Backend,
    read_at: Version,
    m: &Match,
    truncate_after: Option<i64>,
    moves: &[KeptMove],
    event: &MatchEvent,
) -> Result<Version, StorageError> {
    let id = m.id.to_string();
    let state = StateColumns::of(m);
    // The plies at or below this one leave the window.
    let floor = (!moves.is_empty() && state.ply > HISTORY_CAP).then(|| state.ply - HISTORY_CAP);
    let bounds = Bounds {
        floor,
        above: truncate_after,
    };
    // An undo may have forks to serve first; everything else is one
    // statement on PostgreSQL.
    if backend == Backend::Postgres && truncate_after.is_none() {
        let write = OneStatement {
            id: &id,
            read_at,
            state: &state,
            bounds,
            moves,
            event,
        };
        return write.run(conn).await;
    }
    let mut tx = conn.begin().await?;
    let sql = concat!(update_match_sql!(), " RETURNING id");
    let updated = bind_update(sqlx::query(sql), &state, &id, read_at, bounds)
        .fetch_optional(&mut *tx)
        .await?;
    if updated.is_none() {
        tx.rollback().await?;
        return Err(StorageError::Conflict);
    }
    if let Some(after) = truncate_after {
        release(&mut tx, &id, after).await?;
        sqlx::query("DELETE FROM moves WHERE match_id = $1 AND ply > $2")
            .bind(&id)
            .bind(after)
            .execute(&mut *tx)
            .await?;
    }
    insert_moves(&mut tx, &id, moves).await?;
    record_event(&mut tx, &id, event).await?;
    tx.commit().await?;
    Ok(read_at.next())
}

/// What a write moves: the window's floor (raised by a move), and the ply
/// after which an undo drops the moves.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    floor: Option<i64>,
    above: Option<i64>,
}

/// Binds the parameters of [`update_match_sql`] to `query`.
fn bind_update<'q>(
    query: AnyQuery<'q>,
    state: &StateColumns<'q>,
    id: &'q str,
    read_at: Version,
    bounds: Bounds,
) -> AnyQuery<'q> {
    query
        .bind(state.code)
        .bind(state.to_move)
        .bind(state.ply)
        .bind(state.status)
        .bind(state.winner)
        .bind(state.reason)
        .bind(state.undo_seat)
        .bind(state.undo_ply)
        .bind(state.updated_at)
        .bind(id)
        .bind(read_at.get())
        .bind(bounds.floor.unwrap_or(0))
        .bind(bounds.above.unwrap_or(i64::MAX))
        .bind(state.draw_seat)
        .bind(state.clock_first)
        .bind(state.clock_second)
        .bind(state.clock_since)
        .bind(state.deadline)
        .bind(state.moved_at)
        .bind(state.line_fen.clone())
        .bind(state.line_moves.clone())
}

/// [`write`] on PostgreSQL as one statement: the guarded update, then the
/// inserts (moves and the event) and the notification, each conditional on
/// the update having found the match at `read_at`. Not for an undo.
struct OneStatement<'a> {
    id: &'a str,
    read_at: Version,
    state: &'a StateColumns<'a>,
    bounds: Bounds,
    moves: &'a [KeptMove],
    event: &'a MatchEvent,
}

impl OneStatement<'_> {
    async fn run(self, conn: &mut AnyConnection) -> Result<Version, StorageError> {
        let mut sql = String::from(concat!(
            "WITH u AS (",
            update_match_sql!(),
            " RETURNING id)"
        ));
        let mut n = UPDATE_PARAMS;
        let mut param = || {
            n += 1;
            format!("${n}")
        };
        if !self.moves.is_empty() {
            let rows: Vec<String> = self
                .moves
                .iter()
                .map(|_| {
                    format!(
                        "({})",
                        (0..MOVE_PARAMS)
                            .map(|_| param())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            sql.push_str(&format!(
                ", i AS (INSERT INTO moves (match_id, {MOVE_COLUMNS}) \
                 SELECT u.id, v.* FROM u, (VALUES {}) AS v)",
                rows.join(", ")
            ));
        }
        // The event: its match id comes from `u`, its other columns are
        // parameters.
        let event_params: Vec<String> = (0..EVENT_PARAMS).map(|_| param()).collect();
        sql.push_str(&format!(
            ", e AS (INSERT INTO match_events ({EVENT_COLUMNS}) SELECT u.id, {} FROM u)",
            event_params.join(", ")
        ));
        let event_cap = event_cap(self.event.version);
        if event_cap.is_some() {
            sql.push_str(&format!(
                ", ec AS (DELETE FROM match_events WHERE match_id IN (SELECT id FROM u) AND version <= {})",
                param()
            ));
        }
        sql.push_str(" SELECT count(*) AS updated FROM u");
        let mut query = bind_update(
            sqlx::query(&sql),
            self.state,
            self.id,
            self.read_at,
            self.bounds,
        );
        for mv in self.moves {
            query = bind_move(query, mv);
        }
        query = bind_event(query, self.event);
        if let Some(below) = event_cap {
            query = query.bind(below);
        }
        let row = query.fetch_one(&mut *conn).await?;
        let updated: i64 = row.try_get("updated")?;
        if updated == 1 {
            Ok(self.read_at.next())
        } else {
            Err(StorageError::Conflict)
        }
    }
}
