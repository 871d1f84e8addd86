//! The stateless API over codes: start, read, play, import, export.
//!
//! The game is resolved first (by the [`Game`] extractor), so a request for
//! an unknown game is a 404 whatever else is wrong with it.
//!
//! These handlers are the hot path (a cached read answers in microseconds):
//! they run inside the request's span (`crate::telemetry`) and open none of
//! their own.

use crate::http::json::Json;
use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use qipan_rules::GameKind;
use serde_json::value::RawValue;

use crate::configuration::Settings;
use crate::games::{self, Batch};
use crate::http::answer::{base_url, immutable, immutable_json, prefers_html, see_page, Rendered};
use crate::http::cache::ViewCache;
use crate::http::reads::{read_answer, read_view, view_inputs};
use crate::problem::ApiError;
use crate::wire::state::{ExportQuery, StatePlayRequest};
use crate::wire::StartQuery;

/// The `{game}` path segment, parsed.
pub struct Game(pub GameKind);

impl FromRequest for Game {
    type Error = ApiError;
    type Future = Ready<Result<Game, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // A game's own scope carries its kind; the catch-all scope does not.
        if let Some(&kind) = req.app_data::<GameKind>() {
            return ready(Ok(Game(kind)));
        }
        let name = req.match_info().get("game").unwrap_or_default();
        ready(games::kind(name).map(Game).map_err(ApiError::from))
    }
}

/// The configured public URL, if any.
fn configured_base(req: &HttpRequest) -> Option<&str> {
    req.app_data::<web::Data<Settings>>()
        .and_then(|s| s.public_url.as_deref())
}

/// The base of share URLs for this request.
pub struct Base(pub String);

impl FromRequest for Base {
    type Error = ApiError;
    type Future = Ready<Result<Base, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(Base(base_url(req, configured_base(req)))))
    }
}

/// The `{code}` path segment, percent-decoded.
pub struct Code(pub String);

#[derive(serde::Deserialize)]
struct CodeSegment {
    code: String,
}

impl FromRequest for Code {
    type Error = actix_web::Error;
    type Future = Ready<Result<Code, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let raw = req.match_info().get("code").unwrap_or_default();
        if !raw.contains('%') {
            return ready(Ok(Code(raw.to_owned())));
        }
        // Percent-encoded bytes are never part of a code, but the problem
        // should name the character the client meant.
        ready(
            web::Path::<CodeSegment>::extract(req)
                .into_inner()
                .map(|p| Code(p.into_inner().code)),
        )
    }
}

/// `GET /v1/{game}/start`
pub async fn start(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    query: web::Query<StartQuery>,
) -> Result<HttpResponse, ApiError> {
    let (pos, pure) = games::start(kind, &query)?;
    let view = games::view(&pos, &base.0);
    if pure {
        // The view of a code, as its read gives it: tagged alike.
        let url = games::share_url(&base.0, kind, &pos.to_code());
        Ok(immutable(
            &req,
            Rendered::of_inputs(view, &view_inputs(&url)),
        ))
    } else {
        // A random seed was drawn: another request gets another game.
        Ok(HttpResponse::Ok()
            .content_type("application/json")
            .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
            .body(view))
    }
}

/// `GET /v1/{game}/{code}`
pub async fn read(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    cache: web::Data<ViewCache>,
) -> Result<HttpResponse, ApiError> {
    if prefers_html(&req) {
        return Ok(see_page(games::page_url("", kind, &code)));
    }
    let view = read_view(&req, configured_base(&req), &cache, kind, &code)?;
    Ok(read_answer(&req, view))
}

/// `POST /v1/{game}/{code}/play`
pub async fn play(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    Code(code): Code,
    body: Json<StatePlayRequest>,
) -> Result<HttpResponse, ApiError> {
    crate::http::limits::charge_actions(&req, body.actions.len())?;
    let pos = games::decode(kind, &code, "code")?;
    let view = match (&pos, &body.history) {
        (_, None) => games::play(&pos, &body.actions, Batch::default(), &base.0)?.view,
        (_, Some(line)) => games::play_along(&pos, &body.actions, line, &base.0)?,
    };
    // The view is a function of the game, code, actions, history and base:
    // tagged by them.
    // Each list is preceded by its length, so that no two requests give
    // the same inputs.
    let actions = (body.actions.len() as u64).to_le_bytes();
    let moves = body
        .history
        .as_ref()
        .map(|l| (l.moves.len() as u64).to_le_bytes());
    let mut inputs: Vec<&[u8]> = vec![b"play", kind.as_str().as_bytes(), code.as_bytes()];
    inputs.push(&actions);
    inputs.extend(body.actions.iter().map(|a| a.as_bytes()));
    if let (Some(line), Some(moves)) = (&body.history, &moves) {
        inputs.push(line.fen.as_bytes());
        inputs.push(moves);
        inputs.extend(line.moves.iter().map(|m| m.as_bytes()));
    }
    inputs.push(base.0.as_bytes());
    Ok(immutable(&req, Rendered::of_inputs(view, &inputs)))
}

/// `POST /v1/{game}/import`
pub async fn import(
    Game(kind): Game,
    req: HttpRequest,
    base: Base,
    body: Json<Box<RawValue>>,
) -> Result<HttpResponse, ApiError> {
    if kind == GameKind::Tetris && super::records::is_fumen(body.get()) {
        let view = super::records::fumen_import(body.get(), &base.0)?;
        return Ok(immutable_json(&req, view));
    }
    let view = games::import(kind, &body)?.view(&base.0)?;
    Ok(immutable_json(&req, view))
}

/// `GET /v1/{game}/{code}/export?format=`
pub async fn export(
    Game(kind): Game,
    req: HttpRequest,
    Code(code): Code,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let pos = games::decode(kind, &code, "code")?;
    let view: Box<str> = games::export(&pos, query.format.as_deref())?.into();
    Ok(immutable_json(&req, String::from(view)))
}
