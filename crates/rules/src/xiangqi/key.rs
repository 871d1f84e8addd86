//! Zobrist keys: a 64-bit fingerprint of a position, so that a history of
//! hundreds of plies can be searched for repetitions by comparing one
//! integer per ply.
//!
//! A key is the exclusive or of one random number per (piece, point) on the
//! board and one for black to move. It depends on what stands where and on
//! whose turn it is, never on which of the state code's slots a piece
//! occupies, so two equal positions always have equal keys. Two different
//! positions share a key with probability about 2⁻⁶⁴ per pair: for a window
//! of a few hundred plies the chance of a false repetition is far below
//! that of a hardware fault, which is the trade every engine makes
//! (Fairy-Stockfish compares keys alone too).

use std::fmt;

use super::position::{Position, SLOT_PIECE};
use super::types::{Piece, Role, Side, Square};

/// The Zobrist key of a position: equal positions (same pieces on the same
/// points, same side to move) have equal keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionKey(u64);

impl PositionKey {
    /// The key as a number (for storing or logging it).
    pub fn value(self) -> u64 {
        self.0
    }
}

impl fmt::Display for PositionKey {
    /// Sixteen lower-case hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// SplitMix64, the generator the tables are filled from at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// One random number per piece kind (side × role, 14) and point.
static PIECE_SQUARE: [[u64; Square::COUNT]; 14] = {
    let mut t = [[0u64; Square::COUNT]; 14];
    let mut state = 0x7169_7061_6e5f_7871; // "qipan_xq"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < Square::COUNT {
            let (next, value) = splitmix(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Added when black is to move.
const BLACK_TO_MOVE: u64 = splitmix(0x626c_6163_6b5f_746f).1;

/// The table row of a piece kind.
fn kind(piece: Piece) -> usize {
    let role = match piece.role {
        Role::General => 0,
        Role::Advisor => 1,
        Role::Elephant => 2,
        Role::Horse => 3,
        Role::Chariot => 4,
        Role::Cannon => 5,
        Role::Soldier => 6,
    };
    piece.side.index() * 7 + role
}

impl Position {
    /// The position's Zobrist key, from its 32 slots (no board scan).
    pub fn key(&self) -> PositionKey {
        let mut k = match self.turn() {
            Side::Red => 0,
            Side::Black => BLACK_TO_MOVE,
        };
        for (slot, &point) in self.slots().iter().enumerate() {
            if let Some(square) = Square::new(point) {
                k ^= PIECE_SQUARE[kind(SLOT_PIECE[slot])][square.index()];
            }
        }
        PositionKey(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_have_no_repeated_entry() {
        let mut all: Vec<u64> = PIECE_SQUARE.iter().flatten().copied().collect();
        all.push(BLACK_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn side_to_move_changes_the_key() {
        let red = Position::start();
        let mut setup = red.to_setup();
        setup.turn = Side::Black;
        let black = Position::from_setup(&setup).expect("the start with black to move");
        assert_ne!(red.key(), black.key());
        assert_eq!(
            red.key().value() ^ black.key().value(),
            BLACK_TO_MOVE,
            "only the side term differs"
        );
    }

    #[test]
    fn a_move_and_its_return_give_back_the_key() {
        let start = Position::start();
        let mut p = start.clone();
        for m in ["b0c2", "b9c7", "c2b0", "c7b9"] {
            p = p.play(m.parse().expect("ICCS")).expect("legal");
        }
        assert_eq!(p, start);
        assert_eq!(p.key(), start.key());
        assert_eq!(p.key().to_string().len(), 16);
    }
}
