//! Bad input: truncated, mis-encoded, illegal, malformed and oversized
//! files each get their own error, with where; nothing panics.

use proptest::prelude::*;
use qipan_records::xiangqi::pgn::{self, BadMove, Location, PgnError};
use qipan_records::xiangqi::xqf::{self, XqfError};
use qipan_records::xiangqi::{dhtmlxq, dhtmlxq::DhtmlXqError, Charset, EncodingError};
use qipan_records::MAX_INPUT_BYTES;
use qipan_rules::xiangqi::{IllegalMove, MoveTextError, ResolveError, Side};
use qipan_rules::Reason;

fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/xiangqi/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn pgn_error(text: &str) -> PgnError {
    pgn::read(text.as_bytes(), Some(Charset::Utf8)).expect_err(text)
}

#[test]
fn every_cut_of_an_xqf_file_is_refused_with_its_offset() {
    let whole = data("eleeye/sample.xqf");
    assert!(xqf::read(&whole).is_ok());
    for len in 0..whole.len() {
        let err = xqf::read(&whole[..len]).expect_err("a cut file");
        match (len, &err) {
            (0..=1, XqfError::NotXqf { .. }) => {}
            (
                2..=1023,
                XqfError::Truncated {
                    what,
                    offset: 0,
                    length,
                    ..
                },
            ) => {
                assert_eq!((*what, *length), ("the header", len));
            }
            (
                _,
                XqfError::Truncated {
                    offset,
                    length,
                    needed,
                    ..
                },
            ) => {
                assert_eq!(*length, len);
                assert!(*offset >= 0x400 && offset + needed > len, "{len}: {err}");
            }
            _ => panic!("cut at {len}: {err:?}"),
        }
        assert_eq!(err.reason(), if len < 2 { "not-xqf" } else { "truncated" });
    }
}

#[test]
fn xqf_corruption_names_the_offset() {
    let mut bytes = data("cchess/test1.xqf");
    assert_eq!(bytes[2], 10);
    // In a version 1.0 file the first move follows step 0 (eight bytes at
    // 0x400) and its comment, whose length is at 0x404.
    let root_comment = i32::from_le_bytes(bytes[0x404..0x408].try_into().unwrap());
    let first = 0x408 + usize::try_from(root_comment).unwrap();
    // Its origin moved off the board.
    bytes[first] = 24 + 95;
    assert_eq!(
        xqf::read(&bytes),
        Err(XqfError::BadSquare {
            offset: first,
            value: 95
        })
    );
    // A negative comment length, and one past the end of the file.
    let mut bytes = data("cchess/test1.xqf");
    bytes[0x404..0x408].copy_from_slice(&(-5i32).to_le_bytes());
    let err = xqf::read(&bytes).unwrap_err();
    assert_eq!(err.reason(), "bad-comment-length");
    assert!(matches!(
        err,
        XqfError::BadComment {
            offset: 0x404,
            length: -5,
            ..
        }
    ));
    bytes[0x404..0x408].copy_from_slice(&1_000_000i32.to_le_bytes());
    let err = xqf::read(&bytes).unwrap_err();
    assert_eq!(err.reason(), "truncated");
    assert!(matches!(
        err,
        XqfError::Truncated {
            what: "a comment",
            offset: 0x408,
            needed: 1_000_000,
            ..
        }
    ));
    // Two pieces on one point.
    let mut bytes = data("cchess/test1.xqf");
    bytes[0x11] = bytes[0x10];
    assert_eq!(
        xqf::read(&bytes).unwrap_err().reason(),
        "overlapping-pieces"
    );
    // An illegal move: cchess keeps files with one to test its reader
    // (BadMoveTest3.xqf, version 18), where the 10th ply moves from an
    // empty point.
    let err = xqf::read(&data("cchess/BadMoveTest3.xqf")).unwrap_err();
    assert_eq!(err.reason(), "illegal-move");
    assert!(
        matches!(
            err,
            XqfError::IllegalMove {
                ply: 10,
                error: IllegalMove::NoPiece { .. },
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        xqf::read(b"PK\x03\x04"),
        Err(XqfError::NotXqf {
            found: b"PK".to_vec()
        })
    );
}

#[test]
fn mis_encoded_pgn() {
    // A GBK file said to be UTF-8: the first GBK byte is named.
    let gbk = data("eleeye/sample.pgn");
    let first_high = gbk.iter().position(|&b| b >= 0x80).unwrap();
    let err = pgn::read(&gbk, Some(Charset::Utf8)).unwrap_err();
    assert_eq!(
        err,
        PgnError::Encoding(EncodingError::Invalid {
            charset: Charset::Utf8,
            offset: first_high
        })
    );
    assert_eq!(err.reason(), "bad-encoding");
    // A Big5 file said to be GBK decodes, but into characters that are no
    // move: the first move is unreadable, and the error says which.
    let big5 = data("eleeye/sample-variation-big5.pgn");
    let err = pgn::read(&big5, Some(Charset::Gbk)).unwrap_err();
    assert_eq!(err.reason(), "unreadable-move");
    assert!(
        matches!(&err, PgnError::Move(m) if m.number == 1 && m.side == Side::Red),
        "{err}"
    );
    // Bytes that are text in no charset.
    let err = pgn::read(b"\xff\xff\xff\xff", None).unwrap_err();
    assert_eq!(err.reason(), "bad-encoding");
}

#[test]
fn an_illegal_move_names_its_number_text_reason_and_the_legal_moves() {
    let err = pgn_error("[Red \"甲\"]\n1. 炮二平五 马８进７\n2. 马二进三 炮８进８ *");
    let PgnError::Move(bad) = &err else {
        panic!("{err:?}");
    };
    let BadMove {
        game,
        number,
        side,
        text,
        at,
        error,
        legal,
    } = bad.as_ref();
    assert_eq!(
        (*game, *number, *side, text.as_str()),
        (1, 2, Side::Black, "炮８进８")
    );
    assert_eq!(
        *at,
        Location {
            offset: 31,
            line: 3,
            column: 9
        }
    );
    assert!(matches!(
        error,
        MoveTextError::Resolve(ResolveError::Impossible { .. })
    ));
    assert_eq!(err.reason(), "illegal-move");
    // The legal moves are black's, in Chinese: the chariot may now cross
    // to the file the horse left.
    assert!(legal.contains(&"车9平8".to_owned()), "{legal:?}");
    assert!(legal.iter().all(|m| m.chars().count() == 4));
    let msg = err.to_string();
    assert!(
        msg.contains("move 2 (black)") && msg.contains("炮８进８"),
        "{msg}"
    );

    // WXF text gets its legal moves in WXF.
    let err = pgn_error("[Format \"WXF\"]\n1. C2.5 H8+7 2. H2+3 C8+8 *");
    let PgnError::Move(bad) = &err else {
        panic!("{err:?}");
    };
    assert!(bad.legal.contains(&"R9.8".to_owned()), "{:?}", bad.legal);

    // An unreadable move.
    let err = pgn_error("1. 炮二走五 *");
    assert_eq!(err.reason(), "unreadable-move");
    // An ambiguous one lists its candidates in the error.
    let err = pgn_error(
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/7R1/9/P1P1P1PRP/1C5C1/9/1NBAKABN1 w\"]\n1. 车二进一 *",
    );
    assert!(err.to_string().contains("前车进一"), "{err}");
}

#[test]
fn malformed_pgn_gets_specific_errors() {
    let cases: [(&str, &str, (usize, usize)); 8] = [
        ("1. 炮二平五 {never closed", "unterminated-comment", (1, 9)),
        (
            "1. 炮二平五 马８进７ ) *",
            "unbalanced-parenthesis",
            (1, 14),
        ),
        (
            "1. 炮二平五 (1. 炮八平五 *",
            "unterminated-variation",
            (1, 9),
        ),
        ("( 1. 炮二平五 ) *", "variation-without-move", (1, 1)),
        ("[Event \"x\"\n1. 炮二平五 *", "malformed-tag", (1, 1)),
        ("[Event x]\n*", "malformed-tag", (1, 1)),
        ("[FEN \"9/9 w\"]\n*", "invalid-fen", (1, 1)),
        (
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNN w\"]\n*",
            "too-many-pieces",
            (1, 1),
        ),
    ];
    for (text, reason, (line, column)) in cases {
        let err = pgn_error(text);
        let want = match reason {
            "too-many-pieces" => "invalid-fen",
            r => r,
        };
        assert_eq!(err.reason(), want, "{text}: {err}");
        let at = match &err {
            PgnError::UnterminatedComment { at, .. }
            | PgnError::UnbalancedParenthesis { at, .. }
            | PgnError::UnterminatedVariation { at, .. }
            | PgnError::VariationWithoutMove { at, .. }
            | PgnError::MalformedTag { at, .. }
            | PgnError::Fen { at, .. } => *at,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!((at.line, at.column), (line, column), "{text}");
    }
    assert_eq!(pgn_error("   ").reason(), "no-game");
    let deep = format!("1. 炮二平五 {} *", "(1. 炮八平五 ".repeat(200));
    assert_eq!(pgn_error(&deep).reason(), "too-deep");
}

#[test]
fn oversized_input_is_refused_before_it_is_read() {
    let big = vec![b' '; MAX_INPUT_BYTES + 1];
    assert_eq!(pgn::read(&big, None).unwrap_err().reason(), "too-large");
    assert_eq!(xqf::read(&big).unwrap_err().reason(), "too-large");
    assert_eq!(dhtmlxq::read(&big, None).unwrap_err().reason(), "too-large");
}

#[test]
fn malformed_dhtmlxq() {
    let err = |text: &str| dhtmlxq::read_text(text).unwrap_err();
    assert_eq!(err("plain text"), DhtmlXqError::NotDhtmlXq);
    assert_eq!(
        err("[DhtmlXQ_movelist]7747"),
        DhtmlXqError::Unclosed {
            field: "movelist".into(),
            offset: 0
        }
    );
    assert_eq!(
        err("[DhtmlXQ_movelist]774[/DhtmlXQ_movelist]").reason(),
        "bad-move-list"
    );
    assert_eq!(
        err("[DhtmlXQ_movelist]77x7[/DhtmlXQ_movelist]").reason(),
        "bad-move-list"
    );
    assert_eq!(
        err("[DhtmlXQ_binit]12[/DhtmlXQ_binit]").reason(),
        "bad-start"
    );
    let e = err("[DhtmlXQ_movelist]77477747[/DhtmlXQ_movelist]");
    assert!(
        matches!(
            e,
            DhtmlXqError::IllegalMove {
                ply: 2,
                offset: 22,
                ..
            }
        ),
        "{e:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any bytes: an error or a record, never a panic.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = pgn::read(&bytes, None);
        let _ = dhtmlxq::read(&bytes, None);
        let mut xq = b"XQ".to_vec();
        xq.extend(&bytes);
        let _ = xqf::read(&xq);
        let mut header = vec![0u8; 0x400];
        header[..2].copy_from_slice(b"XQ");
        header[2] = bytes.first().copied().unwrap_or(18);
        header.extend(&bytes);
        let _ = xqf::read(&header);
    }

    /// A real file with bytes changed: an error or a record, never a panic.
    #[test]
    fn corrupted_files_never_panic(flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..16)) {
        for path in ["eleeye/sample.xqf", "cchess/test1.xqf", "eleeye/sample.pgn"] {
            let mut bytes = data(path);
            for &(i, b) in &flips {
                let n = bytes.len();
                bytes[i % n] = b;
            }
            let _ = xqf::read(&bytes);
            let _ = pgn::read(&bytes, None);
        }
    }
}

/// The `dhtmlxq` fuzz target's crash of 2026-11-28
/// (`fuzz/seeds/dhtmlxq/bad-field-name`): `[DhtmlXQ_titl[DhtmlXQ]…` was
/// read as a field named `titl[dhtmlxq`, kept among the headers, and
/// written as a PGN tag that the PGN reader refuses. A field name is
/// letters, digits and `_`; anything else is not a field.
#[test]
fn a_dhtmlxq_field_name_with_a_bracket_is_no_field() {
    use qipan_rules::xiangqi::Family;
    let text = "[DhtmlXQ]\n[DhtmlXQ_titl[DhtmlXQ]\n[DhtmleXQ_tiXQ_title]test\
                [/DhtmlXQ_titl[DhtmlXQ]\n[DhtmleXQ_title]te";
    // The fuzzer's bytes, which this text spells out.
    let crash = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/dhtmlxq/bad-field-name"
    ))
    .expect("the seed");
    assert_eq!(crash, text.as_bytes());
    match dhtmlxq::read(text.as_bytes(), None) {
        Ok(record) => {
            assert!(record.headers.other.is_empty(), "{:?}", record.headers);
            let written = pgn::write(&record, Family::Wxf, Charset::Utf8).expect("writes");
            let back = pgn::read(&written, Some(Charset::Utf8)).expect("written PGN reads");
            assert_eq!(back, vec![record]);
        }
        Err(e) => assert!(!e.reason().is_empty()),
    }
    // A well-named unknown field is still kept.
    let text = "[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\
                [DhtmlXQ_author_id]42[/DhtmlXQ_author_id][/DhtmlXQ]";
    let record = dhtmlxq::read(text.as_bytes(), None).expect("reads");
    assert_eq!(
        record.headers.other,
        [("author_id".to_owned(), "42".to_owned())]
    );
}
