//! The state code: 19 bytes (pawns and side to move, walls left, wall map)
//! in URL-safe base64 without padding, 26 characters. The layout is
//! documented in the module documentation ([`super`]).

use crate::code::{decode_fixed, encode, SyntaxError};
use crate::Reason;

use super::position::{Setup, SetupError};
use super::types::{Orientation, Player, Square, Wall};
use super::Position;

/// Bytes of a code: two pawn bytes, one walls-left byte, 16 wall-map bytes.
const BYTES: usize = 3 + 16;
/// Characters of a code: ⌈19 × 8 / 6⌉.
pub const CODE_LENGTH: usize = crate::code::chars_for(BYTES);
/// Byte 0, bit 7: player 2 to move.
const TURN_BIT: u8 = 0x80;
/// Byte 1, bit 7: reserved, always zero.
const RESERVED_BIT: u8 = 0x80;

/// Why a string is not a quoridor code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64 of 19 bytes: the length, a padding or foreign
    /// character, or bits after the last byte.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The reserved top bit of byte 1 is set.
    #[error("byte 1 is {byte:#010b}: its top bit is reserved and must be zero")]
    ReservedBit {
        /// The byte.
        byte: u8,
    },
    /// A pawn square beyond `i9`.
    #[error("player {player}'s pawn is square {value}, but squares are 0–80 (rank × 9 + file)")]
    PawnSquare {
        /// The player.
        player: Player,
        /// The value found.
        value: u8,
    },
    /// A wall-map slot holding 3.
    #[error("the wall slot of anchor {anchor} holds 3; 0 is no wall, 1 horizontal, 2 vertical")]
    WallSlot {
        /// The anchor square of the slot.
        anchor: Square,
    },
    /// The fields are read but do not make a position.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl Reason for CodeError {
    fn reason(&self) -> &'static str {
        match self {
            CodeError::Syntax(e) => e.reason(),
            CodeError::ReservedBit { .. } => "unused-bit",
            CodeError::PawnSquare { .. } => "square-out-of-range",
            CodeError::WallSlot { .. } => "wall-slot",
            CodeError::Setup(e) => e.reason(),
        }
    }
}

impl Position {
    /// The canonical code, always [`CODE_LENGTH`] (26) characters (see the
    /// module documentation for the layout).
    pub fn to_code(&self) -> String {
        let mut bytes = [0u8; BYTES];
        bytes[0] = self.pawn(Player::One).index();
        if self.turn() == Player::Two {
            bytes[0] |= TURN_BIT;
        }
        bytes[1] = self.pawn(Player::Two).index();
        bytes[2] = self.walls_left(Player::One) << 4 | self.walls_left(Player::Two);
        for wall in self.walls() {
            let k = usize::from(wall.anchor_index());
            let value = match wall.orientation() {
                Orientation::Horizontal => 1,
                Orientation::Vertical => 2,
            };
            bytes[3 + k / 4] |= value << (2 * (k % 4));
        }
        encode(&bytes)
    }

    /// Reads a code.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, byte or field, or the
    /// [`SetupError`] of the position it describes.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let bytes: [u8; BYTES] = decode_fixed(code, "quoridor")?;
        if bytes[1] & RESERVED_BIT != 0 {
            return Err(CodeError::ReservedBit { byte: bytes[1] });
        }
        let to_move = if bytes[0] & TURN_BIT != 0 {
            Player::Two
        } else {
            Player::One
        };
        let pawn = |player: Player, value: u8| {
            Square::from_index(value).ok_or(CodeError::PawnSquare { player, value })
        };
        let pawns = [
            pawn(Player::One, bytes[0] & !TURN_BIT)?,
            pawn(Player::Two, bytes[1])?,
        ];
        let walls_left = [bytes[2] >> 4, bytes[2] & 0x0f];
        let mut walls = Vec::new();
        // The horizontal wall of every anchor, in anchor order.
        for slot in Wall::all().filter(|w| w.orientation() == Orientation::Horizontal) {
            let k = usize::from(slot.anchor_index());
            match (bytes[3 + k / 4] >> (2 * (k % 4))) & 0b11 {
                0 => {}
                1 => walls.push(slot),
                2 => walls.push(slot.turned(Orientation::Vertical)),
                _ => {
                    return Err(CodeError::WallSlot {
                        anchor: slot.anchor(),
                    })
                }
            }
        }
        Ok(Position::from_setup(&Setup {
            pawns,
            walls,
            walls_left,
            to_move,
        })?)
    }
}
