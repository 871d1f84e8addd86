//! The move generator's quick legality against the plain definition.
//!
//! `legal_actions`, `status` and `perft_count` judge most moves from one
//! look around the mover's general per position (pieces between it and a
//! chariot, cannon or general, horse legs, the empty points in front of a
//! cannon), and play out only the moves that look cannot settle. `play` keeps
//! the plain definition: make the move, look for any attack on the mover's
//! general. These properties check that both agree, move for move, on
//! positions reached by random play from the start and from every position
//! of `tests/data/xiangqi.perft` (composed to exercise pins, screens, legs,
//! checks and facing generals) and `tests/data/xiangqi-middlegame.perft`.
//! Games are played three ways: uniformly, preferring captures (sparser
//! boards, open lines) and preferring checks (the evasion path).

use std::collections::BTreeSet;

use proptest::prelude::*;
use qipan_rules::xiangqi::{Move, Position, Square};
use qipan_rules::{Game, Status};

/// The positions games start from: the start and every FEN of the perft
/// data files.
fn openings() -> Vec<Position> {
    let files = [
        include_str!("data/xiangqi.perft"),
        include_str!("data/xiangqi-middlegame.perft"),
    ];
    let mut all = vec![Position::start()];
    for line in files.iter().flat_map(|text| text.lines()) {
        if let Some(fen) = line.strip_prefix("fen ") {
            let pos = Position::from_fen(fen.trim()).unwrap_or_else(|e| panic!("{fen}: {e}"));
            all.push(pos);
        }
    }
    assert!(all.len() > 20, "the perft data file lost its positions");
    all
}

/// Which moves a random game prefers, when it has any.
#[derive(Debug, Clone, Copy)]
enum Prefer {
    Any,
    Captures,
    Checks,
}

/// One random game: the opening it starts from (an index, taken modulo the
/// number of openings), the moves it prefers, and each ply's choice.
#[derive(Debug, Clone)]
struct Walk {
    opening: usize,
    prefer: Prefer,
    choices: Vec<usize>,
}

fn walk(max_plies: usize) -> impl Strategy<Value = Walk> {
    (
        any::<usize>(),
        prop_oneof![
            Just(Prefer::Any),
            Just(Prefer::Captures),
            Just(Prefer::Checks)
        ],
        proptest::collection::vec(any::<usize>(), 0..=max_plies),
    )
        .prop_map(|(opening, prefer, choices)| Walk {
            opening,
            prefer,
            choices,
        })
}

/// The legal moves by the plain definition: every move of a piece of the
/// side to move to any other point that `play` accepts.
fn plain_legal(pos: &Position) -> BTreeSet<Move> {
    let mut moves = BTreeSet::new();
    for (from, piece) in pos.pieces() {
        if piece.side != pos.turn() {
            continue;
        }
        for to in Square::all().filter(|&t| t != from) {
            let m = Move { from, to };
            if pos.play(m).is_ok() {
                moves.insert(m);
            }
        }
    }
    moves
}

/// Every position of the game, its opening first; the moves are drawn from
/// the plain legal moves so that no quick path chooses them.
fn play_out(openings: &[Position], g: &Walk) -> Vec<(Position, BTreeSet<Move>)> {
    let mut pos = openings[g.opening % openings.len()].clone();
    let mut path = Vec::new();
    for &choice in &g.choices {
        let legal = plain_legal(&pos);
        let moves: Vec<Move> = legal.iter().copied().collect();
        path.push((pos.clone(), legal));
        if moves.is_empty() {
            return path;
        }
        let preferred: Vec<Move> = match g.prefer {
            Prefer::Any => Vec::new(),
            Prefer::Captures => moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to).is_some())
                .collect(),
            Prefer::Checks => moves
                .iter()
                .copied()
                .filter(|&m| pos.play(m).is_ok_and(|next| next.is_check()))
                .collect(),
        };
        let pool = if preferred.is_empty() {
            &moves
        } else {
            &preferred
        };
        let m = pool[choice % pool.len()];
        pos = pos
            .play(m)
            .unwrap_or_else(|e| panic!("{m} was found legal in {pos:?}: {e}"));
    }
    let legal = plain_legal(&pos);
    path.push((pos, legal));
    path
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// legal_actions is exactly the plain legal set at every position, with
    /// no move twice; perft 1 counts it and the status follows from it.
    #[test]
    fn quick_legality_agrees_with_playing_the_move(g in walk(60)) {
        let openings = openings();
        for (pos, plain) in play_out(&openings, &g) {
            let quick = pos.legal_actions();
            let set: BTreeSet<Move> = quick.iter().copied().collect();
            prop_assert_eq!(set.len(), quick.len(), "a move twice in {:?}", pos);
            prop_assert_eq!(&set, &plain, "{:?}", pos);
            for &m in &quick {
                prop_assert!(pos.is_legal(m));
            }
            prop_assert_eq!(pos.perft_count(1), plain.len() as u64, "{:?}", pos);
            prop_assert_eq!(pos.status() == Status::Ongoing, !plain.is_empty(), "{:?}", pos);
        }
    }

    /// perft 2 (bulk counting at the last ply, quick legality at both)
    /// equals the sum by the plain definition, and the divide splits it
    /// move by move.
    #[test]
    fn perft_agrees_with_the_plain_definition(g in walk(40)) {
        let openings = openings();
        let path = play_out(&openings, &g);
        for (pos, plain) in path.iter().rev().step_by(10) {
            let mut divide = Vec::new();
            for &m in plain {
                let next = pos.play(m).expect("plain legal");
                divide.push((m, plain_legal(&next).len() as u64));
            }
            let plain2: u64 = divide.iter().map(|&(_, n)| n).sum();
            prop_assert_eq!(pos.perft_count(2), plain2, "{:?}", pos);
            prop_assert_eq!(Game::perft(pos, 2), plain2);
            let mut got = pos.perft_divide(2);
            got.sort();
            prop_assert_eq!(got, divide, "{:?}", pos);
        }
    }
}

/// A chariot that is one of the two pieces between its general and an
/// enemy cannon may slide along the line but not take the other piece:
/// that would leave one screen. Red general e0, chariot e2, black soldier e4
/// and cannon e6; Pikafish (`go perft 1`) lists exactly these four moves.
#[test]
fn a_screen_may_not_take_the_other_screen() {
    let pos = Position::from_fen("3k5/9/9/4c4/9/4p4/9/4R4/9/4K4 w").expect("valid");
    let mut moves: Vec<String> = pos.legal_actions().iter().map(Move::to_string).collect();
    moves.sort();
    assert_eq!(moves, ["e0e1", "e0f0", "e2e1", "e2e3"]);
}
