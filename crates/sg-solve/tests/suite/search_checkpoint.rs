//! `grundy cram --checkpoint FILE` and `--resume FILE` through the real
//! binary: a search killed (`SIGKILL`) or stopped (`SIGTERM`) mid-run goes
//! on from its checkpoint to the nimber of a whole run, with less work;
//! a checkpoint of another board, a damaged one, or one of false facts
//! never gives a wrong answer.

#![cfg(unix)]

use crate::common::Bounded;
use serde_json::Value;
use sg_search::Fact;
use sg_search::checkpoint::encode;
use sg_search::games::cram::Cram;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn grundy() -> Command {
    let mut command = crate::common::grundy_command();
    command.stdin(Stdio::null());
    command
}

/// `grundy cram BOARD --json --threads 1 EXTRA...`, its answer.
fn answer(board: &str, extra: &[&str]) -> Value {
    let out = grundy()
        .args(["cram", board, "--json", "--threads", "1"])
        .args(extra)
        .bounded_output()
        .unwrap();
    assert!(out.status.success(), "{extra:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The answer of a whole search of Cram 5x7 on one thread (about a
/// second), computed once for the tests that compare with it.
fn whole_5x7() -> &'static Value {
    static WHOLE: OnceLock<Value> = OnceLock::new();
    WHOLE.get_or_init(|| answer("5x7", &[]))
}

/// Starts a checkpointed search of `board` and waits for its first
/// checkpoint (and a little more); the running child.
fn checkpointed(board: &str, file: &Path) -> std::process::Child {
    let child = grundy()
        .args(["cram", board, "--json", "--threads", "1"])
        .arg("--checkpoint")
        .arg(file)
        .args(["--checkpoint-every", "100ms"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !file.exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    child
}

#[test]
fn a_killed_search_goes_on_from_its_checkpoint_with_less_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram.ck");
    let whole = whole_5x7();
    let child = checkpointed("5x7", &file);
    crate::common::signal(&child, "KILL");
    let out = crate::common::finish(child, "cram 5x7 killed").status;
    assert!(!out.success());
    let path = file.to_str().unwrap();
    // Hints: proven again, the same nimber.
    let hinted = answer("5x7", &["--resume", path]);
    assert_eq!(hinted["nimber"], whole["nimber"]);
    // Trusted: the same nimber, with less work than from nothing.
    let trusted = answer("5x7", &["--resume", path, "--trust-resume"]);
    assert_eq!(trusted["nimber"], whole["nimber"]);
    assert!(
        trusted["expanded"].as_u64() < whole["expanded"].as_u64(),
        "{trusted} against {whole}"
    );
    // And a run that resumes and checkpoints again ends with a checkpoint
    // of the whole search.
    let again = answer("5x7", &["--resume", path, "--checkpoint", path]);
    assert_eq!(again["nimber"], whole["nimber"]);
    let last = answer("5x7", &["--resume", path, "--trust-resume"]);
    assert_eq!(last["nimber"], whole["nimber"]);
    assert!(last["expanded"].as_u64().unwrap() < whole["expanded"].as_u64().unwrap() / 10);
}

#[test]
fn a_search_stopped_by_sigterm_writes_its_checkpoint_and_says_how_to_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stopped.ck");
    let child = checkpointed("5x7", &file);
    crate::common::signal(&child, "TERM");
    let out = crate::common::finish(child, "grundy");
    let err = String::from_utf8(out.stderr).unwrap();
    if out.status.success() {
        // It ended before the signal: nothing to see.
        return;
    }
    assert_eq!(out.status.code(), Some(128 + 15), "{err}");
    assert!(out.stdout.is_empty());
    let last = err.lines().last().unwrap();
    assert!(
        last.starts_with("stopped by SIGTERM (signal 15): ")
            && last.contains("facts written to")
            && last.ends_with(&format!("--resume {}", file.display())),
        "{err}"
    );
    let whole = whole_5x7();
    let resumed = answer("5x7", &["--resume", file.to_str().unwrap()]);
    assert_eq!(resumed["nimber"], whole["nimber"]);
}

/// The facts written when a search of `board` (with `extra` options,
/// checkpointing to `file`) is stopped by SIGTERM after `ms` milliseconds:
/// the count its last line gives.
fn facts_when_stopped(board: &str, file: &Path, ms: u64, extra: &[&str]) -> usize {
    let child = grundy()
        .args(["cram", board, "--threads", "1", "--checkpoint"])
        .arg(file)
        .args(["--checkpoint-every", "100ms"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(ms));
    crate::common::signal(&child, "TERM");
    let out = crate::common::finish(child, "grundy");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(128 + 15), "{err}");
    let last = err.lines().last().unwrap();
    let count = last.split(": ").nth(1).unwrap().split(' ').next().unwrap();
    count.parse().unwrap_or_else(|_| panic!("{err}"))
}

/// A search resumed from its checkpoint (as hints) and stopped again
/// writes a checkpoint that keeps what it resumed from: stopping and going
/// on, again and again, never throws work away.
#[test]
fn a_resumed_search_stopped_again_keeps_what_it_resumed_from() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("6x7.ck");
    let path = file.to_str().unwrap();
    // A long run, then short ones (each knows less of its own than the
    // first did).
    let mut before = facts_when_stopped("6x7", &file, 2500, &[]);
    assert!(before > 0);
    for _ in 0..2 {
        let after = facts_when_stopped("6x7", &file, 300, &["--resume", path]);
        assert!(
            after >= before,
            "{after} facts written after resuming {before}"
        );
        before = after;
    }
}

#[test]
fn foreign_damaged_and_false_checkpoints_never_give_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("4x5.ck");
    let path = file.to_str().unwrap();
    answer("4x5", &["--checkpoint", path]);
    // Another board: refused, exit status 2, one line.
    let out = grundy()
        .args(["cram", "4x6", "--resume", path])
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!("error: --resume {path}: the file is a checkpoint of cram 4x5, not of cram 4x6\n")
    );
    // Damaged: refused.
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 3;
    bytes[at] ^= 1;
    let damaged = dir.path().join("damaged.ck");
    std::fs::write(&damaged, &bytes).unwrap();
    let out = grundy()
        .args(["cram", "4x5", "--resume"])
        .arg(&damaged)
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the checksum does not match"),
        "{out:?}"
    );
    // Well formed, every fact false (each component said to have a nimber
    // it has not, on boards of nimbers 0 to 3): the answers are still
    // right, the facts only hints.
    let mut caught = 0;
    for board in ["4x5", "3x7", "3x6", "5x5"] {
        let (rows, cols) = board.split_once('x').unwrap();
        let cram = Cram::<u64>::new(rows.parse().unwrap(), cols.parse().unwrap()).unwrap();
        let solver = sg_search::Solver::new(&cram);
        solver.nimber(&cram.start()).unwrap();
        let lies: Vec<_> = solver
            .facts(0)
            .into_iter()
            .filter_map(|(p, fact, _)| {
                // An exact nimber moved by one, or a value known not to
                // be the nimber claimed to be it.
                let n = match fact.nimber() {
                    Some(n) => n + 1,
                    None => (fact.at_least()..fact.at_least() + 24).find(|&t| fact.excludes(t))?,
                };
                Some((p, Fact::from_word(1 << 63 | 1 << 62 | u64::from(n) << 32)?))
            })
            .collect();
        assert!(!lies.is_empty());
        let liar = dir.path().join(format!("{board}-lies.ck"));
        std::fs::write(&liar, encode(&cram, &lies, "a liar")).unwrap();
        let whole = answer(board, &[]);
        let hinted = answer(board, &["--resume", liar.to_str().unwrap()]);
        assert_eq!(hinted["nimber"], whole["nimber"], "{board}");
        // Trusted, with a proof asked: the proof finds the lie before any
        // answer is printed (the trusted answer may be wrong).
        let proof = dir.path().join(format!("{board}.proof"));
        let out = grundy()
            .args([
                "cram",
                board,
                "--threads",
                "1",
                "--trust-resume",
                "--resume",
            ])
            .arg(&liar)
            .arg("--proof")
            .arg(&proof)
            .bounded_output()
            .unwrap();
        if !out.status.success() {
            assert!(out.stdout.is_empty(), "{board}: {out:?}");
            assert!(!proof.exists(), "{board}");
            caught += 1;
        } else {
            // The lies did not change the answer: it is proven.
            let text = String::from_utf8_lossy(&out.stdout);
            let first = text.lines().next().unwrap_or_default().to_owned();
            assert_eq!(first, format!("nimber {}", whole["nimber"]), "{board}");
        }
    }
    assert!(caught > 0, "no trusted lie was caught by its proof");
    // Not with --misere.
    let out = grundy()
        .args(["cram", "4x5", "--misere", "--checkpoint", path])
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
