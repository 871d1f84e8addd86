//! Quoridor rules: pawn moves and jumps, wall placement, paths, the result,
//! the state code, and perft counts checked against a slow reference.
//!
//! Where the expected values come from:
//! - the issue and `shared/product.md` (board, notation, rules, 10 walls);
//! - `shared/reference/quoridor-start.txt` (131 legal actions at the start);
//! - hand-drawn boards for every rule test, the expected move sets written
//!   out by hand next to them;
//! - the [`reference`] module below: a deliberately plain generator written
//!   apart from the crate's (walls as unit segments of the gap grid, a
//!   `VecDeque` search per candidate wall, pawn targets tested one square at
//!   a time against the rule text). It produced the counts in
//!   `tests/data/quoridor/quoridor.perft`, and the tests compare the crate's
//!   generator with it action by action;
//! - codes built from hand-written bytes with the `base64` crate's
//!   `URL_SAFE_NO_PAD` engine, not with the crate under test.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use qipan_rules::code::SyntaxError;
use qipan_rules::quoridor::{
    Action, ActionError, CodeError, Player, Position, Setup, SetupError, Square, Wall, CODE_LENGTH,
};
use qipan_rules::{EndReason, Game, Status};

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn wall(s: &str) -> Wall {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn act(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn walls(s: &str) -> Vec<Wall> {
    s.split_whitespace().map(wall).collect()
}

/// A checked position from readable parts (walls left must add up to 20
/// with the walls given).
fn setup(p1: &str, p2: &str, ws: &str, left: [u8; 2], to_move: Player) -> Position {
    Position::from_setup(&Setup {
        pawns: [sq(p1), sq(p2)],
        walls: walls(ws),
        walls_left: left,
        to_move,
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn moves(pos: &Position) -> String {
    pos.pawn_moves()
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reference generator: plain, slow and written apart from the crate.
mod reference {
    use std::collections::VecDeque;

    use qipan_rules::quoridor::{Orientation, Player, Position};

    /// A square as (file, rank), both 0-based.
    pub type Sq = (i8, i8);

    /// A wall as its anchor and `'h'` or `'v'`.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct W {
        pub file: i8,
        pub rank: i8,
        pub o: char,
    }

    impl W {
        /// The two unit segments the wall covers in the grid of gap lines,
        /// as (x, y, 'h' | 'v') of the segment's lower-left end: the gap
        /// lines run along x = 0..9 and y = 0..9, square (f, r) spans
        /// [f, f + 1] × [r, r + 1].
        fn segments(self) -> [(i8, i8, char); 2] {
            let (x, y) = (self.file, self.rank);
            match self.o {
                'h' => [(x, y + 1, 'h'), (x + 1, y + 1, 'h')],
                _ => [(x + 1, y, 'v'), (x + 1, y + 1, 'v')],
            }
        }

        /// The wall's middle point: a corner of the gap grid.
        fn middle(self) -> (i8, i8) {
            (self.file + 1, self.rank + 1)
        }

        pub fn name(self) -> String {
            format!(
                "{}{}{}",
                (b'a' + self.file as u8) as char,
                self.rank + 1,
                self.o
            )
        }
    }

    #[derive(Clone)]
    pub struct Ref {
        pub pawns: [Sq; 2],
        pub walls: Vec<W>,
        pub left: [u8; 2],
        pub turn: usize,
    }

    fn on_board((f, r): Sq) -> bool {
        (0..9).contains(&f) && (0..9).contains(&r)
    }

    /// Whether a pawn may pass from `a` to the orthogonal neighbour `b`:
    /// both on the board and no wall segment on the line between them.
    fn open(walls: &[W], a: Sq, b: Sq) -> bool {
        if !on_board(a) || !on_board(b) {
            return false;
        }
        let seg = if a.0 == b.0 {
            (a.0, a.1.max(b.1), 'h')
        } else {
            (a.0.max(b.0), a.1, 'v')
        };
        !walls.iter().any(|w| w.segments().contains(&seg))
    }

    fn reaches(walls: &[W], from: Sq, goal_rank: i8) -> bool {
        let mut seen = [[false; 9]; 9];
        let mut queue = VecDeque::from([from]);
        seen[from.0 as usize][from.1 as usize] = true;
        while let Some(s) = queue.pop_front() {
            if s.1 == goal_rank {
                return true;
            }
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let n = (s.0 + df, s.1 + dr);
                if open(walls, s, n) && !seen[n.0 as usize][n.1 as usize] {
                    seen[n.0 as usize][n.1 as usize] = true;
                    queue.push_back(n);
                }
            }
        }
        false
    }

    const GOAL: [i8; 2] = [8, 0];

    impl Ref {
        pub fn of(p: &Position) -> Ref {
            let s = |sq: qipan_rules::quoridor::Square| (sq.file() as i8, sq.rank() as i8);
            Ref {
                pawns: [s(p.pawn(Player::One)), s(p.pawn(Player::Two))],
                walls: p
                    .walls()
                    .iter()
                    .map(|w| W {
                        file: w.file() as i8,
                        rank: w.rank() as i8,
                        o: match w.orientation() {
                            Orientation::Horizontal => 'h',
                            Orientation::Vertical => 'v',
                        },
                    })
                    .collect(),
                left: [p.walls_left(Player::One), p.walls_left(Player::Two)],
                turn: p.turn().index(),
            }
        }

        fn over(&self) -> bool {
            (0..2).any(|i| self.pawns[i].1 == GOAL[i])
        }

        /// The rule text, one target square at a time.
        fn pawn_ok(&self, t: Sq) -> bool {
            let me = self.pawns[self.turn];
            let op = self.pawns[1 - self.turn];
            if t == op || !on_board(t) {
                return false;
            }
            let (dx, dy) = (t.0 - me.0, t.1 - me.1);
            match (dx.abs(), dy.abs()) {
                // A step.
                (1, 0) | (0, 1) => open(&self.walls, me, t),
                // A straight jump over the pawn in between.
                (2, 0) | (0, 2) => {
                    let mid = (me.0 + dx / 2, me.1 + dy / 2);
                    mid == op && open(&self.walls, me, mid) && open(&self.walls, mid, t)
                }
                // A diagonal jump: the pawn is beside or ahead, and behind it
                // is a wall or the edge.
                (1, 1) => [(me.0 + dx, me.1), (me.0, me.1 + dy)].into_iter().any(|o| {
                    let behind = (2 * o.0 - me.0, 2 * o.1 - me.1);
                    o == op
                        && open(&self.walls, me, o)
                        && !open(&self.walls, o, behind)
                        && open(&self.walls, o, t)
                }),
                _ => false,
            }
        }

        fn wall_ok(&self, w: W) -> bool {
            if self.left[self.turn] == 0 {
                return false;
            }
            for &p in &self.walls {
                let shares = p.segments().iter().any(|s| w.segments().contains(s));
                if shares || p.middle() == w.middle() {
                    return false;
                }
            }
            let mut after = self.walls.clone();
            after.push(w);
            (0..2).all(|i| reaches(&after, self.pawns[i], GOAL[i]))
        }

        /// Every legal action in notation.
        pub fn actions(&self) -> Vec<String> {
            if self.over() {
                return Vec::new();
            }
            let mut out = Vec::new();
            for r in 0..9 {
                for f in 0..9 {
                    if self.pawn_ok((f, r)) {
                        out.push(format!("{}{}", (b'a' + f as u8) as char, r + 1));
                    }
                }
            }
            for r in 0..8 {
                for f in 0..8 {
                    for o in ['h', 'v'] {
                        let w = W {
                            file: f,
                            rank: r,
                            o,
                        };
                        if self.wall_ok(w) {
                            out.push(w.name());
                        }
                    }
                }
            }
            out
        }

        pub fn play(&self, a: &str) -> Ref {
            let b = a.as_bytes();
            let (f, r) = ((b[0] - b'a') as i8, (b[1] - b'1') as i8);
            let mut next = self.clone();
            if b.len() == 2 {
                next.pawns[self.turn] = (f, r);
            } else {
                next.walls.push(W {
                    file: f,
                    rank: r,
                    o: b[2] as char,
                });
                next.left[self.turn] -= 1;
            }
            next.turn = 1 - self.turn;
            next
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let actions = self.actions();
            if depth == 1 {
                return actions.len() as u64;
            }
            actions.iter().map(|a| self.play(a).perft(depth - 1)).sum()
        }
    }
}

/// The crate's legal actions in notation, checking the documented order.
fn fast_actions(pos: &Position) -> Vec<String> {
    let actions = pos.legal_actions();
    let mut sorted = actions.clone();
    sorted.sort();
    assert_eq!(actions, sorted, "legal actions out of order in {pos:?}");
    assert_eq!(pos.count_legal_actions(), actions.len());
    actions.iter().map(|a| a.to_string()).collect()
}

/// Compares the two generators at every node of the tree `depth` plies
/// deep, and returns the number of nodes compared.
fn compare_tree(pos: &Position, r: &reference::Ref, depth: u32) -> usize {
    let fast: BTreeSet<String> = fast_actions(pos).into_iter().collect();
    let slow: BTreeSet<String> = r.actions().into_iter().collect();
    assert_eq!(
        fast,
        slow,
        "{pos:?}: only fast {:?}, only reference {:?}",
        fast.difference(&slow).collect::<Vec<_>>(),
        slow.difference(&fast).collect::<Vec<_>>()
    );
    if depth == 0 {
        return 1;
    }
    let mut n = 1;
    for a in &fast {
        let next = pos.play(act(a)).unwrap_or_else(|e| panic!("{a}: {e}"));
        n += compare_tree(&next, &r.play(a), depth - 1);
    }
    n
}

// ---------------------------------------------------------------------------
// Perft data

struct Case {
    id: String,
    position: Position,
    expected: Vec<(u32, u64)>,
}

/// Reads `tests/data/quoridor/quoridor.perft`: `id`, the readable parts
/// (`pawns`, `walls`, `walls_left`, `to_move`), the `code` they must give,
/// then `perft <depth> <nodes>` lines; `#` starts a comment.
fn read_cases() -> Vec<Case> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/quoridor/quoridor.perft");
    let text = fs::read_to_string(&file).expect("perft file is readable");
    let mut cases: Vec<Case> = Vec::new();
    let (mut id, mut pawns, mut ws, mut left, mut to_move) = (
        String::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Player::One,
    );
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{}:{}", file.display(), n + 1);
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "id" => id = value.to_owned(),
            "pawns" => pawns = value.split_whitespace().map(sq).collect(),
            "walls" => ws = walls(value),
            "walls_left" => {
                left = value
                    .split_whitespace()
                    .map(|v| v.parse::<u8>().expect("a count"))
                    .collect()
            }
            "to_move" => to_move = value.parse().unwrap_or_else(|e| panic!("{at}: {e}")),
            "code" => {
                let position = Position::from_setup(&Setup {
                    pawns: [pawns[0], pawns[1]],
                    walls: ws.clone(),
                    walls_left: [left[0], left[1]],
                    to_move,
                })
                .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(position.to_code(), value, "{at}: code of the parts");
                assert_eq!(Position::from_code(value), Ok(position), "{at}");
                cases.push(Case {
                    id: id.clone(),
                    position,
                    expected: Vec::new(),
                });
            }
            "perft" => {
                let (d, nodes) = value.split_once(' ').unwrap_or_else(|| panic!("{at}"));
                let case = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{at}: no code yet"));
                case.expected.push((
                    d.parse().expect("depth"),
                    nodes.trim().parse().expect("nodes"),
                ));
            }
            other => panic!("{at}: unknown key {other:?}"),
        }
    }
    cases
}

#[test]
fn perft_counts_match_reference_data() {
    let cases = read_cases();
    assert!(cases.len() >= 6);
    let mut failures = Vec::new();
    for case in &cases {
        assert!(case.expected.iter().any(|&(d, _)| d == 3), "{}", case.id);
        for &(depth, nodes) in &case.expected {
            let got = case.position.perft(depth);
            if got != nodes {
                failures.push(format!(
                    "{} depth {depth}: expected {nodes}, got {got}",
                    case.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn generators_agree_on_every_node_two_plies_deep() {
    // The whole action set, not just its size, of each data position and of
    // every position one action later (the two plies of perft 2).
    for case in read_cases() {
        let r = reference::Ref::of(&case.position);
        let nodes = compare_tree(&case.position, &r, 1);
        assert!(nodes > 1, "{}", case.id);
        // The data file's depth-1 and depth-2 counts from the reference itself.
        for &(depth, nodes) in &case.expected {
            if depth <= 2 {
                assert_eq!(r.perft(depth), nodes, "{} depth {depth}", case.id);
            }
        }
    }
}

#[test]
#[ignore = "re-derives every count of the data file with the slow reference; about a minute in release"]
fn reference_reproduces_perft_data() {
    for case in read_cases() {
        let r = reference::Ref::of(&case.position);
        for &(depth, nodes) in &case.expected {
            let got = r.perft(depth);
            println!("{} perft {depth} {got}", case.id);
            assert_eq!(got, nodes, "{} depth {depth}", case.id);
        }
    }
}

#[test]
fn generators_agree_along_random_games() {
    // Deterministic xorshift playouts to the end of each game (half the
    // turns a step towards the goal, a quarter a random pawn move, a quarter
    // a random wall): every visited position's action set is compared.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut compared = 0;
    let mut finished = 0;
    for _ in 0..100 {
        let mut pos = Position::start();
        for _ in 0..200 {
            compare_tree(&pos, &reference::Ref::of(&pos), 0);
            compared += 1;
            assert_eq!(Position::from_code(&pos.to_code()), Ok(pos));
            let actions = pos.legal_actions();
            if actions.is_empty() {
                finished += 1;
                break;
            }
            let pawn = actions
                .iter()
                .filter(|a| matches!(a, Action::Move(_)))
                .count();
            let mover = pos.turn();
            let i = match next(4) {
                // Towards the goal: the pawn move with the shortest path.
                0 | 1 => (0..pawn)
                    .min_by_key(|&i| {
                        let after = pos.play(actions[i]).expect("legal");
                        after.shortest_path(mover)
                    })
                    .unwrap_or(0),
                2 => next(pawn),
                _ if pawn == actions.len() => next(pawn),
                _ => pawn + next(actions.len() - pawn),
            };
            pos = pos.play(actions[i]).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(compared > 2000 && finished == 100, "{compared} {finished}");
}

// ---------------------------------------------------------------------------
// The start

#[test]
fn start_has_131_legal_actions() {
    let start = Position::start();
    assert_eq!(start.turn(), Player::One);
    assert_eq!(start.pawn(Player::One), sq("e1"));
    assert_eq!(start.pawn(Player::Two), sq("e9"));
    assert_eq!(start.walls_left(Player::One), 10);
    assert_eq!(start.walls_left(Player::Two), 10);
    assert_eq!(start.shortest_path(Player::One), Some(8));
    assert_eq!(start.shortest_path(Player::Two), Some(8));
    assert_eq!(moves(&start), "d1 f1 e2");
    let actions = start.legal_actions();
    assert_eq!(actions.len(), 3 + 128);
    assert_eq!(actions[..4], [act("d1"), act("f1"), act("e2"), act("a1h")]);
    assert_eq!(actions[4], act("a1v"));
    assert_eq!(actions[130], act("h8v"));
    assert_eq!(start.status(), Status::Ongoing);
    assert_eq!(Game::to_move(&start), Player::One);
}

// ---------------------------------------------------------------------------
// Pawn moves

#[test]
fn step_is_blocked_by_walls_and_the_edge() {
    // e1 with d1v (d1|e1) and e1h (e1|e2): only f1 is left.
    let pos = setup("e1", "e9", "d1v e1h", [9, 9], Player::One);
    assert_eq!(moves(&pos), "f1");
    assert_eq!(
        pos.play(act("e2")),
        Err(ActionError::WallInTheWay {
            from: sq("e1"),
            to: sq("e2"),
            target: sq("e2")
        })
    );
    assert_eq!(
        pos.play(act("e3")),
        Err(ActionError::OutOfReach {
            from: sq("e1"),
            target: sq("e3")
        })
    );
    // a1 corner: two steps.
    let pos = setup("a1", "e9", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "b1 a2");
}

#[test]
fn straight_jump_over_the_adjacent_pawn() {
    let pos = setup("e4", "e5", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "e3 d4 f4 e6");
    assert_eq!(
        pos.play(act("e5")),
        Err(ActionError::Occupied {
            square: sq("e5"),
            player: Player::Two
        })
    );
    assert_eq!(
        pos.play(act("d5")),
        Err(ActionError::DiagonalWhileStraightOpen {
            target: sq("d5"),
            over: sq("e5"),
            behind: sq("e6")
        })
    );
    let after = pos.play(act("e6")).unwrap();
    assert_eq!(after.pawn(Player::One), sq("e6"));
    assert_eq!(after.turn(), Player::Two);
    // Sideways: f4 jumps over e4 to d4.
    let pos = setup("f4", "e4", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "f3 d4 g4 f5");
}

#[test]
fn backward_jumps() {
    // Player 1 jumps towards its own side, player 2 towards its own.
    let pos = setup("e5", "e4", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "e3 d5 f5 e6");
    let pos = setup("e5", "e6", "", [10, 10], Player::Two);
    assert_eq!(moves(&pos), "e4 d6 f6 e7");
    // Backwards with a wall behind: diagonals instead.
    let pos = setup("e5", "e4", "e3h", [10, 9], Player::One);
    assert_eq!(moves(&pos), "d4 f4 d5 f5 e6");
}

#[test]
fn diagonal_jump_when_a_wall_is_behind() {
    // e5h separates e5|e6: the straight jump is closed.
    let pos = setup("e4", "e5", "e5h", [10, 9], Player::One);
    assert_eq!(moves(&pos), "e3 d4 f4 d5 f5");
    assert_eq!(
        pos.play(act("e6")),
        Err(ActionError::WallInTheWay {
            from: sq("e5"),
            to: sq("e6"),
            target: sq("e6")
        })
    );
    // d5v separates d5|e5: the diagonal to d5 passes through it.
    let pos = setup("e4", "e5", "e5h d5v", [9, 9], Player::One);
    assert_eq!(moves(&pos), "e3 d4 f4 f5");
    assert_eq!(
        pos.play(act("d5")),
        Err(ActionError::WallInTheWay {
            from: sq("e5"),
            to: sq("d5"),
            target: sq("d5")
        })
    );
    // Player 2 jumping down onto a pawn with a wall below it.
    let pos = setup("e5", "e6", "d4h", [10, 9], Player::Two);
    assert_eq!(moves(&pos), "d5 f5 d6 f6 e7");
}

#[test]
fn diagonal_jump_at_the_board_edge() {
    // Jumping north from e8 over e9 would leave the board.
    let pos = setup("e8", "e9", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "e7 d8 f8 d9 f9");
    // Jumping west from b5 over a5.
    let pos = setup("b5", "a5", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "a4 b4 c5 a6 b6");
    // In the corner the jump has one side only: a8 over a9.
    let pos = setup("a8", "a9", "", [10, 10], Player::One);
    assert_eq!(moves(&pos), "a7 b8 b9");
    assert_eq!(
        pos.play(act("b7")),
        Err(ActionError::OutOfReach {
            from: sq("a8"),
            target: sq("b7")
        })
    );
    // Player 2 jumping down from e2 over e1 off the board.
    let pos = setup("e1", "e2", "", [10, 10], Player::Two);
    assert_eq!(moves(&pos), "d1 f1 d2 f2 e3");
}

#[test]
fn no_jump_through_a_wall() {
    // d4h separates d4|d5 and e4|e5: the pawns face each other through it.
    let pos = setup("e4", "e5", "d4h", [9, 10], Player::One);
    assert_eq!(moves(&pos), "e3 d4 f4");
    for target in ["e6", "d5", "f5"] {
        assert_eq!(
            pos.play(act(target)),
            Err(ActionError::WallInTheWay {
                from: sq("e4"),
                to: sq("e5"),
                target: sq(target)
            }),
            "{target}"
        );
    }
}

#[test]
fn reaching_the_goal_wins() {
    let pos = setup("e8", "a9", "", [10, 10], Player::One);
    let won = pos.play(act("e9")).unwrap();
    let expected = Status::Won {
        winner: Player::One,
        reason: EndReason::ReachedGoal,
    };
    assert_eq!(won.status(), expected);
    assert_eq!(Game::status(&won), expected);
    assert_eq!(EndReason::ReachedGoal.as_str(), "reached-goal");
    assert_eq!(won.winner(), Some(Player::One));
    assert_eq!(won.shortest_path(Player::One), Some(0));
    assert!(won.legal_actions().is_empty());
    assert_eq!(won.count_legal_actions(), 0);
    assert_eq!(won.perft(2), 0);
    assert_eq!(
        won.play(act("a8")),
        Err(ActionError::GameOver {
            winner: Player::One
        })
    );
    assert_eq!(Position::from_code(&won.to_code()), Ok(won));
    // Player 2 wins on rank 1, jumping diagonally onto it.
    let pos = setup("e1", "e2", "", [10, 10], Player::Two);
    assert_eq!(moves(&pos), "d1 f1 d2 f2 e3");
    let won = pos.play(act("d1")).unwrap();
    assert_eq!(won.winner(), Some(Player::Two));
}

// ---------------------------------------------------------------------------
// Walls

#[test]
fn walls_may_not_overlap() {
    let pos = setup("e1", "e9", "e3h", [9, 10], Player::Two);
    for other in ["d3h", "f3h"] {
        assert_eq!(
            pos.play(act(other)),
            Err(ActionError::WallOverlaps {
                wall: wall(other),
                other: wall("e3h")
            })
        );
    }
    assert_eq!(
        pos.play(act("e3h")),
        Err(ActionError::WallPlaced { wall: wall("e3h") })
    );
    let pos = setup("e1", "e9", "e3v", [9, 10], Player::Two);
    for other in ["e2v", "e4v"] {
        assert_eq!(
            pos.play(act(other)),
            Err(ActionError::WallOverlaps {
                wall: wall(other),
                other: wall("e3v")
            })
        );
    }
    // End to end is fine.
    let pos = setup("e1", "e9", "e3h", [9, 10], Player::Two);
    let both = pos.play(act("c3h")).unwrap().play(act("g3h")).unwrap();
    assert_eq!(both.walls(), walls("c3h e3h g3h"));
    assert_eq!(both.walls_left(Player::One), 8);
    assert_eq!(both.walls_left(Player::Two), 9);
}

#[test]
fn walls_may_not_cross() {
    let pos = setup("e1", "e9", "e3h", [9, 10], Player::Two);
    assert_eq!(
        pos.play(act("e3v")),
        Err(ActionError::WallCrosses {
            wall: wall("e3v"),
            other: wall("e3h")
        })
    );
    let pos = setup("e1", "e9", "e3v", [9, 10], Player::Two);
    assert_eq!(
        pos.play(act("e3h")),
        Err(ActionError::WallCrosses {
            wall: wall("e3h"),
            other: wall("e3v")
        })
    );
}

#[test]
fn t_junctions_are_legal() {
    // e3h runs from the corner d3/e3/d4/e4 to the corner f3/g3/f4/g4 through
    // its middle at e3/f3/e4/f4. d3v and f3v meet it at an end from their
    // middle; e2v and e4v meet its middle with one end.
    let pos = setup("e1", "e9", "e3h", [9, 10], Player::Two);
    let legal: Vec<Action> = pos.legal_actions();
    for t in ["d3v", "f3v", "e2v", "e4v"] {
        assert!(legal.contains(&act(t)), "{t}");
        let after = pos.play(act(t)).unwrap();
        assert!(after.has_wall(wall(t)));
    }
    // The walls that e3h excludes: d3h, e3h, f3h (overlap), e3v (cross).
    assert_eq!(legal.len(), 3 + 128 - 4);
}

#[test]
fn a_wall_leaving_exactly_one_path_is_legal() {
    // A barrier between ranks 4 and 5 from file a to h; adding g4h leaves
    // one gap, i4|i5, for both players.
    let pos = setup("e1", "e9", "a4h c4h e4h", [9, 8], Player::One);
    let after = pos.play(act("g4h")).unwrap();
    // e1 → e4 → i4 → i5 → i9: 3 + 4 + 1 + 4 steps; the same for player 2.
    assert_eq!(after.shortest_path(Player::One), Some(12));
    assert_eq!(after.shortest_path(Player::Two), Some(12));
    // The gap itself cannot be closed by a horizontal wall (h4h overlaps).
    assert_eq!(
        after.play(act("h4h")),
        Err(ActionError::WallOverlaps {
            wall: wall("h4h"),
            other: wall("g4h")
        })
    );
}

#[test]
fn a_wall_closing_the_last_path_is_illegal() {
    // The barrier plus h1v: the only way from ranks 1–4 to the gap runs
    // through h3|i3 or h4|i4; h3v closes it for player 1 only.
    let pos = setup("e1", "e9", "a4h c4h e4h g4h h1v", [8, 7], Player::Two);
    assert_eq!(
        pos.play(act("h3v")),
        Err(ActionError::WallCutsOff {
            wall: wall("h3v"),
            player: Player::One,
            square: sq("e1")
        })
    );
    assert!(!pos.legal_actions().contains(&act("h3v")));
    // h5v, above the gap, separates h5|i5 and h6|i6 but closes nothing.
    assert!(pos.legal_actions().contains(&act("h5v")));
    // Mirrored for player 2: h6v and h8v fence the i-file above the gap,
    // and h4v closes h5|i5 for player 2 only.
    let pos = setup("e1", "e9", "a4h c4h e4h g4h h6v h8v", [7, 7], Player::One);
    assert_eq!(
        pos.play(act("h4v")),
        Err(ActionError::WallCutsOff {
            wall: wall("h4v"),
            player: Player::Two,
            square: sq("e9")
        })
    );
    // A pocket in a corner: a1h over a1 and b1, then b1v shuts it.
    let pos = setup("a1", "e9", "a1h", [9, 10], Player::Two);
    assert_eq!(
        pos.play(act("b1v")),
        Err(ActionError::WallCutsOff {
            wall: wall("b1v"),
            player: Player::One,
            square: sq("a1")
        })
    );
    assert_eq!(pos.legal_actions().len(), 3 + 128 - 3 - 1);
}

#[test]
fn no_walls_left_means_moving_the_pawn() {
    let pos = setup(
        "e1",
        "e9",
        "a1h c1h e1v g1h a3h c3h e3v g3h a5h c5h",
        [0, 10],
        Player::One,
    );
    assert_eq!(
        pos.play(act("e7h")),
        Err(ActionError::NoWallsLeft {
            player: Player::One
        })
    );
    assert_eq!(
        pos.legal_actions(),
        pos.pawn_moves()
            .into_iter()
            .map(Action::Move)
            .collect::<Vec<_>>()
    );
    // e1v blocks e1|f1; d1 and e2 are open.
    assert_eq!(moves(&pos), "d1 e2");
}

// ---------------------------------------------------------------------------
// Setup checks

#[test]
fn invalid_setups_are_refused_precisely() {
    let e1 = sq("e1");
    let e9 = sq("e9");
    let one = Player::One;
    let from = |pawns: [Square; 2], w: &str, walls_left: [u8; 2], to_move: Player| {
        Position::from_setup(&Setup {
            pawns,
            walls: walls(w),
            walls_left,
            to_move,
        })
    };
    assert_eq!(
        from([e1, e1], "", [10, 10], one),
        Err(SetupError::PawnsOnOneSquare { square: e1 })
    );
    assert_eq!(
        from([e1, e9], "", [11, 9], one),
        Err(SetupError::TooManyWallsLeft {
            player: one,
            walls_left: 11
        })
    );
    assert_eq!(
        from([e1, e9], "e3h e3h", [9, 9], one),
        Err(SetupError::DuplicateWall { wall: wall("e3h") })
    );
    assert_eq!(
        from([e1, e9], "f3h e3h", [9, 9], one),
        Err(SetupError::OverlappingWalls {
            first: wall("e3h"),
            second: wall("f3h")
        })
    );
    assert_eq!(
        from([e1, e9], "e3v e3h", [9, 9], one),
        Err(SetupError::CrossingWalls {
            first: wall("e3h"),
            second: wall("e3v")
        })
    );
    assert_eq!(
        from([e1, e9], "e3h d5v", [10, 9], one),
        Err(SetupError::WallCount {
            placed: 2,
            left: 19
        })
    );
    assert_eq!(
        from([e1, e9], "", [10, 9], one),
        Err(SetupError::WallCount {
            placed: 0,
            left: 19
        })
    );
    assert_eq!(
        from([sq("e9"), sq("e8")], "", [10, 10], one),
        Err(SetupError::WinnerToMove {
            player: one,
            square: sq("e9")
        })
    );
    assert_eq!(
        from([sq("a1"), e9], "a1h b1v", [9, 9], Player::Two),
        Err(SetupError::NoPath {
            player: one,
            square: sq("a1")
        })
    );
    assert_eq!(
        from([e1, sq("i9")], "h8h g8v", [9, 9], one),
        Err(SetupError::NoPath {
            player: Player::Two,
            square: sq("i9")
        })
    );
    // The messages name the problem.
    let e = from([e1, e9], "e3h d5v", [10, 9], one).unwrap_err();
    assert_eq!(
        e.to_string(),
        "2 walls placed and 19 left make 21, but a two-player game has 20 walls"
    );
    // The issue's example is valid.
    let pos = from([e1, e9], "e3h d5v", [10, 8], one).unwrap();
    assert_eq!(pos.walls(), walls("e3h d5v"));
    // A finished game is a position (player 1 won, player 2 to move).
    let won = from([sq("e9"), sq("e8")], "", [10, 10], Player::Two).unwrap();
    assert_eq!(won.winner(), Some(one));
}

// ---------------------------------------------------------------------------
// State code

fn code_of(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn start_code_is_the_documented_bytes() {
    // e1 = 4, e9 = 76, walls left 10 | 10 = 0xaa, empty wall map.
    let mut bytes = vec![4, 76, 0xaa];
    bytes.extend([0; 16]);
    let code = code_of(&bytes);
    assert_eq!(code, "BEyqAAAAAAAAAAAAAAAAAAAAAA");
    assert_eq!(code.len(), CODE_LENGTH);
    assert_eq!(Position::start().to_code(), code);
    assert_eq!(Position::from_code(&code), Ok(Position::start()));
}

#[test]
fn code_of_the_issue_example() {
    // Player 2 to move (bit 7 of byte 0); e3h: anchor 2·8 + 4 = 20 → byte
    // 3 + 5, bits 0–1 = 1; d5v: anchor 4·8 + 3 = 35 → byte 3 + 8, bits 6–7
    // = 2.
    let pos = Position::from_setup(&Setup {
        pawns: [sq("e2"), sq("e9")],
        walls: walls("e3h d5v"),
        walls_left: [8, 10],
        to_move: Player::Two,
    })
    .unwrap();
    let mut bytes = vec![0x80 | 13, 76, 0x8a];
    bytes.extend([0; 16]);
    bytes[3 + 5] = 0b01;
    bytes[3 + 8] = 0b10 << 6;
    assert_eq!(pos.to_code(), code_of(&bytes));
    assert_eq!(Position::from_code(&code_of(&bytes)), Ok(pos));
}

#[test]
fn bad_codes_are_refused_precisely() {
    let start = {
        let mut b = vec![4, 76, 0xaa];
        b.extend([0; 16]);
        b
    };
    let with = |i: usize, v: u8| {
        let mut b = start.clone();
        b[i] = v;
        code_of(&b)
    };
    assert_eq!(
        Position::from_code(""),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "quoridor",
            length: 0,
            expected: Some(CODE_LENGTH)
        }))
    );
    assert_eq!(
        Position::from_code("BEyq="),
        Err(CodeError::Syntax(SyntaxError::Padding { offset: 4 }))
    );
    assert_eq!(
        Position::from_code("BEyq+AAA"),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 4,
            character: '+'
        }))
    );
    assert_eq!(
        Position::from_code("BEyq"),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "quoridor",
            length: 4,
            expected: Some(CODE_LENGTH)
        }))
    );
    // 26 characters carry 156 bits; the last 4 must be zero.
    assert_eq!(
        Position::from_code("BEyqAAAAAAAAAAAAAAAAAAAAAB"),
        Err(CodeError::Syntax(SyntaxError::TrailingBits {
            offset: 25,
            character: 'B',
            bytes: Some(19)
        }))
    );
    assert_eq!(
        Position::from_code(&with(1, 0x80 | 76)),
        Err(CodeError::ReservedBit { byte: 0x80 | 76 })
    );
    assert_eq!(
        Position::from_code(&with(0, 81)),
        Err(CodeError::PawnSquare {
            player: Player::One,
            value: 81
        })
    );
    assert_eq!(
        Position::from_code(&with(1, 127)),
        Err(CodeError::PawnSquare {
            player: Player::Two,
            value: 127
        })
    );
    assert_eq!(
        Position::from_code(&with(3 + 5, 0b11)),
        Err(CodeError::WallSlot { anchor: sq("e3") })
    );
    assert_eq!(
        Position::from_code(&with(2, 0xb9)),
        Err(CodeError::Setup(SetupError::TooManyWallsLeft {
            player: Player::One,
            walls_left: 11
        }))
    );
    assert_eq!(
        Position::from_code(&with(1, 4)),
        Err(CodeError::Setup(SetupError::PawnsOnOneSquare {
            square: sq("e1")
        }))
    );
    // e3h and f3h (anchors 20 and 21) overlap.
    let mut b = start.clone();
    b[2] = 0x99;
    b[3 + 5] = 0b0101;
    assert_eq!(
        Position::from_code(&code_of(&b)),
        Err(CodeError::Setup(SetupError::OverlappingWalls {
            first: wall("e3h"),
            second: wall("f3h")
        }))
    );
    // A wall whose count is not taken from anyone.
    assert_eq!(
        Position::from_code(&with(3, 1)),
        Err(CodeError::Setup(SetupError::WallCount {
            placed: 1,
            left: 20
        }))
    );
    // Every error has a message.
    assert!(Position::from_code(&with(3 + 5, 0b11))
        .unwrap_err()
        .to_string()
        .contains("e3"));
}

#[test]
fn notation_round_trips() {
    for s in Square::all() {
        assert_eq!(
            Action::Move(s).to_string().parse::<Action>(),
            Ok(Action::Move(s))
        );
    }
    for w in Wall::all() {
        assert_eq!(w.to_string().parse::<Action>(), Ok(Action::Wall(w)));
    }
    for bad in ["", "e", "e10", "i9h", "a9v", "e3x", "j1", "e2 "] {
        assert!(bad.parse::<Action>().is_err(), "{bad:?}");
    }
}
