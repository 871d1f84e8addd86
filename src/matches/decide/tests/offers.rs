//! Resigning and draws.

use super::*;

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
