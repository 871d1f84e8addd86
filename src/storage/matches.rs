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

use qipan_rules::xiangqi::Counters;
use qipan_rules::{AnyPlayer, AnyPosition, GameKind};
use sqlx::any::AnyRow;
use sqlx::{Any, AnyConnection, Connection, Row, Transaction};

use super::{Backend, StorageError};
use crate::games::window::Window;
use crate::matches::clock::Reading;
use crate::matches::events::{EventKind, EventMove, MatchEvent, EVENT_CAP};
use crate::matches::{
    Clock, FileHeaders, KeptMove, Match, MatchEnd, MatchId, MatchStatus, Millis, Mode, Parent,
    Seat, SeatName, SeatSlot, SecretHash, TimeControl, Timestamp, UndoOffer, Version, HISTORY_CAP,
};

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

row! {
/// A `matches` row.
#[derive(Debug, Clone)]
struct MatchRow {
    id: String,
    game: String,
    mode: String,
    code: String,
    to_move: String,
    ply: i64,
    version: i64,
    status: String,
    winner: Option<String>,
    reason: Option<String>,
    undo_seat: Option<String>,
    undo_ply: Option<i64>,
    parent_id: Option<String>,
    parent_ply: Option<i64>,
    created_at: i64,
    updated_at: i64,
    draw_seat: Option<String>,
    time_control: Option<String>,
    clock_base: Option<i64>,
    clock_increment: Option<i64>,
    clock_first: Option<i64>,
    clock_second: Option<i64>,
    clock_since: Option<i64>,
    moved_at: Option<i64>,
    line_fen: Option<String>,
    line_moves: Option<String>,
}
}

row! {
/// A `seats` row, with how many instances hold a stream of it.
#[derive(Debug, Clone)]
struct SeatRow {
    seat: String,
    name: Option<String>,
    token_hash: Option<String>,
    invite_hash: Option<String>,
    joined_at: Option<i64>,
    online: i64,
}
}

/// A match joined with one of its seats.
#[derive(Debug)]
struct MatchSeatRow {
    m: MatchRow,
    seat: SeatRow,
}

impl<'r> sqlx::FromRow<'r, AnyRow> for MatchSeatRow {
    fn from_row(row: &'r AnyRow) -> Result<MatchSeatRow, sqlx::Error> {
        Ok(MatchSeatRow {
            m: MatchRow::from_row(row)?,
            seat: SeatRow::from_row(row)?,
        })
    }
}

row! {
/// A `moves` row.
#[derive(Debug, Clone)]
struct MoveRow {
    ply: i64,
    seat: String,
    side: String,
    action: String,
    code_before: String,
    code_after: String,
    played_at: i64,
    clock_first: Option<i64>,
    clock_second: Option<i64>,
    halfmove: Option<i64>,
}
}

/// A match left-joined with one of its moves (all `mv_` columns NULL when it
/// has none).
#[derive(Debug)]
struct MatchMoveRow {
    m: MatchRow,
    mv_ply: Option<i64>,
    mv_seat: Option<String>,
    mv_side: Option<String>,
    mv_action: Option<String>,
    mv_code_before: Option<String>,
    mv_code_after: Option<String>,
    mv_played_at: Option<i64>,
    mv_clock_first: Option<i64>,
    mv_clock_second: Option<i64>,
    mv_halfmove: Option<i64>,
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

fn corrupt(column: &'static str, value: impl std::fmt::Debug) -> StorageError {
    StorageError::Corrupt {
        column,
        value: format!("{value:?}"),
    }
}

fn seat_of(game: GameKind, column: &'static str, text: &str) -> Result<Seat, StorageError> {
    Seat::parse(game, text).ok_or_else(|| corrupt(column, text))
}

fn side_of(game: GameKind, column: &'static str, text: &str) -> Result<AnyPlayer, StorageError> {
    AnyPlayer::parse(game, text).ok_or_else(|| corrupt(column, text))
}

fn time_of(column: &'static str, ms: i64) -> Result<Timestamp, StorageError> {
    Timestamp::from_millis(ms).ok_or_else(|| corrupt(column, ms))
}

fn status_of(
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
        let window = window_of(&position, r.line_fen.as_deref(), r.line_moves.as_deref())?;
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
            window,
        })
    }
}

/// A match's line since the last capture (xiangqi), read from its row. A
/// row written before lines were kept has none: its line starts at its
/// position, with a halfmove clock of 0.
fn window_of(
    position: &AnyPosition,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Option<Window>, StorageError> {
    let AnyPosition::Xiangqi(p) = position else {
        return Ok(None);
    };
    match (fen, moves) {
        (Some(fen), Some(moves)) => Window::stored(fen, moves)
            .map(Some)
            .ok_or_else(|| corrupt("line_fen", (fen, moves))),
        (None, None) => Ok(Some(Window::new(p.clone(), Counters::default()))),
        other => Err(corrupt("line_fen", other)),
    }
}

impl SeatRow {
    fn into_slot(self, game: GameKind) -> Result<SeatSlot, StorageError> {
        Ok(SeatSlot {
            seat: seat_of(game, "seat", &self.seat)?,
            name: self.name.map(SeatName::stored),
            token: self.token_hash.map(SecretHash::stored),
            invite: self.invite_hash.map(SecretHash::stored),
            joined_at: self
                .joined_at
                .map(|ms| time_of("joined_at", ms))
                .transpose()?,
            online: self.online > 0,
        })
    }
}

impl MoveRow {
    fn into_move(self, game: GameKind) -> Result<KeptMove, StorageError> {
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

row! {
/// A `match_events` row.
#[derive(Debug)]
struct EventRow {
    version: i64,
    kind: String,
    seat: Option<String>,
    ply: i64,
    code: String,
    to_move: String,
    status: String,
    winner: Option<String>,
    reason: Option<String>,
    moves: String,
    back_to: Option<i64>,
    created_at: i64,
    note: Option<String>,
    name: Option<String>,
    clock_first: Option<i64>,
    clock_second: Option<i64>,
    clock_since: Option<i64>,
}
}

/// The moves of an event as they are stored: `[[ply, side, action], …]`.
type StoredMoves = Vec<(i64, String, String)>;

impl EventRow {
    fn into_event(self, game: GameKind) -> Result<MatchEvent, StorageError> {
        let status = status_of(
            game,
            &self.status,
            self.winner.as_deref(),
            self.reason.as_deref(),
        )?;
        let moves: StoredMoves = serde_json::from_str(&self.moves)
            .map_err(|_| corrupt("match_events.moves", &self.moves))?;
        Ok(MatchEvent {
            version: Version::new(self.version),
            kind: EventKind::parse(&self.kind)
                .ok_or_else(|| corrupt("match_events.kind", &self.kind))?,
            seat: self
                .seat
                .map(|s| seat_of(game, "match_events.seat", &s))
                .transpose()?,
            ply: self.ply,
            code: self.code,
            to_move: side_of(game, "match_events.to_move", &self.to_move)?,
            status,
            moves: moves
                .into_iter()
                .map(|(ply, side, action)| {
                    Ok(EventMove {
                        ply,
                        side: side_of(game, "match_events.moves", &side)?,
                        action,
                    })
                })
                .collect::<Result<_, StorageError>>()?,
            back_to: self.back_to,
            note: self.note,
            name: self.name.map(SeatName::stored),
            clock: match (self.clock_first, self.clock_second) {
                (Some(a), Some(b)) => Some(Reading {
                    left: [Millis::new(a), Millis::new(b)],
                    since: self
                        .clock_since
                        .map(|ms| time_of("match_events.clock_since", ms))
                        .transpose()?,
                }),
                (None, None) => None,
                other => return Err(corrupt("match_events.clock_first", other)),
            },
            at: time_of("match_events.created_at", self.created_at)?,
        })
    }
}

const EVENT_COLUMNS: &str = "match_id, version, kind, seat, ply, code, to_move, status, winner, \
     reason, moves, back_to, created_at, note, name, clock_first, clock_second, clock_since";

/// How many columns of an event are bound after `match_id`.
const EVENT_PARAMS: usize = 17;

/// Binds an event's [`EVENT_PARAMS`] columns after `match_id`.
fn bind_event<'q>(query: AnyQuery<'q>, e: &'q MatchEvent) -> AnyQuery<'q> {
    let moves: StoredMoves = e
        .moves
        .iter()
        .map(|mv| (mv.ply, mv.side.as_str().to_owned(), mv.action.clone()))
        .collect();
    query
        .bind(e.version.get())
        .bind(e.kind.as_str())
        .bind(e.seat.map(Seat::as_str))
        .bind(e.ply)
        .bind(e.code.as_str())
        .bind(e.to_move.as_str())
        .bind(state_name(e.status))
        .bind(e.status.winner().map(AnyPlayer::as_str))
        .bind(e.status.reason().map(MatchEnd::as_str))
        .bind(serde_json::to_string(&moves).expect("a list of numbers and strings serializes"))
        .bind(e.back_to)
        .bind(e.at.millis())
        .bind(e.note.as_deref())
        .bind(e.name.as_ref().map(SeatName::as_str))
        .bind(e.clock.map(|c| c.left[0].get()))
        .bind(e.clock.map(|c| c.left[1].get()))
        .bind(e.clock.and_then(|c| c.since).map(Timestamp::millis))
}

/// The version at or below which a write at `version` drops old events:
/// every 16th write drops what fell out of the last [`EVENT_CAP`], so the
/// delete is paid once in 16 writes and at least the last 200 are kept.
fn event_cap(version: Version) -> Option<i64> {
    (version.get() % 16 == 0).then(|| version.get() - EVENT_CAP)
}

/// Stores an event in the write's transaction and now and then drops what
/// falls out of the last [`EVENT_CAP`].
async fn record_event(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    e: &MatchEvent,
) -> Result<(), StorageError> {
    let sql = format!(
        "INSERT INTO match_events ({EVENT_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18)"
    );
    bind_event(sqlx::query(&sql).bind(id), e)
        .execute(&mut **tx)
        .await?;
    if let Some(below) = event_cap(e.version) {
        sqlx::query("DELETE FROM match_events WHERE match_id = $1 AND version <= $2")
            .bind(id)
            .bind(below)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The kept events of a match after `version`, oldest first.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no event.
#[tracing::instrument(skip(conn))]
pub async fn events_after(
    conn: &mut AnyConnection,
    id: MatchId,
    game: GameKind,
    version: Version,
) -> Result<Vec<MatchEvent>, StorageError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM match_events WHERE match_id = $1 AND version > $2 \
         ORDER BY version"
    );
    let rows: Vec<EventRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .bind(version.get())
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter().map(|r| r.into_event(game)).collect()
}

/// One kept event of a match.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no event.
pub async fn event_at(
    conn: &mut AnyConnection,
    id: MatchId,
    game: GameKind,
    version: Version,
) -> Result<Option<MatchEvent>, StorageError> {
    let sql =
        format!("SELECT {EVENT_COLUMNS} FROM match_events WHERE match_id = $1 AND version = $2");
    let row: Option<EventRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .bind(version.get())
        .fetch_optional(&mut *conn)
        .await?;
    row.map(|r| r.into_event(game)).transpose()
}

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

/// The kept moves (the history window) of the match whose id is parameter
/// `$n`, as a derived table `k` of [`MOVE_COLUMNS`]: the moves of its
/// [`record_moves`] above its `kept_from`.
fn kept_moves(n: usize) -> String {
    format!(
        "(SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = ${n} \
         AND ply > (SELECT kept_from FROM matches WHERE id = ${n}) \
         UNION ALL SELECT {} FROM matches f JOIN moves p ON p.match_id = f.base_id \
         WHERE f.id = ${n} AND p.ply <= f.base_ply AND p.ply > f.kept_from) k",
        prefixed("p", MOVE_COLUMNS)
    )
}

/// Every move of the record of the match whose id is parameter `$n`, as a
/// derived table `k` of [`MOVE_COLUMNS`]: its own rows and those of its base
/// up to `base_ply` (see the migration `full_records`). The two never hold
/// the same ply: a match's own rows lie above its `base_ply`.
fn record_moves(n: usize) -> String {
    format!(
        "(SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = ${n} \
         UNION ALL SELECT {} FROM matches f JOIN moves p ON p.match_id = f.base_id \
         WHERE f.id = ${n} AND p.ply <= f.base_ply) k",
        prefixed("p", MOVE_COLUMNS)
    )
}

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
            line_fen: m.window.as_ref().map(|w| w.start.to_string()),
            line_moves: m.window.as_ref().map(Window::moves_text),
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

/// Binds a move's [`MOVE_PARAMS`] columns after `match_id`.
fn bind_move<'q>(query: AnyQuery<'q>, mv: &'q KeptMove) -> AnyQuery<'q> {
    query
        .bind(mv.ply)
        .bind(mv.seat.as_str())
        .bind(mv.side.as_str())
        .bind(&mv.action)
        .bind(&mv.code_before)
        .bind(&mv.code_after)
        .bind(mv.played_at.millis())
        .bind(mv.clock_before.map(|c| c[0].get()))
        .bind(mv.clock_before.map(|c| c[1].get()))
        .bind(mv.halfmove.map(i64::from))
}

/// Inserts `moves` for match `id`, up to [`MOVES_PER_INSERT`] rows a
/// statement.
async fn insert_moves(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    moves: &[KeptMove],
) -> Result<(), StorageError> {
    for chunk in moves.chunks(MOVES_PER_INSERT) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|r| {
                let first = 2 + r * MOVE_PARAMS;
                let params: Vec<String> = (first..first + MOVE_PARAMS)
                    .map(|i| format!("${i}"))
                    .collect();
                format!("($1, {})", params.join(", "))
            })
            .collect();
        let sql = format!(
            "INSERT INTO moves (match_id, {MOVE_COLUMNS}) VALUES {}",
            rows.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(id);
        for mv in chunk {
            q = bind_move(q, mv);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Rows of `moves` one insert statement writes at most (well within both
/// databases' limits on parameters).
const MOVES_PER_INSERT: usize = 100;

/// Inserts an imported match with its seats and what its file said of
/// the game (`record_headers`), in one transaction. Its moves are written
/// next, as a move of any match is.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip_all, fields(id = %m.id))]
pub async fn insert_imported(
    conn: &mut AnyConnection,
    m: &Match,
    seats: &[SeatSlot],
    headers: Option<&FileHeaders>,
) -> Result<(), StorageError> {
    let mut tx = conn.begin().await?;
    insert_in(&mut tx, m, seats).await?;
    if let Some(h) = headers {
        let [first, second] = &h.players;
        sqlx::query(
            "INSERT INTO record_headers (match_id, event, site, date, round, first_player, \
             second_player, result, ply) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(m.id.to_string())
        .bind(h.event.as_deref())
        .bind(h.site.as_deref())
        .bind(h.date.as_deref())
        .bind(h.round.as_deref())
        .bind(first.as_deref())
        .bind(second.as_deref())
        .bind(h.result.as_deref())
        .bind(h.ply)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The columns of a `record_headers` row after `match_id`.
type HeadersRow = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    i64,
);

/// What the file match `id` was imported from said of its game; `None`
/// for a match not imported (or imported before headers were kept).
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip(conn))]
pub async fn file_headers(
    conn: &mut AnyConnection,
    id: MatchId,
) -> Result<Option<FileHeaders>, StorageError> {
    let row: Option<HeadersRow> = sqlx::query_as(
        "SELECT event, site, date, round, first_player, second_player, result, ply \
         FROM record_headers WHERE match_id = $1",
    )
    .bind(id.to_string())
    .fetch_optional(conn)
    .await?;
    Ok(row.map(
        |(event, site, date, round, first, second, result, ply)| FileHeaders {
            event,
            site,
            date,
            round,
            players: [first, second],
            result,
            ply,
        },
    ))
}

/// A match, its seats and every move of its record.
pub type FullRecord = (Match, Vec<SeatSlot>, Vec<KeptMove>);

/// A match, its seats and every move of its record, oldest first, from one
/// snapshot.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no match or move.
#[tracing::instrument(skip(conn))]
pub async fn record(
    conn: &mut AnyConnection,
    backend: Backend,
    id: MatchId,
) -> Result<Option<FullRecord>, StorageError> {
    let mut tx = snapshot(conn, backend).await?;
    let Some((m, seats)) = load(&mut tx, id).await? else {
        tx.commit().await?;
        return Ok(None);
    };
    let sql = format!(
        "SELECT {MOVE_COLUMNS} FROM {} ORDER BY ply",
        record_moves(1)
    );
    let rows: Vec<MoveRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    let moves = rows
        .into_iter()
        .map(|r| r.into_move(m.game))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((m, seats, moves)))
}

/// A transaction whose reads all see one snapshot of the database: on
/// PostgreSQL `REPEATABLE READ`; SQLite's transactions always do (and its
/// one connection serialises them anyway).
///
/// # Errors
///
/// [`StorageError`].
pub async fn snapshot(
    conn: &mut AnyConnection,
    backend: Backend,
) -> Result<Transaction<'_, Any>, StorageError> {
    Ok(match backend {
        Backend::Postgres => {
            conn.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ")
                .await?
        }
        Backend::Sqlite => conn.begin().await?,
    })
}

/// Inserts fork `m` with its seats, inside `tx` (a [`snapshot`] in which
/// the parent was read). No move is copied for it: the fork reads its
/// parent's record up to the fork's ply (see [`record_moves`]), and keeps
/// its parent's window floor. A fork of a fork reads the same base as its
/// parent (one level, however deep the forks go) and copies the moves its
/// parent made itself up to the fork's ply; if that base is gone, it
/// copies its parent's record up to there instead, so that nothing new
/// ever reads a deleted match's rows.
///
/// The base's row is locked (shared among forks): a write of the base since
/// the snapshot makes this fail with [`StorageError::Conflict`] (PostgreSQL's
/// serialization failure), and one after waits for the fork, so that an
/// undo of the base always finds the forks it must serve ([`release`]).
///
/// # Errors
///
/// [`StorageError::Conflict`] when the base was written since the snapshot
/// began; others.
#[tracing::instrument(skip_all, fields(id = %m.id))]
pub async fn insert_fork(
    tx: &mut Transaction<'_, Any>,
    backend: Backend,
    m: &Match,
    seats: &[SeatSlot],
    parent: Parent,
) -> Result<(), StorageError> {
    let parent_id = parent.id.to_string();
    let (kept_from, base_id, base_ply): (i64, Option<String>, Option<i64>) =
        sqlx::query_as("SELECT kept_from, base_id, base_ply FROM matches WHERE id = $1")
            .bind(&parent_id)
            .fetch_one(&mut **tx)
            .await?;
    let kept_from = kept_from.min(parent.ply);
    let id = m.id.to_string();
    let (base, base_ply) = match (base_id, base_ply) {
        (Some(base), Some(upto)) => (base, upto.min(parent.ply)),
        _ => (parent_id.clone(), parent.ply),
    };
    let lock = match backend {
        Backend::Postgres => "SELECT id FROM matches WHERE id = $1 FOR SHARE",
        // SQLite runs one write transaction at a time.
        Backend::Sqlite => "SELECT id FROM matches WHERE id = $1",
    };
    let base_lives: Option<String> = sqlx::query_scalar(lock)
        .bind(&base)
        .fetch_optional(&mut **tx)
        .await?;
    if base_lives.is_none() {
        insert_sharing(tx, m, seats, kept_from, None).await?;
        let sql = format!(
            "INSERT INTO moves (match_id, {MOVE_COLUMNS}) SELECT $2, {MOVE_COLUMNS} FROM {} \
             WHERE ply <= $3",
            record_moves(1)
        );
        sqlx::query(&sql)
            .bind(&parent_id)
            .bind(&id)
            .bind(parent.ply)
            .execute(&mut **tx)
            .await?;
        return Ok(());
    }
    insert_sharing(tx, m, seats, kept_from, Some((&base, base_ply))).await?;
    if base != parent_id {
        let sql = format!(
            "INSERT INTO moves (match_id, {MOVE_COLUMNS}) SELECT $2, {MOVE_COLUMNS} \
             FROM moves WHERE match_id = $1 AND ply <= $3"
        );
        sqlx::query(&sql)
            .bind(&parent_id)
            .bind(&id)
            .bind(parent.ply)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// Before match `id` drops its moves after `above` (an undo), copies those
/// its forks read into the forks and narrows the forks' share of it to
/// `above`, in the caller's transaction: at most the window's moves for
/// each fork made within the window. Runs after the match's row is locked
/// (its guarded update), so a fork being made meanwhile either committed
/// before (and is found here) or fails on the changed row.
async fn release(tx: &mut Transaction<'_, Any>, id: &str, above: i64) -> Result<(), StorageError> {
    let sql = format!(
        "INSERT INTO moves (match_id, {MOVE_COLUMNS}) SELECT f.id, {} \
         FROM matches f JOIN moves p ON p.match_id = f.base_id \
         WHERE f.base_id = $1 AND p.ply > $2 AND p.ply <= f.base_ply",
        prefixed("p", MOVE_COLUMNS)
    );
    sqlx::query(&sql)
        .bind(id)
        .bind(above)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE matches SET base_ply = $2 WHERE base_id = $1 AND base_ply > $2")
        .bind(id)
        .bind(above)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The state code at ply `ply` of match `m`, from its kept history: after
/// kept move `ply`, or before kept move `ply + 1`. `None` when neither is
/// kept.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip(conn, m), fields(id = %m.id))]
pub async fn code_at(
    conn: &mut AnyConnection,
    m: &Match,
    ply: i64,
) -> Result<Option<String>, StorageError> {
    let sql = format!(
        "SELECT ply, code_before, code_after FROM {} WHERE ply = $2 OR ply = $3 \
         ORDER BY ply LIMIT 1",
        kept_moves(1)
    );
    let row: Option<(i64, String, String)> = sqlx::query_as(&sql)
        .bind(m.id.to_string())
        .bind(ply)
        .bind(ply.saturating_add(1))
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.map(|(at, before, after)| if at == ply { after } else { before }))
}

/// The oldest kept ply of match `m` (the ply before its oldest kept move),
/// or its current ply when it keeps no move.
///
/// # Errors
///
/// [`StorageError`].
pub async fn oldest_kept(conn: &mut AnyConnection, m: &Match) -> Result<i64, StorageError> {
    let sql = format!("SELECT min(ply) FROM {}", kept_moves(1));
    let first: Option<i64> = sqlx::query_scalar(&sql)
        .bind(m.id.to_string())
        .fetch_one(&mut *conn)
        .await?;
    Ok(first.map_or(m.ply, |p| p - 1))
}

/// When `seat` of a match last went offline, if it ever did.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a time out of range.
pub async fn left_at(
    conn: &mut AnyConnection,
    id: MatchId,
    seat: Seat,
) -> Result<Option<Timestamp>, StorageError> {
    let ms: Option<i64> =
        sqlx::query_scalar("SELECT left_at FROM seats WHERE match_id = $1 AND seat = $2")
            .bind(id.to_string())
            .bind(seat.as_str())
            .fetch_optional(&mut *conn)
            .await?
            .flatten();
    ms.map(|ms| Timestamp::from_millis(ms).ok_or_else(|| corrupt("left_at", ms)))
        .transpose()
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
        "SELECT {MATCH_COLUMNS}, seat, name, token_hash, invite_hash, joined_at, \
         (SELECT count(*) FROM seat_presence p WHERE p.match_id = seats.match_id \
          AND p.seat = seats.seat AND p.seen_at > $2) AS online \
         FROM matches JOIN seats ON seats.match_id = matches.id WHERE matches.id = $1 \
         ORDER BY joined_at IS NULL, joined_at, seat"
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

/// One kept move, by ply.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip(conn, m), fields(id = %m.id))]
pub async fn move_at(
    conn: &mut AnyConnection,
    m: &Match,
    ply: i64,
) -> Result<Option<KeptMove>, StorageError> {
    let sql = format!(
        "SELECT {MOVE_COLUMNS} FROM {} WHERE ply = $2",
        kept_moves(1)
    );
    let row: Option<MoveRow> = sqlx::query_as(&sql)
        .bind(m.id.to_string())
        .bind(ply)
        .fetch_optional(&mut *conn)
        .await?;
    row.map(|r| r.into_move(m.game)).transpose()
}

/// The kept moves up to ply `upto` (inclusive), oldest first.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip(conn, m), fields(id = %m.id))]
pub async fn moves_upto(
    conn: &mut AnyConnection,
    m: &Match,
    upto: i64,
) -> Result<Vec<KeptMove>, StorageError> {
    let sql = format!(
        "SELECT {MOVE_COLUMNS} FROM {} WHERE ply <= $2 ORDER BY ply",
        kept_moves(1)
    );
    let rows: Vec<MoveRow> = sqlx::query_as(&sql)
        .bind(m.id.to_string())
        .bind(upto)
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter().map(|r| r.into_move(m.game)).collect()
}

/// The latest kept move a seat played.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip(conn, m), fields(id = %m.id))]
pub async fn last_move_of(
    conn: &mut AnyConnection,
    m: &Match,
    seat: Seat,
) -> Result<Option<KeptMove>, StorageError> {
    let sql = format!(
        "SELECT {MOVE_COLUMNS} FROM {} WHERE seat = $2 ORDER BY ply DESC LIMIT 1",
        kept_moves(1)
    );
    let row: Option<MoveRow> = sqlx::query_as(&sql)
        .bind(m.id.to_string())
        .bind(seat.as_str())
        .fetch_optional(&mut *conn)
        .await?;
    row.map(|r| r.into_move(m.game)).transpose()
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

/// Gives an open seat its token, if the match is still at `read_at` and the
/// seat still open. Returns the new version.
///
/// # Errors
///
/// [`StorageError::Conflict`] when either has changed; nothing is written.
#[tracing::instrument(skip(conn, token, name, joined), fields(id = %id, seat = seat.as_str()))]
#[allow(clippy::too_many_arguments)]
pub async fn take_seat(
    conn: &mut AnyConnection,
    backend: Backend,
    id: MatchId,
    read_at: Version,
    seat: Seat,
    token: &SecretHash,
    name: Option<&SeatName>,
    joined: &MatchEvent,
) -> Result<Version, StorageError> {
    let now = joined.at;
    let id = id.to_string();
    let mut tx = conn.begin().await?;
    let bumped = sqlx::query(
        "UPDATE matches SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3",
    )
    .bind(now.millis())
    .bind(&id)
    .bind(read_at.get())
    .execute(&mut *tx)
    .await?;
    let taken = sqlx::query(
        "UPDATE seats SET token_hash = $1, joined_at = $2, name = $5 \
         WHERE match_id = $3 AND seat = $4 AND token_hash IS NULL",
    )
    .bind(token.as_str())
    .bind(now.millis())
    .bind(&id)
    .bind(seat.as_str())
    .bind(name.map(SeatName::as_str))
    .execute(&mut *tx)
    .await?;
    if bumped.rows_affected() != 1 || taken.rows_affected() != 1 {
        tx.rollback().await?;
        return Err(StorageError::Conflict);
    }
    record_event(&mut tx, &id, joined).await?;
    tx.commit().await?;
    Ok(read_at.next())
}

/// Sets the invites of open seats (`None` voids a seat's invite), if the
/// match is still at `read_at` and each seat still open. Returns the new
/// version.
///
/// # Errors
///
/// [`StorageError::Conflict`] when the match or a seat has changed; nothing
/// is written.
#[tracing::instrument(skip(conn, invites, event), fields(id = %id))]
pub async fn set_invites(
    conn: &mut AnyConnection,
    id: MatchId,
    read_at: Version,
    invites: &[(Seat, Option<SecretHash>)],
    event: &MatchEvent,
) -> Result<Version, StorageError> {
    let id = id.to_string();
    let mut tx = conn.begin().await?;
    let bumped = sqlx::query(
        "UPDATE matches SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3",
    )
    .bind(event.at.millis())
    .bind(&id)
    .bind(read_at.get())
    .execute(&mut *tx)
    .await?;
    let mut changed = bumped.rows_affected() == 1;
    for (seat, invite) in invites {
        if !changed {
            break;
        }
        let set = sqlx::query(
            "UPDATE seats SET invite_hash = $1 \
             WHERE match_id = $2 AND seat = $3 AND token_hash IS NULL",
        )
        .bind(invite.as_ref().map(SecretHash::as_str))
        .bind(&id)
        .bind(seat.as_str())
        .execute(&mut *tx)
        .await?;
        changed = set.rows_affected() == 1;
    }
    if !changed {
        tx.rollback().await?;
        return Err(StorageError::Conflict);
    }
    record_event(&mut tx, &id, event).await?;
    tx.commit().await?;
    Ok(read_at.next())
}

/// The matches whose flag has fallen by `now` and that are still being
/// played, earliest first, at most `limit`.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for an id that is no match id.
pub async fn flags_fallen(
    conn: &mut AnyConnection,
    now: Timestamp,
    limit: i64,
) -> Result<Vec<MatchId>, StorageError> {
    let ids: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM matches WHERE deadline IS NOT NULL AND deadline <= $1 \
         AND status = 'ongoing' ORDER BY deadline LIMIT $2",
    )
    .bind(now.millis())
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    ids.iter()
        .map(|id| id.parse().map_err(|_| corrupt("id", id)))
        .collect()
}

/// The earliest deadline of a match still being played, if any runs.
///
/// # Errors
///
/// [`StorageError`].
pub async fn next_deadline(conn: &mut AnyConnection) -> Result<Option<Timestamp>, StorageError> {
    let ms: Option<i64> = sqlx::query_scalar(
        "SELECT min(deadline) FROM matches WHERE deadline IS NOT NULL AND status = 'ongoing'",
    )
    .fetch_one(&mut *conn)
    .await?;
    ms.map(|ms| time_of("deadline", ms)).transpose()
}
