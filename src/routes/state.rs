//! The stateless API over codes: start, read, play, import, export.

use actix_web::{web, HttpRequest, HttpResponse};
use qipan_rules::GameKind;
use serde_json::Value;

use super::{base_url, immutable_json};
use crate::configuration::Settings;
use crate::games;
use crate::problem::{ApiError, Problem, ProblemKind};
use crate::wire::{ExportQuery, PlayRequest, StartQuery};

fn game(name: &str) -> Result<GameKind, ApiError> {
    name.parse().map_err(|_| {
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
    })
}

/// `GET /v1/{game}/start`
pub async fn start(
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<StartQuery>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, ApiError> {
    let kind = game(&path)?;
    let base = base_url(&req, settings.public_url.as_deref());
    Ok(immutable_json(&req, games::start(kind, &query, &base)?))
}

/// `GET /v1/{game}/{code}`
pub async fn read(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, ApiError> {
    let (name, code) = path.into_inner();
    let kind = game(&name)?;
    let base = base_url(&req, settings.public_url.as_deref());
    Ok(immutable_json(&req, games::read(kind, &code, &base)?))
}

/// `POST /v1/{game}/{code}/play`
pub async fn play(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    body: web::Json<PlayRequest>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, ApiError> {
    let (name, code) = path.into_inner();
    let kind = game(&name)?;
    let base = base_url(&req, settings.public_url.as_deref());
    Ok(immutable_json(
        &req,
        games::play(kind, &code, &body.actions, &base)?,
    ))
}

/// `POST /v1/{game}/import`
pub async fn import(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Json<Value>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, ApiError> {
    let kind = game(&path)?;
    let base = base_url(&req, settings.public_url.as_deref());
    Ok(immutable_json(&req, games::import(kind, &body, &base)?))
}

/// `GET /v1/{game}/{code}/export?format=`
pub async fn export(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let (name, code) = path.into_inner();
    let kind = game(&name)?;
    let view = games::export(kind, &code, query.format.as_deref())?;
    let body = serde_json::to_vec(&view).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(immutable_json(&req, body))
}
