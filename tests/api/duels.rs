//! Duels people can finish, on SQLite and PostgreSQL: seat names, Fischer
//! and correspondence clocks whose flags fall by themselves (on exactly one
//! of several instances), a move after the flag, takebacks that restore the
//! clocks, draw offers, abandonment claims, and an old database upgrading.

use std::time::Duration;

use qipan::configuration::Settings;
use qipan::matches::{Secret, Timestamp};
use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp, TestResponse, START};
use crate::live::Stream;

/// A POST to a match sub-resource with a seat token; the raw answer.
pub(crate) async fn send(
    app: &TestApp,
    id: &str,
    what: &str,
    token: &str,
    body: Option<Value>,
) -> TestResponse {
    let auth = format!("Bearer {token}");
    let mut headers = vec![("authorization", auth.as_str())];
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    app.request(
        Method::POST,
        &format!("/v1/matches/{id}/{what}"),
        &headers,
        body.map(|b| b.to_string().into_bytes()),
    )
    .await
}

/// Plays `moves` with `token`; the answer.
async fn play(app: &TestApp, id: &str, token: &str, moves: &[&str]) -> TestResponse {
    send(app, id, "play", token, Some(json!({ "actions": moves }))).await
}

/// Plays and asserts a 200; the match view.
async fn played(app: &TestApp, id: &str, token: &str, moves: &[&str]) -> Value {
    let res = play(app, id, token, moves).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

async fn view(app: &TestApp, id: &str) -> Value {
    let res = app.get(&format!("/v1/matches/{id}")).await;
    assert_eq!(res.status, 200);
    res.json()
}

/// A duel of `game` with both seats taken, created with `extra` in the body
/// and joined with `join`: (id, first seat's token, second seat's token,
/// the view after the join).
async fn duel(
    app: &TestApp,
    game: &str,
    extra: Value,
    join: Value,
) -> (String, String, String, Value) {
    let mut body = json!({ "game": game });
    for (k, v) in extra.as_object().expect("an object") {
        body[k] = v.clone();
    }
    let res = app.post_json("/v1/matches", &body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    let id = v["id"].as_str().expect("id").to_owned();
    let first = v["token"].as_str().expect("token").to_owned();
    let mut join = join;
    join["invite"] = v["invites"][0]["invite"].clone();
    let res = app
        .post_json(&format!("/v1/matches/{id}/join"), &join)
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let joined = res.json();
    let second = joined["token"].as_str().expect("token").to_owned();
    (id, first, second, joined)
}

/// Milliseconds of an RFC 3339 time in a view.
fn ms(v: &Value) -> i64 {
    let text = v.as_str().unwrap_or_else(|| panic!("a time, not {v}"));
    let t = humantime::parse_rfc3339(text).expect("RFC 3339");
    let d = t.duration_since(std::time::UNIX_EPOCH).expect("after 1970");
    i64::try_from(d.as_millis()).expect("fits")
}

/// The next event of `stream` that is not `skip`.
async fn next_but(stream: &mut Stream, skip: &[&str]) -> crate::live::Event {
    loop {
        let e = stream.expect().await;
        if !skip.contains(&e.kind.as_str()) {
            return e;
        }
    }
}

on_both_backends!(
    names_show_in_views_events_history_and_pages,
    a_fischer_flag_falls_by_itself_and_reaches_the_other_seat,
    a_move_after_the_flag_is_refused_with_the_end,
    a_correspondence_clock_gives_each_move_its_days,
    a_takeback_in_a_timed_duel_restores_the_clocks,
    draws_are_offered_accepted_declined_and_withdrawn,
    a_seat_that_left_can_be_claimed_against,
    an_old_database_upgrades,
);

async fn names_show_in_views_events_history_and_pages(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // Trimmed and NFC-normalised: "e" + combining acute is one "é".
    let (id, red, black, joined) = duel(
        &app,
        "xiangqi",
        json!({ "name": "  Le\u{301}on 林  " }),
        json!({ "name": "Wei" }),
    )
    .await;
    assert_eq!(
        joined["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| (s["seat"].clone(), s["name"].clone()))
            .collect::<Vec<_>>(),
        [
            (json!("red"), json!("Léon 林")),
            (json!("black"), json!("Wei"))
        ]
    );
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data["name"]),
        ("joined", &json!("Wei"))
    );
    played(&app, &id, &red, &["h2e2"]).await;
    played(&app, &id, &black, &["h9g7"]).await;
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data["seat"], &e.data["name"]),
        ("move", &json!("red"), &json!("Léon 林"))
    );
    assert_eq!(watch.expect().await.data["name"], "Wei");
    let history = app.get(&format!("/v1/matches/{id}/history")).await.json();
    let names: Vec<&Value> = history["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|mv| &mv["name"])
        .collect();
    assert_eq!(names, [&json!("Léon 林"), &json!("Wei")]);
    let page = app.get(&format!("/m/{id}")).await;
    let html = String::from_utf8_lossy(&page.body);
    assert!(
        html.contains("红方（Léon 林）") && html.contains("黑方（Wei）"),
        "{html}"
    );
    // A sync shows the names too.
    let mut fresh = Stream::open(&app, &id, None).await;
    let sync = fresh.expect().await;
    assert_eq!(sync.data["seats"][1]["name"], "Wei");

    // Names that break the rules, each refused naming it; 32 characters
    // (not bytes) pass.
    let long_ok = "棋".repeat(32);
    let res = app
        .post_json("/v1/matches", &json!({ "game": "gomoku", "name": long_ok }))
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    for (name, rule) in [
        ("棋".repeat(33), "longer than 32 characters"),
        ("   ".to_owned(), "is empty"),
        ("a\nb".to_owned(), "control character"),
        ("a\u{2028}b".to_owned(), "control character"),
        ("\u{202E}evil".to_owned(), "direction control"),
        // Names that show as nothing, or as another name.
        ("\u{200B}\u{200B}".to_owned(), "invisible character"),
        ("\u{3164}".to_owned(), "invisible character"),
        ("\u{2800}\u{2800}".to_owned(), "invisible character"),
        ("Wei\u{2060}".to_owned(), "invisible character"),
        ("\u{FEFF}Wei".to_owned(), "invisible character"),
        ("Wei\u{200E}".to_owned(), "direction control"),
        ("\u{200F}Wei".to_owned(), "direction control"),
        ("\u{2067}Wei".to_owned(), "direction control"),
        ("\u{200D}".to_owned(), "no visible character"),
    ] {
        let res = app
            .post_json("/v1/matches", &json!({ "game": "gomoku", "name": name }))
            .await;
        let p = res.problem(400, "invalid-field");
        assert_eq!(p["field"], "name", "{p}");
        assert!(
            p["detail"].as_str().is_some_and(|d| d.contains(rule)),
            "{p}"
        );
    }
    let res = app
        .post_json("/v1/matches", &json!({ "game": "gomoku" }))
        .await;
    let invite = res.json()["invites"][0]["invite"].clone();
    let other = res.json()["id"].as_str().expect("id").to_owned();
    let res = app
        .post_json(
            &format!("/v1/matches/{other}/join"),
            &json!({ "invite": invite, "name": "x".repeat(33) }),
        )
        .await;
    assert_eq!(res.problem(400, "invalid-field")["field"], "name");
    let seats = view(&app, &other).await["seats"].clone();
    assert_eq!(seats[1]["taken"], false, "a refused join takes no seat");
}

async fn a_fischer_flag_falls_by_itself_and_reaches_the_other_seat(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, black, joined) = duel(
        &app,
        "xiangqi",
        json!({ "clock": { "base": 0.8, "increment": 0.1 } }),
        json!({}),
    )
    .await;
    assert_eq!(
        joined["clock"],
        json!({
            "control": { "type": "fischer", "base": 0.8, "increment": 0.1 },
            "remaining": { "red": 0.8, "black": 0.8 },
            "running": null, "since": null, "deadline": null,
        }),
        "no clock runs before both sides have moved"
    );
    // Black's own stream, authenticated: the end must reach it unasked.
    let mut black_stream = Stream::at(
        &app,
        &format!("/v1/matches/{id}/events"),
        Some(2),
        Some(&black),
    )
    .await;
    let v = played(&app, &id, &red, &["h2e2"]).await;
    assert_eq!(v["clock"]["running"], Value::Null, "the first move is free");
    let v = played(&app, &id, &black, &["h9g7"]).await;
    // Now red's clock runs, from the moment black's move was stored.
    let clock = &v["clock"];
    assert_eq!(clock["running"], "red");
    assert_eq!(clock["remaining"], json!({ "red": 0.8, "black": 0.8 }));
    let deadline = ms(&clock["deadline"]);
    assert_eq!(deadline - ms(&clock["since"]), 800);
    let e = next_but(&mut black_stream, &["move"]).await;
    assert_eq!(e.kind, "timeout", "{:?}", e.data);
    let now = Timestamp::now().millis();
    assert!(now >= deadline, "not before the deadline");
    assert!(
        now - deadline < 1_000,
        "within a second of it: {} ms",
        now - deadline
    );
    assert_eq!(
        e.data["status"],
        json!({ "state": "won", "winner": "black", "reason": "timeout" })
    );
    assert_eq!(e.data["seat"], Value::Null);
    assert_eq!(
        e.data["clock"]["remaining"],
        json!({ "red": 0.0, "black": 0.8 })
    );
    assert_eq!(e.data["clock"]["running"], Value::Null);
    let v = view(&app, &id).await;
    assert_eq!(v["status"], e.data["status"]);
    assert_eq!(v["version"], e.id);
    // Red's late move is refused with the end.
    let res = play(&app, &id, &red, &["b0c2"]).await;
    let p = res.problem(409, "game-over");
    assert_eq!(p["outcome"]["reason"], "timeout", "{p}");
    // Clocks are for duels, and their numbers are checked.
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "2048", "clock": { "base": 60 } }),
        )
        .await;
    assert_eq!(res.problem(400, "invalid-field")["field"], "clock");
    for (clock, field) in [
        (json!({ "base": 0 }), "clock.base"),
        (json!({ "base": 60, "increment": -1 }), "clock.increment"),
        (json!({ "days": 0 }), "clock.days"),
        (json!({ "base": 60, "days": 1 }), "clock"),
        // The shapes are told apart by the members sent: one of the other
        // shape is refused even when null, as openapi.yaml's oneOf says.
        (json!({ "base": 60, "days": null }), "clock"),
        (json!({ "days": 1, "base": null }), "clock"),
        (json!({ "days": 1, "increment": null }), "clock"),
        (json!({ "days": 1, "increment": 0 }), "clock"),
        (json!({ "base": null }), "clock.base"),
        (json!({ "base": null, "increment": 2 }), "clock.base"),
        (json!({ "days": null }), "clock.days"),
        (json!({}), "clock"),
    ] {
        let res = app
            .post_json("/v1/matches", &json!({ "game": "gomoku", "clock": clock }))
            .await;
        assert_eq!(res.problem(400, "invalid-field")["field"], field, "{clock}");
    }
    // A null increment is no increment.
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "gomoku", "clock": { "base": 60, "increment": null } }),
        )
        .await;
    assert_eq!(res.status, 201);
    assert_eq!(
        res.json()["clock"]["control"],
        json!({ "type": "fischer", "base": 60.0, "increment": 0.0 })
    );
}

/// A xiangqi position where red has only its general, advisors and
/// elephants, and black a soldier: red cannot win, black can.
const RED_CANNOT_WIN: &str = "4k4/9/9/9/9/9/4p4/4B4/4A4/3AK1B2 w";

async fn a_move_after_the_flag_is_refused_with_the_end(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let code = app.import_fen(RED_CANNOT_WIN).await.json()["code"]
        .as_str()
        .expect("code")
        .to_owned();
    let (id, red, black, _) = duel(
        &app,
        "xiangqi",
        json!({ "from": code, "clock": { "base": 600 } }),
        json!({}),
    )
    .await;
    played(&app, &id, &red, &["e0f0"]).await;
    let v = played(&app, &id, &black, &["e3e2"]).await;
    assert_eq!(v["clock"]["running"], "red");
    // Red's clock ran out long ago — as far as the stored clock says. The
    // indexed deadline is left alone, so no sweeper ends the match: the
    // move itself must find the flag fallen.
    let db = app.database().expect("a database");
    sqlx::query("UPDATE matches SET clock_since = clock_since - 700000 WHERE id = $1")
        .bind(&id)
        .execute(db.pool())
        .await
        .expect("the clock is set back");
    let res = play(&app, &id, &black, &["e2d2"]).await;
    let p = res.problem(409, "game-over");
    // Black's flag did not fall, but the match is over: red's did. Black
    // has a soldier and could win, so black wins.
    assert_eq!(
        p["outcome"],
        json!({ "state": "won", "winner": "black", "reason": "timeout" })
    );
    let v = view(&app, &id).await;
    assert_eq!(v["status"], p["outcome"]);
    assert_eq!(v["ply"], 2, "no move was played");

    // Now black's flag, with only red's defenders left to win with: drawn.
    let (id, red, black, _) = duel(
        &app,
        "xiangqi",
        json!({ "from": code, "clock": { "base": 600 } }),
        json!({}),
    )
    .await;
    played(&app, &id, &red, &["e0f0"]).await;
    played(&app, &id, &black, &["e3e2"]).await;
    played(&app, &id, &red, &["f0e0"]).await;
    sqlx::query("UPDATE matches SET clock_since = clock_since - 700000 WHERE id = $1")
        .bind(&id)
        .execute(db.pool())
        .await
        .expect("the clock is set back");
    let res = play(&app, &id, &black, &["e2d2"]).await;
    let p = res.problem(409, "game-over");
    assert_eq!(
        p["outcome"],
        json!({ "state": "drawn", "winner": null, "reason": "timeout" })
    );
}

async fn a_correspondence_clock_gives_each_move_its_days(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // 0.00001 days: 864 ms a move.
    let (id, black, white, joined) = duel(
        &app,
        "gomoku",
        json!({ "clock": { "days": 0.00001 } }),
        json!({}),
    )
    .await;
    assert_eq!(joined["clock"]["control"]["type"], "correspondence");
    assert_eq!(
        joined["clock"]["remaining"],
        json!({ "black": 0.864, "white": 0.864 })
    );
    played(&app, &id, &black, &["h8"]).await;
    let v = played(&app, &id, &white, &["h9"]).await;
    assert_eq!(v["clock"]["running"], "black");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let v = played(&app, &id, &black, &["i8"]).await;
    // The move took 400 ms and more, and black's allowance is whole again.
    assert_eq!(
        v["clock"]["remaining"],
        json!({ "black": 0.864, "white": 0.864 })
    );
    assert_eq!(v["clock"]["running"], "white");
    assert_eq!(ms(&v["clock"]["deadline"]) - ms(&v["clock"]["since"]), 864);
    // A correspondence duel has no claims: its deadline ends it.
    let res = send(&app, &id, "claim", &black, Some(json!({ "result": "win" }))).await;
    assert_eq!(
        res.problem(409, "claim-refused")["reason"],
        "correspondence"
    );
    let mut watch = Stream::open(&app, &id, Some(v["version"].as_i64().expect("version"))).await;
    let e = watch.expect().await;
    assert_eq!(e.kind, "timeout");
    assert_eq!(
        e.data["status"],
        json!({ "state": "won", "winner": "black", "reason": "timeout" })
    );
    let now = Timestamp::now().millis();
    assert!(now - ms(&v["clock"]["deadline"]) < 1_000);
}

async fn a_takeback_in_a_timed_duel_restores_the_clocks(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, black, _) = duel(
        &app,
        "xiangqi",
        json!({ "clock": { "base": 60, "increment": 1 } }),
        json!({}),
    )
    .await;
    played(&app, &id, &red, &["h2e2"]).await;
    played(&app, &id, &black, &["h9g7"]).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let at_3 = played(&app, &id, &red, &["b0c2"]).await["clock"].clone();
    let red_left = at_3["remaining"]["red"].as_f64().expect("seconds");
    assert!(
        red_left > 60.0 && red_left <= 60.7,
        "60 s - 0.3 s and more + 1 s: {red_left}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let at_4 = played(&app, &id, &black, &["b9c7"]).await["clock"].clone();
    assert!(at_4["remaining"]["black"].as_f64().expect("seconds") < 60.9);
    // Black takes its move back: the clocks are as they were at ply 3, and
    // black's runs again from the takeback.
    assert_eq!(send(&app, &id, "undo", &black, None).await.status, 202);
    let res = send(&app, &id, "undo/accept", &red, None).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    assert_eq!(v["ply"], 3);
    assert_eq!(v["clock"]["remaining"], at_3["remaining"]);
    assert_eq!(v["clock"]["running"], "black");
    assert!(ms(&v["clock"]["since"]) >= ms(&at_4["since"]));
    assert_eq!(
        ms(&v["clock"]["deadline"]) - ms(&v["clock"]["since"]),
        (at_3["remaining"]["black"].as_f64().expect("seconds") * 1000.0).round() as i64
    );
    // Back past the start of the clock: none runs.
    assert_eq!(send(&app, &id, "undo", &red, None).await.status, 202);
    let v = send(&app, &id, "undo/accept", &black, None).await.json();
    assert_eq!(v["ply"], 2);
    assert_eq!(v["clock"]["running"], "red", "the clock runs from ply 2");
    assert_eq!(
        v["clock"]["remaining"],
        json!({ "red": 60.0, "black": 60.0 })
    );
    assert_eq!(send(&app, &id, "undo", &black, None).await.status, 202);
    let v = send(&app, &id, "undo/accept", &red, None).await.json();
    assert_eq!(v["ply"], 1);
    assert_eq!(
        v["clock"]["running"],
        Value::Null,
        "before both sides moved, no clock runs"
    );
}

async fn draws_are_offered_accepted_declined_and_withdrawn(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, black, joined) = duel(&app, "xiangqi", json!({}), json!({})).await;
    assert_eq!(joined["draw_offer"], Value::Null);
    let mut watch = Stream::open(&app, &id, Some(2)).await;
    // No offer to answer yet.
    send(&app, &id, "draw/accept", &black, None)
        .await
        .problem(409, "no-draw-offer");
    // Offered, asked again (nothing written), declined.
    let res = send(&app, &id, "draw", &red, None).await;
    assert_eq!(res.status, 202);
    assert_eq!(res.json()["draw_offer"], json!({ "seat": "red" }));
    let again = send(&app, &id, "draw", &red, None).await;
    assert_eq!(
        (again.status, again.json()["version"].clone()),
        (202, res.json()["version"].clone())
    );
    send(&app, &id, "draw/accept", &red, None)
        .await
        .problem(409, "own-draw-offer");
    let v = send(&app, &id, "draw/decline", &black, None).await.json();
    assert_eq!(v["draw_offer"], Value::Null);
    assert_eq!(v["status"]["state"], "ongoing");
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data["seat"]),
        ("draw-offered", &json!("red"))
    );
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data["seat"]),
        ("draw-declined", &json!("black"))
    );
    // Offered and withdrawn by the offerer.
    send(&app, &id, "draw", &black, None).await;
    let v = send(&app, &id, "draw/decline", &black, None).await.json();
    assert_eq!(v["draw_offer"], Value::Null);
    // Offered and withdrawn by a move.
    send(&app, &id, "draw", &red, None).await;
    let v = played(&app, &id, &red, &["h2e2"]).await;
    assert_eq!(v["draw_offer"], Value::Null, "a move withdraws the offer");
    send(&app, &id, "draw/accept", &black, None)
        .await
        .problem(409, "no-draw-offer");
    // Offered and accepted.
    send(&app, &id, "draw", &black, None).await;
    let res = send(&app, &id, "draw/accept", &red, None).await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.json()["status"],
        json!({ "state": "drawn", "winner": null, "reason": "agreement" })
    );
    let mut kinds = Vec::new();
    loop {
        let e = watch.expect().await;
        kinds.push(e.kind.clone());
        if e.kind == "draw-agreed" {
            assert_eq!(e.data["status"]["reason"], "agreement");
            break;
        }
    }
    assert_eq!(
        kinds,
        [
            "draw-offered",
            "draw-declined",
            "draw-offered",
            "move",
            "draw-offered",
            "draw-agreed"
        ]
    );
    send(&app, &id, "draw", &red, None)
        .await
        .problem(409, "game-over");

    // Two offers agree; a solo match has none.
    let (id, red, black, _) = duel(&app, "gomoku", json!({}), json!({})).await;
    send(&app, &id, "draw", &red, None).await;
    let res = send(&app, &id, "draw", &black, None).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json()["status"]["reason"], "agreement");
    let res = app
        .post_json("/v1/matches", &json!({ "game": "gomoku", "mode": "solo" }))
        .await;
    let v = res.json();
    let (solo, token) = (
        v["id"].as_str().expect("id"),
        v["token"].as_str().expect("token"),
    );
    send(&app, solo, "draw", token, None)
        .await
        .problem(409, "not-a-duel");
}

async fn a_seat_that_left_can_be_claimed_against(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    let app = spawn_app_with(Settings {
        // Long enough that a loaded machine sees black go offline well
        // within it.
        abandon_after: Duration::from_millis(1500),
        ..settings(&db.url)
    })
    .await;
    let (id, red, black, _) = duel(&app, "xiangqi", json!({}), json!({})).await;
    played(&app, &id, &red, &["h2e2"]).await;
    let claim = |token: String, result: &'static str| {
        let (app, id) = (&app, id.clone());
        async move { send(app, &id, "claim", &token, Some(json!({ "result": result }))).await }
    };
    // Black is to move: black plays, it does not claim.
    let p = claim(black.clone(), "win")
        .await
        .problem(409, "claim-refused");
    assert_eq!(p["reason"], "own-turn");
    // Too soon, with when it will not be.
    let too_soon = || async {
        let p = claim(red.clone(), "win")
            .await
            .problem(409, "claim-refused");
        assert_eq!(
            (p["reason"].as_str(), p["seat"].as_str()),
            (Some("too-soon"), Some("black"))
        );
        ms(&p["claimable_at"])
    };
    let past = |moment: i64| {
        let wait = moment - Timestamp::now().millis() + 50;
        tokio::time::sleep(Duration::from_millis(
            u64::try_from(wait.max(0)).expect("positive"),
        ))
    };
    let claimable_at = too_soon().await;
    // Black is online (a stream of theirs is open) past that moment.
    let stream = Stream::at(
        &app,
        &format!("/v1/matches/{id}/events"),
        None,
        Some(&black),
    )
    .await;
    past(claimable_at).await;
    let p = claim(red.clone(), "win")
        .await
        .problem(409, "claim-refused");
    assert_eq!(p["reason"], "opponent-online");
    // Black leaves after a long think (a phone locked in a pocket): the
    // absence counts from then, not from red's move, so red must wait the
    // abandonment time again before claiming the win.
    let left = Timestamp::now().millis();
    drop(stream);
    let mut version = 0;
    for _ in 0..100 {
        let v = view(&app, &id).await;
        version = v["version"].as_i64().expect("version");
        if v["seats"][1]["online"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let again = too_soon().await;
    assert!(
        again >= left + 1500,
        "counted from when black went offline: {again} < {left} + 1500"
    );
    past(again).await;
    let mut watch = Stream::open(&app, &id, Some(version)).await;
    let res = claim(red.clone(), "win").await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(
        res.json()["status"],
        json!({ "state": "won", "winner": "red", "reason": "abandoned" })
    );
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data["seat"]),
        ("claimed", &json!("red"))
    );
    claim(red.clone(), "win").await.problem(409, "game-over");
    // A malformed claim.
    let res = send(&app, &id, "claim", &red, Some(json!({ "result": "loss" }))).await;
    res.problem(400, "malformed-body");

    // A draw claimed.
    let (id, first, _, _) = duel(&app, "gomoku", json!({}), json!({})).await;
    played(&app, &id, &first, &["h8"]).await;
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let res = send(
        &app,
        &id,
        "claim",
        &first,
        Some(json!({ "result": "draw" })),
    )
    .await;
    assert_eq!(
        res.json()["status"],
        json!({ "state": "drawn", "winner": null, "reason": "abandoned" })
    );
    // Nobody took the other seat: nobody to claim against.
    let res = app
        .post_json("/v1/matches", &json!({ "game": "gomoku" }))
        .await;
    let v = res.json();
    let (open, token) = (
        v["id"].as_str().expect("id"),
        v["token"].as_str().expect("token"),
    );
    played(&app, open, token, &["h8"]).await;
    let res = send(&app, open, "claim", token, Some(json!({ "result": "win" }))).await;
    let p = res.problem(409, "claim-refused");
    assert_eq!(
        (p["reason"].as_str(), p["seat"].as_str()),
        (Some("opponent-not-seated"), Some("white"))
    );
}

async fn an_old_database_upgrades(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    // The schema before this release: every migration but the duels one.
    let old = std::env::temp_dir().join(format!(
        "qipan-old-migrations-{}",
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::create_dir_all(&old).expect("a temporary directory");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
    for entry in std::fs::read_dir(dir).expect("migrations") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if name.as_str() < "20261126000001" {
            std::fs::copy(&path, old.join(&name)).expect("copied");
        }
    }
    sqlx::any::install_default_drivers();
    let url = if backend == Backend::Sqlite {
        format!("{}?mode=rwc", db.url)
    } else {
        db.url.clone()
    };
    let pool = sqlx::AnyPool::connect(&url)
        .await
        .expect("the old database opens");
    sqlx::migrate::Migrator::new(old.as_path())
        .await
        .expect("the old migrations read")
        .run(&pool)
        .await
        .expect("the old schema is made");
    let _ = std::fs::remove_dir_all(&old);
    // A duel as the old service wrote it: red seated, black invited.
    let id = uuid::Uuid::new_v4().to_string();
    let token = Secret::presented("an-old-red-token");
    let invite = Secret::presented("an-old-invite");
    let now = Timestamp::now().millis();
    sqlx::query(
        "INSERT INTO matches (id, game, mode, code, to_move, ply, version, status, created_at, \
         updated_at) VALUES ($1, 'xiangqi', 'duel', $2, 'red', 0, 1, 'ongoing', $3, $3)",
    )
    .bind(&id)
    .bind(START)
    .bind(now)
    .execute(&pool)
    .await
    .expect("an old match");
    for (seat, token, invite) in [
        ("red", Some(token.hash()), None),
        ("black", None, Some(invite.hash())),
    ] {
        sqlx::query(
            "INSERT INTO seats (match_id, seat, token_hash, invite_hash, joined_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(seat)
        .bind(token.as_ref().map(|h| h.as_str().to_owned()))
        .bind(invite.as_ref().map(|h| h.as_str().to_owned()))
        .bind(token.as_ref().map(|_| now))
        .execute(&pool)
        .await
        .expect("an old seat");
    }
    pool.close().await;
    // The service migrates it and plays it as an untimed duel.
    let app = spawn_app_with(settings(&db.url)).await;
    let v = view(&app, &id).await;
    assert_eq!(
        (v["clock"].clone(), v["draw_offer"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(v["seats"][0]["name"], Value::Null);
    let res = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": "an-old-invite", "name": "Wei" }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let black = res.json()["token"].as_str().expect("token").to_owned();
    played(&app, &id, "an-old-red-token", &["h2e2"]).await;
    let v = played(&app, &id, &black, &["h9g7"]).await;
    assert_eq!(v["seats"][1]["name"], "Wei");
    assert_eq!(v["ply"], 2);
}

/// Two instances on one PostgreSQL database, each with its sweeper, and
/// matches whose flags fall at once: each match ends on time exactly once,
/// and both instances' streams get that one `timeout` event.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exactly_one_instance_ends_a_match_on_time() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let one = spawn_app_with(settings(&db.url)).await;
    let two = spawn_app_with(settings(&db.url)).await;
    let mut matches = Vec::new();
    for i in 0..6 {
        let (a, b) = if i % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let (id, black, white, _) =
            duel(a, "gomoku", json!({ "clock": { "base": 0.6 } }), json!({})).await;
        played(b, &id, &black, &["h8"]).await;
        let v = played(a, &id, &white, &["h9"]).await;
        let at = v["version"].as_i64().expect("version");
        let watch_one = Stream::open(&one, &id, Some(at)).await;
        let watch_two = Stream::open(&two, &id, Some(at)).await;
        matches.push((id, at, black, watch_one, watch_two));
    }
    for (id, at, black, watch_one, watch_two) in &mut matches {
        for watch in [watch_one, watch_two] {
            let e = watch.expect().await;
            assert_eq!((e.kind.as_str(), e.id), ("timeout", *at + 1), "{id}");
            assert_eq!(e.data["status"]["winner"], "white");
            // Nothing after it: one end, not two.
            assert!(
                watch.next(Duration::from_millis(300)).await.is_none(),
                "{id}"
            );
        }
        // A move racing with the end lands on the end.
        play(&two, id, black, &["i8"])
            .await
            .problem(409, "game-over");
    }
    let pool = one.database().expect("a database").pool();
    for (id, at, ..) in &matches {
        let (ends, version): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM match_events WHERE match_id = $1 AND kind = 'timeout'), \
             (SELECT version FROM matches WHERE id = $1)",
        )
        .bind(id)
        .fetch_one(pool)
        .await
        .expect("counted");
        assert_eq!((ends, version), (1, *at + 1), "{id}");
    }
}
