//! `grundy octal --out FILE --checkpoint-every DURATION` through the real
//! binary: runs killed at random moments (`SIGKILL`, `SIGINT`, `SIGTERM`)
//! and resumed with `--resume FILE --out FILE`, any number of times, end
//! with the very bytes an uninterrupted run writes; every checkpoint left
//! on the way is a table of the run's first values.

#![cfg(unix)]

use crate::common::Bounded;
use crate::common::SplitMix64;
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn grundy() -> Command {
    crate::common::grundy_command()
}

fn run_ok(args: &[&str]) {
    let out = grundy()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The values of the table at `path`.
fn values(path: &Path) -> Vec<u16> {
    let file = sg_tables::read_file(path).unwrap();
    file.table().octal_sequence().unwrap().values().to_vec()
}

/// Runs `code` to heap `to` into `part.sgt` in `dir`, killing it at
/// random moments with a random signal and resuming it from its file,
/// until a run ends by itself; checks what each stop leaves; the number
/// of runs stopped.
fn stop_and_resume(dir: &Path, code: &str, to: u64, whole: &[u16], rng: &mut SplitMix64) -> u64 {
    let part = dir.join("part.sgt");
    let part_arg = part.to_str().unwrap();
    let to_arg = to.to_string();
    for attempt in 0.. {
        assert!(attempt < 100, "{code}: the run never ends");
        let mut command = grundy();
        command.arg("octal");
        if part.exists() {
            command.args(["--resume", part_arg]);
            // The stored values checked every other time.
            if attempt % 2 == 1 {
                command.arg("--trust-resume");
            }
        } else {
            command.args([code, "--online"]);
        }
        command
            .args(["--out", part_arg, "--to", &to_arg])
            .args(["--checkpoint-every", "20ms", "--threads", "2"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let child = command.spawn().unwrap();
        // Longer and longer, so that the run ends however loaded the
        // machine (resuming reads and checks the file first).
        std::thread::sleep(Duration::from_millis(5 + rng.below(50 + 50 * attempt)));
        let (name, number) = [("KILL", 9), ("INT", 2), ("TERM", 15)][rng.below(3) as usize];
        crate::common::signal(&child, name);
        let out = crate::common::finish(child, "grundy");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            // It ended before the signal: the others were stopped.
            return attempt;
        }
        if out.status.signal() != Some(number) {
            // Caught once the run computes: the last checkpoint, then
            // 128 + the signal. (Before, the signal ends the process as
            // usual: the file, if any, is the previous checkpoint.) A
            // resumed run caught while it checks the stored values says
            // so: nothing computed, nothing written.
            assert_ne!(number, 9);
            assert_eq!(out.status.code(), Some(128 + number), "SIG{name}: {stderr}");
            assert!(
                stderr.contains("--resume") || stderr.contains("while checking the stored values"),
                "{stderr}"
            );
        }
        if part.exists() {
            let stored = values(&part);
            assert!(stored.len() <= whole.len(), "{code}");
            assert_eq!(stored, whole[..stored.len()], "{code}: a checkpoint");
        }
    }
    unreachable!()
}

#[test]
fn killed_and_resumed_runs_end_with_the_file_of_a_whole_run() {
    let mut rng = SplitMix64::new(2024);
    // .354 stops at the heap asked for; .56 certifies its period at
    // 653,570 values. Both runs take half a second or so in a test build:
    // a sequence of stops and resumes costs about the square of that, as
    // the sleeps grow until a run ends and every other resume checks the
    // values stored.
    for (code, to) in [(".354", 600_000), (".56", 2_000_000)] {
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.sgt");
        run_ok(&[
            "octal",
            code,
            "--online",
            "--to",
            &to.to_string(),
            "--out",
            whole.to_str().unwrap(),
        ]);
        let whole_values = values(&whole);
        let mut stopped = 0;
        for _ in 0..2 {
            stopped += stop_and_resume(dir.path(), code, to, &whole_values, &mut rng);
            assert_eq!(
                fs::read(dir.path().join("part.sgt")).unwrap(),
                fs::read(&whole).unwrap(),
                "{code}: the file of the stopped and resumed run"
            );
            fs::remove_file(dir.path().join("part.sgt")).unwrap();
        }
        assert!(stopped >= 2, "{code}: only {stopped} runs stopped");
    }
}

/// `grundy ARGS` fails with exit status 2 and this in its message.
fn refused(args: &[&str], expected: &str) {
    let out = grundy()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

#[test]
fn checkpoint_durations_are_checked() {
    refused(&["octal", ".6", "--checkpoint-every", "1m"], "--out");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("unused.sgt");
    let out = out.to_str().unwrap();
    for bad in ["ten", "0s", "1x", "5"] {
        refused(
            &["octal", ".6", "--out", out, "--checkpoint-every", bad],
            "duration",
        );
    }
    assert!(!dir.path().join("unused.sgt").exists());
}
