//! Line patterns: what a stone on an empty point would make along one line.
//!
//! A point's neighbourhood along one direction is the ten cells at distance
//! 1 to 5 on either side. Seen by one colour each cell is empty, its own
//! stone, or blocked (the other colour or the edge), two bits a cell, so
//! the neighbourhood is a 20-bit key. A table per rule (five or more wins;
//! exactly five wins; exactly five and Renju's prohibitions) gives the
//! pattern the stone would complete, computed once from the definitions:
//!
//! - **five**: a run through the point of five (or more, where that wins);
//! - **four**: one empty cell makes a five through the point; **open four**:
//!   two or more do (a straight four, or, where it is no prohibition, two
//!   fours on one line, which can no more be stopped);
//! - **open three**: one more stone makes an open four; **three**: one more
//!   makes a four; **open two** / **two**: one more makes an open three /
//!   a three.
//!
//! Each class is defined by the one above it with one more stone on the
//! line, so the table is filled from the fullest keys down and every entry
//! is a few lookups.

use std::sync::OnceLock;

/// What a stone would make along one line, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub(crate) enum Pat {
    /// Nothing that can grow into a five here.
    None = 0,
    /// One more stone makes a three.
    Two,
    /// One more stone makes an open three.
    OpenTwo,
    /// One more stone makes a four.
    Three,
    /// One more stone makes an open four.
    OpenThree,
    /// One empty cell completes a five.
    Four,
    /// Two empty cells complete a five: the defender cannot cover both.
    OpenFour,
    /// Two fours on one line that are not a straight four (`x.xxx.x`):
    /// Renju black only, where it is a double-four.
    DoubleFour,
    /// A five (or, where more wins, a longer line).
    Five,
    /// Six or more where only exactly five wins.
    Overline,
}

impl Pat {
    const ALL: [Pat; 10] = [
        Pat::None,
        Pat::Two,
        Pat::OpenTwo,
        Pat::Three,
        Pat::OpenThree,
        Pat::Four,
        Pat::OpenFour,
        Pat::DoubleFour,
        Pat::Five,
        Pat::Overline,
    ];

    #[inline]
    fn from_u8(v: u8) -> Pat {
        Pat::ALL.get(usize::from(v)).copied().unwrap_or(Pat::None)
    }

    /// Whether the stone makes a four of any kind (a threat to make five
    /// next move).
    #[inline]
    pub(crate) fn is_four(self) -> bool {
        matches!(self, Pat::Four | Pat::OpenFour | Pat::DoubleFour)
    }
}

/// Which table: how long a winning line may be, and whether Renju's
/// double-four in one line is told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Five or more wins (free-style, and Renju's white).
    Long = 0,
    /// Exactly five wins; an overline is nothing (standard).
    Exact = 1,
    /// Exactly five wins; overlines and same-line double-fours are kept
    /// apart, since they are forbidden (Renju's black).
    RenjuBlack = 2,
}

/// The value of a cell in a key, as seen by the colour to play.
pub(crate) const EMPTY: u32 = 0;
/// The colour's own stone.
pub(crate) const OWN: u32 = 1;
/// The other colour's stone, or the edge of the board.
const BLOCKED: u32 = 2;

/// Number of key bits: ten cells, two bits each.
pub(crate) const KEY_BITS: u32 = 20;

/// The key digit of the cell at `offset` (−5..=−1, 1..=5) from the point.
#[inline]
pub(crate) const fn slot(offset: i32) -> u32 {
    if offset < 0 {
        (offset + 5) as u32
    } else {
        (offset + 4) as u32
    }
}

struct Tables([Vec<u8>; 3]);

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tables([
            build(Rule::Long),
            build(Rule::Exact),
            build(Rule::RenjuBlack),
        ])
    })
}

/// The pattern a stone makes with the neighbourhood `key` under `rule`.
#[inline]
pub(crate) fn lookup(rule: Rule, key: u32) -> Pat {
    let t = &tables().0[rule as usize];
    Pat::from_u8(t.get(key as usize).copied().unwrap_or(0))
}

/// Makes sure the tables exist (they take some milliseconds to fill).
pub(crate) fn warm() {
    tables();
}

/// The eleven cells of a line, the point in the middle (index 5).
type Line = [u32; 11];

fn decode(key: u32) -> Option<Line> {
    let mut line = [EMPTY; 11];
    line[5] = OWN;
    for (i, off) in (-5..=5).filter(|&o| o != 0).enumerate() {
        let d = (key >> (2 * i)) & 3;
        if d > BLOCKED {
            return None;
        }
        line[(off + 5) as usize] = d;
    }
    Some(line)
}

fn encode(line: &Line) -> u32 {
    (-5i32..=5)
        .filter(|&o| o != 0)
        .enumerate()
        .map(|(i, o)| line[(o + 5) as usize] << (2 * i))
        .sum()
}

/// The run of own stones through the middle: (first index, length).
fn run(line: &Line) -> (usize, usize) {
    let mut a = 5;
    while a > 0 && line[a - 1] == OWN {
        a -= 1;
    }
    let mut b = 5;
    while b < 10 && line[b + 1] == OWN {
        b += 1;
    }
    (a, b - a + 1)
}

/// The run is a five under `rule`, an overline, or neither. At the edge of
/// the window a run is taken to stop there: the window holds five cells on
/// either side, so any five through the middle is seen whole, with the
/// cell beyond each of its ends.
fn five_or_over(line: &Line, rule: Rule) -> Option<Pat> {
    let (_, len) = run(line);
    match rule {
        Rule::Long if len >= 5 => Some(Pat::Five),
        Rule::Exact | Rule::RenjuBlack if len == 5 => Some(Pat::Five),
        Rule::Exact | Rule::RenjuBlack if len > 5 => Some(Pat::Overline),
        _ => None,
    }
}

fn build(rule: Rule) -> Vec<u8> {
    let size = 1usize << KEY_BITS;
    let mut table = vec![0u8; size];
    // Fill by falling number of own stones, so that every key with one
    // stone more is already known.
    let mut by_count: Vec<Vec<u32>> = vec![Vec::new(); 11];
    for key in 0..size as u32 {
        if let Some(line) = decode(key) {
            let n = line.iter().filter(|&&c| c == OWN).count() - 1;
            by_count[n].push(key);
        }
    }
    for keys in by_count.iter().rev() {
        for &key in keys {
            let Some(line) = decode(key) else { continue };
            table[key as usize] = classify(&line, rule, &table) as u8;
        }
    }
    table
}

fn classify(line: &Line, rule: Rule, table: &[u8]) -> Pat {
    if let Some(p) = five_or_over(line, rule) {
        return p;
    }
    // Fours: empty cells that complete a five through the middle.
    let mut completions = Vec::new();
    for i in 1..10 {
        if i == 5 || line[i] != EMPTY {
            continue;
        }
        let mut l = *line;
        l[i] = OWN;
        if five_or_over(&l, rule) == Some(Pat::Five) {
            completions.push(i);
        }
    }
    match completions.len() {
        0 => {}
        1 => return Pat::Four,
        _ => {
            let (a, len) = run(line);
            let straight = len == 4
                && completions.contains(&(a.wrapping_sub(1)))
                && completions.contains(&(a + 4));
            return if straight || rule != Rule::RenjuBlack {
                Pat::OpenFour
            } else {
                Pat::DoubleFour
            };
        }
    }
    // Lesser shapes: what one more stone on the line would make.
    let mut best = Pat::None;
    for i in 0..11 {
        if i == 5 || line[i] != EMPTY {
            continue;
        }
        let mut l = *line;
        l[i] = OWN;
        let next = Pat::from_u8(table[encode(&l) as usize]);
        let p = match next {
            Pat::OpenFour => Pat::OpenThree,
            Pat::Four | Pat::DoubleFour => Pat::Three,
            Pat::OpenThree => Pat::OpenTwo,
            Pat::Three => Pat::Two,
            _ => Pat::None,
        };
        best = best.max(p);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line written as text: `x` own, `o` blocked, `.` empty,
    /// `*` the point; eleven characters, the point in the middle.
    fn key(text: &str) -> u32 {
        let cells: Vec<u32> = text
            .chars()
            .map(|c| match c {
                'x' | '*' => OWN,
                'o' => BLOCKED,
                _ => EMPTY,
            })
            .collect();
        let line: Line = cells.try_into().unwrap();
        encode(&line)
    }

    #[test]
    fn shapes_are_named_as_players_name_them() {
        use Pat::*;
        let cases = [
            ("...xx*xx...", Rule::Long, Five),
            ("..xxx*xx...", Rule::Long, Five),
            ("..xxx*xx...", Rule::Exact, Overline),
            ("...xx*xx...", Rule::RenjuBlack, Five),
            ("....x*xx...", Rule::Long, OpenFour),
            ("...ox*xx...", Rule::Long, Four),
            ("...x.*xx.x.", Rule::Long, OpenFour),
            ("..x.x*x.x..", Rule::RenjuBlack, DoubleFour),
            ("...x.*xx.x.", Rule::RenjuBlack, DoubleFour),
            ("....x*x....", Rule::Long, OpenThree),
            ("...ox*x....", Rule::Long, Three),
            ("....x*.x...", Rule::Long, OpenThree),
            ("....x*.....", Rule::Long, OpenTwo),
            ("...ox*.....", Rule::Long, Two),
            ("o...x*x...x", Rule::Long, OpenThree),
            ("...x.*x.x.x", Rule::RenjuBlack, Three),
            ("....x*x..x.", Rule::RenjuBlack, OpenThree),
            ("...x.*x.xx.", Rule::RenjuBlack, Four),
            ("ooooo*ooooo", Rule::Long, None),
        ];
        for (text, rule, want) in cases {
            assert_eq!(lookup(rule, key(text)), want, "{text} {rule:?}");
        }
    }
}
