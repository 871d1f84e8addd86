//! The playground in a real browser: `node --test tests/browser/` (Node's
//! test runner driving Debian's Chromium through `playwright-core`) against
//! a service spawned here, with matches on a fresh SQLite database.
//!
//! Needs `/usr/bin/chromium` (or `QIPAN_CHROMIUM`), `node` on the PATH and
//! `tests/browser/node_modules` (`npm ci --prefix tests/browser`). When one
//! is missing the test prints "skipped: …" and passes — unless `CI=true`,
//! where it fails saying what is missing. Screenshots of each game and of
//! the duel go to `target/browser-screenshots/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::db::{spawn_match_app, Backend};

/// What the browser tests need that this machine lacks, if anything.
fn missing(root: &Path, chromium: &Path) -> Vec<String> {
    let mut missing = Vec::new();
    if !chromium.is_file() {
        missing.push(format!(
            "{} (apt-get install -y chromium, or set QIPAN_CHROMIUM)",
            chromium.display()
        ));
    }
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        missing.push("node on the PATH".to_owned());
    }
    let playwright = root.join("tests/browser/node_modules/playwright-core");
    if !playwright.is_dir() {
        missing.push(format!(
            "{} (npm ci --prefix tests/browser)",
            playwright.display()
        ));
    }
    missing
}

fn report(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playground_in_a_browser() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let chromium = PathBuf::from(
        std::env::var("QIPAN_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned()),
    );
    let missing = missing(&root, &chromium);
    if !missing.is_empty() {
        let what = missing.join(", ");
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("the browser tests cannot run, and CI=true: missing {what}");
        }
        crate::skips::skipped("browser", &format!("the browser tests need {what}"));
        return;
    }

    let app = spawn_match_app(Backend::Sqlite)
        .await
        .expect("a SQLite database is always available");
    let base = app.base.clone();
    let screenshots = root.join("target/browser-screenshots");
    let dir = root.clone();
    // The runner blocks until the browsers are done; the server keeps
    // answering on the runtime's worker threads meanwhile.
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg("--test")
            .arg("tests/browser/")
            .current_dir(&dir)
            .env("QIPAN_BASE_URL", &base)
            .env("QIPAN_CHROMIUM", &chromium)
            .env("QIPAN_SCREENSHOTS", &screenshots)
            .output()
    })
    .await
    .expect("the runner thread finishes")
    .expect("node starts");

    assert!(
        output.status.success(),
        "the browser tests failed ({}):\n{}",
        output.status,
        report(&output)
    );
    println!("{}", report(&output));
}
