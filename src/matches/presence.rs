//! Who is connected: a seat is online while at least one stream
//! authenticated as it is open, on any instance. Each instance counts its
//! own streams per seat and keeps one `seat_presence` row per seat it holds;
//! the row goes when the last stream has been closed for the grace period
//! (a page reload reconnects well within it, so the seat does not flap).
//! Rows carry `seen_at`, refreshed every [`REFRESH`] while the instance
//! runs: the rows of an instance that died (killed, its machine gone)
//! stop counting after [`STALE`], and the next refresh of any instance
//! still running announces the seats that went, so their streams send
//! `presence` events: a seat held only by a dead instance shows offline
//! within `STALE` + `REFRESH`, 20 s.
//!
//! Every change of a seat's presence is announced as
//! [`Signal::Presence`]; streams then read the seats and send `presence`
//! events for what changed.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;

use super::hub::{Hub, Signal};
use super::{MatchId, Seat, Timestamp};
use crate::storage::{Database, StorageError};

/// How old a row may be before it no longer counts: three refreshes
/// missed.
pub const STALE: Duration = Duration::from_secs(15);

/// How often an instance refreshes its rows.
pub const REFRESH: Duration = Duration::from_secs(5);

/// The presence of this instance's streams.
#[derive(Debug, Clone)]
pub struct Presence {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: Database,
    hub: Hub,
    instance: String,
    grace: Duration,
    seats: Mutex<Tally<(MatchId, Seat)>>,
}

/// This instance's open streams of each thing streams hold (a seat, a
/// seek), and when the last of each closed.
#[derive(Debug)]
pub struct Tally<K> {
    counts: HashMap<K, Local>,
}

/// This instance's streams of one thing.
#[derive(Debug, Default)]
struct Local {
    streams: usize,
    /// Bumped when the count falls to zero, so that only the latest
    /// departure's grace period may end the hold.
    departures: u64,
}

impl<K: Hash + Eq + Copy> Default for Tally<K> {
    fn default() -> Tally<K> {
        Tally {
            counts: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Copy> Tally<K> {
    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Counts a stream of `key`; `true` when it is the only one.
    pub fn arrive(&mut self, key: K) -> bool {
        let local = self.counts.entry(key).or_default();
        local.streams += 1;
        local.streams == 1
    }

    /// Uncounts a stream of `key`; when it was the last, the departure to
    /// pass to [`Tally::gone`] after the grace period.
    pub fn leave(&mut self, key: K) -> Option<u64> {
        let local = self.counts.get_mut(&key)?;
        local.streams = local.streams.saturating_sub(1);
        if local.streams > 0 {
            return None;
        }
        local.departures += 1;
        Some(local.departures)
    }

    /// Whether no stream of `key` came back since `departure` (the key is
    /// then forgotten).
    pub fn gone(&mut self, key: K, departure: u64) -> bool {
        match self.counts.get(&key) {
            Some(local) if local.streams == 0 && local.departures == departure => {
                self.counts.remove(&key);
                true
            }
            _ => false,
        }
    }
}

/// An open stream's hold on its seat's presence: dropping it releases it.
#[derive(Debug)]
pub struct Held {
    presence: Presence,
    key: (MatchId, Seat),
}

impl Drop for Held {
    fn drop(&mut self) {
        // Outside a runtime (the process is ending) the row goes stale by
        // itself.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let presence = self.presence.clone();
            let key = self.key;
            runtime.spawn(async move { presence.release(key).await });
        }
    }
}

impl Inner {
    /// Refreshes this instance's rows and drops long-dead ones; only what
    /// there is to write is written (a write waits for SQLite's lock).
    async fn refresh(&self) -> Result<(), StorageError> {
        let now = Timestamp::now();
        if !self.seats.lock().await.is_empty() {
            sqlx::query("UPDATE seat_presence SET seen_at = $1 WHERE instance = $2")
                .bind(now.millis())
                .bind(&self.instance)
                .execute(self.db.pool())
                .await?;
        }
        // Rows that went stale since the last refresh: the seats of an
        // instance that died. Their streams are told.
        let went: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT match_id FROM seat_presence WHERE seen_at < $1 AND seen_at >= $2",
        )
        .bind(now.minus(STALE).millis())
        .bind(now.minus(STALE + REFRESH).millis())
        .fetch_all(self.db.pool())
        .await?;
        for id in went.iter().filter_map(|id| id.parse::<MatchId>().ok()) {
            self.hub.publish(Signal::Presence(id));
        }
        let dead = now.minus(10 * STALE).millis();
        let old: i64 = sqlx::query_scalar("SELECT count(*) FROM seat_presence WHERE seen_at < $1")
            .bind(dead)
            .fetch_one(self.db.pool())
            .await?;
        if old > 0 {
            sqlx::query("DELETE FROM seat_presence WHERE seen_at < $1")
                .bind(dead)
                .execute(self.db.pool())
                .await?;
        }
        Ok(())
    }
}

impl Presence {
    /// Presence over a database, announcing changes on `hub`.
    pub fn new(db: Database, hub: Hub, grace: Duration) -> Presence {
        Presence {
            inner: Arc::new(Inner {
                db,
                hub,
                instance: uuid::Uuid::new_v4().to_string(),
                grace,
                seats: Mutex::new(Tally::default()),
            }),
        }
    }

    /// Starts refreshing this instance's rows. On SQLite, the only
    /// instance, the rows of an earlier run are dropped first.
    ///
    /// # Errors
    ///
    /// When the earlier rows cannot be dropped.
    pub async fn start(&self) -> Result<(), StorageError> {
        if !self.inner.db.is_shared() {
            sqlx::query("DELETE FROM seat_presence")
                .execute(self.inner.db.pool())
                .await?;
        }
        let inner = self.inner.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(REFRESH);
            loop {
                tick.tick().await;
                if let Err(e) = inner.refresh().await {
                    tracing::warn!(error = %e, "refreshing seat presence");
                }
            }
        });
        Ok(())
    }

    /// Counts a stream of `seat`; the seat comes online if it was not.
    ///
    /// # Errors
    ///
    /// When the row cannot be written (the stream is then refused).
    pub async fn hold(&self, id: MatchId, seat: Seat) -> Result<Held, StorageError> {
        let key = (id, seat);
        let mut seats = self.inner.seats.lock().await;
        let first = seats.arrive(key);
        let held = Held {
            presence: self.clone(),
            key,
        };
        if first {
            // Written again after a grace period too: cheap, and it heals a
            // row swept meanwhile.
            sqlx::query(
                "INSERT INTO seat_presence (match_id, seat, instance, seen_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (match_id, seat, instance) DO UPDATE SET seen_at = excluded.seen_at",
            )
            .bind(id.to_string())
            .bind(seat.as_str())
            .bind(&self.inner.instance)
            .bind(Timestamp::now().millis())
            .execute(self.inner.db.pool())
            .await?;
            self.inner.hub.publish(Signal::Presence(id));
        }
        Ok(held)
    }

    /// Uncounts a stream; after the grace period without another, the seat
    /// goes offline.
    async fn release(&self, key: (MatchId, Seat)) {
        let Some(departure) = self.inner.seats.lock().await.leave(key) else {
            return;
        };
        tokio::time::sleep(self.inner.grace).await;
        let mut seats = self.inner.seats.lock().await;
        if !seats.gone(key, departure) {
            return;
        }
        let gone = sqlx::query(
            "DELETE FROM seat_presence WHERE match_id = $1 AND seat = $2 AND instance = $3",
        )
        .bind(key.0.to_string())
        .bind(key.1.as_str())
        .bind(&self.inner.instance)
        .execute(self.inner.db.pool())
        .await;
        drop(seats);
        if let Err(e) = gone {
            tracing::warn!(match_id = %key.0, error = %e, "a seat could not go offline; its row goes stale in a minute");
            return;
        }
        // The moment the seat went, kept before anyone hears of it: an
        // abandonment claim counts from it. Written even when another
        // instance still holds the seat (it is then online, and no claim is
        // made); that one's own departure writes a later time.
        let left = sqlx::query("UPDATE seats SET left_at = $1 WHERE match_id = $2 AND seat = $3")
            .bind(Timestamp::now().millis())
            .bind(key.0.to_string())
            .bind(key.1.as_str())
            .execute(self.inner.db.pool())
            .await;
        if let Err(e) = left {
            tracing::warn!(match_id = %key.0, error = %e, "when a seat went offline was not kept; a claim counts from its last move");
        }
        self.inner.hub.publish(Signal::Presence(key.0));
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn only_the_last_departure_ends_a_hold() {
        let mut t = Tally::default();
        assert!(t.arrive('a'));
        assert!(!t.arrive('a'), "a second stream is not an arrival");
        assert_eq!(t.leave('a'), None, "one stream is still open");
        let first = t.leave('a').expect("the last stream left");
        // Back within the grace period, and gone again: only the later
        // departure may end the hold.
        assert!(t.arrive('a'));
        let second = t.leave('a').expect("left again");
        assert!(!t.gone('a', first));
        assert!(t.gone('a', second));
        assert!(t.is_empty());
        assert_eq!(t.leave('b'), None, "never held");
    }
}
