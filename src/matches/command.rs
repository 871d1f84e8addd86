//! One path for every command a seat sends, whatever carried it: the HTTP
//! endpoints and the WebSocket build the same [`SeatCommand`], and
//! [`Matches::command`] carries it out on the match's runner: it reads the
//! seated match (its version checked, a fallen flag settled), has
//! [`decide`] decide, writes what was decided (telling the streams and
//! ringing the sweeper, see [`Matches::write`]) and answers how it took
//! effect. The computer's seat takes the same decisions
//! ([`super::computer`]).

use super::decide::{self, Absence, Decision, Undo};
use super::{
    MatchError, MatchId, Matches, Outcome, Precondition, Refused, SeatSlot, Timestamp, Token,
};
use crate::storage::matches as store;
use crate::wire::matches::ClaimResult;

/// What a seat asks of its match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatCommand {
    /// Play these actions, in order.
    Play(Vec<String>),
    /// Take back: at once in a solo match, as an offer in a duel.
    Undo,
    /// Accept or decline the other seat's takeback offer.
    AnswerUndo {
        /// Accept it (else decline, or withdraw one's own).
        accept: bool,
    },
    /// Resign the match.
    Resign,
    /// Offer a draw, or agree to the other seat's offer.
    OfferDraw,
    /// Accept or decline the other seat's draw offer.
    AnswerDraw {
        /// Accept it (else decline, or withdraw one's own).
        accept: bool,
    },
    /// Claim the win or a draw against a side to move that left.
    Claim(ClaimResult),
}

impl SeatCommand {
    /// What cannot be done when the match turns out to be over on time.
    fn refused(&self) -> Refused {
        match self {
            SeatCommand::Play(_) => Refused::Play,
            SeatCommand::Undo => Refused::OfferUndo,
            SeatCommand::AnswerUndo { .. } => Refused::AnswerUndo,
            SeatCommand::Resign => Refused::Resign,
            SeatCommand::OfferDraw | SeatCommand::AnswerDraw { .. } => Refused::Draw,
            SeatCommand::Claim(_) => Refused::Claim,
        }
    }
}

/// How a command took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Done: the match is where the command takes it.
    Done,
    /// Asked of the other seat, which has yet to answer (a takeback or a
    /// draw offered in a duel).
    Offered,
}

impl Effect {
    /// How a decision takes effect: an offer made, or standing, waits for
    /// the other seat.
    fn of(decision: &Decision) -> Effect {
        use super::events::EventKind;
        match decision {
            Decision::Stands => Effect::Offered,
            Decision::Write(change)
                if matches!(
                    change.kind,
                    EventKind::DrawOffered | EventKind::TakebackOffered
                ) =>
            {
                Effect::Offered
            }
            Decision::Write(_) | Decision::GoBack(..) => Effect::Done,
        }
    }
}

impl Matches {
    /// Carries out `command` for the seat of `token` in match `id`, on the
    /// match's runner.
    ///
    /// # Errors
    ///
    /// The command's [`MatchError`]: the seat, the version, the game's
    /// refusal, storage.
    pub async fn command(
        &self,
        id: MatchId,
        token: Token,
        pre: Precondition,
        command: SeatCommand,
        base: String,
    ) -> Result<(Outcome, Effect), MatchError> {
        let s = self.clone();
        self.runner()
            .run(async move { s.carry_out(id, &token, &pre, command, &base).await })
            .await
    }

    #[tracing::instrument(skip(self, token, pre, command, base))]
    async fn carry_out(
        &self,
        id: MatchId,
        token: &Token,
        pre: &Precondition,
        command: SeatCommand,
        base: &str,
    ) -> Result<(Outcome, Effect), MatchError> {
        if let SeatCommand::Play(actions) = &command {
            // A batch that can never be played is refused before the match
            // is read (a stale `If-Match` on it is beside the point).
            crate::games::check_batch(actions)?;
        }
        let mut conn = self.db.acquire().await?;
        let now = Timestamp::now();
        let (mut m, seats, seat) = self
            .load_seated(&mut conn, id, token, pre, command.refused(), now)
            .await?;
        let decision = match command {
            SeatCommand::Play(actions) => {
                let outcome = self
                    .play_as(conn, m, &seats, seat, pre, &actions, base, now)
                    .await?;
                return Ok((outcome, Effect::Done));
            }
            SeatCommand::Undo => match decide::undo(&m, seat)? {
                Undo::Decided(decision) => decision,
                Undo::Offer => {
                    let last = store::last_move_of(&mut conn, &m, seat).await?;
                    decide::offer_undo(&mut m, seat, last.map(|mv| mv.ply), now)?
                }
            },
            SeatCommand::AnswerUndo { accept } => decide::answer_undo(&mut m, seat, accept, now)?,
            SeatCommand::Resign => decide::resign(&mut m, seat, now)?,
            SeatCommand::OfferDraw => decide::offer_draw(&mut m, seat, now)?,
            SeatCommand::AnswerDraw { accept } => decide::answer_draw(&mut m, seat, accept, now)?,
            SeatCommand::Claim(result) => {
                let left_at = match decide::other(&seats, seat) {
                    Some(away) => store::left_at(&mut conn, id, away.seat).await?,
                    None => None,
                };
                let absence = Absence {
                    left_at,
                    abandon_after: self.live.abandon_after,
                };
                decide::claim(&mut m, &seats, seat, result, absence, now)?
            }
        };
        let effect = Effect::of(&decision);
        self.carry(&mut conn, &mut m, &seats, pre, decision, now)
            .await?;
        drop(conn);
        Ok((Self::outcome(&m, &seats, base)?, effect))
    }

    /// Writes what a decision on `m` asks, as of `now`.
    pub(super) async fn carry(
        &self,
        conn: &mut sqlx::AnyConnection,
        m: &mut super::Match,
        seats: &[SeatSlot],
        pre: &Precondition,
        decision: Decision,
        now: Timestamp,
    ) -> Result<(), MatchError> {
        match decision {
            Decision::Stands => Ok(()),
            Decision::Write(change) => self.write(conn, m, seats, pre, None, &[], change).await,
            Decision::GoBack(back, change) => {
                let undone = store::move_at(conn, m, back.ply + 1).await?;
                let line = match &undone {
                    Some(_) => m.line_at(conn, back.ply).await?,
                    None => None,
                };
                decide::take_back(m, back, undone, line, now)?;
                self.write(conn, m, seats, pre, Some(back.ply), &[], change)
                    .await
            }
        }
    }
}
