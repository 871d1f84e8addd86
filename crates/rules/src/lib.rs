//! Pure game rules for qipan.
//!
//! Each game lives in its own module with its coordinate types, its state, its
//! actions and their notations, and the state's canonical code. Nothing here
//! does I/O, knows about HTTP or a database, or reads a clock: the same state
//! and the same action always give the same result, which is what makes every
//! position a cacheable, shareable URL. Games with chance in them carry the
//! seed of their generator inside the state.
//!
//! The [`Game`] trait is the small surface every game shares; [`GameKind`] is
//! the enum the service dispatches on.
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

pub mod gomoku;
pub mod quoridor;
pub mod tetris;
pub mod twenty48;
pub mod xiangqi;

/// The rules every game shares: whose turn it is, which actions are legal,
/// what an action does and how the game stands.
///
/// A state is a plain value: [`Game::play`] returns a new state and leaves the
/// old one untouched, so history and forks are just copies.
pub trait Game: Clone + Sized {
    /// One action in the game's own notation (`Display` writes it, `FromStr`
    /// reads it back, with an error that says what is wrong).
    type Action: Copy + Eq + fmt::Display + FromStr<Err: fmt::Display>;
    /// The sides or seats of the game.
    type Player: Copy + Eq + fmt::Display;

    /// The player whose action is awaited.
    fn to_move(&self) -> Self::Player;

    /// Every legal action, in a stable order.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The state after `action`.
    ///
    /// # Errors
    ///
    /// [`IllegalAction`] when the action is not legal here, with the reason.
    fn play(&self, action: Self::Action) -> Result<Self, IllegalAction>;

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

/// Why an action was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct IllegalAction {
    /// A human-readable reason, naming the action and what stands in its way.
    pub reason: String,
}

impl IllegalAction {
    /// An illegal-action error with the given reason.
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalAction {
            reason: reason.into(),
        }
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
}

impl EndReason {
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
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The games qipan knows, for dispatch by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Chinese chess, see [`xiangqi`].
    Xiangqi,
    /// Gomoku, free-style, standard and Renju, see [`gomoku`].
    Gomoku,
    /// 2048, see [`twenty48`].
    Twenty48,
    /// Quoridor for two players, see [`quoridor`].
    Quoridor,
    /// Guideline Tetris, see [`tetris`].
    Tetris,
}

impl GameKind {
    /// Every game, in a stable order.
    pub const ALL: [GameKind; 5] = [
        GameKind::Xiangqi,
        GameKind::Gomoku,
        GameKind::Twenty48,
        GameKind::Quoridor,
        GameKind::Tetris,
    ];

    /// The game's name as it appears in URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Gomoku => "gomoku",
            GameKind::Twenty48 => "2048",
            GameKind::Quoridor => "quoridor",
            GameKind::Tetris => "tetris",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game name that qipan does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}")]
pub struct UnknownGame {
    /// The name that was given.
    pub name: String,
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownGame { name: s.to_owned() })
    }
}
