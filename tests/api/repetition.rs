//! Xiangqi's repetition rules and move limit in persisted matches, on
//! SQLite and PostgreSQL: the cases of the rules crate's
//! `tests/data/xiangqi_repetition.txt` (Fairy-Stockfish's verdicts), every
//! one played through a solo match (started from a code, or from the case's
//! FEN with its counters), a move-limit draw longer than the 100 kept moves, a
//! takeback out of a repetition, and the FEN counters a match keeps, shows
//! and restores.

use qipan_rules::xiangqi::{Fen, History, Side};
use qipan_rules::Status;
use serde_json::{json, Value};

use crate::db::{on_both_backends, spawn_match_app, Backend};
use crate::helpers::{TestApp, TestResponse};

pub(crate) const DATA: &str = "crates/rules/tests/data/xiangqi_repetition.txt";

/// A status as a view shows it: `state`, `winner`, `reason`.
pub(crate) type Verdict = (String, Option<String>, Option<String>);

/// One case of the data file.
pub(crate) struct Case {
    pub(crate) line: usize,
    pub(crate) group: String,
    pub(crate) fen: String,
    pub(crate) moves: Vec<String>,
    /// `state`, `winner`, `reason` as a match view shows them.
    pub(crate) expected: Verdict,
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

/// Where the rules end a case's game before its last move, if they do:
/// the number of moves played then (0 when the FEN's clock alone ends it)
/// and the verdict. Some cases carry on past a verdict (the reference
/// judges the final position alone), and a match refuses moves after its
/// end.
fn early_end(case: &Case) -> Option<(usize, Verdict)> {
    let fen: Fen = case.fen.parse().expect("a FEN");
    let mut history = History::from(fen);
    for (i, mv) in case.moves.iter().enumerate() {
        let verdict = history.verdict();
        if !verdict.is_ongoing() {
            return Some((i, shown(verdict)));
        }
        history.push(mv.parse().expect("ICCS")).expect("legal");
    }
    None
}

/// A rules verdict as a match view shows it.
fn shown(verdict: Status<Side>) -> Verdict {
    let side = |s: Side| Some(s.as_str().to_owned());
    match verdict {
        Status::Ongoing => ("ongoing".to_owned(), None, None),
        Status::Won { winner, reason } => (
            "won".to_owned(),
            side(winner),
            Some(reason.as_str().to_owned()),
        ),
        Status::Drawn { reason } => ("drawn".to_owned(), None, Some(reason.as_str().to_owned())),
        Status::Over { reason } => ("over".to_owned(), None, Some(reason.as_str().to_owned())),
    }
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
    create(
        app,
        json!({ "game": "xiangqi", "mode": "solo", "from": code }),
    )
    .await
}

/// A solo xiangqi match from a FEN, counters and all: (id, token).
async fn solo_from_fen(app: &TestApp, fen: &str) -> (String, String) {
    let import = json!({ "format": "fen", "text": fen });
    create(
        app,
        json!({ "game": "xiangqi", "mode": "solo", "import": import }),
    )
    .await
}

async fn create(app: &TestApp, body: Value) -> (String, String) {
    let res = app.post_json("/v1/matches", &body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    (
        v["id"].as_str().expect("id").to_owned(),
        v["token"].as_str().expect("token").to_owned(),
    )
}

/// `POST /v1/matches/{id}/{what}` with the seat's token, answered as it is.
async fn send(
    app: &TestApp,
    id: &str,
    token: &str,
    what: &str,
    body: Option<Value>,
) -> TestResponse {
    let auth = format!("Bearer {token}");
    app.request(
        reqwest::Method::POST,
        &format!("/v1/matches/{id}/{what}"),
        &[
            ("content-type", "application/json"),
            ("authorization", &auth),
        ],
        body.map(|b| b.to_string().into_bytes()),
    )
    .await
}

async fn post(app: &TestApp, id: &str, token: &str, what: &str, body: Option<Value>) -> Value {
    let res = send(app, id, token, what, body).await;
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

pub(crate) fn status(v: &Value) -> Verdict {
    let s = &v["status"];
    let text = |k: &str| s[k].as_str().map(str::to_owned);
    (
        text("state").expect("state"),
        text("winner"),
        text("reason"),
    )
}

on_both_backends!(
    every_case_of_the_data_file_goes_through_a_match,
    a_move_limit_draw_is_kept_past_the_100_kept_moves,
    a_takeback_leaves_a_repetition_and_the_line_follows,
    a_match_from_a_fen_keeps_its_counters,
    a_takeback_across_a_capture_past_the_kept_moves_lets_play_go_on,
);

/// Every case of the data file through a match. A case whose verdict
/// falls on its last move (or never) must end as the reference says; one
/// that the rules end earlier is played up to there, must end there as the
/// rules crate's history says, and refuses the next move.
async fn every_case_of_the_data_file_goes_through_a_match(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let all = cases();
    let judged_last = all
        .iter()
        .filter(|c| c.expected.0 != "ongoing" && early_end(c).is_none())
        .count();
    assert!(judged_last >= 1100, "{judged_last} cases");
    assert!(
        all.iter()
            .filter(|c| halfmove(&c.fen) > 0 && early_end(c).is_none())
            .count()
            >= 300,
        "cases that start at a nonzero halfmove clock"
    );
    let groups: std::collections::BTreeSet<&str> = all.iter().map(|c| c.group.as_str()).collect();
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
    for case in &all {
        let at = format!("{DATA}:{} ({})", case.line, case.group);
        // A match made from a code starts at a halfmove clock of 0; one
        // made from the FEN starts at the FEN's.
        let (id, token) = if halfmove(&case.fen) == 0 && case.line % 2 == 0 {
            solo(&app, &code_of(&app, &case.fen).await).await
        } else {
            solo_from_fen(&app, &case.fen).await
        };
        let (played, expected) = match early_end(case) {
            Some((k, verdict)) => (k, verdict),
            None => (case.moves.len(), case.expected.clone()),
        };
        // All but the last move in one batch, then the last one: the
        // verdict falls on a line read back from the match row.
        match case.moves[..played].split_last() {
            None => {
                let v = app.get(&format!("/v1/matches/{id}")).await.json();
                assert_eq!(status(&v), expected, "{at}: at creation");
            }
            Some((last, before)) => {
                if !before.is_empty() {
                    let v = play(&app, &id, &token, before).await;
                    assert_eq!(status(&v).0, "ongoing", "{at}: before the last move");
                }
                let v = play(&app, &id, &token, std::slice::from_ref(last)).await;
                assert_eq!(status(&v), expected, "{at}");
                let read = app.get(&format!("/v1/matches/{id}")).await.json();
                assert_eq!(status(&read), expected, "{at}: read back");
            }
        }
        if let Some(next) = case.moves.get(played) {
            let res = send(
                &app,
                &id,
                &token,
                "play",
                Some(json!({ "actions": [next] })),
            )
            .await;
            res.problem(409, "game-over");
        }
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
    let res = send(
        &app,
        &id,
        &token,
        "play",
        Some(json!({ "actions": ["a0a1"] })),
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
    let res = send(&app, &id, &token, "play", Some(json!({ "actions": three }))).await;
    let p = res.problem(409, "game-over");
    assert_eq!(p["index"], 8, "{p}");
    let v = play(&app, &id, &token, &twice).await;
    assert_eq!(status(&v), drawn);
}

/// The halfmove clock and fullmove number a view's `fen` ends with.
fn counters(view: &Value) -> (u32, u32) {
    let fen = view["state"]["fen"]
        .as_str()
        .unwrap_or_else(|| panic!("a fen: {view}"));
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [.., clock, number] = fields[..] else {
        panic!("{fen}: no counters");
    };
    (
        clock.parse().expect("a halfmove clock"),
        number.parse().expect("a fullmove number"),
    )
}

async fn a_match_from_a_fen_keeps_its_counters(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 37 20";
    let (id, token) = solo_from_fen(&app, fen).await;
    let v = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(v["state"]["fen"], fen, "{v}");
    assert_eq!(v["state"]["history"], json!({ "fen": fen, "moves": [] }));
    assert_eq!(status(&v).0, "ongoing");

    // Each move counts; black's completes a move; a capture resets the
    // clock and starts the line there.
    let mut seen = Vec::new();
    for mv in ["h2e2", "h9g7", "e2e6", "b9c7"] {
        let v = play(&app, &id, &token, &[mv.to_owned()]).await;
        seen.push(counters(&v));
    }
    assert_eq!(seen, [(38, 20), (39, 21), (0, 21), (1, 22)]);
    let v = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(v["state"]["history"]["moves"], json!(["e2e6", "b9c7"]));
    assert_eq!(
        v["state"]["history"]["fen"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 39 21"
    );

    // Takebacks: inside the line, then across the capture (rebuilt from
    // the kept moves, which start at the FEN's clock).
    let mut back = Vec::new();
    for _ in 0..4 {
        back.push(counters(&post(&app, &id, &token, "undo", None).await));
    }
    assert_eq!(back, [(0, 21), (39, 21), (38, 20), (37, 20)]);

    // The FEN taken out of the match goes into the stateless API with its
    // counters: the import answers the line to send with the next play.
    let v = play(&app, &id, &token, &["h2e2".to_owned()]).await;
    let out = v["state"]["fen"].as_str().expect("fen").to_owned();
    assert!(out.ends_with(" b - - 38 20"), "{out}");
    let imported = app
        .post_json(
            "/v1/xiangqi/import",
            &json!({ "format": "fen", "text": out }),
        )
        .await;
    assert_eq!(imported.status, 200);
    let imported = imported.json();
    assert_eq!(imported["fen"], out.as_str());
    assert_eq!(imported["history"], json!({ "fen": out, "moves": [] }));
    let code = imported["code"].as_str().expect("code");
    let res = app
        .post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &json!({ "actions": ["h9g7"], "history": imported["history"] }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let next = res.json();
    assert!(
        next["fen"].as_str().expect("fen").ends_with(" w - - 39 21"),
        "{next}"
    );

    // `from` and `import` are two starts: one at a time.
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "xiangqi", "from": code, "import": { "format": "fen", "text": fen } }),
        )
        .await;
    let p = res.problem(400, "invalid-field");
    assert_eq!(p["field"], "import", "{p}");
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "xiangqi", "variant": "standard", "import": { "format": "fen", "text": fen } }),
        )
        .await;
    let p = res.problem(400, "invalid-field");
    assert_eq!(p["field"], "import", "{p}");
    // A bad FEN is named as the import endpoint names it.
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "xiangqi", "import": { "format": "fen", "text": "rnbakabnr/9 w" } }),
        )
        .await;
    assert_eq!(res.status, 400, "{}", String::from_utf8_lossy(&res.body));

    // A FEN whose clock has run out is a draw from the start, as the
    // reference judges it.
    let spent = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 120 70";
    let want = History::from(spent.parse::<Fen>().expect("a FEN")).verdict();
    assert!(!want.is_ongoing(), "the move limit has passed: {want:?}");
    let (id, _) = solo_from_fen(&app, spent).await;
    let v = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(
        status(&v),
        ("drawn".to_owned(), None, Some("move-limit".to_owned()))
    );
}

/// The longest move-limit case that runs past the kept history, played
/// to 10 moves before its end; then a capture is made and taken back. The
/// stretch without capture began before the oldest of the 100 kept moves,
/// so the rebuilt line cannot see the checks that extended the move limit:
/// play must go on (a line that counted the whole clock without those
/// checks would draw at once), and the case's moves before its last are
/// still played.
async fn a_takeback_across_a_capture_past_the_kept_moves_lets_play_go_on(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let case = cases()
        .into_iter()
        .filter(|c| c.moves.len() > 115 && c.expected.2.as_deref() == Some("move-limit"))
        .filter(|c| capture_at(c).is_some())
        .max_by_key(|c| c.moves.len())
        .expect("a long move-limit case with a capture available near its end");
    let (capture, clock) = capture_at(&case).expect("checked above");
    let at = format!("{DATA}:{}", case.line);
    let (head, tail) = case.moves.split_at(case.moves.len() - 10);
    let (id, token) = solo_from_fen(&app, &case.fen).await;
    let v = play(&app, &id, &token, head).await;
    assert_eq!(status(&v).0, "ongoing", "{at}");
    assert_eq!(counters(&v).0, clock, "{at}");
    let v = play(&app, &id, &token, std::slice::from_ref(&capture)).await;
    assert_eq!(counters(&v).0, 0, "{at}: {capture} captures");
    let v = post(&app, &id, &token, "undo", None).await;
    assert_eq!(status(&v).0, "ongoing", "{at}: after the takeback");
    assert_eq!(v["ply"], head.len(), "{at}");
    let (_, rest) = tail.split_last().expect("ten moves");
    for mv in rest {
        let v = play(&app, &id, &token, std::slice::from_ref(mv)).await;
        assert_eq!(status(&v).0, "ongoing", "{at}: {mv}");
    }
}

/// A capture that can be played 10 moves before the end of `case` after a
/// stretch without capture longer than the kept history, and the halfmove
/// clock there.
fn capture_at(case: &Case) -> Option<(String, u32)> {
    let fen: Fen = case.fen.parse().expect("a FEN");
    let mut history = History::from(fen);
    for mv in &case.moves[..case.moves.len() - 10] {
        history.push(mv.parse().expect("ICCS")).expect("legal");
    }
    let clock = history.counters().halfmove_clock;
    if clock <= 100 {
        return None;
    }
    let position = history.position().clone();
    position
        .legal_actions()
        .into_iter()
        .find(|m| {
            position.piece_at(m.to).is_some() && {
                let mut after = history.clone();
                after.push(*m).is_ok() && after.verdict().is_ongoing()
            }
        })
        .map(|m| (m.to_string(), clock))
}
