//! The copies of the compiled-in tables inside the `sg-tables` crate
//! (`crates/sg-tables/data/`): `include_bytes!` must point inside the crate
//! for the packaged crate to build, while `data/` stays the workspace's
//! folder of tables. `cargo xtask gen` writes the copies from `data/`,
//! `cargo xtask gen --check` fails when one differs.

use anyhow::{Context, Result, bail};
use std::fs;
use std::path::{Path, PathBuf};

/// The tables compiled into `sg-tables` (feature `embedded`).
pub(crate) const FILES: [&str; 3] = ["row20.sgt", "knight.sgt", "knight-pattern.sgt"];

/// `crates/sg-tables/data/` of the workspace.
pub(crate) fn crate_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is a folder of the workspace")
        .join("crates/sg-tables/data")
}

/// Copies the embedded tables from `data` into `copies`.
pub(crate) fn write(data: &Path, copies: &Path) -> Result<()> {
    fs::create_dir_all(copies).with_context(|| format!("cannot create {}", copies.display()))?;
    for name in FILES {
        let (from, to) = (data.join(name), copies.join(name));
        fs::copy(&from, &to)
            .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    }
    eprintln!("copied the embedded tables to {}", copies.display());
    Ok(())
}

/// The files of `copies` that are not byte-identical copies of `data`'s,
/// and those that are not embedded tables.
fn stale(data: &Path, copies: &Path) -> Vec<String> {
    let mut stale = Vec::new();
    for name in FILES {
        let copy = copies.join(name);
        match (fs::read(data.join(name)), fs::read(&copy)) {
            (Ok(a), Ok(b)) if a == b => {}
            _ => stale.push(copy.display().to_string()),
        }
    }
    if let Ok(dir) = fs::read_dir(copies) {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !FILES.contains(&name.as_str()) {
                stale.push(format!(
                    "{} (not an embedded table)",
                    entry.path().display()
                ));
            }
        }
    }
    stale
}

/// Fails, naming the files and the command to run, when the copies in
/// `copies` differ from the tables of `data`.
pub(crate) fn check(data: &Path, copies: &Path) -> Result<()> {
    let stale = stale(data, copies);
    if !stale.is_empty() {
        bail!(
            "stale copies of the embedded tables:\n  {}\nrun `cargo xtask gen` and commit the result",
            stale.join("\n  ")
        );
    }
    eprintln!("{} is up to date", copies.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_finds_stale_and_extra_copies() {
        let root = std::env::temp_dir().join(format!("xtask-copy-test-{}", std::process::id()));
        let (data, copies) = (root.join("data"), root.join("copies"));
        fs::create_dir_all(&data).unwrap();
        for name in FILES {
            fs::write(data.join(name), name.as_bytes()).unwrap();
        }
        assert!(check(&data, &copies).is_err(), "no copies yet");
        write(&data, &copies).unwrap();
        check(&data, &copies).unwrap();

        fs::write(copies.join("knight.sgt"), b"other").unwrap();
        let err = check(&data, &copies).unwrap_err().to_string();
        assert!(err.contains("knight.sgt"), "{err}");
        assert!(err.contains("run `cargo xtask gen`"), "{err}");

        write(&data, &copies).unwrap();
        fs::write(copies.join("extra.sgt"), b"").unwrap();
        let err = check(&data, &copies).unwrap_err().to_string();
        assert!(err.contains("extra.sgt (not an embedded table)"), "{err}");
        fs::remove_dir_all(&root).unwrap();
    }
}
