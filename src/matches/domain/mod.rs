//! The match as the service reasons about it: typed from the database row
//! up, so every rule below reads `match m.status`, never a string.

use std::fmt;
use std::str::FromStr;

use qipan_rules::{AnyPlayer, AnyPosition, EndReason, GameKind, Status};

use super::clock::{Clock, Millis};
use super::id::{MatchId, SecretHash};
use crate::games::line::Line;

mod timestamp;

pub use timestamp::Timestamp;

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

/// The longest display name of a seat, in characters (Unicode scalar
/// values, after NFC normalisation).
pub const NAME_MAX: usize = 32;

/// The display name of a seat, chosen when it is taken: trimmed, NFC
/// normalised, 1 to [`NAME_MAX`] characters, at least one of them visible,
/// without control characters, line or paragraph separators, direction
/// controls or invisible characters (any of which could make a name
/// display as another, or as nothing).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SeatName(String);

/// Why a display name (or another line of text a client writes for others
/// to read, such as a decline's reason) is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but white space.
    #[error("is empty: leave it out, or give 1 to 32 characters")]
    Empty,
    /// Over [`NAME_MAX`] characters.
    #[error("is longer than 32 characters")]
    TooLong,
    /// A control character, a line or paragraph separator.
    #[error("holds a control character (a line break, a tab, …): a name is one line of text")]
    Control,
    /// A direction mark, embedding, override or isolate.
    #[error("holds a direction control (U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069), which could make it display as another name")]
    Bidi,
    /// A character that shows as nothing (U+200B, U+2060, U+FEFF, U+3164,
    /// U+2800, …).
    #[error("holds an invisible character (such as U+200B, U+2060, U+FEFF, U+3164, U+115F, U+2800 or U+00AD), which could hide or fake a name")]
    Invisible,
    /// Only white space, joiners and variation selectors.
    #[error("has no visible character: give at least one letter, digit or symbol")]
    Blank,
}

/// Direction controls: marks, embeddings, overrides and isolates.
fn is_direction_control(c: char) -> bool {
    matches!(
        c,
        '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// Characters that render as nothing, or as blank space while not being
/// white space: zero-width spaces and word joiners, the byte order mark,
/// the Hangul fillers, the blank Braille pattern, the soft hyphen, the
/// grapheme joiner, invisible operators, Mongolian vowel separator, Khmer
/// inherent vowels, musical formatting and tag characters.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{2060}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Characters that are allowed but show nothing by themselves: the
/// joiners (emoji sequences, Persian and Indic text need them) and the
/// variation selectors.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// What is wrong with a line of text written for others to read (a name,
/// a reason), whatever its length: control characters, direction
/// controls, invisible characters, or no visible character at all.
pub fn line_fault(text: &str) -> Option<NameError> {
    if text
        .chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Some(NameError::Control);
    }
    if text.chars().any(is_direction_control) {
        return Some(NameError::Bidi);
    }
    if text.chars().any(is_invisible) {
        return Some(NameError::Invisible);
    }
    if !text.chars().any(|c| !c.is_whitespace() && !is_joiner(c)) {
        return Some(NameError::Blank);
    }
    None
}

impl SeatName {
    /// A name as a client sent it.
    ///
    /// # Errors
    ///
    /// [`NameError`] naming the rule it breaks.
    pub fn parse(text: &str) -> Result<SeatName, NameError> {
        use unicode_normalization::UnicodeNormalization;
        let text: String = text.trim().nfc().collect();
        if text.is_empty() {
            return Err(NameError::Empty);
        }
        if text.chars().count() > NAME_MAX {
            return Err(NameError::TooLong);
        }
        if let Some(fault) = line_fault(&text) {
            return Err(fault);
        }
        Ok(SeatName(text))
    }

    /// A name as stored (written by [`SeatName::parse`]).
    pub fn stored(text: String) -> SeatName {
        SeatName(text)
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SeatName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A seat, and who holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatSlot {
    /// The seat.
    pub seat: Seat,
    /// The display name its holder chose, if any.
    pub name: Option<SeatName>,
    /// The hash of its token, once taken.
    pub token: Option<SecretHash>,
    /// The hash of its invite, while open.
    pub invite: Option<SecretHash>,
    /// When it was taken.
    pub joined_at: Option<Timestamp>,
    /// Whether a stream authenticated as this seat is open (on any
    /// instance), or closed less than the grace period ago. The computer's
    /// seat is always online.
    pub online: bool,
    /// How the computer plays, when the computer holds this seat.
    pub computer: Option<super::computer::Computer>,
}

impl SeatSlot {
    /// The seat of a solo match, taken at `now` by the holder of `token`.
    pub fn solo(token: SecretHash, now: Timestamp) -> SeatSlot {
        SeatSlot {
            seat: Seat::Solo,
            name: None,
            token: Some(token),
            invite: None,
            joined_at: Some(now),
            online: false,
            computer: None,
        }
    }
}

/// How a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchEnd {
    /// By the rules of the game.
    Rules(EndReason),
    /// A seat resigned.
    Resigned,
    /// The flag of the side to move fell: the other side wins, or draws
    /// when it cannot win ([`super::clock::can_win`]).
    Timeout,
    /// Both seats agreed to a draw.
    Agreement,
    /// The side to move left and did not move: the other seat claimed the
    /// win or a draw.
    Abandoned,
}

impl MatchEnd {
    /// Its kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchEnd::Rules(r) => r.as_str(),
            MatchEnd::Resigned => "resigned",
            MatchEnd::Timeout => "timeout",
            MatchEnd::Agreement => "agreement",
            MatchEnd::Abandoned => "abandoned",
        }
    }

    /// The ending named `s`.
    pub fn parse(s: &str) -> Option<MatchEnd> {
        match s {
            "resigned" => Some(MatchEnd::Resigned),
            "timeout" => Some(MatchEnd::Timeout),
            "agreement" => Some(MatchEnd::Agreement),
            "abandoned" => Some(MatchEnd::Abandoned),
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

    /// Whether the match was ended by a seat or a clock rather than by the
    /// rules of the position (resigned, timed out, agreed, abandoned): a
    /// solo undo cannot take such an end back.
    pub fn ended_off_the_board(self) -> bool {
        match self.reason() {
            Some(MatchEnd::Rules(_)) | None => false,
            Some(
                MatchEnd::Resigned | MatchEnd::Timeout | MatchEnd::Agreement | MatchEnd::Abandoned,
            ) => true,
        }
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
    /// The seat offering a draw, if one is pending.
    pub draw: Option<Seat>,
    /// The duel's clock, when it has a time control.
    pub clock: Option<Clock>,
    /// When the position last changed (a move or a takeback): the side to
    /// move has been thinking since then.
    pub moved_at: Timestamp,
    /// The match it was forked from.
    pub parent: Option<Parent>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// Xiangqi: the line since the last capture that the repetition rules
    /// and the move limit judge (see [`Match::line`]); `None` for the
    /// other games.
    pub line: Option<Line>,
}

impl Match {
    /// The side to move.
    pub fn to_move(&self) -> AnyPlayer {
        self.position.to_move()
    }

    /// Moves the match to `position` at `ply` (a play or a takeback): its
    /// status comes from the rules, and any takeback or draw offer is
    /// withdrawn.
    pub fn set_position(&mut self, position: AnyPosition, code: String, ply: i64) {
        self.status = MatchStatus::of(position.status());
        self.position = position;
        self.code = code;
        self.ply = ply;
        self.undo = None;
        self.draw = None;
    }

    /// Where the side to move stands in the game's order of players.
    pub fn to_move_slot(&self) -> usize {
        super::clock::slot(self.game, self.to_move())
    }

    /// When the flag of the side to move falls, while its clock runs.
    pub fn deadline(&self) -> Option<Timestamp> {
        match self.status {
            MatchStatus::Ongoing => self.clock.and_then(|c| c.deadline(self.to_move_slot())),
            MatchStatus::Won { .. } | MatchStatus::Drawn { .. } | MatchStatus::Over { .. } => None,
        }
    }

    /// Ends the match, clocks stopped at `now`; offers are cleared.
    pub fn end(&mut self, status: MatchStatus, now: Timestamp) {
        let slot = self.to_move_slot();
        if let Some(clock) = &mut self.clock {
            clock.stop(slot, now);
        }
        self.status = status;
        self.undo = None;
        self.draw = None;
        self.updated_at = now;
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
    /// In a timed duel, each side's time left as the move's turn began (the
    /// clocks at ply `ply - 1`), which a takeback to that ply restores.
    pub clock_before: Option<[Millis; 2]>,
    /// Xiangqi: the halfmove clock of the position the move was played
    /// from (plies since the last capture), which a takeback that rebuilds
    /// the line from kept moves starts from.
    pub halfmove: Option<u32>,
}

#[cfg(test)]
mod tests;
