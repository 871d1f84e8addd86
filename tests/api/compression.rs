//! Compressed answers: brotli or gzip as `Accept-Encoding` allows, with
//! `Vary: Accept-Encoding`, for JSON, SVG and HTML answers of 1 KiB or
//! more; cached views keep their compressed forms, each with its own entity
//! tag; match answers keep their version as entity tag.

use reqwest::Method;
use serde_json::json;

use crate::db::{spawn_match_app, Backend};
use crate::helpers::{spawn_app, TestApp, TestResponse, START};

async fn get(app: &TestApp, path: &str, accept: &str) -> TestResponse {
    app.request(Method::GET, path, &[("accept-encoding", accept)], None)
        .await
}

fn varies_on_encoding(res: &TestResponse) -> bool {
    res.headers
        .get_all("vary")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|v| v.trim().eq_ignore_ascii_case("accept-encoding"))
}

#[tokio::test]
async fn state_views_come_compressed_as_asked_and_revalidate_per_form() {
    let app = spawn_app().await;
    let path = format!("/v1/xiangqi/{START}");
    let plain = get(&app, &path, "identity").await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    assert!(varies_on_encoding(&plain));
    let plain_tag = plain.header("etag").expect("etag").to_owned();
    for (accept, coding, suffix) in [
        ("gzip, deflate, br", "br", "-br\""),
        ("gzip", "gzip", "-gz\""),
        ("br;q=0.5, gzip;q=0.8", "gzip", "-gz\""),
    ] {
        // Twice: the second answer is the cached compressed form.
        for _ in 0..2 {
            let res = get(&app, &path, accept).await;
            assert_eq!(res.status, 200);
            assert_eq!(res.header("content-encoding"), Some(coding), "{accept}");
            assert!(varies_on_encoding(&res));
            assert_eq!(res.body, plain.body, "{accept}: the same view, decoded");
            assert!(
                res.wire.len() * 3 < plain.body.len(),
                "{accept}: {} bytes on the wire for {}",
                res.wire.len(),
                plain.body.len()
            );
            let tag = res.header("etag").expect("etag");
            assert!(tag.ends_with(suffix), "{tag}");
            assert_eq!(
                tag.trim_end_matches(suffix),
                plain_tag.trim_end_matches('"'),
                "the form's tag is the body's tag and its coding"
            );
            // The tag of this form revalidates this form, not another.
            let again = app
                .request(
                    Method::GET,
                    &path,
                    &[("accept-encoding", accept), ("if-none-match", tag)],
                    None,
                )
                .await;
            assert_eq!(again.status, 304);
            assert_eq!(again.header("etag"), Some(tag));
            let other = app
                .request(
                    Method::GET,
                    &path,
                    &[("accept-encoding", "identity"), ("if-none-match", tag)],
                    None,
                )
                .await;
            assert_eq!(other.status, 200);
        }
    }
    // Pictures: SVG is compressed, PNG is not.
    let svg = get(&app, &format!("{path}/picture.svg"), "br").await;
    assert_eq!(svg.header("content-encoding"), Some("br"));
    assert!(svg.body.starts_with(b"<svg"));
    let png = get(&app, &format!("{path}/picture.png"), "br").await;
    assert_eq!(png.header("content-encoding"), None);
    assert!(!varies_on_encoding(&png));
    // Small answers go as they are.
    let health = get(&app, "/healthz", "br").await;
    assert_eq!(health.header("content-encoding"), None);
}

#[tokio::test]
async fn other_answers_are_compressed_on_the_way_out() {
    let app = spawn_app().await;
    // A play (not cached), a problem, the games list, a page.
    let res = app
        .request(
            Method::POST,
            &format!("/v1/xiangqi/{START}/play"),
            &[
                ("content-type", "application/json"),
                ("accept-encoding", "gzip"),
            ],
            Some(br#"{"actions": ["h2e2"]}"#.to_vec()),
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(res.json()["to_move"], "black");
    for path in ["/v1/games", "/openapi.yaml", &format!("/p/xiangqi/{START}")] {
        let res = get(&app, path, "br").await;
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.header("content-encoding"), Some("br"), "{path}");
        assert!(varies_on_encoding(&res), "{path}");
    }
}

#[tokio::test]
async fn match_answers_keep_their_version_as_entity_tag() {
    let Some(app) = spawn_match_app(Backend::Sqlite).await else {
        return;
    };
    let (id, token, _) = crate::live::create(&app, json!({ "game": "xiangqi" })).await;
    let res = get(&app, &format!("/v1/matches/{id}"), "br, gzip").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), Some("br"));
    assert_eq!(res.header("etag"), Some("\"1\""));
    assert_eq!(res.json()["version"], 1);
    // The tag goes back in If-Match as it came.
    let auth = format!("Bearer {token}");
    let res = app
        .request(
            Method::POST,
            &format!("/v1/matches/{id}/play"),
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
                ("if-match", "\"1\""),
                ("accept-encoding", "gzip"),
            ],
            Some(br#"{"actions": ["h2e2"]}"#.to_vec()),
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), Some("gzip"));
    assert_eq!(res.header("etag"), Some("\"2\""));
    // Other tags name their form, and revalidate in it.
    let picture = format!("/v1/matches/{id}/picture.svg");
    let plain = get(&app, &picture, "identity").await;
    let br = get(&app, &picture, "br").await;
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert_eq!(br.body, plain.body);
    let tag = br.header("etag").expect("etag");
    assert_eq!(
        tag,
        format!(
            "{}-br\"",
            plain.header("etag").expect("etag").trim_end_matches('"')
        )
    );
    let again = app
        .request(
            Method::GET,
            &picture,
            &[("accept-encoding", "br"), ("if-none-match", tag)],
            None,
        )
        .await;
    assert_eq!(again.status, 304);
}
