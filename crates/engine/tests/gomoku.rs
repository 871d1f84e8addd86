//! Gomoku and Renju searches: exact expectations on won-in-one, block-four,
//! published VCF puzzles (tests/data/gomoku-vcf.txt names their sources),
//! Renju's forbidden points for both sides, and a property test that no
//! search returns an illegal point.
//!
//! Every forced line the engine reports is checked here with the rules
//! crate alone: each of the attacker's moves but the last makes a four,
//! the defender's next move is the one point that stops it (or that point
//! is forbidden to black), the defender never has a five of its own to
//! make, and the last move wins.

use proptest::prelude::*;
use qipan_engine::gomoku::{accepts_draw, analyse, choose, Score};
use qipan_engine::{Level, Limits};
use qipan_rules::gomoku::{Point, Position, Setup, Stone, Variant};
use qipan_rules::Status;

fn pt(s: &str) -> Point {
    s.parse().unwrap()
}

fn rows(variant: Variant, text: &str) -> Position {
    let text: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    Position::from_rows(variant, &text.join("\n")).unwrap()
}

/// The points where `stone` would win at once, by counting runs on the
/// setup (independent of the rules crate's win test and of the engine).
fn five_points(setup: &Setup, stone: Stone) -> Vec<Point> {
    let size = setup.size;
    let exact = match (setup.variant, stone) {
        (Variant::Freestyle, _) | (Variant::Renju, Stone::White) => false,
        (Variant::Standard, _) | (Variant::Renju, Stone::Black) => true,
    };
    let at = |c: i32, r: i32| -> Option<Stone> {
        if c < 0 || r < 0 || c >= i32::from(size) || r >= i32::from(size) {
            return None;
        }
        setup.stones.get(&Point::new(c as u8, r as u8)?).copied()
    };
    let mut out = Vec::new();
    for r in 0..i32::from(size) {
        for c in 0..i32::from(size) {
            if at(c, r).is_some() {
                continue;
            }
            let wins = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                let mut n = 1;
                let mut k = 1;
                while at(c + k * dc, r + k * dr) == Some(stone) {
                    n += 1;
                    k += 1;
                }
                k = 1;
                while at(c - k * dc, r - k * dr) == Some(stone) {
                    n += 1;
                    k += 1;
                }
                if exact {
                    n == 5
                } else {
                    n >= 5
                }
            });
            if wins {
                out.push(Point::new(c as u8, r as u8).unwrap());
            }
        }
    }
    out
}

/// Checks that `line` is a win by continuous fours for the side to move
/// (the checks in the module comment); panics naming the ply at fault.
fn assert_vcf(pos: &Position, line: &[Point], name: &str) {
    let attacker = pos.turn();
    let mut p = pos.clone();
    for (k, &m) in line.iter().enumerate() {
        p = p
            .play(m)
            .unwrap_or_else(|e| panic!("{name}: ply {k} {m}: {e}"));
        if k + 1 == line.len() {
            assert_eq!(
                p.status(),
                Status::Won {
                    winner: attacker,
                    reason: qipan_rules::EndReason::FiveInARow
                },
                "{name}: the line does not end in a five"
            );
            return;
        }
        if k % 2 == 1 {
            continue;
        }
        let setup = p.to_setup();
        let threats = five_points(&setup, attacker);
        assert!(!threats.is_empty(), "{name}: ply {k} {m} is not a four");
        let counters = five_points(&setup, attacker.opponent());
        assert!(
            counters.is_empty(),
            "{name}: after ply {k} the defender has a five on {counters:?}"
        );
        let reply = line[k + 1];
        if let [only] = threats.as_slice() {
            let forbidden = p.forbidden_reason(*only).is_some() && attacker == Stone::White;
            assert!(
                reply == *only || forbidden,
                "{name}: ply {} {reply} does not block {only}",
                k + 1
            );
        }
    }
    panic!("{name}: the line ends on a defender's move");
}

struct Puzzle {
    id: String,
    plies: Option<u32>,
    pos: Position,
}

fn puzzles() -> Vec<Puzzle> {
    let text = include_str!("data/gomoku-vcf.txt");
    let mut out = Vec::new();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let (mut id, mut plies) = (String::new(), None);
    while let Some(l) = lines.next() {
        if let Some(v) = l.strip_prefix("id ") {
            id = v.to_owned();
        } else if let Some(v) = l.strip_prefix("plies ") {
            plies = v.parse().ok();
        } else if l == "rows" {
            let board: Vec<&str> = lines.by_ref().take(15).collect();
            let pos = Position::from_rows(Variant::Renju, &board.join("\n"))
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            out.push(Puzzle {
                id: id.clone(),
                plies,
                pos,
            });
        }
    }
    out
}

#[test]
fn every_vcf_puzzle_is_solved() {
    let puzzles = puzzles();
    assert_eq!(puzzles.len(), 14);
    for pz in puzzles {
        let a = analyse(&pz.pos, &Limits::nodes(1_000_000), 1);
        let line = &a.lines[0];
        let Score::Win(n) = line.score else {
            panic!(
                "{}: no win found: {} after {} nodes",
                pz.id, line.score, a.nodes
            );
        };
        assert_eq!(n as usize, line.pv.len(), "{}", pz.id);
        if let Some(min) = pz.plies {
            assert!(
                n >= min,
                "{}: a win in {n} beats the proven shortest {min}",
                pz.id
            );
        }
        assert_vcf(&pz.pos, &line.pv, &pz.id);
    }
}

#[test]
fn a_five_is_made_at_once_in_every_rule_set() {
    // Black to move: four in a row e8-h8, open at both ends; white elsewhere.
    let board = "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......oo......
        ...............
        ....xxxx.......
        ...............
        ......o........
        ...............
        ..........o....
        ...............
        ...............
        ...............";
    for variant in [Variant::Freestyle, Variant::Standard, Variant::Renju] {
        let pos = rows(variant, board);
        let a = analyse(&pos, &Limits::nodes(2_000), 3);
        assert_eq!(a.lines[0].score, Score::Win(1), "{variant}");
        assert!(
            [pt("d8"), pt("i8")].contains(&a.lines[0].pv[0]),
            "{variant}"
        );
        for level in 1..=10 {
            let m = choose(&pos, Level::new(level).unwrap(), 7, &Limits::nodes(2_000));
            assert!(
                m == Some(pt("d8")) || m == Some(pt("i8")),
                "{variant} level {level}: {m:?}"
            );
        }
    }
}

#[test]
fn a_four_is_blocked_when_there_is_no_five() {
    // White to move; black's four e8-h8 is open only on i8 (d8 is white).
    // White has an open three g9-i9 but no four, and a four would not stop
    // a five: it must block.
    let pos = rows(
        Variant::Freestyle,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ......ooo......
        ...oxxxx.......
        ...............
        ...............
        ......x........
        ...............
        ...............
        ...............
        ...............",
    );
    assert_eq!(pos.turn(), Stone::White);
    let a = analyse(&pos, &Limits::nodes(20_000), 1);
    assert_eq!(a.lines[0].pv[0], pt("i8"), "{}", a.lines[0].score);
    for level in 1..=10 {
        assert_eq!(
            choose(&pos, Level::new(level).unwrap(), 3, &Limits::nodes(20_000)),
            Some(pt("i8")),
            "level {level}"
        );
    }
}

#[test]
fn an_overline_wins_only_where_the_rules_say() {
    // Black b8-e8 and g8, white on a8: f8 makes six in a row. Free-style:
    // a win; standard: no win; renju: forbidden to black.
    let board = "
        ...............
        ...............
        ...........o...
        .............o.
        ...............
        ..o............
        ...............
        oxxxx.x........
        ...............
        ...............
        ...............
        ...............
        ............o..
        ...............
        ...............";
    let free = rows(Variant::Freestyle, board);
    assert_eq!(
        analyse(&free, &Limits::nodes(5_000), 1).lines[0].pv[0],
        pt("f8")
    );
    for variant in [Variant::Standard, Variant::Renju] {
        let pos = rows(variant, board);
        let a = analyse(&pos, &Limits::nodes(20_000), 5);
        assert!(
            a.lines.iter().all(|l| l.pv[0] != pt("f8")),
            "{variant}: {:?}",
            a.lines
        );
    }
}

/// White wins by a four whose only block is forbidden to black. Black's
/// f8 g8 (row 8) and h6 h7 (file h) make h8 a double-three for black;
/// white's i9 j10 k11 with black on m13 become a four on l12 whose one
/// five point is h8. Constructed for this test; the rules crate confirms
/// that h8 is forbidden.
#[test]
fn white_wins_by_a_block_that_is_forbidden_to_black() {
    let pos = rows(
        Variant::Renju,
        "
        o..............
        ...............
        ............x..
        ...............
        ..........o....
        .........o.....
        ........o......
        .....xx........
        ......xx.......
        .......x.......
        ...............
        ...............
        ...............
        ...............
        ..............o",
    );
    assert_eq!(pos.turn(), Stone::White);
    let a = analyse(&pos, &Limits::nodes(50_000), 1);
    let line = &a.lines[0];
    assert!(matches!(line.score, Score::Win(_)), "{}", line.score);
    assert_vcf(&pos, &line.pv, "forbidden-block");
    // The defender's first reply could not be on the forbidden point.
    let after = pos.play(line.pv[0]).unwrap();
    let setup = after.to_setup();
    let threats = five_points(&setup, Stone::White);
    assert_eq!(threats.len(), 1);
    assert!(
        after.forbidden_reason(threats[0]).is_some(),
        "{:?}",
        threats
    );
}

#[test]
fn black_never_plays_a_forbidden_point_even_to_block() {
    // Black to move; white's four i9-l12 (m13 is black) must be blocked on
    // h8, a double-three for black (f8 g8, h6 h7): black cannot block and
    // loses, and must not play h8 all the same.
    let pos = rows(
        Variant::Renju,
        "
        o..............
        ...............
        ............x..
        ...........o...
        ..........o....
        .........o.....
        ........o......
        .....xx........
        .......x.......
        .......x.......
        ...............
        ...............
        ...............
        ...............
        ...............",
    );
    assert_eq!(pos.turn(), Stone::Black);
    let h8 = pt("h8");
    assert!(pos.forbidden_reason(h8).is_some());
    let a = analyse(&pos, &Limits::nodes(20_000), 4);
    assert_eq!(a.lines[0].score, Score::Loss(2));
    for l in &a.lines {
        assert_ne!(l.pv[0], h8);
        assert!(pos.play(l.pv[0]).is_ok());
    }
    for level in 1..=10 {
        let m = choose(&pos, Level::new(level).unwrap(), 11, &Limits::nodes(5_000)).unwrap();
        assert_ne!(m, h8, "level {level}");
        assert!(pos.play(m).is_ok());
    }
    // Lost: a draw offer is welcome.
    assert!(accepts_draw(&pos, &Limits::nodes(5_000)));
}

#[test]
fn a_draw_is_refused_with_a_win_in_hand() {
    // Black to move with an open four e8-h8.
    let pos = rows(
        Variant::Freestyle,
        "
        ...............
        ...............
        ...............
        ...............
        ...............
        .......oo......
        ...............
        ....xxxx.......
        ...............
        ......o........
        ...............
        ..........o....
        ...............
        ...............
        ...............",
    );
    assert!(!accepts_draw(&pos, &Limits::nodes(5_000)));
}

fn random_game(variant: Variant, size: u8, seed: u64, plies: usize) -> Position {
    let mut pos = Position::new(variant, size).unwrap();
    let mut s = seed;
    let centre = Point::new(size / 2, size / 2).unwrap();
    for _ in 0..plies {
        if pos.status() != Status::Ongoing {
            break;
        }
        // Random moves near the centre, so that shapes form.
        let legal: Vec<Point> = pos
            .legal_actions()
            .into_iter()
            .filter(|p| {
                (p.col() as i32 - centre.col() as i32).abs() <= 4
                    && (p.row() as i32 - centre.row() as i32).abs() <= 4
            })
            .collect();
        if legal.is_empty() {
            break;
        }
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let next = pos.play(legal[(s >> 33) as usize % legal.len()]).unwrap();
        if next.status() != Status::Ongoing {
            break;
        }
        pos = next;
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn searches_never_return_an_illegal_point(
        seed in any::<u64>(),
        plies in 0usize..60,
        v in 0usize..4,
        level in 1u8..=10,
        lines in 1usize..4,
    ) {
        let (variant, size) = [(Variant::Freestyle, 15), (Variant::Standard, 15), (Variant::Renju, 15), (Variant::Freestyle, 19)][v];
        let pos = random_game(variant, size, seed, plies);
        let a = analyse(&pos, &Limits::nodes(3_000), lines);
        prop_assert!(!a.lines.is_empty());
        for l in &a.lines {
            let mut p = pos.clone();
            for &m in &l.pv {
                p = p.play(m).map_err(|e| TestCaseError::fail(format!("{}: {e}", pos.to_code())))?;
            }
        }
        let m = choose(&pos, Level::new(level).unwrap(), seed, &Limits::nodes(3_000));
        prop_assert!(m.is_some_and(|m| pos.play(m).is_ok()), "{} {m:?}", pos.to_code());
    }
}

#[test]
fn the_same_node_budget_gives_the_same_answer() {
    let pos = random_game(Variant::Renju, 15, 99, 30);
    let a = analyse(&pos, &Limits::nodes(30_000), 3);
    let b = analyse(&pos, &Limits::nodes(30_000), 3);
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.nodes, b.nodes);
}

#[test]
fn scores_read_as_players_say_them() {
    assert_eq!(Score::Win(5).to_string(), "win in 5");
    assert_eq!(Score::Loss(2).to_string(), "loss in 2");
    assert_eq!(Score::Eval(35).to_string(), "+35");
    assert_eq!(Score::Eval(-7).to_string(), "-7");
    assert_eq!(Score::Eval(0).to_string(), "+0");
}

/// A depth limit holds however many nodes are allowed (the weaker levels
/// rest on it).
#[test]
fn a_depth_limit_caps_the_search() {
    let moves: Vec<Point> = ["h8", "i9", "g9", "i7"].iter().map(|s| pt(s)).collect();
    let pos = Position::from_moves(Variant::Freestyle, 15, &moves).unwrap();
    let limits = Limits {
        nodes: Some(2_000_000),
        depth: Some(2),
        ..Limits::default()
    };
    let a = analyse(&pos, &limits, 1);
    assert_eq!(a.depth, 2);
    assert!(matches!(a.lines[0].score, Score::Eval(_)));
}
