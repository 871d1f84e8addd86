//! The lobby: open games (seeks) anyone may take. A seeker opens a seek and
//! keeps its stream open; the lobby lists it, and its stream tells the
//! seeker the moment somebody takes it, with the duel's id and the seeker's
//! seat (the seek's token is that seat's token). A seek closes when it is
//! taken, withdrawn, expires, or its creator's stream has been closed for
//! the grace period (or was never opened within [`ATTACH`]).

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use qipan_rules::{AnyPlayer, GameKind};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;
use tokio::sync::Mutex;

use super::clock::{Clock, TimeControl};
use super::create::{display_name, new_match};
use super::hub::{Hub, Signal};
use super::live::{keep_alive, Frame, Item, Live};
use super::presence::Tally;
use super::read::{match_url, Shown};
use super::{
    MatchError, MatchId, Matches, Mode, Outcome, Seat, SeatName, SeatSlot, Secret, SecretHash,
    Timestamp, Token,
};
use crate::games;
use crate::storage::lobby as store;
use crate::storage::Database;
use crate::wire::lobby::{
    LobbyView, MatchedView, SeekClosedView, SeekCreatedView, SeekRequest, SeekView, TakeRequest,
};
use crate::wire::StartQuery;

mod feeds;

use feeds::hold_for;
pub use feeds::{LobbyFeed, SeekFeed};

/// How long a new seek waits for its creator's stream, and how long an open
/// stream's hold lasts without being renewed (it is renewed at every
/// keep-alive, so the keep-alive period must stay well below it).
pub const ATTACH: Duration = Duration::from_secs(45);

/// How often each instance closes expired and abandoned seeks.
const SWEEP: Duration = Duration::from_secs(1);

/// A seek's id: a UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeekId(uuid::Uuid);

impl FromStr for SeekId {
    type Err = MatchError;

    fn from_str(s: &str) -> Result<SeekId, MatchError> {
        super::id::hyphenated_uuid(s)
            .map(SeekId)
            .map_err(|_| MatchError::UnknownSeek(s.to_owned()))
    }
}

impl fmt::Display for SeekId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// Where a seek stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeekState {
    /// Listed in the lobby.
    Open,
    /// Somebody took it: the duel exists.
    Taken,
    /// Its creator withdrew it.
    Withdrawn,
    /// It waited longer than the seek lifetime.
    Expired,
    /// Its creator's stream closed (or never opened).
    Left,
}

impl SeekState {
    const ALL: [SeekState; 5] = [
        SeekState::Open,
        SeekState::Taken,
        SeekState::Withdrawn,
        SeekState::Expired,
        SeekState::Left,
    ];

    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            SeekState::Open => "open",
            SeekState::Taken => "taken",
            SeekState::Withdrawn => "withdrawn",
            SeekState::Expired => "expired",
            SeekState::Left => "left",
        }
    }

    /// The state named `s`.
    pub fn parse(s: &str) -> Option<SeekState> {
        SeekState::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// An open game, as stored.
#[derive(Debug, Clone)]
pub struct Seek {
    /// Its id.
    pub id: SeekId,
    /// The game.
    pub game: GameKind,
    /// Its variant, when not the default.
    pub variant: Option<String>,
    /// Its board size, when not the default.
    pub size: Option<u8>,
    /// The side the seeker plays; random when `None`.
    pub side: Option<AnyPlayer>,
    /// The seeker's display name, the name of its seat in the duel.
    pub name: Option<SeatName>,
    /// The duel's time control.
    pub control: Option<TimeControl>,
    /// The hash of the seeker's token.
    pub token: SecretHash,
    /// Where it stands (as stored: see [`Seek::state_at`]).
    pub state: SeekState,
    /// Once taken: the duel and the seeker's seat in it.
    pub taken: Option<(MatchId, Seat)>,
    /// When it was opened.
    pub created_at: Timestamp,
    /// When it expires.
    pub expires_at: Timestamp,
    /// Until when its creator's stream holds it.
    pub held_until: Timestamp,
}

impl Seek {
    /// Where it stands at `now`, the sweeper's next round included.
    pub fn state_at(&self, now: Timestamp) -> SeekState {
        match self.state {
            SeekState::Open if self.expires_at <= now => SeekState::Expired,
            SeekState::Open if self.held_until <= now => SeekState::Left,
            state => state,
        }
    }

    fn view(&self, base: &str) -> SeekView {
        let url = format!("{base}/v1/lobby/seeks/{}", self.id);
        SeekView {
            id: self.id.to_string(),
            game: self.game.as_str(),
            variant: self.variant.clone(),
            size: self.size,
            side: self.side.map_or("random", |p| p.as_str()),
            name: self.name.as_ref().map(|n| n.as_str().to_owned()),
            clock: self.control.map(Into::into),
            take_url: format!("{url}/take"),
            url,
            created_at: self.created_at.rfc3339(),
            expires_at: self.expires_at.rfc3339(),
        }
    }
}

/// This instance's streams of each seek.
pub type Holds = Arc<Mutex<Tally<SeekId>>>;

/// An open seeker stream's hold on its seek: dropping it lets the seek go
/// after the grace period.
pub struct SeekHeld {
    matches: Matches,
    id: SeekId,
}

impl Drop for SeekHeld {
    fn drop(&mut self) {
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let matches = self.matches.clone();
            let id = self.id;
            runtime.spawn(async move { matches.release_seek(id).await });
        }
    }
}

impl Matches {
    /// `POST /v1/lobby/seeks`: opens a seek, answered with its token (the
    /// seeker's seat token once it is taken).
    ///
    /// # Errors
    ///
    /// `UnknownGame`, `InvalidText` (a one-player game), `UnknownSeat` (a
    /// side the game does not have), `InvalidName`, `InvalidClock` (as in
    /// `POST /v1/matches`), the game's refusal of the variant or size;
    /// storage errors.
    #[tracing::instrument(skip_all, fields(game = %req.game))]
    pub async fn seek(
        &self,
        req: &SeekRequest,
        base: &str,
    ) -> Result<(Vec<u8>, String), MatchError> {
        let kind = games::kind(&req.game).map_err(|_| MatchError::UnknownGame(req.game.clone()))?;
        if kind.players().len() < 2 {
            // A seek has no `mode`: the game itself is what cannot be sought.
            return Err(MatchError::InvalidText {
                field: "game",
                why:
                    "has one player: seeks are for the two-player games (xiangqi, gomoku, quoridor)",
            });
        }
        // The start is checked now, so that taking the seek cannot fail on it.
        games::start(kind, &start_query(req.variant.clone(), req.size))?;
        let side = match req.side.as_deref() {
            None | Some("random") => None,
            Some(name) => match Seat::parse(kind, name) {
                Some(Seat::Side(p)) => Some(p),
                _ => {
                    return Err(MatchError::UnknownSeat {
                        given: name.to_owned(),
                        game: kind,
                        mode: Mode::Duel,
                        seats: Seat::all(kind, Mode::Duel),
                    })
                }
            },
        };
        let name = display_name(req.name.as_deref())?;
        let control = req
            .clock
            .as_ref()
            .map(TimeControl::try_from)
            .transpose()
            .map_err(MatchError::InvalidClock)?;
        let token = Secret::token()?;
        let now = Timestamp::now();
        let seek = Seek {
            id: SeekId(uuid::Uuid::new_v4()),
            game: kind,
            variant: req.variant.clone(),
            size: req.size,
            side,
            name,
            control,
            token: token.hash(),
            state: SeekState::Open,
            taken: None,
            created_at: now,
            expires_at: now.plus(self.live.seek_ttl),
            held_until: now.plus(ATTACH),
        };
        store::insert(&mut *self.db.acquire().await?, &seek).await?;
        self.hub.publish(Signal::Lobby);
        let view = seek.view(base);
        let url = view.url.clone();
        let created = SeekCreatedView {
            events_url: format!("{url}/events"),
            seek: view,
            token: token.expose(),
        };
        let body = serde_json::to_vec(&created).map_err(MatchError::Render)?;
        Ok((body, url))
    }

    /// `GET /v1/lobby`: the open seeks, oldest first.
    ///
    /// # Errors
    ///
    /// Storage errors.
    pub async fn lobby(&self, base: &str) -> Result<Vec<u8>, MatchError> {
        let seeks = store::open(&mut *self.db.acquire().await?, Timestamp::now()).await?;
        let view = LobbyView {
            seeks: seeks.iter().map(|s| s.view(base)).collect(),
        };
        serde_json::to_vec(&view).map_err(MatchError::Render)
    }

    /// `POST /v1/lobby/seeks/{id}/take`: creates the duel (with the seek's
    /// time control), seats the seeker (with the seek's token and name) and
    /// the taker (with a new token, in the answer, and the name it gives),
    /// and closes the seek.
    ///
    /// # Errors
    ///
    /// `UnknownSeek`, `InvalidName`, `OwnSeek`, `SeekClosed`; storage
    /// errors.
    #[tracing::instrument(skip(self, token, req, base))]
    pub async fn take(
        &self,
        id: &str,
        token: &Token,
        req: &TakeRequest,
        base: &str,
    ) -> Result<Outcome, MatchError> {
        let id: SeekId = id.parse()?;
        let taker_name = display_name(req.name.as_deref())?;
        let mut conn = self.db.acquire().await?;
        let seek = self.load_seek(&mut conn, id).await?;
        let now = Timestamp::now();
        if token.0.as_ref().is_some_and(|t| t.matches(&seek.token)) {
            return Err(MatchError::OwnSeek);
        }
        match seek.state_at(now) {
            SeekState::Open => {}
            closed => return Err(MatchError::SeekClosed(closed)),
        }
        let (position, _) = games::start(seek.game, &start_query(seek.variant.clone(), seek.size))?;
        let players = seek.game.players();
        let mine = match seek.side {
            Some(p) => p,
            None => players[usize::from(Secret::coin()?)],
        };
        let taker_token = Secret::token()?;
        let mut taker = None;
        let seats: Vec<SeatSlot> = Seat::all(seek.game, Mode::Duel)
            .into_iter()
            .map(|seat| {
                let (token, name) = if seat == Seat::Side(mine) {
                    (seek.token.clone(), seek.name.clone())
                } else {
                    taker = Some(seat);
                    (taker_token.hash(), taker_name.clone())
                };
                SeatSlot {
                    seat,
                    name,
                    token: Some(token),
                    invite: None,
                    joined_at: Some(now),
                    online: false,
                    computer: None,
                }
            })
            .collect();
        let taker = taker.ok_or(MatchError::OwnSeek)?;
        let mut m = new_match(
            MatchId::random(),
            seek.game,
            Mode::Duel,
            position,
            0,
            None,
            now,
        );
        m.clock = seek.control.map(Clock::new);
        if !store::take(&mut conn, id, &m, &seats, Seat::Side(mine), now).await? {
            let seek = self.load_seek(&mut conn, id).await?;
            return Err(MatchError::SeekClosed(seek.state_at(Timestamp::now())));
        }
        drop(conn);
        self.hub.publish(Signal::Lobby);
        crate::metrics::metrics().match_created();
        Self::shown(&m, &seats, base, Some(Shown::seated(taker, &taker_token)))
    }

    /// `POST /v1/lobby/seeks/{id}/withdraw`, by the seeker.
    ///
    /// # Errors
    ///
    /// `UnknownSeek`, `NoToken`/`NotASeat` (not the seek's token),
    /// `SeekClosed`; storage errors.
    #[tracing::instrument(skip(self, token))]
    pub async fn withdraw_seek(&self, id: &str, token: &Token) -> Result<(), MatchError> {
        let id: SeekId = id.parse()?;
        let mut conn = self.db.acquire().await?;
        let seek = self.load_seek(&mut conn, id).await?;
        let now = Timestamp::now();
        open_to_seeker(&seek, token, now)?;
        if !store::close(&mut conn, id, SeekState::Withdrawn, now).await? {
            let seek = self.load_seek(&mut conn, id).await?;
            return Err(MatchError::SeekClosed(seek.state_at(now)));
        }
        self.hub.publish(Signal::Lobby);
        Ok(())
    }

    /// `GET /v1/lobby/seeks/{id}/events`: the seeker's stream, which holds
    /// the seek open while it lives.
    ///
    /// # Errors
    ///
    /// `UnknownSeek`, `NoToken`/`NotASeat`, `SeekClosed`; storage errors.
    pub async fn seek_feed(
        &self,
        id: &str,
        token: &Token,
        base: String,
    ) -> Result<SeekFeed, MatchError> {
        let id: SeekId = id.parse()?;
        let changes = self.hub.subscribe_lobby();
        let mut conn = self.db.acquire().await?;
        let seek = self.load_seek(&mut conn, id).await?;
        let now = Timestamp::now();
        open_to_seeker(&seek, token, now)?;
        self.seek_holds.lock().await.arrive(id);
        let held = SeekHeld {
            matches: self.clone(),
            id,
        };
        store::hold(&mut conn, id, now.plus(hold_for(self.live.keep_alive))).await?;
        drop(conn);
        let mut feed = SeekFeed {
            matches: self.clone(),
            id,
            base,
            changes,
            tick: keep_alive(self.live.keep_alive),
            ready: VecDeque::new(),
            done: false,
            _held: held,
            _open: crate::metrics::OpenStream::new("lobby"),
        };
        feed.ready.push_back(Item::Frame(Arc::new(Frame::new(
            "seek",
            None,
            serde_json::to_vec(&seek.view(&feed.base)).map_err(MatchError::Render)?,
        ))));
        Ok(feed)
    }

    /// `GET /v1/lobby/events`: the lobby's stream.
    ///
    /// # Errors
    ///
    /// Storage errors.
    pub async fn lobby_feed(&self, base: String) -> Result<LobbyFeed, MatchError> {
        let changes = self.hub.subscribe_lobby();
        let seeks = store::open(&mut *self.db.acquire().await?, Timestamp::now()).await?;
        let view = LobbyView {
            seeks: seeks.iter().map(|s| s.view(&base)).collect(),
        };
        let mut ready = VecDeque::new();
        ready.push_back(Item::Frame(Arc::new(Frame::new(
            "sync",
            None,
            serde_json::to_vec(&view).map_err(MatchError::Render)?,
        ))));
        Ok(LobbyFeed {
            matches: self.clone(),
            base,
            listed: seeks.iter().map(|s| s.id).collect(),
            changes,
            tick: keep_alive(self.live.keep_alive),
            ready,
            _open: crate::metrics::OpenStream::new("lobby"),
        })
    }

    async fn load_seek(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: SeekId,
    ) -> Result<Seek, MatchError> {
        store::load(conn, id)
            .await?
            .ok_or_else(|| MatchError::UnknownSeek(id.to_string()))
    }

    /// A seeker stream closed: after the grace period without another, the
    /// seek is closed as `left`.
    async fn release_seek(&self, id: SeekId) {
        let Some(departure) = self.seek_holds.lock().await.leave(id) else {
            return;
        };
        tokio::time::sleep(self.live.presence_grace).await;
        if !self.seek_holds.lock().await.gone(id, departure) {
            return;
        }
        let closed = match self.db.acquire().await {
            Ok(mut conn) => store::close(&mut conn, id, SeekState::Left, Timestamp::now()).await,
            Err(e) => Err(e),
        };
        match closed {
            Ok(true) => self.hub.publish(Signal::Lobby),
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(seek = %id, error = %e, "a left seek could not be closed; it closes when its hold runs out");
            }
        }
    }
}

/// Refuses a token that is not the seek's.
/// Refuses all but the seeker of a seek still open at `now`.
fn open_to_seeker(seek: &Seek, token: &Token, now: Timestamp) -> Result<(), MatchError> {
    let presented = token.0.as_ref().ok_or(MatchError::NoToken)?;
    if !presented.matches(&seek.token) {
        return Err(MatchError::NotASeat);
    }
    match seek.state_at(now) {
        SeekState::Open => Ok(()),
        closed => Err(MatchError::SeekClosed(closed)),
    }
}

fn start_query(variant: Option<String>, size: Option<u8>) -> StartQuery {
    StartQuery {
        variant,
        seed: None,
        size,
    }
}

/// Closes, every second, the seeks that expired or were left, and tells the
/// lobby. Every instance sweeps; a seek is closed by exactly one (the
/// update is conditional on its state).
pub fn sweep(db: Database, hub: Hub) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP);
        loop {
            tick.tick().await;
            let swept = match db.acquire().await {
                Ok(mut conn) => store::sweep(&mut conn, Timestamp::now()).await,
                Err(e) => Err(e),
            };
            match swept {
                Ok(0) => {}
                Ok(_) => hub.publish(Signal::Lobby),
                Err(e) => tracing::warn!(error = %e, "sweeping the lobby"),
            }
        }
    });
}
