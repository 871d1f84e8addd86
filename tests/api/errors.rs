//! Every kind of error, as RFC 9457 problem details with a specific type.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{spawn_app, START};

#[tokio::test]
async fn the_articles_misprinted_code_names_the_black_generals_point() {
    let app = spawn_app().await;
    // Byte 16 of the printed code decodes to 68 instead of 4: f2, outside black's palace.
    let res = app
        .get("/v1/xiangqi/VVRWU1dSWFFZQEY2ODo8PkQDBQIGAQcACBMZGx0fISM")
        .await;
    let p = res.problem(400, "invalid-code");
    assert_eq!(p["reason"], "impossible-point");
    assert_eq!(p["point"], "f2");
    let detail = p["detail"].as_str().expect("detail");
    assert!(
        detail.contains("black general") && detail.contains("f2"),
        "{detail}"
    );
}

#[tokio::test]
async fn each_code_error_has_its_reason() {
    let app = spawn_app().await;
    // (code, reason, extra member checked). Hand-built from the start array:
    // see crates/rules/tests/codes.rs for the byte-level construction.
    let cases: &[(&str, &str, (&str, serde_json::Value))] = &[
        ("VVRW", "wrong-length", ("length", json!(4))),
        (&"A".repeat(44), "wrong-length", ("length", json!(44))),
        (
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fIS=",
            "padding",
            ("offset", json!(42)),
        ),
        (
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fI.M",
            "invalid-character",
            ("offset", json!(41)),
        ),
        (
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISN",
            "trailing-bits",
            ("offset", json!(42)),
        ),
    ];
    for (code, reason, (key, value)) in cases {
        let res = app.get(&format!("/v1/xiangqi/{code}")).await;
        let p = res.problem(400, "invalid-code");
        assert_eq!(p["reason"], *reason, "{code}: {p}");
        assert_eq!(p[*key], *value, "{code}: {p}");
        assert_eq!(p["field"], "code");
    }
    // The same refusals on every endpoint that takes a code.
    let bad = "VVRW";
    app.play(bad, &["h2e2"]).await.problem(400, "invalid-code");
    app.get(&format!("/v1/xiangqi/{bad}/export"))
        .await
        .problem(400, "invalid-code");
}

#[tokio::test]
async fn percent_encoded_characters_are_refused_not_crashed_on() {
    let app = spawn_app().await;
    let res = app
        .get("/v1/xiangqi/VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fI%2BM")
        .await;
    let p = res.problem(400, "invalid-code");
    assert_eq!(p["reason"], "invalid-character");
    assert_eq!(p["character"], "+");
    let res = app.get("/v1/xiangqi/%E6%A3%8B%E7%9B%98").await;
    assert_eq!(
        res.problem(400, "invalid-code")["reason"],
        "invalid-character"
    );
}

#[tokio::test]
async fn unknown_game_is_a_404_listing_the_games() {
    let app = spawn_app().await;
    for path in ["/v1/chess/start", &format!("/v1/chess/{START}")] {
        let p = app.get(path).await.problem(404, "unknown-game");
        assert_eq!(
            p["supported"],
            json!(["xiangqi", "gomoku", "2048", "quoridor", "tetris"])
        );
    }
}

#[tokio::test]
async fn unknown_routes_and_wrong_methods() {
    let app = spawn_app().await;
    app.get("/nowhere").await.problem(404, "not-found");
    app.get(&format!("/v1/xiangqi/{START}/play/more"))
        .await
        .problem(404, "not-found");
    for (method, path, allow) in [
        (Method::DELETE, "/v1/games".to_owned(), "GET, HEAD"),
        (Method::POST, "/v1/xiangqi/start".to_owned(), "GET, HEAD"),
        (Method::GET, "/v1/xiangqi/import".to_owned(), "POST"),
        (Method::PUT, format!("/v1/xiangqi/{START}"), "GET, HEAD"),
        (Method::GET, format!("/v1/xiangqi/{START}/play"), "POST"),
        (Method::POST, "/healthz".to_owned(), "GET, HEAD"),
    ] {
        let res = app.request(method, &path, &[], None).await;
        assert_eq!(res.header("allow"), Some(allow), "{path}");
        let p = res.problem(405, "method-not-allowed");
        let listed: Vec<&str> = allow.split(", ").collect();
        assert_eq!(p["allow"], json!(listed));
    }
}

#[tokio::test]
async fn head_answers_wherever_get_does() {
    let app = spawn_app().await;
    for path in [
        "/v1/games".to_owned(),
        format!("/v1/xiangqi/{START}"),
        "/healthz".to_owned(),
    ] {
        let get = app.get(&path).await;
        let head = app.request(Method::HEAD, &path, &[], None).await;
        assert_eq!(head.status, 200, "{path}");
        assert!(head.body.is_empty());
        assert_eq!(head.header("etag"), get.header("etag"));
    }
}

#[tokio::test]
async fn an_unknown_game_wins_over_other_faults() {
    let app = spawn_app().await;
    let res = app
        .request(
            Method::POST,
            &format!("/v1/chess/{START}/play"),
            &[("content-type", "application/json")],
            Some(b"{not json".to_vec()),
        )
        .await;
    res.problem(404, "unknown-game");
    app.get("/v1/chess/start?seed=x")
        .await
        .problem(404, "unknown-game");
}

#[tokio::test]
async fn a_refused_cors_preflight_is_a_problem_too() {
    let app = spawn_app().await;
    let res = app
        .request(
            Method::OPTIONS,
            "/v1/games",
            &[
                ("origin", "https://board.example.net"),
                ("access-control-request-method", "DELETE"),
            ],
            None,
        )
        .await;
    let p = res.problem(400, "cors-refused");
    assert!(
        p["detail"].as_str().is_some_and(|d| d.contains("method")),
        "{p}"
    );
}

#[tokio::test]
async fn bodies_that_are_not_the_expected_json() {
    let app = spawn_app().await;
    let path = format!("/v1/xiangqi/{START}/play");
    let json_ct = [("content-type", "application/json")];
    let res = app
        .request(
            Method::POST,
            &path,
            &json_ct,
            Some(b"{\"actions\": [".to_vec()),
        )
        .await;
    res.problem(400, "malformed-body");
    let res = app
        .request(
            Method::POST,
            &path,
            &json_ct,
            Some(b"{\"moves\": []}".to_vec()),
        )
        .await;
    res.problem(400, "malformed-body");
    let res = app
        .request(
            Method::POST,
            &path,
            &json_ct,
            Some(b"{\"actions\": \"h2e2\"}".to_vec()),
        )
        .await;
    res.problem(400, "malformed-body");
    let res = app
        .request(
            Method::POST,
            &path,
            &[("content-type", "text/plain")],
            Some(b"h2e2".to_vec()),
        )
        .await;
    res.problem(415, "unsupported-media-type");
    let huge = format!("{{\"actions\": [\"{}\"]}}", "a".repeat(70 * 1024));
    let res = app
        .request(Method::POST, &path, &json_ct, Some(huge.into_bytes()))
        .await;
    let p = res.problem(413, "body-too-large");
    assert_eq!(p["limit"], 65536);
}

#[tokio::test]
async fn import_errors_locate_the_fault() {
    let app = spawn_app().await;
    let bad_char = app
        .import_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5X1/9/RNBAKABNR w")
        .await;
    let p = bad_char.problem(400, "invalid-import");
    assert_eq!(p["reason"], "invalid-character");
    assert_eq!(p["row"], 7);
    assert_eq!(p["character"], "X");
    assert_eq!(p["offset"], 45);

    let p = app
        .import_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w")
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "wrong-rank-count");
    let p = app
        .import_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "missing-side");
    let p = app
        .import_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "invalid-side");
    // A general outside its palace: the board parses, the position cannot arise.
    let p = app
        .import_fen("9/9/9/4k4/9/9/9/9/9/4K4 w")
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "impossible-point");
    assert_eq!(p["point"], "e6");
    let p = app
        .import_fen("4k4/9/9/9/9/9/9/9/9/4K4 w")
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "generals-facing");

    let p = app
        .post_json(
            "/v1/xiangqi/import",
            &json!({"format": "pgn", "text": "1. h2e2"}),
        )
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["supported"], json!(["fen"]));
    let p = app
        .post_json("/v1/xiangqi/import", &json!({"format": "fen"}))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "text");
    let p = app
        .post_json("/v1/xiangqi/import", &json!({"format": "fen", "text": 7}))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "text");
    let p = app
        .post_json(
            "/v1/xiangqi/import",
            &json!({"format": "fen", "text": "", "colour": "red"}),
        )
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "colour");
    app.post_json("/v1/xiangqi/import", &json!(["fen"]))
        .await
        .problem(400, "malformed-body");
}

#[tokio::test]
async fn export_and_start_query_errors() {
    let app = spawn_app().await;
    let p = app
        .get(&format!("/v1/xiangqi/{START}/export?format=pgn"))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["supported"], json!(["fen"]));
    app.get(&format!("/v1/xiangqi/{START}/export?style=fen"))
        .await
        .problem(400, "invalid-query");
    let p = app
        .get("/v1/xiangqi/start?variant=manchu")
        .await
        .problem(400, "unknown-variant");
    assert_eq!(p["supported"], json!(["standard"]));
    assert_eq!(
        app.get("/v1/xiangqi/start?variant=standard").await.status,
        200
    );
    app.get("/v1/xiangqi/start?seed=abc")
        .await
        .problem(400, "invalid-query");
    let p = app
        .get("/v1/xiangqi/start?seed=7")
        .await
        .problem(400, "invalid-query");
    assert_eq!(p["field"], "seed");
}

#[tokio::test]
async fn every_answer_carries_a_request_id() {
    let app = spawn_app().await;
    let fresh = |res: &crate::helpers::TestResponse| {
        res.header("x-request-id")
            .map(str::to_owned)
            .expect("an X-Request-Id")
    };
    // A fresh id for each request, problems included.
    let a = app.get("/healthz").await;
    let b = app.get("/v1/chess/start").await;
    b.problem(404, "unknown-game");
    let (a, b) = (fresh(&a), fresh(&b));
    assert_ne!(a, b);
    assert!(
        a.len() >= 10 && a.bytes().all(|c| c.is_ascii_hexdigit() || c == b'-'),
        "{a}"
    );
    // The client's own id comes back when it is short and plain…
    let mine = app
        .request(
            Method::GET,
            "/healthz",
            &[("x-request-id", "trace-7.a:b_c")],
            None,
        )
        .await;
    assert_eq!(mine.header("x-request-id"), Some("trace-7.a:b_c"));
    // …and is replaced when it is not.
    let long = "x".repeat(65);
    for sent in [long.as_str(), "two words", "a/b"] {
        let res = app
            .request(Method::GET, "/healthz", &[("x-request-id", sent)], None)
            .await;
        let got = fresh(&res);
        assert_ne!(got, sent);
    }
}

#[tokio::test]
async fn every_game_names_a_syntax_fault_the_same_way() {
    let app = spawn_app().await;
    // (game, a valid code of it, its fixed length if any)
    let games = [
        ("xiangqi", START.to_owned(), Some(43)),
        ("gomoku", "AHBxf4A".to_owned(), None),
        (
            "2048",
            "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4".to_owned(),
            Some(31),
        ),
        (
            "quoridor",
            "BEyqAAAAAAAAAAAAAAAAAAAAAA".to_owned(),
            Some(26),
        ),
        ("tetris", "AWKoAU6Aq1TNpY-77ohQAAMA".to_owned(), None),
    ];
    for (game, code, fixed) in games {
        let get = |code: String| {
            let app = &app;
            async move { app.get(&format!("/v1/{game}/{code}")).await }
        };
        assert_eq!(get(code.clone()).await.status, 200, "{game} {code}");
        let star = format!("{}*{}", &code[..2], &code[3..]);
        let p = get(star).await.problem(400, "invalid-code");
        assert_eq!(
            (&p["field"], &p["reason"], &p["offset"], &p["character"]),
            (
                &json!("code"),
                &json!("invalid-character"),
                &json!(2),
                &json!("*")
            ),
            "{game}: {p}"
        );
        let padded = format!("{}=", &code[..code.len() - 1]);
        let p = get(padded).await.problem(400, "invalid-code");
        assert_eq!(
            (&p["reason"], &p["offset"]),
            (&json!("padding"), &json!(code.len() - 1)),
            "{game}: {p}"
        );
        // Five characters: never whole bytes in base64.
        let p = get(code[..5].to_owned()).await.problem(400, "invalid-code");
        assert_eq!(
            (&p["reason"], &p["length"]),
            (&json!("wrong-length"), &json!(5)),
            "{game}: {p}"
        );
        assert_eq!(
            p.get("expected_length").and_then(|v| v.as_u64()),
            fixed.map(|n| n as u64),
            "{game}: {p}"
        );
    }
}

/// Finding 7 of the hardening issue: a body is read only as
/// `application/json` (with at most `charset=utf-8`), on every route that
/// reads one, optional bodies included.
#[tokio::test]
async fn only_json_bodies_are_read() {
    let Some(app) = crate::db::spawn_match_app(crate::db::Backend::Sqlite).await else {
        return;
    };
    let (id, token, _) = crate::live::create(&app, json!({ "game": "xiangqi" })).await;
    let auth = format!("Bearer {token}");
    let routes: Vec<(String, String)> = vec![
        (
            format!("/v1/xiangqi/{START}/play"),
            r#"{"actions": ["h2e2"]}"#.into(),
        ),
        (
            "/v1/xiangqi/import".into(),
            r#"{"format": "fen", "text": "4k4/9/9/9/9/9/9/9/9/3K5 w"}"#.into(),
        ),
        ("/v1/matches".into(), r#"{"game": "xiangqi"}"#.into()),
        (
            format!("/v1/matches/{id}/play"),
            r#"{"actions": ["h2e2"]}"#.into(),
        ),
        (format!("/v1/matches/{id}/fork"), r#"{"ply": 0}"#.into()),
        ("/v1/lobby/seeks".into(), r#"{"game": "xiangqi"}"#.into()),
    ];
    let refused = [
        Some("text/plain"),
        Some("application/json; charset=latin1"),
        Some("application/merge-patch+json"),
        Some("application/problem+json"),
        Some("application/json; profile=\"x\""),
        Some("not a media type"),
        None,
    ];
    for (path, body) in &routes {
        for content_type in refused {
            let mut headers = vec![("authorization", auth.as_str())];
            headers.extend(content_type.map(|c| ("content-type", c)));
            let res = app
                .request(
                    Method::POST,
                    path,
                    &headers,
                    Some(body.clone().into_bytes()),
                )
                .await;
            let p = res.problem(415, "unsupported-media-type");
            let detail = p["detail"].as_str().unwrap_or_default();
            match content_type {
                Some(sent) => assert!(detail.contains(sent), "{path} {sent}: {detail}"),
                None => assert!(detail.contains("no Content-Type"), "{path}: {detail}"),
            }
        }
        let res = app
            .request(
                Method::POST,
                path,
                &[
                    ("authorization", &auth),
                    ("content-type", "Application/JSON; Charset=UTF-8"),
                ],
                Some(body.clone().into_bytes()),
            )
            .await;
        assert!(
            res.status < 300,
            "{path}: {} {}",
            res.status,
            String::from_utf8_lossy(&res.body)
        );
    }
    // An optional body left out needs no Content-Type.
    let res = app
        .request(
            Method::POST,
            &format!("/v1/matches/{id}/fork"),
            &[("authorization", &auth)],
            None,
        )
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
}
