//! What seats do to a match: play, undo (at once in a solo match, offered
//! in a duel), answer a takeback offer, resign.

use qipan_rules::AnyPosition;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection};

use super::clock::{runs_at, slot};
use super::events::{Change, EventKind, EventMove};
use super::line;
use super::read::render;
use super::{
    KeptMove, Match, MatchError, MatchId, MatchStatus, Matches, Missing, Mode, Outcome,
    Precondition, Refused, Seat, SeatSlot, Timestamp, Token, UndoOffer,
};
use crate::games::{self, Batch};
use crate::storage::matches as store;
use crate::storage::{Backend, StorageError};

impl Matches {
    /// `POST /v1/matches/{id}/play`. In a timed duel the mover's clock is
    /// read at the moment the move is stored; a move that arrives after the
    /// mover's flag fell ends the match by timeout instead, and is refused
    /// with that end.
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
        let now = Timestamp::now();
        let (m, seats, seat) = self
            .load_seated(&mut conn, id, token, &pre, Refused::Play, now)
            .await?;
        self.play_as(conn, m, &seats, seat, &pre, actions, base, now)
            .await
    }

    /// Plays `actions` as `seat` on `m` as read on `conn` at `now` (a
    /// seat's request, or the computer's move): the rules decide, the clock
    /// is read, and the move is written guarded by the version read.
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
        // Xiangqi: the line since the last capture decides repetitions and
        // the move limit, which the position alone cannot.
        let judged = match &m.window {
            Some(line) => Some(line::judge(line, &played.plies)?),
            None => None,
        };
        let status = match &judged {
            Some(j) => MatchStatus::of(j.verdict),
            None => MatchStatus::of(played.position.status()),
        };
        let first = m.ply + 1;
        let ends = !status.is_ongoing();
        let mut clock = m.clock;
        // Every move goes into the record; the window is the last
        // HISTORY_CAP of them.
        let mut kept = Vec::with_capacity(played.count);
        for (i, p) in played.plies.iter().enumerate() {
            let ply = first + i as i64;
            // Each move is timed as it is stored; the clock runs on once both
            // sides have moved, unless this move ends the game.
            let clock_before = clock.map(|c| c.left);
            if let Some(c) = clock.as_mut() {
                let last = i + 1 == played.plies.len();
                c.moved(slot(m.game, p.side), now, runs_at(ply) && !(last && ends));
            }
            kept.push(KeptMove {
                ply,
                seat,
                side: p.side,
                action: p.action.clone(),
                code_before: p.code_before.clone(),
                code_after: p.code_after.clone(),
                played_at: now,
                clock_before,
                halfmove: judged.as_ref().and_then(|j| j.clocks.get(i).copied()),
            });
        }
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
        // A move withdraws any takeback or draw offer.
        m.set_position(played.position, played.code, ply);
        if let Some(j) = judged {
            m.window = Some(j.line);
            m.status = status;
        }
        m.clock = clock;
        m.moved_at = now;
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
        let (mut m, seats, seat) = self
            .load_seated(
                &mut conn,
                id,
                token,
                &pre,
                Refused::OfferUndo,
                Timestamp::now(),
            )
            .await?;
        if m.mode == Mode::Solo {
            if m.status.is_resigned() {
                return Err(MatchError::Finished {
                    refused: Refused::UndoResigned,
                    status: m.status,
                });
            }
            let ply = m.ply - 1;
            let change = Change::by(EventKind::Undo, seat);
            let back = Back {
                ply,
                why: Missing::LastMove,
            };
            self.go_back(&mut conn, &mut m, &seats, &pre, back, change)
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
        self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
            .await?;
        drop(conn);
        Ok((Self::outcome(&m, &seats, base)?, false))
    }

    /// Takes a match back to `back.ply`, the position before kept move
    /// `back.ply + 1`, dropping the kept moves after it. A timed duel's
    /// clocks go back to what they were at that ply (kept with that move),
    /// and the clock of the side to move runs again from now if it ran
    /// then: the time spent on the moves taken back is given back to both
    /// sides.
    pub(super) async fn go_back(
        &self,
        conn: &mut AnyConnection,
        m: &mut Match,
        seats: &[SeatSlot],
        pre: &Precondition,
        back: Back,
        change: Change,
    ) -> Result<(), MatchError> {
        let Back { ply, why } = back;
        let Some(row) = store::move_at(conn, m, ply + 1).await? else {
            return Err(MatchError::NothingToUndo { ply: m.ply, why });
        };
        let position = AnyPosition::from_code(m.game, &row.code_before).map_err(|_| {
            StorageError::Corrupt {
                column: "moves.code_before",
                value: row.code_before.clone(),
            }
        })?;
        let now = Timestamp::now();
        if let Some(clock) = m.clock {
            // Every move of a timed duel is stored with its clock.
            let left = row.clock_before.ok_or_else(|| StorageError::Corrupt {
                column: "moves.clock_first",
                value: format!("NULL at ply {} of a timed duel", row.ply),
            })?;
            m.clock = Some(clock.restored(left, ply, now));
        }
        let line = m.window_at(conn, ply).await?;
        m.set_position(position, row.code_before, ply);
        m.window = line;
        // The line may still end the game there (a takeback of a move played
        // after the rules ended it).
        if let Some(line) = &m.window {
            m.status = MatchStatus::of(line::verdict_of(line)?);
        }
        m.moved_at = now;
        m.updated_at = now;
        self.write(conn, m, seats, pre, Some(ply), &[], change)
            .await
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
        let (mut m, seats, seat) = self
            .load_seated(
                &mut conn,
                id,
                token,
                &pre,
                Refused::AnswerUndo,
                Timestamp::now(),
            )
            .await?;
        if m.mode != Mode::Duel {
            return Err(MatchError::NotADuel);
        }
        let offer = m.undo.ok_or(MatchError::NoUndoOffer)?;
        if !accept {
            // Either seat may decline; the offerer so withdraws it.
            m.undo = None;
            m.updated_at = Timestamp::now();
            let change = Change::by(EventKind::TakebackDeclined, seat);
            self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
                .await?;
            return Self::outcome(&m, &seats, base);
        }
        if offer.seat == seat {
            return Err(MatchError::OwnUndoOffer(seat));
        }
        let change = Change::by(EventKind::Undo, seat);
        let back = Back {
            ply: offer.back_to,
            why: Missing::OfferedMove,
        };
        self.go_back(&mut conn, &mut m, &seats, &pre, back, change)
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
        let now = Timestamp::now();
        let (mut m, seats, seat) = self
            .load_seated(&mut conn, id, token, &pre, Refused::Resign, now)
            .await?;
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
        m.end(MatchStatus::resigned_by(loser), now);
        let change = Change::by(EventKind::Resigned, seat);
        self.write(&mut conn, &mut m, &seats, &pre, None, &[], change)
            .await?;
        drop(conn);
        Self::outcome(&m, &seats, base)
    }
}

/// Where a takeback goes: back to `ply`, or `why` not.
#[derive(Debug, Clone, Copy)]
pub(super) struct Back {
    pub(super) ply: i64,
    pub(super) why: Missing,
}
