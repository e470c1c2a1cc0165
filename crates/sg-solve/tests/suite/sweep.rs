//! `grundy sweep` and `grundy sweep merge` through the real binary: a sweep
//! in shards merges to the bytes of a sweep on one machine; run again it
//! skips what is done; stopped by a signal it goes on from its checkpoint;
//! the merged table answers `grundy octal --tables DIR` as the engine does;
//! a corrupt, truncated or foreign run is refused with its name.

#![cfg(unix)]

use crate::common::Bounded;
use std::path::Path;
use std::process::{Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn grundy(args: &[&str]) -> Output {
    crate::common::grundy_command()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap()
}

fn ok(args: &[&str]) -> Output {
    let out = grundy(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    out
}

fn merged(dirs: &[&Path], out: &Path) -> Vec<u8> {
    let mut args = vec!["sweep", "merge"];
    let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    args.extend(dirs.iter().map(String::as_str));
    let out_arg = out.display().to_string();
    args.extend(["--out", &out_arg]);
    ok(&args);
    std::fs::read(out).unwrap()
}

/// The games of the sweeps stopped or run twice at once below: 0.8 (take
/// one, leave three heaps) costs the cube of the heap, about a second to
/// heap 3500 in a test build, long enough for a signal or a second sweep
/// to meet it mid-run; the other eight take milliseconds.
const SLOW_SWEEP: [&str; 5] = ["sweep", "0.8", "0.7d", "--to", "3500"];

/// The merged table of a sweep of [`SLOW_SWEEP`] never stopped, that the
/// stopped sweep and the two sweeps at once must equal: computed once for
/// both tests (a sweep and a merge that checks every value).
fn never_stopped() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let fresh = tmp.path().join("fresh");
        let f = fresh.display().to_string();
        ok(&[&SLOW_SWEEP[..], &["--out", &f]].concat());
        merged(&[&fresh], &tmp.path().join("fresh.sgt"))
    })
}

#[test]
fn shards_merge_to_the_table_of_one_sweep_and_answer_as_the_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let w = whole.display().to_string();
    ok(&["sweep", "0.dd", "4.h", "--to", "1500", "--out", &w]);
    let summary = std::fs::read_to_string(whole.join("summary.tsv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 64 + 16, "{summary}");
    // Four shards in two folders, in any order.
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for (k, dir) in [(3, &a), (0, &b), (1, &a), (2, &b)] {
        let shard = format!("{k}/4");
        let d = dir.display().to_string();
        ok(&[
            "sweep", "0.dd", "4.h", "--to", "1500", "--out", &d, "--shard", &shard,
        ]);
        assert!(dir.join(format!("summary-{k}-of-4.tsv")).exists());
    }
    let one = merged(&[&whole], &tmp.path().join("one.sgt"));
    let shards = merged(&[&b, &a], &tmp.path().join("shards.sgt"));
    assert_eq!(one, shards);
    // Merged again: the same bytes.
    assert_eq!(merged(&[&whole], &tmp.path().join("again.sgt")), one);
    // Run again: everything done, nothing changed.
    let out = ok(&["sweep", "0.dd", "4.h", "--to", "1500", "--out", &w]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.lines().filter(|l| l.contains(": done before,")).count(),
        80,
        "{err}"
    );
    // The table answers as the engine does, through heap 1500 and beyond.
    let tables = tmp.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    std::fs::copy(tmp.path().join("one.sgt"), tables.join("sweep.sgt")).unwrap();
    let t = tables.display().to_string();
    for code in ["0.76", "0.77", "4.f", "0.16"] {
        for to in ["1500", "2500"] {
            let from_table = ok(&["octal", code, "--tables", &t, "--to", to, "--values"]);
            let engine = ok(&["octal", code, "--online", "--to", to, "--values"]);
            assert_eq!(from_table.stdout, engine.stdout, "{code} to {to}");
        }
    }
    let text =
        String::from_utf8(ok(&["octal", "0.76", "--tables", &t, "--to", "1500"]).stdout).unwrap();
    assert!(
        text.contains("from a table of --tables, its values checked"),
        "{text}"
    );
    let info = String::from_utf8(
        ok(&[
            "tables",
            "verify",
            &tmp.path().join("one.sgt").display().to_string(),
        ])
        .stdout,
    )
    .unwrap();
    assert!(info.contains("octal runs, 80 games"), "{info}");
}

#[test]
fn a_stopped_sweep_goes_on_from_its_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let d = dir.display().to_string();
    let args = [&SLOW_SWEEP[..], &["--out", &d, "--threads", "1"]].concat();
    let child = crate::common::grundy_command()
        .args(&args)
        .args(["--checkpoint-every", "50ms"])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped as soon as 0.8 has its first checkpoint (after 50 ms of
    // its second or so), so that the run is mid-game even on a fast
    // machine.
    let run = dir.join("runs").join("0.8.sgt");
    let start = Instant::now();
    while !run.exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    crate::common::signal(&child, "TERM");
    let status = crate::common::finish(child, "a sweep stopped").status;
    if status.success() {
        // Done before the signal (a fast machine): nothing to resume.
        return;
    }
    assert_eq!(status.code(), Some(128 + 15));
    let out = ok(&args);
    let err = String::from_utf8(out.stderr).unwrap();
    let line = err.lines().find(|l| l.contains(" 0.8: ")).unwrap();
    assert!(line.contains("resumed from "), "{err}");
    // The merged table is that of a sweep never stopped.
    assert_eq!(
        merged(&[&dir], &tmp.path().join("stopped.sgt")),
        never_stopped()
    );
}

#[test]
fn corrupt_truncated_and_foreign_runs_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let d = dir.display().to_string();
    ok(&["sweep", "0.1d", "--to", "300", "--out", &d]);
    let runs = dir.join("runs");
    let out = tmp.path().join("out.sgt");
    let o = out.display().to_string();
    let refused = |why: &str| {
        let result = grundy(&["sweep", "merge", &d, "--out", &o]);
        assert_eq!(result.status.code(), Some(1), "{why}: {result:?}");
        let err = String::from_utf8(result.stderr).unwrap();
        assert!(!out.exists(), "{why}: a table was written");
        err
    };
    let original = std::fs::read(runs.join("0.16.sgt")).unwrap();
    // Truncated.
    std::fs::write(runs.join("0.16.sgt"), &original[..original.len() - 3]).unwrap();
    assert!(refused("truncated").contains("0.16.sgt"));
    // A wrong value, checksums made right by writing a table of them.
    let mut values: Vec<u16> = original[original.len() - 602..]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    values[100] ^= 1;
    let mut file = std::fs::File::create(runs.join("0.16.sgt")).unwrap();
    sg_tables::octal::write_octal_sequence(&mut file, "0.16", "a forger", &values).unwrap();
    drop(file);
    let err = refused("a wrong value");
    assert!(
        err.contains("0.16.sgt") && err.contains("not those of 0.16"),
        "{err}"
    );
    // Another game under this name.
    std::fs::write(
        runs.join("0.16.sgt"),
        std::fs::read(runs.join("0.17.sgt")).unwrap(),
    )
    .unwrap();
    assert!(refused("foreign").contains("holds the game 0.17"));
    // Not a table at all.
    std::fs::write(runs.join("0.16.sgt"), b"junk").unwrap();
    assert!(refused("junk").contains("0.16.sgt"));
    // Put back: merged.
    std::fs::write(runs.join("0.16.sgt"), &original).unwrap();
    ok(&["sweep", "merge", &d, "--out", &o]);
    // The sweep itself refuses a foreign file in its folder.
    std::fs::write(runs.join("0.15.sgt"), b"junk").unwrap();
    let result = grundy(&["sweep", "0.1d", "--to", "300", "--out", &d]);
    assert_eq!(result.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&result.stderr).contains("0.15.sgt"));
}

#[test]
fn specs_that_name_no_game_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("s").display().to_string();
    let empty = tmp.path().join("empty");
    std::fs::write(&empty, "# no codes\n\n").unwrap();
    let fifo = tmp.path().join("fifo");
    assert!(
        crate::common::command("mkfifo")
            .arg(&fifo)
            .bounded_status()
            .unwrap()
            .success()
    );
    let (empty, fifo) = (
        format!("@{}", empty.display()),
        format!("@{}", fifo.display()),
    );
    for spec in [
        "0.g",
        "d.7",
        "0.hhhhhh",
        // 8^22 overflows 64 bits.
        "0.dddddddddddddddddddddd",
        "@/nonexistent/codes.txt",
        "@",
        &empty,
        // Refused, never opened and waited on.
        &fifo,
    ] {
        let out = grundy(&["sweep", spec, "--to", "10", "--out", &d]);
        assert_eq!(out.status.code(), Some(2), "{spec}: {out:?}");
    }
    for shard in ["4/4", "x/2", "1/0"] {
        let out = grundy(&["sweep", "0.d", "--to", "10", "--out", &d, "--shard", shard]);
        assert_eq!(out.status.code(), Some(2), "{shard}: {out:?}");
    }
    // A bound beyond the heaps computed directly: refused as `octal`
    // refuses it (exit status 2, the same line), before any folder is made.
    let out = grundy(&["sweep", "0.6", "--to", "4294967295", "--out", &d]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let octal = grundy(&["octal", "0.6", "--to", "4294967295"]);
    assert_eq!(out.stderr, octal.stderr);
    assert!(!Path::new(&d).exists());
}

#[test]
fn two_sweeps_of_one_folder_at_once_compute_each_game_once_and_both_finish() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let d = dir.display().to_string();
    // 0.8 takes a second or so: the sweeps meet on it.
    let args = [&SLOW_SWEEP[..], &["--out", &d, "--threads", "1"]].concat();
    let spawn = || {
        crate::common::grundy_command()
            .args(&args)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outputs = [
        crate::common::finish(a, "grundy"),
        crate::common::finish(b, "grundy"),
    ];
    let mut computed = 0;
    for out in &outputs {
        assert!(out.status.success(), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // Every game has its line in each sweep: the other's games waited for.
        for code in ["0.8", "0.7", "0.71", "0.77"] {
            let line = err
                .lines()
                .find(|l| {
                    l.contains(&format!(" {code}: "))
                        && !l.contains("another sweep")
                        && !l.contains("waiting")
                })
                .unwrap_or_else(|| panic!("no line for {code}: {err}"));
            if code == "0.8" && !line.contains("done before") {
                computed += 1;
            }
        }
    }
    // The slow game was computed by one sweep only; the other found it done.
    assert_eq!(computed, 1, "{outputs:?}");
    // One summary of every game, whichever sweep wrote it last.
    let summary = std::fs::read_to_string(dir.join("summary.tsv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 9, "{summary}");
    assert_eq!(
        merged(&[&dir], &tmp.path().join("both.sgt")),
        never_stopped()
    );
}

#[test]
fn a_folder_that_is_a_file_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("plain");
    std::fs::write(&file, b"mine").unwrap();
    let p = file.display().to_string();
    let out = grundy(&["sweep", "0.7", "--to", "10", "--out", &p]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("plain"),
        "{out:?}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"mine");
    let out = grundy(&[
        "sweep",
        "merge",
        &p,
        "--out",
        &tmp.path().join("t.sgt").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("plain"),
        "{out:?}"
    );
}

/// `DIR/summary.tsv` is checked as the runs and locks are: a FIFO there
/// (which a read would wait on forever), a link to `/dev/zero` (which a
/// read would follow without end) or a folder is refused by name before
/// any game, and left as it was.
#[test]
fn a_summary_that_is_not_a_regular_file_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let make = |name: &str, how: &dyn Fn(&Path)| {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        how(&dir.join("summary.tsv"));
        dir
    };
    let fifo = make("fifo", &|path| {
        assert!(
            crate::common::command("mkfifo")
                .arg(path)
                .bounded_status()
                .unwrap()
                .success()
        )
    });
    let zero = make("zero", &|path| {
        std::os::unix::fs::symlink("/dev/zero", path).unwrap()
    });
    let folder = make("folder", &|path| std::fs::create_dir(path).unwrap());
    for dir in [fifo, zero, folder] {
        let d = dir.display().to_string();
        let out = grundy(&["sweep", "0.7", "--to", "10", "--out", &d]);
        assert!(!out.status.success(), "{d}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("summary.tsv"), "{d}: {err}");
        assert_eq!(err.lines().count(), 1, "{d}: {err}");
        assert!(!dir.join("runs/0.7.sgt").exists(), "{d}: a game ran");
        let kind = std::fs::symlink_metadata(dir.join("summary.tsv"))
            .unwrap()
            .file_type();
        assert!(!kind.is_file(), "{d}: replaced");
    }
}

/// A summary with a byte that is not UTF-8 keeps the lines of the games
/// an earlier sweep wrote.
#[test]
fn a_summary_with_a_latin_1_byte_keeps_its_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("s").display().to_string();
    ok(&["sweep", "0.7", "0.17", "--to", "100", "--out", &d]);
    let summary = tmp.path().join("s").join("summary.tsv");
    let mut bytes = std::fs::read(&summary).unwrap();
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(&summary, bytes).unwrap();
    ok(&["sweep", "0.77", "--to", "100", "--out", &d]);
    let text = String::from_utf8_lossy(&std::fs::read(&summary).unwrap()).into_owned();
    for code in ["0.7\t", "0.17\t", "0.77\t"] {
        assert!(text.lines().any(|l| l.starts_with(code)), "{code}: {text}");
    }
}

#[test]
fn names_read_back_as_the_same_games_and_an_empty_shard_has_a_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let d = dir.display().to_string();
    ok(&["sweep", "4.h", "0.1D", "--to", "200", "--out", &d]);
    // Hexadecimal digits in capitals: `4.D` is the game 4.d, not a pattern.
    assert!(dir.join("runs").join("4.D.sgt").exists());
    assert!(dir.join("runs").join("0.1D.sgt").exists());
    let summary = std::fs::read_to_string(dir.join("summary.tsv")).unwrap();
    let codes: Vec<&str> = summary
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(codes.len(), 17);
    let list = tmp.path().join("codes");
    std::fs::write(&list, codes.join("\n")).unwrap();
    let again = tmp.path().join("again");
    let a = again.display().to_string();
    ok(&[
        "sweep",
        &format!("@{}", list.display()),
        "--to",
        "200",
        "--out",
        &a,
    ]);
    assert_eq!(
        merged(&[&dir], &tmp.path().join("one.sgt")),
        merged(&[&again], &tmp.path().join("two.sgt"))
    );
    // The table may not be written among the runs it is made of.
    let inside = dir.join("runs").join("all.sgt").display().to_string();
    let out = grundy(&["sweep", "merge", &d, "--out", &inside]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(!dir.join("runs").join("all.sgt").exists());
    // A shard without a game still writes its (empty) summary.
    let out = ok(&["sweep", "0.7", "--to", "10", "--out", &d, "--shard", "3/4"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no game"));
    let empty = std::fs::read_to_string(dir.join("summary-3-of-4.tsv")).unwrap();
    assert_eq!(empty.lines().count(), 1, "{empty}");
}

#[test]
fn a_table_answers_a_smaller_heap_bound_as_a_run_to_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let d = dir.display().to_string();
    // Certified early (0.14, 0.13 at heap 7), late (0.67), or not at all
    // within the sweep's bound (0.137).
    let codes = ["0.67", "0.14", "0.13", "0.137", "0.6"];
    ok(&[&["sweep"], &codes[..], &["--to", "1500", "--out", &d]].concat());
    let tables = tmp.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    merged(&[&dir], &tables.join("t.sgt"));
    let t = tables.display().to_string();
    let strip = |out: &Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v.as_object_mut().unwrap().remove("source");
        v
    };
    // Below, at and past the heap where each record ends.
    for code in codes {
        for to in ["0", "1", "6", "7", "8", "50", "1000", "1500", "3000"] {
            let from_table = ok(&["octal", code, "--tables", &t, "--to", to, "--json"]);
            let engine = ok(&["octal", code, "--online", "--to", to, "--json"]);
            assert_eq!(strip(&from_table), strip(&engine), "{code} --to {to}");
        }
    }
    // A folder that cannot be listed is an error before any work.
    for missing in [tmp.path().join("missing"), tables.join("t.sgt")] {
        let m = missing.display().to_string();
        let out = grundy(&["octal", "0.6", "--tables", &m, "--to", "10"]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("error: --tables {m}: ")), "{err}");
    }
}

/// Classic names are games in a sweep too, those with a `d` or an `h`
/// (`dawsons-kayles`, `grundys-game`) included: a pattern has a point.
#[test]
fn classic_names_are_games_not_patterns() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("names");
    let d = dir.display().to_string();
    ok(&[
        "sweep",
        "dawsons-kayles",
        "Double Kayles",
        "grundys-game",
        "kayles",
        "--to",
        "300",
        "--out",
        &d,
    ]);
    for run in ["0.07", "0.7777", "grundys-game", "0.77"] {
        assert!(
            dir.join("runs").join(format!("{run}.sgt")).exists(),
            "{run}"
        );
    }
    let out = crate::common::grundy(&["sweep", "dawson", "--to", "10", "--out", &d], "");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no game is named \"dawson\""), "{err}");
}
