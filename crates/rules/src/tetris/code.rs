//! The state code (layout in the module documentation).

use crate::code::{decode, encode, Layout, SyntaxError};
use crate::Reason;

use super::board::{Board, Piece, FULL, HEIGHT, WIDTH};
use super::position::{Bag, LastMove, Position, TopOut, QUEUE_LEN};
use super::types::{Kind, Rotation};

/// The layout version written in the first byte.
pub const CODE_VERSION: u8 = 1;

/// Codes of every length that makes whole bytes.
const LAYOUT: Layout = Layout::variable("tetris");

/// Why a string is not a Tetris code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not base64 of whole bytes: empty, a padding or foreign character,
    /// a length of 4n + 1, or bits after the last byte.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The bytes end inside a field.
    #[error("the code ends inside the {field} field")]
    Truncated {
        /// The field being read.
        field: &'static str,
    },
    /// Bytes or set bits after the last field.
    #[error("the code goes on after its last field (the board rows): {bits} bits more, which must be zero padding of less than a byte")]
    TrailingData {
        /// Bits left after the last field.
        bits: usize,
    },
    /// The first byte is not a known layout version.
    #[error("version byte {version}: this is not a tetris code of a known layout (the current version is {CODE_VERSION})")]
    UnknownVersion {
        /// The version byte found.
        version: u8,
    },
    /// A field value outside its range.
    #[error("field {field} holds {value}, which is out of range")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// The value found.
        value: u64,
    },
    /// A field written longer than it needs, or a board with an empty top
    /// row: another code is the canonical one.
    #[error(
        "field {field} is not written in its shortest form, so this is not the canonical code"
    )]
    NotCanonical {
        /// The field.
        field: &'static str,
    },
    /// A full row, which the game would have cleared.
    #[error("row {row} (from the bottom) is full; full rows are cleared as they are made")]
    FullRow {
        /// Row, 0 = bottom.
        row: usize,
    },
    /// The active piece leaves the field or overlaps the stack.
    #[error("the active {kind} in state {rotation} at box column {col}, row {row} leaves the field or overlaps the stack")]
    PieceCollides {
        /// The piece.
        kind: Kind,
        /// Its state.
        rotation: Rotation,
        /// Box column.
        col: i8,
        /// Box row.
        row: i8,
    },
    /// A finished game whose piece is not in its spawn place with no
    /// rotation flag.
    #[error("the game is over, so the piece must be recorded in its spawn place and state with no rotation flag")]
    OverPieceMisplaced,
    /// O in a state other than spawn, or with a rotation flag: O does not
    /// rotate.
    #[error("O does not rotate: its state must be 0 and its rotation flag clear")]
    RotatedO,
    /// Hold marked used while nothing is held.
    #[error("hold is marked used but nothing is held")]
    HoldUsedWithoutHold,
    /// A kind twice in what is left of the bag.
    #[error("{kind} appears twice in the rest of the bag")]
    RepeatedInBag {
        /// The repeated kind.
        kind: Kind,
    },
    /// A level below the one the lines have reached.
    #[error("level {level} is below {least}, the level {lines} cleared lines reach")]
    LevelTooLow {
        /// The level found.
        level: u32,
        /// The lines found.
        lines: u32,
        /// The least level allowed.
        least: u32,
    },
}

impl Reason for CodeError {
    fn reason(&self) -> &'static str {
        match self {
            CodeError::Syntax(e) => e.reason(),
            CodeError::Truncated { .. } => "wrong-length",
            CodeError::TrailingData { .. } => "trailing-bits",
            CodeError::UnknownVersion { .. } => "unknown-version",
            CodeError::OutOfRange { .. } => "value-out-of-range",
            CodeError::NotCanonical { .. } => "not-canonical",
            CodeError::FullRow { .. } => "full-row",
            CodeError::PieceCollides { .. } => "piece-collides",
            CodeError::OverPieceMisplaced
            | CodeError::RotatedO
            | CodeError::HoldUsedWithoutHold
            | CodeError::RepeatedInBag { .. }
            | CodeError::LevelTooLow { .. } => "impossible-state",
        }
    }
}

struct Writer {
    bytes: Vec<u8>,
    bits: usize,
}

impl Writer {
    fn put(&mut self, width: u32, value: u64) {
        for i in (0..width).rev() {
            if self.bits.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if value >> i & 1 == 1 {
                if let Some(b) = self.bytes.last_mut() {
                    *b |= 0x80 >> (self.bits % 8);
                }
            }
            self.bits += 1;
        }
    }

    /// `len_width` bits of bit length, then the value in that many bits.
    fn put_var(&mut self, len_width: u32, value: u64) {
        let n = 64 - value.leading_zeros();
        self.put(len_width, u64::from(n));
        self.put(n, value);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    bit: usize,
}

impl Reader<'_> {
    fn get(&mut self, width: u32, field: &'static str) -> Result<u64, CodeError> {
        let mut v = 0u64;
        for _ in 0..width {
            let byte = self
                .bytes
                .get(self.bit / 8)
                .ok_or(CodeError::Truncated { field })?;
            v = v << 1 | u64::from(byte >> (7 - self.bit % 8) & 1);
            self.bit += 1;
        }
        Ok(v)
    }

    fn get_var(
        &mut self,
        len_width: u32,
        max_len: u64,
        field: &'static str,
    ) -> Result<u64, CodeError> {
        let n = self.get(len_width, field)?;
        if n > max_len {
            return Err(CodeError::OutOfRange { field, value: n });
        }
        let v = self.get(n as u32, field)?;
        if n > 0 && v >> (n - 1) != 1 {
            return Err(CodeError::NotCanonical { field });
        }
        Ok(v)
    }

    fn kind(&mut self, field: &'static str) -> Result<Kind, CodeError> {
        let v = self.get(3, field)?;
        Kind::ALL
            .get(v as usize)
            .copied()
            .ok_or(CodeError::OutOfRange { field, value: v })
    }
}

fn kind_bits(k: Kind) -> u64 {
    k.index() as u64
}

impl Position {
    /// The canonical code.
    pub fn to_code(&self) -> String {
        let mut w = Writer {
            bytes: Vec::with_capacity(24),
            bits: 0,
        };
        w.put(8, u64::from(CODE_VERSION));
        w.put(3, kind_bits(self.piece.kind));
        w.put(2, self.piece.rot.index() as u64);
        // A piece inside the field has its box corner in columns -2..=11
        // and rows 0..=43 (see `Position::with_piece`).
        w.put(4, (i64::from(self.piece.x) + 2) as u64);
        w.put(6, self.piece.y.max(0) as u64);
        w.put(2, u64::from(self.last.index()));
        w.put(
            2,
            match self.over {
                None => 0,
                Some(TopOut::BlockOut) => 1,
                Some(TopOut::LockOut) => 2,
            },
        );
        w.put(1, u64::from(self.hold_used));
        w.put(3, self.hold.map_or(0, |k| kind_bits(k) + 1));
        for k in self.queue {
            w.put(3, kind_bits(k));
        }
        w.put(3, u64::from(self.bag.len));
        for &k in self.bag.as_slice() {
            w.put(3, kind_bits(k));
        }
        w.put(64, self.rng);
        w.put_var(7, self.score);
        w.put_var(6, u64::from(self.lines));
        w.put_var(6, u64::from(self.level));
        let h = self.board.height();
        w.put(6, h as u64);
        for &row in &self.board.rows[..h] {
            for c in 0..WIDTH {
                w.put(1, u64::from(row >> c & 1));
            }
        }
        encode(&w.bytes)
    }

    /// Reads a code.
    ///
    /// # Errors
    ///
    /// A [`CodeError`] naming the offending character, field or rule.
    pub fn from_code(code: &str) -> Result<Position, CodeError> {
        let bytes = decode(code, &LAYOUT)?;
        let mut r = Reader {
            bytes: &bytes,
            bit: 0,
        };
        let version = r.get(8, "version")? as u8;
        if version != CODE_VERSION {
            return Err(CodeError::UnknownVersion { version });
        }
        let kind = r.kind("piece kind")?;
        let rot = Rotation::ALL[r.get(2, "piece rotation")? as usize];
        let x = r.get(4, "piece column")? as i8 - 2;
        let y = r.get(6, "piece row")? as i8;
        let last = match r.get(2, "rotation flag")? {
            0 => LastMove::Other,
            1 => LastMove::Rotation,
            2 => LastMove::RotationKick5,
            v => {
                return Err(CodeError::OutOfRange {
                    field: "rotation flag",
                    value: v,
                })
            }
        };
        let over = match r.get(2, "game state")? {
            0 => None,
            1 => Some(TopOut::BlockOut),
            2 => Some(TopOut::LockOut),
            v => {
                return Err(CodeError::OutOfRange {
                    field: "game state",
                    value: v,
                })
            }
        };
        let hold_used = r.get(1, "hold used")? == 1;
        let hold = match r.get(3, "hold")? {
            0 => None,
            v => Some(
                Kind::ALL
                    .get(v as usize - 1)
                    .copied()
                    .ok_or(CodeError::OutOfRange {
                        field: "hold",
                        value: v,
                    })?,
            ),
        };
        let mut queue = [Kind::I; QUEUE_LEN];
        for slot in &mut queue {
            *slot = r.kind("queue")?;
        }
        let len = r.get(3, "bag length")?;
        if len > 6 {
            return Err(CodeError::OutOfRange {
                field: "bag length",
                value: len,
            });
        }
        let mut bag = Bag::EMPTY;
        bag.len = len as u8;
        for i in 0..len as usize {
            bag.kinds[i] = r.kind("bag")?;
        }
        let rng = r.get(64, "generator state")?;
        let score = r.get_var(7, 64, "score")?;
        let lines = r.get_var(6, 32, "lines")? as u32;
        let level = r.get_var(6, 32, "level")? as u32;
        let h = r.get(6, "board height")? as usize;
        if h > HEIGHT {
            return Err(CodeError::OutOfRange {
                field: "board height",
                value: h as u64,
            });
        }
        let mut board = Board::EMPTY;
        for row in 0..h {
            let mut mask = 0u16;
            for c in 0..WIDTH {
                mask |= (r.get(1, "board")? as u16) << c;
            }
            if mask == FULL {
                return Err(CodeError::FullRow { row });
            }
            board.rows[row] = mask;
        }
        if h > 0 && board.rows[h - 1] == 0 {
            return Err(CodeError::NotCanonical {
                field: "board height",
            });
        }
        let left = bytes.len() * 8 - r.bit;
        if left >= 8 || r.get(left as u32, "padding")? != 0 {
            return Err(CodeError::TrailingData { bits: left });
        }

        let piece = Piece { kind, rot, x, y };
        if kind == Kind::O && (rot != Rotation::Spawn || last != LastMove::Other) {
            return Err(CodeError::RotatedO);
        }
        match over {
            Some(_) => {
                if piece != Piece::spawn(kind) || last != LastMove::Other {
                    return Err(CodeError::OverPieceMisplaced);
                }
            }
            None => {
                if !board.fits(piece) {
                    return Err(CodeError::PieceCollides {
                        kind,
                        rotation: rot,
                        col: x,
                        row: y,
                    });
                }
            }
        }
        if hold_used && hold.is_none() {
            return Err(CodeError::HoldUsedWithoutHold);
        }
        let dealt = bag.as_slice();
        for (i, &k) in dealt.iter().enumerate() {
            if dealt[..i].contains(&k) {
                return Err(CodeError::RepeatedInBag { kind: k });
            }
        }
        let least = lines / 10 + 1;
        if level < least {
            return Err(CodeError::LevelTooLow {
                level,
                lines,
                least,
            });
        }
        Ok(Position {
            board,
            piece,
            hold,
            hold_used,
            queue,
            bag,
            rng,
            score,
            lines,
            level,
            last,
            over,
        })
    }
}
