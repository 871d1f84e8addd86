//! The SQL of the lobby: the `seeks` table (see `migrations/`). A seek is
//! listed while its state is `open`, its creator's stream holds it
//! (`held_until`) and it has not expired; the sweeper writes down why it
//! closed.

use qipan_rules::GameKind;
use sqlx::{AnyConnection, Connection};

use super::StorageError;
use crate::matches::lobby::{Seek, SeekId, SeekState};
use crate::matches::{
    Match, MatchId, Millis, Seat, SeatName, SeatSlot, SecretHash, TimeControl, Timestamp,
};

/// How long a closed seek is kept (for the seeker's stream and the lobby's
/// `seek-gone` to read why it closed).
const FORGET: std::time::Duration = std::time::Duration::from_secs(86_400);

row! {
/// A `seeks` row.
#[derive(Debug)]
struct SeekRow {
    id: String,
    game: String,
    variant: Option<String>,
    size: Option<i64>,
    side: Option<String>,
    token_hash: String,
    state: String,
    match_id: Option<String>,
    seat: Option<String>,
    created_at: i64,
    expires_at: i64,
    held_until: i64,
    name: Option<String>,
    time_control: Option<String>,
    clock_base: Option<i64>,
    clock_increment: Option<i64>,
}
}

const SEEK_COLUMNS: &str = "id, game, variant, size, side, token_hash, state, match_id, seat, \
     created_at, expires_at, held_until, name, time_control, clock_base, clock_increment";

fn corrupt(column: &'static str, value: impl std::fmt::Debug) -> StorageError {
    StorageError::Corrupt {
        column,
        value: format!("{value:?}"),
    }
}

impl TryFrom<SeekRow> for Seek {
    type Error = StorageError;

    fn try_from(r: SeekRow) -> Result<Seek, StorageError> {
        let game: GameKind = r.game.parse().map_err(|_| corrupt("seeks.game", &r.game))?;
        let time = |column, ms| Timestamp::from_millis(ms).ok_or_else(|| corrupt(column, ms));
        let seat = |text: &str| Seat::parse(game, text).ok_or_else(|| corrupt("seeks.seat", text));
        Ok(Seek {
            id: r.id.parse().map_err(|_| corrupt("seeks.id", &r.id))?,
            game,
            variant: r.variant,
            size: r
                .size
                .map(|n| u8::try_from(n).map_err(|_| corrupt("seeks.size", n)))
                .transpose()?,
            side: r
                .side
                .as_deref()
                .map(|s| match seat(s)? {
                    Seat::Side(side) => Ok(side),
                    Seat::Solo => Err(corrupt("seeks.side", s)),
                })
                .transpose()?,
            token: SecretHash::stored(r.token_hash),
            state: SeekState::parse(&r.state).ok_or_else(|| corrupt("seeks.state", &r.state))?,
            taken: match (r.match_id, r.seat) {
                (Some(m), Some(s)) => Some((
                    m.parse::<MatchId>()
                        .map_err(|_| corrupt("seeks.match_id", &m))?,
                    seat(&s)?,
                )),
                _ => None,
            },
            name: r
                .name
                .as_deref()
                .map(|n| SeatName::parse(n).map_err(|_| corrupt("seeks.name", n)))
                .transpose()?,
            control: match (r.time_control.as_deref(), r.clock_base, r.clock_increment) {
                (None, None, None) => None,
                (Some(kind), Some(base), Some(increment)) => Some(
                    TimeControl::stored(kind, Millis::new(base), Millis::new(increment))
                        .ok_or_else(|| corrupt("seeks.time_control", kind))?,
                ),
                other => return Err(corrupt("seeks.time_control", other)),
            },
            created_at: time("seeks.created_at", r.created_at)?,
            expires_at: time("seeks.expires_at", r.expires_at)?,
            held_until: time("seeks.held_until", r.held_until)?,
        })
    }
}

/// Stores a new seek.
///
/// # Errors
///
/// [`StorageError`].
pub async fn insert(conn: &mut AnyConnection, s: &Seek) -> Result<(), StorageError> {
    sqlx::query(&format!(
        "INSERT INTO seeks ({SEEK_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
    ))
    .bind(s.id.to_string())
    .bind(s.game.as_str())
    .bind(s.variant.as_deref())
    .bind(s.size.map(i64::from))
    .bind(s.side.map(|p| p.as_str()))
    .bind(s.token.as_str())
    .bind(s.state.as_str())
    .bind(None::<String>)
    .bind(None::<String>)
    .bind(s.created_at.millis())
    .bind(s.expires_at.millis())
    .bind(s.held_until.millis())
    .bind(s.name.as_ref().map(|n| n.as_str()))
    .bind(s.control.map(|c| c.as_str()))
    .bind(s.control.map(|c| c.columns().0.get()))
    .bind(s.control.map(|c| c.columns().1.get()))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One seek, whatever its state.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no seek.
pub async fn load(conn: &mut AnyConnection, id: SeekId) -> Result<Option<Seek>, StorageError> {
    let row: Option<SeekRow> =
        sqlx::query_as(&format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(&mut *conn)
            .await?;
    row.map(Seek::try_from).transpose()
}

/// The seeks open at `now`, oldest first.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no seek.
pub async fn open(conn: &mut AnyConnection, now: Timestamp) -> Result<Vec<Seek>, StorageError> {
    let rows: Vec<SeekRow> = sqlx::query_as(&format!(
        "SELECT {SEEK_COLUMNS} FROM seeks \
         WHERE state = 'open' AND held_until > $1 AND expires_at > $1 \
         ORDER BY created_at, id"
    ))
    .bind(now.millis())
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter().map(Seek::try_from).collect()
}

/// Keeps an open seek held until `until`.
///
/// # Errors
///
/// [`StorageError`].
pub async fn hold(
    conn: &mut AnyConnection,
    id: SeekId,
    until: Timestamp,
) -> Result<(), StorageError> {
    sqlx::query("UPDATE seeks SET held_until = $1 WHERE id = $2 AND state = 'open'")
        .bind(until.millis())
        .bind(id.to_string())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Closes a seek that is still open; `false` when it was not.
///
/// # Errors
///
/// [`StorageError`].
pub async fn close(
    conn: &mut AnyConnection,
    id: SeekId,
    state: SeekState,
    now: Timestamp,
) -> Result<bool, StorageError> {
    let done =
        sqlx::query("UPDATE seeks SET state = $1, closed_at = $2 WHERE id = $3 AND state = 'open'")
            .bind(state.as_str())
            .bind(now.millis())
            .bind(id.to_string())
            .execute(&mut *conn)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Closes every seek that expired or that no stream holds any more, and
/// forgets seeks closed a day ago. Returns how many were closed.
///
/// # Errors
///
/// [`StorageError`].
pub async fn sweep(conn: &mut AnyConnection, now: Timestamp) -> Result<u64, StorageError> {
    let forgotten = now.minus(FORGET).millis();
    // Read first: a read never waits for SQLite's write lock, and most
    // rounds have nothing to do.
    let due: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM seeks WHERE (state = 'open' AND (expires_at <= $1 OR held_until <= $1)) \
         OR (state <> 'open' AND closed_at < $2)",
    )
    .bind(now.millis())
    .bind(forgotten)
    .fetch_one(&mut *conn)
    .await?;
    if due == 0 {
        return Ok(0);
    }
    let closed = sqlx::query(
        "UPDATE seeks SET state = CASE WHEN expires_at <= $1 THEN 'expired' ELSE 'left' END, \
         closed_at = $1 WHERE state = 'open' AND (expires_at <= $1 OR held_until <= $1)",
    )
    .bind(now.millis())
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM seeks WHERE state <> 'open' AND closed_at < $1")
        .bind(forgotten)
        .execute(&mut *conn)
        .await?;
    Ok(closed.rows_affected())
}

/// Takes an open seek: the seek is closed as `taken` and the duel inserted,
/// in one transaction. `false` (nothing written) when the seek was no longer
/// open at `now`.
///
/// # Errors
///
/// [`StorageError`].
pub async fn take(
    conn: &mut AnyConnection,
    id: SeekId,
    m: &Match,
    seats: &[SeatSlot],
    seeker: Seat,
    now: Timestamp,
) -> Result<bool, StorageError> {
    let mut tx = conn.begin().await?;
    // The match first: the seek refers to it.
    super::matches::insert_in(&mut tx, m, seats).await?;
    let taken = sqlx::query(
        "UPDATE seeks SET state = 'taken', match_id = $1, seat = $2, closed_at = $3 \
         WHERE id = $4 AND state = 'open' AND held_until > $3 AND expires_at > $3",
    )
    .bind(m.id.to_string())
    .bind(seeker.as_str())
    .bind(now.millis())
    .bind(id.to_string())
    .execute(&mut *tx)
    .await?;
    if taken.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(false);
    }
    tx.commit().await?;
    Ok(true)
}
