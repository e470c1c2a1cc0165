//! The copies of the compiled-in tables inside the `sg-tables` crate
//! (`crates/sg-tables/data/`): `include_bytes!` must point inside the crate
//! for the packaged crate to build, while `data/` stays the workspace's
//! folder of tables. `cargo xtask gen` writes the copies with the tables
//! (the same bytes), `cargo xtask gen --check` fails when one differs.

use std::fs;
use std::path::{Path, PathBuf};

/// The tables compiled into `sg-tables` (feature `embedded`).
pub(crate) const FILES: [&str; 5] = [
    "row20.sgt",
    "knight.sgt",
    "knight-pattern.sgt",
    "octal-catalogue.sgt",
    "cram-endgame.sgt",
];

/// `crates/sg-tables/data/` of the workspace.
pub(crate) fn crate_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is a folder of the workspace")
        .join("crates/sg-tables/data")
}

/// The files of `copies` that are not embedded tables.
pub(crate) fn unexpected_files(copies: &Path) -> Vec<String> {
    let Ok(dir) = fs::read_dir(copies) else {
        return Vec::new();
    };
    dir.flatten()
        .filter(|entry| !FILES.contains(&entry.file_name().to_string_lossy().as_ref()))
        .map(|entry| {
            format!(
                "{} (not an embedded table)",
                sg_text::shown_path(&entry.path())
            )
        })
        .collect()
}
