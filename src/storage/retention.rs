//! Deleting matches that are kept no longer (see
//! [`crate::matches::retention`]): one small batch per call, so a sweep
//! never holds the database for long.

use sqlx::AnyConnection;

use super::StorageError;
use crate::matches::Timestamp;

/// Deletes up to `batch` matches that last changed before `idle_before`
/// (any status), or, finished, before `finished_before`. A fork of a
/// deleted match keeps its moves and loses its parent link. Seats, kept
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
    let orphan = format!(
        "UPDATE matches SET parent_id = NULL, parent_ply = NULL WHERE parent_id IN ({list})"
    );
    let mut q = sqlx::query(&orphan);
    for id in &ids {
        q = q.bind(id);
    }
    q.execute(&mut *tx).await?;
    // The rules are asked again: a match written since the read stays.
    let delete = format!(
        "DELETE FROM matches WHERE id IN ({list}) AND (updated_at < ${a} \
         OR (status <> 'ongoing' AND updated_at < ${b}))",
        a = ids.len() + 1,
        b = ids.len() + 2,
    );
    let mut q = sqlx::query(&delete);
    for id in &ids {
        q = q.bind(id);
    }
    let deleted = q.bind(idle).bind(finished).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(deleted.rows_affected())
}

/// `$1, $2, …, $n`.
fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
