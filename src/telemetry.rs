//! Logging through `tracing`, filtered by `RUST_LOG` (default `info`);
//! colours only when writing to a terminal.
//!
//! Every request gets an id: the one the client sent in `X-Request-Id` when
//! it is short and plain, a fresh one otherwise. The id is sent back in the
//! same header and is a field of the `request` span that wraps the handler,
//! so every line logged while answering — the handler's, the storage
//! calls' — carries it. A failure of the service itself (500, or 503 when
//! the database is away) is logged by the middleware with the id and its
//! cause, at error or warn level, so it names the request even where info
//! spans are filtered out. When the request is answered, one event on the
//! `qipan::request` target gives method, path, status and time.
//!
//! A request the HTTP library refuses before the service sees it (a head
//! over 128 KiB or with more than 96 headers, bytes that are not HTTP) is
//! the client's fault, not the service's: the library's error line for it
//! is not logged but counted, as `qipan_refused_requests_total`.

use std::future::{ready, Future, Ready};
use std::io::IsTerminal;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{HeaderName, HeaderValue};
use tracing::field::{Field, Visit};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata};
use tracing_subscriber::filter::{FilterExt, Targets};
use tracing_subscriber::layer::{Context as LayerContext, Filter, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

use crate::problem::ApiError;

/// The header carrying a request's id, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Installs the global subscriber; a second call is a no-op.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let lines = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stdout().is_terminal())
        .with_filter(filter.and(NotARefusal));
    let counter = RefusalCounter.with_filter(Targets::new().with_target(DISPATCHER, Level::ERROR));
    let _ = tracing_subscriber::registry()
        .with(lines)
        .with(counter)
        .try_init();
}

/// The module of the HTTP library that logs a refused request head.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

fn is_dispatcher_error(meta: &Metadata<'_>) -> bool {
    meta.target() == DISPATCHER && *meta.level() == Level::ERROR
}

/// Why the HTTP library refused a request head, from its error line
/// (`stream error: request parse error: …`), or `None` for any other line.
fn refusal(event: &Event<'_>) -> Option<&'static str> {
    if !is_dispatcher_error(event.metadata()) {
        return None;
    }
    let mut message = Message::default();
    event.record(&mut message);
    let cause = message
        .0
        .strip_prefix("stream error: request parse error: ")?;
    Some(if cause.starts_with("message head is too large") {
        "head-too-large"
    } else {
        "malformed-head"
    })
}

/// An event's `message` field.
#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(&mut self.0);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

/// Keeps refused heads out of the log lines.
struct NotARefusal;

impl<S> Filter<S> for NotARefusal {
    fn enabled(&self, _: &Metadata<'_>, _: &LayerContext<'_, S>) -> bool {
        true
    }

    // Decided once per call site, so that the log filter's own verdicts
    // stay cached: only the library's error lines are looked at each time.
    fn callsite_enabled(&self, meta: &'static Metadata<'static>) -> Interest {
        if is_dispatcher_error(meta) {
            Interest::sometimes()
        } else {
            Interest::always()
        }
    }

    fn event_enabled(&self, event: &Event<'_>, _: &LayerContext<'_, S>) -> bool {
        refusal(event).is_none()
    }
}

/// Counts refused heads, whatever the log filter keeps.
struct RefusalCounter;

impl<S: tracing::Subscriber> Layer<S> for RefusalCounter {
    fn on_event(&self, event: &Event<'_>, _: LayerContext<'_, S>) {
        if let Some(reason) = refusal(event) {
            crate::metrics::metrics().refused(reason);
        }
    }
}

/// A fresh request id: a random per-process prefix and a counter, so ids
/// are unique across instances without a system call per request. Written
/// into a header value directly: this runs for every request.
fn fresh_id() -> HeaderValue {
    static PREFIX: OnceLock<u32> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let prefix = PREFIX.get_or_init(|| {
        let mut bytes = [0u8; 4];
        // Without randomness the ids are still unique within this process.
        getrandom::fill(&mut bytes).ok();
        u32::from_le_bytes(bytes)
    });
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 8 + 1 + 16];
    for (i, b) in buf[..8].iter_mut().enumerate() {
        *b = HEX[((prefix >> (28 - 4 * i)) & 15) as usize];
    }
    buf[8] = b'-';
    let digits = (64 - n.leading_zeros()).div_ceil(4).max(1) as usize;
    for (i, b) in buf[9..9 + digits].iter_mut().enumerate() {
        *b = HEX[((n >> (4 * (digits - 1 - i))) & 15) as usize];
    }
    HeaderValue::from_bytes(&buf[..9 + digits])
        .expect("hex digits and a dash make a valid header value")
}

/// The client's id when it is one we can log and echo safely: 1–64
/// characters of `A–Z a–z 0–9 - _ . :`.
fn client_id(req: &ServiceRequest) -> Option<HeaderValue> {
    let value = req.headers().get(&REQUEST_ID)?;
    let ok = (1..=64).contains(&value.len())
        && value
            .as_bytes()
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b));
    ok.then(|| value.clone())
}

/// Middleware: gives every request its id and (when info spans are
/// enabled) its span, answers with the id, logs the service's own failures
/// with the id, and logs one `info` event per request when the
/// `qipan::request` target is enabled. Paths carry state codes, never
/// secrets; query strings and other headers are not logged.
///
/// Written as a plain `Transform` rather than `from_fn`: it runs on every
/// request, and this way it adds no allocation beyond the id itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct RequestIds;

impl<S, B> Transform<S, ServiceRequest> for RequestIds
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = RequestIdService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(RequestIdService { service }))
    }
}

/// The service [`RequestIds`] wraps around the app.
#[derive(Debug)]
pub struct RequestIdService<S> {
    service: S,
}

impl<S, B> Service<ServiceRequest> for RequestIdService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = Answer<S::Future>;

    actix_web::dev::forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let id = client_id(&req).unwrap_or_else(fresh_id);
        let span = if tracing::enabled!(Level::INFO) {
            let text = id
                .to_str()
                .expect("a request id is ASCII: checked, or made of hex digits and a dash");
            Some(
                tracing::info_span!("request", id = %text, method = %req.method(), path = %req.path()),
            )
        } else {
            None
        };
        let inner = match &span {
            Some(span) => span.in_scope(|| self.service.call(req)),
            None => self.service.call(req),
        };
        Answer {
            inner,
            id: Some(id),
            span,
            started: Instant::now(),
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer of a request, given its id on the way out.
    pub struct Answer<F> {
        #[pin]
        inner: F,
        id: Option<HeaderValue>,
        span: Option<tracing::Span>,
        started: Instant,
    }
}

impl<F, B> Future for Answer<F>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _entered = this.span.as_ref().map(tracing::Span::enter);
        let mut res = match this.inner.poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(res) => res?,
        };
        let id = this
            .id
            .take()
            .expect("a finished answer is not polled again");
        let text = id
            .to_str()
            .expect("a request id is ASCII: checked, or made of hex digits and a dash");
        // What the service could not do is logged here, with the id,
        // whatever level the span is filtered at.
        if res.status().is_server_error() {
            if let Some(e) = res
                .response()
                .error()
                .and_then(|e| e.as_error::<ApiError>())
            {
                e.log(text);
            }
        }
        if tracing::enabled!(target: "qipan::request", Level::INFO) {
            tracing::info!(
                target: "qipan::request",
                status = res.status().as_u16(),
                micros = this.started.elapsed().as_micros() as u64,
            );
        }
        res.headers_mut().insert(REQUEST_ID, id);
        Poll::Ready(Ok(res))
    }
}
