//! `GET /metrics`: what the service counts, in Prometheus' text format.
//! Metrics are per process and tests run side by side, so each test reads
//! how much a counter grew, never its value.

use serde_json::json;

use crate::db::{settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{spawn_app, spawn_app_with, TestApp, START};
use crate::live::{create, play, Stream};

/// The value of the sample whose name and labels are `series` (as written
/// in the exposition, e.g. `qipan_open_streams{kind="match"}`), 0 when
/// absent.
async fn sample(app: &TestApp, series: &str) -> f64 {
    let res = app.get("/metrics").await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    let text = String::from_utf8(res.body).unwrap();
    text.lines()
        .find_map(|line| {
            let (name, value) = line.rsplit_once(' ')?;
            (name == series).then(|| value.parse().unwrap())
        })
        .unwrap_or(0.0)
}

#[tokio::test]
async fn requests_are_counted_by_route_pattern_and_status() {
    let app = spawn_app().await;
    let ok = r#"qipan_http_requests_total{method="GET",route="/v1/xiangqi/{code}",status="200"}"#;
    let bad = r#"qipan_http_requests_total{method="GET",route="/v1/xiangqi/{code}",status="400"}"#;
    let (ok0, bad0) = (sample(&app, ok).await, sample(&app, bad).await);
    app.get(&format!("/v1/xiangqi/{START}")).await;
    app.get(&format!("/v1/xiangqi/{START}")).await;
    app.get("/v1/xiangqi/not-a-code").await;
    assert!(sample(&app, ok).await >= ok0 + 2.0);
    assert!(sample(&app, bad).await > bad0);
    // Paths that match no route share one label, whatever they are.
    let unmatched = r#"qipan_http_requests_total{method="GET",route="unmatched",status="404"}"#;
    let before = sample(&app, unmatched).await;
    app.get("/no/such/path/a1b2c3").await;
    assert!(sample(&app, unmatched).await > before);
    let hist =
        r#"qipan_http_request_duration_seconds_count{method="GET",route="/v1/xiangqi/{code}"}"#;
    assert!(sample(&app, hist).await >= 3.0);
}

async fn matches_moves_and_streams_are_counted(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let created0 = sample(&app, "qipan_matches_created_total").await;
    let moves0 = sample(&app, "qipan_moves_played_total").await;
    let (id, red, _) = create(&app, json!({ "game": "xiangqi", "mode": "solo" })).await;
    play(&app, &id, &red, json!(["h2e2", "h9g7"])).await;
    assert!(sample(&app, "qipan_matches_created_total").await > created0);
    assert!(sample(&app, "qipan_moves_played_total").await >= moves0 + 2.0);

    let open = r#"qipan_open_streams{kind="match"}"#;
    let stream = Stream::open(&app, &id, None).await;
    assert!(sample(&app, open).await >= 1.0);
    drop(stream);
    let pool = sample(&app, "qipan_database_pool_connections").await;
    assert!(pool >= 1.0, "the pool holds a connection: {pool}");
}

crate::db::on_both_backends!(matches_moves_and_streams_are_counted);

#[tokio::test]
async fn refusals_are_counted_by_budget() {
    let db = TestDb::new(Backend::Sqlite).await.unwrap();
    let mut s = settings(&db.url);
    s.rate_creates = 1;
    let app = spawn_app_with(s).await;
    let series = r#"qipan_rate_limited_total{budget="creates"}"#;
    let before = sample(&app, series).await;
    for _ in 0..2 {
        app.post_json("/v1/matches", &json!({ "game": "quoridor" }))
            .await;
    }
    assert!(sample(&app, series).await > before);
}

#[tokio::test]
async fn metrics_can_be_turned_off() {
    let mut s = qipan::configuration::Settings::for_tests();
    s.metrics = false;
    let app = spawn_app_with(s).await;
    app.get("/metrics").await.problem(404, "not-found");
}

/// Any token is a method to HTTP; were each a label, a client could grow
/// the exposition without bound. Methods the service does not know share
/// one label, `other`.
#[tokio::test]
async fn made_up_methods_share_one_label() {
    let app = spawn_app().await;
    let other = r#"qipan_http_requests_total{method="other",route="/v1/games",status="405"}"#;
    let before = sample(&app, other).await;
    let client = reqwest::Client::new();
    for i in 0..60 {
        let method = format!("MADEUP{i}{}", "X".repeat(200));
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let res = client
            .request(method, format!("{}/v1/games", app.base))
            .send()
            .await
            .expect("answered");
        assert_eq!(res.status(), 405);
    }
    assert!(sample(&app, other).await >= before + 60.0);
    let text = String::from_utf8(app.get("/metrics").await.body).unwrap();
    assert!(!text.contains("MADEUP"), "a made-up method became a label");
}
