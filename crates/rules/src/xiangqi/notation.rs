//! The two descriptive notations: WXF (`C2.5`) and traditional Chinese
//! (`炮二平五`, `马8进7`).
//!
//! Both name the piece, the file it stands on counted from the mover's right
//! (1–9), the direction (forward, backward, along the rank) and either the
//! new file (for sideways moves and for the diagonal movers: horse, elephant,
//! advisor) or the number of ranks moved. Red writes Chinese numerals, black
//! Arabic digits.
//!
//! Tandem pieces, several of one kind on one file, follow the World Xiangqi
//! Federation's "Official Xiangqi Piece Names and Notation" (AXF 1980/82,
//! adopted by WXF 1997; wxf.org/xq/computer/wxf_notation.html): the file
//! digit becomes `+` (front) or `-` (rear); of three pawns the middle one
//! keeps its file digit; of four or five the foremost and rearmost replace
//! the letter too (`++.4`, `--.4`); when two files hold tandem pawns the
//! letter becomes the file digit (`3+.4`, `33.4`, `3-.4`). The Chinese form
//! follows the computer notation standard of xqbase.com (the one ElephantEye
//! implements): 前/后, 前/中/后 for three soldiers, 一二三四五 front to back
//! for more; and when two files hold tandem soldiers, one 一–五 series over
//! all of them, from the mover's right file to the left and front to back
//! (`一兵平五`). Advisors and elephants never need 前/后: two on one file
//! always move in opposite directions.
//!
//! Reading a move back from any of these texts, or from ICCS, is the
//! `parse` submodule's job: [`MoveText`] and [`read_move`].

mod parse;

pub use parse::{
    read_move, Candidate, Descriptive, Family, MoveText, MoveTextError, Numerals,
    ParseMoveTextError, Place, ResolveError, Which,
};

use super::position::SLOT_PIECE;
use super::types::{Move, Piece, Role, Side, Square};
use super::Position;
use std::fmt;

const CHINESE_DIGITS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Which way a move goes, seen from the mover: 进 (`+`), 退 (`-`) or 平
/// (`.`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// 进, `+`: towards the other side's back rank.
    Forward,
    /// 退, `-`: towards the mover's own back rank.
    Backward,
    /// 平, `.`: along the rank.
    Sideways,
}

/// Everything both notations need to know about a move.
struct Described {
    piece: Piece,
    /// File of the moving piece, 1–9 from the mover's right.
    file: u8,
    /// Index of the moving piece among same pieces on its file, front first,
    /// and their number.
    rank_in_file: usize,
    on_file: usize,
    /// When another file also holds two or more of these soldiers: the
    /// moving soldier's place among all soldiers on such files, counted from
    /// the mover's right file to the left and front to back on each file.
    tandem_files: Option<usize>,
    direction: Direction,
    /// New file (1–9) or number of ranks moved.
    target: u8,
}

/// File number 1–9 from `side`'s right.
fn file_number(side: Side, sq: Square) -> u8 {
    match side {
        Side::Red => 9 - sq.file(),
        Side::Black => sq.file() + 1,
    }
}

/// How far forward `sq` is for `side` (bigger is further forward).
fn advance(side: Side, sq: Square) -> u8 {
    match side {
        Side::Red => sq.rank(),
        Side::Black => 9 - sq.rank(),
    }
}

/// The points of `piece`s on `file`, front first as `piece.side` sees it,
/// and how many there are.
fn same_on(pos: &Position, piece: Piece, file: u8) -> ([Option<Square>; 10], usize) {
    let mut found = [None; 10];
    let mut n = 0;
    for i in 0..10u8 {
        // Red's front is row 0 (black's back rank), black's is row 9.
        let row = match piece.side {
            Side::Red => i,
            Side::Black => 9 - i,
        };
        let s = Square::from_file_row(file, row);
        if s.and_then(|s| pos.piece_at(s)) == Some(piece) {
            found[n] = s;
            n += 1;
        }
    }
    (found, n)
}

/// How many of each piece stand on each file: what tells a moving piece
/// from others of its kind. Counted once for a position whose every legal
/// move is named ([`Namer`]), or from the one file a single move needs.
trait FileCounts {
    /// The number of `piece`s on `file` (0 = `a`).
    fn on_file(&self, pos: &Position, piece: Piece, file: u8) -> usize;
}

/// Counts by looking at the file (for one move).
struct Look;

impl FileCounts for Look {
    fn on_file(&self, pos: &Position, piece: Piece, file: u8) -> usize {
        same_on(pos, piece, file).1
    }
}

/// Every piece's count on every file, from the position's 32 slots.
struct Counted([[u8; 9]; 14]);

impl Counted {
    fn of(pos: &Position) -> Counted {
        let mut counts = [[0; 9]; 14];
        for (&point, piece) in pos.slots().iter().zip(SLOT_PIECE) {
            if let Some(square) = Square::new(point) {
                counts[kind(piece)][usize::from(square.file())] += 1;
            }
        }
        Counted(counts)
    }
}

impl FileCounts for Counted {
    #[inline]
    fn on_file(&self, _: &Position, piece: Piece, file: u8) -> usize {
        usize::from(self.0[kind(piece)][usize::from(file % 9)])
    }
}

/// A piece's row in [`Counted`]: the side's seven roles, red's first.
fn kind(piece: Piece) -> usize {
    piece.side.index() * 7 + piece.role as usize
}

/// Names the legal moves of one position: [`names`] for each, with the
/// pieces on each file counted once rather than looked at for every move.
pub struct Namer<'a> {
    pos: &'a Position,
    counts: Counted,
}

impl<'a> Namer<'a> {
    /// A namer for the moves of `pos`.
    pub fn new(pos: &'a Position) -> Namer<'a> {
        Namer {
            pos,
            counts: Counted::of(pos),
        }
    }

    /// What [`names`] gives for `m`.
    pub fn names(&self, m: Move) -> Option<Names> {
        describe(self.pos, &self.counts, m).map(|d| d.names())
    }
}

fn describe(pos: &Position, counts: &impl FileCounts, m: Move) -> Option<Described> {
    let piece = pos.piece_at(m.from)?;
    let side = piece.side;
    // Advisors and elephants are never told apart by front and rear: two on
    // one file always move in different directions. A piece alone on its
    // file needs no look at it.
    let alone = matches!(piece.role, Role::Advisor | Role::Elephant)
        || counts.on_file(pos, piece, m.from.file()) == 1;
    let (on_file, rank_in_file) = if alone {
        (1, 0)
    } else {
        let (found, n) = same_on(pos, piece, m.from.file());
        (n, found[..n].iter().position(|&s| s == Some(m.from))?)
    };
    let tandem_files = if piece.role == Role::Soldier && on_file >= 2 {
        // Files from the mover's right to its left, soldiers front to back.
        let mut series = 0;
        let mut place = None;
        let mut others = false;
        for k in 0..9u8 {
            let file = match side {
                Side::Red => 8 - k,
                Side::Black => k,
            };
            let n = counts.on_file(pos, piece, file);
            if n < 2 {
                continue;
            }
            if file == m.from.file() {
                place = Some(series + rank_in_file);
            } else {
                others = true;
            }
            series += n;
        }
        place.filter(|_| others)
    } else {
        None
    };
    let (a, b) = (advance(side, m.from), advance(side, m.to));
    let direction = if a == b {
        Direction::Sideways
    } else if b > a {
        Direction::Forward
    } else {
        Direction::Backward
    };
    let straight = matches!(
        piece.role,
        Role::General | Role::Chariot | Role::Cannon | Role::Soldier
    );
    let target = if direction == Direction::Sideways || !straight {
        file_number(side, m.to)
    } else {
        a.abs_diff(b)
    };
    Some(Described {
        piece,
        file: file_number(side, m.from),
        rank_in_file,
        on_file,
        tandem_files,
        direction,
        target,
    })
}

/// A move's name in one notation: four characters (`C2.5`, `炮二平五`),
/// kept inline so that listing every legal move's names allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name([char; 4]);

impl Name {
    /// The four characters, in order.
    pub fn chars(self) -> impl Iterator<Item = char> {
        self.0.into_iter()
    }

    /// The four characters, as an array.
    pub fn to_chars(self) -> [char; 4] {
        self.0
    }

    /// The name as UTF-8 in `buf` (four characters take at most 16 bytes).
    #[inline]
    pub fn encode<'a>(&self, buf: &'a mut [u8; 16]) -> &'a str {
        let mut len = 0;
        for c in self.0 {
            len += c.encode_utf8(&mut buf[len..]).len();
        }
        std::str::from_utf8(&buf[..len]).expect("whole characters were written")
    }

    /// The name as a string of its own, allocated at its exact size and
    /// filled character by character: what [`wxf`] and [`chinese`] return.
    /// Going through [`fmt::Display`] instead (`to_string`) checks again
    /// the UTF-8 that [`Name::encode`] wrote and grows the string through
    /// the formatter: some 190 instructions more a name, a tenth of what
    /// naming every legal move of a position costs.
    fn into_string(self) -> String {
        let mut s = String::with_capacity(self.0.iter().map(|c| c.len_utf8()).sum());
        for c in self.0 {
            s.push(c);
        }
        s
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0; 16]))
    }
}

/// Both names of a move, from one look at the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    /// The WXF form (`C2.5`).
    pub wxf: Name,
    /// The traditional Chinese form (`炮二平五`).
    pub chinese: Name,
}

/// The WXF and Chinese forms of a move (what a listing of legal moves
/// shows), or `None` when no piece stands on the move's origin.
pub fn names(pos: &Position, m: Move) -> Option<Names> {
    describe(pos, &Look, m).map(|d| d.names())
}

impl Described {
    // Inlined, as are the two namings below, into the namer that names
    // every legal move of a position (a view lists some forty): called,
    // they cost about thirty instructions more a move.
    #[inline]
    fn names(&self) -> Names {
        Names {
            wxf: wxf_of(self),
            chinese: chinese_of(self),
        }
    }
}

/// The WXF form of a move (`C2.5`, `H8+7`, `R+.3`, `C--1`), or `None` when
/// no piece stands on the move's origin.
pub fn wxf(pos: &Position, m: Move) -> Option<String> {
    describe(pos, &Look, m).map(|d| wxf_of(&d).into_string())
}

#[inline]
fn wxf_of(d: &Described) -> Name {
    let letter = d.piece.role.wxf_letter();
    let digit = |n: u8| char::from(b'0' + n);
    // The two characters before the direction: piece and file, or their
    // tandem replacements.
    let (first, second) = match (d.on_file, d.rank_in_file) {
        (1, _) => (letter, digit(d.file)),
        (n, i) if d.tandem_files.is_some() => {
            let mark = if i == 0 {
                '+'
            } else if i == n - 1 {
                '-'
            } else {
                digit(d.file)
            };
            (digit(d.file), mark)
        }
        (2, 0) | (3, 0) => (letter, '+'),
        (2, _) | (3, 2) => (letter, '-'),
        (3, _) => (letter, digit(d.file)),
        (n, 0) if n >= 4 => ('+', '+'),
        (n, i) if i == n - 1 => ('-', '-'),
        (_, 1) => (letter, '+'),
        (n, i) if i == n - 2 => (letter, '-'),
        _ => (letter, digit(d.file)),
    };
    let op = match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    };
    Name([first, second, op, digit(d.target)])
}

/// The traditional Chinese form of a move (`炮二平五`, `马8进7`, `前车平四`),
/// or `None` when no piece stands on the move's origin.
pub fn chinese(pos: &Position, m: Move) -> Option<String> {
    describe(pos, &Look, m).map(|d| chinese_of(&d).into_string())
}

#[inline]
fn chinese_of(d: &Described) -> Name {
    let side = d.piece.side;
    let number = |n: u8| match side {
        Side::Red => CHINESE_DIGITS[n as usize % 10],
        Side::Black => char::from(b'0' + n),
    };
    let name = d.piece.role.chinese(side);
    let ordinal = match (d.tandem_files, d.on_file, d.rank_in_file) {
        (Some(i), _, _) => CHINESE_DIGITS[(i + 1) % 10],
        (None, 2 | 3, 0) => '前',
        (None, 2, _) | (None, 3, 2) => '后',
        (None, 3, _) => '中',
        (None, _, i) => CHINESE_DIGITS[(i + 1) % 10],
    };
    let (first, second) = if d.on_file == 1 {
        (name, number(d.file))
    } else {
        (ordinal, name)
    };
    let op = match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    };
    Name([first, second, op, number(d.target)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(fen: &str, iccs: &str) -> (String, String) {
        let pos = Position::from_fen(fen).unwrap();
        let m: Move = iccs.parse().unwrap();
        assert!(pos.is_legal(m), "{iccs} in {fen}");
        let names = names(&pos, m).unwrap();
        assert_eq!(Some(names.wxf.to_string()), wxf(&pos, m));
        assert_eq!(Some(names.chinese.to_string()), chinese(&pos, m));
        (names.wxf.to_string(), names.chinese.to_string())
    }

    #[test]
    fn opening_moves() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        assert_eq!(both(start, "h2e2"), ("C2.5".into(), "炮二平五".into()));
        assert_eq!(both(start, "h0g2"), ("H2+3".into(), "马二进三".into()));
        assert_eq!(both(start, "i0i1"), ("R1+1".into(), "车一进一".into()));
        let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        assert_eq!(both(black, "h9g7"), ("H8+7".into(), "马8进7".into()));
        assert_eq!(both(black, "h7e7"), ("C8.5".into(), "炮8平5".into()));
    }
}
