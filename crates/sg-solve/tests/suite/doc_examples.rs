//! The shell examples of `README.md` and `docs/COMMANDS.md` run as shown.
//!
//! An example is a line starting with `$ ` in a ```` ```sh ```` block: the
//! command, run by `sh -c` with `grundy` the binary under test (its folder
//! first on `PATH`), followed by the lines it prints, up to the next `$ `
//! line or the end of the block. How they are run and compared:
//!
//! - **Where.** Each block runs in a fresh temporary directory that holds
//!   a symbolic link to every top-level entry of the repository root
//!   (`crates`, `data`, ...), so the paths of the examples, relative to the
//!   root (`crates/sg-solve/tests/data/hdu5724.in`, `data/row20.sgt`), name
//!   the repository's files, while a file an example writes
//!   (`cram-5x7.proof`, `knight.png`, `rows.png`) lands in the temporary
//!   directory and goes away with it. The commands of one block share it:
//!   a `$ ` line may read what the one before wrote.
//! - **Environment.** The `GRUNDY_*` variables and `RAYON_NUM_THREADS` of
//!   the test's own environment are removed (an example sets what it
//!   needs), but for `GRUNDY_PROGRESS_EVERY=0` (a terminal shows a long
//!   run's progress in place and leaves no line; a slow machine would
//!   write `progress:` lines to this pipe), standard input is empty.
//! - **Output.** What is compared is standard output followed by standard
//!   error, less its `note: ` lines (a terminal shows both; the documents
//!   show an error line where it is one, never a note such as the one
//!   `GRUNDY_SCAN_SIMD=portable` prints). It must equal the expected lines,
//!   each ended by a newline, exactly, but for one rule applied to both
//!   sides: the number after a JSON key `"seconds":` (the search's time,
//!   `cram`, `node-kayles` and `chomp` with `--json`) is replaced by `_`.
//! - **Exit status.** 2 when an expected line starts with `error: ` (bad
//!   input or a bad environment variable, what the documents promise),
//!   else 0.
//!
//! A ```` ```sh ```` block without a `$ ` prompt shows commands to adapt,
//! not to run as written, and is not run. There are few, and each is
//! listed in [`NOT_RUN`] (the test fails on one that is not, and on one
//! listed that is gone):
//!
//! - README.md: the install commands (`cargo install`, a static build),
//!   `grundy completions` and `grundy man` writing into the home folder
//!   and opening `man`, the whole test suite (`cargo test --workspace`),
//!   and `pip install ./crates/grundy-py`.
//! - docs/COMMANDS.md: the long octal run with `--out` and `--resume`
//!   (10^8 heaps), the ten-minute misère run with `--out` and `--resume`,
//!   the sweep of 4096 games to 10^6 heaps, and the `completions` and `man` blocks (files in the
//!   home folder, `man -l`).
//!
//! Time: 67 examples in 35 blocks (README.md 19 in 17, docs/COMMANDS.md
//! 48 in 18), about 12 s of CPU in all, run on one worker per CPU. Most
//! take milliseconds; the slow ones, each as documented: `grundy cram 5x7
//! --proof ...` (README, 4 to 5 s of CPU: the search that records a
//! proof, and the half megabyte file flushed to disk; COMMANDS shows 5x6,
//! under a second), `grundy tables verify data` (about 5 s: every value of
//! the committed tables checked, half of it the Cram endgame table of 1.2
//! million polyominoes, half the octal catalogue's 1024 games) and `grundy
//! chomp 8x8 --proof ...` (1 to 2 s).

#![cfg(unix)]

use crate::common::Bounded;
use crate::common::{path_with_grundy, seconds_normalised};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The documents whose examples are run, relative to the repository root.
const DOCUMENTS: [&str; 2] = ["README.md", "docs/COMMANDS.md"];

/// The ```` ```sh ```` blocks without a `$ ` prompt, not run: the
/// document and the block's first line.
const NOT_RUN: [(&str, &str); 9] = [
    (
        "docs/COMMANDS.md",
        "grundy sweep 0.dddd --to 1000000 --out sweep",
    ),
    (
        "docs/COMMANDS.md",
        "grundy octal 0.07 --misere --max-order 4096 --out kayles.sgt --max-seconds 600",
    ),
    ("README.md", "cargo install --locked --path crates/sg-solve"),
    (
        "README.md",
        "mkdir -p ~/.local/share/bash-completion/completions ~/.local/share/man/man1",
    ),
    ("README.md", "pip install ./crates/grundy-py"),
    ("README.md", "cargo test --workspace --locked"),
    (
        "docs/COMMANDS.md",
        "grundy octal .354 --online --to 100000000 --out run.sgt",
    ),
    (
        "docs/COMMANDS.md",
        "mkdir -p ~/.local/share/bash-completion/completions ~/.zfunc ~/.config/fish/completions",
    ),
    (
        "docs/COMMANDS.md",
        "grundy man > grundy.1 && man -l grundy.1",
    ),
];

/// One `$ ` line and the lines it prints.
struct Example {
    /// The line of the document (1-based).
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// A ```` ```sh ```` block.
struct Block {
    document: &'static str,
    /// The line of its opening fence (1-based).
    line: usize,
    lines: Vec<String>,
}

impl Block {
    /// The block's examples, or why it is malformed (text before its first
    /// `$ ` line). A block without a `$ ` line has none.
    fn examples(&self) -> Result<Vec<Example>, String> {
        let mut examples: Vec<Example> = vec![];
        for (i, text) in self.lines.iter().enumerate() {
            let line = self.line + 1 + i;
            if let Some(command) = text.strip_prefix("$ ") {
                examples.push(Example {
                    line,
                    command: command.to_string(),
                    expected: vec![],
                });
            } else if let Some(example) = examples.last_mut() {
                example.expected.push(text.clone());
            } else if self.lines.iter().any(|l| l.starts_with("$ ")) {
                return Err(format!(
                    "{}:{line}: a line before the block's first `$ ` line: {text:?}",
                    self.document
                ));
            }
        }
        Ok(examples)
    }
}

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The ```` ```sh ```` blocks of `document`.
fn sh_blocks(root: &Path, document: &'static str) -> Vec<Block> {
    let text = std::fs::read_to_string(root.join(document)).unwrap();
    let mut blocks = vec![];
    let mut open: Option<Block> = None;
    let mut in_other_block = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(block) = &mut open {
            if line.trim_end() == "```" {
                blocks.push(open.take().unwrap());
            } else {
                block.lines.push(line.to_string());
            }
        } else if let Some(language) = line.strip_prefix("```") {
            if in_other_block {
                in_other_block = false;
            } else if language.trim() == "sh" {
                open = Some(Block {
                    document,
                    line: i + 1,
                    lines: vec![],
                });
            } else {
                in_other_block = true;
            }
        }
    }
    assert!(open.is_none(), "{document}: a ```sh block is not closed");
    assert!(!in_other_block, "{document}: a code block is not closed");
    blocks
}

/// Runs the examples of `block`, each in the block's temporary directory;
/// returns what failed.
fn run_block(root: &Path, block: &Block, examples: &[Example]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root).unwrap() {
        let name = entry.unwrap().file_name();
        if !name.to_string_lossy().starts_with('.') {
            std::os::unix::fs::symlink(root.join(&name), dir.path().join(&name)).unwrap();
        }
    }
    let path = path_with_grundy();
    let mut failures = vec![];
    for example in examples {
        let mut command = crate::common::command("sh");
        command
            .arg("-c")
            .arg(&example.command)
            .current_dir(dir.path())
            .env("PATH", &path)
            .env_remove("RAYON_NUM_THREADS")
            .stdin(Stdio::null());
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("GRUNDY_") {
                command.env_remove(name);
            }
        }
        let out = command.bounded_output().unwrap();
        let mut got = String::from_utf8_lossy(&out.stdout).into_owned();
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            if !line.starts_with("note: ") {
                got.push_str(line);
                got.push('\n');
            }
        }
        let expected: String = example.expected.iter().map(|l| format!("{l}\n")).collect();
        let status = if example.expected.iter().any(|l| l.starts_with("error: ")) {
            2
        } else {
            0
        };
        if seconds_normalised(&got) != seconds_normalised(&expected)
            || out.status.code() != Some(status)
        {
            failures.push(format!(
                "{}:{}: $ {}\n--- expected (exit status {status}):\n{expected}\
                 --- got ({}):\n{got}--- as strings:\n{expected:?}\n{got:?}\n",
                block.document, example.line, example.command, out.status
            ));
        }
    }
    failures
}

#[test]
fn examples_run_as_shown() {
    let root = repository_root();
    let mut work = vec![];
    let mut failures = vec![];
    for document in DOCUMENTS {
        let mut count = 0;
        for block in sh_blocks(&root, document) {
            match block.examples() {
                Ok(examples) if examples.is_empty() => {}
                Ok(examples) => {
                    count += examples.len();
                    work.push((block, examples));
                }
                Err(e) => failures.push(e),
            }
        }
        assert!(count > 0, "{document}: no `$ ` example found");
    }
    // The slow blocks are spread over the workers as they come; one worker
    // per CPU (the searches use every CPU too, but most examples are short
    // processes that leave them idle).
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(failures);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some((block, examples)) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let mut found = run_block(&root, block, examples);
                    failed.lock().unwrap().append(&mut found);
                }
            });
        }
    });
    let failures = failed.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} example(s) of the documents do not print what they show:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn blocks_without_a_prompt_are_the_listed_ones() {
    let root = repository_root();
    let mut found = vec![];
    for document in DOCUMENTS {
        for block in sh_blocks(&root, document) {
            if block.examples().is_ok_and(|e| e.is_empty()) {
                let first = block.lines.first().cloned().unwrap_or_default();
                found.push((document, first));
            }
        }
    }
    for (document, first) in &found {
        assert!(
            NOT_RUN.contains(&(document, first.as_str())),
            "{document}: a ```sh block without a `$ ` prompt, starting {first:?}, is not run \
             by the tests: give its commands a `$ ` prompt and their output, or, if it cannot \
             run as written, list it in doc_examples::NOT_RUN"
        );
    }
    for (document, first) in NOT_RUN {
        assert!(
            found.iter().any(|(d, f)| *d == document && f == first),
            "{document}: no ```sh block without a prompt starts {first:?}: remove it from \
             doc_examples::NOT_RUN"
        );
    }
}

#[test]
fn the_normalisation_rule() {
    assert_eq!(
        seconds_normalised(r#"{"positions":41,"seconds":0.000283328}"#),
        r#"{"positions":41,"seconds":_}"#
    );
    assert_eq!(
        seconds_normalised(r#""seconds":1e-5,"x":"seconds""#),
        r#""seconds":_,"x":"seconds""#
    );
    assert_eq!(seconds_normalised("seconds 0.5"), "seconds 0.5");
}
