//! Positions shared by the picture tests, each built through the rules
//! crate's public API from a line of play, a setup or a reference data
//! file named beside it.

#![allow(dead_code)]

use qipan_picture::ReplayFrame;
use qipan_rules::{gomoku, quoridor, tetris, twenty48, xiangqi, AnyAction, AnyPosition, GameKind};

/// Plays `line` (space-separated actions in the game's notation) from
/// `start`, returning the position and the last action.
pub fn play(start: AnyPosition, line: &str) -> (AnyPosition, Option<AnyAction>) {
    let mut pos = start;
    let mut last = None;
    for text in line.split_whitespace() {
        let action = pos
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos = pos.play(action).unwrap_or_else(|e| panic!("{text}: {e}"));
        last = Some(action);
    }
    (pos, last)
}

/// Parses an action of `kind`.
pub fn action(kind: GameKind, text: &str) -> AnyAction {
    AnyAction::parse(kind, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A xiangqi middlegame, black in check: a central-cannon opening in which
/// red's chariot takes a horse on g7 and then the elephant on g9 with
/// check (the last move, g7g9).
pub const XIANGQI_LINE: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 \
     h6g6 i7h7 b0c2 c9e7 b2b6 f9e8 g6g7 h7h4 g7g9";

pub fn xiangqi_middlegame() -> (AnyPosition, Option<AnyAction>) {
    play(xiangqi::Position::start().into(), XIANGQI_LINE)
}

pub fn xiangqi_start() -> AnyPosition {
    xiangqi::Position::start().into()
}

/// Free-style 15×15: black makes five on row 8 (h8–l8) while white
/// plays along the a-file and g7; the position records the last stone.
pub fn gomoku_won() -> AnyPosition {
    let start = gomoku::Position::new(gomoku::Variant::Freestyle, 15).expect("15×15 free-style");
    play(start.into(), "h8 a1 i8 a2 j8 g7 k8 a4 l8").0
}

/// Renju, black to move with seven forbidden points (one overline, six
/// double-threes): case `overline-02` of the rules crate's
/// `tests/data/gomoku/renju-forbidden.txt`. A rows board records no last
/// stone; the tests pass white's `o12` as the last move.
pub const RENJU_ROWS: &str = "\
...............
...............
...............
..............o
...............
......x........
...x.........o.
.....x......o..
.....x.....oo..
..........o.o..
...x.x....o...o
....xx........o
....xx.........
...............
...............";

pub fn renju_forbidden() -> AnyPosition {
    gomoku::Position::from_rows(gomoku::Variant::Renju, RENJU_ROWS)
        .expect("the reference case is a valid Renju board")
        .into()
}

/// Free-style 19×19 after a short opening.
pub fn gomoku_19() -> (AnyPosition, Option<AnyAction>) {
    let start = gomoku::Position::new(gomoku::Variant::Freestyle, 19).expect("19×19 free-style");
    play(start.into(), "j10 k11 k10 j11 l10 i10 m10 n10 l11 k12")
}

/// 2048 with every tile from 2 to 131072 but one, the least score those
/// tiles allow, one move left (4 and 4 meet in the third row).
pub fn twenty48_large() -> AnyPosition {
    twenty48::Position::from_setup(&twenty48::Setup {
        board: [
            [2, 4, 8, 16],
            [256, 128, 64, 32],
            [512, 1024, 4, 4],
            [131072, 65536, 16384, 8192],
        ],
        score: None,
        seed: 2048,
    })
    .expect("a valid 2048 setup")
    .into()
}

/// 2048 from seed 42 after a few moves.
pub fn twenty48_early() -> AnyPosition {
    play(
        twenty48::Position::new(42).into(),
        "left up left down right up left",
    )
    .0
}

/// Quoridor with four walls: both players have stepped off their start,
/// player 2's last action is the wall f8h.
pub const QUORIDOR_LINE: &str = "e2 e8 d7h d3h c7v f3v d2 f8h";

pub fn quoridor_walls() -> (AnyPosition, Option<AnyAction>) {
    play(quoridor::Position::start().into(), QUORIDOR_LINE)
}

/// Quoridor after three steps each way and two walls of player 2's,
/// ending with player 1's sideways step e4–f4.
pub fn quoridor_pawn_move() -> (AnyPosition, Option<AnyAction>) {
    play(quoridor::Position::start().into(), "e2 e8 e3 e7h e4 d6v f4")
}

/// Tetris from seed 7 (the first bag of the rules' documentation example:
/// S, J, O, L, Z, I, T): a few locked pieces, J in hold, a Z falling with
/// its ghost below.
pub const TETRIS_LINE: &str =
    "hard hold left left hard cw right right right right hard soft soft soft cw";

pub fn tetris_midgame() -> (AnyPosition, Option<AnyAction>) {
    play(tetris::Position::new(7).into(), TETRIS_LINE)
}

/// Tetris from seed 7 with hard drops only, until the stack tops out.
pub fn tetris_over() -> AnyPosition {
    let mut pos: AnyPosition = tetris::Position::new(7).into();
    let hard = action(GameKind::Tetris, "hard");
    for _ in 0..200 {
        if !pos.status().is_ongoing() {
            break;
        }
        pos = pos
            .play(hard)
            .expect("hard drop is legal while the game goes on");
    }
    assert!(!pos.status().is_ongoing(), "hard drops top out");
    pos
}

/// One position of every game (both gomoku sizes), for size and property
/// tests.
pub fn one_of_each() -> Vec<(AnyPosition, Option<AnyAction>)> {
    vec![
        xiangqi_middlegame(),
        (gomoku_won(), None),
        gomoku_19(),
        (renju_forbidden(), None),
        (twenty48_large(), None),
        quoridor_walls(),
        tetris_midgame(),
        (tetris_over(), None),
    ]
}

/// A whole xiangqi game: `data/xiangqi-1982-liu-yang.txt` (1982 Chinese
/// national championship, 柳大华 – 杨官璘, drawn in 125 plies), whose
/// source is named there.
pub const XIANGQI_RECORD: &str = include_str!("../data/xiangqi-1982-liu-yang.txt");

/// The record's first `plies` moves as replay frames: the start, then each
/// position with the move that led to it.
pub fn xiangqi_record(plies: usize) -> Vec<ReplayFrame> {
    let mut pos = AnyPosition::from(xiangqi::Position::start());
    let mut frames = vec![ReplayFrame {
        position: pos.clone(),
        last: None,
    }];
    let moves = XIANGQI_RECORD
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace);
    for text in moves.take(plies) {
        let a = action(GameKind::Xiangqi, text);
        pos = pos.play(a).unwrap_or_else(|e| panic!("{text}: {e}"));
        frames.push(ReplayFrame {
            position: pos.clone(),
            last: Some(a),
        });
    }
    frames
}
