//! Flags fall without anyone asking: each instance runs one sweeper that
//! sleeps until the earliest deadline of a match being played (kept in
//! `matches.deadline`, indexed), ends every match whose flag has fallen by
//! timeout, and sleeps again. A write of this instance that sets a deadline
//! rings the [`Alarm`], so a deadline sooner than the one slept for is not
//! missed; deadlines set by other instances are found at the next look, at
//! most [`POLL`] later (their own sweepers normally get there first).
//!
//! The database arbitrates: ending a match is the same guarded write as a
//! move (`UPDATE … WHERE version = <the version read>`), so when several
//! instances — and a seat's request, which checks the deadline itself
//! ([`Matches::settle_flag`]) — see the same fallen flag, exactly one write
//! lands and one `timeout` event is stored; the others find the version
//! moved on and leave the match alone. The event reaches every stream
//! through the hub, as a move does.

use std::sync::Arc;
use std::time::Duration;

use sqlx::AnyConnection;
use tokio::sync::Notify;

use super::clock::Millis;
use super::{Match, MatchError, MatchId, Matches, Precondition, SeatSlot, Timestamp};
use crate::storage::matches as store;

/// The longest a sweeper sleeps before it looks at the deadlines again.
pub const POLL: Duration = Duration::from_secs(1);

/// How many fallen flags one round ends at most.
const BATCH: i64 = 100;

/// Wakes this instance's sweeper when a write sets a deadline.
#[derive(Debug, Clone, Default)]
pub struct Alarm(Arc<Notify>);

impl Alarm {
    /// Wakes the sweeper (or the next time it waits, if it is busy).
    pub fn ring(&self) {
        self.0.notify_one();
    }
}

impl Matches {
    /// Starts this instance's sweeper, until the process ends.
    pub(super) fn start_sweeper(&self) {
        let matches = self.clone();
        tokio::spawn(async move {
            loop {
                let next = match matches.sweep().await {
                    Ok(next) => next,
                    Err(e) => {
                        tracing::warn!(error = %e, "ending the matches whose flag fell");
                        None
                    }
                };
                let wait = next
                    .map_or(POLL, |at| Millis::between(Timestamp::now(), at).duration())
                    .min(POLL);
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    () = matches.alarm.0.notified() => {}
                }
            }
        });
    }

    /// Ends every match whose flag has fallen; the next deadline.
    async fn sweep(&self) -> Result<Option<Timestamp>, MatchError> {
        let mut conn = self.db.acquire().await?;
        loop {
            let now = Timestamp::now();
            let due = store::flags_fallen(&mut conn, now, BATCH).await?;
            for &id in &due {
                if let Err(e) = self.end_on_time(&mut conn, id, now).await {
                    tracing::warn!(match_id = %id, error = %e, "a fallen flag could not end its match");
                }
            }
            if (due.len() as i64) < BATCH {
                break;
            }
        }
        Ok(store::next_deadline(&mut conn).await?)
    }

    /// Ends match `id` by timeout if its flag has fallen by `now`.
    async fn end_on_time(
        &self,
        conn: &mut AnyConnection,
        id: MatchId,
        now: Timestamp,
    ) -> Result<(), MatchError> {
        let (mut m, seats) = match Self::load(conn, id).await {
            Ok(found) => found,
            // Deleted meanwhile (retention): nothing to end.
            Err(MatchError::UnknownMatch(_)) => return Ok(()),
            Err(e) => return Err(e),
        };
        self.settle_flag(conn, &mut m, &seats, now).await?;
        Ok(())
    }

    /// Ends `m` by timeout when the flag of its side to move has fallen by
    /// `now`: `true` when the match is (now) over that way, `m` as it
    /// stands. When another write lands first (another instance's sweeper,
    /// a seat's request), the match is read again: `true` if it ended.
    ///
    /// # Errors
    ///
    /// `Conflict` when the write lost to one that did not end the match
    /// (which cannot come after the deadline, but is reported rather than
    /// assumed); storage errors.
    pub(super) async fn settle_flag(
        &self,
        conn: &mut AnyConnection,
        m: &mut Match,
        seats: &[SeatSlot],
        now: Timestamp,
    ) -> Result<bool, MatchError> {
        let Some(change) = super::decide::flag(m, now) else {
            return Ok(false);
        };
        match self
            .write(conn, m, seats, &Precondition::Any, None, &[], change)
            .await
        {
            Ok(()) => {
                tracing::info!(match_id = %m.id, "a flag fell: the match is over");
                Ok(true)
            }
            Err(MatchError::Conflict) => {
                let (fresh, _) = Self::load(conn, m.id).await?;
                *m = fresh;
                if m.status.is_ongoing() {
                    Err(MatchError::Conflict)
                } else {
                    Ok(true)
                }
            }
            Err(e) => Err(e),
        }
    }
}
