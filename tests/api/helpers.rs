//! `spawn_app()` and typed request helpers. Every response passes through
//! [`crate::spec::assert_conforms`], so each test also checks the spec.

use qipan::configuration::Settings;
use qipan::startup::Application;
use reqwest::header::HeaderMap;
use reqwest::Method;
use serde_json::Value;

/// The start position's code, from the source article's array.
pub const START: &str = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";

/// A running server on a free port.
pub struct TestApp {
    pub base: String,
    client: reqwest::Client,
    handle: actix_web::dev::ServerHandle,
    database: Option<qipan::storage::Database>,
}

/// A response, read whole.
pub struct TestResponse {
    pub status: u16,
    pub headers: HeaderMap,
    /// The body, decoded when it came with a `Content-Encoding`.
    pub body: Vec<u8>,
    /// Bytes on the wire: the body as sent.
    pub wire: Vec<u8>,
}

/// `wire` decoded per `Content-Encoding` (`br`, `gzip`, or none).
fn decoded(headers: &HeaderMap, wire: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    match headers
        .get("content-encoding")
        .and_then(|v| v.to_str().ok())
    {
        Some("br") => {
            brotli::Decompressor::new(wire, 4096)
                .read_to_end(&mut out)
                .expect("a brotli body decodes");
        }
        Some("gzip") => {
            flate2::read::GzDecoder::new(wire)
                .read_to_end(&mut out)
                .expect("a gzip body decodes");
        }
        Some(other) => panic!("unexpected Content-Encoding {other}"),
        None => out = wire.to_vec(),
    }
    out
}

impl TestResponse {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every value of a header that may be sent more than once (`Vary`).
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect()
    }

    /// Asserts a problem of the given type and status, and returns its body.
    #[track_caller]
    pub fn problem(&self, status: u16, slug: &str) -> Value {
        let body = self.json();
        assert_eq!(self.status, status, "{body}");
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "{body}"
        );
        assert_eq!(body["type"], format!("/problems/{slug}"), "{body}");
        assert_eq!(body["status"], status, "{body}");
        assert!(
            body["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{body}"
        );
        assert!(
            body["detail"].as_str().is_some_and(|t| !t.is_empty()),
            "{body}"
        );
        body
    }
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Settings::for_tests()).await
}

pub async fn spawn_app_with(settings: Settings) -> TestApp {
    let app = Application::build(settings)
        .await
        .expect("the server binds a free port");
    let base = format!("http://{}", app.addr());
    let handle = app.handle();
    let database = app.database().cloned();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        base,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        handle,
        database,
    }
}

impl TestApp {
    /// Stops the server as a shutdown would: in-flight requests drain, then
    /// the database pool is closed.
    pub async fn stop(self) {
        self.handle.stop(true).await;
        if let Some(db) = self.database {
            db.pool().close().await;
        }
    }

    /// The service's database, when it has one.
    pub fn database(&self) -> Option<&qipan::storage::Database> {
        self.database.as_ref()
    }

    pub async fn request(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> TestResponse {
        let mut req = self
            .client
            .request(method.clone(), format!("{}{path}", self.base));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        if let Some(body) = &body {
            req = req.body(body.clone());
        }
        let res = req.send().await.expect("request is answered");
        let status = res.status().as_u16();
        crate::spec::assert_request_conforms(
            method.as_str(),
            path,
            headers,
            body.as_deref(),
            status,
        );
        let headers = res.headers().clone();
        let wire = res.bytes().await.expect("body").to_vec();
        let body = decoded(&headers, &wire);
        let resp = TestResponse {
            status,
            headers,
            body,
            wire,
        };
        let bare_path = path.split('?').next().unwrap_or(path);
        crate::spec::assert_conforms(
            method.as_str(),
            bare_path,
            status,
            resp.header("content-type"),
            &resp.body,
        );
        resp
    }

    pub async fn get(&self, path: &str) -> TestResponse {
        self.request(Method::GET, path, &[], None).await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> TestResponse {
        self.request(
            Method::POST,
            path,
            &[("content-type", "application/json")],
            Some(body.to_string().into_bytes()),
        )
        .await
    }

    pub async fn play(&self, code: &str, actions: &[&str]) -> TestResponse {
        self.post_json(
            &format!("/v1/xiangqi/{code}/play"),
            &serde_json::json!({ "actions": actions }),
        )
        .await
    }

    pub async fn import_fen(&self, fen: &str) -> TestResponse {
        self.post_json(
            "/v1/xiangqi/import",
            &serde_json::json!({ "format": "fen", "text": fen }),
        )
        .await
    }
}

/// The `action` fields of a list of legal actions.
pub fn actions(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("legal_actions is an array")
        .iter()
        .map(|a| a["action"].as_str().expect("action").to_owned())
        .collect()
}
