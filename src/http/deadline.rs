//! A request's body must arrive within a deadline (`--body-timeout`): the
//! head's own limit does not cover it, and a client that announces a large
//! body and sends it a byte at a time would hold its connection, and a
//! worker's share of memory, forever. When the deadline passes the body
//! ends in an error, and whatever the handler made of it, the answer is
//! `408 request-timeout` and the connection is closed. A WebSocket, whose
//! frames are its body, is left alone.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpMessage, HttpResponse};
use futures_util::Stream;

use crate::configuration::Settings;
use crate::problem::{Problem, ProblemKind};

/// A body stream that fails once its deadline has passed.
struct Timed {
    inner: Payload,
    deadline: Pin<Box<tokio::time::Sleep>>,
    expired: Arc<AtomicBool>,
}

impl Stream for Timed {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Poll::Ready(item) = Pin::new(&mut self.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.expired.store(true, Ordering::Relaxed);
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the body did not arrive in time",
                )))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A body's deadline, armed on a request by [`arm`].
pub struct Armed {
    limit: Duration,
    expired: Arc<AtomicBool>,
}

impl Armed {
    /// Whether the body missed its deadline.
    pub fn expired(&self) -> bool {
        self.expired.load(Ordering::Relaxed)
    }

    /// The answer to a request whose body missed its deadline, whatever
    /// the handler made of it: `408`, and the connection closed.
    pub fn answer(&self) -> HttpResponse {
        let problem = Problem::new(
            ProblemKind::RequestTimeout,
            format!(
                "the body did not arrive within {} s of the request",
                self.limit.as_secs_f64()
            ),
        );
        let mut answer = problem.response();
        answer.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        answer
    }
}

/// Puts the request's body under its deadline. A request without a body
/// (most: reads) has nothing to time, and a WebSocket is left alone: both
/// give `None`.
pub fn arm(req: &mut ServiceRequest) -> Option<Armed> {
    // A WebSocket's frames come as its body, for as long as it is open.
    if req.headers().contains_key(header::UPGRADE) {
        return None;
    }
    let inner = req.take_payload();
    if matches!(inner, Payload::None) {
        return None;
    }
    let limit = req
        .app_data::<web::Data<Settings>>()
        .map_or(Duration::from_secs(10), |s| s.body_timeout);
    let expired = Arc::new(AtomicBool::new(false));
    let timed = Timed {
        inner,
        deadline: Box::pin(tokio::time::sleep(limit)),
        expired: expired.clone(),
    };
    req.set_payload(Payload::Stream {
        payload: Box::pin(timed),
    });
    Some(Armed { limit, expired })
}
