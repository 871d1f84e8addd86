//! Embeds the migrations under `migrations/`: writes `$OUT_DIR/migrations.rs`,
//! a list of `(version, description, sql)` read by `src/storage/mod.rs`, in
//! the order of their versions. A file is named `<version>_<description>.sql`
//! (underscores in the description read as spaces), as sqlx's own migration
//! tools name them, so a database migrated by either agrees on both.
use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs};

fn main() {
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
