//! Draw offers in a duel, shaped like takeback offers: a seat offers
//! (`/draw`), the other seat accepts (`/draw/accept`: the match is drawn by
//! agreement) or declines (`/draw/decline`, by which the offerer may also
//! withdraw it); any move withdraws it. A seat that offers while the other
//! seat's offer stands agrees to it.

use super::events::{Change, EventKind};
use super::{
    Match, MatchEnd, MatchError, MatchId, MatchStatus, Matches, Mode, Outcome, Precondition,
    Refused, Seat, SeatSlot, Timestamp, Token,
};

/// What a draw offer came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// The offer stands (made now, or already).
    Standing,
    /// The other seat had offered too: the match is drawn.
    Agreed,
}

impl Matches {
    /// `POST /v1/matches/{id}/draw`
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `NotADuel`, `Finished`, `Conflict`;
    /// storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn offer_draw(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<(Outcome, Offered), MatchError> {
        let mut conn = self.db.acquire().await?;
        let now = Timestamp::now();
        let (mut m, seats, seat) = self
            .load_seated(&mut conn, id, token, &pre, Refused::Draw, now)
            .await?;
        Self::drawable(&m)?;
        let change = match m.draw {
            Some(offerer) if offerer == seat => {
                // The same seat asking again: the offer stands.
                return Ok((Self::outcome(&m, &seats, base)?, Offered::Standing));
            }
            Some(_) => {
                agree(&mut m, now);
                Change::by(EventKind::DrawAgreed, seat)
            }
            None => {
                m.draw = Some(seat);
                m.updated_at = now;
                Change::by(EventKind::DrawOffered, seat)
            }
        };
        let offered = match change.kind {
            EventKind::DrawAgreed => Offered::Agreed,
            _ => Offered::Standing,
        };
        self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
            .await?;
        drop(conn);
        Ok((Self::outcome(&m, &seats, base)?, offered))
    }

    /// `POST /v1/matches/{id}/draw/accept` (`accept`) and `/draw/decline`.
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `NotADuel`, `Finished`,
    /// `NoDrawOffer`, `OwnDrawOffer`, `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn answer_draw(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        accept: bool,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        let now = Timestamp::now();
        let (mut m, seats, seat) = self
            .load_seated(&mut conn, id, token, &pre, Refused::Draw, now)
            .await?;
        Self::drawable(&m)?;
        let offerer = m.draw.ok_or(MatchError::NoDrawOffer)?;
        let change = if accept {
            if offerer == seat {
                return Err(MatchError::OwnDrawOffer(seat));
            }
            agree(&mut m, now);
            Change::by(EventKind::DrawAgreed, seat)
        } else {
            // Either seat may decline; the offerer so withdraws it.
            m.draw = None;
            m.updated_at = now;
            Change::by(EventKind::DrawDeclined, seat)
        };
        self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
            .await?;
        drop(conn);
        Self::outcome(&m, &seats, base)
    }

    /// Draws are offered in duels being played.
    fn drawable(m: &Match) -> Result<(), MatchError> {
        if m.mode != Mode::Duel {
            return Err(MatchError::NotADuel);
        }
        if !m.status.is_ongoing() {
            return Err(MatchError::Finished {
                refused: Refused::Draw,
                status: m.status,
            });
        }
        Ok(())
    }
}

/// The match is drawn by agreement at `now`.
pub(super) fn agree(m: &mut Match, now: Timestamp) {
    m.end(
        MatchStatus::Drawn {
            reason: MatchEnd::Agreement,
        },
        now,
    );
}

/// The seat of `seats` that is not `seat`, in a duel.
pub(super) fn other(seats: &[SeatSlot], seat: Seat) -> Option<&SeatSlot> {
    seats.iter().find(|s| s.seat != seat)
}
