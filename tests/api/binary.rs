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
    assert!(err.contains("unknown game"), "{err}");
    let (ok, _, err) = perft(&[
        "xiangqi",
        "VVRWU1dSWFFZQEY2ODo8PkQDBQIGAQcACBMZGx0fISM",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("black general on f2"), "{err}");
}

#[test]
fn the_server_stops_cleanly_on_sigterm() {
    let mut child = Command::new(QIPAN)
        .env("QIPAN_ADDR", "127.0.0.1:0")
        .env("QIPAN_DATABASE_URL", "sqlite::memory:")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("qipan starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| {
            l.contains("qipan listening")
                .then(|| l.split("addr=").nth(1).map(|a| a.trim().to_owned()))
                .flatten()
        })
        .expect("the server logs its address");
    let health = std::net::TcpStream::connect(&addr);
    assert!(health.is_ok(), "{addr} accepts connections");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
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
