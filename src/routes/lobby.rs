//! The lobby: `/v1/lobby` and its seeks.

use crate::http::json::{Json, OptionalJson};
use crate::http::limits::{Admitted, Creates};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};

use super::matches::{created, event_stream, Service};
use super::state::Base;
use crate::matches::Token;
use crate::problem::ApiError;
use crate::wire::lobby::{SeekRequest, TakeRequest};

/// The `{seek}` path segment.
fn seek_id(req: &HttpRequest) -> &str {
    req.match_info().get("seek").unwrap_or_default()
}

/// `POST /v1/lobby/seeks`
#[tracing::instrument(skip_all)]
pub async fn seek(
    Service(s): Service,
    _: Admitted<Creates>,
    base: Base,
    body: Json<SeekRequest>,
) -> Result<HttpResponse, ApiError> {
    let (body, url) = s
        .runner()
        .run(async move { s.seek(&body, &base.0).await })
        .await?;
    let mut res = HttpResponse::build(StatusCode::CREATED);
    res.content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "no-store"));
    if let Ok(v) = HeaderValue::from_str(&url) {
        res.insert_header((header::LOCATION, v));
    }
    Ok(res.body(body))
}

/// `GET /v1/lobby`
#[tracing::instrument(skip_all)]
pub async fn list(Service(s): Service, base: Base) -> Result<HttpResponse, ApiError> {
    let body = s
        .runner()
        .run(async move { s.lobby(&base.0).await })
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body))
}

/// `GET /v1/lobby/events`
#[tracing::instrument(skip_all)]
pub async fn events(Service(s): Service, base: Base) -> Result<HttpResponse, ApiError> {
    let feed = s.lobby_feed(base.0).await?;
    Ok(event_stream(feed))
}

/// `GET /v1/lobby/seeks/{seek}/events`: the seeker's stream.
#[tracing::instrument(skip_all)]
pub async fn seeker_events(
    Service(s): Service,
    token: Token,
    req: HttpRequest,
    base: Base,
) -> Result<HttpResponse, ApiError> {
    let feed = s.seek_feed(seek_id(&req), &token, base.0).await?;
    Ok(event_stream(feed))
}

/// `POST /v1/lobby/seeks/{seek}/take`, with the taker's name in an
/// optional body.
#[tracing::instrument(skip_all)]
pub async fn take(
    Service(s): Service,
    _: Admitted<Creates>,
    token: Token,
    req: HttpRequest,
    base: Base,
    OptionalJson(body): OptionalJson<TakeRequest>,
) -> Result<HttpResponse, ApiError> {
    let seek = seek_id(&req).to_owned();
    let at = base.0.clone();
    let outcome = s
        .runner()
        .run(async move { s.take(&seek, &token, &body, &base.0).await })
        .await?;
    Ok(created(&at, outcome))
}

/// `POST /v1/lobby/seeks/{seek}/withdraw`: 204.
#[tracing::instrument(skip_all)]
pub async fn withdraw(
    Service(s): Service,
    token: Token,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let seek = seek_id(&req).to_owned();
    s.runner()
        .run(async move { s.withdraw_seek(&seek, &token).await })
        .await?;
    Ok(HttpResponse::NoContent()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
}
