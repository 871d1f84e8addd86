//! Moments, as the database keeps them.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A moment, in milliseconds since the Unix epoch (what the database keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Timestamp(i64);

impl Timestamp {
    /// Now, by the system clock.
    pub fn now() -> Timestamp {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Timestamp(ms)
    }

    /// The moment `ms` milliseconds after the epoch; `None` before it (no
    /// match was played then).
    pub fn from_millis(ms: i64) -> Option<Timestamp> {
        (ms >= 0).then_some(Timestamp(ms))
    }

    /// Milliseconds since the epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// The moment `d` later.
    pub fn plus(self, d: Duration) -> Timestamp {
        Timestamp(self.0.saturating_add(millis_of(d)))
    }

    /// The moment `d` earlier (the epoch at the earliest).
    pub fn minus(self, d: Duration) -> Timestamp {
        Timestamp(self.0.saturating_sub(millis_of(d)).max(0))
    }

    /// RFC 3339 with milliseconds, in UTC.
    pub fn rfc3339(self) -> String {
        let ms = u64::try_from(self.0)
            .expect("a timestamp is never before the epoch: checked when made");
        let t = UNIX_EPOCH + Duration::from_millis(ms);
        humantime::format_rfc3339_millis(t).to_string()
    }
}

fn millis_of(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}
