//! ECCO codes of known openings.
//!
//! Expected codes come from xqbase's classification rules read by hand
//! (the first-move families, and C20's defining line), and from the ECCO
//! tags xqbase's own classifier (ElephantEye's `ECCO.DLL`) wrote into the
//! CCGC games; names from the ECCO directory.

use qipan_records::xiangqi::{ecco, pgn};
use qipan_rules::xiangqi::{read_move, Move, Position};

fn line(texts: &[&str]) -> Vec<Move> {
    let mut pos = Position::start();
    texts
        .iter()
        .map(|t| {
            let m = read_move(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            pos = pos.play(m).unwrap();
            m
        })
        .collect()
}

fn code(texts: &[&str]) -> &'static str {
    ecco::classify(&Position::start(), &line(texts))
        .expect("a game from the start has an opening")
        .code
}

#[test]
fn first_move_families_and_their_mirrors() {
    for (texts, want, name) in [
        (&["炮二平五"][..], "B00", "中炮局"),
        (&["炮八平五"][..], "B00", "中炮局"),
        (&["炮二平五", "炮８平５"][..], "D00", "顺炮缓开车对其他"),
        (&["炮二平五", "炮２平５"][..], "D50", "中炮对列炮"),
        (&["兵三进一"][..], "E00", "仙人指路局"),
        (&["兵七进一"][..], "E00", "仙人指路局"),
        (&["相三进五"][..], "A10", "飞相局"),
        (&["马二进三"][..], "A40", "起马局"),
        (&["炮二平六"][..], "A60", "过宫炮局"),
        (&[][..], "A00", "其他开局"),
    ] {
        let opening = ecco::classify(&Position::start(), &line(texts)).unwrap();
        assert_eq!((opening.code, opening.name), (want, name), "{texts:?}");
    }
}

#[test]
fn screen_horse_lines() {
    // C20 is defined by these ten plies in any order within each side.
    let c20 = [
        "炮二平五",
        "马８进７",
        "马二进三",
        "车９平８",
        "车一平二",
        "卒７进１",
        "车二进六",
        "马２进３",
        "马八进七",
        "卒３进１",
    ];
    assert_eq!(code(&c20), "C20");
    let transposed = [
        "炮二平五",
        "马８进７",
        "马二进三",
        "卒７进１",
        "车一平二",
        "车９平８",
        "车二进六",
        "马２进３",
        "马八进七",
        "卒３进１",
    ];
    assert_eq!(code(&transposed), "C20");
    let opening = ecco::opening("C20").unwrap();
    assert_eq!(opening.name, "中炮过河车七路马对屏风马两头蛇");
}

#[test]
fn not_from_the_start_has_no_opening() {
    let endgame = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    assert_eq!(ecco::classify(&endgame, &[]), None);
}

#[test]
fn the_table_plays() {
    let text = include_str!("../data/ecco-lines.tsv");
    let mut rows = 0;
    for row in text.lines().filter(|l| !l.starts_with('#')) {
        let (code, moves) = row.split_once('\t').expect("code and line");
        assert!(ecco::opening(code).is_some(), "{code} has no name");
        let mut pos = Position::start();
        let moves: Vec<Move> = moves.split(' ').map(|m| m.parse().expect("ICCS")).collect();
        assert!(moves[0].from.file() >= 4, "{row}: starts on red's left");
        for m in moves {
            pos = pos.play(m).unwrap_or_else(|e| panic!("{row}: {e}"));
        }
        rows += 1;
    }
    assert!(rows > 300, "{rows} rows");
}

/// The CCGC games carry the ECCO tags xqbase's own classifier wrote: the
/// names of those codes must be the ones in the directory, and the codes
/// this crate gives must agree as often as `scripts/ecco/README.md`
/// measures (the table approximates the rules; see there).
#[test]
fn ccgc_games_against_the_codes_xqbase_gave_them() {
    let (mut exact, mut tens) = (0, 0);
    for i in 1..=20 {
        let path = format!(
            "{}/tests/data/xiangqi/eleeye/ccgc-{i:02}.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        let game = pgn::read(&std::fs::read(&path).unwrap(), None)
            .unwrap()
            .remove(0);
        let tagged = game.headers.ecco.clone().expect("an ECCO tag");
        let named = ecco::opening(&tagged).expect("a code of the directory");
        assert_eq!(Some(named.name), game.headers.opening.as_deref(), "{path}");
        assert_eq!(
            named.variation,
            game.headers.variation.as_deref().unwrap_or(""),
            "{path}"
        );
        let ours = game.opening().expect("from the start").code;
        exact += usize::from(ours == tagged);
        tens += usize::from(ours[..2] == tagged[..2]);
    }
    assert!(
        exact >= 16 && tens >= 18,
        "{exact} exact, {tens} to the tens"
    );
}
