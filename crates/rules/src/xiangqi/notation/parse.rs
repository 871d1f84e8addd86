//! Reading a move as people write it: Chinese (`炮二平五`, `马８进７`,
//! `前车平四`, `車二進一`), WXF (`C2.5`, `H2+3`, `R+.3`, `3-.4`) or ICCS
//! (`h2e2`, `H2-E2`).
//!
//! Reading happens in two steps, as shakmaty reads SAN. [`MoveText`] is
//! the syntax alone: `FromStr` takes the text apart without a position and
//! says where it is malformed ([`ParseMoveTextError`]). [`MoveText::resolve`]
//! then finds the one legal move it names in a [`Position`], or says why
//! there is none ([`ResolveError`]: no such piece, several candidates, a
//! move the piece cannot make, or one the rules forbid). [`read_move`] does
//! both for a caller that holds a position and a string.
//!
//! What is accepted, beyond the forms [`chinese`](super::chinese) and
//! [`wxf`](super::wxf) write:
//!
//! - Chinese in simplified and traditional characters and their variants:
//!   车/車/俥, 马/馬/傌, 炮/砲/包, 相/象, 仕/士, 帅/帥/将/將, 兵/卒,
//!   进/進, 后/後. Either side may write its numbers as 一…九 or as digits,
//!   ASCII (`8`) or full-width (`８`): xqbase's standard gives black
//!   full-width digits, most web pages ASCII ones, and some red moves are
//!   typed with digits too. Whitespace inside the text is ignored.
//! - Several pieces of a kind on one file, following xqbase's "中国象棋电脑
//!   应用规范(二)：着法表示": 前/后, 前/中/后 for three soldiers, 一…五
//!   front to back for more, and one 一…五 series over every file holding
//!   two or more soldiers, from the mover's right file to its left. The
//!   older five-character form that names the file as well (`前兵四平五`)
//!   is read too.
//! - Full-width forms of ASCII anywhere (`Ｃ２＝５`, as some files write
//!   WXF).
//! - WXF as the World Xiangqi Federation's "Official Xiangqi Piece Names and
//!   Notation" writes it: `+`/`-` for the front and rear piece (`C+.5`,
//!   also `+C.5` with the sign first), `P3` for the middle one of three or
//!   five pawns, `++`/`--` for the foremost and rearmost of four or five,
//!   the file digit first when two files hold tandem pawns (`3+.4`, `33.4`,
//!   `3-.4`); `=` as well as `.` for a move along the rank, and the
//!   three-character `C25`; `B`/`N` as well as `E`/`H`; ElephantEye's `a`–`e`
//!   for 一…五 (`Pa.5`) and `.` for 中. Letters in either case.
//! - ICCS with or without the dash, in either case.
//!
//! Resolution looks only at the side to move. Same pieces that the text
//! does not tell apart (a sloppy `兵五进一` with two soldiers on the file)
//! are told apart by legality when only one of them can make the move, as
//! SAN needs no disambiguation for a pinned piece; otherwise the text is
//! [`ResolveError::Ambiguous`] and lists the candidates.

use std::fmt;
use std::str::FromStr;

use super::{advance, file_number, Direction, Namer, CHINESE_DIGITS};
use crate::xiangqi::{IllegalMove, Move, Piece, Position, Role, Side, Square};
use crate::Reason;

/// The notation a move text is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// 炮二平五, 马8进7.
    Chinese,
    /// C2.5, H8+7.
    Wxf,
    /// h2e2.
    Iccs,
}

impl Family {
    /// `chinese`, `wxf` or `iccs`.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Chinese => "chinese",
            Family::Wxf => "wxf",
            Family::Iccs => "iccs",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a Chinese move writes its file and step numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Numerals {
    /// 一…九, red's numbers by convention.
    Chinese,
    /// 1…9 or １…９, black's (written back as ASCII digits).
    Arabic,
}

/// Front, middle or rear among same pieces on one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    /// 前, `+`.
    Front,
    /// 中, the WXF file digit of a middle pawn.
    Middle,
    /// 后, `-`.
    Rear,
}

/// Which of the mover's pieces of the named kind a move text means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Which {
    /// The piece on this file, 1–9 from the mover's right (`炮二`, `C2`).
    File(u8),
    /// Front, middle or rear on the file holding several (`前车`, `R+`,
    /// `+R`). In WXF, `+` and `-` among four or five pawns are the second
    /// from the front and from the rear, and the middle of three or five
    /// is written with its file digit ([`Which::File`]).
    Tandem(Place),
    /// The n-th, 1–5, of the soldiers on files holding two or more, from
    /// the mover's right file to its left and front to back on each file
    /// (`一兵`, `二兵`; ElephantEye's `Pa`, `Pb`).
    Nth(u8),
    /// WXF `++`: the foremost of four or five pawns on a file.
    Foremost,
    /// WXF `--`: the rearmost of four or five pawns on a file.
    Rearmost,
    /// The front, middle or rear piece on a given file, when two files hold
    /// tandem soldiers (WXF `3+`, `33`, `3-`; Chinese `前兵四`).
    OnFile {
        /// The file, 1–9 from the mover's right.
        file: u8,
        /// Which piece on it.
        place: Place,
    },
}

/// A Chinese or WXF move, read without a position: which piece, which way,
/// and how far or to which file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Descriptive {
    /// The kind of piece that moves.
    pub role: Role,
    /// Which of the mover's pieces of that kind.
    pub which: Which,
    /// Forward, backward or along the rank.
    pub direction: Direction,
    /// The new file (moves along the rank; horses, elephants and advisors)
    /// or the number of ranks moved, 1–9.
    pub target: u8,
    /// How the Chinese text wrote its numbers (WXF: always
    /// [`Numerals::Arabic`]).
    pub numerals: Numerals,
    /// The side a side-specific character names (帅/仕/相/兵 red,
    /// 将/士/象/卒 black); `None` for 车马炮 and for WXF. Only used to write
    /// the text back: resolution takes the side to move.
    pub side: Option<Side>,
}

/// A move as written in one of the three notations, parsed without a
/// position. `Display` writes it back in a canonical spelling of the same
/// notation (simplified characters, ASCII digits, `.` for a move along the
/// rank), and reading that back gives the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// ICCS coordinates (`h2e2`).
    Iccs(Move),
    /// Chinese (`炮二平五`).
    Chinese(Descriptive),
    /// WXF (`C2.5`).
    Wxf(Descriptive),
}

/// Why a text is not a move in any notation (syntax only).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveTextError {
    /// Nothing but whitespace.
    #[error("the move is empty: write it as 炮二平五, C2.5 or h2e2")]
    Empty,
    /// A character that does not belong where it stands.
    #[error("{text:?}: {character:?} (character {position}) is not {expected}")]
    Unexpected {
        /// The text, without surrounding whitespace.
        text: String,
        /// The character's place in the text, from 1.
        position: usize,
        /// The character.
        character: char,
        /// What may stand there.
        expected: &'static str,
    },
    /// Too few or too many characters for the notation.
    #[error("{text:?} has {length} characters: {expected}")]
    WrongLength {
        /// The text, without surrounding whitespace.
        text: String,
        /// How many characters it has (whitespace inside not counted).
        length: usize,
        /// What the notation looks like.
        expected: &'static str,
    },
}

impl Reason for ParseMoveTextError {
    fn reason(&self) -> &'static str {
        match self {
            ParseMoveTextError::Empty => "empty-move",
            ParseMoveTextError::Unexpected { .. } => "unexpected-character",
            ParseMoveTextError::WrongLength { .. } => "wrong-length",
        }
    }
}

/// A legal move that a text could mean, with its name in the text's
/// notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its name in the notation the text was written in.
    pub name: String,
}

/// Why a well-formed move text names no legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The side to move has no such piece where the text says.
    #[error("{text}: {side} has no {role} {where_}", side = piece.side, role = piece.role, where_ = describe_which(*which))]
    NoSuchPiece {
        /// The text, as [`MoveText`] writes it.
        text: String,
        /// The piece the text names, of the side to move.
        piece: Piece,
        /// Where the text says it stands.
        which: Which,
    },
    /// Several legal moves fit the text.
    #[error("{text} fits {n} legal moves: {list}; name the piece (前/后, +/-) or use ICCS", n = candidates.len(), list = list(candidates))]
    Ambiguous {
        /// The text, as [`MoveText`] writes it.
        text: String,
        /// Every legal move that fits, in the order of the pieces' files.
        candidates: Vec<Candidate>,
    },
    /// The piece cannot move as the text says, whatever the position (a
    /// horse along a rank, a step off the board).
    #[error("{text}: the {role} on {from} {why}", role = piece.role)]
    Impossible {
        /// The text, as [`MoveText`] writes it.
        text: String,
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// What is wrong with the move.
        why: &'static str,
    },
    /// The text names a move that the rules forbid here.
    #[error("{text}: {error}")]
    Illegal {
        /// The text, as [`MoveText`] writes it.
        text: String,
        /// Why the move is refused.
        error: IllegalMove,
    },
}

impl Reason for ResolveError {
    fn reason(&self) -> &'static str {
        match self {
            ResolveError::NoSuchPiece { .. } => "no-such-piece",
            ResolveError::Ambiguous { .. } => "ambiguous-move",
            ResolveError::Impossible { .. } => "impossible-move",
            ResolveError::Illegal { error, .. } => error.reason(),
        }
    }
}

/// Why a text names no legal move: its syntax or its resolution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is not a move in any notation.
    #[error(transparent)]
    Parse(#[from] ParseMoveTextError),
    /// The text is a move, but not a legal one here.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

impl Reason for MoveTextError {
    fn reason(&self) -> &'static str {
        match self {
            MoveTextError::Parse(e) => e.reason(),
            MoveTextError::Resolve(e) => e.reason(),
        }
    }
}

/// The legal move that `text` names in `pos`, in any of the three
/// notations.
///
/// # Errors
///
/// [`MoveTextError::Parse`] when the text is malformed,
/// [`MoveTextError::Resolve`] when it names no legal move here.
///
/// ```
/// use qipan_rules::xiangqi::{read_move, Position};
///
/// let start = Position::start();
/// for text in ["炮二平五", "炮二平五 ", "C2.5", "h2e2", "H2-E2", "砲二平五"] {
///     assert_eq!(read_move(&start, text).unwrap().to_string(), "h2e2");
/// }
/// ```
pub fn read_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let parsed: MoveText = text.parse()?;
    Ok(parsed.resolve(pos)?)
}

fn list(candidates: &[Candidate]) -> String {
    candidates
        .iter()
        .map(|c| format!("{} ({})", c.name, c.mv))
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_which(which: Which) -> String {
    let place = |p: Place| match p {
        Place::Front => "front",
        Place::Middle => "middle",
        Place::Rear => "rear",
    };
    match which {
        Which::File(f) => format!("on file {f} (counted from its right)"),
        Which::Tandem(p) => format!("that is the {} one of several on a file", place(p)),
        Which::Nth(n) => {
            format!("that is number {n} among its pieces on files holding two or more")
        }
        Which::Foremost => "that is the foremost of several on a file".to_owned(),
        Which::Rearmost => "that is the rearmost of several on a file".to_owned(),
        Which::OnFile { file, place: p } => format!(
            "that is the {} one of several on file {file} (counted from its right)",
            place(p)
        ),
    }
}

impl MoveText {
    /// The notation the text is written in.
    pub fn family(&self) -> Family {
        match self {
            MoveText::Iccs(_) => Family::Iccs,
            MoveText::Chinese(_) => Family::Chinese,
            MoveText::Wxf(_) => Family::Wxf,
        }
    }

    /// The legal move this text names in `pos`.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`]: no piece of the side to move where the text
    /// says, several legal moves that fit (listed), a move the piece can
    /// never make, or one the rules forbid here (with the rule).
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        match self {
            MoveText::Iccs(m) => match pos.play(*m) {
                Ok(_) => Ok(*m),
                Err(error) => Err(ResolveError::Illegal {
                    text: self.to_string(),
                    error,
                }),
            },
            MoveText::Chinese(d) => d.resolve(pos, Family::Chinese, self),
            MoveText::Wxf(d) => d.resolve(pos, Family::Wxf, self),
        }
    }
}

/// The mover's pieces of one kind on a file numbered 1–9 from its right,
/// front first.
fn column(pos: &Position, piece: Piece, file: u8) -> Vec<Square> {
    let board_file = match piece.side {
        Side::Red => 9 - file,
        Side::Black => file - 1,
    };
    let (found, n) = super::same_on(pos, piece, board_file);
    found[..n].iter().flatten().copied().collect()
}

/// The point `advance` ranks forward (from the mover's side) on `file`
/// (1–9 from its right).
fn point(side: Side, file: u8, advance: u8) -> Option<Square> {
    if !(1..=9).contains(&file) || advance > 9 {
        return None;
    }
    match side {
        Side::Red => Square::from_iccs(9 - file, advance),
        Side::Black => Square::from_iccs(file - 1, 9 - advance),
    }
}

impl Descriptive {
    /// The piece picked by `place` among `pieces` on one file, front first.
    fn pick(pieces: &[Square], place: Place, family: Family) -> Option<Square> {
        let n = pieces.len();
        let wxf_many = family == Family::Wxf && n >= 4;
        match place {
            Place::Front if wxf_many => pieces.get(1).copied(),
            Place::Front => pieces.first().copied(),
            Place::Rear if wxf_many => pieces.get(n - 2).copied(),
            Place::Rear => pieces.last().copied(),
            Place::Middle => match n {
                3 => pieces.get(1).copied(),
                5 => pieces.get(2).copied(),
                _ => None,
            },
        }
    }

    /// The origins the text can mean, before looking at where they go.
    fn origins(&self, pos: &Position, family: Family) -> Vec<Square> {
        let piece = Piece {
            side: pos.turn(),
            role: self.role,
        };
        let tandem: Vec<Vec<Square>> = (1..=9)
            .map(|f| column(pos, piece, f))
            .filter(|c| c.len() >= 2)
            .collect();
        match self.which {
            Which::File(f) => {
                let on = column(pos, piece, f);
                // WXF writes the middle one of three or five pawns with
                // its file digit; Chinese never does.
                match (family, on.len()) {
                    (Family::Wxf, 3) => on[1..2].to_vec(),
                    (Family::Wxf, 5) => on[2..3].to_vec(),
                    _ => on,
                }
            }
            Which::Tandem(place) => tandem
                .iter()
                .filter_map(|c| Self::pick(c, place, family))
                .collect(),
            Which::Nth(n) => tandem
                .concat()
                .get(usize::from(n).wrapping_sub(1))
                .copied()
                .into_iter()
                .collect(),
            Which::Foremost => tandem.iter().filter_map(|c| c.first().copied()).collect(),
            Which::Rearmost => tandem.iter().filter_map(|c| c.last().copied()).collect(),
            Which::OnFile { file, place } => {
                Self::pick(&column(pos, piece, file), place, Family::Chinese)
                    .into_iter()
                    .collect()
            }
        }
    }

    /// Where the piece on `from` goes, or why it cannot move so.
    fn destination(&self, side: Side, from: Square) -> Result<Square, &'static str> {
        let (file, rank) = (file_number(side, from), advance(side, from));
        let t = self.target;
        let straight = |ranks: u8| -> Result<Square, &'static str> {
            let to = match self.direction {
                Direction::Forward => rank.checked_add(ranks).and_then(|a| point(side, file, a)),
                Direction::Backward => rank.checked_sub(ranks).and_then(|a| point(side, file, a)),
                Direction::Sideways if t == file => {
                    return Err("would stay where it is: a move along the rank names a new file")
                }
                Direction::Sideways => point(side, t, rank),
            };
            to.ok_or("would leave the board")
        };
        let diagonal =
            |files: u8, ranks: u8, shape: &'static str| -> Result<Square, &'static str> {
                if self.direction == Direction::Sideways || file.abs_diff(t) != files {
                    return Err(shape);
                }
                let a = match self.direction {
                    Direction::Forward => rank.checked_add(ranks),
                    Direction::Backward | Direction::Sideways => rank.checked_sub(ranks),
                };
                a.and_then(|a| point(side, t, a))
                    .ok_or("would leave the board")
            };
        match self.role {
            Role::General | Role::Chariot | Role::Cannon | Role::Soldier => straight(t),
            Role::Horse => {
                let shape = "moves one file and two ranks or two files and one rank, never along a rank: the number after 进/退 is the file it lands on";
                match file.abs_diff(t) {
                    1 => diagonal(1, 2, shape),
                    2 => diagonal(2, 1, shape),
                    _ => Err(shape),
                }
            }
            Role::Elephant => diagonal(
                2,
                2,
                "moves two files and two ranks, never along a rank: the number after 进/退 is the file it lands on",
            ),
            Role::Advisor => diagonal(
                1,
                1,
                "moves one file and one rank, never along a rank: the number after 进/退 is the file it lands on",
            ),
        }
    }

    fn resolve(
        &self,
        pos: &Position,
        family: Family,
        text: &MoveText,
    ) -> Result<Move, ResolveError> {
        let side = pos.turn();
        let piece = Piece {
            side,
            role: self.role,
        };
        let origins = self.origins(pos, family);
        let mut legal = Vec::new();
        let mut illegal = None;
        let mut impossible = None;
        for from in origins.iter().copied() {
            match self.destination(side, from) {
                Err(why) => {
                    impossible.get_or_insert((from, why));
                }
                Ok(to) => {
                    let m = Move { from, to };
                    match pos.play(m) {
                        Ok(_) => legal.push(m),
                        Err(e) => {
                            illegal.get_or_insert(e);
                        }
                    }
                }
            }
        }
        match (legal.as_slice(), illegal, impossible) {
            ([m], _, _) => Ok(*m),
            ([], _, _) if origins.is_empty() => Err(ResolveError::NoSuchPiece {
                text: text.to_string(),
                piece,
                which: self.which,
            }),
            ([], Some(error), _) => Err(ResolveError::Illegal {
                text: text.to_string(),
                error,
            }),
            ([], None, Some((from, why))) => Err(ResolveError::Impossible {
                text: text.to_string(),
                piece,
                from,
                why,
            }),
            ([], None, None) => Err(ResolveError::NoSuchPiece {
                text: text.to_string(),
                piece,
                which: self.which,
            }),
            (several, _, _) => {
                let namer = Namer::new(pos);
                let candidates = several
                    .iter()
                    .map(|&mv| Candidate {
                        mv,
                        name: namer
                            .names(mv)
                            .map(|n| match family {
                                Family::Wxf => n.wxf.to_string(),
                                Family::Chinese | Family::Iccs => n.chinese.to_string(),
                            })
                            .unwrap_or_else(|| mv.to_string()),
                    })
                    .collect();
                Err(ResolveError::Ambiguous {
                    text: text.to_string(),
                    candidates,
                })
            }
        }
    }
}

// ---- reading ---------------------------------------------------------------

/// The kind of piece a Chinese character names, and the side when the
/// character is one side's own.
fn chinese_piece(c: char) -> Option<(Role, Option<Side>)> {
    let red = Some(Side::Red);
    let black = Some(Side::Black);
    Some(match c {
        '帅' | '帥' => (Role::General, red),
        '将' | '將' => (Role::General, black),
        '仕' => (Role::Advisor, red),
        '士' => (Role::Advisor, black),
        '相' => (Role::Elephant, red),
        '象' => (Role::Elephant, black),
        // 傌, 俥 and 砲/包 are red's and black's in some sets, but the name
        // written back (马, 车, 炮) is the same for both sides.
        '马' | '馬' | '傌' => (Role::Horse, None),
        '车' | '車' | '俥' => (Role::Chariot, None),
        '炮' | '砲' | '包' => (Role::Cannon, None),
        '兵' => (Role::Soldier, red),
        '卒' => (Role::Soldier, black),
        _ => return None,
    })
}

/// A number 1–9 written as 一…九 or `1`…`9` (full-width digits are
/// read as ASCII before this).
fn chinese_number(c: char) -> Option<(u8, Numerals)> {
    if let Some(i) = CHINESE_DIGITS.iter().position(|&d| d == c) {
        return (i > 0).then_some((i as u8, Numerals::Chinese));
    }
    match c {
        '1'..='9' => Some((c as u8 - b'0', Numerals::Arabic)),
        _ => None,
    }
}

fn chinese_direction(c: char) -> Option<Direction> {
    match c {
        '进' | '進' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn chinese_place(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '中' => Some(Place::Middle),
        '后' | '後' => Some(Place::Rear),
        _ => None,
    }
}

const CHINESE_SHAPE: &str =
    "a Chinese move has four characters (炮二平五, 马8进7, 前车平四) or five (前兵四平五)";
const PIECES: &str = "a piece (车马炮相仕帅兵 and their traditional forms)";
const NUMBERS: &str = "a number 1–9 (一…九, 1…9 or １…９)";
const DIRECTIONS: &str = "进, 退 or 平";
const FIRST_CHINESE: &str = "a piece, 前/中/后 or 一…五";

struct Reader<'a> {
    text: &'a str,
    chars: Vec<char>,
}

impl Reader<'_> {
    fn unexpected(&self, i: usize, expected: &'static str) -> ParseMoveTextError {
        ParseMoveTextError::Unexpected {
            text: self.text.to_owned(),
            position: i + 1,
            character: self.chars[i],
            expected,
        }
    }

    fn get<T>(
        &self,
        i: usize,
        f: impl Fn(char) -> Option<T>,
        expected: &'static str,
    ) -> Result<T, ParseMoveTextError> {
        f(self.chars[i]).ok_or_else(|| self.unexpected(i, expected))
    }

    fn wrong_length(&self, expected: &'static str) -> ParseMoveTextError {
        ParseMoveTextError::WrongLength {
            text: self.text.to_owned(),
            length: self.chars.len(),
            expected,
        }
    }

    fn chinese(&self) -> Result<MoveText, ParseMoveTextError> {
        let n = self.chars.len();
        if n != 4 && n != 5 {
            return Err(self.wrong_length(CHINESE_SHAPE));
        }
        let first = self.chars[0];
        let (role, side, which, rest) = if let Some((role, side)) = chinese_piece(first) {
            if n != 4 {
                return Err(self.wrong_length(CHINESE_SHAPE));
            }
            let (file, _) = self.get(1, chinese_number, NUMBERS)?;
            (role, side, Which::File(file), 2)
        } else if let Some(place) = chinese_place(first) {
            let (role, side) = self.get(1, chinese_piece, PIECES)?;
            if n == 5 {
                let (file, _) = self.get(2, chinese_number, NUMBERS)?;
                (role, side, Which::OnFile { file, place }, 3)
            } else {
                (role, side, Which::Tandem(place), 2)
            }
        } else if let Some((k @ 1..=5, Numerals::Chinese)) = chinese_number(first) {
            if n != 4 {
                return Err(self.wrong_length(CHINESE_SHAPE));
            }
            let (role, side) = self.get(1, chinese_piece, PIECES)?;
            (role, side, Which::Nth(k), 2)
        } else {
            return Err(self.unexpected(0, FIRST_CHINESE));
        };
        let direction = self.get(rest, chinese_direction, DIRECTIONS)?;
        let (target, numerals) = self.get(rest + 1, chinese_number, NUMBERS)?;
        Ok(MoveText::Chinese(Descriptive {
            role,
            which,
            direction,
            target,
            numerals,
            side,
        }))
    }

    fn wxf(&self) -> Result<MoveText, ParseMoveTextError> {
        const SHAPE: &str =
            "a WXF move has four characters (C2.5, H2+3, R+.3, 3-.4) or three (C25)";
        const LETTERS: &str = "a WXF piece letter (K A E H R C P, or B N), a digit 1–9, + or -";
        const SECOND: &str = "a file digit 1–9, + or - (front or rear), . (middle) or a–e";
        const OPS: &str = "+ (forward), - (backward) or . (along the rank)";
        let c = |i: usize| self.chars[i].to_ascii_uppercase();
        let digit = |ch: char| {
            ch.to_digit(10)
                .and_then(|d| u8::try_from(d).ok())
                .filter(|&d| d > 0)
        };
        let letter = |ch: char| Role::from_fen_letter(ch).filter(|_| ch.is_ascii_alphabetic());
        let n = self.chars.len();
        if n == 3 {
            // `C25`: piece, file, new file, no sign (a move along the rank).
            let role = self.get(0, letter, LETTERS)?;
            let file = self.get(1, digit, "a file digit 1–9")?;
            let target = self.get(2, digit, "a file digit 1–9")?;
            return Ok(MoveText::Wxf(Descriptive {
                role,
                which: Which::File(file),
                direction: Direction::Sideways,
                target,
                numerals: Numerals::Arabic,
                side: None,
            }));
        }
        if n != 4 {
            return Err(self.wrong_length(SHAPE));
        }
        let (role, which) = match (c(0), c(1)) {
            (s @ ('+' | '-'), t) if t == s => (
                Role::Soldier,
                if s == '+' {
                    Which::Foremost
                } else {
                    Which::Rearmost
                },
            ),
            (s @ ('+' | '-'), _) => {
                let role = self.get(1, letter, "a WXF piece letter after the + or -")?;
                let place = if s == '+' { Place::Front } else { Place::Rear };
                (role, Which::Tandem(place))
            }
            (d @ '1'..='9', s) => {
                let file = d as u8 - b'0';
                let place = match s {
                    '+' => Place::Front,
                    '-' => Place::Rear,
                    _ if s == d => Place::Middle,
                    _ => {
                        return Err(self.unexpected(
                            1,
                            "+, - or the same file digit after a pawn's file digit",
                        ))
                    }
                };
                (Role::Soldier, Which::OnFile { file, place })
            }
            (l, s) => {
                let role = letter(l).ok_or_else(|| self.unexpected(0, LETTERS))?;
                let which = match s {
                    '1'..='9' => Which::File(s as u8 - b'0'),
                    '+' => Which::Tandem(Place::Front),
                    '-' => Which::Tandem(Place::Rear),
                    '.' => Which::Tandem(Place::Middle),
                    'A'..='E' => Which::Nth(s as u8 - b'A' + 1),
                    _ => return Err(self.unexpected(1, SECOND)),
                };
                (role, which)
            }
        };
        let direction = match c(2) {
            '+' => Direction::Forward,
            '-' => Direction::Backward,
            '.' | '=' => Direction::Sideways,
            _ => return Err(self.unexpected(2, OPS)),
        };
        let target = self.get(3, digit, "a digit 1–9")?;
        Ok(MoveText::Wxf(Descriptive {
            role,
            which,
            direction,
            target,
            numerals: Numerals::Arabic,
            side: None,
        }))
    }

    /// ICCS when the text has its shape: `h2e2` or `h2-e2`, either case.
    fn iccs(&self) -> Option<Result<MoveText, ParseMoveTextError>> {
        let lower: Vec<char> = self.chars.iter().map(|c| c.to_ascii_lowercase()).collect();
        let file = |c: char| ('a'..='i').contains(&c);
        let rank = |c: char| c.is_ascii_digit();
        let squares = match *lower.as_slice() {
            [a, b, c, d] if file(a) && rank(b) && file(c) && rank(d) => [a, b, c, d],
            [a, b, '-', c, d] if file(a) && rank(b) && file(c) && rank(d) => [a, b, c, d],
            _ => return None,
        };
        let s: String = squares.iter().collect();
        Some(match s.parse::<Move>() {
            Ok(m) => Ok(MoveText::Iccs(m)),
            Err(_) => Err(ParseMoveTextError::Unexpected {
                text: self.text.to_owned(),
                position: self.chars.len() - 1,
                character: self.chars[self.chars.len() - 2],
                expected: "a point other than the move's origin",
            }),
        })
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveTextError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveTextError> {
        let text = s.trim();
        // Full-width forms of ASCII (`Ｃ２＝５`, `马８进７`) read as ASCII.
        let chars: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                other => other,
            })
            .collect();
        if chars.is_empty() {
            return Err(ParseMoveTextError::Empty);
        }
        let reader = Reader { text, chars };
        if reader.chars.iter().all(char::is_ascii) {
            match reader.iccs() {
                Some(result) => result,
                None => reader.wxf(),
            }
        } else {
            reader.chinese()
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Iccs(m) => write!(f, "{m}"),
            MoveText::Chinese(d) => d.write_chinese(f),
            MoveText::Wxf(d) => d.write_wxf(f),
        }
    }
}

impl Descriptive {
    fn write_chinese(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side.unwrap_or(match self.numerals {
            Numerals::Chinese => Side::Red,
            Numerals::Arabic => Side::Black,
        });
        let number = |n: u8| match self.numerals {
            Numerals::Chinese => CHINESE_DIGITS[usize::from(n % 10)],
            Numerals::Arabic => char::from(b'0' + n % 10),
        };
        let place = |p: Place| match p {
            Place::Front => '前',
            Place::Middle => '中',
            Place::Rear => '后',
        };
        let name = self.role.chinese(side);
        let mut out = String::new();
        match self.which {
            Which::File(file) => {
                out.push(name);
                out.push(number(file));
            }
            Which::Tandem(p) => {
                out.push(place(p));
                out.push(name);
            }
            Which::Nth(k) => {
                out.push(CHINESE_DIGITS[usize::from(k % 10)]);
                out.push(name);
            }
            Which::Foremost => {
                out.push('前');
                out.push(name);
            }
            Which::Rearmost => {
                out.push('后');
                out.push(name);
            }
            Which::OnFile { file, place: p } => {
                out.push(place(p));
                out.push(name);
                out.push(number(file));
            }
        }
        out.push(match self.direction {
            Direction::Forward => '进',
            Direction::Backward => '退',
            Direction::Sideways => '平',
        });
        out.push(number(self.target));
        f.write_str(&out)
    }

    fn write_wxf(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = self.role.wxf_letter();
        let digit = |n: u8| char::from(b'0' + n % 10);
        let (a, b) = match self.which {
            Which::File(file) => (letter, digit(file)),
            Which::Tandem(Place::Front) => (letter, '+'),
            Which::Tandem(Place::Middle) => (letter, '.'),
            Which::Tandem(Place::Rear) => (letter, '-'),
            Which::Nth(k) => (letter, char::from(b'a' + (k.saturating_sub(1)) % 26)),
            Which::Foremost => ('+', '+'),
            Which::Rearmost => ('-', '-'),
            Which::OnFile { file, place } => (
                digit(file),
                match place {
                    Place::Front => '+',
                    Place::Middle => digit(file),
                    Place::Rear => '-',
                },
            ),
        };
        let op = match self.direction {
            Direction::Forward => '+',
            Direction::Backward => '-',
            Direction::Sideways => '.',
        };
        write!(f, "{a}{b}{op}{}", digit(self.target))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

    fn read(fen: &str, text: &str) -> Result<String, MoveTextError> {
        let pos = Position::from_fen(fen).unwrap();
        read_move(&pos, text).map(|m| m.to_string())
    }

    #[test]
    fn the_forms_of_one_opening_move() {
        for text in [
            "炮二平五",
            "砲二平五",
            "包二平五",
            "炮2平5",
            "炮２平５",
            "炮 二 平 五",
            "C2.5",
            "c2.5",
            "C2=5",
            "C25",
            "h2e2",
            "H2-E2",
            "h2-e2",
        ] {
            assert_eq!(read(START, text).as_deref(), Ok("h2e2"), "{text}");
        }
    }

    #[test]
    fn black_with_each_digit_style() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        for text in [
            "马８进７",
            "马8进7",
            "馬8進7",
            "马八进七",
            "H8+7",
            "N8+7",
            "h9g7",
        ] {
            assert_eq!(read(fen, text).as_deref(), Ok("h9g7"), "{text}");
        }
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = "炮二走五".parse::<MoveText>().unwrap_err();
        assert_eq!(err.reason(), "unexpected-character");
        assert!(err.to_string().contains("character 3"), "{err}");
        assert_eq!(
            "".parse::<MoveText>().unwrap_err(),
            ParseMoveTextError::Empty
        );
        assert_eq!(
            "炮二平".parse::<MoveText>().unwrap_err().reason(),
            "wrong-length"
        );
        assert_eq!(
            "X2.5".parse::<MoveText>().unwrap_err().reason(),
            "unexpected-character"
        );
        assert_eq!(
            "C2*5".parse::<MoveText>().unwrap_err().reason(),
            "unexpected-character"
        );
        assert_eq!(
            "h2h2".parse::<MoveText>().unwrap_err().reason(),
            "unexpected-character"
        );
    }

    #[test]
    fn display_is_canonical_and_reads_back() {
        for (text, canonical) in [
            ("車二進一", "车二进一"),
            ("馬８進７", "马8进7"),
            ("+C.5", "C+.5"),
            ("c2=5", "C2.5"),
            ("C25", "C2.5"),
            ("H2-E2", "h2e2"),
            ("前兵四平五", "前兵四平五"),
            ("3+.4", "3+.4"),
            ("Pa.5", "Pa.5"),
        ] {
            let parsed: MoveText = text.parse().unwrap();
            assert_eq!(parsed.to_string(), canonical, "{text}");
            assert_eq!(canonical.parse::<MoveText>(), Ok(parsed), "{text}");
        }
    }
}
