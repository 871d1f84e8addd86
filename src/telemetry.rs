//! Logging through `tracing`, filtered by `RUST_LOG` (default `info`);
//! colours only when writing to a terminal.
//!
//! Every request gets an id: the one the client sent in `X-Request-Id` when
//! it is short and plain, a fresh one otherwise. The id is sent back in the
//! same header and is a field of the `request` span that wraps the handler,
//! so every line logged while answering — the handler's, the storage
//! calls', an internal error's cause chain — carries it. When the request is
//! answered, one event on the `qipan::request` target gives method, path,
//! status and time.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::{Instrument, Level};
use tracing_subscriber::EnvFilter;

/// The header carrying a request's id, both ways.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Installs the global subscriber; a second call is a no-op.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .try_init();
}

/// A fresh request id: a random per-process prefix and a counter, so ids
/// are unique across instances without a system call per request.
fn fresh_id() -> String {
    static PREFIX: OnceLock<u32> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let prefix = PREFIX.get_or_init(|| {
        let mut bytes = [0u8; 4];
        // Without randomness the ids are still unique within this process.
        getrandom::fill(&mut bytes).ok();
        u32::from_le_bytes(bytes)
    });
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{prefix:08x}-{n:x}")
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

/// Middleware: gives the request its id and span, answers with the id, and
/// logs one `info` event per request when the `qipan::request` target is
/// enabled. Paths carry state codes, never secrets; query strings and other
/// headers are not logged.
///
/// # Errors
///
/// Passes on the inner service's error.
pub async fn request_span(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = match client_id(&req) {
        Some(id) => id,
        None => HeaderValue::from_str(&fresh_id())
            .expect("a hex prefix, a dash and a hex counter are a valid header value"),
    };
    let id_text = id
        .to_str()
        .expect("a request id is ASCII: checked, or made of hex digits and a dash")
        .to_owned();
    let span =
        tracing::info_span!("request", id = %id_text, method = %req.method(), path = %req.path());
    let started = Instant::now();
    let mut res = next.call(req).instrument(span.clone()).await?;
    res.headers_mut().insert(REQUEST_ID, id);
    if tracing::enabled!(target: "qipan::request", Level::INFO) {
        span.in_scope(|| {
            tracing::info!(
                target: "qipan::request",
                status = res.status().as_u16(),
                micros = started.elapsed().as_micros() as u64,
            );
        });
    }
    Ok(res)
}
