//! Playing a match: the rules play a seat's actions (or the computer's),
//! [`decide::play`] moves the match on, and the move is written.

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection};

use super::decide;
use super::read::render;
use super::{
    Match, MatchError, MatchId, Matches, Outcome, Precondition, Refused, Seat, SeatSlot, Timestamp,
};
use crate::games;

impl Matches {
    /// Plays `actions` as `seat` on `m` as read on `conn` at `now` (a
    /// seat's command, or the computer's move): the rules play, the match
    /// decides ([`decide::play`]), and the move is written guarded by the
    /// version read.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn play_as(
        &self,
        conn: PoolConnection<Any>,
        mut m: Match,
        seats: &[SeatSlot],
        seat: Seat,
        pre: &Precondition,
        actions: &[String],
        base: &str,
        now: Timestamp,
    ) -> Result<Outcome, MatchError> {
        let id = m.id;
        // The connection is kept or given back while the rules run, as the
        // store prefers (see `Database::between`).
        let between = self.db.between(conn);
        let batch = decide::batch(&m, seat)?;
        let played = games::play(&m.position, actions, batch, base)?;
        let (kept, change) = decide::play(
            &mut m,
            seat,
            played.position,
            played.code,
            &played.plies,
            now,
        )?;
        let mut conn = between.resume().await?;
        if let Err(lost) = self
            .write(&mut conn, &mut m, seats, pre, None, &kept, change)
            .await
        {
            // Lost to the write that ended the match on time (a sweeper saw
            // the flag fall while this move was being made): say so.
            return Err(self.ended_meanwhile(&mut conn, id, lost).await);
        }
        drop(conn);
        crate::metrics::metrics().moves(played.count);
        let state = games::raw(played.view)?;
        Ok(Outcome {
            view: render(&m, seats, Some(&state), base, None)?,
            id,
            version: m.version,
        })
    }

    /// What a write that lost its race answers: the end of the match when
    /// it was ended meanwhile (on time), else the lost race itself.
    async fn ended_meanwhile(
        &self,
        conn: &mut AnyConnection,
        id: MatchId,
        lost: MatchError,
    ) -> MatchError {
        if !matches!(lost, MatchError::Conflict | MatchError::Stale { .. }) {
            return lost;
        }
        match Self::load(conn, id).await {
            Ok((m, _)) if !m.status.is_ongoing() => MatchError::Finished {
                refused: Refused::Play,
                status: m.status,
            },
            Ok(_) | Err(_) => lost,
        }
    }
}
