//! What can go wrong with a match request, as data. `crate::problem` turns
//! each into its problem.

use std::fmt;

use qipan_rules::GameKind;

use super::clock::ClockError;
use super::domain::{
    MatchStatus, Mode, NameError, Seat, Timestamp, UndoOffer, Version, HISTORY_CAP,
};
use super::id::{MatchId, NoRandomness};
use crate::games::GameError;
use crate::storage::StorageError;
use crate::wire::StatusView;

/// A request the match API refuses, or could not carry out.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The service runs without a database.
    #[error("this service runs without a database (--database-url none): only the stateless API is served")]
    Disabled,
    /// No match has this id.
    #[error("no match has the id {0}")]
    UnknownMatch(MatchId),
    /// No seat token was sent.
    #[error("this request needs a seat token: Authorization: Bearer <token>")]
    NoToken,
    /// The token is not one of this match's seats'.
    #[error("the bearer token is not a seat token of this match")]
    NotASeat,
    /// `If-Match` names a version the match is no longer at (`current` is
    /// `None` when the version moved on during the request).
    #[error("{}; {}", asked_for(asked), match current { Some(v) => format!("the match is at version {v}"), None => "the match has moved on".to_owned() })]
    Stale {
        /// The versions asked for.
        asked: Vec<Version>,
        /// The version now, when known.
        current: Option<Version>,
    },
    /// Another write landed first; nothing of this one was written.
    #[error("another write to this match landed first; nothing of this request was written")]
    Conflict,
    /// The match has ended.
    #[error("{refused}: the match is over ({})", StatusView::from(*status).phrase())]
    Finished {
        /// What cannot be done.
        refused: Refused,
        /// How it ended.
        status: MatchStatus,
    },
    /// The game refused the request (a code, a start, an action).
    #[error(transparent)]
    Game(GameError),
    /// The game refused the `import` of a creation, as `POST
    /// /v1/{game}/import` refuses it.
    #[error("`import`: {0}")]
    Import(GameError),
    /// The game named at creation is not one of qipan's.
    #[error("there is no game {0:?}")]
    UnknownGame(String),
    /// `from` or `import` was combined with start parameters or with the
    /// other.
    #[error("`{field}` is a whole position: it cannot be combined with variant, seed or size, nor `from` with `import`")]
    FromWithStart {
        /// The member that gave the position (`from` or `import`).
        field: &'static str,
    },
    /// The `computer` of a creation is refused.
    #[error(transparent)]
    Computer(super::computer::ComputerError),
    /// A duel was asked for a one-player game.
    #[error("{0} has one player: its matches are solo")]
    SoloOnly(GameKind),
    /// The creator asked for a seat the match does not have.
    #[error("there is no seat {given:?} in a {} {game} match; the seats are {}", mode.as_str(), names(seats))]
    UnknownSeat {
        /// The seat named.
        given: String,
        /// The game.
        game: GameKind,
        /// Duel or solo.
        mode: Mode,
        /// The seats there are.
        seats: Vec<Seat>,
    },
    /// A join without an invite.
    #[error("send the invite, as {{\"invite\": \"…\"}} or ?invite=")]
    NoInvite,
    /// An invite that is not one of this match's.
    #[error("this invite is not one of this match's")]
    InvalidInvite,
    /// The invited seat has been taken.
    #[error("the seat {} has been taken", .0.as_str())]
    SeatTaken(Seat),
    /// No kept move to take back.
    #[error("{why}")]
    NothingToUndo {
        /// The match's ply.
        ply: i64,
        /// Which move is missing.
        why: Missing,
    },
    /// The other seat's takeback offer stands.
    #[error("{} has offered a takeback; accept or decline it first", .0.seat.as_str())]
    UndoPending(UndoOffer),
    /// No takeback is on offer.
    #[error("no takeback is on offer in this match")]
    NoUndoOffer,
    /// A seat tried to accept its own offer.
    #[error("{} made this offer: the other seat accepts it (or withdraw it with /undo/decline)", .0.as_str())]
    OwnUndoOffer(Seat),
    /// A takeback answer in a solo match.
    #[error("a solo match has no takeback offers: /undo takes the last move back at once")]
    NotADuel,
    /// A fork at a ply that is not kept.
    #[error("ply {ply} is not kept: this match can be forked from ply {oldest} to {latest}")]
    PlyNotKept {
        /// The ply asked for.
        ply: i64,
        /// The oldest that can be.
        oldest: i64,
        /// The match's ply.
        latest: i64,
    },
    /// Inviting or withdrawing invites when no seat is open.
    #[error("every seat of this match is taken: there is no invitation to {0}")]
    NoOpenSeat(&'static str),
    /// A text field (a reason, a name) that breaks its rules.
    #[error("{field} {why}")]
    InvalidText {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A seat's display name that breaks its rules.
    #[error("name {0}")]
    InvalidName(NameError),
    /// A time control that breaks its rules.
    #[error(transparent)]
    InvalidClock(ClockError),
    /// No draw is on offer.
    #[error("no draw is on offer in this match")]
    NoDrawOffer,
    /// A seat tried to accept its own draw offer.
    #[error("{} offered this draw: the other seat accepts it (or withdraw it with /draw/decline)", .0.as_str())]
    OwnDrawOffer(Seat),
    /// A claim against a seat that left, when the conditions do not hold.
    #[error("{0}")]
    CannotClaim(ClaimRefusal),
    /// No seek has this id.
    #[error("no seek has the id {0:?}")]
    UnknownSeek(String),
    /// The seek is no longer open.
    #[error("this seek is no longer open: it was {}", .0.as_str())]
    SeekClosed(crate::matches::lobby::SeekState),
    /// The seeker tried to take their own seek.
    #[error("this is your own seek: another player takes it")]
    OwnSeek,
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A view failed to serialize (a bug).
    #[error("a match view failed to serialize: {0}")]
    Render(#[source] serde_json::Error),
    /// No randomness for a secret.
    #[error(transparent)]
    NoRandomness(#[from] NoRandomness),
    /// The operation panicked (a bug).
    #[error("a match operation failed: {0}")]
    Crashed(String),
}

impl From<crate::storage::Crashed> for MatchError {
    fn from(e: crate::storage::Crashed) -> MatchError {
        MatchError::Crashed(e.0)
    }
}

impl From<GameError> for MatchError {
    fn from(e: GameError) -> MatchError {
        MatchError::Game(e)
    }
}

/// What a finished match refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Playing.
    Play,
    /// Offering a takeback in a duel.
    OfferUndo,
    /// Undoing a resigned solo match.
    UndoResigned,
    /// Resigning again.
    Resign,
    /// Inviting, or answering an invitation.
    Invite,
    /// Answering a takeback offer.
    AnswerUndo,
    /// Offering or answering a draw.
    Draw,
    /// Claiming a win or a draw.
    Claim,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refused::Play => "no action can be played",
            Refused::OfferUndo => "no takeback can be offered",
            Refused::UndoResigned => "a resigned match cannot be undone",
            Refused::Resign => "the match cannot be resigned",
            Refused::Invite => "no one can be invited",
            Refused::AnswerUndo => "no takeback can be answered",
            Refused::Draw => "no draw can be offered or answered",
            Refused::Claim => "nothing can be claimed",
        })
    }
}

/// Why a claim against a seat that left is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRefusal {
    /// The claimant is the side to move: it plays, it does not claim.
    OwnTurn,
    /// The side to move has a stream open (it is online).
    OpponentOnline(Seat),
    /// The side to move has not been away long enough.
    TooSoon {
        /// The seat to move.
        seat: Seat,
        /// When a claim may be made, if it stays away.
        claimable_at: Timestamp,
    },
    /// Nobody has taken the other seat.
    OpponentNotSeated(Seat),
    /// A correspondence duel: its move deadline ends the match.
    Correspondence,
}

impl ClaimRefusal {
    /// The rule that does not hold, in kebab case (the problem's `reason`).
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimRefusal::OwnTurn => "own-turn",
            ClaimRefusal::OpponentOnline(_) => "opponent-online",
            ClaimRefusal::TooSoon { .. } => "too-soon",
            ClaimRefusal::OpponentNotSeated(_) => "opponent-not-seated",
            ClaimRefusal::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for ClaimRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimRefusal::OwnTurn => f.write_str(
                "it is your turn: a claim is made against the side to move, when it has left",
            ),
            ClaimRefusal::OpponentOnline(seat) => write!(
                f,
                "{} is online (a stream of theirs is open): a claim needs them gone",
                seat.as_str()
            ),
            ClaimRefusal::TooSoon { seat, claimable_at } => write!(
                f,
                "{} has not been away long enough: a claim can be made from {} if they stay away",
                seat.as_str(),
                claimable_at.rfc3339()
            ),
            ClaimRefusal::OpponentNotSeated(seat) => write!(
                f,
                "nobody has taken the seat {}: there is no opponent to claim against",
                seat.as_str()
            ),
            ClaimRefusal::Correspondence => {
                f.write_str("a correspondence duel ends by its move deadline, not by a claim")
            }
        }
    }
}

/// The kept move a takeback needs and does not find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// A solo match's last move.
    LastMove,
    /// The last move of a duel seat.
    SeatsMove(Seat),
    /// The move an accepted offer takes back (it fell out of the history).
    OfferedMove,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::LastMove => f.write_str("no kept move to take back"),
            Missing::SeatsMove(seat) => {
                write!(f, "{} has no kept move to take back", seat.as_str())
            }
            Missing::OfferedMove => f.write_str("the move offered back is no longer kept"),
        }
    }
}

impl MatchError {
    /// How many moves a match keeps (for `nothing-to-undo`).
    pub const KEPT: i64 = HISTORY_CAP;
}

fn names(seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn asked_for(versions: &[Version]) -> String {
    if versions.is_empty() {
        // Only weak tags, or tags that are no version: nothing can match.
        return "If-Match names no version (a version is a strong entity tag such as \"7\"; weak tags never match)".to_owned();
    }
    let list = versions
        .iter()
        .map(Version::to_string)
        .collect::<Vec<_>>()
        .join(" or ");
    format!("If-Match asks for version {list}")
}
