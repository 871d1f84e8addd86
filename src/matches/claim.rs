//! Claims against a seat that left: when the side to move of a duel has no
//! stream open (it is offline, see [`super::presence`]) and has been away
//! for the abandonment time (`--abandon-after`, 5 minutes by default), the
//! other seat may end the match — as won, or as drawn — with reason
//! `abandoned`. The time is counted from the latest of the last move (or
//! takeback), the moment the side to move took its seat, and the moment it
//! last went offline: a phone that slept through a subway stop after a
//! long think has been away only since it slept. A correspondence duel has
//! no claims: its move deadline ends it; a Fischer duel's clock runs on
//! meanwhile, and ends it first when its time is shorter.

use super::clock::TimeControl;
use super::draw::other;
use super::events::{Change, EventKind};
use super::{
    ClaimRefusal, MatchEnd, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Precondition,
    Refused, Seat, Timestamp, Token,
};
use crate::storage::matches as store;
use crate::wire::matches::ClaimResult;

impl Matches {
    /// `POST /v1/matches/{id}/claim`
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `NotADuel`, `Finished`,
    /// `CannotClaim`, `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn claim(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        result: ClaimResult,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        let now = Timestamp::now();
        let (mut m, seats, seat) = self
            .load_seated(&mut conn, id, token, &pre, Refused::Claim, now)
            .await?;
        let (Mode::Duel, Seat::Side(side)) = (m.mode, seat) else {
            return Err(MatchError::NotADuel);
        };
        if !m.status.is_ongoing() {
            return Err(MatchError::Finished {
                refused: Refused::Claim,
                status: m.status,
            });
        }
        let refuse = |why| Err(MatchError::CannotClaim(why));
        if let Some(TimeControl::Correspondence { .. }) = m.clock.map(|c| c.control) {
            return refuse(ClaimRefusal::Correspondence);
        }
        if m.to_move() == side {
            return refuse(ClaimRefusal::OwnTurn);
        }
        let Some(away) = other(&seats, seat) else {
            return Err(MatchError::NotADuel);
        };
        let Some(joined_at) = away.joined_at.filter(|_| away.token.is_some()) else {
            return refuse(ClaimRefusal::OpponentNotSeated(away.seat));
        };
        if away.online {
            return refuse(ClaimRefusal::OpponentOnline(away.seat));
        }
        let left_at = store::left_at(&mut conn, id, away.seat).await?;
        let still = m.moved_at.max(joined_at);
        let away_since = left_at.map_or(still, |left| still.max(left));
        let claimable_at = away_since.plus(self.live.abandon_after);
        if now < claimable_at {
            return refuse(ClaimRefusal::TooSoon {
                seat: away.seat,
                claimable_at,
            });
        }
        let status = match result {
            ClaimResult::Win => MatchStatus::Won {
                winner: side,
                reason: MatchEnd::Abandoned,
            },
            ClaimResult::Draw => MatchStatus::Drawn {
                reason: MatchEnd::Abandoned,
            },
        };
        m.end(status, now);
        let change = Change::by(EventKind::Claimed, seat);
        self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
            .await?;
        drop(conn);
        Self::outcome(&m, &seats, base)
    }
}
