//! Text that messages quote, from every source (arguments, the
//! environment, files, paths), through the real binary: escaped onto one
//! line, cut after 40 bytes (a path after 160, its start and end kept),
//! never turned into U+FFFD; and a command a message suggests running is
//! one a shell runs as it reads (its paths quoted), or is not offered.

#![cfg(unix)]

use crate::common::Bounded;
use crate::common::{grundy, grundy_bytes};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Output, Stdio};

/// Runs `grundy` with arguments that need not be UTF-8, and environment
/// variables `env`.
fn grundy_os(args: &[&OsStr], env: &[(&str, &OsStr)]) -> Output {
    crate::common::grundy_command()
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .bounded_output()
        .unwrap()
}

/// The standard error of a run that failed with `status`: one line
/// (checked) without a control character, a replacement character or
/// more than `max` bytes.
fn one_line_error(out: &Output, status: i32, max: usize) -> String {
    let err = String::from_utf8(out.stderr.clone()).expect("UTF-8");
    assert_eq!(out.status.code(), Some(status), "{err}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    let line = err.trim_end_matches('\n');
    assert!(!line.chars().any(char::is_control), "{err:?}");
    assert!(!line.contains('\u{fffd}'), "{err:?}");
    assert!(line.len() <= max, "{} bytes: {err}", line.len());
    line.to_owned()
}

#[test]
fn board_sizes_are_quoted_and_cut_after_40_bytes() {
    let a200 = "a".repeat(200);
    let e60 = "é".repeat(60);
    let x200 = format!("4x{}", "7".repeat(198));
    let ctrl = format!("{}\n\x1b[2J{}", "b".repeat(10), "c".repeat(100));
    for subcommand in ["cram", "chomp"] {
        for text in [&a200, &e60, &x200, &ctrl] {
            let out = grundy(&[subcommand, text], "");
            let line = one_line_error(&out, 2, 200);
            // The quoted text: its first 40 bytes, in whole characters.
            let mut shown = String::new();
            for c in text.chars() {
                if shown.len() + c.len_utf8() > 40 {
                    break;
                }
                shown.push(c);
            }
            let escaped = sg_text::escape_bytes(shown.as_bytes(), 40);
            if text.len() > 40 && !text.starts_with("4x") {
                assert!(line.contains(&format!("\"{escaped}...\"")), "{line}");
            }
        }
    }
}

#[test]
fn paths_in_messages_are_one_line_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    // Folders that do not exist: no file is read or written.
    let newline = dir.path().join("no\nsuch").join("f");
    let long = dir
        .path()
        .join("d".repeat(200))
        .join("é".repeat(100))
        .join("end.proof");
    for path in [newline.as_path(), long.as_path()] {
        let p = path.as_os_str();
        let cases: Vec<Vec<&OsStr>> = vec![
            vec!["proof".as_ref(), "check".as_ref(), p],
            vec!["cram".as_ref(), "2x3".as_ref(), "--proof".as_ref(), p],
            vec!["hdu5724".as_ref(), p],
            vec!["hdu1524".as_ref(), p],
            vec!["cram".as_ref(), "--board".as_ref(), p],
            vec!["node-kayles".as_ref(), p],
            vec!["octal".as_ref(), "0.77".as_ref(), "--out".as_ref(), p],
            vec!["octal".as_ref(), "--resume".as_ref(), p],
            vec![
                "knight".as_ref(),
                "--grid".as_ref(),
                "0..4".as_ref(),
                "0..4".as_ref(),
                "--png".as_ref(),
                p,
            ],
            vec!["tables".as_ref(), "info".as_ref(), p],
            vec!["hdu5724".as_ref(), "--tables".as_ref(), p],
        ];
        for args in cases {
            let out = grundy_os(&args, &[]);
            let status = out.status.code().unwrap();
            assert!(status == 1 || status == 2, "{args:?}");
            // 160 bytes of path, each at most 4 bytes escaped, and the
            // message around it.
            let line = one_line_error(&out, status, 800);
            if path == newline {
                assert!(line.contains("no\\x0asuch"), "{line}");
            } else {
                assert!(line.contains("éé/end.proof"), "{line}");
                assert!(line.contains("..."), "{line}");
            }
        }
    }
}

#[test]
fn text_from_files_and_the_environment_is_cut_in_bytes_and_escaped() {
    // A certificate of a game with a name of 60 emoji (240 bytes).
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("2x3.proof");
    let out = grundy(&["cram", "2x3", "--proof", proof.to_str().unwrap()], "");
    assert!(out.status.success());
    let bytes = std::fs::read(&proof).unwrap();
    let renamed = with_game_name(&bytes, &"\u{1f600}".repeat(60));
    let out = grundy_bytes(&["proof", "check", "-"], &renamed);
    let line = one_line_error(&out, 1, 200);
    assert!(
        line.contains(&format!("\"{}...\"", "\u{1f600}".repeat(10))),
        "{line}"
    );
    // Bytes that are not UTF-8 are shown as escapes.
    let out = grundy_os(
        &["octal".as_ref(), "0.77".as_ref()],
        &[("GRUNDY_OCTAL_SIMD", OsStr::from_bytes(b"\xff\xfe"))],
    );
    let line = one_line_error(&out, 2, 300);
    assert!(line.contains("\"\\xff\\xfe\""), "{line}");
}

/// The certificate `proof` with its game's name replaced by `name` (the
/// metadata starts with the name, a postcard string: its length as a
/// varint, then its bytes; the header of `crates/sg-search/PROOF.md`
/// holds the metadata's length at byte 16 and checksum at byte 20).
fn with_game_name(proof: &[u8], name: &str) -> Vec<u8> {
    let metadata_len = u32::from_le_bytes(proof[16..20].try_into().unwrap()) as usize;
    let metadata = &proof[64..64 + metadata_len];
    let (old_len, skip) = (metadata[0] as usize, 1);
    assert!(old_len < 128, "a short name");
    let mut new_metadata = Vec::new();
    crate::common::varint(name.len() as u64, &mut new_metadata);
    new_metadata.extend_from_slice(name.as_bytes());
    new_metadata.extend_from_slice(&metadata[skip + old_len..]);
    let mut out = proof[..64].to_vec();
    out[16..20].copy_from_slice(&(new_metadata.len() as u32).to_le_bytes());
    out[20..24].copy_from_slice(&crc32fast::hash(&new_metadata).to_le_bytes());
    out.extend_from_slice(&new_metadata);
    out.extend_from_slice(&proof[64 + metadata_len..]);
    out
}

/// What a POSIX shell passes as arguments for `command` (run by `sh`
/// with `printf` in place of its first word).
fn shell_arguments(command: &str) -> Vec<Vec<u8>> {
    let rest = command.trim().strip_prefix("grundy ").unwrap();
    let out = crate::common::command("sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {rest}"))
        .bounded_output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
        .split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// Stops `grundy octal .6 --online --out NAME` run in `dir` with SIGINT
/// once it has written a checkpoint; the line of its message that says
/// how to go on.
fn resume_hint(dir: &Path, name: &str) -> String {
    let mut child = crate::common::grundy_command()
        .current_dir(dir)
        .args(["octal", ".6", "--online", "--to", "40000000"])
        .args(["--checkpoint-every", "10ms", "--threads", "1"])
        .arg(format!("--out={name}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 && !line.starts_with("checkpoint:") {
        line.clear();
    }
    crate::common::signal(&child, "INT");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert_eq!(
        crate::common::finish(child, "octal .6 stopped")
            .status
            .code(),
        Some(130),
        "{rest}"
    );
    let hint = rest
        .lines()
        .find(|l| l.trim_start().starts_with("grundy octal --resume"))
        .unwrap_or_else(|| panic!("{rest}"));
    hint.to_owned()
}

#[test]
fn the_resume_hint_runs_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "a'b;rm -rf x.sgt",
        "with space.sgt",
        "plain.sgt",
        "-dash.sgt",
    ] {
        let hint = resume_hint(dir.path(), name);
        let args = shell_arguments(&hint);
        // A name that starts with `-` is put after `./`.
        let path = match name.starts_with('-') {
            true => format!("./{name}").into_bytes(),
            false => name.as_bytes().to_vec(),
        };
        let expected: Vec<&[u8]> = vec![
            b"octal",
            b"--resume",
            &path,
            b"--out",
            &path,
            b"--to",
            b"40000000",
        ];
        assert_eq!(args, expected, "{hint}");
    }
    // A name that cannot be shown whole on a line is not put in the
    // command; the message stays one line per line it means.
    let hint = resume_hint(dir.path(), "new\nline.sgt");
    assert_eq!(
        hint.trim(),
        "grundy octal --resume FILE --out FILE --to 40000000"
    );
}
