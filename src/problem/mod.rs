//! RFC 9457 problem details: every error the service answers, actix's own
//! included, is `application/problem+json` with a stable `type` per kind.
//!
//! Every kind is declared once, in [`kinds`]. Handlers return [`ApiError`];
//! domain errors become problems in `mapping`; the edge's own refusals
//! (extractor errors, no route, any plain error answer of actix) in
//! [`crate::http::errors`]. This module imports nothing from the edge.

use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

use crate::wire::problem::{AllowMembers, Members};

pub mod kinds;
mod mapping;

pub use kinds::ProblemKind;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One problem, ready to send: a kind, a detail and its typed extension
/// members.
#[derive(Debug)]
pub struct Problem {
    /// The kind, giving `type`, `title` and `status`.
    pub kind: ProblemKind,
    /// What went wrong with this request, in a sentence.
    pub detail: String,
    /// The kind's extension members.
    pub members: Members,
}

/// The JSON body of a problem.
#[derive(Serialize)]
struct Body<'a> {
    #[serde(rename = "type")]
    type_uri: String,
    title: &'static str,
    status: u16,
    detail: &'a str,
    #[serde(flatten)]
    members: &'a Members,
}

impl Problem {
    /// A problem with no extension members.
    pub fn new(kind: ProblemKind, detail: impl Into<String>) -> Problem {
        Problem::with(kind, detail, Members::None {})
    }

    /// A problem with its extension members.
    pub fn with(kind: ProblemKind, detail: impl Into<String>, members: Members) -> Problem {
        Problem {
            kind,
            detail: detail.into(),
            members,
        }
    }

    /// The JSON body, with `status` as given (the kind's, unless actix
    /// answered another).
    fn body(&self, status: StatusCode) -> String {
        let body = Body {
            type_uri: self.kind.type_uri(),
            title: self.kind.title(),
            status: status.as_u16(),
            detail: &self.detail,
            members: &self.members,
        };
        serde_json::to_string(&body).unwrap_or_else(|e| {
            // Members are plain structs of strings and numbers; should one
            // ever fail, the problem still goes out, without them.
            tracing::error!(error = %e, "a problem's members failed to serialize");
            format!(
                "{{\"type\":\"{}\",\"title\":\"{}\",\"status\":{}}}",
                self.kind.type_uri(),
                self.kind.title(),
                status.as_u16()
            )
        })
    }

    /// The JSON body, for an answer written without actix (a connection
    /// refused as it is accepted).
    pub fn body_json(&self) -> String {
        self.body(self.kind.status())
    }

    /// A whole HTTP/1.1 answer carrying the problem, for an answer written
    /// straight to a connection, without actix (a connection over its
    /// address's cap, a request head refused before the HTTP library reads
    /// it). The connection closes after it. It carries the headers
    /// `http::exposure` gives every other answer.
    pub fn raw_answer(&self) -> Vec<u8> {
        let status = self.kind.status();
        let body = self.body_json();
        let mut bytes = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {PROBLEM_JSON}\r\ncache-control: no-store\r\n\
             x-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\n\
             content-security-policy: frame-ancestors 'none'\r\nx-frame-options: DENY\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes();
        bytes.extend_from_slice(body.as_bytes());
        bytes
    }

    /// The full response.
    pub fn response(&self) -> HttpResponse {
        self.response_with(self.kind.status())
    }

    /// The full response, with `status` as given (the kind's, unless actix
    /// answered another).
    pub fn response_with(&self, status: StatusCode) -> HttpResponse {
        let mut builder = HttpResponse::build(status);
        builder.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        builder.insert_header((header::CACHE_CONTROL, "no-store"));
        match self.kind {
            ProblemKind::Unauthorized => {
                builder.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"qipan\""));
            }
            ProblemKind::DatabaseUnavailable | ProblemKind::AnalysisBusy => {
                builder.insert_header((header::RETRY_AFTER, "1"));
            }
            ProblemKind::NotAWebSocket => {
                builder.insert_header((header::UPGRADE, "websocket"));
            }
            _ => {}
        }
        if let Members::Allow(AllowMembers { allow }) = &self.members {
            builder.insert_header((header::ALLOW, allow.join(", ")));
        }
        if let Members::Rate(r) = &self.members {
            builder.insert_header((header::RETRY_AFTER, r.retry_after.to_string()));
            builder.insert_header((
                "RateLimit-Policy",
                format!("\"{}\";q={};w={}", r.budget, r.quota, r.window),
            ));
            builder.insert_header((
                "RateLimit",
                format!("\"{}\";r=0;t={}", r.budget, r.retry_after),
            ));
        }
        builder.body(self.body(status))
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.slug(), self.detail)
    }
}

/// The error type of every handler.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A client error, sent as it is.
    #[error("{0}")]
    Problem(Problem),
    /// The database cannot be reached: a problem for the client, and a
    /// cause for the logs.
    #[error("{problem}")]
    Unavailable {
        /// What the client is told.
        problem: Problem,
        /// What went wrong.
        cause: anyhow::Error,
    },
    /// A failure inside the service: logged with its cause chain, answered
    /// with an opaque 500.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<Problem> for ApiError {
    fn from(p: Problem) -> Self {
        ApiError::Problem(p)
    }
}

impl ApiError {
    /// The problem+json body a client is sent, for a transport that is not
    /// an HTTP response (a WebSocket message).
    pub fn body(&self) -> String {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => {
                p.body(p.kind.status())
            }
            ApiError::Internal(_) => internal().body(StatusCode::INTERNAL_SERVER_ERROR),
        }
    }

    /// Logs a failure of the service itself (the request middleware calls
    /// this, naming the request); client errors are not logged.
    pub fn log(&self, request: &str) {
        match self {
            ApiError::Problem(_) => {}
            ApiError::Unavailable { cause, .. } => {
                tracing::warn!(request, error = %cause, "database unavailable");
            }
            ApiError::Internal(e) => tracing::error!(request, error = ?e, "internal error"),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => p.kind.status(),
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => p.response(),
            ApiError::Internal(_) => internal().response(),
        }
    }
}

fn internal() -> Problem {
    Problem::new(
        ProblemKind::Internal,
        "the service failed to answer this request; it has been logged",
    )
}
