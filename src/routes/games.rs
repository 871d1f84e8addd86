//! `GET /v1/games`: the games, their variants, action syntax and formats.

use actix_web::{HttpRequest, HttpResponse};

use super::immutable_json;

/// Lists the games.
pub async fn list(req: HttpRequest) -> HttpResponse {
    immutable_json(&req, crate::games::list().to_string().into_bytes())
}
