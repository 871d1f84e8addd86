//! Tetris positions as fumen (テト譜) v115 strings, the form Tetris players
//! share positions and setups in (`v115@vhAAgH`).
//!
//! [`decode`] reads every page of a fumen into [`Page`]s (field, the piece
//! placed, comment, flags), as knewjade's tetris-fumen library does:
//! fields carried over from page to page, pieces locked and lines cleared,
//! garbage risen, fields mirrored, quiz comments (`#Q=[H](C)NEXT`)
//! advanced as pieces lock. [`encode`] writes pages back, byte for byte as
//! that library writes them.
//!
//! Between fumen pages and qipan positions: [`positions`] makes one
//! position a page (the filled cells, whatever their colour; the current
//! piece the quiz names or else the page's piece, placed where the page
//! places it when it fits there; the hold and the queue from the quiz), and
//! [`from_position`] writes a position as a one-page fumen (filled cells
//! grey, the current piece where it stands, hold and queue as a quiz
//! comment). What fumen cannot say (the score, the generator's seed) is
//! lost on the way: a position read back plays on with pieces from seed 0.

mod quiz;

use qipan_rules::tetris::{Kind, Position, Rotation, Setup, SetupError, QUEUE_LEN};

use crate::MAX_INPUT_BYTES;
use quiz::Quiz;

/// The rows of a fumen field above its garbage row.
pub const FIELD_TOP: usize = 23;
/// The columns.
pub const WIDTH: usize = 10;
/// Cells in a field with its garbage row.
const BLOCKS: usize = (FIELD_TOP + 1) * WIDTH;
/// The most pages a fumen may have here.
pub const MAX_PAGES: usize = 2000;

const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const COMMENT_TABLE: &[u8] =
    b" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
/// A comment character's radix: the table and one more.
const COMMENT_RADIX: u64 = COMMENT_TABLE.len() as u64 + 1;

/// A cell of a fumen field, or a piece: fumen's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    /// No block.
    #[default]
    Empty,
    /// A block of a piece's colour.
    Piece(Kind),
    /// A grey (garbage) block.
    Gray,
}

impl Cell {
    fn number(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Piece(k) => piece_number(k),
            Cell::Gray => 8,
        }
    }

    fn of(n: u8) -> Option<Cell> {
        Some(match n {
            0 => Cell::Empty,
            8 => Cell::Gray,
            n => Cell::Piece(piece_of(n)?),
        })
    }
}

fn piece_number(k: Kind) -> u8 {
    match k {
        Kind::I => 1,
        Kind::L => 2,
        Kind::O => 3,
        Kind::Z => 4,
        Kind::T => 5,
        Kind::J => 6,
        Kind::S => 7,
    }
}

fn piece_of(n: u8) -> Option<Kind> {
    Some(match n {
        1 => Kind::I,
        2 => Kind::L,
        3 => Kind::O,
        4 => Kind::Z,
        5 => Kind::T,
        6 => Kind::J,
        7 => Kind::S,
        _ => return None,
    })
}

fn kind_of_letter(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'I' => Kind::I,
        'L' => Kind::L,
        'O' => Kind::O,
        'Z' => Kind::Z,
        'T' => Kind::T,
        'J' => Kind::J,
        'S' => Kind::S,
        _ => return None,
    })
}

/// A fumen field: 23 rows and the garbage row under them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// `rows[0]` is the garbage row (y = -1), `rows[y + 1]` row `y` from the
    /// bottom.
    rows: [[Cell; WIDTH]; FIELD_TOP + 1],
}

impl Default for Field {
    fn default() -> Field {
        Field {
            rows: [[Cell::Empty; WIDTH]; FIELD_TOP + 1],
        }
    }
}

impl Field {
    /// The cell at column `x` (0 = left) and row `y` (0 = bottom, -1 the
    /// garbage row); empty outside.
    pub fn get(&self, x: i32, y: i32) -> Cell {
        self.slot(x, y)
            .map_or(Cell::Empty, |(r, c)| self.rows[r][c])
    }

    /// Sets a cell; outside the field, nothing.
    pub fn set(&mut self, x: i32, y: i32, cell: Cell) {
        if let Some((r, c)) = self.slot(x, y) {
            self.rows[r][c] = cell;
        }
    }

    fn slot(&self, x: i32, y: i32) -> Option<(usize, usize)> {
        let c = usize::try_from(x).ok().filter(|&c| c < WIDTH)?;
        let r = usize::try_from(y + 1).ok().filter(|&r| r <= FIELD_TOP)?;
        Some((r, c))
    }

    fn fill(&mut self, op: &Operation) {
        for (x, y) in op.cells() {
            self.set(x, y, Cell::Piece(op.kind));
        }
    }

    /// Clears the full rows of the play field (not the garbage row).
    fn clear_lines(&mut self) {
        let kept: Vec<[Cell; WIDTH]> = self.rows[1..]
            .iter()
            .filter(|row| row.contains(&Cell::Empty))
            .copied()
            .collect();
        for (i, row) in self.rows[1..].iter_mut().enumerate() {
            *row = kept.get(i).copied().unwrap_or([Cell::Empty; WIDTH]);
        }
    }

    /// The garbage row rises into the field, which moves up a row.
    fn rise(&mut self) {
        for r in (2..=FIELD_TOP).rev() {
            self.rows[r] = self.rows[r - 1];
        }
        self.rows[1] = self.rows[0];
        self.rows[0] = [Cell::Empty; WIDTH];
    }

    fn mirror(&mut self) {
        for row in &mut self.rows[1..] {
            row.reverse();
        }
    }
}

/// A piece on a page: its kind, its state and where its centre block is,
/// as fumen places pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The piece.
    pub kind: Kind,
    /// Its state.
    pub rotation: Rotation,
    /// Its centre's column.
    pub x: i32,
    /// Its centre's row from the bottom.
    pub y: i32,
}

impl Operation {
    /// Its four cells, `(x, y)`.
    pub fn cells(&self) -> [(i32, i32); 4] {
        let spawn: [(i32, i32); 4] = match self.kind {
            Kind::I => [(0, 0), (-1, 0), (1, 0), (2, 0)],
            Kind::T => [(0, 0), (-1, 0), (1, 0), (0, 1)],
            Kind::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Kind::L => [(0, 0), (-1, 0), (1, 0), (1, 1)],
            Kind::J => [(0, 0), (-1, 0), (1, 0), (-1, 1)],
            Kind::S => [(0, 0), (-1, 0), (0, 1), (1, 1)],
            Kind::Z => [(0, 0), (1, 0), (0, 1), (-1, 1)],
        };
        spawn.map(|(dx, dy)| {
            let (dx, dy) = match self.rotation {
                Rotation::Spawn => (dx, dy),
                Rotation::Right => (dy, -dx),
                Rotation::Reverse => (-dx, -dy),
                Rotation::Left => (-dy, dx),
            };
            (self.x + dx, self.y + dy)
        })
    }
}

/// A page's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flags {
    /// The piece locks, lines clear, and the next page starts from that.
    pub lock: bool,
    /// The field is mirrored after the page.
    pub mirror: bool,
    /// Pieces are drawn in guideline colours.
    pub colorize: bool,
    /// The garbage row rises after the page.
    pub rise: bool,
    /// A quiz comment is in force.
    pub quiz: bool,
}

/// One page of a fumen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The field before the page's piece is placed.
    pub field: Field,
    /// The piece placed, if any.
    pub operation: Option<Operation>,
    /// The comment in force (a quiz as it stands on this page).
    pub comment: String,
    /// The flags.
    pub flags: Flags,
}

/// A page to write: what is not given is carried over, as the fumen
/// editor does.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EncodePage {
    /// The field; `None` keeps the field the page before left.
    pub field: Option<Field>,
    /// The piece.
    pub operation: Option<Operation>,
    /// The comment.
    pub comment: Option<String>,
    /// Lock (`None`: lock).
    pub lock: Option<bool>,
    /// Mirror after.
    pub mirror: bool,
    /// Colours (`None`: on the first page only).
    pub colorize: Option<bool>,
    /// Garbage rises after.
    pub rise: bool,
}

impl From<&Page> for EncodePage {
    fn from(p: &Page) -> EncodePage {
        EncodePage {
            field: Some(p.field.clone()),
            operation: p.operation,
            comment: Some(p.comment.clone()),
            lock: Some(p.flags.lock),
            mirror: p.flags.mirror,
            colorize: Some(p.flags.colorize),
            rise: p.flags.rise,
        }
    }
}

/// Why a text is not a fumen, or a page not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FumenError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the text has {size} bytes, more than the {limit} a fumen may have")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// No `v115@` (or `m115@`, `d115@`) in the text.
    #[error("a fumen starts with v115@; there is none in the text")]
    NotFumen,
    /// An older version (`v110@`), which is not read.
    #[error("fumen version {version} is not read; only v115")]
    UnsupportedVersion {
        /// The version found.
        version: String,
    },
    /// A character outside fumen's alphabet.
    #[error(
        "character {offset} of the data after v115@ is {character:?}, not one of A–Z a–z 0–9 + /"
    )]
    BadCharacter {
        /// Its index in the data (the `?` and spaces removed).
        offset: usize,
        /// The character.
        character: char,
    },
    /// The data ends inside a page.
    #[error("page {page}: the data ends at character {offset} while {what} needs more")]
    Truncated {
        /// The page, from 1.
        page: usize,
        /// Where the data ends.
        offset: usize,
        /// What was being read.
        what: &'static str,
    },
    /// A field value out of range.
    #[error("page {page}, character {offset}: {problem}")]
    BadField {
        /// The page, from 1.
        page: usize,
        /// Where the value starts.
        offset: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// An action value out of range.
    #[error("page {page}, character {offset}: the piece value {value} is out of range")]
    BadAction {
        /// The page, from 1.
        page: usize,
        /// Where the value starts.
        offset: usize,
        /// The value.
        value: u64,
    },
    /// A comment character out of range.
    #[error("page {page}, character {offset}: the comment holds a character fumen cannot write")]
    BadComment {
        /// The page, from 1.
        page: usize,
        /// Where the value starts.
        offset: usize,
    },
    /// More pages than [`MAX_PAGES`].
    #[error("the fumen has more than {MAX_PAGES} pages")]
    TooManyPages,
    /// A page with no piece to play: no quiz and no piece placed.
    #[error("page {page} has no piece to play (no piece placed and no quiz naming one)")]
    NoPiece {
        /// The page, from 1.
        page: usize,
    },
    /// A page the rules refuse as a position (a full row, a piece that
    /// cannot appear).
    #[error("page {page}: {error}")]
    Position {
        /// The page, from 1.
        page: usize,
        /// Why.
        error: SetupError,
    },
    /// A position with blocks above fumen's 23 rows.
    #[error("row {row} holds blocks; a fumen field has 23 rows")]
    TooTall {
        /// The highest row with a block, from 0 at the bottom.
        row: usize,
    },
}

impl qipan_rules::Reason for FumenError {
    fn reason(&self) -> &'static str {
        match self {
            FumenError::TooLarge { .. } => "too-large",
            FumenError::NotFumen => "not-fumen",
            FumenError::UnsupportedVersion { .. } => "unsupported-version",
            FumenError::BadCharacter { .. } => "bad-character",
            FumenError::Truncated { .. } => "truncated",
            FumenError::BadField { .. } => "bad-field",
            FumenError::BadAction { .. } => "bad-action",
            FumenError::BadComment { .. } => "bad-comment",
            FumenError::TooManyPages => "too-many-pages",
            FumenError::NoPiece { .. } => "no-piece",
            FumenError::Position { error, .. } => error.reason(),
            FumenError::TooTall { .. } => "too-tall",
        }
    }
}

/// The data of a fumen: after `v115@` (or `m115@`, `d115@`), up to a URL's
/// next parameter, `?` and whitespace removed.
fn extract(text: &str) -> Result<String, FumenError> {
    let find = |version: &str| {
        ['v', 'm', 'd']
            .iter()
            .filter_map(|p| text.find(&format!("{p}{version}@")))
            .min()
    };
    let Some(at) = find("115") else {
        if find("110").is_some() {
            return Err(FumenError::UnsupportedVersion {
                version: "110".into(),
            });
        }
        return Err(FumenError::NotFumen);
    };
    let data = &text[at + 5..];
    let data = data.split('&').next().unwrap_or_default();
    Ok(data
        .chars()
        .filter(|&c| c != '?' && !c.is_whitespace())
        .collect())
}

struct Reader {
    values: Vec<u8>,
    at: usize,
    page: usize,
}

impl Reader {
    fn poll(&mut self, n: usize, what: &'static str) -> Result<u64, FumenError> {
        let Some(digits) = self.values.get(self.at..self.at + n) else {
            return Err(FumenError::Truncated {
                page: self.page,
                offset: self.values.len(),
                what,
            });
        };
        self.at += n;
        Ok(digits
            .iter()
            .rev()
            .fold(0u64, |acc, &d| acc * 64 + u64::from(d)))
    }

    fn is_empty(&self) -> bool {
        self.at >= self.values.len()
    }
}

/// Every page of a fumen.
///
/// # Errors
///
/// [`FumenError`]: no v115 data, a character outside the alphabet, data
/// that ends inside a page or holds values out of range, too many pages.
pub fn decode(text: &str) -> Result<Vec<Page>, FumenError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(FumenError::TooLarge {
            size: text.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let data = extract(text)?;
    let values = data
        .chars()
        .enumerate()
        .map(|(offset, character)| {
            u8::try_from(character)
                .ok()
                .and_then(|b| TABLE.iter().position(|&t| t == b))
                .map(|v| v as u8)
                .ok_or(FumenError::BadCharacter { offset, character })
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let mut r = Reader {
        values,
        at: 0,
        page: 1,
    };
    let mut pages: Vec<Page> = Vec::new();
    let mut prev = Field::default();
    let mut repeat: u64 = 0;
    let mut quiz: Option<Quiz> = None;
    let mut last_comment = String::new();
    while !r.is_empty() {
        let index = pages.len();
        if index >= MAX_PAGES {
            return Err(FumenError::TooManyPages);
        }
        r.page = index + 1;
        let mut field = prev.clone();
        if repeat > 0 {
            repeat -= 1;
        } else {
            let mut cell = 0usize;
            let mut changed = true;
            while cell < BLOCKS {
                let offset = r.at;
                let v = r.poll(2, "the field")?;
                let diff = v / BLOCKS as u64;
                let count = (v % BLOCKS as u64) as usize + 1;
                if diff > 16 {
                    return Err(FumenError::BadField {
                        page: r.page,
                        offset,
                        problem: "a field difference is out of range",
                    });
                }
                if diff == 8 && count == BLOCKS {
                    changed = false;
                }
                for _ in 0..count {
                    if cell >= BLOCKS {
                        return Err(FumenError::BadField {
                            page: r.page,
                            offset,
                            problem: "the field's runs cover more than its 240 cells",
                        });
                    }
                    let x = (cell % WIDTH) as i32;
                    let y = FIELD_TOP as i32 - (cell / WIDTH) as i32 - 1;
                    let now = i64::from(field.get(x, y).number()) + diff as i64 - 8;
                    let next =
                        u8::try_from(now)
                            .ok()
                            .and_then(Cell::of)
                            .ok_or(FumenError::BadField {
                                page: r.page,
                                offset,
                                problem: "a cell's value leaves the range of pieces",
                            })?;
                    field.set(x, y, next);
                    cell += 1;
                }
            }
            if !changed {
                repeat = r.poll(1, "the repeat count")?;
            }
        }
        let offset = r.at;
        let v = r.poll(3, "the piece")?;
        if v >= 8 * 4 * BLOCKS as u64 * 32 {
            return Err(FumenError::BadAction {
                page: r.page,
                offset,
                value: v,
            });
        }
        let kind_n = (v % 8) as u8;
        let rotation = match (v / 8) % 4 {
            0 => Rotation::Reverse,
            1 => Rotation::Right,
            2 => Rotation::Spawn,
            _ => Rotation::Left,
        };
        let coordinate = ((v / 32) % BLOCKS as u64) as i32;
        let bits = v / 32 / BLOCKS as u64;
        let rise = bits & 1 != 0;
        let mirror = bits & 2 != 0;
        let colorize = bits & 4 != 0;
        let has_comment = bits & 8 != 0;
        let lock = bits & 16 == 0;
        let operation = piece_of(kind_n).map(|kind| {
            let mut x = coordinate % WIDTH as i32;
            let mut y = FIELD_TOP as i32 - coordinate / 10 - 1;
            let (dx, dy) = adjustment(kind, rotation);
            x += dx;
            y += dy;
            Operation {
                kind,
                rotation,
                x,
                y,
            }
        });
        let comment = if has_comment {
            let length = r.poll(2, "the comment's length")? as usize;
            let mut text = String::with_capacity(length);
            for _ in 0..length.div_ceil(4) {
                let offset = r.at;
                let mut v = r.poll(5, "the comment")?;
                for _ in 0..4 {
                    let i = (v % COMMENT_RADIX) as usize;
                    let c = COMMENT_TABLE.get(i).ok_or(FumenError::BadComment {
                        page: r.page,
                        offset,
                    })?;
                    text.push(char::from(*c));
                    v /= COMMENT_RADIX;
                }
            }
            let text: String = text.chars().take(length).collect();
            let text = unescape(&text);
            last_comment = text.clone();
            quiz = if Quiz::is_quiz(&text) {
                Quiz::new(&text).ok()
            } else {
                None
            };
            text
        } else if index == 0 {
            String::new()
        } else {
            match &quiz {
                Some(q) => q.format().to_string(),
                None => last_comment.clone(),
            }
        };
        let in_quiz = quiz.is_some();
        if let Some(q) = &quiz {
            if q.can_operate() && lock {
                quiz = Some(match operation {
                    Some(op) => q
                        .after(op.kind.as_str().chars().next().unwrap_or('I'))
                        .unwrap_or_else(|_| q.format()),
                    None => q.format(),
                });
            }
        }
        pages.push(Page {
            field: field.clone(),
            operation,
            comment,
            flags: Flags {
                lock,
                mirror,
                colorize,
                rise,
                quiz: in_quiz,
            },
        });
        if lock {
            if let Some(op) = &operation {
                field.fill(op);
            }
            field.clear_lines();
            if rise {
                field.rise();
            }
            if mirror {
                field.mirror();
            }
        }
        prev = field;
    }
    Ok(pages)
}

/// How a stored coordinate differs from the piece's centre, for the
/// pieces whose fumen centre is not their rotation centre.
fn adjustment(kind: Kind, rotation: Rotation) -> (i32, i32) {
    match (kind, rotation) {
        (Kind::O, Rotation::Left) => (1, -1),
        (Kind::O, Rotation::Reverse) => (1, 0),
        (Kind::O, Rotation::Spawn) => (0, -1),
        (Kind::I, Rotation::Reverse) => (1, 0),
        (Kind::I, Rotation::Left) => (0, -1),
        (Kind::S, Rotation::Spawn) => (0, -1),
        (Kind::S, Rotation::Right) => (-1, 0),
        (Kind::Z, Rotation::Spawn) => (0, -1),
        (Kind::Z, Rotation::Left) => (1, 0),
        _ => (0, 0),
    }
}

struct Writer {
    values: Vec<u8>,
}

impl Writer {
    fn push(&mut self, mut value: u64, digits: usize) {
        for _ in 0..digits {
            self.values.push((value % 64) as u8);
            value /= 64;
        }
    }
}

/// The field values of `current` against `prev`, and whether it changed.
fn field_values(prev: &Field, current: &Field) -> (Vec<u8>, bool) {
    let mut w = Writer { values: Vec::new() };
    let diff = |i: usize| {
        let x = (i % WIDTH) as i32;
        let y = FIELD_TOP as i32 - (i / WIDTH) as i32 - 1;
        u64::from(current.get(x, y).number()) + 8 - u64::from(prev.get(x, y).number())
    };
    let mut run = diff(0);
    let mut counter: i64 = -1;
    for i in 0..BLOCKS {
        let d = diff(i);
        if d == run {
            counter += 1;
        } else {
            w.push(run * BLOCKS as u64 + counter as u64, 2);
            counter = 0;
            run = d;
        }
    }
    w.push(run * BLOCKS as u64 + counter as u64, 2);
    let changed = !(run == 8 && counter == BLOCKS as i64 - 1);
    (w.values, changed)
}

/// A fumen of `pages`, with its `v115@` prefix and a `?` after the first
/// 42 characters of data and every 47 after, as the fumen editor writes.
pub fn encode(pages: &[EncodePage]) -> String {
    let mut w = Writer { values: Vec::new() };
    let mut last_repeat: Option<usize> = None;
    let mut prev = Field::default();
    let mut prev_comment: Option<String> = Some(String::new());
    let mut prev_quiz: Option<Quiz> = None;
    for (index, page) in pages.iter().enumerate() {
        let mut field = page.field.clone().unwrap_or_else(|| prev.clone());
        let (values, changed) = field_values(&prev, &field);
        if changed {
            w.values.extend(values);
            last_repeat = None;
        } else {
            match last_repeat {
                Some(at) if w.values[at] < 63 => w.values[at] += 1,
                _ => {
                    w.values.extend(values);
                    w.push(0, 1);
                    last_repeat = Some(w.values.len() - 1);
                }
            }
        }
        let current = page.comment.clone().filter(|c| index != 0 || !c.is_empty());
        let next_comment = match &current {
            Some(c) if Quiz::is_quiz(c) => {
                if prev_quiz
                    .as_ref()
                    .is_some_and(|q| &q.format().to_string() == c)
                {
                    None
                } else {
                    prev_comment = Some(c.clone());
                    prev_quiz = Quiz::new(c).ok();
                    Some(c.clone())
                }
            }
            Some(c) => {
                if prev_quiz
                    .as_ref()
                    .is_some_and(|q| &q.format().to_string() == c)
                {
                    prev_comment = Some(c.clone());
                    prev_quiz = None;
                    None
                } else {
                    let next = (prev_comment.as_ref() != Some(c)).then(|| c.clone());
                    if next.is_some() {
                        prev_comment = next.clone();
                    }
                    prev_quiz = None;
                    next
                }
            }
            None => {
                prev_quiz = None;
                None
            }
        };
        if let Some(q) = &prev_quiz {
            if q.can_operate() && page.lock == Some(true) {
                prev_quiz = Some(match page.operation {
                    Some(op) => q
                        .after(op.kind.as_str().chars().next().unwrap_or('I'))
                        .unwrap_or_else(|_| q.format()),
                    None => q.format(),
                });
            }
        }
        let lock = page.lock.unwrap_or(true);
        let colorize = page.colorize.unwrap_or(index == 0);
        let (kind_n, rotation_n, position) = match page.operation {
            Some(op) => {
                let (dx, dy) = adjustment(op.kind, op.rotation);
                let (x, y) = (op.x - dx, op.y - dy);
                let rotation_n = match op.rotation {
                    Rotation::Reverse => 0,
                    Rotation::Right => 1,
                    Rotation::Spawn => 2,
                    Rotation::Left => 3,
                };
                let position = (FIELD_TOP as i32 - y - 1) * WIDTH as i32 + x;
                (
                    u64::from(piece_number(op.kind)),
                    rotation_n,
                    position.clamp(0, BLOCKS as i32 - 1) as u64,
                )
            }
            None => (0, 0, ((FIELD_TOP as i32 - 22 - 1) * WIDTH as i32) as u64),
        };
        let mut v = u64::from(!lock);
        v = v * 2 + u64::from(next_comment.is_some());
        v = v * 2 + u64::from(colorize);
        v = v * 2 + u64::from(page.mirror);
        v = v * 2 + u64::from(page.rise);
        v = v * BLOCKS as u64 + position;
        v = v * 4 + rotation_n;
        v = v * 8 + kind_n;
        w.push(v, 3);
        if next_comment.is_some() {
            let escaped = escape(page.comment.as_deref().unwrap_or_default());
            let chars: Vec<u8> = escaped.bytes().take(4095).collect();
            w.push(chars.len() as u64, 2);
            for group in chars.chunks(4) {
                let mut value = 0u64;
                for (count, &b) in group.iter().enumerate() {
                    let i = COMMENT_TABLE.iter().position(|&t| t == b).unwrap_or(0) as u64;
                    value += i * COMMENT_RADIX.pow(count as u32);
                }
                w.push(value, 5);
            }
        } else if page.comment.is_none() {
            prev_comment = None;
        }
        if lock {
            if let Some(op) = &page.operation {
                field.fill(op);
            }
            field.clear_lines();
            if page.rise {
                field.rise();
            }
            if page.mirror {
                field.mirror();
            }
        }
        prev = field;
    }
    let data: String = w
        .values
        .iter()
        .map(|&v| char::from(TABLE[v as usize]))
        .collect();
    let mut out = String::from("v115@");
    if data.len() < 41 {
        out.push_str(&data);
        return out;
    }
    out.push_str(&data[..42.min(data.len())]);
    for chunk in data.as_bytes()[42.min(data.len())..].chunks(47) {
        out.push('?');
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
    }
    out
}

/// JavaScript's `escape`: what fumen does to a comment before writing it.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || "@*_+-./".contains(c) {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            if u < 256 {
                out.push_str(&format!("%{u:02X}"));
            } else {
                out.push_str(&format!("%u{u:04X}"));
            }
        }
    }
    out
}

/// JavaScript's `unescape`.
fn unescape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut units: Vec<u16> = Vec::with_capacity(chars.len());
    let hex = |s: &[char]| -> Option<u16> {
        let s: String = s.iter().collect();
        if s.chars().all(|c| c.is_ascii_hexdigit()) {
            u16::from_str_radix(&s, 16).ok()
        } else {
            None
        }
    };
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '%' {
            if chars.get(i + 1) == Some(&'u') && i + 6 <= chars.len() {
                if let Some(u) = hex(&chars[i + 2..i + 6]) {
                    units.push(u);
                    i += 6;
                    continue;
                }
            }
            if i + 3 <= chars.len() {
                if let Some(u) = hex(&chars[i + 1..i + 3]) {
                    units.push(u);
                    i += 3;
                    continue;
                }
            }
        }
        let mut buf = [0u16; 2];
        units.extend_from_slice(chars[i].encode_utf16(&mut buf));
        i += 1;
    }
    String::from_utf16_lossy(&units)
}

/// The qipan position of each page (see the module documentation), or why
/// the page makes none: [`FumenError::NoPiece`] for a page with no piece
/// to play (a last page showing the finished field, say),
/// [`FumenError::Position`] for one the rules refuse (a full row, a piece
/// with no room to appear).
pub fn positions(pages: &[Page]) -> Vec<Result<Position, FumenError>> {
    pages
        .iter()
        .enumerate()
        .map(|(i, p)| position_of(p, i + 1))
        .collect()
}

fn position_of(page: &Page, number: usize) -> Result<Position, FumenError> {
    let quiz = page
        .flags
        .quiz
        .then(|| Quiz::new(&page.comment).ok())
        .flatten()
        .filter(Quiz::can_operate);
    let letters: Vec<Option<char>> = quiz.as_ref().map(Quiz::pieces).unwrap_or_default();
    let from_quiz = letters.first().copied().flatten().and_then(kind_of_letter);
    let piece = from_quiz
        .or(page.operation.map(|o| o.kind))
        .ok_or(FumenError::NoPiece { page: number })?;
    let queue: Vec<Kind> = letters
        .iter()
        .skip(1)
        .map_while(|c| c.and_then(kind_of_letter))
        .take(QUEUE_LEN)
        .collect();
    let hold = quiz
        .as_ref()
        .and_then(Quiz::hold_piece)
        .and_then(kind_of_letter);
    let rows = (0..FIELD_TOP as i32)
        .rev()
        .map(|y| {
            (0..WIDTH as i32)
                .map(|x| match page.field.get(x, y) {
                    Cell::Empty => '.',
                    _ => 'X',
                })
                .collect()
        })
        .collect();
    let setup = Setup {
        rows,
        piece,
        queue,
        hold,
        seed: 0,
        score: 0,
        lines: 0,
        level: None,
    };
    let pos = Position::from_setup(&setup).map_err(|error| FumenError::Position {
        page: number,
        error,
    })?;
    // The piece where the page places it, when it is that piece and fits.
    Ok(match page.operation.filter(|o| o.kind == piece) {
        Some(op) => placed(&pos, &op).unwrap_or(pos),
        None => pos,
    })
}

/// `pos` with its piece on the cells of `op`, if they are free.
fn placed(pos: &Position, op: &Operation) -> Option<Position> {
    let mut want: Vec<(i32, i32)> = op.cells().to_vec();
    want.sort_unstable();
    let min_x = want.iter().map(|c| c.0).min()?;
    let max_y = want.iter().map(|c| c.1).max()?;
    let rotations: &[Rotation] = if op.kind == Kind::O {
        &[Rotation::Spawn]
    } else {
        &[op.rotation]
    };
    for &rotation in rotations {
        for col in (min_x - 3)..=min_x {
            for row in max_y..=(max_y + 3) {
                let (Ok(c), Ok(r)) = (i8::try_from(col), i8::try_from(row)) else {
                    continue;
                };
                let Ok(moved) = pos.with_piece(rotation, c, r) else {
                    continue;
                };
                let Some((_, _, cells)) = moved.piece() else {
                    continue;
                };
                let mut got: Vec<(i32, i32)> = cells
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect();
                got.sort_unstable();
                if got == want {
                    return Some(moved);
                }
            }
        }
    }
    None
}

/// The page a position makes: its filled cells grey, its piece where it
/// stands (not locked: the page shows the position, the next would not
/// follow), the hold and the queue as a quiz comment.
///
/// # Errors
///
/// [`FumenError::TooTall`] for blocks above fumen's 23 rows.
pub fn page_of(pos: &Position) -> Result<EncodePage, FumenError> {
    let setup = pos.to_setup();
    let height = setup.rows.len();
    let mut field = Field::default();
    for (i, row) in setup.rows.iter().enumerate() {
        let y = height - 1 - i;
        for (x, c) in row.chars().enumerate() {
            if c == 'X' {
                if y >= FIELD_TOP {
                    return Err(FumenError::TooTall { row: y });
                }
                field.set(x as i32, y as i32, Cell::Gray);
            }
        }
    }
    let operation = pos.piece().and_then(|(kind, rotation, cells)| {
        let cells: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(x, y)| (i32::from(x), i32::from(y)))
            .collect();
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        // The centre is one of the cells: the one that gives them all.
        let rotations: Vec<Rotation> = if kind == Kind::O {
            Rotation::ALL.to_vec()
        } else {
            vec![rotation]
        };
        rotations.into_iter().find_map(|rotation| {
            cells.iter().find_map(|&(x, y)| {
                let op = Operation {
                    kind,
                    rotation,
                    x,
                    y,
                };
                let mut got = op.cells().to_vec();
                got.sort_unstable();
                (got == sorted && y < FIELD_TOP as i32).then_some(op)
            })
        })
    });
    let queue: String = pos.queue().iter().map(|k| k.as_str()).collect();
    let hold = pos.hold().map_or("", Kind::as_str);
    let current = pos.piece().map_or("", |(k, _, _)| k.as_str());
    Ok(EncodePage {
        field: Some(field),
        operation,
        comment: Some(format!("#Q=[{hold}]({current}){queue}")),
        lock: Some(false),
        mirror: false,
        colorize: Some(true),
        rise: false,
    })
}

/// A position as a one-page fumen.
///
/// # Errors
///
/// As [`page_of`].
pub fn from_position(pos: &Position) -> Result<String, FumenError> {
    Ok(encode(&[page_of(pos)?]))
}

/// The position of every page of a fumen, or why the page makes none.
///
/// # Errors
///
/// As [`decode`].
pub fn read(text: &str) -> Result<Vec<Result<Position, FumenError>>, FumenError> {
    Ok(positions(&decode(text)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_javascript_does() {
        assert_eq!(escape("hello world!"), "hello%20world%21");
        assert_eq!(escape("ほ"), "%u307B");
        assert_eq!(unescape(&escape("ほｗｙISO 1.5%")), "ほｗｙISO 1.5%");
    }

    #[test]
    fn a_position_goes_through_a_fumen_and_back() {
        let pos = Position::new(7);
        let text = from_position(&pos).unwrap();
        assert!(text.starts_with("v115@"));
        let back = read(&text).unwrap();
        assert_eq!(back.len(), 1);
        let b = back[0].as_ref().unwrap();
        assert_eq!(b.piece(), pos.piece());
        assert_eq!(b.queue(), pos.queue());
        assert_eq!(b.hold(), pos.hold());
        assert_eq!(b.rows(), pos.rows());
    }
}
