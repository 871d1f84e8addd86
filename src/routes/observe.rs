//! `GET /metrics` (see [`crate::metrics`]); every request is counted for it
//! by [`crate::http::front`]. `--metrics false` turns both off.

use actix_web::{web, HttpResponse};

use crate::metrics::metrics;
use crate::routes::matches::MatchService;

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
