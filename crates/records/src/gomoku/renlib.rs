//! RenLib's `.lib` files: a tree of lines with comments, read for the line
//! it stores first.
//!
//! The layout is the one RenLib itself reads and writes (its source,
//! `LibraryFile.cpp`, `MoveNode.cpp` and `CRenLibDoc::AddLibrary`, and the
//! example files of Emilgardis/board agree byte for byte):
//!
//! - A 20-byte header, `FF 'R' 'e' 'n' 'L' 'i' 'b' FF`, the major and minor
//!   version (3 and 0, or 3 and 4 for files with a root record), then ten
//!   `FF`. RenLib refuses versions after 3.04. Files older than the header
//!   start straight with their first record, which is then the centre
//!   (`0x78`).
//! - Then records of two bytes, the tree in pre-order: a point and a flag
//!   byte. The point `p` is `0` for "no point" (the root, or a pass), else
//!   column `p % 16` (1–15, from the left) and row `p / 16 + 1` (1–15, from
//!   the top): `0x78` is h8. The flags: `0x80` the node has a younger
//!   sibling (the reader remembers where it is), `0x40` the node has no
//!   child (the reader goes back to the last remembered node's parent),
//!   `0x20` an old-style comment follows, `0x10` a mark, `0x08` a comment
//!   follows, `0x04` a start mark, `0x02` the node is a label on the board,
//!   not a move, `0x01` two more flag bytes follow (`0x01` of the second one:
//!   a board text follows).
//! - A comment or board text is bytes in pairs ending at a zero byte (the
//!   pair padded with a zero); an old-style comment ends at a byte with its
//!   top bit set. A comment's first line and the rest are split by byte 8.
//!
//! A file has no main line: RenLib keeps each node's children in point
//! order (top row first, left to right) and writes them so. qipan imports
//! the line a file holds first, choosing at each node the first child that
//! places a stone (labels are skipped); the rest of the tree is counted,
//! not kept. A line that goes on only through a pass cannot be played by
//! gomoku and is refused at that move. Only the first record can be the
//! root: a later record with no point is a pass.

use qipan_rules::gomoku::Point;

use super::{GomokuError, MoveList, POS_SIZE};
use crate::MAX_INPUT_BYTES;

/// The bytes a RenLib header starts with.
pub const LIB_MAGIC: &[u8; 8] = b"\xFFRenLib\xFF";

/// The size of a RenLib header.
pub const LIB_HEADER_SIZE: usize = 20;

/// The newest version RenLib reads (3.04), as `100 · major + minor`.
const NEWEST: u16 = 304;

/// The centre's point byte: a file without a header starts with it.
const CENTRE: u8 = 0x78;

const HAS_SIBLING: u8 = 0x80;
const NO_CHILD: u8 = 0x40;
const OLD_COMMENT: u8 = 0x20;
const COMMENT: u8 = 0x08;
const NOT_A_MOVE: u8 = 0x02;
const EXTENSION: u8 = 0x01;
/// In the extension's second byte: a board text follows.
const BOARD_TEXT: u8 = 0x01;

/// A RenLib library as qipan reads it: the line it holds first and how
/// much more the tree holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Library {
    /// The header's version (major, minor); `None` for a file without one.
    pub version: Option<(u8, u8)>,
    /// The line the file holds first, on the 15×15 board.
    pub main_line: MoveList,
    /// The moves in the whole tree (stones and passes, labels not counted).
    pub tree_moves: usize,
    /// The lines of the tree: its leaves.
    pub lines: usize,
    /// The comments in the tree.
    pub comments: usize,
}

/// Whether the bytes start with RenLib's header.
pub fn is_lib(bytes: &[u8]) -> bool {
    bytes.starts_with(LIB_MAGIC)
}

/// One node of the tree while it is read.
struct Node {
    /// The point byte (0: no point).
    point: u8,
    /// Whether the node is a move (not a board label).
    is_move: bool,
    /// The offset of the record that made it.
    offset: usize,
    /// Its children, in RenLib's order (by point byte).
    children: Vec<usize>,
}

/// A cursor over the records.
struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Records<'_> {
    /// The next record's pair, or `None` at the end. A lone last byte is
    /// no record: RenLib stops reading when fewer than two bytes are left
    /// (one of the example files ends with a stray line feed).
    fn record(&mut self) -> Option<(u8, u8)> {
        let pair = self.bytes.get(self.at..self.at + 2)?;
        self.at += 2;
        Some((pair[0], pair[1]))
    }

    /// A pair that must be there (an extension, a text).
    fn needed(&mut self, what: &'static str) -> Result<(u8, u8), GomokuError> {
        let at = self.at;
        self.record()
            .ok_or(GomokuError::LibTruncated { offset: at, what })
    }

    /// Skips a text that ends at a zero byte.
    fn skip_text(&mut self, what: &'static str) -> Result<(), GomokuError> {
        loop {
            let (a, b) = self.needed(what)?;
            if a == 0 || b == 0 {
                return Ok(());
            }
        }
    }

    /// Skips an old-style comment, which ends at a byte with its top bit
    /// set.
    fn skip_old_text(&mut self) -> Result<(), GomokuError> {
        loop {
            let (a, b) = self.needed("an old-style comment")?;
            if a & 0x80 != 0 || b & 0x80 != 0 {
                return Ok(());
            }
        }
    }
}

/// The point a record's byte names, `None` for byte 0 (no point).
///
/// # Errors
///
/// [`GomokuError::LibPoint`] for a byte that is no point of the board.
fn point_of(value: u8, record: usize, offset: usize) -> Result<Option<Point>, GomokuError> {
    if value == 0 {
        return Ok(None);
    }
    let (x, y) = (value % 16, value / 16);
    if !(1..=POS_SIZE).contains(&x) || y >= POS_SIZE {
        return Err(GomokuError::LibPoint {
            record,
            offset,
            value,
        });
    }
    // Column x from 1 at the left; row y + 1 from the top.
    Ok(Point::new(x - 1, POS_SIZE - 1 - y))
}

/// Reads a RenLib `.lib` file: the line it holds first (see the module's
/// documentation) and the size of its tree.
///
/// # Errors
///
/// [`GomokuError`]: too large; not a RenLib file (`LibHeader`) or a
/// version after 3.04 (`LibVersion`); an extension, comment or text cut
/// short (`LibTruncated`); a byte that is no point (`LibPoint`); a first
/// line that goes on only through a pass (`LibPass`); no move.
pub fn read_lib(bytes: &[u8]) -> Result<Library, GomokuError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(GomokuError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let (version, start) = if bytes.starts_with(LIB_MAGIC) {
        let Some(&[major, minor]) = bytes.get(8..10) else {
            return Err(GomokuError::LibHeader {
                problem: "the header is cut before its version",
            });
        };
        if bytes.len() < LIB_HEADER_SIZE {
            return Err(GomokuError::LibHeader {
                problem: "the header is shorter than its 20 bytes",
            });
        }
        if 100 * u16::from(major) + u16::from(minor) > NEWEST {
            return Err(GomokuError::LibVersion { major, minor });
        }
        (Some((major, minor)), LIB_HEADER_SIZE)
    } else if bytes.first() == Some(&CENTRE) {
        (None, 0)
    } else if bytes.is_empty() {
        return Err(GomokuError::Empty);
    } else {
        return Err(GomokuError::LibHeader {
            problem: "a RenLib library starts with FF \"RenLib\" FF (or, without a header, with the centre, 78)",
        });
    };
    let mut records = Records { bytes, at: start };
    let mut nodes = vec![Node {
        point: 0,
        is_move: false,
        offset: start,
        children: Vec::new(),
    }];
    // The line from the root to the current node, and the depths of the
    // nodes whose younger siblings are still to come.
    let mut path: Vec<usize> = vec![0];
    let mut pending: Vec<usize> = Vec::new();
    let mut comments = 0;
    let mut record = 0;
    loop {
        let offset = records.at;
        let Some((value, flags)) = records.record() else {
            break;
        };
        record += 1;
        if record == 1 && value == 0 {
            // The root: no point, no node of its own.
        } else {
            point_of(value, record, offset)?;
            let current = path.last().copied().unwrap_or(0);
            let is_move = flags & NOT_A_MOVE == 0;
            // A point already among the children is the same node (RenLib
            // merges it); a new one goes in point order.
            let found = nodes.get(current).and_then(|n| {
                n.children
                    .iter()
                    .copied()
                    .find(|&c| nodes[c].point == value)
            });
            let node = match found {
                Some(node) => {
                    nodes[node].is_move |= is_move;
                    node
                }
                None => {
                    let node = nodes.len();
                    nodes.push(Node {
                        point: value,
                        is_move,
                        offset,
                        children: Vec::new(),
                    });
                    // Put in point order once the tree is read.
                    nodes[current].children.push(node);
                    node
                }
            };
            path.push(node);
        }
        // Then, in this order: the two extension bytes, a comment (an old
        // one if both flags are set, as RenLib reads it), a board text.
        let extension = if flags & EXTENSION != 0 {
            records.needed("the record's extension")?.1
        } else {
            0
        };
        if flags & OLD_COMMENT != 0 {
            records.skip_old_text()?;
            comments += 1;
        } else if flags & COMMENT != 0 {
            records.skip_text("a comment")?;
            comments += 1;
        }
        if extension & BOARD_TEXT != 0 {
            records.skip_text("a board text")?;
        }
        if flags & HAS_SIBLING != 0 {
            pending.push(path.len() - 1);
        }
        if flags & NO_CHILD != 0 {
            if let Some(depth) = pending.pop() {
                // Back to the parent of the node whose sibling comes next.
                path.truncate(depth.max(1));
            }
        }
    }
    sort_children(&mut nodes);
    let main_line = first_line(&nodes)?;
    let tree_moves = nodes.iter().skip(1).filter(|n| n.is_move).count();
    let lines = nodes
        .iter()
        .skip(1)
        .filter(|n| n.is_move && !n.children.iter().any(|&c| nodes[c].is_move))
        .count();
    Ok(Library {
        version,
        main_line,
        tree_moves,
        lines,
        comments,
    })
}

/// Puts every node's children in RenLib's order: by point byte.
fn sort_children(nodes: &mut [Node]) {
    let points: Vec<u8> = nodes.iter().map(|n| n.point).collect();
    for node in nodes.iter_mut() {
        node.children.sort_by_key(|&c| points[c]);
    }
}

/// The line the tree holds first: at each node, the first child that
/// places a stone.
fn first_line(nodes: &[Node]) -> Result<MoveList, GomokuError> {
    let mut moves = Vec::new();
    let mut at = 0;
    loop {
        let children = &nodes[at].children;
        let stone = children
            .iter()
            .copied()
            .find(|&c| nodes[c].is_move && nodes[c].point != 0);
        let Some(next) = stone else {
            if let Some(&pass) = children
                .iter()
                .find(|&&c| nodes[c].is_move && nodes[c].point == 0)
            {
                return Err(GomokuError::LibPass {
                    number: moves.len() + 1,
                    offset: nodes[pass].offset,
                });
            }
            break;
        };
        let node = &nodes[next];
        let point = point_of(node.point, 0, node.offset)?.ok_or(GomokuError::Empty)?;
        moves.push(point);
        at = next;
    }
    super::pos_list(moves)
}

/// A RenLib library (version 3.04) holding one line, `moves`; `None` for a
/// point off the 15×15 board.
pub fn write_lib(moves: &[Point]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(LIB_HEADER_SIZE + 2 + 2 * moves.len());
    out.extend_from_slice(LIB_MAGIC);
    out.extend_from_slice(&[3, 4]);
    out.extend_from_slice(&[0xFF; LIB_HEADER_SIZE - 10]);
    // The root.
    out.extend_from_slice(&[0, 0]);
    for (i, p) in moves.iter().enumerate() {
        if p.col() >= POS_SIZE || p.row() >= POS_SIZE {
            return None;
        }
        let value = 16 * (POS_SIZE - 1 - p.row()) + p.col() + 1;
        let flags = if i + 1 == moves.len() { NO_CHILD } else { 0 };
        out.extend_from_slice(&[value, flags]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(minor: u8) -> Vec<u8> {
        let mut out = LIB_MAGIC.to_vec();
        out.extend_from_slice(&[3, minor]);
        out.extend_from_slice(&[0xFF; 10]);
        out
    }

    fn line(text: &str) -> Vec<Point> {
        text.split(' ').map(|p| p.parse().unwrap()).collect()
    }

    /// The parts of the layout the public example files do not use: the
    /// extension bytes with a board text, an old-style comment, and a
    /// label (a node that is no move) before the move in point order.
    #[test]
    fn extensions_old_comments_and_labels() {
        let mut bytes = header(4);
        bytes.extend_from_slice(&[0, 0]); // the root
                                          // h8 with an extension whose board-text bit is set: "A", ended.
        bytes.extend_from_slice(&[0x78, EXTENSION, 0x00, BOARD_TEXT, b'A', 0]);
        // A label on g9 (0x67), a leaf with a younger sibling: skipped by
        // the first line although it sorts first.
        bytes.extend_from_slice(&[0x67, NOT_A_MOVE | HAS_SIBLING | NO_CHILD]);
        // i8 (0x79) with an old-style comment "ok!" (top bit on its last
        // byte; the pair's second byte is not read).
        bytes.extend_from_slice(&[0x79, OLD_COMMENT, b'o', b'k', b'!' | 0x80, 0]);
        // j7 (0x8A), the last move.
        bytes.extend_from_slice(&[0x8A, NO_CHILD]);
        let read = read_lib(&bytes).unwrap();
        assert_eq!(read.version, Some((3, 4)));
        assert_eq!(read.main_line.moves, line("h8 i8 j7"));
        assert_eq!((read.tree_moves, read.lines, read.comments), (3, 1, 1));
        // The board text cut before its end.
        let cut = &bytes[..26];
        assert_eq!(
            read_lib(cut),
            Err(GomokuError::LibTruncated {
                offset: 26,
                what: "a board text"
            })
        );
        // The extension itself cut.
        assert_eq!(
            read_lib(&bytes[..24]),
            Err(GomokuError::LibTruncated {
                offset: 24,
                what: "the record's extension"
            })
        );
    }

    /// A file without the header starts at the centre; a pass that is one
    /// child among others is not the first line's choice.
    #[test]
    fn no_header_and_passes_beside_stones() {
        // h8; its children: a pass (0, a leaf with a sibling) and i9.
        let bytes = [0x78, 0, 0, HAS_SIBLING | NO_CHILD, 0x69, NO_CHILD];
        let read = read_lib(&bytes).unwrap();
        assert_eq!(read.version, None);
        assert_eq!(read.main_line.moves, line("h8 i9"));
        assert_eq!((read.tree_moves, read.lines), (3, 2));
        // Only the pass: refused at move 2.
        let bytes = [0x78, 0, 0, NO_CHILD];
        assert_eq!(
            read_lib(&bytes),
            Err(GomokuError::LibPass {
                number: 2,
                offset: 2
            })
        );
    }

    /// The same point twice under one node is one node, as RenLib merges
    /// it; children are taken in point order, not file order.
    #[test]
    fn repeated_children_merge_and_sort() {
        let mut bytes = header(0);
        // h8, then j8 (0x7A) as a leaf with a sibling, then i8 (0x79) as
        // a leaf with a sibling, then j8 again with a child k8 (0x7B).
        bytes.extend_from_slice(&[0x78, 0]);
        bytes.extend_from_slice(&[0x7A, HAS_SIBLING | NO_CHILD]);
        bytes.extend_from_slice(&[0x79, HAS_SIBLING | NO_CHILD]);
        bytes.extend_from_slice(&[0x7A, 0, 0x7B, NO_CHILD]);
        let read = read_lib(&bytes).unwrap();
        assert_eq!(read.main_line.moves, line("h8 i8"));
        assert_eq!((read.tree_moves, read.lines), (4, 2));
    }

    #[test]
    fn one_line_libraries_write_as_renlib_does() {
        let bytes = write_lib(&line("h8 i9")).unwrap();
        let mut expected = header(4);
        expected.extend_from_slice(&[0, 0, 0x78, 0, 0x69, NO_CHILD]);
        assert_eq!(bytes, expected);
        assert_eq!(write_lib(&line("p16")), None);
    }
}
