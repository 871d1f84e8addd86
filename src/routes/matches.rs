//! Persisted matches: `/v1/matches` and its sub-resources. Handlers parse
//! the id, the seat token, `If-Match` and the body, call [`Matches`] and set
//! the headers: the match version is the `ETag`, answers that carry a secret
//! are never stored by caches.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};

use super::state::Base;
use crate::http::conditional::{self, version_tag};
use crate::http::json::{Json, OptionalJson};
use crate::http::limits::{charge_actions, Admitted, Creates, Writes};
use crate::http::live::LastEventId;
use crate::matches::{
    Effect, Item, Live, MatchError, MatchId, Matches, Outcome, Precondition, SeatCommand, Secret,
    Token,
};
use crate::problem::ApiError;
use crate::wire::matches::{
    ClaimRequest, CreateRequest, DeclineRequest, ForkRequest, InviteQuery, JoinRequest,
};
use crate::wire::PlayRequest;

/// The match service, when the service runs with a database.
#[derive(Clone, Default)]
pub struct MatchService(pub Option<Matches>);

/// The match service of a request: `matches-disabled` without a database.
pub struct Service(pub Matches);

impl FromRequest for Service {
    type Error = ApiError;
    type Future = Ready<Result<Service, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let service = req
            .app_data::<web::Data<MatchService>>()
            .and_then(|s| s.0.clone());
        ready(
            service
                .map(Service)
                .ok_or_else(|| MatchError::Disabled.into()),
        )
    }
}

/// The `{id}` path segment.
pub struct Id(pub MatchId);

impl FromRequest for Id {
    type Error = ApiError;
    type Future = Ready<Result<Id, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let raw = req.match_info().get("id").unwrap_or_default();
        ready(raw.parse().map(Id).map_err(ApiError::from))
    }
}

impl FromRequest for Token {
    type Error = ApiError;
    type Future = Ready<Result<Token, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.trim().split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            })
            .filter(|t| !t.is_empty())
            .map(Secret::presented);
        ready(Ok(Token(token)))
    }
}

impl FromRequest for Precondition {
    type Error = ApiError;
    type Future = Ready<Result<Precondition, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(conditional::precondition(req).map_err(ApiError::from))
    }
}

/// What every write by a seat carries: the service, the match id, the seat
/// token, `If-Match` and the base of URLs — read in that order, so a request
/// that fails several ways gets the problem of the first.
pub struct SeatWrite {
    service: Matches,
    id: MatchId,
    token: Token,
    pre: Precondition,
    base: String,
}

impl FromRequest for SeatWrite {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let Service(service) = Service::extract(&req).await?;
            let Id(id) = Id::extract(&req).await?;
            Admitted::<Writes>::extract(&req).await?;
            let token = Token::extract(&req).await?;
            let pre = Precondition::extract(&req).await?;
            let Base(base) = Base::extract(&req).await?;
            Ok(SeatWrite {
                service,
                id,
                token,
                pre,
                base,
            })
        })
    }
}

/// A match answer: JSON, its version as `ETag`, never stored by shared
/// caches (a match changes; some answers carry a token).
fn answer(status: StatusCode, outcome: Outcome) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("application/json")
        .insert_header(header::ETag(version_tag(outcome.version)))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(outcome.view)
}

/// An answer that created a match: 201 with its `Location`.
pub(super) fn created(base: &str, outcome: Outcome) -> HttpResponse {
    let location = format!("{base}/v1/matches/{}", outcome.id);
    let mut res = answer(StatusCode::CREATED, outcome);
    if let Ok(v) = HeaderValue::from_str(&location) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    res
}

/// A read: `304` when `If-None-Match` names the current version.
fn read(req: &HttpRequest, outcome: Outcome) -> HttpResponse {
    let tag = version_tag(outcome.version);
    let fresh = conditional::client_has(req, &tag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header(header::ETag(tag))
        .insert_header((header::CACHE_CONTROL, "no-cache"));
    if fresh {
        res.finish()
    } else {
        res.content_type("application/json").body(outcome.view)
    }
}

/// `POST /v1/matches`
#[tracing::instrument(skip_all)]
pub async fn create(
    Service(s): Service,
    _: Admitted<Creates>,
    base: Base,
    body: Json<CreateRequest>,
) -> Result<HttpResponse, ApiError> {
    let at = base.0.clone();
    let outcome = s
        .runner()
        .run(async move { s.create(&body, &base.0).await })
        .await?;
    Ok(created(&at, outcome))
}

/// `GET /v1/matches/{id}`
#[tracing::instrument(skip_all)]
pub async fn get(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
    base: Base,
) -> Result<HttpResponse, ApiError> {
    if crate::http::answer::prefers_html(&req) {
        return Ok(crate::http::answer::see_page(format!("/m/{id}")));
    }
    let outcome = s
        .runner()
        .run(async move { s.get(id, &base.0).await })
        .await?;
    let mut response = read(&req, outcome);
    response
        .headers_mut()
        .append(header::VARY, header::HeaderValue::from_static("Accept"));
    Ok(response)
}

/// `GET /v1/matches/{id}/history`
#[tracing::instrument(skip_all)]
pub async fn history(
    Service(s): Service,
    Id(id): Id,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let outcome = s.runner().run(async move { s.history(id).await }).await?;
    Ok(read(&req, outcome))
}

/// `POST /v1/matches/{id}/play`
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn play(
    w: SeatWrite,
    req: HttpRequest,
    body: Json<PlayRequest>,
) -> Result<HttpResponse, ApiError> {
    // What the body says is checked before the match is read, so an empty
    // batch is 400 whatever If-Match says.
    crate::games::check_batch(&body.actions)?;
    charge_actions(&req, body.actions.len())?;
    perform(w, SeatCommand::Play(body.0.actions)).await
}

/// `POST /v1/matches/{id}/undo`: 200 when undone, 202 when offered.
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn undo(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::Undo).await
}

/// `POST /v1/matches/{id}/undo/accept`
pub async fn accept_undo(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::AnswerUndo { accept: true }).await
}

/// `POST /v1/matches/{id}/undo/decline`
pub async fn decline_undo(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::AnswerUndo { accept: false }).await
}

/// `POST /v1/matches/{id}/resign`
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn resign(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::Resign).await
}

/// `POST /v1/matches/{id}/draw`: 202 when the offer stands, 200 when it
/// agreed to the other seat's (the match is drawn).
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn offer_draw(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::OfferDraw).await
}

/// `POST /v1/matches/{id}/draw/accept`
pub async fn accept_draw(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::AnswerDraw { accept: true }).await
}

/// `POST /v1/matches/{id}/draw/decline`
pub async fn decline_draw(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::AnswerDraw { accept: false }).await
}

/// `POST /v1/matches/{id}/claim`: `{"result": "win" | "draw"}` against a
/// side to move that left.
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn claim(w: SeatWrite, body: Json<ClaimRequest>) -> Result<HttpResponse, ApiError> {
    perform(w, SeatCommand::Claim(body.result)).await
}

/// Carries out a seat's command and answers with the match's view.
async fn perform(w: SeatWrite, command: SeatCommand) -> Result<HttpResponse, ApiError> {
    let (outcome, effect) = w
        .service
        .command(w.id, w.token, w.pre, command, w.base)
        .await?;
    Ok(answer(status_of(effect), outcome))
}

/// The status a command's answer has, over HTTP and in a WebSocket `ack`:
/// 200 when done, 202 when asked of the other seat.
pub fn status_of(effect: Effect) -> StatusCode {
    match effect {
        Effect::Done => StatusCode::OK,
        Effect::Offered => StatusCode::ACCEPTED,
    }
}

/// `POST /v1/matches/{id}/fork`
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn fork(
    Service(s): Service,
    Id(id): Id,
    _: Admitted<Creates>,
    token: Token,
    base: Base,
    OptionalJson(body): OptionalJson<ForkRequest>,
) -> Result<HttpResponse, ApiError> {
    let at = base.0.clone();
    let outcome = s
        .runner()
        .run(async move { s.fork(id, &token, &body, &base.0).await })
        .await?;
    Ok(created(&at, outcome))
}

/// `POST /v1/matches/{id}/join`: the invite in the body or the query.
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn join(
    Service(s): Service,
    Id(id): Id,
    _: Admitted<Writes>,
    base: Base,
    query: web::Query<InviteQuery>,
    OptionalJson(body): OptionalJson<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    let invite = body.invite.or(query.into_inner().invite);
    let name = body.name;
    let outcome = s
        .runner()
        .run(async move {
            s.join(id, invite.as_deref(), name.as_deref(), &base.0)
                .await
        })
        .await?;
    Ok(answer(StatusCode::OK, outcome))
}

/// `GET /v1/matches/{id}/events`: the match's live events, as Server-Sent
/// Events; `Last-Event-ID` resumes after the event it names. With a seat
/// token (`Authorization: Bearer`), the stream holds the seat online.
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn events(
    Service(s): Service,
    Id(id): Id,
    token: Token,
    req: HttpRequest,
    base: Base,
) -> Result<HttpResponse, ApiError> {
    let LastEventId(last) = LastEventId::read(&req)?;
    let held = match token.0 {
        Some(_) => Some(s.hold(id, s.authenticate(id, &token).await?).await?),
        None => None,
    };
    let feed = s.feed(id, last, base.0, held).await?;
    Ok(event_stream(feed))
}

/// A live feed as a `text/event-stream` answer.
pub fn event_stream(feed: impl Live + 'static) -> HttpResponse {
    use futures_util::StreamExt;
    let items = futures_util::stream::unfold(feed, |mut feed| async move {
        let item = feed.next().await?;
        Some((item, feed))
    });
    let body = items.map(|item| {
        Ok::<_, std::convert::Infallible>(match item {
            Item::Frame(frame) => frame.sse(),
            Item::KeepAlive => web::Bytes::from_static(b": keep-alive\n\n"),
        })
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // Proxies that buffer answers would hold events back.
        .insert_header(("x-accel-buffering", "no"))
        .streaming(body)
}

/// `POST /v1/matches/{id}/invite`: new invites for the open seats.
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn invite(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    let outcome = w
        .service
        .runner()
        .run(async move { w.service.invite(w.id, &w.token, w.pre, &w.base).await })
        .await?;
    Ok(answer(StatusCode::OK, outcome))
}

/// `POST /v1/matches/{id}/invite/withdraw`
#[tracing::instrument(skip_all, fields(id = %w.id))]
pub async fn withdraw_invites(w: SeatWrite) -> Result<HttpResponse, ApiError> {
    let outcome = w
        .service
        .runner()
        .run(async move {
            w.service
                .withdraw_invites(w.id, &w.token, w.pre, &w.base)
                .await
        })
        .await?;
    Ok(answer(StatusCode::OK, outcome))
}

/// `POST /v1/matches/{id}/invite/decline`: the invite in the body or the
/// query.
#[tracing::instrument(skip_all, fields(id = %id))]
pub async fn decline_invite(
    Service(s): Service,
    Id(id): Id,
    _: Admitted<Writes>,
    base: Base,
    query: web::Query<InviteQuery>,
    OptionalJson(body): OptionalJson<DeclineRequest>,
) -> Result<HttpResponse, ApiError> {
    let invite = body.invite.or(query.into_inner().invite);
    let outcome = s
        .runner()
        .run(async move {
            s.decline_invite(id, invite.as_deref(), body.reason.as_deref(), &base.0)
                .await
        })
        .await?;
    Ok(answer(StatusCode::OK, outcome))
}
