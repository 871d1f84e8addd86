//! `GET /v1/matches/{id}/ws`: a match's live events over a WebSocket, and
//! the seat's commands the other way. The socket starts with a `sync` event
//! (the whole match view), or with the events after `?last_event_id=`, then
//! sends every event as it is written; a
//! client authenticates with `{"type": "auth", "token": …}` (the token never
//! goes in the URL) and then sends `play`, `undo`, `accept`, `decline`,
//! `resign`, `draw`, `draw-accept`, `draw-decline` and `claim`. Each command is answered with an `ack` or the `problem` the
//! HTTP endpoint would answer, in the same shape. A frame that is not one
//! of these messages closes the socket (1007 with the reason; binary
//! frames 1003).

use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use actix_ws::{AggregatedMessage, CloseCode, CloseReason, ProtocolError, Session};
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;

use super::matches::{Id, Service};
use super::state::Base;
use crate::http::frames::{FrameGuard, Oversized};
use crate::http::limits::{Class, Limits};
use crate::http::live::{LastEventId, NotAWebSocket};
use crate::matches::{
    Item, Live, MatchError, MatchId, Matches, Offered, Precondition, Secret, Token, Version,
};
use crate::problem::ApiError;
use crate::wire::live::ClientMessage;

/// Largest message a client may send, in bytes.
const MESSAGE_LIMIT: usize = 64 * 1024;

/// How many events may wait for a slow socket before its feed stops
/// reading (it catches up from the database afterwards).
const OUTBOX: usize = 64;

/// `GET /v1/matches/{id}/ws`
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn socket(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    body: web::Payload,
    base: Base,
) -> Result<HttpResponse, ApiError> {
    // The match is read before the upgrade: an unknown one is a 404 problem.
    let LastEventId(last) = LastEventId::read(&req)?;
    let limits = req.app_data::<web::Data<Limits>>().cloned();
    let client = limits.as_ref().and_then(|l| l.client(&req));
    let feed = s.feed(id, last, base.0, None).await?;
    // Frames are measured as their headers arrive, before the codec
    // buffers them (see http::frames).
    let (guarded, oversized) = FrameGuard::new(body, MESSAGE_LIMIT);
    let guarded: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = Result<web::Bytes, actix_web::error::PayloadError>>>,
    > = Box::pin(guarded);
    let mut stream = actix_web::dev::Payload::from(guarded);
    let body = web::Payload::from_request(&req, &mut stream)
        .await
        .map_err(|e| NotAWebSocket(e.to_string()))?;
    let (response, session, messages) =
        actix_ws::handle(&req, body).map_err(|e| NotAWebSocket(e.to_string()))?;
    let messages = messages
        .max_frame_size(MESSAGE_LIMIT)
        .aggregate_continuations()
        .max_continuation_size(MESSAGE_LIMIT);
    let (outbox, inbox) = mpsc::channel(OUTBOX);
    let mut feed = feed;
    let feeding = actix_web::rt::spawn(async move {
        while let Some(item) = Live::next(&mut feed).await {
            if outbox.send(item).await.is_err() {
                break;
            }
        }
    });
    actix_web::rt::spawn(async move {
        Connection {
            matches: s,
            id,
            limits,
            client,
            token: Token(None),
            held: None,
            session,
            oversized,
        }
        .run(messages, inbox)
        .await;
        feeding.abort();
    });
    Ok(response)
}

/// One open socket.
struct Connection {
    matches: Matches,
    id: MatchId,
    /// The service's rate limits, charged per command as over HTTP.
    limits: Option<web::Data<Limits>>,
    /// The client address, read at the handshake.
    client: Option<std::net::IpAddr>,
    token: Token,
    held: Option<crate::matches::presence::Held>,
    session: Session,
    /// Set when a frame header declared more than [`MESSAGE_LIMIT`].
    oversized: Oversized,
}

/// Why the socket is being closed by the service.
struct Closing(CloseReason);

impl Connection {
    async fn run(
        mut self,
        mut messages: actix_ws::AggregatedMessageStream,
        mut inbox: mpsc::Receiver<Item>,
    ) {
        let closing = loop {
            tokio::select! {
                item = inbox.recv() => {
                    let sent = match item {
                        Some(Item::Frame(frame)) => self.session.text(event_message(&frame)).await,
                        Some(Item::KeepAlive) => self.session.ping(b"").await,
                        None => break None,
                    };
                    if sent.is_err() {
                        return;
                    }
                }
                message = messages.next() => {
                    if self.oversized.tripped() {
                        break Some(too_large());
                    }
                    let outcome = match message {
                        Some(Ok(AggregatedMessage::Text(text))) => self.command(&text).await,
                        Some(Ok(AggregatedMessage::Binary(_))) => Err(Closing(CloseReason {
                            code: CloseCode::Unsupported,
                            description: Some("binary frames are not read: send JSON text".to_owned()),
                        })),
                        Some(Ok(AggregatedMessage::Ping(bytes))) => {
                            self.session.pong(&bytes).await.map_err(|_| Closing(normal()))
                        }
                        Some(Ok(AggregatedMessage::Pong(_))) => Ok(()),
                        Some(Ok(AggregatedMessage::Close(_))) | None => break Some(normal()),
                        Some(Err(ProtocolError::Overflow)) => Err(Closing(too_large())),
                        Some(Err(e)) => Err(Closing(CloseReason {
                            code: CloseCode::Protocol,
                            description: Some(truncate(&e.to_string())),
                        })),
                    };
                    if let Err(Closing(reason)) = outcome {
                        break Some(reason);
                    }
                }
            }
        };
        let _ = self.session.close(closing).await;
    }

    /// Reads one text message and answers it; a message that is not one of
    /// the protocol's closes the socket.
    async fn command(&mut self, text: &str) -> Result<(), Closing> {
        let message: ClientMessage = serde_json::from_str(text).map_err(|e| {
            Closing(CloseReason {
                code: CloseCode::Invalid,
                description: Some(truncate(&format!("not a qipan message: {e}"))),
            })
        })?;
        let command = message.command();
        let reference = message.reference().cloned();
        let answer = match self.admit(&message) {
            Err(e) => problem_message(command, reference.as_ref(), &e),
            Ok(()) => match self.perform(message).await {
                Ok(ack) => ack_message(command, reference.as_ref(), &ack),
                Err(e) => problem_message(command, reference.as_ref(), &ApiError::from(e)),
            },
        };
        self.session
            .text(answer)
            .await
            .map_err(|_| Closing(normal()))
    }

    /// Charges a command to the client's budgets, as its HTTP endpoint
    /// would be: a write, and for a play its actions.
    fn admit(&self, message: &ClientMessage) -> Result<(), ApiError> {
        let Some(limits) = &self.limits else {
            return Ok(());
        };
        match message {
            // Each looks a token up: wrong guesses are paid for.
            ClientMessage::Auth { .. } => limits.charge_client(self.client, Class::Writes, 1),
            ClientMessage::Play { actions, .. } => {
                limits.charge_client(self.client, Class::Writes, 1)?;
                limits.charge_client(self.client, Class::Actions, actions.len())
            }
            _ => limits.charge_client(self.client, Class::Writes, 1),
        }
    }

    /// Carries a command out; the members of its `ack`.
    async fn perform(&mut self, message: ClientMessage) -> Result<Value, MatchError> {
        let s = self.matches.clone();
        let id = self.id;
        let pre = |v: Option<i64>| match v {
            Some(v) => Precondition::OneOf(vec![Version::new(v)]),
            None => Precondition::Any,
        };
        // A command's view goes out as the event it makes; the ack carries
        // the status and version the HTTP endpoint would.
        let base = "";
        let message_kind = message.command();
        let (status, outcome) = match message {
            ClientMessage::Auth { token, .. } => {
                let token = Token(Some(Secret::presented(&token)));
                let seat = s.authenticate(id, &token).await?;
                // The old seat's hold goes first.
                self.held = None;
                self.held = Some(s.hold(id, seat).await?);
                self.token = token;
                return Ok(serde_json::json!({ "seat": seat.as_str() }));
            }
            ClientMessage::Play {
                actions, version, ..
            } => {
                let token = self.token.clone();
                let pre = pre(version);
                let outcome = s
                    .runner()
                    .run(async move { s.play(id, &token, pre, &actions, base).await })
                    .await?;
                (200, outcome)
            }
            ClientMessage::Undo { version, .. } => {
                let (token, pre) = (self.token.clone(), pre(version));
                let (outcome, done) = s
                    .runner()
                    .run(async move { s.undo(id, &token, pre, base).await })
                    .await?;
                (if done { 200 } else { 202 }, outcome)
            }
            ClientMessage::Accept { version, .. } | ClientMessage::Decline { version, .. } => {
                let accept = matches!(message_kind, "accept");
                let (token, pre) = (self.token.clone(), pre(version));
                let outcome = s
                    .runner()
                    .run(async move { s.answer_undo(id, &token, pre, accept, base).await })
                    .await?;
                (200, outcome)
            }
            ClientMessage::Resign { version, .. } => {
                let (token, pre) = (self.token.clone(), pre(version));
                let outcome = s
                    .runner()
                    .run(async move { s.resign(id, &token, pre, base).await })
                    .await?;
                (200, outcome)
            }
            ClientMessage::Draw { version, .. } => {
                let (token, pre) = (self.token.clone(), pre(version));
                let (outcome, offered) = s
                    .runner()
                    .run(async move { s.offer_draw(id, &token, pre, base).await })
                    .await?;
                let status = match offered {
                    Offered::Standing => 202,
                    Offered::Agreed => 200,
                };
                (status, outcome)
            }
            ClientMessage::DrawAccept { version, .. }
            | ClientMessage::DrawDecline { version, .. } => {
                let accept = matches!(message_kind, "draw-accept");
                let (token, pre) = (self.token.clone(), pre(version));
                let outcome = s
                    .runner()
                    .run(async move { s.answer_draw(id, &token, pre, accept, base).await })
                    .await?;
                (200, outcome)
            }
            ClientMessage::Claim {
                result, version, ..
            } => {
                let (token, pre) = (self.token.clone(), pre(version));
                let outcome = s
                    .runner()
                    .run(async move { s.claim(id, &token, pre, result, base).await })
                    .await?;
                (200, outcome)
            }
        };
        Ok(serde_json::json!({ "status": status, "version": outcome.version.get() }))
    }
}

/// 1009: a frame or message over [`MESSAGE_LIMIT`].
fn too_large() -> CloseReason {
    CloseReason {
        code: CloseCode::Size,
        description: Some("a message is at most 65536 bytes".to_owned()),
    }
}

fn normal() -> CloseReason {
    CloseReason {
        code: CloseCode::Normal,
        description: None,
    }
}

/// A close reason fits in 123 bytes.
fn truncate(text: &str) -> String {
    let mut end = text.len().min(123);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// `{"type": "event", "event": …, "id": …, "data": …}`
fn event_message(frame: &crate::matches::Frame) -> String {
    let data = String::from_utf8_lossy(&frame.data);
    let id = frame
        .id
        .map_or_else(|| "null".to_owned(), |v| v.to_string());
    format!(
        "{{\"type\":\"event\",\"event\":\"{}\",\"id\":{id},\"data\":{data}}}",
        frame.name
    )
}

/// An answer to a command: `{"type", "command", "ref", …}`.
#[derive(serde::Serialize)]
struct Answer<'a, T: serde::Serialize> {
    #[serde(rename = "type")]
    kind: &'static str,
    command: &'a str,
    #[serde(rename = "ref")]
    reference: Option<&'a Value>,
    #[serde(flatten)]
    members: T,
}

/// `{"type": "ack", "command": …, "ref": …, …members}`
fn ack_message(command: &str, reference: Option<&Value>, members: &Value) -> String {
    let ack = Answer {
        kind: "ack",
        command,
        reference,
        members,
    };
    serde_json::to_string(&ack).unwrap_or_default()
}

/// `{"type": "problem", "command": …, "ref": …, "problem": {…}}`
fn problem_message(command: &str, reference: Option<&Value>, e: &ApiError) -> String {
    e.log(&format!("websocket {command}"));
    #[derive(serde::Serialize)]
    struct Refusal {
        problem: Box<serde_json::value::RawValue>,
    }
    let problem = serde_json::value::RawValue::from_string(e.body()).unwrap_or_default();
    let answer = Answer {
        kind: "problem",
        command,
        reference,
        members: Refusal { problem },
    };
    serde_json::to_string(&answer).unwrap_or_default()
}
