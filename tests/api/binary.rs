//! The `qipan` binary itself: `perft` on the command line, and a server that
//! stops cleanly on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const QIPAN: &str = env!("CARGO_BIN_EXE_qipan");
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

fn perft(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(QIPAN)
        .arg("perft")
        .args(args)
        .output()
        .expect("qipan runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_the_node_count() {
    // Start position counts: shared/reference/xiangqi-start.perft.
    let (ok, out, _) = perft(&["xiangqi", START_FEN, "3"]);
    assert!(ok);
    assert_eq!(out.trim(), "79666");
    let (ok, out, _) = perft(&["xiangqi", crate::helpers::START, "2"]);
    assert!(ok);
    assert_eq!(out.trim(), "1920");
}

#[test]
fn perft_divide_lists_every_move_and_the_total() {
    let (ok, out, _) = perft(&["xiangqi", START_FEN, "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    let total: u64 = lines.last().expect("total").parse().expect("a number");
    assert_eq!(total, 1920);
    let moves: Vec<(&str, u64)> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(m, n)| (m, n.parse().expect("count")))
        .collect();
    assert_eq!(moves.len(), 44);
    assert_eq!(moves.iter().map(|(_, n)| n).sum::<u64>(), 1920);
    // Fairy-Stockfish `go perft 2` from the start: h3e3 (ICCS h2e2) 45.
    assert!(moves.contains(&("h2e2", 45)));
}

#[test]
fn perft_refuses_bad_input_with_a_message() {
    let (ok, _, err) = perft(&["chess", START_FEN, "2"]);
    assert!(!ok);
    assert!(
        err.contains(
            "unknown game \"chess\"; the games are xiangqi, gomoku, 2048, quoridor, tetris"
        ),
        "{err}"
    );
    let (ok, _, err) = perft(&[
        "xiangqi",
        "VVRWU1dSWFFZQEY2ODo8PkQDBQIGAQcACBMZGx0fISM",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("black general on f2"), "{err}");
}

#[test]
fn perft_counts_every_game() {
    // Start positions: 225 empty points, 131 quoridor actions (3 steps and
    // 128 walls), 2048's moves from seed 42 (left, right, up, down minus
    // those that change nothing), tetris's inputs.
    for (game, code, depth, count) in [
        ("gomoku", "AA", "1", "225"),
        ("gomoku", "AA", "2", "50400"),
        ("quoridor", "BEyqAAAAAAAAAAAAAAAAAAAAAA", "1", "131"),
        ("2048", "AQACAAAgAAAAAAAAAAAAeN3m5f0p8H4", "1", "4"),
    ] {
        let (ok, out, err) = perft(&[game, code, depth]);
        assert!(ok, "{game}: {err}");
        assert_eq!(out.trim(), count, "{game} {code} depth {depth}");
    }
}

/// A running `qipan` with `args`, its address and its log lines.
fn serve(args: &[&str]) -> (std::process::Child, String, impl Iterator<Item = String>) {
    let mut child = Command::new(QIPAN)
        .args(args)
        .env("RUST_LOG", "info")
        .env_remove("QIPAN_ADDR")
        .env_remove("QIPAN_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("qipan starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines().map_while(Result::ok);
    let addr = lines
        .by_ref()
        .find_map(|l| {
            l.contains("qipan listening")
                .then(|| l.split("addr=").nth(1).map(|a| a.trim().to_owned()))
                .flatten()
        })
        .expect("the server logs its address");
    (child, addr, lines)
}

/// Sends SIGTERM to `child`.
fn sigterm(child: &std::process::Child) {
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
}

#[test]
fn flags_go_after_serve_and_every_log_line_names_the_request() {
    use std::io::{Read, Write};
    let (mut child, addr, lines) = serve(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--database-url",
        "sqlite::memory:",
    ]);
    let mut conn = std::net::TcpStream::connect(&addr).expect("connects");
    conn.write_all(
        b"GET /v1/xiangqi/x HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: probe-42\r\nConnection: close\r\n\r\n",
    )
    .expect("sends");
    let mut answer = String::new();
    conn.read_to_string(&mut answer).expect("reads");
    let head = answer.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 400"), "{answer}");
    assert!(head.contains("x-request-id: probe-42"), "{answer}");
    sigterm(&child);
    let logged: Vec<String> = lines.collect();
    child.wait().expect("exits");
    let line = logged
        .iter()
        .find(|l| l.contains("qipan::request"))
        .unwrap_or_else(|| panic!("no request line in {logged:?}"));
    assert!(line.contains("probe-42"), "{line}");
    assert!(line.contains("status=400"), "{line}");
}

#[test]
fn the_server_stops_cleanly_on_sigterm() {
    let (mut child, addr, _lines) =
        serve(&["--addr", "127.0.0.1:0", "--database-url", "sqlite::memory:"]);
    let health = std::net::TcpStream::connect(&addr);
    assert!(health.is_ok(), "{addr} accepts connections");
    sigterm(&child);
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "still running 20 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Finding 6 of the hardening issue: requests sent just before SIGTERM got
/// a closed connection instead of an answer.
#[test]
fn requests_sent_before_sigterm_are_answered() {
    use std::io::{Read, Write};
    let (mut child, addr, _lines) = serve(&[
        "--addr",
        "127.0.0.1:0",
        "--database-url",
        "none",
        "--workers",
        "1",
        "--shutdown-grace",
        "1s",
    ]);
    let start = "VVRWU1dSWFFZQEY2ODo8PgQDBQIGAQcACBMZGx0fISM";
    let mut sent: Vec<std::net::TcpStream> = (0..32)
        .map(|i| {
            let mut s = std::net::TcpStream::connect(&addr).expect("connects");
            // Pictures take the one worker a while: some requests are still
            // queued when the signal comes.
            write!(
                s,
                "GET /v1/xiangqi/{start}/picture.png?size={} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                400 + i
            )
            .expect("sends");
            s
        })
        .collect();
    sigterm(&child);
    for (i, s) in sent.iter_mut().enumerate() {
        s.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let head = String::from_utf8_lossy(&answer[..answer.len().min(200)]).into_owned();
        assert!(
            head.starts_with("HTTP/1.1 200"),
            "request {i} sent before SIGTERM got {head:?}"
        );
    }
    let status = child.wait().expect("exits");
    assert!(status.success(), "exit status {status}");
}

/// One request written raw on its own connection, and everything the server
/// sends back before it closes.
fn raw_exchange(addr: &str, request: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(addr).expect("connects");
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    conn.write_all(request).expect("sends");
    let mut answer = Vec::new();
    let _ = conn.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// Finding 7 of the hardening issue: request heads refused before routing
/// are answered with problems (`400 malformed-head`, `431 head-too-large`)
/// that close the connection, and none of them costs an ERROR line in the
/// log; each is counted in `/metrics` instead. The head timeout's `408` is
/// still the HTTP library's own, bare.
#[test]
fn heads_refused_before_routing_are_counted_not_logged() {
    let (mut child, addr, lines) = serve(&["--addr", "127.0.0.1:0", "--database-url", "none"]);
    let many_headers: Vec<u8> = (0..97)
        .flat_map(|i| format!("X-H{i}: a\r\n").into_bytes())
        .collect();
    let huge = "a".repeat(140 * 1024);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"GET /v1/g\x00ames HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec(),
            "HTTP/1.1 400",
        ),
        (
            b"GET /v1/games\xff HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec(),
            "HTTP/1.1 400",
        ),
        (
            b"GET /v1/games HTTP/7.1\r\nHost: localhost\r\n\r\n".to_vec(),
            "HTTP/1.1 400",
        ),
        (
            [
                b"GET /v1/games HTTP/1.1\r\nHost: localhost\r\n".as_slice(),
                &many_headers,
                b"\r\n",
            ]
            .concat(),
            "HTTP/1.1 431",
        ),
        (
            format!("GET /v1/games HTTP/1.1\r\nHost: localhost\r\nX-Big: {huge}\r\n\r\n")
                .into_bytes(),
            "HTTP/1.1 431",
        ),
    ];
    for (request, status) in &cases {
        let answer = raw_exchange(&addr, request);
        assert!(answer.starts_with(status), "{status} expected: {answer:?}");
        let head = answer.to_ascii_lowercase();
        assert!(
            head.contains("content-type: application/problem+json\r\n"),
            "{answer:?}"
        );
        assert!(head.contains("connection: close\r\n"), "{answer:?}");
        let kind = if status.ends_with("431") {
            "head-too-large"
        } else {
            "malformed-head"
        };
        assert!(
            answer.contains(&format!("\"type\":\"/problems/{kind}\"")),
            "{answer:?}"
        );
    }
    // A head that never ends is cut off after 5 s.
    let started = Instant::now();
    let answer = raw_exchange(&addr, b"GET /v1/games HTTP/1.1\r\nHost: loc");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer
        .to_ascii_lowercase()
        .contains("content-length: 0\r\n"));
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "{:?}",
        started.elapsed()
    );
    // A head just under the limits is served as usual.
    let near = "a".repeat(60 * 1024);
    let answer = raw_exchange(
        &addr,
        format!("GET /v1/games HTTP/1.1\r\nHost: localhost\r\nX-Big: {near}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:?}");
    let metrics = raw_exchange(
        &addr,
        b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert!(
        metrics.contains("qipan_refused_requests_total{reason=\"malformed-head\"} 3"),
        "{metrics}"
    );
    assert!(
        metrics.contains("qipan_refused_requests_total{reason=\"head-too-large\"} 2"),
        "{metrics}"
    );
    sigterm(&child);
    let logged: Vec<String> = lines.collect();
    child.wait().expect("exits");
    assert!(
        logged.iter().all(|l| !l.contains("ERROR")),
        "refused heads logged as errors: {logged:?}"
    );
}

/// The image builds from pinned tools with the lock file, and checks its
/// own health with the binary it runs.
#[test]
fn the_dockerfile_pins_its_tools_and_checks_health() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Dockerfile"))
        .expect("Dockerfile");
    let runs: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("RUN cargo"))
        .collect();
    assert!(!runs.is_empty());
    for line in runs {
        let builds = ["cargo build", "cargo install", "cargo chef cook"]
            .iter()
            .any(|c| line.contains(c));
        assert!(!builds || line.contains("--locked"), "{line}");
        if line.contains("cargo install") {
            assert!(line.contains("--version "), "an unpinned tool: {line}");
        }
    }
    for from in text.lines().filter(|l| {
        l.starts_with("FROM ") && !l.contains(" AS builder") && !l.contains("FROM chef")
    }) {
        let image = from.split_whitespace().nth(1).unwrap_or_default();
        assert!(
            image.contains(':') && !image.ends_with(":latest"),
            "a base image without a version: {from}"
        );
    }
    assert!(
        text.contains("HEALTHCHECK") && text.contains("qipan\", \"healthcheck\""),
        "no HEALTHCHECK running `qipan healthcheck`"
    );
}
