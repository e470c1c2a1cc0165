//! Table files that are not what they claim: a FIFO named `.sgt` (opened
//! without blocking and refused), values that are wrong under a right
//! checksum (refused by checking the recurrence), junk next to a valid
//! table (skipped with a warning), a folder without tables (an error), and
//! text from a file escaped when printed.

use crate::common::Bounded;
use crate::common::grundy;
use sg_tables::format::{Game, Metadata, encode};
use std::path::Path;
use std::time::Duration;

/// A folder removed when the guard drops (when the test ends, passed or
/// failed).
fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The committed row table with the value of `mask` changed, and every
/// checksum recomputed: only its values betray it.
fn forged_row_table(mask: usize) -> Vec<u8> {
    let bytes = sg_tables::embedded_row_bytes();
    let table = sg_tables::Table::from_bytes(bytes).unwrap();
    let mut payload = table.payload().to_vec();
    payload[mask] ^= 1;
    encode(&table.info().metadata, &payload).unwrap()
}

/// Runs `grundy ARGS` on `input`, killed if it has not finished in 20 s
/// (it used to block forever on a FIFO).
fn run_bounded(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let mut child = crate::common::command(bin)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // grundy may exit before reading its input (a table error comes
    // first): a broken pipe here is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    for _ in 0..200 {
        if child.try_wait().unwrap().is_some() {
            let out = crate::common::finish(child, "grundy");
            return (
                out.status.code(),
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(out.stderr).unwrap(),
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    panic!("grundy {args:?} hangs");
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    let guard = temp_dir();
    let dir = guard.path();
    let fifo = dir.join("row.sgt");
    let made = crate::common::command("mkfifo")
        .arg(&fifo)
        .bounded_status()
        .unwrap();
    assert!(made.success());
    let (code, out, err) = run_bounded(&["hdu5724", "--tables", path(dir)], "1\n1\n1 19\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("row.sgt is not a regular file (it is a FIFO)"),
        "{err}"
    );
    assert!(err.contains("no row table (*.sgt) in"), "{err}");
    std::fs::copy("../../data/row20.sgt", dir.join("row20.sgt")).unwrap();
    // With a valid table beside it, the valid one is used.
    let (code, out, err) = run_bounded(&["hdu5724", "--tables", path(dir)], "1\n1\n1 19\n");
    assert_eq!((code, out.as_str()), (Some(0), "YES\n"), "{err}");
    for command in ["info", "verify"] {
        let (code, out, _) = run_bounded(&["tables", command, path(dir)], "");
        assert_eq!(code, Some(1), "{command}");
        assert!(out.contains("row.sgt: INVALID: "), "{out}");
        assert!(out.contains("it is a FIFO"), "{out}");
    }
    let (code, out, _) = run_bounded(&["tables", "verify", path(&fifo)], "");
    assert_eq!(code, Some(1));
    assert!(
        out.contains("is not a regular file (it is a FIFO)"),
        "{out}"
    );
}

#[test]
fn wrong_values_under_right_checksums_are_refused() {
    let guard = temp_dir();
    let dir = guard.path();
    // Row 0b11 (mask 3) is the input `1\n1\n2 19 20\n`'s row: value 0.
    std::fs::write(dir.join("row20.sgt"), forged_row_table(3)).unwrap();
    let out = grundy(&["tables", "verify", path(&dir.join("row20.sgt"))], "");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "row20.sgt: INVALID: wrong value: row 0b11 (mask 3) holds 1, but the mex of its followers' values is 0"
        ),
        "{text}"
    );
    for hint in [&[][..], &["--hint"]] {
        let mut args = vec!["hdu5724", "--tables", path(dir)];
        args.extend_from_slice(hint);
        let out = grundy(&args, "1\n1\n2 19 20\n");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(out.stdout.is_empty());
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("warning: skipping"), "{err}");
        assert!(err.contains("wrong value: row 0b11"), "{err}");
    }
    // A forged knight table too.
    let bytes = sg_tables::embedded_knight_bytes();
    let table = sg_tables::Table::from_bytes(bytes).unwrap();
    let mut payload = table.payload().to_vec();
    payload[1024 * 1023 + 1023] ^= 2;
    let forged = encode(&table.info().metadata, &payload).unwrap();
    std::fs::write(dir.join("knight.sgt"), forged).unwrap();
    let out = grundy(&["tables", "verify", path(&dir.join("knight.sgt"))], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text.contains("wrong value: square (1023, 1023) holds"),
        "{text}"
    );
}

#[test]
fn junk_next_to_a_valid_table_is_skipped_with_a_warning() {
    let guard = temp_dir();
    let dir = guard.path();
    std::fs::write(dir.join("junk.sgt"), b"not a table").unwrap();
    std::fs::create_dir(dir.join("folder.sgt")).unwrap();
    std::fs::copy("../../data/row20.sgt", dir.join("row20.sgt")).unwrap();
    let out = grundy(
        &["hdu5724", "--tables", path(dir), "--hint"],
        "1\n1\n1 19\n",
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "YES 1 19 20\n");
    assert!(
        err.contains("warning: skipping") && err.contains("junk.sgt"),
        "{err}"
    );
    assert!(
        err.contains("folder.sgt") && err.contains("it is a folder"),
        "{err}"
    );
}

#[test]
fn a_folder_without_tables_is_an_error() {
    let guard = temp_dir();
    let dir = guard.path();
    for command in ["info", "verify"] {
        let out = grundy(&["tables", command, path(dir)], "");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(err.starts_with("error: no table file (*.sgt) in"), "{err}");
    }
}

#[test]
fn each_cause_is_printed_once() {
    let out = grundy(
        &["hdu5724", "--tables", "/nonexistent/grundy"],
        "1\n1\n1 19\n",
    );
    let err = String::from_utf8(out.stderr).unwrap();
    // A folder that is not there: the command names it wrongly.
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn text_from_a_table_file_is_escaped() {
    let guard = temp_dir();
    let dir = guard.path();
    let metadata = Metadata {
        game: Game::Row { width: 4 },
        generator: "evil\u{1b}[2J\u{202e}".into(),
    };
    let bytes = encode(&metadata, &sg_core::row::row_table_by_definition(4)).unwrap();
    // A file name with an escape sequence in it, too.
    let name = dir.join("row\u{1b}[31m.sgt");
    std::fs::write(&name, bytes).unwrap();
    let out = grundy(&["tables", "info", path(dir)], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(
        text.contains("generator:       evil\\x1b[2J\\u{202e}"),
        "{text}"
    );
    assert!(text.contains("row\\x1b[31m.sgt"), "{text}");
}
