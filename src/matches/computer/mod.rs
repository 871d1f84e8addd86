//! The computer in a duel's seat: `POST /v1/matches` with `"computer":
//! {"level": 1–10}` (or `{"ms": N}`, or both) seats it in the seat the
//! creator does not take, and from then on it answers by itself.
//!
//! **What it does.** Whenever a match it plays in is being played and it has
//! something to do ([`duty`]), it does it, in this order:
//! - a takeback offered by the other seat is accepted at once;
//! - a draw offered by the other seat is answered by its evaluation of the
//!   position ([`accepts_draw`]: accepted when it does not stand better than
//!   roughly level, declined otherwise);
//! - on its turn it moves: the game's search ([`crate::analysis::thinker`])
//!   at its level and time, on the search pool (never on an HTTP thread),
//!   written through the same guarded path as a seat's move
//!   (`Matches::play_as`), so the move is published to every stream like
//!   any other. In a timed duel its clock runs as a person's does, and it
//!   spends at most a tenth of its time left on a move.
//!
//! It never offers a takeback or a draw, never claims abandonment, and never
//! resigns: a lost position is played out to its end (the clock, or the
//! rules, end it). Its seat is always online and has no token anybody
//! holds, so it cannot be joined nor played for.
//!
//! **Exactly once across instances.** Every instance runs one loop
//! (`Matches::start_computer`) that looks, when this instance wrote to a
//! computer's match and at least every [`POLL`], for the matches whose
//! computer has something to do (`storage::computer::due`), and claims each
//! one's turn with a lease before searching: one `UPDATE computer_seats …
//! WHERE turn < <version> OR (turn = <version> AND lease_until <= now)`,
//! which the database lets exactly one instance win for each version of the
//! match. The winner searches; the others leave the turn alone until the
//! lease expires ([`lease_for`]: the search time plus [`LEASE_MARGIN`]), so a
//! turn claimed by an instance that died mid-search is taken over by another
//! at its next look — which is also how a restarted service picks up the
//! matches whose computer was to move. The lease only saves searches; what
//! makes the move land once is the version guard of the write itself: a
//! slow holder whose lease was taken over, or a seat's write that landed
//! meanwhile (a takeback offer during the search), makes the losing write
//! find the version moved on, and nothing of it is written. A claim is
//! counted (`computer_seats.claims`), so a test can see one claim a turn.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use qipan_engine::{Level, Limits};
use tokio::sync::Notify;

use super::clock::{slot, Millis};
use super::decide;
use super::line;
use super::{
    Match, MatchError, MatchId, Matches, Mode, Precondition, Seat, SeatSlot, Timestamp, UndoOffer,
    Version,
};
use crate::analysis::pool::{Refused, SearchPool};
use crate::analysis::{self, Subject};
use crate::storage::computer as store;
use crate::storage::StorageError;
use crate::wire::analysis::ScoreView;
use crate::wire::matches::ComputerRequest;

/// How the computer plays in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Computer {
    /// 1 (a beginner can win: weakened by design) to 10 (full strength).
    pub level: Level,
    /// Its search time per move.
    pub time: Millis,
}

/// The longest search time per move a creation may ask for, in
/// milliseconds (the analysis endpoint's cap).
pub const MAX_MS: i64 = analysis::MAX_MS as i64;

/// Why a creation's `computer` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ComputerError {
    /// Neither `level` nor `ms`.
    #[error("computer is {{\"level\": 1–10}}, {{\"ms\": 1–5000}} (full strength at that many milliseconds a move), or both")]
    Shape,
    /// A level outside 1 to 10.
    #[error("computer.level is {0}: it is from 1 (a beginner can win) to 10 (full strength)")]
    Level(i64),
    /// A time outside 1 to [`MAX_MS`].
    #[error("computer.ms is {0}: it is from 1 to 5000 (milliseconds a move)")]
    Ms(i64),
    /// The search pool took no search (busy, or stopping): never a
    /// creation's refusal, the computer's loop tries again.
    #[error("the search pool took no search ({0:?})")]
    Busy(Refused),
    /// The search found nothing to play or judge (a position its rules
    /// end, which the match's status did not say): never a creation's
    /// refusal.
    #[error("the computer's search found no move")]
    NoMove,
    /// A game of one player, or a solo match: there is no other seat.
    #[error("the computer takes the other seat of a duel (xiangqi, gomoku, quoridor); a {} {} match has no other seat", .mode.as_str(), .game.as_str())]
    NoOtherSeat {
        /// The game.
        game: qipan_rules::GameKind,
        /// The mode asked for (or the game's only one).
        mode: Mode,
    },
}

impl ComputerError {
    /// The body member at fault.
    pub fn field(self) -> &'static str {
        match self {
            ComputerError::Shape
            | ComputerError::NoOtherSeat { .. }
            | ComputerError::Busy(_)
            | ComputerError::NoMove => "computer",
            ComputerError::Level(_) => "computer.level",
            ComputerError::Ms(_) => "computer.ms",
        }
    }
}

impl Computer {
    /// The computer a creation asks for: `level` alone plays at 100 ms a
    /// level (a second at level 10, as `/move` does), `ms` alone at full
    /// strength.
    ///
    /// # Errors
    ///
    /// [`ComputerError`] naming the member at fault.
    pub fn parse(req: &ComputerRequest) -> Result<Computer, ComputerError> {
        let level = match req.level {
            Some(n) => Some(
                u8::try_from(n)
                    .ok()
                    .and_then(|l| Level::new(l).ok())
                    .ok_or(ComputerError::Level(n))?,
            ),
            None => None,
        };
        let ms = match req.ms {
            Some(n) if !(1..=MAX_MS).contains(&n) => return Err(ComputerError::Ms(n)),
            other => other,
        };
        let (level, ms) = match (level, ms) {
            (None, None) => return Err(ComputerError::Shape),
            (Some(level), ms) => (level, ms.unwrap_or(100 * i64::from(level.get()))),
            (None, Some(ms)) => (Level::MAX, ms),
        };
        Ok(Computer {
            level,
            time: Millis::new(ms),
        })
    }
}

/// What the computer has to do in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duty {
    /// Accept the other seat's takeback offer.
    AcceptUndo(UndoOffer),
    /// Answer the other seat's draw offer.
    AnswerDraw,
    /// Move.
    Move,
}

/// The computer's seat in `m` and what it has to do there, if anything: a
/// takeback offer first, then a draw offer, then its move. `None` for a
/// match without a computer, a match over, or the other seat's turn with
/// nothing offered.
pub fn duty(m: &Match, seats: &[SeatSlot]) -> Option<(Seat, Computer, Duty)> {
    let (seat, computer) = seats.iter().find_map(|s| s.computer.map(|c| (s.seat, c)))?;
    if !m.status.is_ongoing() {
        return None;
    }
    let duty = match (m.undo, m.draw) {
        (Some(offer), _) if offer.seat != seat => Duty::AcceptUndo(offer),
        (_, Some(offerer)) if offerer != seat => Duty::AnswerDraw,
        _ if Seat::Side(m.to_move()) == seat => Duty::Move,
        _ => return None,
    };
    Some((seat, computer, duty))
}

/// A score of the side to move, as the computer sees it: itself when it is
/// to move, else turned round.
pub fn seen_by_computer(score: ScoreView, computer_to_move: bool) -> ScoreView {
    if computer_to_move {
        return score;
    }
    match score {
        ScoreView::Centipawns(c) => ScoreView::Centipawns(-c),
        ScoreView::Mate(n) => ScoreView::Mate(-n),
        ScoreView::ForcedWin(n) => ScoreView::ForcedLoss(n),
        ScoreView::ForcedLoss(n) => ScoreView::ForcedWin(n),
        ScoreView::Evaluation(e) => ScoreView::Evaluation(-e),
        ScoreView::PathDifference(d) => ScoreView::PathDifference(-d),
        ScoreView::Expected(e) => ScoreView::Expected(e),
    }
}

/// Xiangqi: the computer accepts a draw unless it stands better by more
/// than half a soldier.
pub const DRAW_CENTIPAWNS: i32 = 50;
/// Gomoku: unless it stands better by more than half an open three.
pub const DRAW_EVALUATION: i32 = 15;
/// Quoridor: unless it is ahead in the race by more than half a step.
pub const DRAW_PATH: i32 = 50;

/// Whether the computer accepts a draw at `score`, its own evaluation of
/// the position ([`seen_by_computer`]): when the position is roughly level
/// or worse for it — a forced loss, being mated, or an evaluation at most
/// [`DRAW_CENTIPAWNS`], [`DRAW_EVALUATION`] or [`DRAW_PATH`] in its favour —
/// and never when it sees a forced win.
pub fn accepts_draw(score: ScoreView) -> bool {
    match score {
        ScoreView::ForcedLoss(_) => true,
        ScoreView::ForcedWin(_) => false,
        ScoreView::Mate(n) => n < 0,
        ScoreView::Centipawns(c) => c <= DRAW_CENTIPAWNS,
        ScoreView::Evaluation(e) => e <= DRAW_EVALUATION,
        ScoreView::PathDifference(d) => d <= DRAW_PATH,
        // One-player games have no draw offers.
        ScoreView::Expected(_) => false,
    }
}

/// What a lease outlasts its search by: room for a queue on the search
/// pool and the database's round trips. An instance that stops holds the
/// turn this much longer than its search at most.
pub const LEASE_MARGIN: Duration = Duration::from_secs(10);

/// How long a claim of the computer's turn holds, for a search of `time`.
pub fn lease_for(time: Millis) -> Duration {
    time.duration() + LEASE_MARGIN
}

/// Whether a lease on a turn may be claimed at `now`: the match has moved
/// past the version claimed, or the claim has expired. (What the claim's
/// UPDATE says in SQL.)
pub fn claimable(claimed: Version, until: Timestamp, version: Version, now: Timestamp) -> bool {
    claimed < version || until <= now
}

/// The time the computer searches a move: its time per move, but at most a
/// tenth of what its clock has left (`left`), and at least 10 ms.
pub fn search_time(computer: Computer, left: Option<Millis>) -> Duration {
    let own = computer.time.duration();
    let budget = match left {
        Some(left) => own.min(left.duration() / 10),
        None => own,
    };
    budget.max(Duration::from_millis(10))
}

/// How often each instance looks for computers' turns no write of its own
/// told it about (another instance's writes, expired leases, a restart).
pub const POLL: Duration = Duration::from_secs(1);

/// How many turns one look claims at most.
const BATCH: i64 = 50;

/// The computer's side of the service: the search pool its moves run on,
/// what wakes its loop, and this instance's name in the leases.
#[derive(Clone)]
pub struct Seating {
    pool: Option<Arc<SearchPool>>,
    wake: Arc<Notify>,
    holder: Arc<str>,
}

impl Default for Seating {
    fn default() -> Seating {
        Seating {
            pool: None,
            wake: Arc::new(Notify::new()),
            holder: uuid::Uuid::new_v4().to_string().into(),
        }
    }
}

impl std::fmt::Debug for Seating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seating")
            .field("holder", &self.holder)
            .field("pool", &self.pool.as_ref().map(|p| p.threads()))
            .finish()
    }
}

impl Seating {
    /// Wakes this instance's loop (or the next time it waits).
    pub fn ring(&self) {
        self.wake.notify_one();
    }
}

impl Matches {
    /// Lets the computer play, its searches on `pool`. Without it, a
    /// computer's match is created but the computer does not answer.
    pub fn seat_computer(&mut self, pool: Arc<SearchPool>) {
        self.computer.pool = Some(pool);
    }

    /// Starts this instance's computer loop, until the process ends.
    pub(super) fn start_computer(&self) {
        if self.computer.pool.is_none() {
            return;
        }
        let matches = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = matches.look().await {
                    tracing::warn!(error = %e, "looking for the computer's turns");
                }
                tokio::select! {
                    () = tokio::time::sleep(POLL) => {}
                    () = matches.computer.wake.notified() => {}
                }
            }
        });
    }

    /// Claims every computer's turn no lease holds, and takes each claimed
    /// one in a task of its own.
    async fn look(&self) -> Result<(), MatchError> {
        let mut conn = self.db.acquire().await?;
        let now = Timestamp::now();
        let due = store::due(&mut conn, now, BATCH).await?;
        for turn in due {
            let until = now.plus(lease_for(turn.time));
            let holder = &self.computer.holder;
            if !store::claim(&mut conn, turn.id, turn.version, holder, until, now).await? {
                continue;
            }
            let matches = self.clone();
            tokio::spawn(async move {
                if let Err(e) = matches.take_turn(turn.id, turn.version).await {
                    tracing::warn!(match_id = %turn.id, error = %e, "the computer's turn");
                    // Let the next look (of any instance) try again.
                    if let Ok(mut conn) = matches.db.acquire().await {
                        let holder = &matches.computer.holder;
                        let _ = store::release(&mut conn, turn.id, turn.version, holder).await;
                    }
                }
            });
        }
        Ok(())
    }

    /// Does what the computer has to do in match `id`, claimed at
    /// `claimed`. A write lost to another (the match moved on) is no
    /// failure: the next look sees the match as it is now.
    async fn take_turn(&self, id: MatchId, claimed: Version) -> Result<(), MatchError> {
        match self.try_turn(id, claimed).await {
            Err(MatchError::Conflict | MatchError::Stale { .. } | MatchError::UnknownMatch(_)) => {
                Ok(())
            }
            Err(MatchError::Storage(StorageError::Conflict)) => Ok(()),
            done => done,
        }
    }

    async fn try_turn(&self, id: MatchId, claimed: Version) -> Result<(), MatchError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats) = Self::load(&mut conn, id).await?;
        if m.version != claimed {
            return Ok(());
        }
        if self
            .settle_flag(&mut conn, &mut m, &seats, Timestamp::now())
            .await?
        {
            return Ok(());
        }
        let Some((seat, computer, duty)) = duty(&m, &seats) else {
            return Ok(());
        };
        let pre = Precondition::Any;
        match duty {
            Duty::AcceptUndo(_) => {
                let now = Timestamp::now();
                let decision = decide::answer_undo(&mut m, seat, true, now)?;
                self.carry(&mut conn, &mut m, &seats, &pre, decision, now)
                    .await
            }
            Duty::AnswerDraw => {
                // The search runs without a connection held (SQLite has one).
                drop(conn);
                let to_move = Seat::Side(m.to_move()) == seat;
                // On its own turn its clock runs while it thinks.
                let time = search_time(computer, to_move.then(|| time_left(&m)).flatten());
                let thinker = analysis::thinker(subject(&m)?).map_err(|_| NO_MOVE)?;
                let view = self
                    .search(move |limits| thinker.analyse(&limits, 1), time)
                    .await?;
                let accept = view
                    .lines
                    .first()
                    .is_some_and(|l| accepts_draw(seen_by_computer(l.score, to_move)));
                let now = Timestamp::now();
                let decision = decide::answer_draw(&mut m, seat, accept, now)?;
                let mut conn = self.db.acquire().await?;
                self.carry(&mut conn, &mut m, &seats, &pre, decision, now)
                    .await
            }
            Duty::Move => {
                drop(conn);
                let time = search_time(computer, time_left(&m));
                let seed = xxhash_rust::xxh3::xxh3_64(format!("{}:{}", m.id, m.ply).as_bytes());
                let thinker = analysis::thinker(subject(&m)?).map_err(|_| NO_MOVE)?;
                let level = computer.level;
                let chosen = self
                    .search(move |limits| thinker.choose(level, seed, &limits), time)
                    .await?
                    .ok_or(NO_MOVE)?;
                let mut conn = self.db.acquire().await?;
                let now = Timestamp::now();
                if self.settle_flag(&mut conn, &mut m, &seats, now).await? {
                    return Ok(());
                }
                self.play_as(conn, m, &seats, seat, &pre, &chosen.actions, "", now)
                    .await
                    .map(drop)
            }
        }
    }

    /// Runs `search` on the search pool within `time`.
    async fn search<T: Send + 'static>(
        &self,
        search: impl FnOnce(Limits) -> T + Send + 'static,
        time: Duration,
    ) -> Result<T, MatchError> {
        let pool = self
            .computer
            .pool
            .as_ref()
            .ok_or(MatchError::Computer(ComputerError::Busy(Refused::Closed)))?;
        pool.run(move |stop: &Arc<AtomicBool>| {
            search(Limits {
                nodes: None,
                time: Some(time),
                depth: None,
                stop: Some(stop.clone()),
            })
        })
        .await
        .map_err(|refused| MatchError::Computer(ComputerError::Busy(refused)))
    }
}

/// The time the side to move of a timed duel has left now.
fn time_left(m: &Match) -> Option<Millis> {
    m.clock.map(|c| {
        let reading = c.reading();
        let own = reading.left[slot(m.game, m.to_move())];
        match reading.since {
            Some(since) => Millis::new(own.get() - Millis::between(since, Timestamp::now()).get()),
            None => own,
        }
    })
}

/// What a turn with nothing to search ends in.
const NO_MOVE: MatchError = MatchError::Computer(ComputerError::NoMove);

/// The position the computer searches, with a xiangqi match's line.
fn subject(m: &Match) -> Result<Subject, MatchError> {
    Ok(Subject {
        position: m.position.clone(),
        line: m.line.as_ref().map(line::history_of).transpose()?,
    })
}

#[cfg(test)]
mod tests;
