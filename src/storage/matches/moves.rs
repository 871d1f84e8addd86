//! Moves: the kept history window (undo, forks) and the full record, and
//! reads of one ply or a range of them.

#[allow(unused_imports)]
use std::sync::OnceLock;

use super::*;

/// The kept moves (the history window) of the match whose id is parameter
/// `$n`, as a derived table `k` of [`MOVE_COLUMNS`]: the moves of its
/// [`record_moves`] above its `kept_from`.
pub(super) fn kept_moves(n: usize) -> String {
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
pub(super) fn record_moves(n: usize) -> String {
    format!(
        "(SELECT {MOVE_COLUMNS} FROM moves WHERE match_id = ${n} \
         UNION ALL SELECT {} FROM matches f JOIN moves p ON p.match_id = f.base_id \
         WHERE f.id = ${n} AND p.ply <= f.base_ply) k",
        prefixed("p", MOVE_COLUMNS)
    )
}

/// Binds a move's [`MOVE_PARAMS`] columns after `match_id`.
pub(super) fn bind_move<'q>(query: AnyQuery<'q>, mv: &'q KeptMove) -> AnyQuery<'q> {
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
pub(super) async fn insert_moves(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    moves: &[KeptMove],
) -> Result<(), StorageError> {
    for chunk in moves.chunks(MOVES_PER_INSERT) {
        let sql = insert_sql(chunk.len());
        let mut q = sqlx::query(sql).bind(id);
        for mv in chunk {
            q = bind_move(q, mv);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// The statement inserting `rows` moves (1 to [`MOVES_PER_INSERT`]) of
/// match `$1`, each with its [`MOVE_PARAMS`] parameters in turn: made once
/// for each number of rows, not for each write.
fn insert_sql(rows: usize) -> &'static str {
    static SQL: [OnceLock<String>; MOVES_PER_INSERT] =
        [const { OnceLock::new() }; MOVES_PER_INSERT];
    SQL[rows - 1].get_or_init(|| {
        let rows: Vec<String> = (0..rows)
            .map(|r| {
                let first = 2 + r * MOVE_PARAMS;
                let params: Vec<String> = (first..first + MOVE_PARAMS)
                    .map(|i| format!("${i}"))
                    .collect();
                format!("($1, {})", params.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO moves (match_id, {MOVE_COLUMNS}) VALUES {}",
            rows.join(", ")
        )
    })
}

/// Rows of `moves` one insert statement writes at most (well within both
/// databases' limits on parameters).
pub(super) const MOVES_PER_INSERT: usize = 100;

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
