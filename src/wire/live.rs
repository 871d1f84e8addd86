//! The messages of a match's WebSocket. A client sends JSON text frames
//! tagged by `type`; the service answers each command with an `ack` or a
//! `problem` (echoing the command's `ref`), and sends the match's live
//! events as `event` messages.

use serde::Deserialize;
use serde_json::Value;

use super::matches::ClaimResult;

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Authenticates the socket as the seat of `token` (the first message,
    /// as a rule; sent again, it switches seats).
    Auth {
        /// The seat token.
        token: String,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// Plays actions, against the version the client last saw.
    Play {
        /// The actions, in the game's notation.
        actions: Vec<String>,
        /// The match version they were chosen at (the `If-Match` of
        /// `POST /play`); without it, whatever the match's version is, as
        /// `POST /play` without `If-Match`.
        #[serde(default)]
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /undo`.
    Undo {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /undo/accept`.
    Accept {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /undo/decline`.
    Decline {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /resign`.
    Resign {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /draw`: offers a draw (or agrees to the other seat's offer).
    Draw {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /draw/accept`.
    DrawAccept {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /draw/decline` (by the offerer: withdraws the offer).
    DrawDecline {
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
    /// `POST /claim`: the win or a draw against a side to move that left.
    Claim {
        /// `win` or `draw`, as the body of `POST /claim`.
        result: ClaimResult,
        /// Optional `If-Match`.
        version: Option<i64>,
        /// Echoed in the answer.
        #[serde(rename = "ref")]
        reference: Option<Value>,
    },
}

impl ClientMessage {
    /// Its `type`.
    pub fn command(&self) -> &'static str {
        match self {
            ClientMessage::Auth { .. } => "auth",
            ClientMessage::Play { .. } => "play",
            ClientMessage::Undo { .. } => "undo",
            ClientMessage::Accept { .. } => "accept",
            ClientMessage::Decline { .. } => "decline",
            ClientMessage::Resign { .. } => "resign",
            ClientMessage::Draw { .. } => "draw",
            ClientMessage::DrawAccept { .. } => "draw-accept",
            ClientMessage::DrawDecline { .. } => "draw-decline",
            ClientMessage::Claim { .. } => "claim",
        }
    }

    /// Its `ref`.
    pub fn reference(&self) -> Option<&Value> {
        match self {
            ClientMessage::Auth { reference, .. }
            | ClientMessage::Play { reference, .. }
            | ClientMessage::Undo { reference, .. }
            | ClientMessage::Accept { reference, .. }
            | ClientMessage::Decline { reference, .. }
            | ClientMessage::Resign { reference, .. }
            | ClientMessage::Draw { reference, .. }
            | ClientMessage::DrawAccept { reference, .. }
            | ClientMessage::DrawDecline { reference, .. }
            | ClientMessage::Claim { reference, .. } => reference.as_ref(),
        }
    }
}
