//! Caching, CORS and health: the HTTP contract every endpoint shares.

use reqwest::Method;

use crate::helpers::{spawn_app, START};

#[tokio::test]
async fn reads_are_immutable_with_a_strong_etag_and_304() {
    let app = spawn_app().await;
    for path in [
        "/v1/games".to_owned(),
        "/v1/xiangqi/start".to_owned(),
        format!("/v1/xiangqi/{START}"),
        format!("/v1/xiangqi/{START}/export"),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status, 200);
        assert_eq!(
            res.header("cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        let etag = res.header("etag").expect("etag").to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "strong: {etag}"
        );
        let again = app
            .request(Method::GET, &path, &[("if-none-match", &etag)], None)
            .await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        let other = app
            .request(Method::GET, &path, &[("if-none-match", "\"0000\"")], None)
            .await;
        assert_eq!(other.status, 200);
    }
}

#[tokio::test]
async fn play_responses_are_cacheable_too() {
    let app = spawn_app().await;
    let first = app.play(START, &["h2e2"]).await;
    let etag = first.header("etag").expect("etag").to_owned();
    let res = app
        .request(
            Method::POST,
            &format!("/v1/xiangqi/{START}/play"),
            &[
                ("content-type", "application/json"),
                ("if-none-match", &etag),
            ],
            Some(br#"{"actions": ["h2e2"]}"#.to_vec()),
        )
        .await;
    assert_eq!(res.status, 304);
    let other = app.play(START, &["h0g2"]).await;
    assert_ne!(other.header("etag"), Some(etag.as_str()));
}

#[tokio::test]
async fn errors_are_not_cached() {
    let app = spawn_app().await;
    let res = app.get("/v1/xiangqi/VVRW").await;
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert!(res.header("etag").is_none());
}

#[tokio::test]
async fn any_origin_may_call_the_api() {
    let app = spawn_app().await;
    let res = app
        .request(
            Method::GET,
            "/v1/xiangqi/start",
            &[("origin", "https://board.example.net")],
            None,
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("access-control-allow-origin"),
        Some("https://board.example.net")
    );
    assert!(res
        .header("access-control-expose-headers")
        .is_some_and(|h| h.to_lowercase().contains("etag")));

    let preflight = app
        .request(
            Method::OPTIONS,
            &format!("/v1/xiangqi/{START}/play"),
            &[
                ("origin", "http://localhost:5173"),
                ("access-control-request-method", "POST"),
                ("access-control-request-headers", "content-type"),
            ],
            None,
        )
        .await;
    assert_eq!(preflight.status, 200);
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(preflight
        .header("access-control-allow-methods")
        .is_some_and(|m| m.contains("POST")));
}

#[tokio::test]
async fn healthz_answers() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json(), serde_json::json!({"status": "ok"}));
}
