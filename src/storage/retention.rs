//! Deleting matches that are kept no longer (see
//! [`crate::matches::retention`]): one small batch per call, so a sweep
//! never holds the database for long.

use sqlx::AnyConnection;

use super::matches::{prefixed, MOVE_COLUMNS};
use super::StorageError;
use crate::matches::{Timestamp, HISTORY_CAP};

/// Deletes up to `batch` matches that last changed before `idle_before`
/// (any status), or, finished, before `finished_before`. A fork of a
/// deleted match keeps its moves (those it read from the parent are copied
/// into it) and loses its parent link. Seats, kept
/// moves, events and presence go with their match (`ON DELETE CASCADE`).
/// Returns how many were deleted.
///
/// # Errors
///
/// [`StorageError`].
pub async fn delete_expired(
    conn: &mut AnyConnection,
    idle_before: Option<Timestamp>,
    finished_before: Option<Timestamp>,
    batch: i64,
) -> Result<u64, StorageError> {
    // i64::MIN matches nothing: a rule that is off.
    let idle = idle_before.map_or(i64::MIN, Timestamp::millis);
    let finished = finished_before.map_or(i64::MIN, Timestamp::millis);
    // Read first: a read never waits for SQLite's write lock, and most
    // rounds find nothing.
    let ids: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM matches WHERE updated_at < $1 \
         OR (status <> 'ongoing' AND updated_at < $2) ORDER BY updated_at LIMIT $3",
    )
    .bind(idle)
    .bind(finished)
    .bind(batch)
    .fetch_all(&mut *conn)
    .await?;
    if ids.is_empty() {
        return Ok(0);
    }
    let list = placeholders(ids.len());
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    // The rules are asked again, and the rows kept locked to the end: a
    // match written since the read stays, and no fork of one that goes can
    // be made meanwhile.
    let lock = format!(
        "UPDATE matches SET shared = shared WHERE id IN ({list}) AND (updated_at < ${a} \
         OR (status <> 'ongoing' AND updated_at < ${b})) RETURNING id",
        a = ids.len() + 1,
        b = ids.len() + 2,
    );
    let mut q = sqlx::query_scalar(&lock);
    for id in &ids {
        q = q.bind(id);
    }
    let doomed: Vec<String> = q.bind(idle).bind(finished).fetch_all(&mut *tx).await?;
    if doomed.is_empty() {
        tx.commit().await?;
        return Ok(0);
    }
    let list = placeholders(doomed.len());
    // A fork keeps the moves it read from a deleted parent (those of its
    // last HISTORY_CAP plies), and loses its parent link.
    let keep = format!(
        "INSERT INTO moves (match_id, {MOVE_COLUMNS}) SELECT f.id, {} \
         FROM matches f JOIN moves p ON p.match_id = f.parent_id \
         WHERE f.parent_id IN ({list}) AND p.ply > f.shares_from AND p.ply <= f.shares_upto \
         AND p.ply > f.ply - ${cap}",
        prefixed("p", MOVE_COLUMNS),
        cap = doomed.len() + 1
    );
    let orphan = format!(
        "UPDATE matches SET parent_id = NULL, parent_ply = NULL, shares_from = 0, \
         shares_upto = 0 WHERE parent_id IN ({list})"
    );
    let delete = format!("DELETE FROM matches WHERE id IN ({list})");
    for (sql, cap) in [(&keep, Some(HISTORY_CAP)), (&orphan, None), (&delete, None)] {
        let mut q = sqlx::query(sql);
        for id in &doomed {
            q = q.bind(id);
        }
        if let Some(cap) = cap {
            q = q.bind(cap);
        }
        q.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(doomed.len() as u64)
}

/// `$1, $2, …, $n`.
fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
