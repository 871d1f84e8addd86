//! Xiangqi's repetition rules and move limit in persisted matches, on
//! SQLite and PostgreSQL: the cases of the rules crate's
//! `tests/data/xiangqi_repetition.txt` (Fairy-Stockfish's verdicts) played
//! through solo matches, a move-limit draw longer than the 100 kept moves,
//! and a takeback out of a repetition.

use qipan_rules::xiangqi::{Fen, History};
use serde_json::{json, Value};

use crate::db::{on_both_backends, spawn_match_app, Backend};
use crate::helpers::TestApp;

pub(crate) const DATA: &str = "crates/rules/tests/data/xiangqi_repetition.txt";

/// One case of the data file.
pub(crate) struct Case {
    pub(crate) line: usize,
    pub(crate) group: String,
    pub(crate) fen: String,
    pub(crate) moves: Vec<String>,
    /// `state`, `winner`, `reason` as a match view shows them.
    pub(crate) expected: (String, Option<String>, Option<String>),
}

pub(crate) fn cases() -> Vec<Case> {
    let path = format!("{}/{DATA}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = raw.split('\t').collect();
        let [source, fen, moves, result, reason] = cols[..] else {
            panic!("{DATA}:{}: expected 5 columns", n + 1);
        };
        let reason = (reason != "-").then(|| reason.to_owned());
        let expected = match result {
            "ongoing" => ("ongoing".to_owned(), None, None),
            "draw" => ("drawn".to_owned(), None, reason),
            "red-wins" => ("won".to_owned(), Some("red".to_owned()), reason),
            "black-wins" => ("won".to_owned(), Some("black".to_owned()), reason),
            other => panic!("{DATA}:{}: result {other:?}", n + 1),
        };
        let kind = source.split(':').next().unwrap_or(source);
        out.push(Case {
            line: n + 1,
            group: format!("{kind} {result} {}", cols[4]),
            fen: fen.to_owned(),
            moves: moves.split_whitespace().map(str::to_owned).collect(),
            expected,
        });
    }
    out
}

/// The halfmove clock of a FEN (0 when it has none).
fn halfmove(fen: &str) -> u32 {
    fen.split_whitespace()
        .nth(4)
        .map_or(0, |c| c.parse().expect("a halfmove clock"))
}

/// Every case that ends in a verdict on its last move and starts at a
/// halfmove clock of 0 (where a match made from a code starts).
fn match_cases() -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|case| case.expected.0 != "ongoing" && halfmove(&case.fen) == 0 && ends_last(case))
        .collect()
}

/// Whether the case's game goes on until its last move: some cases carry
/// on past a verdict (the reference judges the final position alone), and
/// a match refuses moves after its end.
fn ends_last(case: &Case) -> bool {
    let fen: Fen = case.fen.parse().expect("a FEN");
    let mut history = History::from(fen);
    for (i, mv) in case.moves.iter().enumerate() {
        if i > 0 && !history.verdict().is_ongoing() {
            return false;
        }
        history.push(mv.parse().expect("ICCS")).expect("legal");
    }
    true
}

/// The code of a FEN, through the import endpoint.
pub(crate) async fn code_of(app: &TestApp, fen: &str) -> String {
    let res = app
        .post_json(
            "/v1/xiangqi/import",
            &json!({ "format": "fen", "text": fen }),
        )
        .await;
    assert_eq!(
        res.status,
        200,
        "{fen}: {}",
        String::from_utf8_lossy(&res.body)
    );
    res.json()["code"].as_str().expect("code").to_owned()
}

/// A solo xiangqi match from `code`: (id, token).
async fn solo(app: &TestApp, code: &str) -> (String, String) {
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "xiangqi", "mode": "solo", "from": code }),
        )
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    (
        v["id"].as_str().expect("id").to_owned(),
        v["token"].as_str().expect("token").to_owned(),
    )
}

async fn post(app: &TestApp, id: &str, token: &str, what: &str, body: Option<Value>) -> Value {
    let auth = format!("Bearer {token}");
    let res = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/matches/{id}/{what}"),
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
            ],
            body.map(|b| b.to_string().into_bytes()),
        )
        .await;
    assert_eq!(
        res.status,
        200,
        "{what}: {}",
        String::from_utf8_lossy(&res.body)
    );
    res.json()
}

async fn play(app: &TestApp, id: &str, token: &str, moves: &[String]) -> Value {
    post(app, id, token, "play", Some(json!({ "actions": moves }))).await
}

pub(crate) fn status(v: &Value) -> (String, Option<String>, Option<String>) {
    let s = &v["status"];
    let text = |k: &str| s[k].as_str().map(str::to_owned);
    (
        text("state").expect("state"),
        text("winner"),
        text("reason"),
    )
}

on_both_backends!(
    every_verdict_case_ends_a_match_as_the_reference_does,
    a_move_limit_draw_is_kept_past_the_100_kept_moves,
    a_takeback_leaves_a_repetition_and_the_line_follows,
);

async fn every_verdict_case_ends_a_match_as_the_reference_does(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let sample = match_cases();
    assert!(sample.len() >= 800, "{} cases", sample.len());
    let groups: std::collections::BTreeSet<&str> =
        sample.iter().map(|c| c.group.as_str()).collect();
    for reason in [
        "perpetual-check",
        "perpetual-chase",
        "repetition",
        "move-limit",
    ] {
        assert!(
            groups.iter().any(|g| g.ends_with(reason)),
            "{reason} among the cases"
        );
    }
    for case in &sample {
        let at = format!("{DATA}:{} ({})", case.line, case.group);
        let code = code_of(&app, &case.fen).await;
        let (id, token) = solo(&app, &code).await;
        // All but the last move in one batch, then the last one: the
        // verdict falls on a line read back from the match row.
        let (last, before) = case.moves.split_last().expect("a case has moves");
        if !before.is_empty() {
            let v = play(&app, &id, &token, before).await;
            assert_eq!(status(&v).0, "ongoing", "{at}: before the last move");
        }
        let v = play(&app, &id, &token, std::slice::from_ref(last)).await;
        assert_eq!(status(&v), case.expected, "{at}");
        let events = app.get(&format!("/v1/matches/{id}")).await.json();
        assert_eq!(status(&events), case.expected, "{at}: read back");
    }
}

async fn a_move_limit_draw_is_kept_past_the_100_kept_moves(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let case = cases()
        .into_iter()
        .filter(|c| {
            halfmove(&c.fen) == 0
                && c.moves.len() > 100
                && c.expected.2.as_deref() == Some("move-limit")
        })
        .max_by_key(|c| c.moves.len())
        .expect("a move-limit case of more than 100 moves");
    let code = code_of(&app, &case.fen).await;
    let (id, token) = solo(&app, &code).await;
    // One move a request: the line outgrows the kept history.
    for (i, mv) in case.moves.iter().enumerate() {
        let v = play(&app, &id, &token, std::slice::from_ref(mv)).await;
        let want = if i + 1 == case.moves.len() {
            case.expected.clone()
        } else {
            ("ongoing".to_owned(), None, None)
        };
        assert_eq!(
            status(&v),
            want,
            "{DATA}:{} after move {}",
            case.line,
            i + 1
        );
    }
    let res = app.get(&format!("/v1/matches/{id}/history")).await;
    assert_eq!(res.json()["moves"].as_array().expect("moves").len(), 100);
}

async fn a_takeback_leaves_a_repetition_and_the_line_follows(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let start = code_of(
        &app,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    )
    .await;
    let (id, token) = solo(&app, &start).await;
    // A capture first, so the line starts after move 1 of the match.
    let opening: Vec<String> = ["h2e2", "h9g7", "e2e6"].map(str::to_owned).to_vec();
    play(&app, &id, &token, &opening).await;
    let cycle: Vec<String> = ["b9c7", "b0c2", "c7b9", "c2b0"].map(str::to_owned).to_vec();
    let twice: Vec<String> = cycle.iter().chain(&cycle).cloned().collect();
    let v = play(&app, &id, &token, &twice).await;
    let drawn = ("drawn".to_owned(), None, Some("repetition".to_owned()));
    assert_eq!(status(&v), drawn);
    assert_eq!(v["ply"], 11);

    // A move after the end is refused as after a mate.
    let auth = format!("Bearer {token}");
    let res = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/matches/{id}/play"),
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
            ],
            Some(json!({ "actions": ["a0a1"] }).to_string().into_bytes()),
        )
        .await;
    assert_eq!(res.status, 409, "{}", String::from_utf8_lossy(&res.body));

    // Undo: play goes on, and the same move draws again.
    let v = post(&app, &id, &token, "undo", None).await;
    assert_eq!(status(&v).0, "ongoing");
    assert_eq!(v["ply"], 10);
    let v = play(&app, &id, &token, &["c2b0".to_owned()]).await;
    assert_eq!(status(&v), drawn);

    // Back across the capture: the line before it is rebuilt, and the
    // same cycle from there repeats only after two more rounds.
    for ply in (1..11).rev() {
        let v = post(&app, &id, &token, "undo", None).await;
        assert_eq!(v["ply"], ply);
        assert_eq!(status(&v).0, "ongoing");
    }
    let v = play(&app, &id, &token, &["h9g7".to_owned(), "e2e6".to_owned()]).await;
    assert_eq!(status(&v).0, "ongoing");
    // Within one batch a move after the repetition is refused whole.
    let mut three = twice.clone();
    three.push("b9c7".to_owned());
    let res = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/matches/{id}/play"),
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
            ],
            Some(json!({ "actions": three }).to_string().into_bytes()),
        )
        .await;
    let p = res.problem(409, "game-over");
    assert_eq!(p["index"], 8, "{p}");
    let v = play(&app, &id, &token, &twice).await;
    assert_eq!(status(&v), drawn);
}
