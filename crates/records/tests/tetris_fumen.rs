//! Fumen v115 against the tests of knewjade's tetris-fumen library (see
//! `tests/data/tetris/README.md`): what each string decodes to, page by
//! page, and that every string encodes back to exactly what the library
//! writes.

use qipan_records::tetris::{decode, encode, Cell, EncodePage, Field, Operation};
use qipan_rules::tetris::{Kind, Rotation};

const VECTORS: &str = include_str!("data/tetris/fumen-vectors.tsv");

fn vectors() -> Vec<(String, String, String)> {
    VECTORS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_owned(), f[2].to_owned(), f[3].to_owned())
        })
        .collect()
}

fn vector(name: &str) -> String {
    vectors()
        .into_iter()
        .find(|v| v.0 == name)
        .map(|v| if v.1.is_empty() { v.2 } else { v.1 })
        .unwrap()
}

/// A field drawn as the library's tests draw one: rows top first, `_`
/// empty, a piece letter or `X` grey; the garbage row apart.
fn field(rows: &[&str], garbage: &str) -> Field {
    let mut f = Field::default();
    let cell = |c: char| match c {
        '_' => Cell::Empty,
        'X' => Cell::Gray,
        'I' => Cell::Piece(Kind::I),
        'L' => Cell::Piece(Kind::L),
        'O' => Cell::Piece(Kind::O),
        'Z' => Cell::Piece(Kind::Z),
        'T' => Cell::Piece(Kind::T),
        'J' => Cell::Piece(Kind::J),
        'S' => Cell::Piece(Kind::S),
        _ => panic!("{c}"),
    };
    for (i, row) in rows.iter().enumerate() {
        let y = (rows.len() - 1 - i) as i32;
        for (x, c) in row.chars().enumerate() {
            f.set(x as i32, y, cell(c));
        }
    }
    for (x, c) in garbage.chars().enumerate() {
        f.set(x as i32, -1, cell(c));
    }
    f
}

fn op(kind: Kind, rotation: Rotation, x: i32, y: i32) -> Option<Operation> {
    Some(Operation {
        kind,
        rotation,
        x,
        y,
    })
}

#[test]
fn every_string_encodes_back_as_the_library_writes_it() {
    for (name, input, expected) in vectors() {
        if input.is_empty() || expected.is_empty() {
            continue;
        }
        let pages = decode(&input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again: Vec<EncodePage> = pages.iter().map(EncodePage::from).collect();
        assert_eq!(encode(&again), expected, "{name}");
    }
}

#[test]
fn empty_mirror_and_rise() {
    let pages = decode(&vector("empty")).unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].field, Field::default());
    assert_eq!(pages[0].operation, None);
    assert_eq!(pages[0].comment, "");
    let f = pages[0].flags;
    assert!(f.lock && !f.mirror && f.colorize && !f.rise && !f.quiz);

    let pages = decode(&vector("mirror")).unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(
        pages[0].field,
        field(&["X_________", "XX________"], "XXX_______")
    );
    assert!(pages[0].flags.mirror);
    assert_eq!(
        pages[1].field,
        field(&["_________X", "________XX"], "XXX_______")
    );
    assert!(!pages[1].flags.mirror);

    let pages = decode(&vector("send")).unwrap();
    assert!(pages[0].flags.rise);
    assert_eq!(
        pages[1].field,
        field(&["X_________", "XX________", "XXX_______"], "__________")
    );
}

#[test]
fn pieces_comments_and_quizzes() {
    let pages = decode(&vector("I-Spawn")).unwrap();
    assert_eq!(pages[0].operation, op(Kind::I, Rotation::Spawn, 4, 0));
    let mut cells = pages[0].operation.unwrap().cells().to_vec();
    cells.sort_unstable();
    assert_eq!(cells, [(3, 0), (4, 0), (5, 0), (6, 0)]);

    let pages = decode(&vector("Comment")).unwrap();
    let comments: Vec<&str> = pages.iter().map(|p| p.comment.as_str()).collect();
    assert_eq!(comments, ["hello", "world", "world", "!"]);

    let pages = decode(&vector("Quiz")).unwrap();
    assert_eq!(pages.len(), 7);
    let comments: Vec<&str> = pages.iter().map(|p| p.comment.as_str()).collect();
    assert_eq!(
        comments,
        [
            "#Q=[](L)TSJ",
            "#Q=[](T)SJ",
            "#Q=[T](J)",
            "#Q=[T](J)",
            "#Q=[](J)",
            "",
            ""
        ]
    );
    assert_eq!(pages[0].operation, op(Kind::L, Rotation::Spawn, 8, 0));
    assert_eq!(pages[1].operation, op(Kind::S, Rotation::Spawn, 6, 0));
    assert_eq!(pages[2].operation, None);
    assert_eq!(pages[3].operation, op(Kind::T, Rotation::Right, 4, 1));
    assert_eq!(pages[4].operation, op(Kind::J, Rotation::Reverse, 7, 2));
    assert!(pages.iter().all(|p| p.flags.quiz));

    let pages = decode(&vector("No lock")).unwrap();
    assert!(!pages[0].flags.lock);

    let pages = decode(&vector("Lock after quiz")).unwrap();
    let comments: Vec<&str> = pages.iter().map(|p| p.comment.as_str()).collect();
    assert_eq!(comments, ["#Q=[](J)Z", "#Q=[](Z)", ""]);
    assert_eq!(pages[1].operation, op(Kind::Z, Rotation::Spawn, 8, 1));
    assert_eq!(pages[2].operation, op(Kind::O, Rotation::Spawn, 0, 0));

    let pages = decode(&vector("all cyan")).unwrap();
    let rows = vec!["IIIIIIIIII"; 23];
    assert_eq!(pages[0].field, field(&rows, "IIIIIIIIII"));
}

#[test]
fn the_long_record_has_every_page() {
    let long = vectors()
        .into_iter()
        .find(|v| v.0 == "long data")
        .unwrap()
        .1;
    let pages = decode(&long).unwrap();
    assert_eq!(pages.len(), 1826);
    assert_eq!(pages[0].operation, op(Kind::I, Rotation::Spawn, 1, 0));
    assert!(pages[0].comment.starts_with("#Q=[](I)STJOLZILJTOSZOJTZ"));
    assert_eq!(pages[0].field, Field::default());
}

#[test]
fn pages_written_from_scratch() {
    let quiz = EncodePage {
        comment: Some("#Q=[](J)ZSLTIO".into()),
        ..EncodePage::default()
    };
    assert_eq!(encode(&[quiz]), vector("quiz only (from scratch)"));

    let first = EncodePage {
        field: Some(field(
            &["LLL_______", "LOO_______", "JOO_______", "JJJ_______"],
            "XXXXXXXXX_",
        )),
        comment: Some("Perfect Clear Opener".into()),
        ..EncodePage::default()
    };
    let piece = |kind, rotation, x, y| EncodePage {
        operation: op(kind, rotation, x, y),
        ..EncodePage::default()
    };
    let pages = [
        first,
        piece(Kind::T, Rotation::Left, 9, 1),
        piece(Kind::Z, Rotation::Spawn, 7, 0),
        piece(Kind::S, Rotation::Spawn, 8, 2),
        EncodePage {
            comment: Some("Success: 61.19 %".into()),
            mirror: true,
            ..EncodePage::default()
        },
        EncodePage {
            comment: Some("(Mirror)".into()),
            ..EncodePage::default()
        },
    ];
    assert_eq!(
        encode(&pages),
        "v115@9gilGeglRpGeg0RpGei0GeI8AeAgWYAQIKvDll2TAS?IvBElCyTASIqPEFGNXEvhE9tB0sBXjBAwSYATwgkDlt0TAz?B88AQx2vAx178AwngHBAAPMAFbuYCJciNEyoAVB"
    );
}

#[test]
fn bad_fumens_are_named() {
    use qipan_records::tetris::FumenError;
    assert_eq!(decode("hello"), Err(FumenError::NotFumen));
    assert!(matches!(
        decode("v110@7eAA4G"),
        Err(FumenError::UnsupportedVersion { .. })
    ));
    assert!(matches!(
        decode("v115@vh!AgH"),
        Err(FumenError::BadCharacter {
            offset: 2,
            character: '!'
        })
    ));
    assert!(matches!(
        decode("v115@vhAAg"),
        Err(FumenError::Truncated { page: 1, .. })
    ));
}
