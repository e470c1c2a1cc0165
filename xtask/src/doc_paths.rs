//! A test that the developers' map stays true to the tree: every file or
//! folder that `docs/DEVELOPMENT.md` and the README's crate table name in
//! backquotes exists.
//!
//! A name is looked up from the repository's root, then from the folder
//! its bullet (`- \`crates/sg-octal\`: ...`) or table row
//! (`| \`sg-octal\` | ...`) is about and that folder's `src/`, then as the
//! end of any path under that folder (`rules.rs` is found as
//! `crates/sg-octal/src/rules.rs`, `cram/endgame.rs` as
//! `crates/sg-search/src/games/cram/endgame.rs`). A name that is found
//! nowhere, such as a file renamed or moved to another crate, fails the
//! test with its line. Only names that look like paths are checked: those
//! ending in `/` or in a known extension; commands, items and globs are
//! not.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The extensions of the names checked.
    const EXTENSIONS: [&str; 13] = [
        ".rs", ".md", ".toml", ".py", ".pyi", ".sh", ".sbatch", ".c", ".sgt", ".json", ".typed",
        ".lock", ".txt",
    ];

    /// Every file and folder under `dir` (folders with a trailing `/`),
    /// relative to `root`, skipping build outputs and hidden folders
    /// other than `.ci`.
    fn tree(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .to_string_lossy()
                .into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                if ["target", "__pycache__", "node_modules"].contains(&name.as_str())
                    || (name.starts_with('.') && name != ".ci" && name != ".cargo")
                {
                    continue;
                }
                out.push(format!("{relative}/"));
                tree(root, &path, out);
            } else {
                out.push(relative);
            }
        }
    }

    /// The backquoted names of `line` that look like paths.
    fn path_names(line: &str) -> Vec<&str> {
        line.split('`')
            .skip(1)
            .step_by(2)
            .filter(|t| !t.is_empty() && !t.contains([' ', '*', '$', '~', ':', '<', '{']))
            .filter(|t| !t.starts_with(['/', '-']))
            // A bare extension (`.sgt`) names no file.
            .filter(|t| t.contains('/') || !t.starts_with('.') || t[1..].contains('.'))
            .filter(|t| t.ends_with('/') || EXTENSIONS.iter().any(|e| t.ends_with(e)))
            .collect()
    }

    /// The folder a line is about, if it opens a bullet or a table row
    /// with the name of one (`crates/sg-core`, or `sg-core` for
    /// `crates/sg-core`).
    fn subject(root: &Path, line: &str) -> Option<String> {
        let rest = line
            .strip_prefix("- `")
            .or_else(|| line.strip_prefix("| `"))?;
        let name = rest.split('`').next()?.trim_end_matches('/');
        [name.to_owned(), format!("crates/{name}")]
            .into_iter()
            .find(|candidate| !candidate.is_empty() && root.join(candidate).is_dir())
    }

    /// The names of `text` (of the file `file`) found nowhere.
    fn missing(root: &Path, all: &[String], file: &str, text: &str) -> Vec<String> {
        let mut base = String::new();
        let mut missing = Vec::new();
        for (number, line) in text.lines().enumerate() {
            // A heading or a blank line ends what a bullet or a row is about.
            if line.starts_with('#') || line.trim().is_empty() {
                base.clear();
            }
            let is_item = line.starts_with("- ") || line.starts_with('|');
            if let Some(folder) = subject(root, line) {
                base = folder;
            } else if is_item && !line.starts_with("  ") {
                // A bullet or row about no folder: names from the root.
                base.clear();
            }
            for name in path_names(line) {
                let base_path = PathBuf::from(&base);
                let found = [
                    PathBuf::from(name),
                    base_path.join(name),
                    base_path.join("src").join(name),
                ]
                .iter()
                .any(|p| root.join(p).exists())
                    || all.iter().any(|p| {
                        (base.is_empty() || p.starts_with(&format!("{base}/")))
                            && format!("/{p}").ends_with(&format!("/{name}"))
                    });
                if !found {
                    missing.push(format!(
                        "{file}:{}: `{name}` (looked for from the root and under `{base}`)",
                        number + 1
                    ));
                }
            }
        }
        missing
    }

    #[test]
    fn every_path_the_developers_map_names_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the root");
        let mut all = Vec::new();
        tree(root, root, &mut all);
        let mut problems = Vec::new();
        for file in ["docs/DEVELOPMENT.md", "README.md"] {
            let text = std::fs::read_to_string(root.join(file)).expect("the document");
            problems.extend(missing(root, &all, file, &text));
        }
        assert!(
            problems.is_empty(),
            "names of files that do not exist:\n{}",
            problems.join("\n")
        );
    }

    /// The check fails on a name that exists nowhere, and passes on one
    /// found under its bullet's crate only.
    #[test]
    fn a_stale_name_is_found() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the root");
        let mut all = Vec::new();
        tree(root, root, &mut all);
        let text = "- `crates/sg-octal`: `kernels.rs`, `avx2/`, `avx2.rs`\n\
                    - `crates/sg-core`: `kernels.rs`\n";
        let found = missing(root, &all, "test", text);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("`avx2.rs`") && found[1].contains("`kernels.rs`"));
    }
}
