//! The lobby's live feeds: a seeker's own feed, which holds its seek open
//! while it is read, and the list of open seeks as it changes.

#[allow(clippy::wildcard_imports)]
use super::*;

/// How long a seeker stream's hold lasts: [`ATTACH`], or three keep-alive
/// periods when those are longer.
pub(super) fn hold_for(keep_alive: Duration) -> Duration {
    ATTACH.max(keep_alive * 3)
}

/// The seeker's stream: `seek` first, then `matched` (and the end) when the
/// seek is taken, or `closed` (and the end) when it closes otherwise.
pub struct SeekFeed {
    pub(super) matches: Matches,
    pub(super) id: SeekId,
    pub(super) base: String,
    pub(super) changes: Receiver<Signal>,
    pub(super) tick: tokio::time::Interval,
    pub(super) ready: VecDeque<Item>,
    pub(super) done: bool,
    pub(super) _held: SeekHeld,
    /// Counted among the open streams while it lives.
    pub(super) _open: crate::metrics::OpenStream,
}

impl Live for SeekFeed {
    /// The next item; `None` once the seek has closed and that was told.
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            tokio::select! {
                change = self.changes.recv() => match change {
                    Ok(Signal::Lobby) | Err(RecvError::Lagged(_)) => Box::pin(self.look()).await,
                    Ok(_) => {}
                    Err(RecvError::Closed) => return None,
                },
                _ = self.tick.tick() => {
                    Box::pin(self.look()).await;
                    if self.ready.is_empty() && !self.done {
                        let until = Timestamp::now().plus(hold_for(self.matches.live.keep_alive));
                        if let Ok(mut conn) = self.matches.db.acquire().await {
                            if let Err(e) = store::hold(&mut conn, self.id, until).await {
                                tracing::warn!(seek = %self.id, error = %e, "renewing a seek's hold");
                            }
                        }
                        self.ready.push_back(Item::KeepAlive);
                    }
                }
            }
        }
    }
}

impl SeekFeed {
    /// Reads the seek; queues `matched` or `closed` when it has closed.
    async fn look(&mut self) {
        let seek = match self.matches.db.acquire().await {
            Ok(mut conn) => store::load(&mut conn, self.id).await,
            Err(e) => Err(e),
        };
        let seek = match seek {
            Ok(Some(seek)) => seek,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(seek = %self.id, error = %e, "a seeker stream could not read its seek");
                return;
            }
        };
        let frame = match (seek.state_at(Timestamp::now()), seek.taken) {
            (SeekState::Open, _) => return,
            (SeekState::Taken, Some((id, seat))) => {
                let url = match_url(&self.base, id);
                serde_json::to_vec(&MatchedView {
                    id: id.to_string(),
                    seat: seat.as_str(),
                    events_url: format!("{url}/events"),
                    ws_url: format!("{url}/ws"),
                    url,
                })
                .map(|data| Frame::new("matched", None, data))
            }
            (state, _) => serde_json::to_vec(&SeekClosedView {
                id: seek.id.to_string(),
                state: state.as_str(),
            })
            .map(|data| Frame::new("closed", None, data)),
        };
        match frame {
            Ok(frame) => self.ready.push_back(Item::Frame(Arc::new(frame))),
            Err(e) => tracing::error!(error = %e, "a seek event failed to serialize"),
        }
        self.done = true;
    }
}

/// The lobby's stream: `sync` with the open seeks, then `seek` for each that
/// opens and `seek-gone` for each that closes.
pub struct LobbyFeed {
    pub(super) matches: Matches,
    pub(super) base: String,
    /// The seeks the client was told are open.
    pub(super) listed: Vec<SeekId>,
    pub(super) changes: Receiver<Signal>,
    pub(super) tick: tokio::time::Interval,
    pub(super) ready: VecDeque<Item>,
    /// Counted among the open streams while it lives.
    pub(super) _open: crate::metrics::OpenStream,
}

impl Live for LobbyFeed {
    /// The next item; `None` once the service is shutting down.
    async fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            tokio::select! {
                change = self.changes.recv() => match change {
                    Ok(Signal::Lobby) | Err(RecvError::Lagged(_)) => Box::pin(self.look_quietly()).await,
                    Ok(_) => {}
                    Err(RecvError::Closed) => return None,
                },
                _ = self.tick.tick() => {
                    Box::pin(self.look_quietly()).await;
                    if self.ready.is_empty() {
                        self.ready.push_back(Item::KeepAlive);
                    }
                }
            }
        }
    }
}

impl LobbyFeed {
    async fn look_quietly(&mut self) {
        if let Err(e) = self.look().await {
            tracing::warn!(error = %e, "a lobby stream could not read the lobby");
        }
    }

    /// Queues the seeks that opened and closed since the client was last
    /// told.
    async fn look(&mut self) -> Result<(), MatchError> {
        let mut conn = self.matches.db.acquire().await?;
        let now = Timestamp::now();
        let open = store::open(&mut conn, now).await?;
        for id in self.listed.clone() {
            if open.iter().any(|s| s.id == id) {
                continue;
            }
            let state = store::load(&mut conn, id)
                .await?
                .map_or(SeekState::Expired, |s| s.state_at(now));
            let data = serde_json::to_vec(&SeekClosedView {
                id: id.to_string(),
                state: state.as_str(),
            })
            .map_err(MatchError::Render)?;
            self.ready
                .push_back(Item::Frame(Arc::new(Frame::new("seek-gone", None, data))));
        }
        for seek in open.iter().filter(|s| !self.listed.contains(&s.id)) {
            let data = serde_json::to_vec(&seek.view(&self.base)).map_err(MatchError::Render)?;
            self.ready
                .push_back(Item::Frame(Arc::new(Frame::new("seek", None, data))));
        }
        self.listed = open.iter().map(|s| s.id).collect();
        Ok(())
    }
}
