//! Reading a match: its view and its kept history.

use qipan_records::xiangqi::ecco::{self, Opening};
use qipan_rules::xiangqi as xq;
use qipan_rules::GameKind;
use serde_json::value::RawValue;

use super::{KeptMove, Match, MatchError, MatchId, Matches, Outcome, Seat, SeatSlot, Secret};
use crate::games;
use crate::wire::matches::{
    ClockView, ComputerView, DrawOfferView, HistoryView, InviteView, MatchClockView, MatchView,
    MoveView, OpeningView, ParentView, SeatView,
};

/// The URL of a match.
pub fn match_url(base: &str, id: MatchId) -> String {
    format!("{base}/v1/matches/{id}")
}

/// The URL of a match's page for people.
pub fn match_page_url(base: &str, id: MatchId) -> String {
    format!("{base}/m/{id}")
}

/// The URL of a match's WebSocket: its URL with `ws:` for `http:` and
/// `wss:` for `https:`.
fn socket_url(url: &str) -> String {
    match url.split_once("://") {
        Some(("https", rest)) => ["wss://", rest, "/ws"].concat(),
        Some((_, rest)) => ["ws://", rest, "/ws"].concat(),
        None => [url, "/ws"].concat(),
    }
}

/// The secrets an answer shows once: the seat's token, and the creator's
/// invites.
pub(super) struct Shown<'a> {
    pub seat: Seat,
    /// The token, in the answer that gave it.
    pub token: Option<&'a Secret>,
    pub invites: Vec<InviteView>,
}

impl<'a> Shown<'a> {
    /// A seat just taken, shown its token.
    pub fn seated(seat: Seat, token: &'a Secret) -> Shown<'a> {
        Shown {
            seat,
            token: Some(token),
            invites: Vec::new(),
        }
    }
}

/// How an invite is shown to the seat that issued it.
pub(super) fn invite_view(base: &str, id: MatchId, seat: Seat, invite: &Secret) -> InviteView {
    InviteView {
        seat: seat.as_str(),
        url: format!("{}/join?invite={}", match_url(base, id), invite.expose()),
        invite: invite.expose().to_owned(),
    }
}

/// The view of a match; `state` is its state view when the caller has one
/// (a play's, with what the last action reported).
pub(super) fn render(
    m: &Match,
    seats: &[SeatSlot],
    state: Option<&RawValue>,
    base: &str,
    shown: Option<Shown<'_>>,
) -> Result<Vec<u8>, MatchError> {
    render_with(m, seats, state, base, shown, opening_of_line(m))
}

/// The ECCO opening of a xiangqi match whose line (since the last
/// capture) still reaches back to the standard start: the whole game is in
/// it. `None` otherwise, and before the first move.
fn opening_of_line(m: &Match) -> Option<Opening> {
    let line = m.line.as_ref()?;
    (m.ply > 0
        && line.start.counters.fullmove_number == 1
        && line.start.position == xq::Position::start())
    .then(|| ecco::classify(&line.start.position, &line.moves))
    .flatten()
}

/// The ECCO opening of a xiangqi record that starts at the match's start.
pub(super) fn opening_of_record(record: &super::KeptRecord) -> Option<Opening> {
    let start = record.start.xiangqi()?;
    if record.start_ply != 0 || record.moves.is_empty() {
        return None;
    }
    let moves: Vec<xq::Move> = record.moves.iter().filter_map(|m| m.parse().ok()).collect();
    ecco::classify(start, &moves)
}

/// [`render`] with the opening given.
pub(super) fn render_with(
    m: &Match,
    seats: &[SeatSlot],
    state: Option<&RawValue>,
    base: &str,
    shown: Option<Shown<'_>>,
    opening: Option<Opening>,
) -> Result<Vec<u8>, MatchError> {
    let rendered;
    let state = match (&m.line, state) {
        // Xiangqi: the view the match's line judges, with the FEN's
        // counters and the line a stateless play from here would send.
        (Some(line), _) => {
            rendered = games::raw(games::line::view(&super::line::history_of(line)?, base))?;
            &rendered
        }
        (None, Some(v)) => v,
        (None, None) => {
            rendered = games::view_raw(&m.position, base)?;
            &rendered
        }
    };
    let (token, seat, invites) = match shown {
        Some(s) => (
            s.token.map(Secret::expose),
            Some(s.seat.as_str()),
            Some(s.invites),
        ),
        None => (None, None, None),
    };
    // The URLs, each in one allocation (as match_url and match_page_url
    // would make them).
    let id = m.id.to_string();
    let url = [base, "/v1/matches/", &id].concat();
    let view = MatchView {
        history_url: [&url, "/history"].concat(),
        page: [base, "/m/", &id].concat(),
        events_url: [&url, "/events"].concat(),
        ws_url: socket_url(&url),
        url,
        id,
        game: m.game.as_str(),
        mode: m.mode.into(),
        version: m.version.get(),
        ply: m.ply,
        to_move: m.to_move().as_str(),
        state,
        seats: seats
            .iter()
            .map(|s| SeatView {
                seat: s.seat.as_str(),
                name: s.name.as_ref().map(|n| n.as_str()),
                taken: s.token.is_some(),
                joined_at: s.joined_at.map(|t| t.rfc3339()),
                online: s.online,
                computer: s.computer.map(|c| ComputerView {
                    level: c.level.get(),
                    ms: c.time.get(),
                }),
            })
            .collect(),
        status: m.status.into(),
        undo_offer: m.undo.map(Into::into),
        draw_offer: m.draw.map(|seat| DrawOfferView {
            seat: seat.as_str(),
        }),
        clock: m.clock.map(|c| MatchClockView {
            control: c.control.into(),
            reading: ClockView::of(m.game, m.to_move(), c.reading()),
        }),
        parent: m.parent.map(|p| ParentView {
            id: p.id.to_string(),
            ply: p.ply,
            url: match_url(base, p.id),
        }),
        opening: opening.map(|o| OpeningView {
            ecco: o.code,
            name: o.name,
            variation: (!o.variation.is_empty()).then_some(o.variation),
        }),
        created_at: m.created_at.rfc3339(),
        updated_at: m.updated_at.rfc3339(),
        token,
        seat,
        invites,
    };
    serde_json::to_vec(&view).map_err(MatchError::Render)
}

/// A match as a page or a picture shows it: the match, its seats and the
/// move that led to its position (when one is kept).
pub struct Snapshot {
    /// The match.
    pub game: Match,
    /// Its seats.
    pub seats: Vec<SeatSlot>,
    /// The last kept move, when the position was reached by one.
    pub last: Option<KeptMove>,
}

impl Matches {
    /// A match with its seats and last kept move, for its page and its
    /// picture.
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    #[tracing::instrument(skip(self))]
    pub async fn snapshot(&self, id: MatchId) -> Result<Snapshot, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (game, seats) = Self::load(&mut conn, id).await?;
        let (_, mut moves) = Self::load_history(&mut conn, id).await?;
        // The history ends at the current ply, unless an undo or a fork
        // left it shorter; only a move onto this very position is "last".
        let last = moves
            .pop()
            .filter(|mv| mv.ply == game.ply && mv.code_after == game.code);
        Ok(Snapshot { game, seats, last })
    }

    /// The ECCO opening of a xiangqi match, from its line or its kept
    /// moves when either reaches back to its start.
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    pub async fn opening(&self, id: MatchId) -> Result<Option<Opening>, MatchError> {
        let record = self.kept_record(id).await?;
        Ok(opening_of_line(&record.game).or_else(|| opening_of_record(&record)))
    }

    /// The answer of a write: the match's view, without secrets.
    pub(super) fn outcome(
        m: &Match,
        seats: &[SeatSlot],
        base: &str,
    ) -> Result<Outcome, MatchError> {
        Self::shown(m, seats, base, None)
    }

    /// The answer of a write that shows a seat what is for it alone (its
    /// new token, the invites it issued).
    pub(super) fn shown(
        m: &Match,
        seats: &[SeatSlot],
        base: &str,
        shown: Option<Shown<'_>>,
    ) -> Result<Outcome, MatchError> {
        Ok(Outcome {
            view: render(m, seats, None, base, shown)?,
            id: m.id,
            version: m.version,
        })
    }

    /// `GET /v1/matches/{id}`
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    #[tracing::instrument(skip(self, base))]
    pub async fn get(&self, id: MatchId, base: &str) -> Result<Outcome, MatchError> {
        let (m, seats) = Self::load(&mut *self.db.acquire().await?, id).await?;
        // A xiangqi game's opening: from its line while that reaches back to
        // the start, else from its kept moves.
        if m.game == GameKind::Xiangqi && m.ply > 0 && opening_of_line(&m).is_none() {
            let record = self.kept_record(id).await?;
            let opening = opening_of_record(&record);
            return Ok(Outcome {
                view: render_with(&record.game, &record.seats, None, base, None, opening)?,
                id,
                version: record.game.version,
            });
        }
        Self::outcome(&m, &seats, base)
    }

    /// `GET /v1/matches/{id}/history`: the body and the match's version.
    /// Each move names its seat's display name (names are set once, when a
    /// seat is taken, so reading them apart from the moves is safe).
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    #[tracing::instrument(skip(self))]
    pub async fn history(&self, id: MatchId) -> Result<Outcome, MatchError> {
        let mut conn = self.db.acquire().await?;
        let (m, moves) = Self::load_history(&mut conn, id).await?;
        let (_, seats) = Self::load(&mut conn, id).await?;
        drop(conn);
        let name_of = |seat: Seat| {
            seats
                .iter()
                .find(|s| s.seat == seat)
                .and_then(|s| s.name.as_ref())
                .map(|n| n.as_str())
        };
        let body = HistoryView {
            id: m.id.to_string(),
            ply: m.ply,
            version: m.version.get(),
            moves: moves
                .iter()
                .map(|mv| {
                    let names = move_names(m.game, mv);
                    MoveView {
                        ply: mv.ply,
                        seat: mv.seat.as_str(),
                        name: name_of(mv.seat),
                        side: mv.side.as_str(),
                        action: &mv.action,
                        wxf: names.map(|n| n.wxf.to_string()),
                        chinese: names.map(|n| n.chinese.to_string()),
                        code: &mv.code_after,
                        played_at: mv.played_at.rfc3339(),
                    }
                })
                .collect(),
        };
        Ok(Outcome {
            view: serde_json::to_vec(&body).map_err(MatchError::Render)?,
            id,
            version: m.version,
        })
    }
}

/// A kept xiangqi move's WXF and Chinese names, read in the position it was
/// played from (what a move list shows); `None` for the other games.
pub fn move_names(game: GameKind, mv: &KeptMove) -> Option<xq::Names> {
    if game != GameKind::Xiangqi {
        return None;
    }
    let pos = xq::Position::from_code(&mv.code_before).ok()?;
    let m: xq::Move = mv.action.parse().ok()?;
    xq::names(&pos, m)
}

#[cfg(test)]
mod tests {
    use super::socket_url;

    #[test]
    fn a_socket_url_follows_the_scheme_of_the_base() {
        let id = "/v1/matches/0b6c3f6e-53d5-4b8c-9d1f-6e0f4f4b2a11";
        assert_eq!(
            socket_url(&format!("http://127.0.0.1:8080{id}")),
            format!("ws://127.0.0.1:8080{id}/ws")
        );
        assert_eq!(
            socket_url(&format!("https://qipan.example{id}")),
            format!("wss://qipan.example{id}/ws")
        );
    }
}
