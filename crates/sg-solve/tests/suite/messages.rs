//! Output and messages, through the real binary: clap's errors escaped
//! like the tool's own, JSON strings safe on a terminal, each cause once
//! and quoted text cut short, one exit-status convention (2 for what the
//! user must fix, 1 for the environment), a closed standard output ending
//! the run quietly in every subcommand, digits-only numbers on the command
//! line, and limits in messages that are the real ones.

use crate::common::Bounded;
use crate::common::{fails, grundy, grundy_bytes};
use std::ffi::OsStr;
use std::process::Stdio;

/// Runs `grundy` with arguments that need not be UTF-8.
fn grundy_os(args: &[&OsStr]) -> std::process::Output {
    crate::common::grundy_command()
        .args(args)
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap()
}

/// Asserts that `stderr` shows no byte a terminal would act on.
fn printable(stderr: &[u8]) {
    let text = String::from_utf8(stderr.to_vec()).expect("UTF-8");
    assert!(
        !text.chars().any(|c| c != '\n' && c.is_control()),
        "{text:?}"
    );
    assert!(!text.contains('\u{202e}'), "{text:?}");
}

#[test]
fn clap_errors_are_escaped_and_cut_short() {
    #[cfg(unix)]
    use std::os::unix::ffi::OsStrExt;
    let cases: [(&[u8], &str); 4] = [
        (b"ab\rZ", "invalid value 'ab\\x0dZ' for '[COLUMNS]...'"),
        (b"\x1b]0;title\x07", "invalid value '\\x1b]0;title\\x07'"),
        ("1\u{202e}2".as_bytes(), "invalid value '1\\u{202e}2'"),
        (b"\x1b[2J", "invalid value '\\x1b[2J'"),
    ];
    for (arg, shown) in cases {
        let out = grundy_os(&[OsStr::new("row"), OsStr::from_bytes(arg)]);
        assert_eq!(out.status.code(), Some(2));
        printable(&out.stderr);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(shown), "{shown}: {stderr}");
    }
    // A subcommand or an option that does not exist, a huge value.
    let out = grundy_os(&[OsStr::from_bytes(b"oct\x1b[2Jal")]);
    assert_eq!(out.status.code(), Some(2));
    printable(&out.stderr);
    assert!(String::from_utf8_lossy(&out.stderr).contains("'oct\\x1b[2Jal'"));
    let huge = "9".repeat(100_000);
    for args in [
        vec!["row", huge.as_str()],
        vec!["octal", "0.77", "--to", huge.as_str()],
        vec![&format!("--{huge}")],
    ] {
        let out = grundy(&args, "");
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.len() < 400, "{} bytes", stderr.len());
        assert!(
            stderr.contains(&format!("{}...'", "9".repeat(38))),
            "{stderr}"
        );
    }
    // Help and version still go to standard output, exit status 0.
    let out = grundy(&["--version"], "");
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("grundy ")
    );
}

#[test]
fn json_strings_escape_what_a_terminal_would_act_on() {
    use sg_tables::format::{Game, Metadata, encode};
    let dir = tempfile::tempdir().unwrap();
    let generator = "a\u{7f}b\u{9b}31mc\u{202e}d\u{200f}e\u{85}f\u{2028}g";
    let metadata = Metadata {
        game: Game::Row { width: 2 },
        generator: generator.to_owned(),
    };
    let path = dir.path().join("row2.sgt");
    std::fs::write(&path, encode(&metadata, &[0, 1, 0, 1]).unwrap()).unwrap();
    for command in ["info", "verify"] {
        let out = grundy(&["tables", command, "--json", path.to_str().unwrap()], "");
        let line = String::from_utf8(out.stdout).unwrap();
        assert!(line.is_ascii(), "{line:?}");
        for escaped in [
            "\\u007f", "\\u009b", "\\u202e", "\\u200f", "\\u0085", "\\u2028",
        ] {
            assert!(line.contains(escaped), "{escaped}: {line}");
        }
        // The same string to a JSON reader.
        let report: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(report["generator"], generator, "{report}");
    }
}

#[test]
fn each_cause_once_and_quoted_text_cut_short() {
    // The code is quoted once.
    let (_, stderr) = fails(&["octal", "777"], "");
    assert_eq!(stderr.matches("777").count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: bad code \"777\": no point"),
        "{stderr}"
    );
    let long_code = "7".repeat(131_000);
    let long_bad = format!("{},x", vec!["1"; 65_000].join(","));
    let long_zero = format!("{},0", vec!["1"; 65_000].join(","));
    let long_word = "9".repeat(100_000);
    let many_columns: Vec<String> = (0..30_000).map(|c| (c % 20 + 1).to_string()).collect();
    let mut row_args = vec!["row"];
    row_args.extend(many_columns.iter().map(String::as_str));
    for args in [
        vec!["octal", long_code.as_str()],
        vec!["octal", "--subtract", long_bad.as_str()],
        vec!["octal", "--subtract", long_zero.as_str()],
        row_args.clone(),
    ] {
        let (_, stderr) = fails(&args, "");
        assert!(stderr.len() < 300, "{}: {} bytes", args[0], stderr.len());
    }
    // Refused by clap's value parsers: its message (with a hint on a
    // second line) quotes the value, cut short, and the reason, cut short.
    for args in [
        vec!["knight", "1", "2", "--moves", long_word.as_str()],
        vec!["knight", "--grid", long_word.as_str(), "0..2"],
        vec!["floor", "--max-input", &format!("1{long_word}x")],
    ] {
        let out = grundy(&args, "");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.len() < 400, "{}: {} bytes", args[0], stderr.len());
    }
    let (_, stderr) = fails(&["octal", "--subtract", &long_bad], "");
    assert!(stderr.contains("element 65000 (\"x\")"), "{stderr}");
    let (_, stderr) = fails(&row_args, "");
    assert_eq!(stderr, "error: column 1 appears twice\n");
}

/// Text of a file quoted in a message (the code of an octal sequence
/// table, the game of a certificate) is escaped and cut short like the
/// command line's: a 100 KB name made 100 KB messages.
#[test]
fn text_quoted_from_a_file_is_cut_short() {
    use crate::common::{raw_table, varint};
    let dir = tempfile::tempdir().unwrap();
    let long = format!("\u{1b}[2J0.{}", "7".repeat(100_000));
    // An octal sequence (metadata variant 3) of 2 values with that code,
    // checksums right.
    let mut metadata = vec![3];
    varint(long.len() as u64, &mut metadata);
    metadata.extend_from_slice(long.as_bytes());
    varint(2, &mut metadata);
    varint(4, &mut metadata);
    metadata.extend_from_slice(b"test");
    let table = dir.path().join("long-code.sgt");
    let bytes = raw_table(
        sg_tables::format::TableKind::OctalSequence,
        &metadata,
        &[0; 4],
    );
    std::fs::write(&table, bytes).unwrap();
    let table = table.to_str().unwrap();
    for args in [
        &["tables", "verify", table][..],
        &["tables", "info", table],
        &["tables", "verify", "--json", table],
        &["octal", "--resume", table],
    ] {
        let out = grundy(args, "");
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}");
        let text = [out.stdout, out.stderr].concat();
        printable(&text);
        let mut text = String::from_utf8(text).unwrap();
        assert!(text.len() < 400, "{args:?}: {} bytes", text.len());
        if args.contains(&"--json") {
            let report: serde_json::Value = serde_json::from_str(&text).unwrap();
            text = report["error"].as_str().unwrap().to_owned();
        }
        assert!(
            text.contains("octal code \"\\x1b[2J0.777"),
            "{args:?}: {text}"
        );
        assert!(text.contains("777...\""), "{args:?}: {text}");
    }
    // A certificate of a game whose name is 100 KB long: the header, then
    // the metadata (the name only: the check stops there), checksums right.
    let mut metadata = Vec::new();
    varint(long.len() as u64, &mut metadata);
    metadata.extend_from_slice(long.as_bytes());
    let mut proof = b"GRUNDYP\0".to_vec();
    for word in [
        0x0102_0304,
        2,
        metadata.len() as u32,
        crc32fast::hash(&metadata),
    ] {
        proof.extend_from_slice(&u32::to_le_bytes(word));
    }
    proof.extend_from_slice(&0u64.to_le_bytes());
    proof.extend_from_slice(&crc32fast::hash(&[]).to_le_bytes());
    proof.resize(64, 0);
    proof.extend_from_slice(&metadata);
    let out = grundy_bytes(&["proof", "check", "-"], &proof);
    assert_eq!(out.status.code(), Some(1));
    printable(&out.stderr);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.len() < 400, "{} bytes", err.len());
    assert!(
        err.contains("for the game \"\\x1b[2J0.777") && err.contains("777...\", which"),
        "{err}"
    );
}

#[test]
fn exit_statuses_follow_the_convention() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.sgt");
    let missing = missing.to_str().unwrap();
    let folder = dir.path().to_str().unwrap();
    // Paths the user must fix: nothing there, or a folder for a file.
    for args in [
        vec!["floor", folder],
        vec!["floor", missing],
        vec!["hdu1524", missing],
        vec!["octal", ".6", "--resume", missing],
        vec!["octal", ".6", "--resume", folder],
        vec!["tables", "info", missing],
        vec!["tables", "verify", missing],
        vec!["hdu5724", "--tables", missing],
        vec!["lightoj1315", "--tables", "/etc/hostname"],
    ] {
        let (_, stderr) = fails(&args, "1\n");
        assert!(
            stderr.contains("cannot read") || stderr.contains("--resume"),
            "{stderr}"
        );
    }
}

/// Standard error that cannot be written (`2>/dev/full`): the exit
/// status still tells, and nothing panics.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_error_never_panics() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    for (args, code) in [
        (&["octal", "777"][..], 2),
        (&["row", "ab"], 2),
        (&["hdu1524", "/nonexistent/input"], 2),
        (&["--bogus"], 2),
        (&["cram", "9x9"], 2),
        (&["chomp", "0"], 2),
        (&["proof", "check", "/nonexistent/proof"], 2),
        (&["node-kayles", "/nonexistent/graph"], 2),
        // A note on standard error, and an answer.
        (&["knight", "3", "4", "--moves", "-1,0 0,-1 -5,-5"], 0),
        // The note that a thread count was lowered (it panicked: status
        // 101), in the searches' pool and in the octal engine's.
        (&["cram", "3x4", "--threads", "1024"], 0),
        (&["octal", ".6", "--to", "10", "--threads", "1024"], 0),
    ] {
        let out = crate::common::command(&bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(full())
            .bounded_output_as_set()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
    // The note of GRUNDY_OCTAL_SIMD, and a checkpoint's line in a run that
    // writes one (the run stopped at it, status 101, without its answer).
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("run.sgt");
    for (args, simd) in [
        (vec!["octal", ".6", "--to", "10"], Some("portable")),
        (
            vec![
                "octal",
                ".6",
                "--online",
                "--to",
                "300000",
                "--checkpoint-every",
                "1ms",
            ],
            None,
        ),
    ] {
        let mut command = crate::common::command(&bin);
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(full());
        if args.contains(&"--checkpoint-every") {
            command.arg("--out").arg(&out_file);
        }
        match simd {
            Some(value) => command.env("GRUNDY_OCTAL_SIMD", value),
            None => command.env_remove("GRUNDY_OCTAL_SIMD"),
        };
        let out = command.bounded_output_as_set().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            String::from_utf8(out.stdout).unwrap().contains("0.6"),
            "{args:?}"
        );
    }
}

/// The Arabic letter mark (U+061C, a bidirectional control like U+202E)
/// and the line and paragraph separators (U+2028, U+2029: line breaks)
/// are escaped in messages, as in JSON: they were printed raw.
#[test]
fn every_bidi_control_and_line_separator_is_escaped() {
    for (c, shown) in [
        ('\u{61c}', "\\u{61c}"),
        ('\u{2028}', "\\u{2028}"),
        ('\u{2029}', "\\u{2029}"),
    ] {
        let path = format!("/nonexistent/a{c}b.proof");
        let argument = format!("4{c}x5");
        for args in [
            vec!["proof", "check", path.as_str()],
            vec!["cram", argument.as_str()],
        ] {
            let (_, stderr) = fails(&args, "");
            assert!(!stderr.contains(c), "{args:?}: {stderr:?}");
            assert!(stderr.contains(shown), "{args:?}: {stderr:?}");
        }
    }
}

/// A standard output that fails (`>/dev/full`) is an error of the
/// environment (exit status 1) that says what could not be written: it
/// said only "No space left on device" for some subcommands, and `--help`
/// ended with status 0 and nothing written.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_says_what_was_not_written() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/row20.sgt");
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    for args in [
        &["octal", "0.77"][..],
        &["octal", "0.77", "--values", "--to", "100000"],
        &["octal", "0.77", "--json"],
        &["octal", "0.77", "--heaps", "3", "4"],
        &["cram", "4x5"],
        &["chomp", "3x4", "--json"],
        &["tables", "info"],
        &["tables", "verify", data],
        &["tables", "verify", "--json", data],
        &["knight", "3", "4"],
        &["row", "1", "19"],
        &["man"],
        &["--help"],
        &["--version"],
        &["cram", "--help"],
    ] {
        let out = crate::common::command(&bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .bounded_output_as_set()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write the "),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            stderr.matches("No space left on device").count(),
            1,
            "{stderr}"
        );
    }
}

/// Runs `grundy ARGS` with `input` on standard input and a standard
/// output whose reader is already gone: every write to it fails with a
/// broken pipe.
#[cfg(unix)]
fn run_into_a_closed_pipe(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = crate::common::grundy_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The child may stop reading (or never start): a failed write is fine.
    let _ = stdin.write_all(input);
    drop(stdin);
    crate::common::finish(child, "grundy")
}

#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_every_subcommand_quietly() {
    let proof = {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cram.proof");
        let out = grundy(&["cram", "2x3", "--proof", path.to_str().unwrap()], "");
        assert!(out.status.success());
        std::fs::read(&path).unwrap()
    };
    let cases: [(&[&str], &[u8]); 23] = [
        (&["hdu1524"], b"1\n0\n1 0\n0\n"),
        (&["uva11927"], b"2 1\n0 1\n1 0\n0 0\n"),
        (&["hdu5724"], b"1\n1\n1 19\n"),
        (&["lightoj1315"], b"1\n1\n2 5\n"),
        (&["tables", "info"], b""),
        (&["tables", "verify", "--json"], b""),
        (&["graph", "--values"], b"3 2\n0 1\n1 2\n"),
        (&["knight", "2", "5"], b""),
        (&["knight", "--grid", "0..300", "0..300"], b""),
        (&["row", "1", "19"], b""),
        (&["row", "--grid", "--width", "16"], b""),
        (&["octal", "0.77"], b""),
        (&["octal", "0.77", "--values", "--to", "100000000"], b""),
        (&["octal", ".6", "--to", "3000", "--online", "--json"], b""),
        (&["octal", "0.07", "--heaps", "5", "7", "--hint"], b""),
        (&["floor"], b"1 2 3\n"),
        (&["cram", "4x5", "--hint"], b""),
        (&["node-kayles", "-", "--json"], b"3 2\n0 1\n1 2\n"),
        (&["chomp", "3x4"], b""),
        (&["proof", "check", "-"], &proof),
        (&["completions", "bash"], b""),
        (&["man"], b""),
        (&["--help"], b""),
    ];
    for (args, input) in cases {
        let out = run_into_a_closed_pipe(args, input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    // The files asked for are still written: `cram --proof` printed its
    // answer, then stopped before the proof (exit status 0, no file).
    let dir = tempfile::tempdir().unwrap();
    for (game, size) in [("cram", "4x5"), ("chomp", "3x4")] {
        let path = dir.path().join(format!("{game}.proof"));
        let file = path.to_str().unwrap();
        let out = run_into_a_closed_pipe(&[game, size, "--proof", file], b"");
        assert_eq!(out.status.code(), Some(0), "{game}");
        assert!(out.stderr.is_empty(), "{game}");
        let checked = grundy(&["proof", "check", file], "");
        assert!(checked.status.success(), "{game}: {checked:?}");
    }
    let table = dir.path().join("six.sgt");
    let args = [
        "octal", ".6", "--online", "--to", "3000", "--values", "--out",
    ];
    let out = run_into_a_closed_pipe(&[&args[..], &[table.to_str().unwrap()]].concat(), b"");
    assert_eq!(out.status.code(), Some(0));
    let verified = grundy(&["tables", "verify", table.to_str().unwrap()], "");
    assert!(verified.status.success(), "{verified:?}");
    // Bad input with no answer before it is still reported.
    let out = run_into_a_closed_pipe(&["hdu1524"], b"x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1, column 1"));
}

#[test]
fn numbers_on_the_command_line_are_digits_only() {
    for args in [
        &["octal", "0.77", "--to", "+5"][..],
        &["octal", "0.77", "--heaps", "+5"],
        &["octal", "0.77", "--threads", "+2"],
        &["octal", "--subtract", "+1,3"],
        &["octal", "--subtract", "1, +3"],
        &["row", "--width", "+5", "1"],
        &["row", "+1"],
        &["row", "--grid", "--width", "4", "--scale", "+2"],
        &["knight", "--grid", "0..2", "0..2", "--scale", "+2"],
        &["knight", "+1", "2"],
        &["knight", "--grid", "+0..2", "0..2"],
        &["hdu5724", "--width", "+20"],
        &["floor", "--max-input", "+5"],
        &["octal", "0.77", "--to", " 5"],
        &["octal", "0.77", "--to", "5_0"],
        &["cram", "+3x3"],
        &["cram", "3x3", "--threads", "+2"],
        &["chomp", "3,+2"],
        &["chomp", "3x3", "--memory", "+1M"],
        &["proof", "check", "--max-input", "+1M", "-"],
    ] {
        let out = grundy(args, "");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.contains("digits only")
                || stderr.contains("expected e.g.")
                || stderr.contains("expected a number of bytes"),
            "{args:?}: {stderr}"
        );
    }
    // The same numbers written with digits only are accepted.
    for args in [
        &["octal", "0.77", "--to", "5", "--threads", "2"][..],
        &["octal", "--subtract", "1, 3"],
        &["row", "--width", "5", "1"],
        &["knight", "--grid", "0..2", "0..2", "--scale", "2"],
    ] {
        let out = grundy(args, "");
        assert!(out.status.success(), "{args:?}");
    }
}

#[test]
fn limits_in_messages_are_the_real_ones() {
    let huge = "99999999999999999999";
    for (args, input, limit) in [
        (
            &["uva11927"][..],
            format!("{huge} 0\n"),
            "at most 4294967293",
        ),
        (
            &["uva11927"],
            "4294967296 0\n".to_owned(),
            "at most 4294967293",
        ),
        (&["hdu1524"], format!("{huge}\n"), "at most 4294967293"),
        (&["hdu1524"], format!("1\n{huge}\n"), "at most 4294967295"),
        (&["graph"], format!("{huge} 0\n"), "at most 4294967293"),
        (&["hdu5724"], format!("1\n1\n1 {huge}\n"), "at most 20"),
        (
            &["hdu5724", "--width", "7"],
            format!("1\n1\n1 {huge}\n"),
            "at most 7",
        ),
        (
            &["lightoj1315"],
            format!("1\n1\n3 {huge}\n"),
            "at most 9223372036854775807",
        ),
    ] {
        let (_, stderr) = fails(args, &input);
        assert!(stderr.contains(limit), "{args:?} {input:?}: {stderr}");
        assert!(!stderr.contains("18446744073709551615"), "{stderr}");
    }
    // A limit is raised only with an option that exists: `cram --board`
    // reads at most 1 MiB, with no option to change it.
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("board.txt");
    std::fs::write(&board, ".".repeat(2 << 20)).unwrap();
    let (_, stderr) = fails(&["cram", "--board", board.to_str().unwrap()], "");
    assert!(stderr.contains("maximum input size of 1 MiB"), "{stderr}");
    assert!(!stderr.contains("--max-input"), "{stderr}");
    for args in [
        &["proof", "check", "--max-input", "1M"][..],
        &["node-kayles", "--max-input", "1M"],
    ] {
        let (_, stderr) = fails(&[args, &[board.to_str().unwrap()]].concat(), "");
        assert!(stderr.contains("(raise it with --max-input)"), "{stderr}");
    }
    // A heap that no --to reaches is not met with "raise --to".
    let (_, stderr) = fails(&["octal", ".6", "--to", "100", "--heaps", "4294967295"], "");
    assert!(!stderr.contains("raise --to"), "{stderr}");
    assert!(stderr.contains("beyond 4294967294"), "{stderr}");
    let (_, stderr) = fails(&["octal", ".6", "--to", "100", "--heaps", "5000"], "");
    assert!(stderr.contains("raise --to to 5000"), "{stderr}");
    let out = grundy_bytes(&["octal", ".6", "--to", "4294967295"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("(4294967294)"), "{stderr}");
}

/// One rule for the two variables that lower the vector code
/// (`GRUNDY_OCTAL_SIMD`, `GRUNDY_SCAN_SIMD`): avx512, avx2 or portable in
/// any case, a note of what runs; any other value refused with exit
/// status 2 by every command that runs that code, before it runs; unset
/// or empty, nothing. `octal --misere` runs neither and ignores both.
#[test]
fn both_simd_variables_follow_one_rule() {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let sample = b"3\n1 1\n1 2\n0\n1 0\n2 0 1\n0\n".as_slice();
    // `tables verify` of a catalogue up to heap 256 runs the octal engine
    // as the compiled-in one's does, in a fraction of its seconds.
    let (_guard, catalogue) = crate::common::small_catalogue();
    // (variable, what the note names, arguments, input)
    let cases: [(&str, &str, &[&str], &[u8]); 4] = [
        (
            "GRUNDY_OCTAL_SIMD",
            "the octal engine",
            &["octal", "0.77", "--to", "5"],
            b"",
        ),
        (
            "GRUNDY_OCTAL_SIMD",
            "the octal engine",
            &["tables", "verify", &catalogue],
            b"",
        ),
        (
            "GRUNDY_SCAN_SIMD",
            "the input decoder",
            &["hdu1524"],
            sample,
        ),
        (
            "GRUNDY_SCAN_SIMD",
            "the input decoder",
            &["node-kayles", "-"],
            b"3 1\n0 1\n",
        ),
    ];
    let run = |variable: &str, value: &str, args: &[&str], input: &[u8]| {
        let mut child = crate::common::command(&bin)
            .env_remove("GRUNDY_OCTAL_SIMD")
            .env_remove("GRUNDY_SCAN_SIMD")
            .env(variable, value)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        // A command that reads no input (tables verify) may have ended
        // before it is written: the pipe is then closed.
        let _ = child.stdin.take().unwrap().write_all(input);
        let out = crate::common::finish(child, "grundy");
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for (variable, engine, args, input) in cases {
        let (code, plain, err) = run(variable, "", args, input);
        assert_eq!((code, err.as_str()), (Some(0), ""), "{variable} {args:?}");
        for value in ["AVX2", "avx2", "Portable", "avx512"] {
            let (code, out, err) = run(variable, value, args, input);
            assert_eq!(code, Some(0), "{variable}={value} {args:?}: {err}");
            assert_eq!(out, plain, "{variable}={value} {args:?}");
            let note = format!("note: {variable}={value}: {engine}'s vector kernels: ");
            let used = err.strip_prefix(&note).unwrap_or_else(|| panic!("{err}"));
            assert!(
                ["portable\n", "avx2\n", "avx512\n"].contains(&used),
                "{variable}={value}: {err}"
            );
        }
        for value in ["sse4", "avx2 ", "AVX-2"] {
            let (code, out, err) = run(variable, value, args, input);
            assert_eq!(code, Some(2), "{variable}={value} {args:?}");
            assert_eq!(out, "", "{variable}={value} {args:?}");
            assert_eq!(
                err,
                format!(
                    "error: the environment variable {variable} is \"{value}\": expected \
                     avx512, avx2 or portable (the most vector instructions {engine} uses), \
                     or unset\n"
                ),
            );
        }
    }
    // Misère play runs no kernel: a wrong value changes nothing.
    let args = ["octal", "0.77", "--misere", "--to", "20"];
    let (_, plain, _) = run("GRUNDY_OCTAL_SIMD", "", &args, b"");
    for variable in ["GRUNDY_OCTAL_SIMD", "GRUNDY_SCAN_SIMD"] {
        assert_eq!(
            run(variable, "sse4", &args, b""),
            (Some(0), plain.clone(), String::new())
        );
    }
}
