//! Logging through `tracing`, filtered by `RUST_LOG` (default `info`);
//! colours only when writing to a terminal.
//!
//! Every request gets an id: the one the client sent in `X-Request-Id` when
//! it is short and plain, a fresh one otherwise. The id is sent back in the
//! same header and is a field of the `request` span that wraps the handler,
//! so every line logged while answering — the handler's, the storage
//! calls' — carries it. A failure of the service itself (500, or 503 when
//! the database is away) is logged by the front middleware (`http::front`) with the id and its
//! cause, at error or warn level, so it names the request even where info
//! spans are filtered out. When the request is answered, one event on the
//! `qipan::request` target gives method, path, status and time.
//!
//! A request the HTTP library refuses before the service sees it (a head
//! over 128 KiB or with more than 96 headers, bytes that are not HTTP) is
//! the client's fault, not the service's: the library's error line for it
//! is not logged but counted, as `qipan_refused_requests_total`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::HttpMessage;
use tracing::field::{Field, Visit};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata};
use tracing_subscriber::filter::{FilterExt, LevelFilter, Targets};
use tracing_subscriber::layer::{Context as LayerContext, Filter, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

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

    // Lets nothing more through than the log filter it is joined to: with
    // no hint, the joined filter would have none either, and every `log`
    // record of the libraries, down to `trace`, would be made and then
    // dropped.
    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::TRACE)
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
pub(crate) fn fresh_id() -> HeaderValue {
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
pub(crate) fn client_id(req: &impl HttpMessage) -> Option<HeaderValue> {
    let value = req.headers().get(&REQUEST_ID)?;
    let ok = (1..=64).contains(&value.len())
        && value
            .as_bytes()
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b));
    ok.then(|| value.clone())
}
