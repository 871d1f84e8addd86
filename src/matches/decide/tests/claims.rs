//! Claims against a seat that left.

use super::*;

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

/// `seat` claims `result` long after anything happened (no seat went
/// offline).
fn claim_late(
    m: &mut Match,
    seats: &[SeatSlot],
    seat: Seat,
    result: ClaimResult,
) -> Result<Decision, MatchError> {
    claim(m, seats, seat, result, absent(None), at(1_000_000))
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
    let e = claim_late(&mut m, &seats, black, ClaimResult::Win).unwrap_err();
    assert!(is_finished(&e, Refused::Claim));
}

#[test]
fn a_correspondence_duel_has_no_claims() {
    let (mut m, seats) = claimable(false);
    m.clock = Some(Clock::new(TimeControl::Correspondence {
        per_move: Millis::new(86_400_000),
    }));
    let black = sides(GameKind::Gomoku).0;
    let e = claim_late(&mut m, &seats, black, ClaimResult::Win).unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::Correspondence);
}

#[test]
fn the_side_to_move_plays_rather_than_claims() {
    let (mut m, seats) = claimable(false);
    let white = sides(GameKind::Gomoku).1;
    let e = claim_late(&mut m, &seats, white, ClaimResult::Win).unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::OwnTurn);
}

#[test]
fn no_claim_against_a_seat_never_taken() {
    let (mut m, mut seats) = claimable(false);
    let (black, white) = sides(GameKind::Gomoku);
    seats[1] = seated(white, None, false);
    let e = claim_late(&mut m, &seats, black, ClaimResult::Win).unwrap_err();
    assert_eq!(refusal(e), ClaimRefusal::OpponentNotSeated(white));
}

#[test]
fn no_claim_against_a_seat_online() {
    let (mut m, seats) = claimable(true);
    let (black, white) = sides(GameKind::Gomoku);
    let e = claim_late(&mut m, &seats, black, ClaimResult::Win).unwrap_err();
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
    let d = claim_late(&mut m, &seats, black, ClaimResult::Win).unwrap();
    assert_eq!(kind(&d), Some(EventKind::Claimed));
    assert_eq!(
        m.status,
        MatchStatus::Won {
            winner: GameKind::Gomoku.players()[0],
            reason: MatchEnd::Abandoned
        }
    );
    let (mut m, seats) = claimable(false);
    claim_late(&mut m, &seats, black, ClaimResult::Draw).unwrap();
    assert_eq!(
        m.status,
        MatchStatus::Drawn {
            reason: MatchEnd::Abandoned
        }
    );
}
