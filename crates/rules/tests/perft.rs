//! Perft counts from data files, read by one runner.
//!
//! Every `tests/data/*.perft` file holds positions (`id`, then `fen` or
//! `code`) followed by `perft <depth> <nodes>` lines; `#` starts a comment.
//! Each file says where its numbers come from. Counts of `deep/*.perft`
//! take seconds in release (minutes in debug) and run only with `cargo test -- --ignored`.

use std::fs;
use std::path::{Path, PathBuf};

use qipan_rules::xiangqi::Position;
use qipan_rules::Game;

struct Case {
    file: PathBuf,
    id: String,
    position: Position,
    expected: Vec<(u32, u64)>,
}

fn read_cases(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    let mut cases: Vec<Case> = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("perft file is readable");
        let mut id = String::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let at = || format!("{}:{}", file.display(), n + 1);
            let Some((key, value)) = line.split_once(' ') else {
                continue;
            };
            match key {
                "id" => id = value.trim().to_owned(),
                "fen" | "code" => {
                    let position = if key == "fen" {
                        Position::from_fen(value).unwrap_or_else(|e| panic!("{}: {e}", at()))
                    } else {
                        Position::from_code(value).unwrap_or_else(|e| panic!("{}: {e}", at()))
                    };
                    cases.push(Case {
                        file: file.clone(),
                        id: id.clone(),
                        position,
                        expected: Vec::new(),
                    });
                }
                "perft" => {
                    let (d, nodes) = value.split_once(' ').unwrap_or_else(|| panic!("{}", at()));
                    let case = cases
                        .last_mut()
                        .unwrap_or_else(|| panic!("{}: perft before fen", at()));
                    case.expected.push((
                        d.trim().parse().expect("depth"),
                        nodes.trim().parse().expect("nodes"),
                    ));
                }
                other => panic!("{}: unknown key {other:?}", at()),
            }
        }
    }
    cases
}

fn run(dir: &str) {
    let dir = std::env::var("PERFT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join(dir));
    let cases = read_cases(&dir);
    assert!(!cases.is_empty(), "no perft cases in {}", dir.display());
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        for &(depth, nodes) in &case.expected {
            let got = case.position.perft(depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{} {} depth {depth}: expected {nodes}, got {got} ({})",
                    case.file.display(),
                    case.id,
                    case.position.to_fen()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} perft counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{checked} perft counts over {} positions agree",
        cases.len()
    );
}

#[test]
fn perft_counts_match_reference_data() {
    run("tests/data");
}

#[test]
#[ignore = "seconds in release, minutes in debug: run with cargo test --release -- --ignored"]
fn deep_perft_counts_match_reference_data() {
    run("tests/data/deep");
}
