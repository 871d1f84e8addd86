//! The position: board, score and generator state; moves, spawns and the
//! end of the game.

use super::board::{tables, Board, MAX_EXP};
use super::rng::SplitMix64;
use super::types::{Direction, Solo, Spawn};
use crate::{EndReason, Game, IllegalAction, Status};

/// Exponent of the winning tile, 2048 = 2^11.
const WIN_EXP: u8 = 11;

/// Why a board, score and seed do not make a 2048 position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// A cell value that is neither 0 nor a tile.
    #[error("row {row}, column {col}: {value} is not a tile; a cell holds 0 (empty) or a power of two from 2 to 131072")]
    InvalidTile {
        /// Row, 0 = top.
        row: u8,
        /// Column, 0 = left.
        col: u8,
        /// The value found.
        value: u32,
    },
    /// Every cell is empty.
    #[error("the board has no tile; a 2048 board always holds at least one")]
    NoTiles,
    /// A score that no game can reach with these tiles.
    #[error("score {score} cannot go with these tiles: building them scores a multiple of 4 from {min} (all from spawned 4s) to {max} (all from spawned 2s)")]
    ImpossibleScore {
        /// The score given.
        score: u64,
        /// The least score these tiles can have been built with.
        min: u64,
        /// The greatest.
        max: u64,
    },
}

/// A 2048 position: the 4×4 board, the score and the state of the spawn
/// generator. Every `Position` is consistent: at least one tile, every tile
/// 2 … 131072, and a score these tiles can have been built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    score: u32,
    rng: u64,
}

/// Places one tile: first the value (a draw below 10: 0 gives a 4, anything
/// else a 2), then the cell (a draw below the number of empty cells, counted
/// in reading order). `None` on a full board.
fn spawn(board: Board, rng: &mut SplitMix64) -> Option<(Board, Spawn)> {
    let exp = if rng.below(10) == 0 { 2 } else { 1 };
    let empty = board.empty_count();
    if empty == 0 {
        return None;
    }
    let (row, col) = board.nth_empty(rng.below(empty))?;
    let spawn = Spawn {
        row: row as u8,
        col: col as u8,
        value: 1 << exp,
    };
    Some((board.with(row, col, exp), spawn))
}

/// The least and greatest score a set of tiles can have been built with.
///
/// Every point of score comes from a merge whose tile is still on the board
/// or inside one that is, so the score is the sum over the tiles of what
/// building each one scored. A tile `2^e` built from 2s alone scored
/// `(e - 1)·2^e`; every spawned 4 inside it saves the 4 points of merging two
/// 2s, and a tile `2^e` (e ≥ 2) holds at most `2^(e-2)` fours. So the score is
/// `max - 4n` for some `0 ≤ n ≤ Σ 2^(e-2)`, from `max = Σ (e-1)·2^e` down to
/// `min = Σ max(e-2, 0)·2^e`.
fn score_bounds(board: Board) -> (u64, u64) {
    let mut min = 0;
    let mut max = 0;
    for row in board.exponents() {
        for e in row {
            let e = u64::from(e);
            if e > 0 {
                max += (e - 1) << e;
                min += e.saturating_sub(2) << e;
            }
        }
    }
    (min, max)
}

impl Position {
    /// A new game: the empty board, then two tiles spawned by the generator
    /// seeded with `seed`.
    pub fn new(seed: u64) -> Position {
        let mut rng = SplitMix64(seed);
        let mut board = Board::EMPTY;
        for _ in 0..2 {
            if let Some((next, _)) = spawn(board, &mut rng) {
                board = next;
            }
        }
        Position {
            board,
            score: 0,
            rng: rng.0,
        }
    }

    /// A position from tile values (rows top first, 0 = empty), a score and
    /// the generator's seed. Nothing spawns.
    ///
    /// # Errors
    ///
    /// [`GridError::InvalidTile`] for a value that is not 0 or a power of two
    /// in 2 ..= 131072, with its cell; [`GridError::NoTiles`] for an empty
    /// board; [`GridError::ImpossibleScore`] for a score these tiles cannot
    /// have been built with (see [`Position::score`]).
    pub fn from_grid(board: [[u32; 4]; 4], score: u64, seed: u64) -> Result<Position, GridError> {
        let mut b = Board::EMPTY;
        for (r, row) in board.iter().enumerate() {
            for (c, &value) in row.iter().enumerate() {
                let exp = match value {
                    0 => 0,
                    v if v.is_power_of_two() && (2..=1 << MAX_EXP).contains(&v) => {
                        v.trailing_zeros() as u8
                    }
                    v => {
                        return Err(GridError::InvalidTile {
                            row: r as u8,
                            col: c as u8,
                            value: v,
                        })
                    }
                };
                b = b.with(r, c, exp);
            }
        }
        Position::from_parts(b, score, seed)
    }

    /// A position from a board whose exponents are all at most 17.
    pub(crate) fn from_parts(board: Board, score: u64, rng: u64) -> Result<Position, GridError> {
        if board == Board::EMPTY {
            return Err(GridError::NoTiles);
        }
        let (min, max) = score_bounds(board);
        if score < min || score > max || score % 4 != 0 {
            return Err(GridError::ImpossibleScore { score, min, max });
        }
        // max < 16 · 16 · 2^17 = 2^25, so the score fits.
        let score =
            u32::try_from(score).map_err(|_| GridError::ImpossibleScore { score, min, max })?;
        Ok(Position { board, score, rng })
    }

    /// The board's exponents (0 = empty), for the code.
    pub(crate) fn board(&self) -> Board {
        self.board
    }

    /// The score as the code stores it.
    pub(crate) fn score_u32(&self) -> u32 {
        self.score
    }

    /// Tile values, rows top first, 0 for an empty cell.
    pub fn grid(&self) -> [[u32; 4]; 4] {
        self.board
            .exponents()
            .map(|row| row.map(|e| if e == 0 { 0 } else { 1 << e }))
    }

    /// The score: the sum of the values of every tile a merge has made.
    ///
    /// Which scores can go with which tiles is fixed: see
    /// [`GridError::ImpossibleScore`].
    pub fn score(&self) -> u64 {
        u64::from(self.score)
    }

    /// Whether some tile is 2048 or more. Play goes on after a win.
    pub fn won(&self) -> bool {
        self.max_exp() >= WIN_EXP
    }

    fn max_exp(&self) -> u8 {
        self.board
            .exponents()
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(0)
    }

    /// The largest tile's value.
    pub fn max_tile(&self) -> u32 {
        match self.max_exp() {
            0 => 0,
            e => 1 << e,
        }
    }

    /// The generator's state, which is also a seed: a position made by
    /// [`Position::from_grid`] with this seed spawns exactly what this one
    /// would.
    pub fn rng_state(&self) -> u64 {
        self.rng
    }

    /// The directions that change the board, in the order up, down, left,
    /// right.
    pub fn legal_moves(&self) -> Vec<Direction> {
        let t = tables();
        Direction::ALL
            .into_iter()
            .filter(|&d| self.board.slide(d, t).0 != self.board)
            .collect()
    }

    /// The position after sliding towards `d` but before the spawn, and the
    /// score gained; `None` when nothing moves or merges. The generator is
    /// untouched. Meant for search (expectimax over the spawns) and
    /// benchmarks; a game goes on with [`Position::play_traced`].
    #[inline]
    pub fn slide(&self, d: Direction) -> Option<(Position, u64)> {
        let (board, gain) = self.board.slide(d, tables());
        (board != self.board).then(|| {
            let next = Position {
                board,
                score: self.score.saturating_add(gain),
                rng: self.rng,
            };
            (next, u64::from(gain))
        })
    }

    /// Plays `d`: the tiles slide and merge, then one tile spawns. Returns
    /// the new position, the spawned tile and the score gained.
    ///
    /// # Errors
    ///
    /// [`IllegalAction`] when `d` changes nothing (then nothing spawns).
    pub fn play_traced(&self, d: Direction) -> Result<(Position, Spawn, u64), IllegalAction> {
        let Some((slid, gain)) = self.slide(d) else {
            let legal = self.legal_moves();
            return Err(IllegalAction::new(if legal.is_empty() {
                format!("{d} changes nothing: no move is left, the game is over")
            } else {
                let names: Vec<&str> = legal.iter().map(|m| m.as_str()).collect();
                format!(
                    "{d} changes nothing on this board; legal moves: {}",
                    names.join(", ")
                )
            }));
        };
        let mut rng = SplitMix64(self.rng);
        // A move that changed the board leaves an empty cell: either a merge
        // freed one or a tile moved into one.
        let (board, spawned) = spawn(slid.board, &mut rng).ok_or_else(|| {
            IllegalAction::new(format!("{d} leaves no empty cell for the new tile"))
        })?;
        let next = Position {
            board,
            score: slid.score,
            rng: rng.0,
        };
        Ok((next, spawned, gain))
    }

    /// [`Status::Over`] with [`EndReason::NoMoves`] when no move changes the
    /// board, else [`Status::Ongoing`]. Reaching 2048 ends nothing (see
    /// [`Position::won`]).
    pub fn outcome(&self) -> Status<Solo> {
        let t = tables();
        let stuck = Direction::ALL
            .into_iter()
            .all(|d| self.board.slide(d, t).0 == self.board);
        if stuck {
            Status::Over {
                reason: EndReason::NoMoves,
            }
        } else {
            Status::Ongoing
        }
    }
}

impl Game for Position {
    type Action = Direction;
    type Player = Solo;

    fn to_move(&self) -> Solo {
        Solo
    }

    fn legal_actions(&self) -> Vec<Direction> {
        self.legal_moves()
    }

    fn play(&self, action: Direction) -> Result<Self, IllegalAction> {
        self.play_traced(action).map(|(next, _, _)| next)
    }

    fn status(&self) -> Status<Solo> {
        self.outcome()
    }
}
