//! Caching, CORS and health: the HTTP contract every endpoint shares.

use reqwest::Method;

use qipan::configuration::Settings;

use crate::helpers::{spawn_app, spawn_app_with, START};

#[tokio::test]
async fn the_games_list_is_revalidated_after_minutes_not_cached_forever() {
    let app = spawn_app().await;
    let res = app.get("/v1/games").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("public, max-age=300"));
    let etag = res.header("etag").expect("etag").to_owned();
    let again = app
        .request(Method::GET, "/v1/games", &[("if-none-match", &etag)], None)
        .await;
    assert_eq!((again.status, again.body.len()), (304, 0));
    assert_eq!(again.header("cache-control"), Some("public, max-age=300"));
}

#[tokio::test]
async fn reads_are_immutable_with_a_strong_etag_and_304() {
    let app = spawn_app().await;
    for path in [
        "/v1/xiangqi/start".to_owned(),
        format!("/v1/xiangqi/{START}"),
        format!("/v1/xiangqi/{START}/export"),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status, 200);
        assert_eq!(
            res.header("cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        let etag = res.header("etag").expect("etag").to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"'),
            "strong: {etag}"
        );
        let again = app
            .request(Method::GET, &path, &[("if-none-match", &etag)], None)
            .await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        let other = app
            .request(Method::GET, &path, &[("if-none-match", "\"0000\"")], None)
            .await;
        assert_eq!(other.status, 200);
    }
}

#[tokio::test]
async fn play_responses_are_cacheable_too() {
    let app = spawn_app().await;
    let first = app.play(START, &["h2e2"]).await;
    let etag = first.header("etag").expect("etag").to_owned();
    let res = app
        .request(
            Method::POST,
            &format!("/v1/xiangqi/{START}/play"),
            &[
                ("content-type", "application/json"),
                ("if-none-match", &etag),
            ],
            Some(br#"{"actions": ["h2e2"]}"#.to_vec()),
        )
        .await;
    assert_eq!(res.status, 304);
    let other = app.play(START, &["h0g2"]).await;
    assert_ne!(other.header("etag"), Some(etag.as_str()));
}

#[tokio::test]
async fn errors_are_not_cached() {
    let app = spawn_app().await;
    let res = app.get("/v1/xiangqi/VVRW").await;
    assert_eq!(res.header("cache-control"), Some("no-store"));
    assert!(res.header("etag").is_none());
}

#[tokio::test]
async fn any_origin_may_call_the_api() {
    let app = spawn_app().await;
    let res = app
        .request(
            Method::GET,
            "/v1/xiangqi/start",
            &[("origin", "https://board.example.net")],
            None,
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("access-control-allow-origin"), Some("*"));
    let exposed = res
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_lowercase();
    // A page may read what a refusal says about the budget too.
    for name in ["etag", "retry-after", "ratelimit-policy", "ratelimit"] {
        assert!(
            exposed.split(", ").any(|h| h == name),
            "{name} not in {exposed}"
        );
    }

    let preflight = app
        .request(
            Method::OPTIONS,
            &format!("/v1/xiangqi/{START}/play"),
            &[
                ("origin", "http://localhost:5173"),
                ("access-control-request-method", "POST"),
                ("access-control-request-headers", "content-type"),
            ],
            None,
        )
        .await;
    assert_eq!(preflight.status, 200);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
    assert!(preflight
        .header("access-control-allow-methods")
        .is_some_and(|m| m.contains("POST")));
}

#[tokio::test]
async fn healthz_answers() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json(), serde_json::json!({"status": "ok"}));
}

#[tokio::test]
async fn the_view_cache_changes_nothing_but_speed() {
    let cached = spawn_app().await;
    let mut settings = qipan::configuration::Settings::for_tests();
    settings.cache_mb = 0;
    let uncached = crate::helpers::spawn_app_with(settings).await;
    let code = cached.play(START, &["h2e2", "h9g7"]).await.json()["code"]
        .as_str()
        .expect("code")
        .to_owned();
    let path = format!("/v1/xiangqi/{code}");
    let first = cached.get(&path).await;
    let again = cached.get(&path).await;
    let plain = uncached.get(&path).await;
    assert_eq!(first.body, again.body);
    assert_eq!(first.header("etag"), again.header("etag"));
    // Bodies differ only by the share URL's host (each server has its port).
    let strip = |r: &crate::helpers::TestResponse, base: &str| {
        String::from_utf8(r.body.clone())
            .expect("utf-8")
            .replace(base, "")
    };
    assert_eq!(strip(&first, &cached.base), strip(&plain, &uncached.base));
}

#[tokio::test]
async fn the_service_does_not_start_with_a_public_url_that_is_no_base_url() {
    let mut settings = qipan::configuration::Settings::for_tests();
    settings.public_url = Some("qipan.example/app".to_owned());
    let err = qipan::startup::Application::build(settings)
        .await
        .err()
        .expect("refused");
    assert!(format!("{err:#}").contains("--public-url"), "{err:#}");
}

/// A HEAD pipelined before another request is answered without a body,
/// whatever its route (a match read waits on the database, so it is
/// answered after the next request has been read).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pipelined_head_never_carries_a_body() {
    use std::io::{Read, Write};

    let Some(app) = crate::db::spawn_match_app(crate::db::Backend::Sqlite).await else {
        return;
    };
    let created = app
        .post_json("/v1/matches", &serde_json::json!({ "game": "gomoku" }))
        .await
        .json();
    let id = created["id"].as_str().expect("id").to_owned();
    let addr = app.base.trim_start_matches("http://").to_owned();
    for path in [
        format!("/v1/matches/{id}"),
        format!("/v1/matches/{id}/history"),
        format!("/v1/matches/{id}/events"),
        "/v1/xiangqi/start".to_owned(),
        "/v1/games".to_owned(),
        "/v1/nope".to_owned(),
    ] {
        let addr = addr.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let mut s = std::net::TcpStream::connect(&addr).expect("connects");
            s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .expect("timeout");
            write!(
                s,
                "HEAD {path} HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            .expect("sent");
            let mut got = Vec::new();
            let mut buf = [0u8; 65536];
            while !String::from_utf8_lossy(&got).contains("\"status\"") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                }
            }
            (path, String::from_utf8_lossy(&got).into_owned())
        })
        .await
        .expect("the client ran");
        let (path, text) = answer;
        let end = text.find("\r\n\r\n").expect("a first answer");
        assert!(
            text[end + 4..].starts_with("HTTP/1.1 200"),
            "HEAD {path} sent a body: {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_healthcheck_command_asks_the_running_service() {
    let app = spawn_app().await;
    let addr: std::net::SocketAddr = app
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("an address");
    let timeout = std::time::Duration::from_secs(3);
    let up = tokio::task::spawn_blocking(move || qipan::cli::healthcheck(addr, timeout))
        .await
        .expect("ran");
    assert!(up.is_ok(), "{up:?}");
    app.stop().await;
    let down = tokio::task::spawn_blocking(move || qipan::cli::healthcheck(addr, timeout))
        .await
        .expect("ran");
    assert!(down.is_err(), "a stopped service is not healthy");
}

/// A body sent too slowly is cut off: 408 and the connection closed, after
/// the body timeout (1 s here) rather than never.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_arrive_in_time_is_cut_off() {
    use std::io::{Read, Write};

    let mut settings = qipan::configuration::Settings::for_tests();
    settings.body_timeout = std::time::Duration::from_secs(1);
    let app = crate::helpers::spawn_app_with(settings).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let answer = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(&addr).expect("connects");
        s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .expect("timeout");
        let started = std::time::Instant::now();
        write!(
            s,
            "POST /v1/xiangqi/start/play HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{{\"actions\""
        )
        .expect("sent");
        let mut got = Vec::new();
        let closed = s.read_to_end(&mut got).is_ok();
        (started.elapsed(), closed, String::from_utf8_lossy(&got).into_owned())
    })
    .await
    .expect("the client ran");
    let (took, closed, text) = answer;
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("/problems/request-timeout"), "{text}");
    assert!(closed, "the connection is closed");
    assert!(took < std::time::Duration::from_secs(8), "{took:?}");
    // A body sent at once is unaffected.
    let res = app
        .post_json(
            &format!("/v1/xiangqi/{START}/play"),
            &serde_json::json!({ "actions": ["h2e2"] }),
        )
        .await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
}

/// Finding 4 of the hardening issue: whatever `Host` said was copied into
/// share URLs of immutable answers, and each new Host was a new cache key.
#[tokio::test]
async fn an_unknown_host_is_refused_before_it_reaches_a_url() {
    let app = spawn_app().await;
    let read = format!("/v1/xiangqi/{START}");
    let forged = app
        .request(Method::GET, &read, &[("host", "evil.example")], None)
        .await;
    let p = forged.problem(421, "unknown-host");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("\"evil.example\""), "{detail}");
    assert!(detail.contains("localhost, 127.0.0.1"), "{detail}");
    assert!(!String::from_utf8_lossy(&forged.body).contains("evil.example/"));
    // Every path, pages and pictures included; health answers anyway.
    for path in [
        format!("/p/xiangqi/{START}"),
        format!("{read}/picture.png"),
        "/v1/games".to_owned(),
        "/".to_owned(),
    ] {
        let res = app
            .request(Method::GET, &path, &[("host", "evil.example:80")], None)
            .await;
        assert_eq!(res.status, 421, "{path}");
    }
    let health = app
        .request(Method::GET, "/healthz", &[("host", "10.1.2.3")], None)
        .await;
    assert_eq!(health.status, 200);
    // An allowed host on another port builds its URLs from itself.
    let local = app
        .request(Method::GET, &read, &[("host", "localhost:9999")], None)
        .await;
    assert_eq!(
        local.json()["url"],
        format!("http://localhost:9999/v1/xiangqi/{START}")
    );
}

#[tokio::test]
async fn with_a_public_url_any_host_gets_the_public_urls() {
    let mut settings = Settings::for_tests();
    settings.public_url = Some("https://qipan.example".to_owned());
    let app = spawn_app_with(settings).await;
    let res = app
        .request(
            Method::GET,
            &format!("/v1/xiangqi/{START}"),
            &[("host", "evil.example")],
            None,
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.json()["url"],
        format!("https://qipan.example/v1/xiangqi/{START}")
    );
}

#[tokio::test]
async fn a_star_answers_every_host() {
    let mut settings = Settings::for_tests();
    settings.allowed_hosts = vec!["*".to_owned()];
    let app = spawn_app_with(settings).await;
    let res = app
        .request(
            Method::GET,
            &format!("/v1/xiangqi/{START}"),
            &[("host", "lan-box:8080")],
            None,
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(
        res.json()["url"],
        format!("http://lan-box:8080/v1/xiangqi/{START}")
    );
}

/// Part of finding 1 of the hardening issue: one address could hold as
/// many connections as the machine has descriptors.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_a_bounded_number_of_connections() {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    let mut settings = Settings::for_tests();
    settings.max_connections_per_client = 2;
    let app = spawn_app_with(settings).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let outcome = tokio::task::spawn_blocking(move || {
        // A keep-alive request on a new connection; the head of its answer.
        let ask = |s: &mut TcpStream| {
            s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
                .unwrap();
            write!(s, "GET /v1/games HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
            let mut buf = vec![0; 65536];
            let n = s.read(&mut buf).unwrap();
            String::from_utf8_lossy(&buf[..n]).into_owned()
        };
        let mut first = TcpStream::connect(&addr).unwrap();
        let mut second = TcpStream::connect(&addr).unwrap();
        let a = ask(&mut first);
        let b = ask(&mut second);
        let mut third = TcpStream::connect(&addr).unwrap();
        let c = ask(&mut third);
        // The third is closed after its answer.
        let mut rest = Vec::new();
        let closed = third.read_to_end(&mut rest).is_ok();
        drop(first);
        // Once one closes, a new connection is served again.
        let mut again = String::new();
        for _ in 0..50 {
            let mut fourth = TcpStream::connect(&addr).unwrap();
            again = ask(&mut fourth);
            if again.starts_with("HTTP/1.1 200") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        drop(second);
        (a, b, c, closed, again)
    })
    .await
    .unwrap();
    let (a, b, c, closed, again) = outcome;
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    assert!(b.starts_with("HTTP/1.1 200"), "{b}");
    assert!(c.starts_with("HTTP/1.1 503"), "{c}");
    assert!(c.contains("/problems/too-many-connections"), "{c}");
    assert!(c.contains("holds 2 open connections"), "{c}");
    assert!(closed, "the connection over the cap is closed");
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
}

/// Connections count against their address from the moment they are
/// accepted: two connections whose heads never end hold the address's two
/// places, and a third is refused at once, before it sends a byte —
/// not held until the head timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_count_from_accept() {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    let mut settings = Settings::for_tests();
    settings.max_connections_per_client = 2;
    // One worker: connections are counted in the order they arrive (a
    // second worker still starting would count its connection late).
    settings.workers = Some(1);
    let app = spawn_app_with(settings).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let (third, took) = tokio::task::spawn_blocking(move || {
        let mut slow = Vec::new();
        // One at a time, so that each is counted (by whichever worker takes
        // it) before the next arrives.
        for _ in 0..2 {
            std::thread::sleep(std::time::Duration::from_millis(200));
            let mut s = TcpStream::connect(&addr).unwrap();
            write!(s, "GET /v1/games HTTP/1.1\r\nHost: local").unwrap();
            slow.push(s);
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
        let started = std::time::Instant::now();
        let mut third = TcpStream::connect(&addr).unwrap();
        third
            .set_read_timeout(Some(std::time::Duration::from_secs(3)))
            .unwrap();
        let mut answer = Vec::new();
        let mut chunk = [0; 4096];
        let mut first = None;
        while let Ok(n @ 1..) = third.read(&mut chunk) {
            first.get_or_insert_with(|| started.elapsed());
            answer.extend_from_slice(&chunk[..n]);
        }
        let took = first.unwrap_or_else(|| started.elapsed());
        drop(slow);
        (String::from_utf8_lossy(&answer).into_owned(), took)
    })
    .await
    .unwrap();
    assert!(third.starts_with("HTTP/1.1 503"), "{third:?}");
    assert!(third.contains("/problems/too-many-connections"), "{third}");
    // actix holds an unfinished head for 5 s: an answer well before that
    // is the refusal at accept, even on a machine busy with other work.
    assert!(took < std::time::Duration::from_millis(2_500), "{took:?}");
}

/// A request head over the limit, and one that is not HTTP, are answered
/// with problems (`431 head-too-large`, `400 malformed-head`) like every
/// other refusal, not with the HTTP library's bare answers; requests sent
/// on the same connection before them are served as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_heads_are_problems() {
    use std::io::{Read, Write};
    use std::net::TcpStream;

    let app = spawn_app_with(Settings::for_tests()).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let answers = tokio::task::spawn_blocking(move || {
        let exchange = |request: &[u8]| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.set_read_timeout(Some(std::time::Duration::from_secs(10)))
                .unwrap();
            s.write_all(request).unwrap();
            let mut answer = Vec::new();
            let _ = s.read_to_end(&mut answer);
            String::from_utf8_lossy(&answer).into_owned()
        };
        let huge = "a".repeat(140 * 1024);
        let many: String = (0..97).map(|i| format!("X-H{i}: a\r\n")).collect();
        vec![
            exchange(
                format!("GET /v1/games HTTP/1.1\r\nHost: localhost\r\nX-Big: {huge}\r\n\r\n")
                    .as_bytes(),
            ),
            exchange(format!("GET /v1/games HTTP/1.1\r\nHost: localhost\r\n{many}\r\n").as_bytes()),
            exchange(b"GET /v1/g\x00ames HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            exchange(b"GET /v1/games HTTP/7.1\r\nHost: localhost\r\n\r\n"),
            // A good request, then a bad head on the same connection.
            exchange(
                b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\nGET /\xff HTTP/1.1\r\nHost: localhost\r\n\r\n",
            ),
        ]
    })
    .await
    .unwrap();
    for answer in &answers[..2] {
        assert!(
            answer.starts_with("HTTP/1.1 431 "),
            "{}",
            &answer[..answer.len().min(300)]
        );
        let lower = answer.to_ascii_lowercase();
        assert!(
            lower.contains("content-type: application/problem+json\r\n"),
            "{answer}"
        );
        assert!(lower.contains("connection: close\r\n"), "{answer}");
        assert!(
            lower.contains("x-content-type-options: nosniff\r\n"),
            "{answer}"
        );
        assert!(
            answer.contains("\"type\":\"/problems/head-too-large\""),
            "{answer}"
        );
        assert!(answer.contains("\"status\":431"), "{answer}");
    }
    for answer in &answers[2..4] {
        assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
        assert!(
            answer.contains("\"type\":\"/problems/malformed-head\""),
            "{answer}"
        );
    }
    let both = &answers[4];
    assert!(both.starts_with("HTTP/1.1 200 "), "{both}");
    let second = both.find("HTTP/1.1 400 ").expect("a second answer");
    assert!(
        both[second..].contains("/problems/malformed-head"),
        "{both}"
    );
    let metrics = String::from_utf8(app.get("/metrics").await.body).unwrap();
    assert!(
        metrics.contains("qipan_refused_requests_total{reason=\"head-too-large\"}"),
        "{metrics}"
    );
}
