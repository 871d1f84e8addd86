//! HTTP handlers, one file per resource. Handlers only parse the request,
//! call into [`crate::games`] and map the result to a response.

pub mod docs;
pub mod games;
pub mod health;
pub mod state;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};

/// FNV-1a, 64 bits: a stable hash of a body for its strong `ETag`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether an `If-None-Match` header matches `etag` (weak comparison, as
/// RFC 9110 §13.1.2 asks for this header).
fn none_match(header: &HeaderValue, etag: &str) -> bool {
    let Ok(text) = header.to_str() else {
        return false;
    };
    text.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

/// A response that is a pure function of its request: strong `ETag`,
/// cacheable forever, and `304 Not Modified` when the client has it.
pub fn immutable_json(req: &HttpRequest, body: Vec<u8>) -> HttpResponse {
    let etag = format!("\"{:016x}\"", fnv1a(&body));
    let cache = (header::CACHE_CONTROL, "public, max-age=31536000, immutable");
    if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .is_some_and(|h| none_match(h, &etag))
    {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .insert_header(cache)
            .finish();
    }
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::ETAG, etag))
        .insert_header(cache)
        .body(body)
}

/// The base of share URLs: the configured public URL, or the request's own
/// scheme and host.
pub fn base_url(req: &HttpRequest, configured: Option<&str>) -> String {
    match configured {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => {
            let info = req.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    }
}
