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

use super::matches::{status_of, Id, Service};
use super::state::Base;
use crate::http::frames::{FrameGuard, Oversized};
use crate::http::limits::{Class, Limits};
use crate::http::live::{LastEventId, NotAWebSocket};
use crate::matches::{
    Item, Live, MatchError, MatchId, Matches, Precondition, SeatCommand, Secret, Token, Version,
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

    /// Carries a command out; the members of its `ack`. A seat's command
    /// takes the path its HTTP endpoint takes ([`Matches::command`]), and
    /// the `ack` carries the status and version that endpoint answers.
    async fn perform(&mut self, message: ClientMessage) -> Result<Value, MatchError> {
        let s = self.matches.clone();
        let id = self.id;
        let pre = |v: Option<i64>| match v {
            Some(v) => Precondition::OneOf(vec![Version::new(v)]),
            None => Precondition::Any,
        };
        let (command, version) = match message {
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
            } => (SeatCommand::Play(actions), version),
            ClientMessage::Undo { version, .. } => (SeatCommand::Undo, version),
            ClientMessage::Accept { version, .. } => {
                (SeatCommand::AnswerUndo { accept: true }, version)
            }
            ClientMessage::Decline { version, .. } => {
                (SeatCommand::AnswerUndo { accept: false }, version)
            }
            ClientMessage::Resign { version, .. } => (SeatCommand::Resign, version),
            ClientMessage::Draw { version, .. } => (SeatCommand::OfferDraw, version),
            ClientMessage::DrawAccept { version, .. } => {
                (SeatCommand::AnswerDraw { accept: true }, version)
            }
            ClientMessage::DrawDecline { version, .. } => {
                (SeatCommand::AnswerDraw { accept: false }, version)
            }
            ClientMessage::Claim {
                result, version, ..
            } => (SeatCommand::Claim(result), version),
        };
        // A command's view goes out as the event it makes, so no base URL
        // is needed to render it here.
        let (outcome, effect) = s
            .command(id, self.token.clone(), pre(version), command, String::new())
            .await?;
        Ok(serde_json::json!({
            "status": status_of(effect).as_u16(),
            "version": outcome.version.get(),
        }))
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

/// An answer to a command: `{"type", "command", "ref", …members}`, in
/// that order, written from JSON values (whose text is never empty).
fn answer_message(
    kind: &str,
    command: &str,
    reference: Option<&Value>,
    members: serde_json::Map<String, Value>,
) -> String {
    let mut out = format!(
        "{{\"type\":{},\"command\":{},\"ref\":{}",
        Value::from(kind),
        Value::from(command),
        reference.unwrap_or(&Value::Null)
    );
    for (name, value) in members {
        out.push_str(&format!(",{}:{value}", Value::from(name)));
    }
    out.push('}');
    out
}

/// `{"type": "ack", "command": …, "ref": …, …members}`
fn ack_message(command: &str, reference: Option<&Value>, members: &Value) -> String {
    let members = match members {
        Value::Object(m) => m.clone(),
        _ => serde_json::Map::new(),
    };
    answer_message("ack", command, reference, members)
}

/// `{"type": "problem", "command": …, "ref": …, "problem": {…}}`
fn problem_message(command: &str, reference: Option<&Value>, e: &ApiError) -> String {
    e.log(&format!("websocket {command}"));
    let body = e.body();
    // The body is the problem's own JSON; should it ever not parse, it
    // still goes out, as a string.
    let problem = serde_json::from_str(&body).unwrap_or(Value::String(body));
    let mut members = serde_json::Map::new();
    members.insert("problem".to_owned(), problem);
    answer_message("problem", command, reference, members)
}

#[cfg(test)]
mod tests {
    use super::{ack_message, answer_message};
    use serde_json::{json, Value};

    #[test]
    fn answers_are_json_with_type_command_and_ref_first() {
        let ack = ack_message(
            "play",
            Some(&json!(7)),
            &json!({"status": 200, "version": 3}),
        );
        assert!(
            ack.starts_with(r#"{"type":"ack","command":"play","ref":7,"#),
            "{ack}"
        );
        let v: Value = serde_json::from_str(&ack).unwrap();
        assert_eq!(
            v,
            json!({"type": "ack", "command": "play", "ref": 7, "status": 200, "version": 3})
        );
        // Text that needs escaping stays JSON; no reference is null.
        let odd = answer_message("ack", "pl\"ay\n", None, serde_json::Map::new());
        let v: Value = serde_json::from_str(&odd).unwrap();
        assert_eq!(
            v,
            json!({"type": "ack", "command": "pl\"ay\n", "ref": null})
        );
    }
}
