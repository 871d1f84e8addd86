//! `GET|POST /v1/{game}/{code}/analysis` and `GET|POST /v1/{game}/{code}/move`:
//! the lines a search finds in a position, and the computer's move there.
//!
//! The order of refusals: the caps of the query (`400`), the code and
//! xiangqi's `history` (`400`, `422`), a finished game (`409`), a game
//! without a search (`501`), the client's search budget (`429`), then the
//! search pool (`503` when its queue is full). Answers are `no-store`: a
//! search limited by time answers differently each time.

use std::time::Instant;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;

use super::state::{Code, Game};
use crate::analysis::pool::{Refused, SearchPool};
use crate::analysis::{self, AnalysisError, Ask, MoveAsk, Subject};
use crate::games;
use crate::http::json::Json;
use crate::http::limits::charge_search;
use crate::problem::ApiError;
use crate::wire::analysis::{AnalysisQuery, LineRequest, MoveQuery};
use crate::wire::state::LineBody;

/// `GET /v1/{game}/{code}/analysis`
pub async fn get(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<AnalysisQuery>,
    pool: web::Data<SearchPool>,
) -> Result<HttpResponse, ApiError> {
    analyse(&req, kind, &code, &query, None, &pool).await
}

/// `POST /v1/{game}/{code}/analysis`, with xiangqi's `history`.
pub async fn post(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<AnalysisQuery>,
    pool: web::Data<SearchPool>,
    body: Json<LineRequest>,
) -> Result<HttpResponse, ApiError> {
    analyse(&req, kind, &code, &query, body.history.as_ref(), &pool).await
}

/// `GET /v1/{game}/{code}/move?level=`
pub async fn get_move(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<MoveQuery>,
    pool: web::Data<SearchPool>,
) -> Result<HttpResponse, ApiError> {
    choose(&req, kind, &code, &query, None, &pool).await
}

/// `POST /v1/{game}/{code}/move?level=`, with xiangqi's `history`.
pub async fn post_move(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<MoveQuery>,
    pool: web::Data<SearchPool>,
    body: Json<LineRequest>,
) -> Result<HttpResponse, ApiError> {
    choose(&req, kind, &code, &query, body.history.as_ref(), &pool).await
}

async fn analyse(
    req: &HttpRequest,
    kind: qipan_rules::GameKind,
    code: &str,
    query: &AnalysisQuery,
    history: Option<&LineBody>,
    pool: &SearchPool,
) -> Result<HttpResponse, ApiError> {
    let ask = Ask::analysis(query)?;
    let thinker = analysis::thinker(subject(kind, code, history)?)?;
    charge_search(req, ask.cost)?;
    let view = pool
        .run(move |stop| thinker.analyse(&ask.limits(stop), ask.lines))
        .await
        .map_err(refused)?;
    fresh_json(&view)
}

async fn choose(
    req: &HttpRequest,
    kind: qipan_rules::GameKind,
    code: &str,
    query: &MoveQuery,
    history: Option<&LineBody>,
    pool: &SearchPool,
) -> Result<HttpResponse, ApiError> {
    let ask = MoveAsk::new(query, code)?;
    let thinker = analysis::thinker(subject(kind, code, history)?)?;
    charge_search(req, ask.cost())?;
    let (chosen, elapsed) = pool
        .run(move |stop| {
            let started = Instant::now();
            let chosen = thinker.choose(ask.level, ask.seed, &ask.limits(stop));
            (chosen, started.elapsed())
        })
        .await
        .map_err(refused)?;
    let chosen = chosen.ok_or_else(|| {
        ApiError::Internal(anyhow::anyhow!(
            "the {kind} search found no move in an ongoing position"
        ))
    })?;
    fresh_json(&analysis::move_view(chosen, ask.level, elapsed))
}

/// The position of `code`, with the line `history` gives it (xiangqi only).
fn subject(
    kind: qipan_rules::GameKind,
    code: &str,
    history: Option<&LineBody>,
) -> Result<Subject, ApiError> {
    let position = games::decode(kind, code, "code")?;
    let line = match (&position, history) {
        (_, None) => None,
        (_, Some(line)) => Some(games::history_of(&position, line)?),
    };
    Ok(Subject { position, line })
}

fn refused(r: Refused) -> ApiError {
    match r {
        Refused::Busy { queue } => AnalysisError::Busy { queue }.into(),
        Refused::Closed => AnalysisError::Closed.into(),
    }
}

/// A `200` JSON answer that no cache keeps.
fn fresh_json(body: &impl Serialize) -> Result<HttpResponse, ApiError> {
    let body = serde_json::to_vec(body).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body))
}
