//! The match as the service reasons about it: typed from the database row
//! up, so every rule below reads `match m.status`, never a string.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use qipan_rules::{AnyPlayer, AnyPosition, EndReason, GameKind, Status};

use super::id::{MatchId, SecretHash};

/// The most moves a match keeps.
pub const HISTORY_CAP: i64 = 100;

/// A match's version: bumped by every write, sent as its `ETag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(i64);

impl Version {
    /// A new match's version.
    pub const FIRST: Version = Version(1);

    /// The version numbered `n`.
    pub fn new(n: i64) -> Version {
        Version(n)
    }

    /// Its number.
    pub fn get(self) -> i64 {
        self.0
    }

    /// The version a write makes of this one.
    pub fn next(self) -> Version {
        Version(self.0 + 1)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Version {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Version, Self::Err> {
        s.parse().map(Version)
    }
}

/// A moment, in milliseconds since the Unix epoch (what the database keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Timestamp(i64);

impl Timestamp {
    /// Now, by the system clock.
    pub fn now() -> Timestamp {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Timestamp(ms)
    }

    /// The moment `ms` milliseconds after the epoch; `None` before it (no
    /// match was played then).
    pub fn from_millis(ms: i64) -> Option<Timestamp> {
        (ms >= 0).then_some(Timestamp(ms))
    }

    /// Milliseconds since the epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// The moment `d` later.
    pub fn plus(self, d: Duration) -> Timestamp {
        Timestamp(self.0.saturating_add(millis_of(d)))
    }

    /// The moment `d` earlier (the epoch at the earliest).
    pub fn minus(self, d: Duration) -> Timestamp {
        Timestamp(self.0.saturating_sub(millis_of(d)).max(0))
    }

    /// RFC 3339 with milliseconds, in UTC.
    pub fn rfc3339(self) -> String {
        let ms = u64::try_from(self.0)
            .expect("a timestamp is never before the epoch: checked when made");
        let t = UNIX_EPOCH + Duration::from_millis(ms);
        humantime::format_rfc3339_millis(t).to_string()
    }
}

fn millis_of(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Whether a match is played between seats or alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One seat per side; each plays only its own moves.
    Duel,
    /// One token plays every side: a practice sandbox.
    Solo,
}

impl Mode {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Duel => "duel",
            Mode::Solo => "solo",
        }
    }

    /// The mode named `s`.
    pub fn parse(s: &str) -> Option<Mode> {
        [Mode::Duel, Mode::Solo]
            .into_iter()
            .find(|m| m.as_str() == s)
    }
}

/// A seat of a match: one side of a duel, or the one seat of a solo match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// Plays this side's moves.
    Side(AnyPlayer),
    /// Plays every move.
    Solo,
}

impl Seat {
    /// Its name: the side's, or `solo`.
    pub fn as_str(self) -> &'static str {
        match self {
            Seat::Side(p) => p.as_str(),
            Seat::Solo => "solo",
        }
    }

    /// The seat of a `game` named `s`.
    pub fn parse(game: GameKind, s: &str) -> Option<Seat> {
        if s == "solo" {
            Some(Seat::Solo)
        } else {
            AnyPlayer::parse(game, s).map(Seat::Side)
        }
    }

    /// The seats of a match of `mode`, first to move first.
    pub fn all(game: GameKind, mode: Mode) -> Vec<Seat> {
        match mode {
            Mode::Duel => game.players().iter().copied().map(Seat::Side).collect(),
            Mode::Solo => vec![Seat::Solo],
        }
    }
}

/// A seat, and who holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatSlot {
    /// The seat.
    pub seat: Seat,
    /// The hash of its token, once taken.
    pub token: Option<SecretHash>,
    /// The hash of its invite, while open.
    pub invite: Option<SecretHash>,
    /// When it was taken.
    pub joined_at: Option<Timestamp>,
    /// Whether a stream authenticated as this seat is open (on any
    /// instance), or closed less than the grace period ago.
    pub online: bool,
}

/// How a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchEnd {
    /// By the rules of the game.
    Rules(EndReason),
    /// A seat resigned.
    Resigned,
}

impl MatchEnd {
    /// Its kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchEnd::Rules(r) => r.as_str(),
            MatchEnd::Resigned => "resigned",
        }
    }

    /// The ending named `s`.
    pub fn parse(s: &str) -> Option<MatchEnd> {
        match s {
            "resigned" => Some(MatchEnd::Resigned),
            _ => s.parse().ok().map(MatchEnd::Rules),
        }
    }
}

/// How a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchStatus {
    /// Play goes on.
    Ongoing,
    /// `winner` has won.
    Won {
        /// The winning side.
        winner: AnyPlayer,
        /// How.
        reason: MatchEnd,
    },
    /// Nobody won.
    Drawn {
        /// Why.
        reason: MatchEnd,
    },
    /// A one-player match has ended.
    Over {
        /// Why.
        reason: MatchEnd,
    },
}

impl MatchStatus {
    /// The status of a position by the rules.
    pub fn of(status: Status<AnyPlayer>) -> MatchStatus {
        match status {
            Status::Ongoing => MatchStatus::Ongoing,
            Status::Won { winner, reason } => MatchStatus::Won {
                winner,
                reason: MatchEnd::Rules(reason),
            },
            Status::Drawn { reason } => MatchStatus::Drawn {
                reason: MatchEnd::Rules(reason),
            },
            Status::Over { reason } => MatchStatus::Over {
                reason: MatchEnd::Rules(reason),
            },
        }
    }

    /// Whether play goes on.
    pub fn is_ongoing(self) -> bool {
        self == MatchStatus::Ongoing
    }

    /// Whether a seat resigned.
    pub fn is_resigned(self) -> bool {
        self.reason() == Some(MatchEnd::Resigned)
    }

    /// How it ended, once it has.
    pub fn reason(self) -> Option<MatchEnd> {
        match self {
            MatchStatus::Ongoing => None,
            MatchStatus::Won { reason, .. }
            | MatchStatus::Drawn { reason }
            | MatchStatus::Over { reason } => Some(reason),
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<AnyPlayer> {
        match self {
            MatchStatus::Won { winner, .. } => Some(winner),
            MatchStatus::Ongoing | MatchStatus::Drawn { .. } | MatchStatus::Over { .. } => None,
        }
    }

    /// The status after `loser` resigns: the other side wins, or a solo
    /// game is over.
    pub fn resigned_by(loser: AnyPlayer) -> MatchStatus {
        match loser.opponent() {
            Some(winner) => MatchStatus::Won {
                winner,
                reason: MatchEnd::Resigned,
            },
            None => MatchStatus::Over {
                reason: MatchEnd::Resigned,
            },
        }
    }
}

/// A takeback offered in a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoOffer {
    /// The seat that offered it.
    pub seat: Seat,
    /// The ply the match returns to if it is accepted.
    pub back_to: i64,
}

/// Where a forked match came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parent {
    /// The match forked.
    pub id: MatchId,
    /// Its ply at the fork.
    pub ply: i64,
}

/// A persisted match (its seats are kept beside it, in [`SeatSlot`]s).
#[derive(Debug, Clone)]
pub struct Match {
    /// Its id.
    pub id: MatchId,
    /// The game.
    pub game: GameKind,
    /// Duel or solo.
    pub mode: Mode,
    /// The current position.
    pub position: AnyPosition,
    /// Its canonical code.
    pub code: String,
    /// Moves made since the match began.
    pub ply: i64,
    /// Bumped by every write.
    pub version: Version,
    /// How it stands.
    pub status: MatchStatus,
    /// A pending takeback offer.
    pub undo: Option<UndoOffer>,
    /// The match it was forked from.
    pub parent: Option<Parent>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

impl Match {
    /// The side to move.
    pub fn to_move(&self) -> AnyPlayer {
        self.position.to_move()
    }

    /// Moves the match to `position` at `ply` (a play or a takeback): its
    /// status comes from the rules, and any takeback offer is withdrawn.
    pub fn set_position(&mut self, position: AnyPosition, code: String, ply: i64) {
        self.status = MatchStatus::of(position.status());
        self.position = position;
        self.code = code;
        self.ply = ply;
        self.undo = None;
    }
}

/// One kept move of a match's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptMove {
    /// Its ply, from 1.
    pub ply: i64,
    /// The seat whose token played it.
    pub seat: Seat,
    /// The side that moved.
    pub side: AnyPlayer,
    /// The action, in the game's canonical notation.
    pub action: String,
    /// The code before it.
    pub code_before: String,
    /// The code after it.
    pub code_after: String,
    /// When.
    pub played_at: Timestamp,
}
