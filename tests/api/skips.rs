//! What this run of the suite skipped, said once at its end.
//!
//! A test that cannot run here (no PostgreSQL server, no Chromium, a
//! PostgreSQL user that may not change the server) passes without running,
//! outside CI. Its own "skipped: …" line is captured with its output, so a
//! plain `cargo test` would not show it: each skip is also noted here, and
//! when the suite's process exits, after libtest's `test result:` line, one
//! line on standard error says what was skipped and why.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::{Mutex, Once};

/// What was skipped: for each kind of test, the tests and the first reason.
struct Skips {
    kinds: BTreeMap<&'static str, (BTreeSet<String>, String)>,
    unnamed: usize,
}

static SKIPS: Mutex<Skips> = Mutex::new(Skips {
    kinds: BTreeMap::new(),
    unnamed: 0,
});
static AT_EXIT: Once = Once::new();

extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::os::raw::c_int;
}

/// Notes that the running test is skipped, being of `kind` (e.g.
/// "PostgreSQL"), for `reason`, and prints the reason with its output.
pub fn skipped(kind: &'static str, reason: &str) {
    eprintln!("skipped: {reason}");
    // libtest names each test's thread after the test; a test run on the
    // main thread (one test thread) is counted by its call.
    let test = std::thread::current()
        .name()
        .filter(|name| *name != "main")
        .map(str::to_owned);
    if let Ok(mut skips) = SKIPS.lock() {
        let test = test.unwrap_or_else(|| {
            skips.unnamed += 1;
            format!("#{}", skips.unnamed)
        });
        skips
            .kinds
            .entry(kind)
            .or_insert_with(|| (BTreeSet::new(), reason.to_owned()))
            .0
            .insert(test);
    }
    AT_EXIT.call_once(|| {
        // SAFETY: `atexit` only stores the function; `report` is a plain
        // function that lives as long as the process.
        unsafe {
            atexit(report);
        }
    });
}

/// The line said at exit, or `None` when nothing was skipped.
fn summary(kinds: &BTreeMap<&'static str, (BTreeSet<String>, String)>) -> Option<String> {
    let parts: Vec<String> = kinds
        .iter()
        .map(|(kind, (tests, reason))| match tests.len() {
            1 => format!("1 {kind} test ({reason})"),
            n => format!("{n} {kind} tests ({reason})"),
        })
        .collect();
    (!parts.is_empty()).then(|| format!("skipped in tests/api: {}", parts.join("; ")))
}

extern "C" fn report() {
    let line = SKIPS.lock().ok().and_then(|skips| summary(&skips.kinds));
    if let Some(line) = line {
        // Unbuffered and not captured: libtest captures test threads only.
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

#[test]
fn the_summary_names_each_kind_with_its_count_and_reason() {
    let mut kinds = BTreeMap::new();
    assert_eq!(summary(&kinds), None);
    kinds.insert(
        "PostgreSQL",
        (
            BTreeSet::from(["a".to_owned(), "b".to_owned()]),
            "PostgreSQL at postgres://x cannot be reached".to_owned(),
        ),
    );
    kinds.insert(
        "browser",
        (
            BTreeSet::from(["c".to_owned()]),
            "missing /usr/bin/chromium".to_owned(),
        ),
    );
    assert_eq!(
        summary(&kinds).as_deref(),
        Some(
            "skipped in tests/api: 2 PostgreSQL tests (PostgreSQL at postgres://x cannot be \
             reached); 1 browser test (missing /usr/bin/chromium)"
        )
    );
}
