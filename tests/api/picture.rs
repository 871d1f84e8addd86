//! Pictures of states and matches over HTTP: every documented picture URL
//! for every game, the options and their refusals, caching.
//!
//! What the pictures look like is the picture crate's golden tests; here
//! the service's side: routing, options, media types, caching, and what a
//! duel's picture is given to show (names, clocks, how it ended).

use std::time::Duration;

use qipan_picture::{
    Card, ClockFace, Options, Panel, PanelPlayer, Pieces, CARD_HEIGHT, CARD_WIDTH,
};
use qipan_rules::{AnyAction, AnyPosition, GameKind};
use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, spawn_match_app, Backend};
use crate::helpers::{spawn_app, TestApp, TestResponse, START};
use crate::live::{create, play};

/// A start code of every game (seeded where the game has chance).
async fn starts(app: &TestApp) -> Vec<(String, String)> {
    let mut codes = Vec::new();
    for game in ["xiangqi", "gomoku", "2048", "quoridor", "tetris"] {
        let v = app.get(&format!("/v1/{game}/start?seed=7")).await;
        let v = if v.status == 200 {
            v.json()
        } else {
            app.get(&format!("/v1/{game}/start")).await.json()
        };
        codes.push((game.to_owned(), v["code"].as_str().unwrap().to_owned()));
    }
    codes
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(body: &[u8]) -> (u32, u32) {
    assert!(
        body.starts_with(b"\x89PNG\r\n\x1a\n"),
        "not a PNG: {:?}",
        &body[..body.len().min(16)]
    );
    let be = |at: usize| u32::from_be_bytes(body[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

fn svg_text(res: &TestResponse) -> String {
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.header("content-type"), Some("image/svg+xml"));
    let text = String::from_utf8(res.body.clone()).expect("SVG is UTF-8");
    assert!(text.contains("<svg"), "{}", &text[..text.len().min(200)]);
    text
}

#[tokio::test]
async fn every_picture_url_in_the_document_answers_for_every_game() {
    let app = spawn_app().await;
    let templates: Vec<String> = crate::spec::documented_operations()
        .into_iter()
        .filter(|(m, p)| m == "GET" && p.starts_with("/v1/{game}/") && p.contains("/picture."))
        .map(|(_, p)| p)
        .collect();
    assert_eq!(templates.len(), 2, "{templates:?}");
    for (game, code) in starts(&app).await {
        for template in &templates {
            let path = template.replace("{game}", &game).replace("{code}", &code);
            let res = app.get(&path).await;
            assert_eq!(
                res.status,
                200,
                "{path}: {}",
                String::from_utf8_lossy(&res.body)
            );
            if path.ends_with(".png") {
                assert_eq!(res.header("content-type"), Some("image/png"), "{path}");
                let (w, h) = png_size(&res.body);
                assert_eq!(w, 480, "{path}: the default width");
                assert!(h > 0, "{path}");
            } else {
                let svg = svg_text(&res);
                // Self-contained: text is drawn as outlines, nothing is
                // fetched, no font of the viewer's is needed.
                assert!(!svg.contains("<text"), "{path}");
                assert!(!svg.contains("<image"), "{path}");
                assert!(!svg.contains("font-family"), "{path}");
            }
            assert_eq!(
                res.header("cache-control"),
                Some("public, max-age=31536000, immutable"),
                "{path}"
            );
        }
    }
}

#[tokio::test]
async fn a_state_card_is_the_board_beside_what_its_page_says() {
    let app = spawn_app().await;
    let after = app.play(START, &["h2e2"]).await.json();
    let code = after["code"].as_str().unwrap();
    let res = app
        .get(&format!("/v1/xiangqi/{code}/card.png?last=h2e2&lang=en"))
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.header("content-type"), Some("image/png"));
    assert_eq!(
        res.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(png_size(&res.body), (CARD_WIDTH, CARD_HEIGHT));
    let pos = AnyPosition::from_code(GameKind::Xiangqi, code).expect("a code");
    let options = Options {
        size: CARD_WIDTH,
        last: Some(AnyAction::parse(GameKind::Xiangqi, "h2e2").expect("a move")),
        ..Options::default()
    };
    let card = Card {
        title: "Xiangqi".to_owned(),
        players: Vec::new(),
        headline: "Black to move".to_owned(),
        details: vec!["Last move h2e2".to_owned()],
    };
    assert_eq!(
        res.body,
        qipan_picture::card_png(&pos, &options, &card).expect("drawn")
    );
    // `size` is the card's width; the height keeps 1.91:1.
    let half = app
        .get(&format!("/v1/xiangqi/{code}/card.png?size=600"))
        .await;
    assert_eq!(png_size(&half.body), (600, 315));
    app.get(&format!("/v1/xiangqi/{code}/card.png?size=4000"))
        .await
        .problem(400, "invalid-query");
    app.get(&format!("/v1/xiangqi/{code}/card.png?last=a0a1"))
        .await
        .problem(400, "invalid-query");
}

/// Pieces carry simplified characters unless the link asks for the
/// traditional set.
#[tokio::test]
async fn xiangqi_pieces_come_in_either_script() {
    let app = spawn_app().await;
    let pos = AnyPosition::from_code(GameKind::Xiangqi, START).expect("a code");
    for (query, pieces) in [
        ("", Pieces::Simplified),
        ("?pieces=simplified", Pieces::Simplified),
        ("?pieces=traditional", Pieces::Traditional),
    ] {
        let res = app
            .get(&format!("/v1/xiangqi/{START}/picture.svg{query}"))
            .await;
        assert_eq!(res.status, 200, "{query}");
        let options = Options {
            pieces,
            ..Options::default()
        };
        assert_eq!(
            String::from_utf8_lossy(&res.body),
            qipan_picture::svg(&pos, &options).expect("drawn"),
            "{query}"
        );
    }
    let p = app
        .get(&format!("/v1/xiangqi/{START}/picture.png?pieces=carved"))
        .await
        .problem(400, "invalid-query");
    assert!(
        p["detail"]
            .as_str()
            .is_some_and(|d| d.contains("traditional")),
        "{p}"
    );
}

#[tokio::test]
async fn pictures_revalidate_by_entity_tag() {
    let app = spawn_app().await;
    let path = format!("/v1/xiangqi/{START}/picture.png?size=200");
    let first = app.get(&path).await;
    assert_eq!(png_size(&first.body).0, 200);
    let tag = first.header("etag").expect("an ETag").to_owned();
    let again = app
        .request(Method::GET, &path, &[("if-none-match", &tag)], None)
        .await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // Served again from the cache: the same bytes.
    assert_eq!(app.get(&path).await.body, first.body);
}

#[tokio::test]
async fn options_change_the_picture_and_bottom_is_another_way_to_flip() {
    let app = spawn_app().await;
    let at = |q: &str| format!("/v1/xiangqi/{START}/picture.svg{q}");
    let plain = svg_text(&app.get(&at("")).await);
    let flipped = svg_text(&app.get(&at("?flip=true")).await);
    let black_below = svg_text(&app.get(&at("?bottom=black")).await);
    let red_below = svg_text(&app.get(&at("?bottom=red")).await);
    assert_ne!(plain, flipped);
    assert_eq!(flipped, black_below);
    assert_eq!(plain, red_below);
    let bare = svg_text(&app.get(&at("?coordinates=false")).await);
    assert_ne!(plain, bare);
    assert!(bare.len() < plain.len(), "no coordinates is less to draw");
    let big = app
        .get(&format!("/v1/xiangqi/{START}/picture.png?size=1000"))
        .await;
    assert_eq!(png_size(&big.body).0, 1000);
}

#[tokio::test]
async fn bad_options_are_refused_with_what_to_fix() {
    let app = spawn_app().await;
    let refused = |q: &'static str| {
        let app = &app;
        async move {
            let res = app
                .get(&format!("/v1/xiangqi/{START}/picture.svg{q}"))
                .await;
            res.problem(400, "invalid-query")["detail"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    };
    let detail = refused("?size=10").await;
    assert!(detail.contains("64") && detail.contains("2048"), "{detail}");
    let detail = refused("?size=4096").await;
    assert!(detail.contains("2048"), "{detail}");
    let detail = refused("?bottom=green").await;
    assert!(detail.contains("red, black"), "{detail}");
    let detail = refused("?bottom=black&flip=false").await;
    assert!(detail.contains("contradicts"), "{detail}");
    let detail = refused("?last=zz").await;
    assert!(detail.contains("last \"zz\""), "{detail}");
    // Well written, but no move onto the start position: e2 is empty.
    let detail = refused("?last=h2e2").await;
    assert!(detail.contains("h2e2"), "{detail}");
    let detail = refused("?shade=red").await;
    assert!(detail.contains("shade"), "{detail}");
    app.get("/v1/xiangqi/nope/picture.png")
        .await
        .problem(400, "invalid-code");
    app.get(&format!("/v1/chess/{START}/picture.png"))
        .await
        .problem(404, "unknown-game");
}

#[tokio::test]
async fn the_last_move_is_marked_when_it_fits() {
    let app = spawn_app().await;
    let code = app.play(START, &["h2e2"]).await.json()["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let plain = svg_text(&app.get(&format!("/v1/xiangqi/{code}/picture.svg")).await);
    let marked = svg_text(
        &app.get(&format!("/v1/xiangqi/{code}/picture.svg?last=h2e2"))
            .await,
    );
    assert_ne!(plain, marked);
    let unmarked = svg_text(
        &app.get(&format!(
            "/v1/xiangqi/{code}/picture.svg?last=h2e2&highlights=false"
        ))
        .await,
    );
    assert_ne!(unmarked, marked);
}

async fn a_match_picture_is_its_position_with_the_last_move(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, _) = create(&app, json!({ "game": "xiangqi", "mode": "solo" })).await;
    let path = format!("/v1/matches/{id}/picture.svg");
    let before = app.get(&path).await;
    let start = svg_text(&before);
    assert_eq!(before.header("cache-control"), Some("no-cache"));
    assert_eq!(
        start,
        svg_text(&app.get(&format!("/v1/xiangqi/{START}/picture.svg")).await)
    );
    let tag = before.header("etag").unwrap().to_owned();
    let same = app
        .request(Method::GET, &path, &[("if-none-match", &tag)], None)
        .await;
    assert_eq!(same.status, 304);

    let after = play(&app, &id, &red, json!(["h2e2"])).await;
    let code = after["state"]["code"].as_str().unwrap();
    let now = app
        .request(Method::GET, &path, &[("if-none-match", &tag)], None)
        .await;
    assert_eq!(now.status, 200, "a move changes the picture");
    assert_eq!(
        svg_text(&now),
        svg_text(
            &app.get(&format!("/v1/xiangqi/{code}/picture.svg?last=h2e2"))
                .await
        ),
        "the match marks its own last move"
    );
    let png = app
        .get(&format!(
            "/v1/matches/{id}/picture.png?size=300&bottom=black"
        ))
        .await;
    assert_eq!(png.header("content-type"), Some("image/png"));
    assert_eq!(png_size(&png.body).0, 300);
    app.get(&format!("/v1/matches/{id}/picture.svg?last=h2e2"))
        .await
        .problem(400, "invalid-query");
    app.get("/v1/matches/00000000-0000-4000-8000-000000000000/picture.png")
        .await
        .problem(404, "unknown-match");
}

/// The panel a duel's view calls for: its seats' names, and its clock's
/// reading (the running side's clock lit), with `result` under it.
fn panel_of(view: &Value, result: Option<&str>) -> Panel {
    let seats = view["seats"].as_array().expect("seats");
    let player = |i: usize| {
        let side = seats[i]["seat"].as_str().expect("seat");
        let clock = &view["clock"];
        PanelPlayer {
            name: seats[i]["name"].as_str().map(str::to_owned),
            clock: clock["remaining"][side].as_f64().map(|s| ClockFace {
                left: Duration::from_millis((s * 1000.0).round() as u64),
                running: clock["running"] == side,
            }),
        }
    };
    Panel {
        players: [player(0), player(1)],
        result: result.map(str::to_owned),
    }
}

async fn a_duel_picture_shows_names_clocks_and_the_end(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, v) = create(
        &app,
        json!({ "game": "xiangqi", "name": "Lin", "clock": { "base": 300, "increment": 2 } }),
    )
    .await;
    let invite = v["invites"][0]["invite"].as_str().expect("invite");
    let joined = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": invite, "name": "Ada" }),
        )
        .await
        .json();
    let black = joined["token"].as_str().expect("token").to_owned();
    play(&app, &id, &red, json!(["h2e2"])).await;
    play(&app, &id, &black, json!(["h9g7"])).await;
    let view = play(&app, &id, &red, json!(["b0c2"])).await;
    assert_eq!(view["clock"]["running"], "black");
    let code = view["state"]["code"].as_str().expect("code");
    let pos = AnyPosition::from_code(GameKind::Xiangqi, code).expect("a code");
    let options = |size| Options {
        size,
        last: Some(AnyAction::parse(GameKind::Xiangqi, "b0c2").expect("a move")),
        ..Options::default()
    };
    let panel = panel_of(&view, None);
    assert_eq!(
        panel.players.clone().map(|p| p.name),
        [Some("Lin".to_owned()), Some("Ada".to_owned())]
    );
    assert!(panel.players[1].clock.is_some_and(|c| c.running));
    let drawn = svg_text(&app.get(&format!("/v1/matches/{id}/picture.svg")).await);
    assert_eq!(
        drawn,
        qipan_picture::duel_svg(&pos, &options(480), &panel).expect("drawn")
    );
    let png = app
        .get(&format!("/v1/matches/{id}/picture.png?size=360"))
        .await;
    assert_eq!(
        png_size(&png.body),
        qipan_picture::duel_dimensions(&pos, &options(360), &panel).expect("sized")
    );
    // The page shows the duel picture at its size.
    let page = app.get(&format!("/m/{id}")).await;
    let html = String::from_utf8_lossy(&page.body);
    let (w, h) =
        qipan_picture::duel_dimensions(&pos, &options(PAGE_PICTURE), &panel).expect("sized");
    assert!(
        html.contains(&format!("width=\"{w}\" height=\"{h}\"")),
        "the picture is {w}×{h}"
    );
    // Its chat card names the players, says how the game stands and what
    // the last move was, beside the board.
    let card = Card {
        title: "Xiangqi".to_owned(),
        players: vec!["Lin".to_owned(), "Ada".to_owned()],
        headline: "Black to move".to_owned(),
        details: vec!["H8+7 by Red".to_owned(), "Move 2".to_owned()],
    };
    let served = app.get(&format!("/v1/matches/{id}/card.png?lang=en")).await;
    assert_eq!(served.status, 200);
    assert_eq!(served.header("cache-control"), Some("no-cache"));
    let expected = qipan_picture::card_png(&pos, &options(CARD_WIDTH), &card).expect("drawn");
    assert_eq!(served.body, expected);
    // In Chinese the card names the move as Chinese players write it, and a
    // reader whose browser asks for Chinese gets it without asking by name.
    let chinese = Card {
        title: "象棋".to_owned(),
        players: vec!["Lin".to_owned(), "Ada".to_owned()],
        headline: "黑方走棋".to_owned(),
        details: vec!["红方 马八进七".to_owned(), "第2回合".to_owned()],
    };
    let expected = qipan_picture::card_png(&pos, &options(CARD_WIDTH), &chinese).expect("drawn");
    let served = app
        .get(&format!("/v1/matches/{id}/card.png?lang=zh-Hans"))
        .await;
    assert_eq!(served.body, expected);
    let negotiated = app
        .request(
            Method::GET,
            &format!("/v1/matches/{id}/card.png"),
            &[("accept-language", "zh-CN,zh;q=0.9")],
            None,
        )
        .await;
    assert_eq!(negotiated.body, expected);
    assert!(negotiated
        .header("vary")
        .is_some_and(|v| v.contains("Accept-Language")));
    app.get(&format!("/v1/matches/{id}/card.png?lang=xx"))
        .await
        .problem(400, "invalid-query");

    // Drawn by agreement: the clocks stop, and the end is told under them.
    for token in [&black, &red] {
        let res = app
            .request(
                Method::POST,
                &format!("/v1/matches/{id}/draw"),
                &[("authorization", &format!("Bearer {token}"))],
                None,
            )
            .await;
        assert!(res.status == 200 || res.status == 202);
    }
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(view["status"]["reason"], "agreement");
    assert_eq!(view["clock"]["running"], Value::Null);
    let panel = panel_of(&view, Some("Drawn: by agreement"));
    let drawn = svg_text(
        &app.get(&format!("/v1/matches/{id}/picture.svg?lang=en"))
            .await,
    );
    assert_eq!(
        drawn,
        qipan_picture::duel_svg(&pos, &options(480), &panel).expect("drawn")
    );
}

/// The width of the picture on a match page.
const PAGE_PICTURE: u32 = 600;

on_both_backends!(
    a_match_picture_is_its_position_with_the_last_move,
    a_duel_picture_shows_names_clocks_and_the_end,
);
