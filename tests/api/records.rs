//! Game records in and out: `POST /v1/{game}/records` with the public
//! records of `crates/records/tests/data` (their sources and licences are
//! in the README or SOURCES.md there), every export read back to the same moves, each bad
//! input refused with its own problem, fumen through `POST
//! /v1/tetris/import` and `GET /v1/tetris/{code}/fumen`, and the replay
//! GIF's frames.

use reqwest::Method;
use serde_json::{json, Value};

use crate::db::{on_both_backends, spawn_match_app, Backend};
use crate::helpers::{TestApp, TestResponse};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/records/tests/data");

fn data(path: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

async fn post_record(app: &TestApp, game: &str, content_type: &str, body: Vec<u8>) -> TestResponse {
    app.request(
        Method::POST,
        &format!("/v1/{game}/records"),
        &[("content-type", content_type)],
        Some(body),
    )
    .await
}

/// Imports a record and answers the new match's view.
async fn imported(app: &TestApp, game: &str, content_type: &str, body: Vec<u8>) -> Value {
    let res = post_record(app, game, content_type, body).await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

/// The actions a match keeps, oldest first.
async fn moves(app: &TestApp, id: &str) -> Vec<String> {
    let res = app.get(&format!("/v1/matches/{id}/history")).await;
    assert_eq!(res.status, 200);
    res.json()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["action"].as_str().unwrap().to_owned())
        .collect()
}

on_both_backends!(
    xiangqi_files_import_and_every_export_reads_back,
    bad_records_get_their_problems,
    gomoku_and_quoridor_records_round_trip,
    gomoku_files_import_and_export_move_for_move,
    a_finished_match_replays_as_a_gif,
    a_long_record_keeps_every_move_and_its_headers,
);

async fn xiangqi_files_import_and_every_export_reads_back(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let pgn = "application/x-chess-pgn";
    let files: [(&str, String, Vec<u8>); 7] = [
        (
            "gbk",
            pgn.into(),
            data("xiangqi/eleeye/sample-variation-gbk.pgn"),
        ),
        (
            "big5",
            format!("{pgn}; charset=big5"),
            data("xiangqi/eleeye/sample-variation-big5.pgn"),
        ),
        (
            "wxf",
            pgn.into(),
            data("xiangqi/xiangqijs/liu-yang-1982-wxf.pgn"),
        ),
        (
            "iccs",
            pgn.into(),
            data("xiangqi/xiangqijs/liu-yang-1982-iccs.pgn"),
        ),
        (
            "xqf",
            "application/x-xqf".into(),
            data("xiangqi/eleeye/xqfexama.xqf"),
        ),
        (
            "xqf-encrypted",
            "application/x-xqf".into(),
            data("xiangqi/eleeye/sample.xqf"),
        ),
        (
            "dhtmlxq",
            "text/plain".into(),
            data("xiangqi/vschess/dpxq-xianren-zhilu.txt"),
        ),
    ];
    let mut by_name = std::collections::HashMap::new();
    for (name, content_type, body) in files {
        let view = imported(&app, "xiangqi", &content_type, body).await;
        let import = &view["import"];
        assert!(view["token"].is_string(), "{name}");
        assert_eq!(view["mode"], "solo", "{name}");
        assert_eq!(view["ply"], import["plies"], "{name}");
        match name {
            "gbk" => assert_eq!(import["charset"], "gbk"),
            "big5" => assert_eq!(import["charset"], "big5"),
            "xqf" | "xqf-encrypted" => assert_eq!(import["format"], "xqf"),
            "dhtmlxq" => assert_eq!(import["format"], "dhtmlxq"),
            _ => assert_eq!(import["format"], "pgn"),
        }
        let id = view["id"].as_str().unwrap().to_owned();
        let kept = moves(&app, &id).await;
        assert!(!kept.is_empty(), "{name}");
        by_name.insert(name, kept.clone());
        // Every export reads back to the same moves.
        for path in [
            "record.pgn",
            "record.pgn?notation=wxf",
            "record.pgn?notation=iccs",
            "record.pgn?charset=gbk",
            "record.pgn?notation=wxf&charset=gbk",
            "record.xqf",
        ] {
            let res = app.get(&format!("/v1/matches/{id}/{path}")).await;
            assert_eq!(res.status, 200, "{name} {path}");
            let disposition = res.header("content-disposition").unwrap().to_owned();
            assert!(
                disposition.starts_with("attachment; filename=\""),
                "{disposition}"
            );
            assert!(disposition.contains("filename*=UTF-8''"), "{disposition}");
            let content_type = res.header("content-type").unwrap().to_owned();
            let again = imported(&app, "xiangqi", &content_type, res.body.clone()).await;
            let again_moves = moves(&app, again["id"].as_str().unwrap()).await;
            assert_eq!(again_moves, kept, "{name} {path}");
        }
    }
    // The Big5 file is the GBK one in traditional characters.
    assert_eq!(by_name["gbk"], by_name["big5"]);
    assert_eq!(by_name["wxf"], by_name["iccs"]);

    // The export of a game from the start names its opening.
    let view = imported(&app, "xiangqi", pgn, data("xiangqi/eleeye/ccgc-01.pgn")).await;
    let id = view["id"].as_str().unwrap();
    let res = app.get(&format!("/v1/matches/{id}")).await;
    let opening = &res.json()["opening"];
    assert!(opening["ecco"].as_str().unwrap().len() == 3, "{opening}");
    let text = app.get(&format!("/v1/matches/{id}/record.pgn")).await;
    let text = String::from_utf8(text.body).unwrap();
    assert!(text.contains(&format!("[ECCO \"{}\"]", opening["ecco"].as_str().unwrap())));

    // Several games in one file: the first, and a note.
    let view = imported(
        &app,
        "xiangqi",
        pgn,
        data("xiangqi/wukong/bulk-games-wxf.pgn"),
    )
    .await;
    assert_eq!(view["import"]["games"], 15);
    assert!(view["import"]["note"].as_str().unwrap().contains("first"));
}

/// The main line of a xiangqi record file, in ICCS.
fn main_line(bytes: &[u8]) -> Vec<String> {
    use qipan_records::xiangqi::{read, Format};
    let records = read(bytes, Format::Pgn, None).expect("a record");
    records[0]
        .main_line()
        .iter()
        .map(ToString::to_string)
        .collect()
}

async fn a_long_record_keeps_every_move_and_its_headers(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // 相眼竞技 v 天机, round 23 of the 1st Chinese Computer Games
    // Championship: 111 moves, in GBK.
    let file = data("xiangqi/eleeye/ccgc-19.pgn");
    let line = main_line(&file);
    assert!(line.len() > 200, "{}", line.len());
    let view = imported(&app, "xiangqi", "application/x-chess-pgn", file).await;
    assert_eq!(view["ply"], line.len());
    let id = view["id"].as_str().unwrap().to_owned();
    // The window (what undo reaches) is the last 100 moves, as for any match.
    let window = moves(&app, &id).await;
    assert_eq!(window.len(), 100);
    assert_eq!(window, line[line.len() - 100..]);

    // Its record as JSON: every move with its code, the file's players.
    let res = app.get(&format!("/v1/matches/{id}/record.json")).await;
    assert_eq!(res.status, 200);
    let record = res.json();
    assert_eq!(record["start_ply"], 0);
    let steps = record["moves"].as_array().unwrap();
    assert_eq!(steps.len(), line.len());
    assert_eq!(steps[0]["action"], line[0]);
    assert_eq!(steps[0]["chinese"], "炮二平五");
    assert_eq!(steps.last().unwrap()["code"], view["state"]["code"]);
    assert_eq!(record["headers"]["players"], json!(["相眼竞技", "天机"]));
    let tag = res.header("etag").unwrap().to_owned();
    let res = app
        .request(
            Method::GET,
            &format!("/v1/matches/{id}/record.json"),
            &[("if-none-match", tag.as_str())],
            None,
        )
        .await;
    assert_eq!(res.status, 304);

    // The export holds every move, from the standard start, and the file's
    // headers; it reads back to the same moves and writes the same file.
    let res = app
        .get(&format!("/v1/matches/{id}/record.pgn?notation=iccs"))
        .await;
    assert_eq!(res.status, 200);
    let disposition = res.header("content-disposition").unwrap().to_owned();
    let text = String::from_utf8(res.body.clone()).unwrap();
    assert!(!text.contains("[FEN"), "{text}");
    assert_eq!(main_line(text.as_bytes()), line);
    for tag in [
        "[Event \"1st Chinese Computer Games Championship, Beijing 2006\"]",
        "[Site \"北京中国科技馆\"]",
        "[Date \"2006.08.07\"]",
        "[Round \"23\"]",
        "[Red \"相眼竞技\"]",
        "[Black \"天机\"]",
        "[Result \"1/2-1/2\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    // 相眼竞技-天机-2006.08.07.pgn
    assert!(
        disposition.ends_with(
            "filename*=UTF-8''%E7%9B%B8%E7%9C%BC%E7%AB%9E%E6%8A%80-%E5%A4%A9%E6%9C%BA-2006.08.07.pgn"
        ),
        "{disposition}"
    );
    let again = imported(&app, "xiangqi", "application/x-chess-pgn", res.body).await;
    let again_id = again["id"].as_str().unwrap();
    let res = app
        .get(&format!("/v1/matches/{again_id}/record.pgn?notation=iccs"))
        .await;
    assert_eq!(String::from_utf8(res.body).unwrap(), text);
    // XQF carries the whole game too.
    let res = app.get(&format!("/v1/matches/{id}/record.xqf")).await;
    assert_eq!(res.status, 200);
    let again = imported(&app, "xiangqi", "application/x-xqf", res.body).await;
    assert_eq!(again["import"]["plies"], line.len());

    // A result the moves do not reach (a resignation) is the file's while
    // the match is where the file left it.
    let file = data("xiangqi/eleeye/ccgc-01.pgn");
    let view = imported(&app, "xiangqi", "application/x-chess-pgn", file).await;
    assert_eq!(view["status"]["state"], "ongoing");
    let id = view["id"].as_str().unwrap().to_owned();
    let token = view["token"].as_str().unwrap().to_owned();
    let path = format!("/v1/matches/{id}/record.pgn");
    let text = String::from_utf8(app.get(&path).await.body).unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("[Red \"宝岛一号\"]"), "{text}");
    let auth = format!("Bearer {token}");
    let res = app
        .request(
            Method::POST,
            &format!("/v1/matches/{id}/undo"),
            &[("authorization", auth.as_str())],
            None,
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let text = String::from_utf8(app.get(&path).await.body).unwrap();
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.contains("[Red \"宝岛一号\"]"), "{text}");
}

async fn bad_records_get_their_problems(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let pgn = "application/x-chess-pgn";
    // Truncated XQF: the offset where it ends.
    let mut xqf = data("xiangqi/eleeye/xqfexama.xqf");
    xqf.truncate(1100);
    let res = post_record(&app, "xiangqi", "application/x-xqf", xqf).await;
    let p = res.problem(422, "invalid-record");
    assert_eq!(p["reason"], "truncated");
    assert_eq!(p["offset"], 1100);
    // Not XQF at all.
    let res = post_record(&app, "xiangqi", "application/x-xqf", b"PK\x03\x04".to_vec()).await;
    assert_eq!(res.problem(422, "invalid-record")["reason"], "not-xqf");
    // GBK bytes sent as UTF-8: the first byte that is not.
    let gbk = data("xiangqi/eleeye/sample.pgn");
    let res = post_record(&app, "xiangqi", &format!("{pgn}; charset=utf-8"), gbk).await;
    let p = res.problem(422, "invalid-record");
    assert_eq!(p["reason"], "bad-encoding");
    assert!(p["offset"].is_u64());
    // An illegal move: its number, text, side, and the legal moves.
    let text = "[Game \"Chinese Chess\"]\n1. 炮二平五 马８进７\n2. 车一进九 *\n";
    let res = post_record(&app, "xiangqi", pgn, text.as_bytes().to_vec()).await;
    let p = res.problem(422, "invalid-record");
    assert_eq!(p["reason"], "illegal-move");
    assert_eq!(p["move_number"], 2);
    assert_eq!(p["side"], "red");
    assert_eq!(p["text"], "车一进九");
    assert_eq!(p["line"], 3);
    let legal: Vec<&str> = p["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(legal.contains(&"车一进一"), "{legal:?}");
    // Over 1 MiB.
    let res = post_record(&app, "xiangqi", pgn, vec![b' '; (1 << 20) + 1]).await;
    res.problem(413, "body-too-large");
    // A type the game does not read, or none; a charset not read.
    let res = post_record(&app, "xiangqi", "application/json", b"{}".to_vec()).await;
    res.problem(415, "unsupported-media-type");
    let res = post_record(&app, "xiangqi", "text/plain; charset=koi8-r", b"x".to_vec()).await;
    res.problem(415, "unsupported-media-type");
    let res = post_record(&app, "gomoku", pgn, b"h8".to_vec()).await;
    res.problem(415, "unsupported-media-type");
    // A game without record formats.
    let res = post_record(&app, "2048", "text/plain", b"left".to_vec()).await;
    res.problem(400, "unsupported-format");
    // A gomoku move off the board, a Quoridor word that is no move.
    let res = post_record(&app, "gomoku", "text/plain", b"h8 z99".to_vec()).await;
    let p = res.problem(422, "invalid-record");
    assert_eq!(
        (p["move_number"].as_u64(), p["text"].as_str()),
        (Some(2), Some("z99"))
    );
    let res = post_record(&app, "quoridor", "text/plain", b"e2 e8 k1h".to_vec()).await;
    assert_eq!(res.problem(422, "invalid-record")["move_number"], 3);
    // A legal-looking gomoku move on an occupied point: the rules say so.
    let res = post_record(&app, "gomoku", "text/plain", b"h8 h8".to_vec()).await;
    assert_eq!(res.problem(422, "illegal-action")["index"], 1);
    // Export formats of another game.
    let view = imported(&app, "gomoku", "text/plain", b"h8 i9".to_vec()).await;
    let id = view["id"].as_str().unwrap();
    let res = app.get(&format!("/v1/matches/{id}/record.pgn")).await;
    res.problem(400, "unsupported-format");
}

async fn gomoku_and_quoridor_records_round_trip(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // piskvork writes `-1`, then the programs' names, black's first.
    let psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n7,9,0\n9,9,0\n-1\npbrain-black.exe\npbrain-white.exe\n";
    let view = imported(&app, "gomoku", "text/plain", psq.as_bytes().to_vec()).await;
    assert_eq!(view["import"]["format"], "psq");
    let id = view["id"].as_str().unwrap().to_owned();
    assert_eq!(moves(&app, &id).await, ["h8", "i9", "g7", "i7"]);
    // The names come back in the exported file and its download name.
    let res = app.get(&format!("/v1/matches/{id}/record.psq")).await;
    let text = String::from_utf8_lossy(&res.body).into_owned();
    assert!(
        text.ends_with("-1\npbrain-black.exe\npbrain-white.exe\n"),
        "{text}"
    );
    let disposition = res.header("content-disposition").unwrap_or_default();
    assert!(disposition.contains("pbrain-black.exe"), "{disposition}");
    for ext in ["psq", "txt"] {
        let res = app.get(&format!("/v1/matches/{id}/record.{ext}")).await;
        assert_eq!(res.status, 200);
        let again = imported(&app, "gomoku", "text/plain", res.body.clone()).await;
        assert_eq!(
            moves(&app, again["id"].as_str().unwrap()).await,
            ["h8", "i9", "g7", "i7"]
        );
    }
    // A RenLib .pos file: the count, then 15·y + x from the top-left of
    // the 15×15 board (quinstella.net/dev/pos_format/): 0x70 is h8.
    let pos = vec![5, 0x70, 0x71, 0x61, 0x62, 0x52];
    let res = app
        .request(
            Method::POST,
            "/v1/gomoku/records?variant=renju",
            &[("content-type", "application/octet-stream")],
            Some(pos),
        )
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    let view = res.json();
    assert_eq!(view["import"]["format"], "pos");
    let id = view["id"].as_str().unwrap().to_owned();
    assert_eq!(moves(&app, &id).await, ["h8", "i8", "h9", "i9", "h10"]);
    let res = app.get(&format!("/v1/matches/{id}/record.psq")).await;
    let again = imported(&app, "gomoku", "text/plain", res.body).await;
    assert_eq!(
        moves(&app, again["id"].as_str().unwrap()).await,
        ["h8", "i8", "h9", "i9", "h10"]
    );
    // RenLib's pass (240) is no point; a file shorter than its count.
    let octets = "application/octet-stream";
    let pass = vec![5, 0x70, 0x71, 0x6f, 240, 0x72];
    let p = post_record(&app, "gomoku", octets, pass)
        .await
        .problem(422, "invalid-record");
    assert_eq!(
        (&p["format"], &p["reason"], &p["offset"], &p["move_number"]),
        (
            &json!("pos"),
            &json!("unreadable-move"),
            &json!(4),
            &json!(4)
        )
    );
    let p = post_record(&app, "gomoku", octets, vec![3, 0x70])
        .await
        .problem(422, "invalid-record");
    assert_eq!(
        (&p["reason"], &p["offset"]),
        (&json!("truncated"), &json!(2))
    );

    let view = imported(
        &app,
        "quoridor",
        "text/plain",
        b"1. e2 e8\n2. e3h d7v\n".to_vec(),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_owned();
    let kept = moves(&app, &id).await;
    assert_eq!(kept, ["e2", "e8", "e3h", "d7v"]);
    let res = app.get(&format!("/v1/matches/{id}/record.txt")).await;
    assert_eq!(String::from_utf8_lossy(&res.body), "1. e2 e8\n2. e3h d7v\n");
}

/// Imports `body` as gomoku under `variant`, answering the view.
async fn imported_gomoku(app: &TestApp, variant: &str, content_type: &str, body: Vec<u8>) -> Value {
    let res = app
        .request(
            Method::POST,
            &format!("/v1/gomoku/records?variant={variant}"),
            &[("content-type", content_type)],
            Some(body),
        )
        .await;
    assert_eq!(res.status, 201, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

/// The gathered gomoku files (`crates/records/tests/data/gomoku`, sources
/// in its SOURCES.md): a RenLib library, a `.pos` position of another
/// program and an engine game's move list import, export as `.psq` and as
/// a move list, and those import again to the same moves.
async fn gomoku_files_import_and_export_move_for_move(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    let quintet = String::from_utf8(data("gomoku/quintet/vct_game_black_l05_1.txt")).unwrap();
    let line = quintet
        .lines()
        .find_map(|l| l.strip_prefix("# Moves: "))
        .unwrap()
        .to_owned();
    let quintet_moves: Vec<String> = line.split(',').map(str::to_ascii_lowercase).collect();
    // (body, content type, format, the moves the match must hold)
    let rps = "h8 h9 h10 i10 g9 f8 f10 e11 g11 i9 g12 g8 j11 i11 i8 g13 h12 i13 i12 f12";
    let cases: Vec<(Vec<u8>, &str, &str, Vec<String>)> = vec![
        (
            data("gomoku/renlib-board/rps-fail.lib"),
            "application/octet-stream",
            "lib",
            rps.split(' ').map(str::to_owned).collect(),
        ),
        (
            data("gomoku/renlib-board/I7.lib"),
            "application/x-renlib",
            "lib",
            ["h8", "i9", "i7", "g10", "g9"].map(str::to_owned).to_vec(),
        ),
        (
            data("gomoku/xl/hard.pos"),
            "application/octet-stream",
            "pos",
            data("gomoku/xl/hard.pos")[1..]
                .iter()
                .map(|&b| format!("{}{}", char::from(b'a' + b % 15), 15 - b / 15))
                .collect(),
        ),
        (line.into_bytes(), "text/plain", "moves", quintet_moves),
    ];
    for (body, content_type, format, expected) in cases {
        let view = imported_gomoku(&app, "renju", content_type, body).await;
        assert_eq!(view["import"]["format"], format);
        assert_eq!(view["import"]["plies"], expected.len());
        let id = view["id"].as_str().unwrap().to_owned();
        assert_eq!(moves(&app, &id).await, expected, "{format}");
        for ext in ["psq", "txt"] {
            let res = app.get(&format!("/v1/matches/{id}/record.{ext}")).await;
            assert_eq!(res.status, 200);
            let again = imported_gomoku(&app, "renju", "text/plain", res.body.clone()).await;
            assert_eq!(
                moves(&app, again["id"].as_str().unwrap()).await,
                expected,
                "{format} → {ext}"
            );
        }
    }
    // A library's other lines are counted in the note.
    let view = imported_gomoku(
        &app,
        "renju",
        "application/x-renlib",
        data("gomoku/renlib-board/rps-fail.lib"),
    )
    .await;
    assert_eq!(
        view["import"]["note"],
        "the library holds 8 lines (176 moves); the first line, 20 moves, was imported"
    );
    // A library cut inside a comment, one whose first line passes, one of
    // a later version: each its problem.
    let i7 = data("gomoku/renlib-board/I7.lib");
    let p = post_record(&app, "gomoku", "application/x-renlib", i7[..30].to_vec())
        .await
        .problem(422, "invalid-record");
    assert_eq!(
        (&p["format"], &p["reason"], &p["offset"]),
        (&json!("lib"), &json!("truncated"), &json!(30))
    );
    let pass = data("gomoku/renlib-board/lib_3_is_pass.lib");
    let p = post_record(&app, "gomoku", "application/octet-stream", pass)
        .await
        .problem(422, "invalid-record");
    assert_eq!(
        (&p["reason"], &p["move_number"], &p["text"], &p["offset"]),
        (
            &json!("unreadable-move"),
            &json!(3),
            &json!("pass"),
            &json!(26)
        )
    );
    let mut newer = i7.clone();
    newer[9] = 5;
    let p = post_record(&app, "gomoku", "application/x-renlib", newer)
        .await
        .problem(422, "invalid-record");
    assert_eq!(p["reason"], "unsupported-version");
    // A .psq body sent as a library is not one.
    let p = post_record(
        &app,
        "gomoku",
        "application/x-renlib",
        b"Piskvorky 15x15, 11:11, 0\n8,8,0\n".to_vec(),
    )
    .await
    .problem(422, "invalid-record");
    assert_eq!(p["reason"], "bad-header");
}

async fn a_finished_match_replays_as_a_gif(backend: Backend) {
    let Some(app) = spawn_match_app(backend).await else {
        return;
    };
    // A short game: seven plies.
    let text = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 *\n";
    let view = imported(
        &app,
        "xiangqi",
        "application/x-chess-pgn",
        text.as_bytes().to_vec(),
    )
    .await;
    let id = view["id"].as_str().unwrap().to_owned();
    let plies = view["ply"].as_u64().unwrap();
    let res = app
        .get(&format!("/v1/matches/{id}/replay.gif?size=160"))
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("image/gif"));
    assert_eq!(gif_frames(&res.body), plies as usize + 1);
    assert_eq!(gif_size(&res.body).0, 160);
    let etag = res.header("etag").unwrap().to_owned();
    let again = app
        .request(
            Method::GET,
            &format!("/v1/matches/{id}/replay.gif?size=160"),
            &[("if-none-match", &etag)],
            None,
        )
        .await;
    assert_eq!(again.status, 304);
    let res = app
        .get(&format!("/v1/matches/{id}/replay.gif?from=2&to=4&size=160"))
        .await;
    assert_eq!(gif_frames(&res.body), 3);
    let res = app
        .get(&format!("/v1/matches/{id}/replay.gif?from=5&to=2"))
        .await;
    res.problem(400, "invalid-query");
}

/// The width and height a GIF's screen descriptor says.
fn gif_size(gif: &[u8]) -> (u16, u16) {
    assert_eq!(&gif[..6], b"GIF89a");
    (
        u16::from_le_bytes([gif[6], gif[7]]),
        u16::from_le_bytes([gif[8], gif[9]]),
    )
}

/// How many images a GIF holds, counted by walking its blocks.
fn gif_frames(gif: &[u8]) -> usize {
    let mut i = 13;
    if gif[10] & 0x80 != 0 {
        i += 3 << ((gif[10] & 7) + 1);
    }
    let skip_blocks = |mut i: usize| {
        while gif[i] != 0 {
            i += gif[i] as usize + 1;
        }
        i + 1
    };
    let mut frames = 0;
    loop {
        match gif[i] {
            0x3B => return frames,
            0x21 => i = skip_blocks(i + 2),
            0x2C => {
                frames += 1;
                let packed = gif[i + 9];
                i += 10;
                if packed & 0x80 != 0 {
                    i += 3 << ((packed & 7) + 1);
                }
                i = skip_blocks(i + 1);
            }
            b => panic!("unexpected GIF block {b:#x} at {i}"),
        }
    }
}

#[tokio::test]
async fn fumen_pages_import_and_positions_export() {
    let app = crate::helpers::spawn_app().await;
    // knewjade/tetris-fumen's "Quiz" test: seven pages, the last two with
    // nothing left to play.
    let quiz = "v115@vhGSSYXAFLDmClcJSAVDEHBEooRBMoAVBUtfBAXsBAAANrBmnBAAAAAA";
    let res = app
        .post_json(
            "/v1/tetris/import",
            &json!({"format": "fumen", "text": quiz}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let pages = res.json();
    assert_eq!(pages["pages"], 7);
    let codes = pages["codes"].as_array().unwrap();
    assert!(codes[..5].iter().all(Value::is_string));
    assert!(codes[5].is_null() && codes[6].is_null());
    assert_eq!(pages["notes"][0]["reason"], "no-piece");
    // Page 1: the L to play, T S J to come.
    let first = app
        .get(&format!("/v1/tetris/{}", codes[0].as_str().unwrap()))
        .await
        .json();
    assert_eq!(first["piece"]["kind"], "L");
    let queue: Vec<&str> = first["queue"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(&queue[..3], ["T", "S", "J"]);
    // A state goes out as a fumen and comes back the same, cell for cell.
    let start = app.get("/v1/tetris/start?seed=7").await.json();
    let code = start["code"].as_str().unwrap();
    let out = app.get(&format!("/v1/tetris/{code}/fumen")).await;
    assert_eq!(out.status, 200);
    let out = out.json();
    assert!(out["text"].as_str().unwrap().starts_with("v115@"));
    let back = app.post_json("/v1/tetris/import", &out).await.json();
    let again = app
        .get(&format!(
            "/v1/tetris/{}",
            back["codes"][0].as_str().unwrap()
        ))
        .await
        .json();
    for member in ["board", "piece", "queue", "hold"] {
        assert_eq!(again[member], start[member], "{member}");
    }
    // Bad fumens, and fumen of another game.
    let res = app
        .post_json(
            "/v1/tetris/import",
            &json!({"format": "fumen", "text": "v115@vhAAg"}),
        )
        .await;
    assert_eq!(res.problem(422, "invalid-record")["reason"], "truncated");
    let res = app
        .post_json(
            "/v1/tetris/import",
            &json!({"format": "fumen", "text": "v110@7eAA4G"}),
        )
        .await;
    assert_eq!(
        res.problem(422, "invalid-record")["reason"],
        "unsupported-version"
    );
    let res = app
        .get(&format!("/v1/xiangqi/{}/fumen", crate::helpers::START))
        .await;
    res.problem(404, "not-found");
    app.stop().await;
}
