//! One path for every command a seat sends, whatever carried it: the HTTP
//! endpoints and the WebSocket build the same [`SeatCommand`], and
//! [`Matches::command`] carries it out on the match's runner (SQLite's
//! own threads, or here on PostgreSQL) and says how it took effect.

use super::{MatchError, MatchId, Matches, Offered, Outcome, Precondition, Token};
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

/// How a command took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Done: the match is where the command takes it.
    Done,
    /// Asked of the other seat, which has yet to answer (a takeback or a
    /// draw offered in a duel).
    Offered,
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
            .run(async move {
                let (token, base) = (&token, base.as_str());
                match command {
                    SeatCommand::Play(actions) => s
                        .play(id, token, pre, &actions, base)
                        .await
                        .map(|o| (o, Effect::Done)),
                    SeatCommand::Undo => {
                        let (outcome, done) = s.undo(id, token, pre, base).await?;
                        Ok((outcome, if done { Effect::Done } else { Effect::Offered }))
                    }
                    SeatCommand::AnswerUndo { accept } => s
                        .answer_undo(id, token, pre, accept, base)
                        .await
                        .map(|o| (o, Effect::Done)),
                    SeatCommand::Resign => s
                        .resign(id, token, pre, base)
                        .await
                        .map(|o| (o, Effect::Done)),
                    SeatCommand::OfferDraw => {
                        let (outcome, offered) = s.offer_draw(id, token, pre, base).await?;
                        let effect = match offered {
                            Offered::Standing => Effect::Offered,
                            Offered::Agreed => Effect::Done,
                        };
                        Ok((outcome, effect))
                    }
                    SeatCommand::AnswerDraw { accept } => s
                        .answer_draw(id, token, pre, accept, base)
                        .await
                        .map(|o| (o, Effect::Done)),
                    SeatCommand::Claim(result) => s
                        .claim(id, token, pre, result, base)
                        .await
                        .map(|o| (o, Effect::Done)),
                }
            })
            .await
    }
}
