//! Round trips over random games: a record written as PGN (each notation,
//! UTF-8 and GBK) or as XQF reads back to the same record.
//!
//! Games are random legal play from the start or from a position reached
//! by random play (so black may move first and move numbers start late),
//! with comments on random moves and variations (alternative legal moves
//! with a few moves after them, some holding variations of their own).

use proptest::prelude::*;
use qipan_records::xiangqi::{pgn, xqf, Charset, Outcome, Record, Step};
use qipan_rules::xiangqi::{Counters, Family, Fen, Move, Position};

/// Characters comments and names are drawn from: both scripts, ASCII,
/// PGN's own delimiters except the closing brace, a line break.
const CHARS: &[char] = &[
    '炮', '馬', '车', '红', '黑', '胜', '和', '許', '银', '川', 'a', 'Z', '1', ' ', '(', ')', '[',
    ']', ';', '"', '{', '\n', '，', '。',
];

fn text(picks: &[usize], max: usize) -> Option<String> {
    let s: String = picks
        .iter()
        .take(max)
        .map(|&i| CHARS[i % CHARS.len()])
        .collect();
    let s = s.trim().to_owned();
    (!s.is_empty()).then_some(s)
}

/// Draws numbers from a list of choices, round and round.
struct Draw<'a> {
    choices: &'a [usize],
    next: usize,
}

impl Draw<'_> {
    fn next(&mut self) -> usize {
        let c = self.choices[self.next % self.choices.len()];
        self.next += 1;
        c.wrapping_add(self.next)
    }
}

/// A random line of at most `plies` moves from `pos`; `depth` limits how
/// deep variations nest.
fn line(pos: &Position, plies: usize, depth: usize, draw: &mut Draw<'_>) -> Vec<Step> {
    let mut out = Vec::new();
    let mut pos = pos.clone();
    for i in 0..plies {
        let moves = pos.legal_actions();
        if moves.is_empty() {
            break;
        }
        let mv = moves[draw.next() % moves.len()];
        let mut step = Step::new(mv);
        if draw.next().is_multiple_of(4) {
            let picks: Vec<usize> = (0..12).map(|_| draw.next()).collect();
            step.comment = text(&picks, 1 + draw.next() % 12);
        }
        // A variation replaces this move with another; none on the first
        // move of a variation, which XQF stores as a sibling of the move
        // the variation replaces.
        if depth > 0 && (depth == 2 || i > 0) && draw.next().is_multiple_of(5) {
            let others: Vec<Move> = moves.iter().copied().filter(|&m| m != mv).collect();
            if !others.is_empty() {
                let alt = others[draw.next() % others.len()];
                if let Ok(after) = pos.play(alt) {
                    let mut v = vec![Step::new(alt)];
                    v.extend(line(&after, draw.next() % 4, depth - 1, draw));
                    step.variations.push(v);
                }
            }
        }
        pos = pos.play(mv).expect("a legal move");
        out.push(step);
    }
    out
}

fn record(prefix: usize, plies: usize, choices: &[usize]) -> Record {
    let mut draw = Draw { choices, next: 0 };
    let mut start = Position::start();
    let mut counters = Counters::default();
    for _ in 0..prefix {
        let moves = start.legal_actions();
        if moves.is_empty() {
            break;
        }
        let m = moves[draw.next() % moves.len()];
        let capture = start.piece_at(m.to).is_some();
        counters = counters.after(start.turn(), capture);
        start = start.play(m).expect("a legal move");
    }
    let moves = line(&start, plies, 2, &mut draw);
    let mut r = Record::new(start.clone());
    r.start = Fen {
        position: start,
        counters,
    };
    r.moves = moves;
    let picks: Vec<usize> = (0..8).map(|_| draw.next()).collect();
    r.headers.red = text(&picks, 6).map(|s| s.replace('\n', " ")).and_then(|s| {
        let s = s.trim().to_owned();
        (!s.is_empty()).then_some(s)
    });
    r.headers.black = Some("聂卫平".to_owned());
    r.headers.result = [
        Outcome::RedWins,
        Outcome::BlackWins,
        Outcome::Draw,
        Outcome::Unknown,
    ][draw.next() % 4];
    r.comment = text(&picks, 8);
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn pgn_in_every_notation_reads_back(
        prefix in 0usize..30,
        plies in 0usize..80,
        choices in proptest::collection::vec(any::<usize>(), 1..64),
    ) {
        let r = record(prefix, plies, &choices);
        prop_assert_eq!(r.check(), Ok(()));
        for notation in [Family::Chinese, Family::Wxf, Family::Iccs] {
            for charset in [Charset::Utf8, Charset::Gbk] {
                let bytes = pgn::write(&r, notation, charset).expect("a legal record writes");
                let back = pgn::read(&bytes, Some(charset));
                prop_assert_eq!(
                    back,
                    Ok(vec![r.clone()]),
                    "{} {}:\n{}",
                    notation,
                    charset,
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }

    #[test]
    fn xqf_reads_back(
        prefix in 0usize..30,
        plies in 0usize..80,
        choices in proptest::collection::vec(any::<usize>(), 1..64),
    ) {
        let r = record(prefix, plies, &choices);
        // XQF has no side to move: a record without moves reads back as
        // red to move, which a start with black to move cannot be when
        // black stands in check.
        prop_assume!(
            !r.moves.is_empty()
                || r.start.position.turn() == qipan_rules::xiangqi::Side::Red
                || !r.start.position.is_check()
        );
        let bytes = xqf::write(&r).expect("a legal record writes");
        let back = xqf::read(&bytes).expect("a written file reads");
        // XQF keeps no move counters and no side to move: the first move
        // tells who moves first, and a record without moves starts red.
        if r.moves.is_empty() {
            prop_assert_eq!(back.start.position.to_setup().board, r.start.position.to_setup().board);
        } else {
            prop_assert_eq!(&back.start.position, &r.start.position);
        }
        prop_assert_eq!(&back.moves, &r.moves);
        prop_assert_eq!(&back.comment, &r.comment);
        prop_assert_eq!(back.headers.result, r.headers.result);
        prop_assert_eq!(&back.headers.red, &r.headers.red);
        prop_assert_eq!(&back.headers.black, &r.headers.black);
    }
}
