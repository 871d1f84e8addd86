//! What seats do to a match: play, undo (at once in a solo match, offered
//! in a duel), answer a takeback offer, resign.

use qipan_rules::AnyPosition;
use sqlx::AnyConnection;

use super::events::{Change, EventKind, EventMove};
use super::read::render;
use super::{
    KeptMove, Match, MatchError, MatchId, MatchStatus, Matches, Missing, Mode, Outcome,
    Precondition, Refused, Seat, Timestamp, Token, UndoOffer, HISTORY_CAP,
};
use crate::games::{self, Batch};
use crate::storage::matches as store;
use crate::storage::{Backend, StorageError};

impl Matches {
    /// `POST /v1/matches/{id}/play`
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `Finished`, the game's refusal of an
    /// action (`NotYourTurn` among them), `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, actions, base), fields(actions = actions.len()))]
    pub async fn play(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        actions: &[String],
        base: &str,
    ) -> Result<Outcome, MatchError> {
        // A batch that can never be played is refused before the match is
        // read (a stale `If-Match` on it is beside the point).
        games::check_batch(actions)?;
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = Self::load_seated(&mut conn, id, token, &pre).await?;
        // On SQLite the one connection is not held while the rules run (the
        // version guards the write); on PostgreSQL it is, as each return to
        // the pool costs a round trip.
        let mut held = (self.db.backend() == Backend::Postgres).then_some(conn);
        if !m.status.is_ongoing() {
            return Err(MatchError::Finished {
                refused: Refused::Play,
                status: m.status,
            });
        }
        let only = match (m.mode, seat) {
            (Mode::Duel, Seat::Side(side)) => Some(side),
            (Mode::Duel, Seat::Solo) | (Mode::Solo, _) => None,
        };
        let batch = Batch { only, record: true };
        let played = games::play(&m.position, actions, batch, base)?;
        let now = Timestamp::now();
        let first = m.ply + 1;
        let skip = played.count.saturating_sub(HISTORY_CAP as usize);
        let kept: Vec<KeptMove> = played
            .plies
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(i, p)| KeptMove {
                ply: first + i as i64,
                seat,
                side: p.side,
                action: p.action.clone(),
                code_before: p.code_before.clone(),
                code_after: p.code_after.clone(),
                played_at: now,
            })
            .collect();
        let ply = m.ply + played.count as i64;
        let moves = played
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| EventMove {
                ply: first + i as i64,
                side: p.side,
                action: p.action.clone(),
            })
            .collect();
        // A move withdraws any takeback offer.
        m.set_position(played.position, played.code, ply);
        m.updated_at = now;
        let change = Change {
            kind: if m.status.is_ongoing() {
                EventKind::Move
            } else {
                EventKind::Over
            },
            seat: Some(seat),
            moves,
            back_to: None,
            note: None,
        };
        let mut conn = match held.take() {
            Some(conn) => conn,
            None => self.db.acquire().await?,
        };
        self.write(&mut conn, &mut m, &pre, None, &kept, change)
            .await?;
        drop(conn);
        crate::metrics::metrics().moves(played.count);
        Ok(Outcome {
            view: render(&m, &seats, Some(&played.view), base, None)?,
            id,
            version: m.version,
        })
    }

    /// `POST /v1/matches/{id}/undo`: a solo match takes its last move back
    /// at once (answers `true`); a duel seat offers to take its last move
    /// back (answers `false`).
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `Finished` (resigned, or a finished
    /// duel), `NothingToUndo`, `UndoPending`, `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn undo(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<(Outcome, bool), MatchError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = Self::load_seated(&mut conn, id, token, &pre).await?;
        if m.mode == Mode::Solo {
            if m.status.is_resigned() {
                return Err(MatchError::Finished {
                    refused: Refused::UndoResigned,
                    status: m.status,
                });
            }
            let ply = m.ply - 1;
            let change = Change::by(EventKind::Undo, seat);
            self.go_back(&mut conn, &mut m, &pre, ply, Missing::LastMove, change)
                .await?;
            drop(conn);
            return Ok((Self::outcome(&m, &seats, base)?, true));
        }
        if !m.status.is_ongoing() {
            return Err(MatchError::Finished {
                refused: Refused::OfferUndo,
                status: m.status,
            });
        }
        if let Some(offer) = m.undo {
            if offer.seat != seat {
                return Err(MatchError::UndoPending(offer));
            }
            // The same seat asking again: the offer stands.
            return Ok((Self::outcome(&m, &seats, base)?, false));
        }
        let Some(last) = store::last_move_of(&mut conn, &m, seat).await? else {
            return Err(MatchError::NothingToUndo {
                ply: m.ply,
                why: Missing::SeatsMove(seat),
            });
        };
        let back_to = last.ply - 1;
        m.undo = Some(UndoOffer { seat, back_to });
        m.updated_at = Timestamp::now();
        let change = Change {
            back_to: Some(back_to),
            note: None,
            ..Change::by(EventKind::TakebackOffered, seat)
        };
        self.write(&mut conn, &mut m, &pre, None, &[], change)
            .await?;
        drop(conn);
        Ok((Self::outcome(&m, &seats, base)?, false))
    }

    /// Takes a match back to `ply`, the position before kept move `ply + 1`,
    /// dropping the kept moves after it.
    async fn go_back(
        &self,
        conn: &mut AnyConnection,
        m: &mut Match,
        pre: &Precondition,
        ply: i64,
        why: Missing,
        change: Change,
    ) -> Result<(), MatchError> {
        let Some(row) = store::move_at(conn, m, ply + 1).await? else {
            return Err(MatchError::NothingToUndo { ply: m.ply, why });
        };
        let position = AnyPosition::from_code(m.game, &row.code_before).map_err(|_| {
            StorageError::Corrupt {
                column: "moves.code_before",
                value: row.code_before.clone(),
            }
        })?;
        m.set_position(position, row.code_before, ply);
        m.updated_at = Timestamp::now();
        self.write(conn, m, pre, Some(ply), &[], change).await
    }

    /// `POST /v1/matches/{id}/undo/accept` (`accept`) and `/undo/decline`.
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `NotADuel`, `NoUndoOffer`, `OwnUndoOffer`,
    /// `Stale`, `Conflict`; storage errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn answer_undo(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        accept: bool,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = Self::load_seated(&mut conn, id, token, &pre).await?;
        if m.mode != Mode::Duel {
            return Err(MatchError::NotADuel);
        }
        let offer = m.undo.ok_or(MatchError::NoUndoOffer)?;
        if !accept {
            // Either seat may decline; the offerer so withdraws it.
            m.undo = None;
            m.updated_at = Timestamp::now();
            let change = Change::by(EventKind::TakebackDeclined, seat);
            self.write(&mut conn, &mut m, &pre, None, &[], change)
                .await?;
            return Self::outcome(&m, &seats, base);
        }
        if offer.seat == seat {
            return Err(MatchError::OwnUndoOffer(seat));
        }
        let change = Change::by(EventKind::Undo, seat);
        self.go_back(
            &mut conn,
            &mut m,
            &pre,
            offer.back_to,
            Missing::OfferedMove,
            change,
        )
        .await?;
        drop(conn);
        Self::outcome(&m, &seats, base)
    }

    /// `POST /v1/matches/{id}/resign`
    ///
    /// # Errors
    ///
    /// `NoToken`/`NotASeat`, `Stale`, `Finished`, `Conflict`; storage
    /// errors.
    #[tracing::instrument(skip(self, token, pre, base))]
    pub async fn resign(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = Self::load_seated(&mut conn, id, token, &pre).await?;
        if !m.status.is_ongoing() {
            return Err(MatchError::Finished {
                refused: Refused::Resign,
                status: m.status,
            });
        }
        // In a duel the seat resigns; in a solo match, the side to move.
        let loser = match (m.mode, seat) {
            (Mode::Duel, Seat::Side(side)) => side,
            (Mode::Duel, Seat::Solo) | (Mode::Solo, _) => m.to_move(),
        };
        m.status = MatchStatus::resigned_by(loser);
        m.undo = None;
        m.updated_at = Timestamp::now();
        let change = Change::by(EventKind::Resigned, seat);
        self.write(&mut conn, &mut m, &pre, None, &[], change)
            .await?;
        drop(conn);
        Self::outcome(&m, &seats, base)
    }
}
