//! What a live connection (Server-Sent Events or a WebSocket) reads from its
//! request besides the match: the last event the client saw, and for a
//! WebSocket, that the request is a handshake at all.

use actix_web::{web, HttpRequest};

/// A request to the WebSocket endpoint that is not a handshake.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotAWebSocket(pub String);

/// A `Last-Event-ID` that is not a match version.
#[derive(Debug, thiserror::Error)]
#[error("{field} {given:?} is not a match version (the `id:` of an event, such as 7)")]
pub struct BadLastEventId {
    /// Where it was sent: the header, or the query parameter.
    pub field: &'static str,
    /// What was sent.
    pub given: String,
}

/// The last event a client saw: the `Last-Event-ID` header, or the
/// `last_event_id` query parameter (which a browser's WebSocket, unable to
/// send headers, can use).
pub struct LastEventId(pub Option<crate::matches::Version>);

impl LastEventId {
    /// Reads it from a request.
    ///
    /// # Errors
    ///
    /// [`BadLastEventId`] for a value that is not a version.
    pub fn read(req: &HttpRequest) -> Result<LastEventId, BadLastEventId> {
        // Versions start at 1.
        let parse = |field: &'static str, text: &str| {
            text.trim()
                .parse::<i64>()
                .ok()
                .filter(|&v| v >= 1)
                .map(crate::matches::Version::new)
                .ok_or_else(|| BadLastEventId {
                    field,
                    given: text.to_owned(),
                })
        };
        let query =
            web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
                .map(web::Query::into_inner)
                .unwrap_or_default();
        // Both are read, so a bad one is refused whichever wins.
        let from_query = query
            .get("last_event_id")
            .map(|text| parse("last_event_id", text))
            .transpose()?;
        if let Some(v) = req.headers().get("last-event-id") {
            let text = String::from_utf8_lossy(v.as_bytes());
            return parse("Last-Event-ID", &text).map(|v| LastEventId(Some(v)));
        }
        Ok(LastEventId(from_query))
    }
}
