//! Match retention: the service deletes matches it keeps no longer, by two
//! rules, each configurable and each with an off switch:
//!
//! - a match in which nothing happened for `--retain-idle` (30 days by
//!   default) is deleted, whatever its status: it was abandoned;
//! - a finished match (won, drawn, over, resigned) is deleted
//!   `--retain-finished` (7 days by default) after it ended.
//!
//! Every instance sweeps once a minute, in batches of [`BATCH`] matches,
//! each batch its own short transaction, so moves are never held up for
//! long. A fork of a deleted match lives on, without its parent link.

use std::str::FromStr;
use std::time::Duration;

use super::Timestamp;
use crate::storage::{Database, StorageError};

/// Matches deleted per transaction.
pub const BATCH: i64 = 100;

/// How long a kind of match is kept: a duration, or `off` for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep(pub Option<Duration>);

impl FromStr for Keep {
    type Err = humantime::DurationError;

    fn from_str(s: &str) -> Result<Keep, Self::Err> {
        if s.trim().eq_ignore_ascii_case("off") {
            return Ok(Keep(None));
        }
        humantime::parse_duration(s).map(|d| Keep(Some(d)))
    }
}

/// The retention rules and how often they are applied.
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    /// Matches with no change for this long go.
    pub idle: Keep,
    /// Finished matches go this long after their last change.
    pub finished: Keep,
    /// How often each instance sweeps.
    pub every: Duration,
}

impl Retention {
    /// Whether any rule is on.
    pub fn is_on(&self) -> bool {
        self.idle.0.is_some() || self.finished.0.is_some()
    }

    /// Deletes, batch by batch, every match the rules no longer keep at
    /// `now`. Returns how many went.
    ///
    /// # Errors
    ///
    /// [`StorageError`]; batches deleted before it stay deleted.
    pub async fn sweep(&self, db: &Database, now: Timestamp) -> Result<u64, StorageError> {
        let idle = self.idle.0.map(|d| now.minus(d));
        let finished = self.finished.0.map(|d| now.minus(d));
        let mut total = 0;
        loop {
            let mut conn = db.acquire().await?;
            let deleted =
                crate::storage::retention::delete_expired(&mut conn, idle, finished, BATCH).await?;
            drop(conn);
            total += deleted;
            if deleted < BATCH as u64 {
                return Ok(total);
            }
            // Let the moves waiting for the connection go first.
            tokio::task::yield_now().await;
        }
    }

    /// Sweeps every [`Retention::every`] in the background, when a rule is
    /// on.
    pub fn start(self, db: Database) {
        if !self.is_on() {
            return;
        }
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(self.every);
            loop {
                tick.tick().await;
                match self.sweep(&db, Timestamp::now()).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "retention: matches deleted"),
                    Err(e) => tracing::warn!(error = %e, "retention sweep"),
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_reads_a_duration_or_off() {
        assert_eq!("off".parse::<Keep>().unwrap(), Keep(None));
        assert_eq!("OFF".parse::<Keep>().unwrap(), Keep(None));
        assert_eq!(
            "7d".parse::<Keep>().unwrap(),
            Keep(Some(Duration::from_secs(7 * 86_400)))
        );
        assert!("seven days".parse::<Keep>().is_err());
    }
}
