//! Guideline Tetris: a 10×20 field with 20 hidden rows above it, the Super
//! Rotation System, the 7-bag, hold, and guideline scoring.
//!
//! # Field and pieces
//!
//! - Columns 0–9 from the left, rows 0–39 from the bottom: rows 0–19 are the
//!   visible field, rows 20–39 the hidden buffer above it (the guideline's
//!   "vanish zone"; 20 rows so that no kick or stack can reach past it).
//! - Each piece sits in its SRS bounding box (3×3 for J, L, S, T, Z; 4×4
//!   for I; 2×2 for O) whose top-left corner is the piece's origin
//!   ([`Position::piece_origin`], [`Position::with_piece`]). Rotation states
//!   are `0` (spawn), `R`, `2`, `L`; every piece spawns flat side down,
//!   pointing up. See the `srs` module for the states and the kick tables
//!   and their source (TetrisWiki, "Super Rotation System").
//! - A piece appears with its box's top row on row 21, so a 3-wide piece
//!   fills rows 20–21 in columns 3–5, I row 20 in columns 3–6, O rows 20–21
//!   in columns 4–5; then it moves down one row at once when that row is
//!   free (so on an open field the piece shows its lower row in row 19).
//! - O does not rotate: all its states fill the same cells, so `cw` and
//!   `ccw` are never legal for it and it stays in state `0`.
//!
//! # Actions
//!
//! `left`, `right` (one column), `cw`, `ccw` (a quarter turn, trying the
//! five SRS tests in order), `soft` (one row down, 1 point), `hard` (down as
//! far as it goes and lock, 2 points a row), `hold` (swap with the held
//! piece, or hold it and take the next from the queue when nothing is held;
//! once per piece until it locks; the piece coming in appears at its spawn
//! place) and `tick` (gravity: one row down, or lock when the piece rests).
//! An action that would change nothing is illegal; `hard` and `tick` are
//! always legal while the game goes on. There is no lock delay: a resting
//! piece stays until `hard` or `tick` locks it, so it can still slide and
//! spin.
//!
//! # Locking, clearing and scoring
//!
//! On a lock, full rows are removed and the rows above move down. Points,
//! times the level before the lock:
//!
//! | lines | plain | mini T-spin | T-spin |
//! |---|---|---|---|
//! | 0 | 0 | 100 | 400 |
//! | 1 | 100 | 200 | 800 |
//! | 2 | 300 | 400 | 1200 |
//! | 3 | 500 | — | 1600 |
//! | 4 | 800 | — | — |
//!
//! plus the drop points (soft 1 and hard 2 per row, not times the level).
//! The level is `lines / 10 + 1`, or a higher starting level given on
//! import (the level never falls below `lines / 10 + 1`). Back-to-back
//! bonuses and combos are not scored.
//!
//! A T-spin (three-corner rule): the piece is a T, its last successful move
//! was a rotation (a hard drop that moves it, a soft drop, a shift or a
//! gravity step clears that), and at least three of the four cells diagonal
//! to its centre are walls, floor or stack. It is a full T-spin when both
//! corners on the side the T points to are taken, or when the rotation used
//! kick test 5 (the T-spin triple kick); otherwise a mini T-spin.
//!
//! # Top-out
//!
//! The game is over ([`Status::Over`](crate::Status::Over)) by *block out*
//! when a new piece (from the queue or from hold) overlaps the stack where it
//! appears, and by *lock out* when a piece locks with all four cells in the
//! hidden rows (checked on the cells as they locked, before any clear).
//!
//! # Randomizer
//!
//! Pieces come in bags of seven: each bag is the seven kinds in the order
//! I, O, T, S, Z, J, L shuffled by Durstenfeld's Fisher–Yates (`for i in
//! 6 down to 1: swap(i, draw below i + 1)`), with the draws of the crate's
//! generator (SplitMix64 and Lemire's unbiased draw, see [`crate::rng`],
//! the one 2048 spawns with), and is dealt front first. A new game
//! deals the active piece and then five into the queue; every piece taken
//! from the queue deals one more onto its end. A fresh bag is shuffled only
//! when the old one is empty, so the state is the generator state plus the
//! 0–6 kinds left in the bag.
//!
//! # State code
//!
//! URL-safe base64 without padding (RFC 4648 §5) of a bit string, written
//! most significant bit first and padded with zero bits to whole bytes:
//!
//! | bits | content |
//! |---|---|
//! | 8 | layout version, 1 |
//! | 3 | active piece: kind (0 I, 1 O, 2 T, 3 S, 4 Z, 5 J, 6 L) |
//! | 2 | its rotation state (0 `0`, 1 `R`, 2 `2`, 3 `L`) |
//! | 4 | its box's left column + 2 |
//! | 6 | its box's top row (from the bottom) |
//! | 2 | last move: 0 other, 1 rotation, 2 rotation by kick test 5 |
//! | 2 | game: 0 going on, 1 block out, 2 lock out |
//! | 1 | hold used for this piece |
//! | 3 | hold: 0 none, else kind + 1 |
//! | 5 × 3 | the queue, next first |
//! | 3 | kinds left in the bag, `n` (0–6) |
//! | n × 3 | those kinds, next first |
//! | 64 | generator state |
//! | 7 + s | score: its bit length `s`, then `s` bits |
//! | 6 + l | lines: bit length, then bits |
//! | 6 + v | level: bit length, then bits |
//! | 6 | rows up to the highest filled one, `h` (0–40) |
//! | h × 10 | those rows from the bottom, each column 0 first (1 filled) |
//!
//! Once the game is over the piece field holds the piece that could not
//! appear (block out) or that locked out, in its spawn place and state.
//! Every field has one encoding (shortest bit lengths, the top row written
//! non-empty, zero padding of less than a byte), so one position has one
//! code. A new game's code is 24 characters; each filled row adds 10 bits.
//!
//! The readable form ([`Setup`]) lists rows, piece, queue, hold, seed,
//! score, lines and level; it leaves out the piece's place, the hold-used
//! and rotation flags and the rest of the bag.
//!
//! ```
//! use qipan_rules::tetris::{Action, Kind, Position, Rotation};
//!
//! let pos = Position::new(7);
//! // The first bag of seed 7 begins S, J, O, L, Z, I; T is left in it.
//! let s_cells = [(3, 19), (4, 19), (4, 20), (5, 20)];
//! assert_eq!(pos.piece(), Some((Kind::S, Rotation::Spawn, s_cells)));
//! assert_eq!(pos.queue(), [Kind::J, Kind::O, Kind::L, Kind::Z, Kind::I]);
//! assert_eq!(pos.bag(), [Kind::T]);
//! assert_eq!(pos.to_code(), "AWKoAU6Aq1TNpY-77ohQAAMA");
//! let (next, lock) = pos.play_traced(Action::Hard).unwrap();
//! let lock = lock.unwrap();
//! assert_eq!(lock.cells, [(3, 0), (4, 0), (4, 1), (5, 1)]); // 19 rows down
//! assert_eq!((lock.lines, lock.tspin, lock.points), (0, None, 2 * 19));
//! assert_eq!(next.piece().unwrap().0, Kind::J);
//! assert_eq!(Position::from_code(&next.to_code()), Ok(next));
//! ```
//!
//! # Placements
//!
//! [`Position::placements`] lists every distinct place the active piece can
//! lock and one shortest action sequence for each, for bots.

mod board;
mod code;
mod placements;
mod position;
mod srs;
mod types;

pub use board::{HEIGHT, VISIBLE, WIDTH};
pub use code::{CodeError, CODE_VERSION};
pub use position::{IllegalAction, Position, Setup, SetupError, QUEUE_LEN};
pub use types::{
    Action, Cells, Kind, Lock, ParseActionError, ParseKindError, ParseRotationError, Placement,
    Rotation, TSpin,
};
