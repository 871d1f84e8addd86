//! Xiangqi through the stateless API: start → read → play → import → export.

use serde_json::json;

use crate::helpers::{actions, spawn_app, spawn_app_with, START};

const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// From crates/rules/tests/data/xiangqi.perft (Fairy-Stockfish: perft 1 = 0).
const RED_MATED: &str = "4k4/9/3r5/P8/9/9/8p/9/9/3K1AB2 w - - 0 1";
const BLACK_STALEMATED: &str = "4k4/9/2N1b1N2/9/9/9/9/9/9/3AK4 b - - 0 1";

#[tokio::test]
async fn games_lists_xiangqi_with_its_syntax() {
    let app = spawn_app().await;
    let res = app.get("/v1/games").await;
    assert_eq!(res.status, 200);
    let body = res.json();
    let x = &body["games"][0];
    assert_eq!(x["game"], "xiangqi");
    assert_eq!(x["players"], json!(["red", "black"]));
    assert_eq!(x["variants"], json!(["standard"]));
    assert_eq!(x["action_syntax"]["notation"], "ICCS");
    assert_eq!(x["formats"], json!(["fen"]));
    assert_eq!(x["start"], "/v1/xiangqi/start");
}

#[tokio::test]
async fn start_is_the_articles_position() {
    let app = spawn_app().await;
    let res = app.get("/v1/xiangqi/start").await;
    assert_eq!(res.status, 200);
    let v = res.json();
    assert_eq!(v["game"], "xiangqi");
    assert_eq!(v["code"], START);
    assert_eq!(v["url"], format!("{}/v1/xiangqi/{START}", app.base));
    assert_eq!(v["to_move"], "red");
    assert_eq!(
        v["status"],
        json!({"state": "ongoing", "winner": null, "reason": null})
    );
    assert_eq!(v["check"], false);
    assert_eq!(v["fen"], START_FEN);
    // Ten rows, black's back rank first; red's general on e0 = row 9, file 4.
    assert_eq!(v["board"].as_array().map(Vec::len), Some(10));
    assert_eq!(
        v["board"][9][4],
        json!({"side": "red", "role": "general", "glyph": "帅"})
    );
    assert_eq!(
        v["board"][0][0],
        json!({"side": "black", "role": "chariot", "glyph": "车"})
    );
    assert_eq!(v["board"][4][0], json!(null));
    let legal = v["legal_actions"].as_array().expect("array");
    assert_eq!(legal.len(), 44, "perft 1 of the start position");
    let cannon = legal
        .iter()
        .find(|a| a["action"] == "h2e2")
        .expect("h2e2 is legal");
    assert_eq!(
        cannon,
        &json!({"action": "h2e2", "wxf": "C2.5", "chinese": "炮二平五", "from": "h2", "to": "e2",
                "piece": "cannon", "capture": null})
    );
    let capture = legal
        .iter()
        .find(|a| a["action"] == "h2h9")
        .expect("h2h9 is legal");
    assert_eq!(capture["capture"], "horse");
    assert_eq!(capture["wxf"], "C2+7");
}

#[tokio::test]
async fn read_gives_the_same_view_as_start() {
    let app = spawn_app().await;
    let start = app.get("/v1/xiangqi/start").await;
    let read = app.get(&format!("/v1/xiangqi/{START}")).await;
    assert_eq!(read.status, 200);
    assert_eq!(read.body, start.body);
    assert_eq!(read.header("etag"), start.header("etag"));
}

#[tokio::test]
async fn play_one_then_many_actions() {
    let app = spawn_app().await;
    let one = app.play(START, &["h2e2"]).await;
    assert_eq!(one.status, 200);
    let v = one.json();
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["fen"],
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
    );
    let code = v["code"].as_str().expect("code").to_owned();
    // Black to move rides in the top bit of byte 0: 85 | 0x80 = 0xd5.
    assert!(code.starts_with("1VRW"), "{code}");
    let black = v["legal_actions"].as_array().expect("array");
    let horse = black.iter().find(|a| a["action"] == "h9g7").expect("h9g7");
    assert_eq!(horse["wxf"], "H8+7");
    assert_eq!(horse["chinese"], "马8进7");

    let many = app.play(START, &["h2e2", "h9g7", "h0g2"]).await;
    assert_eq!(many.status, 200);
    let step = app.play(&code, &["h9g7", "h0g2"]).await;
    assert_eq!(step.body, many.body, "a batch equals its steps");
    let read = app
        .get(&format!(
            "/v1/xiangqi/{}",
            many.json()["code"].as_str().expect("code")
        ))
        .await;
    assert_eq!(
        read.body, many.body,
        "the code read back gives the same view"
    );
}

#[tokio::test]
async fn an_illegal_action_names_its_index_and_the_legal_actions() {
    let app = spawn_app().await;
    let res = app.play(START, &["h2e2", "h9h5"]).await;
    let p = res.problem(422, "illegal-action");
    assert_eq!(p["index"], 1);
    assert_eq!(p["action"], "h9h5");
    let legal = actions(&p["legal_actions"]);
    // 45, not 44: with h2 empty, black's h7 cannon now also reaches h2 and h1
    // but loses its capture on h0 (Fairy-Stockfish divide of h2e2 at depth 2: 45).
    assert_eq!(legal.len(), 45, "black's replies to the central cannon");
    assert!(legal.contains(&"h9g7".to_owned()));
    assert!(p["detail"].as_str().expect("detail").contains("action 1"));

    let res = app
        .play(
            START,
            &[
                "e3e4", "e6e5", "e4e5", "e9e8", "e0e1", "e8e7", "e1e2", "e7e8",
            ],
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.json());
    // A move into a position where the generals face each other.
    let pos = app.import_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").await.json();
    let res = app
        .play(pos["code"].as_str().expect("code"), &["d0e0"])
        .await;
    let p = res.problem(422, "illegal-action");
    assert!(
        p["detail"].as_str().expect("detail").contains("general"),
        "{p}"
    );
    assert!(!actions(&p["legal_actions"]).contains(&"d0e0".to_owned()));
}

#[tokio::test]
async fn a_malformed_action_is_refused_with_its_index() {
    let app = spawn_app().await;
    // (`H2-E2` and `H2E2` are ICCS as record files write it: they play.)
    for bad in ["h2", "h2=e2", "H2_E2", "j0j1", "h2h2", ""] {
        let res = app.play(START, &["h2e2", bad]).await;
        let p = res.problem(422, "malformed-action");
        assert_eq!(p["index"], 1, "{bad}");
        assert_eq!(p["action"], bad);
        assert_eq!(actions(&p["legal_actions"]).len(), 45);
    }
}

#[tokio::test]
async fn a_batch_must_hold_one_to_a_thousand_actions() {
    let app = spawn_app().await;
    let p = app.play(START, &[]).await.problem(400, "invalid-field");
    assert_eq!(p["field"], "actions");
    let many = vec!["h2e2"; 1001];
    let p = app.play(START, &many).await.problem(400, "invalid-field");
    assert_eq!(p["field"], "actions");
}

#[tokio::test]
async fn checkmate_and_stalemate_are_losses_and_end_play() {
    let app = spawn_app().await;
    let mated = app.import_fen(RED_MATED).await;
    assert_eq!(mated.status, 200);
    let v = mated.json();
    assert_eq!(
        v["status"],
        json!({"state": "won", "winner": "black", "reason": "checkmate"})
    );
    assert_eq!(v["check"], true);
    assert_eq!(v["legal_actions"], json!([]));
    let p = app
        .play(v["code"].as_str().expect("code"), &["d0e0"])
        .await
        .problem(409, "game-over");
    assert_eq!(p["index"], 0);
    assert_eq!(p["status"], 409);
    assert_eq!(p["outcome"]["reason"], "checkmate");

    let stale = app.import_fen(BLACK_STALEMATED).await.json();
    assert_eq!(
        stale["status"],
        json!({"state": "won", "winner": "red", "reason": "stalemate"})
    );
    assert_eq!(stale["check"], false);
    assert_eq!(stale["to_move"], "black");
}

#[tokio::test]
async fn check_is_reported() {
    let app = spawn_app().await;
    // Red chariot on e5 checks the black general on e9; red's general on d0
    // guards the d-file (hand-built).
    let v = app.import_fen("4k4/9/9/9/4R4/9/9/9/9/3K5 b").await.json();
    assert_eq!(v["check"], true);
    assert_eq!(v["status"]["state"], "ongoing");
    let legal = actions(&v["legal_actions"]);
    let mut legal = legal.clone();
    legal.sort();
    // e8 stays on the chariot's file and d9 would face red's general on d0.
    assert_eq!(legal, ["e9f9"], "the only escape");
}

#[tokio::test]
async fn fen_import_accepts_both_letter_sets_and_an_optional_trailer() {
    let app = spawn_app().await;
    for fen in [
        START_FEN,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
    ] {
        let res = app.import_fen(fen).await;
        assert_eq!(res.status, 200, "{fen}");
        assert_eq!(res.json()["code"], START);
    }
}

#[tokio::test]
async fn export_gives_the_fen() {
    let app = spawn_app().await;
    for path in [
        format!("/v1/xiangqi/{START}/export?format=fen"),
        format!("/v1/xiangqi/{START}/export"),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status, 200);
        assert_eq!(
            res.json(),
            json!({"game": "xiangqi", "code": START, "format": "fen", "text": START_FEN})
        );
    }
}

#[tokio::test]
async fn same_kind_pieces_in_any_order_answer_with_the_canonical_code() {
    let app = spawn_app().await;
    // The start array with the two red chariots (bytes 7, 8 = 81, 89) swapped.
    let swapped = "VVRWU1dSWFlRQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";
    let res = app.get(&format!("/v1/xiangqi/{swapped}")).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json()["code"], START);
}

#[tokio::test]
async fn share_urls_use_the_configured_public_url() {
    let mut settings = qipan::configuration::Settings::for_tests();
    settings.public_url = Some("https://qipan.example.org/".into());
    let app = spawn_app_with(settings).await;
    let v = app.get("/v1/xiangqi/start").await.json();
    assert_eq!(
        v["url"],
        format!("https://qipan.example.org/v1/xiangqi/{START}")
    );
}

/// Moves as Chinese players write them play as their ICCS moves: Chinese in
/// simplified or traditional characters with ASCII or full-width digits,
/// and WXF; the answer names the move in ICCS as it always does.
#[tokio::test]
async fn chinese_and_wxf_moves_play_as_their_iccs_moves() {
    let app = spawn_app().await;
    let by_iccs = app.play(START, &["h2e2", "h9g7"]).await.json();
    for written in [
        ["炮二平五", "马８进７"],
        ["炮二平五", "马8进7"],
        ["砲二平五", "馬８進７"],
        ["C2.5", "H8+7"],
        ["H2-E2", "h9g7"],
    ] {
        let res = app.play(START, &written).await;
        assert_eq!(res.status, 200, "{written:?}: {}", res.json());
        let v = res.json();
        assert_eq!(v["code"], by_iccs["code"], "{written:?}");
    }
    // Two red chariots on one file: 前/后 say which one moves.
    let tandem = app
        .import_fen("3k5/9/9/9/7R1/9/7R1/9/9/4K4 w - - 0 1")
        .await
        .json();
    let code = tandem["code"].as_str().expect("a code");
    for (written, iccs) in [
        ("前车平四", "h5f5"),
        ("后车平四", "h3f3"),
        ("前車平４", "h5f5"),
    ] {
        let by_text = app.play(code, &[written]).await.json();
        let by_iccs = app.play(code, &[iccs]).await.json();
        assert_eq!(by_text["code"], by_iccs["code"], "{written}");
    }
    // Without 前/后 the text fits two chariots: refused, naming both.
    let p = app
        .play(code, &["车二平四"])
        .await
        .problem(422, "illegal-action");
    assert_eq!(p["reason"], "ambiguous-move", "{p}");
    let detail = p["detail"].as_str().expect("a detail");
    assert!(
        detail.contains("h5f5") && detail.contains("h3f3"),
        "{detail}"
    );
    // A Chinese move no piece can make names why.
    let p = app
        .play(START, &["炮二进九"])
        .await
        .problem(422, "illegal-action");
    assert!(
        p["legal_actions"].as_array().is_some_and(|l| l.len() == 44),
        "{p}"
    );
    // Text in no notation at all stays malformed.
    let p = app
        .play(START, &["炮二飞五"])
        .await
        .problem(422, "malformed-action");
    assert!(
        p["detail"]
            .as_str()
            .is_some_and(|d| d.contains("Chinese or WXF")),
        "{p}"
    );
}
