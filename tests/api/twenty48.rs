//! 2048 through the stateless API: seeded and random starts, moves with
//! their spawns, the end of the game, `grid` import and export, and every
//! refusal. Expected values come from the rules crate itself.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use qipan_rules::twenty48::{Direction, GridError, Position, Setup, Slide};
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{actions, spawn_app, TestApp, TestResponse};

/// A position from its tiles, score and generator state.
fn grid(board: [[u32; 4]; 4], score: u64, seed: u64) -> Result<Position, GridError> {
    Position::from_setup(&Setup {
        board,
        score: Some(score),
        seed,
    })
}

/// The new game from seed 42, as the rules module documents it.
const SEED42: &str = "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A full board on which no two neighbours are equal.
const LOCKED: [[u32; 4]; 4] = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]];

async fn play(app: &TestApp, code: &str, moves: &[&str]) -> TestResponse {
    app.post_json(
        &format!("/v1/2048/{code}/play"),
        &json!({ "actions": moves }),
    )
    .await
}

async fn import(app: &TestApp, body: Value) -> TestResponse {
    app.post_json("/v1/2048/import", &body).await
}

fn code_of(v: &Value) -> String {
    v["code"].as_str().expect("code").to_owned()
}

fn names(moves: &[Direction]) -> Vec<String> {
    moves.iter().map(|d| d.as_str().to_owned()).collect()
}

/// Asserts that a view shows `pos` (no step: `spawned` and `gained` null).
#[track_caller]
fn assert_shows(v: &Value, pos: &Position, base: &str) {
    let code = pos.to_code();
    assert_eq!(v["game"], "2048");
    assert_eq!(v["variant"], "standard");
    assert_eq!(v["code"], code.as_str(), "{v}");
    assert_eq!(v["url"], format!("{base}/v1/2048/{code}"));
    assert_eq!(v["to_move"], "player");
    assert_eq!(v["check"], false);
    assert_eq!(v["board"], json!(pos.grid()));
    assert_eq!(v["score"], pos.score());
    assert_eq!(v["won"], pos.won());
    assert_eq!(v["max_tile"], pos.max_tile());
    assert_eq!(v["seed"], pos.rng_state().to_string());
    assert_eq!(actions(&v["legal_actions"]), names(&pos.legal_actions()));
}

/// The least score a board can have: `Σ max(e−2, 0)·2^e` over its tiles.
fn least_score(board: [[u32; 4]; 4]) -> u64 {
    board
        .iter()
        .flatten()
        .filter(|&&v| v > 0)
        .map(|&v| u64::from(v.trailing_zeros().saturating_sub(2)) * u64::from(v))
        .sum()
}

/// The 23 bytes behind a code.
fn bytes_of(code: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(code).expect("a valid code")
}

fn code_from(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Sets the 5-bit exponent of one cell in a code's bytes.
fn set_cell(bytes: &mut [u8], row: usize, col: usize, exponent: u8) {
    let mut wide = [0u8; 16];
    wide[6..].copy_from_slice(&bytes[1..11]);
    let mut cells = u128::from_be_bytes(wide);
    let shift = 5 * (15 - (4 * row + col));
    cells = (cells & !(0x1F << shift)) | (u128::from(exponent) << shift);
    bytes[1..11].copy_from_slice(&cells.to_be_bytes()[6..]);
}

#[tokio::test]
async fn games_lists_2048_with_its_syntax() {
    let app = spawn_app().await;
    let body = app.get("/v1/games").await.json();
    let g = body["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["game"] == "2048")
        .expect("2048 is listed");
    assert_eq!(g["title"], "2048");
    assert_eq!(g["players"], json!(["player"]));
    assert_eq!(g["variants"], json!(["standard"]));
    assert_eq!(g["action_syntax"]["notation"], "direction");
    assert_eq!(g["action_syntax"]["pattern"], "^(up|down|left|right)$");
    assert_eq!(g["formats"], json!(["grid"]));
    assert_eq!(g["start"], "/v1/2048/start");
}

#[tokio::test]
async fn a_seeded_start_is_the_rules_new_game() {
    let app = spawn_app().await;
    let res = app.get("/v1/2048/start?seed=42").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some(IMMUTABLE));
    assert!(res.header("etag").is_some());
    let v = res.json();
    let pos = Position::new(42);
    assert_shows(&v, &pos, &app.base);
    assert_eq!(v["code"], SEED42, "the code of the module documentation");
    assert_eq!(
        v["board"],
        json!([[0, 0, 2, 0], [0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    );
    assert_eq!(v["seed"], "8709371129873690750", "0x78DDE6E5FD29F07E");
    assert_eq!(v["score"], 0);
    assert_eq!(
        v["status"],
        json!({"state": "ongoing", "winner": null, "reason": null})
    );
    assert_eq!(v["spawned"], Value::Null);
    assert_eq!(v["gained"], Value::Null);

    // Any seed, up to u64::MAX: two tiles, score 0, the rules' game.
    for seed in [0, 1, 7, 1 << 53, u64::MAX] {
        let v = app.get(&format!("/v1/2048/start?seed={seed}")).await.json();
        assert_shows(&v, &Position::new(seed), &app.base);
        let tiles = pos_tiles(&v);
        assert_eq!(tiles, 2, "seed {seed}: {v}");
        assert_eq!(v["score"], 0);
    }
    // The share URL reads back the same view.
    let read = app.get(&format!("/v1/2048/{SEED42}")).await;
    assert_eq!(read.body, res.body);
    assert_eq!(read.header("etag"), res.header("etag"));
}

fn pos_tiles(v: &Value) -> usize {
    v["board"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r.as_array().expect("row"))
        .filter(|c| *c != 0)
        .count()
}

#[tokio::test]
async fn a_start_without_seed_is_random_and_not_stored() {
    let app = spawn_app().await;
    let mut codes = Vec::new();
    for _ in 0..2 {
        // Even a client that claims to hold every version gets a new game.
        let res = app
            .request(
                Method::GET,
                "/v1/2048/start",
                &[("if-none-match", "*")],
                None,
            )
            .await;
        assert_eq!(res.status, 200);
        assert_eq!(res.header("cache-control"), Some("no-store"));
        assert!(res.header("etag").is_none(), "no ETag on a random start");
        let v = res.json();
        assert_eq!(pos_tiles(&v), 2, "{v}");
        assert_eq!(v["score"], 0);
        // The view is the seeded start of some seed: read it back.
        let seed: u64 = v["seed"].as_str().expect("seed").parse().expect("digits");
        let read = app.get(&format!("/v1/2048/{}", code_of(&v))).await;
        assert_eq!(read.status, 200);
        assert_eq!(read.json()["seed"], seed.to_string());
        codes.push(code_of(&v));
    }
    // Two draws of 64 bits agree with probability 2^-64.
    assert_ne!(codes[0], codes[1]);
}

#[tokio::test]
async fn playing_one_move_shows_its_spawn_and_gain() {
    let app = spawn_app().await;
    let res = play(&app, SEED42, &["left"]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some(IMMUTABLE));
    let v = res.json();
    let (next, Slide { spawn, gained }) = Position::new(42)
        .play_traced(Direction::Left)
        .expect("left is legal");
    assert_shows(&v, &next, &app.base);
    assert_eq!(
        v["spawned"],
        json!({"row": spawn.row, "column": spawn.col, "value": spawn.value})
    );
    assert_eq!(v["gained"], gained);
    // As the module documentation works it out.
    assert_eq!(
        v["board"],
        json!([[2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0]])
    );
    assert_eq!(v["spawned"], json!({"row": 3, "column": 2, "value": 4}));
    assert_eq!(v["gained"], 0);

    // Up merges the two 2s.
    let v = play(&app, SEED42, &["up"]).await.json();
    let (next, Slide { spawn, gained }) = Position::new(42).play_traced(Direction::Up).expect("up");
    assert_shows(&v, &next, &app.base);
    assert_eq!(gained, 4);
    assert_eq!(v["gained"], 4);
    assert_eq!(v["score"], 4);
    assert_eq!(v["spawned"]["value"], spawn.value);

    // Reading the code reached shows the state, but no step.
    let read = app.get(&format!("/v1/2048/{}", code_of(&v))).await.json();
    assert_shows(&read, &next, &app.base);
    assert_eq!(read["spawned"], Value::Null);
    assert_eq!(read["gained"], Value::Null);
}

/// A game of `n` moves from `seed`, each the first legal one in a rotating
/// order of preference; the moves and every position reached.
fn scripted_game(seed: u64, n: usize) -> (Vec<&'static str>, Vec<Position>) {
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Down,
    ];
    let mut pos = Position::new(seed);
    let mut moves = Vec::new();
    let mut seen = vec![pos];
    for i in 0..n {
        let legal = pos.legal_actions();
        let Some(&d) = (0..4)
            .map(|k| &order[(i + k) % 4])
            .find(|d| legal.contains(d))
            .or(legal.first())
        else {
            break;
        };
        pos = pos.play_traced(d).expect("legal").0;
        moves.push(d.as_str());
        seen.push(pos);
    }
    (moves, seen)
}

#[tokio::test]
async fn a_batch_ends_where_the_rules_do_and_equals_its_steps() {
    let app = spawn_app().await;
    let (moves, seen) = scripted_game(42, 60);
    assert_eq!(moves.len(), 60, "the scripted game lasts 60 moves");
    let res = play(&app, SEED42, &moves).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    let before = seen[seen.len() - 2];
    let last: Direction = moves[moves.len() - 1].parse().expect("direction");
    let (end, Slide { spawn, gained }) = before.play_traced(last).expect("legal");
    assert_eq!(end, seen[seen.len() - 1]);
    assert_shows(&v, &end, &app.base);
    assert!(v["score"].as_u64().expect("score") > 0, "{v}");
    assert_eq!(
        v["spawned"],
        json!({"row": spawn.row, "column": spawn.col, "value": spawn.value})
    );
    assert_eq!(v["gained"], gained);

    // Split anywhere, the second half played from the first half's code
    // gives the same body.
    for split in [1, 17, 59] {
        let first = play(&app, SEED42, &moves[..split]).await.json();
        assert_eq!(first["code"], seen[split].to_code().as_str());
        let second = play(&app, &code_of(&first), &moves[split..]).await;
        assert_eq!(second.body, res.body, "split at {split}");
    }
}

#[tokio::test]
async fn the_same_code_and_moves_replay_the_same_game() {
    let app = spawn_app().await;
    let (moves, _) = scripted_game(2024, 25);
    let a = play(&app, SEED42, &moves).await;
    let b = play(&app, SEED42, &moves).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body, b.body);
    assert_eq!(a.header("etag"), b.header("etag"));
    // And from a random start, read back by its code.
    let start = app.get("/v1/2048/start").await.json();
    let code = code_of(&start);
    let c = play(&app, &code, &["up", "left"]).await;
    let d = play(&app, &code, &["up", "left"]).await;
    assert_eq!(c.body, d.body);
}

#[tokio::test]
async fn a_move_that_changes_nothing_is_an_illegal_action() {
    let app = spawn_app().await;
    // A lone 2 in the top-left corner: up and left change nothing.
    let board = [[2, 0, 0, 0], [0; 4], [0; 4], [0; 4]];
    // A seed whose spawn after `right` leaves some move illegal (found with
    // the rules, so the batch below fails at index 1).
    let (seed, after) = (0..100u64)
        .find_map(|seed| {
            let next = grid(board, 0, seed)
                .expect("board")
                .play_traced(Direction::Right)
                .expect("right")
                .0;
            (next.legal_actions().len() < 4).then_some((seed, next))
        })
        .expect("some seed blocks a move");
    let v = import(
        &app,
        json!({"format": "grid", "board": board, "seed": seed}),
    )
    .await
    .json();
    assert_eq!(actions(&v["legal_actions"]), ["down", "right"]);
    let code = code_of(&v);
    for bad in ["up", "left"] {
        let p = play(&app, &code, &[bad])
            .await
            .problem(422, "illegal-action");
        assert_eq!(p["index"], 0);
        assert_eq!(p["action"], bad);
        assert_eq!(
            p["legal_actions"],
            json!([{"action": "down"}, {"action": "right"}])
        );
        assert!(
            p["detail"]
                .as_str()
                .expect("detail")
                .contains("changes nothing"),
            "{p}"
        );
    }
    let blocked = Direction::ALL
        .into_iter()
        .find(|d| !after.legal_actions().contains(d))
        .expect("a blocked move");
    let p = play(&app, &code, &["right", blocked.as_str()])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 1, "{p}");
    assert_eq!(p["action"], blocked.as_str());
    assert_eq!(actions(&p["legal_actions"]), names(&after.legal_actions()));
}

#[tokio::test]
async fn a_malformed_move_is_refused_with_its_index() {
    let app = spawn_app().await;
    let after = Position::new(42)
        .play_traced(Direction::Left)
        .expect("left")
        .0;
    for bad in ["sideways", "Left", "LEFT", "l", "", "h2e2", " up"] {
        let res = play(&app, SEED42, &["left", bad]).await;
        let p = res.problem(422, "malformed-action");
        assert_eq!(p["index"], 1, "{bad:?}: {p}");
        assert_eq!(p["action"], bad);
        assert_eq!(actions(&p["legal_actions"]), names(&after.legal_actions()));
    }
}

#[tokio::test]
async fn a_locked_board_is_over_and_refuses_every_move() {
    let app = spawn_app().await;
    let res = import(&app, json!({"format": "grid", "board": LOCKED, "seed": 1})).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    let pos = grid(LOCKED, 0, 1).expect("locked board");
    assert_shows(&v, &pos, &app.base);
    assert_eq!(
        v["status"],
        json!({"state": "over", "winner": null, "reason": "no-moves"})
    );
    assert_eq!(v["legal_actions"], json!([]));
    let code = code_of(&v);
    for d in ["up", "down", "left", "right"] {
        let p = play(&app, &code, &[d]).await.problem(409, "game-over");
        assert_eq!(p["index"], 0);
        assert_eq!(p["action"], d);
        assert_eq!(
            p["outcome"],
            json!({"state": "over", "winner": null, "reason": "no-moves"})
        );
        assert!(p.get("legal_actions").is_none(), "{p}");
    }
    // A malformed move on a finished game: the game being over comes first.
    let p = play(&app, &code, &["sideways"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["action"], "sideways");

    // A board one merge from locked: the merge is played, then it is over
    // unless the spawn opened a move.
    let almost = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]];
    let start = grid(almost, least_score(almost), 3).expect("board");
    let v = import(&app, json!({"format": "grid", "board": almost, "seed": 3}))
        .await
        .json();
    assert_eq!(v["code"], start.to_code().as_str());
    let (after, Slide { gained, .. }) = start.play_traced(Direction::Left).expect("left merges");
    assert_eq!(gained, 16);
    let res = play(&app, &code_of(&v), &["left", "up"]).await;
    if after.legal_actions().is_empty() {
        let p = res.problem(409, "game-over");
        assert_eq!(p["index"], 1);
        assert_eq!(p["outcome"]["state"], "over");
    } else {
        assert_ne!(res.status, 409);
    }
}

#[tokio::test]
async fn reaching_2048_wins_and_play_goes_on() {
    let app = spawn_app().await;
    let board = [[1024, 1024, 0, 0], [0; 4], [0; 4], [0; 4]];
    let v = import(&app, json!({"format": "grid", "board": board, "seed": 9}))
        .await
        .json();
    assert_eq!(v["won"], false);
    assert_eq!(v["max_tile"], 1024);
    assert_eq!(v["score"], 2 * 8 * 1024, "the least score of two 1024s");
    let res = play(&app, &code_of(&v), &["left"]).await;
    assert_eq!(res.status, 200);
    let w = res.json();
    assert_eq!(w["won"], true);
    assert_eq!(w["max_tile"], 2048);
    assert_eq!(w["board"][0][0], 2048);
    assert_eq!(w["gained"], 2048);
    assert_eq!(w["score"], 2 * 8 * 1024 + 2048);
    assert_eq!(w["status"]["state"], "ongoing");
    assert!(!w["legal_actions"].as_array().expect("legal").is_empty());
    let expected = grid(board, 16384, 9)
        .expect("board")
        .play_traced(Direction::Left)
        .expect("left")
        .0;
    assert_shows(&w, &expected, &app.base);
    // A won game still takes moves, and stays won.
    let next = actions(&w["legal_actions"]);
    let more = play(&app, &code_of(&w), &[next[0].as_str()]).await;
    assert_eq!(more.status, 200);
    assert_eq!(more.json()["won"], true);
}

#[tokio::test]
async fn grid_import_reads_board_score_and_seed() {
    let app = spawn_app().await;
    let board = [[8, 0, 0, 2], [0, 4, 0, 0], [0, 0, 16, 0], [0, 0, 0, 2]];
    // 8 → 8, 4 → 0, 16 → 32, 2 → 0 at the least; 16 + 4 + 48 at the most.
    assert_eq!(least_score(board), 40);

    // Without a score: the least these tiles can have.
    let v = import(&app, json!({"format": "grid", "board": board, "seed": 77}))
        .await
        .json();
    let least = grid(board, 40, 77).expect("board");
    assert_shows(&v, &least, &app.base);
    assert_eq!(v["spawned"], Value::Null, "nothing spawns on import");
    assert_eq!(v["gained"], Value::Null);
    // A null score is no score.
    let null = import(
        &app,
        json!({"format": "grid", "board": board, "score": null, "seed": 77}),
    )
    .await;
    assert_eq!(null.json()["code"], least.to_code().as_str());

    // With a score: that score, anywhere from the least to the most.
    for score in [40, 52, 68] {
        let v = import(
            &app,
            json!({"format": "grid", "board": board, "score": score, "seed": 77}),
        )
        .await
        .json();
        let pos = grid(board, score, 77).expect("fits");
        assert_shows(&v, &pos, &app.base);
        assert_eq!(v["score"], score);
    }

    // The seed as a number or as a string of digits, up to u64::MAX.
    for (n, s) in [(0u64, "0"), (77, "77"), (u64::MAX, "18446744073709551615")] {
        let as_string = import(&app, json!({"format": "grid", "board": board, "seed": s})).await;
        assert_eq!(as_string.status, 200, "{}", as_string.json());
        let v = as_string.json();
        assert_eq!(v["seed"], s);
        let pos = grid(board, 40, n).expect("board");
        assert_eq!(v["code"], pos.to_code().as_str());
        let as_number = import(&app, json!({"format": "grid", "board": board, "seed": n})).await;
        assert_eq!(as_number.body, as_string.body, "seed {n}");
    }

    // The imported seed drives the spawns: the game goes on as the rules say.
    let v = import(
        &app,
        json!({"format": "grid", "board": board, "seed": "77"}),
    )
    .await
    .json();
    let w = play(&app, &code_of(&v), &["up"]).await.json();
    let (next, Slide { spawn, gained }) = least.play_traced(Direction::Up).expect("up");
    assert_shows(&w, &next, &app.base);
    assert_eq!(w["spawned"]["row"], spawn.row);
    assert_eq!(w["spawned"]["column"], spawn.col);
    assert_eq!(w["gained"], gained);
}

#[tokio::test]
async fn export_writes_the_grid_and_imports_back_to_the_same_code() {
    let app = spawn_app().await;
    let (moves, seen) = scripted_game(42, 40);
    let end = seen[seen.len() - 1];
    let code = code_of(&play(&app, SEED42, &moves).await.json());
    assert_eq!(code, end.to_code());
    for path in [
        format!("/v1/2048/{code}/export"),
        format!("/v1/2048/{code}/export?format=grid"),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status, 200);
        assert_eq!(
            res.json(),
            json!({"game": "2048", "code": code, "format": "grid", "board": end.grid(),
                   "score": end.score(), "seed": end.rng_state().to_string()})
        );
    }
    // The export, less `game` and `code`, is an import body.
    let mut body = app.get(&format!("/v1/2048/{code}/export")).await.json();
    let obj = body.as_object_mut().expect("object");
    obj.remove("game");
    obj.remove("code");
    let back = import(&app, body.clone()).await;
    assert_eq!(back.status, 200, "{}", back.json());
    let back = back.json();
    assert_eq!(back["code"], code.as_str());
    // The share URL and the import give the same view.
    let read = app.get(&format!("/v1/2048/{code}")).await.json();
    assert_eq!(read, back);
    // And the game goes on identically from either.
    let next = actions(&read["legal_actions"]);
    let a = play(&app, &code, &[next[0].as_str()]).await;
    let b = play(&app, &code_of(&back), &[next[0].as_str()]).await;
    assert_eq!(a.body, b.body);

    // The export view can be posted back as it is (`game` and `code` are
    // not read).
    let full = app.get(&format!("/v1/2048/{code}/export")).await.json();
    let back = import(&app, full).await;
    assert_eq!(back.status, 200);
    assert_eq!(back.json()["code"], code.as_str());

    let p = app
        .get(&format!("/v1/2048/{code}/export?format=fen"))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["field"], "format");
    assert_eq!(p["supported"], json!(["grid"]));
}

#[tokio::test]
async fn every_import_error_names_its_field_and_reason() {
    let app = spawn_app().await;
    let ok = [[8, 0, 0, 0], [0; 4], [0; 4], [0; 4]];
    const EMPTY: [[u32; 4]; 4] = [[0; 4]; 4];

    // A cell that is not a tile, with its place and value.
    for (row, col, value) in [(1, 2, 3u32), (0, 0, 1), (3, 3, 262_144), (2, 1, 6)] {
        let mut board = ok;
        board[row][col] = value;
        let p = import(&app, json!({"format": "grid", "board": board, "seed": 1}))
            .await
            .problem(400, "invalid-import");
        assert_eq!(p["reason"], "invalid-tile", "{p}");
        assert_eq!(p["field"], "board");
        assert_eq!(p["row"], row);
        assert_eq!(p["column"], col);
        assert_eq!(p["value"], value);
    }

    let p = import(&app, json!({"format": "grid", "board": EMPTY, "seed": 1}))
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "no-tiles");
    assert_eq!(p["field"], "board");

    // A lone 8 scored 8 (two spawned 4s) to 16 (four 2s), in steps of 4.
    for score in [0, 4, 10, 20, 100] {
        let p = import(
            &app,
            json!({"format": "grid", "board": ok, "score": score, "seed": 1}),
        )
        .await
        .problem(400, "invalid-import");
        assert_eq!(p["reason"], "impossible-score", "{score}: {p}");
        assert_eq!(p["field"], "score");
        assert_eq!(p["min"], 8);
        assert_eq!(p["max"], 16);
    }

    // Fields missing, mistyped or unknown.
    let cases = [
        (json!({"format": "grid", "board": ok}), "seed"),
        (json!({"format": "grid", "board": ok, "seed": "x"}), "seed"),
        (json!({"format": "grid", "board": ok, "seed": ""}), "seed"),
        (json!({"format": "grid", "board": ok, "seed": -1}), "seed"),
        (json!({"format": "grid", "board": ok, "seed": 1.5}), "seed"),
        (json!({"format": "grid", "board": ok, "seed": null}), "seed"),
        (
            json!({"format": "grid", "board": ok, "seed": "18446744073709551616"}),
            "seed",
        ),
        (json!({"format": "grid", "seed": 1}), "board"),
        (
            json!({"format": "grid", "board": [[8, 0, 0, 0]], "seed": 1}),
            "board",
        ),
        (
            json!({"format": "grid", "board": [[8, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], "seed": 1}),
            "board",
        ),
        (
            json!({"format": "grid", "board": [[-2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], "seed": 1}),
            "board",
        ),
        (
            json!({"format": "grid", "board": ok, "score": "8", "seed": 1}),
            "score",
        ),
        (json!({"board": ok, "seed": 1}), "format"),
        (
            json!({"format": "grid", "board": ok, "seed": 1, "text": "x"}),
            "text",
        ),
        (
            json!({"format": "grid", "board": ok, "seed": 1, "variant": "standard"}),
            "variant",
        ),
    ];
    for (body, field) in cases {
        let p = import(&app, body.clone())
            .await
            .problem(400, "invalid-field");
        assert_eq!(p["field"], field, "{body}: {p}");
    }

    let p = import(&app, json!({"format": "fen", "board": ok, "seed": 1}))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["field"], "format");
    assert_eq!(p["supported"], json!(["grid"]));

    import(&app, json!([1, 2]))
        .await
        .problem(400, "malformed-body");
}

/// A code, the reason it is refused with, and members the problem carries.
type CodeCase = (String, &'static str, Vec<(&'static str, Value)>);

#[tokio::test]
async fn every_code_error_has_its_reason() {
    let app = spawn_app().await;
    let good = bytes_of(SEED42);
    assert_eq!(good.len(), 23);
    let with = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        code_from(&b)
    };
    let mut last_bits = SEED42.to_owned();
    last_bits.pop();
    last_bits.push('5');
    let cases: Vec<CodeCase> = vec![
        (
            SEED42[..30].to_owned(),
            "wrong-length",
            vec![("length", json!(30)), ("expected_length", json!(31))],
        ),
        (
            format!("{SEED42}A"),
            "wrong-length",
            vec![("length", json!(32)), ("expected_length", json!(31))],
        ),
        (
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM".to_owned(),
            "wrong-length",
            vec![("length", json!(43))],
        ),
        (
            format!("{}=", &SEED42[..30]),
            "padding",
            vec![("offset", json!(30))],
        ),
        (
            format!("{}.{}", &SEED42[..12], &SEED42[13..]),
            "invalid-character",
            vec![("offset", json!(12)), ("character", json!("."))],
        ),
        (last_bits, "trailing-bits", vec![("offset", json!(30))]),
        (
            with(&|b| b[0] = 2),
            "unknown-version",
            vec![("byte", json!(0))],
        ),
        (
            with(&|b| b[0] = 0),
            "unknown-version",
            vec![("byte", json!(0))],
        ),
        (
            with(&|b| set_cell(b, 1, 2, 18)),
            "tile-out-of-range",
            vec![("row", json!(1)), ("column", json!(2))],
        ),
        (
            with(&|b| set_cell(b, 3, 3, 31)),
            "tile-out-of-range",
            vec![("row", json!(3)), ("column", json!(3))],
        ),
        (with(&|b| b[1..11].fill(0)), "no-tiles", vec![]),
        (
            // Two 2s with a score of 4: two 2s never merged into anything.
            with(&|b| b[14] = 4),
            "impossible-score",
            vec![("min", json!(0)), ("max", json!(0))],
        ),
    ];
    for (code, reason, members) in &cases {
        for res in [
            app.get(&format!("/v1/2048/{code}")).await,
            play(&app, code, &["left"]).await,
            app.get(&format!("/v1/2048/{code}/export")).await,
        ] {
            let p = res.problem(400, "invalid-code");
            assert_eq!(p["reason"], *reason, "{code}: {p}");
            assert_eq!(p["field"], "code");
            for (key, value) in members {
                assert_eq!(p[*key], *value, "{code}: {p}");
            }
        }
    }
    // A hand-built code of a valid position reads as that position: a
    // third 2, at the bottom right.
    let three = with(&|b| set_cell(b, 3, 3, 1));
    let v = app.get(&format!("/v1/2048/{three}")).await.json();
    assert_eq!(v["code"], three.as_str());
    assert_eq!(v["board"][3][3], 2);
    assert_eq!(pos_tiles(&v), 3);
}

/// A request with an optional JSON body and `If-None-Match`.
async fn send(
    app: &TestApp,
    method: Method,
    path: String,
    body: Option<Value>,
    if_none_match: Option<String>,
) -> TestResponse {
    let mut headers = Vec::new();
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    if let Some(tag) = if_none_match.as_deref() {
        headers.push(("if-none-match", tag));
    }
    app.request(
        method,
        &path,
        &headers,
        body.map(|b| b.to_string().into_bytes()),
    )
    .await
}

#[tokio::test]
async fn seeded_answers_are_cached_with_a_strong_etag_and_304() {
    let app = spawn_app().await;
    let cases: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/v1/2048/start?seed=42".into(), None),
        (
            Method::GET,
            "/v1/2048/start?seed=42&variant=standard".into(),
            None,
        ),
        (Method::GET, format!("/v1/2048/{SEED42}"), None),
        (Method::GET, format!("/v1/2048/{SEED42}/export"), None),
        (
            Method::POST,
            format!("/v1/2048/{SEED42}/play"),
            Some(json!({"actions": ["left", "up"]})),
        ),
        (
            Method::POST,
            "/v1/2048/import".into(),
            Some(json!({"format": "grid", "board": LOCKED, "seed": "1"})),
        ),
    ];
    for (method, path, body) in cases {
        let send =
            |etag: Option<String>| send(&app, method.clone(), path.clone(), body.clone(), etag);
        let res = send(None).await;
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.header("cache-control"), Some(IMMUTABLE), "{path}");
        let etag = res.header("etag").expect("etag").to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "strong: {etag}"
        );
        let again = send(Some(etag.clone())).await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        let other = send(Some("\"0000\"".into())).await;
        assert_eq!(other.status, 200, "{path}");
        assert_eq!(other.body, res.body, "{path}");
    }
}

#[tokio::test]
async fn start_takes_the_standard_variant_and_no_size() {
    let app = spawn_app().await;
    let plain = app.get("/v1/2048/start?seed=42").await;
    let standard = app.get("/v1/2048/start?seed=42&variant=standard").await;
    assert_eq!(standard.status, 200);
    assert_eq!(standard.body, plain.body);

    for variant in ["big", "5x5", "Standard"] {
        let p = app
            .get(&format!("/v1/2048/start?seed=42&variant={variant}"))
            .await
            .problem(400, "unknown-variant");
        assert_eq!(p["field"], "variant");
        assert_eq!(p["supported"], json!(["standard"]));
    }
    // Without a seed too: the variant is checked before a game is drawn.
    app.get("/v1/2048/start?variant=big")
        .await
        .problem(400, "unknown-variant");

    for query in ["size=4", "seed=42&size=4", "size=0"] {
        let p = app
            .get(&format!("/v1/2048/start?{query}"))
            .await
            .problem(400, "invalid-query");
        assert_eq!(p["field"], "size", "{query}: {p}");
    }
    // Malformed values and unknown parameters: no `field`.
    for query in [
        "seed=abc",
        "seed=-1",
        "seed=18446744073709551616",
        "size=big",
        "colour=red",
    ] {
        let p = app
            .get(&format!("/v1/2048/start?{query}"))
            .await
            .problem(400, "invalid-query");
        assert!(p.get("field").is_none(), "{query}: {p}");
    }
    // Xiangqi refuses a size as it refuses a seed.
    let p = app
        .get("/v1/xiangqi/start?size=9")
        .await
        .problem(400, "invalid-query");
    assert_eq!(p["field"], "size");
}
