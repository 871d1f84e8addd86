//! How streams learn that something changed: [`Signal`]s (a match write, a
//! seat's presence, the lobby) broadcast inside the process, on one channel
//! per watched match and one for the lobby, so a write wakes only the
//! streams of its own match. On SQLite (one instance) a write publishes it after
//! its commit. On PostgreSQL a write hands it, after its commit, to this
//! instance's announcer, which sends what has queued up as `NOTIFY`s on the
//! `qipan_match` channel from its own connection — in batches, and off the
//! writers' commits, since PostgreSQL serializes the commits of notifying
//! transactions — and each instance's listener publishes what it hears, so
//! a stream on one instance sees a move made on another. The message is
//! only a wake-up: a stream reads the events it has not sent from the
//! database, so a lost or late message costs a delay (at most a
//! keep-alive period), never an event.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::{Connection, PgConnection};
use tokio::sync::{broadcast, mpsc};

use super::{MatchId, Version};
use crate::storage::matches::CHANNEL;

/// What changed. Each is only a wake-up: streams read what they send from
/// the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// A write brought the match to this version (payload `<id>:<version>`).
    Match(MatchId, Version),
    /// A seat of the match came online or went offline (payload `p:<id>`).
    Presence(MatchId),
    /// A seek was opened, taken or closed (payload `lobby`).
    Lobby,
}

impl Signal {
    /// Its `NOTIFY` payload.
    fn payload(self) -> String {
        match self {
            Signal::Match(id, version) => format!("{id}:{version}"),
            Signal::Presence(id) => format!("p:{id}"),
            Signal::Lobby => "lobby".to_owned(),
        }
    }

    /// The signal a payload carries.
    fn parse(payload: &str) -> Option<Signal> {
        if payload == "lobby" {
            return Some(Signal::Lobby);
        }
        if let Some(id) = payload.strip_prefix("p:") {
            return id.parse().ok().map(Signal::Presence);
        }
        let (id, v) = payload.split_once(':')?;
        Some(Signal::Match(id.parse().ok()?, v.parse().ok()?))
    }
}

/// How many wake-ups a slow stream may fall behind before it is told it
/// lagged (it then reads the database anyway).
const BACKLOG: usize = 64;

/// Every how many subscriptions the channels of matches nobody watches
/// any more are dropped.
const PRUNE: u64 = 1024;

/// How many announcements may wait for the announcer; past that they are
/// dropped (streams catch up at their next keep-alive).
const QUEUE: usize = 4096;

/// The in-process channels, and (PostgreSQL) the queue of signals to
/// announce to every instance.
#[derive(Debug, Clone)]
pub struct Hub {
    channels: Arc<Channels>,
    announce: Option<mpsc::Sender<Signal>>,
}

/// One broadcast channel per watched match, and the lobby's.
#[derive(Debug)]
struct Channels {
    matches: Mutex<Watched>,
    lobby: broadcast::Sender<Signal>,
}

#[derive(Debug, Default)]
struct Watched {
    channels: HashMap<MatchId, broadcast::Sender<Signal>>,
    subscriptions: u64,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            channels: Arc::new(Channels {
                matches: Mutex::new(Watched::default()),
                lobby: broadcast::channel(BACKLOG).0,
            }),
            announce: None,
        }
    }
}

impl Hub {
    /// Tells the streams concerned of `signal`: in this process, or
    /// through PostgreSQL when [`Hub::listen`] runs.
    pub fn publish(&self, signal: Signal) {
        match &self.announce {
            Some(queue) => {
                if queue.try_send(signal).is_err() {
                    tracing::warn!(
                        ?signal,
                        "the announcement queue is full; streams catch up at their next keep-alive"
                    );
                }
            }
            None => self.deliver(signal),
        }
    }

    /// Hands a signal to this process's streams of its match (or the
    /// lobby's). No stream listening is not an error.
    fn deliver(&self, signal: Signal) {
        match signal {
            Signal::Match(id, _) | Signal::Presence(id) => {
                let mut watched = self
                    .channels
                    .matches
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if let Some(tx) = watched.channels.get(&id) {
                    if tx.send(signal).is_err() {
                        watched.channels.remove(&id);
                    }
                }
            }
            Signal::Lobby => {
                let _ = self.channels.lobby.send(signal);
            }
        }
    }

    /// A receiver of every signal about match `id` from now on.
    pub fn subscribe(&self, id: MatchId) -> broadcast::Receiver<Signal> {
        let mut watched = self
            .channels
            .matches
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        watched.subscriptions += 1;
        if watched.subscriptions.is_multiple_of(PRUNE) {
            watched.channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        watched
            .channels
            .entry(id)
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// A receiver of the lobby's signals from now on.
    pub fn subscribe_lobby(&self) -> broadcast::Receiver<Signal> {
        self.channels.lobby.subscribe()
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
            channels: self.channels.clone(),
            announce: None,
        };
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(n) => match Signal::parse(n.payload()) {
                        Some(signal) => hub.deliver(signal),
                        None => tracing::warn!(
                            payload = n.payload(),
                            "a notification that is not a qipan signal"
                        ),
                    },
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
async fn announce(url: String, mut pending: mpsc::Receiver<Signal>) {
    let mut conn: Option<PgConnection> = None;
    while let Some(first) = pending.recv().await {
        let mut payloads = vec![first.payload()];
        while payloads.len() < 512 {
            match pending.try_recv() {
                Ok(signal) => payloads.push(signal.payload()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_round_trip_through_their_payloads() {
        let id: MatchId = "1bd60e27-c383-4edc-8f73-622531a147e5".parse().unwrap();
        for signal in [
            Signal::Match(id, Version::new(7)),
            Signal::Presence(id),
            Signal::Lobby,
        ] {
            assert_eq!(Signal::parse(&signal.payload()), Some(signal));
        }
        for junk in [
            "",
            "p:",
            "p:x",
            "7",
            "x:7",
            "1bd60e27-c383-4edc-8f73-622531a147e5:x",
        ] {
            assert_eq!(Signal::parse(junk), None, "{junk:?}");
        }
    }

    #[tokio::test]
    async fn a_write_wakes_only_its_own_match() {
        let hub = Hub::default();
        let a: MatchId = "1bd60e27-c383-4edc-8f73-622531a147e5".parse().unwrap();
        let b: MatchId = "0b8e5c3e-9c2d-4e8f-a1b2-3c4d5e6f7a8b".parse().unwrap();
        let mut on_a = hub.subscribe(a);
        let mut lobby = hub.subscribe_lobby();
        hub.publish(Signal::Match(b, Version::new(2)));
        hub.publish(Signal::Presence(a));
        hub.publish(Signal::Lobby);
        assert_eq!(on_a.try_recv().ok(), Some(Signal::Presence(a)));
        assert!(on_a.try_recv().is_err(), "b's write is not a's");
        assert_eq!(lobby.try_recv().ok(), Some(Signal::Lobby));
    }
}
