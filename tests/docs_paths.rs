//! The README and `docs/` name files of this repository; each named file
//! must exist, so a move or a deletion that leaves a page pointing at
//! nothing fails here, with the page, the line and the path.
//!
//! What counts as naming a path:
//! - a relative Markdown link, `[text](../openapi.yaml)`, resolved from the
//!   page's own folder (an `#anchor` is dropped);
//! - a word of inline code or of a fenced block that starts at a top-level
//!   folder of the repository (`src/`, `crates/`, `perf/`, …) or is one of
//!   its top-level files (`openapi.yaml`, …);
//! - an entry of a layout tree (a fenced block whose lines name folders and
//!   files, children indented under their folder), joined to its folders.
//!
//! Words holding `<`, `{`, `*` or `…` are patterns, not paths, and are
//! skipped.

use std::path::{Path, PathBuf};

const ROOT_FOLDERS: &[&str] = &[
    ".ci/",
    "benches/",
    "crates/",
    "docs/",
    "examples/",
    "fuzz/",
    "migrations/",
    "perf/",
    "scripts/",
    "src/",
    "static/",
    "tests/",
];
const ROOT_FILES: &[&str] = &[
    "openapi.yaml",
    "Dockerfile",
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "README.md",
];

/// Where a tree entry starts at most; deeper text is a description's
/// continuation.
const TREE_ENTRY_INDENT: usize = 8;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages checked: the README, every page under `docs/`, `perf/README.md`.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut pages = vec![root.join("README.md"), root.join("perf/README.md")];
    walk(&root.join("docs"), &mut pages);
    pages
}

fn is_pattern(word: &str) -> bool {
    word.contains(['<', '>', '{', '}', '*', '…', '$', '|']) || word.contains("...")
}

/// `word` without the punctuation prose and shell put around it.
fn trim(word: &str) -> &str {
    word.trim_start_matches(['(', '"', '\'', '[', '`'])
        .trim_end_matches([')', ',', '.', ';', ':', '"', '\'', ']', '`'])
}

/// `word` when it names a path from the repository's root.
fn repo_path(word: &str) -> Option<&str> {
    let word = trim(word);
    let named =
        ROOT_FOLDERS.iter().any(|folder| word.starts_with(folder)) || ROOT_FILES.contains(&word);
    (named && !is_pattern(word)).then_some(word)
}

/// The inline code of a line of prose, `open` saying whether a span runs
/// on from the line before (a span may break across lines); `open` is left
/// saying whether one runs on to the next.
fn code_spans<'a>(line: &'a str, open: &mut bool) -> Vec<&'a str> {
    let mut spans = Vec::new();
    for (k, segment) in line.split('`').enumerate() {
        if k > 0 {
            *open = !*open;
        }
        if *open {
            spans.push(segment);
        }
    }
    spans
}

/// The targets of the relative links of a line of prose.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or_default();
        let external = target.is_empty()
            || target.starts_with("http://")
            || target.starts_with("https://")
            || target.starts_with("mailto:");
        if !external {
            targets.push(target);
        }
        rest = &rest[end..];
    }
    targets
}

/// A layout tree: its first line names a folder at the margin.
fn is_tree(block: &[&str]) -> bool {
    block.first().is_some_and(|first| {
        let entry = first.split("  ").next().unwrap_or_default();
        !first.starts_with(' ') && entry.ends_with('/') && !entry.contains(' ')
    })
}

/// A file or folder named relative to a tree entry's folder, as in
/// "handlers (games.rs, state.rs)": letters, digits, `._-/`, and a file
/// extension or a closing `/`.
fn local_name(word: &str) -> Option<&str> {
    let word = trim(word);
    let plain = word
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c));
    const EXTENSIONS: &[&str] = &[
        ".rs", ".sql", ".js", ".mjs", ".json", ".md", ".yaml", ".toml", ".sh", ".py", ".html",
        ".css", ".cpp",
    ];
    let named = word.ends_with('/') || EXTENSIONS.iter().any(|ext| word.ends_with(ext));
    (plain && named).then_some(word)
}

/// The paths a layout tree names: entries joined to the folders above them,
/// the files a folder's description lists joined to that folder, and root
/// paths named anywhere.
fn tree_paths(block: &[&str]) -> Vec<String> {
    let mut paths = Vec::new();
    // (indent, folder) of the open folders, outermost first.
    let mut folders: Vec<(usize, String)> = Vec::new();
    // The folder the current entry names, whose description may list its files.
    let mut described: Option<String> = None;
    for line in block {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        let (entry, description) = match text.find("  ") {
            Some(gap) => (&text[..gap], &text[gap..]),
            None => (text, ""),
        };
        if indent < TREE_ENTRY_INDENT && !entry.is_empty() {
            folders.retain(|(open, _)| *open < indent);
            let parent: String = folders.last().map(|(_, f)| f.clone()).unwrap_or_default();
            described = None;
            for name in entry.split(", ") {
                let name = name.trim();
                if name.is_empty() || is_pattern(name) {
                    continue;
                }
                let path = if name.contains('/') && parent.is_empty() {
                    name.to_owned()
                } else {
                    format!("{parent}{name}")
                };
                if name.ends_with('/') {
                    folders.push((indent, path.clone()));
                    described = Some(path.clone());
                }
                paths.push(path);
            }
        }
        let description = if indent < TREE_ENTRY_INDENT {
            description
        } else {
            text
        };
        for word in description.split_whitespace() {
            if let Some(path) = repo_path(word) {
                paths.push(path.to_owned());
            } else if let (Some(folder), Some(name)) = (&described, local_name(word)) {
                paths.push(format!("{folder}{name}"));
            }
        }
    }
    paths
}

/// Every path `page` names, with its line number, relative to the root.
fn named_paths(page: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let root = root();
    let folder = page.parent().expect("a page is in a folder");
    let mut named = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut open = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() {
            open = false;
        }
        if line.trim_start().starts_with("```") {
            open = false;
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            let block = &lines[start..end];
            if is_tree(block) {
                named.extend(tree_paths(block).into_iter().map(|p| (start, p)));
            } else {
                for (n, line) in block.iter().enumerate() {
                    for word in line.split_whitespace().filter_map(repo_path) {
                        named.push((start + n + 1, word.to_owned()));
                    }
                }
            }
            i = end + 1;
            continue;
        }
        for span in code_spans(line, &mut open) {
            for word in span.split_whitespace().filter_map(repo_path) {
                named.push((i + 1, word.to_owned()));
            }
        }
        for target in link_targets(line) {
            let resolved = folder.join(target);
            let relative = match resolved.canonicalize() {
                Ok(full) => full
                    .strip_prefix(root.canonicalize().expect("the root"))
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| target.to_owned()),
                // Missing: reported under the name the page gives.
                Err(_) => format!("{} (linked as {target})", resolved.display()),
            };
            named.push((i + 1, relative));
        }
        i += 1;
    }
    named
}

#[test]
fn every_path_the_docs_name_exists() {
    let root = root();
    let mut missing = Vec::new();
    let mut checked = 0;
    for page in pages() {
        for (line, path) in named_paths(&page) {
            checked += 1;
            let exists = if path.contains(" (linked as ") {
                false
            } else {
                root.join(&path).exists()
            };
            if !exists {
                let page = page
                    .strip_prefix(&root)
                    .unwrap_or(&page)
                    .display()
                    .to_string();
                missing.push(format!("{page}:{line}: {path}"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} paths found: is the parsing broken?"
    );
    assert!(
        missing.is_empty(),
        "the docs name paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_layout_tree_joins_entries_to_their_folders() {
    let block = [
        "crates/rules/             the rules",
        "  src/lib.rs              traits",
        "  src/<game>/             one module per game",
        "                          (see docs/api.md; mod.rs)",
        "src/                      the service",
        "  main.rs, cli.rs         commands",
        "  routes/                 handlers (games.rs, state.rs),",
        "                          and js/ e.g. 2.5",
    ];
    assert!(is_tree(&block));
    assert_eq!(
        tree_paths(&block),
        [
            "crates/rules/",
            "crates/rules/src/lib.rs",
            "docs/api.md",
            "src/",
            "src/main.rs",
            "src/cli.rs",
            "src/routes/",
            "src/routes/games.rs",
            "src/routes/state.rs",
            "src/routes/js/"
        ]
    );
}

#[test]
fn prose_names_paths_in_code_and_links_only() {
    let mut open = false;
    assert_eq!(
        code_spans("see `src/cli.rs` and `--addr`", &mut open),
        ["src/cli.rs", "--addr"]
    );
    assert_eq!(code_spans("a span `runs on", &mut open), ["runs on"]);
    assert_eq!(code_spans("src/main.rs` here", &mut open), ["src/main.rs"]);
    assert!(!open);
    assert_eq!(repo_path("(src/cli.rs),"), Some("src/cli.rs"));
    assert_eq!(repo_path("/v1/games"), None);
    assert_eq!(repo_path("static/i18n/{zh-Hans,en}.json"), None);
    assert_eq!(
        link_targets("[a](../openapi.yaml#x) [b](https://example.org) [c](#here)"),
        ["../openapi.yaml"]
    );
}
