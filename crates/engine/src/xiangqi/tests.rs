//! The search's board against the rules crate: the same legal moves and
//! the same perft counts on positions from random games, make and unmake
//! giving back the same board, the evaluation turned round, and no check
//! missed by the quick look for moves that may check.

use qipan_rules::rng::SplitMix64;
use qipan_rules::xiangqi::{Position, Setup};

use super::board::Board;
use super::eval::evaluate;

fn perft(b: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = b.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let u = b.make(m);
            let n = perft(b, depth - 1);
            b.unmake(u);
            n
        })
        .sum()
}

/// Positions from seeded random games, every ply of them.
fn random_positions(games: u64, plies: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = SplitMix64(seed);
        let mut p = Position::start();
        for _ in 0..plies {
            let moves = p.legal_actions();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so that the games thin out.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| p.piece_at(m.to).is_some())
                .collect();
            let pool = if !captures.is_empty() && rng.below(2) == 0 {
                captures
            } else {
                moves
            };
            let m = pool[rng.below(pool.len() as u32) as usize];
            p = p.play(m).expect("a generated move is legal");
            out.push(p.clone());
        }
    }
    out
}

#[test]
fn legal_moves_agree_with_the_rules_crate_on_random_games() {
    let positions = random_positions(60, 120);
    assert!(positions.len() > 5_000, "{}", positions.len());
    for p in &positions {
        let mut b = Board::new(p);
        let mut ours: Vec<String> = b
            .legal_moves()
            .iter()
            .map(|m| m.public().to_string())
            .collect();
        let mut theirs: Vec<String> = p.legal_actions().iter().map(|m| m.to_string()).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{}", p.to_fen());
        assert_eq!(b.in_check(), p.is_check(), "{}", p.to_fen());
    }
}

#[test]
fn perft_matches_the_rules_crate() {
    let positions = random_positions(8, 60);
    for p in positions.iter().step_by(15) {
        let mut b = Board::new(p);
        assert_eq!(perft(&mut b, 3), p.perft_count(3), "{}", p.to_fen());
    }
    let mut b = Board::new(&Position::start());
    assert_eq!(perft(&mut b, 3), 79_666);
}

#[test]
fn make_and_unmake_give_back_the_board_and_the_key_follows_the_position() {
    for p in random_positions(10, 80).iter().step_by(7) {
        let mut b = Board::new(p);
        let (cells, at, key, place) = (b.cells, b.at, b.key, b.place);
        let (counts, front) = (b.counts, b.front);
        for m in b.legal_moves() {
            let u = b.make(m);
            let fresh = Board::new(&p.play(m.public()).expect("legal"));
            assert_eq!(b.key, fresh.key, "{} {}", p.to_fen(), m.public());
            assert_eq!(b.place, fresh.place, "{} {}", p.to_fen(), m.public());
            assert_eq!(b.counts, fresh.counts, "{} {}", p.to_fen(), m.public());
            assert_eq!(b.front, fresh.front, "{} {}", p.to_fen(), m.public());
            b.unmake(u);
            assert_eq!((b.cells, b.at, b.key, b.place), (cells, at, key, place));
            assert_eq!((b.counts, b.front), (counts, front));
        }
    }
}

#[test]
fn the_evaluation_is_the_same_turned_round() {
    for p in random_positions(10, 80).iter().step_by(5) {
        let mut turned = Setup::empty();
        for (s, piece) in p.pieces() {
            let t = qipan_rules::xiangqi::Square::from_file_row(8 - s.file(), 9 - s.row())
                .expect("on the board");
            turned.board[t.index()] = Some(qipan_rules::xiangqi::Piece {
                side: piece.side.opponent(),
                role: piece.role,
            });
        }
        turned.turn = p.turn().opponent();
        let q = Position::from_setup(&turned).expect("a turned position is valid");
        assert_eq!(
            evaluate(&Board::new(p)),
            evaluate(&Board::new(&q)),
            "{}",
            p.to_fen()
        );
    }
}

#[test]
fn attacks_on_a_point_are_the_captures_onto_it() {
    use super::board::{side_of, MoveList, ON_BOARD};
    for p in random_positions(20, 100).iter().step_by(3) {
        let b = Board::new(p);
        for (sq, &on) in ON_BOARD.iter().enumerate() {
            let cell = b.cells[sq];
            if !on || cell == 0 {
                continue;
            }
            let by = side_of(cell) ^ 1;
            let mut them = b.clone();
            them.turn = by;
            let mut list = MoveList::new();
            them.generate(true, &mut list);
            let captures = list.as_slice().iter().any(|m| m.to() == sq);
            assert_eq!(
                b.attacked_by(sq, by),
                captures,
                "{} {}",
                p.to_fen(),
                super::board::square(sq)
            );
        }
    }
}

#[test]
fn a_move_that_checks_may_check() {
    let (mut checks, mut moves) = (0, 0);
    for p in random_positions(40, 120) {
        let mut b = Board::new(&p);
        for m in b.legal_moves() {
            let may = b.may_check(m);
            let u = b.make(m);
            let gives = b.in_check();
            b.unmake(u);
            assert!(may || !gives, "{} {}", p.to_fen(), m.public());
            checks += usize::from(gives);
            moves += 1;
        }
    }
    assert!(checks > 500, "{checks} checks among {moves} moves");
}
