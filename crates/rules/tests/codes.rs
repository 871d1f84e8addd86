//! The xiangqi state code (43 characters) and FEN: one test per rule, each
//! naming the exact error and its fields.
//!
//! Where the expected values come from:
//! - the seed (`shared/seeds/002_db2033b4de0ce4be.txt`): the start array
//!   `[85, 84, 86, …, 35]`, the 32-byte layout and the printed code with its
//!   typo;
//! - `shared/product.md`, "State codes": slot order, square = row × 9 + file
//!   with row 0 at black's back rank, 90 = captured, side to move in the top
//!   bit of byte 0, same-kind pieces in ascending order, URL-safe base64
//!   without padding (RFC 4648 §5);
//! - hand computation, shown next to each value. Expected codes are built from
//!   hand-written bytes with the `base64` crate's `URL_SAFE_NO_PAD` engine
//!   (RFC 4648 §5), not with the crate under test. `base64` is a normal
//!   dependency of `qipan-rules`, and Cargo gives integration tests the
//!   package's normal dependencies as well as its dev-dependencies.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use qipan_rules::code::SyntaxError;
use qipan_rules::xiangqi::{
    CodeError, FenError, Piece, Position, PositionError, Role, Setup, Side, Square, CODE_LEN,
};

/// The seed's start array, copied from the article.
const START: [u8; 32] = [
    85, 84, 86, 83, 87, 82, 88, 81, 89, 64, 70, 54, 56, 58, 60, 62, 4, 3, 5, 2, 6, 1, 7, 0, 8, 19,
    25, 27, 29, 31, 33, 35,
];

/// The seed's array in URL-safe base64. It differs from the code printed in
/// the seed (`…PkQD…`) in one character; see
/// `seed_printed_code_is_refused_black_general_on_f2`.
const START_CODE: &str = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";

/// The start FEN (product.md, "State codes").
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

// First byte of each kind, from product.md's slot order: general, advisors
// ×2, elephants ×2, horses ×2, chariots ×2, cannons ×2, soldiers ×5, then
// black in the same order from byte 16.
const RED_GENERAL: usize = 0;
const RED_ADVISOR: usize = 1;
const RED_ELEPHANT: usize = 3;
const RED_HORSE: usize = 5;
const RED_CHARIOT: usize = 7;
const RED_CANNON: usize = 9;
const RED_SOLDIER: usize = 11;
const BLACK_GENERAL: usize = 16;
const BLACK_ADVISOR: usize = 17;
const BLACK_ELEPHANT: usize = 19;
const BLACK_CHARIOT: usize = 23;
const BLACK_SOLDIER: usize = 27;

const CAPTURED: u8 = 90;

/// The code value of an ICCS point, by product.md's formula: row = 9 − rank,
/// value = row × 9 + file (file `a` = 0). Written out here rather than taken
/// from `Square` so that the tests do not lean on the crate's own arithmetic.
fn pt(iccs: &str) -> u8 {
    let b = iccs.as_bytes();
    assert!(b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit());
    (9 - (b[1] - b'0')) * 9 + (b[0] - b'a')
}

fn square(iccs: &str) -> Square {
    Square::new(pt(iccs)).expect("a point below 90")
}

fn piece(side: Side, role: Role) -> Piece {
    Piece { side, role }
}

fn encode(bytes: [u8; 32]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The start array with some bytes replaced, encoded.
fn start_with(changes: &[(usize, u8)]) -> String {
    let mut bytes = START;
    for &(byte, value) in changes {
        bytes[byte] = value;
    }
    encode(bytes)
}

/// The 32 bytes with every piece captured (90) except the given ones; red
/// to move, as byte 0's top bit is clear.
fn only(pieces: &[(usize, u8)]) -> [u8; 32] {
    let mut bytes = [CAPTURED; 32];
    for &(byte, value) in pieces {
        bytes[byte] = value;
    }
    bytes
}

/// Two lone generals that neither face each other nor stand in check: red on
/// d0 (9 × 9 + 3 = 84), black on f9 (0 × 9 + 5 = 5).
fn quiet_generals() -> Vec<(usize, u8)> {
    vec![(RED_GENERAL, pt("d0")), (BLACK_GENERAL, pt("f9"))]
}

fn with_quiet_generals(extra: &[(usize, u8)]) -> String {
    let mut pieces = quiet_generals();
    pieces.extend_from_slice(extra);
    encode(only(&pieces))
}

/// Decodes a code that must be refused with `ImpossiblePoint` and checks the
/// piece, the point, and that the explanation lists `allowed`.
fn assert_impossible(code: &str, side: Side, role: Role, at: &str, allowed: &[&str]) {
    match Position::from_code(code) {
        Err(CodeError::Position(PositionError::ImpossiblePoint {
            piece: p,
            square: s,
            why,
        })) => {
            assert_eq!(p, piece(side, role), "{code}");
            assert_eq!(s, square(at), "{code}");
            for a in allowed {
                assert!(why.contains(a), "{why:?} should mention {a:?}");
            }
        }
        other => {
            panic!("{code}: expected ImpossiblePoint for {side} {role} on {at}, got {other:?}")
        }
    }
}

fn assert_accepted(code: &str) -> Position {
    Position::from_code(code).unwrap_or_else(|e| panic!("{code} should be accepted: {e}"))
}

// --- the seed's start position -------------------------------------------------

/// The seed's start array encodes to `START_CODE`, and the code decodes to the
/// start position. Expected value: the seed array through RFC 4648 §5.
#[test]
fn start_array_encodes_to_the_seed_code_and_back() {
    assert_eq!(encode(START), START_CODE);
    assert_eq!(START_CODE.len(), CODE_LEN);
    assert_eq!(CODE_LEN, 43); // ceil(32 × 8 / 6) = ceil(42.67) = 43
    assert_eq!(Position::start().to_code(), START_CODE);
    let decoded = assert_accepted(START_CODE);
    assert_eq!(decoded, Position::start());
    assert_eq!(decoded.turn(), Side::Red);
    // Spot checks of the array's meaning: byte 0 = 85 = e0 is the red general,
    // byte 16 = 4 = e9 the black general, byte 9 = 64 = b2 a red cannon.
    assert_eq!(
        decoded.piece_at(square("e0")),
        Some(piece(Side::Red, Role::General))
    );
    assert_eq!(
        decoded.piece_at(square("e9")),
        Some(piece(Side::Black, Role::General))
    );
    assert_eq!(
        decoded.piece_at(square("b2")),
        Some(piece(Side::Red, Role::Cannon))
    );
    assert_eq!(decoded.pieces().count(), 32);
}

/// Black to move sets the top bit of byte 0: 85 | 0x80 = 0xD5. By hand, the
/// first two characters become 0xD5 >> 2 = 53 = '1' and
/// ((0xD5 & 3) << 4) | (0x54 >> 4) = 16 | 5 = 21 = 'V'; the rest is unchanged.
#[test]
fn black_to_move_sets_the_top_bit_of_byte_0() {
    let mut bytes = START;
    bytes[0] |= 0x80;
    let expected = encode(bytes);
    assert_eq!(expected, "1VRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM");

    let black = assert_accepted(&expected);
    assert_eq!(black.turn(), Side::Black);
    assert_eq!(black.to_code(), expected);
    assert_eq!(black.to_setup().board, Position::start().to_setup().board);
    assert_ne!(black, Position::start());
    let from_fen = Position::from_fen(&format!("{START_FEN} b")).expect("start FEN, black");
    assert_eq!(from_fen, black);
}

/// The seed prints `…ODo8PkQD…` where its array gives `…ODo8PgQD…`. By hand,
/// bytes 15–17 are 62, 4, 3 = 00111110 00000100 00000011 → 001111 100000
/// 010000 000011 = P g Q D; with `k` (36 = 100100) in place of `g` byte 16
/// reads 01000100 = 68 = row 7, file 5 = f2 (product.md's note). A black
/// general on f2 is in red's palace, never reachable.
#[test]
fn seed_printed_code_is_refused_black_general_on_f2() {
    let printed = "VVRWU1dSWFFZQEY2ODo8PkQDBQIGAQcACBMZGx0fISM";
    assert_eq!(printed, start_with(&[(BLACK_GENERAL, 68)]));
    assert_eq!(pt("f2"), 68);
    let err = Position::from_code(printed).expect_err("the printed code is impossible");
    match &err {
        CodeError::Position(PositionError::ImpossiblePoint {
            piece: p,
            square: s,
            why,
        }) => {
            assert_eq!(*p, piece(Side::Black, Role::General));
            assert_eq!(*s, square("f2"));
            assert_eq!(s.index(), 68);
            // The black palace: files d–f, ranks 7–9.
            assert!(why.contains("d7–f9"), "{why}");
        }
        other => panic!("expected ImpossiblePoint, got {other:?}"),
    }
    let message = err.to_string();
    assert!(message.contains("black general"), "{message}");
    assert!(message.contains("f2"), "{message}");
    assert!(message.contains("68"), "{message}");
}

// --- syntax: length, padding, alphabet, trailing bits ------------------------

/// A code has exactly 43 characters (product.md); the length is counted in
/// characters.
#[test]
fn wrong_length_is_refused_with_the_length_found() {
    let short = &START_CODE[..42];
    assert_eq!(
        Position::from_code(short),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "xiangqi",
            length: 42,
            expected: Some(CODE_LEN)
        }))
    );
    let long = format!("{START_CODE}A");
    assert_eq!(
        Position::from_code(&long),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "xiangqi",
            length: 44,
            expected: Some(CODE_LEN)
        }))
    );
    assert_eq!(
        Position::from_code(""),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "xiangqi",
            length: 0,
            expected: Some(CODE_LEN)
        }))
    );
    // Two start codes back to back: 86 characters of the right alphabet.
    assert_eq!(
        Position::from_code(&format!("{START_CODE}{START_CODE}")),
        Err(CodeError::Syntax(SyntaxError::WrongLength {
            game: "xiangqi",
            length: 86,
            expected: Some(CODE_LEN)
        }))
    );
}

/// Codes are written without padding (RFC 4648 §5 with padding omitted, as
/// product.md says); the padded form of the same bytes is refused, naming the
/// first `=`.
#[test]
fn padding_is_refused_at_its_character_offset() {
    let padded = URL_SAFE.encode(START);
    assert_eq!(padded, format!("{START_CODE}="));
    assert_eq!(
        Position::from_code(&padded),
        Err(CodeError::Syntax(SyntaxError::Padding { offset: 43 }))
    );
    let mut inner: Vec<char> = START_CODE.chars().collect();
    inner[10] = '=';
    let inner: String = inner.into_iter().collect();
    assert_eq!(
        Position::from_code(&inner),
        Err(CodeError::Syntax(SyntaxError::Padding { offset: 10 }))
    );
    // The offset counts characters: '象' takes 3 bytes, so the '=' is at
    // character 5 but byte 7.
    let wide = format!("象ABCD={}", &START_CODE[6..]);
    assert_eq!(
        Position::from_code(&wide),
        Err(CodeError::Syntax(SyntaxError::Padding { offset: 5 }))
    );
}

/// Only `A–Z a–z 0–9 - _` are allowed (RFC 4648 §5); the standard alphabet's
/// `+` and `/`, spaces, newlines and non-ASCII characters are named with
/// their character offset.
#[test]
fn characters_outside_the_url_safe_alphabet_are_refused() {
    let replace = |at: usize, c: char| -> String {
        START_CODE
            .chars()
            .enumerate()
            .map(|(i, x)| if i == at { c } else { x })
            .collect()
    };
    assert_eq!(
        Position::from_code(&replace(5, '+')),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 5,
            character: '+'
        }))
    );
    assert_eq!(
        Position::from_code(&replace(0, '/')),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 0,
            character: '/'
        }))
    );
    assert_eq!(
        Position::from_code(&replace(42, ' ')),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 42,
            character: ' '
        }))
    );
    // A non-ASCII character is reported whole, not as one of its bytes, and
    // a 43-character string holding it is an alphabet error, not a length
    // error (it is 45 bytes long).
    let wide = replace(20, '帅');
    assert_eq!(wide.chars().count(), 43);
    assert_eq!(
        Position::from_code(&wide),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 20,
            character: '帅'
        }))
    );
    // A copied code with its line break still attached.
    assert_eq!(
        Position::from_code(&format!("{START_CODE}\n")),
        Err(CodeError::Syntax(SyntaxError::InvalidCharacter {
            offset: 43,
            character: '\n'
        }))
    );
}

/// 43 characters carry 258 bits, 2 more than 32 bytes; they must be zero, so
/// the last character's value is a multiple of 4: A E I M Q U Y c g k o s w 0
/// 4 8. The start code ends in 'M' (12); 'N' (13), 'P' (15), '-' (62) and '_'
/// (63) set a trailing bit.
#[test]
fn a_last_character_with_trailing_bits_is_refused() {
    assert!(START_CODE.ends_with('M'));
    let stem = &START_CODE[..42];
    for c in ['N', 'P', '-', '_', 'B', '9'] {
        assert_eq!(
            Position::from_code(&format!("{stem}{c}")),
            Err(CodeError::Syntax(SyntaxError::TrailingBits {
                offset: 42,
                character: c,
                bytes: Some(32)
            })),
            "last character {c:?}"
        );
    }
    // The bytes 30, 31 = 33, 35 give the last group I S M (00100001 00100011
    // 00 → 001000 010010 001100); the other last characters with zero
    // trailing bits change byte 31 and pass the syntax checks.
    for c in "AEIQUYcgkosw048".chars() {
        let result = Position::from_code(&format!("{stem}{c}"));
        assert!(
            !matches!(
                result,
                Err(CodeError::Syntax(SyntaxError::TrailingBits { .. }))
            ),
            "last character {c:?}: {result:?}"
        );
    }
}

// --- bytes: unused bits, range, collisions -----------------------------------

/// Only byte 0's top bit means something (the side to move); in bytes 1–31
/// it is refused, naming the byte and the piece of that slot.
#[test]
fn a_top_bit_outside_byte_0_is_refused() {
    assert_eq!(
        Position::from_code(&start_with(&[(1, 84 | 0x80)])),
        Err(CodeError::UnusedBitSet {
            byte: 1,
            piece: piece(Side::Red, Role::Advisor)
        })
    );
    assert_eq!(
        Position::from_code(&start_with(&[(BLACK_GENERAL, 4 | 0x80)])),
        Err(CodeError::UnusedBitSet {
            byte: 16,
            piece: piece(Side::Black, Role::General)
        })
    );
    assert_eq!(
        Position::from_code(&start_with(&[(31, 0xFF)])),
        Err(CodeError::UnusedBitSet {
            byte: 31,
            piece: piece(Side::Black, Role::Soldier)
        })
    );
}

/// Values 91–127 are no point (0–89) and not "captured" (90); byte 0 is read
/// after its side bit is removed, so 0xFF there is black to move and 127.
#[test]
fn values_above_90_are_refused_with_byte_piece_and_value() {
    for value in 91..=127u8 {
        assert_eq!(
            Position::from_code(&start_with(&[(RED_HORSE, value)])),
            Err(CodeError::SquareOutOfRange {
                byte: 5,
                piece: piece(Side::Red, Role::Horse),
                value
            }),
            "value {value}"
        );
    }
    assert_eq!(
        Position::from_code(&start_with(&[(BLACK_CHARIOT, 127)])),
        Err(CodeError::SquareOutOfRange {
            byte: 23,
            piece: piece(Side::Black, Role::Chariot),
            value: 127
        })
    );
    assert_eq!(
        Position::from_code(&start_with(&[(RED_GENERAL, 0xFF)])),
        Err(CodeError::SquareOutOfRange {
            byte: 0,
            piece: piece(Side::Red, Role::General),
            value: 127
        })
    );
    assert_eq!(
        Position::from_code(&start_with(&[(RED_GENERAL, 0x80 | 91)])),
        Err(CodeError::SquareOutOfRange {
            byte: 0,
            piece: piece(Side::Red, Role::General),
            value: 91
        })
    );
}

/// No two pieces share a point; the error names both pieces and bytes and
/// the point.
#[test]
fn two_pieces_on_one_point_are_refused() {
    // Black advisor (byte 17, d9) moved onto the black general's e9 (4).
    assert_eq!(
        Position::from_code(&start_with(&[(BLACK_ADVISOR, 4)])),
        Err(CodeError::TwoPiecesOnOnePoint {
            square: square("e9"),
            first: piece(Side::Black, Role::General),
            first_byte: 16,
            second: piece(Side::Black, Role::Advisor),
            second_byte: 17,
        })
    );
    // A black soldier (byte 27) onto red's soldier on a3 (row 6 × 9 + 0 = 54).
    assert_eq!(
        Position::from_code(&start_with(&[(BLACK_SOLDIER, 54)])),
        Err(CodeError::TwoPiecesOnOnePoint {
            square: square("a3"),
            first: piece(Side::Red, Role::Soldier),
            first_byte: 11,
            second: piece(Side::Black, Role::Soldier),
            second_byte: 27,
        })
    );
    // Two captured pieces (90) do not collide.
    let mut bytes = START;
    bytes[RED_CHARIOT] = CAPTURED;
    bytes[RED_CHARIOT + 1] = CAPTURED;
    assert_accepted(&encode(bytes));
}

// --- positions that cannot arise ---------------------------------------------

/// Each side has its general (byte 90 there means captured, which no game
/// reaches).
#[test]
fn a_captured_general_is_refused() {
    assert_eq!(
        Position::from_code(&start_with(&[(RED_GENERAL, CAPTURED)])),
        Err(CodeError::Position(PositionError::MissingGeneral {
            side: Side::Red
        }))
    );
    assert_eq!(
        Position::from_code(&start_with(&[(BLACK_GENERAL, CAPTURED)])),
        Err(CodeError::Position(PositionError::MissingGeneral {
            side: Side::Black
        }))
    );
    // Black to move (top bit) with red's general captured: still red's general.
    assert_eq!(
        Position::from_code(&start_with(&[(RED_GENERAL, 0x80 | CAPTURED)])),
        Err(CodeError::Position(PositionError::MissingGeneral {
            side: Side::Red
        }))
    );
}

/// A general stays inside its palace: red d0–f2, black d7–f9 (files d–f,
/// three ranks at each end).
#[test]
fn a_general_outside_its_palace_is_refused() {
    // c0 (81 + 2 = 83): beside red's palace.
    assert_impossible(
        &encode(only(&[(RED_GENERAL, pt("c0")), (BLACK_GENERAL, pt("e9"))])),
        Side::Red,
        Role::General,
        "c0",
        &["d0–f2"],
    );
    // e3 (6 × 9 + 4 = 58): just in front of it.
    assert_impossible(
        &encode(only(&[(RED_GENERAL, pt("e3")), (BLACK_GENERAL, pt("d9"))])),
        Side::Red,
        Role::General,
        "e3",
        &["d0–f2"],
    );
    // d9 (3) is a palace point, but black's.
    assert_impossible(
        &encode(only(&[(RED_GENERAL, pt("d9")), (BLACK_GENERAL, pt("f9"))])),
        Side::Red,
        Role::General,
        "d9",
        &["d0–f2"],
    );
    // A black general on g8 (1 × 9 + 6 = 15), right of black's palace.
    assert_impossible(
        &encode(only(&[(RED_GENERAL, pt("d0")), (BLACK_GENERAL, pt("g8"))])),
        Side::Black,
        Role::General,
        "g8",
        &["d7–f9"],
    );
    // Every corner of both palaces is fine.
    for (red, black) in [("d0", "f9"), ("f2", "d7"), ("f0", "d9"), ("d2", "f7")] {
        assert_accepted(&encode(only(&[
            (RED_GENERAL, pt(red)),
            (BLACK_GENERAL, pt(black)),
        ])));
    }
}

/// An advisor stands only on the palace's four corners and centre: red d0,
/// f0, e1, d2, f2; black d9, f9, e8, d7, f7.
#[test]
fn an_advisor_off_its_five_points_is_refused() {
    const RED_POINTS: [&str; 5] = ["d0", "f0", "e1", "d2", "f2"];
    const BLACK_POINTS: [&str; 5] = ["d9", "f9", "e8", "d7", "f7"];
    // e0: in the palace but on no diagonal.
    assert_impossible(
        &with_quiet_generals(&[(RED_ADVISOR, pt("e0"))]),
        Side::Red,
        Role::Advisor,
        "e0",
        &RED_POINTS,
    );
    // c2: outside the palace.
    assert_impossible(
        &with_quiet_generals(&[(RED_ADVISOR, pt("f0")), (RED_ADVISOR + 1, pt("c2"))]),
        Side::Red,
        Role::Advisor,
        "c2",
        &RED_POINTS,
    );
    // e9 and e7 for black.
    assert_impossible(
        &with_quiet_generals(&[(BLACK_ADVISOR, pt("e9"))]),
        Side::Black,
        Role::Advisor,
        "e9",
        &BLACK_POINTS,
    );
    assert_impossible(
        &with_quiet_generals(&[(BLACK_ADVISOR, pt("e7"))]),
        Side::Black,
        Role::Advisor,
        "e7",
        &BLACK_POINTS,
    );
    // The five points themselves are all accepted (d0 and f9 hold the
    // generals, so those two are tried with the generals elsewhere).
    for p in RED_POINTS.iter().filter(|&&p| p != "d0") {
        assert_accepted(&with_quiet_generals(&[(RED_ADVISOR, pt(p))]));
    }
    for p in BLACK_POINTS.iter().filter(|&&p| p != "f9") {
        assert_accepted(&with_quiet_generals(&[(BLACK_ADVISOR, pt(p))]));
    }
    assert_accepted(&encode(only(&[
        (RED_GENERAL, pt("e0")),
        (BLACK_GENERAL, pt("f9")),
        (RED_ADVISOR, pt("d0")),
    ])));
    assert_accepted(&encode(only(&[
        (RED_GENERAL, pt("d0")),
        (BLACK_GENERAL, pt("e9")),
        (BLACK_ADVISOR, pt("f9")),
    ])));
}

/// An elephant stands only on its own side's seven points: red c0, g0, a2,
/// e2, i2, c4, g4; black c9, g9, a7, e7, i7, c5, g5. It never crosses the
/// river.
#[test]
fn an_elephant_off_its_seven_points_is_refused() {
    const RED_POINTS: [&str; 7] = ["c0", "g0", "a2", "e2", "i2", "c4", "g4"];
    const BLACK_POINTS: [&str; 7] = ["c9", "g9", "a7", "e7", "i7", "c5", "g5"];
    // b0 (82): next to its start point, on no diagonal.
    assert_impossible(
        &with_quiet_generals(&[(RED_ELEPHANT, pt("b0"))]),
        Side::Red,
        Role::Elephant,
        "b0",
        &RED_POINTS,
    );
    // e6 (31): one elephant step from c4 if the river were not there.
    assert_impossible(
        &with_quiet_generals(&[(RED_ELEPHANT, pt("c4")), (RED_ELEPHANT + 1, pt("e6"))]),
        Side::Red,
        Role::Elephant,
        "e6",
        &RED_POINTS,
    );
    // Black: e3 (58), one step from c5 across the river, and d8 (12).
    assert_impossible(
        &with_quiet_generals(&[(BLACK_ELEPHANT, pt("e3"))]),
        Side::Black,
        Role::Elephant,
        "e3",
        &BLACK_POINTS,
    );
    assert_impossible(
        &with_quiet_generals(&[(BLACK_ELEPHANT, pt("d8"))]),
        Side::Black,
        Role::Elephant,
        "d8",
        &BLACK_POINTS,
    );
    for p in RED_POINTS {
        assert_accepted(&with_quiet_generals(&[(RED_ELEPHANT, pt(p))]));
    }
    for p in BLACK_POINTS {
        assert_accepted(&with_quiet_generals(&[(BLACK_ELEPHANT, pt(p))]));
    }
}

/// A red soldier starts on rank 3 on files a, c, e, g, i and only moves
/// forward until it crosses the river (ranks 5–9), so it is never below rank
/// 3, and on ranks 3–4 only on those five files: b3 cannot be reached.
#[test]
fn a_red_soldier_behind_its_start_or_on_an_odd_file_before_the_river_is_refused() {
    let files = "a, c, e, g, i";
    // e2 (7 × 9 + 4 = 67) and i0 (89): behind the start rank.
    for at in ["e2", "i0"] {
        assert_impossible(
            &with_quiet_generals(&[(RED_SOLDIER, pt(at))]),
            Side::Red,
            Role::Soldier,
            at,
            &[files],
        );
    }
    // b3 (6 × 9 + 1 = 55) and b4 (46): an even file before the river.
    for at in ["b3", "b4"] {
        assert_impossible(
            &with_quiet_generals(&[(RED_SOLDIER, pt(at))]),
            Side::Red,
            Role::Soldier,
            at,
            &[files],
        );
    }
    // Reachable: a3 and c4 before the river, any file after it (b5, i5, a9).
    for at in ["a3", "c4", "b5", "i5", "a9"] {
        assert_accepted(&with_quiet_generals(&[(RED_SOLDIER, pt(at))]));
    }
}

/// The mirror image for black: start rank 6, forward is down, across the
/// river is ranks 0–4.
#[test]
fn a_black_soldier_behind_its_start_or_on_an_odd_file_before_the_river_is_refused() {
    let files = "a, c, e, g, i";
    // e7 (2 × 9 + 4 = 22) and i9 (8): behind the start rank.
    for at in ["e7", "i9"] {
        assert_impossible(
            &with_quiet_generals(&[(BLACK_SOLDIER, pt(at))]),
            Side::Black,
            Role::Soldier,
            at,
            &[files],
        );
    }
    // b6 (28) and b5 (37): an even file before the river.
    for at in ["b6", "b5"] {
        assert_impossible(
            &with_quiet_generals(&[(BLACK_SOLDIER, pt(at))]),
            Side::Black,
            Role::Soldier,
            at,
            &[files],
        );
    }
    for at in ["a6", "c5", "h4", "b4", "i0"] {
        assert_accepted(&with_quiet_generals(&[(BLACK_SOLDIER, pt(at))]));
    }
}

/// The generals may never face each other on an open file (flying general).
#[test]
fn facing_generals_are_refused_naming_the_file() {
    for (red, black, file) in [("d0", "d9", 3), ("e1", "e8", 4), ("f2", "f7", 5)] {
        let mut bytes = only(&[(RED_GENERAL, pt(red)), (BLACK_GENERAL, pt(black))]);
        assert_eq!(
            Position::from_code(&encode(bytes)),
            Err(CodeError::Position(PositionError::GeneralsFacing { file })),
            "{red} {black}"
        );
        bytes[0] |= 0x80;
        assert_eq!(
            Position::from_code(&encode(bytes)),
            Err(CodeError::Position(PositionError::GeneralsFacing { file })),
            "{red} {black}, black to move"
        );
    }
    // One piece of either side between them closes the file.
    assert_accepted(&encode(only(&[
        (RED_GENERAL, pt("e0")),
        (BLACK_GENERAL, pt("e9")),
        (RED_ADVISOR, pt("e1")),
    ])));
    assert_accepted(&encode(only(&[
        (RED_GENERAL, pt("e0")),
        (BLACK_GENERAL, pt("e9")),
        (BLACK_SOLDIER, pt("e4")),
    ])));
    let err = Position::from_code(&encode(only(&[
        (RED_GENERAL, pt("d0")),
        (BLACK_GENERAL, pt("d9")),
    ])))
    .expect_err("facing");
    assert!(err.to_string().contains("open d file"), "{err}");
}

/// The side that has just moved cannot have left its general attacked, so
/// the side NOT to move is never in check. The side to move may be.
#[test]
fn the_side_not_to_move_in_check_is_refused() {
    let black_to_move = |mut bytes: [u8; 32]| {
        bytes[0] |= 0x80;
        encode(bytes)
    };
    let black_in_check = PositionError::OpponentInCheck { side: Side::Black };
    let red_in_check = PositionError::OpponentInCheck { side: Side::Red };
    let cases = [
        // Red chariot f5 (41) on the open f-file up to the black general f9.
        ("chariot", vec![(RED_CHARIOT, pt("f5"))], Side::Black),
        // Red horse g7 (24) jumps to f9 over the empty leg g8.
        ("horse", vec![(RED_HORSE, pt("g7"))], Side::Black),
        // Red cannon f5 over the screen f7 (a red soldier, which itself
        // attacks only f8, e7 and g7).
        (
            "cannon",
            vec![(RED_CANNON, pt("f5")), (RED_SOLDIER, pt("f7"))],
            Side::Black,
        ),
        // A crossed red soldier beside the black general.
        ("soldier", vec![(RED_SOLDIER, pt("e9"))], Side::Black),
        // A black soldier on d1 steps down onto the red general d0.
        ("black soldier", vec![(BLACK_SOLDIER, pt("d1"))], Side::Red),
    ];
    for (what, extra, checked) in cases {
        let mut pieces = quiet_generals();
        pieces.extend(extra);
        let bytes = only(&pieces);
        let (refused, allowed) = match checked {
            Side::Black => (encode(bytes), black_to_move(bytes)),
            Side::Red => (black_to_move(bytes), encode(bytes)),
        };
        let expected = match checked {
            Side::Black => black_in_check.clone(),
            Side::Red => red_in_check.clone(),
        };
        assert_eq!(
            Position::from_code(&refused),
            Err(CodeError::Position(expected)),
            "{what}"
        );
        let pos = assert_accepted(&allowed);
        assert_eq!(pos.turn(), checked, "{what}");
        assert!(pos.is_check(), "{what}: the side to move is in check");
    }
    // Controls, red to move: the horse with its leg g8 blocked, and the
    // cannon without a screen, give no check.
    for (what, extra) in [
        (
            "blocked horse",
            vec![(RED_HORSE, pt("g7")), (RED_SOLDIER, pt("g8"))],
        ),
        ("unscreened cannon", vec![(RED_CANNON, pt("f5"))]),
    ] {
        let mut pieces = quiet_generals();
        pieces.extend(extra);
        let pos = assert_accepted(&encode(only(&pieces)));
        let mut bytes = only(&pieces);
        bytes[0] |= 0x80;
        assert!(!assert_accepted(&encode(bytes)).is_check(), "{what}");
        assert_eq!(pos.turn(), Side::Red);
    }
}

// --- one position, one code -----------------------------------------------------

/// Same-kind pieces may come in any order; the position is the same and its
/// code lists them in ascending point order with captured (90) last
/// (product.md).
#[test]
fn same_kind_pieces_in_any_order_decode_to_one_position_and_one_code() {
    // Advisors 84, 86 → 86, 84; horses 82, 88 → 88, 82; black soldiers
    // reversed.
    let shuffled = start_with(&[
        (RED_ADVISOR, 86),
        (RED_ADVISOR + 1, 84),
        (RED_HORSE, 88),
        (RED_HORSE + 1, 82),
        (27, 35),
        (28, 33),
        (30, 29),
        (31, 27),
    ]);
    assert_ne!(shuffled, START_CODE);
    let pos = assert_accepted(&shuffled);
    assert_eq!(pos, Position::start());
    assert_eq!(pos.to_code(), START_CODE);

    // Red chariot a0 (81) captured: canonical bytes 7–8 are 89, 90.
    let canonical = start_with(&[(RED_CHARIOT, 89), (RED_CHARIOT + 1, CAPTURED)]);
    let reversed = start_with(&[(RED_CHARIOT, CAPTURED), (RED_CHARIOT + 1, 89)]);
    assert_eq!(assert_accepted(&reversed), assert_accepted(&canonical));
    assert_eq!(assert_accepted(&reversed).to_code(), canonical);
    assert_eq!(assert_accepted(&canonical).to_code(), canonical);

    // Black soldiers c6 (29) and g6 (33) captured, the rest scrambled:
    // 90, 35, 90, 31, 27 → 27, 31, 35, 90, 90.
    let scrambled = start_with(&[(27, CAPTURED), (28, 35), (29, CAPTURED), (30, 31), (31, 27)]);
    let canonical = start_with(&[(27, 27), (28, 31), (29, 35), (30, CAPTURED), (31, CAPTURED)]);
    assert_eq!(assert_accepted(&scrambled).to_code(), canonical);

    // The side bit survives the reordering.
    let mut bytes = START;
    bytes[0] |= 0x80;
    bytes.swap(RED_CANNON, RED_CANNON + 1);
    let mut expected = START;
    expected[0] |= 0x80;
    assert_eq!(assert_accepted(&encode(bytes)).to_code(), encode(expected));
}

/// The code after the first move h2e2 (炮二平五): the red cannon on h2 (70)
/// goes to e2 (67), so red's cannons are 64, 67, and black is to move.
#[test]
fn the_code_after_h2e2_moves_one_byte_and_sets_the_side_bit() {
    let after = Position::start()
        .play("h2e2".parse().expect("ICCS"))
        .expect("h2e2 is legal");
    let mut bytes = START;
    bytes[0] |= 0x80;
    bytes[RED_CANNON + 1] = 67;
    assert_eq!(after.to_code(), encode(bytes));
    assert_eq!(assert_accepted(&encode(bytes)), after);
    assert_eq!(
        after.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
    );
}

// --- FEN ------------------------------------------------------------------------

/// The start FEN in every accepted spelling (fen.rs: trailer optional,
/// `E`/`H` for `B`/`N`, `r` for red) reads as the start position and is
/// written back in one form.
#[test]
fn start_fen_spellings_all_read_as_the_start_position() {
    let eh = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR";
    for fen in [
        format!("{START_FEN} w"),
        format!("{START_FEN} w - - 0 1"),
        format!("{START_FEN} r"),
        format!("{START_FEN} r - - 0 1"),
        format!("{eh} w"),
        format!("  {START_FEN}   w  -  -  12  40  "),
    ] {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos, Position::start(), "{fen}");
    }
    assert_eq!(Position::start().to_fen(), format!("{START_FEN} w - - 0 1"));
    let black = Position::from_fen(&format!("{START_FEN} b - - 0 1")).expect("black");
    assert_eq!(black.to_fen(), format!("{START_FEN} b - - 0 1"));
    assert_eq!(
        black.to_code(),
        "1VRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM"
    );
}

/// A FEN's counters (halfmove clock, fullmove number) are kept by `Fen`,
/// written back as read, and default to `0 1`; `Position` drops them.
#[test]
fn fen_counters_round_trip() {
    use qipan_rules::xiangqi::{Counters, Fen};
    for (text, halfmove_clock, fullmove_number) in [
        (format!("{START_FEN} w - - 0 1"), 0, 1),
        (format!("{START_FEN} b - - 17 9"), 17, 9),
        (format!("{START_FEN} w - - 120 61"), 120, 61),
    ] {
        let fen: Fen = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            fen.counters,
            Counters {
                halfmove_clock,
                fullmove_number
            }
        );
        assert_eq!(fen.to_string(), text);
        assert_eq!(fen.position.to_fen_with(fen.counters), text);
        // The position alone is written with `0 1`, as before.
        assert_eq!(
            fen.position.to_fen(),
            text.replace(&format!(" {halfmove_clock} {fullmove_number}"), " 0 1")
        );
    }
    // Missing counters read as the start's; only the clock given keeps it;
    // a move number of 0 reads as 1 (as Fairy-Stockfish reads it).
    for (text, counters) in [
        (format!("{START_FEN} w"), Counters::default()),
        (format!("{START_FEN} w - -"), Counters::default()),
        (
            format!("{START_FEN} w - - 7"),
            Counters {
                halfmove_clock: 7,
                fullmove_number: 1,
            },
        ),
        (
            format!("{START_FEN} w - - 3 0"),
            Counters {
                halfmove_clock: 3,
                fullmove_number: 1,
            },
        ),
    ] {
        let fen: Fen = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(fen.counters, counters, "{text}");
    }
    let bad = format!("{START_FEN} w - - x 1");
    assert_eq!(
        bad.parse::<Fen>(),
        Err(FenError::InvalidTrailer {
            found: "x".into(),
            offset: 66
        })
    );
    // After a capture the clock restarts; after black's move the number grows.
    let c = Counters {
        halfmove_clock: 5,
        fullmove_number: 3,
    };
    assert_eq!(
        c.after(qipan_rules::xiangqi::Side::Red, false),
        Counters {
            halfmove_clock: 6,
            fullmove_number: 3
        }
    );
    assert_eq!(
        c.after(qipan_rules::xiangqi::Side::Black, true),
        Counters {
            halfmove_clock: 0,
            fullmove_number: 4
        }
    );
}

#[test]
fn an_empty_fen_is_refused() {
    assert_eq!(Position::from_fen(""), Err(FenError::Empty));
    assert_eq!(Position::from_fen(" \t\n"), Err(FenError::Empty));
}

#[test]
fn a_board_without_ten_ranks_is_refused_with_the_count() {
    // The start board without its second rank ("9/").
    let nine = "rnbakabnr/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(nine),
        Err(FenError::WrongRankCount { found: 9 })
    );
    assert_eq!(
        Position::from_fen(&format!("{START_FEN}/9 w")),
        Err(FenError::WrongRankCount { found: 11 })
    );
    // The side alone, as if the board had been forgotten.
    assert_eq!(
        Position::from_fen("w"),
        Err(FenError::WrongRankCount { found: 1 })
    );
}

/// Offsets by hand in START_FEN: rank 1 is characters 0–8, '/' 9, rank 2 10,
/// '/' 11, rank 3 12–16, '/' 17, rank 4 18–26, '/' 27, rank 5 28, …, rank 10
/// 50–58.
#[test]
fn an_invalid_board_character_is_refused_with_rank_and_offset() {
    let fen = "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::InvalidCharacter {
            rank: 4,
            offset: 22,
            character: 'x'
        })
    );
    // '0' is no count of empty points.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/09/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::InvalidCharacter {
            rank: 5,
            offset: 28,
            character: '0'
        })
    );
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/XNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::InvalidCharacter {
            rank: 10,
            offset: 50,
            character: 'X'
        })
    );
    // Offsets count characters: an ideographic space (3 bytes in UTF-8)
    // before the board moves the 'x' to character 23, byte 25.
    let fen = "\u{3000}rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::InvalidCharacter {
            rank: 4,
            offset: 23,
            character: 'x'
        })
    );
    let fen = "車nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::InvalidCharacter {
            rank: 1,
            offset: 0,
            character: '車'
        })
    );
}

#[test]
fn a_rank_over_nine_points_is_refused_at_the_character_that_overflows() {
    // A tenth piece on rank 1: the second 'r' at offset 9.
    let fen = "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooLong { rank: 1, offset: 9 })
    );
    // Rank 3 "1c5c2": 1 + 1 + 5 + 1 + 2 = 10 at the '2', offset 12 + 4 = 16.
    let fen = "rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooLong {
            rank: 3,
            offset: 16
        })
    );
    // Rank 8 "1C5C1p": the 'p' at 42 + 5 = 47.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1p/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooLong {
            rank: 8,
            offset: 47
        })
    );
}

#[test]
fn a_rank_under_nine_points_is_refused_with_its_count() {
    let fen = "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooShort { rank: 1, points: 8 })
    );
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooShort { rank: 9, points: 8 })
    );
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/ w";
    assert_eq!(
        Position::from_fen(fen),
        Err(FenError::RankTooShort {
            rank: 10,
            points: 0
        })
    );
}

#[test]
fn a_missing_side_is_refused() {
    assert_eq!(Position::from_fen(START_FEN), Err(FenError::MissingSide));
    assert_eq!(
        Position::from_fen(&format!("{START_FEN}   ")),
        Err(FenError::MissingSide)
    );
}

/// The board is 59 characters (9 + 1 + 5 + 9 + 1 + 1 + 9 + 5 + 1 + 9 = 50
/// points-and-digits plus 9 slashes), so the side starts at offset 60.
#[test]
fn an_invalid_side_is_refused_with_its_text_and_offset() {
    assert_eq!(START_FEN.chars().count(), 59);
    for side in ["x", "red", "W", "B", "-"] {
        assert_eq!(
            Position::from_fen(&format!("{START_FEN} {side}")),
            Err(FenError::InvalidSide {
                found: side.to_owned(),
                offset: 60
            }),
            "{side}"
        );
    }
    assert_eq!(
        Position::from_fen(&format!("{START_FEN}  black")),
        Err(FenError::InvalidSide {
            found: "black".to_owned(),
            offset: 61
        })
    );
}

/// After the side only `- - <halfmoves> <move number>` may follow. By hand in
/// "<board> w - - 0 1 extra": w 60, - 62, - 64, 0 66, 1 68, extra 70.
#[test]
fn an_invalid_trailer_is_refused_with_the_field_and_offset() {
    let cases = [
        (" w - - 0 1 extra", "extra", 70),
        (" w x", "x", 62),
        (" w 0 1", "0", 62),
        (" w - k", "k", 64),
        (" w - - a 1", "a", 66),
        (" w - - 0 -1", "-1", 68),
    ];
    for (tail, found, offset) in cases {
        assert_eq!(
            Position::from_fen(&format!("{START_FEN}{tail}")),
            Err(FenError::InvalidTrailer {
                found: found.to_owned(),
                offset
            }),
            "{tail:?}"
        );
    }
}

/// A side owns 1 general, 2 each of advisors, elephants, horses, chariots and
/// cannons, and 5 soldiers (the seed's 16 slots per side).
#[test]
fn too_many_pieces_of_a_kind_are_refused_through_fen() {
    let cases = [
        // A third red chariot on e1.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4R4/RNBAKABNR w",
            Side::Red,
            Role::Chariot,
            3,
            2,
        ),
        // A second black general on e8.
        (
            "rnbakabnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            Side::Black,
            Role::General,
            2,
            1,
        ),
        // A sixth black soldier on e5.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4p4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            Side::Black,
            Role::Soldier,
            6,
            5,
        ),
        // Three red horses, two of them written 'H'.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4H4/P1P1P1P1P/1C5C1/9/RHBAKABNR w",
            Side::Red,
            Role::Horse,
            3,
            2,
        ),
    ];
    for (fen, side, role, count, max) in cases {
        assert_eq!(
            Position::from_fen(fen),
            Err(FenError::Position(PositionError::TooManyPieces {
                side,
                role,
                count,
                max
            })),
            "{fen}"
        );
    }
}

/// A FEN can be read as a `Setup` without being a position that can arise;
/// `Position::from_fen` then names the rule broken.
#[test]
fn a_well_formed_fen_of_an_impossible_position_is_refused() {
    // Red general on c0, outside the palace d0–f2.
    let fen = "3k5/9/9/9/9/9/9/9/9/2K6 w";
    let setup = Setup::from_fen(fen).expect("syntactically fine");
    assert_eq!(
        setup.board[pt("c0") as usize],
        Some(piece(Side::Red, Role::General))
    );
    match Position::from_fen(fen) {
        Err(FenError::Position(PositionError::ImpossiblePoint {
            piece: p,
            square: s,
            why,
        })) => {
            assert_eq!(p, piece(Side::Red, Role::General));
            assert_eq!(s, square("c0"));
            assert!(why.contains("d0–f2"), "{why}");
        }
        other => panic!("expected ImpossiblePoint, got {other:?}"),
    }
    assert_eq!(
        Position::from_fen("3k5/9/9/9/9/9/9/9/9/9 w"),
        Err(FenError::Position(PositionError::MissingGeneral {
            side: Side::Red
        }))
    );
    assert_eq!(
        Position::from_fen("3k5/9/9/9/9/9/9/9/9/3K5 w"),
        Err(FenError::Position(PositionError::GeneralsFacing {
            file: 3
        }))
    );
    // Red chariot f5 checks the black general f9 while red is to move.
    assert_eq!(
        Position::from_fen("5k3/9/9/9/5R3/9/9/9/9/3K5 w"),
        Err(FenError::Position(PositionError::OpponentInCheck {
            side: Side::Black
        }))
    );
}

/// Every piece on every point: accepted exactly on the points product.md's
/// rules allow, refused elsewhere with `ImpossiblePoint` naming that piece and
/// point. The allowed sets are written here from the rules, by file
/// (0 = a) and ICCS rank, not taken from the crate. Each piece stands beside
/// two lone generals; it is tried with either side to move, since a piece
/// that checks is only acceptable with the checked side to move.
#[test]
fn every_point_is_checked_against_the_placement_rules() {
    let palace_files = |f: u8| (3..=5).contains(&f);
    let even_file = |f: u8| f.is_multiple_of(2);
    let on = |points: &'static [&'static str]| {
        move |f: u8, r: u8| points.iter().any(|p| pt(p) == (9 - r) * 9 + f)
    };
    type Rule = Box<dyn Fn(u8, u8) -> bool>;
    let rules: Vec<(usize, Side, Role, Rule, usize)> = vec![
        // (byte, side, role, allowed(file, rank), how many points by hand)
        (
            RED_GENERAL,
            Side::Red,
            Role::General,
            Box::new(move |f, r| palace_files(f) && r <= 2),
            9,
        ),
        (
            BLACK_GENERAL,
            Side::Black,
            Role::General,
            Box::new(move |f, r| palace_files(f) && r >= 7),
            9,
        ),
        (
            RED_ADVISOR,
            Side::Red,
            Role::Advisor,
            Box::new(on(&["d0", "f0", "e1", "d2", "f2"])),
            5,
        ),
        (
            BLACK_ADVISOR,
            Side::Black,
            Role::Advisor,
            Box::new(on(&["d9", "f9", "e8", "d7", "f7"])),
            5,
        ),
        (
            RED_ELEPHANT,
            Side::Red,
            Role::Elephant,
            Box::new(on(&["c0", "g0", "a2", "e2", "i2", "c4", "g4"])),
            7,
        ),
        (
            BLACK_ELEPHANT,
            Side::Black,
            Role::Elephant,
            Box::new(on(&["c9", "g9", "a7", "e7", "i7", "c5", "g5"])),
            7,
        ),
        // Across the river (ranks 5–9, 45 points) anywhere; ranks 3–4 on the
        // five start files (10 points): 55.
        (
            RED_SOLDIER,
            Side::Red,
            Role::Soldier,
            Box::new(move |f, r| r >= 5 || ((3..=4).contains(&r) && even_file(f))),
            55,
        ),
        (
            BLACK_SOLDIER,
            Side::Black,
            Role::Soldier,
            Box::new(move |f, r| r <= 4 || ((5..=6).contains(&r) && even_file(f))),
            55,
        ),
        (RED_HORSE, Side::Red, Role::Horse, Box::new(|_, _| true), 90),
        (
            BLACK_CHARIOT,
            Side::Black,
            Role::Chariot,
            Box::new(|_, _| true),
            90,
        ),
        (
            RED_CANNON,
            Side::Red,
            Role::Cannon,
            Box::new(|_, _| true),
            90,
        ),
    ];
    for (byte, side, role, allowed, count) in rules {
        let mut accepted = 0;
        for v in 0..90u8 {
            let (f, r) = (v % 9, 9 - v / 9);
            let mut pieces = Vec::new();
            match role {
                // The other general stands on d or f of its back rank, on a
                // file other than this general's.
                Role::General => {
                    let other = match (side, f == 3) {
                        (Side::Red, false) => (BLACK_GENERAL, pt("d9")),
                        (Side::Red, true) => (BLACK_GENERAL, pt("f9")),
                        (Side::Black, false) => (RED_GENERAL, pt("d0")),
                        (Side::Black, true) => (RED_GENERAL, pt("f0")),
                    };
                    if other.1 == v {
                        continue;
                    }
                    pieces.push(other);
                }
                _ => {
                    if v == pt("d0") || v == pt("f9") {
                        continue; // the generals' points
                    }
                    pieces.extend(quiet_generals());
                }
            }
            pieces.push((byte, v));
            let red = only(&pieces);
            let mut black = red;
            black[0] |= 0x80;
            let results = [
                Position::from_code(&encode(red)),
                Position::from_code(&encode(black)),
            ];
            let at = Square::new(v).expect("below 90");
            if allowed(f, r) {
                accepted += 1;
                assert!(
                    results.iter().any(Result::is_ok),
                    "{side} {role} on {at}: {results:?}"
                );
            } else {
                for result in results {
                    assert!(
                        matches!(
                            &result,
                            Err(CodeError::Position(PositionError::ImpossiblePoint { piece: p, square: s, .. }))
                                if *p == piece(side, role) && *s == at
                        ),
                        "{side} {role} on {at}: {result:?}"
                    );
                }
            }
        }
        // The generals' own points were skipped for the other pieces; add
        // back those the rule allows so the count is over all 90 points.
        if role != Role::General {
            accepted += ["d0", "f9"]
                .iter()
                .filter(|p| allowed(pt(p) % 9, 9 - pt(p) / 9))
                .count();
        }
        assert_eq!(accepted, count, "{side} {role}");
    }
}
