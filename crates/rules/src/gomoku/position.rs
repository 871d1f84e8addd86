//! The checked position: stones, rule set, what is known of the move order,
//! the win test and the legal moves.

use std::collections::BTreeMap;
use std::fmt;

use super::board::{coords, point, Board, Run, BLACK, EMPTY, WHITE};
use super::code::CodeError;
use super::renju::forbidden_at;
use super::types::{Forbidden, ParsePointError, Point, Stone, Variant};
use crate::{EndReason, Game, GameKind, Reason, Status};

/// Why a [`Setup`] (or a rule set and size) does not make a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The size is not one the rule set is played on.
    #[error("{variant} is played on {sizes}, not on {size}×{size}", sizes = sizes_text(*variant))]
    UnsupportedSize {
        /// The rule set.
        variant: Variant,
        /// The size asked for.
        size: u8,
    },
    /// A stone on a point beyond the board's side.
    #[error("the stone on {point} is off the {size}×{size} board")]
    StoneOffBoard {
        /// The first such point, in board order.
        point: Point,
        /// The board side.
        size: u8,
    },
    /// The board is read but cannot arise in a game.
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Reason for SetupError {
    fn reason(&self) -> &'static str {
        match self {
            SetupError::UnsupportedSize { .. } => "unsupported-size",
            SetupError::StoneOffBoard { .. } => "stone-off-board",
            SetupError::Position(e) => e.reason(),
        }
    }
}

/// Why a stone cannot be played, in the order the checks are made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// Somebody has already won.
    #[error("{point}: the game is over, {winner} has won")]
    GameWon {
        /// The point asked for.
        point: Point,
        /// The winner.
        winner: Stone,
    },
    /// Every point is taken.
    #[error("{point}: the game is over, the board is full")]
    BoardFull {
        /// The point asked for.
        point: Point,
    },
    /// The point lies beyond the board's side (`p1` on 15×15).
    #[error("{point} is off the {size}×{size} board")]
    OffBoard {
        /// The point asked for.
        point: Point,
        /// The board side.
        size: u8,
    },
    /// A stone already stands there.
    #[error("{point} is occupied by a {stone} stone")]
    Occupied {
        /// The point asked for.
        point: Point,
        /// The stone on it.
        stone: Stone,
    },
    /// Renju: the point is forbidden to black.
    #[error("{point} is forbidden for black: {why}")]
    Forbidden {
        /// The point asked for.
        point: Point,
        /// Which prohibition.
        why: Forbidden,
    },
}

impl Reason for IllegalMove {
    fn reason(&self) -> &'static str {
        match self {
            IllegalMove::GameWon { .. } | IllegalMove::BoardFull { .. } => "game-over",
            IllegalMove::OffBoard { .. } => "off-board",
            IllegalMove::Occupied { .. } => "point-taken",
            IllegalMove::Forbidden { .. } => "forbidden",
        }
    }
}

/// Why a move list does not replay from the empty board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovesError {
    /// The rule set is not played on the size.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A move cannot be played where it stands in the list.
    #[error("move {index}: {reason}")]
    Illegal {
        /// The move's 0-based index in the list.
        index: usize,
        /// Why it cannot be played.
        reason: IllegalMove,
    },
}

impl Reason for MovesError {
    fn reason(&self) -> &'static str {
        match self {
            MovesError::Setup(e) => e.reason(),
            MovesError::Illegal { .. } => "illegal-move",
        }
    }
}

/// An unchecked board: a rule set, a size, the stones and the last move if
/// known. Anything can be written here; [`Position::from_setup`] checks it.
///
/// It carries no move order: a position read from it knows its order only
/// when it holds at most two stones (the colours tell it). A move order is
/// read with [`Position::from_moves`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The rule set.
    pub variant: Variant,
    /// The board side, 15 or 19.
    pub size: u8,
    /// The stones, by point.
    pub stones: BTreeMap<Point, Stone>,
    /// The last stone played, when known.
    pub last_move: Option<Point>,
}

impl Setup {
    /// An empty board of `variant` and `size`, unchecked.
    pub fn empty(variant: Variant, size: u8) -> Setup {
        Setup {
            variant,
            size,
            stones: BTreeMap::new(),
            last_move: None,
        }
    }
}

fn sizes_text(variant: Variant) -> String {
    variant
        .sizes()
        .iter()
        .map(|s| format!("{s}×{s}"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What makes a board impossible in a game, whichever form it was read from.
///
/// Checked in this order: the stone counts, the last move against the
/// counts, a win of the side to move, a win not made by one last stone (or
/// not by the given one), a Renju overline of black.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Black moves first and the sides alternate, so black has as many stones
    /// as white or one more.
    #[error("black has {black} stones and white {white}: black moves first, so black has as many stones as white or one more")]
    ImpossibleCounts {
        /// Black stones on the board.
        black: usize,
        /// White stones on the board.
        white: usize,
    },
    /// A last move is given for an empty board.
    #[error("the last move {point} is given, but the board has no stones")]
    LastMoveOnEmptyBoard {
        /// The point given as the last move.
        point: Point,
    },
    /// The last move's point does not hold the stone of the side that moved
    /// last.
    #[error("the last move {point} must hold a {expected} stone ({expected} moved last, by the stone counts), but it holds {}", found.map_or("none", Stone::as_str))]
    LastMoveNotMover {
        /// The point given as the last move.
        point: Point,
        /// The side that moved last.
        expected: Stone,
        /// What stands there.
        found: Option<Stone>,
    },
    /// The side to move has a winning line: the game ended before the other
    /// side's last move.
    #[error("{winner} has a winning line {from}–{to}, but {mover} has moved since: the game would have ended there")]
    WinnerNotLastMover {
        /// Who holds the line.
        winner: Stone,
        /// The side that moved last.
        mover: Stone,
        /// One end of the line.
        from: Point,
        /// The other end.
        to: Point,
    },
    /// The winner's lines cannot all have been completed by one last stone.
    #[error("{winner}'s winning line {from}–{to} was already complete before {winner}'s last stone: the game would have ended there")]
    PlayedOnAfterWin {
        /// Who holds the line.
        winner: Stone,
        /// One end of a line complete before the last stone.
        from: Point,
        /// The other end.
        to: Point,
    },
    /// The winning line does not run through the given last move.
    #[error("{winner}'s winning line {from}–{to} does not come from the last move {last}: the game would have ended before it")]
    LastMoveNotWinning {
        /// Who holds the line.
        winner: Stone,
        /// One end of the line.
        from: Point,
        /// The other end.
        to: Point,
        /// The last move given.
        last: Point,
    },
    /// Under Renju rules black cannot make an overline without making a
    /// five with the same stone (which ends the game).
    #[error(
        "black has an overline {from}–{to}, which renju forbids unless the same stone makes a five"
    )]
    BlackOverline {
        /// One end of the overline.
        from: Point,
        /// The other end.
        to: Point,
    },
}

impl Reason for PositionError {
    fn reason(&self) -> &'static str {
        match self {
            PositionError::ImpossibleCounts { .. } => "impossible-counts",
            PositionError::LastMoveOnEmptyBoard { .. } => "last-move-on-empty-board",
            PositionError::LastMoveNotMover { .. } => "last-move-not-mover",
            PositionError::WinnerNotLastMover { .. } => "winner-not-last-mover",
            PositionError::PlayedOnAfterWin { .. } => "played-on-after-win",
            PositionError::LastMoveNotWinning { .. } => "last-move-not-winning",
            PositionError::BlackOverline { .. } => "black-overline",
        }
    }
}

/// A gomoku position that can arise in a game: a rule set, a board of a size
/// it is played on, stone counts that alternating play gives, no finished
/// game played on, and — when known — the move order or the last move.
///
/// The move order is kept while its code is no longer than the grid code
/// (46 moves on 15×15, 66 on 19×19; see the module documentation); after
/// that only the last move is kept, so every position has one code and
/// `Position::from_code(&p.to_code()) == Ok(p)`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    variant: Variant,
    board: Board,
    black: usize,
    white: usize,
    /// The whole move order, when known.
    moves: Option<Vec<Point>>,
    /// The last stone played, when known.
    last: Option<Point>,
    /// The winner, if a winning line stands.
    winner: Option<Stone>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({} {}×{} {})",
            self.variant,
            self.size(),
            self.size(),
            self.to_code()
        )
    }
}

/// The longest move order a position keeps on a board of side `size`: the
/// most moves whose move-list code is no longer than the grid code with a
/// last move (see the module documentation for both layouts).
pub(crate) fn max_listed_moves(size: u8) -> usize {
    if size == 15 {
        46 // 1 + n bytes ≤ 1 + 45 + 1
    } else {
        66 // 1 + ⌈9n/8⌉ bytes ≤ 1 + 73 + 2
    }
}

impl Position {
    /// The empty board, black to move.
    ///
    /// # Errors
    ///
    /// [`SetupError::UnsupportedSize`] unless `size` is 15, or 19 for
    /// free-style.
    pub fn new(variant: Variant, size: u8) -> Result<Position, SetupError> {
        if !variant.sizes().contains(&size) {
            return Err(SetupError::UnsupportedSize { variant, size });
        }
        Ok(Position {
            variant,
            board: Board::new(size),
            black: 0,
            white: 0,
            moves: Some(Vec::new()),
            last: None,
            winner: None,
        })
    }

    /// Checks a setup and builds the position.
    ///
    /// # Errors
    ///
    /// [`SetupError::UnsupportedSize`], then [`SetupError::StoneOffBoard`]
    /// for the first stone beyond the side, then the first
    /// [`PositionError`] (see its order).
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let (variant, size) = (setup.variant, setup.size);
        Position::new(variant, size)?;
        let mut board = Board::new(size);
        for (&point, &stone) in &setup.stones {
            if !point.is_on(size) {
                return Err(SetupError::StoneOffBoard { point, size });
            }
            let (c, r) = coords(point);
            board.set(c, r, stone.cell());
        }
        Ok(Position::from_board(variant, board, setup.last_move)?)
    }

    /// The unchecked form: the stones and the last move (the move order is
    /// left out, see [`Setup`]).
    pub fn to_setup(&self) -> Setup {
        let size = self.size();
        let stones = (0..size)
            .flat_map(|row| (0..size).filter_map(move |col| Point::new(col, row)))
            .filter_map(|p| self.stone_at(p).map(|s| (p, s)))
            .collect();
        Setup {
            variant: self.variant,
            size,
            stones,
            last_move: self.last,
        }
    }

    /// The position after playing `moves` in order from the empty board.
    /// The move order is kept while it is short enough (see [`Position`]).
    ///
    /// # Errors
    ///
    /// [`MovesError::Setup`] when the rule set is not played on `size`;
    /// [`MovesError::Illegal`] with the 0-based index of the first move that
    /// cannot be played and why.
    pub fn from_moves(variant: Variant, size: u8, moves: &[Point]) -> Result<Position, MovesError> {
        let mut pos = Position::new(variant, size)?;
        for (index, &point) in moves.iter().enumerate() {
            pos.place(point)
                .map_err(|reason| MovesError::Illegal { index, reason })?;
        }
        Ok(pos)
    }

    /// Checks a board whose move order is unknown and builds the position.
    ///
    /// When the board holds at most two stones their order follows from the
    /// colours, so it is kept (and the code will be a move list).
    pub(crate) fn from_board(
        variant: Variant,
        board: Board,
        last: Option<Point>,
    ) -> Result<Position, PositionError> {
        let (black, white) = board.counts();
        if black != white && black != white + 1 {
            return Err(PositionError::ImpossibleCounts { black, white });
        }
        let mover = match (black, white) {
            (0, _) => None,
            (b, w) if b == w => Some(Stone::White),
            _ => Some(Stone::Black),
        };
        match (mover, last) {
            (None, Some(point)) => return Err(PositionError::LastMoveOnEmptyBoard { point }),
            (Some(expected), Some(point)) => {
                let found = board.stone_at(point);
                if found != Some(expected) {
                    return Err(PositionError::LastMoveNotMover {
                        point,
                        expected,
                        found,
                    });
                }
            }
            (_, None) => {}
        }
        let mut winner = None;
        if let Some(mover) = mover {
            let other = mover.opponent();
            if let Some(run) = winning_runs(&board, variant, other).first() {
                let (from, to) = ends(run);
                return Err(PositionError::WinnerNotLastMover {
                    winner: other,
                    mover,
                    from,
                    to,
                });
            }
            let runs = winning_runs(&board, variant, mover);
            if !runs.is_empty() {
                check_single_last_stone(&board, variant, mover, &runs, last)?;
                winner = Some(mover);
            }
        }
        if variant == Variant::Renju && winner != Some(Stone::Black) {
            if let Some(run) = board.runs(Stone::Black, |len| len > 5).first() {
                let (from, to) = ends(run);
                return Err(PositionError::BlackOverline { from, to });
            }
        }
        // With at most one stone of each colour the order is black, white.
        let moves = (black + white <= 2).then(|| {
            let mut order: Vec<Point> = Vec::with_capacity(2);
            for stone in Stone::ALL {
                order.extend(board.runs(stone, |_| true).first().map(|r| r.points()[0]));
            }
            order
        });
        let last = moves.as_ref().map_or(last, |order| order.last().copied());
        Ok(Position {
            variant,
            board,
            black,
            white,
            moves,
            last,
            winner,
        })
    }

    /// The rule set.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side of the board, 15 or 19.
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The stone on `p`; `None` when the point is empty or off the board.
    pub fn stone_at(&self, p: Point) -> Option<Stone> {
        self.board.stone_at(p)
    }

    /// The stones of row `row` (0 is the bottom row), column `a` first,
    /// `None` where a point is empty: what [`Position::stone_at`] answers
    /// for each point of the row, in one pass (nothing for a row off the
    /// board).
    pub fn row_stones(&self, row: u8) -> impl Iterator<Item = Option<Stone>> + '_ {
        self.board.row_stones(row)
    }

    /// How many stones of `stone` are on the board.
    pub fn stone_count(&self, stone: Stone) -> usize {
        match stone {
            Stone::Black => self.black,
            Stone::White => self.white,
        }
    }

    /// The side to move: black when the counts are equal, white when black
    /// has one stone more. (Also answered when the game is over.)
    pub fn turn(&self) -> Stone {
        if self.black == self.white {
            Stone::Black
        } else {
            Stone::White
        }
    }

    /// The last stone played, when the position knows it.
    pub fn last_move(&self) -> Option<Point> {
        self.last
    }

    /// The whole move order from the empty board, when the position knows it.
    pub fn moves(&self) -> Option<&[Point]> {
        self.moves.as_deref()
    }

    /// The move order as text, points separated by single spaces
    /// (`"h8 h9 i9"`; empty for the empty board), when known.
    pub fn move_list(&self) -> Option<String> {
        self.moves
            .as_ref()
            .map(|m| m.iter().map(Point::to_string).collect::<Vec<_>>().join(" "))
    }

    /// Whether no point is empty.
    fn is_full(&self) -> bool {
        let s = self.size() as usize;
        self.black + self.white == s * s
    }

    /// How the game stands: won by a line of five (or more, where the rule
    /// set allows), drawn on a full board, drawn when black is to move in
    /// Renju and every empty point is forbidden (there is no pass), or going
    /// on.
    pub fn status(&self) -> Status<Stone> {
        if let Some(winner) = self.winner {
            return Status::Won {
                winner,
                reason: EndReason::FiveInARow,
            };
        }
        if self.is_full() {
            return Status::Drawn {
                reason: EndReason::BoardFull,
            };
        }
        if self.black_is_restricted() {
            let mut scratch = self.board.clone();
            let open = self
                .board
                .empties()
                .any(|(c, r)| forbidden_at(&mut scratch, c, r).is_none());
            if !open {
                return Status::Drawn {
                    reason: EndReason::NoMoves,
                };
            }
        }
        Status::Ongoing
    }

    /// Whether it is black's turn under Renju rules (so forbidden points
    /// apply).
    fn black_is_restricted(&self) -> bool {
        self.variant == Variant::Renju && self.turn() == Stone::Black
    }

    /// The stones of the winning line in order along it (left to right, or
    /// bottom to top on a column), or `None` when nobody has won. When one
    /// stone made several lines at once, this is the first of
    /// [`Position::winning_lines`].
    pub fn winning_line(&self) -> Option<Vec<Point>> {
        self.winning_lines().into_iter().next()
    }

    /// Every winning line of the winner (usually one; a stone can complete
    /// up to four at once), each in order along it. Lines are listed by
    /// their first stone in board order, then horizontal, vertical, rising
    /// and falling diagonal.
    pub fn winning_lines(&self) -> Vec<Vec<Point>> {
        match self.winner {
            Some(w) => winning_runs(&self.board, self.variant, w)
                .iter()
                .map(Run::points)
                .collect(),
            None => Vec::new(),
        }
    }

    /// Every legal move in board order (row 1 first, left to right): every
    /// empty point, less black's forbidden points under Renju rules. Empty
    /// when the game is over.
    pub fn legal_actions(&self) -> Vec<Point> {
        if self.winner.is_some() || self.is_full() {
            return Vec::new();
        }
        let s = usize::from(self.size());
        let mut out = Vec::with_capacity(s * s - self.black - self.white);
        if self.black_is_restricted() {
            let mut scratch = self.board.clone();
            out.extend(
                self.board
                    .empties()
                    .filter(|&(c, r)| forbidden_at(&mut scratch, c, r).is_none())
                    .map(|(c, r)| point(c, r)),
            );
        } else {
            self.board.push_empties(&mut out);
        }
        out
    }

    /// Black's forbidden points and why, in board order, when black is to
    /// move under Renju rules and the game goes on; empty otherwise.
    pub fn forbidden(&self) -> Vec<(Point, Forbidden)> {
        if !self.black_is_restricted() || self.winner.is_some() {
            return Vec::new();
        }
        let mut scratch = self.board.clone();
        self.board
            .empties()
            .filter_map(|(c, r)| forbidden_at(&mut scratch, c, r).map(|f| (point(c, r), f)))
            .collect()
    }

    /// Why black may not play on `p` under Renju rules, if it may not: the
    /// test behind [`Position::forbidden`] for a single empty point, whoever
    /// is to move. `None` for other rule sets, and for taken or off-board
    /// points.
    pub fn forbidden_reason(&self, p: Point) -> Option<Forbidden> {
        let (c, r) = coords(p);
        if self.variant != Variant::Renju || self.board.get(c, r) != EMPTY {
            return None;
        }
        forbidden_at(&mut self.board.clone(), c, r)
    }

    /// The position after the side to move puts a stone on `p`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] naming the point and the reason, checked in this
    /// order: the game is won, the board is full, the point is off the
    /// board, it is taken, or (Renju, black) it is forbidden, with the kind
    /// of prohibition.
    pub fn play(&self, p: Point) -> Result<Position, IllegalMove> {
        let mut next = Position {
            variant: self.variant,
            board: self.board.clone(),
            black: self.black,
            white: self.white,
            // Room for the new move at once.
            moves: self.moves.as_ref().map(|m| {
                let mut list = Vec::with_capacity(m.len() + 1);
                list.extend_from_slice(m);
                list
            }),
            last: self.last,
            winner: self.winner,
        };
        next.place(p)?;
        Ok(next)
    }

    /// [`Position::play`] in place: a line of moves (a code's move list,
    /// [`Position::from_moves`]) is replayed on one position, with no copy
    /// of the board or the move order per move. On an error the position
    /// is unchanged.
    pub(crate) fn place(&mut self, p: Point) -> Result<(), IllegalMove> {
        if let Some(winner) = self.winner {
            return Err(IllegalMove::GameWon { point: p, winner });
        }
        if self.is_full() {
            return Err(IllegalMove::BoardFull { point: p });
        }
        let size = self.size();
        if !p.is_on(size) {
            return Err(IllegalMove::OffBoard { point: p, size });
        }
        if let Some(stone) = self.stone_at(p) {
            return Err(IllegalMove::Occupied { point: p, stone });
        }
        let (c, r) = coords(p);
        if self.black_is_restricted() {
            // The board is as it was once the verdict is in.
            if let Some(why) = forbidden_at(&mut self.board, c, r) {
                return Err(IllegalMove::Forbidden { point: p, why });
            }
        }
        let stone = self.turn();
        self.board.set(c, r, stone.cell());
        let wins = (0..4).any(|dir| {
            let len = self.board.run_through(c, r, dir, stone.cell()).len;
            self.variant.wins(stone, len)
        });
        match stone {
            Stone::Black => self.black += 1,
            Stone::White => self.white += 1,
        }
        // The order is kept while it is short enough to list.
        let listed = self
            .moves
            .as_ref()
            .map(|m| m.len() < max_listed_moves(size));
        match (&mut self.moves, listed) {
            (Some(m), Some(true)) => m.push(p),
            _ => self.moves = None,
        }
        self.last = Some(p);
        self.winner = wins.then_some(stone);
        Ok(())
    }

    /// The cells in board order (row 1 first, left to right): 0 empty,
    /// 1 black, 2 white.
    pub(crate) fn cells(&self) -> impl Iterator<Item = u8> + '_ {
        let s = self.size() as i8;
        (0..s).flat_map(move |r| (0..s).map(move |c| self.board.get(c, r)))
    }
}

/// The runs of `stone` that win under `variant`.
fn winning_runs(board: &Board, variant: Variant, stone: Stone) -> Vec<Run> {
    board.runs(stone, |len| variant.wins(stone, len))
}

/// The two end points of a run.
fn ends(run: &Run) -> (Point, Point) {
    let pts = run.points();
    let first = pts.first().copied();
    let last = pts.last().copied();
    match (first, last) {
        (Some(a), Some(b)) => (a, b),
        _ => unreachable!("a run has at least one stone"),
    }
}

/// Checks that one stone of `winner` — the given last move, if any — could
/// have been the last one played: without it no winning line stands.
fn check_single_last_stone(
    board: &Board,
    variant: Variant,
    winner: Stone,
    runs: &[Run],
    last: Option<Point>,
) -> Result<(), PositionError> {
    let Some(first) = runs.first() else {
        return Ok(());
    };
    let candidates: Vec<Point> = match last {
        Some(p) => {
            let (c, r) = coords(p);
            if let Some(run) = runs.iter().find(|run| !run.covers(c, r)) {
                let (from, to) = ends(run);
                return Err(PositionError::LastMoveNotWinning {
                    winner,
                    from,
                    to,
                    last: p,
                });
            }
            vec![p]
        }
        None => first
            .points()
            .into_iter()
            .filter(|p| {
                let (c, r) = coords(*p);
                runs.iter().all(|run| run.covers(c, r))
            })
            .collect(),
    };
    let mut scratch = board.clone();
    for p in candidates {
        let (c, r) = coords(p);
        scratch.set(c, r, EMPTY);
        let clear = winning_runs(&scratch, variant, winner).is_empty();
        scratch.set(c, r, winner.cell());
        if clear {
            return Ok(());
        }
    }
    // Name a line that stays complete without the last stone (or the first).
    let culprit = match last {
        Some(p) => {
            let (c, r) = coords(p);
            scratch.set(c, r, EMPTY);
            winning_runs(&scratch, variant, winner)
                .first()
                .copied()
                .unwrap_or(*first)
        }
        None => *first,
    };
    let (from, to) = ends(&culprit);
    Err(PositionError::PlayedOnAfterWin { winner, from, to })
}

// Cell values are the stones' code digits.
const _: () = assert!(BLACK == 1 && WHITE == 2);

impl Game for Position {
    const KIND: GameKind = GameKind::Gomoku;
    type Action = Point;
    type ParseActionError = ParsePointError;
    type Player = Stone;
    type CodeError = CodeError;
    type IllegalAction = IllegalMove;
    type Trace = ();

    fn from_code(code: &str) -> Result<Self, CodeError> {
        Position::from_code(code)
    }

    fn to_code(&self) -> String {
        Position::to_code(self)
    }

    fn to_move(&self) -> Stone {
        self.turn()
    }

    fn legal_actions(&self) -> Vec<Point> {
        Position::legal_actions(self)
    }

    fn play(&self, action: Point) -> Result<Self, IllegalMove> {
        Position::play(self, action)
    }

    fn play_traced(&self, action: Point) -> Result<(Self, ()), IllegalMove> {
        Position::play(self, action).map(|next| (next, ()))
    }

    fn status(&self) -> Status<Stone> {
        Position::status(self)
    }
}
