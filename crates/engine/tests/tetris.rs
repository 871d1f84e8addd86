//! Tetris search: an exact expectation (a tetris when one is there),
//! determinism under a node limit, and property tests that every
//! placement a search returns plays out legally, ending in `hard`.

use proptest::prelude::*;
use qipan_engine::tetris::{analyse, attack, choose, Score};
use qipan_engine::{Level, Limits};
use qipan_rules::tetris::{Action, Kind, Placement, Position, Setup};

fn setup(rows: &[&str], piece: Kind, queue: &[Kind], hold: Option<Kind>, seed: u64) -> Setup {
    Setup {
        rows: rows.iter().map(|r| (*r).to_owned()).collect(),
        piece,
        queue: queue.to_vec(),
        hold,
        seed,
        score: 0,
        lines: 0,
        level: None,
    }
}

/// Plays a placement's path: the position after it and the lines its lock
/// cleared. Panics when any action is refused or the path does not lock
/// exactly at its end.
fn play_out(pos: &Position, p: &Placement) -> (Position, u8) {
    assert_eq!(p.actions.last(), Some(&Action::Hard), "{p:?}");
    let mut cur = pos.clone();
    let mut cleared = None;
    for (i, &a) in p.actions.iter().enumerate() {
        let (next, lock) = cur.play_traced(a).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        if let Some(lock) = lock {
            assert_eq!(i + 1, p.actions.len(), "locked before the end: {p:?}");
            assert_eq!(lock.cells, p.cells);
            cleared = Some(lock.lines);
        }
        cur = next;
    }
    (cur, cleared.expect("the path locks"))
}

#[test]
fn takes_the_tetris_that_is_there() {
    let rows = ["XXXXXXXXX.", "XXXXXXXXX.", "XXXXXXXXX.", "XXXXXXXXX."];
    use Kind::*;
    let p = Position::from_setup(&setup(&rows, I, &[O, T, S, Z, L], None, 3)).unwrap();
    for nodes in [1, 2_000, 20_000] {
        let a = analyse(&p, &Limits::nodes(nodes), 3);
        let best = a.lines[0].pv[0].clone();
        let (after, lines) = play_out(&p, &best);
        assert_eq!(lines, 4, "{nodes} nodes: {best:?}");
        assert_eq!(after.lines(), 4);
        assert!(matches!(a.lines[0].score, Score::Eval(_)));
    }
}

#[test]
fn holds_for_the_tetris_when_the_piece_in_hand_cannot_make_it() {
    let rows = ["XXXXXXXXX.", "XXXXXXXXX.", "XXXXXXXXX.", "XXXXXXXXX."];
    use Kind::*;
    let p = Position::from_setup(&setup(&rows, O, &[S, Z, T, J, L], Some(I), 3)).unwrap();
    // One piece deep: the tetris now, by holding, is the best there is.
    // (Deeper, placing the O first and holding later is as good.)
    let limits = Limits {
        depth: Some(1),
        ..Limits::nodes(20_000)
    };
    let a = analyse(&p, &limits, 1);
    let best = &a.lines[0].pv[0];
    assert_eq!(best.actions.first(), Some(&Action::Hold));
    assert_eq!(best.kind, I);
    assert_eq!(play_out(&p, best).1, 4);
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    let mut p = Position::new(21);
    for _ in 0..4 {
        let a = analyse(&p, &Limits::nodes(3_000), 3);
        let b = analyse(&p, &Limits::nodes(3_000), 3);
        assert_eq!((&a.lines, a.depth, a.nodes), (&b.lines, b.depth, b.nodes));
        for level in [1, 6, 10] {
            let l = Level::new(level).unwrap();
            assert_eq!(
                choose(&p, l, 4, &Limits::nodes(1_000)),
                choose(&p, l, 4, &Limits::nodes(1_000))
            );
        }
        p = play_out(&p, &a.lines[0].pv[0]).0;
    }
}

#[test]
fn a_line_plays_out_piece_after_piece() {
    let p = Position::new(8);
    let a = analyse(&p, &Limits::nodes(20_000), 2);
    assert!(a.depth >= 2, "{}", a.depth);
    for line in &a.lines {
        let mut cur = p.clone();
        for placement in &line.pv {
            cur = play_out(&cur, placement).0;
        }
    }
}

#[test]
fn a_finished_game_has_no_lines() {
    let mut p = Position::new(1);
    while p.status().is_ongoing() {
        p = p.play(Action::Hard).unwrap();
    }
    assert!(analyse(&p, &Limits::nodes(100), 2).lines.is_empty());
    assert_eq!(choose(&p, Level::MAX, 0, &Limits::nodes(100)), None);
    let mut b2b = false;
    assert_eq!(attack(4, None, &mut b2b), 4);
}

fn kind() -> impl Strategy<Value = Kind> {
    (0usize..7).prop_map(|i| Kind::ALL[i])
}

fn row() -> impl Strategy<Value = String> {
    // Rows with 0 to 9 cells filled, never full.
    (any::<u16>(), 0u32..10).prop_map(|(bits, keep)| {
        let mut cells: Vec<bool> = (0..10).map(|c| bits >> c & 1 == 1).collect();
        let filled = cells.iter().filter(|&&x| x).count() as u32;
        if filled > keep {
            let mut extra = filled - keep;
            for c in cells.iter_mut() {
                if extra > 0 && *c {
                    *c = false;
                    extra -= 1;
                }
            }
        }
        cells.iter().map(|&x| if x { 'X' } else { '.' }).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    #[test]
    fn searches_return_only_legal_placements(
        rows in proptest::collection::vec(row(), 0..19),
        piece in kind(),
        queue in proptest::collection::vec(kind(), 5),
        hold in proptest::option::of(kind()),
        seed in any::<u64>(),
        nodes in 1u64..800,
        level in 1u8..=10,
        lines in 1usize..4,
    ) {
        let s = setup(
            &rows.iter().map(String::as_str).collect::<Vec<_>>(),
            piece,
            &queue,
            hold,
            seed,
        );
        let Ok(p) = Position::from_setup(&s) else {
            return Ok(());
        };
        let a = analyse(&p, &Limits::nodes(nodes), lines);
        prop_assert!(!a.lines.is_empty());
        prop_assert!(a.lines.len() <= lines);
        for l in &a.lines {
            let mut cur = p.clone();
            for (i, placement) in l.pv.iter().enumerate() {
                if i > 0 && !cur.status().is_ongoing() {
                    break;
                }
                cur = play_out(&cur, placement).0;
            }
        }
        let c = choose(&p, Level::new(level).unwrap(), seed, &Limits::nodes(nodes));
        let c = c.expect("a placement while the game goes on");
        play_out(&p, &c);
    }
}
