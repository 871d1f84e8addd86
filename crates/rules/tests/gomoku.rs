//! Gomoku rules: wins, draws, the three rule sets, Renju's forbidden points,
//! the state code and the rows form. Every test asserts exact values.
//!
//! Where the expected values come from:
//! - the issue and `shared/product.md` (board, notation, rule sets, code
//!   requirements);
//! - the RIF rule text ("The International Rules of Renju", RIF 1996,
//!   corrected 1998, section 3 "Terms and definitions": five, overline,
//!   four, straight four, three — "a row with three stones to which you,
//!   without at the same time a five in a row is made, can add one more
//!   stone to attain a straight four" —, double-four, double-three; and
//!   rule 9 as summarised on renju.net: black's overline, double-four and
//!   double-three are forbidden, a five takes priority, white is free);
//! - the same-line double-four shapes `x.xxx.x`, `xx.xx.xx`, `xxx.x.xxx`
//!   as drawn in the mintaka-renju README ("Single-line forbidden moves");
//! - the "three with room for only five stones is no three" example of Mark
//!   Okun's renju rules page (mokun.tripod.com/xo/renju.htm);
//! - for every Renju position here, the complete forbidden list (not only
//!   the point under test) was computed with Wenzhe Lu's
//!   ForbiddenPointFinder, compiled apart from this repository (see
//!   `tests/data/gomoku/renju-forbidden.txt` for how); for the fake-three
//!   case, a variant of that checker without the recursive test says
//!   `h8:double-three` instead, which is what the case pins;
//! - hand computation for codes, shown next to each value; expected codes are
//!   built from hand-written bytes with the `base64` crate's
//!   `URL_SAFE_NO_PAD` engine, not with the crate under test.

use std::fs;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use qipan_rules::code::SyntaxError;
use qipan_rules::gomoku::{
    self, CodeError, Forbidden, IllegalMove, MovesError, Point, Position, PositionError, RowsError,
    SetupError, Stone, Variant,
};
use qipan_rules::{EndReason, Game, Reason, Status};

fn p(s: &str) -> Point {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn pts(s: &str) -> Vec<Point> {
    s.split_whitespace().map(p).collect()
}

/// Plays space-separated moves from the empty board.
fn play(variant: Variant, size: u8, moves: &str) -> Position {
    pts(moves)
        .into_iter()
        .fold(Position::new(variant, size).unwrap(), |pos, m| {
            pos.play(m).unwrap_or_else(|e| panic!("{e}"))
        })
}

/// Interleaves black's and white's moves, black first.
fn alternate(black: &str, white: &str) -> String {
    let b = black.split_whitespace();
    let mut w = white.split_whitespace();
    let mut out = Vec::new();
    for m in b {
        out.push(m);
        out.extend(w.next());
    }
    out.extend(w);
    out.join(" ")
}

/// The rows text of a board with these stones.
fn rows_text(size: u8, black: &str, white: &str) -> String {
    let mut grid = vec![vec!['.'; size as usize]; size as usize];
    for (list, ch) in [(black, 'x'), (white, 'o')] {
        for q in pts(list) {
            grid[q.row() as usize][q.col() as usize] = ch;
        }
    }
    grid.iter()
        .rev()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A 15×15 board with these stones, order unknown.
fn setup(variant: Variant, black: &str, white: &str) -> Position {
    Position::from_rows(variant, &rows_text(15, black, white)).unwrap_or_else(|e| panic!("{e}"))
}

fn won(winner: Stone) -> Status<Stone> {
    Status::Won {
        winner,
        reason: EndReason::FiveInARow,
    }
}

fn forbidden_text(pos: &Position) -> String {
    pos.forbidden()
        .iter()
        .map(|(q, f)| format!("{q}:{f}"))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------- wins

#[test]
fn five_wins_in_all_four_directions_and_at_the_edges() {
    // (black's five in the order played, white's replies, the line in order along it)
    let cases = [
        ("d8 e8 f8 g8 h8", "d9 e9 f9 g9", "d8 e8 f8 g8 h8"),
        ("h4 h5 h6 h7 h8", "i4 i5 i6 i7", "h4 h5 h6 h7 h8"),
        ("d4 e5 f6 g7 h8", "e4 f5 g6 h7", "d4 e5 f6 g7 h8"),
        ("d12 e11 f10 g9 h8", "e12 f11 g10 h9", "d12 e11 f10 g9 h8"),
        // The last stone in the middle of the line.
        ("d8 e8 g8 h8 f8", "d9 e9 g9 h9", "d8 e8 f8 g8 h8"),
        // Edges and corners.
        ("a1 a2 a3 a4 a5", "b1 b2 b3 b4", "a1 a2 a3 a4 a5"),
        (
            "k15 l15 m15 n15 o15",
            "k14 l14 m14 n14",
            "k15 l15 m15 n15 o15",
        ),
        (
            "a15 b14 c13 d12 e11",
            "b15 c14 d13 e12",
            "a15 b14 c13 d12 e11",
        ),
        ("o5 n4 m3 l2 k1", "o6 n5 m4 l3", "k1 l2 m3 n4 o5"),
        (
            "o11 o12 o13 o14 o15",
            "n11 n12 n13 n14",
            "o11 o12 o13 o14 o15",
        ),
    ];
    for variant in Variant::ALL {
        for (black, white, line) in cases {
            let pos = play(variant, 15, &alternate(black, white));
            assert_eq!(pos.status(), won(Stone::Black), "{variant} {black}");
            assert_eq!(pos.winning_line(), Some(pts(line)), "{variant} {black}");
            assert_eq!(pos.legal_actions(), Vec::<Point>::new());
            assert!(pos.forbidden().is_empty());
            let err = pos.play(p("h1")).unwrap_err();
            assert_eq!(err.to_string(), "h1: the game is over, black has won");
        }
    }
}

#[test]
fn white_wins_too() {
    let pos = play(
        Variant::Renju,
        15,
        &alternate("a1 c1 e1 g1 i1", "h8 h9 h10 h11 h12"),
    );
    assert_eq!(pos.status(), won(Stone::White));
    assert_eq!(pos.winning_line(), Some(pts("h8 h9 h10 h11 h12")));
    assert_eq!(pos.turn(), Stone::Black);
}

#[test]
fn four_is_not_five_and_lines_do_not_wrap() {
    // o8 and a9 are neighbours in a row-major array, not on the board.
    let pos = play(
        Variant::Freestyle,
        15,
        &alternate("l8 m8 n8 o8 a9 b9 c9", "l1 m3 n1 o3 a1 c2"),
    );
    assert_eq!(pos.status(), Status::Ongoing);
    assert_eq!(pos.winning_line(), None);
    // Nor on 19×19: s8 then a9.
    let pos = play(
        Variant::Freestyle,
        19,
        &alternate("p8 q8 r8 s8 a9 b9 c9", "p1 q3 r1 s3 a1 c2"),
    );
    assert_eq!(pos.status(), Status::Ongoing);
    // Diagonally across the edge: n14 o15 then a1 (index-wise 16 apart).
    let pos = play(
        Variant::Freestyle,
        15,
        &alternate("m13 n14 o15 a2 b3", "c8 d8 f8 g8 i8"),
    );
    assert_eq!(pos.status(), Status::Ongoing);
}

#[test]
fn freestyle_19_wins_on_the_far_edge() {
    let pos = play(
        Variant::Freestyle,
        19,
        &alternate("s15 s16 s17 s18 s19", "r15 r16 r17 r18"),
    );
    assert_eq!(pos.status(), won(Stone::Black));
    assert_eq!(pos.winning_line(), Some(pts("s15 s16 s17 s18 s19")));
    assert_eq!(pos.size(), 19);
}

// ---------------------------------------------------------------- overlines

/// Black b8 c8 d8 e8 _ g8 to move on f8 (a six), white scattered.
const SIX_BLACK: &str = "b8 c8 d8 e8 g8";
const SIX_WHITE: &str = "a1 c1 e1 g1 i1";

#[test]
fn overline_wins_in_freestyle() {
    let pos = setup(Variant::Freestyle, SIX_BLACK, SIX_WHITE);
    let after = pos.play(p("f8")).unwrap();
    assert_eq!(after.status(), won(Stone::Black));
    assert_eq!(after.winning_line(), Some(pts("b8 c8 d8 e8 f8 g8")));
}

#[test]
fn overline_is_legal_but_does_not_win_in_standard() {
    let pos = setup(Variant::Standard, SIX_BLACK, SIX_WHITE);
    assert!(pos.legal_actions().contains(&p("f8")));
    let after = pos.play(p("f8")).unwrap();
    assert_eq!(after.status(), Status::Ongoing);
    assert_eq!(after.winning_line(), None);
    // White's overline does not win either.
    let pos = setup(Variant::Standard, "a1 c1 e1 g1 i1 k1", SIX_BLACK);
    let after = pos.play(p("f8")).unwrap();
    assert_eq!(after.status(), Status::Ongoing);
    // But exactly five does.
    let pos = setup(Variant::Standard, "a1 c1 e1 g1 i1", "b8 c8 d8 e8");
    assert_eq!(pos.turn(), Stone::White);
    let after = pos.play(p("f8")).unwrap();
    assert_eq!(after.status(), won(Stone::White));
}

#[test]
fn overline_is_forbidden_to_black_and_wins_for_white_in_renju() {
    let pos = setup(Variant::Renju, SIX_BLACK, SIX_WHITE);
    assert_eq!(forbidden_text(&pos), "f8:overline");
    assert!(!pos.legal_actions().contains(&p("f8")));
    assert_eq!(pos.legal_actions().len(), 225 - 10 - 1);
    let err = pos.play(p("f8")).unwrap_err();
    assert_eq!(err.to_string(), "f8 is forbidden for black: overline");
    // White: the same shape wins.
    let pos = setup(Variant::Renju, "a1 c1 e1 g1 i1 k1", SIX_BLACK);
    assert_eq!(pos.turn(), Stone::White);
    assert!(pos.forbidden().is_empty());
    let after = pos.play(p("f8")).unwrap();
    assert_eq!(after.status(), won(Stone::White));
    assert_eq!(after.winning_line(), Some(pts("b8 c8 d8 e8 f8 g8")));
}

// ---------------------------------------------------------------- Renju

/// A hand-composed Renju case: black and white stones (black to move), the
/// complete forbidden list, and a point whose fate the case is about.
struct RenjuCase {
    name: &'static str,
    black: &'static str,
    white: &'static str,
    forbidden: &'static str,
}

const RENJU_CASES: &[RenjuCase] = &[
    // RIF "double-three": f8 g8 + h8 and h6 h7 + h8 are two open threes.
    RenjuCase {
        name: "double-three",
        black: "f8 g8 h6 h7",
        white: "a15 c15 e15 g15",
        forbidden: "h8:double-three",
    },
    // A three closed by e8: adding i8 gives f8–i8 with e8 white, not a straight four.
    RenjuCase {
        name: "closed three is no three",
        black: "f8 g8 h6 h7 a1",
        white: "e8 a15 c15 e15 g15",
        forbidden: "",
    },
    // Okun's example: d8 and j8 leave room for five stones only, so
    // f8 g8 h8 can never become a straight four.
    RenjuCase {
        name: "three with room for five only",
        black: "f8 g8 h6 h7",
        white: "d8 j8 a15 c15",
        forbidden: "",
    },
    // Two closed fours on two lines.
    RenjuCase {
        name: "double-four across lines",
        black: "e8 f8 g8 h5 h6 h7",
        white: "d8 h4 a15 c15 e15 g15",
        forbidden: "h8:double-four",
    },
    // The three same-line double-fours.
    RenjuCase {
        name: "same-line double-four x.xxx.x",
        black: "c8 e8 g8 i8",
        white: "a15 c15 e15 g15",
        forbidden: "f8:double-four",
    },
    RenjuCase {
        name: "same-line double-four xx.xx.xx",
        black: "b8 c8 f8 h8 i8",
        white: "a15 c15 e15 g15 i15",
        forbidden: "e8:double-four",
    },
    RenjuCase {
        name: "same-line double-four xxx.x.xxx",
        black: "a8 b8 c8 g8 h8 i8",
        white: "a15 c15 e15 g15 i15 k15",
        forbidden: "e8:double-four",
    },
    // The fake three: f8 g8 h8 could only become a straight four on e8
    // (j8 is white), and e8 is itself a double-four (e9–e11 and b5–d7,
    // plus the row), so h8 makes one real three only and is allowed. A
    // checker without the recursion answers h8:double-three here.
    RenjuCase {
        name: "fake three (recursive)",
        black: "f8 g8 h6 h7 e9 e10 e11 b5 c6 d7",
        white: "j8 a15 c15 e15 g15 i15 k15 m15 o15 a13",
        forbidden: "e8:double-four f9:double-four",
    },
    // The same without j8: i8 completes a straight four too, so the three
    // is real and h8 is a double-three.
    RenjuCase {
        name: "real three beside a forbidden point",
        black: "f8 g8 h6 h7 e9 e10 e11 b5 c6 d7",
        white: "a15 c15 e15 g15 i15 k15 m15 o15 a13 c13",
        forbidden: "e8:double-four h8:double-three f9:double-four",
    },
    // Four-three: h5–h8 is a four (h4 white), f8–h8 an open three: allowed.
    RenjuCase {
        name: "four-three is allowed",
        black: "f8 g8 h5 h6 h7",
        white: "h4 a15 c15 e15 g15",
        forbidden: "",
    },
    // h8 makes exactly five on row 8 and seven on the h file at once: the
    // five takes priority. (f7 and f9 are double-threes of their own.)
    RenjuCase {
        name: "five beats an overline",
        black: "d8 e8 f8 g8 h5 h6 h7 h9 h10 h11",
        white: "a15 c15 e15 g15 i15 k15 m15 o15 a13 c13",
        forbidden: "f7:double-three f9:double-three",
    },
];

#[test]
fn renju_hand_cases() {
    for case in RENJU_CASES {
        let pos = setup(Variant::Renju, case.black, case.white);
        assert_eq!(pos.turn(), Stone::Black, "{}", case.name);
        assert_eq!(forbidden_text(&pos), case.forbidden, "{}", case.name);
        // The same boards under the other rule sets forbid nothing.
        for variant in [Variant::Freestyle, Variant::Standard] {
            let other = setup(variant, case.black, case.white);
            assert!(other.forbidden().is_empty(), "{} {variant}", case.name);
        }
    }
}

#[test]
fn forbidden_points_are_refused_with_their_reason() {
    let pos = setup(Variant::Renju, "f8 g8 h6 h7", "a15 c15 e15 g15");
    let err = pos.play(p("h8")).unwrap_err();
    assert_eq!(err.to_string(), "h8 is forbidden for black: double-three");
    assert_eq!(pos.forbidden_reason(p("h8")), Some(Forbidden::DoubleThree));
    assert!(!pos.legal_actions().contains(&p("h8")));
    assert!(pos.legal_actions().contains(&p("h9")));
    let pos = setup(Variant::Renju, "c8 e8 g8 i8", "a15 c15 e15 g15");
    let err = pos.play(p("f8")).unwrap_err();
    assert_eq!(err.to_string(), "f8 is forbidden for black: double-four");
}

#[test]
fn four_three_and_fake_three_can_be_played() {
    let pos = setup(Variant::Renju, "f8 g8 h5 h6 h7", "h4 a15 c15 e15 g15");
    let after = pos.play(p("h8")).unwrap();
    assert_eq!(after.status(), Status::Ongoing);
    let pos = setup(
        Variant::Renju,
        "f8 g8 h6 h7 e9 e10 e11 b5 c6 d7",
        "j8 a15 c15 e15 g15 i15 k15 m15 o15 a13",
    );
    assert_eq!(pos.forbidden_reason(p("h8")), None);
    assert!(pos.play(p("h8")).is_ok());
}

#[test]
fn five_beats_a_simultaneous_prohibition() {
    let pos = setup(
        Variant::Renju,
        "d8 e8 f8 g8 h5 h6 h7 h9 h10 h11",
        "a15 c15 e15 g15 i15 k15 m15 o15 a13 c13",
    );
    let after = pos.play(p("h8")).unwrap();
    assert_eq!(after.status(), won(Stone::Black));
    assert_eq!(after.winning_line(), Some(pts("d8 e8 f8 g8 h8")));
    // Five and a double-four at once (row five, h5–h7 and h9 make the file
    // a four too): still a win.
    let pos = setup(
        Variant::Renju,
        "d8 e8 f8 g8 h5 h6 h7",
        "a15 c15 e15 g15 i15 k15 m15",
    );
    assert_eq!(pos.forbidden_reason(p("h8")), None);
    assert_eq!(pos.play(p("h8")).unwrap().status(), won(Stone::Black));
}

#[test]
fn white_has_no_forbidden_points() {
    let pos = setup(Variant::Renju, "a15 c15 e15 g15 i15", "f8 g8 h6 h7");
    assert_eq!(pos.turn(), Stone::White);
    assert!(pos.forbidden().is_empty());
    assert!(pos.play(p("h8")).is_ok());
}

/// One case of `tests/data/gomoku/renju-forbidden.txt`.
struct DataCase {
    id: String,
    rows: String,
    forbidden: String,
}

fn read_data_cases() -> Vec<DataCase> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/gomoku/renju-forbidden.txt"
    );
    let text = fs::read_to_string(path).expect("data file is readable");
    let mut cases = Vec::new();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut id = String::new();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_owned();
        } else if line == "rows" {
            let rows: Vec<&str> = lines.by_ref().take(15).collect();
            let forbidden = lines
                .next()
                .and_then(|l| l.strip_prefix("forbidden "))
                .unwrap_or_else(|| panic!("{id}: a forbidden line after the rows"));
            cases.push(DataCase {
                id: id.clone(),
                rows: rows.join("\n"),
                forbidden: if forbidden == "none" {
                    String::new()
                } else {
                    forbidden.to_owned()
                },
            });
        }
    }
    cases
}

#[test]
fn renju_forbidden_points_match_the_reference_checker() {
    let cases = read_data_cases();
    assert_eq!(cases.len(), 38);
    for case in cases {
        let pos = Position::from_rows(Variant::Renju, &case.rows)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(forbidden_text(&pos), case.forbidden, "{}", case.id);
        // legal moves = empty points less the forbidden ones
        let forbidden: Vec<Point> = pos.forbidden().iter().map(|f| f.0).collect();
        let empties = (0..15)
            .flat_map(|r| (0..15).map(move |c| Point::new(c, r).unwrap()))
            .filter(|&q| pos.stone_at(q).is_none())
            .filter(|q| !forbidden.contains(q))
            .collect::<Vec<_>>();
        assert_eq!(pos.legal_actions(), empties, "{}", case.id);
        for (q, why) in pos.forbidden() {
            let err = pos.play(q).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("{q} is forbidden for black: {why}")
            );
        }
        assert_eq!(pos.to_rows(), case.rows, "{}", case.id);
    }
}

// ---------------------------------------------------------------- draws

/// A full 15×15 board with no five: colour by ⌊(col + 2·row) / 2⌋ mod 2
/// (rows and the falling diagonal alternate in pairs, columns stone by
/// stone, the rising diagonal in pairs), black where that is 0, then one
/// white point at a1 turned black to reach 113 black and 112 white (a
/// single changed point joins runs of at most 2 + 1 + 2 stones of unequal
/// lengths — here at most 3).
fn full_board() -> Vec<Vec<char>> {
    let mut g = vec![vec!['.'; 15]; 15];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = if (c + 2 * r) / 2 % 2 == 0 { 'x' } else { 'o' };
        }
    }
    g
}

#[test]
fn full_board_without_five_is_a_draw() {
    let g = full_board();
    let count = |ch| g.iter().flatten().filter(|&&x| x == ch).count();
    // 113 black and 112 white: black made the last move.
    assert_eq!((count('x'), count('o')), (113, 112));
    let text: Vec<String> = g.iter().rev().map(|r| r.iter().collect()).collect();
    for variant in Variant::ALL {
        let pos = Position::from_rows(variant, &text.join("\n")).unwrap();
        assert_eq!(
            pos.status(),
            Status::Drawn {
                reason: EndReason::BoardFull
            },
            "{variant}"
        );
        assert!(pos.legal_actions().is_empty());
        assert_eq!(
            pos.play(p("a1")).unwrap_err().to_string(),
            "a1: the game is over, the board is full"
        );
    }
    // And by playing the last stone: empty h8 (black there), black to move.
    let mut text = text;
    let mut line: Vec<char> = text[7].chars().collect();
    assert_eq!(line[7], 'x');
    line[7] = '.';
    text[7] = line.into_iter().collect();
    let pos = Position::from_rows(Variant::Freestyle, &text.join("\n")).unwrap();
    assert_eq!(pos.legal_actions(), vec![p("h8")]);
    let last = pos.play(p("h8")).unwrap();
    assert_eq!(
        last.status(),
        Status::Drawn {
            reason: EndReason::BoardFull
        }
    );
    assert_eq!(last.last_move(), Some(p("h8")));
}

// ---------------------------------------------------------------- positions

#[test]
fn setup_sizes() {
    assert!(Position::new(Variant::Freestyle, 19).is_ok());
    assert_eq!(
        Position::new(Variant::Renju, 19).unwrap_err(),
        SetupError::UnsupportedSize {
            variant: Variant::Renju,
            size: 19
        }
    );
    assert_eq!(
        Position::new(Variant::Freestyle, 13)
            .unwrap_err()
            .to_string(),
        "freestyle is played on 15×15 or 19×19, not on 13×13"
    );
}

#[test]
fn turns_moves_and_off_board_points() {
    let start = Position::new(Variant::Renju, 15).unwrap();
    assert_eq!(start.turn(), Stone::Black);
    assert_eq!(start.legal_actions().len(), 225);
    assert_eq!(start.moves(), Some(&[][..]));
    assert_eq!(start.move_list().as_deref(), Some(""));
    assert_eq!(start.last_move(), None);
    let pos = play(Variant::Renju, 15, "h8 h9 i9");
    assert_eq!(pos.turn(), Stone::White);
    assert_eq!(pos.stone_at(p("h9")), Some(Stone::White));
    assert_eq!(pos.stone_at(p("p1")), None); // off the board
    assert_eq!(pos.move_list().as_deref(), Some("h8 h9 i9"));
    assert_eq!(pos.last_move(), Some(p("i9")));
    assert_eq!(pos.perft(2), 222 * 221);
    assert_eq!(
        pos.play(p("p1")).unwrap_err().to_string(),
        "p1 is off the 15×15 board"
    );
    assert_eq!(
        pos.play(p("h8")).unwrap_err().to_string(),
        "h8 is occupied by a black stone"
    );
}

#[test]
fn rows_round_trip_and_forget_the_order() {
    let pos = play(Variant::Standard, 15, "h8 h9 i9 g7 j10");
    let rows = pos.to_rows();
    assert_eq!(rows.lines().count(), 15);
    assert_eq!(rows.lines().nth(15 - 8), Some(".......x......."));
    assert_eq!(rows.lines().nth(15 - 9), Some(".......ox......"));
    let back = Position::from_rows(Variant::Standard, &rows).unwrap();
    assert_eq!(back.to_rows(), rows);
    assert_eq!(back.moves(), None);
    assert_eq!(back.last_move(), None);
    // One trailing newline is accepted.
    assert_eq!(
        Position::from_rows(Variant::Standard, &(rows.clone() + "\n")).unwrap(),
        back
    );
    // Two stones or fewer: the colours tell the order.
    let two = Position::from_rows(
        Variant::Standard,
        &play(Variant::Standard, 15, "h8 h9").to_rows(),
    )
    .unwrap();
    assert_eq!(two.move_list().as_deref(), Some("h8 h9"));
    assert_eq!(two, play(Variant::Standard, 15, "h8 h9"));
}

#[test]
fn setups_keep_the_stones_and_the_last_move() {
    let pos = play(Variant::Standard, 15, "h8 h9 i9 g7 j10");
    let setup = pos.to_setup();
    assert_eq!((setup.variant, setup.size), (Variant::Standard, 15));
    assert_eq!(setup.last_move, Some(p("j10")));
    let black: Vec<Point> = setup
        .stones
        .iter()
        .filter(|(_, &s)| s == Stone::Black)
        .map(|(&q, _)| q)
        .collect();
    // Listed in board order: row 1 first, left to right.
    assert_eq!(black, pts("h8 i9 j10"));
    assert_eq!(setup.stones.get(&p("g7")), Some(&Stone::White));
    assert_eq!(setup.stones.len(), 5);
    // The order is not part of a setup, the last move is.
    let back = Position::from_setup(&setup).unwrap();
    assert_eq!(back.to_rows(), pos.to_rows());
    assert_eq!(back.last_move(), Some(p("j10")));
    assert_eq!(back.moves(), None);
    assert_eq!(back.to_setup(), setup);
    // A board read from rows has neither, and comes back equal.
    let rows = setup_rows_position();
    assert_eq!(Position::from_setup(&rows.to_setup()), Ok(rows));
}

fn setup_rows_position() -> Position {
    setup(Variant::Freestyle, "a1 b2 c3", "o15 n14")
}

#[test]
fn setups_are_checked() {
    let mut setup = gomoku::Setup::empty(Variant::Renju, 19);
    assert_eq!(
        Position::from_setup(&setup),
        Err(SetupError::UnsupportedSize {
            variant: Variant::Renju,
            size: 19
        })
    );
    setup.size = 15;
    setup.stones.insert(p("s19"), Stone::Black);
    setup.stones.insert(p("p1"), Stone::White);
    // The first off the board in board order: p1 (row 1) before s19.
    let err = Position::from_setup(&setup).unwrap_err();
    assert_eq!(
        err,
        SetupError::StoneOffBoard {
            point: p("p1"),
            size: 15
        }
    );
    assert_eq!(err.to_string(), "the stone on p1 is off the 15×15 board");
    let mut setup = gomoku::Setup::empty(Variant::Freestyle, 15);
    setup.stones.insert(p("h8"), Stone::White);
    assert_eq!(
        Position::from_setup(&setup),
        Err(SetupError::Position(PositionError::ImpossibleCounts {
            black: 0,
            white: 1
        }))
    );
    setup.stones.insert(p("h9"), Stone::Black);
    setup.last_move = Some(p("h9"));
    assert_eq!(
        Position::from_setup(&setup),
        Err(SetupError::Position(PositionError::LastMoveNotMover {
            point: p("h9"),
            expected: Stone::White,
            found: Some(Stone::Black)
        }))
    );
}

#[test]
fn move_lists_replay_and_name_the_refused_move() {
    let pos = Position::from_moves(Variant::Freestyle, 15, &pts("h8 h9 i9")).unwrap();
    assert_eq!(pos, play(Variant::Freestyle, 15, "h8 h9 i9"));
    assert_eq!(pos.move_list().as_deref(), Some("h8 h9 i9"));
    // The third move (index 2) takes black's first point.
    let err = Position::from_moves(Variant::Freestyle, 15, &pts("h8 h9 h8")).unwrap_err();
    assert_eq!(
        err,
        MovesError::Illegal {
            index: 2,
            reason: IllegalMove::Occupied {
                point: p("h8"),
                stone: Stone::Black
            }
        }
    );
    assert_eq!(err.to_string(), "move 2: h8 is occupied by a black stone");
    assert_eq!(err.reason(), "illegal-move");
    assert_eq!(
        Position::from_moves(Variant::Standard, 15, &pts("p1")),
        Err(MovesError::Illegal {
            index: 0,
            reason: IllegalMove::OffBoard {
                point: p("p1"),
                size: 15
            }
        })
    );
    // Renju: black's double-three at h8 after f8 g8 h6 h7.
    let moves = pts(&alternate("f8 g8 h6 h7 h8", "a15 c15 e15 g15"));
    assert_eq!(
        Position::from_moves(Variant::Renju, 15, &moves),
        Err(MovesError::Illegal {
            index: 8,
            reason: IllegalMove::Forbidden {
                point: p("h8"),
                why: Forbidden::DoubleThree
            }
        })
    );
    assert_eq!(
        Position::from_moves(Variant::Standard, 19, &[]),
        Err(MovesError::Setup(SetupError::UnsupportedSize {
            variant: Variant::Standard,
            size: 19
        }))
    );
}

#[test]
fn rows_errors() {
    let empty = rows_text(15, "", "");
    let lines: Vec<&str> = empty.lines().collect();
    assert_eq!(
        Position::from_rows(Variant::Renju, &lines[..14].join("\n")).unwrap_err(),
        RowsError::RowCount { count: 14 }
    );
    assert_eq!(
        Position::from_rows(Variant::Renju, "").unwrap_err(),
        RowsError::RowCount { count: 0 }
    );
    assert_eq!(
        Position::from_rows(Variant::Renju, &rows_text(19, "", "")).unwrap_err(),
        RowsError::Setup(SetupError::UnsupportedSize {
            variant: Variant::Renju,
            size: 19
        })
    );
    let mut bad: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    bad[2].push('.');
    assert_eq!(
        Position::from_rows(Variant::Renju, &bad.join("\n")).unwrap_err(),
        RowsError::RowLength {
            line: 3,
            row: 13,
            length: 16,
            expected: 15
        }
    );
    let mut bad: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    bad[7].replace_range(7..8, "X");
    let err = Position::from_rows(Variant::Renju, &bad.join("\n")).unwrap_err();
    assert_eq!(
        err,
        RowsError::BadCharacter {
            line: 8,
            column: 8,
            point: p("h8"),
            character: 'X'
        }
    );
    assert_eq!(
        err.to_string(),
        "line 8, column 8 (h8): 'X' is not '.' (empty), 'x' (black) or 'o' (white)"
    );
    // Spaces and CR are characters like any other.
    let crlf = empty.replace('\n', "\r\n");
    assert!(matches!(
        Position::from_rows(Variant::Renju, &crlf).unwrap_err(),
        RowsError::RowLength {
            line: 1,
            length: 16,
            ..
        }
    ));
    assert_eq!(
        Position::from_rows(Variant::Renju, &rows_text(15, "h8 h9", "")).unwrap_err(),
        RowsError::Position(PositionError::ImpossibleCounts { black: 2, white: 0 })
    );
}

#[test]
fn impossible_boards_are_refused() {
    let err = |variant, black, white| {
        Position::from_rows(variant, &rows_text(15, black, white)).unwrap_err()
    };
    assert_eq!(
        err(Variant::Freestyle, "h8", "a1 a2"),
        RowsError::Position(PositionError::ImpossibleCounts { black: 1, white: 2 })
    );
    // White has five but black has moved since.
    assert_eq!(
        err(Variant::Freestyle, "a1 c1 e1 g1 i1 k1", "h8 h9 h10 h11 h12"),
        RowsError::Position(PositionError::WinnerNotLastMover {
            winner: Stone::White,
            mover: Stone::Black,
            from: p("h8"),
            to: p("h12"),
        })
    );
    // Two fives of black that no single stone completed.
    assert_eq!(
        err(
            Variant::Freestyle,
            "a8 b8 c8 d8 e8 a10 b10 c10 d10 e10",
            "a1 c1 e1 g1 i1 k1 m1 o1 a3"
        ),
        RowsError::Position(PositionError::PlayedOnAfterWin {
            winner: Stone::Black,
            from: p("a8"),
            to: p("e8"),
        })
    );
    // A freestyle ten: whichever stone came last, five or more stood
    // before it on one side. (A nine is possible: e8 may have joined 4 + 4.)
    assert_eq!(
        err(
            Variant::Freestyle,
            "a8 b8 c8 d8 e8 f8 g8 h8 i8 j8",
            "a1 c1 e1 g1 i1 k1 m1 o1 a3"
        ),
        RowsError::Position(PositionError::PlayedOnAfterWin {
            winner: Stone::Black,
            from: p("a8"),
            to: p("j8"),
        })
    );
    assert!(Position::from_rows(
        Variant::Freestyle,
        &rows_text(15, "a8 b8 c8 d8 e8 f8 g8 h8 i8", "a1 c1 e1 g1 i1 k1 m1 o1")
    )
    .is_ok());
    // A freestyle six is fine: its second stone may have come last.
    assert!(Position::from_rows(
        Variant::Freestyle,
        &rows_text(15, "a8 b8 c8 d8 e8 f8", "a1 c1 e1 g1 i1")
    )
    .is_ok());
    // Renju: a black overline without a black five never happens.
    assert_eq!(
        err(
            Variant::Renju,
            "a8 b8 c8 d8 e8 f8 h1",
            "a1 c1 e1 g1 i1 k1 m1"
        ),
        RowsError::Position(PositionError::BlackOverline {
            from: p("a8"),
            to: p("f8"),
        })
    );
    // In standard the same board is an ongoing game.
    assert!(Position::from_rows(
        Variant::Standard,
        &rows_text(15, "a8 b8 c8 d8 e8 f8 h1", "a1 c1 e1 g1 i1 k1 m1")
    )
    .is_ok());
}

/// 224 stones, 112 each, black to move; the one empty point e8 would give
/// black b8–h8, an overline. Made from [`full_board`] (row 8 set to
/// `xxx.xxx` from b8, three black stones far away turned white); Lu's
/// checker also finds e8 an overline.
const NO_MOVES: &str = "\
oxoooxoooxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
oxxx.xxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo";

#[test]
fn renju_black_without_a_legal_move_is_a_draw() {
    let pos = Position::from_rows(Variant::Renju, NO_MOVES).unwrap();
    assert_eq!(pos.turn(), Stone::Black);
    assert_eq!(forbidden_text(&pos), "e8:overline");
    assert!(pos.legal_actions().is_empty());
    assert_eq!(
        pos.status(),
        Status::Drawn {
            reason: EndReason::NoMoves
        }
    );
    // In free-style the same point wins.
    let free = Position::from_rows(Variant::Freestyle, NO_MOVES).unwrap();
    assert_eq!(free.status(), Status::Ongoing);
    let after = free.play(p("e8")).unwrap();
    assert_eq!(after.status(), won(Stone::Black));
    assert_eq!(after.winning_line(), Some(pts("b8 c8 d8 e8 f8 g8 h8")));
}

// ---------------------------------------------------------------- codes

fn code_of(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn start_codes() {
    // Header only: bits 0–1 rule set, bit 2 = 19×19, bit 3 = 0 (move list).
    let cases = [
        (Variant::Freestyle, 15, 0x00, "AA"),
        (Variant::Standard, 15, 0x01, "AQ"),
        (Variant::Renju, 15, 0x02, "Ag"),
        (Variant::Freestyle, 19, 0x04, "BA"),
    ];
    for (variant, size, header, code) in cases {
        let pos = Position::new(variant, size).unwrap();
        assert_eq!(code_of(&[header]), code);
        assert_eq!(pos.to_code(), code);
        assert_eq!(Position::from_code(code).unwrap(), pos);
    }
}

#[test]
fn move_list_codes() {
    // renju h8 (7·15+7 = 112) h9 (8·15+7 = 127) i9 (128)
    let pos = play(Variant::Renju, 15, "h8 h9 i9");
    assert_eq!(pos.to_code(), code_of(&[0x02, 112, 127, 128]));
    assert_eq!(Position::from_code(&pos.to_code()).unwrap(), pos);
    // freestyle 19×19: j10 = 9·19+9 = 180, s19 = 360, a1 = 0 in 9 bits each:
    // 010110100 101101000 000000000 + 5 zero bits
    // = 01011010 01011010 00000000 00000000
    let pos = play(Variant::Freestyle, 19, "j10 s19 a1");
    assert_eq!(pos.to_code(), code_of(&[0x04, 0x5A, 0x5A, 0x00, 0x00]));
    assert_eq!(Position::from_code(&pos.to_code()).unwrap(), pos);
}

#[test]
fn grid_codes() {
    // freestyle 15×15 from rows: black a1 b1, white o15 (224 = 5·44 + 4).
    // Header 0b1000 (grid, no last move); byte 1 = 1 + 3·1 = 4; byte 45 = 2·3⁴ = 162.
    let pos = setup(Variant::Freestyle, "a1 b1", "o15");
    let mut bytes = vec![0x08, 4];
    bytes.extend([0; 43]);
    bytes.push(162);
    let code = code_of(&bytes);
    assert_eq!(code.len(), 62);
    assert_eq!(pos.to_code(), code);
    assert_eq!(Position::from_code(&code).unwrap(), pos);
    // The same with a last move b1 (= 1): header 0b11000, one more byte.
    bytes[0] = 0x18;
    bytes.push(1);
    let with_last = Position::from_code(&code_of(&bytes)).unwrap();
    assert_eq!(with_last.last_move(), Some(p("b1")));
    assert_eq!(with_last.moves(), None);
    assert_eq!(with_last.to_code(), code_of(&bytes));
    assert_eq!(with_last.to_code().len(), 63);
}

#[test]
fn long_games_keep_the_last_move_and_a_short_code() {
    // 46 moves keep the order (47-byte move list = the grid + last move);
    // the 47th drops it.
    let mut moves = Vec::new();
    for r in 0..6u8 {
        for c in 0..8u8 {
            // points two apart: no two stones touch, so nobody wins
            let col = if r % 2 == 0 { c } else { 7 - c };
            moves.push(Point::new(col * 2, r * 2).unwrap());
        }
    }
    let mut pos = Position::new(Variant::Freestyle, 15).unwrap();
    for (i, &m) in moves.iter().take(47).enumerate() {
        pos = pos.play(m).unwrap();
        assert_eq!(pos.status(), Status::Ongoing, "move {}", i + 1);
        let code = pos.to_code();
        if i < 46 {
            assert_eq!(pos.moves().map(<[Point]>::len), Some(i + 1));
            assert_eq!(code.len(), (8 * (i + 2)).div_ceil(6));
        } else {
            assert_eq!(pos.moves(), None);
            assert_eq!(code.len(), 63);
        }
        assert_eq!(pos.last_move(), Some(m));
        assert_eq!(Position::from_code(&code).unwrap(), pos);
    }
    // A 47-move list code is still read; its position keeps the last move only.
    let mut bytes = vec![0x00];
    bytes.extend(moves.iter().take(47).map(|m| m.row() * 15 + m.col()));
    let read = Position::from_code(&code_of(&bytes)).unwrap();
    assert_eq!(read, pos);
}

#[test]
fn codes_round_trip_over_random_games() {
    // A small linear congruential generator: reproducible, no dependency.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    for game in 0..60 {
        let (variant, size) = match game % 4 {
            0 => (Variant::Freestyle, 15),
            1 => (Variant::Standard, 15),
            2 => (Variant::Renju, 15),
            _ => (Variant::Freestyle, 19),
        };
        let mut pos = Position::new(variant, size).unwrap();
        let mut n = 0;
        while pos.status() == Status::Ongoing && n < 120 {
            let legal = pos.legal_actions();
            pos = pos.play(legal[next(legal.len())]).unwrap();
            n += 1;
            let code = pos.to_code();
            assert!(code.len() <= if size == 15 { 63 } else { 102 });
            assert_eq!(Position::from_code(&code).unwrap(), pos, "{code}");
            if n % 10 == 0 {
                let rows = Position::from_rows(variant, &pos.to_rows()).unwrap();
                assert_eq!(rows.to_rows(), pos.to_rows());
                assert_eq!(rows.status(), pos.status());
                assert_eq!(rows.legal_actions(), pos.legal_actions());
                assert_eq!(Position::from_code(&rows.to_code()).unwrap(), rows);
            }
        }
    }
}

#[test]
fn code_syntax_errors() {
    assert_eq!(
        Position::from_code(""),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "gomoku",
            length: 0,
            expected: None
        }))
    );
    assert_eq!(
        Position::from_code("AA=="),
        Err(CodeError::Syntax(SyntaxError::Padding { offset: 2 }))
    );
    assert_eq!(
        Position::from_code("AnA+"),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 3,
            character: '+'
        }))
    );
    assert_eq!(
        Position::from_code("A"),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "gomoku",
            length: 1,
            expected: None
        }))
    );
    // "AB": 000000 000001 — the 4 bits past the one byte are not zero.
    assert_eq!(
        Position::from_code("AB"),
        Err(CodeError::Syntax(SyntaxError::TrailingBits {
            offset: 1,
            character: 'B',
            bytes: None
        }))
    );
}

#[test]
fn code_header_errors() {
    let e = |bytes: &[u8]| Position::from_code(&code_of(bytes)).unwrap_err();
    assert_eq!(e(&[0x20]), CodeError::HeaderBits { header: 0x20 });
    // bit 4 (last move) in the move-list form
    assert_eq!(e(&[0x12]), CodeError::HeaderBits { header: 0x12 });
    assert_eq!(e(&[0x03]), CodeError::UnknownVariant { header: 0x03 });
    assert_eq!(
        e(&[0x06]),
        CodeError::Setup(SetupError::UnsupportedSize {
            variant: Variant::Renju,
            size: 19
        })
    );
    let err = e(&[0x08, 0]);
    assert_eq!(
        err,
        CodeError::GridLength {
            size: 15,
            with_last: false,
            length: 3,
            expected: 62
        }
    );
    assert_eq!(
        err.to_string(),
        "a 15×15 grid code without the last move has 62 characters, this one has 3"
    );
}

#[test]
fn code_body_errors() {
    let e = |bytes: &[u8]| Position::from_code(&code_of(bytes)).unwrap_err();
    // grid byte 243 at byte 3
    let mut grid = vec![0x08, 0, 0, 243];
    grid.extend([0; 42]);
    assert_eq!(
        e(&grid),
        CodeError::GridValue {
            byte: 3,
            value: 243,
            max: 242
        }
    );
    // 19×19 grid: the 73rd grid byte holds one point (max 2).
    let mut grid19 = vec![0x0C];
    grid19.extend([0; 72]);
    grid19.push(3);
    assert_eq!(
        e(&grid19),
        CodeError::GridValue {
            byte: 73,
            value: 3,
            max: 2
        }
    );
    // last move 225 on 15×15
    let mut last = vec![0x18];
    last.extend([0; 45]);
    last.push(225);
    assert_eq!(
        e(&last),
        CodeError::LastMoveOutOfRange {
            value: 225,
            size: 15
        }
    );
    assert_eq!(
        e(&[0x00, 112, 225]),
        CodeError::MoveOutOfRange {
            number: 2,
            value: 225,
            size: 15
        }
    );
    let err = e(&[0x00, 112, 113, 112]);
    assert_eq!(
        err,
        CodeError::IllegalMove {
            number: 3,
            point: p("h8"),
            reason: IllegalMove::Occupied {
                point: p("h8"),
                stone: Stone::Black
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "move 3 (h8) cannot be played: h8 is occupied by a black stone"
    );
    // 19×19: one body byte holds no whole 9-bit move; padding bits set.
    assert_eq!(e(&[0x04, 0]), CodeError::MoveListLength { length: 3 });
    assert_eq!(e(&[0x04, 0x5A, 0x41]), CodeError::MoveListPadding);
    // A move after the game ended: a1..a5 black, b1..b4 white, then c1.
    let over = [0x00, 0, 1, 15, 16, 30, 31, 45, 46, 60, 2];
    let err = e(&over);
    assert_eq!(
        err,
        CodeError::IllegalMove {
            number: 10,
            point: p("c1"),
            reason: IllegalMove::GameWon {
                point: p("c1"),
                winner: Stone::Black
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "move 10 (c1) cannot be played: c1: the game is over, black has won"
    );
    // A forbidden move replayed (renju): black f8 g8 h6 h7 then h8.
    let renju = play(
        Variant::Renju,
        15,
        &alternate("f8 g8 h6 h7", "a15 c15 e15 g15"),
    );
    let mut bytes = URL_SAFE_NO_PAD.decode(renju.to_code()).unwrap();
    bytes.push(112);
    let err = e(&bytes);
    assert_eq!(
        err,
        CodeError::IllegalMove {
            number: 9,
            point: p("h8"),
            reason: IllegalMove::Forbidden {
                point: p("h8"),
                why: Forbidden::DoubleThree
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "move 9 (h8) cannot be played: h8 is forbidden for black: double-three"
    );
}

#[test]
fn code_position_errors() {
    let grid = |cells: &[(usize, u8)], last: Option<u8>| {
        let mut digits = [0u8; 225];
        for &(i, d) in cells {
            digits[i] = d;
        }
        let mut bytes = vec![if last.is_some() { 0x18 } else { 0x08 }];
        for chunk in digits.chunks(5) {
            bytes.push(chunk.iter().rev().fold(0, |a, &d| a * 3 + d));
        }
        bytes.extend(last);
        Position::from_code(&code_of(&bytes))
    };
    // white ahead
    assert_eq!(
        grid(&[(0, 2)], None),
        Err(CodeError::Position(PositionError::ImpossibleCounts {
            black: 0,
            white: 1
        }))
    );
    // black two ahead
    assert_eq!(
        grid(&[(0, 1), (2, 1), (4, 2), (6, 1)], None),
        Err(CodeError::Position(PositionError::ImpossibleCounts {
            black: 3,
            white: 1
        }))
    );
    // last move on an empty board
    assert_eq!(
        grid(&[], Some(112)),
        Err(CodeError::Position(PositionError::LastMoveOnEmptyBoard {
            point: p("h8")
        }))
    );
    // a1 b1 black, c1 white: black moved last, but the last move names c1
    assert_eq!(
        grid(&[(0, 1), (1, 1), (2, 2)], Some(2)),
        Err(CodeError::Position(PositionError::LastMoveNotMover {
            point: p("c1"),
            expected: Stone::Black,
            found: Some(Stone::White)
        }))
    );
    // Black five a1–e1 with white four elsewhere; last move named a2 (black,
    // but off the line).
    let five: Vec<(usize, u8)> = (0..5)
        .map(|c| (c, 1))
        .chain([(20, 1)])
        .chain((0..5).map(|k| (30 + 2 * k, 2)))
        .collect();
    assert_eq!(
        grid(&five, Some(20)),
        Err(CodeError::Position(PositionError::LastMoveNotWinning {
            winner: Stone::Black,
            from: p("a1"),
            to: p("e1"),
            last: p("f2")
        }))
    );
    let won = grid(&five, Some(2)).unwrap();
    assert_eq!(
        won.status(),
        Status::Won {
            winner: Stone::Black,
            reason: EndReason::FiveInARow
        }
    );
    assert_eq!(won.winning_line(), Some(pts("a1 b1 c1 d1 e1")));
    assert_eq!(won.last_move(), Some(p("c1")));
}

#[test]
fn error_messages_name_the_problem() {
    assert_eq!(
        PositionError::ImpossibleCounts { black: 3, white: 1 }.to_string(),
        "black has 3 stones and white 1: black moves first, so black has as many stones as white or one more"
    );
    assert_eq!(
        CodeError::MoveOutOfRange {
            number: 2,
            value: 225,
            size: 15
        }
        .to_string(),
        "move 2 is point index 225, but a 15×15 board has points 0–224"
    );
    assert_eq!(
        CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 3,
            character: '+'
        })
        .to_string(),
        "character '+' at offset 3 is not in the URL-safe base64 alphabet (A–Z a–z 0–9 - _)"
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any string is either read or refused with an error, never a
        /// panic; what is read prints back to a code that reads the same.
        #[test]
        fn any_string_decodes_or_names_its_error(s in "[A-Za-z0-9_=+-]{0,110}") {
            if let Ok(pos) = Position::from_code(&s) {
                prop_assert_eq!(Position::from_code(&pos.to_code()), Ok(pos));
            }
        }

        /// Byte strings with a valid header reach the body checks.
        #[test]
        fn any_body_decodes_or_names_its_error(
            header in prop::sample::select(vec![0x00u8, 0x01, 0x02, 0x04, 0x08, 0x0A, 0x0C, 0x18, 0x1C]),
            body in prop::collection::vec(any::<u8>(), 0..80),
        ) {
            let mut bytes = vec![header];
            bytes.extend(body);
            if let Ok(pos) = Position::from_code(&code_of(&bytes)) {
                prop_assert_eq!(Position::from_code(&pos.to_code()), Ok(pos));
            }
        }
    }
}
