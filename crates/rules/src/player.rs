//! Who acts: the [`Player`] trait every game's side or seat type implements,
//! and [`Solo`], the one player of the one-player games.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

/// A side or seat of a game: red/black, black/white, 1/2, or the one player.
///
/// `Display` writes [`Player::as_str`] and `FromStr` reads it back, so a
/// player's name round-trips through URLs and stored matches.
pub trait Player: Copy + Eq + Hash + fmt::Debug + fmt::Display + FromStr + 'static {
    /// Every player of the game, in turn order (the first moves first).
    const ALL: &'static [Self];

    /// The player's stable name (`red`, `white`, `2`, `player`).
    fn as_str(self) -> &'static str;

    /// The other player of a two-player game; `None` when there is only one.
    fn opponent(self) -> Option<Self>;
}

/// The one player of a one-player game (2048, Tetris): always to move,
/// never winning or losing, named `player`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solo;

impl Solo {
    /// The player's name.
    pub const NAME: &'static str = "player";
}

impl fmt::Display for Solo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Solo::NAME)
    }
}

/// Text that is not `player`, the one player's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a player of a one-player game: expected player")]
pub struct ParseSoloError {
    /// The text that was given.
    pub text: String,
}

impl crate::Reason for ParseSoloError {
    fn reason(&self) -> &'static str {
        "unknown-player"
    }
}

impl FromStr for Solo {
    type Err = ParseSoloError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == Solo::NAME {
            Ok(Solo)
        } else {
            Err(ParseSoloError { text: s.to_owned() })
        }
    }
}

impl Player for Solo {
    const ALL: &'static [Solo] = &[Solo];

    fn as_str(self) -> &'static str {
        Solo::NAME
    }

    fn opponent(self) -> Option<Solo> {
        None
    }
}
