//! Headers every answer carries against sniffing, framing and leaking
//! addresses:
//!
//! - `X-Content-Type-Options: nosniff` on every answer: a browser takes a
//!   body for what its `Content-Type` says, never for what it looks like;
//! - `Referrer-Policy: no-referrer`: page addresses can carry invites and
//!   match ids, and none of them goes to another site;
//! - `Content-Security-Policy: frame-ancestors 'none'` and
//!   `X-Frame-Options: DENY` on everything but pictures and the share
//!   pages: the playground and the match pages have one-click buttons
//!   (accept a draw, claim) acting with the seat token the browser keeps,
//!   so no other site may frame them under a decoy. The share pages,
//!   `/p/…` and `/m/…`, are read-only and stay embeddable: embedding a
//!   position or a match is a feature (docs/security.md);
//! - a restrictive policy on SVG pictures (no scripts, no fetches, a
//!   sandbox), should one ever be opened as a document.

use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderMap, HeaderValue};

/// The policy of SVG answers.
pub const SVG_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; sandbox";

/// Adds the headers to an answer on its way out.
pub fn harden(res: &mut ServiceResponse<BoxBody>) {
    let path = res.request().path();
    let embeddable = path.starts_with("/p/") || path.starts_with("/m/");
    harden_fields(embeddable, res.headers_mut());
}

/// Adds the headers to the fields of an answer, embeddable or not.
pub fn harden_fields(embeddable: bool, headers: &mut HeaderMap) {
    // The media type, as written (compared without regard to case); JSON,
    // nearly every answer's, is known at once.
    let kind = headers
        .get(header::CONTENT_TYPE)
        .map(HeaderValue::as_bytes)
        .filter(|v| *v != b"application/json")
        .map(|v| {
            let end = v.iter().position(|&b| b == b';').unwrap_or(v.len());
            v[..end].trim_ascii()
        });
    let svg = kind.is_some_and(|k| k.eq_ignore_ascii_case(b"image/svg+xml"));
    let image = kind.is_some_and(|k| k.len() >= 6 && k[..6].eq_ignore_ascii_case(b"image/"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    match () {
        () if svg => {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(SVG_POLICY),
            );
        }
        () if image || embeddable => {}
        () => {
            headers.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("frame-ancestors 'none'"),
            );
            headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        }
    }
}
