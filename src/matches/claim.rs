//! Claims against a seat that left: when the side to move of a duel has no
//! stream open (it is offline, see [`super::presence`]) and has not moved
//! for the abandonment time (`--abandon-after`, 2 minutes by default), the
//! other seat may end the match — as won, or as drawn — with reason
//! `abandoned`. The time is counted from the later of the last move (or
//! takeback) and the moment the side to move took its seat. A
//! correspondence duel has no claims: its move deadline ends it.

use super::clock::TimeControl;
use super::draw::other;
use super::events::{Change, EventKind};
use super::{
    ClaimRefusal, MatchEnd, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Precondition,
    Refused, Seat, Timestamp, Token,
};
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
        let claimable_at = m.moved_at.max(joined_at).plus(self.live.abandon_after);
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
