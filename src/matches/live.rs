//! The live stream of a match (Server-Sent Events): every event since the
//! client's `Last-Event-ID`, then each new one as it is written, with
//! keep-alive comments in between. A client with no `Last-Event-ID`, or one
//! further behind than the kept events reach, gets one `sync` event with
//! the whole match view instead, and goes on from there.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use actix_web::web::Bytes;
use futures_util::Stream;
use qipan_rules::GameKind;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

use super::events::MatchEvent;
use super::read::render;
use super::{MatchError, MatchId, Matches, Version};
use crate::games::share_url;
use crate::storage::matches as store;
use crate::wire::matches::{EventMoveView, EventView};

/// How often an idle stream sends a keep-alive comment (and looks at the
/// database, in case a wake-up was lost).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A stream being served.
struct Watch {
    matches: Matches,
    id: MatchId,
    base: String,
    /// The version of the last event sent.
    last: Option<Version>,
    changes: Receiver<(MatchId, Version)>,
    ready: VecDeque<Bytes>,
    tick: tokio::time::Interval,
}

impl Matches {
    /// `GET /v1/matches/{id}/events`: the match's live events after `last`
    /// (a `Last-Event-ID`), or a `sync` to begin with.
    ///
    /// # Errors
    ///
    /// `unknown-match`; storage errors (once the stream has begun, a
    /// failing database delays events: the stream tries again at the next
    /// keep-alive).
    pub async fn events(
        &self,
        id: MatchId,
        last: Option<Version>,
        base: String,
    ) -> Result<impl Stream<Item = Result<Bytes, Infallible>>, MatchError> {
        // Subscribe first, so no change between the first read and the
        // subscription is missed.
        let changes = self.hub.subscribe();
        let mut tick = tokio::time::interval(KEEP_ALIVE);
        tick.reset();
        let mut watch = Watch {
            matches: self.clone(),
            id,
            base,
            last,
            changes,
            ready: VecDeque::new(),
            tick,
        };
        watch.catch_up().await?;
        Ok(futures_util::stream::unfold(watch, |mut w| async move {
            loop {
                if let Some(frame) = w.ready.pop_front() {
                    return Some((Ok(frame), w));
                }
                tokio::select! {
                    change = w.changes.recv() => match change {
                        Ok((id, version)) if id == w.id && w.last.is_none_or(|l| version > l) => {
                            w.catch_up_quietly().await;
                        }
                        Ok(_) => {}
                        // Fell behind the wake-ups: the database has it all.
                        Err(RecvError::Lagged(_)) => w.catch_up_quietly().await,
                        Err(RecvError::Closed) => return None,
                    },
                    _ = w.tick.tick() => {
                        w.catch_up_quietly().await;
                        if w.ready.is_empty() {
                            w.ready.push_back(Bytes::from_static(b": keep-alive\n\n"));
                        }
                    }
                }
            }
        }))
    }
}

impl Watch {
    /// Queues what the client has not seen: the kept events after its last
    /// one, or a `sync` when those do not reach back far enough.
    async fn catch_up(&mut self) -> Result<(), MatchError> {
        let mut conn = self.matches.db.acquire().await?;
        let (m, seats) = Matches::load(&mut conn, self.id).await?;
        let events = match self.last {
            Some(last) if last <= m.version => {
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
                    self.ready.push_back(frame(e, m.game, &self.base)?);
                }
                self.last = events.last().map(|e| e.version);
            }
            _ => {
                let view = render(&m, &seats, None, &self.base, None)?;
                let mut f = Vec::with_capacity(view.len() + 32);
                f.extend_from_slice(format!("id: {}\nevent: sync\ndata: ", m.version).as_bytes());
                f.extend_from_slice(&view);
                f.extend_from_slice(b"\n\n");
                self.ready.push_back(Bytes::from(f));
                self.last = Some(m.version);
            }
        }
        Ok(())
    }

    /// [`Watch::catch_up`] once the stream is open: a failure is logged and
    /// the next wake-up or keep-alive tries again.
    async fn catch_up_quietly(&mut self) {
        if let Err(e) = self.catch_up().await {
            tracing::warn!(match_id = %self.id, error = %e, "a live stream could not read its match");
        }
    }
}

/// One event as an SSE frame.
fn frame(e: &MatchEvent, game: GameKind, base: &str) -> Result<Bytes, MatchError> {
    let view = EventView {
        kind: e.kind.as_str(),
        version: e.version.get(),
        seat: e.seat.map(|s| s.as_str()),
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
    };
    let data = serde_json::to_string(&view).map_err(MatchError::Render)?;
    Ok(Bytes::from(format!(
        "id: {}\nevent: {}\ndata: {data}\n\n",
        e.version,
        e.kind.as_str()
    )))
}
