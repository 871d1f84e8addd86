//! Invitations after creation: a seat issues new invites for the open seats
//! (voiding the old ones) or withdraws them; an invited player declines,
//! with a reason the inviter's streams show (`invite-declined`).

use super::decide;
use super::domain::NameError;
use super::events::{Change, EventKind, MatchEvent};
use super::read::{invite_view, Shown};
use super::{
    Match, MatchError, MatchId, Matches, Outcome, Precondition, Refused, Seat, SeatSlot, Secret,
    SecretHash, Timestamp, Token,
};
use crate::storage::matches as store;
use crate::storage::StorageError;

/// The longest reason a decline may give, in characters.
pub const REASON_MAX: usize = 200;

/// A declined invitation's reason: `busy`, or free text of at most
/// [`REASON_MAX`] characters under the rules of names (no control,
/// direction-control or invisible characters, at least one visible one).
///
/// # Errors
///
/// [`MatchError::InvalidText`].
pub fn reason(text: &str) -> Result<String, MatchError> {
    let text = text.trim();
    let invalid = |why| MatchError::InvalidText {
        field: "reason",
        why,
    };
    if text.is_empty() {
        return Err(invalid(
            "is empty: leave it out, or say why (e.g. \"busy\")",
        ));
    }
    if text.chars().count() > REASON_MAX {
        return Err(invalid("is longer than 200 characters"));
    }
    let why = match super::domain::line_fault(text) {
        None => return Ok(text.to_owned()),
        Some(NameError::Control) => "holds a control character (a line break, a tab, …)",
        Some(NameError::Bidi) => {
            "holds a direction control (U+200E, U+200F, U+061C, U+202A–U+202E, \
             U+2066–U+2069), which could make it display as other text"
        }
        Some(NameError::Invisible) => {
            "holds an invisible character (such as U+200B, U+2060, U+FEFF, U+3164, \
             U+115F, U+2800 or U+00AD), which could hide or fake text"
        }
        Some(NameError::Blank | NameError::Empty | NameError::TooLong) => {
            "has no visible character: say why (e.g. \"busy\")"
        }
    };
    Err(invalid(why))
}

impl Matches {
    /// `POST /v1/matches/{id}/invite`: new invites for the open seats of a
    /// duel; the old ones no longer join.
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `NotADuel`, `Finished`, `NoOpenSeat`,
    /// `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn invite(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut shown = Vec::new();
        let (m, seats, seat) = self
            .seat_rewrites_invites(id, token, &pre, EventKind::Invited, |open| {
                let mut invites = Vec::new();
                for s in open.iter_mut().filter(|s| s.token.is_none()) {
                    let invite = Secret::invite()?;
                    shown.push(invite_view(base, id, s.seat, &invite));
                    s.invite = Some(invite.hash());
                    invites.push((s.seat, s.invite.clone()));
                }
                if invites.is_empty() {
                    return Err(MatchError::NoOpenSeat("issue"));
                }
                Ok(invites)
            })
            .await?;
        let shown = Shown {
            seat,
            token: None,
            invites: shown,
        };
        Self::shown(&m, &seats, base, Some(shown))
    }

    /// `POST /v1/matches/{id}/invite/withdraw`: the open seats' invites no
    /// longer join.
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `NotADuel`, `Finished`, `NoOpenSeat`
    /// (no invite is open), `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn withdraw_invites(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let (m, seats, _) = self
            .seat_rewrites_invites(id, token, &pre, EventKind::InviteWithdrawn, |open| {
                let mut voided = Vec::new();
                for s in open
                    .iter_mut()
                    .filter(|s| s.invite.is_some() && s.token.is_none())
                {
                    s.invite = None;
                    voided.push((s.seat, None));
                }
                if voided.is_empty() {
                    return Err(MatchError::NoOpenSeat("withdraw"));
                }
                Ok(voided)
            })
            .await?;
        Self::outcome(&m, &seats, base)
    }

    /// A seat of a duel being played changes the open seats' invites:
    /// `change` sets them on the seats and lists what to write; the write
    /// carries an event of `kind` by that
    /// seat. The match after it, its seats and the seat.
    async fn seat_rewrites_invites(
        &self,
        id: MatchId,
        token: &Token,
        pre: &Precondition,
        kind: EventKind,
        change: impl FnOnce(&mut [SeatSlot]) -> Result<Vec<(Seat, Option<SecretHash>)>, MatchError>,
    ) -> Result<(Match, Vec<SeatSlot>, Seat), MatchError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, mut seats, seat) = self
            .load_seated(&mut conn, id, token, pre, Refused::Invite, Timestamp::now())
            .await?;
        decide::invitable(&m)?;
        let invites = change(&mut seats)?;
        m.updated_at = Timestamp::now();
        let event = MatchEvent::new(&m, &seats, m.version.next(), Change::by(kind, seat));
        m.version = self
            .write_invites(&mut conn, &m, pre, &invites, &event)
            .await?;
        Ok((m, seats, seat))
    }

    /// `POST /v1/matches/{id}/invite/decline`: the invited player says no
    /// (with a reason, such as `busy`); the invite no longer joins.
    ///
    /// # Errors
    ///
    /// `NoInvite`, `InvalidInvite`, `SeatTaken`, `Finished`, `InvalidText`,
    /// `Conflict`; storage errors.
    #[tracing::instrument(skip(self, invite, why, base))]
    pub async fn decline_invite(
        &self,
        id: MatchId,
        invite: Option<&str>,
        why: Option<&str>,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let invite = Secret::presented(invite.ok_or(MatchError::NoInvite)?);
        let note = why.map(reason).transpose()?;
        let mut conn = self.db.acquire().await?;
        let (mut m, mut seats) = Self::load(&mut conn, id).await?;
        let i = decide::invited(&seats, &invite)?;
        decide::invitable(&m)?;
        seats[i].invite = None;
        m.updated_at = Timestamp::now();
        let change = Change {
            note,
            ..Change::by(EventKind::InviteDeclined, seats[i].seat)
        };
        let event = MatchEvent::new(&m, &seats, m.version.next(), change);
        let voided = [(seats[i].seat, None)];
        m.version = self
            .write_invites(&mut conn, &m, &Precondition::Any, &voided, &event)
            .await?;
        Self::outcome(&m, &seats, base)
    }

    /// Writes new invites and the event, announcing it.
    async fn write_invites(
        &self,
        conn: &mut sqlx::AnyConnection,
        m: &Match,
        pre: &Precondition,
        invites: &[(Seat, Option<SecretHash>)],
        event: &MatchEvent,
    ) -> Result<super::Version, MatchError> {
        match store::set_invites(conn, m.id, m.version, invites, event).await {
            Ok(version) => {
                self.published(m.id, version);
                Ok(version)
            }
            Err(StorageError::Conflict) => Err(pre.lost_race()),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_short_printable_text() {
        assert_eq!(reason("  busy ").unwrap(), "busy");
        assert_eq!(reason("对方正在下棋").unwrap(), "对方正在下棋");
        assert!(reason("").is_err());
        assert!(reason("a\nb").is_err());
        assert!(reason(&"棋".repeat(200)).is_ok());
        assert!(reason(&"棋".repeat(201)).is_err());
    }
}
