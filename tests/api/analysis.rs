//! Analysis and the computer's move through the stateless API: the
//! contract (lines the play endpoint takes, typed scores), the caps, the
//! refusals, and the search budget and queue. Analysis reads no database,
//! so these run without one.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, TestApp, TestResponse, START};

/// The code of the gomoku position `moves` reach from the empty board.
async fn gomoku(app: &TestApp, moves: &[&str]) -> String {
    let start = app.get("/v1/gomoku/start").await.json();
    let code = start["code"].as_str().expect("code");
    let played = app
        .post_json(
            &format!("/v1/gomoku/{code}/play"),
            &json!({ "actions": moves }),
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.json());
    played.json()["code"].as_str().expect("code").to_owned()
}

/// Black to move with an open four h8–k8: g8 and l8 win at once.
async fn black_has_four(app: &TestApp) -> String {
    gomoku(app, &["h8", "h9", "i8", "i9", "j8", "j9", "k8", "a1"]).await
}

async fn quoridor_start(app: &TestApp) -> String {
    app.get("/v1/quoridor/start").await.json()["code"]
        .as_str()
        .expect("code")
        .to_owned()
}

fn query_refused(res: &TestResponse, field: &str) {
    let p = res.problem(400, "invalid-query");
    assert_eq!(p["field"], json!(field), "{p}");
}

#[tokio::test]
async fn a_gomoku_analysis_answers_lines_the_play_endpoint_takes() {
    let app = spawn_app().await;
    let code = black_has_four(&app).await;
    let res = app
        .get(&format!("/v1/gomoku/{code}/analysis?nodes=20000&lines=3"))
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("no-store"));
    let a = res.json();
    let lines = a["lines"].as_array().expect("lines");
    assert!(!lines.is_empty() && lines.len() <= 3, "{a}");
    let best = &lines[0];
    assert_eq!(
        best["score"],
        json!({"kind": "forced-win", "value": 1}),
        "{a}"
    );
    let first = best["actions"][0].as_str().expect("an action");
    assert!(["g8", "l8"].contains(&first), "{a}");
    assert_eq!(best["pv"][0], best["actions"][0]);
    assert!(a["nodes"].as_u64().is_some() && a["depth"].as_u64().is_some());
    // The line's actions are what play takes: they win.
    let won = app
        .post_json(
            &format!("/v1/gomoku/{code}/play"),
            &json!({ "actions": best["actions"] }),
        )
        .await
        .json();
    assert_eq!(won["status"]["state"], "won", "{won}");
    assert_eq!(won["status"]["winner"], "black", "{won}");
}

#[tokio::test]
async fn a_node_limited_analysis_is_the_same_every_time() {
    let app = spawn_app().await;
    let code = gomoku(&app, &["h8", "i9", "h9"]).await;
    let path = format!("/v1/gomoku/{code}/analysis?nodes=3000&lines=2");
    let ask = || app.get(&path);
    let strip = |mut v: Value| {
        v.as_object_mut().expect("an object").remove("ms");
        v
    };
    let first = strip(ask().await.json());
    assert_eq!(first["lines"].as_array().map(Vec::len), Some(2), "{first}");
    assert_eq!(first, strip(ask().await.json()));
    // A white-to-move evaluation is an evaluation, not a forced result.
    assert_eq!(first["lines"][0]["score"]["kind"], "evaluation", "{first}");
}

#[tokio::test]
async fn a_quoridor_analysis_scores_the_race_and_its_move_plays() {
    let app = spawn_app().await;
    let code = quoridor_start(&app).await;
    let a = app
        .get(&format!("/v1/quoridor/{code}/analysis?nodes=4000&lines=2"))
        .await
        .json();
    let best = &a["lines"][0];
    assert_eq!(best["score"]["kind"], "path-difference", "{a}");
    let played = app
        .post_json(
            &format!("/v1/quoridor/{code}/play"),
            &json!({ "actions": best["actions"] }),
        )
        .await;
    assert_eq!(played.status, 200, "{}", played.json());
    // POST with an empty body is the same analysis.
    let posted = app
        .post_json(
            &format!("/v1/quoridor/{code}/analysis?nodes=4000&lines=2"),
            &json!({}),
        )
        .await
        .json();
    assert_eq!(posted["lines"], a["lines"]);
}

#[tokio::test]
async fn the_caps_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    let code = black_has_four(&app).await;
    let path = format!("/v1/gomoku/{code}/analysis");
    query_refused(&app.get(&format!("{path}?ms=5001")).await, "ms");
    query_refused(&app.get(&format!("{path}?ms=0")).await, "ms");
    query_refused(&app.get(&format!("{path}?lines=11")).await, "lines");
    query_refused(&app.get(&format!("{path}?nodes=5000001")).await, "nodes");
    app.get(&format!("{path}?ms=fast"))
        .await
        .problem(400, "invalid-query");
    app.get(&format!("{path}?depth=3"))
        .await
        .problem(400, "invalid-query");
    // At the caps, it answers.
    let ok = app
        .get(&format!("{path}?ms=5000&lines=10&nodes=2000"))
        .await;
    assert_eq!(ok.status, 200);
    let moves = format!("/v1/gomoku/{code}/move");
    query_refused(&app.get(&moves).await, "level");
    query_refused(&app.get(&format!("{moves}?level=0")).await, "level");
    query_refused(&app.get(&format!("{moves}?level=11")).await, "level");
    query_refused(&app.get(&format!("{moves}?level=3&ms=6000")).await, "ms");
}

#[tokio::test]
async fn a_finished_game_is_not_analysed() {
    let app = spawn_app().await;
    let code = gomoku(
        &app,
        &["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"],
    )
    .await;
    let p = app
        .get(&format!("/v1/gomoku/{code}/analysis"))
        .await
        .problem(409, "game-over");
    assert_eq!(p["outcome"]["winner"], "black", "{p}");
    app.get(&format!("/v1/gomoku/{code}/move?level=5"))
        .await
        .problem(409, "game-over");
}

#[tokio::test]
async fn xiangqi_2048_and_tetris_are_searched_and_their_lines_play() {
    let app = spawn_app().await;
    // Xiangqi, from the code alone and from a line that leads to it.
    let a = app
        .get(&format!("/v1/xiangqi/{START}/analysis?nodes=20000&lines=3"))
        .await;
    assert_eq!(a.status, 200, "{}", a.json());
    let a = a.json();
    let lines = a["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{a}");
    let firsts: Vec<&Value> = lines.iter().map(|l| &l["actions"][0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2], "{a}");
    assert!(
        matches!(
            lines[0]["score"]["kind"].as_str(),
            Some("centipawns" | "mate")
        ),
        "{a}"
    );
    let first = lines[0]["actions"][0].as_str().expect("a move");
    assert_eq!(app.play(START, &[first]).await.status, 200);
    let line = json!({ "history": {
        "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "moves": []
    }});
    let by_line = app
        .post_json(
            &format!("/v1/xiangqi/{START}/analysis?nodes=20000&lines=3"),
            &line,
        )
        .await
        .json();
    assert_eq!(
        by_line["lines"], a["lines"],
        "the same search, the same lines"
    );
    // 2048 and tetris: each line's actions are what play takes.
    for game in ["2048", "tetris"] {
        let start = app.get(&format!("/v1/{game}/start?seed=7")).await.json();
        let code = start["code"].as_str().expect("code");
        let a = app
            .get(&format!("/v1/{game}/{code}/analysis?nodes=5000&lines=2"))
            .await;
        assert_eq!(a.status, 200, "{game}: {}", a.json());
        let a = a.json();
        let actions = a["lines"][0]["actions"].clone();
        let played = app
            .post_json(
                &format!("/v1/{game}/{code}/play"),
                &json!({ "actions": actions }),
            )
            .await;
        assert_eq!(played.status, 200, "{game}: {a} {}", played.json());
        let m = app.get(&format!("/v1/{game}/{code}/move?level=3")).await;
        assert_eq!(m.status, 200, "{game}: {}", m.json());
        let m = m.json();
        let played = app
            .post_json(
                &format!("/v1/{game}/{code}/play"),
                &json!({ "actions": m["actions"] }),
            )
            .await;
        assert_eq!(played.status, 200, "{game}: {m}");
        if game == "tetris" {
            assert_eq!(
                m["actions"].as_array().and_then(|a| a.last()),
                Some(&json!("hard")),
                "{m}"
            );
        }
    }
    // Xiangqi's line is read (and must lead to the code) before the search.
    let elsewhere = json!({ "history": {
        "fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "moves": ["h2e2"]
    }});
    app.post_json(&format!("/v1/xiangqi/{START}/analysis"), &elsewhere)
        .await
        .problem(422, "history-mismatch");
    // Other games take no line.
    let code = black_has_four(&app).await;
    let p = app
        .post_json(&format!("/v1/gomoku/{code}/analysis"), &line)
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "history");
}

#[tokio::test]
async fn the_computer_moves_at_every_level_and_never_misses_a_five() {
    let app = spawn_app().await;
    let code = black_has_four(&app).await;
    for level in [1, 5, 10] {
        let m = app
            .get(&format!("/v1/gomoku/{code}/move?level={level}&ms=200"))
            .await;
        assert_eq!(m.status, 200);
        assert_eq!(m.header("cache-control"), Some("no-store"));
        let m = m.json();
        assert_eq!(m["level"], level);
        assert!(["g8", "l8"].contains(&m["move"].as_str().unwrap()), "{m}");
        assert_eq!(m["actions"], json!([m["move"]]));
    }
    let code = quoridor_start(&app).await;
    let m = app
        .get(&format!("/v1/quoridor/{code}/move?level=2&seed=9"))
        .await
        .json();
    let played = app
        .post_json(
            &format!("/v1/quoridor/{code}/play"),
            &json!({ "actions": m["actions"] }),
        )
        .await;
    assert_eq!(played.status, 200, "{m}");
}

#[tokio::test]
async fn search_time_has_a_budget_per_client() {
    let mut settings = qipan::configuration::Settings::for_tests();
    // 100 ms a second, bursts of 1000.
    settings.rate_search = 100;
    let app = spawn_app_with(settings).await;
    let code = black_has_four(&app).await;
    let path = format!("/v1/gomoku/{code}/analysis");
    assert_eq!(app.get(&format!("{path}?ms=600")).await.status, 200);
    let refused = app.get(&format!("{path}?ms=600")).await;
    let p = refused.problem(429, "rate-limited");
    assert_eq!(p["budget"], "search");
    let wait = p["retry_after"].as_u64().unwrap();
    assert_eq!(
        refused.header("retry-after"),
        Some(wait.to_string().as_str())
    );
    assert_eq!(
        refused.header("ratelimit-policy"),
        Some("\"search\";q=100;w=1")
    );
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("these 600 milliseconds of search"),
        "{p}"
    );
    // A move counts against the same budget; a cheap one still passes.
    assert_eq!(
        app.get(&format!("/v1/gomoku/{code}/move?level=1&ms=300"))
            .await
            .status,
        200
    );
    app.get(&format!("/v1/gomoku/{code}/move?level=10&ms=2000"))
        .await
        .problem(429, "rate-limited");
}

#[tokio::test]
async fn a_full_search_queue_answers_503_at_once_and_play_goes_on() {
    let mut settings = qipan::configuration::Settings::for_tests();
    settings.analysis_threads = Some(1);
    settings.analysis_queue = 0;
    let app = std::sync::Arc::new(spawn_app_with(settings).await);
    let code = quoridor_start(&app).await;
    let long = tokio::spawn({
        let app = app.clone();
        let code = code.clone();
        async move {
            app.get(&format!("/v1/quoridor/{code}/analysis?ms=1500"))
                .await
                .status
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let busy = app
        .get(&format!("/v1/quoridor/{code}/analysis?ms=100"))
        .await;
    busy.problem(503, "analysis-busy");
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert!(started.elapsed() < Duration::from_millis(1000));
    // Play is answered meanwhile.
    let played = app
        .request(
            Method::POST,
            &format!("/v1/quoridor/{code}/play"),
            &[("content-type", "application/json")],
            Some(json!({"actions": ["e2"]}).to_string().into_bytes()),
        )
        .await;
    assert_eq!(played.status, 200);
    assert_eq!(long.await.unwrap(), 200);
}
