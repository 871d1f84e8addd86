//! Repetition, perpetual check and chase, and the move limit, against
//! Fairy-Stockfish's verdicts.
//!
//! `tests/data/xiangqi_repetition.txt` holds, one a line, a start FEN, the
//! moves played from it and the verdict pyffish gives after the last move
//! (see `scripts/xiangqi-repetition-data.py` for how the cases were made
//! and its header in the file for the counts). Every case must agree, and
//! must agree again when the history is built one move at a time, cut to
//! its window ([`History::trimmed`]), or rebuilt from that window's start.
//!
//! The property tests at the end need no reference: a verdict does not
//! depend on how the history was built, and a capture starts the window.

use std::collections::BTreeMap;
use std::fs;

use proptest::prelude::*;
use qipan_rules::xiangqi::{Counters, Fen, History, Move, Position, Side};
use qipan_rules::{EndReason, Status};

const DATA: &str = "tests/data/xiangqi_repetition.txt";

struct Case {
    line: usize,
    source: String,
    fen: Fen,
    moves: Vec<Move>,
    expected: Status<Side>,
}

fn expected(result: &str, reason: &str, at: &str) -> Status<Side> {
    let reason = || {
        reason
            .parse::<EndReason>()
            .unwrap_or_else(|e| panic!("{at}: {e}"))
    };
    match result {
        "ongoing" => Status::Ongoing,
        "draw" => Status::Drawn { reason: reason() },
        "red-wins" => Status::Won {
            winner: Side::Red,
            reason: reason(),
        },
        "black-wins" => Status::Won {
            winner: Side::Black,
            reason: reason(),
        },
        other => panic!("{at}: unknown result {other:?}"),
    }
}

fn cases() -> Vec<Case> {
    let path = format!("{}/{DATA}", env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let at = format!("{DATA}:{}", n + 1);
        let cols: Vec<&str> = raw.split('\t').collect();
        let [source, fen, moves, result, reason] = cols[..] else {
            panic!(
                "{at}: expected 5 tab-separated columns, found {}",
                cols.len()
            );
        };
        let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{at}: {e}"));
        let moves = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap_or_else(|e| panic!("{at}: {e}")))
            .collect();
        cases.push(Case {
            line: n + 1,
            source: source.to_owned(),
            fen,
            moves,
            expected: expected(result, reason, &at),
        });
    }
    cases
}

/// The history of a case, all at once.
fn history(case: &Case) -> History {
    History::with_moves(case.fen.position.clone(), case.fen.counters, &case.moves)
        .unwrap_or_else(|e| panic!("line {} ({}): {e}", case.line, case.source))
}

#[test]
fn every_case_gets_fairy_stockfishs_verdict() {
    let cases = cases();
    assert!(cases.len() > 500, "only {} cases", cases.len());
    let mut wrong = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for case in &cases {
        let got = history(case).verdict();
        let name = match case.expected {
            Status::Ongoing => "ongoing".to_owned(),
            Status::Won { reason, .. } | Status::Drawn { reason } | Status::Over { reason } => {
                reason.to_string()
            }
        };
        *seen.entry(name).or_default() += 1;
        if got != case.expected {
            wrong.push(format!(
                "line {} ({}): expected {:?}, got {got:?}",
                case.line, case.source, case.expected
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases disagree:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
    // The file covers every verdict the rules can give.
    for reason in [
        "ongoing",
        "repetition",
        "perpetual-check",
        "perpetual-chase",
        "move-limit",
    ] {
        assert!(
            seen.get(reason).is_some_and(|&n| n >= 5),
            "{reason}: {seen:?}"
        );
    }
}

#[test]
fn pushing_one_move_at_a_time_gives_the_same_verdicts() {
    for case in cases() {
        let mut h = History::new(case.fen.position.clone(), case.fen.counters);
        for &m in &case.moves {
            h.push(m).expect("legal, as with_moves played it");
        }
        assert_eq!(h.verdict(), case.expected, "line {}", case.line);
        assert_eq!(h.moves(), &case.moves[..]);
    }
}

#[test]
fn the_window_alone_gives_the_same_verdicts() {
    for case in cases() {
        let full = history(&case);
        let trimmed = full.trimmed();
        assert_eq!(trimmed.verdict(), case.expected, "line {}", case.line);
        assert_eq!(trimmed.position(), full.position(), "line {}", case.line);
        assert_eq!(trimmed.counters(), full.counters(), "line {}", case.line);
        assert_eq!(
            trimmed.moves(),
            &full.moves()[full.window_start()..],
            "line {}",
            case.line
        );
        // What a service would store: the FEN before the last capture and
        // the moves from it.
        let stored: Fen = Fen {
            position: trimmed.start().clone(),
            counters: trimmed.start_counters(),
        }
        .to_string()
        .parse()
        .expect("a FEN we wrote");
        let rebuilt = History::with_moves(stored.position, stored.counters, trimmed.moves())
            .expect("the same moves");
        assert_eq!(rebuilt.verdict(), case.expected, "line {}", case.line);
    }
}

#[test]
fn fen_counters_follow_the_moves() {
    for case in cases() {
        let h = history(&case);
        let captures = {
            let mut p = case.fen.position.clone();
            let mut last = None;
            for (i, &m) in case.moves.iter().enumerate() {
                if p.piece_at(m.to).is_some() {
                    last = Some(i);
                }
                p = p.play(m).expect("legal");
            }
            last
        };
        let clock = match captures {
            Some(i) => (case.moves.len() - 1 - i) as u32,
            None => case.fen.counters.halfmove_clock + case.moves.len() as u32,
        };
        assert_eq!(h.counters().halfmove_clock, clock, "line {}", case.line);
        let plies_before = 2 * (case.fen.counters.fullmove_number - 1)
            + u32::from(case.fen.position.turn() == Side::Black);
        let plies = plies_before + case.moves.len() as u32;
        assert_eq!(
            h.counters().fullmove_number,
            plies / 2 + 1,
            "line {}",
            case.line
        );
        let fen = h.fen().to_string();
        assert_eq!(fen.parse::<Fen>().expect("round trip").to_string(), fen);
    }
}

/// The Fairy-Stockfish test that the file's first case comes from, spelt
/// out: red's cannon chases black's unprotected chariot a7 ↔ b7 and loses
/// on the third occurrence, not before.
#[test]
fn a_cannon_chasing_an_unprotected_chariot_loses() {
    let fen: Fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"
        .parse()
        .expect("FEN");
    let moves: Vec<Move> = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2"
        .split(' ')
        .map(|m| m.parse().expect("ICCS"))
        .collect();
    let mut h = History::from(fen);
    for (i, &m) in moves.iter().enumerate() {
        assert_eq!(h.verdict(), Status::Ongoing, "before ply {}", i + 1);
        h.push(m).expect("legal");
    }
    assert_eq!(
        h.verdict(),
        Status::Won {
            winner: Side::Black,
            reason: EndReason::PerpetualChase
        }
    );
    assert_eq!(h.chased_by_last_move(), vec!["a7".parse().expect("point")]);
}

/// Plays up to `n` moves from the start, choosing among the legal ones
/// with `picks`; stops early when a side has no move.
fn playout(picks: &[usize]) -> (Position, Vec<Move>) {
    let start = Position::start();
    let mut p = start.clone();
    let mut moves = Vec::new();
    for &pick in picks {
        let legal = p.legal_actions();
        if legal.is_empty() {
            break;
        }
        let m = legal[pick % legal.len()];
        p = p.play(m).expect("legal");
        moves.push(m);
    }
    (start, moves)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Built at once, built a move at a time, or cut to its window, a
    /// history gives the same verdict after every move.
    #[test]
    fn the_verdict_does_not_depend_on_how_the_history_was_built(
        picks in prop::collection::vec(any::<usize>(), 0..120),
        back in prop::collection::vec(any::<bool>(), 120),
    ) {
        // Moving a piece back now and then makes repetitions likely.
        let start = Position::start();
        let mut p = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        for (i, &pick) in picks.iter().enumerate() {
            let legal = p.legal_actions();
            if legal.is_empty() {
                break;
            }
            let undo = (i >= 2 && back[i])
                .then(|| Move { from: moves[i - 2].to, to: moves[i - 2].from })
                .filter(|m| legal.contains(m));
            let m = undo.unwrap_or(legal[pick % legal.len()]);
            p = p.play(m).expect("legal");
            moves.push(m);
        }
        let whole = History::with_moves(start.clone(), Counters::default(), &moves)
            .expect("legal moves");
        let mut step = History::new(start, Counters::default());
        for &m in &moves {
            step.push(m).expect("legal");
            let trimmed = step.trimmed();
            prop_assert_eq!(trimmed.verdict(), step.verdict());
            prop_assert_eq!(trimmed.position(), step.position());
        }
        prop_assert_eq!(whole.verdict(), step.verdict());
        prop_assert_eq!(whole.verdict(), whole.verdict());
        prop_assert_eq!(whole.position(), &p);
    }

    /// A capture resets the halfmove clock and starts the window there.
    #[test]
    fn a_capture_starts_the_window(picks in prop::collection::vec(any::<usize>(), 1..160)) {
        let (start, moves) = playout(&picks);
        let mut h = History::new(start, Counters::default());
        for &m in &moves {
            let capture = h.position().piece_at(m.to).is_some();
            let before = h.counters().halfmove_clock;
            let index = h.moves().len();
            h.push(m).expect("legal");
            if capture {
                prop_assert_eq!(h.counters().halfmove_clock, 0);
                prop_assert_eq!(h.window_start(), index);
                prop_assert_eq!(h.trimmed().moves().len(), 1);
            } else {
                prop_assert_eq!(h.counters().halfmove_clock, before + 1);
            }
        }
    }
}
