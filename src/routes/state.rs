//! The stateless API over codes: start, read, play, import, export.
//!
//! The game is resolved first (by the [`Game`] extractor), so a request for
//! an unknown game is a 404 whatever else is wrong with it.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use qipan_rules::GameKind;
use serde_json::Value;

use super::{base_url, immutable_json};
use crate::configuration::Settings;
use crate::games;
use crate::problem::{ApiError, Problem, ProblemKind};
use crate::wire::{ExportQuery, PlayRequest, StartQuery};

/// The `{game}` path segment, parsed.
pub struct Game(pub GameKind);

impl FromRequest for Game {
    type Error = ApiError;
    type Future = Ready<Result<Game, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let name = req.match_info().get("game").unwrap_or_default();
        ready(name.parse().map(Game).map_err(|_| {
            let known: Vec<&str> = GameKind::ALL.iter().map(|g| g.as_str()).collect();
            Problem::new(
                ProblemKind::UnknownGame,
                format!(
                    "there is no game {name:?}; the games are {}",
                    known.join(", ")
                ),
            )
            .with("field", "game")
            .with("supported", known)
            .into()
        }))
    }
}

/// The base of share URLs for this request.
pub struct Base(pub String);

impl FromRequest for Base {
    type Error = ApiError;
    type Future = Ready<Result<Base, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let configured = req
            .app_data::<web::Data<Settings>>()
            .and_then(|s| s.public_url.as_deref());
        ready(Ok(Base(base_url(req, configured))))
    }
}

/// `GET /v1/{game}/start`
pub async fn start(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    query: web::Query<StartQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(immutable_json(&req, games::start(kind, &query, &base.0)?))
}

/// `GET /v1/{game}/{code}`
pub async fn read(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    Ok(immutable_json(&req, games::read(kind, &path.1, &base.0)?))
}

/// `POST /v1/{game}/{code}/play`
pub async fn play(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    path: web::Path<(String, String)>,
    body: web::Json<PlayRequest>,
) -> Result<HttpResponse, ApiError> {
    let view = games::play(kind, &path.1, &body.actions, &base.0)?;
    Ok(immutable_json(&req, view))
}

/// `POST /v1/{game}/import`
pub async fn import(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    Ok(immutable_json(&req, games::import(kind, &body, &base.0)?))
}

/// `GET /v1/{game}/{code}/export?format=`
pub async fn export(
    Game(kind): Game,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let view = games::export(kind, &path.1, query.format.as_deref())?;
    let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(immutable_json(&req, body))
}
