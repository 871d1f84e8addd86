//! DhtmlXQ, the record blocks that 东萍象棋网 (dpxq.com) and the sites using
//! its viewer embed in pages: `[DhtmlXQ_name]value[/DhtmlXQ_name]` pairs.
//!
//! - `binit`: the start, 64 digits, two a piece (`xy`: x the file 0–8
//!   from red's left, y the row 0–9 from black's back rank, `99` when
//!   captured), in the order 车马相仕帅仕相马车炮炮兵兵兵兵兵, red then
//!   black. Without it, the standard start.
//! - `movelist`: the main line, four digits a move, origin and destination
//!   as in `binit`.
//! - `comment0` before the first move and `commentN` after move N, with
//!   `||` for a line break.
//! - `title`, `event`, `date`, `place`, `round`, `red`, `redteam`,
//!   `black`, `blackteam`, `result` (红胜, 黑胜, 和棋…), `open`,
//!   `timerule`; any other field is kept in [`Headers::other`].
//!
//! - `move_X_Y_Z`: branch Z, played instead of branch X's move Y (branch
//!   0 is the main line), with `commentZ_N` after its move N; read as
//!   variations. A branch whose branch X never appears is skipped, and a
//!   branch ends at a move the rules forbid (on the main line such a move
//!   is an error).

use qipan_rules::xiangqi::{
    Counters, Fen, IllegalMove, Move, Piece, Position, PositionError, Setup, Side, Square,
};
use qipan_rules::Reason;

use super::charset::{self, Charset, EncodingError};
use std::collections::HashMap;

use super::record::{comment, header, Headers, Outcome, Record, Tree, SLOT_ROLES};
use crate::MAX_INPUT_BYTES;

/// How deep branches inside branches may go.
pub const MAX_NESTING: usize = 100;

/// Why a text is not a DhtmlXQ record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DhtmlXqError {
    /// More bytes than [`MAX_INPUT_BYTES`].
    #[error("the text has {size} bytes, more than the {limit} a record may have")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not text in the charset named or detected.
    #[error(transparent)]
    Encoding(#[from] EncodingError),
    /// No `[DhtmlXQ_…]` field at all.
    #[error("there is no [DhtmlXQ_…] field in the text")]
    NotDhtmlXq,
    /// A field whose closing tag is missing.
    #[error("[DhtmlXQ_{field}] at character {offset} is never closed with [/DhtmlXQ_{field}]")]
    Unclosed {
        /// The field's name.
        field: String,
        /// Where it opens, in characters.
        offset: usize,
    },
    /// A `binit` that is not 32 two-digit points.
    #[error("[DhtmlXQ_binit] at character {offset}: {problem}")]
    BadStart {
        /// Where the field's value starts, in characters.
        offset: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// The start position cannot arise in a game.
    #[error("the start position: {0}")]
    Start(PositionError),
    /// A `movelist` that is not groups of four digits.
    #[error("[DhtmlXQ_movelist] at character {offset}: {problem}")]
    BadMoveList {
        /// Where the offending group starts, in characters.
        offset: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// Branches nested deeper than [`MAX_NESTING`].
    #[error("the branch move at character {offset} nests branches more than {MAX_NESTING} deep")]
    TooDeep {
        /// Where its four digits start, in characters.
        offset: usize,
    },
    /// A move the rules forbid where it stands.
    #[error("ply {ply} (character {offset}): {error}")]
    IllegalMove {
        /// The move's ply, from 1.
        ply: usize,
        /// Where its four digits start, in characters.
        offset: usize,
        /// Why it is refused.
        error: IllegalMove,
    },
}

impl Reason for DhtmlXqError {
    fn reason(&self) -> &'static str {
        match self {
            DhtmlXqError::TooLarge { .. } => "too-large",
            DhtmlXqError::Encoding(e) => e.reason(),
            DhtmlXqError::NotDhtmlXq => "not-dhtmlxq",
            DhtmlXqError::Unclosed { .. } => "unclosed-field",
            DhtmlXqError::BadStart { .. } => "bad-start",
            DhtmlXqError::Start(_) => "invalid-start",
            DhtmlXqError::BadMoveList { .. } => "bad-move-list",
            DhtmlXqError::IllegalMove { .. } => "illegal-move",
            DhtmlXqError::TooDeep { .. } => "too-deep",
        }
    }
}

/// One field: its name, value, and where the value starts (characters).
struct Field {
    name: String,
    value: String,
    at: usize,
}

fn fields(text: &str) -> Result<Vec<Field>, DhtmlXqError> {
    const OPEN: &str = "[DhtmlXQ_";
    let mut out = Vec::new();
    let mut rest = text;
    let mut consumed = 0usize; // bytes of `text` before `rest`
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        let Some(end) = after.find(']') else {
            break;
        };
        let name = after[..end].to_owned();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            // Not a field (`[DhtmlXQ_` inside a value, or a broken name):
            // a name is letters, digits and `_`, as the PGN tag it may
            // become must be. Look on after it.
            let advance = i + OPEN.len();
            consumed += advance;
            rest = &rest[advance..];
            continue;
        }
        let body = &after[end + 1..];
        let open_at = text[..consumed + i].chars().count();
        let close = format!("[/DhtmlXQ_{name}]");
        let Some(close_at) = body.find(&close) else {
            // `[DhtmlXQ]` opens the block and `[/DhtmlXQ]` ends it; they have
            // no `_`, so a field here that is never closed is an error.
            return Err(DhtmlXqError::Unclosed {
                field: name,
                offset: open_at,
            });
        };
        let value_start = consumed + i + OPEN.len() + end + 1;
        out.push(Field {
            name: name.to_ascii_lowercase(),
            value: body[..close_at].to_owned(),
            at: text[..value_start].chars().count(),
        });
        let advance = i + OPEN.len() + end + 1 + close_at + close.len();
        consumed += advance;
        rest = &rest[advance..];
    }
    Ok(out)
}

/// The point of a DhtmlXQ `xy` pair (row from black's back rank).
fn point(x: u8, y: u8) -> Option<Square> {
    Square::from_file_row(x, y)
}

fn digits(value: &str) -> Vec<(usize, u8)> {
    value
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i, c.to_digit(10).map_or(u8::MAX, |d| d as u8)))
        .collect()
}

fn start(field: Option<&Field>) -> Result<Setup, DhtmlXqError> {
    let Some(field) = field else {
        return Ok(Position::start().to_setup());
    };
    let ds = digits(&field.value);
    let bad = |i: usize, problem| DhtmlXqError::BadStart {
        offset: field.at + i,
        problem,
    };
    if let Some(&(i, _)) = ds.iter().find(|(_, d)| *d == u8::MAX) {
        return Err(bad(i, "only digits may stand in it"));
    }
    if ds.len() != 64 {
        return Err(bad(0, "it holds 64 digits, two for each of the 32 pieces"));
    }
    let mut setup = Setup::empty();
    for (k, pair) in ds.chunks(2).enumerate() {
        let (x, y) = (pair[0].1, pair[1].1);
        if x == 9 && y == 9 {
            continue;
        }
        let square =
            point(x, y).ok_or_else(|| bad(pair[0].0, "a file is 0–8 (99 for a captured piece)"))?;
        if setup.board[square.index()].is_some() {
            return Err(bad(pair[0].0, "two pieces stand on one point"));
        }
        setup.board[square.index()] = Some(Piece {
            side: if k < 16 { Side::Red } else { Side::Black },
            role: SLOT_ROLES[k % 16],
        });
    }
    Ok(setup)
}

fn outcome(text: &str) -> Outcome {
    let t = text.trim();
    if let Some(o) = Outcome::from_pgn(t) {
        return o;
    }
    let wins = t.contains('胜') || t.contains('勝');
    if (t.contains('红') || t.contains('紅')) && wins {
        Outcome::RedWins
    } else if t.contains('黑') && wins {
        Outcome::BlackWins
    } else if t.contains('和') {
        Outcome::Draw
    } else {
        Outcome::Unknown
    }
}

/// Reads a DhtmlXQ block from bytes in `charset`, or detected when `None`.
///
/// # Errors
///
/// A [`DhtmlXqError`]: too large, not text, no DhtmlXQ field, a field never
/// closed, a malformed start or move list, or a move the rules forbid (with
/// where).
pub fn read(bytes: &[u8], charset: Option<Charset>) -> Result<Record, DhtmlXqError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(DhtmlXqError::TooLarge {
            size: bytes.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let (text, _) = charset::decode(bytes, charset)?;
    read_text(&text)
}

/// Reads a DhtmlXQ block from text.
///
/// # Errors
///
/// As [`read`], less the size and charset.
pub fn read_text(text: &str) -> Result<Record, DhtmlXqError> {
    let fields = fields(text)?;
    if fields.is_empty() {
        return Err(DhtmlXqError::NotDhtmlXq);
    }
    let get = |name: &str| fields.iter().find(|f| f.name == name);
    let value = |name: &str| get(name).and_then(|f| header(&f.value));
    let comment_of = |name: &str| get(name).and_then(|f| comment(&f.value.replace("||", "\n")));
    let mut setup = start(get("binit"))?;

    // The main line, read before the position is checked: its first move
    // says who moves first.
    let main = match get("movelist") {
        Some(list) => moves_of(list)?,
        None => Vec::new(),
    };
    if let Some((_, from, _)) = main.first() {
        if let Some(piece) = setup.board[from.index()] {
            setup.turn = piece.side;
        }
    }
    let position = Position::from_setup(&setup).map_err(DhtmlXqError::Start)?;

    // Comments by branch and ply: `commentN` is branch 0's.
    let mut comments: HashMap<(u32, u32), String> = HashMap::new();
    for f in &fields {
        let Some(id) = f.name.strip_prefix("comment") else {
            continue;
        };
        let key = match id.split_once('_') {
            Some((b, n)) => b.parse().ok().zip(n.parse().ok()),
            None => id.parse().ok().map(|n| (0, n)),
        };
        if let (Some(key), Some(c)) = (key, comment(&f.value.replace("||", "\n"))) {
            comments.insert(key, c);
        }
    }
    let mut tree = Branches::new(position.clone());
    tree.add(0, 1, 0, &main, &comments)?;
    // `move_X_Y_Z`: branch Z replaces branch X's move Y. A branch may name
    // one listed after it, so the list is gone through until nothing
    // more fits; a branch whose anchor never appears is skipped.
    let mut pending: Vec<(u32, u32, u32, &Field)> = fields
        .iter()
        .filter_map(|f| {
            let mut ids = f
                .name
                .strip_prefix("move_")?
                .split('_')
                .map(|n| n.parse().ok());
            Some((ids.next()??, ids.next()??, ids.next()??, f))
        })
        .collect();
    loop {
        let before = pending.len();
        let mut left = Vec::new();
        for (x, y, z, f) in pending {
            match tree.anchors.get(&(x, y)).copied() {
                Some(at) => tree.add(z, y, at, &moves_of(f)?, &comments)?,
                None => left.push((x, y, z, f)),
            }
        }
        pending = left;
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    let moves = tree.tree.lines(0);

    let mut headers = Headers {
        event: value("event").or_else(|| value("title")),
        site: value("place"),
        date: value("date"),
        round: value("round"),
        red: value("red"),
        red_team: value("redteam"),
        black: value("black"),
        black_team: value("blackteam"),
        result: value("result").map_or(Outcome::Unknown, |r| outcome(&r)),
        time_control: value("timerule"),
        opening: value("open"),
        ..Headers::default()
    };
    const READ: [&str; 15] = [
        "binit",
        "movelist",
        "event",
        "place",
        "date",
        "round",
        "red",
        "redteam",
        "black",
        "blackteam",
        "result",
        "timerule",
        "open",
        "init",
        "comment0",
    ];
    for f in &fields {
        let known = READ.contains(&f.name.as_str())
            || f.name.starts_with("comment")
            || f.name.starts_with("move_")
            || (f.name == "title" && headers.event.as_deref() == Some(f.value.trim()));
        if let (false, Some(v)) = (known, header(&f.value.replace("||", " "))) {
            headers.other.push((f.name.clone(), v));
        }
    }
    Ok(Record {
        headers,
        start: Fen {
            position,
            counters: Counters::default(),
        },
        comment: comment_of("comment0"),
        moves,
    })
}

/// The moves of a `movelist` or `move_X_Y_Z` field: four digits each,
/// with where each starts.
fn moves_of(field: &Field) -> Result<Vec<(usize, Square, Square)>, DhtmlXqError> {
    let ds = digits(&field.value);
    if let Some(&(i, _)) = ds.iter().find(|(_, d)| *d == u8::MAX) {
        return Err(DhtmlXqError::BadMoveList {
            offset: field.at + i,
            problem: "only digits may stand in it",
        });
    }
    let mut out = Vec::with_capacity(ds.len() / 4);
    for group in ds.chunks(4) {
        let at = field.at + group[0].0;
        let [a, b, c, d] = group else {
            return Err(DhtmlXqError::BadMoveList {
                offset: at,
                problem: "a move is four digits and the last one is cut short",
            });
        };
        let (Some(from), Some(to)) = (point(a.1, b.1), point(c.1, d.1)) else {
            return Err(DhtmlXqError::BadMoveList {
                offset: at,
                problem: "a file is 0–8",
            });
        };
        out.push((at, from, to));
    }
    Ok(out)
}

/// The move tree as branches are added to it.
struct Branches {
    tree: Tree,
    /// The position after each node, and how deep in variations it is.
    positions: Vec<(Position, usize)>,
    /// `(branch, ply)` → the node after which that branch plays that ply;
    /// `(0, 1)` is the start.
    anchors: HashMap<(u32, u32), usize>,
}

impl Branches {
    fn new(start: Position) -> Branches {
        Branches {
            tree: Tree {
                moves: Vec::new(),
                children: vec![Vec::new()],
            },
            positions: vec![(start, 0)],
            anchors: HashMap::from([((0, 1), 0)]),
        }
    }

    /// Adds branch `branch`'s moves, the first played as ply `ply` after
    /// node `at`.
    fn add(
        &mut self,
        branch: u32,
        ply: u32,
        at: usize,
        moves: &[(usize, Square, Square)],
        comments: &HashMap<(u32, u32), String>,
    ) -> Result<(), DhtmlXqError> {
        let mut at = at;
        let mut ply = ply;
        for &(offset, from, to) in moves {
            let mv = Move { from, to };
            let (pos, depth) = &self.positions[at];
            let depth = depth + usize::from(!self.tree.children[at].is_empty());
            if depth > MAX_NESTING {
                return Err(DhtmlXqError::TooDeep { offset });
            }
            // A move the rules forbid makes the record unreadable on the
            // main line, and ends a branch there.
            let next = match pos.play(mv) {
                Ok(next) => next,
                Err(_) if branch != 0 => return Ok(()),
                Err(error) => {
                    return Err(DhtmlXqError::IllegalMove {
                        ply: ply as usize,
                        offset,
                        error,
                    })
                }
            };
            let id = self.tree.moves.len() + 1;
            self.tree
                .moves
                .push((mv, comments.get(&(branch, ply)).cloned()));
            self.tree.children.push(Vec::new());
            self.tree.children[at].push(id);
            self.positions.push((next, depth));
            ply = ply.saturating_add(1);
            self.anchors.insert((branch, ply), id);
            at = id;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_start_reads() {
        let text = "[DhtmlXQ][DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][DhtmlXQ_result]红胜[/DhtmlXQ_result][/DhtmlXQ]";
        let record = read_text(text).unwrap();
        assert_eq!(record.start.position, Position::start());
        let line: Vec<String> = record.main_line().iter().map(|m| m.to_string()).collect();
        assert_eq!(line, ["h2e2", "h9g7"]);
        assert_eq!(record.headers.result, Outcome::RedWins);
    }
}
