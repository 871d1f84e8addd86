//! Persisted matches: seats and their tokens, the kept history, takebacks,
//! resignation and forks. Each operation reads the match, decides with the
//! rules (through [`crate::games`]) and writes once, guarded by the version
//! it read ([`storage::matches::write`]); the HTTP layer only parses and maps.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use qipan_rules::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use subtle::ConstantTimeEq;

use crate::games::{self, Summary};
use crate::problem::{ApiError, Problem, ProblemKind};
use crate::storage::matches::{self as store, MatchRow, MoveRow, NewState, SeatRow, HISTORY_CAP};
use crate::storage::{Backend, Database, StorageError};
use crate::wire::StartQuery;

/// A match id: a UUID, written hyphenated in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchId(uuid::Uuid);

impl MatchId {
    /// A fresh random id.
    pub fn random() -> MatchId {
        MatchId(uuid::Uuid::new_v4())
    }
}

impl FromStr for MatchId {
    type Err = Problem;

    /// Only the hyphenated form (either case): one match, one URL.
    fn from_str(s: &str) -> Result<MatchId, Problem> {
        let refuse = |why: String| {
            Problem::new(
                ProblemKind::InvalidMatchId,
                format!("{s:?} is not a match id (a hyphenated UUID such as 0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b): {why}"),
            )
            .with("field", "id")
        };
        if s.len() != 36 || s.as_bytes().get(8) != Some(&b'-') {
            return Err(refuse(format!(
                "{} characters, not 36 with hyphens",
                s.len()
            )));
        }
        uuid::Uuid::try_parse(s)
            .map(MatchId)
            .map_err(|e| refuse(e.to_string()))
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// Whether a match is played between seats or alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One seat per side; each plays only its own moves.
    Duel,
    /// One token plays every side: a practice sandbox.
    Solo,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::Duel => "duel",
            Mode::Solo => "solo",
        }
    }
}

/// The one seat of a solo match.
pub const SOLO_SEAT: &str = "solo";

/// A secret given to one seat: 256 random bits, base64url.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    fn generate(bytes: usize) -> Result<Secret, ApiError> {
        let mut buf = vec![0u8; bytes];
        getrandom::fill(&mut buf)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("no randomness: {e}")))?;
        Ok(Secret(URL_SAFE_NO_PAD.encode(buf)))
    }

    fn hash(&self) -> String {
        hash(&self.0)
    }

    /// The secret's text, to show once.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// SHA-256, hex: what is stored of a token or invite.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Compares a presented secret with a stored hash in constant time.
fn matches_hash(presented: &str, stored: &str) -> bool {
    hash(presented).as_bytes().ct_eq(stored.as_bytes()).into()
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn rfc3339(ms: i64) -> String {
    let t = UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    humantime::format_rfc3339_millis(t).to_string()
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> ApiError {
        match e {
            StorageError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "database unavailable");
                Problem::new(
                    ProblemKind::DatabaseUnavailable,
                    "the database cannot be reached just now; read the match before retrying a write (a write cut off mid-way may have landed)",
                )
                .into()
            }
            StorageError::Conflict => Problem::new(
                ProblemKind::WriteConflict,
                "another write to this match landed first; nothing of this request was written",
            )
            .into(),
            StorageError::Query(cause) => ApiError::Internal(cause.into()),
        }
    }
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
    /// `duel` or `solo`; duel for two-player games, solo otherwise.
    pub mode: Option<Mode>,
    /// The creator's seat in a duel; the side to move by default.
    pub seat: Option<String>,
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
}

/// A request's seat token, if it sent one (`Authorization: Bearer …`).
pub struct Token(pub Option<String>);

/// What `If-Match` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// No `If-Match`, or `*`.
    Any,
    /// One of these versions (an `If-Match` list names several).
    OneOf(Vec<i64>),
}

impl Precondition {
    /// Reads an `If-Match` value: `"7"`, `W/"7"`, `7` or `*`, or a list.
    ///
    /// # Errors
    ///
    /// `invalid-field` naming the header when no entity tag is a version.
    pub fn parse(header: Option<&str>) -> Result<Precondition, Problem> {
        let Some(text) = header else {
            return Ok(Precondition::Any);
        };
        let tags: Vec<&str> = text.split(',').map(str::trim).collect();
        if tags.contains(&"*") {
            return Ok(Precondition::Any);
        }
        let versions: Vec<i64> = tags
            .iter()
            .filter_map(|t| {
                t.trim_start_matches("W/")
                    .trim_matches('"')
                    .parse::<i64>()
                    .ok()
            })
            .collect();
        if versions.is_empty() {
            return Err(Problem::new(
                ProblemKind::InvalidField,
                format!("If-Match {text:?} is not a match version such as \"7\""),
            )
            .with("field", "If-Match"));
        }
        Ok(Precondition::OneOf(versions))
    }
}

/// What an operation answers: the rendered match view, its id and version.
pub struct Outcome {
    /// The match view, serialized.
    pub view: Vec<u8>,
    /// The match id.
    pub id: MatchId,
    /// The version now.
    pub version: i64,
}

/// The persisted-match service.
#[derive(Clone)]
pub struct Matches {
    db: Database,
}

#[derive(Serialize)]
struct SeatView<'a> {
    seat: &'a str,
    taken: bool,
    joined_at: Option<String>,
}

#[derive(Serialize)]
struct InviteView {
    seat: String,
    invite: String,
    url: String,
}

#[derive(Serialize)]
struct MatchView<'a> {
    id: &'a str,
    url: String,
    game: &'a str,
    mode: &'a str,
    version: i64,
    ply: i64,
    to_move: &'a str,
    state: &'a RawValue,
    seats: Vec<SeatView<'a>>,
    status: Value,
    undo_offer: Option<Value>,
    parent: Option<Value>,
    history_url: String,
    created_at: String,
    updated_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invites: Option<Vec<InviteView>>,
}

/// The stored status of a match as a view.
fn status_value(m: &MatchRow) -> Value {
    json!({ "state": m.status, "winner": m.winner, "reason": m.reason })
}

fn game_of(m: &MatchRow) -> Result<GameKind, ApiError> {
    m.game
        .parse()
        .map_err(|_| ApiError::Internal(anyhow::anyhow!("stored game {:?} is unknown", m.game)))
}

fn match_url(base: &str, id: &str) -> String {
    format!("{base}/v1/matches/{id}")
}

/// The `game-over` problem for a match that has ended (by the rules or by
/// resignation), for an operation named `what`.
fn finished(m: &MatchRow, what: &str) -> Problem {
    let winner = m
        .winner
        .as_deref()
        .map(|w| format!(", {w} wins"))
        .unwrap_or_default();
    Problem::new(
        ProblemKind::GameOver,
        format!(
            "{what}: the match is over ({}{winner})",
            m.reason.as_deref().unwrap_or(&m.status)
        ),
    )
    .with("outcome", status_value(m))
}

/// The new stored state for a summary of a position.
fn new_state<'a>(s: &'a Summary, ply: i64, now: i64) -> NewState<'a> {
    NewState {
        code: &s.code,
        to_move: &s.to_move,
        ply,
        status: s.status.state,
        winner: s.status.winner.as_deref(),
        reason: s.status.reason,
        undo: None,
        now,
    }
}

/// The stored state of a match, unchanged but for its takeback offer.
fn same_state<'a>(m: &'a MatchRow, undo: Option<(&'a str, i64)>, now: i64) -> NewState<'a> {
    NewState {
        code: &m.code,
        to_move: &m.to_move,
        ply: m.ply,
        status: &m.status,
        winner: m.winner.as_deref(),
        reason: m.reason.as_deref(),
        undo,
        now,
    }
}

impl Matches {
    /// The service over a database.
    pub fn new(db: Database) -> Matches {
        Matches { db }
    }

    async fn load(
        conn: &mut AnyConnection,
        id: MatchId,
    ) -> Result<(MatchRow, Vec<SeatRow>), ApiError> {
        store::load(conn, &id.to_string())
            .await?
            .ok_or_else(|| unknown(id))
    }

    /// A match and its kept moves, from one snapshot.
    async fn load_history(
        conn: &mut AnyConnection,
        id: MatchId,
    ) -> Result<(MatchRow, Vec<MoveRow>), ApiError> {
        store::with_history(conn, &id.to_string())
            .await?
            .ok_or_else(|| unknown(id))
    }

    /// Loads a match for a write by a seat: the token must be one of its
    /// seats', and `If-Match` must name its version. Returns the seat too.
    async fn load_seated(
        &self,
        conn: &mut AnyConnection,
        id: MatchId,
        token: &Token,
        pre: &Precondition,
    ) -> Result<(MatchRow, Vec<SeatRow>, String), ApiError> {
        let (m, seats) = Self::load(conn, id).await?;
        let seat = self.seat_of(&seats, token)?.seat.clone();
        check_version(&m, pre)?;
        Ok((m, seats, seat))
    }

    /// Renders the view of a match; `state` is its state view when the
    /// caller has one (a play's, with the last step).
    fn render(
        &self,
        m: &MatchRow,
        seats: &[SeatRow],
        state: Option<Vec<u8>>,
        base: &str,
        secrets: Option<(&str, &Secret, Vec<InviteView>)>,
    ) -> Result<Vec<u8>, ApiError> {
        let kind = game_of(m)?;
        let state = match state {
            Some(v) => v,
            None => games::read(kind, &m.code, base)?,
        };
        let state = std::str::from_utf8(&state)
            .ok()
            .and_then(|s| serde_json::from_str::<&RawValue>(s).ok())
            .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("a state view is not JSON")))?;
        let (token, seat, invites) = match secrets {
            Some((seat, token, invites)) => (Some(token.expose()), Some(seat), Some(invites)),
            None => (None, None, None),
        };
        let view = MatchView {
            id: &m.id,
            url: match_url(base, &m.id),
            game: &m.game,
            mode: &m.mode,
            version: m.version,
            ply: m.ply,
            to_move: &m.to_move,
            state,
            seats: seats
                .iter()
                .map(|s| SeatView {
                    seat: &s.seat,
                    taken: s.token_hash.is_some(),
                    joined_at: s.joined_at.map(rfc3339),
                })
                .collect(),
            status: status_value(m),
            undo_offer: match (&m.undo_seat, m.undo_ply) {
                (Some(seat), Some(ply)) => Some(json!({ "seat": seat, "ply": ply })),
                _ => None,
            },
            parent: match (&m.parent_id, m.parent_ply) {
                (Some(id), Some(ply)) => {
                    Some(json!({ "id": id, "ply": ply, "url": match_url(base, id) }))
                }
                _ => None,
            },
            history_url: format!("{}/history", match_url(base, &m.id)),
            created_at: rfc3339(m.created_at),
            updated_at: rfc3339(m.updated_at),
            token,
            seat,
            invites,
        };
        serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.into()))
    }

    /// The seat whose token the request carries.
    fn seat_of<'s>(&self, seats: &'s [SeatRow], token: &Token) -> Result<&'s SeatRow, Problem> {
        let Some(presented) = token.0.as_deref() else {
            return Err(Problem::new(
                ProblemKind::Unauthorized,
                "this request needs a seat token: Authorization: Bearer <token>",
            ));
        };
        // Every seat is compared, so the time taken does not tell which.
        let mut found = None;
        for s in seats {
            if let Some(stored) = &s.token_hash {
                if matches_hash(presented, stored) {
                    found = Some(s);
                }
            }
        }
        found.ok_or_else(|| {
            Problem::new(
                ProblemKind::Unauthorized,
                "the bearer token is not a seat token of this match",
            )
        })
    }

    /// `POST /v1/matches`
    ///
    /// # Errors
    ///
    /// `invalid-field` for a game, mode, seat or combination not accepted;
    /// the game's problems for a variant, seed, size or code; storage errors.
    pub async fn create(&self, req: &CreateRequest, base: &str) -> Result<Outcome, ApiError> {
        let kind: GameKind = req.game.parse().map_err(|_| {
            let known: Vec<&str> = GameKind::ALL.iter().map(|g| g.as_str()).collect();
            Problem::new(
                ProblemKind::InvalidField,
                format!(
                    "there is no game {:?}; the games are {}",
                    req.game,
                    known.join(", ")
                ),
            )
            .with("field", "game")
            .with("supported", known)
        })?;
        let summary = match &req.from {
            Some(code) => {
                if req.variant.is_some() || req.seed.is_some() || req.size.is_some() {
                    return Err(Problem::new(
                        ProblemKind::InvalidField,
                        "`from` is a whole position: it cannot be combined with variant, seed or size",
                    )
                    .with("field", "from")
                    .into());
                }
                games::summary(kind, code).map_err(|e| as_body_field(e, "from"))?
            }
            None => games::start_summary(
                kind,
                &StartQuery {
                    variant: req.variant.clone(),
                    seed: req.seed,
                    size: req.size,
                },
            )
            .map_err(|e| as_body_field(e, ""))?,
        };
        let players = games::players(kind);
        let mode = req.mode.unwrap_or(if players.len() > 1 {
            Mode::Duel
        } else {
            Mode::Solo
        });
        if mode == Mode::Duel && players.len() < 2 {
            return Err(Problem::new(
                ProblemKind::InvalidField,
                format!("{kind} has one player: its matches are solo"),
            )
            .with("field", "mode")
            .with("supported", ["solo"])
            .into());
        }
        let names: Vec<&str> = match mode {
            Mode::Duel => players.to_vec(),
            Mode::Solo => vec![SOLO_SEAT],
        };
        let mine = match (&req.seat, mode) {
            (Some(seat), _) if names.contains(&seat.as_str()) => seat.clone(),
            (Some(seat), _) => {
                return Err(Problem::new(
                    ProblemKind::InvalidField,
                    format!(
                        "there is no seat {seat:?} in a {} {kind} match; the seats are {}",
                        mode.as_str(),
                        names.join(", ")
                    ),
                )
                .with("field", "seat")
                .with("supported", &names)
                .into())
            }
            (None, Mode::Duel) => summary.to_move.clone(),
            (None, Mode::Solo) => SOLO_SEAT.to_owned(),
        };
        let id = MatchId::random();
        let now = now_ms();
        let token = Secret::generate(32)?;
        let mut seats = Vec::with_capacity(names.len());
        let mut invites = Vec::new();
        for name in &names {
            if *name == mine {
                seats.push(SeatRow {
                    seat: mine.clone(),
                    token_hash: Some(token.hash()),
                    invite_hash: None,
                    joined_at: Some(now),
                });
            } else {
                let invite = Secret::generate(16)?;
                seats.push(SeatRow {
                    seat: (*name).to_owned(),
                    token_hash: None,
                    invite_hash: Some(invite.hash()),
                    joined_at: None,
                });
                invites.push(InviteView {
                    seat: (*name).to_owned(),
                    url: format!(
                        "{}/join?invite={}",
                        match_url(base, &id.to_string()),
                        invite.0
                    ),
                    invite: invite.0,
                });
            }
        }
        let row = MatchRow {
            id: id.to_string(),
            game: kind.to_string(),
            mode: mode.as_str().to_owned(),
            code: summary.code.clone(),
            to_move: summary.to_move.clone(),
            ply: 0,
            version: 1,
            status: summary.status.state.to_owned(),
            winner: summary.status.winner.clone(),
            reason: summary.status.reason.map(str::to_owned),
            undo_seat: None,
            undo_ply: None,
            parent_id: None,
            parent_ply: None,
            created_at: now,
            updated_at: now,
        };
        store::insert(&mut *self.db.acquire().await?, &row, &seats, &[]).await?;
        let view = self.render(&row, &seats, None, base, Some((&mine, &token, invites)))?;
        Ok(Outcome {
            view,
            id,
            version: row.version,
        })
    }

    /// `GET /v1/matches/{id}`
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    pub async fn get(&self, id: MatchId, base: &str) -> Result<Outcome, ApiError> {
        let (m, seats) = Self::load(&mut *self.db.acquire().await?, id).await?;
        Ok(Outcome {
            view: self.render(&m, &seats, None, base, None)?,
            id,
            version: m.version,
        })
    }

    /// `GET /v1/matches/{id}/history`
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors.
    pub async fn history(&self, id: MatchId) -> Result<(Vec<u8>, i64), ApiError> {
        let (m, moves) = Self::load_history(&mut *self.db.acquire().await?, id).await?;
        let moves: Vec<Value> = moves
            .iter()
            .map(|mv| {
                json!({
                    "ply": mv.ply,
                    "seat": mv.seat,
                    "side": mv.side,
                    "action": mv.action,
                    "code": mv.code_after,
                    "played_at": rfc3339(mv.played_at),
                })
            })
            .collect();
        let body = json!({ "id": m.id, "ply": m.ply, "version": m.version, "moves": moves });
        Ok((
            serde_json::to_vec(&body).map_err(|e| ApiError::Internal(e.into()))?,
            m.version,
        ))
    }

    /// Writes, mapping a lost race to `stale-version` when the caller named
    /// a version and `write-conflict` otherwise.
    async fn write(
        &self,
        conn: &mut AnyConnection,
        m: &MatchRow,
        pre: &Precondition,
        state: &NewState<'_>,
        truncate_after: Option<i64>,
        moves: &[MoveRow],
    ) -> Result<i64, ApiError> {
        let backend = self.db.backend();
        match store::write(
            conn,
            backend,
            &m.id,
            m.version,
            state,
            truncate_after,
            moves,
        )
        .await
        {
            Err(StorageError::Conflict) => {
                if let Precondition::OneOf(asked) = pre {
                    // Whatever the version is now, it is not the one read.
                    return Err(stale(asked, None));
                }
                Err(StorageError::Conflict.into())
            }
            other => Ok(other?),
        }
    }

    /// `POST /v1/matches/{id}/play`
    ///
    /// # Errors
    ///
    /// `unauthorized`, `stale-version`, `game-over`, `not-your-turn`, the
    /// play problems of the game, `write-conflict`; storage errors.
    pub async fn play(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        actions: &[String],
        base: &str,
    ) -> Result<Outcome, ApiError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = self.load_seated(&mut conn, id, token, &pre).await?;
        // On SQLite the one connection is not held while the rules run (the
        // version guards the write); on PostgreSQL it is, as each return to
        // the pool costs a round trip.
        let mut held = (self.db.backend() == Backend::Postgres).then_some(conn);
        if m.status != "ongoing" {
            return Err(finished(&m, "no action can be played").into());
        }
        let kind = game_of(&m)?;
        let only_side = (m.mode == "duel").then_some(seat.as_str());
        let played = games::play_plies(kind, &m.code, actions, only_side, base)?;
        let now = now_ms();
        let first = m.ply + 1;
        let skip = played.plies.len().saturating_sub(HISTORY_CAP as usize);
        let rows: Vec<MoveRow> = played
            .plies
            .iter()
            .enumerate()
            .skip(skip)
            .map(|(i, p)| MoveRow {
                ply: first + i as i64,
                seat: seat.clone(),
                side: p.side.clone(),
                action: p.action.clone(),
                code_before: p.code_before.clone(),
                code_after: p.code_after.clone(),
                played_at: now,
            })
            .collect();
        let ply = m.ply + played.plies.len() as i64;
        let state = new_state(&played.summary, ply, now);
        // A move withdraws any takeback offer (`undo: None`).
        let mut conn = match held.take() {
            Some(conn) => conn,
            None => self.db.acquire().await?,
        };
        let version = self.write(&mut conn, &m, &pre, &state, None, &rows).await?;
        drop(conn);
        apply(&mut m, &played.summary, ply, version, now);
        Ok(Outcome {
            view: self.render(&m, &seats, Some(played.view), base, None)?,
            id,
            version,
        })
    }

    /// `POST /v1/matches/{id}/undo`: a solo match takes its last move back
    /// at once (answers `true`); a duel seat offers to take its last move
    /// back (answers `false`).
    ///
    /// # Errors
    ///
    /// `unauthorized`, `stale-version`, `game-over` (resigned, or a finished
    /// duel), `nothing-to-undo`, `undo-pending`, `write-conflict`; storage
    /// errors.
    pub async fn undo(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<(Outcome, bool), ApiError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = self.load_seated(&mut conn, id, token, &pre).await?;
        if m.mode != "duel" {
            if m.reason.as_deref() == Some("resigned") {
                return Err(finished(&m, "a resigned match cannot be undone").into());
            }
            let ply = m.ply - 1;
            self.go_back(&mut conn, &mut m, &pre, ply, "no kept move to take back")
                .await?;
            drop(conn);
            return Ok((self.outcome(id, &m, &seats, base)?, true));
        }
        if m.status != "ongoing" {
            return Err(finished(&m, "no takeback can be offered").into());
        }
        if let Some(other) = m.undo_seat.as_deref() {
            if other != seat {
                return Err(Problem::new(
                    ProblemKind::UndoPending,
                    format!("{other} has offered a takeback; accept or decline it first"),
                )
                .with("undo_offer", json!({ "seat": other, "ply": m.undo_ply }))
                .into());
            }
            // The same seat asking again: the offer stands.
            return Ok((self.outcome(id, &m, &seats, base)?, false));
        }
        let Some(last) = store::last_move_of(&mut conn, &m.id, &seat).await? else {
            return Err(nothing_to_undo(
                &m,
                &format!("{seat} has no kept move to take back"),
            ));
        };
        let offer = Some((seat, last.ply - 1));
        let m = self.keep_position(&mut conn, m, &pre, offer).await?;
        drop(conn);
        Ok((self.outcome(id, &m, &seats, base)?, false))
    }

    /// Takes a match back to `ply`, the position before kept move `ply + 1`,
    /// dropping the kept moves after it.
    async fn go_back(
        &self,
        conn: &mut AnyConnection,
        m: &mut MatchRow,
        pre: &Precondition,
        ply: i64,
        why: &str,
    ) -> Result<(), ApiError> {
        let Some(row) = store::move_at(conn, &m.id, ply + 1).await? else {
            return Err(nothing_to_undo(m, why));
        };
        let summary = games::summary(game_of(m)?, &row.code_before)?;
        let now = now_ms();
        let version = self
            .write(conn, m, pre, &new_state(&summary, ply, now), Some(ply), &[])
            .await?;
        apply(m, &summary, ply, version, now);
        Ok(())
    }

    /// Writes a match with its position unchanged, its status as `m` now
    /// holds it and `offer` as its takeback offer; returns it as written.
    async fn keep_position(
        &self,
        conn: &mut AnyConnection,
        mut m: MatchRow,
        pre: &Precondition,
        offer: Option<(String, i64)>,
    ) -> Result<MatchRow, ApiError> {
        let now = now_ms();
        let undo = offer.as_ref().map(|(seat, ply)| (seat.as_str(), *ply));
        m.version = self
            .write(conn, &m, pre, &same_state(&m, undo, now), None, &[])
            .await?;
        (m.undo_seat, m.undo_ply) = offer.unzip();
        m.updated_at = now;
        Ok(m)
    }

    /// The answer of a write: the match's view, without secrets.
    fn outcome(
        &self,
        id: MatchId,
        m: &MatchRow,
        seats: &[SeatRow],
        base: &str,
    ) -> Result<Outcome, ApiError> {
        Ok(Outcome {
            view: self.render(m, seats, None, base, None)?,
            id,
            version: m.version,
        })
    }

    /// `POST /v1/matches/{id}/undo/accept` (`accept`) and `/undo/decline`.
    ///
    /// # Errors
    ///
    /// `unauthorized`, `not-a-duel`, `no-undo-offer`, `own-undo-offer`,
    /// `stale-version`, `write-conflict`; storage errors.
    pub async fn answer_undo(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        accept: bool,
        base: &str,
    ) -> Result<Outcome, ApiError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = self.load_seated(&mut conn, id, token, &pre).await?;
        if m.mode != "duel" {
            return Err(Problem::new(
                ProblemKind::NotADuel,
                "a solo match has no takeback offers: /undo takes the last move back at once",
            )
            .into());
        }
        let (Some(offerer), Some(back_to)) = (m.undo_seat.clone(), m.undo_ply) else {
            return Err(Problem::new(
                ProblemKind::NoUndoOffer,
                "no takeback is on offer in this match",
            )
            .into());
        };
        if !accept {
            // Either seat may decline; the offerer so withdraws it.
            return self
                .keep_position(&mut conn, m, &pre, None)
                .await
                .and_then(|m| self.outcome(id, &m, &seats, base));
        }
        if offerer == seat {
            return Err(Problem::new(
                ProblemKind::OwnUndoOffer,
                format!("{seat} made this offer: the other seat accepts it (or withdraw it with /undo/decline)"),
            )
            .into());
        }
        let why = "the move offered back is no longer kept";
        self.go_back(&mut conn, &mut m, &pre, back_to, why).await?;
        drop(conn);
        self.outcome(id, &m, &seats, base)
    }

    /// `POST /v1/matches/{id}/resign`
    ///
    /// # Errors
    ///
    /// `unauthorized`, `stale-version`, `game-over`, `write-conflict`;
    /// storage errors.
    pub async fn resign(
        &self,
        id: MatchId,
        token: &Token,
        pre: Precondition,
        base: &str,
    ) -> Result<Outcome, ApiError> {
        let mut conn = self.db.acquire().await?;
        let (mut m, seats, seat) = self.load_seated(&mut conn, id, token, &pre).await?;
        if m.status != "ongoing" {
            return Err(finished(&m, "the match cannot be resigned").into());
        }
        let players = games::players(game_of(&m)?);
        // In a duel the seat resigns; in a solo match, the side to move.
        let loser = if m.mode == "duel" { &seat } else { &m.to_move };
        let winner = players
            .iter()
            .find(|p| *p != loser)
            .map(|p| (*p).to_owned());
        m.status = if winner.is_some() { "won" } else { "over" }.to_owned();
        m.winner = winner;
        m.reason = Some("resigned".to_owned());
        self.keep_position(&mut conn, m, &pre, None)
            .await
            .and_then(|m| self.outcome(id, &m, &seats, base))
    }

    /// `POST /v1/matches/{id}/join`
    ///
    /// # Errors
    ///
    /// `invalid-field` without an invite, `invalid-invite`, `seat-taken`;
    /// storage errors.
    pub async fn join(
        &self,
        id: MatchId,
        invite: Option<&str>,
        base: &str,
    ) -> Result<Outcome, ApiError> {
        let Some(invite) = invite else {
            return Err(Problem::new(
                ProblemKind::InvalidField,
                "send the invite, as {\"invite\": \"…\"} or ?invite=",
            )
            .with("field", "invite")
            .into());
        };
        // A lost race is read again: the seat may have been taken meanwhile.
        for _ in 0..3 {
            let mut conn = self.db.acquire().await?;
            let (mut m, mut seats) = Self::load(&mut conn, id).await?;
            let mut found = None;
            for (i, s) in seats.iter().enumerate() {
                if let Some(stored) = &s.invite_hash {
                    if matches_hash(invite, stored) {
                        found = Some(i);
                    }
                }
            }
            let Some(i) = found else {
                return Err(Problem::new(
                    ProblemKind::InvalidInvite,
                    "this invite is not one of this match's",
                )
                .into());
            };
            if seats[i].token_hash.is_some() {
                return Err(Problem::new(
                    ProblemKind::SeatTaken,
                    format!("the seat {} has been taken", seats[i].seat),
                )
                .with("seat", &seats[i].seat)
                .into());
            }
            let token = Secret::generate(32)?;
            let now = now_ms();
            match store::take_seat(
                &mut conn,
                &m.id,
                m.version,
                &seats[i].seat,
                &token.hash(),
                now,
            )
            .await
            {
                Err(StorageError::Conflict) => continue,
                Err(e) => return Err(e.into()),
                Ok(version) => {
                    m.version = version;
                    m.updated_at = now;
                    seats[i].token_hash = Some(token.hash());
                    seats[i].joined_at = Some(now);
                    let seat = seats[i].seat.clone();
                    let view =
                        self.render(&m, &seats, None, base, Some((&seat, &token, Vec::new())))?;
                    return Ok(Outcome { view, id, version });
                }
            }
        }
        Err(StorageError::Conflict.into())
    }

    /// `POST /v1/matches/{id}/fork`
    ///
    /// # Errors
    ///
    /// `unauthorized` for a match being played without a seat token,
    /// `ply-not-kept`; storage errors.
    pub async fn fork(
        &self,
        id: MatchId,
        token: &Token,
        req: &ForkRequest,
        base: &str,
    ) -> Result<Outcome, ApiError> {
        let mut conn = self.db.acquire().await?;
        let (parent, seats) = Self::load(&mut conn, id).await?;
        if parent.status == "ongoing" {
            self.seat_of(&seats, token)?;
        }
        // The position and the history to copy, from one snapshot.
        let (parent, history) = Self::load_history(&mut conn, id).await?;
        let ply = req.ply.unwrap_or(parent.ply);
        let code = if ply == parent.ply {
            Some(parent.code.clone())
        } else {
            history
                .iter()
                .find(|mv| mv.ply == ply)
                .map(|mv| mv.code_after.clone())
                .or_else(|| {
                    history
                        .iter()
                        .find(|mv| Some(mv.ply) == ply.checked_add(1))
                        .map(|mv| mv.code_before.clone())
                })
        };
        let Some(code) = code else {
            let oldest = history.first().map_or(parent.ply, |mv| mv.ply - 1);
            return Err(Problem::new(
                ProblemKind::PlyNotKept,
                format!(
                    "ply {ply} is not kept: this match can be forked from ply {oldest} to {}",
                    parent.ply
                ),
            )
            .with("field", "ply")
            .with("oldest", oldest)
            .with("latest", parent.ply)
            .into());
        };
        let summary = games::summary(game_of(&parent)?, &code)?;
        let child = MatchId::random();
        let now = now_ms();
        let token = Secret::generate(32)?;
        let row = MatchRow {
            id: child.to_string(),
            game: parent.game.clone(),
            mode: Mode::Solo.as_str().to_owned(),
            code: summary.code.clone(),
            to_move: summary.to_move.clone(),
            ply,
            version: 1,
            status: summary.status.state.to_owned(),
            winner: summary.status.winner.clone(),
            reason: summary.status.reason.map(str::to_owned),
            undo_seat: None,
            undo_ply: None,
            parent_id: Some(parent.id.clone()),
            parent_ply: Some(ply),
            created_at: now,
            updated_at: now,
        };
        let seats = [SeatRow {
            seat: SOLO_SEAT.to_owned(),
            token_hash: Some(token.hash()),
            invite_hash: None,
            joined_at: Some(now),
        }];
        let moves: Vec<MoveRow> = history.into_iter().filter(|mv| mv.ply <= ply).collect();
        store::insert(&mut conn, &row, &seats, &moves).await?;
        drop(conn);
        let view = self.render(
            &row,
            &seats,
            None,
            base,
            Some((SOLO_SEAT, &token, Vec::new())),
        )?;
        Ok(Outcome {
            view,
            id: child,
            version: row.version,
        })
    }
}

/// Updates a loaded row after a write to a new position.
fn apply(m: &mut MatchRow, s: &Summary, ply: i64, version: i64, now: i64) {
    m.code.clone_from(&s.code);
    m.to_move.clone_from(&s.to_move);
    m.ply = ply;
    m.status = s.status.state.to_owned();
    m.winner.clone_from(&s.status.winner);
    m.reason = s.status.reason.map(str::to_owned);
    m.undo_seat = None;
    m.undo_ply = None;
    m.version = version;
    m.updated_at = now;
}

fn stale(asked: &[i64], current: Option<i64>) -> ApiError {
    let list = asked
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" or ");
    let mut p = Problem::new(
        ProblemKind::StaleVersion,
        match current {
            Some(v) => format!("If-Match asks for version {list}; the match is at version {v}"),
            None => format!("If-Match asks for version {list}; the match has moved on"),
        },
    )
    .with("asked", asked);
    if let Some(v) = current {
        p = p.with("version", v);
    }
    p.into()
}

fn check_version(m: &MatchRow, pre: &Precondition) -> Result<(), ApiError> {
    match pre {
        Precondition::OneOf(asked) if !asked.contains(&m.version) => {
            Err(stale(asked, Some(m.version)))
        }
        _ => Ok(()),
    }
}

/// The stateless API's problems name query parameters and path segments;
/// here the same values are members of the body. A refused start parameter
/// becomes `invalid-field`, and a refused code names `rename` (its member).
fn as_body_field(e: ApiError, rename: &str) -> ApiError {
    match e {
        ApiError::Problem(mut p) => {
            if p.kind == ProblemKind::InvalidQuery {
                p.kind = ProblemKind::InvalidField;
            }
            if !rename.is_empty() && p.extensions.contains_key("field") {
                p = p.with("field", rename);
            }
            ApiError::Problem(p)
        }
        other => other,
    }
}

fn unknown(id: MatchId) -> ApiError {
    Problem::new(
        ProblemKind::UnknownMatch,
        format!("no match has the id {id}"),
    )
    .with("id", id.to_string())
    .into()
}

fn nothing_to_undo(m: &MatchRow, detail: &str) -> ApiError {
    Problem::new(ProblemKind::NothingToUndo, detail.to_owned())
        .with("ply", m.ply)
        .with("kept", HISTORY_CAP)
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn match_ids_round_trip(bytes in any::<[u8; 16]>()) {
            let id = MatchId(uuid::Uuid::from_bytes(bytes));
            prop_assert_eq!(id.to_string().parse::<MatchId>().ok(), Some(id));
            prop_assert_eq!(id.to_string().to_uppercase().parse::<MatchId>().ok(), Some(id));
        }

        #[test]
        fn any_path_segment_is_an_id_or_a_400(text in "\\PC{0,40}") {
            if let Err(p) = text.parse::<MatchId>() {
                prop_assert_eq!(p.kind, ProblemKind::InvalidMatchId);
            }
        }

        #[test]
        fn any_if_match_is_read_or_refused(text in "\\PC{0,40}") {
            match Precondition::parse(Some(&text)) {
                Ok(Precondition::OneOf(v)) => prop_assert!(!v.is_empty()),
                Ok(Precondition::Any) => prop_assert!(text.split(',').any(|t| t.trim() == "*")),
                Err(p) => prop_assert_eq!(p.kind, ProblemKind::InvalidField),
            }
        }

        #[test]
        fn a_secret_matches_its_hash_only(a in "[A-Za-z0-9_-]{43}", b in "[A-Za-z0-9_-]{43}") {
            let stored = hash(&a);
            prop_assert!(matches_hash(&a, &stored));
            prop_assert_eq!(matches_hash(&b, &stored), a == b);
        }
    }

    #[test]
    fn if_match_forms() {
        let read = |h: Option<&str>| Precondition::parse(h).ok();
        let one = |v| Some(Precondition::OneOf(vec![v]));
        assert_eq!(read(None), Some(Precondition::Any));
        assert_eq!(read(Some("*")), Some(Precondition::Any));
        assert_eq!(read(Some("\"7\"")), one(7));
        assert_eq!(read(Some("W/\"7\"")), one(7));
        assert_eq!(read(Some("7")), one(7));
        assert_eq!(
            read(Some("\"3\", \"x\", W/\"9\"")),
            Some(Precondition::OneOf(vec![3, 9]))
        );
        assert_eq!(read(Some("\"abc\"")), None);
    }

    #[test]
    fn secrets_are_long_and_distinct() {
        let a = Secret::generate(32).ok().map(|s| s.0);
        let b = Secret::generate(32).ok().map(|s| s.0);
        assert_eq!(a.as_ref().map(String::len), Some(43));
        assert_ne!(a, b);
        assert_eq!(format!("{:?}", Secret("x".into())), "Secret(…)");
    }
}
