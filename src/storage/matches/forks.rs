//! Forks: a sandbox that starts at a ply of another match, sharing the
//! base's moves up to it instead of copying them.

#[allow(unused_imports)]
use super::*;

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
pub(super) async fn release(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    above: i64,
) -> Result<(), StorageError> {
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
