//! Pages for people: share pages of states and matches, invite links opened
//! in a browser, JSON URLs opened in a browser, and `/docs`.

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, spawn_match_app, Backend};
use crate::helpers::{spawn_app, TestApp, START};
use crate::live::{create, play};

/// What a browser sends when a link is opened.
const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

fn html(res: &crate::helpers::TestResponse) -> String {
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    String::from_utf8(res.body.clone()).expect("a page is UTF-8")
}

/// The `content` of `<meta property|name="{name}" content="…">`.
fn meta(page: &str, name: &str) -> Option<String> {
    ["property", "name"].iter().find_map(|attr| {
        let start = format!("<meta {attr}=\"{name}\" content=\"");
        let from = page.find(&start)? + start.len();
        let len = page[from..].find('"')?;
        Some(page[from..from + len].replace("&amp;", "&"))
    })
}

async fn browse(app: &TestApp, path: &str) -> crate::helpers::TestResponse {
    app.request(Method::GET, path, &[("accept", BROWSER)], None)
        .await
}

#[tokio::test]
async fn a_state_page_shows_the_board_and_previews_as_its_card() {
    let app = spawn_app().await;
    let page = html(&app.get(&format!("/p/xiangqi/{START}")).await);
    let json = format!("{}/v1/xiangqi/{START}", app.base);
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{json}/card.png").as_str())
    );
    assert_eq!(
        meta(&page, "twitter:image").as_deref(),
        Some(format!("{json}/card.png").as_str())
    );
    assert_eq!(
        meta(&page, "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    assert_eq!(
        meta(&page, "og:url").as_deref(),
        Some(format!("{}/p/xiangqi/{START}", app.base).as_str())
    );
    assert_eq!(
        meta(&page, "og:title").as_deref(),
        Some("Xiangqi 象棋 · Red to move")
    );
    assert!(page.contains("<h2>Red to move</h2>"), "{page}");
    assert!(page.contains(&format!("<img src=\"{json}/picture.svg\"")));
    assert!(page.contains(&format!(
        "href=\"/play/xiangqi/{START}\">Play on from here</a>"
    )));
    assert!(page.contains(&format!("href=\"{json}\">JSON</a>")));
    // The preview is the chat card, 1200 × 630 as the tags say.
    let width: u32 = meta(&page, "og:image:width").unwrap().parse().unwrap();
    let height: u32 = meta(&page, "og:image:height").unwrap().parse().unwrap();
    assert_eq!((width, height), (1200, 630));
    let card = app.get(&format!("/v1/xiangqi/{START}/card.png")).await;
    assert_eq!(card.status, 200);
    let be = |at: usize| u32::from_be_bytes(card.body[at..at + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), (width, height));
    // The page's own picture is 600 px wide; its height follows the board.
    assert!(
        page.contains(&format!(
            "<img src=\"{json}/picture.svg\" width=\"600\" height=\"660\""
        )),
        "{page}"
    );
}

#[tokio::test]
async fn a_state_page_is_immutable_and_revalidates() {
    let app = spawn_app().await;
    let first = app.get(&format!("/p/xiangqi/{START}")).await;
    html(&first);
    assert_eq!(
        first.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    let tag = first.header("etag").expect("an ETag").to_owned();
    let again = app
        .request(
            Method::GET,
            &format!("/p/xiangqi/{START}"),
            &[("if-none-match", &tag)],
            None,
        )
        .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
}

#[tokio::test]
async fn a_state_page_names_the_move_that_led_there() {
    let app = spawn_app().await;
    let after = app.play(START, &["h2e2"]).await.json();
    let code = after["code"].as_str().unwrap();
    let page = html(&app.get(&format!("/p/xiangqi/{code}?last=h2e2")).await);
    assert!(page.contains("<dt>Last move</dt><dd>h2e2</dd>"), "{page}");
    let preview = meta(&page, "og:image").unwrap();
    let png = app.get(preview.strip_prefix(&app.base).unwrap()).await;
    assert_eq!(png.status, 200, "{}", String::from_utf8_lossy(&png.body));
    assert!(page.contains("<h2>Black to move</h2>"));
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{}/v1/xiangqi/{code}/card.png?last=h2e2", app.base).as_str())
    );
    let bad = app.get(&format!("/p/xiangqi/{code}?last=zz")).await;
    let p = bad.problem(400, "invalid-query");
    assert!(p["detail"].as_str().unwrap().contains("last \"zz\""), "{p}");
}

#[tokio::test]
async fn a_page_of_a_bad_code_or_game_is_a_problem() {
    let app = spawn_app().await;
    app.get("/p/xiangqi/nope")
        .await
        .problem(400, "invalid-code");
    app.get(&format!("/p/chess/{START}"))
        .await
        .problem(404, "unknown-game");
    app.get(&format!("/p/xiangqi/{START}?colour=red"))
        .await
        .problem(400, "invalid-query");
}

#[tokio::test]
async fn a_finished_game_says_who_won() {
    let app = spawn_app().await;
    // The checkmate of the openapi example: black's chariot mates.
    let code = "VFZaV1paWlpaWlobWlpaWgRaWlpaWloVWlpaPlpaWlo";
    let page = html(&app.get(&format!("/p/xiangqi/{code}")).await);
    assert!(page.contains("<h2>Checkmate: black wins</h2>"), "{page}");
}

#[tokio::test]
async fn every_view_names_its_page_and_browsers_are_sent_there() {
    let app = spawn_app().await;
    let view = app.get(&format!("/v1/xiangqi/{START}")).await;
    assert_eq!(view.status, 200);
    let vary: Vec<&str> = view
        .headers
        .get_all("vary")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert!(vary.contains(&"Accept"), "{vary:?}");
    assert_eq!(
        view.json()["page"],
        json!(format!("{}/p/xiangqi/{START}", app.base))
    );
    let seen = browse(&app, &format!("/v1/xiangqi/{START}")).await;
    assert_eq!(seen.status, 303);
    assert_eq!(
        seen.header("location"),
        Some(format!("/p/xiangqi/{START}").as_str())
    );
    assert_eq!(seen.header("vary"), Some("Accept"));
    // A program asking for JSON first, or anything, gets the JSON.
    for accept in [
        "application/json",
        "*/*",
        "application/json, text/html;q=0.5",
    ] {
        let res = app
            .request(
                Method::GET,
                &format!("/v1/xiangqi/{START}"),
                &[("accept", accept)],
                None,
            )
            .await;
        assert_eq!(res.status, 200, "{accept}");
    }
}

async fn a_match_page_joins_from_an_invite_link(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, v) = create(&app, json!({ "game": "xiangqi" })).await;
    let invite = v["invites"][0]["invite"].as_str().unwrap().to_owned();
    let link = v["invites"][0]["url"].as_str().unwrap();
    let path = link.strip_prefix(&app.base).unwrap();

    // Opening the invite link in a browser is a GET: sent to the page.
    let opened = browse(&app, path).await;
    assert_eq!(opened.status, 303);
    let location = opened.header("location").unwrap().to_owned();
    assert_eq!(location, format!("/m/{id}?invite={invite}"));
    let page = html(&app.get(&location).await);
    assert!(
        page.contains(&format!(
            "<a class=\"primary\" href=\"/play/matches/{id}?invite={invite}&amp;join=1\">Join this match</a>"
        )),
        "{page}"
    );
    assert!(page.contains("<dd>black: open</dd>"), "{page}");
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{}/v1/matches/{id}/card.png?v=1", app.base).as_str())
    );

    let preview = meta(&page, "og:image").unwrap();
    let png = app.get(preview.strip_prefix(&app.base).unwrap()).await;
    assert_eq!(png.status, 200, "{}", String::from_utf8_lossy(&png.body));
    assert_eq!(png.header("content-type"), Some("image/png"));

    // Once joined and played, the page says so and offers no seat.
    let joined = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": invite }),
        )
        .await;
    assert_eq!(joined.status, 200);
    let black = joined.json()["token"].as_str().unwrap().to_owned();
    play(&app, &id, &red, json!(["h2e2"])).await;
    let page = html(&app.get(&location).await);
    assert!(!page.contains("Join this match"), "{page}");
    assert!(page.contains("Open in the playground"));
    assert!(page.contains("<dd>h2e2 by Red</dd>"), "{page}");
    assert!(page.contains("<h2>Black to move</h2>"));
    assert!(page.contains("<dd>black: joined, offline</dd>"), "{page}");

    // The JSON URL of the match, opened in a browser, is the page too.
    let seen = browse(&app, &format!("/v1/matches/{id}")).await;
    assert_eq!(seen.status, 303);
    assert_eq!(seen.header("location"), Some(format!("/m/{id}").as_str()));

    // The page revalidates by version.
    let tagged = app.get(&format!("/m/{id}")).await;
    let tag = tagged.header("etag").unwrap().to_owned();
    let again = app
        .request(
            Method::GET,
            &format!("/m/{id}"),
            &[("if-none-match", &tag)],
            None,
        )
        .await;
    assert_eq!(again.status, 304);
    play(&app, &id, &black, json!(["h9g7"])).await;
    let changed = app
        .request(
            Method::GET,
            &format!("/m/{id}"),
            &[("if-none-match", &tag)],
            None,
        )
        .await;
    assert_eq!(changed.status, 200);
    // An unknown match is a problem.
    app.get("/m/00000000-0000-4000-8000-000000000000")
        .await
        .problem(404, "unknown-match");
}

on_both_backends!(a_match_page_joins_from_an_invite_link);

#[tokio::test]
async fn the_reference_is_served_with_its_renderer() {
    let app = spawn_app().await;
    let page = html(&app.get("/docs").await);
    assert!(page.contains("/static/vendor/swagger-ui/swagger-ui-bundle.js"));
    assert!(page.contains("/openapi.yaml"));
    // The renderer is built in: no address outside the service.
    assert!(!page.contains("://"), "{page}");
    let client = reqwest::Client::new();
    for (path, media) in [
        (
            "/static/vendor/swagger-ui/swagger-ui-bundle.js",
            "text/javascript; charset=utf-8",
        ),
        (
            "/static/vendor/swagger-ui/swagger-ui.css",
            "text/css; charset=utf-8",
        ),
        ("/static/docs/init.js", "text/javascript; charset=utf-8"),
    ] {
        let res = client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            media,
            "{path}"
        );
    }
    let init = client
        .get(format!("{}/static/docs/init.js", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(init.contains("validatorUrl: null"), "{init}");
    let missing: Value = app.get("/static/nope.js").await.problem(404, "not-found");
    assert!(missing["detail"].as_str().unwrap().contains("nope.js"));
}
