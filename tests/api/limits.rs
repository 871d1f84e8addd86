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

/// Varying a picture's options defeats the cache, and a 2048 px PNG costs
/// tens of milliseconds: renders have a budget, in 512 × 512 PNG units.
/// What the cache answers costs nothing. (SVGs, asked for all at once:
/// refusals come before any drawing, and the budget refills while a slow
/// debug build draws.)
#[tokio::test]
async fn picture_renders_spend_a_budget() {
    let (app, _db) = app_with(|s| s.rate_pictures = 1).await;
    let svg = |size: u32| format!("/v1/xiangqi/{START}/picture.svg?size={size}");
    // A burst of four units: of twelve SVGs asked for at once, most are
    // refused.
    let paths: Vec<String> = (300..312).map(svg).collect();
    let answers = futures_util::future::join_all(paths.iter().map(|p| app.get(p))).await;
    let refused: Vec<_> = answers.iter().filter(|r| r.status == 429).collect();
    assert!(refused.len() >= 6, "{} refused", refused.len());
    let first_drawn = paths[answers
        .iter()
        .position(|r| r.status == 200)
        .expect("some drawn")]
    .clone();
    limited(refused[0], "pictures");
    assert_eq!(
        refused[0].header("ratelimit-policy"),
        Some("\"pictures\";q=1;w=1")
    );
    // A 2048 px PNG is 16 units: more than the burst, never at once.
    let p = limited(
        &app.get(&format!("/v1/xiangqi/{START}/picture.png?size=2048"))
            .await,
        "pictures",
    );
    assert!(p["detail"].as_str().unwrap().contains("16 units"), "{p}");
    // A picture already drawn comes from the cache.
    assert_eq!(app.get(&first_drawn).await.status, 200);
}

/// Each WebSocket `auth` looks a token up in the database: wrong guesses
/// spend the address's write budget like any other command.
#[tokio::test]
async fn websocket_auths_spend_the_write_budget() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (app, _db) = app_with(|s| s.rate_writes = 2).await;
    let created = create_from(&app, None).await.json();
    let id = created["id"].as_str().unwrap();
    let url = format!(
        "{}/v1/matches/{id}/ws",
        app.base.replace("http://", "ws://")
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("opens");
    let mut kinds = Vec::new();
    for _ in 0..6 {
        ws.send(Message::text(
            json!({ "type": "auth", "token": "a-wrong-guess" }).to_string(),
        ))
        .await
        .expect("sent");
        let answer = loop {
            match ws.next().await.expect("open").expect("reads") {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    if v["type"] == "problem" {
                        break v;
                    }
                }
                _ => continue,
            }
        };
        kinds.push(answer["problem"]["type"].as_str().unwrap().to_owned());
    }
    // A burst of four, then refusals that cost no look-up.
    assert!(
        kinds[..4].iter().all(|k| k != "/problems/rate-limited"),
        "{kinds:?}"
    );
    assert_eq!(&kinds[4..], &["/problems/rate-limited"; 2], "{kinds:?}");
}
