//! Answers the handlers share: a rendered body with its strong entity tag
//! and its compressed forms ([`Rendered`]), sent as immutable or
//! revalidated, and the base URL share links are built from.

use std::sync::{Arc, OnceLock};

use actix_web::http::header::{self, Accept, EntityTag, Header, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, HttpResponse};

use super::conditional;
use super::encoding::{self, Coding, Effort};

/// A body ready to send (JSON unless [`Rendered::typed`] says otherwise), with its strong entity tag (and that tag
/// written once as a header value, since cached bodies are sent many
/// times). Cheap to clone.
#[derive(Clone)]
pub struct Rendered {
    body: Bytes,
    content_type: HeaderValue,
    etag: EntityTag,
    etag_header: HeaderValue,
    /// The brotli and gzip forms, made on first use (when the body is
    /// worth compressing), kept with the body in the view cache.
    encoded: Option<Arc<[OnceLock<Encoded>; 2]>>,
    /// How hard to compress: harder for a body the cache keeps.
    effort: Effort,
}

/// A compressed form of a [`Rendered`] body, with its own entity tag.
struct Encoded {
    body: Bytes,
    etag: EntityTag,
    etag_header: HeaderValue,
}

impl Rendered {
    /// Wraps a body and computes its entity tag.
    pub fn new(body: impl Into<Bytes>) -> Rendered {
        Rendered::typed(body, HeaderValue::from_static("application/json"))
    }

    /// Wraps a JSON body that is a pure function of `inputs` (and of the
    /// build), tagged by them ([`conditional::input_tag`]) rather than by
    /// its bytes.
    pub fn of_inputs(body: impl Into<Bytes>, inputs: &[&[u8]]) -> Rendered {
        Rendered::tagged(
            body.into(),
            HeaderValue::from_static("application/json"),
            conditional::input_tag(inputs),
        )
    }

    /// Wraps a body of another media type (a picture, a page).
    pub fn typed(body: impl Into<Bytes>, content_type: HeaderValue) -> Rendered {
        let body = body.into();
        let etag = conditional::body_tag(&body);
        Rendered::tagged(body, content_type, etag)
    }

    fn tagged(body: Bytes, content_type: HeaderValue, etag: EntityTag) -> Rendered {
        let etag_header = HeaderValue::from_str(&conditional::tag_text(&etag))
            .expect("a quoted run of hex digits is a valid header value");
        let encoded = (body.len() >= encoding::MIN_SIZE && encoding::compressible(&content_type))
            .then(|| Arc::new([OnceLock::new(), OnceLock::new()]));
        Rendered {
            body,
            content_type,
            etag,
            etag_header,
            encoded,
            effort: Effort::Each,
        }
    }

    /// The same body, to be kept in a cache and sent many times: its
    /// compressed forms are worth more effort.
    #[must_use]
    pub fn kept(self) -> Rendered {
        Rendered {
            effort: Effort::Once,
            ..self
        }
    }

    /// The body, uncompressed.
    pub fn body(&self) -> Bytes {
        self.body.clone()
    }

    /// Size in bytes, for the cache's budget: the body and room for its
    /// compressed forms (a fifth of it, about what JSON compresses to).
    pub fn weight(&self) -> u64 {
        let room = if self.encoded.is_some() {
            self.body.len() as u64 / 5
        } else {
            0
        };
        self.body.len() as u64 + room + 64
    }

    /// The media type of the body.
    pub fn content_type(&self) -> &HeaderValue {
        &self.content_type
    }

    /// Whether the body has compressed forms (and its answers vary by
    /// `Accept-Encoding`).
    pub fn is_encodable(&self) -> bool {
        self.encoded.is_some()
    }

    /// The body and `ETag` of [`immutable`]'s answer to `req` when it is a
    /// full `200` in no coding (not `304`, not compressed), for an answer
    /// whose other fields are made once ([`crate::http::reads`]).
    pub fn plain_answer(&self, req: &impl HttpMessage) -> Option<(Bytes, HeaderValue)> {
        let (body, etag, etag_header, coding) = self.form(req);
        (coding == Coding::Identity && !conditional::client_has(req, etag))
            .then(|| (body, etag_header.clone()))
    }

    /// The body, tag and coding to answer `req` with.
    fn form(&self, req: &impl HttpMessage) -> (Bytes, &EntityTag, &HeaderValue, Coding) {
        let plain = (
            self.body.clone(),
            &self.etag,
            &self.etag_header,
            Coding::Identity,
        );
        let Some(forms) = &self.encoded else {
            return plain;
        };
        let coding = encoding::negotiate(req);
        let slot = match coding {
            Coding::Brotli => 0,
            Coding::Gzip => 1,
            Coding::Identity => return plain,
        };
        let form = forms[slot].get_or_init(|| {
            let etag = EntityTag::new_strong(format!("{}{}", self.etag.tag(), coding.tag_suffix()));
            let etag_header = HeaderValue::from_str(&etag.to_string())
                .expect("a quoted run of hex digits and a suffix is a valid header value");
            Encoded {
                body: coding.encode(&self.body, self.effort),
                etag,
                etag_header,
            }
        });
        (form.body.clone(), &form.etag, &form.etag_header, coding)
    }
}

pub(crate) const IMMUTABLE: HeaderValue =
    HeaderValue::from_static("public, max-age=31536000, immutable");

/// How long a description of the service itself (the games list) may be
/// served from a cache before it is asked again: a deploy that adds a
/// variant shows within minutes.
const DESCRIPTION: HeaderValue = HeaderValue::from_static("public, max-age=300");

/// A response that is a pure function of its request: strong `ETag`,
/// cacheable forever, and `304 Not Modified` when the client has it.
pub fn immutable(req: &HttpRequest, rendered: Rendered) -> HttpResponse {
    cached(req, rendered, IMMUTABLE)
}

/// A response about the running service (which a deploy may change):
/// strong `ETag`, cacheable for five minutes, then revalidated.
pub fn revalidated_json(req: &HttpRequest, body: impl Into<Bytes>) -> HttpResponse {
    cached(req, Rendered::new(body), DESCRIPTION)
}

/// An answer with its entity tag and caching policy, or `304` when
/// the client has it.
fn cached(req: &HttpRequest, rendered: Rendered, policy: HeaderValue) -> HttpResponse {
    let (body, etag, etag_header, coding) = rendered.form(req);
    let unchanged = conditional::client_has(req, etag);
    // Fields put straight into the answer's map, as values made once: no
    // builder, no text parsed into a value on every answer.
    let mut res = if unchanged {
        HttpResponse::new(StatusCode::NOT_MODIFIED)
    } else {
        HttpResponse::with_body(StatusCode::OK, body).map_into_boxed_body()
    };
    let headers = res.headers_mut();
    headers.insert(header::ETAG, etag_header.clone());
    headers.insert(header::CACHE_CONTROL, policy);
    if rendered.encoded.is_some() {
        headers.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    if unchanged {
        return res;
    }
    if coding != Coding::Identity {
        headers.insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static(coding.token()),
        );
    }
    headers.insert(header::CONTENT_TYPE, rendered.content_type);
    res
}

/// [`immutable`] for a freshly rendered body.
pub fn immutable_json(req: &HttpRequest, body: impl Into<Bytes>) -> HttpResponse {
    immutable(req, Rendered::new(body))
}

/// The base of share URLs: the configured public URL, or the scheme and
/// `Host` of the request itself. Forwarding headers are not trusted: behind a
/// proxy, configure the public URL.
pub fn base_url(req: &HttpRequest, configured: Option<&str>) -> String {
    let config = req.app_config();
    base_url_of(req, configured, config.secure(), config.host())
}

/// [`base_url`] for any request, given what actix-web's configuration
/// says of the server: whether it is reached over TLS, and the host a
/// request without `Host` names.
pub fn base_url_of(
    req: &impl HttpMessage,
    configured: Option<&str>,
    secure: bool,
    own_host: &str,
) -> String {
    match configured {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => {
            let scheme = if secure { "https" } else { "http" };
            let host = req
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or(own_host);
            let mut base = String::with_capacity(scheme.len() + host.len() + 96);
            base.push_str(scheme);
            base.push_str("://");
            base.push_str(host);
            base
        }
    }
}

/// Whether the client ranks HTML first in `Accept`: a browser opening a
/// link, not a program.
pub fn prefers_html(req: &impl HttpMessage) -> bool {
    // Programs send no `Accept`, `*/*` or `application/json`: no `html`
    // anywhere, and then nothing to parse (parsing and ranking media
    // ranges costs more than a cached answer's lookup).
    let mentions_html = req.headers().get_all(header::ACCEPT).any(|v| {
        v.as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"html"))
    });
    mentions_html
        && Accept::parse(req).is_ok_and(|accept| {
            accept
                .ranked()
                .first()
                .is_some_and(|m| m.type_() == "text" && m.subtype() == "html")
        })
}

/// `303 See Other` to a page, varying by `Accept` like the JSON it stands
/// in for.
pub fn see_page(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::VARY, "Accept"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .finish()
}
