//! The match API's bodies and views. Requests hold what the client sent
//! (strings where the domain parses them); views are written from the
//! domain's typed match.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::StatusView;

/// Whether a match is played between seats or alone, as sent and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModeName {
    /// One seat per side.
    Duel,
    /// One token plays every side.
    Solo,
}

/// A pending takeback offer, as match views and `undo-pending` problems
/// show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UndoOfferView {
    /// The seat that offered.
    pub seat: &'static str,
    /// The ply the match goes back to if it is accepted.
    pub ply: i64,
}

/// Body of `POST /v1/matches`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The game.
    pub game: String,
    /// Its variant (not with `from`).
    pub variant: Option<String>,
    /// Its seed (not with `from`).
    pub seed: Option<u64>,
    /// Its board size (not with `from`).
    pub size: Option<u8>,
    /// A state code to start from instead of the start position.
    pub from: Option<String>,
    /// Or a position in one of the game's import formats, the body `POST
    /// /v1/{game}/import` takes (a xiangqi FEN keeps its counters).
    pub import: Option<Box<RawValue>>,
    /// `duel` or `solo`; duel for two-player games, solo otherwise.
    pub mode: Option<ModeName>,
    /// The creator's seat in a duel; the side to move by default.
    pub seat: Option<String>,
    /// The creator's display name.
    pub name: Option<String>,
    /// A duel's time control; none by default.
    pub clock: Option<ClockRequest>,
    /// Seats the computer in the duel's other seat.
    pub computer: Option<ComputerRequest>,
}

/// The `computer` of `POST /v1/matches`: `{"level": 1–10}`, `{"ms": N}`
/// (full strength at N milliseconds a move) or both. Signed, so that a
/// negative number is refused as out of range, naming its member.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerRequest {
    /// How strongly it plays: 1 (a beginner can win) to 10.
    pub level: Option<i64>,
    /// Its search time per move, in milliseconds: 1 to 5000.
    pub ms: Option<i64>,
}

/// The `clock` of `POST /v1/matches` and `POST /v1/lobby/seeks`:
/// `{"base", "increment"}` in seconds (Fischer) or `{"days"}`
/// (correspondence); fractions are allowed. Each member is kept as sent —
/// absent (`None`), `null` (`Some(None)`) or a number — because the two
/// shapes are told apart by which members are there: `{"base": 60, "days":
/// null}` is neither.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Fischer: each side's time at the start, in seconds.
    #[serde(default, deserialize_with = "present")]
    pub base: Option<Option<f64>>,
    /// Fischer: seconds added after each timed move (0 when absent or
    /// null).
    #[serde(default, deserialize_with = "present")]
    pub increment: Option<Option<f64>>,
    /// Correspondence: days per move.
    #[serde(default, deserialize_with = "present")]
    pub days: Option<Option<f64>>,
}

/// A member that is there, `null` or not (`#[serde(default)]` makes an
/// absent one `None`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// What a claim asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimResult {
    /// The win.
    Win,
    /// A draw.
    Draw,
}

/// Body of `POST /v1/matches/{id}/claim`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// `win` or `draw`.
    pub result: ClaimResult,
}

/// Body of `POST /v1/matches/{id}/fork`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkRequest {
    /// The ply to fork at; the current one by default.
    pub ply: Option<i64>,
}

/// Body of `POST /v1/matches/{id}/join`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite from the creator's response.
    pub invite: Option<String>,
    /// The joining player's display name.
    pub name: Option<String>,
}

/// The query of `POST /v1/matches/{id}/join` and `/invite/decline`: the
/// invite, as the invite link carries it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InviteQuery {
    /// The invite from the creator's response.
    pub invite: Option<String>,
}

/// Body of `POST /v1/matches/{id}/invite/decline`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclineRequest {
    /// The invite being declined.
    pub invite: Option<String>,
    /// Why: `busy`, or up to 200 characters of text.
    pub reason: Option<String>,
}

/// One seat of a match view.
#[derive(Debug, Serialize)]
pub struct SeatView<'a> {
    /// The side it plays, or `solo`.
    pub seat: &'static str,
    /// The display name its holder chose.
    pub name: Option<&'a str>,
    /// Whether somebody holds its token.
    pub taken: bool,
    /// When it was taken (RFC 3339).
    pub joined_at: Option<String>,
    /// Whether a stream authenticated as this seat is open (always, for
    /// the computer's seat).
    pub online: bool,
    /// Present when the computer holds the seat: how strongly it plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerView>,
}

/// The computer in a seat: its level and its search time per move.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ComputerView {
    /// 1 (a beginner can win) to 10 (full strength).
    pub level: u8,
    /// Search time per move, in milliseconds.
    pub ms: i64,
}

/// An open seat's invite, shown once to the creator.
#[derive(Debug, Serialize)]
pub struct InviteView {
    /// The seat it is for.
    pub seat: &'static str,
    /// The invite.
    pub invite: String,
    /// The URL that joins with it.
    pub url: String,
}

/// Where a forked match came from.
#[derive(Debug, Serialize)]
pub struct ParentView {
    /// The parent's id.
    pub id: String,
    /// The parent's ply at the fork.
    pub ply: i64,
    /// The parent's URL.
    pub url: String,
}

/// A xiangqi opening by the ECCO classification.
#[derive(Debug, Serialize)]
pub struct OpeningView {
    /// The code, `A00`–`E99`.
    pub ecco: &'static str,
    /// The opening's name (`中炮对屏风马`).
    pub name: &'static str,
    /// The variation's name, when the code has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation: Option<&'static str>,
}

/// The view of a match.
#[derive(Debug, Serialize)]
pub struct MatchView<'a> {
    /// Its id.
    pub id: String,
    /// Its URL.
    pub url: String,
    /// The game.
    pub game: &'static str,
    /// `duel` or `solo`.
    pub mode: ModeName,
    /// Bumped by every write; also the `ETag`.
    pub version: i64,
    /// Moves made since the match began.
    pub ply: i64,
    /// The side to move.
    pub to_move: &'static str,
    /// The state view of the current position.
    pub state: &'a RawValue,
    /// The seats.
    pub seats: Vec<SeatView<'a>>,
    /// How the match stands.
    pub status: StatusView,
    /// A pending takeback offer.
    pub undo_offer: Option<UndoOfferView>,
    /// A pending draw offer.
    pub draw_offer: Option<DrawOfferView>,
    /// A timed duel's clock.
    pub clock: Option<MatchClockView>,
    /// The match this one was forked from.
    pub parent: Option<ParentView>,
    /// The kept history.
    pub history_url: String,
    /// Its page for people (`/m/{id}`): the board, the seats, an invite's
    /// Join.
    pub page: String,
    /// Its live events as Server-Sent Events.
    pub events_url: String,
    /// Its WebSocket (`ws:` or `wss:`, as the base's scheme).
    pub ws_url: String,
    /// Xiangqi: the ECCO opening of the game, when its moves from the
    /// standard start are known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningView>,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
    /// The seat token, in the answer that gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<&'a str>,
    /// The seat of that token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<&'static str>,
    /// Invites for the open seats, in the creator's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invites: Option<Vec<InviteView>>,
}

/// One kept move.
#[derive(Debug, Serialize)]
pub struct MoveView<'a> {
    /// Its ply, from 1.
    pub ply: i64,
    /// The seat whose token played it.
    pub seat: &'static str,
    /// That seat's display name.
    pub name: Option<&'a str>,
    /// The side that moved.
    pub side: &'static str,
    /// The action, in the game's canonical notation.
    pub action: &'a str,
    /// Xiangqi: the move in WXF notation (`C2.5`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wxf: Option<String>,
    /// Xiangqi: the move in Chinese notation (`炮二平五`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chinese: Option<String>,
    /// The code after it.
    pub code: &'a str,
    /// When (RFC 3339).
    pub played_at: String,
}

/// Body of `GET /v1/matches/{id}/history`.
#[derive(Debug, Serialize)]
pub struct HistoryView<'a> {
    /// The match id.
    pub id: String,
    /// Its ply.
    pub ply: i64,
    /// Its version.
    pub version: i64,
    /// The kept moves, oldest first.
    pub moves: Vec<MoveView<'a>>,
}

/// One move of a live event.
#[derive(Debug, Serialize)]
pub struct EventMoveView<'a> {
    /// Its ply.
    pub ply: i64,
    /// The side that moved.
    pub side: &'static str,
    /// The action, in the game's canonical notation.
    pub action: &'a str,
}

/// The `data` of a live match event (SSE `event:` names its `kind`; `id:`
/// is its `version`).
#[derive(Debug, Serialize)]
pub struct EventView<'a> {
    /// What happened: `move`, `over`, `undo`, `takeback-offered`,
    /// `takeback-declined`, `joined`, `resigned`, `invited`,
    /// `invite-declined` or `invite-withdrawn`.
    pub kind: &'static str,
    /// The match version it made.
    pub version: i64,
    /// The seat that did it.
    pub seat: Option<&'static str>,
    /// That seat's display name.
    pub name: Option<&'a str>,
    /// The match's ply after it.
    pub ply: i64,
    /// The state code after it.
    pub code: &'a str,
    /// Its share URL.
    pub url: String,
    /// The side to move after it.
    pub to_move: &'static str,
    /// How the match stands after it.
    pub status: StatusView,
    /// The moves it played (empty for every kind but `move` and `over`).
    pub moves: Vec<EventMoveView<'a>>,
    /// For `takeback-offered`: the offer.
    pub undo_offer: Option<UndoOfferView>,
    /// For `invite-declined`: the reason the invited player gave.
    pub note: Option<&'a str>,
    /// A timed duel's clock after it.
    pub clock: Option<ClockView>,
}

/// A pending draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DrawOfferView {
    /// The seat that offered.
    pub seat: &'static str,
}

/// A time control, as match views show it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum TimeControlView {
    /// `base` seconds each, `increment` seconds added after each timed move.
    Fischer {
        /// Seconds.
        base: f64,
        /// Seconds.
        increment: f64,
    },
    /// `days` for every move.
    Correspondence {
        /// Days.
        days: f64,
    },
}

/// A clock at the last write: each side's time left then, and whose clock
/// runs since when (a client counts down from `since` to `deadline`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockView {
    /// Seconds left to each side, by side, as of the last move (for the
    /// side to move: as of `since`).
    pub remaining: BTreeMap<&'static str, f64>,
    /// The side whose clock runs, or null (before both sides have moved,
    /// and once the match is over).
    pub running: Option<&'static str>,
    /// When it started running (RFC 3339).
    pub since: Option<String>,
    /// When its flag falls (RFC 3339): `since` plus its `remaining`.
    pub deadline: Option<String>,
}

/// A match view's clock: its time control and its reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchClockView {
    /// The time control.
    pub control: TimeControlView,
    /// The reading.
    #[serde(flatten)]
    pub reading: ClockView,
}

/// The `data` of a `presence` event.
#[derive(Debug, Serialize)]
pub struct PresenceView {
    /// The seat.
    pub seat: &'static str,
    /// Whether it is online now.
    pub online: bool,
}
