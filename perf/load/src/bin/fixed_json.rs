//! The load-test baseline: an actix-web handler that returns a fixed JSON
//! body, with the headers qipan's state endpoint sends.
//!
//! ```text
//! cargo run --release -p qipan-load --bin fixed_json -- [ADDR] BODY_FILE [PLAY_FILE]
//! ```
//!
//! `ADDR` defaults to `127.0.0.1:8081`. `BODY_FILE` holds the exact bytes
//! qipan answered for a `GET /v1/{game}/{code}`; every `GET` of
//! `/v1/{game}/{code}` gets them back, whatever the game and code.
//! `PLAY_FILE` (by default the same) is what every `POST
//! /v1/{game}/{code}/play` gets, once its body is read. Workers follow
//! `QIPAN_WORKERS`, as in qipan (the number of cores when unset).
//! `perf/scripts/loadtest.sh` runs it next to qipan.

use std::net::SocketAddr;

use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::web::{self, Bytes};
use actix_web::{App, HttpResponse, HttpServer};
use anyhow::Context;

/// FNV-1a, 64 bits, as qipan hashes a body for its `ETag`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Fixed {
    body: Bytes,
    etag: HeaderValue,
}

impl Fixed {
    fn read(path: &str) -> anyhow::Result<Fixed> {
        let body = std::fs::read(path).with_context(|| format!("reading {path}"))?;
        Ok(Fixed {
            etag: HeaderValue::from_str(&format!("\"{:016x}\"", fnv1a(&body)))?,
            body: Bytes::from(body),
        })
    }

    /// The answer, with the header lines qipan sends with a state (their
    /// values fixed, the request id one of the same length, all made once):
    /// the same bytes on the wire.
    fn answer(&self) -> HttpResponse {
        let mut res = HttpResponse::Ok().body(self.body.clone());
        let headers = res.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(header::ETAG, self.etag.clone());
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
        headers.append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        headers.append(header::VARY, HeaderValue::from_static("Accept"));
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(
                "etag, location, retry-after, ratelimit, ratelimit-policy, \
                 www-authenticate, x-request-id",
            ),
        );
        headers.insert(
            HeaderName::from_static("x-request-id"),
            HeaderValue::from_static("0123abcd-0"),
        );
        res
    }
}

/// The two answers: to a read and to a play.
struct Answers {
    read: Fixed,
    play: Fixed,
}

async fn read(answers: web::Data<Answers>) -> HttpResponse {
    answers.read.answer()
}

async fn play(answers: web::Data<Answers>, _body: Bytes) -> HttpResponse {
    answers.play.answer()
}

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr: SocketAddr = args
        .next()
        .as_deref()
        .unwrap_or("127.0.0.1:8081")
        .parse()
        .context("ADDR must be host:port")?;
    let path = args
        .next()
        .context("usage: fixed_json [ADDR] BODY_FILE [PLAY_FILE]")?;
    let play_path = args.next().unwrap_or_else(|| path.clone());
    let answers = web::Data::new(Answers {
        read: Fixed::read(&path)?,
        play: Fixed::read(&play_path)?,
    });
    let workers = match std::env::var("QIPAN_WORKERS") {
        Ok(n) => Some(
            n.parse::<usize>()
                .context("QIPAN_WORKERS must be a number")?,
        ),
        Err(_) => None,
    };

    let mut server = HttpServer::new(move || {
        App::new()
            .app_data(answers.clone())
            .route("/v1/{game}/{code}", web::get().to(read))
            .route("/v1/{game}/{code}/play", web::post().to(play))
    })
    .bind(addr)?;
    if let Some(n) = workers {
        server = server.workers(n);
    }
    eprintln!("fixed_json listening on {addr}");
    server.run().await?;
    Ok(())
}
