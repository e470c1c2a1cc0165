//! Memory is bounded by the input, never by a number the input declares:
//! every subcommand runs under an address-space limit (`ulimit -v`) on
//! inputs that declare huge counts with a few bytes, and answers them or
//! refuses them with a located error (exit status 2), never aborting on a
//! failed allocation. Input larger than `--max-input` is refused before it
//! is held.

#![cfg(target_os = "linux")]

use crate::common::Bounded;
use crate::common::grundy_limited;

/// Far below the gigabytes the declared counts would take.
const LIMIT_MIB: u64 = 64;

/// Runs under the limit; returns (exit status, stdout, stderr).
fn run(args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    let out = grundy_limited(args, input, LIMIT_MIB);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("memory allocation"), "{args:?}: {stderr}");
    (out.status.code(), stdout, stderr)
}

/// Refused with exit status 2 and a one-line error containing `what`.
fn refused(args: &[&str], input: &[u8], what: &str) {
    let (code, _, stderr) = run(args, input);
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(what), "{args:?}: {stderr}");
}

#[test]
fn uva11927_huge_declared_node_counts() {
    for input in [
        "4294967293 0\n",
        "400000000 0\n",
        "100000000 1\n0 1\n1 0 1\n",
    ] {
        refused(
            &["uva11927"],
            input.as_bytes(),
            "expected a stone count, found the end of the input",
        );
    }
    // Answers of complete cases before still come.
    let (code, out, _) = run(&["uva11927"], b"2 1\n0 1\n1 0\n300000000 0\n");
    assert_eq!((code, out.as_str()), (Some(2), "First\n"));
}

/// The same on an input large enough for two threads (a reader handing
/// cases to a solver): valid cases of the judges' size, then a hostile one.
#[test]
fn uva11927_huge_declared_node_count_after_large_cases() {
    let mut input = String::new();
    for case in 0..20u64 {
        input.push_str("1000 9000\n");
        for k in 0..9000u64 {
            let u = 1 + (k * 7919 + case) % 999;
            input.push_str(&format!("{u} {}\n", (k * 31) % u));
        }
        input.push_str(&"1 ".repeat(1000));
        input.push('\n');
    }
    assert!(input.len() >= sg_solve::uva11927::TWO_THREADS_MIN_BYTES);
    input.push_str("300000000 0\n");
    let (code, out, err) = run(&["uva11927"], input.as_bytes());
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(out.lines().count(), 20);
    assert!(
        err.contains("expected a stone count, found the end of the input"),
        "{err}"
    );
}

#[test]
fn graph_with_more_declared_nodes_than_bytes() {
    // Valid: 10^8 (or 2^32 - 3) nodes, almost all isolated, cost what the
    // edges and queries cost.
    for n in ["100000000", "4294967293"] {
        let input = format!("{n} 2\n5 7\n7 5\n1 5\n2 7 3\n1 9\n2 5 8\n");
        let (code, out, err) = run(&["graph", "--hint"], input.as_bytes());
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out, "DRAW\nDRAW\nLOSE\nDRAW\n");
    }
    let (code, out, _) = run(&["graph"], b"4294967293 0\n1 4294967292\n");
    assert_eq!((code, out.as_str()), (Some(0), "LOSE\n"));
    // --values: one line per declared node, written as it is made.
    let (code, out, _) = run(&["graph", "--values"], b"3000000 2\n5 7\n7 5\n");
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 3_000_000);
    assert_eq!(out.lines().filter(|l| *l == "inf{}").count(), 2);
    assert_eq!(out.lines().nth(5), Some("inf{}"));
    refused(
        &["graph"],
        b"4294967293 4294967295\n0 1\n",
        "expected the source node of an edge",
    );
}

#[test]
fn judge_counts_without_data() {
    refused(&["hdu1524"], b"4294967293\n", "found the end of the input");
    refused(
        &["hdu1524", "--hint"],
        b"1\n0\n18446744073709551615 0\n",
        "found the end of the input",
    );
    refused(
        &["hdu5724"],
        b"18446744073709551615\n18446744073709551615\n",
        "found the end of the input",
    );
    refused(
        &["hdu5724", "--hint"],
        b"1\n18446744073709551615\n1 1\n",
        "found the end of the input",
    );
    refused(
        &["lightoj1315", "--hint"],
        b"18446744073709551615\n18446744073709551615\n0 0\n",
        "found the end of the input",
    );
    let (code, out, _) = run(
        &["lightoj1315", "--hint"],
        b"1\n1\n9223372036854775807 9223372036854775807\n",
    );
    assert_eq!(code, Some(0));
    assert!(out.starts_with("Case 1: "), "{out}");
}

#[test]
fn input_larger_than_the_maximum_is_refused() {
    // Endless input: refused after the maximum, not held.
    refused(
        &["floor", "/dev/zero", "--max-input", "16M"],
        b"",
        "/dev/zero is larger than the maximum input size of 16 MiB",
    );
    refused(
        &["hdu1524", "--max-input", "3"],
        b"1\n0\n",
        "standard input is larger than the maximum input size of 3 bytes",
    );
    let (code, out, _) = run(&["floor", "--max-input", "4"], b"1\n0\n");
    assert_eq!((code, out.as_str()), (Some(0), "2 1\n"));
    let (code, _, err) = run(&["floor", "--max-input", "0"], b"");
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn regular_files_are_mapped_from_their_position() {
    use std::io::{Seek, SeekFrom};
    use std::process::Stdio;
    // Above the 1 MiB from which a regular file is mapped.
    let numbers: String = (0..300_000u64).map(|i| format!("{i}\n")).collect();
    assert!(numbers.len() > 1 << 20);
    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let path = dir.join("numbers.txt");
    std::fs::write(&path, &numbers).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let floor = |stdin: Stdio, file: Option<&std::path::Path>| {
        let mut cmd = crate::common::command(&bin);
        cmd.arg("floor").stdin(stdin);
        if let Some(f) = file {
            cmd.arg(f);
        }
        String::from_utf8(cmd.bounded_output().unwrap().stdout).unwrap()
    };
    let sum: u64 = (0..300_000u64).sum();
    let all = format!("300000 {sum}\n");
    assert_eq!(floor(Stdio::null(), Some(&path)), all);
    assert_eq!(floor(std::fs::File::open(&path).unwrap().into(), None), all);
    // Standard input already read up to "10\n": the rest only.
    let mut file = std::fs::File::open(&path).unwrap();
    file.seek(SeekFrom::Start(20)).unwrap();
    let rest: u64 = (10..300_000u64).sum();
    assert_eq!(floor(file.into(), None), format!("299990 {rest}\n"));
    // Larger than the maximum: refused from its size, without reading.
    let out = crate::common::command(&bin)
        .args(["floor", "--max-input", "1M"])
        .arg(&path)
        .bounded_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn lightoj1315_online_is_bounded_and_fails_cleanly() {
    // --online computes every square with x + y <= 32767 by definition:
    // 512 MiB at most, a documented constant. Where the memory cannot be
    // had, a clean error, not an abort.
    refused(
        &["lightoj1315", "--online"],
        b"1\n1\n32767 0\n",
        "square (32767, 0) needs 536887296 bytes of memory to compute by definition",
    );
    // Nearer squares fit: the same answer as from the compiled-in table.
    let near = b"1\n2\n2000 3\n17 1500\n";
    let (code, online, _) = run(&["lightoj1315", "--online"], near);
    assert_eq!(code, Some(0));
    assert_eq!(online, run(&["lightoj1315"], near).1);
}

#[test]
fn tables_and_knight_run_in_bounded_memory() {
    // The compiled-in tables, in text (json.rs checks the JSON form; a
    // folder's files, read the same way once mapped, are verified in
    // tables.rs and table_files.rs): each verify recomputes all five.
    let (code, out, err) = run(&["tables", "verify"], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.matches(": ok (").count(), 5, "{out}");
    let (code, out, _) = run(&["knight", "4611686018427387904", "7"], b"");
    assert_eq!((code, out.as_str()), (Some(0), "3\n"));
    let (code, _, _) = run(
        &["knight", "5", "7", "--moves", "-2,-1 -1,-2 -2,1 1,-2"],
        b"",
    );
    assert_eq!(code, Some(0));
}

#[test]
fn found_by_fuzzing_the_unfixed_uva11927() {
    // What `cargo fuzz run uva11927` found in a minute (out of memory) with
    // the check on n disabled: n = 337333330 with 30 bytes after it.
    let input = b"337333330\x0a0\x0a\x0a7 7\x0a0 1\x0a0 2\x0a0 4\x0a2 3\x0a4 5\x0a5 6\x0a33\x01\xf7\xff\x00!5";
    refused(
        &["uva11927"],
        input,
        "expected a stone count, found `33\\x01\\xf7\\xff\\x00!5`",
    );
}

#[test]
fn a_picture_is_encoded_line_by_line() {
    // 8192 x 8192 pixels: 192 MiB of RGB, three times the limit; the PNG
    // is written one line of pixels at a time.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("knight.png");
    let png = path.to_str().unwrap();
    let args = [
        "knight", "--grid", "0..512", "0..512", "--scale", "16", "--png", png,
    ];
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.is_empty(), "a picture alone prints nothing: {out}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let info = decoder.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (8192, 8192));
    // The rows of a width of 20: 1024 x 1024 squares of 8 pixels.
    let path = dir.path().join("rows.png");
    let png = path.to_str().unwrap();
    let (code, _, err) = run(
        &[
            "row", "--grid", "--width", "20", "--scale", "8", "--png", png,
        ],
        b"",
    );
    assert_eq!(code, Some(0), "{err}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let info = decoder.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (8192, 8192));
}
