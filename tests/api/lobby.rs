//! The lobby and invitations, on SQLite and PostgreSQL: a seek is listed
//! and streamed, taking it seats both players and tells the seeker live; a
//! seek goes when its creator leaves or withdraws it; an invited player
//! declines with a reason the inviter's stream shows, and an inviter
//! withdraws or reissues invites. A seek carries its seeker's name and the
//! duel's clock, and the duel taken from it is timed and names both seats.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp};
use crate::live::{create, play, post, Stream};

/// Opens a seek: its answer.
async fn seek(app: &TestApp, body: Value) -> Value {
    let res = app.post_json("/v1/lobby/seeks", &body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    assert_eq!(res.header("location"), v["url"].as_str());
    v
}

fn path(url: &Value, app: &TestApp) -> String {
    url.as_str()
        .expect("a URL")
        .strip_prefix(&app.base)
        .expect("on this service")
        .to_owned()
}

async fn seek_list_take_and_both_told(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let mut lobby = Stream::at(&app, "/v1/lobby/events", None, None).await;
    let sync = lobby.expect().await;
    assert_eq!(
        (sync.kind.as_str(), &sync.data),
        ("sync", &json!({ "seeks": [] }))
    );

    let s = seek(&app, json!({ "game": "gomoku", "side": "black" })).await;
    let token = s["token"].as_str().expect("token").to_owned();
    assert_eq!(
        (&s["game"], &s["side"]),
        (&json!("gomoku"), &json!("black"))
    );
    let mut mine = Stream::at(&app, &path(&s["events_url"], &app), None, Some(&token)).await;
    let first = mine.expect().await;
    assert_eq!((first.kind.as_str(), &first.data["id"]), ("seek", &s["id"]));

    let e = lobby.expect().await;
    assert_eq!((e.kind.as_str(), &e.data["id"]), ("seek", &s["id"]));
    let listed = app.get("/v1/lobby").await.json();
    assert_eq!(listed["seeks"][0]["id"], s["id"]);

    // The seeker cannot take their own seek.
    let take = path(&s["take_url"], &app);
    let own = app
        .request(
            Method::POST,
            &take,
            &[("authorization", &format!("Bearer {token}"))],
            None,
        )
        .await;
    own.problem(409, "own-seek");

    let res = app.request(Method::POST, &take, &[], None).await;
    assert_eq!(res.status, 201);
    let duel = res.json();
    assert_eq!(
        (&duel["seat"], &duel["mode"]),
        (&json!("white"), &json!("duel"))
    );
    let id = duel["id"].as_str().expect("id").to_owned();

    // The seeker is told, with the seat their token now holds.
    let matched = mine.expect().await;
    assert_eq!(matched.kind, "matched");
    assert_eq!(
        (&matched.data["id"], &matched.data["seat"]),
        (&json!(id), &json!("black"))
    );
    assert!(
        mine.next(Duration::from_secs(2)).await.is_none(),
        "the seeker stream ends"
    );
    let e = lobby.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data),
        ("seek-gone", &json!({ "id": s["id"], "state": "taken" }))
    );
    assert_eq!(app.get("/v1/lobby").await.json(), json!({ "seeks": [] }));

    // Both play with their tokens: black (the seeker) first.
    play(&app, &id, &token, json!(["h8"])).await;
    play(
        &app,
        &id,
        duel["token"].as_str().expect("token"),
        json!(["h9"]),
    )
    .await;
    // Taken already.
    app.request(Method::POST, &take, &[], None)
        .await
        .problem(409, "seek-closed");
}

async fn a_seek_goes_when_its_creator_leaves_or_withdraws(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let mut lobby = Stream::at(&app, "/v1/lobby/events", None, None).await;
    lobby.expect().await;
    let s = seek(&app, json!({ "game": "xiangqi" })).await;
    assert_eq!(s["side"], "random");
    let token = s["token"].as_str().expect("token");
    let mine = Stream::at(&app, &path(&s["events_url"], &app), None, Some(token)).await;
    assert_eq!(lobby.expect().await.kind, "seek");
    drop(mine);
    // Gone after the grace period (300 ms in tests).
    let e = lobby.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data),
        ("seek-gone", &json!({ "id": s["id"], "state": "left" }))
    );
    let take = path(&s["take_url"], &app);
    let p = app
        .request(Method::POST, &take, &[], None)
        .await
        .problem(409, "seek-closed");
    assert_eq!(p["state"], "left");

    let s = seek(&app, json!({ "game": "quoridor", "side": "2" })).await;
    assert_eq!(lobby.expect().await.kind, "seek");
    let withdraw = format!("{}/withdraw", path(&s["url"], &app));
    app.request(Method::POST, &withdraw, &[], None)
        .await
        .problem(401, "unauthorized");
    let auth = format!("Bearer {}", s["token"].as_str().expect("token"));
    let res = app
        .request(Method::POST, &withdraw, &[("authorization", &auth)], None)
        .await;
    assert_eq!(res.status, 204);
    let e = lobby.expect().await;
    assert_eq!(e.data["state"], "withdrawn");

    // What a seek cannot be.
    let bad = app
        .post_json("/v1/lobby/seeks", &json!({ "game": "2048" }))
        .await;
    assert_eq!(bad.problem(400, "invalid-field")["field"], "game");
    let bad = app
        .post_json(
            "/v1/lobby/seeks",
            &json!({ "game": "xiangqi", "side": "green" }),
        )
        .await;
    assert_eq!(bad.problem(400, "invalid-field")["field"], "seat");
    app.request(Method::POST, "/v1/lobby/seeks/nope/take", &[], None)
        .await
        .problem(404, "unknown-seek");
}

async fn a_declined_invitation_reaches_the_inviter(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, v) = create(&app, json!({ "game": "xiangqi" })).await;
    let invite = v["invites"][0]["invite"]
        .as_str()
        .expect("invite")
        .to_owned();
    let mut inviter = Stream::at(&app, &format!("/v1/matches/{id}/events"), None, Some(&red)).await;
    assert_eq!(inviter.expect().await.kind, "sync");

    let decline = format!("/v1/matches/{id}/invite/decline");
    // A reason follows the rules of names: nothing that hides or turns
    // text around.
    for (reason, rule) in [
        ("a\nb", "control character"),
        ("\u{202E}kcab", "direction control"),
        ("ok\u{200F}", "direction control"),
        ("\u{200B}\u{200B}", "invisible character"),
        ("\u{3164}", "invisible character"),
        ("\u{200D}\u{FE0F}", "no visible character"),
    ] {
        let bad = app
            .post_json(&decline, &json!({ "invite": invite, "reason": reason }))
            .await;
        let p = bad.problem(400, "invalid-field");
        assert_eq!(p["field"], "reason");
        assert!(
            p["detail"].as_str().is_some_and(|d| d.contains(rule)),
            "{p}"
        );
    }
    let res = app
        .post_json(&decline, &json!({ "invite": invite, "reason": "busy" }))
        .await;
    assert_eq!(res.status, 200);
    let e = inviter.expect().await;
    assert_eq!((e.kind.as_str(), e.id), ("invite-declined", 2));
    assert_eq!(
        (&e.data["seat"], &e.data["note"]),
        (&json!("black"), &json!("busy"))
    );
    // A declined invite no longer joins.
    app.post_json(
        &format!("/v1/matches/{id}/join"),
        &json!({ "invite": invite }),
    )
    .await
    .problem(403, "invalid-invite");

    // New invites; the inviter withdraws them; nothing is left to withdraw.
    let again = post(&app, &format!("/v1/matches/{id}/invite"), &red, json!({})).await;
    let fresh = again["invites"][0]["invite"]
        .as_str()
        .expect("invite")
        .to_owned();
    assert!(again.get("token").is_none());
    assert_eq!(inviter.expect().await.kind, "invited");
    post(
        &app,
        &format!("/v1/matches/{id}/invite/withdraw"),
        &red,
        json!({}),
    )
    .await;
    assert_eq!(inviter.expect().await.kind, "invite-withdrawn");
    app.post_json(
        &format!("/v1/matches/{id}/join"),
        &json!({ "invite": fresh }),
    )
    .await
    .problem(403, "invalid-invite");
    let auth = format!("Bearer {red}");
    app.request(
        Method::POST,
        &format!("/v1/matches/{id}/invite/withdraw"),
        &[("authorization", &auth)],
        None,
    )
    .await
    .problem(409, "no-open-seat");
    // Reissued once more, the invite joins.
    let again = post(&app, &format!("/v1/matches/{id}/invite"), &red, json!({})).await;
    let last = again["invites"][0]["invite"].as_str().expect("invite");
    let joined = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": last }),
        )
        .await;
    assert_eq!(joined.status, 200);
    app.request(
        Method::POST,
        &format!("/v1/matches/{id}/invite"),
        &[("authorization", &auth)],
        None,
    )
    .await
    .problem(409, "no-open-seat");
}

async fn a_seek_names_its_seeker_and_times_its_duel(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let mut lobby = Stream::at(&app, "/v1/lobby/events", None, None).await;
    lobby.expect().await;
    let s = seek(
        &app,
        json!({ "game": "xiangqi", "side": "red", "name": " Lin ", "clock": { "base": 180, "increment": 2 } }),
    )
    .await;
    let clock = json!({ "type": "fischer", "base": 180.0, "increment": 2.0 });
    assert_eq!((&s["name"], &s["clock"]), (&json!("Lin"), &clock));
    let token = s["token"].as_str().expect("token").to_owned();
    let mut mine = Stream::at(&app, &path(&s["events_url"], &app), None, Some(&token)).await;
    let first = mine.expect().await;
    assert_eq!(
        (&first.data["name"], &first.data["clock"]),
        (&json!("Lin"), &clock)
    );
    let e = lobby.expect().await;
    assert_eq!((e.kind.as_str(), &e.data["name"]), ("seek", &json!("Lin")));
    assert_eq!(e.data["clock"], clock);
    let listed = app.get("/v1/lobby").await.json();
    assert_eq!(
        (&listed["seeks"][0]["name"], &listed["seeks"][0]["clock"]),
        (&json!("Lin"), &clock)
    );
    // A correspondence seek, and one without a name or a clock.
    let days = seek(&app, json!({ "game": "gomoku", "clock": { "days": 3 } })).await;
    assert_eq!(
        (&days["name"], &days["clock"]),
        (
            &Value::Null,
            &json!({ "type": "correspondence", "days": 3.0 })
        )
    );
    let plain = seek(&app, json!({ "game": "quoridor" })).await;
    assert_eq!(
        (&plain["name"], &plain["clock"]),
        (&Value::Null, &Value::Null)
    );

    // The taker's name is checked as a join's is; then the duel has both.
    let take = path(&s["take_url"], &app);
    let json_body = [("content-type", "application/json")];
    let bad = app
        .request(
            Method::POST,
            &take,
            &json_body,
            Some(json!({ "name": "   " }).to_string().into_bytes()),
        )
        .await;
    let p = bad.problem(400, "invalid-field");
    assert_eq!(p["field"], "name");
    let res = app
        .request(
            Method::POST,
            &take,
            &json_body,
            Some(json!({ "name": "Ada" }).to_string().into_bytes()),
        )
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let duel = res.json();
    assert_eq!(duel["seat"], "black");
    let names: Vec<&Value> = duel["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| &s["name"])
        .collect();
    assert_eq!(names, [&json!("Lin"), &json!("Ada")]);
    assert_eq!(duel["clock"]["control"], clock);
    assert_eq!(
        duel["clock"]["remaining"],
        json!({ "red": 180.0, "black": 180.0 })
    );
    assert_eq!(duel["clock"]["running"], Value::Null);
    let matched = mine.expect().await;
    assert_eq!(matched.kind, "matched");
    // The clock runs once both have moved, as in any timed duel.
    let id = duel["id"].as_str().expect("id").to_owned();
    play(&app, &id, &token, json!(["h2e2"])).await;
    let v = play(
        &app,
        &id,
        duel["token"].as_str().expect("token"),
        json!(["h9g7"]),
    )
    .await;
    assert_eq!(v["clock"]["running"], "red");

    // A seek's clock and name are refused as a match's are.
    for (body, field) in [
        (
            json!({ "game": "xiangqi", "clock": { "base": 0 } }),
            "clock.base",
        ),
        (
            json!({ "game": "xiangqi", "clock": { "days": 61 } }),
            "clock.days",
        ),
        (
            json!({ "game": "xiangqi", "clock": { "base": 60, "days": 1 } }),
            "clock",
        ),
        (json!({ "game": "xiangqi", "name": "a\u{202e}b" }), "name"),
    ] {
        let res = app.post_json("/v1/lobby/seeks", &body).await;
        let p = res.problem(400, "invalid-field");
        assert_eq!(p["field"], field, "{body}");
        let mut as_match = body.clone();
        as_match["mode"] = json!("duel");
        let m = app.post_json("/v1/matches", &as_match).await.json();
        assert_eq!(p["detail"], m["detail"], "{body}");
    }
}

on_both_backends!(
    a_seek_names_its_seeker_and_times_its_duel,
    seek_list_take_and_both_told,
    a_seek_goes_when_its_creator_leaves_or_withdraws,
    a_declined_invitation_reaches_the_inviter,
);

/// Two instances on one PostgreSQL database: a seek opened on one is listed
/// and taken on the other, the seeker (streaming from the first) is told;
/// the seeker coming online on the first shows on a stream of the second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_presence_span_instances() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let one = spawn_app_with(settings(&db.url)).await;
    let two = spawn_app_with(settings(&db.url)).await;
    let mut lobby = Stream::at(&two, "/v1/lobby/events", None, None).await;
    assert_eq!(lobby.expect().await.kind, "sync");
    let s = seek(&one, json!({ "game": "xiangqi", "side": "red" })).await;
    let token = s["token"].as_str().expect("token").to_owned();
    let mut mine = Stream::at(&one, &path(&s["events_url"], &one), None, Some(&token)).await;
    assert_eq!(mine.expect().await.kind, "seek");
    let e = lobby.expect().await;
    assert_eq!((e.kind.as_str(), &e.data["id"]), ("seek", &s["id"]));

    let take = path(&s["take_url"], &one);
    let res = two.request(Method::POST, &take, &[], None).await;
    assert_eq!(res.status, 201);
    let id = res.json()["id"].as_str().expect("id").to_owned();
    let matched = mine.expect().await;
    assert_eq!(
        (&matched.data["id"], &matched.data["seat"]),
        (&json!(id), &json!("red"))
    );

    let mut watch = Stream::open(&two, &id, None).await;
    watch.skip_presence = false;
    assert_eq!(watch.expect().await.kind, "sync");
    let _red = Stream::at(
        &one,
        &format!("/v1/matches/{id}/events"),
        None,
        Some(&token),
    )
    .await;
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data),
        ("presence", &json!({ "seat": "red", "online": true }))
    );
}
