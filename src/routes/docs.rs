//! The service describing itself: `/openapi.yaml` and `/problems/{kind}`,
//! the page every problem's `type` URI points at.

use actix_web::{web, HttpResponse};

use crate::problem::{Problem, ProblemKind};

/// The OpenAPI document, compiled in from the repository root.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// Serves `openapi.yaml`.
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/yaml")
        .body(OPENAPI_YAML)
}

/// Describes one problem type.
pub async fn problem(kind: web::Path<String>) -> HttpResponse {
    match ProblemKind::ALL
        .into_iter()
        .find(|k| k.slug() == kind.as_str())
    {
        Some(k) => HttpResponse::Ok().json(serde_json::json!({
            "type": k.type_uri(),
            "title": k.title(),
            "status": k.status().as_u16(),
            "description": k.description(),
        })),
        None => Problem::new(
            ProblemKind::NotFound,
            format!("no problem type {:?}", kind.as_str()),
        )
        .response(),
    }
}
