//! Persisted matches, end to end, each test on SQLite and on PostgreSQL:
//! seats and invites, play with tokens and versions, the 100-move cap,
//! undo and takeback offers, resignation, forks, races, restarts, outages
//! and every refusal.

use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, settings, spawn_match_app, Backend, MatchApp, TestDb};
use crate::helpers::{actions, spawn_app, spawn_app_with, TestApp, TestResponse, START};

/// A created (or joined, or forked) match: its id and the caller's token.
struct Seat {
    id: String,
    token: String,
}

impl Seat {
    fn of(res: &TestResponse) -> Seat {
        let v = res.json();
        Seat {
            id: v["id"].as_str().expect("id").to_owned(),
            token: v["token"].as_str().expect("token").to_owned(),
        }
    }
}

async fn create(app: &TestApp, body: Value) -> TestResponse {
    app.post_json("/v1/matches", &body).await
}

/// Creates a match, asserting a 201.
async fn created(app: &TestApp, body: Value) -> (Seat, Value) {
    let res = create(app, body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    (Seat::of(&res), res.json())
}

/// A POST to a match sub-resource, with a token, `If-Match` and body.
async fn post(
    app: &TestApp,
    id: &str,
    what: &str,
    token: Option<&str>,
    if_match: Option<&str>,
    body: Option<Value>,
) -> TestResponse {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("content-type", "application/json")];
    if let Some(a) = auth.as_deref() {
        headers.push(("authorization", a));
    }
    if let Some(v) = if_match {
        headers.push(("if-match", v));
    }
    app.request(
        Method::POST,
        &format!("/v1/matches/{id}/{what}"),
        &headers,
        body.map(|b| b.to_string().into_bytes()),
    )
    .await
}

async fn play(app: &TestApp, seat: &Seat, moves: &[&str]) -> TestResponse {
    post(
        app,
        &seat.id,
        "play",
        Some(&seat.token),
        None,
        Some(json!({ "actions": moves })),
    )
    .await
}

/// Plays and asserts a 200; returns the match view.
async fn played(app: &TestApp, seat: &Seat, moves: &[&str]) -> Value {
    let res = play(app, seat, moves).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

async fn undo(app: &TestApp, seat: &Seat, what: &str) -> TestResponse {
    post(app, &seat.id, what, Some(&seat.token), None, None).await
}

async fn view(app: &TestApp, id: &str) -> Value {
    let res = app.get(&format!("/v1/matches/{id}")).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

async fn history(app: &TestApp, id: &str) -> Vec<Value> {
    let res = app.get(&format!("/v1/matches/{id}/history")).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()["moves"].as_array().expect("moves").clone()
}

/// Forks a match at `ply`.
async fn fork(app: &TestApp, id: &str, token: Option<&str>, ply: i64) -> TestResponse {
    post(app, id, "fork", token, None, Some(json!({ "ply": ply }))).await
}

async fn join(app: &TestApp, id: &str, invite: &str) -> TestResponse {
    post(
        app,
        id,
        "join",
        None,
        None,
        Some(json!({ "invite": invite })),
    )
    .await
}

/// A xiangqi duel with both seats taken: (red, black).
async fn duel(app: &TestApp) -> (Seat, Seat) {
    let (red, v) = created(app, json!({ "game": "xiangqi" })).await;
    let invite = v["invites"][0]["invite"].as_str().expect("invite");
    let res = join(app, &red.id, invite).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    (red, Seat::of(&res))
}

/// The code the stateless API reaches from `code` with `moves`.
async fn stateless(app: &TestApp, game: &str, code: &str, moves: &[&str]) -> String {
    let res = app
        .post_json(
            &format!("/v1/{game}/{code}/play"),
            &json!({ "actions": moves }),
        )
        .await;
    assert_eq!(res.status, 200);
    res.json()["code"].as_str().expect("code").to_owned()
}

on_both_backends!(
    a_duel_is_created_joined_and_played,
    refusals_name_what_is_wrong,
    the_history_keeps_the_last_100_moves_and_undo_goes_back_to_them,
    takebacks_are_offered_accepted_declined_and_withdrawn,
    forks_copy_the_kept_history_and_go_their_own_way,
    forks_share_the_parents_history_until_it_drops_it,
    a_fork_racing_with_moves_and_undos_keeps_a_consistent_history,
    racing_plays_on_one_version_land_exactly_once,
    unguarded_races_never_lose_or_duplicate_a_move,
    resigning_ends_the_match,
    a_restart_loses_nothing,
    seat_tokens_are_stored_only_as_hashes,
);

async fn a_duel_is_created_joined_and_played(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let res = create(&app, json!({ "game": "xiangqi" })).await;
    assert_eq!(res.status, 201);
    let v = res.json();
    let id = v["id"].as_str().expect("id").to_owned();
    assert!(uuid::Uuid::try_parse(&id).is_ok(), "{id}");
    assert_eq!(
        res.header("location"),
        Some(format!("{}/v1/matches/{id}", app.base).as_str())
    );
    assert_eq!(res.header("etag"), Some("\"1\""));
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert_eq!(v["mode"], "duel");
    assert_eq!(v["seat"], "red", "the creator takes the side to move");
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["version"], 1);
    assert_eq!(v["state"]["code"], START);
    assert_eq!(
        v["state"]["url"],
        format!("{}/v1/xiangqi/{START}", app.base),
        "the state carries its stateless share URL"
    );
    assert_eq!(
        v["seats"],
        json!([
            { "seat": "red", "name": null, "taken": true, "joined_at": v["created_at"], "online": false },
            { "seat": "black", "name": null, "taken": false, "joined_at": null, "online": false },
        ])
    );
    let red_token = v["token"].as_str().expect("token").to_owned();
    // 256 random bits, base64url.
    assert_eq!(red_token.len(), 43, "{red_token}");
    let invites = v["invites"].as_array().expect("invites");
    assert_eq!(invites.len(), 1);
    assert_eq!(invites[0]["seat"], "black");
    let invite = invites[0]["invite"].as_str().expect("invite").to_owned();
    assert_eq!(
        invites[0]["url"],
        format!("{}/v1/matches/{id}/join?invite={invite}", app.base)
    );
    let red = Seat {
        id: id.clone(),
        token: red_token,
    };

    // The public view never shows a secret.
    let res = app.get(&format!("/v1/matches/{id}")).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("etag"), Some("\"1\""));
    let text = String::from_utf8_lossy(&res.body).to_string();
    assert!(
        !text.contains(&red.token) && !text.contains(&invite),
        "{text}"
    );
    assert!(res.json().get("token").is_none());
    let res = app
        .request(
            Method::GET,
            &format!("/v1/matches/{id}"),
            &[("if-none-match", "\"1\"")],
            None,
        )
        .await;
    assert_eq!(res.status, 304);

    // Red may move before black has joined; not twice in a row.
    let v = played(&app, &red, &["h2e2"]).await;
    assert_eq!(v["ply"], 1);
    assert_eq!(v["version"], 2);
    assert_eq!(v["to_move"], "black");
    let p = play(&app, &red, &["h9g7"])
        .await
        .problem(409, "not-your-turn");
    assert_eq!(p["to_move"], "black");

    // Black joins with the invite (in the query this time); only once.
    let res = post(
        &app,
        &id,
        &format!("join?invite={invite}"),
        None,
        None,
        None,
    )
    .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let black = Seat::of(&res);
    let v = res.json();
    assert_eq!(v["seat"], "black");
    assert_eq!(v["version"], 3);
    assert_eq!(v["seats"][1]["taken"], true);
    assert_ne!(black.token, red.token);
    join(&app, &id, &invite).await.problem(409, "seat-taken");
    join(&app, &id, "not-an-invite")
        .await
        .problem(403, "invalid-invite");
    post(&app, &id, "join", None, None, None)
        .await
        .problem(400, "invalid-field");

    // An empty batch is refused for what it is, whatever If-Match says
    // (finding 8 of the hardening issue: it was 412).
    post(
        &app,
        &id,
        "play",
        Some(&black.token),
        Some("\"2\""),
        Some(json!({ "actions": [] })),
    )
    .await
    .problem(400, "invalid-field");
    // A stale If-Match is refused; the current one lands.
    let p = post(
        &app,
        &id,
        "play",
        Some(&black.token),
        Some("\"2\""),
        Some(json!({ "actions": ["h9g7"] })),
    )
    .await
    .problem(412, "stale-version");
    assert_eq!(p["version"], 3);
    let res = post(
        &app,
        &id,
        "play",
        Some(&black.token),
        Some("\"3\""),
        Some(json!({ "actions": ["h9g7"] })),
    )
    .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("etag"), Some("\"4\""));

    // A batch of one's own moves cannot run into the other side's.
    let p = play(&app, &red, &["h0g2", "b9c7"])
        .await
        .problem(409, "not-your-turn");
    assert_eq!(p["index"], 1);
    assert_eq!(view(&app, &id).await["ply"], 2, "nothing of it was written");

    // The history agrees with the stateless API, move by move.
    let after1 = stateless(&app, "xiangqi", START, &["h2e2"]).await;
    let after2 = stateless(&app, "xiangqi", &after1, &["h9g7"]).await;
    let moves = history(&app, &id).await;
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["ply"], 1);
    assert_eq!(moves[0]["seat"], "red");
    assert_eq!(moves[0]["action"], "h2e2");
    assert_eq!(moves[0]["code"], after1);
    assert_eq!(moves[1]["seat"], "black");
    assert_eq!(moves[1]["side"], "black");
    assert_eq!(moves[1]["code"], after2);
    assert!(moves[1]["played_at"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    let v = view(&app, &id).await;
    assert_eq!(v["state"]["code"], after2);
    assert_eq!(v["to_move"], "red");
}

async fn refusals_name_what_is_wrong(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // An empty batch is refused for what it is, whatever If-Match says.
    let (red, _) = created(&app, json!({ "game": "xiangqi" })).await;
    let p = post(
        &app,
        &red.id,
        "play",
        Some(&red.token),
        Some("\"9\""),
        Some(json!({ "actions": [] })),
    )
    .await
    .problem(400, "invalid-field");
    assert_eq!(p["field"], "actions");
    // Creation.
    let p = create(&app, json!({ "game": "chess" }))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "game");
    let p = create(&app, json!({ "game": "2048", "mode": "duel" }))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "mode");
    let p = create(&app, json!({ "game": "xiangqi", "seat": "white" }))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["supported"], json!(["red", "black"]));
    let p = create(&app, json!({ "game": "gomoku", "from": "x", "size": 15 }))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "from");
    let p = create(&app, json!({ "game": "xiangqi", "from": "nonsense" }))
        .await
        .problem(400, "invalid-code");
    assert_eq!(p["field"], "from");
    let p = create(&app, json!({ "game": "gomoku", "size": 17 }))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "size");
    create(&app, json!({ "game": "xiangqi", "variant": "blitz" }))
        .await
        .problem(400, "unknown-variant");
    // A game may start from any position, some moves in.
    let (from, v) = created(
        &app,
        json!({ "game": "xiangqi", "from": stateless(&app, "xiangqi", START, &["h2e2"]).await }),
    )
    .await;
    assert_eq!(
        (v["ply"].clone(), v["to_move"].clone(), v["seat"].clone()),
        (json!(0), json!("black"), json!("black"))
    );
    played(&app, &from, &["h9g7"]).await;
    create(&app, json!({ "game": "xiangqi", "colour": "red" }))
        .await
        .problem(400, "malformed-body");
    let res = app
        .request(
            Method::POST,
            "/v1/matches",
            &[("content-type", "application/json")],
            Some(vec![b' '; 70 * 1024]),
        )
        .await;
    res.problem(413, "body-too-large");

    // Ids.
    app.get("/v1/matches/not-a-uuid")
        .await
        .problem(400, "invalid-match-id");
    let unknown = uuid::Uuid::new_v4().to_string();
    // One match, one URL: the simple and URN forms of a UUID are refused.
    for other in [
        uuid::Uuid::new_v4().simple().to_string(),
        uuid::Uuid::new_v4().urn().to_string(),
    ] {
        app.get(&format!("/v1/matches/{other}"))
            .await
            .problem(400, "invalid-match-id");
    }
    app.get(&format!("/v1/matches/{}", unknown.to_uppercase()))
        .await
        .problem(404, "unknown-match");
    app.get(&format!("/v1/matches/{unknown}"))
        .await
        .problem(404, "unknown-match");
    app.get(&format!("/v1/matches/{unknown}/history"))
        .await
        .problem(404, "unknown-match");
    for what in [
        "play",
        "undo",
        "undo/accept",
        "undo/decline",
        "resign",
        "fork",
        "join",
    ] {
        let body = match what {
            "play" => json!({ "actions": ["up"] }),
            "join" => json!({ "invite": "x" }),
            _ => json!({}),
        };
        post(&app, &unknown, what, Some("token"), None, Some(body))
            .await
            .problem(404, "unknown-match");
    }

    // Tokens.
    let (seat, _) = created(&app, json!({ "game": "gomoku" })).await;
    let res = post(
        &app,
        &seat.id,
        "play",
        None,
        None,
        Some(json!({ "actions": ["h8"] })),
    )
    .await;
    res.problem(401, "unauthorized");
    assert_eq!(
        res.header("www-authenticate"),
        Some("Bearer realm=\"qipan\"")
    );
    let wrong = Seat {
        id: seat.id.clone(),
        token: "A".repeat(43),
    };
    play(&app, &wrong, &["h8"])
        .await
        .problem(401, "unauthorized");
    for what in ["undo", "undo/accept", "undo/decline", "resign", "fork"] {
        post(&app, &seat.id, what, None, None, None)
            .await
            .problem(401, "unauthorized");
    }

    // Actions.
    let p = play(&app, &seat, &["z99"])
        .await
        .problem(422, "malformed-action");
    assert_eq!(p["index"], 0);
    let _ = played(&app, &seat, &["h8"]).await;
    let (solo, _) = created(&app, json!({ "game": "gomoku", "mode": "solo" })).await;
    played(&app, &solo, &["h8"]).await;
    let p = play(&app, &solo, &["h8"])
        .await
        .problem(422, "illegal-action");
    assert!(p["legal_actions"]
        .as_array()
        .is_some_and(|a| a.len() == 224));
    play(&app, &solo, &[]).await.problem(400, "invalid-field");

    // If-Match forms: quoted, a list, `*`. Comparison is strong (RFC 9110
    // §13.1.1): a weak tag never matches. What is no entity tag is refused.
    let v = view(&app, &solo.id).await["version"].as_i64().expect("v");
    let ok = |tag: String| {
        let app = &app;
        let solo = &solo;
        async move { post(app, &solo.id, "undo", Some(&solo.token), Some(&tag), None).await }
    };
    let p = ok(format!("W/\"{v}\"")).await.problem(412, "stale-version");
    assert_eq!(
        (p["asked"].clone(), p["version"].clone()),
        (json!([]), json!(v))
    );
    assert_eq!(ok(format!("\"{v}\"")).await.status, 200);
    played(&app, &solo, &["h8"]).await;
    assert_eq!(ok(format!("\"0\", \"{}\"", v + 2)).await.status, 200);
    played(&app, &solo, &["h8"]).await;
    assert_eq!(ok("*".to_owned()).await.status, 200);
    for garbage in ["yesterday", &format!("{}", v + 4)] {
        ok(garbage.to_owned()).await.problem(400, "invalid-field");
    }

    // Undo offers are for duels; nothing to undo at the start.
    undo(&app, &solo, "undo/accept")
        .await
        .problem(409, "not-a-duel");
    undo(&app, &solo, "undo/decline")
        .await
        .problem(409, "not-a-duel");
    undo(&app, &solo, "undo")
        .await
        .problem(409, "nothing-to-undo");

    // Malformed optional bodies.
    post(
        &app,
        &solo.id,
        "fork",
        Some(&solo.token),
        None,
        Some(json!({ "ply": "two" })),
    )
    .await
    .problem(400, "malformed-body");
}

/// Plays 150 moves of seeded 2048, one request each, and returns the code
/// after each ply (index 0: the start).
async fn play_2048(app: &TestApp, seat: &Seat, start: &Value, moves: usize) -> Vec<String> {
    let mut codes = vec![start["code"].as_str().expect("code").to_owned()];
    let mut state = start.clone();
    for i in 0..moves {
        let legal = actions(&state["legal_actions"]);
        assert!(!legal.is_empty(), "the game ended after {i} moves");
        // Cycle through the legal moves so the board keeps changing.
        let action = legal[i % legal.len()].clone();
        let v = played(app, seat, &[&action]).await;
        state = v["state"].clone();
        assert!(
            state["spawned"].is_object(),
            "a play's view has its last step"
        );
        codes.push(state["code"].as_str().expect("code").to_owned());
    }
    codes
}

async fn the_history_keeps_the_last_100_moves_and_undo_goes_back_to_them(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    assert_eq!(v["mode"], "solo");
    assert_eq!(v["seat"], "solo");
    assert_eq!(v["invites"], json!([]));
    let codes = play_2048(&app, &seat, &v["state"], 150).await;

    let v = view(&app, &seat.id).await;
    assert_eq!(v["ply"], 150);
    assert_eq!(v["state"]["code"], codes[150]);
    let moves = history(&app, &seat.id).await;
    assert_eq!(moves.len(), 100);
    assert_eq!(moves[0]["ply"], 51);
    assert_eq!(moves[99]["ply"], 150);
    for mv in &moves {
        let ply = mv["ply"].as_u64().expect("ply") as usize;
        assert_eq!(mv["code"], codes[ply], "ply {ply}");
    }

    // Undo back to the oldest kept move, one at a time, and no further.
    for ply in (50..150).rev() {
        let res = undo(&app, &seat, "undo").await;
        assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        let v = res.json();
        assert_eq!(v["ply"], ply);
        assert_eq!(v["state"]["code"], codes[ply], "ply {ply}");
    }
    let p = undo(&app, &seat, "undo")
        .await
        .problem(409, "nothing-to-undo");
    assert_eq!(p["ply"], 50);
    assert!(history(&app, &seat.id).await.is_empty());

    // Play on from there: the history grows again from ply 51.
    let v = played(&app, &seat, &["up"]).await;
    assert_eq!(v["ply"], 51);
    let moves = history(&app, &seat.id).await;
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["ply"], 51);
}

async fn takebacks_are_offered_accepted_declined_and_withdrawn(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (red, black) = duel(&app).await;
    undo(&app, &red, "undo")
        .await
        .problem(409, "nothing-to-undo");
    undo(&app, &black, "undo/accept")
        .await
        .problem(409, "no-undo-offer");
    undo(&app, &black, "undo/decline")
        .await
        .problem(409, "no-undo-offer");
    played(&app, &red, &["h2e2"]).await;
    played(&app, &black, &["h9g7"]).await;
    let v = played(&app, &red, &["h0g2"]).await;
    let code_at_2 = history(&app, &red.id).await[1]["code"].clone();

    // Red offers to take back its last move: the match waits on black.
    let res = undo(&app, &red, "undo").await;
    assert_eq!(res.status, 202);
    let offered = res.json();
    assert_eq!(offered["undo_offer"], json!({ "seat": "red", "ply": 2 }));
    assert_eq!(offered["ply"], 3, "an offer changes nothing yet");
    assert_eq!(offered["state"]["code"], v["state"]["code"]);
    // Asking again is the same offer.
    let res = undo(&app, &red, "undo").await;
    assert_eq!(res.status, 202);
    assert_eq!(res.json()["undo_offer"], offered["undo_offer"]);
    undo(&app, &black, "undo")
        .await
        .problem(409, "undo-pending");
    undo(&app, &red, "undo/accept")
        .await
        .problem(409, "own-undo-offer");

    // Black accepts: back to ply 2, red to move, the history trimmed.
    let res = undo(&app, &black, "undo/accept").await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["ply"], 2);
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["undo_offer"], Value::Null);
    assert_eq!(v["state"]["code"], code_at_2);
    assert_eq!(history(&app, &red.id).await.len(), 2);

    // Black offers (its last move, ply 2: back to ply 1); red declines.
    assert_eq!(undo(&app, &black, "undo").await.status, 202);
    let res = undo(&app, &red, "undo/decline").await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["undo_offer"], Value::Null);
    assert_eq!(v["ply"], 2);

    // Black offers again and withdraws it.
    let v = undo(&app, &black, "undo").await.json();
    assert_eq!(v["undo_offer"], json!({ "seat": "black", "ply": 1 }));
    let v = undo(&app, &black, "undo/decline").await.json();
    assert_eq!(v["undo_offer"], Value::Null);

    // An offer is withdrawn by a move: black offers, red moves instead.
    assert_eq!(undo(&app, &black, "undo").await.status, 202);
    let v = played(&app, &red, &["h0g2"]).await;
    assert_eq!(v["undo_offer"], Value::Null);
    assert_eq!(v["ply"], 3);
    undo(&app, &red, "undo/accept")
        .await
        .problem(409, "no-undo-offer");

    // A takeback of a move answered already takes back the answer too:
    // red offers after black has replied, and the match returns to before
    // red's move.
    played(&app, &black, &["b9c7"]).await;
    assert_eq!(undo(&app, &red, "undo").await.status, 202);
    let v = undo(&app, &black, "undo/accept").await.json();
    assert_eq!(v["ply"], 2);
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["state"]["code"], code_at_2);
}

/// The database copies a fork's history while the parent may be written:
/// whatever the interleaving, each fork's history is the parent's at one
/// version — contiguous, ending at the fork's ply, with the fork's position.
async fn a_fork_racing_with_moves_and_undos_keeps_a_consistent_history(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    play_2048(&app, &seat, &v["state"], 105).await;
    let writer = async {
        for round in 0..8 {
            for _ in 0..2 {
                assert_eq!(undo(&app, &seat, "undo").await.status, 200);
            }
            let mut state = view(&app, &seat.id).await["state"].clone();
            for i in 0..(1 + round % 3) {
                let legal = actions(&state["legal_actions"]);
                let Some(action) = legal.get((round + i) % legal.len().max(1)) else {
                    break;
                };
                state = played(&app, &seat, &[action]).await["state"].clone();
            }
        }
    };
    let forker = async {
        let mut forks = Vec::new();
        for _ in 0..24 {
            let res = post(&app, &seat.id, "fork", Some(&seat.token), None, None).await;
            assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
            forks.push(res.json());
        }
        forks
    };
    let ((), forks) = tokio::join!(writer, forker);
    for f in forks {
        let id = f["id"].as_str().expect("id");
        let ply = f["ply"].as_i64().expect("ply");
        let kept = history(&app, id).await;
        let plies: Vec<i64> = kept
            .iter()
            .map(|m| m["ply"].as_i64().expect("ply"))
            .collect();
        let expected: Vec<i64> = (ply - kept.len() as i64 + 1..=ply).collect();
        assert_eq!(plies, expected, "fork {id} at ply {ply}");
        assert!(
            !kept.is_empty() && kept.len() <= 100,
            "fork {id} at ply {ply}: {} kept",
            kept.len()
        );
        assert_eq!(
            kept.last().map(|m| &m["code"]),
            Some(&f["state"]["code"]),
            "fork {id}: its history ends at its position"
        );
        assert_one_line(&app, &kept).await;
    }
}

/// How many `moves` rows match `id` holds itself (not read from a parent).
async fn own_rows(app: &TestApp, id: &str) -> i64 {
    let db = app.database().expect("a database");
    sqlx::query_scalar("SELECT count(*) FROM moves WHERE match_id = $1")
        .bind(id)
        .fetch_one(db.pool())
        .await
        .expect("count")
}

/// Checks that a kept 2048 history is one line of play: from its first
/// position, its actions lead (spawns included, which follow the state's
/// seed) to its last.
async fn assert_one_line(app: &TestApp, kept: &[Value]) {
    let (Some(first), Some(last)) = (kept.first(), kept.last()) else {
        return;
    };
    let rest: Vec<&str> = kept[1..]
        .iter()
        .map(|m| m["action"].as_str().expect("action"))
        .collect();
    if rest.is_empty() {
        return;
    }
    let code = first["code"].as_str().expect("code");
    assert_eq!(
        stateless(app, "2048", code, &rest).await,
        last["code"].as_str().expect("code"),
        "the kept moves are not one line of play"
    );
}

/// The moves of `kept` up to ply `upto`.
fn upto_ply(kept: &[Value], upto: i64) -> Vec<Value> {
    kept.iter()
        .filter(|m| m["ply"].as_i64().expect("ply") <= upto)
        .cloned()
        .collect()
}

/// Checks that each fork's history is its parent's `kept` up to its ply.
async fn assert_histories(app: &TestApp, forks: &[(Seat, i64)], kept: &[Value]) {
    for (f, ply) in forks {
        assert_eq!(
            history(app, &f.id).await,
            upto_ply(kept, *ply),
            "the fork at {ply}"
        );
    }
}

/// A fork writes no move: it reads its parent's record, which the parent
/// never drops as it plays on (the record keeps every move); the parent
/// copies into it only the rows an undo is about to drop, so every fork's
/// history stays what it was when it was made.
async fn forks_share_the_parents_history_until_it_drops_it(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (parent, v) = created(&app, json!({ "game": "2048", "seed": 1 })).await;
    play_2048(&app, &parent, &v["state"], 130).await;
    let kept = history(&app, &parent.id).await;
    assert_eq!(kept.len(), 100);
    let slice = |upto: i64| upto_ply(&kept, upto);
    let mut forks = Vec::new();
    for ply in [130, 60, 120, 31, 30] {
        let res = fork(&app, &parent.id, Some(&parent.token), ply).await;
        assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
        let f = Seat::of(&res);
        assert_eq!(own_rows(&app, &f.id).await, 0, "the fork at {ply} shares");
        assert_eq!(history(&app, &f.id).await, slice(ply));
        forks.push((f, ply));
    }
    // The parent plays on: plies 31 to 50 leave its window, which the forks
    // at 130, 60, 120 and 31 read. They stay in its record, so nothing is
    // copied: a parent's move costs the same whatever its forks.
    let state = view(&app, &parent.id).await["state"].clone();
    play_2048(&app, &parent, &state, 20).await;
    assert_histories(&app, &forks, &kept).await;
    assert_eq!(own_rows(&app, &forks[0].0.id).await, 0);
    assert_eq!(own_rows(&app, &forks[1].0.id).await, 0);
    assert_eq!(own_rows(&app, &forks[3].0.id).await, 0);

    // The parent goes back below the forks' plies and plays another line.
    for _ in 0..40 {
        assert_eq!(undo(&app, &parent, "undo").await.status, 200);
    }
    assert_eq!(view(&app, &parent.id).await["ply"], 110);
    let state = view(&app, &parent.id).await["state"].clone();
    let legal = actions(&state["legal_actions"]);
    let other = legal.last().expect("a legal move").clone();
    played(&app, &parent, &[&other]).await;
    let state = view(&app, &parent.id).await["state"].clone();
    play_2048(&app, &parent, &state, 15).await;
    assert_histories(&app, &forks, &kept).await;
    for (f, _) in &forks {
        assert_one_line(&app, &history(&app, &f.id).await).await;
    }
    assert_one_line(&app, &history(&app, &parent.id).await).await;

    // A fork plays, then undoes back into what it read from its parent.
    let (at_130, _) = &forks[0];
    let state = view(&app, &at_130.id).await["state"].clone();
    play_2048(&app, at_130, &state, 5).await;
    for _ in 0..8 {
        assert_eq!(undo(&app, at_130, "undo").await.status, 200);
    }
    let v = view(&app, &at_130.id).await;
    assert_eq!(v["ply"], 127);
    assert_eq!(
        v["state"]["code"],
        slice(127).last().expect("ply 127")["code"]
    );
    // At ply 135 the fork's own cap dropped plies 31 to 35.
    let since_36: Vec<Value> = slice(127).into_iter().skip(5).collect();
    assert_eq!(since_36.first().expect("ply 36")["ply"], 36);
    assert_eq!(history(&app, &at_130.id).await, since_36);

    // A fork of a fork reads its parent's base, and copies only the moves
    // its parent made (or got by the base's undo) up to the fork's ply: at
    // 100, none.
    let (at_120, _) = &forks[2];
    let res = fork(&app, &at_120.id, Some(&at_120.token), 100).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let grandchild = Seat::of(&res);
    assert_eq!(history(&app, &grandchild.id).await, slice(100));
    assert_eq!(own_rows(&app, &grandchild.id).await, 0);
}

async fn forks_copy_the_kept_history_and_go_their_own_way(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (red, black) = duel(&app).await;
    for (seat, mv) in [
        (&red, "h2e2"),
        (&black, "h9g7"),
        (&red, "h0g2"),
        (&black, "i9h9"),
        (&red, "i0h0"),
        (&black, "b9c7"),
    ] {
        played(&app, seat, &[mv]).await;
    }
    let parent = view(&app, &red.id).await;
    let kept = history(&app, &red.id).await;

    // Only the seated players may fork a match being played.
    post(&app, &red.id, "fork", None, None, None)
        .await
        .problem(401, "unauthorized");

    // Fork now (no body): a solo match at ply 6 with all six moves.
    let res = post(&app, &red.id, "fork", Some(&black.token), None, None).await;
    assert_eq!(res.status, 201);
    let now = Seat::of(&res);
    let v = res.json();
    assert_eq!(
        res.header("location"),
        Some(format!("{}/v1/matches/{}", app.base, now.id).as_str())
    );
    assert_eq!(v["mode"], "solo");
    assert_eq!(v["ply"], 6);
    assert_eq!(v["state"]["code"], parent["state"]["code"]);
    assert_eq!(v["parent"]["id"], red.id);
    assert_eq!(v["parent"]["ply"], 6);
    assert_eq!(history(&app, &now.id).await, kept);

    // Fork at ply 2 (with a body): the position after two moves.
    let res = fork(&app, &red.id, Some(&red.token), 2).await;
    assert_eq!(res.status, 201);
    let past = Seat::of(&res);
    let v = res.json();
    assert_eq!(v["ply"], 2);
    assert_eq!(v["to_move"], "red");
    assert_eq!(v["state"]["code"], kept[1]["code"]);
    assert_eq!(v["parent"]["ply"], 2);
    assert_eq!(history(&app, &past.id).await, kept[..2].to_vec());
    // And at ply 0, the start.
    let res = fork(&app, &red.id, Some(&red.token), 0).await;
    assert_eq!(res.json()["state"]["code"], START);
    for ply in [-1, 7, 1000, i64::MAX, i64::MIN] {
        let p = fork(&app, &red.id, Some(&red.token), ply)
            .await
            .problem(422, "ply-not-kept");
        assert_eq!(
            (p["oldest"].clone(), p["latest"].clone()),
            (json!(0), json!(6))
        );
    }

    // Divergent play: the fork plays both sides, the parent goes on.
    played(&app, &past, &["b0c2"]).await;
    assert_eq!(played(&app, &past, &["b9c7"]).await["ply"], 4);
    played(&app, &red, &["b2d2"]).await;
    let p = view(&app, &red.id).await;
    assert_eq!(p["ply"], 7);
    assert_eq!(history(&app, &red.id).await[1], kept[1]);
    let forked = history(&app, &past.id).await;
    assert_eq!(forked.len(), 4);
    assert_eq!(forked[2]["action"], "b0c2");
    assert_eq!(forked[2]["seat"], "solo");
    // Undo works in the fork back through the copied history.
    for ply in (0..4).rev() {
        assert_eq!(undo(&app, &past, "undo").await.json()["ply"], ply);
    }
    undo(&app, &past, "undo")
        .await
        .problem(409, "nothing-to-undo");
    assert_eq!(view(&app, &past.id).await["state"]["code"], START);
    assert_eq!(
        view(&app, &red.id).await["ply"],
        7,
        "the parent is untouched"
    );

    // A parent's tokens are not the fork's, nor the other way round.
    play(
        &app,
        &Seat {
            id: past.id.clone(),
            token: red.token.clone(),
        },
        &["h2e2"],
    )
    .await
    .problem(401, "unauthorized");

    // A finished match may be forked by anyone.
    post(&app, &red.id, "resign", Some(&black.token), None, None).await;
    let res = fork(&app, &red.id, None, 3).await;
    assert_eq!(res.status, 201);
    assert_eq!(res.json()["state"]["code"], kept[2]["code"]);

    // A fork past the history cap: the oldest kept ply is the bound.
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 3 })).await;
    let codes = play_2048(&app, &seat, &v["state"], 120).await;
    let p = fork(&app, &seat.id, Some(&seat.token), 10)
        .await
        .problem(422, "ply-not-kept");
    assert_eq!(
        (p["oldest"].clone(), p["latest"].clone()),
        (json!(20), json!(120))
    );
    let res = fork(&app, &seat.id, Some(&seat.token), 20).await;
    assert_eq!(res.status, 201);
    let early = Seat::of(&res);
    assert_eq!(res.json()["state"]["code"], codes[20]);
    assert!(history(&app, &early.id).await.is_empty());
}

/// Sends one play per action at once; returns how many landed and the
/// refusals.
async fn race(
    app: Arc<MatchApp>,
    seat: &Seat,
    if_match: Option<&'static str>,
    plays: Vec<String>,
) -> (usize, Vec<TestResponse>) {
    let tasks: Vec<_> = plays
        .into_iter()
        .map(|action| {
            let (app, id, token) = (app.clone(), seat.id.clone(), seat.token.clone());
            tokio::spawn(async move {
                let body = json!({ "actions": [action] });
                post(&app, &id, "play", Some(&token), if_match, Some(body)).await
            })
        })
        .collect();
    let mut ok = 0;
    let mut refused = Vec::new();
    for t in tasks {
        let res = t.await.expect("task");
        if res.status == 200 {
            ok += 1;
        } else {
            refused.push(res);
        }
    }
    (ok, refused)
}

async fn racing_plays_on_one_version_land_exactly_once(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let app = Arc::new(app);
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 11 })).await;
    let legal = actions(&v["state"]["legal_actions"]);
    let plays = (0..50).map(|i| legal[i % legal.len()].clone()).collect();
    let (ok, refused) = race(app.clone(), &seat, Some("\"1\""), plays).await;
    for res in refused {
        res.problem(412, "stale-version");
    }
    assert_eq!(ok, 1, "exactly one of 50 plays at version 1 lands");
    let v = view(&app, &seat.id).await;
    assert_eq!(v["ply"], 1);
    assert_eq!(v["version"], 2);
    let moves = history(&app, &seat.id).await;
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["code"], v["state"]["code"]);
}

async fn unguarded_races_never_lose_or_duplicate_a_move(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let app = Arc::new(app);
    let (seat, _) = created(&app, json!({ "game": "gomoku", "mode": "solo" })).await;
    // Thirty points, no two adjacent (every other file and rank): each is
    // legal whenever it lands, and no order of them makes a five.
    let plays = (0..30u8)
        .map(|i| format!("{}{}", char::from(b'a' + 2 * (i % 8)), 1 + 2 * (i / 8)))
        .collect();
    let (ok, refused) = race(app.clone(), &seat, None, plays).await;
    for res in refused {
        res.problem(409, "write-conflict");
    }
    assert!(ok >= 1);
    let v = view(&app, &seat.id).await;
    assert_eq!(v["ply"], ok);
    assert_eq!(v["version"], ok + 1);
    let moves = history(&app, &seat.id).await;
    assert_eq!(moves.len(), ok, "one kept move per landed play");
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(mv["ply"], i + 1);
    }
    assert_eq!(
        moves.last().map(|m| m["code"].clone()),
        Some(v["state"]["code"].clone())
    );
}

async fn resigning_ends_the_match(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // A duel: the seat resigns, the other side wins.
    let (red, black) = duel(&app).await;
    played(&app, &red, &["h2e2"]).await;
    let res = post(&app, &red.id, "resign", Some(&black.token), None, None).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(
        v["status"],
        json!({ "state": "won", "winner": "red", "reason": "resigned" })
    );
    let p = play(&app, &black, &["h9g7"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["outcome"]["reason"], "resigned");
    post(&app, &red.id, "resign", Some(&red.token), None, None)
        .await
        .problem(409, "game-over");
    undo(&app, &red, "undo").await.problem(409, "game-over");

    // Solo two-player: the side to move resigns.
    let (solo, _) = created(&app, json!({ "game": "xiangqi", "mode": "solo" })).await;
    played(&app, &solo, &["h2e2"]).await;
    let v = post(&app, &solo.id, "resign", Some(&solo.token), None, None)
        .await
        .json();
    assert_eq!(v["status"]["winner"], "red");
    undo(&app, &solo, "undo").await.problem(409, "game-over");

    // One player: the game is over.
    let (one, _) = created(&app, json!({ "game": "tetris", "seed": 5 })).await;
    let v = post(&app, &one.id, "resign", Some(&one.token), None, None)
        .await
        .json();
    assert_eq!(
        v["status"],
        json!({ "state": "over", "winner": null, "reason": "resigned" })
    );

    // A match the rules have ended: a gomoku five.
    let (g, _) = created(&app, json!({ "game": "gomoku", "mode": "solo" })).await;
    let v = played(
        &app,
        &g,
        &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"],
    )
    .await;
    assert_eq!(v["status"]["state"], "won");
    assert_eq!(v["status"]["winner"], "black");
    play(&app, &g, &["a5"]).await.problem(409, "game-over");
    // In a practice match the last move can still be taken back.
    let v = undo(&app, &g, "undo").await.json();
    assert_eq!(v["status"]["state"], "ongoing");
    assert_eq!(v["to_move"], "black");
}

async fn a_restart_loses_nothing(backend: Backend) {
    let Some(db) = TestDb::new(backend).await else {
        return;
    };
    let app = spawn_app_with(settings(&db.url)).await;
    let (red, black) = duel(&app).await;
    played(&app, &red, &["h2e2"]).await;
    let before = view(&app, &red.id).await;
    let kept = history(&app, &red.id).await;
    app.stop().await;

    let app = spawn_app_with(settings(&db.url)).await;
    let after = view(&app, &red.id).await;
    let strip = |mut v: Value| {
        // Only the URLs differ: the new service listens on another port.
        for key in ["url", "history_url", "page", "events_url", "ws_url"] {
            v[key] = Value::Null;
        }
        v["state"]["url"] = Value::Null;
        v["state"]["page"] = Value::Null;
        v
    };
    assert_eq!(strip(after), strip(before));
    assert_eq!(history(&app, &red.id).await, kept);
    // The tokens still work: the game goes on.
    let v = played(&app, &black, &["h9g7"]).await;
    assert_eq!(v["ply"], 2);
    app.stop().await;
}

async fn seat_tokens_are_stored_only_as_hashes(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (red, _) = created(&app, json!({ "game": "xiangqi" })).await;
    let db = app.database().expect("a database");
    let rows: Vec<(String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT seat, token_hash, invite_hash FROM seats WHERE match_id = $1")
            .bind(&red.id)
            .fetch_all(db.pool())
            .await
            .expect("seats");
    assert_eq!(rows.len(), 2);
    for (seat, token, invite) in rows {
        for hash in [token, invite].into_iter().flatten() {
            assert_eq!(hash.len(), 64, "{seat}: SHA-256, hex");
            assert!(hash.chars().all(|c| c.is_ascii_hexdigit()));
            assert!(!hash.contains(&red.token));
        }
    }
}

/// A match view names its page and its two streams, as a state view names
/// its page: clients follow them instead of building paths.
#[tokio::test]
async fn a_match_view_links_its_page_and_its_streams() {
    let Some(app) = spawn_match_app(Backend::Sqlite).await else {
        return;
    };
    let (seat, v) = created(&app, json!({ "game": "gomoku" })).await;
    let id = &seat.id;
    let host = app
        .base
        .strip_prefix("http://")
        .expect("tests listen on http");
    assert_eq!(v["page"], format!("{}/m/{id}", app.base));
    assert_eq!(
        v["events_url"],
        format!("{}/v1/matches/{id}/events", app.base)
    );
    assert_eq!(v["ws_url"], format!("ws://{host}/v1/matches/{id}/ws"));
    // The same links in every view of the match, not only the creator's.
    let read = view(&app, id).await;
    for key in ["page", "events_url", "ws_url"] {
        assert_eq!(read[key], v[key], "{key}");
    }
    // Each leads where it says.
    let page = app
        .get(v["page"].as_str().unwrap().strip_prefix(&app.base).unwrap())
        .await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let events = v["events_url"]
        .as_str()
        .unwrap()
        .strip_prefix(&app.base)
        .unwrap();
    let mut stream = crate::live::Stream::at(&app, events, None, None).await;
    let sync = stream
        .next(std::time::Duration::from_secs(5))
        .await
        .expect("the stream opens with its sync");
    assert_eq!(sync.kind, "sync");
    let (mut ws, _) = tokio_tungstenite::connect_async(v["ws_url"].as_str().unwrap())
        .await
        .expect("the socket opens");
    use futures_util::StreamExt as _;
    let first = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
        .await
        .expect("a first message")
        .expect("the socket is open")
        .expect("a message");
    let first: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(first["type"], "event");
    assert_eq!(first["event"], "sync");
}

/// A xiangqi match's kept moves carry their WXF and Chinese names, read in
/// the position each was played from (the names of the rules crate's
/// notation tests); other games' moves have none.
#[tokio::test]
async fn kept_xiangqi_moves_are_named_as_players_write_them() {
    let Some(app) = spawn_match_app(Backend::Sqlite).await else {
        return;
    };
    let (seat, _) = created(&app, json!({ "game": "xiangqi", "mode": "solo" })).await;
    played(&app, &seat, &["h2e2", "h9g7", "h0g2"]).await;
    let names: Vec<(Value, Value)> = history(&app, &seat.id)
        .await
        .iter()
        .map(|mv| (mv["wxf"].clone(), mv["chinese"].clone()))
        .collect();
    assert_eq!(
        names,
        [
            (json!("C2.5"), json!("炮二平五")),
            (json!("H8+7"), json!("马8进7")),
            (json!("H2+3"), json!("马二进三")),
        ]
    );
    let (seat, _) = created(&app, json!({ "game": "gomoku", "mode": "solo" })).await;
    played(&app, &seat, &["h8"]).await;
    let kept = history(&app, &seat.id).await;
    assert!(kept[0].get("wxf").is_none() && kept[0].get("chinese").is_none());
}

#[tokio::test]
async fn a_memory_database_keeps_matches_while_the_service_runs() {
    let app = spawn_app_with(settings("sqlite::memory:")).await;
    let (seat, _) = created(&app, json!({ "game": "quoridor" })).await;
    played(&app, &seat, &["e2"]).await;
    let v = view(&app, &seat.id).await;
    assert_eq!(v["ply"], 1);
    assert_eq!(v["to_move"], "2");
    assert_eq!(history(&app, &seat.id).await.len(), 1);
}

#[tokio::test]
async fn without_a_database_matches_answer_503_and_the_rest_works() {
    let app = spawn_app().await;
    create(&app, json!({ "game": "xiangqi" }))
        .await
        .problem(503, "matches-disabled");
    let id = uuid::Uuid::new_v4();
    app.get(&format!("/v1/matches/{id}"))
        .await
        .problem(503, "matches-disabled");
    post(
        &app,
        &id.to_string(),
        "play",
        Some("t"),
        None,
        Some(json!({ "actions": ["h2e2"] })),
    )
    .await
    .problem(503, "matches-disabled");
    assert_eq!(app.get("/v1/xiangqi/start").await.status, 200);
}

/// Match `id`'s record as the storage reads it for the export.
struct Record {
    start_code: String,
    start_ply: i64,
    moves: Vec<qipan::matches::KeptMove>,
}

async fn record(app: &TestApp, id: &str) -> Record {
    let db = app.database().expect("a database");
    let mut conn = db.pool().acquire().await.expect("a connection");
    let (m, _, moves) =
        qipan::storage::matches::record(&mut conn, db.backend(), id.parse().expect("an id"))
            .await
            .expect("read")
            .expect("the match");
    Record {
        start_code: moves
            .first()
            .map_or(m.code.clone(), |f| f.code_before.clone()),
        start_ply: moves.first().map_or(m.ply, |f| f.ply - 1),
        moves,
    }
}

async fn count_moves(app: &TestApp) -> i64 {
    let db = app.database().expect("a database");
    sqlx::query_scalar("SELECT count(*) FROM moves")
        .fetch_one(db.pool())
        .await
        .expect("count")
}

/// The record keeps every move; the window and undo stay the last 100.
async fn a_150_move_match_keeps_its_whole_record(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    let codes = play_2048(&app, &seat, &v["state"], 150).await;
    let r = record(&app, &seat.id).await;
    assert_eq!(r.moves.len(), 150);
    assert_eq!(r.start_ply, 0);
    assert_eq!(r.start_code, codes[0]);
    for (i, m) in r.moves.iter().enumerate() {
        assert_eq!(m.ply, i as i64 + 1);
        assert_eq!(m.code_after, codes[i + 1]);
    }
    let kept = history(&app, &seat.id).await;
    assert_eq!(kept.len(), 100);
    assert_eq!(kept[0]["ply"], 51);
    for _ in 0..3 {
        assert_eq!(undo(&app, &seat, "undo").await.status, 200);
    }
    assert_eq!(view(&app, &seat.id).await["state"]["code"], codes[147]);
    // Undo took three moves off the record; the window did not grow back.
    assert_eq!(record(&app, &seat.id).await.moves.len(), 147);
    assert_eq!(history(&app, &seat.id).await[0]["ply"], 51);
}

/// Makes `n` forks of `parent` at its ply as the fork path writes them (a
/// matches row reading the parent's record), without a request each.
async fn clone_forks(app: &TestApp, parent: &str, n: usize) {
    let db = app.database().expect("a database");
    let mut tx = db.pool().begin().await.expect("a transaction");
    let ids: Vec<String> = (0..n).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    for chunk in ids.chunks(500) {
        let values: Vec<String> = (0..chunk.len())
            .map(|i| format!("SELECT ${} AS id", i + 2))
            .collect();
        let sql = format!(
            "INSERT INTO matches (id, game, mode, code, to_move, ply, version, status, winner, \
             reason, parent_id, parent_ply, created_at, updated_at, kept_from, base_id, base_ply) \
             SELECT v.id, p.game, 'solo', p.code, p.to_move, p.ply, 1, p.status, p.winner, \
             p.reason, p.id, p.ply, p.created_at, $1, p.kept_from, p.id, p.ply \
             FROM matches p, ({}) v WHERE p.id = '{parent}'",
            values.join(" UNION ALL ")
        );
        let mut q = sqlx::query(&sql).bind(qipan::matches::Timestamp::now().millis());
        for id in chunk {
            q = q.bind(id);
        }
        q.execute(&mut *tx).await.expect("forks");
    }
    tx.commit().await.expect("commit");
}

/// A parent's move writes its own row and nothing for its forks, however
/// many, even as moves leave its window.
async fn a_parents_move_costs_the_same_with_1000_forks(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (parent, v) = created(&app, json!({ "game": "2048", "seed": 2 })).await;
    play_2048(&app, &parent, &v["state"], 100).await;
    let res = fork(&app, &parent.id, Some(&parent.token), 100).await;
    assert_eq!(res.status, 201);
    let real = Seat::of(&res);
    clone_forks(&app, &parent.id, 999).await;
    let before = count_moves(&app).await;
    let state = view(&app, &parent.id).await["state"].clone();
    play_2048(&app, &parent, &state, 5).await;
    assert_eq!(count_moves(&app).await, before + 5, "one row a move");
    assert_eq!(own_rows(&app, &real.id).await, 0);
    assert_eq!(record(&app, &real.id).await.moves.len(), 100);
    assert_eq!(history(&app, &real.id).await.len(), 100);
}

/// A fork's record is its parent's up to the fork's ply, then its own.
async fn a_forks_record_is_its_parents_prefix_and_its_own_moves(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (parent, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    play_2048(&app, &parent, &v["state"], 150).await;
    let whole = record(&app, &parent.id).await.moves;
    let res = fork(&app, &parent.id, Some(&parent.token), 60).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let child = Seat::of(&res);
    let state = view(&app, &child.id).await["state"].clone();
    play_2048(&app, &child, &state, 5).await;
    let r = record(&app, &child.id).await.moves;
    assert_eq!(r.len(), 65);
    assert_eq!(r[..60], whole[..60]);
    assert_eq!(own_rows(&app, &child.id).await, 5);
    // A fork of the fork: the base's prefix, the middle fork's own moves.
    let res = fork(&app, &child.id, Some(&child.token), 63).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let grandchild = Seat::of(&res);
    assert_eq!(record(&app, &grandchild.id).await.moves, r[..63].to_vec());
    assert_eq!(own_rows(&app, &grandchild.id).await, 3);
}

on_both_backends!(
    a_150_move_match_keeps_its_whole_record,
    a_parents_move_costs_the_same_with_1000_forks,
    a_forks_record_is_its_parents_prefix_and_its_own_moves,
);

/// Retention deletes a finished parent read by 5,000 forks without copying
/// a move, in transactions of at most about `ROWS` rows; the moves go once
/// the forks have gone too.
async fn retention_of_a_parent_with_5000_forks_copies_nothing_and_batches(backend: Backend) {
    use qipan::matches::retention::{Keep, Retention, ROWS};
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (parent, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    play_2048(&app, &parent, &v["state"], 100).await;
    let res = fork(&app, &parent.id, Some(&parent.token), 100).await;
    assert_eq!(res.status, 201);
    let real = Seat::of(&res);
    post(&app, &parent.id, "resign", Some(&parent.token), None, None).await;
    clone_forks(&app, &parent.id, 4999).await;
    let db = app.database().expect("a database");
    let day = std::time::Duration::from_secs(86_400);
    let aged = qipan::matches::Timestamp::now().minus(8 * day).millis();
    sqlx::query("UPDATE matches SET updated_at = $1 WHERE id = $2")
        .bind(aged)
        .bind(&parent.id)
        .execute(db.pool())
        .await
        .expect("aged");
    let rules = Retention {
        idle: Keep(None),
        finished: Keep(Some(7 * day)),
        every: std::time::Duration::from_secs(60),
    };
    let report = rules
        .sweep_report(db, qipan::matches::Timestamp::now())
        .await
        .expect("sweep");
    assert_eq!(report.deleted, 1);
    assert_eq!(count_moves(&app).await, 100, "no move copied");
    assert!(report.transactions >= 5, "{report:?}");
    assert!(report.most_rows <= ROWS as u64 + 10, "{report:?}");
    assert_eq!(
        app.get(&format!("/v1/matches/{}", parent.id)).await.status,
        404
    );
    assert_eq!(record(&app, &real.id).await.moves.len(), 100);
    assert_eq!(history(&app, &real.id).await.len(), 100);
    assert_eq!(view(&app, &real.id).await["parent"], Value::Null);
    // The forks go (the finished ones and the abandoned one): so do the
    // moves nobody reads any more.
    sqlx::query("UPDATE matches SET updated_at = $1")
        .bind(qipan::matches::Timestamp::now().minus(31 * day).millis())
        .execute(db.pool())
        .await
        .expect("aged");
    let rules = Retention {
        idle: Keep(Some(30 * day)),
        ..rules
    };
    let report = rules
        .sweep_report(db, qipan::matches::Timestamp::now())
        .await
        .expect("sweep");
    assert_eq!(report.deleted, 5000);
    assert!(report.most_rows <= ROWS as u64 + 10, "{report:?}");
    assert_eq!(count_moves(&app).await, 0);
}

/// An imported record: a solo match at its end, its record holding every
/// move, its window the last 100.
async fn an_imported_record_keeps_every_move(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let (seat, v) = created(&app, json!({ "game": "2048", "seed": 7 })).await;
    play_2048(&app, &seat, &v["state"], 130).await;
    let original = record(&app, &seat.id).await;
    let actions: Vec<String> = original.moves.iter().map(|m| m.action.clone()).collect();
    let start =
        qipan_rules::AnyPosition::from_code(qipan_rules::GameKind::Twenty48, &original.start_code)
            .expect("a 2048 code");
    let db = app.database().expect("a database").clone();
    let matches = qipan::matches::Matches::new(db, settings("sqlite::memory:").live());
    let made = matches
        .create_played(start, None, &actions, None, &app.base)
        .await
        .expect("imported");
    let id = made.id.to_string();
    let copy = record(&app, &id).await;
    assert_eq!(copy.moves.len(), 130);
    let codes = |r: &Record| {
        r.moves
            .iter()
            .map(|m| m.code_after.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(&copy), codes(&original));
    assert_eq!(history(&app, &id).await.len(), 100);
    assert_eq!(view(&app, &id).await["ply"], 130);
}

on_both_backends!(
    retention_of_a_parent_with_5000_forks_copies_nothing_and_batches,
    an_imported_record_keeps_every_move,
);
