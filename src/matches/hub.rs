//! How streams learn that a match changed: a broadcast of `(match, version)`
//! inside the process. On SQLite (one instance) a write publishes it after
//! its commit; on PostgreSQL every write notifies the `qipan_match` channel
//! in its transaction and each instance's listener publishes what it hears,
//! so a stream on one instance sees a move made on another. The message is
//! only a wake-up: a stream reads the events it has not sent from the
//! database, so a lost or late message costs a delay, never an event.

use std::time::Duration;

use tokio::sync::broadcast;

use super::{MatchId, Version};
use crate::storage::matches::CHANNEL;

/// How many wake-ups a slow stream may fall behind before it is told it
/// lagged (it then reads the database anyway).
const BACKLOG: usize = 1024;

/// The in-process broadcast of match changes.
#[derive(Debug, Clone)]
pub struct Hub {
    tx: broadcast::Sender<(MatchId, Version)>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            tx: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Hub {
    /// Tells every stream that `id` is now at `version`.
    pub fn publish(&self, id: MatchId, version: Version) {
        // No stream listening is not an error.
        let _ = self.tx.send((id, version));
    }

    /// A receiver of every change from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<(MatchId, Version)> {
        self.tx.subscribe()
    }

    /// Listens on PostgreSQL's `qipan_match` channel and publishes what it
    /// hears, until the process ends. The listener reconnects by itself
    /// when its connection drops; what was notified meanwhile reaches
    /// streams at their next periodic look at the database.
    ///
    /// # Errors
    ///
    /// When the first connection or `LISTEN` fails.
    pub async fn listen(&self, url: &str) -> anyhow::Result<()> {
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen(CHANNEL).await?;
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(n) => {
                        let parsed = n.payload().split_once(':').and_then(|(id, v)| {
                            Some((id.parse::<MatchId>().ok()?, v.parse::<Version>().ok()?))
                        });
                        match parsed {
                            Some((id, version)) => hub.publish(id, version),
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
