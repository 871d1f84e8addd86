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

/// A page as an English-speaking browser asks for it.
async fn english(app: &TestApp, path: &str) -> crate::helpers::TestResponse {
    app.request(
        Method::GET,
        path,
        &[("accept-language", "en-GB,en;q=0.9")],
        None,
    )
    .await
}

#[tokio::test]
async fn a_state_page_shows_the_board_and_previews_as_its_card() {
    let app = spawn_app().await;
    let page = html(&english(&app, &format!("/p/xiangqi/{START}")).await);
    let json = format!("{}/v1/xiangqi/{START}", app.base);
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{json}/card.png?lang=en").as_str())
    );
    assert_eq!(
        meta(&page, "twitter:image").as_deref(),
        Some(format!("{json}/card.png?lang=en").as_str())
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
        Some("Xiangqi · Red to move")
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
    let page = html(&english(&app, &format!("/p/xiangqi/{code}?last=h2e2")).await);
    assert!(page.contains("<dt>Last move</dt><dd>h2e2</dd>"), "{page}");
    let preview = meta(&page, "og:image").unwrap();
    let png = app.get(preview.strip_prefix(&app.base).unwrap()).await;
    assert_eq!(png.status, 200, "{}", String::from_utf8_lossy(&png.body));
    assert!(page.contains("<h2>Black to move</h2>"));
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{}/v1/xiangqi/{code}/card.png?last=h2e2&lang=en", app.base).as_str())
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
    let page = html(&english(&app, &format!("/p/xiangqi/{code}")).await);
    assert!(page.contains("<h2>Checkmate: Black wins</h2>"), "{page}");
    // Chinese first: a browser that names no language it reads.
    let page = html(&app.get(&format!("/p/xiangqi/{code}")).await);
    assert!(page.contains("<h2>将死，黑方胜</h2>"), "{page}");
}

#[tokio::test]
async fn every_view_names_its_page_and_browsers_are_sent_there() {
    let app = spawn_app().await;
    let view = app.get(&format!("/v1/xiangqi/{START}")).await;
    assert_eq!(view.status, 200);
    let vary = view.header_all("vary");
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
    // The page opens with the invitation: who, which side, Join (a form
    // to the playground, which joins on arrival with the name given).
    let page = html(&english(&app, &location).await);
    let invitation = page.find("id=\"invite\"").expect("the invitation");
    assert!(
        invitation < page.find("<figure>").unwrap(),
        "before the board"
    );
    assert!(
        page.contains("<p class=\"who\">You are invited to a game of Xiangqi</p>"),
        "{page}"
    );
    assert!(page.contains("<p>You play Black.</p>"), "{page}");
    assert!(
        page.contains(&format!(
            "<form method=\"get\" action=\"/play/matches/{id}\">"
        )),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "<input type=\"hidden\" name=\"invite\" value=\"{invite}\">"
        )),
        "{page}"
    );
    assert!(
        page.contains("<button type=\"submit\" id=\"join\">Join the game</button>"),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "href=\"/play/matches/{id}?invite={invite}&amp;decline=1\""
        )),
        "{page}"
    );
    assert!(page.contains("<dd>Black: open</dd>"), "{page}");
    // In Chinese by default, with the page's own description for chats.
    let zh = html(&app.get(&location).await);
    assert!(
        zh.starts_with("<!doctype html>\n<html lang=\"zh-Hans\">"),
        "{zh}"
    );
    assert!(
        zh.contains("<p class=\"who\">有人邀请你下一盘象棋</p>"),
        "{zh}"
    );
    assert!(zh.contains(">加入对局</button>"), "{zh}");
    assert_eq!(meta(&zh, "og:description").as_deref(), Some("红方走棋"));
    // A link that no longer joins says so first.
    let stale = html(&english(&app, &format!("/m/{id}?invite=AAAAAAAAAAAAAAAAAAAAAA")).await);
    assert!(stale.contains("This invitation no longer works"), "{stale}");
    assert!(!stale.contains("id=\"join\""), "{stale}");
    assert_eq!(
        meta(&page, "og:image").as_deref(),
        Some(format!("{}/v1/matches/{id}/card.png?v=1&lang=en", app.base).as_str())
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
    let page = html(&english(&app, &location).await);
    assert!(!page.contains("id=\"join\""), "{page}");
    assert!(page.contains("This seat has been taken"), "{page}");
    assert!(page.contains("Open the game"));
    assert!(page.contains("<dd>炮二平五 by Red</dd>"), "{page}");
    assert!(page.contains("<h2>Black to move</h2>"));
    assert!(page.contains("<dd>Black: joined, offline</dd>"), "{page}");
    // What a chat card says: whose move, the round, the last move.
    let zh = html(&app.get(&format!("/m/{id}")).await);
    assert_eq!(
        meta(&zh, "og:description").as_deref(),
        Some("黑方走棋 · 第1回合 · 上一步 炮二平五")
    );
    assert_eq!(meta(&zh, "og:title").as_deref(), Some("象棋 · 黑方走棋"));

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

/// The language of a page: the cookie the language links set, else the
/// first of `Accept-Language` the pages speak, else Simplified Chinese;
/// `<html lang>` says which, and caches keep one answer per language.
#[tokio::test]
async fn pages_speak_the_readers_language() {
    let app = spawn_app().await;
    let lang = |page: &str| {
        let from = page.find("<html lang=\"").expect("<html lang>") + 12;
        page[from..from + page[from..].find('"').unwrap()].to_owned()
    };
    let with = |headers: Vec<(&'static str, &'static str)>, path: &'static str| {
        let app = &app;
        async move { app.request(Method::GET, path, &headers, None).await }
    };
    for path in [
        "/",
        "/play/xiangqi",
        "/docs",
        "/p/xiangqi/VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM",
    ] {
        for (accept, expected) in [
            (None, "zh-Hans"),
            (Some("zh-CN,zh;q=0.9"), "zh-Hans"),
            (Some("zh-TW"), "zh-Hant"),
            (Some("en-US,en;q=0.9"), "en"),
        ] {
            let headers = accept
                .map(|a| vec![("accept-language", a)])
                .unwrap_or_default();
            let res = with(headers, path).await;
            let page = html(&res);
            assert_eq!(lang(&page), expected, "{path} {accept:?}");
            let vary = res.header_all("vary");
            assert!(
                vary.iter()
                    .any(|v| v.contains("Accept-Language") && v.contains("Cookie")),
                "{path}: {vary:?}"
            );
        }
        // The cookie wins over the header.
        let page = html(
            &with(
                vec![
                    ("accept-language", "en"),
                    ("cookie", "a=b; qipan-lang=zh-Hant"),
                ],
                path,
            )
            .await,
        );
        assert_eq!(lang(&page), "zh-Hant", "{path}");
    }
    // The playground's page carries its catalogue and speaks its words.
    let page = html(&app.get("/play/gomoku").await);
    assert!(
        page.contains("<script type=\"application/json\" id=\"catalogue\">{"),
        "{page}"
    );
    assert!(
        page.contains("<button type=\"button\" id=\"share-btn\">分享</button>"),
        "{page}"
    );
    assert!(!page.contains("{{"), "every hole is filled");
    let page = html(&english(&app, "/play/gomoku").await);
    assert!(page.contains("<button type=\"button\" id=\"share-btn\">Share</button>"));
    // The language links: a cookie for a year, and back where one was.
    let res = app.get("/lang/en?to=/play/xiangqi%3Fgravity%3D0").await;
    assert_eq!(res.status, 303);
    assert_eq!(res.header("location"), Some("/play/xiangqi?gravity=0"));
    assert_eq!(
        res.header("set-cookie"),
        Some("qipan-lang=en; Path=/; Max-Age=31536000; SameSite=Lax")
    );
    let res = app.get("/lang/en?to=//elsewhere.example/").await;
    assert_eq!(res.header("location"), Some("/"), "never off the service");
    let res = app.get("/lang/fr?to=/docs").await;
    assert_eq!((res.status, res.header("set-cookie")), (303, None));
}

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

/// The playground and the match pages act with the seat token the browser
/// keeps: no other site may frame them. Share pages stay embeddable.
/// Every answer forbids sniffing and sends no referrer; SVG pictures get a
/// policy that allows no script and no fetch.
#[tokio::test]
async fn pages_with_buttons_refuse_to_be_framed() {
    let app = spawn_app().await;
    let check = |res: &crate::helpers::TestResponse, framed: bool, path: &str| {
        assert_eq!(
            res.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(res.header("referrer-policy"), Some("no-referrer"), "{path}");
        if framed {
            assert_eq!(res.header("x-frame-options"), None, "{path}");
            assert!(
                !res.header("content-security-policy")
                    .unwrap_or("")
                    .contains("frame-ancestors"),
                "{path}"
            );
        } else {
            assert_eq!(res.header("x-frame-options"), Some("DENY"), "{path}");
            assert_eq!(
                res.header("content-security-policy"),
                Some("frame-ancestors 'none'"),
                "{path}"
            );
        }
    };
    for path in [
        "/".to_owned(),
        "/play/xiangqi".to_owned(),
        format!("/play/xiangqi/{START}"),
        "/play/matches/0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b".to_owned(),
        "/docs".to_owned(),
    ] {
        let res = browse(&app, &path).await;
        assert_eq!(res.status, 200, "{path}");
        check(&res, false, &path);
    }
    let path = format!("/p/xiangqi/{START}");
    check(&browse(&app, &path).await, true, &path);
    let path = format!("/v1/xiangqi/{START}");
    let res = app.get(&path).await;
    check(&res, false, &path);
    let path = format!("/v1/xiangqi/{START}/picture.svg");
    let res = app.get(&path).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
    let policy = res.header("content-security-policy").expect("a policy");
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    assert!(policy.contains("sandbox"), "{policy}");
    // Problems too.
    let res = app.get("/v1/xiangqi/not-a-code").await;
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
}
