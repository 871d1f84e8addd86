//! HTTP handlers, one file per resource. Handlers only parse the request,
//! call into [`crate::games`] and map the result to a response.

pub mod docs;
pub mod games;
pub mod health;
pub mod matches;
pub mod state;

use actix_web::http::header::{self, HeaderValue};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};

/// A hash of a body for its strong `ETag`: stable across runs and builds, and
/// word-at-a-time so a 7 KB view hashes in well under a microsecond. (An
/// `ETag` only needs to change when the body does; this is no MAC.)
fn body_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in words.by_ref() {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h.rotate_left(23) ^ w).wrapping_mul(K);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(23) ^ u64::from(b)).wrapping_mul(K);
    }
    // Final avalanche (the SplitMix64 finaliser).
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A JSON body ready to send, with its strong `ETag`. Cheap to clone.
#[derive(Clone)]
pub struct Rendered {
    body: Bytes,
    etag: HeaderValue,
}

impl Rendered {
    /// Wraps a body and computes its `ETag`.
    pub fn new(body: Vec<u8>) -> Rendered {
        let etag = format!("\"{:016x}\"", body_hash(&body));
        Rendered {
            body: Bytes::from(body),
            etag: HeaderValue::from_str(&etag)
                .unwrap_or_else(|_| HeaderValue::from_static("\"0\"")),
        }
    }

    /// Size in bytes, for the cache's budget.
    pub fn weight(&self) -> u64 {
        self.body.len() as u64 + 64
    }
}

/// Whether an `If-None-Match` header matches `etag` (weak comparison, as
/// RFC 9110 §13.1.2 asks for this header).
fn none_match(header: &HeaderValue, etag: &HeaderValue) -> bool {
    let (Ok(text), Ok(etag)) = (header.to_str(), etag.to_str()) else {
        return false;
    };
    text.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

/// A response that is a pure function of its request: strong `ETag`,
/// cacheable forever, and `304 Not Modified` when the client has it.
pub fn immutable(req: &HttpRequest, rendered: Rendered) -> HttpResponse {
    if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .is_some_and(|h| none_match(h, &rendered.etag))
    {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, rendered.etag))
            .insert_header((header::CACHE_CONTROL, IMMUTABLE))
            .finish();
    }
    HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ))
        .insert_header((header::ETAG, rendered.etag))
        .insert_header((header::CACHE_CONTROL, IMMUTABLE))
        .body(rendered.body)
}

/// [`immutable`] for a freshly rendered body.
pub fn immutable_json(req: &HttpRequest, body: Vec<u8>) -> HttpResponse {
    immutable(req, Rendered::new(body))
}

/// The base of share URLs: the configured public URL, or the scheme and
/// `Host` of the request itself. Forwarding headers are not trusted: behind a
/// proxy, configure the public URL.
pub fn base_url(req: &HttpRequest, configured: Option<&str>) -> String {
    match configured {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => {
            let config = req.app_config();
            let scheme = if config.secure() { "https" } else { "http" };
            let host = req
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or_else(|| config.host());
            let mut base = String::with_capacity(scheme.len() + host.len() + 96);
            base.push_str(scheme);
            base.push_str("://");
            base.push_str(host);
            base
        }
    }
}
