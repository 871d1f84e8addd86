//! Gomoku and renju records from real files, read, checked against the
//! rules, written back as `.psq`, a move list, `.pos` and `.lib`, and read
//! again to the same moves.
//!
//! The files and where they come from are listed in
//! `data/gomoku/SOURCES.md`. The expected lines below come from the files'
//! own names and comments, from another file of the same line in another
//! format, or from the board diagram a file carries, never from this
//! crate's own output.

use qipan_records::gomoku::{self, GomokuError, MoveList};
use qipan_rules::gomoku::{IllegalMove, MovesError, Point, Position, Stone, Variant};
use qipan_rules::{Reason, Status};

fn data(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/gomoku/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn points(text: &str) -> Vec<Point> {
    text.split_whitespace()
        .map(|p| p.parse().unwrap_or_else(|_| panic!("{p}")))
        .collect()
}

fn lib(path: &str) -> gomoku::Library {
    gomoku::read_lib(&data(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pos(path: &str) -> MoveList {
    gomoku::read_pos(&data(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Replays `moves` on the 15×15 board under `variant`: every move is
/// legal there.
fn replay(path: &str, variant: Variant, moves: &[Point]) -> Position {
    Position::from_moves(variant, 15, moves).unwrap_or_else(|e| panic!("{path} ({variant}): {e}"))
}

/// Writes `moves` in every format qipan writes and reads each back to the
/// same moves: `.psq` (with names), the numbered move list, `.pos` and a
/// one-line `.lib`.
fn round_trip(path: &str, moves: &[Point]) {
    let psq = gomoku::write_psq(15, moves, [Some("Black"), Some("White")]);
    let back = gomoku::read(psq.as_bytes()).unwrap_or_else(|e| panic!("{path} psq: {e}"));
    assert_eq!(back.moves, moves, "{path}: .psq");
    assert_eq!(back.size, Some(15), "{path}: .psq");
    assert_eq!(
        back.players,
        [Some("Black".to_owned()), Some("White".to_owned())]
    );
    let list = gomoku::write_moves(moves);
    let back = gomoku::read(list.as_bytes()).unwrap_or_else(|e| panic!("{path} list: {e}"));
    assert_eq!(back.moves, moves, "{path}: move list");
    let bytes = gomoku::write_pos(moves).expect("15×15 moves write as .pos");
    assert_eq!(
        gomoku::read_pos(&bytes).unwrap().moves,
        moves,
        "{path}: .pos"
    );
    let bytes = gomoku::write_lib(moves).expect("15×15 moves write as .lib");
    let back = gomoku::read_lib(&bytes).unwrap_or_else(|e| panic!("{path} lib: {e}"));
    assert_eq!(back.main_line.moves, moves, "{path}: .lib");
    assert_eq!((back.tree_moves, back.lines), (moves.len(), 1));
}

/// The `.psq` lines of a `.pos` file, computed from its bytes: both count
/// from the top-left corner, `.pos` from 0 as `15·y + x`, `.psq` from 1 as
/// `x,y`.
fn psq_lines_of_pos(bytes: &[u8]) -> Vec<String> {
    bytes[1..]
        .iter()
        .map(|&b| format!("{},{},0", b % 15 + 1, b / 15 + 1))
        .collect()
}

#[test]
fn renlib_libraries_give_their_first_line() {
    // (file, version, the first line, from the file's name and comments)
    let cases: &[(&str, (u8, u8), &str)] = &[
        // "first", "one away", "one away + move": h8, i8, o8.
        ("example_for_science.lib", (3, 0), "h8 i8 o8"),
        // The four corners, four stones each, top row first.
        (
            "lib_4_in_corner.lib",
            (3, 4),
            "a15 b15 c15 d15 l15 m15 n15 o15 a1 b1 c1 d1 l1 m1 n1 o1",
        ),
        (
            "pos_4_in_corner.lib",
            (3, 4),
            "a15 b15 c15 d15 l15 m15 n15 o15 a1 b1 c1 d1 l1 m1 n1 o1",
        ),
        // The centre, then its neighbours: up first (h9 sorts before h7).
        ("lib_4_left_right_up_down.lib", (3, 0), "h8 h9"),
        ("lib_nocomment.lib", (3, 0), "h8 i8"),
        ("one_move.lib", (3, 0), "h8"),
    ];
    for &(file, version, line) in cases {
        let path = format!("renlib-board/{file}");
        let read = lib(&path);
        assert_eq!(read.version, Some(version), "{file}");
        assert_eq!(read.main_line.moves, points(line), "{file}");
        assert_eq!(read.main_line.size, Some(15));
        replay(&path, Variant::Renju, &read.main_line.moves);
        round_trip(&path, &read.main_line.moves);
    }
}

#[test]
fn a_library_and_a_pos_file_of_the_same_line_agree() {
    // The two top rows, saved by RenLib once as a library, once as .pos.
    let from_lib = lib("renlib-board/lib_two_top_rows.lib").main_line.moves;
    let from_pos = pos("renlib-board/pos_two_top_rows.pos").moves;
    assert_eq!(from_lib, from_pos);
    assert_eq!(from_lib.len(), 30);
    assert_eq!(from_lib[0], "a15".parse().unwrap());
    assert_eq!(from_lib[29], "o14".parse().unwrap());
    // The same line with a pass as its fourth move: both refuse move 4.
    let lib_error = gomoku::read_lib(&data("renlib-board/pos_4th_is_a_pass.lib")).unwrap_err();
    assert!(matches!(lib_error, GomokuError::LibPass { number: 4, .. }));
    let pos_error = gomoku::read_pos(&data("renlib-board/4th_is_a_pass.pos")).unwrap_err();
    assert!(matches!(
        pos_error,
        GomokuError::PosPoint {
            number: 4,
            value: 240,
            ..
        }
    ));
}

#[test]
fn libraries_with_variations_and_comments() {
    // (file, first line, moves in the tree, lines, comments). The first
    // lines follow from the files' comments and names; the tree's counts
    // pin the walk over the records (a change in how the flags are
    // followed changes them).
    let cases: &[(&str, &str, usize, usize, usize)] = &[
        (
            "example_for_science_with_variant_maybe.lib",
            "h8 i8 o8 k7 j8",
            14,
            3,
            8,
        ),
        ("lib_documented.lib", "h8 f9 h10 h9 g9 i7", 13, 4, 2),
        (
            "nocomments.lib",
            "h8 h9 f9 i11 h10 i8 i9 j8 i10 j11 j10",
            21,
            4,
            0,
        ),
        // An I7 opening library: 2,076 moves, "Sure win for black".
        ("I7.lib", "h8 i9 i7 g10 g9", 2076, 262, 93),
        // A game, "dyccj - suncle21", with its variations.
        (
            "rps-fail.lib",
            "h8 h9 h10 i10 g9 f8 f10 e11 g11 i9 g12 g8 j11 i11 i8 g13 h12 i13 i12 f12",
            176,
            8,
            9,
        ),
        // A comment, then a stray line feed after the last record.
        ("lib_comment.lib", "h8 g7", 2, 1, 2),
    ];
    for &(file, line, tree, lines, comments) in cases {
        let path = format!("renlib-board/{file}");
        let read = lib(&path);
        assert_eq!(read.main_line.moves, points(line), "{file}");
        assert_eq!(
            (read.tree_moves, read.lines, read.comments),
            (tree, lines, comments),
            "{file}"
        );
        replay(&path, Variant::Freestyle, &read.main_line.moves);
        round_trip(&path, &read.main_line.moves);
    }
    // nocomments.lib's first line is free-style play: its 11th move is a
    // double three, which renju forbids black.
    let moves = lib("renlib-board/nocomments.lib").main_line.moves;
    let err = Position::from_moves(Variant::Renju, 15, &moves).unwrap_err();
    assert!(
        matches!(
            err,
            MovesError::Illegal {
                index: 10,
                reason: IllegalMove::Forbidden { .. }
            }
        ),
        "{err}"
    );
}

#[test]
fn pos_files_from_two_programs_read_and_write_back() {
    // (file, moves, how the game stands after them)
    let cases: &[(&str, usize, Option<Stone>)] = &[
        ("renlib-board/example.pos", 30, None),
        ("renlib-board/pos_two_top_rows.pos", 30, None),
        ("xl/easy.pos", 36, None),
        ("xl/hard.pos", 32, None),
        ("xl/ana3.pos", 39, None),
        ("xl/long.pos", 33, None),
        ("xl/44-in-a-line.pos", 57, None),
        ("xl/white-4.pos", 49, None),
        ("xl/forbidden-5.pos", 31, None),
        ("xl/black-to-move-7.pos", 18, None),
        // White's fifth stone is the file's last move.
        ("xl/43-7.pos", 50, Some(Stone::White)),
        // Every point of the board, black's five made by the last stone.
        ("xl/full.pos", 225, Some(Stone::Black)),
    ];
    for &(path, count, winner) in cases {
        let bytes = data(path);
        let read = pos(path);
        assert_eq!(read.moves.len(), count, "{path}");
        let end = replay(path, Variant::Renju, &read.moves);
        let won = match end.status() {
            Status::Won { winner, .. } => Some(winner),
            _ => None,
        };
        assert_eq!(won, winner, "{path}");
        // .pos back byte for byte; .psq lines as the bytes say.
        assert_eq!(gomoku::write_pos(&read.moves).unwrap(), bytes, "{path}");
        let psq = gomoku::write_psq(15, &read.moves, [None, None]);
        let lines: Vec<&str> = psq.lines().skip(1).take(count).collect();
        assert_eq!(lines, psq_lines_of_pos(&bytes), "{path}");
        round_trip(path, &read.moves);
    }
}

/// The board a quintet case draws: row 15 first, `o` black, `x` white.
fn quintet_board(text: &str) -> Vec<Vec<Option<Stone>>> {
    text.split("board:\n")
        .nth(1)
        .expect("a board")
        .lines()
        .take(15)
        .map(|row| {
            row.split(' ')
                .map(|c| match c {
                    "o" => Some(Stone::Black),
                    "x" => Some(Stone::White),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

#[test]
fn move_lists_of_engine_games_make_the_boards_drawn_beside_them() {
    let cases = [
        ("vct_game_black_l14_1.txt", 8),
        ("vct_game_black_l05_1.txt", 54),
        ("vct_game_white_l08_1.txt", 43),
        ("vct_game_white_l05_3.txt", 107),
    ];
    for (file, count) in cases {
        let path = format!("quintet/{file}");
        let text = String::from_utf8(data(&path)).expect("ASCII");
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("# Moves: "))
            .expect("a move line");
        let read = gomoku::read(line.as_bytes()).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(read.size, None);
        assert_eq!(read.moves.len(), count, "{path}");
        let end = replay(&path, Variant::Renju, &read.moves);
        assert_eq!(end.status(), Status::Ongoing, "{path}");
        let board = quintet_board(&text);
        for (i, row) in board.iter().enumerate() {
            for (col, &stone) in row.iter().enumerate() {
                let p = Point::new(col as u8, 14 - i as u8).unwrap();
                assert_eq!(end.stone_at(p), stone, "{path}: {p}");
            }
        }
        round_trip(&path, &read.moves);
    }
}

#[test]
fn bad_libraries_say_what_and_where() {
    let i7 = data("renlib-board/I7.lib");
    // Cut inside its first comment ("Welcome to RenLib").
    let e = gomoku::read_lib(&i7[..30]).unwrap_err();
    assert_eq!(
        e,
        GomokuError::LibTruncated {
            offset: 30,
            what: "a comment"
        }
    );
    assert_eq!(e.reason(), "truncated");
    assert_eq!(e.offset(), Some(30));
    // Cut inside the header.
    let e = gomoku::read_lib(&i7[..12]).unwrap_err();
    assert!(matches!(e, GomokuError::LibHeader { .. }), "{e}");
    // Garbage: neither the header nor the centre first.
    let e = gomoku::read_lib(b"Piskvorky 15x15, 11:11, 0\n").unwrap_err();
    assert!(matches!(e, GomokuError::LibHeader { .. }), "{e}");
    assert_eq!(e.reason(), "bad-header");
    // A version after 3.04.
    let mut newer = i7.clone();
    newer[9] = 5;
    assert_eq!(
        gomoku::read_lib(&newer),
        Err(GomokuError::LibVersion { major: 3, minor: 5 })
    );
    // A point off the board: column 0 (0x70), then row 16 (0xF8), in the
    // second record (bytes 22–23 of nocomments.lib, h9 = 0x68).
    let mut off = data("renlib-board/nocomments.lib");
    for value in [0x70, 0xF8] {
        off[22] = value;
        let e = gomoku::read_lib(&off).unwrap_err();
        assert_eq!(
            e,
            GomokuError::LibPoint {
                record: 2,
                offset: 22,
                value
            }
        );
        assert_eq!(e.reason(), "unreadable-move");
    }
    // A pass in the first line: move 3 of lib_3_is_pass.lib (h8 i9, pass).
    let e = gomoku::read_lib(&data("renlib-board/lib_3_is_pass.lib")).unwrap_err();
    assert_eq!(
        e,
        GomokuError::LibPass {
            number: 3,
            offset: 26
        }
    );
    assert!(e.to_string().contains("pass"), "{e}");
    let e = gomoku::read_lib(&data("renlib-board/null_move2.lib")).unwrap_err();
    assert!(matches!(e, GomokuError::LibPass { number: 4, .. }), "{e}");
    // Only a header: no move.
    assert_eq!(gomoku::read_lib(&i7[..20]), Err(GomokuError::Empty));
    assert_eq!(gomoku::read_lib(b""), Err(GomokuError::Empty));
}

#[test]
fn bad_psq_and_pos_files_say_what_and_where() {
    let game = pos("xl/hard.pos").moves;
    let psq = gomoku::write_psq(15, &game, [None, None]);
    // Truncated: the header alone, or cut inside the header.
    assert_eq!(
        gomoku::read_psq(b"Piskvorky 15x15, 11:11, 0\n"),
        Err(GomokuError::Empty)
    );
    assert!(matches!(
        gomoku::read_psq(&psq.as_bytes()[..12]),
        Err(GomokuError::BadHeader { .. })
    ));
    // Garbage.
    assert!(matches!(
        gomoku::read_psq(&data("renlib-board/I7.lib")),
        Err(GomokuError::Encoding { .. }) | Err(GomokuError::BadHeader { .. })
    ));
    assert!(matches!(
        gomoku::read(b"h8 i9 zz"),
        Err(GomokuError::BadMove {
            number: 3,
            line: 1,
            ..
        })
    ));
    // Off the board: a 16th column on 15×15, and a 20×20 board.
    let off = psq.replacen("\n8,", "\n16,", 1);
    assert!(matches!(
        gomoku::read_psq(off.as_bytes()),
        Err(GomokuError::BadMove { line: 2, .. })
    ));
    assert_eq!(
        gomoku::read_psq(b"Piskvorky 20x20, 7:7, 0\n10,10,456\n"),
        Err(GomokuError::BadBoard {
            width: 20,
            height: 20
        })
    );
    // A .pos file cut short, and one with a byte past the board.
    let bytes = data("xl/hard.pos");
    let e = gomoku::read_pos(&bytes[..20]).unwrap_err();
    assert_eq!(e.reason(), "truncated");
    let mut past = bytes.clone();
    past[5] = 225;
    assert!(matches!(
        gomoku::read_pos(&past),
        Err(GomokuError::PosPoint {
            number: 5,
            offset: 5,
            value: 225
        })
    ));
    // A repeated point reads (the formats do not forbid it) and is
    // refused by the rules at its index, naming the stone already there.
    let mut repeated = game.clone();
    repeated[6] = repeated[2];
    for text in [
        gomoku::write_psq(15, &repeated, [None, None]),
        gomoku::write_moves(&repeated),
    ] {
        let read = gomoku::read(text.as_bytes()).unwrap();
        let e = Position::from_moves(Variant::Freestyle, 15, &read.moves).unwrap_err();
        assert_eq!(
            e,
            MovesError::Illegal {
                index: 6,
                reason: IllegalMove::Occupied {
                    point: game[2],
                    stone: Stone::Black
                }
            }
        );
        assert_eq!(e.reason(), "illegal-move");
    }
}
