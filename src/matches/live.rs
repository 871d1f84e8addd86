//! The live feed of a match, which its Server-Sent Events stream and its
//! WebSocket both send: every event since the client's last one, then each
//! new one as it is written, with `presence` events when a seat comes online
//! or goes offline, and keep-alives in between. A client with no last event,
//! or one further behind than the kept events reach, gets one `sync` event
//! with the whole match view instead, and goes on from there.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use qipan_rules::GameKind;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

use super::events::MatchEvent;
use super::hub::Signal;
use super::presence::Held;
use super::read::render;
use super::{MatchError, MatchId, Matches, Seat, SeatSlot, Version};
use crate::games::share_url;
use crate::storage::matches as store;
use crate::wire::matches::{ClockView, EventMoveView, EventView, PresenceView};

/// A keep-alive ticker: every `period` (`--keep-alive`) of silence a feed
/// sends a keep-alive and looks at the database, in case a wake-up was
/// lost.
pub fn keep_alive(period: Duration) -> tokio::time::Interval {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.reset();
    tick
}

/// One event of a feed.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Its name: `sync`, `presence` or an [`super::events::EventKind`].
    pub name: &'static str,
    /// The match version it brings the client to (none for `presence`).
    pub id: Option<Version>,
    /// Its data, a JSON object.
    pub data: Vec<u8>,
    /// Its Server-Sent Events text, written once for every stream.
    sse: std::sync::OnceLock<bytes::Bytes>,
}

impl Frame {
    /// An event named `name`.
    pub fn new(name: &'static str, id: Option<Version>, data: Vec<u8>) -> Frame {
        Frame {
            name,
            id,
            data,
            sse: std::sync::OnceLock::new(),
        }
    }

    /// The frame as Server-Sent Events text.
    pub fn sse(&self) -> bytes::Bytes {
        self.sse
            .get_or_init(|| {
                let mut f = Vec::with_capacity(self.data.len() + 48);
                if let Some(id) = self.id {
                    f.extend_from_slice(format!("id: {id}\n").as_bytes());
                }
                f.extend_from_slice(b"event: ");
                f.extend_from_slice(self.name.as_bytes());
                f.extend_from_slice(b"\ndata: ");
                f.extend_from_slice(&self.data);
                f.extend_from_slice(b"\n\n");
                bytes::Bytes::from(f)
            })
            .clone()
    }
}

/// What a feed yields.
#[derive(Debug, Clone)]
pub enum Item {
    /// An event (shared by the feeds that send it).
    Frame(Arc<Frame>),
    /// Nothing happened for a while.
    KeepAlive,
}

/// A stream of [`Item`]s for one client: a match's feed, the lobby's, a
/// seeker's.
pub trait Live {
    /// The next item; `None` when the feed has ended.
    fn next(&mut self) -> impl std::future::Future<Output = Option<Item>>;
}

/// A match's live feed, for one client.
pub struct Feed {
    matches: Matches,
    id: MatchId,
    base: String,
    /// The version of the last event sent.
    last: Option<Version>,
    /// Which seats the client was last told are online.
    online: Option<Vec<(Seat, bool)>>,
    /// The match's game, once read.
    game: Option<GameKind>,
    changes: Receiver<Signal>,
    ready: VecDeque<Item>,
    tick: tokio::time::Interval,
    /// The client's seat, while the feed is open.
    _held: Option<Held>,
    /// Counted among the open streams while it lives.
    _open: crate::metrics::OpenStream,
}

impl Matches {
    /// The live feed of match `id` after `last` (a `Last-Event-ID`), or
    /// from a `sync`. A feed of an authenticated client holds its seat
    /// online while it lives.
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors (once the feed has begun, a failing
    /// database delays events: the feed tries again at the next keep-alive).
    pub async fn feed(
        &self,
        id: MatchId,
        last: Option<Version>,
        base: String,
        held: Option<Held>,
    ) -> Result<Feed, MatchError> {
        // Subscribe first, so no change between the first read and the
        // subscription is missed.
        let changes = self.hub.subscribe(id);
        let tick = keep_alive(self.live.keep_alive);
        let mut feed = Feed {
            matches: self.clone(),
            id,
            base,
            last,
            online: None,
            game: None,
            changes,
            ready: VecDeque::new(),
            tick,
            _held: held,
            _open: crate::metrics::OpenStream::new("match"),
        };
        feed.catch_up().await?;
        Ok(feed)
    }

    /// Holds `seat` of match `id` online while the result lives.
    ///
    /// # Errors
    ///
    /// Storage errors.
    pub async fn hold(&self, id: MatchId, seat: Seat) -> Result<Held, MatchError> {
        Ok(self.presence.hold(id, seat).await?)
    }
}

impl Live for Feed {
    /// The next item; `None` once the service is shutting down.
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            tokio::select! {
                change = self.changes.recv() => match change {
                    Ok(Signal::Match(id, version))
                        if id == self.id && self.last.is_none_or(|l| version > l) =>
                    {
                        // The slow paths are boxed: an idle feed's future stays
                        // small (it is held for every open stream).
                        if !Box::pin(self.fast_forward(version)).await {
                            Box::pin(self.catch_up_quietly()).await;
                        }
                    }
                    Ok(Signal::Presence(_)) => Box::pin(self.catch_up_quietly()).await,
                    Ok(_) => {}
                    // Fell behind the wake-ups: the database has it all.
                    Err(RecvError::Lagged(_)) => Box::pin(self.catch_up_quietly()).await,
                    Err(RecvError::Closed) => return None,
                },
                _ = self.tick.tick() => {
                    Box::pin(self.catch_up_quietly()).await;
                    if self.ready.is_empty() {
                        self.ready.push_back(Item::KeepAlive);
                    }
                }
            }
        }
    }
}

impl Feed {
    /// Queues the events up to `version` from the events this instance
    /// shares between its feeds (read once from the database when missing);
    /// `false` when they do not join the last one sent, and the feed must
    /// catch up the long way.
    async fn fast_forward(&mut self, version: Version) -> bool {
        let (Some(last), Some(game)) = (self.last, self.game) else {
            return false;
        };
        if version.get() - last.get() > 16 {
            return false;
        }
        let mut frames = Vec::new();
        let mut v = last.next();
        while v <= version {
            let (matches, id) = (&self.matches, self.id);
            let load = async {
                let mut conn = matches.db.acquire().await?;
                store::event_at(&mut conn, id, game, v).await
            };
            let frame = match matches.recent.get(id, v, load).await {
                Ok(Some(recent)) => recent.frame(&self.base, |e| event_frame(e, game, &self.base)),
                Ok(None) | Err(_) => return false,
            };
            match frame {
                Ok(f) => frames.push(Item::Frame(f)),
                Err(_) => return false,
            }
            v = v.next();
        }
        self.ready.extend(frames);
        self.last = Some(version);
        true
    }

    /// Queues what the client has not seen: the kept events after its last
    /// one, or a `sync` when those do not reach back far enough; then the
    /// seats whose presence changed.
    async fn catch_up(&mut self) -> Result<(), MatchError> {
        let mut conn = self.matches.db.acquire().await?;
        let (m, seats) = Matches::load(&mut conn, self.id).await?;
        self.game = Some(m.game);
        let events = match self.last {
            Some(last) if last < m.version => {
                store::events_after(&mut conn, self.id, m.game, last).await?
            }
            _ => Vec::new(),
        };
        drop(conn);
        let joins = |last: Version| events.first().is_some_and(|e| e.version == last.next());
        match self.last {
            Some(last) if last == m.version => {}
            Some(last) if last < m.version && joins(last) => {
                for e in &events {
                    self.ready
                        .push_back(Item::Frame(Arc::new(event_frame(e, m.game, &self.base)?)));
                }
                self.last = events.last().map(|e| e.version);
            }
            _ => {
                let view = render(&m, &seats, None, &self.base, None)?;
                self.ready.push_back(Item::Frame(Arc::new(Frame::new(
                    "sync",
                    Some(m.version),
                    view,
                ))));
                self.last = Some(m.version);
                // The view shows every seat's presence.
                self.online = Some(presence(&seats));
            }
        }
        let now = presence(&seats);
        let before = self.online.replace(now.clone());
        for (i, &(seat, online)) in now.iter().enumerate() {
            let told = before.as_ref().and_then(|b| b.get(i)).map(|&(_, o)| o);
            if told != Some(online) {
                let data = serde_json::to_vec(&PresenceView {
                    seat: seat.as_str(),
                    online,
                })
                .map_err(MatchError::Render)?;
                self.ready
                    .push_back(Item::Frame(Arc::new(Frame::new("presence", None, data))));
            }
        }
        Ok(())
    }

    /// [`Feed::catch_up`] once the feed is open: a failure is logged and the
    /// next wake-up or keep-alive tries again.
    async fn catch_up_quietly(&mut self) {
        if let Err(e) = self.catch_up().await {
            tracing::warn!(match_id = %self.id, error = %e, "a live feed could not read its match");
        }
    }
}

/// Each seat and whether it is online, in the match view's order.
fn presence(seats: &[SeatSlot]) -> Vec<(Seat, bool)> {
    seats.iter().map(|s| (s.seat, s.online)).collect()
}

/// One stored event as a frame.
fn event_frame(e: &MatchEvent, game: GameKind, base: &str) -> Result<Frame, MatchError> {
    let view = EventView {
        kind: e.kind.as_str(),
        version: e.version.get(),
        seat: e.seat.map(|s| s.as_str()),
        name: e.name.as_ref().map(|n| n.as_str()),
        ply: e.ply,
        code: &e.code,
        url: share_url(base, game, &e.code),
        to_move: e.to_move.as_str(),
        status: e.status.into(),
        moves: e
            .moves
            .iter()
            .map(|mv| EventMoveView {
                ply: mv.ply,
                side: mv.side.as_str(),
                action: &mv.action,
            })
            .collect(),
        undo_offer: e
            .back_to
            .zip(e.seat)
            .map(|(ply, seat)| crate::wire::matches::UndoOfferView {
                seat: seat.as_str(),
                ply,
            }),
        note: e.note.as_deref(),
        clock: e.clock.map(|c| ClockView::of(game, e.to_move, c)),
    };
    Ok(Frame::new(
        e.kind.as_str(),
        Some(e.version),
        serde_json::to_vec(&view).map_err(MatchError::Render)?,
    ))
}
