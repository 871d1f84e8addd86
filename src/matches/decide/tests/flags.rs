//! Flags and invitations.

use super::*;

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
