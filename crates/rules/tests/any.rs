//! The dispatch layer: `AnyPosition` agrees with each game's own `Game`
//! impl, the two macros reach every game, and the shared syntax layer
//! refuses the same bad text the same way in all five games.
//!
//! Expected values come from each game's own documentation and data files:
//! the xiangqi start counts from `tests/data/xiangqi.perft` (Fairy-Stockfish
//! and the chessprogramming wiki), the quoridor start counts from
//! `tests/data/quoridor/quoridor.perft` (derived by hand in its header), the
//! 2048 code of seed 42 from the `twenty48` module documentation, the
//! gomoku start codes from the `gomoku` module documentation.

use qipan_rules::code::SyntaxError;
use qipan_rules::{
    gomoku, quoridor, tetris, twenty48, with_game, with_position, xiangqi, AnyAction, AnyCodeError,
    AnyIllegal, AnyPlayer, AnyPosition, AnyTrace, Game, GameKind, Player, Reason, Solo, Status,
};

/// One start position of every game (every gomoku rule set and size).
fn starts() -> Vec<AnyPosition> {
    vec![
        xiangqi::Position::start().into(),
        gomoku::Position::new(gomoku::Variant::Freestyle, 15)
            .expect("freestyle is played on 15×15")
            .into(),
        gomoku::Position::new(gomoku::Variant::Freestyle, 19)
            .expect("freestyle is played on 19×19")
            .into(),
        gomoku::Position::new(gomoku::Variant::Renju, 15)
            .expect("renju is played on 15×15")
            .into(),
        twenty48::Position::new(42).into(),
        quoridor::Position::start().into(),
        tetris::Position::new(7).into(),
    ]
}

/// Each start after its first three legal actions, so that codes of
/// positions with history are covered too.
fn played() -> Vec<AnyPosition> {
    starts()
        .into_iter()
        .map(|mut pos| {
            for _ in 0..3 {
                let first = *pos.legal_actions().first().expect("a start goes on");
                pos = pos.play(first).expect("a listed action is legal");
            }
            pos
        })
        .collect()
}

#[test]
fn every_start_code_round_trips_through_any_position() {
    for pos in starts().into_iter().chain(played()) {
        let code = pos.to_code();
        assert_eq!(
            AnyPosition::from_code(pos.kind(), &code),
            Ok(pos.clone()),
            "{code}"
        );
        let same = with_position!(&pos, p => Game::to_code(p));
        assert_eq!(same, code);
    }
}

#[test]
fn start_codes_are_the_documented_ones() {
    let code = |kind, code: &str| {
        AnyPosition::from_code(kind, code)
            .unwrap_or_else(|e| panic!("{kind} {code}: {e}"))
            .to_code()
    };
    for (kind, start) in [
        (
            GameKind::Xiangqi,
            "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM",
        ),
        (GameKind::Gomoku, "AA"),
        (GameKind::Gomoku, "Ag"),
        (GameKind::Twenty48, "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4"),
        (GameKind::Quoridor, "BEyqAAAAAAAAAAAAAAAAAAAAAA"),
        (GameKind::Tetris, "AWKoAU6Aq1TNpY-77ohQAAMA"),
    ] {
        assert_eq!(code(kind, start), start);
    }
}

#[test]
fn any_perft_is_the_games_perft() {
    for pos in starts().into_iter().chain(played()) {
        // Gomoku's generic perft replays 50 000 boards at depth 2; one ply
        // is enough to tie the dispatch to it.
        let depth = match pos.kind() {
            GameKind::Gomoku => 1,
            GameKind::Xiangqi | GameKind::Twenty48 | GameKind::Quoridor | GameKind::Tetris => 2,
        };
        let direct = with_position!(&pos, p => Game::perft(p, depth));
        assert_eq!(pos.perft(depth), direct, "{:?}", pos.kind());
    }
    let xiangqi = AnyPosition::from(xiangqi::Position::start());
    assert_eq!(
        [1, 2, 3].map(|d| xiangqi.perft(d)),
        [44, 1920, 79_666],
        "tests/data/xiangqi.perft"
    );
    let quoridor = AnyPosition::from(quoridor::Position::start());
    assert_eq!(
        quoridor.perft(2),
        16_677,
        "tests/data/quoridor/quoridor.perft"
    );
}

#[test]
fn any_position_plays_as_the_game_does() {
    for pos in starts() {
        let actions = pos.legal_actions();
        assert!(!actions.is_empty());
        for &action in actions.iter().take(5) {
            let text = action.to_string();
            assert_eq!(pos.parse_action(&text), Ok(action), "{text}");
            let (next, trace) = pos.play_traced(action).expect("listed, so legal");
            assert_eq!(pos.play(action), Ok(next.clone()));
            assert_eq!(next.kind(), pos.kind());
            // The games with chance report it; the others report nothing.
            if let (
                AnyPosition::Twenty48(p),
                AnyAction::Twenty48(d),
                AnyPosition::Twenty48(n),
                AnyTrace::Twenty48(slide),
            ) = (&pos, action, &next, &trace)
            {
                assert_eq!(p.play_traced(d), Ok((*n, *slide)));
            }
            if let (
                AnyPosition::Tetris(p),
                AnyAction::Tetris(a),
                AnyPosition::Tetris(n),
                AnyTrace::Tetris(lock),
            ) = (&pos, action, &next, &trace)
            {
                assert_eq!(p.play_traced(a), Ok((n.clone(), *lock)));
            }
            let unit = matches!(
                trace,
                AnyTrace::Xiangqi(()) | AnyTrace::Gomoku(()) | AnyTrace::Quoridor(())
            );
            assert_eq!(
                unit,
                matches!(
                    pos.kind(),
                    GameKind::Xiangqi | GameKind::Gomoku | GameKind::Quoridor
                )
            );
        }
        assert_eq!(pos.status(), Status::Ongoing);
    }
}

#[test]
fn an_action_of_another_game_is_refused() {
    let quoridor = AnyPosition::from(quoridor::Position::start());
    let left = AnyAction::Twenty48(twenty48::Direction::Left);
    let err = quoridor.play(left).expect_err("another game's action");
    assert_eq!(
        err,
        AnyIllegal::WrongGame {
            position: GameKind::Quoridor,
            action: GameKind::Twenty48
        }
    );
    assert_eq!(err.reason(), "wrong-game");
    assert_eq!(
        err.to_string(),
        "a 2048 action cannot be played in a quoridor position"
    );
}

#[test]
fn illegal_actions_keep_the_games_error() {
    let xiangqi = AnyPosition::from(xiangqi::Position::start());
    let action = xiangqi.parse_action("e5e4").expect("ICCS syntax");
    let err = xiangqi.play(action).expect_err("no piece on e5");
    assert_eq!(err.reason(), "no-piece");
    assert_eq!(err.to_string(), "e5e4: no piece on e5");
    let e5: xiangqi::Square = "e5".parse().expect("a point");
    assert!(matches!(
        err,
        AnyIllegal::Xiangqi(xiangqi::IllegalMove::NoPiece { mv }) if mv.from == e5
    ));
    let parse = xiangqi.parse_action("e5").expect_err("half a move");
    assert_eq!(parse.reason(), "malformed-action");
}

#[test]
fn players_round_trip_and_alternate() {
    for kind in GameKind::ALL {
        let players = kind.players();
        assert!(!players.is_empty());
        for &player in players {
            assert_eq!(AnyPlayer::parse(kind, player.as_str()), Some(player));
            assert_eq!(player.to_string(), player.as_str());
            match players.len() {
                1 => assert_eq!(player.opponent(), None),
                _ => {
                    let other = player.opponent().expect("a two-player game");
                    assert_ne!(other, player);
                    assert_eq!(other.opponent(), Some(player));
                }
            }
        }
        assert_eq!(AnyPlayer::parse(kind, "nobody"), None);
    }
    let names =
        |kind: GameKind| -> Vec<&str> { kind.players().iter().map(|p| p.as_str()).collect() };
    assert_eq!(names(GameKind::Xiangqi), ["red", "black"]);
    assert_eq!(names(GameKind::Gomoku), ["black", "white"]);
    assert_eq!(names(GameKind::Twenty48), ["player"]);
    assert_eq!(names(GameKind::Quoridor), ["1", "2"]);
    assert_eq!(names(GameKind::Tetris), ["player"]);
    // The first player of each game is the one to move at its start.
    for pos in starts() {
        assert_eq!(Some(&pos.to_move()), pos.kind().players().first());
    }
}

/// `Player::ALL` in the game's own type, as names.
fn all_names<P: Player>() -> Vec<&'static str> {
    P::ALL.iter().map(|p| p.as_str()).collect()
}

#[test]
fn players_of_each_game_type_match_the_kind() {
    for kind in GameKind::ALL {
        let names = with_game!(kind, P => all_names::<<P as Game>::Player>());
        let listed: Vec<&str> = kind.players().iter().map(|p| p.as_str()).collect();
        assert_eq!(names, listed, "{kind}");
    }
    for p in <xiangqi::Side as Player>::ALL {
        assert_eq!(p.to_string().parse::<xiangqi::Side>(), Ok(*p));
    }
    for p in <gomoku::Stone as Player>::ALL {
        assert_eq!(p.to_string().parse::<gomoku::Stone>(), Ok(*p));
    }
    for p in <quoridor::Player as Player>::ALL {
        assert_eq!(p.to_string().parse::<quoridor::Player>(), Ok(*p));
    }
    assert_eq!("player".parse::<Solo>(), Ok(Solo));
    assert_eq!(
        "Player".parse::<Solo>().map_err(|e| e.reason()),
        Err("unknown-player")
    );
}

#[test]
fn with_game_names_each_kind_and_its_codes() {
    for pos in starts() {
        let kind = pos.kind();
        assert_eq!(with_game!(kind, P => P::KIND), kind);
        let code = pos.to_code();
        let back = with_game!(kind, P => P::from_code(&code).map(AnyPosition::from).ok());
        assert_eq!(back, Some(pos));
    }
    for kind in GameKind::ALL {
        assert_eq!(kind.as_str().parse::<GameKind>(), Ok(kind));
    }
    let unknown = "chess".parse::<GameKind>().expect_err("not a qipan game");
    assert_eq!(unknown.reason(), "unknown-game");
}

/// The syntax error inside any game's code error, if it is one.
fn syntax(e: &AnyCodeError) -> Option<&SyntaxError> {
    if let AnyCodeError::Xiangqi(xiangqi::CodeError::Syntax(s))
    | AnyCodeError::Gomoku(gomoku::CodeError::Syntax(s))
    | AnyCodeError::Twenty48(twenty48::CodeError::Syntax(s))
    | AnyCodeError::Quoridor(quoridor::CodeError::Syntax(s))
    | AnyCodeError::Tetris(tetris::CodeError::Syntax(s)) = e
    {
        Some(s)
    } else {
        None
    }
}

#[test]
fn every_game_refuses_bad_text_with_the_same_syntax_error() {
    for kind in GameKind::ALL {
        let refuse = |code: &str| {
            let err = AnyPosition::from_code(kind, code).expect_err("bad text");
            let s = syntax(&err)
                .unwrap_or_else(|| panic!("{kind} {code:?}: {err:?} is no syntax error"))
                .clone();
            assert_eq!(err.reason(), s.reason());
            assert_eq!(err.to_string(), s.to_string());
            s
        };
        // A `=` is named before a foreign character after it, and before
        // the length.
        assert_eq!(refuse("AB=C*"), SyntaxError::Padding { offset: 2 });
        assert_eq!(
            refuse("AB*C"),
            SyntaxError::InvalidCharacter {
                offset: 2,
                character: '*'
            }
        );
        // Five characters: no whole number of bytes, and no game's fixed
        // length either.
        let five = refuse("ABCDE");
        assert!(
            matches!(five, SyntaxError::WrongLength { length: 5, .. }),
            "{kind}: {five:?}"
        );
        assert_eq!(five.reason(), "wrong-length");
        let empty = refuse("");
        assert!(
            matches!(empty, SyntaxError::WrongLength { length: 0, .. }),
            "{kind}: {empty:?}"
        );
        assert_eq!(empty.to_string(), "the code is empty");
    }
}

#[test]
fn syntax_messages_name_the_game_and_its_layout() {
    let message = |kind, code: &str| {
        AnyPosition::from_code(kind, code)
            .expect_err("bad text")
            .to_string()
    };
    assert_eq!(
        message(GameKind::Xiangqi, "ABCDE"),
        "a xiangqi code has 43 characters, this one has 5"
    );
    assert_eq!(
        message(GameKind::Twenty48, "ABCDE"),
        "a 2048 code has 31 characters, this one has 5"
    );
    assert_eq!(
        message(GameKind::Quoridor, "ABCDE"),
        "a quoridor code has 26 characters, this one has 5"
    );
    for kind in [GameKind::Gomoku, GameKind::Tetris] {
        assert_eq!(
            message(kind, "ABCDE"),
            "5 characters do not make whole bytes in base64 (a length of 4n + 1 never does)"
        );
        assert_eq!(
            message(kind, "AB"),
            "the last character 'B' sets bits beyond the code's last byte"
        );
    }
    // 26 characters carry 156 bits, 4 more than 19 bytes.
    assert_eq!(
        message(GameKind::Quoridor, "BEyqAAAAAAAAAAAAAAAAAAAAAB"),
        "the last character 'B' sets bits beyond the 19 bytes of a code; it must be one of AQgw"
    );
}
