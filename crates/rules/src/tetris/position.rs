//! The position: field, active piece, hold, queue, bag and generator, score;
//! what every action does, locking, line clears, T-spins and top-out.

use super::board::{Board, Piece, HEIGHT, VISIBLE, WIDTH};
use super::code::CodeError;
use super::srs::kicks;
use super::types::{Action, Cells, Kind, Lock, ParseActionError, Rotation, TSpin};
use crate::rng::SplitMix64;
use crate::{EndReason, Game, GameKind, Reason, Solo, Status};

/// Length of the preview queue.
pub const QUEUE_LEN: usize = 5;

/// How the last successful move of the active piece was made, for the
/// T-spin rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum LastMove {
    /// A shift, a drop, or nothing yet since the piece appeared.
    Other,
    /// A rotation that used kick test 1–4.
    Rotation,
    /// A rotation that used kick test 5 (the T-spin triple kick), which
    /// makes a three-corner T-spin full even with one front corner open.
    RotationKick5,
}

impl LastMove {
    pub(crate) fn index(self) -> u8 {
        match self {
            LastMove::Other => 0,
            LastMove::Rotation => 1,
            LastMove::RotationKick5 => 2,
        }
    }
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TopOut {
    /// The next piece overlapped the stack where it appears.
    BlockOut,
    /// A piece locked with all four cells above the visible field.
    LockOut,
}

impl TopOut {
    pub(crate) fn reason(self) -> EndReason {
        match self {
            TopOut::BlockOut => EndReason::BlockOut,
            TopOut::LockOut => EndReason::LockOut,
        }
    }
}

/// What is left of the current bag, in the order it will be dealt; the
/// slots past `len` hold I.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Bag {
    pub(crate) kinds: [Kind; 6],
    pub(crate) len: u8,
}

impl Bag {
    pub(crate) const EMPTY: Bag = Bag {
        kinds: [Kind::I; 6],
        len: 0,
    };

    pub(crate) fn as_slice(&self) -> &[Kind] {
        &self.kinds[..usize::from(self.len)]
    }

    /// The next piece: the front of the bag, or, when it is empty, the first
    /// of a fresh bag shuffled by the generator (see the module docs).
    pub(crate) fn deal(&mut self, rng: &mut SplitMix64) -> Kind {
        if self.len == 0 {
            let mut fresh = Kind::ALL;
            for i in (1..fresh.len()).rev() {
                // i + 1 ≤ 7, so the draw is an index into `fresh`.
                let j = rng.below(i as u32 + 1) as usize;
                fresh.swap(i, j);
            }
            self.kinds.copy_from_slice(&fresh[1..]);
            self.len = 6;
            return fresh[0];
        }
        let first = self.kinds[0];
        self.kinds.copy_within(1.., 0);
        // Slots past the end hold I, so equal bags compare equal.
        self.kinds[5] = Kind::I;
        self.len -= 1;
        first
    }
}

/// Why a readable setup (or a requested piece placement) does not make a
/// position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// More rows than the field has.
    #[error("{count} rows given, but the field has {HEIGHT} (20 visible, 20 hidden above)")]
    TooManyRows {
        /// The number of rows given.
        count: usize,
    },
    /// A row that is not 10 cells long.
    #[error(
        "row {row} (counting from the top of the rows given) has {length} cells; a row has {WIDTH}"
    )]
    RowLength {
        /// Index in the rows given, top first.
        row: usize,
        /// Its length in characters.
        length: usize,
    },
    /// A character other than `X` and `.`.
    #[error("row {row}, column {col}: {character:?} is not a cell; write X (filled) or . (empty)")]
    BadCell {
        /// Index in the rows given, top first.
        row: usize,
        /// Column, 0 = left.
        col: usize,
        /// The character found.
        character: char,
    },
    /// A full row, which the game would have cleared.
    #[error("row {row} (counting from the top of the rows given) is full; full rows are cleared as they are made")]
    FullRow {
        /// Index in the rows given, top first.
        row: usize,
    },
    /// More than five pieces in the queue.
    #[error("the queue has {length} pieces; it shows at most {QUEUE_LEN}")]
    QueueTooLong {
        /// The number given.
        length: usize,
    },
    /// A level below the one the lines have reached.
    #[error(
        "level {level} is below {least}, the level {lines} cleared lines reach (lines / 10 + 1)"
    )]
    LevelTooLow {
        /// The level given.
        level: u32,
        /// The lines given.
        lines: u32,
        /// The least level allowed.
        least: u32,
    },
    /// The piece overlaps the stack where it appears.
    #[error("{kind} cannot appear: its spawn cells overlap the stack (that is a block out)")]
    SpawnBlocked {
        /// The piece.
        kind: Kind,
    },
    /// A requested placement that leaves the field or overlaps the stack.
    #[error("{kind} in state {rotation} with its box at column {col}, row {row} leaves the field or overlaps the stack")]
    PieceCollides {
        /// The piece.
        kind: Kind,
        /// The state asked for.
        rotation: Rotation,
        /// Column of the box's left edge.
        col: i8,
        /// Row of the box's top edge, from the bottom.
        row: i8,
    },
    /// The game is over, so there is no piece to place.
    #[error("the game is over: there is no active piece")]
    GameOver,
}

impl Reason for SetupError {
    fn reason(&self) -> &'static str {
        match self {
            SetupError::TooManyRows { .. } => "too-many-rows",
            SetupError::RowLength { .. } => "row-length",
            SetupError::BadCell { .. } => "invalid-character",
            SetupError::FullRow { .. } => "full-row",
            SetupError::QueueTooLong { .. } => "queue-too-long",
            SetupError::LevelTooLow { .. } => "level-too-low",
            SetupError::SpawnBlocked { .. } => "spawn-blocked",
            SetupError::PieceCollides { .. } => "piece-collides",
            SetupError::GameOver => "game-over",
        }
    }
}

/// Why an action cannot be played. Each refusal of an action that would
/// change nothing lists the actions that are legal instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// The game has topped out.
    #[error("{action}: the game is over ({reason})")]
    GameOver {
        /// The action asked for.
        action: Action,
        /// How the game ended: block out or lock out.
        reason: EndReason,
    },
    /// A shift into the wall or the stack.
    #[error(
        "{action}: the wall or the stack is in the way; legal actions: {}",
        names(legal)
    )]
    Blocked {
        /// The action asked for.
        action: Action,
        /// The legal actions, in [`Action::ALL`] order.
        legal: Vec<Action>,
    },
    /// A rotation of O, which has one state.
    #[error("{action}: O does not rotate; legal actions: {}", names(legal))]
    ODoesNotRotate {
        /// The action asked for.
        action: Action,
        /// The legal actions, in [`Action::ALL`] order.
        legal: Vec<Action>,
    },
    /// A rotation none of whose five kick tests fits.
    #[error("{action}: no kick test fits; legal actions: {}", names(legal))]
    NoKickFits {
        /// The action asked for.
        action: Action,
        /// The legal actions, in [`Action::ALL`] order.
        legal: Vec<Action>,
    },
    /// A soft drop of a piece that rests on the stack or the floor.
    #[error(
        "{action}: the piece rests on the stack (hard or tick locks it); legal actions: {}",
        names(legal)
    )]
    Resting {
        /// The action asked for.
        action: Action,
        /// The legal actions, in [`Action::ALL`] order.
        legal: Vec<Action>,
    },
    /// A second hold before the piece locked.
    #[error(
        "{action}: hold was already used for this piece; legal actions: {}",
        names(legal)
    )]
    HoldUsed {
        /// The action asked for.
        action: Action,
        /// The legal actions, in [`Action::ALL`] order.
        legal: Vec<Action>,
    },
}

/// `left, right, hard` for the messages of [`IllegalAction`].
fn names(actions: &[Action]) -> String {
    let names: Vec<&str> = actions.iter().map(|a| a.as_str()).collect();
    names.join(", ")
}

impl Reason for IllegalAction {
    fn reason(&self) -> &'static str {
        match self {
            IllegalAction::GameOver { .. } => "game-over",
            IllegalAction::Blocked { .. } => "blocked",
            IllegalAction::ODoesNotRotate { .. } => "o-does-not-rotate",
            IllegalAction::NoKickFits { .. } => "no-kick-fits",
            IllegalAction::Resting { .. } => "piece-resting",
            IllegalAction::HoldUsed { .. } => "hold-used",
        }
    }
}

/// The readable form of a position (what [`Position::from_setup`] reads and
/// [`Position::to_setup`] writes).
///
/// It leaves out what only a game in progress has: where the active piece
/// is (a setup piece is at its spawn place), whether hold was used, the
/// last-rotation flag and the rest of the bag (pieces after the queue come
/// from fresh bags of the seed). The code keeps all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Rows top first, bottom-aligned (the last is row 0), `X` or `.`:
    /// at least the 20 visible rows, more when the hidden rows hold cells.
    pub rows: Vec<String>,
    /// The active piece.
    pub piece: Kind,
    /// The preview, next first.
    pub queue: Vec<Kind>,
    /// The held piece.
    pub hold: Option<Kind>,
    /// The generator state.
    pub seed: u64,
    /// The score.
    pub score: u64,
    /// Lines cleared.
    pub lines: u32,
    /// The level; `None` for `lines / 10 + 1`. [`Position::to_setup`]
    /// always writes it.
    pub level: Option<u32>,
}

/// A Tetris position. Every `Position` is consistent: no full row, the
/// active piece inside the field on empty cells (while the game goes on),
/// hold used only with a held piece, a level at least `lines / 10 + 1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    /// The active piece; once the game is over, the piece that could not
    /// appear (block out) or that locked out, in its spawn place.
    pub(crate) piece: Piece,
    pub(crate) hold: Option<Kind>,
    pub(crate) hold_used: bool,
    pub(crate) queue: [Kind; QUEUE_LEN],
    pub(crate) bag: Bag,
    pub(crate) rng: u64,
    pub(crate) score: u64,
    pub(crate) lines: u32,
    pub(crate) level: u32,
    pub(crate) last: LastMove,
    pub(crate) over: Option<TopOut>,
}

/// The piece as it appears: at its spawn place, then one row down when that
/// row is free. `None` when the spawn place overlaps the stack.
pub(crate) fn appear(board: &Board, kind: Kind) -> Option<Piece> {
    let p = Piece::spawn(kind);
    if !board.fits(p) {
        return None;
    }
    let down = p.shifted(0, -1);
    Some(if board.fits(down) { down } else { p })
}

/// The piece turned one quarter (with kicks), and whether test 5 was used.
#[inline]
pub(crate) fn rotate(board: &Board, piece: Piece, clockwise: bool) -> Option<(Piece, LastMove)> {
    let tests = kicks(piece.kind, piece.rot, clockwise)?;
    let rot = if clockwise {
        piece.rot.cw()
    } else {
        piece.rot.ccw()
    };
    let turned = Piece { rot, ..piece };
    tests.iter().enumerate().find_map(|(i, &(dx, dy))| {
        let p = turned.shifted(dx, dy);
        board.fits(p).then_some((
            p,
            if i == 4 {
                LastMove::RotationKick5
            } else {
                LastMove::Rotation
            },
        ))
    })
}

/// How far the piece falls before it rests.
#[inline]
pub(crate) fn drop_distance(board: &Board, piece: Piece) -> i8 {
    let mut d = 0;
    while board.fits(piece.shifted(0, -(d + 1))) {
        d += 1;
    }
    d
}

/// The T-spin a lock of `piece` makes, by the three-corner rule: the last
/// move was a rotation and at least three of the four cells diagonal to the
/// T's centre are walls, floor or stack. It is full when both corners on
/// the side the T points to are taken, or when the rotation used kick test 5;
/// otherwise mini.
pub(crate) fn tspin(board: &Board, piece: Piece, last: LastMove) -> Option<TSpin> {
    if piece.kind != Kind::T || last == LastMove::Other {
        return None;
    }
    // The centre is box cell (1, 1).
    let (cx, cy) = (piece.x + 1, piece.y - 1);
    let taken = |dx: i8, dy: i8| board.blocked(cx + dx, cy + dy);
    // Corners: up-left, up-right, down-right, down-left.
    let corners = [taken(-1, 1), taken(1, 1), taken(1, -1), taken(-1, -1)];
    if corners.iter().filter(|&&c| c).count() < 3 {
        return None;
    }
    let front = match piece.rot {
        Rotation::Spawn => [corners[0], corners[1]],
        Rotation::Right => [corners[1], corners[2]],
        Rotation::Reverse => [corners[2], corners[3]],
        Rotation::Left => [corners[3], corners[0]],
    };
    if front[0] && front[1] || last == LastMove::RotationKick5 {
        Some(TSpin::Full)
    } else {
        Some(TSpin::Mini)
    }
}

/// Points of a lock before the level factor: by lines cleared, for no spin,
/// a mini T-spin and a full T-spin.
pub(crate) fn base_points(lines: u8, spin: Option<TSpin>) -> u32 {
    const PLAIN: [u32; 5] = [0, 100, 300, 500, 800];
    const MINI: [u32; 3] = [100, 200, 400];
    const FULL: [u32; 4] = [400, 800, 1200, 1600];
    let l = usize::from(lines);
    match spin {
        Some(TSpin::Full) => FULL.get(l).copied().unwrap_or(0),
        Some(TSpin::Mini) => MINI.get(l).copied().unwrap_or(0),
        None => PLAIN.get(l).copied().unwrap_or(0),
    }
}

impl Position {
    /// A new game: an empty field, the first piece and five more in the
    /// queue dealt from bags shuffled by the generator seeded with `seed`.
    pub fn new(seed: u64) -> Position {
        let mut rng = SplitMix64(seed);
        let mut bag = Bag::EMPTY;
        let first = bag.deal(&mut rng);
        let queue = [(); QUEUE_LEN].map(|()| bag.deal(&mut rng));
        let board = Board::EMPTY;
        let piece = appear(&board, first).expect("an empty field has room for any piece");
        Position {
            board,
            piece,
            hold: None,
            hold_used: false,
            queue,
            bag,
            rng: rng.0,
            score: 0,
            lines: 0,
            level: 1,
            last: LastMove::Other,
            over: None,
        }
    }

    /// A position from its readable form: rows top first and bottom-aligned
    /// (the last string is row 0, rows not given are empty; `X` filled, `.`
    /// empty; up to 40 rows, the hidden ones included), the active piece at
    /// its spawn place, up to five queued pieces (the rest dealt from fresh
    /// bags of the seed), the held piece, the score, lines and level.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] naming the row, cell or field at fault, or
    /// [`SetupError::SpawnBlocked`] when the piece has no room to appear.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let Setup {
            ref rows,
            piece,
            ref queue,
            hold,
            seed,
            score,
            lines,
            level,
        } = *setup;
        if rows.len() > HEIGHT {
            return Err(SetupError::TooManyRows { count: rows.len() });
        }
        let mut board = Board::EMPTY;
        for (i, text) in rows.iter().enumerate() {
            let length = text.chars().count();
            if length != WIDTH {
                return Err(SetupError::RowLength { row: i, length });
            }
            let mut mask = 0u16;
            for (col, character) in text.chars().enumerate() {
                match character {
                    'X' => mask |= 1 << col,
                    '.' => {}
                    _ => {
                        return Err(SetupError::BadCell {
                            row: i,
                            col,
                            character,
                        })
                    }
                }
            }
            if mask == super::board::FULL {
                return Err(SetupError::FullRow { row: i });
            }
            board.rows[rows.len() - 1 - i] = mask;
        }
        if queue.len() > QUEUE_LEN {
            return Err(SetupError::QueueTooLong {
                length: queue.len(),
            });
        }
        let least = lines / 10 + 1;
        let level = level.unwrap_or(least);
        if level < least {
            return Err(SetupError::LevelTooLow {
                level,
                lines,
                least,
            });
        }
        let mut rng = SplitMix64(seed);
        let mut bag = Bag::EMPTY;
        let mut full = [Kind::I; QUEUE_LEN];
        for (i, slot) in full.iter_mut().enumerate() {
            *slot = match queue.get(i) {
                Some(&k) => k,
                None => bag.deal(&mut rng),
            };
        }
        let active = appear(&board, piece).ok_or(SetupError::SpawnBlocked { kind: piece })?;
        Ok(Position {
            board,
            piece: active,
            hold,
            hold_used: false,
            queue: full,
            bag,
            rng: rng.0,
            score,
            lines,
            level,
            last: LastMove::Other,
            over: None,
        })
    }

    /// The readable form (see [`Setup`] for what it leaves out).
    pub fn to_setup(&self) -> Setup {
        let height = self.board.height().max(VISIBLE);
        Setup {
            rows: (0..height).rev().map(|r| self.board.row_text(r)).collect(),
            piece: self.piece.kind,
            queue: self.queue.to_vec(),
            hold: self.hold,
            seed: self.rng,
            score: self.score,
            lines: self.lines,
            level: Some(self.level),
        }
    }

    /// The same position with the active piece moved to `rotation` with its
    /// SRS box's top-left corner at column `col`, row `row` (rows from the
    /// bottom; see the module docs for the boxes). The last-rotation flag is
    /// cleared. Meant for tests, puzzles and bots.
    ///
    /// # Errors
    ///
    /// [`SetupError::PieceCollides`] when the piece would leave the field or
    /// overlap the stack, [`SetupError::GameOver`] when there is no piece.
    pub fn with_piece(&self, rotation: Rotation, col: i8, row: i8) -> Result<Position, SetupError> {
        if self.over.is_some() {
            return Err(SetupError::GameOver);
        }
        let kind = self.piece.kind;
        // O has one state (see the module docs).
        let rot = if kind == Kind::O {
            Rotation::Spawn
        } else {
            rotation
        };
        let p = Piece {
            kind,
            rot,
            x: col,
            y: row,
        };
        // Far outside the field no piece fits; checking the range first
        // keeps the cell arithmetic within `i8`.
        if !(-3..=12).contains(&col) || !(0..=50).contains(&row) || !self.board.fits(p) {
            return Err(SetupError::PieceCollides {
                kind,
                rotation,
                col,
                row,
            });
        }
        Ok(Position {
            piece: p,
            last: LastMove::Other,
            ..self.clone()
        })
    }

    /// The 20 visible rows, top first, `X` filled and `.` empty, without the
    /// active piece.
    pub fn rows(&self) -> Vec<String> {
        (0..VISIBLE).rev().map(|r| self.board.row_text(r)).collect()
    }

    /// The 20 visible rows without the active piece, top first as in
    /// [`Position::rows`]: `field()[i][col]` is whether cell `(col, 19 - i)`
    /// is filled.
    pub fn field(&self) -> [[bool; WIDTH]; VISIBLE] {
        let mut out = [[false; WIDTH]; VISIBLE];
        for (i, row) in out.iter_mut().enumerate() {
            let mask = self.board.rows[VISIBLE - 1 - i];
            for (col, cell) in row.iter_mut().enumerate() {
                *cell = mask >> col & 1 == 1;
            }
        }
        out
    }

    /// Whether `(col, row)` (row 0 at the bottom, up to 39) is filled; `None`
    /// outside the field.
    pub fn cell(&self, col: u8, row: u8) -> Option<bool> {
        let (c, r) = (usize::from(col), usize::from(row));
        (c < WIDTH && r < HEIGHT).then(|| self.board.rows[r] >> c & 1 == 1)
    }

    /// The active piece, its state and its cells (ascending `(col, row)`,
    /// row 0 at the bottom); `None` once the game is over.
    pub fn piece(&self) -> Option<(Kind, Rotation, Cells)> {
        self.over
            .is_none()
            .then(|| (self.piece.kind, self.piece.rot, self.piece.sorted_cells()))
    }

    /// The active piece's box corner, `(col, row)` of its top-left cell (see
    /// [`Position::with_piece`]).
    pub fn piece_origin(&self) -> (i8, i8) {
        (self.piece.x, self.piece.y)
    }

    /// The cells the active piece would lock on after a hard drop.
    pub fn ghost(&self) -> Option<Cells> {
        self.over.is_none().then(|| {
            let d = drop_distance(&self.board, self.piece);
            self.piece.shifted(0, -d).sorted_cells()
        })
    }

    /// The next five pieces, next first.
    pub fn queue(&self) -> [Kind; QUEUE_LEN] {
        self.queue
    }

    /// The rest of the current bag, dealt after the queue.
    pub fn bag(&self) -> Vec<Kind> {
        self.bag.as_slice().to_vec()
    }

    /// The held piece.
    pub fn hold(&self) -> Option<Kind> {
        self.hold
    }

    /// Whether `hold` is allowed: once per piece, until it locks.
    pub fn can_hold(&self) -> bool {
        self.over.is_none() && !self.hold_used
    }

    /// The score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Lines cleared.
    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// The level, the multiplier of line-clear points.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// The generator state (a seed: fresh bags after the current one come
    /// from it).
    pub fn rng_state(&self) -> u64 {
        self.rng
    }

    /// Whether the active piece's last successful move was a rotation (the
    /// T-spin condition).
    pub fn last_was_rotation(&self) -> bool {
        self.last != LastMove::Other
    }

    /// The actions that change the position, in the order of
    /// [`Action::ALL`]: shifts and rotations that fit (with kicks), `soft`
    /// when the piece can fall, `hold` once per piece, `hard` and `tick`
    /// always. None once the game is over.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.over.is_some() {
            return Vec::new();
        }
        let b = &self.board;
        let p = self.piece;
        Action::ALL
            .into_iter()
            .filter(|&a| match a {
                Action::Left => b.fits(p.shifted(-1, 0)),
                Action::Right => b.fits(p.shifted(1, 0)),
                Action::Cw => rotate(b, p, true).is_some(),
                Action::Ccw => rotate(b, p, false).is_some(),
                Action::Soft => b.fits(p.shifted(0, -1)),
                Action::Hard | Action::Tick => true,
                Action::Hold => !self.hold_used,
            })
            .collect()
    }

    /// The position after `a`.
    ///
    /// # Errors
    ///
    /// [`IllegalAction`] when the game is over or `a` changes nothing (a
    /// blocked shift, rotation or soft drop, a second hold).
    pub fn play(&self, a: Action) -> Result<Position, IllegalAction> {
        self.play_traced(a).map(|(next, _)| next)
    }

    /// Plays `a` and says what the lock did when the piece locked (`hard`,
    /// or `tick` on a resting piece).
    ///
    /// # Errors
    ///
    /// As [`Position::play`].
    pub fn play_traced(&self, a: Action) -> Result<(Position, Option<Lock>), IllegalAction> {
        if let Some(end) = self.over {
            return Err(IllegalAction::GameOver {
                action: a,
                reason: end.reason(),
            });
        }
        let b = &self.board;
        let p = self.piece;
        let mut next = self.clone();
        match a {
            Action::Left | Action::Right => {
                let dx = if a == Action::Left { -1 } else { 1 };
                let moved = p.shifted(dx, 0);
                if !b.fits(moved) {
                    return Err(IllegalAction::Blocked {
                        action: a,
                        legal: self.legal_actions(),
                    });
                }
                next.piece = moved;
                next.last = LastMove::Other;
                Ok((next, None))
            }
            Action::Cw | Action::Ccw => {
                let Some((turned, how)) = rotate(b, p, a == Action::Cw) else {
                    let legal = self.legal_actions();
                    return Err(if p.kind == Kind::O {
                        IllegalAction::ODoesNotRotate { action: a, legal }
                    } else {
                        IllegalAction::NoKickFits { action: a, legal }
                    });
                };
                next.piece = turned;
                next.last = how;
                Ok((next, None))
            }
            Action::Soft => {
                let down = p.shifted(0, -1);
                if !b.fits(down) {
                    return Err(IllegalAction::Resting {
                        action: a,
                        legal: self.legal_actions(),
                    });
                }
                next.piece = down;
                next.last = LastMove::Other;
                next.score = next.score.saturating_add(1);
                Ok((next, None))
            }
            Action::Tick => {
                let down = p.shifted(0, -1);
                if b.fits(down) {
                    next.piece = down;
                    next.last = LastMove::Other;
                    Ok((next, None))
                } else {
                    let lock = next.lock(p, self.last, 0);
                    Ok((next, Some(lock)))
                }
            }
            Action::Hard => {
                let d = drop_distance(b, p);
                let last = if d > 0 { LastMove::Other } else { self.last };
                let lock = next.lock(p.shifted(0, -d), last, 2 * d as u32);
                Ok((next, Some(lock)))
            }
            Action::Hold => {
                if self.hold_used {
                    return Err(IllegalAction::HoldUsed {
                        action: a,
                        legal: self.legal_actions(),
                    });
                }
                let kind = match self.hold {
                    Some(k) => k,
                    None => next.next_from_queue(),
                };
                next.hold = Some(p.kind);
                next.hold_used = true;
                next.bring_in(kind);
                Ok((next, None))
            }
        }
    }

    /// Takes the front of the queue and deals one piece onto its end.
    fn next_from_queue(&mut self) -> Kind {
        let mut rng = SplitMix64(self.rng);
        let first = self.queue[0];
        self.queue.copy_within(1.., 0);
        self.queue[QUEUE_LEN - 1] = self.bag.deal(&mut rng);
        self.rng = rng.0;
        first
    }

    /// Makes `kind` the active piece, or ends the game by block out.
    fn bring_in(&mut self, kind: Kind) {
        self.last = LastMove::Other;
        match appear(&self.board, kind) {
            Some(p) => self.piece = p,
            None => {
                self.piece = Piece::spawn(kind);
                self.over = Some(TopOut::BlockOut);
            }
        }
    }

    /// Locks `p` (already resting) and brings in the next piece.
    fn lock(&mut self, p: Piece, last: LastMove, drop_points: u32) -> Lock {
        let spin = tspin(&self.board, p, last);
        let cells = p.sorted_cells();
        self.board.place(p);
        let lines = self.board.clear_full();
        let points = base_points(lines, spin).saturating_mul(self.level);
        let total = points.saturating_add(drop_points);
        self.score = self.score.saturating_add(u64::from(total));
        self.lines = self.lines.saturating_add(u32::from(lines));
        self.level = self.level.max(self.lines / 10 + 1);
        self.hold_used = false;
        let report = Lock {
            cells,
            lines,
            tspin: spin,
            points: total,
        };
        if p.cells().iter().all(|&(_, r)| r >= VISIBLE as i8) {
            self.piece = Piece::spawn(p.kind);
            self.last = LastMove::Other;
            self.over = Some(TopOut::LockOut);
            return report;
        }
        let kind = self.next_from_queue();
        self.bring_in(kind);
        report
    }

    /// [`Status::Over`] with [`EndReason::BlockOut`] or
    /// [`EndReason::LockOut`] once the game has topped out, else
    /// [`Status::Ongoing`].
    pub fn status(&self) -> Status<Solo> {
        match self.over {
            Some(end) => Status::Over {
                reason: end.reason(),
            },
            None => Status::Ongoing,
        }
    }
}

impl Game for Position {
    const KIND: GameKind = GameKind::Tetris;
    type Action = Action;
    type ParseActionError = ParseActionError;
    type Player = Solo;
    type CodeError = CodeError;
    type IllegalAction = IllegalAction;
    type Trace = Option<Lock>;

    fn from_code(code: &str) -> Result<Self, CodeError> {
        Position::from_code(code)
    }

    fn to_code(&self) -> String {
        Position::to_code(self)
    }

    fn to_move(&self) -> Solo {
        Solo
    }

    fn legal_actions(&self) -> Vec<Action> {
        Position::legal_actions(self)
    }

    fn play(&self, action: Action) -> Result<Self, IllegalAction> {
        Position::play(self, action)
    }

    fn play_traced(&self, action: Action) -> Result<(Self, Option<Lock>), IllegalAction> {
        Position::play_traced(self, action)
    }

    fn status(&self) -> Status<Solo> {
        Position::status(self)
    }
}
