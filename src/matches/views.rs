//! The match domain in its wire shapes: each conversion from a domain type
//! to the view that shows it (and the mode a request names), kept beside
//! the domain so that the shapes in [`crate::wire`] know nothing of it.

use qipan_rules::{AnyPlayer, GameKind};

use super::clock::{slot, Reading};
use super::{MatchEnd, MatchStatus, Mode, TimeControl, UndoOffer};
use crate::wire::matches::{ClockView, ModeName, TimeControlView, UndoOfferView};
use crate::wire::state::State;
use crate::wire::StatusView;

impl From<ModeName> for Mode {
    fn from(m: ModeName) -> Mode {
        match m {
            ModeName::Duel => Mode::Duel,
            ModeName::Solo => Mode::Solo,
        }
    }
}

impl From<Mode> for ModeName {
    fn from(m: Mode) -> ModeName {
        match m {
            Mode::Duel => ModeName::Duel,
            Mode::Solo => ModeName::Solo,
        }
    }
}

impl From<MatchStatus> for StatusView {
    fn from(s: MatchStatus) -> StatusView {
        StatusView {
            state: match s {
                MatchStatus::Ongoing => State::Ongoing,
                MatchStatus::Won { .. } => State::Won,
                MatchStatus::Drawn { .. } => State::Drawn,
                MatchStatus::Over { .. } => State::Over,
            },
            winner: s.winner().map(|w| w.as_str()),
            reason: s.reason().map(MatchEnd::as_str),
        }
    }
}

impl From<UndoOffer> for UndoOfferView {
    fn from(u: UndoOffer) -> UndoOfferView {
        UndoOfferView {
            seat: u.seat.as_str(),
            ply: u.back_to,
        }
    }
}

impl From<TimeControl> for TimeControlView {
    fn from(c: TimeControl) -> TimeControlView {
        match c {
            TimeControl::Fischer { base, increment } => TimeControlView::Fischer {
                base: base.seconds(),
                increment: increment.seconds(),
            },
            TimeControl::Correspondence { per_move } => TimeControlView::Correspondence {
                days: per_move.seconds() / 86_400.0,
            },
        }
    }
}

impl ClockView {
    /// The view of a clock reading of a `game` whose side to move is
    /// `to_move`.
    pub fn of(game: GameKind, to_move: AnyPlayer, reading: Reading) -> ClockView {
        let players = game.players();
        let remaining = players
            .iter()
            .zip(reading.left)
            .map(|(p, left)| (p.as_str(), left.seconds()))
            .collect();
        let running = reading.since.map(|_| to_move.as_str());
        ClockView {
            remaining,
            running,
            since: reading.since.map(|t| t.rfc3339()),
            deadline: reading.deadline(slot(game, to_move)).map(|t| t.rfc3339()),
        }
    }
}
