//! Long runs stopped by a signal (`SIGINT`, `SIGTERM`, `SIGHUP`) through
//! the real binary: what they had proven is printed, marked `stopped`,
//! and equals what a run asked for exactly those heaps prints. The long
//! runs of `grundy` are `octal` (normal play; with `--out` its checkpoints
//! are tested in `octal_checkpoint`) and `octal --misere`.

#![cfg(unix)]

use crate::common::Bounded;
use std::os::unix::process::ExitStatusExt;
use std::process::{Output, Stdio};
use std::time::Duration;

/// How long a run computes before its signal: half a second, so that the
/// signal finds it computing also on a busy machine (starting takes
/// milliseconds). Each run stopped is run again to the heap it stopped
/// at, which costs about as much again.
const AFTER: Duration = Duration::from_millis(500);

/// Runs `grundy args`, sends it `SIG{signal}` after `after`, and returns
/// what it printed.
fn stopped(args: &[&str], signal: &str, after: Duration) -> Output {
    let child = crate::common::grundy_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    crate::common::signal(&child, signal);
    crate::common::finish(child, "grundy")
}

/// Runs `grundy args` to its end, asserting success.
fn whole(args: &[&str]) -> String {
    let out = crate::common::grundy_command()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The heap a summary says the run stopped at, and the summary without
/// that line.
fn stopped_line(text: &str, reason: &str) -> (u64, String) {
    let line = text
        .lines()
        .find(|l| l.starts_with("stopped "))
        .unwrap_or_else(|| panic!("no stopped line in\n{text}"));
    let (heap, why) = line["stopped".len()..]
        .trim_start()
        .strip_prefix("at heap ")
        .unwrap()
        .split_once(": ")
        .unwrap();
    assert_eq!(why, reason, "{text}");
    let rest: String = text
        .lines()
        .filter(|l| !l.starts_with("stopped "))
        .map(|l| format!("{l}\n"))
        .collect();
    (heap.parse().unwrap(), rest)
}

/// The misère quotient of 0.26 takes half a minute: stopped after half a
/// second (near heap 40), the summary of the heaps proven is printed (exit
/// status 0), the same as the summary of a run to the last of them, as
/// text and as JSON; a sum beyond them is refused with 128 + the signal.
/// A misère quotient stops within a fraction of a second of the signal,
/// also in the middle of one heap's proof (0.561's heap 22779, whose
/// candidate took up to 25 s to build and prove, without a look at the
/// signals: they are now asked about between the rows of an extension and
/// the states of a proof).
#[test]
fn a_misere_quotient_stops_soon_after_the_signal() {
    let child = crate::common::grundy_command()
        .args(["octal", "0.561", "--misere", "--to", "100000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(4500));
    let signalled = std::time::Instant::now();
    crate::common::signal(&child, "INT");
    let out = crate::common::finish(child, "grundy");
    let late = signalled.elapsed();
    assert!(
        late < Duration::from_secs(3),
        "{late:?} after the signal: {out:?}"
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    stopped_line(&text, "stopped by SIGINT (signal 2)");
}

#[test]
fn a_stopped_misere_quotient_prints_the_heaps_proven() {
    let args = ["octal", "0.26", "--misere"];
    let out = stopped(&args, "INT", AFTER);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let (heap, rest) = stopped_line(&text, "stopped by SIGINT (signal 2)");
    assert!(heap > 10, "{text}");
    assert!(rest.contains(&format!("computed        heaps 0..={}\n", heap - 1)));
    let to = (heap - 1).to_string();
    assert_eq!(rest, whole(&["octal", "0.26", "--misere", "--to", &to]));

    let out = stopped(&[&args[..], &["--json"]].concat(), "TERM", AFTER);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mut got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stopped_at = got["stopped"].take();
    let heap = stopped_at["heap"].as_u64().unwrap();
    assert_eq!(stopped_at["reason"], "stopped by SIGTERM (signal 15)");
    let to = (heap - 1).to_string();
    let mut want: serde_json::Value = serde_json::from_str(&whole(&[
        "octal", "0.26", "--misere", "--to", &to, "--json",
    ]))
    .unwrap();
    want["stopped"] = serde_json::Value::Null;
    assert_eq!(got, want);

    let out = stopped(
        &["octal", "0.26", "--misere", "--heaps", "3", "200"],
        "HUP",
        AFTER,
    );
    assert_eq!(out.status.code(), Some(128 + 1), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("heap 200 is beyond the heaps"), "{err}");
    assert!(err.contains("stopped by SIGHUP (signal 1)"), "{err}");
}

/// `--max-seconds` ends a misère run as a signal does: exit status 0, the
/// summary of the heaps proven (that of a run to the last of them), the
/// `stopped` line naming the time bound and not `--max-order`, as text
/// and as JSON; a sum beyond them is refused (exit status 2) with the
/// remedy that applies.
#[test]
fn a_misere_run_bounded_in_time_prints_the_heaps_proven() {
    let out = crate::common::grundy_command()
        .args(["octal", "0.26", "--misere", "--max-seconds", "1"])
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("stopped ")).unwrap();
    let proven = line
        .split_once("the quotient of heaps 0..=")
        .and_then(|(_, rest)| rest.split_once(' '))
        .map(|(heap, _)| heap.to_owned())
        .unwrap_or_else(|| panic!("{text}"));
    let (heap, rest) = stopped_line(
        &text,
        &format!(
            "stopped by the time bound (--max-seconds 1); the quotient of heaps 0..={proven} \
             has {} elements",
            text.lines()
                .find_map(|l| l.strip_prefix("order"))
                .unwrap()
                .trim()
        ),
    );
    assert!(heap > 10, "{text}");
    assert_eq!(heap - 1, proven.parse::<u64>().unwrap());
    assert!(!text.contains("--max-order"), "{text}");
    assert_eq!(rest, whole(&["octal", "0.26", "--misere", "--to", &proven]));

    let out = crate::common::grundy_command()
        .args(["octal", "0.26", "--misere", "--max-seconds", "1", "--json"])
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reason = got["stopped"]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("stopped by the time bound (--max-seconds 1)"),
        "{reason}"
    );

    let (_, err) = crate::common::fails(
        &[
            "octal",
            "0.26",
            "--misere",
            "--max-seconds",
            "1",
            "--heaps",
            "3",
            "2000",
        ],
        "",
    );
    assert!(err.contains("heap 2000 is beyond the heaps"), "{err}");
    assert!(err.contains("raise --max-seconds"), "{err}");
    assert!(!err.contains("--max-order"), "{err}");
}

/// A normal-play run without `--out` stopped by a signal prints the
/// summary of the heaps computed (exit status 0), the same as a run to
/// the last of them; `--values` prints the values computed and exits
/// with 128 + the signal, saying so on standard error.
#[test]
fn a_stopped_octal_run_prints_the_heaps_computed() {
    let args = [
        "octal",
        ".6",
        "--online",
        "--to",
        "1000000000",
        "--threads",
        "1",
    ];
    let out = stopped(&args, "TERM", AFTER);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let (heap, rest) = stopped_line(&text, "stopped by SIGTERM (signal 15)");
    let to = (heap - 1).to_string();
    assert_eq!(rest, whole(&["octal", ".6", "--online", "--to", &to]));

    let out = stopped(&[&args[..], &["--json"]].concat(), "INT", AFTER);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mut got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let stopped_at = got["stopped"].take();
    assert_eq!(stopped_at["reason"], "stopped by SIGINT (signal 2)");
    let to = (stopped_at["heap"].as_u64().unwrap() - 1).to_string();
    let want: serde_json::Value =
        serde_json::from_str(&whole(&["octal", ".6", "--online", "--to", &to, "--json"])).unwrap();
    assert_eq!(got, want);

    let out = stopped(&[&args[..], &["--values"]].concat(), "HUP", AFTER);
    assert_eq!(out.status.signal(), None, "{out:?}");
    assert_eq!(out.status.code(), Some(128 + 1), "{out:?}");
    let values = String::from_utf8(out.stdout).unwrap();
    let count = values.lines().count();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "stopped by SIGHUP (signal 1) at heap {count}: G(0..={}) printed\n",
            count - 1
        )
    );
    let to = (count - 1).to_string();
    assert_eq!(
        values,
        whole(&["octal", ".6", "--online", "--to", &to, "--values"])
    );
}

/// A run resumed from its file checks the stored values first (seconds
/// for a million heaps); a signal during that check stops it with 128 +
/// the signal and a line saying so, the file untouched (it used to die
/// silently there, as if killed).
#[test]
fn a_resumed_run_stopped_while_checking_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("six.grundy");
    let file = file.to_str().unwrap();
    whole(&["octal", ".6", "--online", "--to", "1000000", "--out", file]);
    let before = std::fs::read(file).unwrap();
    let out = stopped(
        &[
            "octal", ".6", "--online", "--resume", file, "--to", "2000000",
        ],
        "TERM",
        AFTER,
    );
    assert_eq!(out.status.signal(), None, "{out:?}");
    assert_eq!(out.status.code(), Some(128 + 15), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("stopped by SIGTERM (signal 15) while checking the stored values ("),
        "{err}"
    );
    assert!(err.ends_with(" of 1000001 checked): nothing computed, nothing written; the same command starts again (--trust-resume skips the check of a file you made)\n"), "{err}");
    assert_eq!(std::fs::read(file).unwrap(), before);
}

/// Long runs whose standard error is not a terminal (a log) write a
/// `progress:` line now and then (`GRUNDY_PROGRESS_EVERY` seconds, 10 by
/// default): a normal-play octal run, a misère quotient and a search; none
/// with `GRUNDY_PROGRESS_EVERY=0`.
#[test]
fn long_runs_off_a_terminal_say_where_they_are() {
    let runs: [(&[&str], &str); 3] = [
        (
            &["octal", "0.1337", "--to", "4000000000"],
            "progress: computing: heaps 0..",
        ),
        (
            &["octal", "0.07", "--misere"],
            "progress: misère quotient of 0.07: heaps 0..=",
        ),
        (&["cram", "5x9", "--threads", "1"], "progress: searching: "),
    ];
    for every in ["1", "0"] {
        let children: Vec<_> = runs
            .iter()
            .map(|(args, _)| {
                crate::common::grundy_command()
                    .args(*args)
                    .env("GRUNDY_PROGRESS_EVERY", every)
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        std::thread::sleep(Duration::from_millis(2600));
        for (child, (args, line)) in children.into_iter().zip(runs) {
            crate::common::signal(&child, "INT");
            let out = crate::common::finish(child, "grundy");
            let err = String::from_utf8(out.stderr).unwrap();
            let lines = err.lines().filter(|l| l.starts_with(line)).count();
            if every == "0" {
                assert!(!err.contains("progress:"), "{args:?}: {err}");
            } else {
                assert!(lines >= 1, "{args:?}: {err}");
                assert!(err.contains(" (after 1s)"), "{args:?}: {err}");
            }
        }
    }
}

/// A search of a sum beyond the quotient stops on a signal or the time
/// bound as the construction does, and its message names which: 128 + the
/// signal's number, or exit status 2 with the time bound's remedy.
#[test]
fn a_search_of_a_sum_stops_and_says_why() {
    // The quotient to heap 5 at once, then a search of a minute.
    let out = stopped(
        &[
            "octal", "0.6", "--misere", "--to", "5", "--heaps", "30", "31", "32",
        ],
        "INT",
        Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(128 + 2), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("the search of the sum was stopped by SIGINT (signal 2)"),
        "{err}"
    );
    // The construction gives way to the search, which the time bound
    // stops: the time bound is named, and its remedy.
    let (_, err) = crate::common::fails(
        &[
            "octal",
            "0.07",
            "--misere",
            "--heaps",
            "100",
            "--max-seconds",
            "1",
        ],
        "",
    );
    assert!(
        err.contains("stopped by the time bound (--max-seconds 1)"),
        "{err}"
    );
    assert!(
        err.contains("raise --max-seconds") && !err.contains("caller"),
        "{err}"
    );
}
