//! The edge's own errors as problems: what actix's extractors and router
//! refuse (JSON, query and path errors, no route, a method a route does not
//! take, any plain error answer), and the errors of this module's
//! extractors. Domain errors become problems in `crate::problem`.

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse};

use super::conditional::IfMatchError;
use super::json::{MalformedJson, NotJson};
use super::live::{BadLastEventId, NotAWebSocket};
use crate::problem::{ApiError, Problem, ProblemKind, PROBLEM_JSON};
use crate::wire::problem::{AllowMembers, FieldMembers, LimitMembers, Members, SyntaxMembers};

fn field(name: &str) -> Members {
    Members::Field(FieldMembers {
        field: name.to_owned(),
        index: None,
        supported: None,
    })
}

impl From<MalformedJson> for ApiError {
    fn from(e: MalformedJson) -> ApiError {
        Problem::new(ProblemKind::MalformedBody, e.to_string()).into()
    }
}

impl From<NotJson> for ApiError {
    fn from(e: NotJson) -> ApiError {
        Problem::new(ProblemKind::UnsupportedMediaType, e.to_string()).into()
    }
}

impl From<NotAWebSocket> for ApiError {
    fn from(e: NotAWebSocket) -> ApiError {
        Problem::new(ProblemKind::NotAWebSocket, e.to_string()).into()
    }
}

impl From<BadLastEventId> for ApiError {
    fn from(e: BadLastEventId) -> ApiError {
        Problem::with(ProblemKind::InvalidField, e.to_string(), field(e.field)).into()
    }
}

impl From<IfMatchError> for ApiError {
    fn from(e: IfMatchError) -> ApiError {
        Problem::with(ProblemKind::InvalidField, e.to_string(), field("If-Match")).into()
    }
}

/// Turns actix's JSON extractor errors into problems.
pub fn json_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as E;
    let problem = match &err {
        E::OverflowKnownLength { length, limit } => Problem::with(
            ProblemKind::BodyTooLarge,
            format!("the body has {length} bytes, at most {limit} are accepted"),
            Members::Limit(LimitMembers { limit: *limit }),
        ),
        E::Overflow { limit } => Problem::with(
            ProblemKind::BodyTooLarge,
            format!("the body is larger than {limit} bytes"),
            Members::Limit(LimitMembers { limit: *limit }),
        ),
        E::ContentType => return ApiError::from(NotJson::of(req)).into(),
        E::Deserialize(e) => {
            let detail = format!("the body is not valid here: {e}");
            if e.is_data() {
                Problem::new(ProblemKind::MalformedBody, detail)
            } else {
                let at = SyntaxMembers {
                    line: e.line(),
                    column: e.column(),
                };
                Problem::with(ProblemKind::MalformedBody, detail, Members::Syntax(at))
            }
        }
        other => Problem::new(
            ProblemKind::MalformedBody,
            format!("the body could not be read: {other}"),
        ),
    };
    ApiError::Problem(problem).into()
}

/// Turns actix's query extractor errors into problems.
pub fn query_error(
    err: actix_web::error::QueryPayloadError,
    _req: &HttpRequest,
) -> actix_web::Error {
    ApiError::Problem(Problem::new(ProblemKind::InvalidQuery, err.to_string())).into()
}

/// Turns actix's path extractor errors into problems.
pub fn path_error(err: actix_web::error::PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::Problem(Problem::new(ProblemKind::NotFound, err.to_string())).into()
}

/// The default service: no route matched.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    Problem::new(
        ProblemKind::NotFound,
        format!("no route matches {} {}", req.method(), req.path()),
    )
    .response()
}

/// A resource's default service: the path exists but not for this method.
pub fn method_not_allowed(
    allow: &'static [&'static str],
) -> impl Fn(HttpRequest) -> std::future::Ready<HttpResponse> + Clone {
    move |req: HttpRequest| {
        std::future::ready(
            Problem::with(
                ProblemKind::MethodNotAllowed,
                format!(
                    "{} does not take {}; it takes {}",
                    req.path(),
                    req.method(),
                    allow.join(", ")
                ),
                Members::Allow(AllowMembers { allow }),
            )
            .response(),
        )
    }
}

/// Rewrites any error response that is not yet a problem (raised by actix
/// itself before a handler ran) as one, keeping its status.
pub fn render_plain_errors<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == HeaderValue::from_static(PROBLEM_JSON));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let kind = match status {
        StatusCode::NOT_FOUND => ProblemKind::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ProblemKind::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ProblemKind::BodyTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ProblemKind::UnsupportedMediaType,
        _ if res
            .response()
            .error()
            .and_then(|e| e.as_error::<actix_cors::CorsError>())
            .is_some() =>
        {
            ProblemKind::CorsRefused
        }
        s if s.is_server_error() => ProblemKind::Internal,
        _ => ProblemKind::MalformedBody,
    };
    let detail = res
        .response()
        .error()
        .map(|e| e.to_string())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_owned());
    let response = Problem::new(kind, detail)
        .response_with(status)
        .map_into_boxed_body();
    let (req, _) = res.into_parts();
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, response).map_into_right_body::<B>(),
    ))
}
