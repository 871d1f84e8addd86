//! Rate limits per client address (findings 2 and 3 of the hardening
//! issue: one client created 1,500 matches a second, and 1,000-action
//! batches had no budget). Small limits, configured for each test.

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{settings, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp, TestResponse, START};

async fn app_with(
    configure: impl FnOnce(&mut qipan::configuration::Settings),
) -> (TestApp, TestDb) {
    let db = TestDb::new(Backend::Sqlite)
        .await
        .expect("a SQLite database is always available");
    let mut s = settings(&db.url);
    configure(&mut s);
    (spawn_app_with(s).await, db)
}

async fn create_from(app: &TestApp, forwarded: Option<&str>) -> TestResponse {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(f) = forwarded {
        headers.push(("x-forwarded-for", f));
    }
    app.request(
        Method::POST,
        "/v1/matches",
        &headers,
        Some(
            json!({ "game": "2048", "seed": 1 })
                .to_string()
                .into_bytes(),
        ),
    )
    .await
}

fn limited(res: &TestResponse, limit: &str) -> Value {
    let p = res.problem(429, "rate-limited");
    assert_eq!(p["budget"], json!(limit));
    let wait = p["retry_after"].as_u64().unwrap();
    assert!(wait >= 1);
    assert_eq!(res.header("retry-after"), Some(wait.to_string().as_str()));
    assert_eq!(
        res.header("ratelimit"),
        Some(format!("\"{limit}\";r=0;t={wait}").as_str())
    );
    p
}

#[tokio::test]
async fn creating_matches_is_limited_per_client() {
    let (app, _db) = app_with(|s| s.rate_creates = 3).await;
    for _ in 0..3 {
        assert_eq!(create_from(&app, None).await.status, 201);
    }
    let refused = create_from(&app, None).await;
    let p = limited(&refused, "creates");
    assert_eq!(
        refused.header("ratelimit-policy"),
        Some("\"creates\";q=3;w=60")
    );
    assert!(p["detail"].as_str().unwrap().contains("3 per 60 s"), "{p}");
    // A forwarding header from an untrusted peer changes nothing.
    assert_eq!(create_from(&app, Some("203.0.113.9")).await.status, 429);
    // Reads are not limited.
    assert_eq!(app.get(&format!("/v1/xiangqi/{START}")).await.status, 200);
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget() {
    let (app, _db) = app_with(|s| {
        s.rate_creates = 1;
        s.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    assert_eq!(create_from(&app, Some("203.0.113.5")).await.status, 201);
    limited(&create_from(&app, Some("203.0.113.5")).await, "creates");
    // A client can prepend anything; the proxy's own entry is the last one.
    limited(
        &create_from(&app, Some("198.51.100.1, 203.0.113.5")).await,
        "creates",
    );
    assert_eq!(create_from(&app, Some("203.0.113.6")).await.status, 201);
    // No header: the proxy itself is the client.
    assert_eq!(create_from(&app, None).await.status, 201);
}

#[tokio::test]
async fn play_batches_spend_an_action_budget() {
    let (app, _db) = app_with(|s| s.rate_actions = 10).await;
    let play = |n: usize| {
        let app = &app;
        async move {
            let actions: Vec<&str> = vec!["zz"; n];
            app.post_json(
                &format!("/v1/xiangqi/{START}/play"),
                &json!({ "actions": actions }),
            )
            .await
        }
    };
    // A burst holds ten seconds' worth: 100 actions. More never passes at
    // once.
    let p = limited(&play(101).await, "actions");
    assert!(
        p["detail"].as_str().unwrap().contains("these 101 actions"),
        "{p}"
    );
    // 60 are charged (and then refused as malformed, which is their
    // business); 60 more do not fit in what is left.
    assert_eq!(play(60).await.status, 422);
    limited(&play(60).await, "actions");
    assert_eq!(play(1).await.status, 422);
}

#[tokio::test]
async fn match_writes_are_limited_too() {
    let (app, _db) = app_with(|s| s.rate_writes = 1).await;
    let created = create_from(&app, None).await.json();
    let id = created["id"].as_str().unwrap();
    // Two in a burst, then the third waits; unauthenticated writes count.
    for _ in 0..2 {
        let res = app
            .post_json(&format!("/v1/matches/{id}/undo"), &json!({}))
            .await;
        assert_eq!(res.status, 401);
    }
    limited(
        &app.post_json(&format!("/v1/matches/{id}/undo"), &json!({}))
            .await,
        "writes",
    );
}
