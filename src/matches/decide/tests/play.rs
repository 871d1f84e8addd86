//! Playing.

use super::*;

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
