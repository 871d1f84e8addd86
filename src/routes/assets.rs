//! The browser side of qipan, compiled into the binary: the playground at
//! `/` (and `/play/{game}/{code}`, the address it keeps in the bar) and
//! its files under `/static/`. Nothing is fetched from elsewhere at run
//! time, so the playground works offline.
//!
//! Release builds embed `static/`; debug builds read it from disk, so a
//! change to a page shows on reload.

use actix_web::http::header::{self, EntityTag, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse, HttpResponseBuilder};
use rust_embed::{EmbeddedFile, RustEmbed};

use crate::http::conditional;
use crate::pages::i18n::{self, Lang};
use crate::problem::{Problem, ProblemKind};

/// The files of `static/`.
#[derive(RustEmbed)]
#[folder = "static/"]
struct Static;

/// Pages and scripts change with a deploy: cached for five minutes, then
/// revalidated with their entity tag.
const POLICY: HeaderValue = HeaderValue::from_static("public, max-age=300");

/// `GET /`, `GET /play/{game}` and `GET /play/{game}/{code}`: the
/// playground, which reads the position from its own address, in the
/// reader's language.
pub async fn playground(req: HttpRequest) -> HttpResponse {
    template(&req, "index.html")
}

/// A page of `static/` with its `{{key}}` holes filled in the reader's
/// language ([`i18n::render_template`]); it varies by the language's
/// cookie and `Accept-Language`, and its entity tag by the language.
pub fn template(req: &HttpRequest, path: &str) -> HttpResponse {
    let Some(file) = Static::get(path) else {
        return missing(path);
    };
    let lang = Lang::of(req);
    // The file's hash and the language, in one 64-bit tag.
    let mut depends = file.metadata.sha256_hash().to_vec();
    depends.extend_from_slice(lang.tag().as_bytes());
    let tag = EntityTag::new_strong(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&depends)));
    let fresh = conditional::client_has_in_any_coding(req, &tag);
    let mut response = head(fresh, &tag, Some(super::pages::VARY_LANGUAGE));
    if fresh {
        return response.finish();
    }
    let here = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let text = String::from_utf8_lossy(&file.data);
    response
        .content_type("text/html; charset=utf-8")
        .body(i18n::render_template(&text, lang, here))
}

/// `GET /static/{path}`
pub async fn file(req: HttpRequest, path: web::Path<String>) -> HttpResponse {
    page(&req, &path)
}

/// The file at `path` under `static/`, or a 404 problem.
pub fn page(req: &HttpRequest, path: &str) -> HttpResponse {
    match Static::get(path) {
        Some(file) => answer(req, &file),
        None => missing(path),
    }
}

/// The 404 problem of a file `static/` does not have.
fn missing(path: &str) -> HttpResponse {
    Problem::new(
        ProblemKind::NotFound,
        format!("no file {path:?} under /static"),
    )
    .response()
}

/// The head of a file's answer tagged `tag` (varying by `vary`): `304`
/// when the client has it (`fresh`), else `200`.
fn head(fresh: bool, tag: &EntityTag, vary: Option<&'static str>) -> HttpResponseBuilder {
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag.to_string()))
        .insert_header((header::CACHE_CONTROL, POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if let Some(vary) = vary {
        response.insert_header((header::VARY, vary));
    }
    response
}

fn answer(req: &HttpRequest, file: &EmbeddedFile) -> HttpResponse {
    let hash = file.metadata.sha256_hash();
    let tag = EntityTag::new_strong(
        hash[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    );
    let fresh = conditional::client_has_in_any_coding(req, &tag);
    let mut response = head(fresh, &tag, None);
    if fresh {
        return response.finish();
    }
    let mime = file.metadata.mimetype();
    // Text is UTF-8 throughout; say so, so no browser has to guess.
    let content_type = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_owned()
    };
    response
        .content_type(content_type)
        .body(file.data.clone().into_owned())
}
