//! XQF, the binary record of 象棋演播室 (XQStudio).
//!
//! The layout is the one its author published as "象棋演播室(XQStudio) 1.0
//! 版XQF文件格式说明" (XQF.TXT, shipped with xqbase's XQF tools): a
//! 1024-byte header, then the move records from offset 0x400.
//!
//! - Header: `XQ` and the version byte; at 0x10 the start position as 32
//!   bytes, one a piece in the order 车马相士帅士相马车炮炮兵兵兵兵兵 for red
//!   then black, each `X × 10 + Y` (X the file from red's left, Y the rank
//!   from red's side) or 0xFF when captured; at 0x33 the result (0 unknown,
//!   1 red wins, 2 black wins, 3 draw); at 0x40 the kind of record; then
//!   length-prefixed GBK strings: title 0x50, event 0xD0, date 0x110, site
//!   0x120, red 0x130, black 0x140, time rule 0x150, red's time 0x190,
//!   black's 0x1A0, annotator 0x1D0, author 0x1E0.
//! - Moves: eight bytes each, origin + 24, destination + 32, a flag byte,
//!   a reserved byte, a little-endian comment length, then the comment in
//!   GBK. A first, empty record ("step 0") carries the comment before the
//!   first move. Records follow in pre-order: a move, the line after it,
//!   then the moves played instead of it. Version 1.0 flags a following
//!   move with 0xF0 and an alternative with 0x0F.
//!
//! Versions 1.1 and later (version byte 11 and up) encrypt the start
//! position, the squares of the moves and everything from 0x400, and flag
//! with bits: 0x80 a following move, 0x40 an alternative, 0x20 a comment
//! (its length is then stored, offset by a key; otherwise it is absent).
//! XQF.TXT stops at 1.0; the keys are derived from header bytes 3 and 8–15
//! as xqbase's XQF→PGN converter (`xqf2pgn.cpp`, credited there to 小月儿)
//! derives them: header byte 13 gives the start position's key
//! `(54k² + 221)k mod 256`, bytes 14 and 15 the origins' and destinations'
//! keys, each `(54k² + 221)` times the key before; version 12 and later
//! also rotate the 32 start bytes by the first key; a comment's length is
//! stored plus `(byte12 × 256 + byte13) mod 32000 + 767`; and the stream
//! after 0x400 is lessened byte by byte by a 32-byte key, the text
//! `"[(C) Copyright Mr. Dong Shiwei.]"` masked with bytes 8–11 or-ed with
//! bytes 12–15 under the mask of byte 3.
//!
//! A move the rules forbid is an error on the main line; in a variation
//! it ends the variation there, as other readers drop it.
//!
//! Writing gives version 1.0, unencrypted, which every version of the
//! desktop programs reads: the format XQF.TXT asks other programs to write.

use qipan_rules::xiangqi::{
    Counters, Fen, IllegalMove, Move, Piece, Position, PositionError, Setup, Side, Square,
};
use qipan_rules::Reason;

use super::charset::{self, Charset};
use super::record::{Headers, Outcome, Record, Step, Tree, SLOT_ROLES};
use crate::MAX_INPUT_BYTES;

/// Where the move records start.
const MOVES: usize = 0x400;

/// How deep variations inside variations may go.
pub const MAX_NESTING: usize = 100;

/// The header's text fields: offset and size (length byte included).
const TITLE: (usize, usize) = (0x50, 64);
const EVENT: (usize, usize) = (0xD0, 64);
const DATE: (usize, usize) = (0x110, 16);
const SITE: (usize, usize) = (0x120, 16);
const RED: (usize, usize) = (0x130, 16);
const BLACK: (usize, usize) = (0x140, 16);
const TIME_RULE: (usize, usize) = (0x150, 64);
const RED_TIME: (usize, usize) = (0x190, 16);
const BLACK_TIME: (usize, usize) = (0x1A0, 16);
const ANNOTATOR: (usize, usize) = (0x1D0, 16);
const AUTHOR: (usize, usize) = (0x1E0, 16);

/// Why bytes are not an XQF record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum XqfError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the file has {size} bytes, more than the {limit} a record may have")]
    TooLarge {
        /// The file's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The file does not start with `XQ`.
    #[error("an XQF file starts with XQ, this one with {found:02X?}")]
    NotXqf {
        /// Its first bytes.
        found: Vec<u8>,
    },
    /// The file ends inside a header or a record.
    #[error("the file ends at byte {length}: {what} at offset {offset} needs {needed} bytes")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where it starts.
        offset: usize,
        /// How many bytes it needs.
        needed: usize,
        /// The file's length.
        length: usize,
    },
    /// Two start bytes put pieces on one point.
    #[error("start byte {index} (offset {offset:#x}) puts a piece on {square}, where another already stands")]
    Overlap {
        /// The byte's index among the 32, from 0.
        index: usize,
        /// Its offset in the file.
        offset: usize,
        /// The point.
        square: Square,
    },
    /// The start position cannot arise in a game.
    #[error("the start position: {0}")]
    Start(PositionError),
    /// A move record names a point off the board.
    #[error("the move record at offset {offset:#x} names point value {value}, off the board")]
    BadSquare {
        /// The record's offset.
        offset: usize,
        /// The decoded point value (`X × 10 + Y`).
        value: u8,
    },
    /// A move the rules forbid where it stands.
    #[error("the move record at offset {offset:#x}, ply {ply}: {error}")]
    IllegalMove {
        /// The record's offset.
        offset: usize,
        /// The move's ply (1 = the first of the game).
        ply: usize,
        /// Why it is refused.
        error: IllegalMove,
    },
    /// A negative comment length.
    #[error(
        "the comment length at offset {offset:#x} is {length}: negative ({left} bytes are left)"
    )]
    BadComment {
        /// Where the length is.
        offset: usize,
        /// The length read.
        length: i64,
        /// The bytes left in the file.
        left: usize,
    },
    /// Variations nested deeper than [`MAX_NESTING`].
    #[error("the move record at offset {offset:#x} nests variations more than {MAX_NESTING} deep")]
    TooDeep {
        /// The record's offset.
        offset: usize,
    },
}

impl Reason for XqfError {
    fn reason(&self) -> &'static str {
        match self {
            XqfError::TooLarge { .. } => "too-large",
            XqfError::NotXqf { .. } => "not-xqf",
            XqfError::Truncated { .. } => "truncated",
            XqfError::Overlap { .. } => "overlapping-pieces",
            XqfError::Start(_) => "invalid-start",
            XqfError::BadSquare { .. } => "bad-square",
            XqfError::IllegalMove { .. } => "illegal-move",
            XqfError::BadComment { .. } => "bad-comment-length",
            XqfError::TooDeep { .. } => "too-deep",
        }
    }
}

/// The keys of an encrypted file (all zero for versions below 11).
#[derive(Default)]
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
}

/// `54k² + 221`, the factor every key byte is scrambled by.
fn factor(k: u8) -> u32 {
    let k = u32::from(k);
    54 * k * k + 221
}

impl Keys {
    fn of(header: &[u8]) -> Keys {
        let version = header[2];
        if version < 11 {
            return Keys::default();
        }
        // Each key chains on the one before: the start position's on its
        // own byte, the origins' on the start position's, the
        // destinations' on the origins'.
        let piece = (factor(header[13]) * u32::from(header[13])) as u8;
        let from = (factor(header[14]) * u32::from(piece)) as u8;
        let to = (factor(header[15]) * u32::from(from)) as u8;
        let comment = (i64::from(header[12]) * 256 + i64::from(header[13])) % 32000 + 767;
        let mask = header[3];
        let bytes: [u8; 4] = std::array::from_fn(|i| header[8 + i] | (header[12 + i] & mask));
        const STREAM: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
        let stream = std::array::from_fn(|i| STREAM[i] & bytes[i % 4]);
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }
}

fn text(bytes: &[u8], (offset, size): (usize, usize)) -> Option<String> {
    let field = &bytes[offset..offset + size];
    let len = usize::from(field[0]).min(size - 1);
    let raw = &field[1..1 + len];
    let raw = raw.split(|&b| b == 0).next().unwrap_or(raw);
    let (decoded, _, _) = encoding_rs::GB18030.decode(raw);
    super::record::header(&decoded)
}

/// The point of a value `X × 10 + Y`.
fn point(value: u8) -> Option<Square> {
    (value < 90)
        .then(|| Square::from_iccs(value / 10, value % 10))
        .flatten()
}

/// A decrypted stream of move records.
struct Stream {
    bytes: Vec<u8>,
    at: usize,
    version: u8,
}

impl Stream {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], XqfError> {
        let start = self.at;
        if self.bytes.len() - start < n {
            return Err(XqfError::Truncated {
                what,
                offset: MOVES + start,
                needed: n,
                length: MOVES + self.bytes.len(),
            });
        }
        self.at += n;
        Ok(&self.bytes[start..start + n])
    }
}

/// One move record, decoded.
struct Node {
    offset: usize,
    from: u8,
    to: u8,
    next: bool,
    alternative: bool,
    comment: Option<String>,
}

fn node(stream: &mut Stream, keys: &Keys) -> Result<Node, XqfError> {
    let offset = MOVES + stream.at;
    let head: [u8; 4] = stream
        .take(4, "a move record")?
        .try_into()
        .unwrap_or([0; 4]);
    let (next, alternative, has_comment) = if stream.version < 11 {
        (head[2] & 0xF0 != 0, head[2] & 0x0F != 0, true)
    } else {
        (
            head[2] & 0x80 != 0,
            head[2] & 0x40 != 0,
            head[2] & 0x20 != 0,
        )
    };
    let mut comment = None;
    if has_comment {
        let at = MOVES + stream.at;
        let raw: [u8; 4] = stream
            .take(4, "a comment length")?
            .try_into()
            .unwrap_or([0; 4]);
        let length =
            i64::from(i32::from_le_bytes(raw)) - if stream.version < 11 { 0 } else { keys.comment };
        let left = stream.bytes.len() - stream.at;
        let n = usize::try_from(length).map_err(|_| XqfError::BadComment {
            offset: at,
            length,
            left,
        })?;
        let raw = stream.take(n, "a comment")?;
        let (decoded, _, _) = encoding_rs::GB18030.decode(raw);
        comment = super::record::comment(&decoded);
    }
    Ok(Node {
        offset,
        from: head[0].wrapping_sub(24).wrapping_sub(keys.from),
        to: head[1].wrapping_sub(32).wrapping_sub(keys.to),
        next,
        alternative,
        comment,
    })
}

/// Reads an XQF file.
///
/// # Errors
///
/// An [`XqfError`] with the offset of what is wrong: not an XQF file, cut
/// short, an impossible start, a point off the board, a move the rules
/// forbid, a comment length past the end.
pub fn read(bytes: &[u8]) -> Result<Record, XqfError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(XqfError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    if !bytes.starts_with(b"XQ") {
        return Err(XqfError::NotXqf {
            found: bytes.iter().copied().take(2).collect(),
        });
    }
    if bytes.len() < MOVES {
        return Err(XqfError::Truncated {
            what: "the header",
            offset: 0,
            needed: MOVES,
            length: bytes.len(),
        });
    }
    let header = &bytes[..MOVES];
    let version = header[2];
    let keys = Keys::of(header);

    // The start position.
    let mut raw = [0u8; 32];
    for (i, &b) in header[0x10..0x30].iter().enumerate() {
        let place = if version >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        raw[place] = b.wrapping_sub(keys.piece);
    }
    let mut setup = Setup::empty();
    for (i, &value) in raw.iter().enumerate() {
        let Some(square) = point(value) else {
            continue;
        };
        let piece = Piece {
            side: if i < 16 { Side::Red } else { Side::Black },
            role: SLOT_ROLES[i % 16],
        };
        if setup.board[square.index()].is_some() {
            return Err(XqfError::Overlap {
                index: i,
                offset: 0x10 + i,
                square,
            });
        }
        setup.board[square.index()] = Some(piece);
    }

    // The move stream, decrypted.
    let mut stream = Stream {
        bytes: bytes[MOVES..]
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(keys.stream[i % 32]))
            .collect(),
        at: 0,
        version,
    };
    let root = node(&mut stream, &keys)?;
    let nodes = if root.next {
        let mut nodes = Vec::new();
        read_nodes(&mut stream, &keys, &mut nodes)?;
        nodes
    } else {
        Vec::new()
    };

    // Black moves first when the first move is a black piece's.
    if let Some((_, first, _)) = nodes.first() {
        if let Some(Some(piece)) = point(first.from).map(|s| setup.board[s.index()]) {
            setup.turn = piece.side;
        }
    }
    let start = Position::from_setup(&setup).map_err(XqfError::Start)?;
    let tree = build(&start, &nodes)?;

    let mut headers = Headers {
        event: text(header, EVENT).or_else(|| text(header, TITLE)),
        site: text(header, SITE),
        date: text(header, DATE),
        red: text(header, RED),
        black: text(header, BLACK),
        time_control: text(header, TIME_RULE),
        result: match header[0x33] {
            1 => Outcome::RedWins,
            2 => Outcome::BlackWins,
            3 | 4 => Outcome::Draw,
            _ => Outcome::Unknown,
        },
        ..Headers::default()
    };
    for (name, field) in [
        ("Title", TITLE),
        ("RedTime", RED_TIME),
        ("BlackTime", BLACK_TIME),
        ("Annotator", ANNOTATOR),
        ("Author", AUTHOR),
    ] {
        if let Some(value) = text(header, field) {
            if name != "Title" || headers.event.as_deref() != Some(value.as_str()) {
                headers.other.push((name.to_owned(), value));
            }
        }
    }
    let moves = tree.lines(0);
    Ok(Record {
        headers,
        start: Fen {
            position: start,
            counters: Counters::default(),
        },
        comment: root.comment,
        moves,
    })
}

/// Reads the records after step 0 in file order, each with its parent
/// (0 = step 0) and its nesting depth, without recursion: a node that has
/// an alternative leaves its parent on a stack, to be taken up when the
/// line after the node ends.
fn read_nodes(
    stream: &mut Stream,
    keys: &Keys,
    out: &mut Vec<(usize, Node, usize)>,
) -> Result<(), XqfError> {
    // (parent of the next node, its depth)
    let mut parent = (0usize, 0usize);
    let mut pending: Vec<(usize, usize)> = Vec::new();
    loop {
        let n = node(stream, keys)?;
        let id = out.len() + 1;
        let (p, depth) = parent;
        if depth > MAX_NESTING {
            return Err(XqfError::TooDeep { offset: n.offset });
        }
        if n.alternative {
            pending.push((p, depth + 1));
        }
        let next = n.next;
        out.push((p, n, depth));
        if next {
            parent = (id, depth);
        } else if let Some(up) = pending.pop() {
            parent = up;
        } else {
            return Ok(());
        }
    }
}

/// Plays every node from its parent's position, giving the tree.
fn build(start: &Position, nodes: &[(usize, Node, usize)]) -> Result<Tree, XqfError> {
    // Per node (0 = step 0): the position after it (None when the node is
    // dropped), its ply, and whether it is on the main line.
    let mut positions: Vec<Option<Position>> = Vec::with_capacity(nodes.len() + 1);
    positions.push(Some(start.clone()));
    let mut plies = vec![0usize];
    let mut main = vec![true];
    let mut tree = Tree {
        moves: Vec::with_capacity(nodes.len()),
        children: vec![Vec::new(); nodes.len() + 1],
    };
    for (i, (parent, n, _)) in nodes.iter().enumerate() {
        let ply = plies[*parent] + 1;
        // The main line goes on through the first move read after a main
        // line move.
        let on_main = main[*parent] && tree.children[*parent].is_empty();
        plies.push(ply);
        main.push(on_main);
        let from = point(n.from).ok_or(XqfError::BadSquare {
            offset: n.offset,
            value: n.from,
        })?;
        let to = point(n.to).ok_or(XqfError::BadSquare {
            offset: n.offset + 1,
            value: n.to,
        })?;
        let mv = Move { from, to };
        // A move the rules forbid makes the file unreadable on the main
        // line; in a variation it ends the variation, and the moves after
        // it are dropped.
        let next = match &positions[*parent] {
            None => None,
            Some(before) => match before.play(mv) {
                Ok(next) => Some(next),
                Err(error) if on_main => {
                    return Err(XqfError::IllegalMove {
                        offset: n.offset,
                        ply,
                        error,
                    })
                }
                Err(_) => None,
            },
        };
        if next.is_some() {
            tree.children[*parent].push(i + 1);
        }
        positions.push(next);
        tree.moves.push((mv, n.comment.clone()));
    }
    Ok(tree)
}

// ---- writing ---------------------------------------------------------------

fn put_text(out: &mut [u8], (offset, size): (usize, usize), value: Option<&str>) {
    let Some(value) = value else {
        return;
    };
    let mut bytes: Vec<u8> = Vec::new();
    for c in value.chars() {
        let mut buf = [0; 4];
        let encoded = charset::encode(c.encode_utf8(&mut buf), Charset::Gbk).unwrap_or_default();
        if bytes.len() + encoded.len() > size - 1 {
            break;
        }
        bytes.extend(encoded);
    }
    out[offset] = bytes.len() as u8;
    out[offset + 1..offset + 1 + bytes.len()].copy_from_slice(&bytes);
}

fn value(square: Square) -> u8 {
    square.file() * 10 + square.rank()
}

/// The record as an XQF 1.0 file (unencrypted; variations kept).
///
/// XQF keeps no move counters and no side to move: the first move tells
/// who moves first, so a record without moves reads back with red to move.
/// Names and other header fields keep what fits their fields (15 bytes of
/// GBK for a name, 63 for the event), cut at a character.
///
/// # Errors
///
/// [`super::RecordError`] when a move of the record is not legal where it
/// stands (a record built by hand).
pub fn write(record: &Record) -> Result<Vec<u8>, super::RecordError> {
    record.check()?;
    let mut out = vec![0u8; MOVES];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = 10;
    let start = &record.start.position;
    let mut used = [false; 90];
    for side in Side::ALL {
        for (i, role) in SLOT_ROLES.iter().enumerate() {
            let found = start
                .pieces()
                .find(|&(s, p)| p == Piece { side, role: *role } && !used[s.index()]);
            let byte = match found {
                Some((s, _)) => {
                    used[s.index()] = true;
                    value(s)
                }
                None => 0xFF,
            };
            out[0x10 + side.index() * 16 + i] = byte;
        }
    }
    out[0x33] = match record.headers.result {
        Outcome::Unknown => 0,
        Outcome::RedWins => 1,
        Outcome::BlackWins => 2,
        Outcome::Draw => 3,
    };
    // 0 a whole game; 2 a middle game, which xqbase's converter needs to
    // read the start bytes instead of assuming the standard start.
    out[0x40] = if *start == Position::start() { 0 } else { 2 };
    let h = &record.headers;
    let other = |name: &str| {
        h.other
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    put_text(&mut out, TITLE, other("Title").or(h.event.as_deref()));
    put_text(&mut out, EVENT, h.event.as_deref());
    put_text(&mut out, DATE, h.date.as_deref());
    put_text(&mut out, SITE, h.site.as_deref());
    put_text(&mut out, RED, h.red.as_deref());
    put_text(&mut out, BLACK, h.black.as_deref());
    put_text(&mut out, TIME_RULE, h.time_control.as_deref());
    put_text(&mut out, RED_TIME, other("RedTime"));
    put_text(&mut out, BLACK_TIME, other("BlackTime"));
    put_text(&mut out, ANNOTATOR, other("Annotator"));
    put_text(&mut out, AUTHOR, other("Author"));
    let flags = if record.moves.is_empty() { 0x00 } else { 0xF0 };
    put_record(
        &mut out,
        [0x18, 0x20, flags, 0xFF],
        record.comment.as_deref(),
    );
    put_line(&mut out, &record.moves, false);
    Ok(out)
}

fn put_record(out: &mut Vec<u8>, head: [u8; 4], comment: Option<&str>) {
    out.extend(head);
    let text = comment
        .map(|c| charset::encode(c, Charset::Gbk).unwrap_or_default())
        .unwrap_or_default();
    out.extend((text.len() as u32).to_le_bytes());
    out.extend(text);
}

/// Writes a line in pre-order: its moves, then, from the last move back to
/// the first, the moves played instead of each. `sibling_after` says
/// whether an alternative to the line's first move follows it.
fn put_line(out: &mut Vec<u8>, line: &[Step], sibling_after: bool) {
    for (i, step) in line.iter().enumerate() {
        let next = i + 1 < line.len();
        let alternative = !step.variations.is_empty() || (i == 0 && sibling_after);
        let flags = if next { 0xF0 } else { 0 } | if alternative { 0x0F } else { 0 };
        put_record(
            out,
            [value(step.mv.from) + 24, value(step.mv.to) + 32, flags, 0],
            step.comment.as_deref(),
        );
    }
    for (i, step) in line.iter().enumerate().rev() {
        let count = step.variations.len();
        for (k, variation) in step.variations.iter().enumerate() {
            let after = k + 1 < count || (i == 0 && sibling_after);
            put_line(out, variation, after);
        }
    }
}
