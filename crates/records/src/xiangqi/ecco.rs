//! ECCO, xqbase's opening classification (A00–E99): the code and name of
//! the opening a game starts with.
//!
//! xqbase classifies a game by rules over its first 20 plies (which moves
//! were played, in which order, by which side). This module looks the
//! game's positions up in a table derived from those rules instead
//! (`data/ecco-lines.tsv`): every position along the first 20 plies of
//! 1125 master games at which xqbase's classification of the line so far
//! changes, keyed also by the first move of each side, as the rules branch
//! on them first. A game takes the code of the deepest of its first 20
//! positions found in the table, `A00` when none is. Like the rules, a game
//! whose first move starts on red's left half is classified as its mirror
//! image (炮八平五 as 炮二平五). `scripts/ecco/` makes the table and
//! measures it: on games left out of the table, the code agrees with
//! xqbase's rules for 88% of them, its letter and tens digit for 95%.
//! Names come from `data/ecco-names.tsv`, the ECCO directory.
//!
//! Only games from the standard start have an opening: [`classify`] gives
//! `None` for any other start.

use std::collections::HashMap;
use std::sync::OnceLock;

use qipan_rules::xiangqi::{Move, Position, Square};

/// How many plies the classification looks at.
pub const PLIES: usize = 20;

const LINES: &str = include_str!("../../data/ecco-lines.tsv");
const NAMES: &str = include_str!("../../data/ecco-names.tsv");

/// An opening: its ECCO code and names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The code, `A00`–`E99`.
    pub code: &'static str,
    /// The opening's name (`中炮对屏风马`).
    pub name: &'static str,
    /// The variation's name, empty when the code has none.
    pub variation: &'static str,
}

struct Table {
    /// (first two moves, position after them and the rest) → code.
    positions: HashMap<(Vec<Move>, Position), &'static str>,
    names: HashMap<&'static str, (&'static str, &'static str)>,
}

fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut positions = HashMap::new();
        for row in rows(LINES) {
            let (Some(&code), Some(line)) = (row.first(), row.get(1)) else {
                continue;
            };
            let moves: Vec<Move> = line.split(' ').filter_map(|m| m.parse().ok()).collect();
            let mut pos = Position::start();
            let mut ok = true;
            for &m in &moves {
                match pos.play(m) {
                    Ok(next) => pos = next,
                    Err(_) => ok = false,
                }
            }
            // The data file is checked by a test; a line that does not
            // play is left out rather than trusted.
            if ok && !moves.is_empty() {
                let first = moves[..moves.len().min(2)].to_vec();
                positions.insert((first, pos), code);
            }
        }
        let names = rows(NAMES)
            .filter_map(|r| Some((*r.first()?, (*r.get(1)?, r.get(2).copied().unwrap_or("")))))
            .collect();
        Table { positions, names }
    })
}

/// The mirror image of a move, left to right.
fn mirror(m: Move) -> Move {
    let flip = |s: Square| Square::from_iccs(8 - s.file(), s.rank()).unwrap_or(s);
    Move {
        from: flip(m.from),
        to: flip(m.to),
    }
}

/// The opening with this code, from the ECCO directory.
pub fn opening(code: &str) -> Option<Opening> {
    let (&code, &(name, variation)) = table().names.get_key_value(code)?;
    Some(Opening {
        code,
        name,
        variation,
    })
}

/// The ECCO opening of a position reached by an opening line (a share
/// page's position, which carries no moves): the code of a line of the
/// classification that ends on it, the lowest when several do (lines that
/// transpose), or `None` when none does.
pub fn of_position(pos: &Position) -> Option<Opening> {
    let code = table()
        .positions
        .iter()
        .filter(|((_, p), _)| p == pos)
        .map(|(_, &code)| code)
        .min()?;
    opening(code)
}

/// The ECCO opening of a game from `start` with these moves (only the
/// first [`PLIES`] count), or `None` when the game does not start from the
/// standard position.
///
/// Moves that do not play from the position they reach end the line
/// there.
///
/// ```
/// use qipan_records::xiangqi::ecco;
/// use qipan_rules::xiangqi::{read_move, Position};
///
/// let mut pos = Position::start();
/// let mut line = Vec::new();
/// for text in [
///     "炮二平五", "马８进７", "马二进三", "车９平８", "车一平二",
///     "卒７进１", "车二进六", "马２进３", "马八进七", "卒３进１",
/// ] {
///     let m = read_move(&pos, text).unwrap();
///     pos = pos.play(m).unwrap();
///     line.push(m);
/// }
/// let opening = ecco::classify(&Position::start(), &line).unwrap();
/// assert_eq!(opening.code, "C20");
/// assert_eq!(opening.name, "中炮过河车七路马对屏风马两头蛇");
/// ```
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    let standard = Position::start();
    if *start != standard {
        return None;
    }
    let t = table();
    let flip = moves.first().is_some_and(|m| m.from.file() < 4);
    let line: Vec<Move> = moves
        .iter()
        .take(PLIES)
        .map(|&m| if flip { mirror(m) } else { m })
        .collect();
    let mut pos = standard;
    let mut code = "A00";
    for (i, &m) in line.iter().enumerate() {
        let Ok(next) = pos.play(m) else {
            break;
        };
        pos = next;
        let key = (line[..(i + 1).min(2)].to_vec(), pos);
        if let Some(&c) = t.positions.get(&key) {
            code = c;
        }
        pos = key.1;
    }
    opening(code).or(Some(Opening {
        code,
        name: "",
        variation: "",
    }))
}
