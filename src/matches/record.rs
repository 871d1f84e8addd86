//! Full records: every move a match made, from its start, with what a
//! record's headers need (players, result, time control, dates), read with
//! [`Matches::record`]. The exports read a match through
//! `Matches::kept_record` and an import makes its match with
//! `Matches::create_played` (both in `record_io`). The
//! history window (the last [`super::HISTORY_CAP`] moves, what undo reaches)
//! is unchanged by either: see `docs/matches.md`.

use qipan_rules::GameKind;

use super::{
    KeptMove, Match, MatchError, MatchId, MatchStatus, Matches, Mode, Parent, Seat, SeatName,
    SeatSlot, TimeControl, Timestamp, Version,
};
use crate::storage::matches as store;

/// Every move of a match, in order, and its headers.
#[derive(Debug, Clone)]
pub struct MatchRecord {
    /// The match.
    pub id: MatchId,
    /// Its game.
    pub game: GameKind,
    /// Duel or solo.
    pub mode: Mode,
    /// The state code the record starts from (before its first move).
    pub start_code: String,
    /// The ply it starts from: 0, but for a match kept before full records
    /// were, whose record starts at the oldest move it still had.
    pub start_ply: i64,
    /// Every move from there, oldest first, with its action in the game's
    /// canonical notation and the codes around it, as stored.
    pub moves: Vec<KeptMove>,
    /// What the record's header says.
    pub headers: RecordHeaders,
}

/// The headers of a record.
#[derive(Debug, Clone)]
pub struct RecordHeaders {
    /// Each seat with the display name its holder chose, in seat order.
    pub players: Vec<(Seat, Option<SeatName>)>,
    /// Ongoing, or the result with its reason (and the winner).
    pub status: MatchStatus,
    /// The time control of a timed duel.
    pub time_control: Option<TimeControl>,
    /// When the match was made.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// When it ended (its last change), once it has.
    pub ended_at: Option<Timestamp>,
    /// The match it was forked from, while that match is kept.
    pub parent: Option<Parent>,
    /// Its version.
    pub version: Version,
}

impl MatchRecord {
    fn of(m: &Match, seats: &[SeatSlot], moves: Vec<KeptMove>) -> MatchRecord {
        let (start_code, start_ply) = match moves.first() {
            Some(first) => (first.code_before.clone(), first.ply - 1),
            None => (m.code.clone(), m.ply),
        };
        MatchRecord {
            id: m.id,
            game: m.game,
            mode: m.mode,
            start_code,
            start_ply,
            moves,
            headers: RecordHeaders {
                players: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
                status: m.status,
                time_control: m.clock.map(|c| c.control),
                created_at: m.created_at,
                updated_at: m.updated_at,
                ended_at: (!m.status.is_ongoing()).then_some(m.updated_at),
                parent: m.parent,
                version: m.version,
            },
        }
    }
}

impl Matches {
    /// The full record of match `id`: its own moves and, for a fork, its
    /// parent's up to the fork's ply, from one snapshot.
    ///
    /// # Errors
    ///
    /// `UnknownMatch`; storage errors.
    #[tracing::instrument(skip(self))]
    pub async fn record(&self, id: MatchId) -> Result<MatchRecord, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (m, seats, moves) = store::record(&mut conn, self.db.backend(), id)
            .await?
            .ok_or(MatchError::UnknownMatch(id))?;
        Ok(MatchRecord::of(&m, &seats, moves))
    }
}
