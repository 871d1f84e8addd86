//! Request and response shapes shared by every game: plain serde structs,
//! kept apart from the rules crate's domain types.

use qipan_rules::{EndReason, Status};
use serde::{Deserialize, Serialize};

/// Body of `POST /v1/{game}/{code}/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The actions to play in order, in the game's notation.
    pub actions: Vec<String>,
}

/// Query of `GET /v1/{game}/start`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartQuery {
    /// The rule variant; the game's default when absent.
    pub variant: Option<String>,
    /// The seed of the game's random generator, for games with chance.
    pub seed: Option<u64>,
    /// The board size, for games played on more than one.
    pub size: Option<u8>,
}

/// Query of `GET /v1/{game}/{code}/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// The readable format; the game's first format when absent.
    pub format: Option<String>,
}

/// `status` of a state view.
#[derive(Debug, Clone, Serialize)]
pub struct StatusView {
    /// `ongoing`, `won`, `drawn` or `over` (a one-player game that has ended).
    pub state: &'static str,
    /// The winner, when there is one.
    pub winner: Option<String>,
    /// How the game ended, once it has.
    pub reason: Option<&'static str>,
}

impl<P: std::fmt::Display> From<Status<P>> for StatusView {
    fn from(status: Status<P>) -> Self {
        match status {
            Status::Ongoing => StatusView {
                state: "ongoing",
                winner: None,
                reason: None,
            },
            Status::Won { winner, reason } => StatusView {
                state: "won",
                winner: Some(winner.to_string()),
                reason: Some(EndReason::as_str(reason)),
            },
            Status::Drawn { reason } => StatusView {
                state: "drawn",
                winner: None,
                reason: Some(reason.as_str()),
            },
            Status::Over { reason } => StatusView {
                state: "over",
                winner: None,
                reason: Some(reason.as_str()),
            },
        }
    }
}

/// One entry of `GET /v1/games`.
#[derive(Debug, Serialize)]
pub struct GameInfo {
    /// The name used in paths.
    pub game: &'static str,
    /// A human name.
    pub title: &'static str,
    /// The players or sides, first to move first.
    pub players: &'static [&'static str],
    /// The rule variants; the first is the default.
    pub variants: &'static [&'static str],
    /// How actions are written.
    pub action_syntax: ActionSyntax,
    /// Readable formats for import and export; the first is the default.
    pub formats: &'static [&'static str],
    /// Path of the start position.
    pub start: String,
}

/// How a game's actions are written.
#[derive(Debug, Serialize)]
pub struct ActionSyntax {
    /// The notation's name.
    pub notation: &'static str,
    /// A regular expression every well-formed action matches.
    pub pattern: &'static str,
    /// Examples.
    pub examples: &'static [&'static str],
    /// The notation in a sentence or two.
    pub description: &'static str,
}
