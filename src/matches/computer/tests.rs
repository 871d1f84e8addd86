//! Unit tests of the computer seat.

use super::*;
use crate::matches::create::new_match;
use crate::matches::{MatchEnd, MatchStatus};
use qipan_rules::{AnyPlayer, AnyPosition, GameKind};

fn request(level: Option<i64>, ms: Option<i64>) -> Result<Computer, ComputerError> {
    Computer::parse(&ComputerRequest { level, ms })
}

#[test]
fn a_computer_is_a_level_a_time_or_both() {
    let c = request(Some(3), None).unwrap();
    assert_eq!((c.level.get(), c.time.get()), (3, 300));
    let c = request(None, Some(40)).unwrap();
    assert_eq!((c.level.get(), c.time.get()), (10, 40));
    let c = request(Some(1), Some(5000)).unwrap();
    assert_eq!((c.level.get(), c.time.get()), (1, 5000));
    assert_eq!(request(None, None), Err(ComputerError::Shape));
    assert_eq!(request(Some(0), None), Err(ComputerError::Level(0)));
    assert_eq!(request(Some(11), Some(5)), Err(ComputerError::Level(11)));
    assert_eq!(request(Some(-1), None), Err(ComputerError::Level(-1)));
    assert_eq!(request(None, Some(5001)), Err(ComputerError::Ms(5001)));
    assert_eq!(request(Some(2), Some(0)), Err(ComputerError::Ms(0)));
    assert_eq!(ComputerError::Ms(0).field(), "computer.ms");
}

#[test]
fn the_computer_accepts_a_draw_when_it_stands_no_better_than_level() {
    for (score, accepted) in [
        (ScoreView::Centipawns(-300), true),
        (ScoreView::Centipawns(0), true),
        (ScoreView::Centipawns(DRAW_CENTIPAWNS), true),
        (ScoreView::Centipawns(DRAW_CENTIPAWNS + 1), false),
        (ScoreView::Mate(3), false),
        (ScoreView::Mate(-2), true),
        (ScoreView::ForcedWin(5), false),
        (ScoreView::ForcedLoss(4), true),
        (ScoreView::Evaluation(DRAW_EVALUATION), true),
        (ScoreView::Evaluation(DRAW_EVALUATION + 1), false),
        (ScoreView::PathDifference(-100), true),
        (ScoreView::PathDifference(DRAW_PATH + 1), false),
    ] {
        assert_eq!(accepts_draw(score), accepted, "{score:?}");
    }
}

#[test]
fn a_score_of_the_other_side_is_turned_round() {
    let theirs = ScoreView::Centipawns(400);
    assert_eq!(seen_by_computer(theirs, true), theirs);
    assert!(accepts_draw(seen_by_computer(theirs, false)));
    assert!(!accepts_draw(seen_by_computer(
        ScoreView::Centipawns(-400),
        false
    )));
    assert_eq!(
        seen_by_computer(ScoreView::ForcedWin(3), false),
        ScoreView::ForcedLoss(3)
    );
    assert_eq!(
        seen_by_computer(ScoreView::Mate(2), false),
        ScoreView::Mate(-2)
    );
}

#[test]
fn a_lease_holds_for_its_search_and_expires_after_its_margin() {
    let t = Timestamp::from_millis(1_000_000).unwrap();
    let until = t.plus(lease_for(Millis::new(500)));
    assert_eq!(until.millis() - t.millis(), 10_500);
    let v = Version::new(7);
    // Held: the same version before the lease ends.
    assert!(!claimable(v, until, v, t));
    assert!(!claimable(
        v,
        until,
        v,
        until.minus(Duration::from_millis(1))
    ));
    // Expired: taken over.
    assert!(claimable(v, until, v, until));
    // A new version: a new turn.
    assert!(claimable(v, until, v.next(), t));
}

#[test]
fn the_clock_bounds_the_search() {
    let c = Computer {
        level: Level::MAX,
        time: Millis::new(2_000),
    };
    assert_eq!(search_time(c, None), Duration::from_millis(2_000));
    assert_eq!(
        search_time(c, Some(Millis::new(60_000))),
        Duration::from_millis(2_000)
    );
    assert_eq!(
        search_time(c, Some(Millis::new(5_000))),
        Duration::from_millis(500)
    );
    assert_eq!(
        search_time(c, Some(Millis::new(-20))),
        Duration::from_millis(10)
    );
}

fn gomoku_duel() -> (Match, Vec<SeatSlot>) {
    let position = crate::games::start(GameKind::Gomoku, &Default::default())
        .unwrap()
        .0;
    let m = new_match(
        MatchId::random(),
        GameKind::Gomoku,
        Mode::Duel,
        position,
        0,
        None,
        Timestamp::now(),
    );
    let slot = |side: AnyPlayer, computer| SeatSlot {
        seat: Seat::Side(side),
        name: None,
        token: None,
        invite: None,
        joined_at: None,
        online: false,
        computer,
    };
    let players = GameKind::Gomoku.players();
    let seats = vec![
        slot(players[0], None),
        slot(
            players[1],
            Some(Computer {
                level: Level::MIN,
                time: Millis::new(20),
            }),
        ),
    ];
    (m, seats)
}

#[test]
fn the_computer_answers_offers_before_it_moves() {
    let (mut m, mut seats) = gomoku_duel();
    let players = GameKind::Gomoku.players();
    let (human, computer) = (Seat::Side(players[0]), Seat::Side(players[1]));
    // The person moves first: nothing to do.
    assert_eq!(duty(&m, &seats), None);
    m.draw = Some(human);
    assert_eq!(duty(&m, &seats).map(|d| d.2), Some(Duty::AnswerDraw));
    let offer = UndoOffer {
        seat: human,
        back_to: 0,
    };
    m.undo = Some(offer);
    assert_eq!(duty(&m, &seats).map(|d| d.2), Some(Duty::AcceptUndo(offer)));
    // Its own offers (it makes none) are not answered by itself.
    m.undo = None;
    m.draw = Some(computer);
    assert_eq!(duty(&m, &seats), None);
    m.draw = None;
    // Its turn.
    let AnyPosition::Gomoku(p) = &m.position else {
        unreachable!()
    };
    let played = p.play(p.legal_actions()[0]).unwrap();
    m.set_position(AnyPosition::Gomoku(played.clone()), played.to_code(), 1);
    assert_eq!(
        duty(&m, &seats).map(|d| (d.0, d.2)),
        Some((computer, Duty::Move))
    );
    // Over: nothing.
    m.status = MatchStatus::Drawn {
        reason: MatchEnd::Agreement,
    };
    assert_eq!(duty(&m, &seats), None);
    // No computer: nothing.
    m.status = MatchStatus::Ongoing;
    seats[1].computer = None;
    assert_eq!(duty(&m, &seats), None);
}
