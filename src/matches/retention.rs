//! Match retention: the service deletes matches it keeps no longer, by two
//! rules, each configurable and each with an off switch:
//!
//! - a match in which nothing happened for `--retain-idle` (30 days by
//!   default) is deleted, whatever its status: it was abandoned;
//! - a finished match (won, drawn, over, resigned) is deleted
//!   `--retain-finished` (7 days by default) after it ended.
//!
//! Every instance sweeps once a minute, in short transactions of at most
//! about [`ROWS`] rows each, so moves are never held up for long. A fork of
//! a deleted match lives on, without its parent link, and keeps reading
//! the deleted match's moves (which stay until no fork reads them).

use std::time::Duration;

use std::time::Instant;

use super::Timestamp;
pub use crate::configuration::{Keep, Retention};
pub use crate::storage::retention::ROWS;
use crate::storage::retention::{self as store, Step};
use crate::storage::{Database, StorageError};

/// Matches read per round (and deleted per transaction at most).
pub const BATCH: i64 = 100;

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Report {
    /// Matches deleted.
    pub deleted: u64,
    /// Transactions that wrote something.
    pub transactions: u64,
    /// The most rows one of them wrote or deleted.
    pub most_rows: u64,
    /// Rows written or deleted in all.
    pub rows: u64,
    /// The longest of them, connection held.
    pub longest: Duration,
}

impl Report {
    /// Counts one transaction that took `took`.
    fn count(&mut self, step: Step, took: Duration) {
        if step.rows > 0 || step.matches > 0 {
            self.transactions += 1;
            self.deleted += step.matches;
            self.rows += step.rows;
            self.most_rows = self.most_rows.max(step.rows);
            self.longest = self.longest.max(took);
        }
    }
}

/// Runs one retention transaction on a connection of its own, counts it in
/// `$report`, then lets the writes waiting for the connection go first.
macro_rules! step {
    ($report:expr, $db:expr, |$conn:ident| $call:expr) => {{
        let mut $conn = $db.acquire().await?;
        let started = Instant::now();
        let step = $call.await?;
        let took = started.elapsed();
        drop($conn);
        $report.count(step, took);
        tokio::task::yield_now().await;
        step
    }};
}

/// `found` split into runs whose deletion costs at most [`ROWS`] rows each
/// (one match at least), with their costs.
fn groups(found: &[(String, i64)]) -> Vec<(Vec<String>, i64)> {
    let mut out: Vec<(Vec<String>, i64)> = Vec::new();
    for (id, cost) in found {
        match out.last_mut() {
            Some((ids, sum)) if *sum + cost <= ROWS => {
                ids.push(id.clone());
                *sum += cost;
            }
            _ => out.push((vec![id.clone()], *cost)),
        }
    }
    out
}

impl Retention {
    /// Deletes, batch by batch, every match the rules no longer keep at
    /// `now`. Returns how many went.
    ///
    /// # Errors
    ///
    /// [`StorageError`]; batches deleted before it stay deleted.
    pub async fn sweep(&self, db: &Database, now: Timestamp) -> Result<u64, StorageError> {
        Ok(self.sweep_report(db, now).await?.deleted)
    }

    /// [`Retention::sweep`], saying how it went: each transaction (taking
    /// forks' parent links off, deleting matches, deleting moves no one
    /// reads) writes at most about [`ROWS`] rows, and the sweep lets other
    /// writes in between.
    ///
    /// # Errors
    ///
    /// [`StorageError`]; what was done before it stays done.
    pub async fn sweep_report(
        &self,
        db: &Database,
        now: Timestamp,
    ) -> Result<Report, StorageError> {
        let idle = self.idle.0.map(|d| now.minus(d));
        let finished = self.finished.0.map(|d| now.minus(d));
        let mut report = Report::default();
        loop {
            let found = {
                let mut conn = db.acquire().await?;
                store::expired(&mut conn, idle, finished, BATCH).await?
            };
            if found.is_empty() {
                break;
            }
            let ids: Vec<String> = found.iter().map(|(id, _)| id.clone()).collect();
            // Their forks lose their parent links first, a batch at a time.
            loop {
                let step = step!(report, db, |conn| store::unlink_forks(
                    &mut conn, &ids, idle, finished
                ));
                if step.rows == 0 {
                    break;
                }
            }
            for (group, cost) in groups(&found) {
                step!(report, db, |conn| store::delete(
                    &mut conn, &group, cost, idle, finished, now
                ));
            }
            if found.len() < BATCH as usize {
                break;
            }
        }
        // The moves of deleted matches that no fork reads.
        while step!(report, db, |conn| store::collect(&mut conn)).rows > 0 {}
        Ok(report)
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
