//! Quoridor search: exact expectations on an immediate win and a block,
//! whole games against a shortest-path runner from both seats, and a
//! property test that no search returns an illegal action.

use proptest::prelude::*;
use qipan_engine::quoridor::{accepts_draw, analyse, choose, Score};
use qipan_engine::{Level, Limits};
use qipan_rules::quoridor::{Action, Player, Position, Setup, Square};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

/// The runner: always steps to the neighbouring square that leaves it the
/// shortest path (the first such in the rules' order), never a wall.
fn runner_move(pos: &Position) -> Action {
    let me = pos.turn();
    let best = pos
        .pawn_moves()
        .into_iter()
        .min_by_key(|&s| {
            let next = pos.play(Action::Move(s)).unwrap();
            if next.winner() == Some(me) {
                0
            } else {
                u32::from(next.shortest_path(me).unwrap()) + 1
            }
        })
        .unwrap();
    Action::Move(best)
}

/// Plays the engine (at full strength, `nodes` per move) against the
/// runner; the winner and the number of plies.
fn game(engine: Player, nodes: u64) -> (Player, usize) {
    let mut pos = Position::start();
    for ply in 0..300 {
        if let Some(w) = pos.winner() {
            return (w, ply);
        }
        let a = if pos.turn() == engine {
            choose(&pos, Level::MAX, 1, &Limits::nodes(nodes)).unwrap()
        } else {
            runner_move(&pos)
        };
        pos = pos.play(a).unwrap_or_else(|e| panic!("ply {ply} {a}: {e}"));
    }
    panic!("no winner in 300 plies");
}

#[test]
fn beats_the_shortest_path_runner_from_both_seats() {
    for engine in Player::ALL {
        let (winner, plies) = game(engine, 4_000);
        assert_eq!(
            winner, engine,
            "engine as player {engine} lost in {plies} plies"
        );
    }
}

#[test]
fn takes_an_immediate_win() {
    let pos = Position::from_setup(&Setup {
        pawns: [sq("c8"), sq("g2")],
        walls: Vec::new(),
        walls_left: [10, 10],
        to_move: Player::One,
    })
    .unwrap();
    let a = analyse(&pos, &Limits::nodes(5_000), 3);
    assert_eq!(a.lines[0].pv[0], Action::Move(sq("c9")));
    assert_eq!(a.lines[0].score, Score::Win(1));
    for level in 1..=10 {
        assert_eq!(
            choose(&pos, Level::new(level).unwrap(), 5, &Limits::nodes(5_000)),
            Some(Action::Move(sq("c9"))),
            "level {level}"
        );
    }
    assert!(!accepts_draw(&pos, &Limits::nodes(5_000)));
}

#[test]
fn a_draw_is_welcome_in_a_lost_race() {
    // Player 1 on a1 (8 steps), player 2 on e2 (one step from rank 1),
    // neither with a wall left: nothing stops player 2.
    let walls = [
        "a2h", "c2h", "e3h", "g3h", "a4h", "c4h", "e5h", "g5h", "a6h", "c6h", "e7h", "g7h", "a8h",
        "c8h", "e1v", "g1v", "b5v", "d5v", "f5v", "h4v",
    ];
    let setup = Setup {
        pawns: [sq("a1"), sq("e2")],
        walls: walls.iter().map(|w| w.parse().unwrap()).collect(),
        walls_left: [0, 0],
        to_move: Player::One,
    };
    let pos = Position::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"));
    let a = analyse(&pos, &Limits::nodes(5_000), 1);
    assert!(
        matches!(a.lines[0].score, Score::Loss(_)),
        "{}",
        a.lines[0].score
    );
    assert!(accepts_draw(&pos, &Limits::nodes(5_000)));
}

#[test]
fn blocks_a_runner_about_to_win() {
    // Player 2 on e2 wins next move on e1; player 1 is six steps away and
    // only a wall saves it.
    let pos = Position::from_setup(&Setup {
        pawns: [sq("a3"), sq("e2")],
        walls: Vec::new(),
        walls_left: [10, 10],
        to_move: Player::One,
    })
    .unwrap();
    let a = analyse(&pos, &Limits::nodes(20_000), 1);
    let m = a.lines[0].pv[0];
    assert!(matches!(m, Action::Wall(_)), "{m}");
    let after = pos.play(m).unwrap();
    assert!(
        after.pawn_moves().iter().all(|s| s.rank() != 0),
        "{m} leaves e2 a step to rank 1"
    );
}

fn random_position(seed: u64, plies: usize) -> Position {
    let mut pos = Position::start();
    let mut s = seed;
    for _ in 0..plies {
        let legal = pos.legal_actions();
        if legal.is_empty() {
            break;
        }
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let next = pos.play(legal[(s >> 33) as usize % legal.len()]).unwrap();
        if next.winner().is_some() {
            break;
        }
        pos = next;
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn searches_never_return_an_illegal_action(seed in any::<u64>(), plies in 0usize..40, level in 1u8..=10, lines in 1usize..4) {
        let pos = random_position(seed, plies);
        let a = analyse(&pos, &Limits::nodes(1_500), lines);
        prop_assert!(!a.lines.is_empty());
        for l in &a.lines {
            let mut p = pos;
            for &m in &l.pv {
                p = p.play(m).map_err(|e| TestCaseError::fail(format!("{}: {m}: {e}", pos.to_code())))?;
            }
        }
        let m = choose(&pos, Level::new(level).unwrap(), seed, &Limits::nodes(1_500)).unwrap();
        prop_assert!(pos.play(m).is_ok(), "{} {m}", pos.to_code());
    }
}

#[test]
fn scores_read_as_path_differences() {
    assert_eq!(Score::Eval(150).to_string(), "+1.50");
    assert_eq!(Score::Eval(-205).to_string(), "-2.05");
    assert_eq!(Score::Eval(0).to_string(), "+0.00");
    assert_eq!(Score::Win(3).to_string(), "win in 3");
    assert_eq!(Score::Loss(4).to_string(), "loss in 4");
}

/// A depth limit holds however many nodes are allowed.
#[test]
fn a_depth_limit_caps_the_search() {
    let limits = Limits {
        nodes: Some(2_000_000),
        depth: Some(3),
        ..Limits::default()
    };
    assert_eq!(analyse(&Position::start(), &limits, 1).depth, 3);
}
