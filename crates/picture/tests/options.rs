//! The options: size bounds, `last` moves that cannot have led to the
//! position (every `ImpossibleLast` variant, with its message), actions of
//! another game, and what `highlights`, `flip` and `coordinates` change.
//!
//! Positions come from `common/mod.rs`, which says where each is from.

mod common;

use common::action;
use qipan_picture::{
    dimensions, png, svg, ImpossibleLast, Options, PictureError, MAX_SIZE, MIN_SIZE,
};
use qipan_rules::{AnyAction, AnyPosition, GameKind, Reason};
use resvg::tiny_skia::Pixmap;

fn sized(size: u32) -> Options {
    Options {
        size,
        ..Options::default()
    }
}

fn last(action: AnyAction) -> Options {
    Options {
        last: Some(action),
        ..Options::default()
    }
}

/// The error and its message for drawing `pos` after `text`.
fn refused(pos: &AnyPosition, text: &str) -> (PictureError, String) {
    let a = action(pos.kind(), text);
    let err = svg(pos, &last(a)).expect_err(text);
    assert_eq!(
        png(pos, &last(a)).expect_err(text),
        err,
        "svg and png agree"
    );
    let message = err.to_string();
    (err, message)
}

#[test]
fn sizes_outside_the_bounds_are_refused_with_the_bounds() {
    assert_eq!((MIN_SIZE, MAX_SIZE), (64, 2048));
    let pos = common::xiangqi_start();
    for size in [0, 1, MIN_SIZE - 1, MAX_SIZE + 1, u32::MAX] {
        let err = svg(&pos, &sized(size)).unwrap_err();
        assert_eq!(err, PictureError::SizeOutOfRange { size });
        assert_eq!(err.reason(), "size-out-of-range");
        assert_eq!(png(&pos, &sized(size)).unwrap_err(), err);
    }
    assert_eq!(
        svg(&pos, &sized(63)).unwrap_err().to_string(),
        "size 63 px is out of range: a picture is 64 to 2048 px wide"
    );
}

#[test]
fn every_game_renders_at_the_smallest_and_largest_size() {
    for (pos, last) in common::one_of_each() {
        for size in [MIN_SIZE, MAX_SIZE] {
            let options = Options {
                size,
                last,
                ..Options::default()
            };
            let text = svg(&pos, &options).unwrap_or_else(|e| panic!("{}: {e}", pos.kind()));
            assert!(text.contains(&format!(r#"width="{size}""#)));
            let bytes = png(&pos, &options).unwrap_or_else(|e| panic!("{}: {e}", pos.kind()));
            let pixmap = Pixmap::decode_png(&bytes).expect("the PNG decodes");
            assert_eq!(pixmap.width(), size, "{}", pos.kind());
            assert_eq!(
                dimensions(&pos, &options),
                Ok((pixmap.width(), pixmap.height())),
                "{}",
                pos.kind()
            );
        }
    }
}

#[test]
fn pictures_are_as_tall_as_their_boards_ask() {
    let height = |pos: &AnyPosition| {
        let bytes = png(pos, &sized(480)).expect("renders");
        Pixmap::decode_png(&bytes).expect("decodes").height()
    };
    // Xiangqi: 8 × 9 spaces between lines plus equal margins of 104.
    assert_eq!(height(&common::xiangqi_start()), 528);
    // Gomoku: square.
    assert_eq!(height(&common::gomoku_won()), 480);
    // 2048: a header above a square board.
    assert_eq!(height(&common::twenty48_large()), 562);
}

#[test]
fn xiangqi_last_moves_must_end_on_the_movers_piece_from_an_empty_point() {
    let start = common::xiangqi_start();
    let (err, message) = refused(&start, "h2e2");
    assert_eq!(err.reason(), "impossible-last-move");
    assert!(matches!(
        err,
        PictureError::ImpossibleLast {
            why: ImpossibleLast::EmptyDestination { .. },
            ..
        }
    ));
    assert_eq!(
        message,
        "last move h2e2 cannot have led to this position: no piece stands on e2"
    );

    // After h2e2 red has moved last: a9 holds a black chariot.
    let (after, _) = common::play(start, "h2e2");
    assert_eq!(
        refused(&after, "a8a9").1,
        "last move a8a9 cannot have led to this position: \
         the black chariot on a9 is not red's, and red moved last"
    );
    // The cannon on e2 did not come from b2: the other cannon stands there.
    assert_eq!(
        refused(&after, "b2e2").1,
        "last move b2e2 cannot have led to this position: \
         b2 should be empty after the move, but the red cannon stands there"
    );
    svg(&after, &last(action(GameKind::Xiangqi, "h2e2"))).expect("the real last move");
}

#[test]
fn gomoku_last_stones_must_be_the_movers_and_the_recorded_one() {
    let won = common::gomoku_won();
    assert_eq!(
        refused(&won, "s19").1,
        "last move s19 cannot have led to this position: s19 is off the 15×15 board"
    );
    assert_eq!(
        refused(&won, "h9").1,
        "last move h9 cannot have led to this position: no stone stands on h9"
    );
    // Black made the five, so white's stones cannot be the last move.
    assert_eq!(
        refused(&won, "a1").1,
        "last move a1 cannot have led to this position: \
         the stone on a1 is white, and black moved last"
    );
    assert_eq!(
        refused(&won, "h8").1,
        "last move h8 cannot have led to this position: the position's last stone is on l8"
    );
    svg(&won, &last(action(GameKind::Gomoku, "l8"))).expect("the recorded last stone");
    // A rows board records none: any stone of the side that moved goes.
    let renju = common::renju_forbidden();
    svg(&renju, &last(action(GameKind::Gomoku, "n9"))).expect("a white stone");
}

#[test]
fn quoridor_last_moves_must_show_on_the_board() {
    let (pos, _) = common::quoridor_walls();
    // Player 2 moved last (f8h), its pawn is on e8.
    assert_eq!(
        refused(&pos, "e7").1,
        "last move e7 cannot have led to this position: \
         player 2's pawn stands on e8, not on e7"
    );
    assert_eq!(
        refused(&pos, "a1h").1,
        "last move a1h cannot have led to this position: no wall stands on a1h"
    );
    for ok in ["e8", "d7h", "f8h"] {
        svg(&pos, &last(action(GameKind::Quoridor, ok))).expect(ok);
    }
}

#[test]
fn a_last_action_of_another_game_is_refused() {
    let pos = common::xiangqi_start();
    let a = action(GameKind::Gomoku, "h8");
    let err = svg(&pos, &last(a)).unwrap_err();
    assert_eq!(
        err,
        PictureError::LastOfAnotherGame {
            action: a,
            position: GameKind::Xiangqi
        }
    );
    assert_eq!(err.reason(), "wrong-game");
    assert_eq!(
        err.to_string(),
        "last move h8 is a gomoku action, but the position is a xiangqi position"
    );
    let tetris = common::tetris_midgame().0;
    let err = svg(&tetris, &last(action(GameKind::Twenty48, "left"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "last move left is a 2048 action, but the position is a tetris position"
    );
}

#[test]
fn a_2048_or_tetris_last_action_is_accepted_and_not_drawn() {
    for (pos, text) in [
        (common::twenty48_large(), "left"),
        (common::tetris_midgame().0, "cw"),
    ] {
        let plain = svg(&pos, &Options::default()).expect("draws");
        let with = svg(&pos, &last(action(pos.kind(), text))).expect("accepted");
        assert_eq!(plain, with, "{}", pos.kind());
    }
}

#[test]
fn without_highlights_the_last_move_changes_nothing() {
    let cases = [
        common::xiangqi_middlegame(),
        common::quoridor_walls(),
        (common::gomoku_won(), None),
        common::tetris_midgame(),
    ];
    for (pos, last) in cases {
        let plain = Options {
            highlights: false,
            ..Options::default()
        };
        let with_last = Options {
            last,
            ..plain.clone()
        };
        let lit = Options {
            highlights: true,
            ..with_last.clone()
        };
        let off = svg(&pos, &plain).expect("draws");
        assert_eq!(off, svg(&pos, &with_last).expect("draws"), "{}", pos.kind());
        assert_ne!(off, svg(&pos, &lit).expect("draws"), "{}", pos.kind());
    }
}

#[test]
fn flip_and_coordinates_change_the_two_player_boards_only() {
    let flipped = Options {
        flip: true,
        ..Options::default()
    };
    let bare = Options {
        coordinates: false,
        ..Options::default()
    };
    for (pos, two_sided) in [
        (common::xiangqi_start(), true),
        (common::gomoku_won(), true),
        (common::quoridor_walls().0, true),
        (common::twenty48_large(), false),
        (common::tetris_midgame().0, false),
    ] {
        let plain = svg(&pos, &Options::default()).expect("draws");
        let kind = pos.kind();
        assert_eq!(
            plain != svg(&pos, &flipped).expect("draws"),
            two_sided,
            "{kind}"
        );
        assert_eq!(
            plain != svg(&pos, &bare).expect("draws"),
            two_sided,
            "{kind}"
        );
    }
}

#[test]
fn the_svg_is_self_contained_and_the_same_every_time() {
    for (pos, last) in common::one_of_each() {
        let options = Options {
            last,
            ..Options::default()
        };
        let text = svg(&pos, &options).expect("draws");
        for outside in ["<text", "href", "font", "<image", "<script", "url(http"] {
            assert!(!text.contains(outside), "{}: {outside}", pos.kind());
        }
        assert_eq!(text, svg(&pos, &options).expect("draws again"));
    }
}
