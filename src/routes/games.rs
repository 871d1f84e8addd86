//! `GET /v1/games`: the games, their variants, action syntax and formats.
//! It describes the running service, so it is cached for minutes, not
//! forever: a deploy that adds a variant shows.

use actix_web::{HttpRequest, HttpResponse};

use crate::http::answer::revalidated_json;
use crate::problem::ApiError;

/// Lists the games.
///
/// # Errors
///
/// Only if the list fails to serialize.
pub async fn list(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let body =
        serde_json::to_vec(&crate::games::list()).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(revalidated_json(&req, body))
}
