//! Dispatch over the games: [`GameKind`] names one, [`AnyPosition`] holds a
//! position of any of them (as shakmaty's `VariantPosition` holds a chess
//! variant), and the `Any*` enums carry their actions, players, traces and
//! errors.
//!
//! This file and the module list in `lib.rs` are the only places that name
//! every game. Code that must run something game-specific without naming
//! the games uses the two macros: [`with_position!`](crate::with_position)
//! binds the concrete position inside an [`AnyPosition`], and
//! [`with_game!`](crate::with_game) names the concrete position type of a
//! [`GameKind`]. Both expand to an exhaustive `match`, so a new game is a
//! compile error wherever they are used, never a silent default.
//!
//! ```
//! use qipan_rules::{with_game, with_position, AnyPosition, Game, GameKind};
//!
//! // The length of each game's start code, through the concrete type.
//! let start = qipan_rules::quoridor::Position::start();
//! let any = AnyPosition::from(start);
//! let length = with_position!(&any, p => p.to_code().len());
//! assert_eq!(length, 26);
//!
//! // Which games have chance in them, asked of each type.
//! let seeded: Vec<&str> = GameKind::ALL
//!     .into_iter()
//!     .filter(|&kind| with_game!(kind, P => std::mem::size_of::<<P as Game>::Trace>() > 0))
//!     .map(GameKind::as_str)
//!     .collect();
//! assert_eq!(seeded, ["2048", "tetris"]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::gomoku::{self, Stone};
use crate::quoridor;
use crate::tetris;
use crate::twenty48;
use crate::xiangqi::{self, Side};
use crate::{Game, Player, Reason, Solo, Status};

/// The games qipan knows, for dispatch by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// The players of each game, first to move first.
const XIANGQI_PLAYERS: &[AnyPlayer] = &[
    AnyPlayer::Xiangqi(Side::Red),
    AnyPlayer::Xiangqi(Side::Black),
];
const GOMOKU_PLAYERS: &[AnyPlayer] = &[
    AnyPlayer::Gomoku(Stone::Black),
    AnyPlayer::Gomoku(Stone::White),
];
const QUORIDOR_PLAYERS: &[AnyPlayer] = &[
    AnyPlayer::Quoridor(quoridor::Player::One),
    AnyPlayer::Quoridor(quoridor::Player::Two),
];
const SOLO_PLAYERS: &[AnyPlayer] = &[AnyPlayer::Solo(Solo)];

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

    /// The game's players, first to move first (the game's
    /// [`Player::ALL`]).
    pub fn players(self) -> &'static [AnyPlayer] {
        match self {
            GameKind::Xiangqi => XIANGQI_PLAYERS,
            GameKind::Gomoku => GOMOKU_PLAYERS,
            GameKind::Twenty48 | GameKind::Tetris => SOLO_PLAYERS,
            GameKind::Quoridor => QUORIDOR_PLAYERS,
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

impl Reason for UnknownGame {
    fn reason(&self) -> &'static str {
        "unknown-game"
    }
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

/// A position of any game.
// Gomoku's 19×19 board makes its variant the largest (some 400 bytes).
// Boxing it would save copies of small positions but give `with_position!`
// a `&Box<Position>` for one game and a `&Position` for the others; a
// position is built once per request, so the size is not worth that.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// A xiangqi position.
    Xiangqi(xiangqi::Position),
    /// A gomoku position.
    Gomoku(gomoku::Position),
    /// A 2048 position.
    Twenty48(twenty48::Position),
    /// A quoridor position.
    Quoridor(quoridor::Position),
    /// A Tetris position.
    Tetris(tetris::Position),
}

/// An action of any game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnyAction {
    /// A xiangqi move (`h2e2`).
    Xiangqi(xiangqi::Move),
    /// A gomoku point (`h8`).
    Gomoku(gomoku::Point),
    /// A 2048 direction (`left`).
    Twenty48(twenty48::Direction),
    /// A quoridor pawn move or wall (`e2`, `e3h`).
    Quoridor(quoridor::Action),
    /// A Tetris input (`cw`).
    Tetris(tetris::Action),
}

/// A player of any game. 2048 and Tetris share [`Solo`], so it appears
/// once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnyPlayer {
    /// A xiangqi side.
    Xiangqi(Side),
    /// A gomoku colour.
    Gomoku(Stone),
    /// A quoridor seat.
    Quoridor(quoridor::Player),
    /// The one player of 2048 and Tetris.
    Solo(Solo),
}

/// Why a text is not a state code of the game asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyCodeError {
    /// Not a xiangqi code.
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::CodeError),
    /// Not a gomoku code.
    #[error(transparent)]
    Gomoku(#[from] gomoku::CodeError),
    /// Not a 2048 code.
    #[error(transparent)]
    Twenty48(#[from] twenty48::CodeError),
    /// Not a quoridor code.
    #[error(transparent)]
    Quoridor(#[from] quoridor::CodeError),
    /// Not a Tetris code.
    #[error(transparent)]
    Tetris(#[from] tetris::CodeError),
}

/// Why a text is not an action of the game asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyParseActionError {
    /// Not a xiangqi move.
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::ParseMoveError),
    /// Not a gomoku point.
    #[error(transparent)]
    Gomoku(#[from] gomoku::ParsePointError),
    /// Not a 2048 direction.
    #[error(transparent)]
    Twenty48(#[from] twenty48::ParseDirectionError),
    /// Not a quoridor action.
    #[error(transparent)]
    Quoridor(#[from] quoridor::ParseActionError),
    /// Not a Tetris action.
    #[error(transparent)]
    Tetris(#[from] tetris::ParseActionError),
}

/// Why an action cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnyIllegal {
    /// A xiangqi move the position refuses.
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::IllegalMove),
    /// A gomoku point the position refuses.
    #[error(transparent)]
    Gomoku(#[from] gomoku::IllegalMove),
    /// A 2048 direction the position refuses.
    #[error(transparent)]
    Twenty48(#[from] twenty48::IllegalMove),
    /// A quoridor action the position refuses.
    #[error(transparent)]
    Quoridor(#[from] quoridor::ActionError),
    /// A Tetris action the position refuses.
    #[error(transparent)]
    Tetris(#[from] tetris::IllegalAction),
    /// The action belongs to another game than the position.
    #[error("a {action} action cannot be played in a {position} position")]
    WrongGame {
        /// The position's game.
        position: GameKind,
        /// The action's game.
        action: GameKind,
    },
}

/// What a play reported beyond the new position, for any game (the game's
/// [`Game::Trace`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyTrace {
    /// Xiangqi reports nothing more.
    Xiangqi(()),
    /// Gomoku reports nothing more.
    Gomoku(()),
    /// The spawned tile and the score gained.
    Twenty48(twenty48::Slide),
    /// Quoridor reports nothing more.
    Quoridor(()),
    /// The lock, when the action locked the piece.
    Tetris(Option<tetris::Lock>),
}

impl Reason for AnyCodeError {
    fn reason(&self) -> &'static str {
        match self {
            AnyCodeError::Xiangqi(e) => e.reason(),
            AnyCodeError::Gomoku(e) => e.reason(),
            AnyCodeError::Twenty48(e) => e.reason(),
            AnyCodeError::Quoridor(e) => e.reason(),
            AnyCodeError::Tetris(e) => e.reason(),
        }
    }
}

impl Reason for AnyParseActionError {
    fn reason(&self) -> &'static str {
        match self {
            AnyParseActionError::Xiangqi(e) => e.reason(),
            AnyParseActionError::Gomoku(e) => e.reason(),
            AnyParseActionError::Twenty48(e) => e.reason(),
            AnyParseActionError::Quoridor(e) => e.reason(),
            AnyParseActionError::Tetris(e) => e.reason(),
        }
    }
}

impl Reason for AnyIllegal {
    fn reason(&self) -> &'static str {
        match self {
            AnyIllegal::Xiangqi(e) => e.reason(),
            AnyIllegal::Gomoku(e) => e.reason(),
            AnyIllegal::Twenty48(e) => e.reason(),
            AnyIllegal::Quoridor(e) => e.reason(),
            AnyIllegal::Tetris(e) => e.reason(),
            AnyIllegal::WrongGame { .. } => "wrong-game",
        }
    }
}

impl From<Side> for AnyPlayer {
    fn from(side: Side) -> AnyPlayer {
        AnyPlayer::Xiangqi(side)
    }
}

impl From<Stone> for AnyPlayer {
    fn from(stone: Stone) -> AnyPlayer {
        AnyPlayer::Gomoku(stone)
    }
}

impl From<quoridor::Player> for AnyPlayer {
    fn from(player: quoridor::Player) -> AnyPlayer {
        AnyPlayer::Quoridor(player)
    }
}

impl From<Solo> for AnyPlayer {
    fn from(solo: Solo) -> AnyPlayer {
        AnyPlayer::Solo(solo)
    }
}

impl From<xiangqi::Position> for AnyPosition {
    fn from(p: xiangqi::Position) -> Self {
        AnyPosition::Xiangqi(p)
    }
}

impl From<gomoku::Position> for AnyPosition {
    fn from(p: gomoku::Position) -> Self {
        AnyPosition::Gomoku(p)
    }
}

impl From<twenty48::Position> for AnyPosition {
    fn from(p: twenty48::Position) -> Self {
        AnyPosition::Twenty48(p)
    }
}

impl From<quoridor::Position> for AnyPosition {
    fn from(p: quoridor::Position) -> Self {
        AnyPosition::Quoridor(p)
    }
}

impl From<tetris::Position> for AnyPosition {
    fn from(p: tetris::Position) -> Self {
        AnyPosition::Tetris(p)
    }
}

/// Plays `action` in `pos` and wraps the outcome with the game's variants.
fn traced<G: Game>(
    pos: &G,
    action: G::Action,
    position: fn(G) -> AnyPosition,
    trace: fn(G::Trace) -> AnyTrace,
    illegal: fn(G::IllegalAction) -> AnyIllegal,
) -> Result<(AnyPosition, AnyTrace), AnyIllegal> {
    match pos.play_traced(action) {
        Ok((next, t)) => Ok((position(next), trace(t))),
        Err(e) => Err(illegal(e)),
    }
}

impl AnyPosition {
    /// The line kept beside a game started here, for a game whose rules
    /// judge more than the position (xiangqi's repetitions and move limit:
    /// a line of no moves, with fresh counters); `None` for the others.
    pub fn new_line(&self) -> Option<crate::xiangqi::Line> {
        match self {
            AnyPosition::Xiangqi(p) => Some(crate::xiangqi::Line::new(
                p.clone(),
                crate::xiangqi::Counters::default(),
            )),
            AnyPosition::Gomoku(_)
            | AnyPosition::Quoridor(_)
            | AnyPosition::Twenty48(_)
            | AnyPosition::Tetris(_) => None,
        }
    }

    /// The xiangqi position, when it is one (for what only xiangqi has:
    /// openings, its record formats).
    pub fn xiangqi(&self) -> Option<&crate::xiangqi::Position> {
        match self {
            AnyPosition::Xiangqi(p) => Some(p),
            AnyPosition::Gomoku(_)
            | AnyPosition::Quoridor(_)
            | AnyPosition::Twenty48(_)
            | AnyPosition::Tetris(_) => None,
        }
    }

    /// Which game the position belongs to.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Xiangqi(_) => GameKind::Xiangqi,
            AnyPosition::Gomoku(_) => GameKind::Gomoku,
            AnyPosition::Twenty48(_) => GameKind::Twenty48,
            AnyPosition::Quoridor(_) => GameKind::Quoridor,
            AnyPosition::Tetris(_) => GameKind::Tetris,
        }
    }

    /// Reads a state code of the game `kind`.
    ///
    /// # Errors
    ///
    /// The game's code error, wrapped.
    pub fn from_code(kind: GameKind, code: &str) -> Result<AnyPosition, AnyCodeError> {
        Ok(match kind {
            GameKind::Xiangqi => AnyPosition::Xiangqi(xiangqi::Position::from_code(code)?),
            GameKind::Gomoku => AnyPosition::Gomoku(gomoku::Position::from_code(code)?),
            GameKind::Twenty48 => AnyPosition::Twenty48(twenty48::Position::from_code(code)?),
            GameKind::Quoridor => AnyPosition::Quoridor(quoridor::Position::from_code(code)?),
            GameKind::Tetris => AnyPosition::Tetris(tetris::Position::from_code(code)?),
        })
    }

    /// The canonical state code.
    pub fn to_code(&self) -> String {
        crate::with_position!(self, p => Game::to_code(p))
    }

    /// The player whose action is awaited.
    pub fn to_move(&self) -> AnyPlayer {
        match self {
            AnyPosition::Xiangqi(p) => AnyPlayer::Xiangqi(Game::to_move(p)),
            AnyPosition::Gomoku(p) => AnyPlayer::Gomoku(Game::to_move(p)),
            AnyPosition::Twenty48(p) => AnyPlayer::Solo(Game::to_move(p)),
            AnyPosition::Quoridor(p) => AnyPlayer::Quoridor(Game::to_move(p)),
            AnyPosition::Tetris(p) => AnyPlayer::Solo(Game::to_move(p)),
        }
    }

    /// Reads an action in the notation of the position's game (syntax
    /// only; [`AnyPosition::play`] says whether it is legal).
    ///
    /// # Errors
    ///
    /// The game's parse error, wrapped.
    pub fn parse_action(&self, text: &str) -> Result<AnyAction, AnyParseActionError> {
        AnyAction::parse(self.kind(), text)
    }

    /// Every legal action, in the game's order.
    pub fn legal_actions(&self) -> Vec<AnyAction> {
        fn wrap<A>(actions: Vec<A>, f: fn(A) -> AnyAction) -> Vec<AnyAction> {
            actions.into_iter().map(f).collect()
        }
        match self {
            AnyPosition::Xiangqi(p) => wrap(Game::legal_actions(p), AnyAction::Xiangqi),
            AnyPosition::Gomoku(p) => wrap(Game::legal_actions(p), AnyAction::Gomoku),
            AnyPosition::Twenty48(p) => wrap(Game::legal_actions(p), AnyAction::Twenty48),
            AnyPosition::Quoridor(p) => wrap(Game::legal_actions(p), AnyAction::Quoridor),
            AnyPosition::Tetris(p) => wrap(Game::legal_actions(p), AnyAction::Tetris),
        }
    }

    /// The position after `action`.
    ///
    /// # Errors
    ///
    /// The game's illegal-action error, wrapped, or
    /// [`AnyIllegal::WrongGame`] for an action of another game.
    pub fn play(&self, action: AnyAction) -> Result<AnyPosition, AnyIllegal> {
        // Every game's `play` is its `play_traced` without the trace, and
        // the traces are built either way, so this costs nothing more.
        self.play_traced(action).map(|(next, _)| next)
    }

    /// The position after `action`, and what the game reports beyond it.
    ///
    /// # Errors
    ///
    /// As [`AnyPosition::play`].
    pub fn play_traced(&self, action: AnyAction) -> Result<(AnyPosition, AnyTrace), AnyIllegal> {
        let wrong = AnyIllegal::WrongGame {
            position: self.kind(),
            action: action.kind(),
        };
        // One arm per game, each listing the other games' actions, so that
        // a new game cannot fall through to `WrongGame` unnoticed.
        match self {
            AnyPosition::Xiangqi(p) => match action {
                AnyAction::Xiangqi(a) => traced(
                    p,
                    a,
                    AnyPosition::Xiangqi,
                    AnyTrace::Xiangqi,
                    AnyIllegal::Xiangqi,
                ),
                AnyAction::Gomoku(_)
                | AnyAction::Twenty48(_)
                | AnyAction::Quoridor(_)
                | AnyAction::Tetris(_) => Err(wrong),
            },
            AnyPosition::Gomoku(p) => match action {
                AnyAction::Gomoku(a) => traced(
                    p,
                    a,
                    AnyPosition::Gomoku,
                    AnyTrace::Gomoku,
                    AnyIllegal::Gomoku,
                ),
                AnyAction::Xiangqi(_)
                | AnyAction::Twenty48(_)
                | AnyAction::Quoridor(_)
                | AnyAction::Tetris(_) => Err(wrong),
            },
            AnyPosition::Twenty48(p) => match action {
                AnyAction::Twenty48(a) => traced(
                    p,
                    a,
                    AnyPosition::Twenty48,
                    AnyTrace::Twenty48,
                    AnyIllegal::Twenty48,
                ),
                AnyAction::Xiangqi(_)
                | AnyAction::Gomoku(_)
                | AnyAction::Quoridor(_)
                | AnyAction::Tetris(_) => Err(wrong),
            },
            AnyPosition::Quoridor(p) => match action {
                AnyAction::Quoridor(a) => traced(
                    p,
                    a,
                    AnyPosition::Quoridor,
                    AnyTrace::Quoridor,
                    AnyIllegal::Quoridor,
                ),
                AnyAction::Xiangqi(_)
                | AnyAction::Gomoku(_)
                | AnyAction::Twenty48(_)
                | AnyAction::Tetris(_) => Err(wrong),
            },
            AnyPosition::Tetris(p) => match action {
                AnyAction::Tetris(a) => traced(
                    p,
                    a,
                    AnyPosition::Tetris,
                    AnyTrace::Tetris,
                    AnyIllegal::Tetris,
                ),
                AnyAction::Xiangqi(_)
                | AnyAction::Gomoku(_)
                | AnyAction::Twenty48(_)
                | AnyAction::Quoridor(_) => Err(wrong),
            },
        }
    }

    /// Whether the game goes on, and if not, how it ended.
    pub fn status(&self) -> Status<AnyPlayer> {
        match self {
            AnyPosition::Xiangqi(p) => Game::status(p).map(AnyPlayer::Xiangqi),
            AnyPosition::Gomoku(p) => Game::status(p).map(AnyPlayer::Gomoku),
            AnyPosition::Twenty48(p) => Game::status(p).map(AnyPlayer::Solo),
            AnyPosition::Quoridor(p) => Game::status(p).map(AnyPlayer::Quoridor),
            AnyPosition::Tetris(p) => Game::status(p).map(AnyPlayer::Solo),
        }
    }

    /// The game's perft (its own fast version where it has one).
    pub fn perft(&self, depth: u32) -> u64 {
        crate::with_position!(self, p => Game::perft(p, depth))
    }
}

impl AnyAction {
    /// Reads an action in the notation of the game `kind`.
    ///
    /// # Errors
    ///
    /// The game's parse error, wrapped.
    pub fn parse(kind: GameKind, text: &str) -> Result<AnyAction, AnyParseActionError> {
        Ok(match kind {
            GameKind::Xiangqi => AnyAction::Xiangqi(text.parse()?),
            GameKind::Gomoku => AnyAction::Gomoku(text.parse()?),
            GameKind::Twenty48 => AnyAction::Twenty48(text.parse()?),
            GameKind::Quoridor => AnyAction::Quoridor(text.parse()?),
            GameKind::Tetris => AnyAction::Tetris(text.parse()?),
        })
    }

    /// Which game the action belongs to.
    pub fn kind(self) -> GameKind {
        match self {
            AnyAction::Xiangqi(_) => GameKind::Xiangqi,
            AnyAction::Gomoku(_) => GameKind::Gomoku,
            AnyAction::Twenty48(_) => GameKind::Twenty48,
            AnyAction::Quoridor(_) => GameKind::Quoridor,
            AnyAction::Tetris(_) => GameKind::Tetris,
        }
    }
}

impl fmt::Display for AnyAction {
    /// The game's own notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyAction::Xiangqi(a) => a.fmt(f),
            AnyAction::Gomoku(a) => a.fmt(f),
            AnyAction::Twenty48(a) => a.fmt(f),
            AnyAction::Quoridor(a) => a.fmt(f),
            AnyAction::Tetris(a) => a.fmt(f),
        }
    }
}

impl AnyPlayer {
    /// Reads a player's name (its [`AnyPlayer::as_str`]) in the game `kind`;
    /// `None` when the game has no such player.
    pub fn parse(kind: GameKind, text: &str) -> Option<AnyPlayer> {
        match kind {
            GameKind::Xiangqi => text.parse().ok().map(AnyPlayer::Xiangqi),
            GameKind::Gomoku => text.parse().ok().map(AnyPlayer::Gomoku),
            GameKind::Twenty48 | GameKind::Tetris => text.parse().ok().map(AnyPlayer::Solo),
            GameKind::Quoridor => text.parse().ok().map(AnyPlayer::Quoridor),
        }
    }

    /// The player's stable name (`red`, `white`, `2`, `player`).
    pub fn as_str(self) -> &'static str {
        match self {
            AnyPlayer::Xiangqi(p) => Player::as_str(p),
            AnyPlayer::Gomoku(p) => Player::as_str(p),
            AnyPlayer::Quoridor(p) => Player::as_str(p),
            AnyPlayer::Solo(p) => Player::as_str(p),
        }
    }

    /// The other player of a two-player game; `None` for [`Solo`].
    pub fn opponent(self) -> Option<AnyPlayer> {
        match self {
            AnyPlayer::Xiangqi(p) => Player::opponent(p).map(AnyPlayer::Xiangqi),
            AnyPlayer::Gomoku(p) => Player::opponent(p).map(AnyPlayer::Gomoku),
            AnyPlayer::Quoridor(p) => Player::opponent(p).map(AnyPlayer::Quoridor),
            AnyPlayer::Solo(p) => Player::opponent(p).map(AnyPlayer::Solo),
        }
    }
}

impl fmt::Display for AnyPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Runs `$body` with `$p` bound to the concrete position inside an
/// [`AnyPosition`](crate::AnyPosition): by reference when given a
/// reference, by value when given a value. Expands to one `match` arm per
/// game, so the body is compiled once for each position type.
///
/// ```
/// use qipan_rules::{with_position, AnyPosition, Game};
///
/// let any = AnyPosition::from(qipan_rules::twenty48::Position::new(42));
/// let actions = with_position!(&any, p => p.legal_actions().len());
/// assert_eq!(actions, any.legal_actions().len());
/// let owned: String = with_position!(any, p => Game::to_code(&p));
/// assert_eq!(owned, "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4");
/// ```
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Xiangqi($p) => $body,
            $crate::AnyPosition::Gomoku($p) => $body,
            $crate::AnyPosition::Twenty48($p) => $body,
            $crate::AnyPosition::Quoridor($p) => $body,
            $crate::AnyPosition::Tetris($p) => $body,
        }
    };
}

/// Runs `$body` with the type name `$P` standing for the concrete position
/// type of a [`GameKind`](crate::GameKind). Expands to one `match` arm per
/// game, each declaring `type $P = …;` before the body.
///
/// ```
/// use qipan_rules::{with_game, Game, GameKind, Reason};
///
/// // Decode a code for a game chosen at run time, keeping only the reason.
/// fn code_reason(kind: GameKind, code: &str) -> Option<&'static str> {
///     with_game!(kind, P => P::from_code(code).err().map(|e| e.reason()))
/// }
/// assert_eq!(code_reason(GameKind::Quoridor, "BEyqAAAAAAAAAAAAAAAAAAAAAA"), None);
/// assert_eq!(code_reason(GameKind::Xiangqi, "BEyq"), Some("wrong-length"));
/// assert_eq!(with_game!(GameKind::Tetris, P => <P as Game>::KIND), GameKind::Tetris);
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $P:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::Xiangqi => {
                type $P = $crate::xiangqi::Position;
                $body
            }
            $crate::GameKind::Gomoku => {
                type $P = $crate::gomoku::Position;
                $body
            }
            $crate::GameKind::Twenty48 => {
                type $P = $crate::twenty48::Position;
                $body
            }
            $crate::GameKind::Quoridor => {
                type $P = $crate::quoridor::Position;
                $body
            }
            $crate::GameKind::Tetris => {
                type $P = $crate::tetris::Position;
                $body
            }
        }
    };
}
