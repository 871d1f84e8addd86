//! Compressed answers, negotiated with `Accept-Encoding`: brotli or gzip,
//! for every JSON, SVG, HTML, YAML, JavaScript and CSS answer of at least
//! [`MIN_SIZE`] bytes, with `Vary: Accept-Encoding`. Pictures in PNG, event
//! streams and answers under the size go as they are.
//!
//! Two paths:
//! - a cached answer (state views, pictures, `/v1/games`:
//!   [`super::answer::Rendered`]) keeps each compressed form beside its body, made
//!   once at a high level on the first request that asks for it, so a cache
//!   hit costs no compression. Its entity tag names the form (`"…"`,
//!   `"…-br"`, `"…-gz"`), as RFC 9110 asks of a strong tag;
//! - every other answer (match views, problems, pages) is compressed on the
//!   way out by [`compress`], at a fast level. A strong entity tag
//!   gets the coding's suffix there too (`If-None-Match` with it is
//!   understood), except a match version, which stays as it is whatever
//!   the coding, because clients send it back in `If-Match`.

use std::io::Write;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::HttpMessage;

/// Bodies smaller than this go uncompressed: the saving would not pay for
/// the header and the work.
pub const MIN_SIZE: usize = 1024;

/// A content coding the service sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `br`.
    Brotli,
    /// `gzip`.
    Gzip,
    /// No coding.
    Identity,
}

/// How hard to compress: once for a cached answer, or for every answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// Cached: made once, sent many times.
    Once,
    /// Made for one answer.
    Each,
}

impl Coding {
    /// The `Content-Encoding` value.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
            Coding::Identity => "identity",
        }
    }

    /// The suffix of a cached answer's entity tag in this coding.
    pub fn tag_suffix(self) -> &'static str {
        match self {
            Coding::Brotli => "-br",
            Coding::Gzip => "-gz",
            Coding::Identity => "",
        }
    }

    /// `body` in this coding.
    pub fn encode(self, body: &[u8], effort: Effort) -> Bytes {
        match self {
            Coding::Identity => Bytes::copy_from_slice(body),
            Coding::Gzip => {
                let level = match effort {
                    Effort::Once => flate2::Compression::best(),
                    Effort::Each => flate2::Compression::fast(),
                };
                let mut out =
                    flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 4), level);
                // Writing to a Vec cannot fail.
                let _ = out.write_all(body);
                Bytes::from(out.finish().unwrap_or_default())
            }
            Coding::Brotli => {
                // Quality 11 takes about 28 ms on a 7 KB view and 5 about
                // 0.6 ms, for 15% more bytes; 1 about 50 µs, as fast as
                // gzip's level 1 (measured with this crate, 2026-11-24).
                let quality = match effort {
                    Effort::Once => 5,
                    Effort::Each => 1,
                };
                let mut out = Vec::with_capacity(body.len() / 4);
                {
                    let mut w = brotli::CompressorWriter::new(&mut out, 4096, quality, 22);
                    let _ = w.write_all(body);
                }
                Bytes::from(out)
            }
        }
    }
}

/// The coding to answer `req` in: brotli, else gzip, as the client's
/// `Accept-Encoding` allows (a `q` of 0 refuses a coding, `*` stands for
/// any not named), else none. Between two it weighs alike, brotli. (Any
/// request: actix-web's, or actix-http's before routing, see
/// [`super::early`].)
pub fn negotiate(req: &impl HttpMessage) -> Coding {
    let mut best = (Coding::Identity, 0u16);
    let (mut br, mut gzip, mut any) = (None, None, None);
    for value in req.headers().get_all(header::ACCEPT_ENCODING) {
        let Ok(text) = value.to_str() else { continue };
        for item in text.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            // No weight is 1; a weight that is not one refuses the coding.
            let q = parts
                .map(str::trim)
                .find_map(|p| p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")))
                .map_or(Some(1000), quality)
                .unwrap_or(0);
            match name.as_str() {
                "br" => br = Some(q),
                "gzip" | "x-gzip" => gzip = Some(q),
                "*" => any = Some(q),
                _ => {}
            }
        }
    }
    for (coding, q) in [(Coding::Brotli, br.or(any)), (Coding::Gzip, gzip.or(any))] {
        if let Some(q) = q.filter(|&q| q > best.1) {
            best = (coding, q);
        }
    }
    best.0
}

/// A `q` value in thousandths (`1`, `0.5`, `0.001`), or `None`.
fn quality(text: &str) -> Option<u16> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac: u16 = format!("{frac:0<3}").parse().ok()?;
    match whole {
        "0" => Some(frac),
        "1" if frac == 0 => Some(1000),
        _ => None,
    }
}

/// Whether answers of this media type are worth compressing.
pub fn compressible(content_type: &HeaderValue) -> bool {
    // Views' own type, at once (nearly every answer).
    if content_type.as_bytes() == b"application/json" {
        return true;
    }
    let Ok(text) = content_type.to_str() else {
        return false;
    };
    let essence = text.split(';').next().unwrap_or("").trim();
    essence.starts_with("text/") && essence != "text/event-stream"
        || matches!(
            essence,
            "application/json"
                | "application/problem+json"
                | "application/yaml"
                | "application/javascript"
                | "image/svg+xml"
        )
}

/// Whether the answer's coding was chosen already: it has one, or it says
/// it varies with `Accept-Encoding` (a cached answer in its plain form).
fn decided(headers: &header::HeaderMap) -> bool {
    headers.contains_key(header::CONTENT_ENCODING)
        || headers
            .get_all(header::VARY)
            .any(|v| v.as_bytes().eq_ignore_ascii_case(b"accept-encoding"))
}

/// Whether an entity tag is a match version (`"7"`).
fn is_version_tag(tag: &str) -> bool {
    tag.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
}

/// Compresses an answer that is not compressed yet (see the module
/// documentation), and says `Vary: Accept-Encoding` on every answer whose
/// form depends on it. Run on every routed answer by [`super::front`].
pub fn compress<B: MessageBody + 'static>(res: ServiceResponse<B>) -> ServiceResponse<BoxBody> {
    let eligible = !matches!(
        res.status(),
        StatusCode::NO_CONTENT | StatusCode::NOT_MODIFIED | StatusCode::SWITCHING_PROTOCOLS
    ) && !decided(res.headers())
        && res
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(compressible);
    if !eligible {
        return res.map_into_boxed_body();
    }
    let coding = negotiate(res.request());
    let (req, res) = res.into_parts();
    let (mut res, body) = res.into_parts();
    let body = match body.try_into_bytes() {
        Ok(body) => body,
        // A streamed body goes as it is.
        Err(body) => {
            return ServiceResponse::new(req, res.set_body(body).map_into_boxed_body());
        }
    };
    if body.len() < MIN_SIZE {
        return ServiceResponse::new(req, res.set_body(BoxBody::new(body)));
    }
    res.headers_mut()
        .append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    let body = if coding == Coding::Identity {
        body
    } else {
        res.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(coding.token()),
        );
        // A strong tag names one form; a match version stays as it is,
        // for If-Match.
        let suffixed = res
            .headers()
            .get(header::ETAG)
            .and_then(|t| t.to_str().ok())
            .filter(|t| !is_version_tag(t))
            .and_then(|t| t.strip_suffix('"'))
            .and_then(|t| HeaderValue::from_str(&format!("{t}{}\"", coding.tag_suffix())).ok());
        if let Some(tag) = suffixed {
            res.headers_mut().insert(header::ETAG, tag);
        }
        coding.encode(&body, Effort::Each)
    };
    ServiceResponse::new(req, res.set_body(BoxBody::new(body)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn pick(accept: &str) -> Coding {
        negotiate(
            &TestRequest::default()
                .insert_header((header::ACCEPT_ENCODING, accept))
                .to_http_request(),
        )
    }

    #[test]
    fn negotiation_follows_the_weights() {
        assert_eq!(
            negotiate(&TestRequest::default().to_http_request()),
            Coding::Identity
        );
        assert_eq!(pick("gzip, deflate, br"), Coding::Brotli);
        assert_eq!(pick("gzip"), Coding::Gzip);
        assert_eq!(pick("br;q=0.5, gzip"), Coding::Gzip);
        assert_eq!(pick("br;q=0, gzip;q=0"), Coding::Identity);
        assert_eq!(pick("*"), Coding::Brotli);
        assert_eq!(pick("*;q=0.1, br;q=0"), Coding::Gzip);
        assert_eq!(pick("identity"), Coding::Identity);
        assert_eq!(pick("zstd, deflate"), Coding::Identity);
        assert_eq!(pick("br;q=2"), Coding::Identity);
    }

    #[test]
    fn every_coding_reads_back() {
        use std::io::Read;
        let body = br#"{"a": "the same text again and again and again and again"}"#.repeat(40);
        for effort in [Effort::Once, Effort::Each] {
            let gz = Coding::Gzip.encode(&body, effort);
            let mut back = Vec::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(back, body);
            let br = Coding::Brotli.encode(&body, effort);
            let mut back = Vec::new();
            brotli::Decompressor::new(&br[..], 4096)
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(back, body);
            assert!(gz.len() < body.len() / 5 && br.len() < body.len() / 5);
        }
    }
}
