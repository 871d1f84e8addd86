//! Gomoku and Renju records: piskvork's `.psq` files, RenLib's `.pos`
//! files and `.lib` libraries, and plain move lists.
//!
//! A `.psq` file (what the piskvork tournament manager saves) starts with
//! a line `Piskvorky 15x15, 11:11, 0` (the board's width and height, then
//! what the program was showing), then one move a line, `x,y,time`: the
//! column and the row counted from 1 at the top-left corner, and the
//! milliseconds the move took. The moves end at the first line that is not
//! one. What follows names the players: piskvork writes `-1`, then the two
//! programs' names, black's first; other writers put the names right after
//! the moves, or add a line `winner,rule` (`1,Freestyle`). The first two
//! lines after the moves that are neither `-1` nor numbers nor such a rule
//! line are read as black's and white's names.
//!
//! A `.pos` file (RenLib's, and older renju programs') is binary: byte 0
//! is the number of moves `n`, then `n` bytes, one a move, black's first,
//! each the point `15·y + x` of the 15×15 board with `(0, 0)` its top-left
//! corner (so `0x70`, 112, is the centre, h8). The format has no header,
//! no pass and no other board (as quinstella.net/dev/pos_format/
//! describes it). RenLib writes a byte past the board (240) for a pass,
//! which qipan's gomoku has not: that move is refused.
//!
//! A RenLib `.lib` file (a tree of lines with comments) is read for the
//! line it holds first; [`renlib`] describes the layout.
//!
//! A move list is the points in qipan's notation (`h8 i9 g7`, column `a`–`s`
//! from the left, row 1 from the bottom), separated by spaces, commas or
//! line breaks, move numbers (`1.`) skipped.
//!
//! The readers check the notation and the board; whether a move is legal
//! is for the rules to say as the record is played.

use qipan_rules::gomoku::Point;

use crate::MAX_INPUT_BYTES;

pub mod renlib;

pub use renlib::{is_lib, read_lib, write_lib, Library};

/// The widest board a record may name (the rules' largest).
pub const MAX_SIZE: u8 = 19;

/// A gomoku game as a record holds it: its board's side (when the record
/// says it) and its moves, black first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveList {
    /// The board's side, from a `.psq` header.
    pub size: Option<u8>,
    /// The moves, black's first.
    pub moves: Vec<Point>,
    /// The players' names, black's first, where the file gives them (a
    /// `.psq` file's program names).
    pub players: [Option<String>; 2],
}

/// Why a text is not a gomoku record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GomokuError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the file has {size} bytes, more than the {limit} a record may have")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not UTF-8 (a record is ASCII).
    #[error("byte {offset} is not UTF-8 (a gomoku record is plain ASCII)")]
    Encoding {
        /// The first bad byte.
        offset: usize,
    },
    /// A `.psq` header that is not `Piskvorky WxH, …`.
    #[error("line 1: {problem}")]
    BadHeader {
        /// What is wrong.
        problem: &'static str,
    },
    /// A board that is not square, or larger than the rules play.
    #[error(
        "the board is {width}×{height}; qipan plays square boards up to {MAX_SIZE}×{MAX_SIZE}"
    )]
    BadBoard {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// A move that names no point of the board.
    #[error("move {number} ({text:?}, line {line}): {problem}")]
    BadMove {
        /// The move's number, from 1.
        number: usize,
        /// Its text.
        text: String,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// No move at all.
    #[error("the record has no move")]
    Empty,
    /// A `.pos` file with fewer bytes than its count says, or more.
    #[error("a .pos file of {count} moves has {expected} bytes; this one has {found}")]
    PosLength {
        /// The count of byte 0.
        count: usize,
        /// The bytes it calls for.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
    /// Not a RenLib library: its header is not RenLib's.
    #[error("not a RenLib library: {problem}")]
    LibHeader {
        /// What is wrong.
        problem: &'static str,
    },
    /// A RenLib library of a version RenLib itself does not read.
    #[error("the library is of RenLib version {major}.{minor:02}; versions up to 3.04 are read")]
    LibVersion {
        /// The header's major version.
        major: u8,
        /// Its minor version.
        minor: u8,
    },
    /// A RenLib library that ends inside a record or a text.
    #[error("the library ends at byte {offset} inside {what}")]
    LibTruncated {
        /// Where the cut part starts.
        offset: usize,
        /// What is cut.
        what: &'static str,
    },
    /// A RenLib record whose point byte is no point of the 15×15 board.
    #[error("record {record} (byte {offset}) names point byte {value:#04x}, no point of the 15×15 board (column = byte % 16 must be 1–15, row = byte / 16 + 1 must be 1–15)")]
    LibPoint {
        /// The record's number, from 1 (the root counts).
        record: usize,
        /// Its offset.
        offset: usize,
        /// The byte.
        value: u8,
    },
    /// The library's first line goes on only through a pass.
    #[error(
        "move {number} of the library's first line (byte {offset}) is a pass, which gomoku has not"
    )]
    LibPass {
        /// The move's number in the line, from 1.
        number: usize,
        /// The pass record's offset.
        offset: usize,
    },
    /// A `.pos` byte that is no point of the 15×15 board.
    #[error("move {number} (byte {offset}) is {value}, no point of the 15×15 board (0–224){}", if *.value == POS_PASS { "; RenLib writes 240 for a pass, which gomoku has not" } else { "" })]
    PosPoint {
        /// The move's number, from 1.
        number: usize,
        /// Its byte's offset in the file.
        offset: usize,
        /// The byte.
        value: u8,
    },
}

impl GomokuError {
    /// The byte of a binary file the fault is at.
    pub fn offset(&self) -> Option<usize> {
        match self {
            GomokuError::Encoding { offset }
            | GomokuError::PosPoint { offset, .. }
            | GomokuError::LibTruncated { offset, .. }
            | GomokuError::LibPoint { offset, .. }
            | GomokuError::LibPass { offset, .. } => Some(*offset),
            GomokuError::PosLength {
                expected, found, ..
            } => Some((*expected).min(*found)),
            GomokuError::TooLarge { .. }
            | GomokuError::BadHeader { .. }
            | GomokuError::BadBoard { .. }
            | GomokuError::BadMove { .. }
            | GomokuError::LibHeader { .. }
            | GomokuError::LibVersion { .. }
            | GomokuError::Empty => None,
        }
    }
}

/// The side of the board a `.pos` file is of.
pub const POS_SIZE: u8 = 15;

/// The byte RenLib writes in a `.pos` file for a pass.
pub const POS_PASS: u8 = 240;

impl qipan_rules::Reason for GomokuError {
    fn reason(&self) -> &'static str {
        match self {
            GomokuError::TooLarge { .. } => "too-large",
            GomokuError::Encoding { .. } => "bad-encoding",
            GomokuError::BadHeader { .. } => "bad-header",
            GomokuError::BadBoard { .. } => "bad-board",
            GomokuError::BadMove { .. } => "unreadable-move",
            GomokuError::Empty => "no-game",
            GomokuError::PosLength {
                expected, found, ..
            } if found < expected => "truncated",
            GomokuError::PosLength { .. } => "trailing-bytes",
            GomokuError::PosPoint { .. } => "unreadable-move",
            GomokuError::LibHeader { .. } => "bad-header",
            GomokuError::LibVersion { .. } => "unsupported-version",
            GomokuError::LibTruncated { .. } => "truncated",
            GomokuError::LibPoint { .. } | GomokuError::LibPass { .. } => "unreadable-move",
        }
    }
}

fn text_of(bytes: &[u8]) -> Result<&str, GomokuError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(GomokuError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| GomokuError::Encoding {
        offset: e.valid_up_to(),
    })
}

/// Whether a text is a `.psq` file (its first line names piskvork).
pub fn is_psq(bytes: &[u8]) -> bool {
    let start = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = &start[..start.len().min(16)];
    String::from_utf8_lossy(start)
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("piskvork")
}

/// Reads a `.psq` file or a move list, whichever the text is.
///
/// # Errors
///
/// As [`read_psq`] and [`read_moves`].
pub fn read(bytes: &[u8]) -> Result<MoveList, GomokuError> {
    if is_psq(bytes) {
        read_psq(bytes)
    } else {
        read_moves(bytes)
    }
}

/// Reads a piskvork `.psq` file.
///
/// # Errors
///
/// [`GomokuError`]: too large, not UTF-8, a header that is not
/// piskvork's, a board qipan does not play, a move off the board, no
/// move.
pub fn read_psq(bytes: &[u8]) -> Result<MoveList, GomokuError> {
    let text = text_of(bytes)?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default().trim();
    let rest = header
        .split_once(' ')
        .map(|(_, rest)| rest)
        .ok_or(GomokuError::BadHeader {
            problem: "expected `Piskvorky WIDTHxHEIGHT, …`",
        })?;
    let dims = rest.split(',').next().unwrap_or_default().trim();
    let (w, h) = dims.split_once(['x', 'X']).ok_or(GomokuError::BadHeader {
        problem: "the board is not written WIDTHxHEIGHT",
    })?;
    let parse = |t: &str| {
        t.trim().parse::<u32>().map_err(|_| GomokuError::BadHeader {
            problem: "the board's width and height must be numbers",
        })
    };
    let (width, height) = (parse(w)?, parse(h)?);
    if width != height || width == 0 || width > u32::from(MAX_SIZE) {
        return Err(GomokuError::BadBoard { width, height });
    }
    let size = width as u8;
    let mut moves = Vec::new();
    let mut lines = lines.enumerate().peekable();
    while let Some(&(i, line)) = lines.peek() {
        let line_no = i + 2;
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        // The moves end at the first line that is not `x,y[,time]`.
        let (Some(x), Some(y)) = (fields.first(), fields.get(1)) else {
            break;
        };
        let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>()) else {
            break;
        };
        lines.next();
        let number = moves.len() + 1;
        let bad = |problem| GomokuError::BadMove {
            number,
            text: line.trim().to_owned(),
            line: line_no,
            problem,
        };
        if !(1..=i64::from(size)).contains(&x) || !(1..=i64::from(size)).contains(&y) {
            return Err(bad("the point is off the board"));
        }
        let col = (x - 1) as u8;
        let row = size - y as u8;
        moves.push(Point::new(col, row).ok_or_else(|| bad("the point is off the board"))?);
    }
    if moves.is_empty() {
        return Err(GomokuError::Empty);
    }
    let mut names = lines
        .map(|(_, line)| line.trim())
        .filter(|line| is_player_name(line))
        .map(|line| line.chars().take(PLAYER_NAME_MAX).collect::<String>());
    let players = [names.next(), names.next()];
    Ok(MoveList {
        size: Some(size),
        moves,
        players,
    })
}

/// The most characters of a player's name kept from a `.psq` file.
pub const PLAYER_NAME_MAX: usize = 100;

/// Whether a line after a `.psq` file's moves names a player: not empty,
/// not `-1`, not a number or a list of numbers, not a `winner,rule` line.
fn is_player_name(line: &str) -> bool {
    let numbers = line.split(',').all(|f| f.trim().parse::<i64>().is_ok());
    let rule = line
        .split_once(',')
        .is_some_and(|(w, r)| w.trim().parse::<u8>().is_ok() && !r.trim().contains(' '));
    !line.is_empty() && !numbers && !rule && !line.chars().any(char::is_control)
}

/// Reads a move list (`h8 i9 g7`, move numbers skipped).
///
/// # Errors
///
/// [`GomokuError`]: too large, not UTF-8, a word that is not a point, no
/// move.
pub fn read_moves(bytes: &[u8]) -> Result<MoveList, GomokuError> {
    let text = text_of(bytes)?;
    let mut moves = Vec::new();
    for (line, word) in crate::move_words(text) {
        let point: Point = word
            .to_ascii_lowercase()
            .parse()
            .map_err(|_| GomokuError::BadMove {
                number: moves.len() + 1,
                text: word.to_owned(),
                line,
                problem: "not a point: a column a–s and a row 1–19, like h8",
            })?;
        moves.push(point);
    }
    if moves.is_empty() {
        return Err(GomokuError::Empty);
    }
    Ok(MoveList {
        size: None,
        moves,
        players: [None, None],
    })
}

/// Reads a RenLib `.pos` file (see the module's documentation).
///
/// # Errors
///
/// [`GomokuError`]: too large, fewer or more bytes than the count says,
/// a byte that is no point (a pass), no move.
pub fn read_pos(bytes: &[u8]) -> Result<MoveList, GomokuError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(GomokuError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let Some((&count, points)) = bytes.split_first() else {
        return Err(GomokuError::Empty);
    };
    let count = usize::from(count);
    if points.len() != count {
        return Err(GomokuError::PosLength {
            count,
            expected: count + 1,
            found: bytes.len(),
        });
    }
    let side = usize::from(POS_SIZE);
    let mut moves = Vec::with_capacity(count);
    for (i, &value) in points.iter().enumerate() {
        let at = usize::from(value);
        let point = (at < side * side)
            .then(|| Point::new((at % side) as u8, (side - 1 - at / side) as u8))
            .flatten()
            .ok_or(GomokuError::PosPoint {
                number: i + 1,
                offset: i + 1,
                value,
            })?;
        moves.push(point);
    }
    pos_list(moves)
}

/// The moves a RenLib file holds, as a list on its 15×15 board.
fn pos_list(moves: Vec<Point>) -> Result<MoveList, GomokuError> {
    if moves.is_empty() {
        return Err(GomokuError::Empty);
    }
    Ok(MoveList {
        size: Some(POS_SIZE),
        moves,
        players: [None, None],
    })
}

/// A `.pos` file of a game on the 15×15 board; `None` for a point off it
/// or more than 255 moves, which the format cannot hold.
pub fn write_pos(moves: &[Point]) -> Option<Vec<u8>> {
    let mut out = vec![u8::try_from(moves.len()).ok()?];
    for p in moves {
        if p.col() >= POS_SIZE || p.row() >= POS_SIZE {
            return None;
        }
        out.push((POS_SIZE - 1 - p.row()) * POS_SIZE + p.col());
    }
    Some(out)
}

/// A `.psq` file of a game on a `size` board: the header, one line a move
/// (no times: 0), `-1`, then the players' names (black's first) when there
/// are any, as piskvork writes its programs' names.
pub fn write_psq(size: u8, moves: &[Point], players: [Option<&str>; 2]) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for p in moves {
        let (col, row) = (p.col(), p.row());
        out.push_str(&format!(
            "{},{},0\n",
            u32::from(col) + 1,
            u32::from(size) - u32::from(row)
        ));
    }
    out.push_str("-1\n");
    if players.iter().any(Option::is_some) {
        for name in players {
            // A name is one line; a missing one is written as `?`, and so
            // is one the reader would not take for a name (empty, a
            // number, `1,Freestyle`): the two lines stay black's, white's.
            let name: String = name
                .unwrap_or("?")
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let name = name.trim();
            out.push_str(if is_player_name(name) { name } else { "?" });
            out.push('\n');
        }
    }
    out
}

/// A move list, numbered by pairs: `1. h8 i9\n2. g7 …`.
pub fn write_moves<T: std::fmt::Display>(moves: &[T]) -> String {
    let mut out = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        out.push_str(&format!("{}.", i + 1));
        for m in pair {
            out.push(' ');
            out.push_str(&m.to_string());
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn psq_reads_and_writes_back() {
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,120\n7,9,30\n-1\npbrain-x.exe\n";
        let list = read_psq(text.as_bytes()).unwrap();
        assert_eq!(list.size, Some(15));
        // x 8 → column h; y 8 from the top of 15 rows → row 8 from the bottom.
        assert_eq!(list.moves, vec![p("h8"), p("i9"), p("g7")]);
        assert_eq!(list.players, [Some("pbrain-x.exe".to_owned()), None]);
        let written = write_psq(15, &list.moves, [Some("pbrain-x.exe"), None]);
        let back = read_psq(written.as_bytes()).unwrap();
        assert_eq!(back.moves, list.moves);
        assert_eq!(back.players[0], list.players[0]);
        assert!(is_psq(written.as_bytes()));
    }

    #[test]
    fn psq_names_come_after_the_moves_or_after_minus_one() {
        // Names right after the moves, then `-1` and a `winner,rule` line.
        let text = "Piskvorky 15x15, 11:11, 0\n10,10,0\n11,11,0\nAlphaZero 1\nAlphaZero 2\n-1\n1,Freestyle\n";
        let list = read_psq(text.as_bytes()).unwrap();
        assert_eq!(list.moves.len(), 2);
        assert_eq!(
            list.players,
            [
                Some("AlphaZero 1".to_owned()),
                Some("AlphaZero 2".to_owned())
            ]
        );
        // piskvork's own order: `-1`, then both names.
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,100\n-1\npbrain-black.exe\npbrain-white.exe\n";
        let list = read_psq(text.as_bytes()).unwrap();
        assert_eq!(
            list.players,
            [
                Some("pbrain-black.exe".to_owned()),
                Some("pbrain-white.exe".to_owned())
            ]
        );
        // No names: none read, none written.
        let list = read_psq(b"Piskvorky 15x15, 11:11, 0\n8,8,0\n-1\n").unwrap();
        assert_eq!(list.players, [None, None]);
        assert_eq!(
            write_psq(15, &list.moves, [None, None]),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n-1\n"
        );
        // A name the reader would take for a number or a rule line is
        // written as a missing one, so white's stays white's.
        let written = write_psq(15, &list.moves, [Some("0"), Some("White")]);
        assert_eq!(
            read_psq(written.as_bytes()).unwrap().players,
            [Some("?".to_owned()), Some("White".to_owned())]
        );
        // Both written, black's first, and read back.
        let written = write_psq(15, &list.moves, [Some("林"), Some("White")]);
        assert_eq!(
            read_psq(written.as_bytes()).unwrap().players,
            [Some("林".to_owned()), Some("White".to_owned())]
        );
    }

    #[test]
    fn move_lists_skip_numbers() {
        let list = read_moves(b"1. h8 i9\n2. g7, H9\n").unwrap();
        assert_eq!(list.moves, vec![p("h8"), p("i9"), p("g7"), p("h9")]);
        let written = write_moves(&list.moves);
        assert_eq!(written, "1. h8 i9\n2. g7 h9\n");
        assert_eq!(read_moves(written.as_bytes()).unwrap(), list);
    }

    #[test]
    fn pos_files_read_as_the_format_says() {
        // The centre is 15·7 + 7 = 112 (0x70); 0 is the top-left corner
        // (a15), 224 the bottom-right (o1).
        let list = read_pos(&[4, 0x70, 0x71, 0, 224]).unwrap();
        assert_eq!(list.size, Some(15));
        assert_eq!(list.moves, vec![p("h8"), p("i8"), p("a15"), p("o1")]);
        assert_eq!(write_pos(&list.moves).unwrap(), [4, 0x70, 0x71, 0, 224]);
        // The top row left to right, then the bottom row, alternately
        // black and white.
        let mut bytes = vec![30];
        bytes.extend(0..15u8);
        bytes.extend(210..225u8);
        let list = read_pos(&bytes).unwrap();
        assert_eq!(list.moves[14], p("o15"));
        assert_eq!(list.moves[15], p("a1"));
        assert_eq!(write_pos(&list.moves).unwrap(), bytes);
        assert_eq!(write_pos(&[p("s19")]), None);
    }

    #[test]
    fn bad_pos_files_say_where() {
        // RenLib's pass (240) at move 4.
        let e = read_pos(&[5, 0x70, 0x71, 0x6f, 240, 0x72]).unwrap_err();
        assert_eq!(
            e,
            GomokuError::PosPoint {
                number: 4,
                offset: 4,
                value: 240
            }
        );
        assert!(e.to_string().contains("pass"), "{e}");
        assert_eq!(qipan_rules::Reason::reason(&e), "unreadable-move");
        let e = read_pos(&[3, 0x70, 0x71]).unwrap_err();
        assert_eq!(qipan_rules::Reason::reason(&e), "truncated");
        assert_eq!(e.offset(), Some(3));
        let e = read_pos(&[1, 0x70, 0x71]).unwrap_err();
        assert_eq!(qipan_rules::Reason::reason(&e), "trailing-bytes");
        assert_eq!(e.offset(), Some(2));
        assert_eq!(read_pos(&[]), Err(GomokuError::Empty));
        assert_eq!(read_pos(&[0]), Err(GomokuError::Empty));
    }

    #[test]
    fn bad_records_say_where() {
        assert!(matches!(
            read_psq(b"Piskvorky 20x15, 1:1, 0\n1,1,0\n"),
            Err(GomokuError::BadBoard { .. })
        ));
        assert!(matches!(
            read_psq(b"Piskvorky 15x15, 1:1, 0\n16,1,0\n"),
            Err(GomokuError::BadMove {
                number: 1,
                line: 2,
                ..
            })
        ));
        assert!(matches!(
            read_psq(b"Piskvorky 15x15\n-1\n"),
            Err(GomokuError::Empty)
        ));
        assert!(matches!(
            read_moves(b"h8 zz"),
            Err(GomokuError::BadMove { number: 2, .. })
        ));
        assert!(matches!(
            read_moves(b"\xff"),
            Err(GomokuError::Encoding { offset: 0 })
        ));
    }
}
