//! Match WebSockets and seat presence, on SQLite and PostgreSQL: a duel
//! played entirely over two sockets while a spectator's SSE stream sees
//! every move; commands refused with the HTTP endpoint's problem; malformed
//! frames closing the socket with a reason; seats coming online and going
//! offline (with the grace period a reload needs); draw offers and claims
//! over a socket, answered as their HTTP endpoints answer.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::Method;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use qipan::configuration::Settings;

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, TestDb};
use crate::helpers::{spawn_app_with, TestApp};
use crate::live::{create, play, Stream};
use crate::spec::assert_ws_conforms;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A client's socket: replies are read in order, events queued aside.
struct Socket {
    ws: Ws,
    events: VecDeque<Value>,
}

const WAIT: Duration = Duration::from_secs(10);

impl Socket {
    async fn open(app: &TestApp, id: &str) -> Socket {
        Socket::at(app, &format!("/v1/matches/{id}/ws")).await
    }

    async fn at(app: &TestApp, path: &str) -> Socket {
        let url = format!("{}{path}", app.base.replace("http://", "ws://"));
        let (ws, res) = tokio_tungstenite::connect_async(url)
            .await
            .expect("the socket opens");
        assert_eq!(res.status(), 101);
        Socket {
            ws,
            events: VecDeque::new(),
        }
    }

    async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::text(message.to_string()))
            .await
            .expect("sent");
    }

    /// The next text message, within `wait`.
    async fn message(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let next = tokio::time::timeout(wait, self.ws.next()).await.ok()??;
            match next.expect("the socket reads") {
                Message::Text(t) => return Some(serde_json::from_str(&t).expect("JSON")),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    /// The answer to the last command (events on the way are queued).
    async fn reply(&mut self) -> Value {
        loop {
            let m = self.message(WAIT).await.expect("a reply within 10 s");
            if m["type"] == "event" {
                self.events.push_back(m);
            } else {
                return m;
            }
        }
    }

    /// Sends a command and returns its answer.
    async fn command(&mut self, message: Value) -> Value {
        self.send(message).await;
        self.reply().await
    }

    /// Sends a command, checking it and its answer against openapi.yaml
    /// (`WsCommand`, then `WsAck` or `WsProblem`); the answer.
    async fn checked(&mut self, message: Value) -> Value {
        assert_ws_conforms("WsCommand", &message);
        let answer = self.command(message).await;
        match answer["type"].as_str() {
            Some("ack") => assert_ws_conforms("WsAck", &answer),
            _ => assert_ws_conforms("WsProblem", &answer),
        }
        answer
    }

    /// The next event other than `presence`.
    async fn event(&mut self) -> Value {
        loop {
            let m = match self.events.pop_front() {
                Some(m) => m,
                None => self.message(WAIT).await.expect("an event within 10 s"),
            };
            assert_eq!(m["type"], "event", "{m}");
            if m["event"] != "presence" {
                return m;
            }
        }
    }

    /// How the service closes the socket: the close frame, with nothing
    /// before it.
    async fn closed(&mut self) -> (CloseCode, String) {
        let next = tokio::time::timeout(WAIT, self.ws.next())
            .await
            .expect("closed within 10 s");
        match next {
            Some(Ok(Message::Close(Some(frame)))) => (frame.code, frame.reason.to_string()),
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

/// A xiangqi duel with both seats taken: id, red's and black's tokens.
async fn duel(app: &TestApp) -> (String, String, String) {
    let (id, red, v) = create(app, json!({ "game": "xiangqi" })).await;
    let invite = v["invites"][0]["invite"].as_str().expect("invite");
    let joined = app
        .post_json(
            &format!("/v1/matches/{id}/join"),
            &json!({ "invite": invite }),
        )
        .await
        .json();
    let black = joined["token"].as_str().expect("token").to_owned();
    (id, red, black)
}

async fn a_duel_played_over_websockets(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red_token, black_token) = duel(&app).await;
    let mut spectator = Stream::open(&app, &id, None).await;
    assert_eq!(spectator.expect().await.kind, "sync");
    let mut red = Socket::open(&app, &id).await;
    let mut black = Socket::open(&app, &id).await;
    for s in [&mut red, &mut black] {
        let sync = s.event().await;
        assert_eq!((&sync["event"], &sync["id"]), (&json!("sync"), &json!(2)));
        assert_eq!(sync["data"]["id"], json!(id));
    }
    let ack = red
        .command(json!({ "type": "auth", "token": red_token, "ref": 1 }))
        .await;
    assert_eq!(
        ack,
        json!({ "type": "ack", "command": "auth", "ref": 1, "seat": "red" })
    );
    let ack = black
        .command(json!({ "type": "auth", "token": black_token, "ref": "b" }))
        .await;
    assert_eq!(ack["seat"], "black");

    let ack = red
        .command(json!({ "type": "play", "actions": ["h2e2"], "version": 2, "ref": 2 }))
        .await;
    assert_eq!(
        ack,
        json!({ "type": "ack", "command": "play", "ref": 2, "status": 200, "version": 3 })
    );
    for s in [&mut red, &mut black] {
        let e = s.event().await;
        assert_eq!((&e["event"], &e["id"]), (&json!("move"), &json!(3)));
        assert_eq!(
            e["data"]["moves"],
            json!([{ "ply": 1, "side": "red", "action": "h2e2" }])
        );
    }
    let ack = black
        .command(json!({ "type": "play", "actions": ["h9g7"], "version": 3 }))
        .await;
    assert_eq!((&ack["type"], &ack["version"]), (&json!("ack"), &json!(4)));
    // A move over HTTP shows up on the sockets too.
    play(&app, &id, &red_token, json!(["b0c2"])).await;
    let ack = black.command(json!({ "type": "undo" })).await;
    assert_eq!((&ack["status"], &ack["version"]), (&json!(202), &json!(6)));
    let ack = red
        .command(json!({ "type": "decline", "version": 6 }))
        .await;
    assert_eq!(ack["version"], 7);
    let ack = black.command(json!({ "type": "undo" })).await;
    assert_eq!(ack["status"], 202);
    let ack = red.command(json!({ "type": "accept" })).await;
    assert_eq!((&ack["status"], &ack["version"]), (&json!(200), &json!(9)));
    let ack = black.command(json!({ "type": "resign" })).await;
    assert_eq!(ack["version"], 10);

    let expected = [
        (4, "move"),
        (5, "move"),
        (6, "takeback-offered"),
        (7, "takeback-declined"),
        (8, "takeback-offered"),
        (9, "undo"),
        (10, "resigned"),
    ];
    for s in [&mut red, &mut black] {
        // Each socket gets every event, its own seat's included.
        for (id, kind) in expected {
            let e = s.event().await;
            assert_eq!((&e["id"], &e["event"]), (&json!(id), &json!(kind)), "{e}");
        }
    }
    let mut seen = Vec::new();
    for _ in 0..8 {
        let e = spectator.expect().await;
        seen.push((e.id, e.kind));
    }
    let all: Vec<(i64, String)> = [(3, "move")]
        .into_iter()
        .chain(expected)
        .map(|(i, k)| (i, k.to_owned()))
        .collect();
    assert_eq!(seen, all);
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(view["status"]["reason"], "resigned");
}

/// The problem an HTTP request gets, for comparison.
async fn http_problem(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Value,
) -> Value {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut all: Vec<(&str, &str)> = vec![("content-type", "application/json")];
    if let Some(a) = &auth {
        all.push(("authorization", a));
    }
    all.extend_from_slice(headers);
    let res = app
        .request(
            Method::POST,
            path,
            &all,
            Some(body.to_string().into_bytes()),
        )
        .await;
    assert!(res.status >= 400);
    res.json()
}

async fn commands_are_refused_as_over_http(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red_token, black_token) = duel(&app).await;
    let (_, other_token, _) = create(&app, json!({ "game": "xiangqi" })).await;
    let mut s = Socket::open(&app, &id).await;
    s.event().await; // sync
    let play_path = format!("/v1/matches/{id}/play");

    // No token yet.
    let answer = s
        .command(json!({ "type": "play", "actions": ["h2e2"], "version": 2, "ref": "x" }))
        .await;
    assert_eq!(
        (&answer["type"], &answer["ref"]),
        (&json!("problem"), &json!("x"))
    );
    let http = http_problem(
        &app,
        &play_path,
        None,
        &[("if-match", "\"2\"")],
        json!({ "actions": ["h2e2"] }),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(http["status"], 401);

    // A token of another match.
    let answer = s
        .command(json!({ "type": "auth", "token": other_token }))
        .await;
    assert_eq!(answer["problem"]["type"], "/problems/unauthorized");

    // The wrong seat: black cannot play red's move.
    s.command(json!({ "type": "auth", "token": black_token }))
        .await;
    let answer = s
        .command(json!({ "type": "play", "actions": ["h2e2"], "version": 2 }))
        .await;
    let http = http_problem(
        &app,
        &play_path,
        Some(&black_token),
        &[("if-match", "\"2\"")],
        json!({ "actions": ["h2e2"] }),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(http["type"], "/problems/not-your-turn");

    // A stale version.
    s.command(json!({ "type": "auth", "token": red_token }))
        .await;
    let answer = s
        .command(json!({ "type": "play", "actions": ["h2e2"], "version": 1 }))
        .await;
    let http = http_problem(
        &app,
        &play_path,
        Some(&red_token),
        &[("if-match", "\"1\"")],
        json!({ "actions": ["h2e2"] }),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(http["type"], "/problems/stale-version");

    // An illegal move, and accepting an offer nobody made.
    let answer = s
        .command(json!({ "type": "play", "actions": ["a0a5"], "version": 2 }))
        .await;
    assert_eq!(answer["problem"]["type"], "/problems/illegal-action");
    let answer = s.command(json!({ "type": "accept" })).await;
    assert_eq!(answer["problem"]["type"], "/problems/no-undo-offer");
    // Nothing was played.
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(view["version"], 2);
}

async fn malformed_frames_close_the_socket(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, _, _) = duel(&app).await;
    for (frame, code) in [
        (Message::text("not json"), CloseCode::Invalid),
        (Message::text(r#"{"type": "castle"}"#), CloseCode::Invalid),
        (
            Message::text(r#"{"type": "play", "version": 2}"#),
            CloseCode::Invalid,
        ),
        (
            Message::text(r#"{"type": "resign", "extra": 1}"#),
            CloseCode::Invalid,
        ),
        (Message::binary(vec![1, 2, 3]), CloseCode::Unsupported),
        (Message::text(" ".repeat(70_000)), CloseCode::Size),
    ] {
        let mut s = Socket::open(&app, &id).await;
        s.event().await; // sync
        s.ws.send(frame).await.expect("sent");
        let (got, reason) = s.closed().await;
        assert_eq!(got, code, "{reason}");
        assert!(!reason.is_empty());
    }
    // The match is untouched, and an upgrade that is not one is a problem.
    let res = app.get(&format!("/v1/matches/{id}/ws")).await;
    res.problem(426, "not-a-websocket");
    assert_eq!(res.header("upgrade"), Some("websocket"));
    app.get("/v1/matches/0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b/ws")
        .await
        .problem(404, "unknown-match");
}

async fn presence_online_and_offline(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red_token, black_token) = duel(&app).await;
    // Black watches, authenticated (an SSE stream holds its seat too).
    let mut black = Stream::at(
        &app,
        &format!("/v1/matches/{id}/events"),
        None,
        Some(&black_token),
    )
    .await;
    black.skip_presence = false;
    let sync = black.expect().await;
    assert_eq!(sync.kind, "sync");
    assert_eq!(online(&sync.data, "black"), json!(true));
    assert_eq!(online(&sync.data, "red"), json!(false));

    let mut red = Socket::open(&app, &id).await;
    red.event().await;
    red.command(json!({ "type": "auth", "token": red_token }))
        .await;
    let e = loop {
        let e = black.expect().await;
        assert_eq!(e.kind, "presence");
        if e.data["seat"] == "red" {
            break e;
        }
        // Black's own arrival, when its signal came after the sync.
        assert_eq!(e.data, json!({ "seat": "black", "online": true }));
    };
    assert_eq!(e.data, json!({ "seat": "red", "online": true }));
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(online(&view, "red"), json!(true));
    assert_eq!(online(&view, "black"), json!(true));

    // A reload (close and reopen within the grace period) does not flap.
    drop(red);
    let mut red = Socket::open(&app, &id).await;
    red.event().await;
    red.command(json!({ "type": "auth", "token": red_token }))
        .await;
    assert!(
        black.next(Duration::from_millis(800)).await.is_none(),
        "no presence flap"
    );

    // Leaving for good: offline after the grace period (300 ms in tests).
    drop(red);
    let e = black.expect().await;
    assert_eq!(
        (e.kind.as_str(), &e.data),
        ("presence", &json!({ "seat": "red", "online": false }))
    );
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(online(&view, "red"), json!(false));
    assert_eq!(online(&view, "black"), json!(true));
}

/// Whether a match view shows `seat` online.
fn online(view: &Value, seat: &str) -> Value {
    view["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .find(|s| s["seat"] == seat)
        .map(|s| s["online"].clone())
        .expect("the seat is shown")
}

async fn a_socket_resumes_after_the_last_event_it_saw(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, black) = duel(&app).await;
    for (token, action) in [(&red, "h2e2"), (&black, "h9g7"), (&red, "b0c2")] {
        play(&app, &id, token, json!([action])).await;
    }
    // Saw version 3 (red's first move): gets the two moves after it.
    let mut s = Socket::at(&app, &format!("/v1/matches/{id}/ws?last_event_id=3")).await;
    for (version, action) in [(4, "h9g7"), (5, "b0c2")] {
        let e = s.event().await;
        assert_eq!((&e["event"], &e["id"]), (&json!("move"), &json!(version)));
        assert_eq!(e["data"]["moves"][0]["action"], action);
    }
    let res = app
        .get(&format!("/v1/matches/{id}/ws?last_event_id=soon"))
        .await;
    assert_eq!(res.problem(400, "invalid-field")["field"], "last_event_id");
}

on_both_backends!(
    a_socket_resumes_after_the_last_event_it_saw,
    a_duel_played_over_websockets,
    commands_are_refused_as_over_http,
    malformed_frames_close_the_socket,
    presence_online_and_offline,
    draws_are_offered_and_answered_over_a_socket,
    a_claim_over_a_socket_is_the_claim_over_http,
    an_oversized_frame_is_refused_at_its_header,
    a_closed_event_stream_lets_its_seat_go,
    a_play_without_a_version_is_played,
    a_dead_instances_seats_go_offline_soon,
);

async fn draws_are_offered_and_answered_over_a_socket(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red_token, black_token) = duel(&app).await;
    let mut red = Socket::open(&app, &id).await;
    let mut black = Socket::open(&app, &id).await;
    for (s, token) in [(&mut red, &red_token), (&mut black, &black_token)] {
        s.event().await; // sync
        let ack = s.checked(json!({ "type": "auth", "token": token })).await;
        assert_eq!(ack["type"], "ack");
    }
    // Nothing to answer yet: the problem of `POST /draw/accept`.
    let answer = black
        .checked(json!({ "type": "draw-accept", "ref": 7 }))
        .await;
    let http = http_problem(
        &app,
        &format!("/v1/matches/{id}/draw/accept"),
        Some(&black_token),
        &[],
        json!({}),
    )
    .await;
    assert_eq!(
        (&answer["command"], &answer["ref"]),
        (&json!("draw-accept"), &json!(7))
    );
    assert_eq!(answer["problem"], http);
    assert_eq!(http["type"], "/problems/no-draw-offer");

    // Red offers: 202, as over HTTP; red cannot accept its own offer.
    let ack = red
        .checked(json!({ "type": "draw", "version": 2, "ref": "r" }))
        .await;
    assert_eq!(
        ack,
        json!({ "type": "ack", "command": "draw", "ref": "r", "status": 202, "version": 3 })
    );
    let answer = red.checked(json!({ "type": "draw-accept" })).await;
    let http = http_problem(
        &app,
        &format!("/v1/matches/{id}/draw/accept"),
        Some(&red_token),
        &[],
        json!({}),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(http["type"], "/problems/own-draw-offer");
    // A stale version is refused as `If-Match` is.
    let answer = black
        .checked(json!({ "type": "draw-decline", "version": 2 }))
        .await;
    assert_eq!(answer["problem"]["type"], "/problems/stale-version");

    // Black declines; black offers; red agrees by accepting.
    let ack = black
        .checked(json!({ "type": "draw-decline", "version": 3 }))
        .await;
    assert_eq!((&ack["status"], &ack["version"]), (&json!(200), &json!(4)));
    let ack = black.checked(json!({ "type": "draw" })).await;
    assert_eq!((&ack["status"], &ack["version"]), (&json!(202), &json!(5)));
    let ack = red.checked(json!({ "type": "draw-accept" })).await;
    assert_eq!((&ack["status"], &ack["version"]), (&json!(200), &json!(6)));
    for s in [&mut red, &mut black] {
        for (version, kind, seat) in [
            (3, "draw-offered", "red"),
            (4, "draw-declined", "black"),
            (5, "draw-offered", "black"),
            (6, "draw-agreed", "red"),
        ] {
            let e = s.event().await;
            assert_eq!(
                (&e["id"], &e["event"], &e["data"]["seat"]),
                (&json!(version), &json!(kind), &json!(seat)),
                "{e}"
            );
            crate::spec::assert_event_conforms(kind, &e["data"]);
        }
    }
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(
        view["status"],
        json!({ "state": "drawn", "winner": null, "reason": "agreement" })
    );
    // Over: a new offer is refused as over HTTP.
    let answer = black.checked(json!({ "type": "draw" })).await;
    let http = http_problem(
        &app,
        &format!("/v1/matches/{id}/draw"),
        Some(&black_token),
        &[],
        json!({}),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(http["type"], "/problems/game-over");
}

async fn a_claim_over_a_socket_is_the_claim_over_http(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    let app = spawn_app_with(Settings {
        abandon_after: Duration::from_millis(400),
        ..settings(&db.url)
    })
    .await;
    let (id, red_token, _black_token) = duel(&app).await;
    let mut red = Socket::open(&app, &id).await;
    red.event().await; // sync
    red.checked(json!({ "type": "auth", "token": red_token }))
        .await;
    // Red to move: red plays, it does not claim.
    let answer = red
        .checked(json!({ "type": "claim", "result": "win" }))
        .await;
    let http = http_problem(
        &app,
        &format!("/v1/matches/{id}/claim"),
        Some(&red_token),
        &[],
        json!({ "result": "win" }),
    )
    .await;
    assert_eq!(answer["problem"], http);
    assert_eq!(
        (http["type"].as_str(), http["reason"].as_str()),
        (Some("/problems/claim-refused"), Some("own-turn"))
    );
    let ack = red
        .checked(json!({ "type": "play", "actions": ["h2e2"], "version": 2 }))
        .await;
    assert_eq!(ack["version"], 3);
    // Black, who never opened a stream, is to move: too soon, then won.
    let answer = red
        .checked(json!({ "type": "claim", "result": "win", "version": 3 }))
        .await;
    assert_eq!(
        (&answer["problem"]["reason"], &answer["problem"]["seat"]),
        (&json!("too-soon"), &json!("black"))
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let ack = red
        .checked(json!({ "type": "claim", "result": "win", "version": 3, "ref": 1 }))
        .await;
    assert_eq!(
        ack,
        json!({ "type": "ack", "command": "claim", "ref": 1, "status": 200, "version": 4 })
    );
    let e = red.event().await;
    assert_eq!((&e["event"], &e["id"]), (&json!("move"), &json!(3)));
    let e = red.event().await;
    assert_eq!((&e["event"], &e["id"]), (&json!("claimed"), &json!(4)));
    crate::spec::assert_event_conforms("claimed", &e["data"]);
    assert_eq!(
        e["data"]["status"],
        json!({ "state": "won", "winner": "red", "reason": "abandoned" })
    );
    // A claim of something else is no message of the protocol.
    let mut s = Socket::open(&app, &id).await;
    s.event().await; // sync
    s.send(json!({ "type": "claim", "result": "lose" })).await;
    let (code, reason) = s.closed().await;
    assert_eq!(code, CloseCode::Invalid);
    assert!(reason.contains("lose"), "{reason}");
}

/// A WebSocket spoken byte by byte, for frames no client library sends.
struct RawSocket {
    read: tokio::net::tcp::OwnedReadHalf,
    write: Option<tokio::net::tcp::OwnedWriteHalf>,
    /// Bytes read past the last whole frame.
    buf: Vec<u8>,
}

impl RawSocket {
    async fn open(app: &TestApp, id: &str) -> RawSocket {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let addr = app.base.trim_start_matches("http://");
        let mut tcp = tokio::net::TcpStream::connect(addr)
            .await
            .expect("connects");
        let head = format!(
            "GET /v1/matches/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        );
        tcp.write_all(head.as_bytes()).await.expect("sent");
        let mut buf = Vec::new();
        let end = loop {
            let mut chunk = [0; 4096];
            let n = tcp.read(&mut chunk).await.expect("reads");
            assert!(n > 0, "closed during the handshake");
            buf.extend_from_slice(&chunk[..n]);
            if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        assert!(
            buf.starts_with(b"HTTP/1.1 101"),
            "{:?}",
            String::from_utf8_lossy(&buf)
        );
        let (read, write) = tcp.into_split();
        RawSocket {
            read,
            write: Some(write),
            buf: buf.split_off(end),
        }
    }

    /// The next frame from the service: opcode and payload; `None` at the
    /// connection's end.
    async fn frame(&mut self) -> Option<(u8, Vec<u8>)> {
        use tokio::io::AsyncReadExt;
        loop {
            if self.buf.len() >= 2 {
                let b = &self.buf;
                let (len, at) = match b[1] & 0x7f {
                    126 if b.len() >= 4 => (usize::from(u16::from_be_bytes([b[2], b[3]])), 4),
                    127 if b.len() >= 10 => {
                        let eight: [u8; 8] = b[2..10].try_into().expect("eight bytes");
                        (
                            usize::try_from(u64::from_be_bytes(eight)).expect("fits"),
                            10,
                        )
                    }
                    n @ 0..=125 => (usize::from(n), 2),
                    _ => (0, 0),
                };
                if at > 0 && b.len() >= at + len {
                    let opcode = b[0] & 0x0f;
                    let payload = b[at..at + len].to_vec();
                    self.buf.drain(..at + len);
                    return Some((opcode, payload));
                }
            }
            let mut chunk = [0; 4096];
            match self.read.read(&mut chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// The close code the service sends, skipping frames before it; `None`
    /// when the connection ends without one.
    async fn close_code(&mut self) -> Option<u16> {
        loop {
            let (opcode, payload) = self.frame().await?;
            if opcode == 8 {
                return Some(u16::from_be_bytes([payload[0], payload[1]]));
            }
        }
    }
}

/// A masked client frame header.
fn frame_header(fin: bool, opcode: u8, len: u64) -> Vec<u8> {
    let mut h = vec![if fin { 0x80 | opcode } else { opcode }];
    match len {
        0..=125 => h.push(0x80 | len as u8),
        126..=65535 => {
            h.push(0x80 | 126);
            h.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            h.push(0x80 | 127);
            h.extend_from_slice(&len.to_be_bytes());
        }
    }
    // A zero mask: the payload goes as written.
    h.extend_from_slice(&[0, 0, 0, 0]);
    h
}

/// Frames that declare more than 64 KiB, or fragments that add up to more,
/// are refused with 1009 as soon as their header arrives: the service
/// does not wait for (and buffer) the rest. A client that sends the header
/// of a 64 MiB frame and 4 MiB of it, then waits, sees the close.
async fn an_oversized_frame_is_refused_at_its_header(backend: Backend) {
    use tokio::io::AsyncWriteExt;
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, _, _) = duel(&app).await;
    let mut fragments = frame_header(false, 1, 40_000);
    fragments.resize(fragments.len() + 40_000, b' ');
    fragments.extend(frame_header(true, 0, 40_000));
    for (what, mut bytes) in [
        ("a 64 MiB text frame", frame_header(true, 1, 64 << 20)),
        ("a 64 MiB binary frame", frame_header(true, 2, 64 << 20)),
        ("fragments adding up to 80,000 bytes", fragments),
    ] {
        let mut s = RawSocket::open(&app, &id).await;
        let (opcode, _) = s.frame().await.expect("the sync event");
        assert_eq!(opcode, 1, "{what}");
        bytes.resize(bytes.len() + (4 << 20), b' ');
        // The payload goes on being sent (and never finishes) while the
        // close is awaited.
        let mut write = s.write.take().expect("the writing half");
        let writer = tokio::spawn(async move {
            let _ = write.write_all(&bytes).await;
            write
        });
        let code = tokio::time::timeout(WAIT, s.close_code())
            .await
            .unwrap_or_else(|_| panic!("{what}: no close within 10 s"));
        assert_eq!(code, Some(1009), "{what}");
        writer.abort();
    }
    // A frame of exactly the limit is still read (and refused as JSON).
    let mut s = RawSocket::open(&app, &id).await;
    s.frame().await.expect("the sync event");
    let mut bytes = frame_header(true, 1, 65_536);
    bytes.resize(bytes.len() + 65_536, b' ');
    let mut write = s.write.take().expect("the writing half");
    write.write_all(&bytes).await.expect("sent");
    let code = tokio::time::timeout(WAIT, s.close_code())
        .await
        .expect("closed");
    assert_eq!(code, Some(1007));
}

/// An event stream opened by hand and closed with a FIN (the client's
/// writing half shut, its reading half left open, as a closed browser tab's
/// connection looks until the next write): the service notices at once, so
/// the seat goes offline after the presence grace, not after writes to
/// the stream begin to fail (which they never do here).
async fn a_closed_event_stream_lets_its_seat_go(backend: Backend) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, _) = duel(&app).await;
    let addr = app.base.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let head = format!(
        "GET /v1/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\n\
         Authorization: Bearer {red}\r\nAccept: text/event-stream\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.expect("sent");
    let mut seen = Vec::new();
    while !seen.windows(11).any(|w| w == b"event: sync") {
        let mut chunk = [0; 4096];
        let n = tcp.read(&mut chunk).await.expect("reads");
        assert!(n > 0, "the stream ended");
        seen.extend_from_slice(&chunk[..n]);
    }
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(online(&view, "red"), json!(true));
    tcp.shutdown().await.expect("FIN sent");
    // The grace is 300 ms in tests; keep-alives go every 500 ms.
    let started = std::time::Instant::now();
    loop {
        let view = app.get(&format!("/v1/matches/{id}")).await.json();
        if online(&view, "red") == json!(false) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the seat is still online {:?} after the FIN",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And the service closed its side.
    let mut rest = Vec::new();
    let end = tokio::time::timeout(WAIT, tcp.read_to_end(&mut rest)).await;
    assert!(end.is_ok(), "the connection is closed");
}

/// `version` is to a socket's `play` what `If-Match` is to `POST /play`:
/// optional. Without it the actions are played on the match as it stands;
/// the socket stays open.
async fn a_play_without_a_version_is_played(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, red, _) = duel(&app).await;
    let mut s = Socket::open(&app, &id).await;
    s.event().await;
    let auth = s.command(json!({ "type": "auth", "token": red })).await;
    assert_eq!(auth["type"], "ack", "{auth}");
    let ack = s
        .checked(json!({ "type": "play", "actions": ["h2e2"] }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["status"], 200, "{ack}");
    // Still open: a stale version is a problem, not a close.
    let stale = s
        .checked(json!({ "type": "play", "actions": ["h9g7"], "version": 1 }))
        .await;
    assert_eq!(stale["type"], "problem", "{stale}");
}

/// An instance killed outright leaves its presence rows behind. They stop
/// counting once 15 s old (three missed refreshes), not after a minute.
async fn a_dead_instances_seats_go_offline_soon(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (id, _, _) = duel(&app).await;
    let pool = app.database().expect("a database").pool();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as i64;
    // Red held by a dead instance 10 s ago: still within its time.
    // Black's last refresh was 16 s ago: gone.
    for (seat, age) in [("red", 10_000), ("black", 16_000)] {
        sqlx::query(
            "INSERT INTO seat_presence (match_id, seat, instance, seen_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&id)
        .bind(seat)
        .bind("a-dead-instance")
        .bind(now - age)
        .execute(pool)
        .await
        .expect("inserted");
    }
    let view = app.get(&format!("/v1/matches/{id}")).await.json();
    assert_eq!(online(&view, "red"), json!(true));
    assert_eq!(online(&view, "black"), json!(false));
}
