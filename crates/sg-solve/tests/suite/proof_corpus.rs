//! The corpus of certificates both checkers are tested on
//! (`checker/corpus/`, written by `checker/make_corpus.py`): `grundy
//! proof check` accepts every good one with the nimber its MANIFEST states
//! and refuses every wrong one (exit status 1, one line naming the fault),
//! as the second checker, `checker/grundy_proof_check.py`, does in its
//! own tests.

use crate::common::grundy;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../checker/corpus")
}

/// The MANIFEST's rows: file, what is expected, what the file is.
fn manifest() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(corpus().join("MANIFEST.tsv")).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let mut fields = line.split('\t').map(str::to_owned);
            let (file, expected, what) = (fields.next(), fields.next(), fields.next());
            (file.unwrap(), expected.unwrap(), what.unwrap())
        })
        .collect()
}

#[test]
fn the_corpus_is_accepted_and_refused_as_its_manifest_says() {
    let rows = manifest();
    let (mut good, mut wrong) = (0, 0);
    for (file, expected, what) in &rows {
        let path = corpus().join(file);
        let out = grundy(&["proof", "check", path.to_str().unwrap()], "");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if let Some(nimber) = expected.strip_prefix("nimber ") {
            assert_eq!(out.status.code(), Some(0), "{file}: {stderr}");
            assert!(
                stdout.contains(&format!(": nimber {nimber}, ")),
                "{file}: {stdout}"
            );
            good += 1;
        } else {
            assert_eq!(expected, "refused", "{file}");
            assert_eq!(
                out.status.code(),
                Some(1),
                "{file} ({what}): {stdout}{stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
            assert!(stdout.is_empty(), "{file}: {stdout}");
            wrong += 1;
        }
    }
    assert!(good >= 8 && wrong >= 50, "{good} good, {wrong} wrong");
    // Every file of the corpus is in the manifest.
    let mut listed: Vec<&str> = rows.iter().map(|row| row.0.as_str()).collect();
    listed.sort_unstable();
    let mut on_disk: Vec<String> = ["good", "wrong"]
        .iter()
        .flat_map(|folder| {
            std::fs::read_dir(corpus().join(folder))
                .unwrap()
                .map(move |entry| {
                    format!("{folder}/{}", entry.unwrap().file_name().to_string_lossy())
                })
        })
        .collect();
    on_disk.sort_unstable();
    assert_eq!(listed, on_disk);
}
