//! Pure game rules for qipan.
//!
//! Each game lives in its own module with its coordinate types, its state,
//! its actions and their notations, and the state's canonical code. Nothing
//! here does I/O, knows about HTTP or a database, or reads a clock: the same
//! state and the same action always give the same result, which is what makes
//! every position a cacheable, shareable URL. Games with chance in them carry
//! the seed of their generator inside the state.
//!
//! # The shared surface
//!
//! - [`Game`] is what every game's `Position` implements: read and write its
//!   code, whose turn it is, the legal actions, play one (with a trace of
//!   what chance or a lock did), how the game stands, perft. Every outcome
//!   is data: an illegal action is a per-game enum (`xiangqi::IllegalMove`,
//!   `tetris::IllegalAction`, …), not a sentence.
//! - [`Reason`] gives every public error a stable kebab-case name
//!   (`wrong-length`, `point-taken`, `no-path`) for machines, beside the
//!   `Display` sentence for people. Errors that wrap another delegate to it.
//! - [`Player`] is every game's side or seat type (`xiangqi::Side`,
//!   `gomoku::Stone`, `quoridor::Player`, and [`Solo`] for 2048 and Tetris),
//!   with names that round-trip through `Display` and `FromStr`.
//! - [`AnyPosition`] is the enum over the five positions (as shakmaty's
//!   `VariantPosition`), with [`AnyAction`], [`AnyPlayer`] and the `Any*`
//!   errors beside it, for code that is handed a [`GameKind`] at run time.
//!   The [`with_position!`] and [`with_game!`] macros run game-specific
//!   code over it without listing the games again.
//! - [`code`] is the base64 layer every state code shares (one engine, one
//!   [`code::SyntaxError`]), and [`rng`] the seeded generator that 2048's
//!   spawns and Tetris's bags draw from.
//!
//! ```
//! use qipan_rules::{AnyPosition, GameKind, Reason, Status};
//!
//! let code = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";
//! let start = AnyPosition::from_code(GameKind::Xiangqi, code).unwrap();
//! let next = start.play(start.parse_action("h2e2").unwrap()).unwrap();
//! assert_eq!(next.to_move().as_str(), "black");
//! assert_eq!(next.status(), Status::Ongoing);
//! let refused = next.play(next.parse_action("h2e2").unwrap()).unwrap_err();
//! assert_eq!(refused.reason(), "no-piece");
//! assert_eq!(refused.to_string(), "h2e2: no piece on h2");
//! ```
//!
//! # Adding a game
//!
//! A new game touches two places: its own module (types, position, code
//! layout on top of [`code`], its `impl Game`, its errors with [`Reason`]),
//! and `any.rs`, the one file besides the module list that names every game
//! ([`GameKind`], the `Any*` enums and the two macros). Every `match` over
//! games is exhaustive, so the compiler lists what the new variant needs.

#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

pub mod any;
pub mod code;
pub mod gomoku;
mod player;
pub mod quoridor;
pub mod rng;
pub mod tetris;
pub mod twenty48;
pub mod xiangqi;

pub use any::{
    AnyAction, AnyCodeError, AnyIllegal, AnyParseActionError, AnyPlayer, AnyPosition, AnyTrace,
    GameKind, UnknownGame,
};
pub use player::{ParseSoloError, Player, Solo};

/// A stable, machine-readable name for why something was refused.
///
/// Every public error of the crate implements it: the name is kebab-case,
/// never changes with the wording of the `Display` message, and is what an
/// API puts in a problem's `reason` member. Several variants may share a
/// name when a client would act on them alike (every way a code can be too
/// short is `wrong-length`).
pub trait Reason {
    /// The name, e.g. `wrong-length`, `point-taken`, `no-path`.
    fn reason(&self) -> &'static str;
}

/// The rules every game shares: its code, whose turn it is, which actions
/// are legal, what an action does and how the game stands.
///
/// A state is a plain value: [`Game::play`] returns a new state and leaves
/// the old one untouched, so history and forks are just copies.
pub trait Game: Clone + Sized {
    /// Which game this is.
    const KIND: GameKind;
    /// One action in the game's own notation (`Display` writes it, `FromStr`
    /// reads it back).
    type Action: Copy + Eq + fmt::Display + FromStr<Err = Self::ParseActionError>;
    /// Why a text is not an action (syntax only: legality is a question for
    /// a position).
    type ParseActionError: std::error::Error + Reason;
    /// The sides or seats of the game.
    type Player: Player;
    /// Why a text is not a state code of the game.
    type CodeError: std::error::Error + Reason + Clone + PartialEq;
    /// Why an action cannot be played in a position.
    type IllegalAction: std::error::Error + Reason + Clone + PartialEq;
    /// What a play reports beyond the new position (2048: the spawned tile
    /// and the score gained; Tetris: the lock, if the action locked; `()`
    /// for the others).
    type Trace: Clone + fmt::Debug;

    /// Reads a state code.
    ///
    /// # Errors
    ///
    /// [`Game::CodeError`] naming the character, byte or rule at fault.
    fn from_code(code: &str) -> Result<Self, Self::CodeError>;

    /// The canonical state code: one position, one code.
    fn to_code(&self) -> String;

    /// The player whose action is awaited.
    fn to_move(&self) -> Self::Player;

    /// Every legal action, in a stable order.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The state after `action`.
    ///
    /// # Errors
    ///
    /// [`Game::IllegalAction`] when the action is not legal here, saying why.
    fn play(&self, action: Self::Action) -> Result<Self, Self::IllegalAction>;

    /// The state after `action`, and what happened beyond it.
    ///
    /// # Errors
    ///
    /// As [`Game::play`].
    fn play_traced(&self, action: Self::Action)
        -> Result<(Self, Self::Trace), Self::IllegalAction>;

    /// Whether the game goes on, and if not, how it ended.
    fn status(&self) -> Status<Self::Player>;

    /// Number of leaf nodes of the legal-action tree `depth` plies deep
    /// (a move-generator check that can be compared with other engines).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let actions = self.legal_actions();
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .into_iter()
            .filter_map(|a| self.play(a).ok())
            .map(|next| next.perft(depth - 1))
            .sum()
    }
}

/// How a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status<P> {
    /// The game goes on.
    Ongoing,
    /// `winner` has won.
    Won {
        /// The winning player.
        winner: P,
        /// How the game was won.
        reason: EndReason,
    },
    /// Nobody won.
    Drawn {
        /// Why the game is drawn.
        reason: EndReason,
    },
    /// A one-player game has ended (no winner or loser to name).
    Over {
        /// Why no action is left.
        reason: EndReason,
    },
}

impl<P> Status<P> {
    /// The same status with the winner mapped by `f` (for dispatch over
    /// games whose player types differ).
    pub fn map<Q>(self, f: impl FnOnce(P) -> Q) -> Status<Q> {
        match self {
            Status::Ongoing => Status::Ongoing,
            Status::Won { winner, reason } => Status::Won {
                winner: f(winner),
                reason,
            },
            Status::Drawn { reason } => Status::Drawn { reason },
            Status::Over { reason } => Status::Over { reason },
        }
    }

    /// Whether the game goes on.
    pub fn is_ongoing(&self) -> bool {
        matches!(self, Status::Ongoing)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in xiangqi).
    Stalemate,
    /// A line of five (or more, where the rules allow) was made.
    FiveInARow,
    /// The board is full and nobody won.
    BoardFull,
    /// No action changes the position any more.
    NoMoves,
    /// A new piece could not appear: its spawn cells overlap the stack (tetris).
    BlockOut,
    /// A piece locked wholly above the visible field (tetris).
    LockOut,
    /// A pawn reached its goal rank (quoridor).
    ReachedGoal,
    /// A position came round for the third time while one side gave check
    /// with every move of the cycle and the other did not (xiangqi: the
    /// checking side loses).
    PerpetualCheck,
    /// A position came round for the third time while one side chased the
    /// same piece with every move of the cycle and neither side checked
    /// perpetually (xiangqi: the chasing side loses).
    PerpetualChase,
    /// A position came round for the third time and neither side alone was
    /// forcing it (a draw; both sides checking or both chasing is one too).
    Repetition,
    /// Too many moves were played without a capture (a draw).
    MoveLimit,
}

impl EndReason {
    /// Every reason, in a stable order.
    pub const ALL: [EndReason; 12] = [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::FiveInARow,
        EndReason::BoardFull,
        EndReason::NoMoves,
        EndReason::BlockOut,
        EndReason::LockOut,
        EndReason::ReachedGoal,
        EndReason::PerpetualCheck,
        EndReason::PerpetualChase,
        EndReason::Repetition,
        EndReason::MoveLimit,
    ];

    /// The reason's stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::FiveInARow => "five-in-a-row",
            EndReason::BoardFull => "board-full",
            EndReason::NoMoves => "no-moves",
            EndReason::BlockOut => "block-out",
            EndReason::LockOut => "lock-out",
            EndReason::ReachedGoal => "reached-goal",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move-limit",
        }
    }
}

/// A text that names no end reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown end reason {name:?}")]
pub struct ParseEndReasonError {
    /// The text given.
    pub name: String,
}

impl Reason for ParseEndReasonError {
    fn reason(&self) -> &'static str {
        "unknown-end-reason"
    }
}

impl FromStr for EndReason {
    type Err = ParseEndReasonError;

    /// Reads the name [`EndReason::as_str`] writes.
    fn from_str(s: &str) -> Result<EndReason, ParseEndReasonError> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| ParseEndReasonError { name: s.to_owned() })
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
