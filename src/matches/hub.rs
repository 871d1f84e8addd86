//! How streams learn that a match changed: a broadcast of `(match, version)`
//! inside the process. On SQLite (one instance) a write publishes it after
//! its commit. On PostgreSQL a write hands it, after its commit, to this
//! instance's announcer, which sends what has queued up as `NOTIFY`s on the
//! `qipan_match` channel from its own connection — in batches, and off the
//! writers' commits, since PostgreSQL serializes the commits of notifying
//! transactions — and each instance's listener publishes what it hears, so
//! a stream on one instance sees a move made on another. The message is
//! only a wake-up: a stream reads the events it has not sent from the
//! database, so a lost or late message costs a delay (at most a
//! keep-alive period), never an event.

use std::time::Duration;

use sqlx::{Connection, PgConnection};
use tokio::sync::{broadcast, mpsc};

use super::{MatchId, Version};
use crate::storage::matches::CHANNEL;

/// How many wake-ups a slow stream may fall behind before it is told it
/// lagged (it then reads the database anyway).
const BACKLOG: usize = 1024;

/// How many announcements may wait for the announcer; past that they are
/// dropped (streams catch up at their next keep-alive).
const QUEUE: usize = 4096;

/// The in-process broadcast of match changes, and (PostgreSQL) the queue of
/// changes to announce to every instance.
#[derive(Debug, Clone)]
pub struct Hub {
    tx: broadcast::Sender<(MatchId, Version)>,
    announce: Option<mpsc::Sender<(MatchId, Version)>>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            tx: broadcast::channel(BACKLOG).0,
            announce: None,
        }
    }
}

impl Hub {
    /// Tells every stream that `id` is now at `version`: in this process,
    /// or through PostgreSQL when [`Hub::listen`] runs.
    pub fn publish(&self, id: MatchId, version: Version) {
        match &self.announce {
            Some(queue) => {
                if queue.try_send((id, version)).is_err() {
                    tracing::warn!(match_id = %id, "the announcement queue is full; streams catch up at their next keep-alive");
                }
            }
            // No stream listening is not an error.
            None => {
                let _ = self.tx.send((id, version));
            }
        }
    }

    /// A receiver of every change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<(MatchId, Version)> {
        self.tx.subscribe()
    }

    /// Listens on PostgreSQL's `qipan_match` channel and publishes what it
    /// hears, and starts the announcer that sends this instance's changes
    /// there, until the process ends. Both reconnect by themselves when
    /// their connection drops; what was announced meanwhile reaches streams
    /// at their next periodic look at the database.
    ///
    /// # Errors
    ///
    /// When the first connection or `LISTEN` fails.
    pub async fn listen(&mut self, url: &str) -> anyhow::Result<()> {
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen(CHANNEL).await?;
        let (queue, pending) = mpsc::channel(QUEUE);
        tokio::spawn(announce(url.to_owned(), pending));
        self.announce = Some(queue);
        let hub = Hub {
            tx: self.tx.clone(),
            announce: None,
        };
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(n) => {
                        let parsed = n.payload().split_once(':').and_then(|(id, v)| {
                            Some((id.parse::<MatchId>().ok()?, v.parse::<Version>().ok()?))
                        });
                        match parsed {
                            Some((id, version)) => {
                                let _ = hub.tx.send((id, version));
                            }
                            None => tracing::warn!(
                                payload = n.payload(),
                                "a notification that names no match"
                            ),
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for match changes");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        });
        Ok(())
    }
}

/// Sends queued changes as `NOTIFY`s, as many as have queued up in one
/// statement, from one connection.
async fn announce(url: String, mut pending: mpsc::Receiver<(MatchId, Version)>) {
    let mut conn: Option<PgConnection> = None;
    while let Some(first) = pending.recv().await {
        let mut payloads = vec![format!("{}:{}", first.0, first.1)];
        while payloads.len() < 512 {
            match pending.try_recv() {
                Ok((id, version)) => payloads.push(format!("{id}:{version}")),
                Err(_) => break,
            }
        }
        if conn.is_none() {
            match PgConnection::connect(&url).await {
                Ok(c) => conn = Some(c),
                Err(e) => {
                    tracing::warn!(error = %e, "announcing match changes: cannot connect");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            }
        }
        if let Some(c) = conn.as_mut() {
            let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
                .bind(CHANNEL)
                .bind(&payloads)
                .execute(&mut *c)
                .await;
            if let Err(e) = sent {
                tracing::warn!(error = %e, "announcing match changes");
                conn = None;
            }
        }
    }
}
