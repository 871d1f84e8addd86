//! Records from real files, read and written back.
//!
//! The files and where they come from are listed in
//! `data/xiangqi/README.md`; the expected values below come from the files
//! themselves or from the programs and pages named beside each test, never
//! from this crate's own output.

use qipan_records::xiangqi::{dhtmlxq, pgn, xqf, Charset, Outcome, Record, Step};
use qipan_rules::xiangqi::{chinese, read_move, Family, Move, Position};

fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/xiangqi/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn one_pgn(path: &str) -> Record {
    let mut games = pgn::read(&data(path), None).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(games.len(), 1, "{path}");
    games.remove(0)
}

fn read_xqf(path: &str) -> Record {
    xqf::read(&data(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The Chinese names of a line from `start`, black's digits full-width as
/// xqbase and cchess write them.
fn names(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    line.iter()
        .map(|&m| {
            let name: String = chinese(&pos, m)
                .expect("a piece on the origin")
                .chars()
                .map(|c| match c {
                    '1'..='9' => char::from_u32(c as u32 - '1' as u32 + '１' as u32).unwrap_or(c),
                    other => other,
                })
                .collect();
            pos = pos.play(m).expect("a legal move");
            name
        })
        .collect()
}

/// Every line from the start to a leaf: the main line, then the lines
/// through each variation.
fn leaves(line: &[Step]) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    let main: Vec<Move> = line.iter().map(|s| s.mv).collect();
    out.push(main.clone());
    for (i, step) in line.iter().enumerate() {
        for variation in &step.variations {
            for tail in leaves(variation) {
                let mut path = main[..i].to_vec();
                path.extend(tail);
                out.push(path);
            }
        }
    }
    out
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The comments of a line and its variations, in order.
fn comments(line: &[Step]) -> Vec<String> {
    let mut out = Vec::new();
    for step in line {
        if let Some(c) = &step.comment {
            out.push(squash(c));
        }
        for v in &step.variations {
            out.extend(comments(v));
        }
    }
    out
}

/// A move list as cchess's `*_move.txt` files write it: the FEN, one
/// Chinese move a line, the result.
fn move_list(path: &str) -> (String, Vec<String>, String) {
    let text = String::from_utf8(data(path)).expect("UTF-8");
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let (fen, rest) = lines.split_first().expect("a FEN line");
    let (result, moves) = rest.split_last().expect("a result line");
    (
        fen.to_string(),
        moves.iter().map(|m| m.to_string()).collect(),
        result.to_string(),
    )
}

#[test]
fn xqbase_sample_xqf_and_its_pgn_agree() {
    // XQFTOOLS/SAMPLE.XQF (version 18, encrypted) and SAMPLE.PGN, which
    // xqbase converted from it: the same handicap game, the same comments.
    let from_xqf = read_xqf("eleeye/sample.xqf");
    let from_pgn = one_pgn("eleeye/sample.pgn");
    assert_eq!(
        from_pgn.start.to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    assert_eq!(from_xqf.start.position, from_pgn.start.position);
    assert_eq!(from_xqf.main_line(), from_pgn.main_line());
    assert_eq!(from_pgn.moves.len(), 75);
    assert_eq!(from_xqf.headers.red.as_deref(), Some("许银川"));
    assert_eq!(from_xqf.headers.black.as_deref(), Some("聂卫平"));
    assert_eq!(from_pgn.headers.black.as_deref(), Some("聂卫平"));
    assert_eq!(from_xqf.headers.result, Outcome::RedWins);
    assert_eq!(from_pgn.headers.result, Outcome::RedWins);
    assert_eq!(from_xqf.headers.event, from_pgn.headers.event);
    assert_eq!(from_xqf.headers.date, from_pgn.headers.date);
    assert_eq!(
        from_xqf.comment.as_deref().map(squash),
        from_pgn.comment.as_deref().map(squash)
    );
    let xc = comments(&from_xqf.moves);
    assert_eq!(xc, comments(&from_pgn.moves));
    assert!(xc.len() >= 10, "{} comments", xc.len());
    assert_eq!(
        names(&from_pgn.start.position, &from_pgn.main_line()[..4]),
        ["炮八平五", "炮８平５", "炮五进五", "象７进５"]
    );
}

#[test]
fn gbk_and_big5_pgn_with_a_variation() {
    // The xqbase sample with the variation xqbase's PGN standard writes for
    // its move 7, in GBK and (converted with OpenCC, encoded by Python) in
    // Big5 with traditional characters.
    let want = [
        "炮２平３",
        "帅五平六",
        "炮３进５",
        "车六进一",
        "将５进１",
        "炮五退二",
    ];
    for (path, charset, comment) in [
        (
            "eleeye/sample-variation-gbk.pgn",
            Charset::Gbk,
            "黑方不易驾驭局面",
        ),
        (
            "eleeye/sample-variation-big5.pgn",
            Charset::Big5,
            "黑方不易駕馭局面",
        ),
    ] {
        let bytes = data(path);
        let detected = pgn::read(&bytes, None).unwrap_or_else(|e| panic!("{path}: {e}"));
        let named = pgn::read(&bytes, Some(charset)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(detected, named, "{path}");
        let game = &detected[0];
        assert_eq!(game.main_line(), read_xqf("eleeye/sample.xqf").main_line());
        let step = &game.moves[13];
        assert_eq!(step.variations.len(), 1, "{path}");
        let variation = &step.variations[0];
        let before = &game.positions().unwrap()[13];
        let line: Vec<Move> = variation.iter().map(|s| s.mv).collect();
        assert_eq!(names(before, &line), want, "{path}");
        assert_eq!(variation[5].comment.as_deref(), Some(comment), "{path}");
    }
}

#[test]
fn xqf_versions_10_and_18_hold_the_same_game() {
    // cchess's test1.xqf (version 10, plain) and xqbase's XQFEXAMA.XQF
    // (version 18, encrypted): 柳大华 v 吕钦, 1997, whose first 16 plies
    // XQF.TXT prints, and whose moves cchess lists in test1_move.txt.
    let v10 = read_xqf("cchess/test1.xqf");
    let v18 = read_xqf("eleeye/xqfexama.xqf");
    assert_eq!(data("cchess/test1.xqf")[2], 10);
    assert_eq!(data("eleeye/xqfexama.xqf")[2], 18);
    assert_eq!(v10.main_line(), v18.main_line());
    let printed = [
        "兵七进一",
        "马８进７",
        "兵三进一",
        "炮２平３",
        "相七进五",
        "马２进１",
        "马八进七",
        "车１平２",
        "车九平八",
        "车２进４",
        "炮八平九",
        "车２平８",
        "炮二进五",
        "炮３平８",
        "马二进三",
        "车９平８",
    ];
    let mut pos = Position::start();
    for (text, step) in printed.iter().zip(&v18.moves) {
        let m = read_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m, step.mv, "{text}");
        pos = pos.play(m).unwrap();
    }
    let (fen, moves, result) = move_list("cchess/test1_move.txt");
    assert_eq!(
        format!(
            "{} w",
            v10.start.position.to_fen().split(' ').next().unwrap()
        ),
        fen
    );
    assert_eq!(names(&v10.start.position, &v10.main_line()), moves);
    assert_eq!(result, "黑胜");
    assert_eq!(v10.headers.result, Outcome::BlackWins);
    assert_eq!(v18.headers.red.as_deref(), Some("柳大华"));
}

#[test]
fn xqf_version_16_endgame() {
    // cchess's ucci_test1.xqf (version 16) and its move list.
    let record = read_xqf("cchess/ucci_test1.xqf");
    assert_eq!(data("cchess/ucci_test1.xqf")[2], 16);
    let (fen, moves, result) = move_list("cchess/ucci_test1_move.txt");
    assert_eq!(record.start.position.to_fen(), format!("{fen} - - 0 1"));
    assert_eq!(names(&record.start.position, &record.main_line()), moves);
    assert_eq!(result, "红胜");
}

#[test]
fn xqf_version_12_reads() {
    // cchess's BadMoveTest2.xqf, version 12: the start bytes are rotated as
    // well as shifted; a wrong key would misplace the pieces and no move
    // would play.
    let record = read_xqf("cchess/BadMoveTest2.xqf");
    assert_eq!(data("cchess/BadMoveTest2.xqf")[2], 12);
    assert_eq!(record.start.position, Position::start());
    assert_eq!(record.moves.len(), 35);
    assert_eq!(record.headers.red.as_deref(), Some("林糟霖"));
}

#[test]
fn xqf_variations_as_cchess_lists_them() {
    // cchess's tests/test_read_xqf.py lists every line of these two files.
    for (path, want) in [
        (
            "cchess/test_5_variations.xqf",
            vec![
                "炮二平五,炮８平５,马二进三,马８进７,兵三进一,车９平８",
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,车二进六,车９平４",
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,卒７进１,兵七进一,车９进１",
                "炮二平五,炮８平５,马二进三,马８进７,车一进一,车９平８,车一平六,马２进３,马八进七,卒３进１",
                "炮二平六,马８进７,马二进三,车９平８,车一平二",
            ],
        ),
        (
            "cchess/game_varations.xqf",
            vec![
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进七,马２进３",
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵三进一,卒３进１",
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,兵七进一,车９平４",
                "炮二平五,炮８平５,马二进三,马８进７,车一平二,车９进１,马八进九,马２进３",
                "炮二平五,马８进７,马二进三,卒７进１,车一平二,车９平８,兵七进一,马２进３",
                "炮二平五,马８进７,马二进三,卒７进１,车一平二,炮２平５,车二进六,马２进３",
            ],
        ),
    ] {
        let record = read_xqf(path);
        let mut got: Vec<String> = leaves(&record.moves)
            .iter()
            .map(|l| names(&record.start.position, l).join(","))
            .collect();
        let mut want: Vec<String> = want.into_iter().map(str::to_owned).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{path}");
    }
}

#[test]
fn a_large_xqf_with_a_broken_variation() {
    // cchess's WildHouse.xqf (version 18): cchess's test counts 139 lines;
    // one variation moves from an empty point at ply 74, which ends that
    // variation there.
    let record = read_xqf("cchess/WildHouse.xqf");
    assert_eq!(leaves(&record.moves).len(), 139);
    assert_eq!(record.moves.len(), 65);
}

#[test]
fn ccgc_games_read_with_their_tags() {
    // The 1st Chinese Computer Games Championship games xqbase publishes
    // with ElephantEye: every move token of each file becomes a move.
    for i in 1..=20 {
        let path = format!("eleeye/ccgc-{i:02}.pgn");
        let bytes = data(&path);
        let text = encoding_rs::GB18030.decode(&bytes).0.into_owned();
        let tokens = text
            .split_whitespace()
            .filter(|t| t.chars().count() == 4 && t.chars().all(|c| !c.is_ascii()))
            .count();
        let game = one_pgn(&path);
        assert_eq!(game.moves.len(), tokens, "{path}");
        assert!(game.headers.ecco.is_some(), "{path}");
        assert_eq!(
            game.headers.event.as_deref(),
            Some("1st Chinese Computer Games Championship, Beijing 2006"),
            "{path}"
        );
    }
}

#[test]
fn iccs_and_wxf_pgn() {
    // xiangqi.js's README: 柳大华 v 杨官璘, 1982, in ICCS, and the position
    // xiangqi.js reaches at its end; the WXF file is the same game written
    // by Fairy-Stockfish's WXF writer (pyffish).
    let iccs = one_pgn("xiangqijs/liu-yang-1982-iccs.pgn");
    assert_eq!(iccs.moves.len(), 125);
    let end = iccs.end().unwrap();
    assert_eq!(
        end.to_fen(),
        "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b - - 0 1"
    );
    assert_eq!(iccs.headers.result, Outcome::Draw);
    let wxf = one_pgn("xiangqijs/liu-yang-1982-wxf.pgn");
    assert_eq!(wxf.main_line(), iccs.main_line());
    assert_eq!(wxf.headers.red.as_deref(), Some("柳大华"));
}

#[test]
fn full_width_wxf_games() {
    // wukong-xiangqi's bulk_games.pgn: 15 games in WXF written with
    // full-width characters, front pawns as `＋Ｐ`, no result tokens.
    let bytes = data("wukong/bulk-games-wxf.pgn");
    let games = pgn::read(&bytes, None).unwrap();
    assert_eq!(games.len(), 15);
    let text = String::from_utf8(bytes).unwrap();
    for (game, block) in games.iter().zip(text.split("[Event").skip(1)) {
        let tokens = block
            .split_whitespace()
            .filter(|t| t.chars().count() == 4 && t.chars().all(|c| !c.is_ascii()))
            .count();
        assert_eq!(game.moves.len(), tokens, "{:?}", game.headers.event);
    }
    assert_eq!(games[0].headers.red.as_deref(), Some("ZHAO GuoRong"));
}

#[test]
fn dhtmlxq_main_line_and_comments() {
    // A dpxq.com block as vschess ships it, cut to its first 30 branches.
    let record = dhtmlxq::read(&data("vschess/dpxq-xianren-zhilu.txt"), None).unwrap();
    assert_eq!(record.moves.len(), 53);
    assert_eq!(record.start.position, Position::start());
    assert_eq!(
        names(&record.start.position, &record.main_line()[..3]),
        ["兵七进一", "卒７进１", "马八进七"]
    );
    assert!(record
        .comment
        .as_deref()
        .is_some_and(|c| c.starts_with("本文介绍20世纪90年代")));
    assert_eq!(record.moves[52].comment.as_deref(), Some("和"));
    assert_eq!(
        record.headers.event.as_deref(),
        Some("仙人指路全集（史上最全最新版）")
    );
    // Every branch adds one line: the main line and 30 more.
    assert_eq!(leaves(&record.moves).len(), 31);
    // move_0_7_1 (6947…) plays 相三进五 instead of the main line's 7th ply,
    // and comment1_44 follows that branch's 44th ply.
    let branch = &record.moves[6].variations[0];
    let before = &record.positions().unwrap()[6];
    assert_eq!(names(before, &[branch[0].mv]), ["相三进五"]);
    assert_eq!(branch[44 - 7].comment.as_deref(), Some("和"));
}

/// Every record the tests read from files.
fn all_records() -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for path in [
        "eleeye/sample.pgn",
        "eleeye/sample-variation-gbk.pgn",
        "eleeye/sample-variation-big5.pgn",
        "xiangqijs/liu-yang-1982-iccs.pgn",
        "cchess/test2.pgn",
        "cchess/endgame_test.pgn",
    ] {
        out.push((path.to_owned(), one_pgn(path)));
    }
    for i in 1..=20 {
        let path = format!("eleeye/ccgc-{i:02}.pgn");
        out.push((path.clone(), one_pgn(&path)));
    }
    for path in [
        "eleeye/sample.xqf",
        "eleeye/xqfexama.xqf",
        "eleeye/xqfexamb.xqf",
        "cchess/test1.xqf",
        "cchess/BadMoveTest1.xqf",
        "cchess/BadMoveTest2.xqf",
        "cchess/ucci_test1.xqf",
        "cchess/game_varations.xqf",
        "cchess/test_5_variations.xqf",
        "cchess/huang-feng-030.xqf",
        "cchess/WildHouse.xqf",
    ] {
        out.push((path.to_owned(), read_xqf(path)));
    }
    for (i, game) in pgn::read(&data("wukong/bulk-games-wxf.pgn"), None)
        .unwrap()
        .into_iter()
        .enumerate()
    {
        out.push((format!("wukong/bulk-games-wxf.pgn #{}", i + 1), game));
    }
    let dpxq = dhtmlxq::read(&data("vschess/dpxq-xianren-zhilu.txt"), None).unwrap();
    out.push(("vschess/dpxq-xianren-zhilu.txt".to_owned(), dpxq));
    out
}

#[test]
fn every_record_writes_to_pgn_and_reads_back() {
    for (path, record) in all_records() {
        for notation in [Family::Chinese, Family::Wxf, Family::Iccs] {
            for charset in [Charset::Utf8, Charset::Gbk] {
                let bytes = pgn::write(&record, notation, charset).unwrap();
                let back = pgn::read(&bytes, Some(charset))
                    .unwrap_or_else(|e| panic!("{path} {notation} {charset}: {e}"));
                assert_eq!(back, vec![record.clone()], "{path} {notation} {charset}");
            }
        }
    }
}

#[test]
fn every_record_writes_to_xqf_and_reads_back() {
    for (path, record) in all_records() {
        let bytes = xqf::write(&record).unwrap();
        assert_eq!(&bytes[..3], b"XQ\x0a", "{path}");
        let back = xqf::read(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(back.start, record.start, "{path}");
        assert_eq!(back.comment, record.comment, "{path}");
        assert_eq!(back.moves, record.moves, "{path}");
        assert_eq!(back.headers.result, record.headers.result, "{path}");
        // XQF keeps 15 bytes of GBK for a name: a longer one is cut at a
        // character.
        for (got, want) in [
            (&back.headers.red, &record.headers.red),
            (&back.headers.black, &record.headers.black),
        ] {
            let want = want.as_deref().unwrap_or("");
            let got = got.as_deref().unwrap_or("");
            assert!(want.starts_with(got), "{path}: {got} {want}");
            let fits = encoding_rs::GB18030.encode(want).0.len() <= 15;
            assert_eq!(got == want, fits, "{path}: {got} {want}");
        }
    }
}
