//! The position: board, score and generator state; moves, spawns and the
//! end of the game.

use std::fmt;

use super::board::{tables, Board, Tables, MAX_EXP};
use super::code::CodeError;
use super::types::{Direction, ParseDirectionError, Slide, Spawn};
use crate::rng::SplitMix64;
use crate::{EndReason, Game, GameKind, Reason, Solo, Status};

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

impl Reason for GridError {
    fn reason(&self) -> &'static str {
        match self {
            GridError::InvalidTile { .. } => "invalid-tile",
            GridError::NoTiles => "no-tiles",
            GridError::ImpossibleScore { .. } => "impossible-score",
        }
    }
}

/// Why a direction cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// No direction changes the board: the game is over.
    #[error("{direction} changes nothing: no move is left, the game is over")]
    GameOver {
        /// The direction asked for.
        direction: Direction,
    },
    /// This direction changes nothing, others would.
    #[error(
        "{direction} changes nothing on this board; legal moves: {}",
        names(legal)
    )]
    NoChange {
        /// The direction asked for.
        direction: Direction,
        /// The directions that would change the board, in
        /// [`Direction::ALL`] order.
        legal: Vec<Direction>,
    },
    /// The slide left no empty cell for the new tile. A move that changes
    /// the board always frees or leaves one, so this names a broken
    /// invariant rather than a rule.
    #[error("{direction} leaves no empty cell for the new tile")]
    NoRoomToSpawn {
        /// The direction asked for.
        direction: Direction,
    },
}

/// `up, left` for the message of [`IllegalMove::NoChange`].
fn names(directions: &[Direction]) -> String {
    let names: Vec<&str> = directions.iter().map(|d| d.as_str()).collect();
    names.join(", ")
}

impl Reason for IllegalMove {
    fn reason(&self) -> &'static str {
        match self {
            IllegalMove::GameOver { .. } => "game-over",
            IllegalMove::NoChange { .. } => "no-change",
            IllegalMove::NoRoomToSpawn { .. } => "no-room-to-spawn",
        }
    }
}

/// The unchecked form of a position: tile values, the score and the seed.
/// [`Position::from_setup`] checks it; [`Position::to_setup`] writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Tile values, rows top first, 0 for an empty cell.
    pub board: [[u32; 4]; 4],
    /// The score; `None` for the least score these tiles can have been
    /// built with (every 4 inside them spawned as a 4).
    pub score: Option<u64>,
    /// The generator's state, which is also its seed.
    pub seed: u64,
}

/// A 2048 position: the 4×4 board, the score and the state of the spawn
/// generator. Every `Position` is consistent: at least one tile, every tile
/// 2 … 131072, and a score these tiles can have been built with.
///
/// Three words: the board's nibbles, `Extra` (the board's fifth bits, the
/// score in the form slides leave alone, and the sum of the tiles) and the
/// generator state. A copied struct carries its padding bytes along, and a
/// chain of slides copies a position at every move, so there is none.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The low four bits of every exponent ([`Board::parts`]).
    nibbles: u64,
    extra: Extra,
    rng: u64,
}

/// The rest of a position's board and its score, in one word that a slide
/// on the nibble path copies unchanged:
///
/// - bits 0–15: the fifth bit of every exponent ([`Board::parts`]), 0 on
///   every board the nibble path takes;
/// - bits 16–39: the score, kept as how far it falls short of what the
///   tiles would have scored built from 2s alone (`Σ (e-1)·2^e`, see
///   [`TileSums`]), in 4s: the number of spawned 4s inside the
///   tiles, at most `Σ 2^(e-2)` < 2^20. A merge raises the tiles' worth by
///   exactly what it scores, so a slide leaves this alone and needs not add
///   up its gain; a spawned 4 adds one;
/// - bits 40–63: the sum of the tiles' values, at most 16 · 2^17 = 2^21,
///   plus 2^23 − 2^16. A merge keeps the sum (2^e + 2^e = 2^(e+1)), a spawn
///   adds its tile. While it is below 2^16 no tile is 65536 or more and no
///   two 32768s can meet, which is all the nibble path asks (see
///   [`Position::slide`]); with the offset, bit 63 is set exactly when the
///   sum has reached 2^16, so that the word's sign says which path a slide
///   takes: no operation at all on top of the word the slide copies anyway,
///   where looking at the tiles would take a dozen.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Extra(u64);

impl Extra {
    const FOURS_SHIFT: u32 = 16;
    const SUM_SHIFT: u32 = 40;
    /// The offset of the sum: a sum of 2^16 is kept as 2^23, the top bit of
    /// its 24 (bit 63 of the word).
    const SUM_OFFSET: u32 = (1 << 23) - (1 << 16);

    /// The word of a board's fifth bits, `fours` spawned 4s and the tile sum
    /// `sum`.
    #[inline(always)]
    fn new(high: u32, fours: u32, sum: u32) -> Extra {
        Extra(
            u64::from(high)
                | (u64::from(fours) << Extra::FOURS_SHIFT)
                | (u64::from(sum + Extra::SUM_OFFSET) << Extra::SUM_SHIFT),
        )
    }

    /// The fifth bits, bit `4r + c` for cell `(r, c)`.
    #[inline(always)]
    fn high(self) -> u32 {
        (self.0 & 0xFFFF) as u32
    }

    /// The spawned 4s inside the tiles.
    #[inline(always)]
    fn fours(self) -> u32 {
        ((self.0 >> Extra::FOURS_SHIFT) & 0xFF_FFFF) as u32
    }

    /// The sum of the tiles' values.
    #[inline(always)]
    fn sum(self) -> u32 {
        (self.0 >> Extra::SUM_SHIFT) as u32 - Extra::SUM_OFFSET
    }

    /// Whether the tiles add up to less than 65536, see [`Extra`].
    #[inline(always)]
    fn below_65536(self) -> bool {
        (self.0 as i64) >= 0
    }
}

impl fmt::Debug for Position {
    /// The board, the score (not the count of 4s it is kept as) and the
    /// generator state.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("board", &self.board())
            .field("score", &self.score())
            .field("rng", &self.rng)
            .finish()
    }
}

/// Marks the branch that calls it as the rarer one, for the compiler's
/// layout and its choice between a branch and a select (what
/// `std::hint::cold_path` does from Rust 1.95; the workspace's
/// `rust-version` is older).
#[cold]
#[inline]
fn unlikely() {}

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

/// What a position needs to know of its tiles, added up in one pass over
/// them: the bounds of the score they can have been built with, and their
/// sum (kept in [`Extra`]). Reading a code needs all three, so one pass
/// rather than one for each.
///
/// Every point of score comes from a merge whose tile is still on the board
/// or inside one that is, so the score is the sum over the tiles of what
/// building each one scored. A tile `2^e` built from 2s alone scored
/// `(e - 1)·2^e`; every spawned 4 inside it saves the 4 points of merging two
/// 2s, and a tile `2^e` (e ≥ 2) holds at most `2^(e-2)` fours. So the score is
/// `max - 4n` for some `0 ≤ n ≤ Σ 2^(e-2)`, from `max = Σ (e-1)·2^e` down to
/// `min = Σ max(e-2, 0)·2^e`.
#[derive(Debug, Clone, Copy)]
struct TileSums {
    /// `Σ max(e-2, 0)·2^e`: the least score the tiles can have been built
    /// with.
    min_score: u64,
    /// `Σ (e-1)·2^e`: the score of these tiles built from spawned 2s alone,
    /// the most they can have scored.
    max_score: u64,
    /// `Σ 2^e`: the sum of the tiles' values.
    values: u32,
}

/// What one tile adds to the [`TileSums`], by its exponent `e` (every 5-bit
/// value, though a board holds at most 17; an empty cell, 0, adds nothing):
/// `(e-1)·2^e` in the low 32 bits and `max(e-2, 0)·2^e` in the high ones,
/// so that one addition a cell sums both (a board's sums stay below 2^26,
/// so the low half never carries into the high one).
const SCORE_TERMS: [u64; 32] = {
    let mut terms = [0; 32];
    let mut e = 1;
    while e < 32 {
        let x = e as u64;
        terms[e] = ((x - 1) << e) | ((x.saturating_sub(2) << e) << 32);
        e += 1;
    }
    terms
};

/// The value of a tile by its exponent, 0 for an empty cell.
const VALUES: [u32; 32] = {
    let mut values = [0; 32];
    let mut e = 1;
    while e < 32 {
        values[e] = 1 << e;
        e += 1;
    }
    values
};

impl TileSums {
    /// The sums over the tiles of `board`: two table lookups a cell, where
    /// working the terms out took a branch and four variable shifts. A
    /// board without a tile of 65536 or more (every board but the last
    /// stretch of a game's) is read from its nibbles alone.
    #[inline]
    fn of(board: Board) -> TileSums {
        let (nibbles, high) = board.parts();
        if high == 0 {
            TileSums::add_up((0..16).map(|cell| ((nibbles >> (4 * cell)) & 0xF) as usize))
        } else {
            TileSums::add_up(board.cells().map(|e| usize::from(e & 0x1F)))
        }
    }

    /// The sums over tiles of these exponents, each below 32.
    #[inline(always)]
    fn add_up(exponents: impl Iterator<Item = usize>) -> TileSums {
        let (mut scores, mut values) = (0u64, 0u32);
        for e in exponents {
            scores += SCORE_TERMS[e];
            values += VALUES[e];
        }
        TileSums {
            min_score: scores >> 32,
            max_score: scores & 0xFFFF_FFFF,
            values,
        }
    }
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
        // The score is 0, so each 4 of the two tiles is a spawned 4.
        let sums = TileSums::of(board);
        Position::with_board(board, (sums.max_score / 4) as u32, sums.values, rng.0)
    }

    /// Checks a setup and builds the position. Nothing spawns.
    ///
    /// # Errors
    ///
    /// [`GridError::InvalidTile`] for a value that is not 0 or a power of two
    /// in 2 ..= 131072, with its cell; [`GridError::NoTiles`] for an empty
    /// board; [`GridError::ImpossibleScore`] for a score these tiles cannot
    /// have been built with (see [`Position::score`]).
    pub fn from_setup(setup: &Setup) -> Result<Position, GridError> {
        let mut b = Board::EMPTY;
        for (r, row) in setup.board.iter().enumerate() {
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
        let score = match setup.score {
            Some(score) => score,
            None => TileSums::of(b).min_score,
        };
        Position::from_parts(b, score, setup.seed)
    }

    /// The unchecked form, with the score written out.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.grid(),
            score: Some(self.score()),
            seed: self.rng,
        }
    }

    /// A position from a board whose exponents are all at most 17.
    pub(crate) fn from_parts(board: Board, score: u64, rng: u64) -> Result<Position, GridError> {
        if board == Board::EMPTY {
            return Err(GridError::NoTiles);
        }
        let sums = TileSums::of(board);
        let (min, max) = (sums.min_score, sums.max_score);
        if score < min || score > max || !score.is_multiple_of(4) {
            return Err(GridError::ImpossibleScore { score, min, max });
        }
        // At most (max - min) / 4 = Σ 2^(e-2) over the tiles, below 2^20.
        let fours = u32::try_from((max - score) / 4).map_err(|_| GridError::ImpossibleScore {
            score,
            min,
            max,
        })?;
        Ok(Position::with_board(board, fours, sums.values, rng))
    }

    /// The board's exponents (0 = empty), for the code.
    #[inline(always)]
    pub(crate) fn board(&self) -> Board {
        Board::from_parts(self.nibbles, self.extra.high())
    }

    /// A position of `board`, `fours` spawned 4s, tiles adding up to `sum`
    /// and the generator state `rng`.
    fn with_board(board: Board, fours: u32, sum: u32, rng: u64) -> Position {
        let (nibbles, high) = board.parts();
        Position {
            nibbles,
            extra: Extra::new(high, fours, sum),
            rng,
        }
    }

    /// The score as the code stores it: below 2^25 (see
    /// [`Position::from_parts`]).
    pub(crate) fn score_u32(&self) -> u32 {
        self.score() as u32
    }

    /// Tile values, rows top first, 0 for an empty cell.
    pub fn grid(&self) -> [[u32; 4]; 4] {
        self.board()
            .exponents()
            .map(|row| row.map(|e| if e == 0 { 0 } else { 1 << e }))
    }

    /// The score: the sum of the values of every tile a merge has made.
    ///
    /// Which scores can go with which tiles is fixed: see
    /// [`GridError::ImpossibleScore`]. It is worked out from the tiles and
    /// the spawned 4s (a pass over the 16 cells), not kept as a sum.
    pub fn score(&self) -> u64 {
        TileSums::of(self.board()).max_score - 4 * u64::from(self.extra.fours())
    }

    /// Whether some tile is 2048 or more. Play goes on after a win.
    pub fn won(&self) -> bool {
        self.max_exp() >= WIN_EXP
    }

    fn max_exp(&self) -> u8 {
        self.board()
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
    /// [`Position::from_setup`] with this seed spawns exactly what this one
    /// would.
    pub fn rng_state(&self) -> u64 {
        self.rng
    }

    /// The directions that change the board, in the order up, down, left,
    /// right.
    pub fn legal_actions(&self) -> Vec<Direction> {
        let t = tables();
        Direction::ALL
            .into_iter()
            .filter(|&d| self.board().slide(d, t).is_some())
            .collect()
    }

    /// The position after sliding towards `d` but before the spawn, and the
    /// score gained; `None` when nothing moves or merges. The generator is
    /// untouched. Meant for search (expectimax over the spawns) and
    /// benchmarks; a game goes on with [`Position::play_traced`].
    // Always inlined: with `d` known at the call site the match on it goes,
    // and a caller sliding all four ways shares the loads of the rows.
    #[inline(always)]
    pub fn slide(&self, d: Direction) -> Option<(Position, u64)> {
        // The lookups come before the look at the sum: the nibbles index the
        // tables whatever they hold, and a caller sliding one board several
        // ways then shares the lookups between the slides.
        let (nibbles, gain) = Board::slide_nibbles(self.nibbles, d, tables());
        if !self.extra.below_65536() {
            let (board, gain) = Position::slide_large(self.board(), d);
            let (nibbles, high) = board.parts();
            let next = Position {
                nibbles,
                extra: Extra::new(high, self.extra.fours(), self.extra.sum()),
                rng: self.rng,
            };
            return (board != self.board()).then_some((next, u64::from(gain)));
        }
        // The tiles add up to less than 65536: the nibble path holds, and
        // the fifth bits (none), the 4s and the sum stay as they are (the
        // score grows by the gain with the tiles' `Σ (e-1)·2^e`, so a caller
        // that drops the gain does not wait for it).
        let next = Position {
            nibbles,
            extra: self.extra,
            rng: self.rng,
        };
        (nibbles != self.nibbles).then_some((next, u64::from(gain)))
    }

    /// Calls `f` with each direction and what [`Position::slide`] gives
    /// for it, in the order of [`Direction::ALL`] (up, down, left, right):
    /// the four children a search expands. The same results as four calls
    /// of [`Position::slide`], for fewer operations: the sum of the tiles is
    /// looked at once rather than four times, and the four slides share the
    /// gathered columns and rows. A closure rather than a returned array, so
    /// that what `f` does with the four-bit path's results (every word but
    /// the board the position's own) is not merged with what it does with
    /// the other path's, which would keep every result's words apart and
    /// select between them.
    #[inline(always)]
    pub fn each_slide(&self, mut f: impl FnMut(Direction, Option<(Position, u64)>)) {
        if !self.extra.below_65536() {
            // `f` is called here rather than in the out-of-line part, which
            // would need what `f` captures in memory.
            let slid = self.slides_large();
            for (d, slid) in Direction::ALL.into_iter().zip(slid) {
                f(d, slid);
            }
            return;
        }
        // Written out: a loop over `Direction::ALL` may leave the direction
        // to run time.
        let t = tables();
        self.slide_small(Direction::Up, t, &mut f);
        self.slide_small(Direction::Down, t, &mut f);
        self.slide_small(Direction::Left, t, &mut f);
        self.slide_small(Direction::Right, t, &mut f);
    }

    /// One slide of [`Position::each_slide`] for tiles that add up to less
    /// than 65536: the nibble path, the fifth bits (none), the 4s and the
    /// sum unchanged, and `f` called in either branch.
    ///
    /// A move that changes nothing is marked the rarer case (as it is in a
    /// search: some one move in eight on mid-game boards). Without the
    /// mark the two calls of `f` may be merged into one that computes what
    /// `f` does with a new position for every move and then throws it away
    /// for a no-op, several operations more a move than the branch.
    #[inline(always)]
    fn slide_small(
        &self,
        d: Direction,
        t: &Tables,
        f: &mut impl FnMut(Direction, Option<(Position, u64)>),
    ) {
        let (nibbles, gain) = Board::slide_nibbles(self.nibbles, d, t);
        if nibbles != self.nibbles {
            let next = Position {
                nibbles,
                extra: self.extra,
                rng: self.rng,
            };
            f(d, Some((next, u64::from(gain))));
        } else {
            unlikely();
            f(d, None);
        }
    }

    /// The four slides of [`Position::each_slide`] for tiles that add up to
    /// 65536 or more, out of line.
    #[cold]
    #[inline(never)]
    fn slides_large(&self) -> [Option<(Position, u64)>; 4] {
        Direction::ALL.map(|d| self.slide(d))
    }

    /// The board and the gain of [`Position::slide`] for tiles that add up
    /// to 65536 or more, through [`Board::slide_any`]: kept out of line, so
    /// that what callers inline is the nibble path alone. It takes the board
    /// rather than the position, which would have to be in memory for its
    /// address: a caller's position then stays in registers.
    #[cold]
    #[inline(never)]
    fn slide_large(board: Board, d: Direction) -> (Board, u32) {
        board.slide_any(d, tables())
    }

    /// Plays `d`: the tiles slide and merge, then one tile spawns.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when `d` changes nothing (then nothing spawns).
    #[inline]
    pub fn play(&self, d: Direction) -> Result<Position, IllegalMove> {
        self.play_traced(d).map(|(next, _)| next)
    }

    /// Plays `d` as [`Position::play`] does, and says which tile spawned and
    /// what the merges gained.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when `d` changes nothing (then nothing spawns).
    #[inline]
    pub fn play_traced(&self, d: Direction) -> Result<(Position, Slide), IllegalMove> {
        let Some((slid, gained)) = self.slide(d) else {
            return Err(self.refuse(d));
        };
        let mut rng = SplitMix64(self.rng);
        // A move that changed the board leaves an empty cell: either a merge
        // freed one or a tile moved into one.
        let (board, spawn) =
            spawn(slid.board(), &mut rng).ok_or(IllegalMove::NoRoomToSpawn { direction: d })?;
        // A spawned 4 is one more 4 the score did not come from: still at
        // most Σ 2^(e-2) over the tiles, the new one included.
        let fours = slid.extra.fours() + u32::from(spawn.value == 4);
        let (nibbles, high) = board.parts();
        let next = Position {
            nibbles,
            extra: Extra::new(high, fours, slid.extra.sum() + spawn.value),
            rng: rng.0,
        };
        Ok((next, Slide { spawn, gained }))
    }

    /// Why `d`, which changes nothing, is refused.
    #[cold]
    fn refuse(&self, d: Direction) -> IllegalMove {
        let legal = self.legal_actions();
        if legal.is_empty() {
            IllegalMove::GameOver { direction: d }
        } else {
            IllegalMove::NoChange {
                direction: d,
                legal,
            }
        }
    }

    /// [`Status::Over`] with [`EndReason::NoMoves`] when no move changes the
    /// board, else [`Status::Ongoing`]. Reaching 2048 ends nothing (see
    /// [`Position::won`]).
    pub fn status(&self) -> Status<Solo> {
        let t = tables();
        let stuck = Direction::ALL
            .into_iter()
            .all(|d| self.board().slide(d, t).is_none());
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
    const KIND: GameKind = GameKind::Twenty48;
    type Action = Direction;
    type ParseActionError = ParseDirectionError;
    type Player = Solo;
    type CodeError = CodeError;
    type IllegalAction = IllegalMove;
    type Trace = Slide;

    fn from_code(code: &str) -> Result<Self, CodeError> {
        Position::from_code(code)
    }

    fn to_code(&self) -> String {
        Position::to_code(self)
    }

    fn to_move(&self) -> Solo {
        Solo
    }

    fn legal_actions(&self) -> Vec<Direction> {
        Position::legal_actions(self)
    }

    #[inline]
    fn play(&self, action: Direction) -> Result<Self, IllegalMove> {
        Position::play(self, action)
    }

    fn play_traced(&self, action: Direction) -> Result<(Self, Slide), IllegalMove> {
        Position::play_traced(self, action)
    }

    fn status(&self) -> Status<Solo> {
        Position::status(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sums from the tables, on the nibbles-only path and the other,
    /// against the formulas written out, for every exponent in every cell.
    #[test]
    fn tile_sums_are_the_formulas() {
        for e in 0..=MAX_EXP {
            for cell in 0..16 {
                // The one tile, beside a 2 and a 2^15 elsewhere.
                let mut board = Board::EMPTY.with(cell / 4, cell % 4, e);
                let other = (cell + 5) % 16;
                board = board.with(other / 4, other % 4, 1);
                let third = (cell + 11) % 16;
                board = board.with(third / 4, third % 4, 15);
                let (mut min, mut max, mut values) = (0, 0, 0);
                for x in board.exponents().into_iter().flatten() {
                    if x > 0 {
                        min += u64::from(x - 1).saturating_sub(1) << x;
                        max += u64::from(x - 1) << x;
                        values += 1 << x;
                    }
                }
                let sums = TileSums::of(board);
                assert_eq!(
                    (sums.min_score, sums.max_score, sums.values),
                    (min, max, values),
                    "exponent {e} in cell {cell}"
                );
            }
        }
    }
}
