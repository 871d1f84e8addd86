//! Embeds the migrations under `migrations/`: writes `$OUT_DIR/migrations.rs`,
//! a list of `(version, description, sql)` read by `src/storage/mod.rs`, in
//! the order of their versions. A file is named `<version>_<description>.sql`
//! (underscores in the description read as spaces), as sqlx's own migration
//! tools name them, so a database migrated by either agrees on both.
//!
//! Also sets `QIPAN_SOURCE_FINGERPRINT`: a hash of every file that decides
//! what a state view says (the service's and the rules crate's sources, and
//! `Cargo.lock` for the crates that write JSON). A view is a pure function
//! of its inputs and of this build, so its entity tag can be a hash of the
//! inputs salted with the fingerprint instead of a hash of its bytes
//! (`src/routes/conditional.rs`): a build that could answer differently
//! gets other tags.
use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs};

fn main() {
    migrations();
    fingerprint();
}

/// FNV-1a over the paths and contents of the files that make the views.
fn fingerprint() {
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for dir in ["src", "crates/rules/src"] {
        println!("cargo:rerun-if-changed={dir}");
        collect(&root.join(dir), &mut files);
    }
    println!("cargo:rerun-if-changed=Cargo.lock");
    files.push(root.join("Cargo.lock"));
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in &files {
        let relative = path.strip_prefix(&root).unwrap_or(path);
        eat(relative.to_string_lossy().as_bytes());
        // A missing Cargo.lock (a dependency's build) hashes as empty.
        eat(&fs::read(path).unwrap_or_default());
    }
    println!("cargo:rustc-env=QIPAN_SOURCE_FINGERPRINT={hash:016x}");
}

/// Every file under `dir`, recursively.
fn collect(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn migrations() {
    println!("cargo:rerun-if-changed=migrations");
    let dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo")).join("migrations");
    let mut found: Vec<(i64, String, PathBuf)> = Vec::new();
    for entry in fs::read_dir(&dir).expect("migrations/ is readable") {
        let path = entry.expect("migrations/ is readable").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".sql") else {
            continue;
        };
        let (version, description) = stem
            .split_once('_')
            .unwrap_or_else(|| panic!("migration {name}: expected <version>_<description>.sql"));
        let version: i64 = version
            .parse()
            .unwrap_or_else(|_| panic!("migration {name}: the version is not a number"));
        found.push((version, description.replace('_', " "), path));
    }
    found.sort_by_key(|(version, ..)| *version);
    if let Some(pair) = found.windows(2).find(|w| w[0].0 == w[1].0) {
        panic!("two migrations have the version {}", pair[0].0);
    }
    let mut out = String::from("&[\n");
    for (version, description, path) in &found {
        writeln!(
            out,
            "    ({version}, {description:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("]\n");
    let target = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("migrations.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
