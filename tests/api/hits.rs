//! Reads answered from the view cache before routing (`src/routes/hits.rs`)
//! answer exactly as the routed read that rendered the view: same status,
//! body, entity tag, caching, `Vary` and CORS headers, conditional and HEAD
//! requests included.

use std::collections::BTreeSet;

use reqwest::Method;

use crate::helpers::{spawn_app, TestResponse, START};

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
    let vary: Vec<&str> = res
        .headers
        .get_all("vary")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
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

#[tokio::test]
async fn a_cached_read_answers_as_the_read_that_rendered_it() {
    let path = format!("/v1/xiangqi/{START}");
    let variants: [&[(&str, &str)]; 4] = [
        &[],
        &[("origin", "https://frontend.example")],
        &[("accept-encoding", "br")],
        &[("accept-encoding", "gzip"), ("accept", "application/json")],
    ];
    for headers in variants {
        // A fresh service each time: the first read renders (a miss, routed),
        // the second is answered from the cache.
        let app = spawn_app().await;
        let rendered = app.request(Method::GET, &path, headers, None).await;
        let hit = app.request(Method::GET, &path, headers, None).await;
        assert_eq!(rendered.status, 200, "{headers:?}");
        assert_eq!(hit.status, 200, "{headers:?}");
        assert_eq!(hit.wire, rendered.wire, "{headers:?}");
        assert_eq!(
            answer_headers(&hit),
            answer_headers(&rendered),
            "{headers:?}"
        );
        assert!(hit.header("x-request-id").is_some());
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
async fn only_reads_of_cached_views_are_answered_before_routing() {
    let app = spawn_app().await;
    // The start route is never taken for a code, cached or not.
    let start = app.get("/v1/xiangqi/start").await;
    assert_eq!(start.status, 200);
    let again = app.get("/v1/xiangqi/start").await;
    assert_eq!(again.body, start.body);
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
