//! A match's decisions, apart from everything around them. Each takes the
//! match as read, the seat asking and the moment, changes the match as the
//! rules say (in memory) and answers what is to be written — or refuses
//! with the [`MatchError`] a caller sees. Nothing here reads or writes the
//! database, knows HTTP or a URL, or reads a clock: what a decision needs
//! to know from the store (the seat's last move, when a seat left, the
//! kept move a takeback returns to) is read before it and handed in, and
//! [`super::command`] writes what it answers, tells the streams and rings
//! the sweeper.

use std::time::Duration;

use qipan_rules::AnyPosition;

use super::clock::{runs_at, slot, timeout, TimeControl};
use super::events::{Change, EventKind, EventMove};
use super::line;
use super::{
    ClaimRefusal, KeptMove, Match, MatchEnd, MatchError, MatchStatus, Missing, Mode, Refused, Seat,
    SeatSlot, Secret, Timestamp, UndoOffer,
};
use crate::games::line::Line;
use crate::games::{Batch, Ply};
use crate::storage::StorageError;
use crate::wire::matches::ClaimResult;

/// What a decision asks to be done.
#[derive(Debug, Clone)]
pub enum Decision {
    /// Nothing: the match stands as read (an offer asked for again).
    Stands,
    /// Write the match as the decision left it, with this event.
    Write(Change),
    /// Take the match back (see [`take_back`]), with this event.
    GoBack(Back, Change),
}

/// Where a takeback goes: back to `ply`, or `why` not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Back {
    /// The ply returned to.
    pub ply: i64,
    /// What was missing, if the kept move after `ply` is not there.
    pub why: Missing,
}

/// What a takeback asked for comes to, before the store is read.
#[derive(Debug, Clone)]
pub enum Undo {
    /// Decided already.
    Decided(Decision),
    /// A duel seat offers to take its last move back: which one that is,
    /// the store says ([`offer_undo`]).
    Offer,
}

/// Refuses a match that is over.
fn ongoing(m: &Match, refused: Refused) -> Result<(), MatchError> {
    if m.status.is_ongoing() {
        Ok(())
    } else {
        Err(MatchError::Finished {
            refused,
            status: m.status,
        })
    }
}

/// Refuses a match that is not a duel being played.
fn duel_ongoing(m: &Match, refused: Refused) -> Result<(), MatchError> {
    if m.mode != Mode::Duel {
        return Err(MatchError::NotADuel);
    }
    ongoing(m, refused)
}

/// How `seat` may play on `m`: a duel seat plays only its own side's
/// actions, a solo seat every side's.
///
/// # Errors
///
/// `Finished` when the match is over.
pub fn batch(m: &Match, seat: Seat) -> Result<Batch, MatchError> {
    ongoing(m, Refused::Play)?;
    let only = match (m.mode, seat) {
        (Mode::Duel, Seat::Side(side)) => Some(side),
        (Mode::Duel, Seat::Solo) | (Mode::Solo, _) => None,
    };
    Ok(Batch { only, record: true })
}

/// `seat` played `plies` on `m` (as [`batch`] allowed), reaching `position`
/// (whose code is `code`) at `now`: the match moves there, a xiangqi line
/// judges repetitions and the move limit, each move is timed as it is
/// kept, and any offer is withdrawn. Answers the moves to keep and the
/// event.
///
/// # Errors
///
/// `GameOver` for a move after the one on which a xiangqi line ended the
/// game; `Corrupt` when the kept line does not replay.
pub fn play(
    m: &mut Match,
    seat: Seat,
    position: AnyPosition,
    code: String,
    plies: &[Ply],
    now: Timestamp,
) -> Result<(Vec<KeptMove>, Change), MatchError> {
    // Xiangqi: the line since the last capture decides repetitions and the
    // move limit, which the position alone cannot.
    let judged = match &m.line {
        Some(line) => Some(line::judge(line, plies)?),
        None => None,
    };
    let status = match &judged {
        Some(j) => MatchStatus::of(j.verdict),
        None => MatchStatus::of(position.status()),
    };
    let first = m.ply + 1;
    let ends = !status.is_ongoing();
    // Every move goes into the record; the window is the last HISTORY_CAP
    // of them.
    let mut kept = Vec::with_capacity(plies.len());
    let mut moves = Vec::with_capacity(plies.len());
    for (i, p) in plies.iter().enumerate() {
        let ply = first + i as i64;
        // Each move is timed as it is kept; the clock runs on once both
        // sides have moved, unless this move ends the game.
        let clock_before = m.clock.map(|c| c.left);
        if let Some(c) = m.clock.as_mut() {
            let last = i + 1 == plies.len();
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
        moves.push(EventMove {
            ply,
            side: p.side,
            action: p.action.clone(),
        });
    }
    // A move withdraws any takeback or draw offer.
    m.set_position(position, code, m.ply + plies.len() as i64);
    if let Some(j) = judged {
        m.line = Some(j.line);
        m.status = status;
    }
    m.moved_at = now;
    m.updated_at = now;
    let kind = if m.status.is_ongoing() {
        EventKind::Move
    } else {
        EventKind::Over
    };
    let change = Change {
        moves,
        ..Change::by(kind, seat)
    };
    Ok((kept, change))
}

/// `seat` asks to take back: a solo match goes back one move at once
/// (unless it was resigned); a duel seat offers to take its own last move
/// back, or its offer stands if it made one already.
///
/// # Errors
///
/// `Finished` (a resigned solo match, a finished duel), `UndoPending` (the
/// other seat's offer stands).
pub fn undo(m: &Match, seat: Seat) -> Result<Undo, MatchError> {
    if m.mode == Mode::Solo {
        if m.status.is_resigned() {
            return Err(MatchError::Finished {
                refused: Refused::UndoResigned,
                status: m.status,
            });
        }
        let back = Back {
            ply: m.ply - 1,
            why: Missing::LastMove,
        };
        return Ok(Undo::Decided(Decision::GoBack(
            back,
            Change::by(EventKind::Undo, seat),
        )));
    }
    ongoing(m, Refused::OfferUndo)?;
    match m.undo {
        Some(offer) if offer.seat != seat => Err(MatchError::UndoPending(offer)),
        // The same seat asking again: the offer stands.
        Some(_) => Ok(Undo::Decided(Decision::Stands)),
        None => Ok(Undo::Offer),
    }
}

/// A duel seat offers to take back to before its last move, which was
/// played at ply `last` (`None`: it has not moved, as far as the kept
/// moves go).
///
/// # Errors
///
/// `NothingToUndo`.
pub fn offer_undo(
    m: &mut Match,
    seat: Seat,
    last: Option<i64>,
    now: Timestamp,
) -> Result<Decision, MatchError> {
    let Some(last) = last else {
        return Err(MatchError::NothingToUndo {
            ply: m.ply,
            why: Missing::SeatsMove(seat),
        });
    };
    let back_to = last - 1;
    m.undo = Some(UndoOffer { seat, back_to });
    m.updated_at = now;
    Ok(Decision::Write(Change {
        back_to: Some(back_to),
        ..Change::by(EventKind::TakebackOffered, seat)
    }))
}

/// `seat` accepts or declines (or, as the offerer, withdraws) the
/// takeback offer of a duel.
///
/// # Errors
///
/// `NotADuel`, `NoUndoOffer`, `OwnUndoOffer`.
pub fn answer_undo(
    m: &mut Match,
    seat: Seat,
    accept: bool,
    now: Timestamp,
) -> Result<Decision, MatchError> {
    if m.mode != Mode::Duel {
        return Err(MatchError::NotADuel);
    }
    let offer = m.undo.ok_or(MatchError::NoUndoOffer)?;
    if !accept {
        // Either seat may decline; the offerer so withdraws it.
        m.undo = None;
        m.updated_at = now;
        return Ok(Decision::Write(Change::by(
            EventKind::TakebackDeclined,
            seat,
        )));
    }
    if offer.seat == seat {
        return Err(MatchError::OwnUndoOffer(seat));
    }
    let back = Back {
        ply: offer.back_to,
        why: Missing::OfferedMove,
    };
    Ok(Decision::GoBack(back, Change::by(EventKind::Undo, seat)))
}

/// Takes `m` back to `back.ply` at `now`, where `undone` is the kept move
/// after that ply (`None`: it is not kept) and `line` the xiangqi line at
/// that ply. A timed duel's clocks go back to what they were at that ply
/// (kept with that move), and the clock of the side to move runs again
/// from now if it ran then: the time spent on the moves taken back is
/// given back to both sides.
///
/// # Errors
///
/// `NothingToUndo` when the move is not kept; `Corrupt` when what is kept
/// does not read.
pub fn take_back(
    m: &mut Match,
    back: Back,
    undone: Option<KeptMove>,
    line: Option<Line>,
    now: Timestamp,
) -> Result<(), MatchError> {
    let Some(row) = undone else {
        return Err(MatchError::NothingToUndo {
            ply: m.ply,
            why: back.why,
        });
    };
    let position =
        AnyPosition::from_code(m.game, &row.code_before).map_err(|_| StorageError::Corrupt {
            column: "moves.code_before",
            value: row.code_before.clone(),
        })?;
    if let Some(clock) = m.clock {
        // Every move of a timed duel is kept with its clock.
        let left = row.clock_before.ok_or_else(|| StorageError::Corrupt {
            column: "moves.clock_first",
            value: format!("NULL at ply {} of a timed duel", row.ply),
        })?;
        m.clock = Some(clock.restored(left, back.ply, now));
    }
    m.set_position(position, row.code_before, back.ply);
    m.line = line;
    // The line may still end the game there (a takeback of a move played
    // after the rules ended it).
    if let Some(line) = &m.line {
        m.status = MatchStatus::of(line::verdict_of(line)?);
    }
    m.moved_at = now;
    m.updated_at = now;
    Ok(())
}

/// `seat` resigns: in a duel the seat loses, in a solo match the side to
/// move.
///
/// # Errors
///
/// `Finished`.
pub fn resign(m: &mut Match, seat: Seat, now: Timestamp) -> Result<Decision, MatchError> {
    ongoing(m, Refused::Resign)?;
    let loser = match (m.mode, seat) {
        (Mode::Duel, Seat::Side(side)) => side,
        (Mode::Duel, Seat::Solo) | (Mode::Solo, _) => m.to_move(),
    };
    m.end(MatchStatus::resigned_by(loser), now);
    Ok(Decision::Write(Change::by(EventKind::Resigned, seat)))
}

/// `seat` offers a draw; offering while the other seat's offer stands
/// agrees to it, and offering again leaves one's offer standing.
///
/// # Errors
///
/// `NotADuel`, `Finished`.
pub fn offer_draw(m: &mut Match, seat: Seat, now: Timestamp) -> Result<Decision, MatchError> {
    duel_ongoing(m, Refused::Draw)?;
    Ok(match m.draw {
        Some(offerer) if offerer == seat => Decision::Stands,
        Some(_) => {
            agree(m, now);
            Decision::Write(Change::by(EventKind::DrawAgreed, seat))
        }
        None => {
            m.draw = Some(seat);
            m.updated_at = now;
            Decision::Write(Change::by(EventKind::DrawOffered, seat))
        }
    })
}

/// `seat` accepts or declines (or, as the offerer, withdraws) the draw
/// offer of a duel.
///
/// # Errors
///
/// `NotADuel`, `Finished`, `NoDrawOffer`, `OwnDrawOffer`.
pub fn answer_draw(
    m: &mut Match,
    seat: Seat,
    accept: bool,
    now: Timestamp,
) -> Result<Decision, MatchError> {
    duel_ongoing(m, Refused::Draw)?;
    let offerer = m.draw.ok_or(MatchError::NoDrawOffer)?;
    if !accept {
        // Either seat may decline; the offerer so withdraws it.
        m.draw = None;
        m.updated_at = now;
        return Ok(Decision::Write(Change::by(EventKind::DrawDeclined, seat)));
    }
    if offerer == seat {
        return Err(MatchError::OwnDrawOffer(seat));
    }
    agree(m, now);
    Ok(Decision::Write(Change::by(EventKind::DrawAgreed, seat)))
}

/// The match is drawn by agreement at `now`.
fn agree(m: &mut Match, now: Timestamp) {
    m.end(
        MatchStatus::Drawn {
            reason: MatchEnd::Agreement,
        },
        now,
    );
}

/// The seat of `seats` that is not `seat`, in a duel.
pub fn other(seats: &[SeatSlot], seat: Seat) -> Option<&SeatSlot> {
    seats.iter().find(|s| s.seat != seat)
}

/// What a claim against an absent seat knows besides the match: when that
/// seat last went offline, and how long it must have been away.
#[derive(Debug, Clone, Copy)]
pub struct Absence {
    /// When the other seat's last stream closed, if one ever did.
    pub left_at: Option<Timestamp>,
    /// How long a seat must be away before it can be claimed against.
    pub abandon_after: Duration,
}

/// `seat` claims `result` against the side to move of a duel, which left:
/// it must be offline and away for the abandonment time, counted from the
/// latest of the last move, the moment it took its seat and the moment it
/// went offline. A correspondence duel has no claims.
///
/// # Errors
///
/// `NotADuel`, `Finished`, `CannotClaim` with the reason.
pub fn claim(
    m: &mut Match,
    seats: &[SeatSlot],
    seat: Seat,
    result: ClaimResult,
    absence: Absence,
    now: Timestamp,
) -> Result<Decision, MatchError> {
    let (Mode::Duel, Seat::Side(side)) = (m.mode, seat) else {
        return Err(MatchError::NotADuel);
    };
    ongoing(m, Refused::Claim)?;
    let refuse = |why| Err(MatchError::CannotClaim(why));
    if let Some(TimeControl::Correspondence { .. }) = m.clock.map(|c| c.control) {
        return refuse(ClaimRefusal::Correspondence);
    }
    if m.to_move() == side {
        return refuse(ClaimRefusal::OwnTurn);
    }
    let Some(away) = other(seats, seat) else {
        return Err(MatchError::NotADuel);
    };
    let Some(joined_at) = away.joined_at.filter(|_| away.token.is_some()) else {
        return refuse(ClaimRefusal::OpponentNotSeated(away.seat));
    };
    if away.online {
        return refuse(ClaimRefusal::OpponentOnline(away.seat));
    }
    let still = m.moved_at.max(joined_at);
    let away_since = absence.left_at.map_or(still, |left| still.max(left));
    let claimable_at = away_since.plus(absence.abandon_after);
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
    Ok(Decision::Write(Change::by(EventKind::Claimed, seat)))
}

/// Ends `m` by timeout when the flag of its side to move has fallen by
/// `now` (the clock stopped when it fell): the event to write, or `None`
/// when no flag has fallen (no clock, a finished match, time left).
pub fn flag(m: &mut Match, now: Timestamp) -> Option<Change> {
    let clock = m.clock?;
    if !m.status.is_ongoing() {
        return None;
    }
    let fell = clock.fallen(m.to_move_slot(), now)?;
    let status = timeout(&m.position, m.to_move());
    m.end(status, fell.at);
    m.updated_at = now;
    Some(Change::of(EventKind::Timeout))
}

/// The seat of `seats` that `invite` was issued for, still open. Every
/// seat is compared, so the time taken does not tell which.
///
/// # Errors
///
/// `InvalidInvite` (no seat's invite), `SeatTaken`.
pub fn invited(seats: &[SeatSlot], invite: &Secret) -> Result<usize, MatchError> {
    let mut found = None;
    for (i, s) in seats.iter().enumerate() {
        if s.invite.as_ref().is_some_and(|h| invite.matches(h)) {
            found = Some(i);
        }
    }
    let i = found.ok_or(MatchError::InvalidInvite)?;
    match seats[i].token {
        Some(_) => Err(MatchError::SeatTaken(seats[i].seat)),
        None => Ok(i),
    }
}

/// Refuses invitations but in a duel being played.
///
/// # Errors
///
/// `NotADuel`, `Finished`.
pub fn invitable(m: &Match) -> Result<(), MatchError> {
    duel_ongoing(m, Refused::Invite)
}

#[cfg(test)]
mod tests;
