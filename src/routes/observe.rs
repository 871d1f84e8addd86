//! `GET /metrics` and the middleware that counts every request for it
//! (see [`crate::metrics`]). `--metrics false` turns both off.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, Error, HttpResponse};

use crate::metrics::metrics;
use crate::routes::matches::MatchService;

/// Counts the request by its route's pattern, method and status, and times
/// it to its answer's head.
pub async fn count(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let started = Instant::now();
    let method = req.method().clone();
    let res = next.call(req).await?;
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    metrics().request(&route, method.as_str(), res.status(), started.elapsed());
    Ok(res)
}

/// `GET /metrics`: Prometheus' text format.
pub async fn scrape(matches: Option<web::Data<MatchService>>) -> HttpResponse {
    let pool = matches
        .as_ref()
        .and_then(|m| m.0.as_ref())
        .map(|m| m.pool_use());
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(metrics().render(pool))
}
