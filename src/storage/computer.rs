//! The SQL of the computer's seat: the `computer_seats` table (see
//! `migrations/`), one row per duel the computer plays in, holding how
//! strongly it plays and the lease on its current turn (see
//! [`crate::matches::computer`] for why a lease).

use qipan_engine::Level;
use sqlx::{AnyConnection, Connection};

use super::StorageError;
use crate::matches::{Computer, Match, MatchId, Millis, Seat, SeatSlot, Timestamp, Version};

/// The computer of a seat, from the columns `load` joins (`None` when the
/// seat is a person's).
///
/// # Errors
///
/// `Corrupt` for a level out of 1 to 10, or a level without a time.
pub(super) fn of_columns(
    level: Option<i64>,
    ms: Option<i64>,
) -> Result<Option<Computer>, StorageError> {
    let corrupt = |column, value: i64| StorageError::Corrupt {
        column,
        value: value.to_string(),
    };
    match (level, ms) {
        (None, None) => Ok(None),
        (Some(level), Some(ms)) => {
            let level = u8::try_from(level)
                .ok()
                .and_then(|l| Level::new(l).ok())
                .ok_or_else(|| corrupt("computer_seats.level", level))?;
            if ms <= 0 {
                return Err(corrupt("computer_seats.ms", ms));
            }
            Ok(Some(Computer {
                level,
                time: Millis::new(ms),
            }))
        }
        (Some(level), None) => Err(corrupt("computer_seats.ms", level)),
        (None, Some(ms)) => Err(corrupt("computer_seats.level", ms)),
    }
}

/// Inserts a new duel with its seats and the computer in `seat`, in one
/// transaction.
///
/// # Errors
///
/// [`StorageError`].
#[tracing::instrument(skip_all, fields(id = %m.id))]
pub async fn insert(
    conn: &mut AnyConnection,
    m: &Match,
    seats: &[SeatSlot],
    seat: Seat,
    computer: Computer,
) -> Result<(), StorageError> {
    let mut tx = conn.begin().await?;
    super::matches::insert_in(&mut tx, m, seats).await?;
    sqlx::query("INSERT INTO computer_seats (match_id, seat, level, ms) VALUES ($1, $2, $3, $4)")
        .bind(m.id.to_string())
        .bind(seat.as_str())
        .bind(i64::from(computer.level.get()))
        .bind(computer.time.get())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// A match the computer has to answer: at this version, with this lease
/// length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    /// The match.
    pub id: MatchId,
    /// Its version when read.
    pub version: Version,
    /// The computer's time per move.
    pub time: Millis,
}

/// The matches being played whose computer has something to do (its move,
/// or an offer of the other seat to answer) and whose turn no lease holds
/// at `now`, at most `limit`.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for an id that is no match id.
pub async fn due(
    conn: &mut AnyConnection,
    now: Timestamp,
    limit: i64,
) -> Result<Vec<Due>, StorageError> {
    let rows: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT m.id, m.version, c.ms FROM computer_seats c JOIN matches m ON m.id = c.match_id \
         WHERE m.status = 'ongoing' \
         AND (m.to_move = c.seat OR m.undo_seat IS NOT NULL OR m.draw_seat IS NOT NULL) \
         AND (c.turn < m.version OR c.lease_until <= $1) \
         ORDER BY m.updated_at LIMIT $2",
    )
    .bind(now.millis())
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|(id, version, ms)| {
            Ok(Due {
                id: id.parse().map_err(|_| StorageError::Corrupt {
                    column: "computer_seats.match_id",
                    value: id.clone(),
                })?,
                version: Version::new(version),
                time: Millis::new(ms),
            })
        })
        .collect()
}

/// Claims the computer's turn of match `id` at `version` for `holder`
/// until `until`: `true` when this claim won. It wins when no claim was
/// made at this version yet, or when the one made has expired by `now`
/// (its holder stopped); of two instances claiming at once, the database
/// lets exactly one UPDATE match.
///
/// # Errors
///
/// [`StorageError`].
pub async fn claim(
    conn: &mut AnyConnection,
    id: MatchId,
    version: Version,
    holder: &str,
    until: Timestamp,
    now: Timestamp,
) -> Result<bool, StorageError> {
    let done = sqlx::query(
        "UPDATE computer_seats SET turn = $1, holder = $2, lease_until = $3, claims = claims + 1 \
         WHERE match_id = $4 AND (turn < $1 OR (turn = $1 AND lease_until <= $5))",
    )
    .bind(version.get())
    .bind(holder)
    .bind(until.millis())
    .bind(id.to_string())
    .bind(now.millis())
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives the lease on `version` back early (the search could not run): the
/// next look, of any instance, claims it again.
///
/// # Errors
///
/// [`StorageError`].
pub async fn release(
    conn: &mut AnyConnection,
    id: MatchId,
    version: Version,
    holder: &str,
) -> Result<(), StorageError> {
    sqlx::query(
        "UPDATE computer_seats SET lease_until = 0 \
         WHERE match_id = $1 AND turn = $2 AND holder = $3",
    )
    .bind(id.to_string())
    .bind(version.get())
    .bind(holder)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
