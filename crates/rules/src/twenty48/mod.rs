//! 2048 (Gabriele Cirulli, 2014) on a 4×4 board with tiles 2 … 131072.
//!
//! # Rules
//!
//! - A move (`up`, `down`, `left`, `right`) slides every tile as far as it
//!   goes towards that wall. Two equal tiles that meet merge into one of twice
//!   the value; each tile merges at most once per move, and the pair nearest
//!   the wall merges first: `[2,2,4,0]` left → `[4,4,0,0]`, `[4,4,8,8]` left →
//!   `[8,16,0,0]`, `[2,2,2,2]` left → `[4,4,0,0]`, `[2,2,2,0]` right →
//!   `[0,0,2,4]` (as in the original game's `GameManager.move`).
//! - The score grows by the value of every tile a merge makes.
//! - A move that changes nothing is not legal. After a legal move one tile
//!   spawns on an empty cell (see *Spawns*); a new game starts with two
//!   spawned tiles on the empty board.
//! - Reaching 2048 wins ([`Position::won`]) and play may go on; the game is
//!   over when no move is legal.
//! - 131072 = 2^17 is the largest tile: it takes 17 cells' worth of a
//!   staircase to build a second one next to the first, so two of them never
//!   meet in a game. Should an imported board hold two, they do not merge.
//! - A score must fit the tiles: every tile `2^e` scored `(e-1)·2^e` if built
//!   from 2s alone, 4 less for each spawned 4 inside it, so a board's score
//!   is a multiple of 4 between `Σ max(e-2,0)·2^e` and `Σ (e-1)·2^e`
//!   ([`GridError::ImpossibleScore`]). A [`Setup`] without a score takes
//!   the least.
//!
//! # Spawns
//!
//! Spawns are a function of the generator state carried in the position:
//!
//! - The generator is [`crate::rng`]'s SplitMix64 (Steele, Lea & Flood 2014; Vigna's
//!   `splitmix64.c`): `state += 0x9E3779B97F4A7C15; z = state;
//!   z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB;
//!   output z ^ z>>31` (wrapping arithmetic). Seeding with `s` sets the state
//!   to `s`, so the state written out as a seed continues the same sequence.
//! - A draw below `n` is Lemire's multiply-shift with rejection: take the
//!   next output `x`; if the low 64 bits of the 128-bit product `x·n` are
//!   below `2^64 mod n`, draw `x` again; the result is the high 64 bits.
//!   It is exactly uniform.
//! - One spawn takes a draw below 10 for the value (0 → 4, else 2: exactly
//!   p = 0.1 for a 4), then a draw below the number of empty cells for the
//!   cell, counting empty cells in reading order (row 0 = top first, each
//!   row from column 0). The value comes first as in the original game.
//!
//! # State code
//!
//! 23 bytes written as URL-safe base64 without padding (RFC 4648 §5):
//! always 31 characters, the last of which carries two zero bits.
//!
//! | bytes | content |
//! |---|---|
//! | 0 | layout version, 1 |
//! | 1–10 | 16 cells × 5 bits, big-endian: the cells in reading order (row 0 = top, column 0 = left first), each the tile's exponent (0 = empty, `e` = 2^e, at most 17) |
//! | 11–14 | score, unsigned big-endian |
//! | 15–22 | generator state, unsigned big-endian |
//!
//! The first cell is the top 5 bits of byte 1. Every field has one
//! encoding, so one position has one code. Example: a new game from seed 42
//! has a 2 at row 0, column 2 and a 2 at row 1, column 2, score 0 and state
//! `0x78DDE6E5FD29F07E`; its bytes are
//! `01 | 00 02 00 00 20 00 00 00 00 00 | 00 00 00 00 | 78 DD E6 E5 FD 29 F0 7E`
//! and its code `AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4`.
//!
//! ```
//! use qipan_rules::twenty48::{Direction, Position};
//!
//! let pos = Position::new(42);
//! assert_eq!(pos.grid(), [[0, 0, 2, 0], [0, 0, 2, 0], [0; 4], [0; 4]]);
//! assert_eq!(pos.to_code(), "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4");
//! let (next, slide) = pos.play_traced(Direction::Left).unwrap();
//! assert_eq!(next.grid(), [[2, 0, 0, 0], [2, 0, 0, 0], [0; 4], [0, 0, 4, 0]]);
//! let spawn = slide.spawn;
//! assert_eq!((spawn.row, spawn.col, spawn.value, slide.gained), (3, 2, 4, 0));
//! assert_eq!(Position::from_code(&next.to_code()), Ok(next));
//! ```
//!
//! # Engine
//!
//! The board keeps the low 4 bits of each exponent as a nibble of a `u64`
//! (16 bits per row) and the fifth bit (tiles 65536 and 131072) aside. While
//! no tile is above 32768 and at most one is 32768 (so no merge can make
//! 65536), a move works on the nibbles: four lookups, by row or by column
//! (a column is gathered into 16 bits with one multiplication), in tables of
//! XOR deltas, with the gain in a table of its own (1.4 MiB in all, computed
//! by the compiler). Any other board goes through the 5-bit engine instead:
//! a `u128` of 5-bit exponents with a 32-bit lane per row and two
//! 2^20-entry tables (8 MiB, built on the first such move). Both derive from
//! the same row rule and give the same results.
//!
//! A position keeps its score as the number of spawned 4s inside its tiles
//! (see [`Position::score`]): a slide changes the tiles' own worth by
//! exactly what it gains, so sliding leaves that number alone and a search
//! that does not ask for the gain does not pay for it. It also keeps the
//! sum of its tiles, which slides do not change either: while it is below
//! 65536 the nibbles suffice, and a slide knows it from the sum's sign
//! without looking at the tiles. A search that expands all four moves of a
//! position asks [`Position::each_slide`], which looks at the sign once for
//! the four and hands each result to the caller's closure.

mod board;
mod code;
mod position;
mod types;

pub use code::{CodeError, CODE_LEN, CODE_VERSION};
pub use position::{GridError, IllegalMove, Position, Setup};
pub use types::{Direction, ParseDirectionError, Slide, Spawn};
