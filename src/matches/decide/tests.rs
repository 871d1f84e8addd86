//! The match's decisions, each refusal and each change, without a database.

use std::time::Duration;

use qipan_rules::{AnyPosition, EndReason, GameKind};

use super::*;
use crate::matches::clock::{Clock, Millis, TimeControl};
use crate::matches::create::new_match;
use crate::matches::id::{MatchId, Secret};

const T0: i64 = 1_800_000_000_000;

fn at(ms: i64) -> Timestamp {
    Timestamp::from_millis(T0 + ms).unwrap()
}

fn sides(game: GameKind) -> (Seat, Seat) {
    let p = game.players();
    (Seat::Side(p[0]), Seat::Side(p[1]))
}

fn fresh(game: GameKind, mode: Mode) -> Match {
    let position = crate::games::start(game, &Default::default()).unwrap().0;
    new_match(MatchId::random(), game, mode, position, 0, None, at(0))
}

fn duel() -> Match {
    fresh(GameKind::Gomoku, Mode::Duel)
}

fn solo() -> Match {
    fresh(GameKind::Gomoku, Mode::Solo)
}

fn seated(seat: Seat, joined: Option<i64>, online: bool) -> SeatSlot {
    SeatSlot {
        seat,
        name: None,
        token: joined.map(|_| Secret::presented("t").hash()),
        invite: None,
        joined_at: joined.map(at),
        online,
        computer: None,
    }
}

/// Plays `actions` as `seat` at `now`, as a command would.
fn play(
    m: &mut Match,
    seat: Seat,
    actions: &[&str],
    now: Timestamp,
) -> Result<(Vec<KeptMove>, Change), MatchError> {
    let actions: Vec<String> = actions.iter().map(|a| (*a).to_owned()).collect();
    let batch = batch(m, seat)?;
    let played = crate::games::play(&m.position, &actions, batch, "")?;
    super::play(m, seat, played.position, played.code, &played.plies, now)
}

fn finished(m: &mut Match) {
    m.status = MatchStatus::Drawn {
        reason: MatchEnd::Agreement,
    };
}

fn is_finished(e: &MatchError, want: Refused) -> bool {
    matches!(e, MatchError::Finished { refused, .. } if *refused == want)
}

fn kind(d: &Decision) -> Option<EventKind> {
    match d {
        Decision::Write(c) | Decision::GoBack(_, c) => Some(c.kind),
        Decision::Stands => None,
    }
}

fn fischer() -> Clock {
    Clock::new(TimeControl::Fischer {
        base: Millis::new(60_000),
        increment: Millis::new(1_000),
    })
}

// --- playing ---

#[test]
fn a_duel_seat_plays_only_its_own_side() {
    let m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    assert_eq!(
        batch(&m, black).unwrap().only,
        Some(GameKind::Gomoku.players()[0])
    );
    assert_eq!(
        batch(&m, white).unwrap().only,
        Some(GameKind::Gomoku.players()[1])
    );
    assert!(batch(&m, black).unwrap().record);
}

#[test]
fn a_solo_seat_plays_every_side() {
    let m = solo();
    assert_eq!(batch(&m, Seat::Solo).unwrap().only, None);
}

#[test]
fn nothing_is_played_on_a_finished_match() {
    let mut m = duel();
    finished(&mut m);
    let e = batch(&m, sides(GameKind::Gomoku).0).unwrap_err();
    assert!(is_finished(&e, Refused::Play), "{e:?}");
}

#[test]
fn the_other_sides_move_is_refused_in_a_duel() {
    let mut m = duel();
    let e = play(&mut m, sides(GameKind::Gomoku).1, &["h8"], at(1)).unwrap_err();
    assert!(matches!(e, MatchError::Game(_)), "{e:?}");
    assert_eq!(m.ply, 0);
}

#[test]
fn a_move_moves_the_match_on_and_is_kept() {
    let mut m = solo();
    let (kept, change) = play(&mut m, Seat::Solo, &["h8", "h9", "i8"], at(5)).unwrap();
    assert_eq!(m.ply, 3);
    assert_eq!(kept.iter().map(|k| k.ply).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(kept[0].action, "h8");
    assert_eq!(kept[2].code_after, m.code);
    assert_eq!(kept[1].code_after, kept[2].code_before);
    assert!(kept
        .iter()
        .all(|k| k.seat == Seat::Solo && k.played_at == at(5)));
    assert_eq!(change.kind, EventKind::Move);
    assert_eq!(change.seat, Some(Seat::Solo));
    assert_eq!(
        change.moves.iter().map(|mv| mv.ply).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!((m.moved_at, m.updated_at), (at(5), at(5)));
}

#[test]
fn a_move_withdraws_the_offers() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    m.draw = Some(white);
    m.undo = Some(UndoOffer {
        seat: white,
        back_to: 0,
    });
    play(&mut m, black, &["h8"], at(1)).unwrap();
    assert_eq!((m.draw, m.undo), (None, None));
}

#[test]
fn a_move_that_wins_ends_the_match() {
    let mut m = solo();
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    let (kept, change) = play(&mut m, Seat::Solo, &line, at(1)).unwrap();
    assert_eq!(kept.len(), 9);
    assert_eq!(change.kind, EventKind::Over);
    assert!(matches!(
        m.status,
        MatchStatus::Won {
            reason: MatchEnd::Rules(EndReason::FiveInARow),
            ..
        }
    ));
    let e = batch(&m, Seat::Solo).unwrap_err();
    assert!(is_finished(&e, Refused::Play));
}

#[test]
fn each_move_is_timed_as_it_is_kept() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (black, white) = sides(GameKind::Gomoku);
    let (kept, _) = play(&mut m, black, &["h8"], at(1_000)).unwrap();
    // The first move starts no clock: the clocks run once both have moved.
    assert_eq!(kept[0].clock_before, Some([Millis::new(60_000); 2]));
    assert_eq!(m.clock.unwrap().since, None);
    play(&mut m, white, &["h9"], at(2_000)).unwrap();
    assert_eq!(m.clock.unwrap().since, Some(at(2_000)));
    let (kept, _) = play(&mut m, black, &["i8"], at(7_000)).unwrap();
    // Black thought 5 s and gained the increment.
    assert_eq!(kept[0].clock_before, Some([Millis::new(60_000); 2]));
    let clock = m.clock.unwrap();
    assert_eq!(clock.left[0], Millis::new(56_000));
    assert_eq!(clock.since, Some(at(7_000)));
    assert_eq!(m.deadline(), Some(at(7_000 + 60_000)));
}

#[test]
fn a_move_that_ends_the_game_stops_the_clock() {
    let mut m = solo();
    m.clock = Some(fischer());
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    play(&mut m, Seat::Solo, &line, at(1)).unwrap();
    assert_eq!(m.clock.unwrap().since, None);
    assert_eq!(m.deadline(), None);
}

#[test]
fn a_xiangqi_move_is_judged_on_the_line() {
    let mut m = fresh(GameKind::Xiangqi, Mode::Solo);
    let (kept, _) = play(&mut m, Seat::Solo, &["h2e2", "h9g7"], at(1)).unwrap();
    let line = m.line.as_ref().unwrap();
    assert_eq!(line.moves.len(), 2);
    assert_eq!(
        kept.iter().map(|k| k.halfmove).collect::<Vec<_>>(),
        [Some(0), Some(1)]
    );
    // A capture starts the line again.
    play(&mut m, Seat::Solo, &["e2e6"], at(2)).unwrap();
    assert!(m.line.as_ref().unwrap().moves.len() <= 1);
}

#[test]
fn other_games_keep_no_line() {
    let mut m = solo();
    let (kept, _) = play(&mut m, Seat::Solo, &["h8"], at(1)).unwrap();
    assert!(m.line.is_none());
    assert_eq!(kept[0].halfmove, None);
}

// --- takebacks ---

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

// --- resigning ---

#[test]
fn a_duel_seat_resigns_for_itself_even_out_of_turn() {
    let mut m = duel();
    let white = sides(GameKind::Gomoku).1;
    let d = resign(&mut m, white, at(3)).unwrap();
    assert_eq!(kind(&d), Some(EventKind::Resigned));
    assert_eq!(
        m.status,
        MatchStatus::Won {
            winner: GameKind::Gomoku.players()[0],
            reason: MatchEnd::Resigned
        }
    );
    assert!(m.status.is_resigned());
}

#[test]
fn a_solo_match_is_resigned_by_the_side_to_move() {
    let mut m = solo();
    play(&mut m, Seat::Solo, &["h8"], at(1)).unwrap();
    resign(&mut m, Seat::Solo, at(2)).unwrap();
    assert_eq!(
        m.status,
        MatchStatus::resigned_by(GameKind::Gomoku.players()[1])
    );
}

#[test]
fn a_finished_match_is_not_resigned() {
    let mut m = duel();
    finished(&mut m);
    let e = resign(&mut m, sides(GameKind::Gomoku).0, at(1)).unwrap_err();
    assert!(is_finished(&e, Refused::Resign));
}

#[test]
fn resigning_stops_the_clock_and_clears_the_offers() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1_000)).unwrap();
    play(&mut m, white, &["h9"], at(2_000)).unwrap();
    m.draw = Some(white);
    resign(&mut m, black, at(12_000)).unwrap();
    let clock = m.clock.unwrap();
    assert_eq!(clock.since, None);
    assert_eq!(clock.left[0], Millis::new(50_000));
    assert_eq!((m.draw, m.updated_at), (None, at(12_000)));
}

// --- draws ---

#[test]
fn draws_are_for_duels() {
    let mut m = solo();
    assert!(matches!(
        offer_draw(&mut m, Seat::Solo, at(1)),
        Err(MatchError::NotADuel)
    ));
    assert!(matches!(
        answer_draw(&mut m, Seat::Solo, true, at(1)),
        Err(MatchError::NotADuel)
    ));
}

#[test]
fn draws_are_for_duels_being_played() {
    let mut m = duel();
    finished(&mut m);
    let black = sides(GameKind::Gomoku).0;
    let e = offer_draw(&mut m, black, at(1)).unwrap_err();
    assert!(is_finished(&e, Refused::Draw));
    let e = answer_draw(&mut m, black, false, at(1)).unwrap_err();
    assert!(is_finished(&e, Refused::Draw));
}

#[test]
fn a_draw_offer_stands_until_answered() {
    let mut m = duel();
    let black = sides(GameKind::Gomoku).0;
    let d = offer_draw(&mut m, black, at(2)).unwrap();
    assert_eq!(kind(&d), Some(EventKind::DrawOffered));
    assert_eq!((m.draw, m.updated_at), (Some(black), at(2)));
    assert_eq!(m.status, MatchStatus::Ongoing);
    // Offered again: it stands, nothing written.
    assert!(matches!(
        offer_draw(&mut m, black, at(3)).unwrap(),
        Decision::Stands
    ));
}

#[test]
fn offering_while_the_other_offers_agrees() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    offer_draw(&mut m, black, at(1)).unwrap();
    let d = offer_draw(&mut m, white, at(2)).unwrap();
    assert_eq!(kind(&d), Some(EventKind::DrawAgreed));
    assert_eq!(
        m.status,
        MatchStatus::Drawn {
            reason: MatchEnd::Agreement
        }
    );
    assert_eq!(m.draw, None);
}

#[test]
fn no_draw_offer_no_answer() {
    let mut m = duel();
    let e = answer_draw(&mut m, sides(GameKind::Gomoku).0, true, at(1)).unwrap_err();
    assert!(matches!(e, MatchError::NoDrawOffer));
}

#[test]
fn ones_own_draw_offer_is_not_accepted_by_oneself() {
    let mut m = duel();
    let black = sides(GameKind::Gomoku).0;
    m.draw = Some(black);
    let e = answer_draw(&mut m, black, true, at(1)).unwrap_err();
    assert!(matches!(e, MatchError::OwnDrawOffer(s) if s == black));
    assert_eq!(m.draw, Some(black));
}

#[test]
fn either_seat_may_decline_a_draw() {
    let (black, white) = sides(GameKind::Gomoku);
    for by in [black, white] {
        let mut m = duel();
        m.draw = Some(black);
        let d = answer_draw(&mut m, by, false, at(5)).unwrap();
        assert_eq!(kind(&d), Some(EventKind::DrawDeclined));
        assert_eq!((m.draw, m.updated_at), (None, at(5)));
        assert_eq!(m.status, MatchStatus::Ongoing);
    }
}

#[test]
fn an_accepted_draw_ends_the_match() {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    m.draw = Some(black);
    let d = answer_draw(&mut m, white, true, at(5)).unwrap();
    assert_eq!(kind(&d), Some(EventKind::DrawAgreed));
    assert_eq!(
        m.status,
        MatchStatus::Drawn {
            reason: MatchEnd::Agreement
        }
    );
    assert_eq!(m.updated_at, at(5));
}

// --- claims ---

const AWAY: Duration = Duration::from_secs(300);

/// A duel in which black moved at 1 s and white, to move, is seated.
fn claimable(white_online: bool) -> (Match, Vec<SeatSlot>) {
    let mut m = duel();
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1_000)).unwrap();
    let seats = vec![
        seated(black, Some(0), true),
        seated(white, Some(0), white_online),
    ];
    (m, seats)
}

fn absent(left_at: Option<i64>) -> Absence {
    Absence {
        left_at: left_at.map(at),
        abandon_after: AWAY,
    }
}

fn refusal(e: MatchError) -> ClaimRefusal {
    match e {
        MatchError::CannotClaim(why) => why,
        other => panic!("not a claim refusal: {other:?}"),
    }
}

#[test]
fn claims_are_for_duel_seats() {
    let mut m = solo();
    let e = claim(
        &mut m,
        &[],
        Seat::Solo,
        ClaimResult::Win,
        absent(None),
        at(1),
    )
    .unwrap_err();
    assert!(matches!(e, MatchError::NotADuel));
}

#[test]
fn a_finished_match_has_nothing_to_claim() {
    let (mut m, seats) = claimable(false);
    finished(&mut m);
    let black = sides(GameKind::Gomoku).0;
    let e = claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap_err();
    assert!(is_finished(&e, Refused::Claim));
}

#[test]
fn a_correspondence_duel_has_no_claims() {
    let (mut m, seats) = claimable(false);
    m.clock = Some(Clock::new(TimeControl::Correspondence {
        per_move: Millis::new(86_400_000),
    }));
    let black = sides(GameKind::Gomoku).0;
    let e = claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::Correspondence);
}

#[test]
fn the_side_to_move_plays_rather_than_claims() {
    let (mut m, seats) = claimable(false);
    let white = sides(GameKind::Gomoku).1;
    let e = claim(
        &mut m,
        &seats,
        white,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::OwnTurn);
}

#[test]
fn no_claim_against_a_seat_never_taken() {
    let (mut m, mut seats) = claimable(false);
    let (black, white) = sides(GameKind::Gomoku);
    seats[1] = seated(white, None, false);
    let e = claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::OpponentNotSeated(white));
}

#[test]
fn no_claim_against_a_seat_online() {
    let (mut m, seats) = claimable(true);
    let (black, white) = sides(GameKind::Gomoku);
    let e = claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::OpponentOnline(white));
}

#[test]
fn away_is_counted_from_the_latest_of_move_seat_and_leaving() {
    let (black, white) = sides(GameKind::Gomoku);
    // From the last move (1 s), then from taking the seat (60 s), then from
    // going offline (90 s).
    for (joined, left, since) in [
        (0, None, 1_000),
        (60_000, None, 60_000),
        (60_000, Some(90_000), 90_000),
    ] {
        let (mut m, mut seats) = claimable(false);
        seats[1] = seated(white, Some(joined), false);
        let claimable_at = at(since).plus(AWAY);
        let early = Timestamp::from_millis(claimable_at.millis() - 1).unwrap();
        let e = claim(&mut m, &seats, black, ClaimResult::Win, absent(left), early).unwrap_err();
        assert_eq!(
            refusal(e),
            ClaimRefusal::TooSoon {
                seat: white,
                claimable_at
            }
        );
        claim(
            &mut m,
            &seats,
            black,
            ClaimResult::Win,
            absent(left),
            claimable_at,
        )
        .unwrap();
    }
}

#[test]
fn a_claim_wins_or_draws_by_abandonment() {
    let black = sides(GameKind::Gomoku).0;
    let (mut m, seats) = claimable(false);
    let d = claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Win,
        absent(None),
        at(1_000_000),
    )
    .unwrap();
    assert_eq!(kind(&d), Some(EventKind::Claimed));
    assert_eq!(
        m.status,
        MatchStatus::Won {
            winner: GameKind::Gomoku.players()[0],
            reason: MatchEnd::Abandoned
        }
    );
    let (mut m, seats) = claimable(false);
    claim(
        &mut m,
        &seats,
        black,
        ClaimResult::Draw,
        absent(None),
        at(1_000_000),
    )
    .unwrap();
    assert_eq!(
        m.status,
        MatchStatus::Drawn {
            reason: MatchEnd::Abandoned
        }
    );
}

// --- flags ---

#[test]
fn no_clock_no_flag() {
    let mut m = duel();
    assert!(flag(&mut m, at(10_000_000)).is_none());
}

#[test]
fn no_flag_falls_before_the_deadline() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1_000)).unwrap();
    // No clock runs before both sides have moved.
    assert!(flag(&mut m, at(10_000_000)).is_none());
    play(&mut m, white, &["h9"], at(2_000)).unwrap();
    assert!(flag(&mut m, at(61_999)).is_none());
    assert_eq!(m.status, MatchStatus::Ongoing);
}

#[test]
fn a_fallen_flag_ends_the_match_when_it_fell() {
    let mut m = duel();
    m.clock = Some(fischer());
    let (black, white) = sides(GameKind::Gomoku);
    play(&mut m, black, &["h8"], at(1_000)).unwrap();
    play(&mut m, white, &["h9"], at(2_000)).unwrap();
    let change = flag(&mut m, at(70_000)).unwrap();
    assert_eq!(change.kind, EventKind::Timeout);
    assert_eq!(change.seat, None);
    assert_eq!(
        m.status,
        MatchStatus::Won {
            winner: GameKind::Gomoku.players()[1],
            reason: MatchEnd::Timeout
        }
    );
    let clock = m.clock.unwrap();
    assert_eq!(clock.left[0], Millis::new(0));
    assert_eq!(m.updated_at, at(70_000));
    // Once over, it falls no more.
    assert!(flag(&mut m, at(80_000)).is_none());
}

#[test]
fn a_side_that_cannot_mate_draws_on_the_others_flag() {
    // Red has only its general and advisors left: black's flag falling
    // draws.
    let mut m = fresh(GameKind::Xiangqi, Mode::Duel);
    let fen = "3akab2/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1";
    m.position = AnyPosition::Xiangqi(qipan_rules::xiangqi::Position::from_fen(fen).unwrap());
    m.clock = Some(Clock {
        since: Some(at(0)),
        ..fischer()
    });
    flag(&mut m, at(100_000)).unwrap();
    assert_eq!(
        m.status,
        MatchStatus::Drawn {
            reason: MatchEnd::Timeout
        }
    );
}

// --- invitations ---

#[test]
fn invitations_are_for_duels_being_played() {
    assert!(invitable(&duel()).is_ok());
    assert!(matches!(invitable(&solo()), Err(MatchError::NotADuel)));
    let mut m = duel();
    finished(&mut m);
    let e = invitable(&m).unwrap_err();
    assert!(is_finished(&e, Refused::Invite));
}

#[test]
fn an_invite_opens_its_own_seat_only_while_free() {
    let (black, white) = sides(GameKind::Gomoku);
    let invite = Secret::presented("invite-for-white");
    let mut seats = vec![seated(black, Some(0), true), seated(white, None, false)];
    seats[1].invite = Some(invite.hash());
    assert_eq!(invited(&seats, &invite).unwrap(), 1);
    let e = invited(&seats, &Secret::presented("another")).unwrap_err();
    assert!(matches!(e, MatchError::InvalidInvite));
    seats[1].token = Some(Secret::presented("taken").hash());
    let e = invited(&seats, &invite).unwrap_err();
    assert!(matches!(e, MatchError::SeatTaken(s) if s == white));
}
