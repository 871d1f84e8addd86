//! Quoridor through the stateless API: the start, pawn moves and walls,
//! walls that would cut a pawn off, the win, `json` import and export, and
//! import refusals. Expected distances come from the rules crate.

use qipan_rules::quoridor::{Player, Position};
use serde_json::{json, Value};

use crate::helpers::{actions, spawn_app, TestApp, TestResponse};

const START: &str = "BEyqAAAAAAAAAAAAAAAAAAAAAA";

async fn play(app: &TestApp, code: &str, moves: &[&str]) -> TestResponse {
    app.post_json(
        &format!("/v1/quoridor/{code}/play"),
        &json!({ "actions": moves }),
    )
    .await
}

async fn import(app: &TestApp, body: Value) -> TestResponse {
    app.post_json("/v1/quoridor/import", &body).await
}

fn code_of(v: &Value) -> String {
    v["code"].as_str().expect("code").to_owned()
}

/// The shortest paths the rules crate gives for a code.
fn paths(code: &str) -> Value {
    let pos = Position::from_code(code).expect("a valid code");
    json!([
        pos.shortest_path(Player::One),
        pos.shortest_path(Player::Two)
    ])
}

#[tokio::test]
async fn the_start_has_three_moves_and_128_walls() {
    let app = spawn_app().await;
    let res = app.get("/v1/quoridor/start").await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["code"], START);
    assert_eq!(v["to_move"], "1");
    assert_eq!(
        v["status"],
        json!({"state": "ongoing", "winner": null, "reason": null})
    );
    assert_eq!(v["pawns"], json!(["e1", "e9"]));
    assert_eq!(v["walls"], json!([]));
    assert_eq!(v["walls_left"], json!([10, 10]));
    assert_eq!(v["shortest_path"], json!([8, 8]));
    assert_eq!(v["board"][0][4], 2);
    assert_eq!(v["board"][8][4], 1);
    let legal = v["legal_actions"].as_array().expect("legal actions");
    assert_eq!(legal.len(), 131);
    let moves: Vec<&Value> = legal.iter().filter(|a| a["kind"] == "move").collect();
    assert_eq!(moves.len(), 3);
    assert_eq!(legal.iter().filter(|a| a["kind"] == "wall").count(), 128);
    let names = actions(&v["legal_actions"]);
    for a in ["d1", "e2", "f1", "e3h", "a1v", "h8h"] {
        assert!(names.contains(&a.to_owned()), "{a} missing");
    }
    // Quoridor has no chance: a seed is refused.
    let p = app
        .get("/v1/quoridor/start?seed=7")
        .await
        .problem(400, "invalid-query");
    assert_eq!(p["field"], "seed");
}

#[tokio::test]
async fn moves_and_walls_change_the_view() {
    let app = spawn_app().await;
    let res = play(&app, START, &["e2", "e8"]).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["pawns"], json!(["e2", "e8"]));
    assert_eq!(v["to_move"], "1");
    assert_eq!(v["shortest_path"], json!([7, 7]));

    let code = code_of(&v);
    let res = play(&app, &code, &["e7h"]).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["walls"], json!(["e7h"]));
    assert_eq!(v["walls_left"], json!([9, 10]));
    assert_eq!(v["to_move"], "2");
    let code = code_of(&v);
    assert_eq!(v["shortest_path"], paths(&code));
    // e7h blocks player 2's straight way down from e8 and player 1's from e7.
    assert!(v["shortest_path"][1].as_u64().expect("a path") > 7);
    let names = actions(&v["legal_actions"]);
    assert!(!names.contains(&"e7".to_owned()));
    for taken in ["e7h", "d7h", "f7h", "e7v"] {
        assert!(!names.contains(&taken.to_owned()), "{taken} is taken");
    }

    let res = play(&app, &code, &["c3v"]).await;
    let v = res.json();
    assert_eq!(v["walls"], json!(["c3v", "e7h"]));
    assert_eq!(v["walls_left"], json!([9, 9]));
    assert_eq!(v["shortest_path"], paths(&code_of(&v)));
}

/// Four walls between ranks 1 and 2 over files a–h: player 1 on e1 still
/// gets out through i1.
fn fenced() -> Value {
    json!({
        "format": "json",
        "pawns": ["e1", "e9"],
        "walls": ["a1h", "c1h", "e1h", "g1h"],
        "walls_left": [8, 8],
        "to_move": 1
    })
}

#[tokio::test]
async fn a_wall_that_cuts_a_pawn_off_is_illegal() {
    let app = spawn_app().await;
    let res = import(&app, fenced()).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    let code = code_of(&v);
    let names = actions(&v["legal_actions"]);
    assert!(!names.contains(&"h1v".to_owned()));
    let p = play(&app, &code, &["h1v"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 0);
    assert_eq!(p["action"], "h1v");
    assert_eq!(
        p["legal_actions"].as_array().map(Vec::len),
        Some(names.len())
    );
}

#[tokio::test]
async fn a_pawn_reaching_its_goal_wins() {
    let app = spawn_app().await;
    let res = import(
        &app,
        json!({"format": "json", "pawns": ["e8", "a9"], "walls": [], "walls_left": [10, 10], "to_move": 1}),
    )
    .await;
    assert_eq!(res.status, 200);
    let code = code_of(&res.json());
    let res = play(&app, &code, &["e9"]).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(
        v["status"],
        json!({"state": "won", "winner": "1", "reason": "reached-goal"})
    );
    assert_eq!(v["legal_actions"], json!([]));
    assert_eq!(v["shortest_path"][0], 0);
    let p = play(&app, &code_of(&v), &["a8"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["outcome"]["winner"], "1");
    assert_eq!(p["outcome"]["reason"], "reached-goal");
}

#[tokio::test]
async fn json_export_posts_back_to_the_same_code() {
    let app = spawn_app().await;
    let v = play(&app, START, &["e2", "e3h", "d2", "c6v"]).await.json();
    let code = code_of(&v);
    let res = app.get(&format!("/v1/quoridor/{code}/export")).await;
    assert_eq!(res.status, 200);
    let export = res.json();
    assert_eq!(
        export,
        json!({
            "game": "quoridor",
            "code": code,
            "format": "json",
            "pawns": ["d2", "e9"],
            "walls": ["e3h", "c6v"],
            "walls_left": [10, 8],
            "to_move": 1
        })
    );
    let back = import(&app, export).await;
    assert_eq!(back.status, 200);
    assert_eq!(back.json(), v);
}

#[tokio::test]
async fn impossible_imports_name_their_reason() {
    let app = spawn_app().await;
    let base = |pawns: Value, walls: Value, left: Value| json!({"format": "json", "pawns": pawns, "walls": walls, "walls_left": left, "to_move": 1});
    let cases = [
        (
            base(json!(["e5", "e5"]), json!([]), json!([10, 10])),
            "pawns-on-one-square",
            "pawns",
        ),
        (
            base(json!(["e1", "e9"]), json!(["e3h", "f3h"]), json!([9, 9])),
            "overlapping-walls",
            "walls",
        ),
        (
            base(json!(["e1", "e9"]), json!(["e3h", "e3v"]), json!([9, 9])),
            "crossing-walls",
            "walls",
        ),
        (
            base(json!(["e1", "e9"]), json!([]), json!([9, 10])),
            "wall-count",
            "walls_left",
        ),
        (
            base(
                json!(["e1", "e9"]),
                json!(["a1h", "c1h", "e1h", "g1h", "h1v"]),
                json!([7, 8]),
            ),
            "no-path",
            "walls",
        ),
    ];
    for (body, reason, field) in cases {
        let p = import(&app, body).await.problem(400, "invalid-import");
        assert_eq!(p["reason"], reason, "{p}");
        assert_eq!(p["field"], field, "{p}");
    }
    let p = import(&app, base(json!(["e1", "z9"]), json!([]), json!([10, 10])))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "pawns");
    let p = import(&app, json!({"format": "fen", "text": "x"}))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["supported"], json!(["json"]));
}
