//! Clocks of timed duels: the time control chosen at creation, each side's
//! time left, and the one rule that turns a fallen flag into a result.
//!
//! The server is the only clock. A duel's clock is read at the moments
//! moves are stored: `left` is each side's time at the last write that
//! touched the clock, and `since` is when the side to move's clock started
//! running (none runs before both sides have made their first move, nor once
//! the match is over). The side to move has `left[side] - (now - since)`; its
//! flag falls at `since + left[side]`, the match's deadline.
//!
//! - Fischer (`base` + `increment`): a move takes the time it took off the
//!   mover's clock and adds the increment.
//! - Correspondence (`days` per move): a move resets the mover's time to the
//!   whole allowance, so `left` of the side to move is what it has for this
//!   move.
//!
//! **When the clock starts.** As on lichess.org and chess.com, the first
//! move of each side is free: no clock runs until both sides have moved
//! once (ply 2), so a duel created before the opponent joined loses no time
//! waiting for them. From then on the side to move's clock runs. The
//! increment is added for moves made on a running clock only. A side that
//! never makes its first move is handled by the abandonment claim.

use std::fmt;
use std::time::Duration;

use qipan_rules::{AnyPlayer, AnyPosition, GameKind};

use super::domain::Timestamp;

/// A span of clock time, in whole milliseconds (what the database keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(i64);

impl Millis {
    /// No time.
    pub const ZERO: Millis = Millis(0);

    /// `ms` milliseconds.
    pub fn new(ms: i64) -> Millis {
        Millis(ms)
    }

    /// Its milliseconds.
    pub fn get(self) -> i64 {
        self.0
    }

    /// In seconds, as the API shows clock times (milliseconds kept).
    pub fn seconds(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// The time from `from` to `to` (zero when `to` is earlier).
    pub fn between(from: Timestamp, to: Timestamp) -> Millis {
        Millis(to.millis().saturating_sub(from.millis()).max(0))
    }

    /// As a [`Duration`] (zero when negative).
    pub fn duration(self) -> Duration {
        Duration::from_millis(u64::try_from(self.0).unwrap_or(0))
    }
}

/// How much time each side has, chosen when the duel is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// `base` for the whole game, `increment` added after each timed move.
    Fischer {
        /// Each side's time at the start.
        base: Millis,
        /// Added to the mover's clock after each move made on a running
        /// clock.
        increment: Millis,
    },
    /// A fixed allowance for every move.
    Correspondence {
        /// The time each move may take.
        per_move: Millis,
    },
}

impl TimeControl {
    /// Its name, as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeControl::Fischer { .. } => "fischer",
            TimeControl::Correspondence { .. } => "correspondence",
        }
    }

    /// The time control named `kind` with the stored `base` and
    /// `increment` (a correspondence control keeps its allowance in
    /// `base`).
    pub fn stored(kind: &str, base: Millis, increment: Millis) -> Option<TimeControl> {
        match kind {
            "fischer" => Some(TimeControl::Fischer { base, increment }),
            "correspondence" => Some(TimeControl::Correspondence { per_move: base }),
            _ => None,
        }
    }

    /// The stored `(base, increment)`.
    pub fn columns(self) -> (Millis, Millis) {
        match self {
            TimeControl::Fischer { base, increment } => (base, increment),
            TimeControl::Correspondence { per_move } => (per_move, Millis::ZERO),
        }
    }

    /// Each side's time before the first move.
    fn initial(self) -> Millis {
        match self {
            TimeControl::Fischer { base, .. } => base,
            TimeControl::Correspondence { per_move } => per_move,
        }
    }
}

/// The most a Fischer base may be: a day.
pub const BASE_MAX: Duration = Duration::from_secs(24 * 3600);
/// The most an increment may be: an hour.
pub const INCREMENT_MAX: Duration = Duration::from_secs(3600);
/// The most a correspondence allowance may be, in days.
pub const DAYS_MAX: f64 = 60.0;

/// Why a time control in a create body is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Neither `base` nor `days`, or members of both shapes.
    #[error("clock is either {{\"base\": seconds, \"increment\": seconds}} (Fischer) or {{\"days\": n}} (correspondence), without a member of the other (not even null)")]
    Shape,
    /// A base outside (0, a day].
    #[error("clock.base must be more than 0 and at most 86400 seconds (fractions allowed, to the millisecond)")]
    Base,
    /// An increment outside [0, an hour].
    #[error("clock.increment must be 0 to 3600 seconds (fractions allowed, to the millisecond)")]
    Increment,
    /// An allowance outside (0, 60] days.
    #[error("clock.days must be more than 0 and at most 60 (fractions allowed: 0.5 is 12 hours)")]
    Days,
    /// A clock for a one-player game or a solo match.
    #[error("clocks are for duels: a solo match has no clock")]
    Solo,
}

impl ClockError {
    /// The body member at fault.
    pub fn field(self) -> &'static str {
        match self {
            ClockError::Shape | ClockError::Solo => "clock",
            ClockError::Base => "clock.base",
            ClockError::Increment => "clock.increment",
            ClockError::Days => "clock.days",
        }
    }
}

/// Seconds (a JSON number) as whole milliseconds, when finite and within
/// `[low, high]` (`low` itself excluded when `open`).
fn millis_of(seconds: f64, low: f64, high: f64, open: bool) -> Option<Millis> {
    let ok =
        seconds.is_finite() && seconds <= high && if open { seconds > low } else { seconds >= low };
    let ms = (seconds * 1000.0).round();
    // A positive amount that rounds to nothing is no time at all.
    (ok && !(open && ms < 1.0)).then_some(Millis(ms as i64))
}

impl TimeControl {
    /// The time control a create body asks for: `base` and `increment` in
    /// seconds (Fischer), or `days` (correspondence); fractions are kept
    /// to the millisecond.
    ///
    /// # Errors
    ///
    /// [`ClockError`] naming the member at fault.
    pub fn parse(
        base: Option<f64>,
        increment: Option<f64>,
        days: Option<f64>,
    ) -> Result<TimeControl, ClockError> {
        match (base, increment, days) {
            (Some(base), increment, None) => Ok(TimeControl::Fischer {
                base: millis_of(base, 0.0, BASE_MAX.as_secs_f64(), true).ok_or(ClockError::Base)?,
                increment: millis_of(
                    increment.unwrap_or(0.0),
                    0.0,
                    INCREMENT_MAX.as_secs_f64(),
                    false,
                )
                .ok_or(ClockError::Increment)?,
            }),
            (None, None, Some(days)) => Ok(TimeControl::Correspondence {
                per_move: millis_of(days * 86_400.0, 0.0, DAYS_MAX * 86_400.0, true)
                    .ok_or(ClockError::Days)?,
            }),
            _ => Err(ClockError::Shape),
        }
    }
}

impl TryFrom<&crate::wire::matches::ClockRequest> for TimeControl {
    type Error = ClockError;

    /// The time control a `clock` member asks for: Fischer when `base` is
    /// there (`increment` may be left out or `null`, for 0), correspondence
    /// when `days` is; a member of the other shape beside them, even
    /// `null`, is refused, as is a `null` `base` or `days`.
    fn try_from(c: &crate::wire::matches::ClockRequest) -> Result<TimeControl, ClockError> {
        match (c.base, c.increment, c.days) {
            (Some(base), increment, None) => TimeControl::parse(
                Some(base.ok_or(ClockError::Base)?),
                increment.flatten(),
                None,
            ),
            (None, None, Some(days)) => {
                TimeControl::parse(None, None, Some(days.ok_or(ClockError::Days)?))
            }
            _ => Err(ClockError::Shape),
        }
    }
}

/// A running duel clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Each side's time left, in the game's order of players, as of
    /// `since` (for the side to move) or its last move (for the other).
    pub left: [Millis; 2],
    /// When the side to move's clock started running; `None` while no
    /// clock runs.
    pub since: Option<Timestamp>,
}

/// A clock as an event records it: each side's time left and, while the
/// side to move's clock runs, since when (its deadline follows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// Each side's time left, in the game's order of players.
    pub left: [Millis; 2],
    /// When the side to move's clock started running.
    pub since: Option<Timestamp>,
}

impl Reading {
    /// When the flag of the side in `slot` (the side to move) falls.
    pub fn deadline(&self, slot: usize) -> Option<Timestamp> {
        let left = self.left.get(slot)?;
        self.since.map(|since| since.plus(left.duration()))
    }
}

/// The flag of the side to move fell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged {
    /// When it fell.
    pub at: Timestamp,
}

/// Where `side` stands in the game's order of players (0 or 1).
///
/// # Panics
///
/// When `side` is not a player of `game`: sides are read from the match's
/// own game, so it always is.
pub fn slot(game: GameKind, side: AnyPlayer) -> usize {
    game.players()
        .iter()
        .position(|p| *p == side)
        .expect("a side of the match's own game")
        .min(1)
}

/// Whether the clock runs at `ply` of a match still being played: once
/// both sides have moved (see the module documentation).
pub fn runs_at(ply: i64) -> bool {
    ply >= 2
}

impl Clock {
    /// A clock before the first move.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.initial(); 2],
            since: None,
        }
    }

    /// When the flag of the side in `slot` (the side to move) falls, while
    /// its clock runs.
    pub fn deadline(&self, slot: usize) -> Option<Timestamp> {
        self.reading().deadline(slot)
    }

    /// Its reading.
    pub fn reading(&self) -> Reading {
        Reading {
            left: self.left,
            since: self.since,
        }
    }

    /// Whether the flag of the side to move (in `slot`) has fallen at `now`.
    pub fn fallen(&self, slot: usize, now: Timestamp) -> Option<Flagged> {
        self.deadline(slot)
            .filter(|&at| at <= now)
            .map(|at| Flagged { at })
    }

    /// The side in `mover` moves at `now`: the time it took comes off its
    /// clock and the control's rule is applied; then the clock runs for the
    /// next side from `now` if `runs` (else it stops). The caller has
    /// checked at `now` that the mover's flag has not fallen
    /// ([`Clock::fallen`]).
    pub fn moved(&mut self, mover: usize, now: Timestamp, runs: bool) {
        let idx = mover.min(1);
        if let Some(since) = self.since {
            let spent = Millis::between(since, now);
            let left = self.left[idx].get() - spent.get();
            self.left[idx] = match self.control {
                TimeControl::Fischer { increment, .. } => Millis(left + increment.get()),
                TimeControl::Correspondence { per_move } => per_move,
            };
        } else if let TimeControl::Correspondence { per_move } = self.control {
            self.left[idx] = per_move;
        }
        self.since = runs.then_some(now);
    }

    /// The clock stopped at `now` (the match ended other than by a move):
    /// the time of the side to move (in `slot`) is counted down to `now`.
    pub fn stop(&mut self, slot: usize, now: Timestamp) {
        if let Some(since) = self.since.take() {
            let idx = slot.min(1);
            let spent = Millis::between(since, now);
            self.left[idx] = Millis((self.left[idx].get() - spent.get()).max(0));
        }
    }

    /// The clock as it was at a kept ply (`left`, read with the move that
    /// followed it), running again from `now` when it ran at that ply.
    pub fn restored(&self, left: [Millis; 2], ply: i64, now: Timestamp) -> Clock {
        Clock {
            control: self.control,
            left,
            since: runs_at(ply).then_some(now),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Fischer { base, increment } => {
                write!(f, "{}+{} s", base.seconds(), increment.seconds())
            }
            TimeControl::Correspondence { per_move } => {
                write!(f, "{} days a move", per_move.seconds() / 86_400.0)
            }
        }
    }
}

/// How a match whose side to move (`loser`) lost on time ends: the other
/// side wins, or the game is drawn when it could not have won.
pub fn timeout(position: &AnyPosition, loser: AnyPlayer) -> super::MatchStatus {
    use super::{MatchEnd, MatchStatus};
    match loser.opponent() {
        Some(winner) if crate::games::can_win(position, winner) => MatchStatus::Won {
            winner,
            reason: MatchEnd::Timeout,
        },
        Some(_) | None => MatchStatus::Drawn {
            reason: MatchEnd::Timeout,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::can_win;
    use qipan_rules::xiangqi::{Position, Side};

    fn at(ms: i64) -> Timestamp {
        Timestamp::from_millis(ms).expect("after the epoch")
    }

    #[test]
    fn a_fischer_clock_counts_down_and_adds_the_increment() {
        let control = TimeControl::parse(Some(60.0), Some(2.0), None).unwrap();
        let mut c = Clock::new(control);
        assert_eq!(c.left, [Millis(60_000); 2]);
        // Both first moves are free; the clock starts with ply 2.
        c.moved(0, at(1_000), runs_at(1));
        assert_eq!((c.left, c.since), ([Millis(60_000); 2], None));
        c.moved(1, at(9_000), runs_at(2));
        assert_eq!((c.left, c.since), ([Millis(60_000); 2], Some(at(9_000))));
        assert_eq!(c.deadline(0), Some(at(69_000)));
        c.moved(0, at(19_000), runs_at(3));
        assert_eq!(c.left, [Millis(52_000), Millis(60_000)]);
        assert_eq!(c.deadline(1), Some(at(79_000)));
        assert_eq!(c.fallen(1, at(78_999)), None);
        assert_eq!(c.fallen(1, at(79_000)), Some(Flagged { at: at(79_000) }));
        c.stop(1, at(70_000));
        assert_eq!((c.left, c.since), ([Millis(52_000), Millis(9_000)], None));
    }

    #[test]
    fn a_correspondence_clock_gives_every_move_the_same_time() {
        let control = TimeControl::parse(None, None, Some(1.0)).unwrap();
        let day = Millis(86_400_000);
        let mut c = Clock::new(control);
        c.moved(0, at(0), runs_at(1));
        c.moved(1, at(5), runs_at(2));
        c.moved(0, at(50_000_000), runs_at(3));
        assert_eq!(c.left, [day, day]);
        assert_eq!(c.deadline(1), Some(at(50_000_000 + day.get())));
    }

    #[test]
    fn time_controls_are_checked() {
        let p = TimeControl::parse;
        assert_eq!(
            p(Some(0.25), None, None).map(|c| c.columns()),
            Ok((Millis(250), Millis(0)))
        );
        assert_eq!(p(Some(0.0), None, None), Err(ClockError::Base));
        assert_eq!(p(Some(0.0004), None, None), Err(ClockError::Base));
        assert_eq!(p(Some(86_401.0), None, None), Err(ClockError::Base));
        assert_eq!(p(Some(1.0), Some(-1.0), None), Err(ClockError::Increment));
        assert_eq!(p(None, None, Some(0.0)), Err(ClockError::Days));
        assert_eq!(p(None, None, Some(61.0)), Err(ClockError::Days));
        assert_eq!(p(Some(1.0), None, Some(1.0)), Err(ClockError::Shape));
        assert_eq!(p(None, Some(1.0), None), Err(ClockError::Shape));
        assert_eq!(p(None, None, None), Err(ClockError::Shape));
    }

    #[test]
    fn the_shape_of_a_clock_is_told_by_the_members_sent() {
        let read = |text: &str| {
            let c: crate::wire::matches::ClockRequest =
                serde_json::from_str(text).expect("a clock member");
            TimeControl::try_from(&c).map(TimeControl::columns)
        };
        let columns = |base, increment| Ok((Millis(base), Millis(increment)));
        assert_eq!(read(r#"{"base": 60}"#), columns(60_000, 0));
        assert_eq!(
            read(r#"{"base": 60, "increment": null}"#),
            columns(60_000, 0)
        );
        assert_eq!(
            read(r#"{"base": 60, "increment": 2}"#),
            columns(60_000, 2_000)
        );
        assert_eq!(read(r#"{"days": 0.5}"#), columns(43_200_000, 0));
        for mixed in [
            r#"{"base": 60, "days": null}"#,
            r#"{"days": 1, "base": null}"#,
            r#"{"days": 1, "increment": null}"#,
            r#"{}"#,
        ] {
            assert_eq!(read(mixed), Err(ClockError::Shape), "{mixed}");
        }
        assert_eq!(read(r#"{"base": null}"#), Err(ClockError::Base));
        assert_eq!(read(r#"{"days": null}"#), Err(ClockError::Days));
    }

    #[test]
    fn a_xiangqi_side_without_attackers_cannot_win() {
        let fen = |f: &str| AnyPosition::from(Position::from_fen(f).unwrap());
        let start = AnyPosition::from(Position::start());
        let red = AnyPlayer::Xiangqi(Side::Red);
        let black = AnyPlayer::Xiangqi(Side::Black);
        assert!(can_win(&start, red) && can_win(&start, black));
        // Red: general, advisors, elephants; black: a soldier.
        let p = fen("4k4/9/9/9/9/9/4p4/4B4/4A4/3AK1B2 w");
        assert!(!can_win(&p, red));
        assert!(can_win(&p, black));
        // A lone soldier, even one past the river, is enough to win.
        let p = fen("3k5/9/9/9/4P4/9/9/9/9/4K4 w");
        assert!(can_win(&p, red));
        assert!(!can_win(&p, black));
    }
}
