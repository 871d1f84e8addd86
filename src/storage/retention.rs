//! Deleting matches that are kept no longer (see
//! [`crate::matches::retention`]). Every function here is one short
//! transaction that writes at most about [`ROWS`] rows, so a sweep never
//! holds SQLite's one writer for long; the sweep commits between them.
//!
//! A deleted match's moves do not go with its row: they are listed in
//! `gone_records` and deleted by [`collect`], [`ROWS`] at a time, once no
//! fork reads them. A match read by exactly one fork hands its rows to that
//! fork instead (they are moved, not copied), when they are few.

use sqlx::{AnyConnection, Connection};

use super::StorageError;
use crate::matches::Timestamp;

/// The rows one retention transaction writes at most (beside the matches
/// it deletes, which [`delete`] counts in).
pub const ROWS: i64 = 1000;

/// What one transaction did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Step {
    /// Matches deleted.
    pub matches: u64,
    /// Rows written or deleted, cascades included.
    pub rows: u64,
}

/// The millisecond bounds of the two rules; `i64::MIN` matches nothing (a
/// rule that is off).
fn bounds(idle_before: Option<Timestamp>, finished_before: Option<Timestamp>) -> (i64, i64) {
    (
        idle_before.map_or(i64::MIN, Timestamp::millis),
        finished_before.map_or(i64::MIN, Timestamp::millis),
    )
}

/// The rules of retention, on a `matches` row named `p` and parameters
/// `$a` (idle) and `$b` (finished).
fn expired_sql(p: &str, a: usize, b: usize) -> String {
    format!("({p}.updated_at < ${a} OR ({p}.status <> 'ongoing' AND {p}.updated_at < ${b}))")
}

/// Up to `batch` matches the rules no longer keep, oldest first, with the
/// rows deleting each costs (its seats and events, and itself). A read: it
/// never waits for SQLite's write lock, and most rounds find nothing.
///
/// # Errors
///
/// [`StorageError`].
pub async fn expired(
    conn: &mut AnyConnection,
    idle_before: Option<Timestamp>,
    finished_before: Option<Timestamp>,
    batch: i64,
) -> Result<Vec<(String, i64)>, StorageError> {
    let (idle, finished) = bounds(idle_before, finished_before);
    let sql = format!(
        "SELECT m.id, 1 + (SELECT count(*) FROM seats s WHERE s.match_id = m.id) \
         + (SELECT count(*) FROM match_events e WHERE e.match_id = m.id) \
         FROM matches m WHERE {} ORDER BY m.updated_at LIMIT $3",
        expired_sql("m", 1, 2)
    );
    Ok(sqlx::query_as(&sql)
        .bind(idle)
        .bind(finished)
        .bind(batch)
        .fetch_all(&mut *conn)
        .await?)
}

/// Takes the parent link off up to [`ROWS`] forks of the matches `ids` that
/// the rules still do not keep (their parents are about to go, and the link
/// is a foreign key). Returns how many forks it changed: 0 when none is
/// left.
///
/// # Errors
///
/// [`StorageError`].
pub async fn unlink_forks(
    conn: &mut AnyConnection,
    ids: &[String],
    idle_before: Option<Timestamp>,
    finished_before: Option<Timestamp>,
) -> Result<Step, StorageError> {
    let (idle, finished) = bounds(idle_before, finished_before);
    let n = ids.len();
    let sql = format!(
        "UPDATE matches SET parent_id = NULL, parent_ply = NULL WHERE id IN \
         (SELECT f.id FROM matches f JOIN matches p ON p.id = f.parent_id \
          WHERE f.parent_id IN ({}) AND {} LIMIT ${})",
        placeholders(1, n),
        expired_sql("p", n + 1, n + 2),
        n + 3
    );
    let mut q = sqlx::query(&sql);
    for id in ids {
        q = q.bind(id);
    }
    let mut tx = conn.begin().await?;
    let done = q
        .bind(idle)
        .bind(finished)
        .bind(ROWS)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Step {
        matches: 0,
        rows: done.rows_affected(),
    })
}

/// Deletes the matches `ids` that the rules still do not keep, in one
/// transaction. Their seats, events and presence go with them (`ON DELETE
/// CASCADE`); forks made since [`unlink_forks`] lose their parent link
/// here. Their moves stay for [`collect`], except those of a match exactly
/// one fork reads, which become that fork's own when they are at most
/// [`ROWS`]. `cost` is the rows [`expired`] counted for them.
///
/// # Errors
///
/// [`StorageError`]; nothing is deleted then.
pub async fn delete(
    conn: &mut AnyConnection,
    ids: &[String],
    cost: i64,
    idle_before: Option<Timestamp>,
    finished_before: Option<Timestamp>,
    now: Timestamp,
) -> Result<Step, StorageError> {
    if ids.is_empty() {
        return Ok(Step::default());
    }
    let (idle, finished) = bounds(idle_before, finished_before);
    let n = ids.len();
    let mut tx = conn.begin().await?;
    // The rules are asked again, and the rows kept locked to the end: a
    // match written since the read stays, and no fork of one that goes can
    // be made meanwhile.
    let lock = format!(
        "UPDATE matches SET version = version WHERE id IN ({}) AND {} RETURNING id",
        placeholders(1, n),
        expired_sql("matches", n + 1, n + 2),
    );
    let mut q = sqlx::query_scalar(&lock);
    for id in ids {
        q = q.bind(id);
    }
    let doomed: Vec<String> = q.bind(idle).bind(finished).fetch_all(&mut *tx).await?;
    if doomed.is_empty() {
        tx.commit().await?;
        return Ok(Step::default());
    }
    let mut rows = u64::try_from(cost).unwrap_or(0);
    let list = placeholders(1, doomed.len());
    let unlink = format!(
        "UPDATE matches SET parent_id = NULL, parent_ply = NULL WHERE parent_id IN ({list})"
    );
    rows += bind_ids(&unlink, &doomed)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    // A record exactly one fork reads becomes that fork's.
    let readers = format!(
        "SELECT base_id, min(id), min(base_ply), count(*) FROM matches \
         WHERE base_id IN ({list}) GROUP BY base_id"
    );
    let mut q = sqlx::query_as::<_, (String, String, i64, i64)>(&readers);
    for id in &doomed {
        q = q.bind(id);
    }
    for (base, fork, upto) in q
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .filter(|r| r.3 == 1)
        .map(|(base, fork, upto, _)| (base, fork, upto))
    {
        let size: i64 =
            sqlx::query_scalar("SELECT count(*) FROM moves WHERE match_id = $1 AND ply <= $2")
                .bind(&base)
                .bind(upto)
                .fetch_one(&mut *tx)
                .await?;
        if size > ROWS {
            continue;
        }
        rows += sqlx::query("UPDATE moves SET match_id = $2 WHERE match_id = $1 AND ply <= $3")
            .bind(&base)
            .bind(&fork)
            .bind(upto)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        rows += sqlx::query("UPDATE matches SET base_id = NULL, base_ply = NULL WHERE id = $1")
            .bind(&fork)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    for id in &doomed {
        rows += sqlx::query("INSERT INTO gone_records (id, gone_at) VALUES ($1, $2)")
            .bind(id)
            .bind(now.millis())
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    let delete = format!("DELETE FROM matches WHERE id IN ({list})");
    bind_ids(&delete, &doomed).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(Step {
        matches: doomed.len() as u64,
        rows,
    })
}

/// Deletes up to [`ROWS`] moves of deleted matches that no fork reads, in
/// one transaction, and forgets each such match once none of its moves is
/// left. Returns the rows it deleted: 0 when there is nothing left to do.
///
/// # Errors
///
/// [`StorageError`].
pub async fn collect(conn: &mut AnyConnection) -> Result<Step, StorageError> {
    // Read first: most rounds find nothing.
    let gone: Vec<String> = sqlx::query_scalar(
        "SELECT g.id FROM gone_records g WHERE NOT EXISTS \
         (SELECT 1 FROM matches f WHERE f.base_id = g.id) ORDER BY g.gone_at LIMIT $1",
    )
    .bind(ROWS)
    .fetch_all(&mut *conn)
    .await?;
    if gone.is_empty() {
        return Ok(Step::default());
    }
    let mut tx = conn.begin().await?;
    let mut budget = ROWS;
    let mut rows = 0;
    for id in &gone {
        if budget == 0 {
            break;
        }
        // The highest ply of the next `budget` rows: one ranged delete.
        let bound: Option<i64> = sqlx::query_scalar(
            "SELECT ply FROM moves WHERE match_id = $1 ORDER BY ply LIMIT 1 OFFSET $2",
        )
        .bind(id)
        .bind(budget - 1)
        .fetch_optional(&mut *tx)
        .await?;
        let deleted = sqlx::query("DELETE FROM moves WHERE match_id = $1 AND ply <= $2")
            .bind(id)
            .bind(bound.unwrap_or(i64::MAX))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        rows += deleted;
        budget -= i64::try_from(deleted).unwrap_or(budget);
        if bound.is_none() {
            // All its moves are gone: so is the match, for good. No fork can
            // have started reading it since: forks read only bases that are
            // still there.
            rows += sqlx::query("DELETE FROM gone_records WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            budget = (budget - 1).max(0);
        }
    }
    tx.commit().await?;
    Ok(Step { matches: 0, rows })
}

/// `sql` with `ids` bound in order.
fn bind_ids<'q>(
    sql: &'q str,
    ids: &'q [String],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let mut q = sqlx::query(sql);
    for id in ids {
        q = q.bind(id);
    }
    q
}

/// `$first, …, $(first + n - 1)`.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
