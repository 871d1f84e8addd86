//! `GET /healthz`: the process is up and serving.

use actix_web::HttpResponse;

/// Answers `{"status": "ok"}`.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(serde_json::json!({ "status": "ok" }))
}
