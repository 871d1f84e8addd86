//! How strongly the computer plays, from 1 (a beginner can win) to 10 (full
//! strength).
//!
//! Each game's module turns a level into its own search limits and its own
//! way of playing below its best (a shallower search, a random choice among
//! the moves near the best); this type only names the scale.

use std::fmt;
use std::str::FromStr;

/// A playing level, 1 to 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A number outside 1..=10, or a text that is no number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a level is a whole number from 1 to 10, not {0:?}")]
pub struct LevelError(pub String);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(10);

    /// The level `n`.
    ///
    /// # Errors
    ///
    /// [`LevelError`] when `n` is outside 1..=10.
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (1..=10).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }

    /// The level as a number, 1 to 10.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Whether this is full strength (no deliberate weakening).
    pub fn is_max(self) -> bool {
        self == Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.parse::<u8>()
            .ok()
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| LevelError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_and_refuse_what_is_out_of_range() {
        for n in 1..=10u8 {
            let l: Level = n.to_string().parse().unwrap();
            assert_eq!(l.get(), n);
            assert_eq!(l.to_string(), n.to_string());
        }
        for bad in ["0", "11", "-1", "", "x", "1.5"] {
            assert_eq!(bad.parse::<Level>(), Err(LevelError(bad.to_owned())));
        }
        assert!(Level::MAX.is_max());
        assert!(!Level::MIN.is_max());
    }
}
