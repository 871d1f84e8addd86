//! Action notations and the service's stateless play path.
//!
//! Input: byte 0 picks the game, byte 1 the gomoku rule set and size,
//! bytes 2–9 the 2048/tetris seed; the rest is one action per line. A line
//! `@x` stands for the legal action numbered by the byte `x` where it is
//! reached, so walks go deep; any other line is sent as written.
//!
//! Every line that parses as any notation of the crate (squares, points,
//! moves, walls, directions, inputs, pieces, players, variants, game
//! names, end reasons) prints back to a text that parses to the same value.
//! The batch played by `qipan::games::play` agrees with a replay on the
//! rules crate: same position and code when it succeeds; otherwise a
//! refusal at the same index for the same cause, which is a client
//! problem. A recorded batch's plies chain code to code.
#![no_main]

use std::fmt::{Debug, Display};
use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use qipan::games::{Batch, GameError};
use qipan_fuzz::service::{assert_client_problem, assert_servable, BASE};
use qipan_rules::{
    gomoku, quoridor, tetris, twenty48, xiangqi, AnyAction, AnyPlayer, AnyPosition, EndReason,
    GameKind,
};

/// `text` parses as `T` → prints → parses to the same value.
fn round_trip<T: FromStr + Display + PartialEq + Debug>(text: &str) {
    if let Ok(value) = text.parse::<T>() {
        let printed = value.to_string();
        let back = printed
            .parse::<T>()
            .unwrap_or_else(|_| panic!("{text:?} prints as {printed:?}, which does not parse"));
        assert_eq!(back, value, "{text:?} → {printed:?}");
        assert_eq!(back.to_string(), printed);
    }
}

fn notations(kind: GameKind, text: &str) {
    round_trip::<xiangqi::Square>(text);
    round_trip::<xiangqi::Move>(text);
    round_trip::<xiangqi::Side>(text);
    round_trip::<gomoku::Point>(text);
    round_trip::<gomoku::Stone>(text);
    round_trip::<gomoku::Variant>(text);
    round_trip::<gomoku::Forbidden>(text);
    round_trip::<twenty48::Direction>(text);
    round_trip::<quoridor::Square>(text);
    round_trip::<quoridor::Wall>(text);
    round_trip::<quoridor::Action>(text);
    round_trip::<quoridor::Player>(text);
    round_trip::<tetris::Action>(text);
    round_trip::<tetris::Kind>(text);
    round_trip::<tetris::Rotation>(text);
    round_trip::<GameKind>(text);
    round_trip::<EndReason>(text);
    if let Ok(action) = AnyAction::parse(kind, text) {
        let printed = action.to_string();
        assert_eq!(AnyAction::parse(kind, &printed).ok(), Some(action));
    }
    if let Some(player) = AnyPlayer::parse(kind, text) {
        assert_eq!(AnyPlayer::parse(kind, player.as_str()), Some(player));
    }
}

fn start(kind: GameKind, pick: u8, seed: u64) -> AnyPosition {
    match kind {
        GameKind::Xiangqi => xiangqi::Position::start().into(),
        GameKind::Gomoku => {
            let variant = gomoku::Variant::ALL[usize::from(pick) % 3];
            let sizes = variant.sizes();
            let size = sizes[usize::from(pick / 3) % sizes.len()];
            gomoku::Position::new(variant, size)
                .expect("a size the variant lists")
                .into()
        }
        GameKind::Twenty48 => twenty48::Position::new(seed).into(),
        GameKind::Quoridor => quoridor::Position::start().into(),
        GameKind::Tetris => tetris::Position::new(seed).into(),
    }
}

/// How the rules crate says a batch ends.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Played(Box<AnyPosition>),
    GameOver(usize),
    Malformed(usize),
    Illegal(usize),
    Empty,
    TooLong,
}

fn outcome(start: &AnyPosition, texts: &[String]) -> Outcome {
    if texts.is_empty() {
        return Outcome::Empty;
    }
    if texts.len() > qipan::games::MAX_ACTIONS {
        return Outcome::TooLong;
    }
    let mut pos = start.clone();
    for (index, text) in texts.iter().enumerate() {
        if !pos.status().is_ongoing() {
            return Outcome::GameOver(index);
        }
        let Ok(action) = pos.parse_action(text) else {
            return Outcome::Malformed(index);
        };
        match pos.play(action) {
            Ok(next) => pos = next,
            Err(_) => return Outcome::Illegal(index),
        }
    }
    Outcome::Played(Box::new(pos))
}

fn refusal(error: &GameError) -> Option<Outcome> {
    Some(match *error {
        GameError::GameOver { index, .. } => Outcome::GameOver(index),
        GameError::MalformedAction { index, .. } => Outcome::Malformed(index),
        GameError::IllegalAction { index, .. } => Outcome::Illegal(index),
        GameError::EmptyBatch => Outcome::Empty,
        GameError::BatchTooLong { .. } => Outcome::TooLong,
        _ => return None,
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let kind = GameKind::ALL[usize::from(data[0]) % GameKind::ALL.len()];
    let seed = u64::from_le_bytes(data[2..10].try_into().expect("8 bytes"));
    let start = start(kind, data[1], seed);
    let Ok(text) = std::str::from_utf8(&data[10..]) else {
        return;
    };
    // The texts as sent: `@x` lines resolved against the position reached.
    let mut texts = Vec::new();
    let mut pos = Some(start.clone());
    for line in text.split('\n') {
        let resolved = match (line.strip_prefix('@'), &pos) {
            (Some(pick), Some(p)) => {
                let legal = p.legal_actions();
                let n = pick.bytes().next().map_or(0, usize::from);
                legal.get(n % legal.len().max(1)).map(ToString::to_string)
            }
            _ => None,
        };
        let text = resolved.unwrap_or_else(|| line.to_owned());
        notations(kind, &text);
        pos = pos.and_then(|p| {
            let action = p.parse_action(&text).ok()?;
            p.play(action).ok()
        });
        texts.push(text);
    }
    let expected = outcome(&start, &texts);
    let batch = Batch {
        only: None,
        record: true,
    };
    match qipan::games::play(&start, &texts, batch, BASE) {
        Ok(played) => {
            assert_eq!(Outcome::Played(Box::new(played.position.clone())), expected);
            assert_eq!(played.code, played.position.to_code());
            assert_eq!(played.count, texts.len());
            assert_eq!(played.plies.len(), texts.len());
            let mut before = start.to_code();
            for (ply, text) in played.plies.iter().zip(&texts) {
                assert_eq!(ply.code_before, before, "plies do not chain");
                let action = AnyAction::parse(kind, text).expect("it was played");
                assert_eq!(ply.action, action.to_string());
                before.clone_from(&ply.code_after);
            }
            assert_eq!(before, played.code);
            assert_servable(&played.position);
        }
        Err(e) => {
            assert_eq!(refusal(&e), Some(expected), "the service says {e}");
            assert_client_problem(e);
        }
    }
});
