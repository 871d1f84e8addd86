//! Benchmarks of the xiangqi rules and of the state view the HTTP handler
//! renders: `cargo bench --bench xiangqi`.
//!
//! - `perft/start/{4,5}`: the move generator (make/unmake, legality mostly
//!   judged without playing the move, bulk counting);
//! - `state/decode_legal_encode/{start,middlegame}`: code → position → legal
//!   moves, each named in WXF and Chinese → code: the rules' share of a
//!   `GET /v1/xiangqi/{code}`;
//! - `state/view/{start,middlegame}`: the whole body of that handler
//!   (`qipan::games::decode` and `view`), so the view and JSON on top of the rules show.
//!
//! Every benchmark asserts its result, so a wrong generator fails the run.
//! Compare figures only within one run (same machine, same load).

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use qipan_rules::xiangqi::{chinese, wxf, Move, Position};
use qipan_rules::GameKind;

/// The opening played from the start to reach [`MIDDLEGAME`]: both sides
/// developed, two pawns and a rook exchanged, pieces across the river.
const OPENING: &[&str] = &[
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5", "g3g4", "b7a7",
    "b2b6", "h7h3", "c3c4", "c5c4", "h0h3", "g6g5", "g4g5", "g7h5",
];

/// The code of the position after [`OPENING`], red to move.
const MIDDLEGAME: &str = "VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o";
/// Legal moves in [`MIDDLEGAME`].
const MIDDLEGAME_MOVES: usize = 47;

const START: &str = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";
const START_MOVES: usize = 44;

const BASE_URL: &str = "http://localhost:8080";

/// Leaf counts of the start position (published xiangqi perft figures).
const PERFT_START: [(u32, u64); 2] = [(4, 3_290_240), (5, 133_312_995)];

fn played_opening() -> Position {
    OPENING.iter().fold(Position::start(), |pos, text| {
        let m: Move = text.parse().expect("an ICCS move");
        pos.play(m).expect("a legal move")
    })
}

/// What `GET /v1/xiangqi/{code}` asks of the rules: decode, list the legal
/// moves with both notations, encode. Returns the move count.
fn decode_legal_encode(code: &str) -> usize {
    let pos = Position::from_code(code).expect("a valid code");
    let moves = pos.legal_actions();
    for &m in &moves {
        let w = wxf(&pos, m).expect("a WXF name for a legal move");
        let c = chinese(&pos, m).expect("a Chinese name for a legal move");
        black_box((w, c));
    }
    assert_eq!(pos.to_code(), code, "the code does not round-trip");
    moves.len()
}

fn view(code: &str) -> Vec<u8> {
    qipan::games::decode(GameKind::Xiangqi, code, "code")
        .map(|pos| qipan::games::view(&pos, BASE_URL).into_bytes())
        .unwrap_or_else(|e| panic!("GET /v1/xiangqi/{code} fails: {e}"))
}

fn view_by_serde(code: &str) -> Vec<u8> {
    qipan::games::decode(GameKind::Xiangqi, code, "code")
        .map_err(|e| e.to_string())
        .and_then(|pos| qipan::games::view_by_serde(&pos, BASE_URL).map_err(|e| e.to_string()))
        .map(String::into_bytes)
        .unwrap_or_else(|e| panic!("GET /v1/xiangqi/{code} by serde fails: {e}"))
}

fn perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft");
    group.sampling_mode(SamplingMode::Flat);
    for (depth, nodes) in PERFT_START {
        if depth >= 5 {
            // 0.6–0.9 s an iteration on this machine (2026-11-24): ten
            // samples of one or two iterations, 10–16 s.
            group
                .sample_size(10)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(10));
        } else {
            group
                .sample_size(20)
                .warm_up_time(Duration::from_secs(2))
                .measurement_time(Duration::from_secs(5));
        }
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("start", depth), &depth, |b, &depth| {
            b.iter(|| {
                let n = black_box(&start).perft_count(black_box(depth));
                assert_eq!(n, nodes, "perft({depth}) of the start position");
                n
            })
        });
    }
    group.finish();
}

fn state(c: &mut Criterion) {
    // The fixtures must still describe what they claim.
    assert_eq!(Position::start().to_code(), START);
    assert_eq!(
        played_opening().to_code(),
        MIDDLEGAME,
        "OPENING no longer reaches MIDDLEGAME"
    );
    let positions = [
        ("start", START, START_MOVES),
        ("middlegame", MIDDLEGAME, MIDDLEGAME_MOVES),
    ];
    for (_, code, moves) in positions {
        let body: serde_json::Value = serde_json::from_slice(&view(code)).expect("a JSON view");
        assert_eq!(body["code"], code);
        assert_eq!(body["legal_actions"].as_array().map(Vec::len), Some(moves));
    }

    let mut group = c.benchmark_group("state");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, code, moves) in positions {
        group.bench_with_input(
            BenchmarkId::new("decode_legal_encode", name),
            code,
            |b, code| {
                b.iter(|| {
                    let n = decode_legal_encode(black_box(code));
                    assert_eq!(n, moves);
                    n
                })
            },
        );
    }
    for (name, code, _) in positions {
        let len = view(code).len();
        group.bench_with_input(BenchmarkId::new("view", name), code, |b, code| {
            b.iter(|| {
                let body = view(black_box(code));
                assert_eq!(body.len(), len);
                body
            })
        });
        // The same view by serde_json, from the same definitions: what the
        // hand-written writer (`src/wire/json.rs` and the games' boards and
        // moves) saves.
        let serde = view_by_serde(code);
        assert_eq!(serde, view(code), "both writers write the same text");
        group.bench_with_input(BenchmarkId::new("view_serde", name), code, |b, code| {
            b.iter(|| {
                let body = view_by_serde(black_box(code));
                assert_eq!(body.len(), len);
                body
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft, state);
criterion_main!(benches);
