//! Live match events over Server-Sent Events, on SQLite and PostgreSQL: a
//! spectator sees every change in order; a client that reconnects with
//! `Last-Event-ID` gets exactly what it missed, or a `sync` when it fell
//! further behind than the kept events; a stream on one instance sees a
//! move made on another.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{actions, spawn_app_with, TestApp};

/// One event as received.
#[derive(Debug)]
pub struct Event {
    /// Its `id:` (the match version); 0 for events without one.
    pub id: i64,
    pub kind: String,
    pub data: Value,
}

/// An open event stream.
pub struct Stream {
    res: reqwest::Response,
    buffer: String,
    /// Whether `presence` events are passed over.
    pub skip_presence: bool,
    /// Whether it is a match's stream, whose events are checked against
    /// `MatchStreamEvent` of openapi.yaml.
    match_stream: bool,
}

impl Stream {
    pub async fn open(app: &TestApp, id: &str, last: Option<i64>) -> Stream {
        Stream::at(app, &format!("/v1/matches/{id}/events"), last, None).await
    }

    /// A stream at `path`, resuming after `last`, authenticated with
    /// `token`.
    pub async fn at(app: &TestApp, path: &str, last: Option<i64>, token: Option<&str>) -> Stream {
        let mut req = reqwest::Client::new().get(format!("{}{path}", app.base));
        if let Some(last) = last {
            req = req.header("last-event-id", last.to_string());
        }
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let res = req.send().await.expect("the stream opens");
        assert_eq!(res.status(), 200);
        assert_eq!(
            res.headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("text/event-stream")
        );
        Stream {
            res,
            buffer: String::new(),
            skip_presence: true,
            match_stream: path.starts_with("/v1/matches/"),
        }
    }

    /// The next event (comments skipped), within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                let (mut id, mut kind, mut data) = (None, None, None);
                for line in frame.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        kind = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = Some(serde_json::from_str(v).expect("event data is JSON"));
                    }
                }
                if let (true, Some(kind), Some(data)) = (self.match_stream, &kind, &data) {
                    crate::spec::assert_event_conforms(kind, data);
                }
                match (kind, data) {
                    (Some(kind), _) if kind == "presence" && self.skip_presence => continue,
                    (Some(kind), Some(data)) => {
                        return Some(Event {
                            id: id.unwrap_or(0),
                            kind,
                            data,
                        })
                    }
                    _ => continue, // a keep-alive comment
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.res.chunk())
                .await
                .ok()?;
            let bytes = chunk.expect("the stream reads")?;
            self.buffer
                .push_str(std::str::from_utf8(&bytes).expect("UTF-8"));
        }
    }

    pub async fn expect(&mut self) -> Event {
        self.next(Duration::from_secs(10))
            .await
            .expect("an event within 10 s")
    }
}

pub async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> Value {
    let auth = format!("Bearer {token}");
    let res = app
        .request(
            Method::POST,
            path,
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
            ],
            Some(body.to_string().into_bytes()),
        )
        .await;
    assert!(
        res.status < 300,
        "{path}: {}",
        String::from_utf8_lossy(&res.body)
    );
    res.json()
}

/// Plays `actions` in match `id` with `token`; the match view.
pub async fn play(app: &TestApp, id: &str, token: &str, actions: Value) -> Value {
    post(
        app,
        &format!("/v1/matches/{id}/play"),
        token,
        json!({ "actions": actions }),
    )
    .await
}

/// A new match: its id, its creator's token and view.
pub async fn create(app: &TestApp, body: Value) -> (String, String, Value) {
    let res = app.post_json("/v1/matches", &body).await;
    assert_eq!(res.status, 201);
    let v = res.json();
    (
        v["id"].as_str().expect("id").to_owned(),
        v["token"].as_str().expect("token").to_owned(),
        v,
    )
}

async fn a_spectator_sees_every_change_in_order(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, v) = create(&app, json!({ "game": "xiangqi" })).await;
    let mut watch = Stream::open(&app, &id, None).await;
    // A stream without Last-Event-ID begins with the whole match.
    let sync = watch.expect().await;
    assert_eq!((sync.kind.as_str(), sync.id), ("sync", 1));
    assert_eq!(sync.data["id"], json!(id));
    assert_eq!(sync.data["state"]["code"], v["state"]["code"]);

    let invite = v["invites"][0]["invite"].as_str().expect("invite");
    let joined = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": invite }),
        )
        .await
        .json();
    let black = joined["token"].as_str().expect("token").to_owned();
    let e = watch.expect().await;
    assert_eq!(
        (e.kind.as_str(), e.id, &e.data["seat"]),
        ("joined", 2, &json!("black"))
    );

    let after = play(&app, &id, &red, json!(["h2e2"])).await;
    let e = watch.expect().await;
    assert_eq!((e.kind.as_str(), e.id), ("move", 3));
    assert_eq!(
        e.data["moves"],
        json!([{"ply": 1, "side": "red", "action": "h2e2"}])
    );
    assert_eq!(e.data["code"], after["state"]["code"]);
    assert_eq!(e.data["url"], after["state"]["url"]);
    assert_eq!(
        (&e.data["ply"], &e.data["to_move"]),
        (&json!(1), &json!("black"))
    );
    assert_eq!(e.data["status"]["state"], "ongoing");

    play(&app, &id, &black, json!(["h9g7"])).await;
    post(&app, &format!("/v1/matches/{id}/undo"), &black, json!({})).await;
    post(
        &app,
        &format!("/v1/matches/{id}/undo/decline"),
        &red,
        json!({}),
    )
    .await;
    post(&app, &format!("/v1/matches/{id}/resign"), &black, json!({})).await;
    let kinds: Vec<(i64, String)> = [
        watch.expect().await,
        watch.expect().await,
        watch.expect().await,
        watch.expect().await,
    ]
    .into_iter()
    .map(|e| {
        if e.kind == "takeback-offered" {
            assert_eq!(e.data["undo_offer"], json!({"seat": "black", "ply": 1}));
        }
        if e.kind == "resigned" {
            assert_eq!(
                e.data["status"],
                json!({"state": "won", "winner": "red", "reason": "resigned"})
            );
        }
        (e.id, e.kind)
    })
    .collect();
    assert_eq!(
        kinds,
        [
            (4, "move".to_owned()),
            (5, "takeback-offered".to_owned()),
            (6, "takeback-declined".to_owned()),
            (7, "resigned".to_owned())
        ]
    );
}

async fn reconnecting_gets_exactly_what_it_missed(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, token, _) = create(&app, json!({ "game": "gomoku", "mode": "solo" })).await;
    let points = [
        "h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "a1", "a2", "b1", "b2",
    ];
    for p in &points[..2] {
        play(&app, &id, &token, json!([p])).await;
    }
    let seen = 3; // version after two moves
    for p in &points[2..] {
        play(&app, &id, &token, json!([p])).await;
    }
    let mut watch = Stream::open(&app, &id, Some(seen)).await;
    let mut missed = Vec::new();
    for _ in 0..10 {
        missed.push(watch.expect().await);
    }
    let ids: Vec<i64> = missed.iter().map(|e| e.id).collect();
    assert_eq!(ids, (4..=13).collect::<Vec<_>>());
    let played: Vec<&str> = missed
        .iter()
        .map(|e| e.data["moves"][0]["action"].as_str().expect("action"))
        .collect();
    assert_eq!(played, points[2..]);
    // The fifth black stone in a row ends the game: that event is `over`.
    assert!(missed.iter().all(|e| e.kind == "move"));
    // Nothing more: the stream is up to date.
    assert!(watch.next(Duration::from_millis(300)).await.is_none());
    // Up to date already: nothing to replay.
    let mut current = Stream::open(&app, &id, Some(13)).await;
    assert!(current.next(Duration::from_millis(300)).await.is_none());
    play(&app, &id, &token, json!(["l8"])).await;
    let e = current.expect().await;
    assert_eq!((e.kind.as_str(), e.id), ("over", 14));
    assert_eq!(e.data["status"]["reason"], "five-in-a-row");
}

async fn falling_behind_the_kept_events_gets_a_sync(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, token, v) = create(&app, json!({ "game": "tetris", "seed": 7 })).await;
    let mut state = v["state"].clone();
    // 207 moves (the piece shifting left and right, which never ends the
    // game): version 208 drops the events at or below version 8, which
    // fell out of the last 200 (old events are dropped every 16 versions).
    for i in 0..207 {
        let shift = if i % 2 == 0 { "left" } else { "right" };
        assert!(actions(&state["legal_actions"]).iter().any(|a| a == shift));
        state = play(&app, &id, &token, json!([shift])).await["state"].clone();
    }
    let mut watch = Stream::open(&app, &id, Some(1)).await;
    let e = watch.expect().await;
    assert_eq!((e.kind.as_str(), e.id), ("sync", 208));
    assert_eq!(e.data["state"]["code"], state["code"]);
    // Version 9 is still kept: a client that saw version 8 gets the 200
    // events after it.
    let mut near = Stream::open(&app, &id, Some(8)).await;
    assert_eq!(near.expect().await.id, 9);
}

async fn refusals(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, _, _) = create(&app, json!({ "game": "quoridor" })).await;
    let res = app
        .request(
            Method::GET,
            &format!("/v1/matches/{id}/events"),
            &[("last-event-id", "yesterday")],
            None,
        )
        .await;
    let p = res.problem(400, "invalid-field");
    assert_eq!(p["field"], "Last-Event-ID");
    // Versions start at 1; a bad query parameter is refused even beside a
    // good header.
    for (header, query, field) in [
        (Some("0"), "", "Last-Event-ID"),
        (Some("-5"), "", "Last-Event-ID"),
        (None, "?last_event_id=0", "last_event_id"),
        (Some("1"), "?last_event_id=abc", "last_event_id"),
    ] {
        let headers: Vec<(&str, &str)> = header.map(|h| ("last-event-id", h)).into_iter().collect();
        let res = app
            .request(
                Method::GET,
                &format!("/v1/matches/{id}/events{query}"),
                &headers,
                None,
            )
            .await;
        assert_eq!(
            res.problem(400, "invalid-field")["field"],
            field,
            "{header:?} {query}"
        );
    }
    app.get("/v1/matches/0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b/events")
        .await
        .problem(404, "unknown-match");
    // HEAD answers the stream's headers and ends.
    let head = app
        .request(Method::HEAD, &format!("/v1/matches/{id}/events"), &[], None)
        .await;
    assert_eq!((head.status, head.body.len()), (200, 0));
}

on_both_backends!(
    a_spectator_sees_every_change_in_order,
    reconnecting_gets_exactly_what_it_missed,
    falling_behind_the_kept_events_gets_a_sync,
    refusals,
);

/// Two instances on one PostgreSQL database: a stream on one sees a move
/// made on the other (through `NOTIFY`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_on_one_instance_sees_a_move_on_another() {
    let Some(db) = TestDb::new(Backend::Postgres).await else {
        return;
    };
    let one = spawn_app_with(settings(&db.url)).await;
    let two = spawn_app_with(settings(&db.url)).await;
    let (id, token, _) = create(&one, json!({ "game": "gomoku", "mode": "solo" })).await;
    let mut watch = Stream::open(&one, &id, Some(1)).await;
    play(&two, &id, &token, json!(["h8"])).await;
    let e = watch.expect().await;
    assert_eq!((e.kind.as_str(), e.id), ("move", 2));
    assert_eq!(
        e.data["url"].as_str().map(|u| u.starts_with(&one.base)),
        Some(true)
    );
}
