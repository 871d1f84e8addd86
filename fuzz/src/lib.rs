//! Properties the fuzz targets check, shared between them.
//!
//! A target hands its input to one of these functions; a property that does
//! not hold panics with the input's story, which libFuzzer records as a
//! crash. Every check is generic over [`Game`], so each game's target is a
//! few lines naming its position type and its extra properties.

use std::fmt::Debug;

use qipan_rules::{Game, Status};

/// Most plies of a walk, so one input cannot take seconds.
pub const MAX_WALK: usize = 64;

/// Splits a code target's input into the code (before the first newline)
/// and the walk (the bytes after it, each choosing one legal action).
/// `None` when the code is not UTF-8: a code reaches the decoder as `&str`.
pub fn code_and_walk(data: &[u8]) -> Option<(&str, &[u8])> {
    let (code, walk) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    Some((std::str::from_utf8(code).ok()?, walk))
}

/// Decodes `code`; if it decodes, the code must be the canonical code of
/// its position (one position, one code), and that code must decode to an
/// equal position.
pub fn decode_canonical<G: Game + PartialEq + Debug>(code: &str) -> Option<G> {
    let pos = G::from_code(code).ok()?;
    let canonical = pos.to_code();
    assert_eq!(
        canonical, code,
        "{code:?} decodes, but the position's code is {canonical:?}"
    );
    assert_code_round_trips(&pos);
    Some(pos)
}

/// Decodes `code` for a game that accepts codes other than the canonical
/// one (xiangqi reads same-kind pieces in any order; gomoku reads a grid
/// where the move list is canonical and the other way round): if it
/// decodes, its position's canonical code decodes to an equal position.
/// The target says which other codes it lets through.
pub fn decode_lenient<G: Game + PartialEq + Debug>(code: &str) -> Option<G> {
    let pos = G::from_code(code).ok()?;
    assert_code_round_trips(&pos);
    Some(pos)
}

/// The position's code decodes to an equal position and re-encodes to
/// itself.
pub fn assert_code_round_trips<G: Game + PartialEq + Debug>(pos: &G) {
    let code = pos.to_code();
    let back = G::from_code(&code)
        .unwrap_or_else(|e| panic!("the code {code:?} of {pos:?} is refused: {e}"));
    assert_eq!(&back, pos, "the code {code:?} decodes to another position");
    assert_eq!(
        back.to_code(),
        code,
        "the code {code:?} re-encodes otherwise"
    );
}

/// How many positions reached by one legal action get their code checked
/// (spread over the legal list): every one would make a 19×19 gomoku
/// input cost hundreds of code round trips.
pub const CHILD_CODES: usize = 8;

/// What every position must satisfy:
///
/// - every legal action's notation reads back as the same action;
/// - every legal action plays, and the codes of [`CHILD_CODES`] of the
///   positions reached round-trip (there `play` and `play_traced` must
///   agree too);
/// - of the candidate actions `universe` (every action the game can write
///   for this position), none but the legal ones plays;
/// - the game goes on exactly when some action is legal.
pub fn assert_position<G: Game + PartialEq + Debug>(pos: &G, universe: &[G::Action])
where
    G::Action: Debug,
{
    let legal = pos.legal_actions();
    let every = legal.len().div_ceil(CHILD_CODES).max(1);
    for (i, &action) in legal.iter().enumerate() {
        let text = action.to_string();
        let read: G::Action = text
            .parse()
            .unwrap_or_else(|e| panic!("legal action {text:?} does not parse: {e}"));
        assert!(read == action, "{text:?} reads back as {read:?}");
        let next = pos
            .play(action)
            .unwrap_or_else(|e| panic!("legal action {text} refused in {pos:?}: {e}"));
        if i % every == 0 {
            let (traced, _) = pos
                .play_traced(action)
                .unwrap_or_else(|e| panic!("legal action {text} refused by play_traced: {e}"));
            assert_eq!(next, traced, "play and play_traced differ on {text}");
            assert_code_round_trips(&next);
        }
    }
    for &action in universe.iter().filter(|a| !legal.contains(a)) {
        assert!(
            pos.play(action).is_err(),
            "{action} is not listed as legal but plays in {pos:?}"
        );
    }
    let status = pos.status();
    assert_eq!(
        matches!(status, Status::Ongoing),
        !legal.is_empty(),
        "status {status:?} with {} legal actions in {pos:?}",
        legal.len()
    );
}

/// Plays one legal action per byte of `walk` (the byte picks it from the
/// legal list): every position on the way has a code that round-trips, and
/// the last one is handed to `last` (the full checks are too dear for
/// every step).
pub fn walk<G: Game + PartialEq + Debug>(start: &G, walk: &[u8], last: impl FnOnce(&G)) {
    let mut pos = start.clone();
    if walk.is_empty() {
        return;
    }
    for &b in walk.iter().take(MAX_WALK) {
        let legal = pos.legal_actions();
        if legal.is_empty() {
            break;
        }
        let action = legal[usize::from(b) % legal.len()];
        pos = match pos.play(action) {
            Ok(next) => next,
            Err(e) => panic!("legal action {action} refused: {e}"),
        };
        assert_code_round_trips(&pos);
    }
    last(&pos);
}

pub mod service;

/// The whole of a code target: `data` is split by [`code_and_walk`], the
/// code read by `decode` ([`decode_canonical`] or [`decode_lenient`]), the
/// position it gives checked by `check`, and so is the last position of the
/// walk from it.
pub fn code_target<G: Game + PartialEq + Debug>(
    data: &[u8],
    decode: fn(&str) -> Option<G>,
    check: fn(&G),
) {
    let Some((code, steps)) = code_and_walk(data) else {
        return;
    };
    let Some(pos) = decode(code) else {
        return;
    };
    check(&pos);
    walk(&pos, steps, check);
}

/// The record as PGN writes it back: a `}` inside a comment is written
/// `｝`, so that the comment stays one (see `qipan_records::xiangqi::pgn`).
pub fn as_pgn_keeps_it(record: &qipan_records::xiangqi::Record) -> qipan_records::xiangqi::Record {
    fn line(steps: &mut [qipan_records::xiangqi::Step]) {
        for step in steps {
            if let Some(c) = &mut step.comment {
                *c = c.replace('}', "｝");
            }
            for v in &mut step.variations {
                line(v);
            }
        }
    }
    let mut r = record.clone();
    if let Some(c) = &mut r.comment {
        *c = c.replace('}', "｝");
    }
    line(&mut r.moves);
    r
}
