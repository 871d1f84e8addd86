//! The checked position, its validation, and the move generator.
//!
//! A [`Setup`] is any arrangement of pieces; a [`Position`] is one that can
//! arise in a game and is only built through [`Position::from_setup`], which
//! names the first thing wrong. The board keeps, for every point, which of the
//! 32 piece slots stands there, and every slot keeps its point; the slots are
//! the state code's (red general, advisors, elephants, horses, chariots,
//! cannons, soldiers, then black in the same order).

mod movegen;

use movegen::RawMove;

use super::code::CodeError;
use super::tables::{HORSE_ATTACKERS, NONE, RAYS};
use super::types::ParseMoveError;
use super::types::{Move, Piece, Role, Side, Square};
use crate::{EndReason, Game, GameKind, Reason, Status};

/// The "captured" value of a slot, as in the state code.
pub(crate) const CAPTURED: u8 = 90;

/// First slot of each role within a side's 16 slots, and one past the last.
pub(crate) const fn slot_range(role: Role) -> (usize, usize) {
    match role {
        Role::General => (0, 1),
        Role::Advisor => (1, 3),
        Role::Elephant => (3, 5),
        Role::Horse => (5, 7),
        Role::Chariot => (7, 9),
        Role::Cannon => (9, 11),
        Role::Soldier => (11, 16),
    }
}

/// The piece that owns each of the 32 slots.
pub(crate) const SLOT_PIECE: [Piece; 32] = {
    let mut t = [Piece {
        side: Side::Red,
        role: Role::General,
    }; 32];
    let mut i = 0;
    while i < 32 {
        let side = if i < 16 { Side::Red } else { Side::Black };
        let role = match i % 16 {
            0 => Role::General,
            1 | 2 => Role::Advisor,
            3 | 4 => Role::Elephant,
            5 | 6 => Role::Horse,
            7 | 8 => Role::Chariot,
            9 | 10 => Role::Cannon,
            _ => Role::Soldier,
        };
        t[i] = Piece { side, role };
        i += 1;
    }
    t
};

/// Board cell values: 0 is empty, otherwise slot + 1. These constants give the
/// role of a cell value without a table look-up through `Piece`.
const CELL_ROLE: [u8; 33] = {
    let mut t = [0u8; 33];
    let mut i = 0;
    while i < 32 {
        t[i + 1] = SLOT_PIECE[i].role as u8;
        i += 1;
    }
    t
};

const R_GENERAL: u8 = Role::General as u8;
const R_HORSE: u8 = Role::Horse as u8;
const R_CHARIOT: u8 = Role::Chariot as u8;
const R_CANNON: u8 = Role::Cannon as u8;
const R_SOLDIER: u8 = Role::Soldier as u8;

/// Whether a non-empty cell value belongs to `side`.
#[inline(always)]
fn cell_side_is(cell: u8, side: Side) -> bool {
    match side {
        Side::Red => cell <= 16,
        Side::Black => cell > 16,
    }
}

/// An unchecked arrangement: a piece or nothing on every point, and the side
/// to move. Anything can be written here; [`Position::from_setup`] checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The pieces, indexed by [`Square::index`].
    pub board: [Option<Piece>; 90],
    /// The side to move.
    pub turn: Side,
}

impl Setup {
    /// An empty board with red to move.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            turn: Side::Red,
        }
    }
}

/// What makes a [`Setup`] impossible in a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// More pieces of one kind than a side owns.
    #[error("{side} has {count} {role}s, at most {max} are possible")]
    TooManyPieces {
        /// Whose pieces.
        side: Side,
        /// Which kind.
        role: Role,
        /// How many were found.
        count: usize,
        /// How many a side owns.
        max: usize,
    },
    /// A side has no general.
    #[error("{side} has no general")]
    MissingGeneral {
        /// The side without a general.
        side: Side,
    },
    /// A piece stands where no move could ever have taken it.
    #[error("{piece} on {square} (square {index}) stands on a point it can never reach: {why}", index = square.index())]
    ImpossiblePoint {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
        /// Which points the piece may stand on.
        why: &'static str,
    },
    /// The two generals face each other on an open file.
    #[error("the generals face each other on the open {file} file", file = (b'a' + file) as char)]
    GeneralsFacing {
        /// The file, 0 = `a`.
        file: u8,
    },
    /// The side that has just moved left its general attacked.
    #[error("{side} is not to move but its general is in check")]
    OpponentInCheck {
        /// The side not to move.
        side: Side,
    },
}

impl Reason for PositionError {
    fn reason(&self) -> &'static str {
        match self {
            PositionError::TooManyPieces { .. } => "too-many-pieces",
            PositionError::MissingGeneral { .. } => "missing-general",
            PositionError::ImpossiblePoint { .. } => "impossible-point",
            PositionError::GeneralsFacing { .. } => "generals-facing",
            PositionError::OpponentInCheck { .. } => "opponent-in-check",
        }
    }
}

/// Why a move cannot be played in a position, in the order the checks are
/// made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// No piece stands on the move's origin.
    #[error("{mv}: no piece on {from}", from = mv.from)]
    NoPiece {
        /// The move asked for.
        mv: Move,
    },
    /// The piece on the origin belongs to the side not to move.
    #[error("{mv}: the {piece} on {from} is not {turn}'s to move", from = mv.from)]
    NotYourPiece {
        /// The move asked for.
        mv: Move,
        /// The piece on the origin.
        piece: Piece,
        /// The side to move.
        turn: Side,
    },
    /// The piece does not move that way, or something stands in its way
    /// (a leg, an eye, a screen, its own piece).
    #[error("{mv}: a {role} on {from} cannot move to {to}", role = piece.role, from = mv.from, to = mv.to)]
    CannotReach {
        /// The move asked for.
        mv: Move,
        /// The piece on the origin.
        piece: Piece,
    },
    /// The move would leave the mover's general attacked, or facing the
    /// other general on an open file.
    #[error("{mv}: it would leave the {side} general attacked")]
    LeavesGeneralInCheck {
        /// The move asked for.
        mv: Move,
        /// The side that moves.
        side: Side,
    },
}

impl Reason for IllegalMove {
    fn reason(&self) -> &'static str {
        match self {
            IllegalMove::NoPiece { .. } => "no-piece",
            IllegalMove::NotYourPiece { .. } => "not-your-piece",
            IllegalMove::CannotReach { .. } => "cannot-reach",
            IllegalMove::LeavesGeneralInCheck { .. } => "leaves-general-in-check",
        }
    }
}

/// Where a piece may ever stand, or why not.
pub(crate) fn placement_problem(piece: Piece, sq: Square) -> Option<&'static str> {
    let (f, r) = (sq.file(), sq.row());
    let ok = match piece.role {
        Role::General => sq.in_palace_of(piece.side),
        Role::Advisor => {
            sq.in_palace_of(piece.side)
                && match piece.side {
                    Side::Red => (f + r) % 2 == 0,
                    Side::Black => (f + r) % 2 == 1,
                }
        }
        Role::Elephant => {
            let home = match piece.side {
                Side::Red => [9u8, 7, 5],
                Side::Black => [0u8, 2, 4],
            };
            (r == home[0] || r == home[2]) && (f == 2 || f == 6)
                || r == home[1] && (f == 0 || f == 4 || f == 8)
        }
        Role::Soldier => match piece.side {
            Side::Red => r <= 4 || ((r == 5 || r == 6) && f % 2 == 0),
            Side::Black => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        },
        Role::Horse | Role::Chariot | Role::Cannon => true,
    };
    if ok {
        return None;
    }
    Some(match (piece.role, piece.side) {
        (Role::General, Side::Red) => "a red general stays inside its palace, d0–f2",
        (Role::General, Side::Black) => "a black general stays inside its palace, d7–f9",
        (Role::Advisor, Side::Red) => "a red advisor stands only on d0, f0, e1, d2 or f2",
        (Role::Advisor, Side::Black) => "a black advisor stands only on d9, f9, e8, d7 or f7",
        (Role::Elephant, Side::Red) => {
            "a red elephant stands only on c0, g0, a2, e2, i2, c4 or g4"
        }
        (Role::Elephant, Side::Black) => {
            "a black elephant stands only on c9, g9, a7, e7, i7, c5 or g5"
        }
        (Role::Soldier, Side::Red) => {
            "a red soldier never goes back: it stands on ranks 3–4 only on files a, c, e, g, i, and never below rank 3"
        }
        (Role::Soldier, Side::Black) => {
            "a black soldier never goes back: it stands on ranks 5–6 only on files a, c, e, g, i, and never above rank 6"
        }
        (Role::Horse | Role::Chariot | Role::Cannon, _) => "",
    })
}

/// A xiangqi position that can arise in a game: one general per side inside
/// its palace, every piece on a point it can reach, the generals not facing
/// each other, and the side that has just moved not in check.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cell values: 0 empty, else slot + 1.
    board: [u8; 90],
    /// The point of every slot, or [`CAPTURED`]. Same-role slots of a side
    /// are kept in ascending order of point by [`Position::canonicalize`].
    slots: [u8; 32],
    turn: Side,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// A point from a value the tables or the board proved to be below 90.
#[inline(always)]
fn sq(v: u8) -> Square {
    debug_assert!(v < 90);
    Square::new(v).unwrap_or_else(|| unreachable!("board values are below 90"))
}

impl Position {
    /// The start position, red to move.
    pub fn start() -> Position {
        Position::from_slots(super::code::START_SLOTS, Side::Red)
            .unwrap_or_else(|_| unreachable!("the start position is valid"))
    }

    /// Checks a setup and builds the position.
    ///
    /// # Errors
    ///
    /// The first [`PositionError`] found, in the order: piece counts,
    /// missing generals, impossible points, facing generals, the side not to
    /// move in check.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut slots = [CAPTURED; 32];
        let mut next = [[0usize; 7]; 2];
        for s in Square::all() {
            let Some(piece) = setup.board[s.index()] else {
                continue;
            };
            let (lo, hi) = slot_range(piece.role);
            let n = &mut next[piece.side.index()][piece.role as usize];
            if lo + *n >= hi {
                let count = Square::all()
                    .filter(|t| setup.board[t.index()] == Some(piece))
                    .count();
                return Err(PositionError::TooManyPieces {
                    side: piece.side,
                    role: piece.role,
                    count,
                    max: piece.role.count(),
                });
            }
            slots[piece.side.index() * 16 + lo + *n] = s.value();
            *n += 1;
        }
        Position::from_slots(slots, setup.turn)
    }

    /// Builds a position from the 32 slot values (no two on one point, all
    /// at most 90), checking everything else.
    pub(crate) fn from_slots(slots: [u8; 32], turn: Side) -> Result<Position, PositionError> {
        for side in Side::ALL {
            if slots[side.index() * 16] == CAPTURED {
                return Err(PositionError::MissingGeneral { side });
            }
        }
        let mut board = [0u8; 90];
        for (i, &v) in slots.iter().enumerate() {
            if v == CAPTURED {
                continue;
            }
            let piece = SLOT_PIECE[i];
            let square = sq(v);
            if let Some(why) = placement_problem(piece, square) {
                return Err(PositionError::ImpossiblePoint { piece, square, why });
            }
            board[v as usize] = i as u8 + 1;
        }
        let mut pos = Position { board, slots, turn };
        pos.canonicalize();
        let red = pos.general(Side::Red);
        let black = pos.general(Side::Black);
        if red.file() == black.file()
            && (black.row() + 1..red.row()).all(|r| pos.board[(r * 9 + red.file()) as usize] == 0)
        {
            return Err(PositionError::GeneralsFacing { file: red.file() });
        }
        if pos.general_attacked(turn.opponent()) {
            return Err(PositionError::OpponentInCheck {
                side: turn.opponent(),
            });
        }
        Ok(pos)
    }

    /// Re-sorts same-role slots by ascending point (captured last), so that
    /// one position has one slot layout and hence one code.
    fn canonicalize(&mut self) {
        for side in 0..2 {
            for role in Role::ALL {
                let (lo, hi) = slot_range(role);
                self.slots[side * 16 + lo..side * 16 + hi].sort_unstable();
            }
        }
        for (i, &v) in self.slots.iter().enumerate() {
            if v != CAPTURED {
                self.board[v as usize] = i as u8 + 1;
            }
        }
    }

    /// The 32 slot values of the state code (point, or 90 when captured).
    pub(crate) fn slots(&self) -> [u8; 32] {
        self.slots
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The piece on a point.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        match self.board[square.index()] {
            0 => None,
            c => Some(SLOT_PIECE[c as usize - 1]),
        }
    }

    /// Every piece on the board with its point, in code order of points.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// Where `side`'s general stands.
    pub fn general(&self, side: Side) -> Square {
        sq(self.slots[side.index() * 16])
    }

    /// The unchecked form of this position.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for (s, p) in self.pieces() {
            setup.board[s.index()] = Some(p);
        }
        setup.turn = self.turn;
        setup
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.general_attacked(self.turn)
    }

    /// Whether `side`'s general is attacked by a chariot, cannon, horse or
    /// soldier of the other side, or faces the other general on an open
    /// file. (Advisors and elephants never leave their own half, so they
    /// cannot reach a general.) It looks along every line from the general
    /// and at every horse and soldier point around it, with no knowledge of
    /// the move that led here: the plain definition that [`Position::play`]
    /// applies and the generator's quick legality is tested against.
    pub(crate) fn general_attacked(&self, side: Side) -> bool {
        let k = self.slots[side.index() * 16] as usize;
        let them = side.opponent();
        let b = &self.board;
        for (dir, ray) in RAYS[k].iter().enumerate() {
            let mut i = 0;
            while ray[i] != NONE && b[ray[i] as usize] == 0 {
                i += 1;
            }
            if ray[i] == NONE {
                continue;
            }
            let c = b[ray[i] as usize];
            if cell_side_is(c, them) {
                let role = CELL_ROLE[c as usize];
                if role == R_CHARIOT || (role == R_GENERAL && dir < 2) {
                    return true;
                }
            }
            i += 1;
            while ray[i] != NONE && b[ray[i] as usize] == 0 {
                i += 1;
            }
            if ray[i] != NONE {
                let c = b[ray[i] as usize];
                if cell_side_is(c, them) && CELL_ROLE[c as usize] == R_CANNON {
                    return true;
                }
            }
        }
        for &[h, leg] in &HORSE_ATTACKERS[k] {
            if h == NONE {
                break;
            }
            let c = b[h as usize];
            if c != 0
                && cell_side_is(c, them)
                && CELL_ROLE[c as usize] == R_HORSE
                && b[leg as usize] == 0
            {
                return true;
            }
        }
        // A soldier attacks the point ahead of it and, once across the
        // river, the points beside it. A general's palace is across the
        // river for the enemy's soldiers, so beside always counts here.
        let ahead_of_them: isize = match them {
            Side::Red => 9,
            Side::Black => -9,
        };
        let soldier_at = |s: isize| -> bool {
            (0..90).contains(&s) && {
                let c = b[s as usize];
                c != 0 && cell_side_is(c, them) && CELL_ROLE[c as usize] == R_SOLDIER
            }
        };
        let ki = k as isize;
        if soldier_at(ki + ahead_of_them) {
            return true;
        }
        let f = k % 9;
        (f > 0 && soldier_at(ki - 1)) || (f < 8 && soldier_at(ki + 1))
    }

    /// Every legal move of the side to move, ordered by piece slot (the code's
    /// piece order) and then by direction.
    pub fn legal_actions(&self) -> Vec<Move> {
        let mut scratch = self.clone();
        scratch
            .legal_list()
            .as_slice()
            .iter()
            .map(|m| m.public())
            .collect()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.play(m).is_ok()
    }

    /// The position after `m`.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] naming the move and why it is refused, checked in
    /// this order: no piece on the origin, a piece of the side not to move,
    /// a destination the piece cannot reach, a general left attacked.
    /// The last is judged by playing the move and looking for any attack
    /// on the general, not by the generator's shortcuts.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        let Some(piece) = self.piece_at(m.from) else {
            return Err(IllegalMove::NoPiece { mv: m });
        };
        if piece.side != self.turn {
            return Err(IllegalMove::NotYourPiece {
                mv: m,
                piece,
                turn: self.turn,
            });
        }
        if !self.reaches(piece.role, m.from.value(), m.to.value()) {
            return Err(IllegalMove::CannotReach { mv: m, piece });
        }
        let mut scratch = self.clone();
        scratch.make(RawMove::from(m));
        if scratch.general_attacked(self.turn) {
            return Err(IllegalMove::LeavesGeneralInCheck {
                mv: m,
                side: self.turn,
            });
        }
        scratch.canonicalize();
        Ok(scratch)
    }

    /// Perft, making and unmaking moves in place; the last ply only counts
    /// the legal moves (bulk counting), mostly without playing them.
    pub fn perft_count(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut scratch = self.clone();
        scratch.perft_inner(depth)
    }

    /// Perft split by the first move, in [`Position::legal_actions`] order.
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let mut scratch = self.clone();
        let list = scratch.legal_list();
        list.as_slice()
            .iter()
            .map(|&m| {
                let captured = scratch.make(m);
                let n = if depth <= 1 {
                    1
                } else {
                    scratch.perft_inner(depth - 1)
                };
                scratch.unmake(m, captured);
                (m.public(), n)
            })
            .collect()
    }

    /// How the game stands: a side with no legal move has lost, by
    /// checkmate when in check and by stalemate otherwise. The search stops
    /// at the first legal move, so an ongoing game answers quickly.
    pub fn status(&self) -> Status<Side> {
        let mut scratch = self.clone();
        if scratch.has_legal_move() {
            return Status::Ongoing;
        }
        let reason = if self.is_check() {
            EndReason::Checkmate
        } else {
            EndReason::Stalemate
        };
        Status::Won {
            winner: self.turn.opponent(),
            reason,
        }
    }
}

impl Game for Position {
    const KIND: GameKind = GameKind::Xiangqi;
    type Action = Move;
    type ParseActionError = ParseMoveError;
    type Player = Side;
    type CodeError = CodeError;
    type IllegalAction = IllegalMove;
    type Trace = ();

    fn from_code(code: &str) -> Result<Self, CodeError> {
        Position::from_code(code)
    }

    fn to_code(&self) -> String {
        Position::to_code(self)
    }

    fn to_move(&self) -> Side {
        self.turn
    }

    fn legal_actions(&self) -> Vec<Move> {
        Position::legal_actions(self)
    }

    fn play(&self, action: Move) -> Result<Self, IllegalMove> {
        Position::play(self, action)
    }

    fn play_traced(&self, action: Move) -> Result<(Self, ()), IllegalMove> {
        Position::play(self, action).map(|next| (next, ()))
    }

    fn status(&self) -> Status<Side> {
        Position::status(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_count(depth)
    }
}
