//! Reads of codes answered before routing (`src/http/reads.rs`), from
//! the view cache or rendered there, answer exactly as the routed read:
//! same status, body, entity tag, caching, `Vary` and CORS headers,
//! conditional and HEAD requests included.

use std::collections::BTreeSet;

use reqwest::Method;

use qipan::configuration::Settings;

use crate::helpers::{spawn_app, spawn_app_with, TestResponse, START};

/// The headers a read's answer is made of, the CORS list as a set (its
/// order is not part of it).
fn answer_headers(res: &TestResponse) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in [
        "etag",
        "cache-control",
        "content-type",
        "content-encoding",
        "access-control-allow-origin",
    ] {
        if let Some(v) = res.header(name) {
            out.push((name.to_owned(), v.to_owned()));
        }
    }
    let vary = res.header_all("vary");
    out.push(("vary".to_owned(), vary.join(", ")));
    let exposed: BTreeSet<String> = res
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .split(',')
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    out.push((
        "access-control-expose-headers".to_owned(),
        exposed.into_iter().collect::<Vec<_>>().join(", "),
    ));
    out
}

/// `path` with its code's first character percent-escaped: the same read,
/// which only the router answers.
fn escaped(path: &str) -> String {
    let (head, code) = path.rsplit_once('/').expect("a read's path");
    let first = code.as_bytes()[0];
    format!("{head}/%{first:02X}{}", &code[1..])
}

#[tokio::test]
async fn reads_answered_before_routing_answer_as_the_routed_read() {
    let path = format!("/v1/xiangqi/{START}");
    let variants: [&[(&str, &str)]; 4] = [
        &[],
        &[("origin", "https://frontend.example")],
        &[("accept-encoding", "br")],
        &[("accept-encoding", "gzip"), ("accept", "application/json")],
    ];
    let uncached = spawn_app_with(Settings {
        cache_mb: 0,
        ..Settings::for_tests()
    })
    .await;
    for headers in variants {
        // A fresh service each time: a routed read renders the view and
        // keeps it, and the plain read is answered from the cache; or the
        // plain read renders it before routing, and the routed read finds
        // it kept; or nothing is kept, and each renders.
        let app = spawn_app().await;
        let routed = app
            .request(Method::GET, &escaped(&path), headers, None)
            .await;
        let hit = app.request(Method::GET, &path, headers, None).await;
        let fresh = spawn_app().await;
        let rendered = fresh.request(Method::GET, &path, headers, None).await;
        let routed_after = fresh
            .request(Method::GET, &escaped(&path), headers, None)
            .await;
        let unkept = uncached.request(Method::GET, &path, headers, None).await;
        let routed_unkept = uncached
            .request(Method::GET, &escaped(&path), headers, None)
            .await;
        for (name, answer, routed) in [
            ("hit", &hit, &routed),
            ("rendered", &rendered, &routed_after),
            ("unkept", &unkept, &routed_unkept),
        ] {
            assert_eq!(routed.status, 200, "{name} {headers:?}");
            assert_eq!(answer.status, 200, "{name} {headers:?}");
            assert!(
                answer.wire == routed.wire,
                "{name} {headers:?}: bodies differ"
            );
            assert_eq!(
                answer_headers(answer),
                answer_headers(routed),
                "{name} {headers:?}"
            );
            assert!(answer.header("x-request-id").is_some());
        }
        let with_origin = headers.iter().any(|(h, _)| *h == "origin");
        assert_eq!(
            hit.header("access-control-allow-origin").is_some(),
            with_origin,
            "{headers:?}"
        );
        assert!(
            hit.header("access-control-expose-headers")
                .is_some_and(|h| h.to_ascii_lowercase().contains("etag")),
            "{headers:?}"
        );

        // Revalidation and HEAD from the cache.
        let etag = hit.header("etag").expect("etag").to_owned();
        let mut conditional = headers.to_vec();
        conditional.push(("if-none-match", &etag));
        let not_modified = app.request(Method::GET, &path, &conditional, None).await;
        assert_eq!(not_modified.status, 304, "{headers:?}");
        assert!(not_modified.body.is_empty());
        assert_eq!(not_modified.header("etag"), Some(etag.as_str()));
        // (Without Accept-Encoding: the test client would try to decode
        // the empty body.)
        let plain: Vec<(&str, &str)> = headers
            .iter()
            .copied()
            .filter(|(h, _)| *h != "accept-encoding")
            .collect();
        let head = app.request(Method::HEAD, &path, &plain, None).await;
        assert_eq!(head.status, 200);
        assert!(head.wire.is_empty());
        let identity = app.request(Method::GET, &path, &plain, None).await;
        assert_eq!(head.header("etag"), identity.header("etag"));
    }
}

#[tokio::test]
async fn a_browser_is_sent_to_the_page_even_when_the_view_is_cached() {
    let app = spawn_app().await;
    let path = format!("/v1/xiangqi/{START}");
    assert_eq!(app.get(&path).await.status, 200);
    assert_eq!(app.get(&path).await.status, 200);
    let page = app
        .request(
            Method::GET,
            &path,
            &[("accept", "text/html,application/xhtml+xml,*/*;q=0.8")],
            None,
        )
        .await;
    assert_eq!(page.status, 303);
    assert_eq!(
        page.header("location"),
        Some(format!("/p/xiangqi/{START}").as_str())
    );
}

#[tokio::test]
async fn only_reads_of_codes_are_answered_before_routing() {
    let app = spawn_app().await;
    for game in ["xiangqi", "gomoku", "quoridor", "2048", "tetris"] {
        // The start and import routes are never taken for codes.
        let start = app.get(&format!("/v1/{game}/start")).await;
        assert_eq!(start.status, 200, "{game}");
        assert_eq!(start.json()["game"], game);
        app.get(&format!("/v1/{game}/import"))
            .await
            .problem(405, "method-not-allowed");
    }
    let again = app.get("/v1/xiangqi/start").await;
    assert_eq!(again.body, app.get("/v1/xiangqi/start").await.body);
    // A code that is not one is a problem each time, never cached.
    for _ in 0..2 {
        app.get("/v1/xiangqi/not-a-code")
            .await
            .problem(400, "invalid-code");
    }
    // Other methods on a read's path are the router's.
    let path = format!("/v1/xiangqi/{START}");
    app.get(&path).await;
    app.request(Method::POST, &path, &[], None)
        .await
        .problem(405, "method-not-allowed");
}
