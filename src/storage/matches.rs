//! The SQL of persisted matches: plain queries over the `matches`, `seats`
//! and `moves` tables (see `migrations/`).
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

use sqlx::any::AnyRow;
use sqlx::{Any, AnyConnection, Connection, Row, Transaction};

use super::{Backend, StorageError};

/// The most moves a match keeps.
pub const HISTORY_CAP: i64 = 100;

/// A `matches` row.
#[derive(Debug, Clone)]
pub struct MatchRow {
    /// UUID.
    pub id: String,
    /// Game name.
    pub game: String,
    /// `duel` or `solo`.
    pub mode: String,
    /// Current state code.
    pub code: String,
    /// Side to move.
    pub to_move: String,
    /// Moves made since the match began.
    pub ply: i64,
    /// Bumped by every write.
    pub version: i64,
    /// `ongoing`, `won`, `drawn` or `over`.
    pub status: String,
    /// The winning side, when there is one.
    pub winner: Option<String>,
    /// How the match ended.
    pub reason: Option<String>,
    /// The seat offering a takeback.
    pub undo_seat: Option<String>,
    /// The ply the takeback returns to.
    pub undo_ply: Option<i64>,
    /// The match this one was forked from.
    pub parent_id: Option<String>,
    /// The parent's ply it was forked at.
    pub parent_ply: Option<i64>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Milliseconds since the Unix epoch.
    pub updated_at: i64,
}

/// A `seats` row.
#[derive(Debug, Clone)]
pub struct SeatRow {
    /// The seat's name.
    pub seat: String,
    /// SHA-256 (hex) of its token, once taken.
    pub token_hash: Option<String>,
    /// SHA-256 (hex) of its invite.
    pub invite_hash: Option<String>,
    /// When it was taken.
    pub joined_at: Option<i64>,
}

/// A `moves` row.
#[derive(Debug, Clone)]
pub struct MoveRow {
    /// 1 for the first move of the match.
    pub ply: i64,
    /// The seat whose token played it.
    pub seat: String,
    /// The side that moved.
    pub side: String,
    /// The action in the game's notation.
    pub action: String,
    /// The code before the move.
    pub code_before: String,
    /// The code after it.
    pub code_after: String,
    /// Milliseconds since the Unix epoch.
    pub played_at: i64,
}

/// The new current state of a match, written by [`write`].
#[derive(Debug, Clone)]
pub struct NewState<'a> {
    /// Code.
    pub code: &'a str,
    /// Side to move.
    pub to_move: &'a str,
    /// Ply.
    pub ply: i64,
    /// Status, winner, reason.
    pub status: &'a str,
    /// Winner.
    pub winner: Option<&'a str>,
    /// Reason.
    pub reason: Option<&'a str>,
    /// A takeback offer: the seat and the ply it returns to.
    pub undo: Option<(&'a str, i64)>,
    /// The time of the write.
    pub now: i64,
}

/// The guarded `UPDATE` of a match row, with parameters `$1` to `$11`.
macro_rules! update_match_sql {
    () => {
        "UPDATE matches SET code = $1, to_move = $2, ply = $3, status = $4, winner = $5, \
         reason = $6, undo_seat = $7, undo_ply = $8, version = version + 1, updated_at = $9 \
         WHERE id = $10 AND version = $11"
    };
}

const MATCH_COLUMNS: &str = "id, game, mode, code, to_move, ply, version, status, winner, \
     reason, undo_seat, undo_ply, parent_id, parent_ply, created_at, updated_at";

fn match_row(r: &AnyRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        id: r.try_get(0)?,
        game: r.try_get(1)?,
        mode: r.try_get(2)?,
        code: r.try_get(3)?,
        to_move: r.try_get(4)?,
        ply: r.try_get(5)?,
        version: r.try_get(6)?,
        status: r.try_get(7)?,
        winner: r.try_get(8)?,
        reason: r.try_get(9)?,
        undo_seat: r.try_get(10)?,
        undo_ply: r.try_get(11)?,
        parent_id: r.try_get(12)?,
        parent_ply: r.try_get(13)?,
        created_at: r.try_get(14)?,
        updated_at: r.try_get(15)?,
    })
}

/// A move from the columns of [`MOVE_COLUMNS`], starting at column `at`.
fn move_row(r: &AnyRow, at: usize) -> Result<MoveRow, sqlx::Error> {
    Ok(MoveRow {
        ply: r.try_get(at)?,
        seat: r.try_get(at + 1)?,
        side: r.try_get(at + 2)?,
        action: r.try_get(at + 3)?,
        code_before: r.try_get(at + 4)?,
        code_after: r.try_get(at + 5)?,
        played_at: r.try_get(at + 6)?,
    })
}

const MOVE_COLUMNS: &str = "ply, seat, side, action, code_before, code_after, played_at";

/// Inserts a new match with its seats and (for a fork) its copied history,
/// in one transaction.
///
/// # Errors
///
/// [`StorageError`].
pub async fn insert(
    conn: &mut AnyConnection,
    m: &MatchRow,
    seats: &[SeatRow],
    moves: &[MoveRow],
) -> Result<(), StorageError> {
    let mut tx = conn.begin().await?;
    let sql = format!(
        "INSERT INTO matches ({MATCH_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
    );
    sqlx::query(&sql)
        .bind(&m.id)
        .bind(&m.game)
        .bind(&m.mode)
        .bind(&m.code)
        .bind(&m.to_move)
        .bind(m.ply)
        .bind(m.version)
        .bind(&m.status)
        .bind(&m.winner)
        .bind(&m.reason)
        .bind(&m.undo_seat)
        .bind(m.undo_ply)
        .bind(&m.parent_id)
        .bind(m.parent_ply)
        .bind(m.created_at)
        .bind(m.updated_at)
        .execute(&mut *tx)
        .await?;
    for s in seats {
        sqlx::query(
            "INSERT INTO seats (match_id, seat, token_hash, invite_hash, joined_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&m.id)
        .bind(&s.seat)
        .bind(&s.token_hash)
        .bind(&s.invite_hash)
        .bind(s.joined_at)
        .execute(&mut *tx)
        .await?;
    }
    insert_moves(&mut tx, &m.id, moves).await?;
    tx.commit().await?;
    Ok(())
}

async fn insert_moves(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    moves: &[MoveRow],
) -> Result<(), StorageError> {
    for mv in moves {
        sqlx::query(
            "INSERT INTO moves (match_id, ply, seat, side, action, code_before, code_after, \
             played_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(mv.ply)
        .bind(&mv.seat)
        .bind(&mv.side)
        .bind(&mv.action)
        .bind(&mv.code_before)
        .bind(&mv.code_after)
        .bind(mv.played_at)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A match and its seats, in one query.
///
/// # Errors
///
/// [`StorageError`].
pub async fn load(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<(MatchRow, Vec<SeatRow>)>, StorageError> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS}, seat, token_hash, invite_hash, joined_at FROM matches \
         JOIN seats ON seats.match_id = matches.id WHERE matches.id = $1 \
         ORDER BY joined_at IS NULL, joined_at, seat"
    );
    let rows = sqlx::query(&sql).bind(id).fetch_all(&mut *conn).await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let m = match_row(first)?;
    let seats = rows
        .iter()
        .map(|r| {
            Ok(SeatRow {
                seat: r.try_get(16)?,
                token_hash: r.try_get(17)?,
                invite_hash: r.try_get(18)?,
                joined_at: r.try_get(19)?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    Ok(Some((m, seats)))
}

/// A match and its kept moves, oldest first, read in one query so that
/// both come from one snapshot (the history always belongs to the row).
///
/// # Errors
///
/// [`StorageError`].
pub async fn with_history(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<(MatchRow, Vec<MoveRow>)>, StorageError> {
    let match_columns: Vec<String> = MATCH_COLUMNS
        .split(", ")
        .map(|c| format!("m.{c}"))
        .collect();
    let move_columns: Vec<String> = MOVE_COLUMNS
        .split(", ")
        .map(|c| format!("mv.{c}"))
        .collect();
    let sql = format!(
        "SELECT {}, {} FROM matches m LEFT JOIN moves mv ON mv.match_id = m.id \
         WHERE m.id = $1 ORDER BY mv.ply",
        match_columns.join(", "),
        move_columns.join(", ")
    );
    let rows = sqlx::query(&sql).bind(id).fetch_all(&mut *conn).await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let m = match_row(first)?;
    let mut moves = Vec::with_capacity(rows.len());
    for r in &rows {
        // A match without kept moves comes back as one row of NULLs.
        if r.try_get::<Option<i64>, _>(16)?.is_some() {
            moves.push(move_row(r, 16)?);
        }
    }
    Ok(Some((m, moves)))
}

/// One kept move, by ply.
///
/// # Errors
///
/// [`StorageError`].
pub async fn move_at(
    conn: &mut AnyConnection,
    id: &str,
    ply: i64,
) -> Result<Option<MoveRow>, StorageError> {
    let sql = format!("SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = $1 AND ply = $2");
    fetch_move(conn, sqlx::query(&sql).bind(id).bind(ply)).await
}

/// The latest kept move a seat played.
///
/// # Errors
///
/// [`StorageError`].
pub async fn last_move_of(
    conn: &mut AnyConnection,
    id: &str,
    seat: &str,
) -> Result<Option<MoveRow>, StorageError> {
    let sql = format!(
        "SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = $1 AND seat = $2 \
         ORDER BY ply DESC LIMIT 1"
    );
    fetch_move(conn, sqlx::query(&sql).bind(id).bind(seat)).await
}

/// The move a query of [`MOVE_COLUMNS`] finds, if any.
async fn fetch_move(
    conn: &mut AnyConnection,
    query: AnyQuery<'_>,
) -> Result<Option<MoveRow>, StorageError> {
    let row = query.fetch_optional(&mut *conn).await?;
    Ok(row.as_ref().map(|r| move_row(r, 0)).transpose()?)
}

/// Moves a match to a new current state in one transaction, if it is still
/// at `version`: drops the kept moves after `truncate_after` (an undo),
/// appends `moves` and drops what falls out of the last [`HISTORY_CAP`].
/// Returns the new version.
///
/// # Errors
///
/// [`StorageError::Conflict`] when the match is no longer at `version`;
/// nothing is written then.
pub async fn write(
    conn: &mut AnyConnection,
    backend: Backend,
    id: &str,
    version: i64,
    state: &NewState<'_>,
    truncate_after: Option<i64>,
    moves: &[MoveRow],
) -> Result<i64, StorageError> {
    // The plies at or below this one fall out of the history.
    let cap = (!moves.is_empty() && state.ply > HISTORY_CAP).then(|| state.ply - HISTORY_CAP);
    // One statement cannot both drop and re-add a ply: an undo (which adds
    // nothing) or a move (which drops nothing above it) only.
    if backend == Backend::Postgres && (truncate_after.is_none() || moves.is_empty()) {
        return write_one_statement(conn, id, version, state, truncate_after, moves, cap).await;
    }
    let mut tx = conn.begin().await?;
    let done = bind_update(sqlx::query(update_match_sql!()), state, id, version)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() != 1 {
        tx.rollback().await?;
        return Err(StorageError::Conflict);
    }
    if let Some(after) = truncate_after {
        sqlx::query("DELETE FROM moves WHERE match_id = $1 AND ply > $2")
            .bind(id)
            .bind(after)
            .execute(&mut *tx)
            .await?;
    }
    insert_moves(&mut tx, id, moves).await?;
    if let Some(below) = cap {
        sqlx::query("DELETE FROM moves WHERE match_id = $1 AND ply <= $2")
            .bind(id)
            .bind(below)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(version + 1)
}

type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// Binds the parameters of [`update_match_sql`] to `query`.
fn bind_update<'q>(
    query: AnyQuery<'q>,
    state: &NewState<'q>,
    id: &'q str,
    version: i64,
) -> AnyQuery<'q> {
    let (undo_seat, undo_ply) = state.undo.unzip();
    query
        .bind(state.code)
        .bind(state.to_move)
        .bind(state.ply)
        .bind(state.status)
        .bind(state.winner)
        .bind(state.reason)
        .bind(undo_seat)
        .bind(undo_ply)
        .bind(state.now)
        .bind(id)
        .bind(version)
}

/// [`write`] on PostgreSQL as one statement: the guarded update, then the
/// deletes and inserts, each conditional on the update having found the
/// match at `version`.
async fn write_one_statement(
    conn: &mut AnyConnection,
    id: &str,
    version: i64,
    state: &NewState<'_>,
    truncate_after: Option<i64>,
    moves: &[MoveRow],
    cap: Option<i64>,
) -> Result<i64, StorageError> {
    let mut sql = String::from(concat!(
        "WITH u AS (",
        update_match_sql!(),
        " RETURNING id)"
    ));
    let mut n = 11;
    let mut param = || {
        n += 1;
        format!("${n}")
    };
    if truncate_after.is_some() {
        sql.push_str(&format!(
            ", t AS (DELETE FROM moves WHERE match_id IN (SELECT id FROM u) AND ply > {})",
            param()
        ));
    }
    if !moves.is_empty() {
        let rows: Vec<String> = moves
            .iter()
            .map(|_| {
                format!(
                    "({})",
                    (0..7).map(|_| param()).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        sql.push_str(&format!(
            ", i AS (INSERT INTO moves (match_id, ply, seat, side, action, code_before, \
             code_after, played_at) SELECT u.id, v.* FROM u, (VALUES {}) AS v)",
            rows.join(", ")
        ));
    }
    if cap.is_some() {
        sql.push_str(&format!(
            ", c AS (DELETE FROM moves WHERE match_id IN (SELECT id FROM u) AND ply <= {})",
            param()
        ));
    }
    sql.push_str(" SELECT count(*) FROM u");
    let mut query = bind_update(sqlx::query(&sql), state, id, version);
    if let Some(after) = truncate_after {
        query = query.bind(after);
    }
    for mv in moves {
        query = query
            .bind(mv.ply)
            .bind(&mv.seat)
            .bind(&mv.side)
            .bind(&mv.action)
            .bind(&mv.code_before)
            .bind(&mv.code_after)
            .bind(mv.played_at);
    }
    if let Some(below) = cap {
        query = query.bind(below);
    }
    let row = query.fetch_one(&mut *conn).await?;
    let updated: i64 = row.try_get(0)?;
    if updated == 1 {
        Ok(version + 1)
    } else {
        Err(StorageError::Conflict)
    }
}

/// Gives an open seat its token, if the match is still at `version` and the
/// seat still open. Returns the new version.
///
/// # Errors
///
/// [`StorageError::Conflict`] when either has changed; nothing is written.
pub async fn take_seat(
    conn: &mut AnyConnection,
    id: &str,
    version: i64,
    seat: &str,
    token_hash: &str,
    now: i64,
) -> Result<i64, StorageError> {
    let mut tx = conn.begin().await?;
    let bumped = sqlx::query(
        "UPDATE matches SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3",
    )
    .bind(now)
    .bind(id)
    .bind(version)
    .execute(&mut *tx)
    .await?;
    let taken = sqlx::query(
        "UPDATE seats SET token_hash = $1, joined_at = $2 \
         WHERE match_id = $3 AND seat = $4 AND token_hash IS NULL",
    )
    .bind(token_hash)
    .bind(now)
    .bind(id)
    .bind(seat)
    .execute(&mut *tx)
    .await?;
    if bumped.rows_affected() != 1 || taken.rows_affected() != 1 {
        tx.rollback().await?;
        return Err(StorageError::Conflict);
    }
    tx.commit().await?;
    Ok(version + 1)
}
