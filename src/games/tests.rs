//! Unit tests of the game adapters.

use super::*;
use crate::wire::state::State;

/// Plain bases, and one a client could send as its `Host` (every
/// character JSON escapes, so the checked path is taken too).
const BASES: [&str; 2] = ["http://localhost:8080", "http://h\"o\\s\tt"];

/// The writer's view of `pos` against serde_json's, byte for byte.
fn same_text<G: GameApi>(pos: &G, trace: Option<&G::Trace>, judged: Option<&Judged>) {
    let code = pos.to_code();
    for base in BASES {
        let serde = with_state_view(pos, &code, base, trace, judged.cloned(), |view| {
            serde_json::to_string(view).expect("a view serializes")
        });
        let fast = render_judged(pos, &code, base, trace, judged.cloned());
        assert_eq!(fast, serde, "{} {code} at {base}", G::KIND);
    }
}

/// Plays up to `plies` actions from `start` (a spread of the legal
/// ones, set by `stride`, so captures, walls, locks and wins come up),
/// checking every view on the way, with what each play reported.
/// Returns how many positions were checked.
fn walk<G: GameApi>(start: &G, plies: usize, stride: usize) -> usize {
    let mut pos = start.clone();
    same_text(&pos, None, None);
    let mut seen = 1;
    for ply in 0..plies {
        let legal = pos.legal_actions();
        if legal.is_empty() || !matches!(pos.status(), qipan_rules::Status::Ongoing) {
            break;
        }
        let action = legal[(ply * stride + 3) % legal.len()];
        let (next, trace) = pos.play_traced(action).expect("a listed action is legal");
        same_text(&next, Some(&trace), None);
        pos = next;
        seen += 1;
    }
    seen
}

fn started(kind: GameKind, variant: Option<&str>) -> AnyPosition {
    let query = StartQuery {
        variant: variant.map(str::to_owned),
        seed: matches!(kind, GameKind::Twenty48 | GameKind::Tetris).then_some(7),
        size: None,
    };
    start(kind, &query).expect("a start position").0
}

#[test]
fn the_writer_writes_every_game_s_views_as_serde_json_does() {
    for kind in GameKind::ALL {
        let pos = started(kind, None);
        let seen: usize = [7, 13, 31]
            .into_iter()
            .map(|stride| qipan_rules::with_position!(&pos, p => walk(p, 150, stride)))
            .sum();
        assert!(seen > 40, "{kind}: only {seen} positions");
    }
    for variant in ["standard", "renju"] {
        let AnyPosition::Gomoku(p) = started(GameKind::Gomoku, Some(variant)) else {
            unreachable!("a gomoku start is a gomoku position");
        };
        for stride in [7, 13, 31] {
            walk(&p, 120, stride);
        }
    }
    // A 19×19 board, whose rows run on into each other in the point
    // tables that gomoku's legal points are copied from in runs.
    let query = StartQuery {
        variant: None,
        seed: None,
        size: Some(19),
    };
    let AnyPosition::Gomoku(p) = start(GameKind::Gomoku, &query).expect("a 19×19 start").0 else {
        unreachable!("a gomoku start is a gomoku position");
    };
    for stride in [7, 13, 31] {
        walk(&p, 120, stride);
    }
}

#[test]
fn the_writer_writes_a_judged_view_as_serde_json_does() {
    let pos = qipan_rules::xiangqi::Position::start();
    let judged = Judged {
        status: StatusView {
            state: State::Drawn,
            winner: None,
            reason: Some("repetition"),
        },
        counters: Counters {
            halfmove_clock: 37,
            fullmove_number: 20,
        },
        history: LineBody {
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".to_owned(),
            moves: vec!["h2e2".to_owned(), "a \"quoted\" \\ move\n".to_owned()],
        },
    };
    same_text(&pos, Some(&()), Some(&judged));
}
