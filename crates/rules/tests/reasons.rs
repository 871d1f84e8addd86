//! The machine-readable name of every error variant, as a table per type.
//!
//! The names are a contract with API clients (a problem's `reason`
//! member), so each is spelled out here rather than derived: renaming one
//! is a deliberate change that fails this file. The code-error names are
//! the ones the service used before the rules crate named them itself
//! (`src/games/*.rs`: `invalid_code`, `code_reason`, `position_reason`,
//! `rows_reason`, `setup_problem`, `grid_problem`, `invalid_fen`).

use qipan_rules::code::SyntaxError;
use qipan_rules::{gomoku, quoridor, tetris, twenty48, xiangqi, EndReason, Reason, Solo};

/// Checks each error's reason and that its message is not empty.
fn check<E: Reason + std::fmt::Display + std::fmt::Debug>(table: Vec<(E, &str)>) {
    for (error, reason) in table {
        assert_eq!(error.reason(), reason, "{error:?}");
        assert!(!error.to_string().is_empty(), "{error:?}");
    }
}

/// One error of each syntax variant, for the given layout.
fn syntax(game: &'static str, expected: Option<usize>) -> Vec<(SyntaxError, &'static str)> {
    vec![
        (SyntaxError::Padding { offset: 3 }, "padding"),
        (
            SyntaxError::InvalidCharacter {
                offset: 1,
                character: '+',
            },
            "invalid-character",
        ),
        (
            SyntaxError::WrongLength {
                game,
                length: 5,
                expected,
            },
            "wrong-length",
        ),
        (
            SyntaxError::TrailingBits {
                offset: 4,
                character: 'B',
                bytes: None,
            },
            "trailing-bits",
        ),
    ]
}

#[test]
fn syntax_errors() {
    check(syntax("gomoku", None));
}

#[test]
fn xiangqi_codes_fens_and_positions() {
    use xiangqi::{CodeError, FenError, IllegalMove, Piece, PositionError, Role, Side};
    let sq = |s: &str| s.parse::<xiangqi::Square>().expect("a point");
    let general = Piece {
        side: Side::Red,
        role: Role::General,
    };
    let positions = vec![
        (
            PositionError::TooManyPieces {
                side: Side::Red,
                role: Role::Horse,
                count: 3,
                max: 2,
            },
            "too-many-pieces",
        ),
        (
            PositionError::MissingGeneral { side: Side::Black },
            "missing-general",
        ),
        (
            PositionError::ImpossiblePoint {
                piece: general,
                square: sq("a0"),
                why: "a red general stays inside its palace, d0–f2",
            },
            "impossible-point",
        ),
        (PositionError::GeneralsFacing { file: 4 }, "generals-facing"),
        (
            PositionError::OpponentInCheck { side: Side::Black },
            "opponent-in-check",
        ),
    ];
    let mut codes: Vec<(CodeError, &str)> = syntax("xiangqi", Some(43))
        .into_iter()
        .map(|(e, r)| (CodeError::Syntax(e), r))
        .collect();
    codes.extend([
        (
            CodeError::UnusedBitSet {
                byte: 3,
                piece: general,
            },
            "unused-bit",
        ),
        (
            CodeError::SquareOutOfRange {
                byte: 0,
                piece: general,
                value: 91,
            },
            "square-out-of-range",
        ),
        (
            CodeError::TwoPiecesOnOnePoint {
                square: sq("e0"),
                first: general,
                first_byte: 0,
                second: general,
                second_byte: 16,
            },
            "two-pieces-on-one-point",
        ),
    ]);
    codes.extend(
        positions
            .iter()
            .map(|(e, r)| (CodeError::Position(e.clone()), *r)),
    );
    check(codes);
    let mut fens = vec![
        (FenError::Empty, "empty"),
        (FenError::WrongRankCount { found: 9 }, "wrong-rank-count"),
        (
            FenError::InvalidCharacter {
                rank: 1,
                offset: 0,
                character: 'x',
            },
            "invalid-character",
        ),
        (
            FenError::RankTooLong { rank: 1, offset: 9 },
            "rank-too-long",
        ),
        (
            FenError::RankTooShort { rank: 1, points: 8 },
            "rank-too-short",
        ),
        (FenError::MissingSide, "missing-side"),
        (
            FenError::InvalidSide {
                found: "x".into(),
                offset: 60,
            },
            "invalid-side",
        ),
        (
            FenError::InvalidTrailer {
                found: "x".into(),
                offset: 62,
            },
            "invalid-trailer",
        ),
    ];
    fens.extend(
        positions
            .iter()
            .map(|(e, r)| (FenError::Position(e.clone()), *r)),
    );
    check(fens);
    check(positions);
    let mv: xiangqi::Move = "e5e4".parse().expect("ICCS");
    check(vec![
        (IllegalMove::NoPiece { mv }, "no-piece"),
        (
            IllegalMove::NotYourPiece {
                mv,
                piece: general,
                turn: Side::Black,
            },
            "not-your-piece",
        ),
        (
            IllegalMove::CannotReach { mv, piece: general },
            "cannot-reach",
        ),
        (
            IllegalMove::LeavesGeneralInCheck {
                mv,
                side: Side::Red,
            },
            "leaves-general-in-check",
        ),
    ]);
    use xiangqi::{Candidate, ParseMoveTextError, ResolveError, Which};
    check(vec![
        (ParseMoveTextError::Empty, "empty-move"),
        (
            ParseMoveTextError::Unexpected {
                text: "炮二走五".into(),
                position: 3,
                character: '走',
                expected: "进, 退 or 平",
            },
            "unexpected-character",
        ),
        (
            ParseMoveTextError::WrongLength {
                text: "炮二平".into(),
                length: 3,
                expected: "four characters",
            },
            "wrong-length",
        ),
    ]);
    check(vec![
        (
            ResolveError::NoSuchPiece {
                text: "炮三平五".into(),
                piece: general,
                which: Which::File(3),
            },
            "no-such-piece",
        ),
        (
            ResolveError::Ambiguous {
                text: "车二进一".into(),
                candidates: vec![Candidate {
                    mv,
                    name: "前车进一".into(),
                }],
            },
            "ambiguous-move",
        ),
        (
            ResolveError::Impossible {
                text: "马二平三".into(),
                piece: general,
                from: sq("h0"),
                why: "moves one file and two ranks",
            },
            "impossible-move",
        ),
        (
            ResolveError::Illegal {
                text: "e5e4".into(),
                error: IllegalMove::NoPiece { mv },
            },
            "no-piece",
        ),
    ]);
    let bad_move = "x".parse::<xiangqi::Move>().expect_err("not ICCS");
    assert_eq!(bad_move.reason(), "malformed-action");
    let bad_square = "x".parse::<xiangqi::Square>().expect_err("not ICCS");
    assert_eq!(bad_square.reason(), "malformed-square");
    let bad_side = "x".parse::<xiangqi::Side>().expect_err("no side");
    assert_eq!(bad_side.reason(), "unknown-player");
}

#[test]
fn gomoku_codes_rows_setups_and_moves() {
    use gomoku::{
        CodeError, Forbidden, IllegalMove, MovesError, PositionError, RowsError, SetupError, Stone,
        Variant,
    };
    let p = |s: &str| s.parse::<gomoku::Point>().expect("a point");
    let positions = vec![
        (
            PositionError::ImpossibleCounts { black: 3, white: 1 },
            "impossible-counts",
        ),
        (
            PositionError::LastMoveOnEmptyBoard { point: p("h8") },
            "last-move-on-empty-board",
        ),
        (
            PositionError::LastMoveNotMover {
                point: p("h8"),
                expected: Stone::Black,
                found: None,
            },
            "last-move-not-mover",
        ),
        (
            PositionError::WinnerNotLastMover {
                winner: Stone::Black,
                mover: Stone::White,
                from: p("a1"),
                to: p("e1"),
            },
            "winner-not-last-mover",
        ),
        (
            PositionError::PlayedOnAfterWin {
                winner: Stone::Black,
                from: p("a1"),
                to: p("e1"),
            },
            "played-on-after-win",
        ),
        (
            PositionError::LastMoveNotWinning {
                winner: Stone::Black,
                from: p("a1"),
                to: p("e1"),
                last: p("h8"),
            },
            "last-move-not-winning",
        ),
        (
            PositionError::BlackOverline {
                from: p("a1"),
                to: p("f1"),
            },
            "black-overline",
        ),
    ];
    let unsupported = SetupError::UnsupportedSize {
        variant: Variant::Renju,
        size: 19,
    };
    let illegal = vec![
        (
            IllegalMove::GameWon {
                point: p("h8"),
                winner: Stone::White,
            },
            "game-over",
        ),
        (IllegalMove::BoardFull { point: p("h8") }, "game-over"),
        (
            IllegalMove::OffBoard {
                point: p("p1"),
                size: 15,
            },
            "off-board",
        ),
        (
            IllegalMove::Occupied {
                point: p("h8"),
                stone: Stone::Black,
            },
            "point-taken",
        ),
        (
            IllegalMove::Forbidden {
                point: p("h8"),
                why: Forbidden::DoubleThree,
            },
            "forbidden",
        ),
    ];
    let mut codes: Vec<(CodeError, &str)> = syntax("gomoku", None)
        .into_iter()
        .map(|(e, r)| (CodeError::Syntax(e), r))
        .collect();
    codes.extend([
        (CodeError::HeaderBits { header: 0x20 }, "header-bits"),
        (CodeError::UnknownVariant { header: 3 }, "unknown-variant"),
        (CodeError::Setup(unsupported.clone()), "unsupported-size"),
        (
            CodeError::GridLength {
                size: 15,
                with_last: false,
                length: 3,
                expected: 62,
            },
            "wrong-length",
        ),
        (CodeError::MoveListLength { length: 3 }, "wrong-length"),
        (CodeError::MoveListPadding, "trailing-bits"),
        (
            CodeError::GridValue {
                byte: 1,
                value: 243,
                max: 242,
            },
            "grid-value",
        ),
        (
            CodeError::MoveOutOfRange {
                number: 1,
                value: 225,
                size: 15,
            },
            "point-out-of-range",
        ),
        (
            CodeError::LastMoveOutOfRange {
                value: 225,
                size: 15,
            },
            "point-out-of-range",
        ),
        (
            CodeError::IllegalMove {
                number: 3,
                point: p("h8"),
                reason: illegal[3].0.clone(),
            },
            "illegal-move",
        ),
    ]);
    codes.extend(
        positions
            .iter()
            .map(|(e, r)| (CodeError::Position(e.clone()), *r)),
    );
    check(codes);
    let mut rows = vec![
        (RowsError::RowCount { count: 14 }, "row-count"),
        (RowsError::Setup(unsupported.clone()), "unsupported-size"),
        (
            RowsError::RowLength {
                line: 1,
                row: 15,
                length: 14,
                expected: 15,
            },
            "row-length",
        ),
        (
            RowsError::BadCharacter {
                line: 1,
                column: 1,
                point: p("a15"),
                character: 'X',
            },
            "invalid-character",
        ),
    ];
    rows.extend(
        positions
            .iter()
            .map(|(e, r)| (RowsError::Position(e.clone()), *r)),
    );
    check(rows);
    let mut setups = vec![
        (unsupported.clone(), "unsupported-size"),
        (
            SetupError::StoneOffBoard {
                point: p("p1"),
                size: 15,
            },
            "stone-off-board",
        ),
    ];
    setups.extend(
        positions
            .iter()
            .map(|(e, r)| (SetupError::Position(e.clone()), *r)),
    );
    check(setups);
    check(positions);
    check(vec![
        (MovesError::Setup(unsupported), "unsupported-size"),
        (
            MovesError::Illegal {
                index: 2,
                reason: illegal[3].0.clone(),
            },
            "illegal-move",
        ),
    ]);
    check(illegal);
    let point = "x".parse::<gomoku::Point>().expect_err("no point");
    assert_eq!(point.reason(), "malformed-action");
    let stone = "x".parse::<Stone>().expect_err("no colour");
    assert_eq!(stone.reason(), "unknown-player");
    let variant = "x".parse::<Variant>().expect_err("no rule set");
    assert_eq!(variant.reason(), "unknown-variant");
    let forbidden = "x".parse::<Forbidden>().expect_err("no prohibition");
    assert_eq!(forbidden.reason(), "unknown-forbidden");
}

#[test]
fn twenty48_codes_grids_and_moves() {
    use twenty48::{CodeError, Direction, GridError, IllegalMove};
    let grids = vec![
        (
            GridError::InvalidTile {
                row: 0,
                col: 1,
                value: 3,
            },
            "invalid-tile",
        ),
        (GridError::NoTiles, "no-tiles"),
        (
            GridError::ImpossibleScore {
                score: 2,
                min: 0,
                max: 4,
            },
            "impossible-score",
        ),
    ];
    let mut codes: Vec<(CodeError, &str)> = syntax("2048", Some(31))
        .into_iter()
        .map(|(e, r)| (CodeError::Syntax(e), r))
        .collect();
    codes.extend([
        (CodeError::UnknownVersion { version: 2 }, "unknown-version"),
        (
            CodeError::ExponentOutOfRange {
                row: 0,
                col: 0,
                exponent: 18,
            },
            "tile-out-of-range",
        ),
    ]);
    codes.extend(grids.iter().map(|(e, r)| (CodeError::Grid(e.clone()), *r)));
    check(codes);
    check(grids);
    let up = Direction::Up;
    check(vec![
        (IllegalMove::GameOver { direction: up }, "game-over"),
        (
            IllegalMove::NoChange {
                direction: up,
                legal: vec![Direction::Left],
            },
            "no-change",
        ),
        (
            IllegalMove::NoRoomToSpawn { direction: up },
            "no-room-to-spawn",
        ),
    ]);
    let bad = "north".parse::<Direction>().expect_err("no direction");
    assert_eq!(bad.reason(), "malformed-action");
    let nobody = "nobody".parse::<Solo>().expect_err("one player");
    assert_eq!(nobody.reason(), "unknown-player");
}

#[test]
fn quoridor_codes_setups_and_actions() {
    use quoridor::{ActionError, CodeError, Player, SetupError};
    let sq = |s: &str| s.parse::<quoridor::Square>().expect("a square");
    let wall = |s: &str| s.parse::<quoridor::Wall>().expect("a wall");
    let one = Player::One;
    let setups = vec![
        (
            SetupError::TooManyWallsLeft {
                player: one,
                walls_left: 11,
            },
            "too-many-walls-left",
        ),
        (
            SetupError::PawnsOnOneSquare { square: sq("e5") },
            "pawns-on-one-square",
        ),
        (
            SetupError::DuplicateWall { wall: wall("e3h") },
            "duplicate-wall",
        ),
        (
            SetupError::OverlappingWalls {
                first: wall("d3h"),
                second: wall("e3h"),
            },
            "overlapping-walls",
        ),
        (
            SetupError::CrossingWalls {
                first: wall("e3h"),
                second: wall("e3v"),
            },
            "crossing-walls",
        ),
        (
            SetupError::WallCount {
                placed: 1,
                left: 20,
            },
            "wall-count",
        ),
        (
            SetupError::WinnerToMove {
                player: one,
                square: sq("e9"),
            },
            "winner-to-move",
        ),
        (
            SetupError::NoPath {
                player: one,
                square: sq("e1"),
            },
            "no-path",
        ),
    ];
    let mut codes: Vec<(CodeError, &str)> = syntax("quoridor", Some(26))
        .into_iter()
        .map(|(e, r)| (CodeError::Syntax(e), r))
        .collect();
    codes.extend([
        (CodeError::ReservedBit { byte: 0x80 }, "unused-bit"),
        (
            CodeError::PawnSquare {
                player: one,
                value: 81,
            },
            "square-out-of-range",
        ),
        (CodeError::WallSlot { anchor: sq("a1") }, "wall-slot"),
    ]);
    codes.extend(
        setups
            .iter()
            .map(|(e, r)| (CodeError::Setup(e.clone()), *r)),
    );
    check(codes);
    check(setups);
    check(vec![
        (ActionError::GameOver { winner: one }, "game-over"),
        (
            ActionError::Occupied {
                square: sq("e2"),
                player: Player::Two,
            },
            "square-taken",
        ),
        (
            ActionError::WallInTheWay {
                from: sq("e1"),
                to: sq("e2"),
                target: sq("e2"),
            },
            "wall-in-the-way",
        ),
        (
            ActionError::DiagonalWhileStraightOpen {
                target: sq("d3"),
                over: sq("e3"),
                behind: sq("e4"),
            },
            "diagonal-while-straight-open",
        ),
        (
            ActionError::OutOfReach {
                from: sq("e1"),
                target: sq("e5"),
            },
            "cannot-reach",
        ),
        (ActionError::NoWallsLeft { player: one }, "no-walls-left"),
        (ActionError::WallPlaced { wall: wall("e3h") }, "wall-placed"),
        (
            ActionError::WallOverlaps {
                wall: wall("d3h"),
                other: wall("e3h"),
            },
            "wall-overlaps",
        ),
        (
            ActionError::WallCrosses {
                wall: wall("e3v"),
                other: wall("e3h"),
            },
            "wall-crosses",
        ),
        (
            ActionError::WallCutsOff {
                wall: wall("e3h"),
                player: one,
                square: sq("e1"),
            },
            "wall-cuts-off",
        ),
    ]);
    let action = "x".parse::<quoridor::Action>().expect_err("no action");
    assert_eq!(action.reason(), "malformed-action");
    let square = "x".parse::<quoridor::Square>().expect_err("no square");
    assert_eq!(square.reason(), "malformed-square");
    let w = "x".parse::<quoridor::Wall>().expect_err("no wall");
    assert_eq!(w.reason(), "malformed-wall");
    let player = "3".parse::<Player>().expect_err("two players");
    assert_eq!(player.reason(), "unknown-player");
}

#[test]
fn tetris_codes_setups_and_actions() {
    use tetris::{Action, CodeError, IllegalAction, Kind, Rotation, SetupError};
    let mut codes: Vec<(CodeError, &str)> = syntax("tetris", None)
        .into_iter()
        .map(|(e, r)| (CodeError::Syntax(e), r))
        .collect();
    codes.extend([
        (CodeError::Truncated { field: "queue" }, "wrong-length"),
        (CodeError::TrailingData { bits: 9 }, "trailing-bits"),
        (CodeError::UnknownVersion { version: 2 }, "unknown-version"),
        (
            CodeError::OutOfRange {
                field: "hold",
                value: 8,
            },
            "value-out-of-range",
        ),
        (CodeError::NotCanonical { field: "score" }, "not-canonical"),
        (CodeError::FullRow { row: 0 }, "full-row"),
        (
            CodeError::PieceCollides {
                kind: Kind::T,
                rotation: Rotation::Spawn,
                col: 3,
                row: 1,
            },
            "piece-collides",
        ),
        (CodeError::OverPieceMisplaced, "impossible-state"),
        (CodeError::RotatedO, "impossible-state"),
        (CodeError::HoldUsedWithoutHold, "impossible-state"),
        (
            CodeError::RepeatedInBag { kind: Kind::S },
            "impossible-state",
        ),
        (
            CodeError::LevelTooLow {
                level: 1,
                lines: 30,
                least: 4,
            },
            "impossible-state",
        ),
    ]);
    check(codes);
    check(vec![
        (SetupError::TooManyRows { count: 41 }, "too-many-rows"),
        (SetupError::RowLength { row: 0, length: 9 }, "row-length"),
        (
            SetupError::BadCell {
                row: 0,
                col: 0,
                character: 'x',
            },
            "invalid-character",
        ),
        (SetupError::FullRow { row: 0 }, "full-row"),
        (SetupError::QueueTooLong { length: 6 }, "queue-too-long"),
        (
            SetupError::LevelTooLow {
                level: 1,
                lines: 30,
                least: 4,
            },
            "level-too-low",
        ),
        (SetupError::SpawnBlocked { kind: Kind::I }, "spawn-blocked"),
        (
            SetupError::PieceCollides {
                kind: Kind::T,
                rotation: Rotation::Right,
                col: -5,
                row: 0,
            },
            "piece-collides",
        ),
        (SetupError::GameOver, "game-over"),
    ]);
    let legal = vec![Action::Hard, Action::Tick];
    check(vec![
        (
            IllegalAction::GameOver {
                action: Action::Left,
                reason: EndReason::BlockOut,
            },
            "game-over",
        ),
        (
            IllegalAction::Blocked {
                action: Action::Left,
                legal: legal.clone(),
            },
            "blocked",
        ),
        (
            IllegalAction::ODoesNotRotate {
                action: Action::Cw,
                legal: legal.clone(),
            },
            "o-does-not-rotate",
        ),
        (
            IllegalAction::NoKickFits {
                action: Action::Ccw,
                legal: legal.clone(),
            },
            "no-kick-fits",
        ),
        (
            IllegalAction::Resting {
                action: Action::Soft,
                legal: legal.clone(),
            },
            "piece-resting",
        ),
        (
            IllegalAction::HoldUsed {
                action: Action::Hold,
                legal,
            },
            "hold-used",
        ),
    ]);
    let action = "drop".parse::<Action>().expect_err("no action");
    assert_eq!(action.reason(), "malformed-action");
    let kind = "X".parse::<Kind>().expect_err("no tetromino");
    assert_eq!(kind.reason(), "unknown-kind");
    let rotation = "3".parse::<Rotation>().expect_err("no state");
    assert_eq!(rotation.reason(), "unknown-rotation");
}

#[test]
fn end_reasons_have_stable_names_that_round_trip() {
    let names = [
        (EndReason::Checkmate, "checkmate"),
        (EndReason::Stalemate, "stalemate"),
        (EndReason::FiveInARow, "five-in-a-row"),
        (EndReason::BoardFull, "board-full"),
        (EndReason::NoMoves, "no-moves"),
        (EndReason::BlockOut, "block-out"),
        (EndReason::LockOut, "lock-out"),
        (EndReason::ReachedGoal, "reached-goal"),
        (EndReason::PerpetualCheck, "perpetual-check"),
        (EndReason::PerpetualChase, "perpetual-chase"),
        (EndReason::Repetition, "repetition"),
        (EndReason::MoveLimit, "move-limit"),
    ];
    assert_eq!(
        EndReason::ALL.to_vec(),
        names.iter().map(|&(r, _)| r).collect::<Vec<_>>(),
        "ALL lists every reason once, in this order"
    );
    for (reason, name) in names {
        assert_eq!(reason.as_str(), name);
        assert_eq!(reason.to_string(), name);
        assert_eq!(name.parse::<EndReason>(), Ok(reason));
    }
    let unknown = "perpetual"
        .parse::<EndReason>()
        .expect_err("no such reason");
    assert_eq!(unknown.reason(), "unknown-end-reason");
}

#[test]
fn xiangqi_history_errors() {
    use xiangqi::{History, HistoryError, IllegalMove};
    let mv: xiangqi::Move = "e5e4".parse().expect("ICCS");
    check(vec![(
        HistoryError {
            index: 3,
            error: IllegalMove::NoPiece { mv },
        },
        "illegal-move",
    )]);
    let err = History::with_moves(xiangqi::Position::start(), Default::default(), &[mv])
        .expect_err("e5 is empty");
    assert_eq!(err.index, 0);
    assert_eq!(err.error, IllegalMove::NoPiece { mv });
}
