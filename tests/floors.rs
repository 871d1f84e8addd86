//! The service's modules stand on floors (`docs/architecture.md`): each
//! may use what stands on its own floor or below, never what stands above.
//! This reads every file of `src/` and fails on a `crate::…` path, outside
//! comments, that runs up a floor, naming the file, the line and the two
//! modules.

use std::path::Path;

/// The top-level modules of `src/`, lowest floor first; modules on one
/// line share a floor (the match domain and its SQL use each other).
const FLOORS: &[&[&str]] = &[
    &["metrics"],
    &["telemetry"],
    &["configuration"],
    &["wire"],
    &["games"],
    &["analysis"],
    &["matches", "storage"],
    &["records"],
    &["problem"],
    &["pages"],
    &["http"],
    &["routes"],
    &["startup"],
    &["cli", "main", "lib"],
];

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|floor| floor.contains(&module))
}

/// The top-level module a file of `src/` belongs to.
fn module_of(path: &Path, src: &Path) -> String {
    let rel = path.strip_prefix(src).expect("a file under src/");
    let first = rel
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        .expect("a file name");
    first.trim_end_matches(".rs").to_owned()
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules a line names as `crate::<module>`.
fn named(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &line[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn no_module_uses_one_above_its_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    all.sort();
    let mut wrong = Vec::new();
    for path in &all {
        let module = module_of(path, &src);
        let Some(own) = floor_of(&module) else {
            wrong.push(format!("{}: module {module} has no floor", path.display()));
            continue;
        };
        let text = std::fs::read_to_string(path).expect("a readable file");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for used in named(code) {
                // Macros exported at the crate's root (`crate::json_object!`).
                let Some(theirs) = floor_of(used) else {
                    continue;
                };
                if theirs > own {
                    wrong.push(format!(
                        "{}:{}: {module} uses {used}, a floor above it",
                        path.display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_module_of_src_has_a_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).expect("src/") {
        let path = entry.expect("an entry").path();
        let module = module_of(&path, &src);
        assert!(floor_of(&module).is_some(), "src/{module} has no floor");
    }
}
