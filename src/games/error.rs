//! What can go wrong with a game request, as data: the domain errors of
//! the stateless API (and of matches, which play through it). They become
//! problems in `crate::problem`, the one place that knows HTTP.

use qipan_rules::{AnyPlayer, GameKind, Reason};
use serde_json::value::RawValue;

use crate::wire::problem::Location;
use crate::wire::StatusView;

/// A start parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartParam {
    /// `seed`.
    Seed,
    /// `size`.
    Size,
}

impl StartParam {
    /// Its name, as a query parameter and a body member.
    pub fn as_str(self) -> &'static str {
        match self {
            StartParam::Seed => "seed",
            StartParam::Size => "size",
        }
    }
}

/// A code or readable form the rules refuse: where it came from, which
/// rule, and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The member or path segment that held it.
    pub field: &'static str,
    /// The rule broken (the rules crate's [`Reason`]).
    pub reason: &'static str,
    /// The rules crate's sentence.
    pub detail: String,
    /// Where (boxed: it is large, and errors travel by value).
    pub at: Box<Location>,
}

impl Fault {
    /// A fault of `error`, found in `field`, at `at`.
    pub fn new<E: Reason + std::fmt::Display>(
        field: &'static str,
        error: &E,
        at: Location,
    ) -> Fault {
        Fault {
            field,
            reason: error.reason(),
            detail: error.to_string(),
            at: Box::new(at),
        }
    }

    /// A fault of a readable form: the detail starts with the format's
    /// name (`FEN: …`).
    pub fn import<E: Reason + std::fmt::Display>(
        format: &str,
        field: &'static str,
        error: &E,
        at: Location,
    ) -> Fault {
        let fault = Fault::new(field, error, at);
        Fault {
            detail: format!("{format}: {}", fault.detail),
            ..fault
        }
    }
}

/// An import body that is not the game's import object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyFault {
    /// Not a JSON object.
    NotAnObject,
    /// The body is not the format's object, in a way no member names.
    Other(String),
    /// A member is missing, unknown or of the wrong type.
    Field {
        /// The member.
        field: String,
        /// The item of a list member at fault.
        index: Option<usize>,
        /// What is wrong with it.
        detail: String,
    },
}

/// Why a game request cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The game named is not one of qipan's.
    #[error("there is no game {name:?}")]
    UnknownGame {
        /// The name given.
        name: String,
    },
    /// A state code the rules refuse.
    #[error("{}", .0.detail)]
    InvalidCode(Fault),
    /// A variant the game does not have.
    #[error("{game} has no variant {given:?}")]
    UnknownVariant {
        /// The game.
        game: GameKind,
        /// The variant named.
        given: String,
        /// The game's variants.
        supported: &'static [&'static str],
    },
    /// A start parameter the game refuses.
    #[error("{detail}")]
    StartParam {
        /// Which.
        param: StartParam,
        /// Why.
        detail: String,
    },
    /// A play request without actions.
    #[error("`actions` must hold at least one action")]
    EmptyBatch,
    /// A play request with too many actions.
    #[error(
        "`actions` holds {len} actions, at most {} are accepted",
        super::MAX_ACTIONS
    )]
    BatchTooLong {
        /// How many it holds.
        len: usize,
    },
    /// An action of a batch reached a position where the game is over.
    #[error("action {index} ({action:?}) cannot be played: the game is over ({})", outcome.phrase())]
    GameOver {
        /// Its place in the batch.
        index: usize,
        /// The action.
        action: String,
        /// How the game ended.
        outcome: StatusView,
    },
    /// An action of a batch that is the other side's (a duel seat plays only
    /// its own moves).
    #[error("action {index} would be {to_move}'s move; the seat {seat} plays only its own moves")]
    NotYourTurn {
        /// Its place in the batch.
        index: usize,
        /// The side to move there.
        to_move: AnyPlayer,
        /// The seat playing.
        seat: AnyPlayer,
    },
    /// An action not written in the game's notation.
    #[error("action {index}: {detail}")]
    MalformedAction {
        /// Its place in the batch.
        index: usize,
        /// The action as sent.
        action: String,
        /// The rules crate's reason.
        reason: &'static str,
        /// The rules crate's sentence.
        detail: String,
        /// The legal actions there, as views list them.
        legal: Box<RawValue>,
    },
    /// An action the rules refuse where it stands.
    #[error("action {index} is illegal: {detail}")]
    IllegalAction {
        /// Its place in the batch.
        index: usize,
        /// The action as sent.
        action: String,
        /// The rules crate's reason.
        reason: &'static str,
        /// The rules crate's sentence.
        detail: String,
        /// The legal actions there, as views list them.
        legal: Box<RawValue>,
    },
    /// An import body that is not the game's import object.
    #[error("the import body is not valid: {0:?}")]
    ImportBody(BodyFault),
    /// A readable form the rules refuse.
    #[error("{}", .0.detail)]
    InvalidImport(Fault),
    /// A format the game does not read (import) or write (export).
    #[error("{game} does not read or write {given:?}")]
    UnsupportedFormat {
        /// The game.
        game: GameKind,
        /// The format named.
        given: String,
        /// The formats it has.
        supported: &'static [&'static str],
        /// Whether the format was named for an import (else an export).
        import: bool,
    },
    /// The line sent with a xiangqi play does not lead to the position
    /// played from.
    #[error("{0}")]
    HistoryMismatch(#[from] super::line::LineMismatch),
    /// A line sent with the play of a game that has no repetition rules.
    #[error("`history` is taken by xiangqi plays only; {game} has no repetition rules")]
    HistoryNotTaken {
        /// The game played.
        game: GameKind,
    },
    /// A view failed to serialize (a bug).
    #[error("a view failed to serialize: {0}")]
    Render(#[source] serde_json::Error),
}
