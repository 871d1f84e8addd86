//! The lobby's bodies and views.

use serde::{Deserialize, Serialize};

use super::matches::{ClockRequest, TimeControlView};

/// Body of `POST /v1/lobby/seeks`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The game (one with two sides).
    pub game: String,
    /// Its variant; the default when absent.
    pub variant: Option<String>,
    /// Its board size; the default when absent.
    pub size: Option<u8>,
    /// The side the seeker plays, or `random` (the default).
    pub side: Option<String>,
    /// The seeker's display name.
    pub name: Option<String>,
    /// The duel's time control, as `POST /v1/matches` takes it; none by
    /// default.
    pub clock: Option<ClockRequest>,
}

/// Body of `POST /v1/lobby/seeks/{id}/take` (which may be left out).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeRequest {
    /// The taker's display name.
    pub name: Option<String>,
}

/// An open seek.
#[derive(Debug, Serialize)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// The game.
    pub game: &'static str,
    /// Its variant (`null`: the default).
    pub variant: Option<String>,
    /// Its board size (`null`: the default).
    pub size: Option<u8>,
    /// The side the seeker plays, or `random`.
    pub side: &'static str,
    /// The seeker's display name.
    pub name: Option<String>,
    /// The duel's time control, or none.
    pub clock: Option<TimeControlView>,
    /// Its URL.
    pub url: String,
    /// Where to `POST` to take it.
    pub take_url: String,
    /// When it opened (RFC 3339).
    pub created_at: String,
    /// When it expires (RFC 3339).
    pub expires_at: String,
}

/// The answer to `POST /v1/lobby/seeks`.
#[derive(Debug, Serialize)]
pub struct SeekCreatedView<'a> {
    /// The seek.
    #[serde(flatten)]
    pub seek: SeekView,
    /// The seeker's token: it authenticates the seek's stream and becomes
    /// the seeker's seat token when the seek is taken.
    pub token: &'a str,
    /// The seeker's stream (send the token as `Authorization: Bearer`).
    pub events_url: String,
}

/// Body of `GET /v1/lobby`, and the lobby stream's `sync`.
#[derive(Debug, Serialize)]
pub struct LobbyView {
    /// The open seeks, oldest first.
    pub seeks: Vec<SeekView>,
}

/// The seeker stream's `matched` event: the duel the seek became.
#[derive(Debug, Serialize)]
pub struct MatchedView {
    /// The match id.
    pub id: String,
    /// The seeker's seat (its token is the seek's).
    pub seat: &'static str,
    /// The match.
    pub url: String,
    /// Its event stream.
    pub events_url: String,
    /// Its WebSocket.
    pub ws_url: String,
}

/// A seek that closed: the lobby's `seek-gone`, the seeker's `closed`.
#[derive(Debug, Serialize)]
pub struct SeekClosedView {
    /// Its id.
    pub id: String,
    /// `taken`, `withdrawn`, `expired` or `left`.
    pub state: &'static str,
}
