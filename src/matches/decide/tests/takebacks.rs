//! Takebacks.

use super::*;

#[test]
fn a_solo_match_goes_back_one_move_at_once() {
    let mut m = solo();
    play(&mut m, Seat::Solo, &["h8", "h9"], at(1)).unwrap();
    let Undo::Decided(Decision::GoBack(back, change)) = undo(&m, Seat::Solo).unwrap() else {
        panic!("a solo takeback goes back at once");
    };
    assert_eq!(
        back,
        Back {
            ply: 1,
            why: Missing::LastMove
        }
    );
    assert_eq!(change.kind, EventKind::Undo);
}

#[test]
fn a_resigned_solo_match_is_not_taken_back() {
    let mut m = solo();
    play(&mut m, Seat::Solo, &["h8"], at(1)).unwrap();
    resign(&mut m, Seat::Solo, at(2)).unwrap();
    let e = undo(&m, Seat::Solo).unwrap_err();
    assert!(is_finished(&e, Refused::UndoResigned), "{e:?}");
}

#[test]
fn a_solo_game_the_rules_ended_is_taken_back() {
    let mut m = solo();
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    play(&mut m, Seat::Solo, &line, at(1)).unwrap();
    assert!(matches!(
        undo(&m, Seat::Solo).unwrap(),
        Undo::Decided(Decision::GoBack(..))
    ));
}

#[test]
fn a_finished_duel_takes_nothing_back() {
    let mut m = duel();
    finished(&mut m);
    let e = undo(&m, sides(GameKind::Gomoku).0).unwrap_err();
    assert!(is_finished(&e, Refused::OfferUndo), "{e:?}");
}

#[test]
fn a_duel_seat_offers_a_takeback_of_its_own_last_move() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1)).unwrap();
    play(&mut m, white, &["h9"], at(2)).unwrap();
    assert!(matches!(undo(&m, black).unwrap(), Undo::Offer));
    let d = offer_undo(&mut m, black, Some(1), at(3)).unwrap();
    let Decision::Write(change) = d else {
        panic!("an offer is written")
    };
    assert_eq!(change.kind, EventKind::TakebackOffered);
    assert_eq!(change.back_to, Some(0));
    assert_eq!(
        m.undo,
        Some(UndoOffer {
            seat: black,
            back_to: 0
        })
    );
    assert_eq!(m.updated_at, at(3));
    assert_eq!(m.ply, 2, "an offer moves nothing");
}

#[test]
fn a_seat_that_has_not_moved_has_nothing_to_offer_back() {
    let mut m = duel();
    let white = sides(GameKind::Gomoku).1;
    let e = offer_undo(&mut m, white, None, at(1)).unwrap_err();
    assert!(matches!(
        e,
        MatchError::NothingToUndo {
            ply: 0,
            why: Missing::SeatsMove(s)
        } if s == white
    ));
    assert_eq!(m.undo, None);
}

#[test]
fn asking_again_leaves_the_offer_standing() {
    let mut m = duel();
    let black = sides(GameKind::Gomoku).0;
    m.undo = Some(UndoOffer {
        seat: black,
        back_to: 0,
    });
    assert!(matches!(
        undo(&m, black).unwrap(),
        Undo::Decided(Decision::Stands)
    ));
}

#[test]
fn the_other_seats_takeback_offer_must_be_answered_first() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    let offer = UndoOffer {
        seat: white,
        back_to: 1,
    };
    m.undo = Some(offer);
    let e = undo(&m, black).unwrap_err();
    assert!(matches!(e, MatchError::UndoPending(o) if o == offer));
}

#[test]
fn a_solo_match_has_no_offers_to_answer() {
    let mut m = solo();
    let e = answer_undo(&mut m, Seat::Solo, true, at(1)).unwrap_err();
    assert!(matches!(e, MatchError::NotADuel));
}

#[test]
fn no_takeback_offer_no_answer() {
    let mut m = duel();
    for accept in [true, false] {
        let e = answer_undo(&mut m, sides(GameKind::Gomoku).0, accept, at(1)).unwrap_err();
        assert!(matches!(e, MatchError::NoUndoOffer));
    }
}

#[test]
fn either_seat_may_decline_a_takeback() {
    let (black, white) = sides(GameKind::Gomoku);
    for by in [black, white] {
        let mut m = duel();
        m.undo = Some(UndoOffer {
            seat: black,
            back_to: 0,
        });
        let d = answer_undo(&mut m, by, false, at(4)).unwrap();
        assert_eq!(kind(&d), Some(EventKind::TakebackDeclined));
        assert_eq!((m.undo, m.updated_at), (None, at(4)));
    }
}

#[test]
fn ones_own_takeback_offer_is_not_accepted_by_oneself() {
    let mut m = duel();
    let black = sides(GameKind::Gomoku).0;
    m.undo = Some(UndoOffer {
        seat: black,
        back_to: 0,
    });
    let e = answer_undo(&mut m, black, true, at(1)).unwrap_err();
    assert!(matches!(e, MatchError::OwnUndoOffer(s) if s == black));
}

#[test]
fn an_accepted_takeback_goes_back_to_the_ply_offered() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    m.undo = Some(UndoOffer {
        seat: black,
        back_to: 4,
    });
    let Decision::GoBack(back, change) = answer_undo(&mut m, white, true, at(1)).unwrap() else {
        panic!("an accepted takeback goes back");
    };
    assert_eq!(
        back,
        Back {
            ply: 4,
            why: Missing::OfferedMove
        }
    );
    assert_eq!((change.kind, change.seat), (EventKind::Undo, Some(white)));
}

#[test]
fn a_takeback_returns_to_the_kept_moves_position() {
    let mut m = solo();
    let (kept, _) = play(&mut m, Seat::Solo, &["h8", "h9"], at(1)).unwrap();
    m.draw = Some(Seat::Solo);
    let back = Back {
        ply: 1,
        why: Missing::LastMove,
    };
    take_back(&mut m, back, Some(kept[1].clone()), None, at(9)).unwrap();
    assert_eq!(m.ply, 1);
    assert_eq!(m.code, kept[1].code_before);
    assert_eq!(m.draw, None);
    assert_eq!((m.moved_at, m.updated_at), (at(9), at(9)));
}

#[test]
fn a_move_not_kept_is_not_taken_back() {
    let mut m = solo();
    play(&mut m, Seat::Solo, &["h8"], at(1)).unwrap();
    let back = Back {
        ply: 0,
        why: Missing::LastMove,
    };
    let e = take_back(&mut m, back, None, None, at(2)).unwrap_err();
    assert!(matches!(
        e,
        MatchError::NothingToUndo {
            ply: 1,
            why: Missing::LastMove
        }
    ));
    assert_eq!(m.ply, 1);
}

#[test]
fn a_kept_code_that_does_not_read_is_corrupt() {
    let mut m = solo();
    let (mut kept, _) = play(&mut m, Seat::Solo, &["h8"], at(1)).unwrap();
    kept[0].code_before = "not a code".into();
    let back = Back {
        ply: 0,
        why: Missing::LastMove,
    };
    let e = take_back(&mut m, back, kept.pop(), None, at(2)).unwrap_err();
    assert!(
        matches!(e, MatchError::Storage(StorageError::Corrupt { .. })),
        "{e:?}"
    );
}

#[test]
fn a_timed_move_kept_without_its_clock_is_corrupt() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (mut kept, _) = play(&mut m, sides(GameKind::Gomoku).0, &["h8"], at(1)).unwrap();
    kept[0].clock_before = None;
    let back = Back {
        ply: 0,
        why: Missing::OfferedMove,
    };
    let e = take_back(&mut m, back, kept.pop(), None, at(2)).unwrap_err();
    assert!(matches!(
        e,
        MatchError::Storage(StorageError::Corrupt {
            column: "moves.clock_first",
            ..
        })
    ));
}

#[test]
fn a_takeback_gives_the_time_back() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1_000)).unwrap();
    play(&mut m, white, &["h9"], at(2_000)).unwrap();
    let (kept, _) = play(&mut m, black, &["i8"], at(30_000)).unwrap();
    let back = Back {
        ply: 2,
        why: Missing::OfferedMove,
    };
    take_back(&mut m, back, Some(kept[0].clone()), None, at(40_000)).unwrap();
    let clock = m.clock.unwrap();
    assert_eq!(clock.left, [Millis::new(60_000); 2]);
    // Black to move again, its clock running from now.
    assert_eq!(clock.since, Some(at(40_000)));
}

#[test]
fn a_takeback_reopens_a_game_the_rules_ended() {
    let mut m = solo();
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    let (kept, _) = play(&mut m, Seat::Solo, &line, at(1)).unwrap();
    let back = Back {
        ply: 8,
        why: Missing::LastMove,
    };
    take_back(&mut m, back, kept.last().cloned(), None, at(2)).unwrap();
    assert_eq!(m.status, MatchStatus::Ongoing);
}

#[test]
fn a_xiangqi_takeback_takes_the_line_given() {
    let mut m = fresh(GameKind::Xiangqi, Mode::Solo);
    let before = m.line.clone();
    let (kept, _) = play(&mut m, Seat::Solo, &["h2e2"], at(1)).unwrap();
    let back = Back {
        ply: 0,
        why: Missing::LastMove,
    };
    take_back(&mut m, back, kept.first().cloned(), before.clone(), at(2)).unwrap();
    assert_eq!(m.line, before);
    assert_eq!(m.status, MatchStatus::Ongoing);
}
