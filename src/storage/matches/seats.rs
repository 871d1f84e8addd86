//! Seats: taking one by invite or seek, the invites of a match, and when a
//! seat went away.

#[allow(unused_imports)]
use super::*;

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
