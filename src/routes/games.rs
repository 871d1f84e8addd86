//! `GET /v1/games`: the games, their variants, action syntax and formats.

use actix_web::{HttpRequest, HttpResponse};

use super::immutable_json;
use crate::problem::ApiError;

/// Lists the games.
///
/// # Errors
///
/// Only if the list fails to serialize.
pub async fn list(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let body =
        serde_json::to_vec(&crate::games::list()).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(immutable_json(&req, body))
}
