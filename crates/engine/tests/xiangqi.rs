//! Xiangqi search: exact mate distances on published problems, a hanging
//! chariot taken, a forbidden perpetual check refused, the same answer for
//! the same node limit, distinct multi-PV lines, the levels, a searcher
//! that keeps its table still exact, and a property test that no search
//! returns an illegal move.

use proptest::prelude::*;
use qipan_engine::xiangqi::{accepts_draw, analyse, choose, Engine, Score};
use qipan_engine::{Level, Limits};
use qipan_rules::rng::SplitMix64;
use qipan_rules::xiangqi::{Counters, Fen, History, Move, Position};
use qipan_rules::Status;

fn game(fen: &str) -> History {
    History::from(fen.parse::<Fen>().unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

/// The problems of `tests/data/xiangqi-mates.txt`: moves to mate, FEN.
fn mates() -> Vec<(i32, String)> {
    include_str!("data/xiangqi-mates.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].parse().unwrap(), cols[2].to_owned())
        })
        .collect()
}

#[test]
fn finds_every_mate_in_one_two_and_three_at_its_exact_distance() {
    let all = mates();
    assert_eq!(all.len(), 33);
    for (n, fen) in all {
        let g = game(&fen);
        let a = analyse(&g, &Limits::nodes(400_000), 1);
        let line = &a.lines[0];
        assert_eq!(line.score, Score::Mate(n), "{fen}: {:?}", line.pv);
        // The first move keeps the mate: after it the defender is mated
        // in n - 1 (or is mated already).
        let mut after = g.clone();
        after.push(line.pv[0]).unwrap();
        if n == 1 {
            assert!(
                matches!(after.verdict(), Status::Won { .. }),
                "{fen}: {} does not mate",
                line.pv[0]
            );
        } else {
            let reply = analyse(&after, &Limits::nodes(400_000), 1);
            assert_eq!(
                reply.lines[0].score,
                Score::Mate(-(n - 1)),
                "{fen} after {}",
                line.pv[0]
            );
        }
    }
}

/// One `Engine` through all the problems and the defences after its moves:
/// what its table keeps from one search does not spoil the next.
#[test]
fn a_searcher_that_keeps_its_table_finds_every_mate_at_its_exact_distance() {
    let mut engine = Engine::new();
    for (n, fen) in mates() {
        let g = game(&fen);
        let a = engine.analyse(&g, &Limits::nodes(400_000), 1);
        let line = &a.lines[0];
        assert_eq!(line.score, Score::Mate(n), "{fen}: {:?}", line.pv);
        if n > 1 {
            let mut after = g.clone();
            after.push(line.pv[0]).unwrap();
            let reply = engine.analyse(&after, &Limits::nodes(400_000), 1);
            assert_eq!(reply.lines[0].score, Score::Mate(-(n - 1)), "{fen}");
        }
    }
}

#[test]
fn takes_a_hanging_chariot() {
    // The black chariot on c2 stands where the b0 horse takes it, and
    // nothing of black's guards it.
    let g = game("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1Cr4C1/9/RNBAKABNR w - - 0 1");
    let a = analyse(&g, &Limits::nodes(100_000), 1);
    assert_eq!(a.best(), Some(&mv("b0c2")));
    match a.lines[0].score {
        Score::Centipawns(c) => assert!(c > 500, "{c}"),
        Score::Mate(m) => panic!("mate {m}?"),
    }
}

/// Red checks with the chariot on i9 and i8 while the black general steps
/// between e9 and e8, twice round: one more check from i9 brings the
/// position round a third time with every red move a check.
fn perpetual_check() -> History {
    let start: Fen = "4k4/9/1n7/9/r8/9/2P3P2/9/8R/3K5 w - - 0 1".parse().unwrap();
    let moves: Vec<Move> = "i1i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9"
        .split(' ')
        .map(mv)
        .collect();
    History::with_moves(start.position, start.counters, &moves).unwrap()
}

#[test]
fn refuses_a_forbidden_perpetual_check() {
    let g = perpetual_check();
    assert_eq!(g.verdict(), Status::Ongoing);
    let a = analyse(&g, &Limits::nodes(200_000), 40);
    assert_ne!(a.best(), Some(&mv("i8i9")));
    let repeat = a
        .lines
        .iter()
        .find(|l| l.pv[0] == mv("i8i9"))
        .expect("every move is listed");
    assert_eq!(repeat.score, Score::Mate(-1), "repeating the check loses");
    // Without the history the same check is a move like any other.
    let fresh = History::new(g.position().clone(), Counters::default());
    let b = analyse(&fresh, &Limits::nodes(200_000), 40);
    let check = b.lines.iter().find(|l| l.pv[0] == mv("i8i9")).unwrap();
    assert!(!check.score.is_mate(), "{:?}", check.score);
}

#[test]
fn lets_the_opponent_lose_by_its_perpetual_check() {
    // Black to move in the same cycle, one ply earlier: the check i8i9
    // would lose for red, so black's e8e9 (into the cycle) is no danger,
    // and black's search sees red's repetition as red's loss.
    let start: Fen = "4k4/9/1n7/9/r8/9/2P3P2/9/8R/3K5 w - - 0 1".parse().unwrap();
    let moves: Vec<Move> = "i1i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8"
        .split(' ')
        .map(mv)
        .collect();
    let g = History::with_moves(start.position, start.counters, &moves).unwrap();
    let mut after = g.clone();
    after.push(mv("e8e9")).unwrap();
    let red = analyse(&after, &Limits::nodes(100_000), 40);
    let check = red.lines.iter().find(|l| l.pv[0] == mv("i8i9")).unwrap();
    assert_eq!(check.score, Score::Mate(-1));
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    let g = game("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3");
    let a = analyse(&g, &Limits::nodes(60_000), 3);
    let b = analyse(&g, &Limits::nodes(60_000), 3);
    assert_eq!(a.lines, b.lines);
    assert_eq!((a.depth, a.nodes), (b.depth, b.nodes));
    assert_eq!(a.nodes, 60_000);
    assert!(a.depth >= 4, "{}", a.depth);
}

#[test]
fn multi_pv_lines_have_distinct_first_moves_best_first() {
    let g = History::new(Position::start(), Counters::default());
    let a = analyse(&g, &Limits::nodes(150_000), 5);
    assert_eq!(a.lines.len(), 5);
    let mut firsts: Vec<Move> = a.lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 5);
    for w in a.lines.windows(2) {
        let (x, y) = (&w[0].score, &w[1].score);
        match (x, y) {
            (Score::Centipawns(x), Score::Centipawns(y)) => assert!(x >= y, "{x} {y}"),
            other => panic!("{other:?}"),
        }
    }
    // Asking for more lines than moves gives every move once.
    let few = game("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    let all = analyse(&few, &Limits::nodes(20_000), 10);
    assert_eq!(all.lines.len(), few.position().legal_actions().len());
}

#[test]
fn a_finished_game_has_no_lines_and_no_move() {
    // Black is mated: the chariot on e8 guarded from e7, d9 on the red
    // general's open file, f9 under the horse.
    let g = game("4k4/4R4/4R1N2/9/9/9/9/9/9/3K5 b - - 0 1");
    assert!(matches!(g.verdict(), Status::Won { .. }));
    assert!(analyse(&g, &Limits::nodes(1_000), 3).lines.is_empty());
    assert_eq!(choose(&g, Level::MAX, 1, &Limits::nodes(1_000)), None);
    assert!(!accepts_draw(&g, &Limits::nodes(1_000)));
}

#[test]
fn levels_play_legal_moves_and_the_weakest_vary_with_the_seed() {
    let g = History::new(Position::start(), Counters::default());
    let mut weakest = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let m = choose(&g, Level::MIN, seed, &Limits::nodes(20_000)).unwrap();
        assert!(g.position().is_legal(m));
        weakest.insert(m);
    }
    assert!(weakest.len() > 2, "{weakest:?}");
    let limits = Limits::nodes(40_000);
    let best = analyse(&g, &limits, 1).best().copied();
    assert_eq!(choose(&g, Level::MAX, 7, &limits), best);
    // Every level takes a mate in one.
    let (_, fen) = &mates()[0];
    let m1 = game(fen);
    for level in 1..=10 {
        let m = choose(&m1, Level::new(level).unwrap(), 3, &Limits::nodes(20_000)).unwrap();
        let mut after = m1.clone();
        after.push(m).unwrap();
        assert!(
            matches!(after.verdict(), Status::Won { .. }),
            "level {level}"
        );
    }
}

#[test]
fn accepts_a_draw_only_when_not_ahead() {
    // Red has a chariot against a bare general.
    let winning = game("4k4/9/9/9/9/9/9/9/R8/3K5 b - - 0 1");
    assert!(accepts_draw(&winning, &Limits::nodes(20_000)));
    let red = game("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    assert!(!accepts_draw(&red, &Limits::nodes(20_000)));
}

/// A position after `plies` random moves from the start.
fn playout(seed: u64, plies: usize) -> History {
    let mut rng = SplitMix64(seed);
    let mut g = History::new(Position::start(), Counters::default());
    for _ in 0..plies {
        if g.verdict() != Status::Ongoing {
            break;
        }
        let moves = g.position().legal_actions();
        let m = moves[rng.below(moves.len() as u32) as usize];
        g.push(m).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_best_move_and_every_line_are_legal(seed in any::<u64>(), plies in 0usize..80) {
        let g = playout(seed, plies);
        let a = analyse(&g, &Limits::nodes(4_000), 2);
        if g.verdict() != Status::Ongoing {
            prop_assert!(a.lines.is_empty());
        } else {
            prop_assert!(!a.lines.is_empty());
            for line in &a.lines {
                let mut h = g.clone();
                for &m in &line.pv {
                    prop_assert!(h.push(m).is_ok(), "{} in {:?}", m, line.pv);
                }
            }
        }
    }
}
