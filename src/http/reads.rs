//! Reads of codes, answered before routing.
//!
//! `GET /v1/{game}/{code}` is what a frontend and a shared link ask for
//! most, and its answer needs nothing of the router, the extractors or the
//! middleware between [`super::front`] and the handler: [`Reads::answer`]
//! takes the game and code from the path and answers as
//! `GET /v1/{game}/{code}`'s handler would — the view from the cache, or rendered and
//! kept there — with the CORS headers `actix-cors` would add
//! ([`crate::startup`]'s policy: any origin, no credentials). Anything else
//! goes on to the router: a code that is not one (whose problem the
//! handler writes), a code with percent-escapes, a browser asking for
//! HTML, a path another route takes (`/v1/xiangqi/start`, see [`Routed`]),
//! a path that is not a read.

use std::sync::Arc;

use std::sync::OnceLock;

use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use qipan_rules::GameKind;

use super::answer::{base_url, base_url_of, immutable, prefers_html, Rendered, IMMUTABLE};
use super::exposure;
use crate::games;
use crate::http::cache::ViewCache;
use crate::problem::ApiError;

/// The headers the API exposes to scripts of other origins
/// (`Access-Control-Expose-Headers`).
pub const EXPOSED: [&str; 7] = [
    "ETag",
    "Location",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "WWW-Authenticate",
    "X-Request-Id",
];

/// The route pattern of a game's reads, as the router names it for
/// `/metrics`.
pub fn read_pattern(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Xiangqi => "/v1/xiangqi/{code}",
        GameKind::Gomoku => "/v1/gomoku/{code}",
        GameKind::Twenty48 => "/v1/2048/{code}",
        GameKind::Quoridor => "/v1/quoridor/{code}",
        GameKind::Tetris => "/v1/tetris/{code}",
    }
}

/// The fixed segments after `/v1/{game}/` that routes of a game's scope
/// take besides `{code}`: never read as codes here. The route table
/// (`routes::table::game_routes`) registers one route per variant, matched
/// exhaustively, so a new fixed route cannot miss this list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routed {
    /// `GET /v1/{game}/start`: the starting position.
    Start,
    /// `POST /v1/{game}/import`: a position from another notation.
    Import,
    /// `POST /v1/{game}/records`: a game record.
    Records,
}

impl Routed {
    /// Every fixed segment.
    pub const ALL: [Routed; 3] = [Routed::Start, Routed::Import, Routed::Records];

    /// The segment as the path spells it.
    pub fn segment(self) -> &'static str {
        match self {
            Routed::Start => "start",
            Routed::Import => "import",
            Routed::Records => "records",
        }
    }
}

/// The game and code of a read's path (`/v1/{game}/{code}`, a known game, a
/// code without `/` or `%` that no other route takes), or `None`.
fn read_path(path: &str) -> Option<(GameKind, &str)> {
    let rest = path.strip_prefix("/v1/")?;
    let (game, code) = rest.split_once('/')?;
    let kind = GameKind::ALL.into_iter().find(|k| k.as_str() == game)?;
    let plain = !code.is_empty()
        && !code.bytes().any(|b| b == b'/' || b == b'%')
        && !Routed::ALL.iter().any(|r| r.segment() == code);
    plain.then_some((kind, code))
}

/// The view cache, and what a read's share URL is built from.
#[derive(Clone)]
pub struct Reads {
    cache: web::Data<ViewCache>,
    public_url: Option<Arc<str>>,
}

impl Reads {
    /// Answers with views from `cache` (which may keep nothing), with share
    /// URLs on `public_url` when one is configured.
    pub fn new(cache: web::Data<ViewCache>, public_url: Option<&str>) -> Reads {
        Reads {
            cache,
            public_url: public_url.map(Arc::from),
        }
    }

    /// The answer to `req`, when it is a read of a code.
    pub fn answer(&self, req: &ServiceRequest) -> Option<Read> {
        if !matches!(*req.method(), Method::GET | Method::HEAD) {
            return None;
        }
        let (kind, code) = read_path(req.path())?;
        let http = req.request();
        if prefers_html(http) {
            return None;
        }
        let view = read_view(http, self.public_url.as_deref(), &self.cache, kind, code).ok()?;
        let (mut response, hardened) = match plain_read_answer(http, &view) {
            Some(response) => (response, true),
            None => {
                let mut response = read_answer(http, view);
                response
                    .headers_mut()
                    .insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, exposed());
                (response, false)
            }
        };
        allow_origin(req.headers(), &mut response);
        Some(Read {
            response,
            route: read_pattern(kind),
            hardened,
        })
    }

    /// The answer to `req`, a `GET` that actix-web has not seen (see
    /// [`super::early`]), when it is a read of a code whose answer is a
    /// full `200` in no coding; `own_host` is the host a request without
    /// `Host` names, and `secure` whether the server is reached over TLS
    /// (both as actix-web's configuration has them). Any other request is
    /// `None`, left to [`Reads::answer`] and the router.
    pub fn plain(
        &self,
        req: &actix_http::Request,
        secure: bool,
        own_host: &str,
    ) -> Option<(HttpResponse, &'static str)> {
        if req.method() != Method::GET {
            return None;
        }
        let (kind, code) = read_path(req.path())?;
        if prefers_html(req) {
            return None;
        }
        let base = base_url_of(req, self.public_url.as_deref(), secure, own_host);
        let (key, base_len) = share_key(base, kind, code);
        let view = keyed_view(&self.cache, kind, code, &key, base_len).ok()?;
        let mut response = plain_read_answer(req, &view)?;
        allow_origin(req.headers(), &mut response);
        Some((response, read_pattern(kind)))
    }
}

/// `Access-Control-Allow-Origin: *` on a read's answer to a request from
/// another origin, as `actix-cors` would add it.
fn allow_origin(request: &HeaderMap, response: &mut HttpResponse) {
    if request.contains_key(header::ORIGIN) {
        response.headers_mut().insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
}

/// A read answered before routing.
pub struct Read {
    /// The answer.
    pub response: HttpResponse,
    /// The route pattern to count it under.
    pub route: &'static str,
    /// Whether it has the headers of [`exposure::harden`] already.
    pub hardened: bool,
}

/// A read's answer when it is a full `200` in no coding (nearly always):
/// its fields but `ETag` are the same for every such read, so they are made
/// once, and copied into each answer.
fn plain_read_answer(req: &impl HttpMessage, view: &Rendered) -> Option<HttpResponse> {
    if view.content_type() != JSON {
        return None;
    }
    let (body, etag) = view.plain_answer(req)?;
    let mut response = HttpResponse::with_body(StatusCode::OK, body).map_into_boxed_body();
    let headers = response.headers_mut();
    // Appended one by one into the answer's own map (empty, and with room
    // for them: actix keeps answers' heads for reuse), which costs less
    // than cloning the map whole, a new table each time.
    for (name, value) in read_fields(view.is_encodable()) {
        headers.append(name.clone(), value.clone());
    }
    headers.insert(header::ETAG, etag);
    Some(response)
}

/// The media type of views.
const JSON: HeaderValue = HeaderValue::from_static("application/json");

/// The fields of a full `200` read in no coding but its `ETag`: those
/// [`immutable`], [`read_answer`], [`Reads::answer`] and
/// [`exposure::harden`] give it (a test checks they agree), for a view with
/// compressed forms or without.
fn read_fields(encodable: bool) -> &'static HeaderMap {
    static FIELDS: [OnceLock<HeaderMap>; 2] = [const { OnceLock::new() }; 2];
    FIELDS[usize::from(encodable)].get_or_init(|| {
        let mut fields = HeaderMap::new();
        fields.insert(header::CACHE_CONTROL, IMMUTABLE);
        if encodable {
            fields.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        fields.insert(header::CONTENT_TYPE, JSON);
        fields.append(header::VARY, HeaderValue::from_static("Accept"));
        fields.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, exposed());
        exposure::harden_fields(false, &mut fields);
        fields
    })
}

/// [`EXPOSED`] as one header value.
fn exposed() -> HeaderValue {
    static VALUE: std::sync::OnceLock<HeaderValue> = std::sync::OnceLock::new();
    VALUE
        .get_or_init(|| {
            HeaderValue::from_str(&EXPOSED.join(", ").to_ascii_lowercase())
                .expect("header names joined by commas make a header value")
        })
        .clone()
}

/// The view a read of `code` answers with: from `cache`, or rendered (and
/// kept there) when the code is one.
///
/// # Errors
///
/// [`GameError::InvalidCode`] and the like, when `code` is not a code of
/// the game.
pub fn read_view(
    req: &HttpRequest,
    public_url: Option<&str>,
    cache: &ViewCache,
    kind: GameKind,
    code: &str,
) -> Result<Rendered, ApiError> {
    let (key, base_len) = read_key(req, public_url, kind, code);
    keyed_view(cache, kind, code, &key, base_len)
}

/// [`read_view`] by the read's cache key and the length of its base.
fn keyed_view(
    cache: &ViewCache,
    kind: GameKind,
    code: &str,
    key: &str,
    base_len: usize,
) -> Result<Rendered, ApiError> {
    cache.get_or_render(key, || -> Result<Rendered, ApiError> {
        let pos = games::decode(kind, code, "code")?;
        // The view is a function of its share URL: tagged by it.
        Ok(Rendered::of_inputs(
            games::view(&pos, &key[..base_len]),
            &view_inputs(key),
        ))
    })
}

/// The cache key of a read of `code`: its share URL (on `public_url` when
/// one is configured), with the length of the base before the path. The
/// view is a pure function of it.
pub fn read_key(
    req: &HttpRequest,
    public_url: Option<&str>,
    kind: GameKind,
    code: &str,
) -> (String, usize) {
    share_key(base_url(req, public_url), kind, code)
}

/// The cache key of a read of `code` on `base`, with the base's length.
fn share_key(mut key: String, kind: GameKind, code: &str) -> (String, usize) {
    let base_len = key.len();
    games::push_share_path(&mut key, kind, code);
    (key, base_len)
}

/// A read's answer from its view: immutable, and varying by `Accept`,
/// since browsers are sent to the page instead.
pub fn read_answer(req: &HttpRequest, view: Rendered) -> HttpResponse {
    let mut response = immutable(req, view);
    response.headers_mut().append(
        actix_web::http::header::VARY,
        actix_web::http::header::HeaderValue::from_static("Accept"),
    );
    response
}

/// What the view of a position, read by its share URL `url`, is a function
/// of (besides the build): the URL. A start and a read of the same code
/// are tagged alike.
pub fn view_inputs(url: &str) -> [&[u8]; 2] {
    [b"view", url.as_bytes()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_reads_of_known_games_are_looked_up() {
        assert_eq!(
            read_path("/v1/xiangqi/abc"),
            Some((GameKind::Xiangqi, "abc"))
        );
        assert_eq!(
            read_path("/v1/2048/x-_1"),
            Some((GameKind::Twenty48, "x-_1"))
        );
        for path in [
            "/v1/xiangqi/",
            "/v1/xiangqi",
            "/v1/chess/abc",
            "/v1/xiangqi/abc/play",
            "/v1/xiangqi/abc/",
            "/v1/xiangqi/a%62c",
            "/v1/xiangqi/start",
            "/v1/gomoku/import",
            "/v2/xiangqi/abc",
            "/v1/matches",
        ] {
            assert_eq!(read_path(path), None, "{path}");
        }
    }

    /// The fields of an answer, in a comparable order.
    fn fields(headers: &HeaderMap) -> Vec<(String, Vec<Vec<u8>>)> {
        let mut fields: Vec<(String, Vec<Vec<u8>>)> = headers
            .keys()
            .map(|name| {
                let values = headers
                    .get_all(name)
                    .map(|v| v.as_bytes().to_vec())
                    .collect();
                (name.to_string(), values)
            })
            .collect();
        fields.sort();
        fields
    }

    #[test]
    fn a_plain_read_has_the_fields_of_any_other() {
        use actix_web::test::TestRequest;
        let small = Rendered::new("{}");
        let large = Rendered::new(format!("{{\"a\": \"{}\"}}", "x".repeat(4096)));
        assert!(!small.is_encodable() && large.is_encodable());
        for view in [small, large] {
            let req = TestRequest::get().uri("/v1/xiangqi/abc").to_http_request();
            let plain = plain_read_answer(&req, &view).expect("a plain answer");
            let mut other = read_answer(&req, view.clone());
            other
                .headers_mut()
                .insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, exposed());
            exposure::harden_fields(false, other.headers_mut());
            assert_eq!(fields(plain.headers()), fields(other.headers()));
            assert_eq!(plain.status(), other.status());
        }
        let req = TestRequest::get()
            .uri("/v1/xiangqi/abc")
            .insert_header((header::ACCEPT_ENCODING, "br"))
            .to_http_request();
        let large = Rendered::new(format!("{{\"a\": \"{}\"}}", "x".repeat(4096)));
        assert!(plain_read_answer(&req, &large).is_none());
    }

    #[test]
    fn an_early_read_is_answered_as_before_routing() {
        use actix_web::body::MessageBody;
        use actix_web::test::TestRequest;
        const CODE: &str = "/v1/xiangqi/VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o";
        let request = |origin: bool| {
            let req = TestRequest::get()
                .uri(CODE)
                .insert_header((header::HOST, "localhost:8080"));
            if origin {
                req.insert_header((header::ORIGIN, "https://elsewhere.example"))
            } else {
                req
            }
        };
        for megabytes in [0, 1] {
            let reads = Reads::new(web::Data::new(ViewCache::new(megabytes)), None);
            for origin in [false, true] {
                let (early, route) = reads
                    .plain(&request(origin).to_request(), false, "localhost:8080")
                    .expect("answered early");
                let routed = reads
                    .answer(&request(origin).to_srv_request())
                    .expect("answered before routing");
                assert!(routed.hardened);
                assert_eq!(route, routed.route);
                assert_eq!(early.status(), routed.response.status());
                assert_eq!(fields(early.headers()), fields(routed.response.headers()));
                let body = |r: HttpResponse| r.into_body().try_into_bytes().ok();
                assert_eq!(body(early), body(routed.response));
            }
        }
        // Left to the usual path: not a GET, a browser, a compressed or
        // unchanged answer, a code that is not one, a path that is no read.
        let reads = Reads::new(web::Data::new(ViewCache::new(1)), None);
        let own = |req: TestRequest| reads.plain(&req.to_request(), false, "localhost:8080");
        assert!(own(TestRequest::default().method(Method::HEAD).uri(CODE)).is_none());
        assert!(own(TestRequest::get()
            .uri(CODE)
            .insert_header((header::ACCEPT, "text/html")))
        .is_none());
        assert!(own(TestRequest::get()
            .uri(CODE)
            .insert_header((header::IF_NONE_MATCH, "*")))
        .is_none());
        assert!(own(TestRequest::get()
            .uri(CODE)
            .insert_header((header::ACCEPT_ENCODING, "br")))
        .is_none());
        assert!(own(TestRequest::get().uri("/v1/xiangqi/nope")).is_none());
        assert!(own(TestRequest::get().uri("/v1/xiangqi/start")).is_none());
        assert!(own(TestRequest::get().uri("/healthz")).is_none());
    }

    #[test]
    fn every_game_has_its_read_pattern() {
        for kind in GameKind::ALL {
            assert_eq!(read_pattern(kind), format!("/v1/{kind}/{{code}}"));
        }
    }
}
