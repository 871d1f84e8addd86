//! Deadlines: the matches whose flag has fallen, and the next deadline the
//! sweeper sleeps until.

#[allow(unused_imports)]
use super::*;

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
