//! Xiangqi's repetition rules and move limit through the stateless API: a
//! play that sends the line that led to its code (`history`) is judged on
//! it, and answers the line to send next. Every case of the rules crate's
//! `tests/data/xiangqi_repetition.txt` that ends in a verdict is played
//! this way, one request a case, against Fairy-Stockfish's verdict.

use std::sync::Arc;

use qipan_rules::xiangqi::{Fen, History};
use qipan_rules::Status;
use serde_json::{json, Value};
use tokio::task::JoinSet;

use crate::helpers::{spawn_app, TestApp};
use crate::repetition::{cases, code_of, status, Case, DATA};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// How many cases are played at once.
const IN_FLIGHT: usize = 8;

fn strings(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| (*m).to_owned()).collect()
}

/// `POST /v1/xiangqi/{code}/play` with `history`.
async fn play_line(app: &TestApp, code: &str, actions: &[String], history: &Value) -> Value {
    let res = app
        .post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &json!({ "actions": actions, "history": history }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

/// What one case's play answered.
enum Answer {
    /// The verdict of the case, as a 200 view.
    Verdict,
    /// A `game-over` problem: the game was over before the last move.
    AfterTheEnd,
}

/// Plays one case: its FEN and all moves but the last as `history`, from
/// the code of the position they reach, the last move as the action.
async fn play_case(app: &TestApp, case: &Case) -> Answer {
    let at = format!("{DATA}:{} ({})", case.line, case.group);
    let Some((last, before)) = case.moves.split_last() else {
        return play_after_the_start(app, case, &at).await;
    };
    let start = code_of(app, &case.fen).await;
    let code = if before.is_empty() {
        start
    } else {
        let res = app
            .post_json(
                &format!("/v1/xiangqi/{start}/play"),
                &json!({ "actions": before }),
            )
            .await;
        assert_eq!(
            res.status,
            200,
            "{at}: {}",
            String::from_utf8_lossy(&res.body)
        );
        res.json()["code"].as_str().expect("code").to_owned()
    };
    let res = app
        .post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &json!({
                "actions": [last],
                "history": { "fen": case.fen, "moves": before },
            }),
        )
        .await;
    match verdict_before_last(case) {
        None => {
            assert_eq!(
                res.status,
                200,
                "{at}: {}",
                String::from_utf8_lossy(&res.body)
            );
            let v = res.json();
            assert_eq!(status(&v), case.expected, "{at}");
            let line = &v["history"];
            assert!(line["fen"].is_string(), "{at}: {v}");
            assert!(line["moves"].is_array(), "{at}: {v}");
            Answer::Verdict
        }
        Some(outcome) => {
            let p = res.problem(409, "game-over");
            assert_eq!(p["index"], 0, "{at}: {p}");
            assert_eq!(
                (&p["outcome"]["state"], &p["outcome"]["reason"]),
                (&json!(outcome.0), &json!(outcome.1)),
                "{at}: {p}"
            );
            Answer::AfterTheEnd
        }
    }
}

/// A case of no moves, whose FEN is judged already (its halfmove clock
/// has run out): any move from it, sent with the FEN as its line, is
/// refused with the case's verdict as the outcome.
async fn play_after_the_start(app: &TestApp, case: &Case, at: &str) -> Answer {
    let view = app.import_fen(&case.fen).await;
    assert_eq!(
        view.status,
        200,
        "{at}: {}",
        String::from_utf8_lossy(&view.body)
    );
    let view = view.json();
    let code = view["code"].as_str().expect("code");
    let first = &crate::helpers::actions(&view["legal_actions"])[0];
    let p = app
        .post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &json!({ "actions": [first], "history": { "fen": case.fen, "moves": [] } }),
        )
        .await
        .problem(409, "game-over");
    assert_eq!(
        status(&json!({ "status": p["outcome"] })),
        case.expected,
        "{at}: {p}"
    );
    Answer::AfterTheEnd
}

/// The end the rules see before the case's last move (state and reason),
/// if any: some cases carry on past a verdict (the reference judges the
/// final position alone), or start from a FEN whose halfmove clock has
/// already run out, and the service refuses a move after the end.
fn verdict_before_last(case: &Case) -> Option<(&'static str, &'static str)> {
    let fen: Fen = case.fen.parse().expect("a FEN");
    let mut history = History::from(fen);
    let before = &case.moves[..case.moves.len().saturating_sub(1)];
    for mv in before {
        history.push(mv.parse().expect("ICCS")).expect("legal");
    }
    match history.verdict() {
        Status::Ongoing => None,
        Status::Won { reason, .. } => Some(("won", reason.as_str())),
        Status::Drawn { reason } => Some(("drawn", reason.as_str())),
        Status::Over { reason } => Some(("over", reason.as_str())),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_verdict_of_the_reference_data_comes_through_a_stateless_play() {
    let app = Arc::new(spawn_app().await);
    let cases: Vec<Arc<Case>> = cases()
        .into_iter()
        .filter(|c| c.expected.0 != "ongoing")
        .map(Arc::new)
        .collect();
    assert!(cases.len() > 1000, "{} cases", cases.len());
    for reason in [
        "perpetual-check",
        "perpetual-chase",
        "repetition",
        "move-limit",
    ] {
        assert!(
            cases
                .iter()
                .any(|c| c.expected.2.as_deref() == Some(reason)),
            "{reason} among the cases"
        );
    }
    let mut pending = cases.iter().cloned();
    let mut running = JoinSet::new();
    let (mut verdicts, mut after_end) = (0, 0);
    loop {
        while running.len() < IN_FLIGHT {
            let Some(case) = pending.next() else { break };
            let app = Arc::clone(&app);
            running.spawn(async move { play_case(&app, &case).await });
        }
        let Some(done) = running.join_next().await else {
            break;
        };
        match done.expect("a case's task does not panic") {
            Answer::Verdict => verdicts += 1,
            Answer::AfterTheEnd => after_end += 1,
        }
    }
    assert_eq!(verdicts + after_end, cases.len());
    // Nearly every case is judged on its last move; a few follow a line
    // past an earlier end.
    assert!(
        verdicts > 1000,
        "{verdicts} verdicts, {after_end} after the end"
    );
}

#[tokio::test]
async fn a_history_that_does_not_lead_to_the_code_is_refused() {
    let app = spawn_app().await;
    let start = code_of(&app, START).await;
    let refused = |history: Value| {
        let app = &app;
        let start = &start;
        async move {
            app.post_json(
                &format!("/v1/xiangqi/{start}/play"),
                &json!({ "actions": ["h2e2"], "history": history }),
            )
            .await
            .problem(422, "history-mismatch")
        }
    };

    let p = refused(json!({ "fen": START, "moves": ["h2e2"] })).await;
    assert_eq!(p["field"], "history.moves", "{p}");
    assert_eq!(p["reason"], "other-position", "{p}");
    let detail = p["detail"].as_str().expect("detail");
    assert!(
        detail.contains("1C2C4/9/RNBAKABNR b - - 1 1")
            && detail.contains("1C5C1/9/RNBAKABNR w - - 1 1"),
        "both positions named: {detail}"
    );

    let p = refused(json!({ "fen": START, "moves": ["h2e2", "h2e2"] })).await;
    assert_eq!(
        (&p["field"], &p["reason"], &p["index"]),
        (&json!("history.moves"), &json!("illegal-move"), &json!(1)),
        "{p}"
    );

    let p = refused(json!({ "fen": START, "moves": ["h2e2", "h9"] })).await;
    assert_eq!(
        (&p["field"], &p["reason"], &p["index"]),
        (&json!("history.moves"), &json!("not-iccs"), &json!(1)),
        "{p}"
    );

    let p = refused(json!({ "fen": "rnbakabnr/9", "moves": [] })).await;
    assert_eq!(
        (&p["field"], &p["reason"]),
        (&json!("history.fen"), &json!("invalid-fen"))
    );

    // Another game has no line to send.
    let gomoku = app.get("/v1/gomoku/start").await.json();
    let code = gomoku["code"].as_str().expect("code");
    let p = app
        .post_json(
            &format!("/v1/gomoku/{code}/play"),
            &json!({ "actions": ["h8"], "history": { "fen": START, "moves": [] } }),
        )
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "history", "{p}");
}

#[tokio::test]
async fn the_returned_history_carries_a_line_from_play_to_play() {
    let app = spawn_app().await;
    let start = code_of(&app, START).await;
    // A capture: the line is cut back to the position before it.
    let v = play_line(
        &app,
        &start,
        &strings(&["h2e2", "h9g7", "e2e6"]),
        &json!({ "fen": START, "moves": [] }),
    )
    .await;
    assert_eq!(status(&v).0, "ongoing");
    assert_eq!(
        v["history"],
        json!({
            "fen": "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
            "moves": ["e2e6"],
        })
    );
    // Horses out and back twice: the third occurrence draws, across two
    // plays each sending the history the last one answered.
    let v = play_line(
        &app,
        v["code"].as_str().expect("code"),
        &strings(&["b9c7", "b0c2", "c7b9", "c2b0", "b9c7", "b0c2", "c7b9"]),
        &v["history"],
    )
    .await;
    assert_eq!(status(&v).0, "ongoing");
    assert_eq!(v["history"]["moves"].as_array().expect("moves").len(), 8);
    let v = play_line(
        &app,
        v["code"].as_str().expect("code"),
        &strings(&["c2b0"]),
        &v["history"],
    )
    .await;
    let drawn = ("drawn".to_owned(), None, Some("repetition".to_owned()));
    assert_eq!(status(&v), drawn);
    assert!(v["legal_actions"].as_array().is_some_and(|l| !l.is_empty()));

    // With the line, nothing more can be played; without it, the position
    // alone goes on.
    let code = v["code"].as_str().expect("code");
    let p = app
        .post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &json!({ "actions": ["b9c7"], "history": v["history"] }),
        )
        .await
        .problem(409, "game-over");
    assert_eq!(p["index"], 0, "{p}");
    assert_eq!(p["outcome"]["reason"], "repetition", "{p}");
    let plain = app.play(code, &["b9c7"]).await;
    assert_eq!(plain.status, 200);
    assert_eq!(status(&plain.json()).0, "ongoing");
}

#[tokio::test]
async fn without_history_a_play_answers_as_before() {
    let app = spawn_app().await;
    let start = code_of(&app, START).await;
    let plain = app.play(&start, &["h2e2", "h9g7"]).await;
    assert_eq!(plain.status, 200);
    let plain = plain.json();
    assert!(plain.get("history").is_none(), "{plain}");

    // The same play with a line answers the same view, plus the line, and
    // the FEN with the line's counters (a code alone writes `0 1`).
    let mut judged = play_line(
        &app,
        &start,
        &strings(&["h2e2", "h9g7"]),
        &json!({ "fen": START, "moves": [] }),
    )
    .await;
    let judged_fen = judged["fen"].as_str().expect("fen").to_owned();
    let plain_fen = plain["fen"].as_str().expect("fen");
    assert_eq!(
        judged_fen.strip_suffix(" 2 2"),
        plain_fen.strip_suffix(" 0 1")
    );
    let object = judged.as_object_mut().expect("an object");
    let line = object.remove("history").expect("history");
    object.insert("fen".to_owned(), json!(plain_fen));
    assert_eq!(judged, plain);
    assert_eq!(line, json!({ "fen": START, "moves": ["h2e2", "h9g7"] }));
}
