//! Tetris through the stateless API: seeded and random starts, batches of
//! inputs, drop and line-clear scoring, placements, hold, `json` import and
//! export, and refusals.

use serde_json::{json, Value};

use crate::helpers::{actions, spawn_app, TestApp, TestResponse};

/// The new game from seed 7, as the rules module documents it.
const SEED7: &str = "AWKoAU6Aq1TNpY-77ohQAAMA";

async fn play(app: &TestApp, code: &str, moves: &[&str]) -> TestResponse {
    app.post_json(
        &format!("/v1/tetris/{code}/play"),
        &json!({ "actions": moves }),
    )
    .await
}

async fn import(app: &TestApp, body: Value) -> TestResponse {
    app.post_json("/v1/tetris/import", &body).await
}

fn code_of(v: &Value) -> String {
    v["code"].as_str().expect("code").to_owned()
}

#[tokio::test]
async fn a_seeded_start_is_always_the_same_game() {
    let app = spawn_app().await;
    let a = app.get("/v1/tetris/start?seed=7").await;
    let b = app.get("/v1/tetris/start?seed=7").await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body, b.body);
    assert!(a.header("etag").is_some());
    let v = a.json();
    assert_eq!(v["code"], SEED7);
    assert_eq!(v["to_move"], "player");
    assert_eq!(v["piece"]["kind"], "S");
    assert_eq!(v["piece"]["rotation"], "0");
    assert_eq!(
        v["piece"]["cells"],
        json!([[3, 19], [4, 19], [4, 20], [5, 20]])
    );
    assert_eq!(v["queue"], json!(["J", "O", "L", "Z", "I"]));
    assert_eq!(v["hold"], Value::Null);
    assert_eq!(v["can_hold"], true);
    assert_eq!(
        (v["score"].clone(), v["lines"].clone(), v["level"].clone()),
        (json!(0), json!(0), json!(1))
    );
    assert_eq!(v["last_lock"], Value::Null);
    // Row 19 (the top visible row) shows the S's lower cells.
    assert_eq!(v["board"][0][3], "S");
    assert_eq!(v["board"][0][4], "S");
    assert_eq!(
        v["board"][19],
        json!([null, null, null, null, null, null, null, null, null, null])
    );
}

#[tokio::test]
async fn a_start_without_seed_is_not_stored() {
    let app = spawn_app().await;
    let res = app.get("/v1/tetris/start").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert!(res.header("etag").is_none());
}

#[tokio::test]
async fn a_batch_and_a_hard_drop_score() {
    let app = spawn_app().await;
    // Seed 7's S falls 19 rows: 2 points a row.
    let v = play(&app, SEED7, &["hard"]).await.json();
    assert_eq!(
        v["last_lock"],
        json!({"lines": 0, "tspin": null, "points": 38})
    );
    assert_eq!(v["score"], 38);
    assert_eq!(v["piece"]["kind"], "J");
    assert_eq!(v["queue"], json!(["O", "L", "Z", "I", "T"]));

    let res = play(&app, SEED7, &["left", "left", "soft", "soft", "cw", "hard"]).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    let points = v["last_lock"]["points"].as_u64().expect("a lock");
    assert_eq!(v["score"].as_u64(), Some(points + 2));
    // A batch not ending in a lock has no last lock.
    let v = play(&app, SEED7, &["left", "tick"]).await.json();
    assert_eq!(v["last_lock"], Value::Null);
}

#[tokio::test]
async fn placements_on_an_empty_field() {
    let app = spawn_app().await;
    let v = app.get("/v1/tetris/start?seed=7").await.json();
    let placements = v["placements"].as_array().expect("placements");
    assert_eq!(placements.len(), 17);
    assert!(placements.iter().all(|p| p["kind"] == "S"
        && p["actions"].as_array().and_then(|a| a.last()) == Some(&json!("hard"))));
    let v = import(&app, json!({"format": "json", "piece": "T", "seed": 7}))
        .await
        .json();
    assert_eq!(v["piece"]["kind"], "T");
    assert_eq!(v["placements"].as_array().map(Vec::len), Some(34));
}

#[tokio::test]
async fn an_i_clears_the_bottom_row() {
    let app = spawn_app().await;
    let res = import(
        &app,
        json!({"format": "json", "rows": ["X.........", "XXX....XXX"], "piece": "I", "queue": ["O"], "seed": 7}),
    )
    .await;
    assert_eq!(res.status, 200);
    let v = res.json();
    let target = json!([[3, 0], [4, 0], [5, 0], [6, 0]]);
    let place = v["placements"]
        .as_array()
        .expect("placements")
        .iter()
        .find(|p| p["cells"] == target)
        .expect("the I fits the gap")
        .clone();
    let moves: Vec<&str> = place["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a.as_str().expect("action"))
        .collect();
    let v = play(&app, &code_of(&v), &moves).await.json();
    assert_eq!(v["lines"], 1);
    assert_eq!(v["last_lock"]["lines"], 1);
    let points = v["last_lock"]["points"].as_u64().expect("points");
    // 100 for a single at level 1, plus the drop points.
    assert!(points >= 100);
    assert_eq!(v["score"].as_u64(), Some(points));
    if moves == ["hard"] {
        assert_eq!(points, 100 + 2 * 19);
    }
    // The row above came down.
    let mut bottom = vec![Value::Null; 10];
    bottom[0] = json!("X");
    assert_eq!(v["board"][19], Value::Array(bottom));
}

#[tokio::test]
async fn hold_swaps_once_per_piece() {
    let app = spawn_app().await;
    let v = play(&app, SEED7, &["hold"]).await.json();
    assert_eq!(v["hold"], "S");
    assert_eq!(v["piece"]["kind"], "J");
    assert_eq!(v["can_hold"], false);
    assert!(!actions(&v["legal_actions"]).contains(&"hold".to_owned()));
    let p = play(&app, &code_of(&v), &["hold"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 0);
}

#[tokio::test]
async fn json_export_posts_back() {
    let app = spawn_app().await;
    let res = app.get(&format!("/v1/tetris/{SEED7}/export")).await;
    assert_eq!(res.status, 200);
    let export = res.json();
    assert_eq!(export["game"], "tetris");
    assert_eq!(export["format"], "json");
    assert_eq!(export["piece"], "S");
    assert_eq!(export["queue"], json!(["J", "O", "L", "Z", "I"]));
    assert_eq!(export["rows"].as_array().map(Vec::len), Some(20));
    let back = import(&app, export.clone()).await;
    assert_eq!(back.status, 200);
    let v = back.json();
    // The export leaves out the rest of the bag, so the code may differ;
    // what the export shows is kept.
    assert_eq!(v["piece"]["kind"], export["piece"]);
    for key in ["queue", "hold", "seed", "score", "lines", "level"] {
        assert_eq!(v[key], export[key], "{key}");
    }
    let again = app
        .get(&format!("/v1/tetris/{}/export", code_of(&v)))
        .await
        .json();
    for key in [
        "rows", "piece", "queue", "hold", "seed", "score", "lines", "level",
    ] {
        assert_eq!(again[key], export[key], "{key}");
    }
}

#[tokio::test]
async fn impossible_imports_name_their_reason() {
    let app = spawn_app().await;
    let with_rows = |rows: Value| json!({"format": "json", "rows": rows, "piece": "T", "seed": 1});
    let p = import(&app, with_rows(json!(["XXXXXXXXXX"])))
        .await
        .problem(400, "invalid-import");
    assert_eq!(
        (p["reason"].clone(), p["field"].clone(), p["row"].clone()),
        (json!("full-row"), json!("rows"), json!(0))
    );
    let p = import(&app, with_rows(json!(["..........", "XXX"])))
        .await
        .problem(400, "invalid-import");
    assert_eq!(
        (p["reason"].clone(), p["row"].clone()),
        (json!("row-length"), json!(1))
    );
    let p = import(&app, with_rows(json!(["XXXX.XXXXQ"])))
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "invalid-character");
    assert_eq!(
        (
            p["row"].clone(),
            p["column"].clone(),
            p["character"].clone()
        ),
        (json!(0), json!(9), json!("Q"))
    );
    let p = import(&app, with_rows(json!(vec!["X........."; 41])))
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "too-many-rows");
    let p = import(
        &app,
        json!({"format": "json", "piece": "T", "seed": 1, "lines": 20, "level": 1}),
    )
    .await
    .problem(400, "invalid-import");
    assert_eq!(
        (p["reason"].clone(), p["field"].clone()),
        (json!("level-too-low"), json!("level"))
    );
    let p = import(&app, json!({"format": "json", "piece": "Q", "seed": 1}))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "piece");
    let p = import(&app, json!({"format": "json", "piece": "T"}))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "seed");
}

#[tokio::test]
async fn o_does_not_rotate() {
    let app = spawn_app().await;
    let v = import(&app, json!({"format": "json", "piece": "O", "seed": 7}))
        .await
        .json();
    let names = actions(&v["legal_actions"]);
    assert!(!names.contains(&"cw".to_owned()));
    let p = play(&app, &code_of(&v), &["left", "cw"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 1);
    assert_eq!(p["action"], "cw");
}
