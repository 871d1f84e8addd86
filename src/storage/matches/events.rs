//! The `match_events` log: every change of a match, kept so a stream that
//! reconnects (`Last-Event-ID`) is sent what it missed.

#[allow(unused_imports)]
use super::*;

row! {

/// A `match_events` row.
#[derive(Debug)]
pub(super) struct EventRow {
    version: i64,
    kind: String,
    seat: Option<String>,
    ply: i64,
    code: String,
    to_move: String,
    status: String,
    winner: Option<String>,
    reason: Option<String>,
    moves: String,
    back_to: Option<i64>,
    created_at: i64,
    note: Option<String>,
    name: Option<String>,
    clock_first: Option<i64>,
    clock_second: Option<i64>,
    clock_since: Option<i64>,
}
}

/// The moves of an event as they are stored: `[[ply, side, action], …]`.
type StoredMoves = Vec<(i64, String, String)>;

impl EventRow {
    fn into_event(self, game: GameKind) -> Result<MatchEvent, StorageError> {
        let status = status_of(
            game,
            &self.status,
            self.winner.as_deref(),
            self.reason.as_deref(),
        )?;
        let moves: StoredMoves = serde_json::from_str(&self.moves)
            .map_err(|_| corrupt("match_events.moves", &self.moves))?;
        Ok(MatchEvent {
            version: Version::new(self.version),
            kind: EventKind::parse(&self.kind)
                .ok_or_else(|| corrupt("match_events.kind", &self.kind))?,
            seat: self
                .seat
                .map(|s| seat_of(game, "match_events.seat", &s))
                .transpose()?,
            ply: self.ply,
            code: self.code,
            to_move: side_of(game, "match_events.to_move", &self.to_move)?,
            status,
            moves: moves
                .into_iter()
                .map(|(ply, side, action)| {
                    Ok(EventMove {
                        ply,
                        side: side_of(game, "match_events.moves", &side)?,
                        action,
                    })
                })
                .collect::<Result<_, StorageError>>()?,
            back_to: self.back_to,
            note: self.note,
            name: self.name.map(SeatName::stored),
            clock: match (self.clock_first, self.clock_second) {
                (Some(a), Some(b)) => Some(Reading {
                    left: [Millis::new(a), Millis::new(b)],
                    since: self
                        .clock_since
                        .map(|ms| time_of("match_events.clock_since", ms))
                        .transpose()?,
                }),
                (None, None) => None,
                other => return Err(corrupt("match_events.clock_first", other)),
            },
            at: time_of("match_events.created_at", self.created_at)?,
        })
    }
}

pub(super) const EVENT_COLUMNS: &str =
    "match_id, version, kind, seat, ply, code, to_move, status, winner, \
     reason, moves, back_to, created_at, note, name, clock_first, clock_second, clock_since";

/// How many columns of an event are bound after `match_id`.
pub(super) const EVENT_PARAMS: usize = 17;

/// Binds an event's [`EVENT_PARAMS`] columns after `match_id`.
pub(super) fn bind_event<'q>(query: AnyQuery<'q>, e: &'q MatchEvent) -> AnyQuery<'q> {
    let moves: StoredMoves = e
        .moves
        .iter()
        .map(|mv| (mv.ply, mv.side.as_str().to_owned(), mv.action.clone()))
        .collect();
    query
        .bind(e.version.get())
        .bind(e.kind.as_str())
        .bind(e.seat.map(Seat::as_str))
        .bind(e.ply)
        .bind(e.code.as_str())
        .bind(e.to_move.as_str())
        .bind(state_name(e.status))
        .bind(e.status.winner().map(AnyPlayer::as_str))
        .bind(e.status.reason().map(MatchEnd::as_str))
        .bind(serde_json::to_string(&moves).expect("a list of numbers and strings serializes"))
        .bind(e.back_to)
        .bind(e.at.millis())
        .bind(e.note.as_deref())
        .bind(e.name.as_ref().map(SeatName::as_str))
        .bind(e.clock.map(|c| c.left[0].get()))
        .bind(e.clock.map(|c| c.left[1].get()))
        .bind(e.clock.and_then(|c| c.since).map(Timestamp::millis))
}

/// The version at or below which a write at `version` drops old events:
/// every 16th write drops what fell out of the last [`EVENT_CAP`], so the
/// delete is paid once in 16 writes and at least the last 200 are kept.
pub(super) fn event_cap(version: Version) -> Option<i64> {
    (version.get() % 16 == 0).then(|| version.get() - EVENT_CAP)
}

/// Stores an event in the write's transaction and now and then drops what
/// falls out of the last [`EVENT_CAP`].
pub(super) async fn record_event(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    e: &MatchEvent,
) -> Result<(), StorageError> {
    let sql = format!(
        "INSERT INTO match_events ({EVENT_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18)"
    );
    bind_event(sqlx::query(&sql).bind(id), e)
        .execute(&mut **tx)
        .await?;
    if let Some(below) = event_cap(e.version) {
        sqlx::query("DELETE FROM match_events WHERE match_id = $1 AND version <= $2")
            .bind(id)
            .bind(below)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The kept events of a match after `version`, oldest first.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no event.
#[tracing::instrument(skip(conn))]
pub async fn events_after(
    conn: &mut AnyConnection,
    id: MatchId,
    game: GameKind,
    version: Version,
) -> Result<Vec<MatchEvent>, StorageError> {
    let sql = format!(
        "SELECT {EVENT_COLUMNS} FROM match_events WHERE match_id = $1 AND version > $2 \
         ORDER BY version"
    );
    let rows: Vec<EventRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .bind(version.get())
        .fetch_all(&mut *conn)
        .await?;
    rows.into_iter().map(|r| r.into_event(game)).collect()
}

/// One kept event of a match.
///
/// # Errors
///
/// [`StorageError`], `Corrupt` for a row that makes no event.
pub async fn event_at(
    conn: &mut AnyConnection,
    id: MatchId,
    game: GameKind,
    version: Version,
) -> Result<Option<MatchEvent>, StorageError> {
    let sql =
        format!("SELECT {EVENT_COLUMNS} FROM match_events WHERE match_id = $1 AND version = $2");
    let row: Option<EventRow> = sqlx::query_as(&sql)
        .bind(id.to_string())
        .bind(version.get())
        .fetch_optional(&mut *conn)
        .await?;
    row.map(|r| r.into_event(game)).transpose()
}
