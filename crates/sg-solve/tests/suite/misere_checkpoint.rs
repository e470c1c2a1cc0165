//! `grundy octal CODE --misere --out FILE` and `--resume FILE` through the
//! real binary: runs stopped at random moments (`SIGKILL`, `SIGINT`,
//! `SIGTERM`) and resumed from their file end with the quotient and the
//! very file an uninterrupted run gives; every file left on the way is a
//! proven quotient of the first heaps; a file altered by hand is refused.

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

/// The quotient's JSON summary without the fields a stop changes.
fn summary(json: &[u8]) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(json).unwrap();
    v.as_object_mut().unwrap().remove("stopped");
    v
}

#[test]
fn a_misere_run_stopped_and_resumed_ends_as_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let whole_file = dir.path().join("whole.sgt");
    let to = "64";
    let out = grundy()
        .args(["octal", "0.26", "--misere", "--to", to, "--json", "--out"])
        .arg(&whole_file)
        .bounded_output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let whole = summary(&out.stdout);
    assert_eq!(whole["computed_to"], 64);

    let part = dir.path().join("part.sgt");
    let mut rng = SplitMix64::new(0x6d69_7365_7265);
    let mut stops = 0;
    let last = loop {
        let mut cmd = grundy();
        cmd.args([
            "octal",
            "--misere",
            "--to",
            to,
            "--json",
            "--checkpoint-every",
            "1s",
        ]);
        if part.exists() {
            cmd.arg("--resume").arg(&part);
        } else {
            cmd.arg("0.26");
        }
        let child = cmd
            .arg("--out")
            .arg(&part)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let signal = ["KILL", "INT", "TERM"][(rng.below(3)) as usize];
        if stops < 4 {
            std::thread::sleep(Duration::from_millis(700 + rng.below(1500)));
            crate::common::signal(&child, signal);
        }
        let out = crate::common::finish(child, "grundy");
        if let Some(s) = out.status.signal() {
            assert_eq!(s, 9, "{out:?}");
        } else {
            assert!(out.status.success(), "{out:?}");
            if stops >= 4 {
                break out;
            }
            let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            if got["stopped"].is_null() {
                break out;
            }
            // Stopped by the signal: a line says what was written, and how
            // to continue.
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("checkpoint: the quotient of heaps 0..=")
                    && err.contains("--misere --resume"),
                "{err}"
            );
        }
        stops += 1;
        // What the stop left: a proven quotient of the first heaps.
        if part.exists() {
            let verify = grundy()
                .args(["tables", "verify"])
                .arg(&part)
                .bounded_output()
                .unwrap();
            assert!(verify.status.success(), "{verify:?}");
            let file = sg_tables::read_file(&part).unwrap();
            let table = file.table().misere_quotient().unwrap();
            let heaps = table.stored().pretending.len() as u64;
            let prefix = grundy()
                .args(["octal", "0.26", "--misere", "--json", "--to"])
                .arg((heaps - 1).to_string())
                .bounded_output()
                .unwrap();
            let prefix = summary(&prefix.stdout);
            assert_eq!(prefix["order"], table.stored().order, "{heaps} heaps");
        }
    };
    assert!(stops > 0);
    assert_eq!(summary(&last.stdout), whole);
    assert_eq!(fs::read(&part).unwrap(), fs::read(&whole_file).unwrap());
}

/// Runs `grundy args` expecting exit status 2 and one line on standard
/// error, which it returns.
fn refused(args: &[&str], file: &Path) -> String {
    let out = grundy().args(args).arg(file).bounded_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Stores the misère quotient of `code` to heap `to` into `path` and
/// returns what the file holds.
fn stored_quotient(code: &str, to: &str, path: &Path) -> sg_octal::misere::StoredQuotient {
    let out = grundy()
        .args(["octal", code, "--misere", "--to", to, "--out"])
        .arg(path)
        .bounded_output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let file = sg_tables::read_file(path).unwrap();
    file.table().misere_quotient().unwrap().stored().clone()
}

#[test]
fn a_stored_quotient_altered_by_hand_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.sgt");
    let stored = stored_quotient("0.77", "20", &good);
    let resume = ["octal", "--misere", "--to", "30", "--resume"];
    let mut altered = Vec::new();
    let mut s = stored.clone();
    s.p_portion[1] = !s.p_portion[1];
    altered.push(s);
    let mut s = stored.clone();
    let last = s.pretending.len() - 1;
    s.pretending[last] = (s.pretending[last] + 1) % s.order as u16;
    altered.push(s);
    let mut s = stored.clone();
    let n = s.order;
    s.table.swap(n + 2, 2 * n + 1);
    s.table[n + 2] = (s.table[n + 2] + 1) % n as u16;
    altered.push(s);
    for (i, s) in altered.iter().enumerate() {
        let bad = dir.path().join(format!("bad{i}.sgt"));
        fs::write(
            &bad,
            sg_tables::misere::encode_misere_quotient("0.77", "a test", s).unwrap(),
        )
        .unwrap();
        let err = refused(&resume, &bad);
        assert!(err.contains("is not the misère quotient of 0.77"), "{err}");
        let verify = grundy()
            .args(["tables", "verify"])
            .arg(&bad)
            .bounded_output()
            .unwrap();
        assert!(!verify.status.success(), "{verify:?}");
    }
    let err = refused(
        &["octal", "--misere", "--max-order", "2", "--resume"],
        &good,
    );
    assert!(
        err.contains("more than the order limit 2 (raise --max-order"),
        "{err}"
    );
    let err = refused(&["octal", "0.7", "--misere", "--resume"], &good);
    assert!(err.contains("holds the game 0.77, not 0.7"), "{err}");
    let err = refused(&["octal", "--misere", "--trust-resume", "--resume"], &good);
    assert!(err.contains("always checked"), "{err}");
    let err = refused(&["octal", "--resume"], &good);
    assert!(err.contains("--misere"), "{err}");
    // A normal-play run given to --misere --resume.
    let normal = dir.path().join("normal.sgt");
    let out = grundy()
        .args(["octal", "0.77", "--online", "--to", "100", "--out"])
        .arg(&normal)
        .bounded_output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let err = refused(&resume, &normal);
    assert!(err.contains("misère quotient"), "{err}");
}

/// A quotient stored for one game and relabelled as another (its checksums
/// right): refused with one line by `--resume` and `tables verify`, never a
/// panic (its heaps may have no move by the other rules, or their options
/// fail to generate it).
#[test]
fn a_quotient_relabelled_as_another_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("q35.sgt");
    let stored = stored_quotient("0.35", "12", &good);
    for code in ["0.07", "0.26", "0.77", "0.137", "0.6", "4.7"] {
        let bad = dir.path().join(format!("as-{code}.sgt"));
        fs::write(
            &bad,
            sg_tables::misere::encode_misere_quotient(code, "a test", &stored).unwrap(),
        )
        .unwrap();
        let err = refused(&["octal", code, "--misere", "--to", "14", "--resume"], &bad);
        assert!(
            err.contains(&format!("is not the misère quotient of {code}")),
            "{err}"
        );
        let verify = grundy()
            .args(["tables", "verify"])
            .arg(&bad)
            .bounded_output()
            .unwrap();
        assert_eq!(verify.status.code(), Some(1), "{code}: {verify:?}");
        let text = String::from_utf8_lossy(&verify.stdout);
        assert!(text.contains("INVALID"), "{code}: {text}");
        assert!(!String::from_utf8_lossy(&verify.stderr).contains("panicked"));
    }
}
