//! Logging through `tracing`, filtered by `RUST_LOG` (default `info`);
//! colours only when writing to a terminal. Every request is logged as one
//! event on the `qipan::request` target: method, path, status and time.

use std::io::IsTerminal;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use tracing::Level;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber; a second call is a no-op.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stdout().is_terminal())
        .try_init();
}

/// Middleware: one `info` event per request after it is answered. Paths
/// carry state codes, never secrets; query strings and headers are not
/// logged. When the target is filtered out this costs a clock read.
///
/// # Errors
///
/// Passes on the inner service's error.
pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if !tracing::enabled!(target: "qipan::request", Level::INFO) {
        return next.call(req).await;
    }
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let res = next.call(req).await?;
    tracing::info!(
        target: "qipan::request",
        %method,
        path,
        status = res.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
    );
    Ok(res)
}
