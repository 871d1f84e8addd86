//! The computer in a duel's seat, on SQLite and PostgreSQL: it shows as a
//! seat with its level, answers a move (and moves first when it has the
//! first move), accepts a takeback at once, answers draw offers by its
//! evaluation, is refused where it has no seat to take, leaves forks solo,
//! and answers each turn exactly once with two instances on one database.
//! Searches are short (`ms` of a few tens) so the tests stay quick.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::duels::send;
use crate::helpers::{spawn_app_with, TestApp};
use crate::live::{Event, Stream};

/// Plays `moves` and asserts a 200; the match view.
async fn played(app: &TestApp, id: &str, token: &str, moves: &[&str]) -> Value {
    let res = send(app, id, "play", token, Some(json!({ "actions": moves }))).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

async fn view(app: &TestApp, id: &str) -> Value {
    let res = app.get(&format!("/v1/matches/{id}")).await;
    assert_eq!(res.status, 200);
    res.json()
}

/// A duel against the computer: (id, the creator's token, the view).
async fn computer_duel(app: &TestApp, body: Value) -> (String, String, Value) {
    let res = app.post_json("/v1/matches", &body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let v = res.json();
    (
        v["id"].as_str().expect("id").to_owned(),
        v["token"].as_str().expect("token").to_owned(),
        v,
    )
}

/// The next event of `stream` that is not a `presence`, within 20 s (a
/// search waits for a free search thread on a loaded machine).
async fn next(stream: &mut Stream) -> Event {
    stream
        .next(Duration::from_secs(20))
        .await
        .expect("an event within 20 s")
}

on_both_backends!(
    the_computer_replies_and_moves_first,
    a_takeback_is_accepted_at_once,
    draws_are_answered_by_the_evaluation,
    refusals_and_forks,
    the_computers_clock_runs,
    a_turn_left_by_a_stopped_instance_is_taken_over,
);

async fn the_computer_replies_and_moves_first(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // Gomoku: the creator has the side to move (black), the computer white.
    let (id, black, v) = computer_duel(
        &app,
        json!({ "game": "gomoku", "name": "Lin", "computer": { "ms": 30 } }),
    )
    .await;
    assert_eq!(v["seat"], "black");
    assert_eq!(v["invites"], json!([]), "no invite for the computer's seat");
    let seat = &v["seats"][1];
    assert_eq!(
        (
            &seat["seat"],
            &seat["name"],
            &seat["taken"],
            &seat["online"]
        ),
        (&json!("white"), &Value::Null, &json!(true), &json!(true))
    );
    assert_eq!(seat["computer"], json!({ "level": 10, "ms": 30 }));
    assert!(v["seats"][0].get("computer").is_none());
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    played(&app, &id, &black, &["h8"]).await;
    let e = next(&mut watch).await;
    assert_eq!((e.kind.as_str(), e.id), ("move", 2));
    let e = next(&mut watch).await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("move", 3, &json!("white"))
    );
    let v = view(&app, &id).await;
    assert_eq!(
        (v["ply"].as_i64(), &v["to_move"]),
        (Some(2), &json!("black"))
    );
    // Nobody plays for the computer.
    send(
        &app,
        &id,
        "play",
        &black,
        Some(json!({ "actions": ["a1", "a2"] })),
    )
    .await
    .problem(409, "not-your-turn");
    // The person's turn: the computer waits.
    assert!(watch.next(Duration::from_millis(500)).await.is_none());

    // Xiangqi, the creator black at level 1: the computer (red) opens.
    let (id, _, v) = computer_duel(
        &app,
        json!({ "game": "xiangqi", "seat": "black", "computer": { "level": 1, "ms": 20 } }),
    )
    .await;
    assert_eq!(v["seats"][0]["computer"], json!({ "level": 1, "ms": 20 }));
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    let e = next(&mut watch).await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("move", 2, &json!("red"))
    );
    let v = view(&app, &id).await;
    assert_eq!(
        (v["ply"].as_i64(), &v["to_move"]),
        (Some(1), &json!("black"))
    );
    // Its page names it in the reader's language, with its level.
    for (lang, name) in [("en", "Computer · level 1"), ("zh-CN", "电脑 · 1 级")] {
        let res = app
            .request(
                Method::GET,
                &format!("/m/{id}"),
                &[("accept-language", lang)],
                None,
            )
            .await;
        assert_eq!(res.status, 200);
        let page = String::from_utf8_lossy(&res.body);
        assert!(page.contains(name), "{lang}: {name} not in the page");
    }
    // Its game record names it as records name engines.
    let pgn = app.get(&format!("/v1/matches/{id}/record.pgn")).await;
    assert_eq!(pgn.status, 200);
    assert!(String::from_utf8_lossy(&pgn.body).contains("[Red \"qipan (level 1)\"]"));

    // Quoridor at level 2 (200 ms a move): a reply within the deadline.
    let (id, first, v) = computer_duel(
        &app,
        json!({ "game": "quoridor", "computer": { "level": 2 } }),
    )
    .await;
    let step = v["state"]["legal_actions"][0]["action"]
        .as_str()
        .expect("a legal action")
        .to_owned();
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    played(&app, &id, &first, &[step.as_str()]).await;
    next(&mut watch).await;
    let e = next(&mut watch).await;
    assert_eq!((e.kind.as_str(), e.id), ("move", 3));
    // The history names the computer's seat on its move.
    let h = app.get(&format!("/v1/matches/{id}/history")).await.json();
    assert_eq!(h["moves"][1]["seat"], "2");
}

async fn a_takeback_is_accepted_at_once(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, black, _) =
        computer_duel(&app, json!({ "game": "gomoku", "computer": { "ms": 20 } })).await;
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    played(&app, &id, &black, &["h8"]).await;
    next(&mut watch).await;
    assert_eq!(next(&mut watch).await.id, 3, "the computer's reply");
    let res = send(&app, &id, "undo", &black, None).await;
    assert_eq!(res.status, 202);
    let e = next(&mut watch).await;
    assert_eq!((e.kind.as_str(), e.id), ("takeback-offered", 4));
    let e = next(&mut watch).await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("undo", 5, &json!("white"))
    );
    let v = view(&app, &id).await;
    assert_eq!(
        (v["ply"].as_i64(), &v["to_move"], &v["undo_offer"]),
        (Some(0), &json!("black"), &Value::Null)
    );
    // Back to the person's move: nothing more from the computer.
    assert!(watch.next(Duration::from_millis(500)).await.is_none());
    // And it plays on.
    played(&app, &id, &black, &["g7"]).await;
    next(&mut watch).await;
    let e = next(&mut watch).await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("move", 7, &json!("white"))
    );
}

async fn draws_are_answered_by_the_evaluation(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // The computer (black) two chariots up: it declines.
    let ahead = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1";
    // Two chariots down: it accepts.
    let behind = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for (fen, accepted) in [(ahead, false), (behind, true)] {
        let (id, red, _) = computer_duel(
            &app,
            json!({
                "game": "xiangqi",
                "import": { "format": "fen", "text": fen },
                "computer": { "ms": 50 }
            }),
        )
        .await;
        let mut watch = Stream::open(&app, &id, Some(1)).await;
        let res = send(&app, &id, "draw", &red, None).await;
        assert_eq!(res.status, 202);
        assert_eq!(next(&mut watch).await.kind, "draw-offered");
        let e = next(&mut watch).await;
        assert_eq!(e.data["seat"], "black", "{fen}");
        let v = view(&app, &id).await;
        if accepted {
            assert_eq!(e.kind, "draw-agreed", "{fen}");
            assert_eq!(
                v["status"],
                json!({ "state": "drawn", "winner": null, "reason": "agreement" })
            );
        } else {
            assert_eq!(e.kind, "draw-declined", "{fen}");
            assert_eq!(
                (&v["status"]["state"], &v["draw_offer"]),
                (&json!("ongoing"), &Value::Null)
            );
            // It never claims, never resigns: the person's turn stays theirs.
            assert!(watch.next(Duration::from_millis(500)).await.is_none());
        }
    }
}

async fn refusals_and_forks(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    for (body, field) in [
        (
            json!({ "game": "2048", "computer": { "level": 3 } }),
            "computer",
        ),
        (
            json!({ "game": "tetris", "computer": { "ms": 100 } }),
            "computer",
        ),
        (
            json!({ "game": "gomoku", "mode": "solo", "computer": { "level": 3 } }),
            "computer",
        ),
        (json!({ "game": "gomoku", "computer": {} }), "computer"),
        (
            json!({ "game": "gomoku", "computer": { "level": 0 } }),
            "computer.level",
        ),
        (
            json!({ "game": "gomoku", "computer": { "level": 11 } }),
            "computer.level",
        ),
        (
            json!({ "game": "xiangqi", "computer": { "ms": 5001 } }),
            "computer.ms",
        ),
        (
            json!({ "game": "xiangqi", "computer": { "level": 5, "ms": 0 } }),
            "computer.ms",
        ),
    ] {
        let res = app.post_json("/v1/matches", &body).await;
        let p = res.problem(400, "invalid-field");
        assert_eq!(p["field"], field, "{body}");
    }
    let res = app
        .post_json(
            "/v1/matches",
            &json!({ "game": "gomoku", "computer": { "depth": 3 } }),
        )
        .await;
    res.problem(400, "malformed-body");

    // A fork of a computer duel is a solo sandbox: nobody answers in it.
    let (id, black, _) =
        computer_duel(&app, json!({ "game": "gomoku", "computer": { "ms": 20 } })).await;
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    played(&app, &id, &black, &["h8"]).await;
    next(&mut watch).await;
    next(&mut watch).await;
    let fork = send(&app, &id, "fork", &black, Some(json!({}))).await;
    assert_eq!(fork.status, 201, "{}", String::from_utf8_lossy(&fork.body));
    let f = fork.json();
    assert_eq!(f["mode"], "solo");
    assert_eq!(f["seats"].as_array().map(Vec::len), Some(1));
    assert!(f["seats"][0].get("computer").is_none());
    let (fid, ftoken) = (f["id"].as_str().unwrap(), f["token"].as_str().unwrap());
    let mut fwatch = Stream::open(&app, fid, Some(1)).await;
    played(&app, fid, ftoken, &["a1"]).await;
    assert_eq!(next(&mut fwatch).await.id, 2);
    assert!(fwatch.next(Duration::from_millis(1500)).await.is_none());
    // A claim against the computer: it is always online.
    played(&app, &id, &black, &["a1"]).await;
    send(&app, &id, "claim", &black, Some(json!({ "result": "win" })))
        .await
        .problem(409, "claim-refused");
}

async fn the_computers_clock_runs(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, black, _) = computer_duel(
        &app,
        json!({ "game": "gomoku", "clock": { "base": 60 }, "computer": { "ms": 300 } }),
    )
    .await;
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    played(&app, &id, &black, &["h8"]).await;
    next(&mut watch).await;
    next(&mut watch).await;
    // Both sides have moved once: from here the clocks run.
    played(&app, &id, &black, &["a1"]).await;
    next(&mut watch).await;
    let e = next(&mut watch).await;
    assert_eq!((e.kind.as_str(), e.id), ("move", 5));
    let v = view(&app, &id).await;
    let white = v["clock"]["remaining"]["white"]
        .as_f64()
        .expect("white's time");
    // Its search took about 300 ms off its minute (at most a tenth of it).
    assert!((54.0..=59.8).contains(&white), "{white}");
    assert_eq!(v["clock"]["running"], "black");
}

/// An instance that claimed the computer's turn and stopped (its lease,
/// written here as it would have, still holds): another instance, started
/// on the same database, takes the turn over once the lease expires.
async fn a_turn_left_by_a_stopped_instance_is_taken_over(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    let one = spawn_app_with(settings(&db.url)).await;
    let (id, black, _) =
        computer_duel(&one, json!({ "game": "gomoku", "computer": { "ms": 20 } })).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64;
    // The claim of version 2 (the reply to the move below), for 1.5 s.
    sqlx::query(
        "UPDATE computer_seats SET turn = 2, holder = 'stopped', lease_until = $1 \
         WHERE match_id = $2",
    )
    .bind(now + 1_500)
    .bind(&id)
    .execute(one.database().expect("a database").pool())
    .await
    .expect("leased");
    played(&one, &id, &black, &["h8"]).await;
    one.stop().await;
    let two = spawn_app_with(settings(&db.url)).await;
    let mut watch = Stream::open(&two, &id, Some(2)).await;
    let e = next(&mut watch).await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("move", 3, &json!("white"))
    );
    let waited = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64;
    assert!(waited >= now + 1_500, "not before the lease expired");
    let claims: i64 = sqlx::query_scalar("SELECT claims FROM computer_seats WHERE match_id = $1")
        .bind(&id)
        .fetch_one(two.database().expect("a database").pool())
        .await
        .expect("counted");
    assert_eq!(claims, 1);
}

/// Two instances on one PostgreSQL database, each looking for the
/// computer's turns: each turn is claimed once and answered once, and both
/// instances' streams see that one move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exactly_one_instance_answers_each_turn() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let one = spawn_app_with(settings(&db.url)).await;
    let two = spawn_app_with(settings(&db.url)).await;
    let mut duels = Vec::new();
    for i in 0..4 {
        let (a, b) = if i % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let (id, black, _) =
            computer_duel(a, json!({ "game": "gomoku", "computer": { "ms": 20 } })).await;
        let watch_one = Stream::open(&one, &id, Some(1)).await;
        let watch_two = Stream::open(&two, &id, Some(1)).await;
        played(b, &id, &black, &["h8"]).await;
        duels.push((id, black, watch_one, watch_two));
    }
    for (id, _, watch_one, watch_two) in &mut duels {
        for watch in [watch_one, watch_two] {
            assert_eq!(next(watch).await.id, 2, "{id}");
            let e = next(watch).await;
            assert_eq!(
                (e.kind.as_str(), e.id, &e.data["seat"]),
                ("move", 3, &json!("white"))
            );
            assert!(
                watch.next(Duration::from_millis(300)).await.is_none(),
                "{id}"
            );
        }
    }
    let pool = one.database().expect("a database").pool();
    for (id, ..) in &duels {
        let (claims, moves, version): (i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT claims FROM computer_seats WHERE match_id = $1), \
             (SELECT count(*) FROM match_events WHERE match_id = $1 AND kind = 'move'), \
             (SELECT version FROM matches WHERE id = $1)",
        )
        .bind(id)
        .fetch_one(pool)
        .await
        .expect("counted");
        assert_eq!((claims, moves, version), (1, 2, 3), "{id}");
    }
}
