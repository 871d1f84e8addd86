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

mod claims;
mod flags;
mod offers;
mod play;
mod takebacks;
