//! Gomoku through the stateless API: variants, wins, Renju forbidden points,
//! draws, rows import and export, code errors, caching.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use qipan_rules::gomoku::Position;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{actions, spawn_app, TestApp, TestResponse};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

async fn play(app: &TestApp, code: &str, moves: &[&str]) -> TestResponse {
    app.post_json(
        &format!("/v1/gomoku/{code}/play"),
        &json!({ "actions": moves }),
    )
    .await
}

async fn import(app: &TestApp, body: Value) -> TestResponse {
    app.post_json("/v1/gomoku/import", &body).await
}

async fn import_rows(app: &TestApp, variant: &str, text: &str) -> TestResponse {
    import(
        app,
        json!({"format": "rows", "variant": variant, "text": text}),
    )
    .await
}

fn code_of(v: &Value) -> String {
    v["code"].as_str().expect("code").to_owned()
}

fn code_from(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// `(col, row)` from 0 of a point such as `h8`.
fn coords(point: &str) -> (usize, usize) {
    let col = usize::from(point.as_bytes()[0] - b'a');
    let row: usize = point[1..].parse().expect("row");
    (col, row - 1)
}

/// The rows text of a `size`×`size` board with these stones.
fn rows(size: usize, black: &str, white: &str) -> String {
    let mut grid = vec![vec!['.'; size]; size];
    for (list, ch) in [(black, 'x'), (white, 'o')] {
        for p in list.split_whitespace() {
            let (col, row) = coords(p);
            grid[size - 1 - row][col] = ch;
        }
    }
    grid.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Interleaves black's and white's moves, black first.
fn alternate<'a>(black: &'a str, white: &'a str) -> Vec<&'a str> {
    let mut w = white.split_whitespace();
    let mut out = Vec::new();
    for b in black.split_whitespace() {
        out.push(b);
        out.extend(w.next());
    }
    out.extend(w);
    out
}

/// A 15×15 grid code (header `0x08`, or `0x18` with a last move) of the
/// given cells: `(point number, digit)`, 1 black, 2 white.
fn grid_code(variant_bits: u8, cells: &[(usize, u8)], last: Option<u8>) -> String {
    let mut digits = [0u8; 225];
    for &(i, d) in cells {
        digits[i] = d;
    }
    let header = variant_bits | if last.is_some() { 0x18 } else { 0x08 };
    let mut bytes = vec![header];
    for chunk in digits.chunks(5) {
        bytes.push(chunk.iter().rev().fold(0, |a, &d| a * 3 + d));
    }
    bytes.extend(last);
    code_from(&bytes)
}

/// The point number of `h8` on 15×15.
fn index15(point: &str) -> usize {
    let (col, row) = coords(point);
    row * 15 + col
}

/// Rows (top row 15 first) with black on h9, g8, i8, h7 and white on a1, c1,
/// e1, g1: black to move, and h8 would make two open threes at once.
fn double_three_rows() -> String {
    rows(15, "h9 g8 i8 h7", "a1 c1 e1 g1")
}

/// A full 15×15 board with no five (the rules crate's draw case): colour
/// by ⌊(col + 2·row) / 2⌋ mod 2, row 0 at the bottom; 113 black, 112 white.
fn full_board() -> Vec<String> {
    (0..15)
        .rev()
        .map(|r| {
            (0..15)
                .map(|c| if (c + 2 * r) / 2 % 2 == 0 { 'x' } else { 'o' })
                .collect()
        })
        .collect()
}

/// 224 stones, black to move in Renju, and the one empty point e8 is an
/// overline (from the rules crate's tests).
const NO_MOVES: &str = "\
oxoooxoooxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
oxxx.xxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo
ooxxooxxooxxoox
xxooxxooxxooxxo";

/// Checks what every gomoku view owes its own fields.
#[track_caller]
fn assert_consistent(v: &Value, base: &str) {
    let size = v["size"].as_u64().expect("size") as usize;
    let code = code_of(v);
    assert_eq!(v["game"], "gomoku");
    assert_eq!(v["url"], format!("{base}/v1/gomoku/{code}"));
    assert_eq!(v["check"], false);
    let board = v["board"].as_array().expect("board");
    assert_eq!(board.len(), size);
    let mut black = 0;
    let mut white = 0;
    for row in board {
        let row = row.as_array().expect("row");
        assert_eq!(row.len(), size);
        black += row.iter().filter(|c| *c == "black").count();
        white += row.iter().filter(|c| *c == "white").count();
    }
    let to_move = if black == white { "black" } else { "white" };
    assert_eq!(v["to_move"], to_move, "{v}");
    let legal = actions(&v["legal_actions"]);
    let forbidden = v["forbidden"].as_array().expect("forbidden").len();
    if v["status"]["state"] == "ongoing" {
        assert_eq!(legal.len() + forbidden, size * size - black - white, "{v}");
    } else {
        assert!(legal.is_empty(), "{v}");
    }
    // The code is the rules' canonical code of the same position.
    let pos = Position::from_code(&code).expect("the view's code reads");
    assert_eq!(pos.to_code(), code);
    assert_eq!(usize::from(pos.size()), size);
}

#[tokio::test]
async fn games_lists_gomoku_with_its_syntax() {
    let app = spawn_app().await;
    let body = app.get("/v1/games").await.json();
    let names: Vec<&Value> = body["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| &g["game"])
        .collect();
    assert_eq!(
        names,
        [
            &json!("xiangqi"),
            &json!("gomoku"),
            &json!("2048"),
            &json!("quoridor"),
            &json!("tetris")
        ]
    );
    assert_eq!(
        body["games"][1],
        json!({
            "game": "gomoku",
            "title": "Gomoku (five in a row), free-style, standard and Renju",
            "players": ["black", "white"],
            "variants": ["freestyle", "standard", "renju"],
            "action_syntax": {
                "notation": "point",
                "pattern": "^[a-s]([1-9]|1[0-9])$",
                "examples": ["h8", "j10"],
                "description": "the point to play: column a–o (a–s on 19×19) from the left, \
                                row 1–15 (1–19) from the bottom"
            },
            "formats": ["rows"],
            "start": "/v1/gomoku/start"
        })
    );
}

#[tokio::test]
async fn each_variant_starts_on_its_board() {
    let app = spawn_app().await;
    for (query, code, variant, size) in [
        ("", "AA", "freestyle", 15),
        ("?variant=freestyle", "AA", "freestyle", 15),
        ("?size=15", "AA", "freestyle", 15),
        ("?variant=standard", "AQ", "standard", 15),
        ("?variant=renju", "Ag", "renju", 15),
        ("?variant=renju&size=15", "Ag", "renju", 15),
        ("?variant=freestyle&size=19", "BA", "freestyle", 19),
        ("?size=19", "BA", "freestyle", 19),
    ] {
        let res = app.get(&format!("/v1/gomoku/start{query}")).await;
        assert_eq!(res.status, 200, "{query}");
        assert_eq!(res.header("cache-control"), Some(IMMUTABLE));
        let v = res.json();
        assert_consistent(&v, &app.base);
        assert_eq!(v["code"], code, "{query}");
        assert_eq!(v["variant"], variant);
        assert_eq!(v["size"], size);
        assert_eq!(v["to_move"], "black");
        assert_eq!(
            v["status"],
            json!({"state": "ongoing", "winner": null, "reason": null})
        );
        assert_eq!(v["board"].as_array().map(Vec::len), Some(size));
        let legal = actions(&v["legal_actions"]);
        assert_eq!(legal.len(), size * size);
        assert_eq!(legal[0], "a1", "board order, row 1 first");
        assert_eq!(legal[1], "b1");
        assert_eq!(legal[size], "a2");
        assert_eq!(v["forbidden"], json!([]));
        assert_eq!(v["last_move"], json!(null));
        assert_eq!(v["winning_line"], json!(null));
        assert_eq!(v["moves"], json!([]));
        // The share URL reads back the same view.
        let read = app.get(&format!("/v1/gomoku/{code}")).await;
        assert_eq!(read.body, res.body);
    }
    for query in [
        "variant=renju&size=19",
        "variant=standard&size=19",
        "size=13",
        "size=0",
    ] {
        let p = app
            .get(&format!("/v1/gomoku/start?{query}"))
            .await
            .problem(400, "invalid-query");
        assert_eq!(p["field"], "size", "{query}");
    }
    for variant in ["caro", "Renju", "gomoku"] {
        let p = app
            .get(&format!("/v1/gomoku/start?variant={variant}"))
            .await
            .problem(400, "unknown-variant");
        assert_eq!(p["field"], "variant");
        assert_eq!(p["supported"], json!(["freestyle", "standard", "renju"]));
    }
    let p = app
        .get("/v1/gomoku/start?seed=1")
        .await
        .problem(400, "invalid-query");
    assert_eq!(p["field"], "seed");
}

#[tokio::test]
async fn five_in_a_row_wins_and_names_the_line() {
    let app = spawn_app().await;
    let moves = ["h8", "a1", "i9", "a2", "j10", "a3", "k11", "a4", "l12"];
    let res = play(&app, "AA", &moves).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some(IMMUTABLE));
    let v = res.json();
    assert_consistent(&v, &app.base);
    assert_eq!(
        v["status"],
        json!({"state": "won", "winner": "black", "reason": "five-in-a-row"})
    );
    assert_eq!(v["winning_line"], json!(["h8", "i9", "j10", "k11", "l12"]));
    assert_eq!(v["last_move"], "l12");
    assert_eq!(v["legal_actions"], json!([]));
    assert_eq!(v["moves"], json!(moves));
    assert_eq!(v["to_move"], "white");
    // The code is the move list: header 0, one byte a point number.
    let bytes: Vec<u8> = std::iter::once(0)
        .chain(moves.iter().map(|m| index15(m) as u8))
        .collect();
    assert_eq!(v["code"], code_from(&bytes));
    // The board: row 12 is line 3 (top first), column l is 11.
    assert_eq!(v["board"][3][11], "black");
    assert_eq!(v["board"][14][0], "white");
    assert_eq!(v["board"][7][7], "black");
    assert_eq!(v["board"][7][8], json!(null));
    let p = play(&app, &code_of(&v), &["b1"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["index"], 0);
    assert_eq!(p["action"], "b1");
    assert_eq!(
        p["outcome"],
        json!({"state": "won", "winner": "black", "reason": "five-in-a-row"})
    );
    // One batch or one move at a time: the same answer.
    let mut code = "AA".to_owned();
    for m in moves {
        code = code_of(&play(&app, &code, &[m]).await.json());
    }
    assert_eq!(code, code_of(&v));
    let read = app.get(&format!("/v1/gomoku/{code}")).await.json();
    assert_eq!(read, v);

    // The view documented in openapi.yaml is this one.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml");
    let doc: Value =
        serde_yaml::from_str(&std::fs::read_to_string(path).expect("spec")).expect("yaml");
    let mut example = doc["components"]["responses"]["StateView"]["content"]["application/json"]
        ["examples"]["gomoku"]["value"]
        .clone();
    example["url"] = json!(format!("{}/v1/gomoku/{code}", app.base));
    example["page"] = json!(format!("{}/p/gomoku/{code}", app.base));
    assert_eq!(example, v);
}

#[tokio::test]
async fn white_wins_in_every_direction_too() {
    let app = spawn_app().await;
    for (black, white, line) in [
        ("a1 a3 a5 a7 a9", "o1 o2 o3 o4 o5", "o1 o2 o3 o4 o5"),
        (
            "c1 e1 g1 i1 k1",
            "a15 b15 c15 d15 e15",
            "a15 b15 c15 d15 e15",
        ),
        ("a1 c1 e1 g1 i1", "e11 f10 g9 h8 i7", "e11 f10 g9 h8 i7"),
    ] {
        let v = play(&app, "AA", &alternate(black, white)).await.json();
        assert_consistent(&v, &app.base);
        assert_eq!(v["status"]["winner"], "white", "{v}");
        let line: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(v["winning_line"], json!(line));
    }
}

#[tokio::test]
async fn freestyle_19_plays_and_wins_at_the_far_edge() {
    let app = spawn_app().await;
    let moves = alternate("s15 s16 s17 s18 s19", "r15 r16 r17 r18");
    let v = play(&app, "BA", &moves).await.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["size"], 19);
    assert_eq!(v["status"]["winner"], "black");
    assert_eq!(
        v["winning_line"],
        json!(["s15", "s16", "s17", "s18", "s19"])
    );
    assert_eq!(v["last_move"], "s19");
    // s19 is the top right corner: line 0, column 18.
    assert_eq!(v["board"][0][18], "black");
    assert_eq!(v["board"][1][17], "white");
    assert_eq!(v["board"][4][18], "black");
    assert_eq!(v["moves"], json!(moves));
    // Nine bits a move: 1 + ⌈81/8⌉ = 12 bytes, 16 characters.
    assert_eq!(code_of(&v).len(), 16);

    // Before the last move, s19 is legal and the last of the list.
    let before = play(&app, "BA", &moves[..8]).await.json();
    let legal = actions(&before["legal_actions"]);
    assert_eq!(legal.len(), 361 - 8);
    assert_eq!(legal.last().map(String::as_str), Some("s19"));
    // The corners of the big board, which 15×15 does not have.
    let v = play(&app, "BA", &["s19", "a19", "s1", "a1"]).await.json();
    assert_eq!(v["board"][0][18], "black");
    assert_eq!(v["board"][0][0], "white");
    assert_eq!(v["board"][18][18], "black");
    assert_eq!(v["board"][18][0], "white");
    let p = play(&app, "AA", &["s19"])
        .await
        .problem(422, "illegal-action");
    assert!(p["detail"].as_str().expect("detail").contains("off"), "{p}");
    let p = play(&app, "BA", &["t1"])
        .await
        .problem(422, "malformed-action");
    assert_eq!(actions(&p["legal_actions"]).len(), 361);
    play(&app, "BA", &["s20"])
        .await
        .problem(422, "malformed-action");
}

#[tokio::test]
async fn an_overline_wins_only_in_freestyle() {
    let app = spawn_app().await;
    // Black: a8 b8 c8 e8 f8, then d8 joins six; white plays far away.
    let moves = [
        "a8", "a1", "b8", "c1", "c8", "e1", "e8", "g1", "f8", "i1", "d8",
    ];
    let free = play(&app, "AA", &moves).await.json();
    assert_eq!(free["status"]["state"], "won");
    assert_eq!(
        free["winning_line"],
        json!(["a8", "b8", "c8", "d8", "e8", "f8"])
    );
    let standard = play(&app, "AQ", &moves).await.json();
    assert_consistent(&standard, &app.base);
    assert_eq!(
        standard["status"]["state"], "ongoing",
        "an overline does not win in standard"
    );
    assert_eq!(standard["winning_line"], json!(null));
    assert_eq!(standard["forbidden"], json!([]));
    let p = play(&app, "Ag", &moves)
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 10);
    assert_eq!(p["action"], "d8");
    assert!(
        p["detail"].as_str().expect("detail").contains("overline"),
        "{p}"
    );
    assert!(!actions(&p["legal_actions"]).contains(&"d8".to_owned()));
    // The Renju view before d8 lists it as forbidden.
    let before = play(&app, "Ag", &moves[..10]).await.json();
    assert_eq!(
        before["forbidden"],
        json!([{"point": "d8", "reason": "overline"}])
    );
}

#[tokio::test]
async fn standard_wins_with_exactly_five() {
    let app = spawn_app().await;
    let moves = alternate("h8 h9 h10 h11 h12", "a1 a2 a3 a4");
    let v = play(&app, "AQ", &moves).await.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["variant"], "standard");
    assert_eq!(
        v["status"],
        json!({"state": "won", "winner": "black", "reason": "five-in-a-row"})
    );
    assert_eq!(v["winning_line"], json!(["h8", "h9", "h10", "h11", "h12"]));
    // White's exactly five wins too.
    let text = rows(15, "a1 c1 e1 g1 i1", "b8 c8 d8 e8");
    let v = import_rows(&app, "standard", &text).await.json();
    assert_eq!(v["to_move"], "white");
    let w = play(&app, &code_of(&v), &["f8"]).await.json();
    assert_eq!(w["status"]["winner"], "white");
    assert_eq!(w["winning_line"], json!(["b8", "c8", "d8", "e8", "f8"]));
    // White's six does not.
    let text = rows(15, "a1 c1 e1 g1 i1 k1", "b8 c8 d8 e8 g8");
    let v = import_rows(&app, "standard", &text).await.json();
    let w = play(&app, &code_of(&v), &["f8"]).await.json();
    assert_eq!(w["status"]["state"], "ongoing");
}

#[tokio::test]
async fn white_wins_with_an_overline_in_renju() {
    let app = spawn_app().await;
    let text = rows(15, "a1 c1 e1 g1 i1 k1", "b8 c8 d8 e8 g8");
    let v = import_rows(&app, "renju", &text).await.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["forbidden"], json!([]), "white has no forbidden points");
    assert!(actions(&v["legal_actions"]).contains(&"f8".to_owned()));
    let w = play(&app, &code_of(&v), &["f8"]).await.json();
    assert_consistent(&w, &app.base);
    assert_eq!(
        w["status"],
        json!({"state": "won", "winner": "white", "reason": "five-in-a-row"})
    );
    assert_eq!(
        w["winning_line"],
        json!(["b8", "c8", "d8", "e8", "f8", "g8"])
    );
    assert_eq!(w["last_move"], "f8");
    // The order was not known, so the code is the grid with the last move.
    assert_eq!(code_of(&w).len(), 63);
    assert_eq!(w["moves"], json!(null));
    // Black's six on the same board: forbidden, not a win.
    let text = rows(15, "b8 c8 d8 e8 g8", "a1 c1 e1 g1 i1");
    let v = import_rows(&app, "renju", &text).await.json();
    assert_eq!(
        v["forbidden"],
        json!([{"point": "f8", "reason": "overline"}])
    );
}

#[tokio::test]
async fn renju_lists_and_refuses_blacks_forbidden_points() {
    let app = spawn_app().await;
    let res = import_rows(&app, "renju", &double_three_rows()).await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["to_move"], "black");
    let forbidden = v["forbidden"].as_array().expect("forbidden");
    assert!(
        forbidden.contains(&json!({"point": "h8", "reason": "double-three"})),
        "{forbidden:?}"
    );
    assert!(!actions(&v["legal_actions"]).contains(&"h8".to_owned()));
    let code = code_of(&v);
    let p = play(&app, &code, &["h8"])
        .await
        .problem(422, "illegal-action");
    assert!(
        p["detail"]
            .as_str()
            .expect("detail")
            .contains("double-three"),
        "{p}"
    );
    assert_eq!(p["legal_actions"], v["legal_actions"]);
    // Forbidden points apply to black only: after a black move elsewhere,
    // white may take h8.
    let w = play(&app, &code, &["o15"]).await.json();
    assert_eq!(w["to_move"], "white");
    assert_eq!(w["forbidden"], json!([]));
    assert_eq!(play(&app, &code_of(&w), &["h8"]).await.status, 200);
    // The same board in free-style: nothing is forbidden, and h8 is fine.
    let free = import_rows(&app, "freestyle", &double_three_rows())
        .await
        .json();
    assert_eq!(free["forbidden"], json!([]));
    assert_eq!(play(&app, &code_of(&free), &["h8"]).await.status, 200);
}

/// One case of the rules crate's Renju data file.
struct DataCase {
    id: String,
    rows: String,
    forbidden: Vec<(String, String)>,
    /// What a non-recursive three test would list instead.
    shallow: Vec<(String, String)>,
}

fn pairs(text: &str) -> Vec<(String, String)> {
    text.split_whitespace()
        .filter(|w| *w != "none")
        .map(|w| {
            let (p, r) = w.split_once(':').expect("point:reason");
            (p.to_owned(), r.to_owned())
        })
        .collect()
}

fn recursive_cases() -> Vec<DataCase> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/rules/tests/data/gomoku/renju-forbidden.txt"
    );
    let text = std::fs::read_to_string(path).expect("the data file");
    let mut out = Vec::new();
    for block in text.split("\nid ").skip(1) {
        let mut lines = block.lines();
        let id = lines.next().expect("id").trim().to_owned();
        let mut shallow = Vec::new();
        let mut rows = Vec::new();
        let mut forbidden = Vec::new();
        for line in lines {
            if let Some(rest) = line.split_once("would say:") {
                shallow = pairs(rest.1);
            } else if let Some(rest) = line.strip_prefix("forbidden ") {
                forbidden = pairs(rest);
            } else if line.len() == 15 && line.chars().all(|c| ".xo".contains(c)) {
                rows.push(line);
            }
        }
        if id.starts_with("recursive-") {
            assert_eq!(rows.len(), 15, "{id}");
            out.push(DataCase {
                id,
                rows: rows.join("\n"),
                forbidden,
                shallow,
            });
        }
    }
    out
}

#[tokio::test]
async fn renju_three_test_is_recursive() {
    let app = spawn_app().await;
    let cases = recursive_cases();
    assert!(cases.len() >= 5, "the data file has recursive cases");
    for case in &cases {
        let v = import_rows(&app, "renju", &case.rows).await.json();
        assert_consistent(&v, &app.base);
        let expected: Vec<Value> = case
            .forbidden
            .iter()
            .map(|(p, r)| json!({"point": p, "reason": r}))
            .collect();
        assert_eq!(v["forbidden"], json!(expected), "{}", case.id);
        // What only a shallow three test forbids stays legal.
        let legal = actions(&v["legal_actions"]);
        for (p, _) in &case.shallow {
            let listed = case.forbidden.iter().any(|(q, _)| q == p);
            assert_eq!(!legal.contains(p), listed, "{}: {p}", case.id);
        }
    }
    // recursive-01 spelled out: i4 is a double-three, n4 (a shallow
    // checker's second answer) is not.
    let first = cases
        .iter()
        .find(|c| c.id == "recursive-01")
        .expect("recursive-01");
    let v = import_rows(&app, "renju", &first.rows).await.json();
    assert_eq!(
        v["forbidden"],
        json!([{"point": "i4", "reason": "double-three"}])
    );
    let code = code_of(&v);
    play(&app, &code, &["i4"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(play(&app, &code, &["n4"]).await.status, 200);
}

#[tokio::test]
async fn a_full_board_without_five_is_a_draw() {
    let app = spawn_app().await;
    let text = full_board().join("\n");
    assert_eq!(text.matches('x').count(), 113);
    assert_eq!(text.matches('o').count(), 112);
    for variant in ["freestyle", "standard", "renju"] {
        let res = import_rows(&app, variant, &text).await;
        assert_eq!(res.status, 200, "{variant}: {}", res.json());
        let v = res.json();
        assert_consistent(&v, &app.base);
        assert_eq!(
            v["status"],
            json!({"state": "drawn", "winner": null, "reason": "board-full"}),
            "{variant}"
        );
        assert_eq!(v["legal_actions"], json!([]));
        assert_eq!(v["forbidden"], json!([]));
        assert_eq!(v["winning_line"], json!(null));
        assert_eq!(v["last_move"], json!(null));
        assert_eq!(v["to_move"], "white");
        let p = play(&app, &code_of(&v), &["a1"])
            .await
            .problem(409, "game-over");
        assert_eq!(
            p["outcome"],
            json!({"state": "drawn", "winner": null, "reason": "board-full"})
        );
    }
    // Filling the last point: h8 emptied, black plays it.
    let mut lines = full_board();
    assert_eq!(&lines[7][7..8], "x");
    lines[7].replace_range(7..8, ".");
    let v = import_rows(&app, "freestyle", &lines.join("\n"))
        .await
        .json();
    assert_eq!(actions(&v["legal_actions"]), ["h8"]);
    let w = play(&app, &code_of(&v), &["h8"]).await.json();
    assert_consistent(&w, &app.base);
    assert_eq!(w["status"]["reason"], "board-full");
    assert_eq!(w["last_move"], "h8");
    assert_eq!(code_of(&w).len(), 63, "grid and last move");
}

#[tokio::test]
async fn renju_black_without_a_legal_move_is_drawn() {
    let app = spawn_app().await;
    let v = import_rows(&app, "renju", NO_MOVES).await.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["status"],
        json!({"state": "drawn", "winner": null, "reason": "no-moves"})
    );
    assert_eq!(
        v["forbidden"],
        json!([{"point": "e8", "reason": "overline"}])
    );
    assert_eq!(v["legal_actions"], json!([]));
    let p = play(&app, &code_of(&v), &["e8"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["outcome"]["reason"], "no-moves");
    // In free-style the same point wins.
    let free = import_rows(&app, "freestyle", NO_MOVES).await.json();
    assert_eq!(free["status"]["state"], "ongoing");
    let w = play(&app, &code_of(&free), &["e8"]).await.json();
    assert_eq!(
        w["winning_line"],
        json!(["b8", "c8", "d8", "e8", "f8", "g8", "h8"])
    );
}

#[tokio::test]
async fn rows_round_trip_and_moves_are_exported_when_known() {
    let app = spawn_app().await;
    let played = play(&app, "Ag", &["h8", "h9", "i9"]).await.json();
    let code = code_of(&played);
    assert_eq!(code, code_from(&[0x02, 112, 127, 128]));
    let export = app.get(&format!("/v1/gomoku/{code}/export")).await;
    assert_eq!(export.status, 200);
    assert_eq!(export.header("cache-control"), Some(IMMUTABLE));
    let export = export.json();
    let text = rows(15, "h8 i9", "h9");
    assert_eq!(
        export,
        json!({"game": "gomoku", "code": code, "format": "rows", "variant": "renju",
               "text": text, "moves": "h8 h9 i9"})
    );
    let explicit = app
        .get(&format!("/v1/gomoku/{code}/export?format=rows"))
        .await
        .json();
    assert_eq!(explicit, export);
    let imported = import_rows(&app, "renju", &text).await.json();
    assert_consistent(&imported, &app.base);
    assert_eq!(imported["board"], played["board"]);
    assert_eq!(imported["to_move"], "white");
    assert_eq!(imported["variant"], "renju");
    // Rows do not carry the order of three stones.
    assert_eq!(imported["moves"], json!(null));
    assert_eq!(imported["last_move"], json!(null));
    assert_eq!(code_of(&imported).len(), 62, "the grid alone");
    let again = app
        .get(&format!("/v1/gomoku/{}/export", code_of(&imported)))
        .await
        .json();
    assert_eq!(again["text"], export["text"]);
    assert_eq!(again["moves"], json!(null));
    // The game goes on alike from either code.
    let a = play(&app, &code, &["j10"]).await.json();
    let b = play(&app, &code_of(&imported), &["j10"]).await.json();
    assert_eq!(a["board"], b["board"]);
    assert_eq!(a["forbidden"], b["forbidden"]);

    // Two stones or fewer: the order follows from the colours.
    let v = import_rows(&app, "freestyle", &rows(15, "h8", "h9"))
        .await
        .json();
    assert_eq!(v["code"], "AHB_");
    assert_eq!(v["moves"], json!(["h8", "h9"]));
    assert_eq!(v["last_move"], "h9");
    let v = import(&app, json!({"format": "rows", "text": rows(15, "", "")}))
        .await
        .json();
    assert_eq!(v["code"], "AA", "variant defaults to freestyle");
    let v = import(
        &app,
        json!({"format": "rows", "variant": null, "text": format!("{}\n", rows(15, "", ""))}),
    )
    .await
    .json();
    assert_eq!(v["code"], "AA", "null variant, one final newline");
    let empty = app.get("/v1/gomoku/BA/export").await.json();
    assert_eq!(empty["moves"], "");
    assert_eq!(empty["text"], rows(19, "", ""));

    let p = app
        .get(&format!("/v1/gomoku/{code}/export?format=fen"))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["field"], "format");
    assert_eq!(p["supported"], json!(["rows"]));
}

/// A position played past 46 moves: the code is the grid with the last
/// move, and the export carries no moves.
#[tokio::test]
async fn long_games_keep_only_the_last_move() {
    let app = spawn_app().await;
    // 48 moves filling rows 1–4 in pairs that make no five.
    let mut moves = Vec::new();
    for row in 1..=4 {
        for col in 0..12u8 {
            moves.push(format!("{}{row}", char::from(b'a' + col)));
        }
    }
    // Colours alternate along each row; a column holds four of one colour.
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let res = play(&app, "AA", &moves).await;
    assert_eq!(res.status, 200, "{}", res.json());
    let v = res.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["moves"], json!(null));
    assert_eq!(v["last_move"], "l4");
    let code = code_of(&v);
    assert_eq!(code.len(), 63);
    let export = app.get(&format!("/v1/gomoku/{code}/export")).await.json();
    assert_eq!(export["moves"], json!(null));
    let mut body = export.clone();
    body.as_object_mut().expect("object").remove("moves");
    let back = import(&app, body).await.json();
    // Rows drop the last move, so the grid alone.
    assert_eq!(back["board"], v["board"]);
    assert_eq!(code_of(&back).len(), 62);
    assert_eq!(back["last_move"], json!(null));

    // On 19×19 the order is kept up to 66 moves: 68 make the longest code,
    // 102 characters (the grid and a two-byte last move).
    let mut moves = Vec::new();
    for row in 1..=4 {
        for col in 0..17u8 {
            moves.push(format!("{}{row}", char::from(b'a' + col)));
        }
    }
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let at_66 = play(&app, "BA", &moves[..66]).await.json();
    assert_eq!(at_66["moves"].as_array().map(Vec::len), Some(66));
    assert_eq!(code_of(&at_66).len(), 102, "1 + ⌈9·66/8⌉ = 76 bytes");
    let v = play(&app, &code_of(&at_66), &moves[66..]).await.json();
    assert_consistent(&v, &app.base);
    assert_eq!(v["moves"], json!(null));
    assert_eq!(v["last_move"], "q4");
    assert_eq!(code_of(&v).len(), 102);
    assert_eq!(
        app.get(&format!("/v1/gomoku/{}", code_of(&v))).await.json(),
        v
    );
}

#[tokio::test]
async fn an_export_view_imports_back_without_its_moves() {
    let app = spawn_app().await;
    for (start, moves) in [
        ("Ag", vec!["h8", "h9", "i9"]),
        ("AQ", vec!["h8"]),
        ("BA", vec!["s19", "a1", "j10"]),
    ] {
        let played = play(&app, start, &moves).await.json();
        let code = code_of(&played);
        let mut body = app.get(&format!("/v1/gomoku/{code}/export")).await.json();
        // `game` and `code` may stay; `moves` is not an import member.
        body.as_object_mut().expect("object").remove("moves");
        let back = import(&app, body).await;
        assert_eq!(back.status, 200, "{}", back.json());
        let back = back.json();
        assert_eq!(back["board"], played["board"]);
        assert_eq!(back["variant"], played["variant"]);
        assert_eq!(back["size"], played["size"]);
        // A board read from rows keeps its order only up to two stones.
        if moves.len() <= 2 {
            assert_eq!(back["code"], code.as_str());
        }
        // And a grid code exports and imports back to itself.
        let grid = code_of(&back);
        let mut body = app.get(&format!("/v1/gomoku/{grid}/export")).await.json();
        body.as_object_mut().expect("object").remove("moves");
        assert_eq!(import(&app, body).await.json()["code"], grid.as_str());
    }
}

/// An export view can be posted back as it is (`game` and `code` are not
/// read; `moves` is replayed, so the import keeps the order and the code).
#[tokio::test]
async fn an_export_view_posted_back_as_it_is_imports() {
    let app = spawn_app().await;
    for code in ["AHB_", "AA", "BA"] {
        let export = app.get(&format!("/v1/gomoku/{code}/export")).await.json();
        let back = import(&app, export).await;
        assert_eq!(back.status, 200, "{}", back.json());
        assert_eq!(back.json()["code"], code);
    }
}

#[tokio::test]
async fn moves_that_do_not_give_the_rows_are_refused() {
    let app = spawn_app().await;
    let mut export = app.get("/v1/gomoku/AHB_/export").await.json();
    export["moves"] = json!("h8 h10");
    let p = import(&app, export.clone())
        .await
        .problem(400, "invalid-import");
    assert_eq!(p["reason"], "moves-differ");
    export["moves"] = json!("h8 h8");
    let p = import(&app, export).await.problem(400, "invalid-import");
    assert_eq!(p["reason"], "illegal-move");
    assert_eq!(p["index"], 1);
}

/// A variant, a rows text, the reason it is refused with, and members the
/// problem carries.
type RowsCase = (
    &'static str,
    String,
    &'static str,
    Vec<(&'static str, Value)>,
);

#[tokio::test]
async fn bad_rows_are_refused_precisely() {
    let app = spawn_app().await;
    let empty = rows(15, "", "");
    let lines: Vec<String> = empty.lines().map(str::to_owned).collect();
    let with_line = |i: usize, line: &str| {
        let mut l = lines.clone();
        l[i] = line.to_owned();
        l.join("\n")
    };
    // (variant, text, reason, members)
    let cases: Vec<RowsCase> = vec![
        ("freestyle", "...\n...".into(), "row-count", vec![]),
        ("freestyle", String::new(), "row-count", vec![]),
        ("renju", lines[..14].join("\n"), "row-count", vec![]),
        ("freestyle", format!("{empty}\n\n"), "row-count", vec![]),
        ("renju", rows(19, "", ""), "unsupported-size", vec![]),
        ("standard", rows(19, "", ""), "unsupported-size", vec![]),
        (
            "freestyle",
            with_line(2, "................"),
            "row-length",
            vec![("row", json!(2))],
        ),
        (
            "freestyle",
            with_line(14, ".............."),
            "row-length",
            vec![("row", json!(14))],
        ),
        (
            "freestyle",
            empty.replace('\n', "\r\n"),
            "row-length",
            vec![("row", json!(0))],
        ),
        (
            "freestyle",
            with_line(3, "......?........"),
            "invalid-character",
            vec![
                ("row", json!(3)),
                ("column", json!(6)),
                ("character", json!("?")),
            ],
        ),
        (
            "renju",
            with_line(7, ".......X......."),
            "invalid-character",
            vec![
                ("row", json!(7)),
                ("column", json!(7)),
                ("character", json!("X")),
            ],
        ),
        (
            "freestyle",
            rows(19, "", "").replacen('.', "·", 1),
            "invalid-character",
            vec![
                ("row", json!(0)),
                ("column", json!(0)),
                ("character", json!("·")),
            ],
        ),
        (
            "freestyle",
            rows(15, "", "a15 b15"),
            "impossible-counts",
            vec![],
        ),
        (
            "freestyle",
            rows(15, "h8 h9", ""),
            "impossible-counts",
            vec![],
        ),
        (
            "freestyle",
            rows(15, "a1 c1 e1 g1 i1 k1", "h8 h9 h10 h11 h12"),
            "winner-not-last-mover",
            vec![],
        ),
        (
            "freestyle",
            rows(
                15,
                "a8 b8 c8 d8 e8 a10 b10 c10 d10 e10",
                "a1 c1 e1 g1 i1 k1 m1 o1 a3",
            ),
            "played-on-after-win",
            vec![],
        ),
        (
            "renju",
            rows(15, "a8 b8 c8 d8 e8 f8 h1", "a1 c1 e1 g1 i1 k1 m1"),
            "black-overline",
            vec![],
        ),
    ];
    for (variant, text, reason, members) in &cases {
        let p = import_rows(&app, variant, text)
            .await
            .problem(400, "invalid-import");
        assert_eq!(p["reason"], *reason, "{text:?}: {p}");
        assert_eq!(p["field"], "text");
        for (key, value) in members {
            assert_eq!(p[*key], *value, "{text:?}: {p}");
        }
    }
    // The same black six is an ongoing game in standard.
    let v = import_rows(
        &app,
        "standard",
        &rows(15, "a8 b8 c8 d8 e8 f8 h1", "a1 c1 e1 g1 i1 k1 m1"),
    )
    .await
    .json();
    assert_eq!(v["status"]["state"], "ongoing");

    // Fields missing, mistyped or unknown.
    for (body, field) in [
        (json!({"format": "rows"}), "text"),
        (json!({"format": "rows", "text": 15}), "text"),
        (json!({"format": "rows", "text": null}), "text"),
        (
            json!({"format": "rows", "text": empty, "variant": 1}),
            "variant",
        ),
        (json!({"text": empty}), "format"),
        (json!({"format": "rows", "text": empty, "size": 15}), "size"),
        (json!({"format": "rows", "text": empty, "seed": 1}), "seed"),
        (
            json!({"format": "rows", "text": empty, "moves": 7}),
            "moves",
        ),
    ] {
        let p = import(&app, body.clone())
            .await
            .problem(400, "invalid-field");
        assert_eq!(p["field"], field, "{body}: {p}");
    }
    // `game` and `code` are accepted, whatever they hold, and not read.
    let v = import(
        &app,
        json!({"format": "rows", "text": empty, "game": "xiangqi", "code": 7}),
    )
    .await
    .json();
    assert_eq!(v["code"], "AA");
    let p = import(
        &app,
        json!({"format": "rows", "variant": "caro", "text": empty}),
    )
    .await
    .problem(400, "unknown-variant");
    assert_eq!(p["field"], "variant");
    assert_eq!(p["supported"], json!(["freestyle", "standard", "renju"]));
    let p = import(&app, json!({"format": "fen", "text": empty}))
        .await
        .problem(400, "unsupported-format");
    assert_eq!(p["supported"], json!(["rows"]));
    import(&app, json!(["rows"]))
        .await
        .problem(400, "malformed-body");
}

/// A code, the reason it is refused with, and members the problem carries.
type CodeCase = (String, &'static str, Vec<(&'static str, Value)>);

#[tokio::test]
async fn every_code_error_has_its_reason() {
    let app = spawn_app().await;
    let mut grid_243 = vec![0x08, 0, 0, 243];
    grid_243.extend([0; 42]);
    let mut grid19 = vec![0x0C];
    grid19.extend([0; 72]);
    grid19.push(3);
    let mut last_225 = vec![0x18];
    last_225.extend([0; 45]);
    last_225.push(225);
    let mut last19 = vec![0x1C];
    last19.extend([0; 73]);
    last19.extend([1, 105]); // 361
                             // A forbidden move replayed (Renju): black f8 g8 h6 h7, then h8.
    let renju = alternate("f8 g8 h6 h7", "a15 c15 e15 g15");
    let mut renju_bytes = vec![0x02];
    renju_bytes.extend(renju.iter().map(|m| index15(m) as u8));
    renju_bytes.push(112);
    // Black a1 b1 c1 d1 e1 (0–4) and f2 (20); white a3 c3 e3 g3 i3.
    let five: Vec<(usize, u8)> = (0..5)
        .map(|c| (c, 1))
        .chain([(20, 1)])
        .chain((0..5).map(|k| (30 + 2 * k, 2)))
        .collect();
    let cells = |black: &str, white: &str| -> Vec<(usize, u8)> {
        let b = black.split_whitespace().map(|p| (index15(p), 1));
        b.chain(white.split_whitespace().map(|p| (index15(p), 2)))
            .collect()
    };

    let cases: Vec<CodeCase> = vec![
        ("A".into(), "wrong-length", vec![("length", json!(1))]),
        ("AAAAA".into(), "wrong-length", vec![("length", json!(5))]),
        (
            code_from(&[0x08, 0]),
            "wrong-length",
            vec![("length", json!(3))],
        ),
        (
            code_from(&[0x08; 47]),
            "wrong-length",
            vec![("length", json!(63))],
        ),
        (
            code_from(&[0x04, 0]),
            "wrong-length",
            vec![("length", json!(3))],
        ),
        ("AA==".into(), "padding", vec![("offset", json!(2))]),
        (
            "AnA.".into(),
            "invalid-character",
            vec![("offset", json!(3)), ("character", json!("."))],
        ),
        ("AB".into(), "trailing-bits", vec![]),
        (code_from(&[0x04, 0x5A, 0x41]), "trailing-bits", vec![]),
        (code_from(&[0x20]), "header-bits", vec![]),
        (code_from(&[0x80, 0]), "header-bits", vec![]),
        (code_from(&[0x12]), "header-bits", vec![]),
        ("Aw".into(), "unknown-variant", vec![]),
        (code_from(&[0x0B]), "unknown-variant", vec![]),
        (code_from(&[0x06]), "unsupported-size", vec![]),
        (code_from(&[0x05, 0]), "unsupported-size", vec![]),
        (
            code_from(&grid_243),
            "grid-value",
            vec![("byte", json!(3)), ("value", json!(243))],
        ),
        (
            code_from(&grid19),
            "grid-value",
            vec![("byte", json!(73)), ("value", json!(3))],
        ),
        (
            code_from(&[0x00, 112, 225]),
            "point-out-of-range",
            vec![("index", json!(1))],
        ),
        (code_from(&last_225), "point-out-of-range", vec![]),
        (code_from(&last19), "point-out-of-range", vec![]),
        (
            code_from(&[0x00, 112, 113, 112]),
            "illegal-move",
            vec![("index", json!(2))],
        ),
        (
            code_from(&[0x00, 0, 1, 15, 16, 30, 31, 45, 46, 60, 2]),
            "illegal-move",
            vec![("index", json!(9))],
        ),
        (
            code_from(&renju_bytes),
            "illegal-move",
            vec![("index", json!(8))],
        ),
        (grid_code(0, &[(0, 2)], None), "impossible-counts", vec![]),
        (
            grid_code(0, &[(0, 1), (2, 1), (4, 2), (6, 1)], None),
            "impossible-counts",
            vec![],
        ),
        (
            grid_code(0, &[], Some(112)),
            "last-move-on-empty-board",
            vec![],
        ),
        (
            grid_code(0, &[(0, 1), (1, 1), (2, 2)], Some(2)),
            "last-move-not-mover",
            vec![],
        ),
        (
            grid_code(0, &cells("a3 c3 e3 g3 i3 k3", "a1 b1 c1 d1 e1"), None),
            "winner-not-last-mover",
            vec![],
        ),
        (
            grid_code(
                0,
                &cells(
                    "a8 b8 c8 d8 e8 a10 b10 c10 d10 e10",
                    "a1 c1 e1 g1 i1 k1 m1 o1 a3",
                ),
                None,
            ),
            "played-on-after-win",
            vec![],
        ),
        (
            grid_code(0, &five, Some(20)),
            "last-move-not-winning",
            vec![],
        ),
        (
            grid_code(
                2,
                &cells("a8 b8 c8 d8 e8 f8 h1", "a1 c1 e1 g1 i1 k1 m1"),
                None,
            ),
            "black-overline",
            vec![],
        ),
    ];
    for (code, reason, members) in &cases {
        for res in [
            app.get(&format!("/v1/gomoku/{code}")).await,
            play(&app, code, &["h8"]).await,
            app.get(&format!("/v1/gomoku/{code}/export")).await,
        ] {
            let p = res.problem(400, "invalid-code");
            assert_eq!(res.header("cache-control"), Some("no-store"));
            assert_eq!(p["reason"], *reason, "{code}: {p}");
            assert_eq!(p["field"], "code");
            for (key, value) in members {
                assert_eq!(p[*key], *value, "{code}: {p}");
            }
        }
    }
    // The valid neighbours of those codes read: the five with c1 as the
    // last move is a black win.
    let won = app
        .get(&format!("/v1/gomoku/{}", grid_code(0, &five, Some(2))))
        .await
        .json();
    assert_eq!(won["status"]["winner"], "black");
    assert_eq!(won["last_move"], "c1");
    assert_eq!(won["winning_line"], json!(["a1", "b1", "c1", "d1", "e1"]));
    // A non-canonical move list longer than 46 moves reads, and answers
    // with its canonical grid code.
    let mut long = vec![0x00];
    for row in 0..4u8 {
        long.extend((0..12u8).map(|c| row * 15 + c));
    }
    let v = app.get(&format!("/v1/gomoku/{}", code_from(&long))).await;
    assert_eq!(v.status, 200);
    let v = v.json();
    assert_eq!(code_of(&v).len(), 63);
    assert_ne!(code_of(&v), code_from(&long));
}

#[tokio::test]
async fn malformed_and_occupied_points() {
    let app = spawn_app().await;
    let p = play(&app, "AA", &["h8", "z9"])
        .await
        .problem(422, "malformed-action");
    assert_eq!(p["index"], 1);
    assert_eq!(p["action"], "z9");
    assert_eq!(actions(&p["legal_actions"]).len(), 224);
    for bad in ["H8", "h0", "h20", "h08", "8h", "", "h8 "] {
        play(&app, "AA", &[bad])
            .await
            .problem(422, "malformed-action");
    }
    let p = play(&app, "AA", &["h8", "h8"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 1);
    assert!(
        p["detail"].as_str().expect("detail").contains("occupied"),
        "{p}"
    );
    let p = play(&app, "AA", &["p1"])
        .await
        .problem(422, "illegal-action");
    assert!(p["detail"].as_str().expect("detail").contains("off"), "{p}");
    let p = play(&app, "AA", &["a16"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["index"], 0);
    let p = app
        .post_json("/v1/gomoku/AA/play", &json!({"actions": []}))
        .await
        .problem(400, "invalid-field");
    assert_eq!(p["field"], "actions");
}

/// A request with an optional JSON body and `If-None-Match`.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<&Value>,
    if_none_match: Option<&str>,
) -> TestResponse {
    let mut headers = Vec::new();
    if body.is_some() {
        headers.push(("content-type", "application/json"));
    }
    if let Some(tag) = if_none_match {
        headers.push(("if-none-match", tag));
    }
    app.request(
        method,
        path,
        &headers,
        body.map(|b| b.to_string().into_bytes()),
    )
    .await
}

#[tokio::test]
async fn answers_are_cached_with_a_strong_etag_and_304() {
    let app = spawn_app().await;
    let cases: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/v1/gomoku/start".into(), None),
        (
            Method::GET,
            "/v1/gomoku/start?variant=freestyle&size=19".into(),
            None,
        ),
        (Method::GET, "/v1/gomoku/AHB_".into(), None),
        (Method::GET, "/v1/gomoku/AHB_/export".into(), None),
        (
            Method::POST,
            "/v1/gomoku/Ag/play".into(),
            Some(json!({"actions": ["h8", "h9"]})),
        ),
        (
            Method::POST,
            "/v1/gomoku/import".into(),
            Some(json!({"format": "rows", "variant": "renju", "text": double_three_rows()})),
        ),
    ];
    for (method, path, body) in &cases {
        let res = send(&app, method.clone(), path, body.as_ref(), None).await;
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.header("cache-control"), Some(IMMUTABLE), "{path}");
        let etag = res.header("etag").expect("etag").to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "strong: {etag}"
        );
        for tag in [etag.as_str(), "*", &format!("W/{etag}")] {
            let again = send(&app, method.clone(), path, body.as_ref(), Some(tag)).await;
            assert_eq!(again.status, 304, "{path} {tag}");
            assert!(again.body.is_empty());
            assert_eq!(again.header("etag"), Some(etag.as_str()));
        }
        let other = send(&app, method.clone(), path, body.as_ref(), Some("\"0000\"")).await;
        assert_eq!(other.status, 200, "{path}");
        assert_eq!(other.body, res.body, "{path}");
    }
    // The same position by two routes: the same body. Each is tagged by
    // what it is a function of (a play by its request, a read by its share
    // URL), so the tags differ, and each revalidates on its own route.
    let played = play(&app, "AA", &["h8", "h9"]).await;
    let read = app.get("/v1/gomoku/AHB_").await;
    assert_eq!(played.body, read.body);
    assert_ne!(played.header("etag"), read.header("etag"));
    // Errors are not cached.
    let res = app.get("/v1/gomoku/AB").await;
    assert_eq!(res.status, 400);
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert!(res.header("etag").is_none());
    // Head answers as GET without a body.
    let head = app
        .request(Method::HEAD, "/v1/gomoku/AHB_", &[], None)
        .await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("etag"), read.header("etag"));
    assert!(head.body.is_empty());
}
