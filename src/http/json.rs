//! JSON request bodies: the one media type the service reads, and bodies
//! that may be left out.
//!
//! A body is read only when it is sent as `application/json`, with no
//! parameter but an optional `charset=utf-8` (RFC 8259 §8.1: JSON is UTF-8).
//! Anything else — `text/plain`, `application/merge-patch+json`,
//! `application/problem+json`, `charset=latin1`, no `Content-Type` at all —
//! is `415 unsupported-media-type`, naming what was sent.

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::mime;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use serde::de::DeserializeOwned;

use crate::problem::ApiError;

/// Whether `mime` is the JSON the service reads.
pub fn is_json(mime: &mime::Mime) -> bool {
    mime.type_() == mime::APPLICATION
        && mime.subtype() == mime::JSON
        && mime.suffix().is_none()
        && mime.params().all(|(name, value)| {
            name == mime::CHARSET && value.as_str().eq_ignore_ascii_case("utf-8")
        })
}

/// A body sent with another media type than JSON.
#[derive(Debug, thiserror::Error)]
pub struct NotJson {
    /// The `Content-Type` sent, if any.
    pub sent: Option<String>,
}

impl std::fmt::Display for NotJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("send the body as JSON with Content-Type: application/json")?;
        match &self.sent {
            Some(sent) => write!(f, " (optionally `; charset=utf-8`), not `{sent}`"),
            None => f.write_str("; the request has no Content-Type"),
        }
    }
}

impl NotJson {
    /// What `req` says its body is.
    pub fn of(req: &HttpRequest) -> NotJson {
        let sent = req.headers().get(header::CONTENT_TYPE).map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .chars()
                .take(100)
                .collect()
        });
        NotJson { sent }
    }
}

/// Whether `req` declares a JSON body.
fn declares_json(req: &HttpRequest) -> bool {
    // The usual spelling at once; any other is parsed as a media type.
    let usual = req
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == b"application/json");
    usual || matches!(req.mime_type(), Ok(Some(mime)) if is_json(&mime))
}

/// A JSON body: actix's extractor (its size limit and error handler, from
/// the app's `JsonConfig`), after the media type is checked here — actix
/// itself reads any `…/json` or `…+json` type with any parameters.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !declares_json(req) {
            let refused: actix_web::Error = ApiError::from(NotJson::of(req)).into();
            return Box::pin(std::future::ready(Err(refused)));
        }
        let body = web::Json::<T>::from_request(req, payload);
        Box::pin(async move { Ok(Json(body.await?.into_inner())) })
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// A JSON body that may be left out (an empty body reads as the default).
pub struct OptionalJson<T>(pub T);

/// An optional body that was sent but is not the JSON the endpoint reads.
#[derive(Debug, thiserror::Error)]
#[error("the body is not the JSON this endpoint expects: {0}")]
pub struct MalformedJson(#[from] pub serde_json::Error);

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = actix_web::Error;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let bytes = web::Bytes::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let bytes = bytes.await?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(OptionalJson(T::default()));
            }
            if !declares_json(&req) {
                return Err(ApiError::from(NotJson::of(&req)).into());
            }
            serde_json::from_slice(&bytes)
                .map(OptionalJson)
                .map_err(|e| ApiError::from(MalformedJson(e)).into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::is_json;

    #[test]
    fn only_plain_json_in_utf_8_is_json() {
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON; charset=UTF-8",
        ] {
            assert!(is_json(&ok.parse().unwrap()), "{ok}");
        }
        for not in [
            "text/plain",
            "application/json; charset=latin1",
            "application/merge-patch+json",
            "application/problem+json",
            "application/json; profile=x",
            "text/json",
        ] {
            assert!(!is_json(&not.parse().unwrap()), "{not}");
        }
    }
}
