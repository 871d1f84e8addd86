//! The checked position: pawns, walls, walls left and the side to move; the
//! pawn-move and wall rules; legal actions and the result.

use std::fmt;

use super::board::{bit, rank_mask, squares, Conflict, Dir, Edges, Walls, BOARD};
use super::code::CodeError;
use super::types::{Action, Orientation, ParseActionError, Player, Square, Wall, WALLS_PER_PLAYER};
use crate::{EndReason, Game, GameKind, Reason, Status};

/// Why pawns, walls and counts do not make a quoridor position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A player is said to have more walls left than a game gives.
    #[error("player {player} has {walls_left} walls left, but a two-player game gives each player {max}", max = WALLS_PER_PLAYER)]
    TooManyWallsLeft {
        /// The player.
        player: Player,
        /// The count given.
        walls_left: u8,
    },
    /// Both pawns stand on one square.
    #[error("both pawns stand on {square}")]
    PawnsOnOneSquare {
        /// The square.
        square: Square,
    },
    /// A wall is listed twice.
    #[error("wall {wall} is listed twice")]
    DuplicateWall {
        /// The wall.
        wall: Wall,
    },
    /// Two walls of one orientation share a wall gap.
    #[error("walls {first} and {second} overlap")]
    OverlappingWalls {
        /// The earlier wall in wall order.
        first: Wall,
        /// The later one.
        second: Wall,
    },
    /// Two walls of different orientations cross at their middle.
    #[error("walls {first} and {second} cross at their middle")]
    CrossingWalls {
        /// The horizontal wall.
        first: Wall,
        /// The vertical wall.
        second: Wall,
    },
    /// Placed walls and walls left do not add up to the walls of a game.
    #[error("{placed} walls placed and {left} left make {sum}, but a two-player game has {total} walls", sum = placed + left, total = 2 * WALLS_PER_PLAYER as usize)]
    WallCount {
        /// Walls on the board.
        placed: usize,
        /// Walls left to both players together.
        left: usize,
    },
    /// A pawn stands on its goal rank, yet its player is to move: the game
    /// ended when it arrived.
    #[error("player {player}'s pawn stands on its goal {square}, but player {player} is to move: the game ended when it arrived")]
    WinnerToMove {
        /// The player.
        player: Player,
        /// Where its pawn stands.
        square: Square,
    },
    /// The walls cut a pawn off from its goal rank.
    #[error("the walls leave player {player}'s pawn on {square} no path to rank {rank}", rank = player.goal_rank() + 1)]
    NoPath {
        /// The player cut off.
        player: Player,
        /// Where its pawn stands.
        square: Square,
    },
}

impl Reason for SetupError {
    fn reason(&self) -> &'static str {
        match self {
            SetupError::TooManyWallsLeft { .. } => "too-many-walls-left",
            SetupError::PawnsOnOneSquare { .. } => "pawns-on-one-square",
            SetupError::DuplicateWall { .. } => "duplicate-wall",
            SetupError::OverlappingWalls { .. } => "overlapping-walls",
            SetupError::CrossingWalls { .. } => "crossing-walls",
            SetupError::WallCount { .. } => "wall-count",
            SetupError::WinnerToMove { .. } => "winner-to-move",
            SetupError::NoPath { .. } => "no-path",
        }
    }
}

/// Why an action cannot be played in a position (what [`Position::play`]
/// returns).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// A pawn has reached its goal.
    #[error("the game is over: player {winner} has reached the goal")]
    GameOver {
        /// The winner.
        winner: Player,
    },
    /// The destination holds the other pawn.
    #[error("{square} holds player {player}'s pawn")]
    Occupied {
        /// The destination.
        square: Square,
        /// The pawn's player.
        player: Player,
    },
    /// A wall stands between two squares the move would pass.
    #[error("a wall between {from} and {to} blocks the move to {target}")]
    WallInTheWay {
        /// The square before the wall.
        from: Square,
        /// The square behind it.
        to: Square,
        /// The destination asked for.
        target: Square,
    },
    /// A diagonal jump while the straight jump is open.
    #[error("{target} is a diagonal jump, allowed only when a wall or the board edge is behind the pawn on {over}; {behind} is open")]
    DiagonalWhileStraightOpen {
        /// The destination asked for.
        target: Square,
        /// The jumped pawn's square.
        over: Square,
        /// The free square behind it.
        behind: Square,
    },
    /// The destination is no step, jump or diagonal jump from the pawn.
    #[error("the pawn on {from} cannot reach {target}: a move is one step, or a jump over an adjacent pawn")]
    OutOfReach {
        /// The pawn's square.
        from: Square,
        /// The destination asked for.
        target: Square,
    },
    /// The player to move has no walls left.
    #[error("player {player} has no walls left and must move the pawn")]
    NoWallsLeft {
        /// The player.
        player: Player,
    },
    /// The wall is already on the board.
    #[error("wall {wall} is already placed")]
    WallPlaced {
        /// The wall.
        wall: Wall,
    },
    /// The wall would share a gap with a placed wall of its orientation.
    #[error("wall {wall} would overlap {other}")]
    WallOverlaps {
        /// The wall asked for.
        wall: Wall,
        /// The placed wall.
        other: Wall,
    },
    /// The wall would cross a placed wall at its middle.
    #[error("wall {wall} would cross {other}")]
    WallCrosses {
        /// The wall asked for.
        wall: Wall,
        /// The placed wall.
        other: Wall,
    },
    /// The wall would leave a pawn no path to its goal.
    #[error("wall {wall} would leave player {player}'s pawn on {square} no path to rank {rank}", rank = player.goal_rank() + 1)]
    WallCutsOff {
        /// The wall asked for.
        wall: Wall,
        /// The player cut off.
        player: Player,
        /// Where its pawn stands.
        square: Square,
    },
}

impl Reason for ActionError {
    fn reason(&self) -> &'static str {
        match self {
            ActionError::GameOver { .. } => "game-over",
            ActionError::Occupied { .. } => "square-taken",
            ActionError::WallInTheWay { .. } => "wall-in-the-way",
            ActionError::DiagonalWhileStraightOpen { .. } => "diagonal-while-straight-open",
            ActionError::OutOfReach { .. } => "cannot-reach",
            ActionError::NoWallsLeft { .. } => "no-walls-left",
            ActionError::WallPlaced { .. } => "wall-placed",
            ActionError::WallOverlaps { .. } => "wall-overlaps",
            ActionError::WallCrosses { .. } => "wall-crosses",
            ActionError::WallCutsOff { .. } => "wall-cuts-off",
        }
    }
}

/// An unchecked position: pawns, walls, walls left and the player to move.
/// Anything can be written here; [`Position::from_setup`] checks it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Player 1's pawn, then player 2's.
    pub pawns: [Square; 2],
    /// The walls on the board, in any order.
    pub walls: Vec<Wall>,
    /// The walls each player has left, player 1 first.
    pub walls_left: [u8; 2],
    /// The player to move.
    pub to_move: Player,
}

/// A two-player quoridor position: both pawns, the walls on the board, each
/// player's walls left and the player to move.
///
/// Built only through [`Position::start`], [`Position::from_setup`],
/// [`Position::from_code`] and play, so it always holds two pawns on
/// different squares, walls that neither overlap nor cross, 20 walls in
/// all, a path to the goal for each pawn, and no winner to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pawns: [Square; 2],
    walls: Walls,
    walls_left: [u8; 2],
    turn: Player,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_code())
    }
}

/// The goal rank of `player` as a mask.
#[inline]
fn goal(player: Player) -> u128 {
    rank_mask(player.goal_rank())
}

impl Position {
    /// The start: pawns on `e1` and `e9`, no walls, 10 walls each, player 1
    /// to move.
    pub fn start() -> Position {
        Position {
            pawns: [Square::E1, Square::E9],
            walls: Walls::default(),
            walls_left: [WALLS_PER_PLAYER; 2],
            turn: Player::One,
        }
    }

    /// Checks pawns, walls and counts and builds the position.
    ///
    /// # Errors
    ///
    /// The first [`SetupError`] found, in this order: walls left above 10,
    /// pawns on one square, a wall listed twice, overlapping then crossing
    /// walls, a total other than 20, a winner to move, a pawn without a path.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let Setup {
            pawns,
            ref walls,
            walls_left,
            to_move,
        } = *setup;
        for player in Player::ALL {
            let left = walls_left[player.index()];
            if left > WALLS_PER_PLAYER {
                return Err(SetupError::TooManyWallsLeft {
                    player,
                    walls_left: left,
                });
            }
        }
        if pawns[0] == pawns[1] {
            return Err(SetupError::PawnsOnOneSquare { square: pawns[0] });
        }
        let mut sorted = walls.to_vec();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|p| p[0] == p[1]) {
            return Err(SetupError::DuplicateWall { wall: pair[0] });
        }
        let mut placed = Walls::default();
        for &wall in &sorted {
            // Adding in wall order, so the conflicting wall is the earlier.
            if let Some((other, conflict)) = placed.conflict(wall) {
                return Err(match conflict {
                    Conflict::Overlap => SetupError::OverlappingWalls {
                        first: other,
                        second: wall,
                    },
                    Conflict::Cross => {
                        let (first, second) = if other < wall {
                            (other, wall)
                        } else {
                            (wall, other)
                        };
                        SetupError::CrossingWalls { first, second }
                    }
                });
            }
            placed = placed.with(wall);
        }
        let left = usize::from(walls_left[0]) + usize::from(walls_left[1]);
        if sorted.len() + left != 2 * usize::from(WALLS_PER_PLAYER) {
            return Err(SetupError::WallCount {
                placed: sorted.len(),
                left,
            });
        }
        let square = pawns[to_move.index()];
        if bit(square) & goal(to_move) != 0 {
            return Err(SetupError::WinnerToMove {
                player: to_move,
                square,
            });
        }
        let edges = Edges::new(placed);
        for player in Player::ALL {
            let square = pawns[player.index()];
            if !edges.reaches(square, goal(player)) {
                return Err(SetupError::NoPath { player, square });
            }
        }
        Ok(Position {
            pawns,
            walls: placed,
            walls_left,
            turn: to_move,
        })
    }

    /// The unchecked form, walls in [`Wall`] order.
    pub fn to_setup(&self) -> Setup {
        Setup {
            pawns: self.pawns,
            walls: self.walls(),
            walls_left: self.walls_left,
            to_move: self.turn,
        }
    }

    /// The player whose action is awaited (after a win, the loser).
    #[inline]
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// Where `player`'s pawn stands.
    #[inline]
    pub fn pawn(&self, player: Player) -> Square {
        self.pawns[player.index()]
    }

    /// Both pawns, player 1's first.
    #[inline]
    pub fn pawns(&self) -> [Square; 2] {
        self.pawns
    }

    /// The walls on the board, in [`Wall`] order.
    pub fn walls(&self) -> Vec<Wall> {
        self.walls.iter().collect()
    }

    /// Whether `wall` is on the board.
    pub fn has_wall(&self, wall: Wall) -> bool {
        self.walls.contains(wall)
    }

    /// The walls `player` has left to place.
    #[inline]
    pub fn walls_left(&self, player: Player) -> u8 {
        self.walls_left[player.index()]
    }

    /// Steps from `player`'s pawn to its goal rank along open squares,
    /// ignoring pawns (0 once it has arrived). Always `Some` in a checked
    /// position; the `Option` names what a missing path would mean.
    pub fn shortest_path(&self, player: Player) -> Option<u8> {
        Edges::new(self.walls).distance(self.pawn(player), goal(player))
    }

    /// The winner, if a pawn stands on its goal rank.
    pub fn winner(&self) -> Option<Player> {
        // Only the player who just moved can have arrived (a winner to
        // move is refused), so checking that one is enough.
        let last = self.turn.opponent();
        (bit(self.pawn(last)) & goal(last) != 0).then_some(last)
    }

    /// How the game stands: won by the first pawn on its goal rank, ongoing
    /// otherwise (quoridor has no draw: a pawn always has a path).
    pub fn status(&self) -> Status<Player> {
        match self.winner() {
            Some(winner) => Status::Won {
                winner,
                reason: EndReason::ReachedGoal,
            },
            None => Status::Ongoing,
        }
    }

    /// The squares the pawn to move may go to, in [`Square`] order; empty
    /// once the game is won.
    pub fn pawn_moves(&self) -> Vec<Square> {
        if self.winner().is_some() {
            return Vec::new();
        }
        squares(self.pawn_targets(Edges::new(self.walls))).collect()
    }

    /// The pawn destinations as a bitboard.
    fn pawn_targets(&self, edges: Edges) -> u128 {
        let me = self.pawn(self.turn);
        let them = self.pawn(self.turn.opponent());
        let mut out = 0u128;
        for d in Dir::ALL {
            let Some(next) = edges.step(me, d) else {
                continue;
            };
            if next != them {
                out |= bit(next);
            } else if let Some(behind) = edges.step(them, d) {
                out |= bit(behind);
            } else {
                for side in d.sides() {
                    if let Some(s) = edges.step(them, side) {
                        out |= bit(s);
                    }
                }
            }
        }
        out & BOARD
    }

    /// The walls the player to move may place, in [`Wall`] order; empty
    /// once the game is won or without walls left.
    pub fn wall_placements(&self) -> Vec<Wall> {
        let mut out = Vec::with_capacity(128);
        self.for_each_wall(|w| out.push(w));
        out
    }

    /// Calls `f` on each legal wall, in [`Wall`] order.
    ///
    /// Only walls that cut a current shortest path of a player need a
    /// search: any other wall leaves that path, so the goal stays in reach.
    fn for_each_wall(&self, mut f: impl FnMut(Wall)) {
        if self.winner().is_some() || self.walls_left(self.turn) == 0 {
            return;
        }
        let edges = Edges::new(self.walls);
        let mut cuts = [Walls::default(); 2];
        for player in Player::ALL {
            match edges.path_slots(self.pawn(player), goal(player)) {
                Some(slots) => cuts[player.index()] = slots,
                // Unreachable in a checked position; refuse every wall.
                None => return,
            }
        }
        let (blocked_h, blocked_v) = (self.walls.blocked_h(), self.walls.blocked_v());
        for wall in Wall::all() {
            let o = wall.orientation();
            let b = 1u64 << wall.anchor_index();
            let blocked = match o {
                Orientation::Horizontal => blocked_h,
                Orientation::Vertical => blocked_v,
            };
            if blocked & b != 0 {
                continue;
            }
            let mut ok = true;
            let mut after = None;
            for player in Player::ALL {
                if cuts[player.index()].map(o) & b != 0 {
                    let e = *after.get_or_insert_with(|| edges.with(wall));
                    if !e.reaches(self.pawn(player), goal(player)) {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                f(wall);
            }
        }
    }

    /// Every legal action: pawn moves first, in [`Square`] order, then
    /// walls in [`Wall`] order. Empty once the game is won.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = self.pawn_moves().into_iter().map(Action::Move).collect();
        self.for_each_wall(|w| out.push(Action::Wall(w)));
        out
    }

    /// The number of legal actions, without listing them.
    pub fn count_legal_actions(&self) -> usize {
        if self.winner().is_some() {
            return 0;
        }
        let mut n = self.pawn_targets(Edges::new(self.walls)).count_ones() as usize;
        self.for_each_wall(|_| n += 1);
        n
    }

    /// Checks `action` and returns the position after it.
    ///
    /// # Errors
    ///
    /// An [`ActionError`] naming the rule that refuses it.
    pub fn play(&self, action: Action) -> Result<Position, ActionError> {
        if let Some(winner) = self.winner() {
            return Err(ActionError::GameOver { winner });
        }
        match action {
            Action::Move(target) => {
                let edges = Edges::new(self.walls);
                if self.pawn_targets(edges) & bit(target) == 0 {
                    return Err(self.why_not_move(edges, target));
                }
            }
            Action::Wall(wall) => self.check_wall(wall)?,
        }
        Ok(self.apply(action))
    }

    /// The position after a legal `action`, without checks.
    fn apply(&self, action: Action) -> Position {
        let mut next = *self;
        match action {
            Action::Move(sq) => next.pawns[self.turn.index()] = sq,
            Action::Wall(w) => {
                next.walls = self.walls.with(w);
                next.walls_left[self.turn.index()] -= 1;
            }
        }
        next.turn = self.turn.opponent();
        next
    }

    /// Checks a wall against the walls left, the placed walls and the paths.
    fn check_wall(&self, wall: Wall) -> Result<(), ActionError> {
        if self.walls_left(self.turn) == 0 {
            return Err(ActionError::NoWallsLeft { player: self.turn });
        }
        if self.walls.contains(wall) {
            return Err(ActionError::WallPlaced { wall });
        }
        if let Some((other, conflict)) = self.walls.conflict(wall) {
            return Err(match conflict {
                Conflict::Overlap => ActionError::WallOverlaps { wall, other },
                Conflict::Cross => ActionError::WallCrosses { wall, other },
            });
        }
        let edges = Edges::new(self.walls.with(wall));
        for player in Player::ALL {
            let square = self.pawn(player);
            if !edges.reaches(square, goal(player)) {
                return Err(ActionError::WallCutsOff {
                    wall,
                    player,
                    square,
                });
            }
        }
        Ok(())
    }

    /// Why the pawn to move cannot go to `target` (which is not a legal
    /// destination).
    fn why_not_move(&self, edges: Edges, target: Square) -> ActionError {
        let me = self.pawn(self.turn);
        let them = self.pawn(self.turn.opponent());
        if target == them {
            return ActionError::Occupied {
                square: target,
                player: self.turn.opponent(),
            };
        }
        let open = Edges::new(Walls::default());
        let wall = |from, to| ActionError::WallInTheWay { from, to, target };
        for d in Dir::ALL {
            let Some(next) = open.step(me, d) else {
                continue;
            };
            if next == target {
                return wall(me, next);
            }
            if next != them {
                continue;
            }
            // A jump over the adjacent pawn: straight or to a side.
            if open.step(them, d) == Some(target) {
                return if edges.step(me, d).is_none() {
                    wall(me, them)
                } else {
                    wall(them, target)
                };
            }
            for side in d.sides() {
                if open.step(them, side) != Some(target) {
                    continue;
                }
                if edges.step(me, d).is_none() {
                    return wall(me, them);
                }
                if let Some(behind) = edges.step(them, d) {
                    return ActionError::DiagonalWhileStraightOpen {
                        target,
                        over: them,
                        behind,
                    };
                }
                return wall(them, target);
            }
        }
        ActionError::OutOfReach { from: me, target }
    }

    /// Leaf count of the legal-action tree `depth` plies deep, playing
    /// generated actions without re-checking them.
    fn fast_perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_actions() as u64,
            _ => self
                .legal_actions()
                .into_iter()
                .map(|a| self.apply(a).fast_perft(depth - 1))
                .sum(),
        }
    }
}

impl Game for Position {
    const KIND: GameKind = GameKind::Quoridor;
    type Action = Action;
    type ParseActionError = ParseActionError;
    type Player = Player;
    type CodeError = CodeError;
    type IllegalAction = ActionError;
    type Trace = ();

    fn from_code(code: &str) -> Result<Self, CodeError> {
        Position::from_code(code)
    }

    fn to_code(&self) -> String {
        Position::to_code(self)
    }

    fn to_move(&self) -> Player {
        self.turn()
    }

    fn legal_actions(&self) -> Vec<Action> {
        Position::legal_actions(self)
    }

    fn play(&self, action: Action) -> Result<Self, ActionError> {
        Position::play(self, action)
    }

    fn play_traced(&self, action: Action) -> Result<(Self, ()), ActionError> {
        Position::play(self, action).map(|next| (next, ()))
    }

    fn status(&self) -> Status<Player> {
        Position::status(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }
}
