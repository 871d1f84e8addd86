//! Animated replays: a real game, played through the rules crate, made a
//! GIF and decoded back with the `gif` crate; every frame composited as a
//! viewer shows it is compared with the still picture of its position.
//!
//! The game is `data/xiangqi-1982-liu-yang.txt` (1982 Chinese national
//! championship, 柳大华 – 杨官璘, drawn), whose source is named there with
//! the position its last move reaches.

mod common;

use std::time::Duration;

use qipan_picture::{
    duel_png, replay_gif, Options, Panel, PanelPlayer, PictureError, ReplayCaption, ReplayFrame,
    ReplayOptions, MAX_REPLAY_FRAMES, MAX_REPLAY_SIZE,
};
use qipan_rules::{gomoku, xiangqi, AnyAction, AnyPosition, GameKind, Reason};
use resvg::tiny_skia::Pixmap;

/// The position after the record's last move, as its source gives it.
const FINAL_FEN: &str = "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b";

fn game(plies: usize) -> Vec<ReplayFrame> {
    common::xiangqi_record(plies)
}

fn caption() -> ReplayCaption {
    ReplayCaption {
        names: vec![Some("柳大华".to_owned()), Some("杨官璘".to_owned())],
        result: Some("和棋 1/2-1/2".to_owned()),
    }
}

/// A decoded GIF: its size, palette, and every frame as a viewer shows it
/// (RGB, composited over the frames before), with its delay.
struct Decoded {
    width: usize,
    height: usize,
    palette: Vec<[u8; 3]>,
    frames: Vec<(Vec<[u8; 3]>, u16)>,
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("the GIF's header reads");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let palette: Vec<[u8; 3]> = decoder
        .global_palette()
        .expect("one palette for the replay")
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let mut screen = vec![[0u8; 3]; width * height];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame decodes") {
        assert!(frame.palette.is_none(), "no frame has a palette of its own");
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let w = usize::from(frame.width);
        for (i, &index) in frame.buffer.iter().enumerate() {
            if Some(index) == frame.transparent {
                continue;
            }
            let (x, y) = (left + i % w, top + i / w);
            screen[y * width + x] = palette[usize::from(index)];
        }
        frames.push((screen.clone(), frame.delay));
    }
    Decoded {
        width,
        height,
        palette,
        frames,
    }
}

/// The still picture of a replay's frame, as a match's picture draws it.
fn still(frame: &ReplayFrame, caption: &ReplayCaption, size: u32) -> Pixmap {
    let player = |i: usize| PanelPlayer {
        name: caption.names.get(i).cloned().flatten(),
        clock: None,
    };
    let panel = Panel {
        players: [player(0), player(1)],
        result: caption.result.clone(),
    };
    let options = Options {
        size,
        last: frame.last,
        ..Options::default()
    };
    let bytes = duel_png(&frame.position, &options, &panel).expect("the still draws");
    Pixmap::decode_png(&bytes).expect("the still decodes")
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| u32::from(x.abs_diff(y)).pow(2))
        .sum()
}

#[test]
fn the_record_reaches_its_published_final_position() {
    let frames = game(usize::MAX);
    assert_eq!(frames.len(), 126);
    let last = frames.last().expect("frames");
    let expected = xiangqi::Position::from_fen(FINAL_FEN).expect("the FEN parses");
    assert_eq!(last.position, AnyPosition::from(expected));
}

#[test]
fn frames_decode_to_the_still_pictures_within_the_palettes_error() {
    let size = 200;
    let frames = game(12);
    let caption = caption();
    let options = ReplayOptions {
        size,
        ..ReplayOptions::default()
    };
    let bytes = replay_gif(&frames, &caption, &options).expect("the replay draws");
    let gif = decode(&bytes);
    assert_eq!(gif.frames.len(), 13, "one frame per position");
    let delays: Vec<u16> = gif.frames.iter().map(|f| f.1).collect();
    assert_eq!(delays[..12], [80; 12]);
    assert_eq!(delays[12], 400, "the last position is held longer");

    let mut nearest = std::collections::HashMap::new();
    let mut total_error = 0u64;
    let mut pixels = 0u64;
    for (index, (shown, _)) in gif.frames.iter().enumerate() {
        let still = still(&frames[index], &caption, size);
        assert_eq!(
            (gif.width, gif.height),
            (still.width() as usize, still.height() as usize)
        );
        for (at, (p, s)) in still.pixels().iter().zip(shown).enumerate() {
            let want = [p.red(), p.green(), p.blue()];
            // The frame shows the palette's nearest colour to the still's
            // pixel: no other colour is as close.
            let best = *nearest.entry(want).or_insert_with(|| {
                gif.palette
                    .iter()
                    .map(|&c| distance(c, want))
                    .min()
                    .unwrap_or(u32::MAX)
            });
            assert_eq!(
                distance(*s, want),
                best,
                "frame {index}, pixel ({}, {}): shows {s:?} for {want:?}",
                at % gif.width,
                at / gif.width
            );
            total_error += u64::from(best);
            pixels += 1;
        }
    }
    // And the palette fits the pictures: a root-mean-square error of a
    // few levels per channel.
    let rms = (total_error as f64 / pixels as f64 / 3.0).sqrt();
    assert!(rms < 4.0, "rms error {rms:.2}");
}

/// A replay's budget: a 100-ply game at 480 px within 1 MB, some 10 kB a
/// frame. The bench (`benches/picture.rs`) checks the whole 100 plies; a
/// test checks a part of the game, to stay quick in a debug build.
const BYTES_PER_FRAME: usize = 10_000;

#[test]
fn a_replay_at_480_px_stays_within_its_budget() {
    let frames = game(30);
    let bytes = replay_gif(&frames, &caption(), &ReplayOptions::default()).expect("draws");
    let gif = decode(&bytes);
    assert_eq!(gif.frames.len(), 31);
    // 480 px wide: the board (1008 × 1108 units), a band of 121 units
    // above and below, the result line of 91: 1441 units, 686 px.
    assert_eq!((gif.width, gif.height), (480, 686));
    assert!(
        bytes.len() < BYTES_PER_FRAME * gif.frames.len(),
        "{} bytes for {} frames",
        bytes.len(),
        gif.frames.len()
    );
}

#[test]
fn a_one_player_game_draws_its_name_band_only_when_named() {
    let start = AnyPosition::from(qipan_rules::twenty48::Position::new(7));
    let up = AnyAction::parse(GameKind::Twenty48, "up").expect("up parses");
    let left = AnyAction::parse(GameKind::Twenty48, "left").expect("left parses");
    let after = start.play(up).and_then(|p| p.play(left)).expect("plays");
    let frames = vec![
        ReplayFrame {
            position: start,
            last: None,
        },
        ReplayFrame {
            position: after,
            last: Some(left),
        },
    ];
    let options = ReplayOptions {
        size: 120,
        ..ReplayOptions::default()
    };
    let height = |names: Vec<Option<String>>| {
        let caption = ReplayCaption {
            names,
            result: None,
        };
        decode(&replay_gif(&frames, &caption, &options).expect("draws")).height
    };
    let bare = height(vec![]);
    assert_eq!(height(vec![None]), bare);
    assert!(height(vec![Some("小明".to_owned())]) > bare);
}

#[test]
fn replays_that_cannot_be_made_are_refused_before_drawing() {
    let caption = ReplayCaption::default();
    let options = ReplayOptions::default();
    let err = replay_gif(&[], &caption, &options).unwrap_err();
    assert_eq!(err, PictureError::EmptyReplay);
    assert_eq!(err.reason(), "empty-replay");

    let one = game(0);
    for size in [63, MAX_REPLAY_SIZE + 1] {
        let sized = ReplayOptions {
            size,
            ..ReplayOptions::default()
        };
        assert_eq!(
            replay_gif(&one, &caption, &sized).unwrap_err(),
            PictureError::ReplaySizeOutOfRange { size }
        );
    }
    assert_eq!(
        PictureError::ReplaySizeOutOfRange { size: 2000 }.to_string(),
        "size 2000 px is out of range: a replay is 64 to 1024 px wide"
    );

    let long = vec![one[0].clone(); MAX_REPLAY_FRAMES + 1];
    assert_eq!(
        replay_gif(&long, &caption, &options).unwrap_err(),
        PictureError::TooManyFrames { frames: 1001 }
    );

    let mut mixed = game(2);
    let board = gomoku::Position::new(gomoku::Variant::Freestyle, 15).expect("15×15");
    mixed.push(ReplayFrame {
        position: board.into(),
        last: None,
    });
    let err = replay_gif(&mixed, &caption, &options).unwrap_err();
    assert_eq!(err, PictureError::MixedFrames { index: 3 });
    assert_eq!(
        err.to_string(),
        "position 3 of the replay is not of the first position's game and board"
    );
}

#[test]
fn a_frame_whose_last_move_cannot_have_led_to_it_is_named() {
    let mut frames = game(2);
    frames[2].last = Some(AnyAction::parse(GameKind::Xiangqi, "a0a1").expect("parses"));
    let options = ReplayOptions {
        size: 64,
        final_delay: Duration::from_secs(1),
        ..ReplayOptions::default()
    };
    let err = replay_gif(&frames, &ReplayCaption::default(), &options).unwrap_err();
    assert!(
        matches!(err, PictureError::InFrame { index: 2, .. }),
        "{err:?}"
    );
    assert_eq!(err.reason(), "impossible-last-move");
    assert!(
        err.to_string()
            .starts_with("position 2 of the replay: last move a0a1"),
        "{err}"
    );
}
