//! Regression tests for the engines and tables of the third hardening
//! issue (issue 21), through the real binary: any thread count works and
//! gives the same values, extreme knight steps are answered or refused,
//! games without moves are refused.

#[cfg(target_os = "linux")]
use crate::common::grundy_limited;
use crate::common::{fails, grundy, raw_table, varint};
use sg_tables::format::{Game, Header, Metadata, TableKind, encode};

/// `grundy ARGS` with the environment variables `env`: (exit status,
/// stdout, stderr), after checking that it did not panic.
fn run_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = crate::common::assert_grundy()
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{args:?} {env:?}: {stderr}");
    (out.status.code(), stdout, stderr)
}

/// Item 1: `--threads` from 1 to 1024 (all that it accepts) and
/// `RAYON_NUM_THREADS` of any size compute the same values; 32 and more
/// used to panic (the crew's slots).
#[test]
fn any_thread_count_gives_the_same_values() {
    let args = |threads: Option<&'static str>| {
        let mut args = vec!["octal", ".6", "--to", "3000", "--online", "--values"];
        if let Some(t) = threads {
            args.extend(["--threads", t]);
        }
        args
    };
    let (code, reference, err) = run_env(&args(Some("1")), &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(reference.lines().count(), 3001);
    for threads in ["2", "31", "32", "33", "64", "1024"] {
        let (code, values, err) = run_env(&args(Some(threads)), &[]);
        assert_eq!(code, Some(0), "{threads} threads: {err}");
        assert!(values == reference, "{threads} threads: other values");
    }
    for threads in ["32", "100"] {
        let (code, values, err) = run_env(&args(None), &[("RAYON_NUM_THREADS", threads)]);
        assert_eq!(code, Some(0), "RAYON_NUM_THREADS={threads}: {err}");
        assert!(
            values == reference,
            "RAYON_NUM_THREADS={threads}: other values"
        );
    }
}

/// Item 2: steps at the ends of `i32` (whose negation overflows an `i32`)
/// are answered like any other, or refused with exit status 2 where the
/// square is beyond what can be computed for them. (Each run searches for
/// a certified description first, about a second: a few runs only; the
/// unit tests of `sg_core::knight` cover every edge step.)
#[test]
fn extreme_knight_steps_are_answered_or_refused() {
    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;
    let mixed = format!("-3,-1 {MIN},0 -2,1");
    for (steps, value) in [
        (format!("{MIN},0"), "0\n"),
        (format!("0,{MIN}"), "0\n"),
        (format!("{MAX},{MIN}"), "0\n"),
        // (-3, -1) reaches (0, 0), worth 0, and (-2, 1) reaches (1, 2),
        // from which no step stays on the board: worth 0.
        (mixed.clone(), "1\n"),
    ] {
        let out = grundy(&["knight", "3", "1", "--moves", &steps], "");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{steps}: {stderr}");
        assert!(!stderr.contains("panicked"), "{steps}: {stderr}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), value, "{steps}");
    }
    let out = grundy(&["knight", "--grid", "0..8", "0..8", "--moves", &mixed], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 8);
    // Far out, no certified description: refused as the user's to fix.
    let (_, err) = fails(
        &["knight", "4611686018427387904", "7", "--moves", &mixed],
        "",
    );
    assert!(
        err.contains("the limit for computing by the definition"),
        "{err}"
    );
    // A step beyond 32 bits is refused where it is written.
    let (code, _, err) = run_env(&["knight", "1", "2", "--moves", "-2147483649,0"], &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("out of range for a step"), "{err}");
}

/// Item 20: a code with no digit after the point and no move (`.`, `0.`:
/// almost certainly a typo) is refused, saying why.
#[test]
fn a_code_without_moves_is_refused() {
    for code in [".", "0.", " 0. "] {
        let (out, err) = fails(&["octal", code], "");
        assert_eq!(out, "");
        assert!(err.contains("allows no move"), "{code}: {err}");
        let (_, err) = fails(&["octal", code, "--online", "--heaps", "3"], "");
        assert!(err.contains("allows no move"), "{code}: {err}");
    }
    // `4.` splits a heap in two: a game with moves. `0.0`, written out,
    // is the game without moves, answered (it is in the catalogue).
    // (G(2) = 1 for `4.`: the split into 1 and 1.)
    for (code, answer) in [("4.", "WIN\n"), ("0.0", "LOSE\n"), ("0.000", "LOSE\n")] {
        let out = grundy(&["octal", code, "--heaps", "2"], "");
        assert_eq!(out.status.code(), Some(0), "{code}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), answer, "{code}");
    }
}

/// Item 21: the progress bar (drawn on a terminal: here the pseudo-terminal
/// of `script`) shows a rate only when it means something: never `0/s`,
/// and never more heaps per second than heaps done (the bar appears after
/// a second of work). It used to show `0/s`, then `286200733767/s`.
#[cfg(target_os = "linux")]
#[test]
fn the_progress_rate_is_never_absurd() {
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let command = format!(
        "'{}' octal .354 --online --to 30000000 --threads 1",
        bin.display()
    );
    // Stopped after 2.5 seconds: the frames drawn by then (from the first
    // second on, twenty a second). `script` is killed (asked to end, it
    // waits two seconds for the command); the command, left without its
    // terminal, gets SIGHUP.
    let out = crate::common::command("timeout")
        .args(["-s", "KILL", "2.5", "script", "-qc", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) and `timeout` (coreutils) run");
    let text = String::from_utf8_lossy(&out.stdout);
    let number = |s: &str| s.replace(',', "").parse::<u64>();
    let mut frames = 0;
    for frame in text.split(['\r', '\n']).filter(|f| f.contains(" heaps, ")) {
        let (head, tail) = frame.split_once(" heaps, ").unwrap();
        let done = head.rsplit(' ').next().unwrap().split('/').next().unwrap();
        let done = number(done).unwrap_or_else(|_| panic!("{frame:?}"));
        let rate = tail.split("/s").next().unwrap();
        assert!(rate != "0", "{frame:?}");
        if rate != "-" {
            let rate = number(rate).unwrap_or_else(|_| panic!("{frame:?}"));
            assert!(rate <= done, "{frame:?}");
        }
        frames += 1;
    }
    assert!(frames > 0, "no progress drawn: {text:?}");
}

/// Item 3: the memory of an octal run grows with the values computed,
/// never with `--to`; running out of it is a clean error (exit status 1),
/// never an abort. `0.77 --to 4294967294` reserved 8 GiB before computing.
#[cfg(target_os = "linux")]
#[test]
fn octal_memory_grows_with_the_values_computed() {
    // Kayles is certified at heap 167: a run to 2^32 - 2 needs little.
    let args = ["octal", "0.77", "--online", "--to", "4294967294", "--json"];
    let out = grundy_limited(&args, b"", 128);
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("\"period\":12"), "{stdout}");
    // 0.106 has no period in sight and computes fast: the run goes on
    // until 64 MiB are used up, then stops with one line of error.
    let args = [
        "octal",
        "0.106",
        "--online",
        "--to",
        "4294967294",
        "--threads",
        "1",
    ];
    let out = grundy_limited(&args, b"", 64);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: not enough memory to go on beyond heap "),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // `.6 --to 2000000000` computes from the start, within 64 MiB for the
    // two seconds it is given (it reserved 4 GB before computing).
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let out = crate::common::command("sh")
        .arg("-c")
        .arg("ulimit -v 65536 && exec timeout 2 \"$0\" \"$@\"")
        .arg(bin)
        .args([
            "octal",
            ".6",
            "--online",
            "--to",
            "2000000000",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        out.status.code(),
        Some(124),
        "stopped by timeout(1): {stderr}"
    );
    assert_eq!(stderr, "");
}

/// The metadata of a catalogue announcing `limit` and `games`.
fn catalogue_metadata(limit: u64, games: u64, len: usize) -> Vec<u8> {
    let mut meta = Vec::new();
    for n in [4, limit, games, len as u64, 4] {
        varint(n, &mut meta);
    }
    meta.extend_from_slice(b"test");
    meta
}

/// The compiled-in catalogue's records, and where each starts.
fn catalogue_records() -> (Vec<u8>, Vec<usize>) {
    let file = sg_tables::embedded_octal_catalogue_bytes();
    let table = sg_tables::Table::from_bytes(file).unwrap();
    let payload = table.payload().to_vec();
    let mut starts = Vec::new();
    let mut at = 0;
    for _ in 0..1024 {
        starts.push(at);
        let word = |k: usize| u64::from_le_bytes(payload[at + k..at + k + 8].try_into().unwrap());
        at += 48 + 2 * (word(32) + word(40)) as usize;
    }
    assert_eq!(at, payload.len());
    (payload, starts)
}

/// The values of a stored run as an octal sequence file (checksums right).
fn sequence_file(code: &str, values: &[u16]) -> Vec<u8> {
    let metadata = Metadata {
        game: Game::OctalSequence {
            code: code.to_owned(),
            count: values.len() as u64,
        },
        generator: "test".to_owned(),
    };
    let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    encode(&metadata, &payload).unwrap()
}

/// `G(0..=to)` of `code` through the binary.
fn values_of(code: &str, to: u64) -> Vec<u16> {
    let out = grundy(
        &[
            "octal",
            code,
            "--online",
            "--values",
            "--to",
            &to.to_string(),
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().map(|l| l.parse().unwrap()).collect()
}

/// Item 4: a catalogue declaring 2^40 computed heaps (checksums right)
/// aborted `tables verify` on a 2 TiB allocation, and stopped the check
/// of the folder. Every declared count is checked first; the other files
/// are still checked and printed; the memory stays small.
#[cfg(target_os = "linux")]
#[test]
fn tables_verify_checks_declared_counts_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (records, _) = catalogue_records();
    let mut huge = records.clone();
    // Record 0 (0.0): 2^40 values computed, under a limit of 2^41.
    huge[4..12].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let meta = catalogue_metadata(1 << 41, 1024, huge.len());
    let files = [
        (
            "a-huge-limit.sgt",
            raw_table(TableKind::OctalCatalogue, &meta, &huge),
        ),
        (
            "b-huge-count.sgt",
            raw_table(
                TableKind::OctalCatalogue,
                &catalogue_metadata(4096, 1024, huge.len()),
                &huge,
            ),
        ),
        ("c-good.sgt", sequence_file("0.77", &values_of("0.77", 300))),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let dir_arg = dir.path().to_str().unwrap();
    let out = grundy_limited(&["tables", "verify", dir_arg], b"", 256);
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(1), "{stdout} {stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].contains("a-huge-limit.sgt: INVALID: invalid table parameters"),
        "{stdout}"
    );
    assert!(
        lines[0].contains("computed to heap 1048576 at most"),
        "{stdout}"
    );
    assert!(
        lines[1].contains("b-huge-count.sgt: INVALID: octal catalogue: record 0"),
        "{stdout}"
    );
    assert!(
        lines[2].ends_with("c-good.sgt: ok (octal sequence of 0.77, 301 values, values checked)")
    );
    // The same under --json, one object each.
    let out = grundy_limited(&["tables", "verify", dir_arg, "--json"], b"", 256);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 3);
}

/// Item 5: an octal sequence file is compared as it is checked and fails
/// at its first wrong heap; its cost is that of computing the sequence.
/// A 100 KB file of a hexadecimal game (whose values cost a pass over the
/// splits into three heaps each) with a wrong `G(1)` ran for about an
/// hour: the whole sequence was computed before any value was compared.
#[test]
fn a_wrong_octal_sequence_fails_at_its_first_heap_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let right = values_of("0.8", 400);
    let mut values = right.clone();
    values.resize(50_000, 0);
    for heap in [1usize, 399] {
        values[heap] ^= 1;
        let path = dir.path().join(format!("wrong-{heap}.sgt"));
        std::fs::write(&path, sequence_file("0.8", &values)).unwrap();
        values[heap] ^= 1;
        // An hour before; at most seconds now (stopped after a minute).
        let out = crate::common::command("timeout")
            .arg("60")
            .arg(assert_cmd::cargo::cargo_bin("grundy"))
            .args(["tables", "verify", path.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains(&format!(
                "wrong value: in 0.8, heap {heap} holds {}, but its Grundy value is {}",
                right[heap] ^ 1,
                right[heap]
            )),
            "{stdout}"
        );
    }
    // Right values pass.
    let path = dir.path().join("right.sgt");
    std::fs::write(&path, sequence_file("0.8", &right)).unwrap();
    let out = grundy(&["tables", "verify", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0));
}

/// Item 11: `--resume` checks every stored value. A file made by `--out`
/// with one value changed and its checksum fixed (heap 50000 of `.6`)
/// answered `LOSE` for `--heaps 50000 6339` (the truth is `WIN`) and
/// passed the wrong value on to `--out`. Now it is refused (exit 2) at
/// that heap, and `--trust-resume` is the documented way to skip the
/// check; with it, the file is trusted as it is.
#[test]
fn resume_checks_every_stored_value() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("six.sgt");
    let good_arg = good.to_str().unwrap();
    let out = grundy(
        &[
            "octal", ".6", "--online", "--to", "60000", "--out", good_arg,
        ],
        "",
    );
    assert!(out.status.success());
    let mut bytes = std::fs::read(&good).unwrap();
    let header = Header::parse(&bytes).unwrap();
    let at = header.payload_offset as usize + 2 * 50_000;
    bytes[at] ^= 1;
    let payload = &bytes[header.payload_offset as usize..];
    let crc = crc32fast::hash(payload);
    bytes[40..44].copy_from_slice(&crc.to_le_bytes());
    let bad = dir.path().join("bad.sgt");
    let bad_arg = bad.to_str().unwrap();
    std::fs::write(&bad, &bytes).unwrap();
    let heaps = ["--heaps", "50000", "6339"];
    let answer = |args: &[&str]| {
        let out = grundy(args, "");
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(
        answer(&[&["octal", "--resume", good_arg][..], &heaps].concat()),
        (Some(0), "WIN\n".to_owned())
    );
    let (_, err) = fails(&[&["octal", "--resume", bad_arg][..], &heaps].concat(), "");
    assert!(err.contains("stored G(50000) = "), "{err}");
    assert!(err.contains("the file is not a run of 0.6"), "{err}");
    // Nothing is written from a file that fails.
    let new = dir.path().join("new.sgt");
    let new_arg = new.to_str().unwrap();
    fails(&["octal", "--resume", bad_arg, "--out", new_arg], "");
    assert!(!new.exists());
    // With --trust-resume, the file is taken as it is (its wrong value
    // included), and the summary says so.
    let trusted = [
        &["octal", "--resume", bad_arg, "--trust-resume"][..],
        &heaps,
    ]
    .concat();
    assert_eq!(answer(&trusted), (Some(0), "LOSE\n".to_owned()));
    let (_, text) = answer(&[
        "octal",
        "--resume",
        good_arg,
        "--trust-resume",
        "--to",
        "60000",
    ]);
    assert!(text.contains("resumed from 60001 stored values, trusted unchecked (--trust-resume)"));
    let (_, text) = answer(&["octal", "--resume", good_arg, "--to", "60000"]);
    assert!(
        text.contains("resumed from 60001 stored values, every one checked"),
        "{text}"
    );
    // --trust-resume needs --resume.
    let out = grundy(&["octal", ".6", "--trust-resume"], "");
    assert_eq!(out.status.code(), Some(2));
    // Item 1: the check and the verification run on any number of
    // threads, with the same outcome.
    for threads in ["1", "64"] {
        let args = [
            &["octal", "--resume", bad_arg, "--threads", threads][..],
            &heaps,
        ]
        .concat();
        let (_, err) = fails(&args, "");
        assert!(err.contains("stored G(50000) = "), "{err}");
        let args = [
            &["octal", "--resume", good_arg, "--threads", threads][..],
            &heaps,
        ]
        .concat();
        assert_eq!(answer(&args), (Some(0), "WIN\n".to_owned()));
    }
    for threads in ["32", "100"] {
        let (code, out, _) = run_env(
            &["tables", "verify", bad_arg],
            &[("RAYON_NUM_THREADS", threads)],
        );
        assert_eq!(code, Some(1));
        assert!(out.contains("heap 50000 holds"), "{out}");
    }
}

/// Item 19: `tables verify` checks every field of a catalogue record
/// (they passed unchecked: only the values and the period were), refuses
/// catalogues of any number of games but 1024, prints no debug text, and
/// says "an octal sequence table". (The period and preperiod: the unit
/// tests of `sg_tables::verify`.)
#[test]
fn every_field_of_a_catalogue_record_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (records, starts) = catalogue_records();
    // Record 63 is 0.077: preperiod 142, period 24, largest value 8, rare
    // mask 15, 19 rare heaps, the last 141.
    let kayles_like = starts[63];
    let write = |name: &str, limit: u64, games: u64, payload: &[u8]| {
        let path = dir.path().join(name);
        let meta = catalogue_metadata(limit, games, payload.len());
        std::fs::write(&path, raw_table(TableKind::OctalCatalogue, &meta, payload)).unwrap();
        path
    };
    let verify = |path: &std::path::Path| {
        let out = grundy(&["tables", "verify", path.to_str().unwrap()], "");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            !stdout.contains("Some(") && !stdout.contains('{'),
            "{stdout}"
        );
        (out.status.code(), stdout)
    };
    // (The right records pass: `tables verify` of the catalogue file of
    // data/, in tests/memory.rs.)
    for (field, offset, width, value, says) in [
        (
            "largest value",
            12,
            2,
            99u64,
            "largest value 99, but a run finds 8",
        ),
        ("rare mask", 14, 2, 3, "rare mask 3, but a run finds 15"),
        ("rare count", 16, 8, 7, "rare count 7, but a run finds 19"),
        (
            "last rare heap",
            24,
            8,
            5,
            "last rare heap 5, but a run finds 141",
        ),
        (
            "last rare heap",
            24,
            8,
            u64::MAX,
            "last rare heap none, but a run finds 141",
        ),
    ] {
        let mut wrong = records.clone();
        let at = kayles_like + offset;
        wrong[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        let (code, out) = verify(&write("wrong.sgt", 4096, 1024, &wrong));
        assert_eq!(code, Some(1), "{field}: {out}");
        let says = format!("INVALID: octal catalogue: 0.077: the record says {says}");
        assert!(out.contains(&says), "{field}: {out}");
    }
    // No catalogue of 0 or 1 games (or any number but 1024).
    for (games, payload) in [
        (0, &records[..0]),
        (1, &records[..starts[1]]),
        (1025, &records[..]),
    ] {
        let (code, out) = verify(&write("few.sgt", 4096, games, payload));
        assert_eq!(code, Some(1), "{games}: {out}");
        assert!(
            out.contains(&format!(
                "an octal catalogue holds exactly 1024 games, the metadata says {games}"
            )),
            "{out}"
        );
    }
    // The article: "an octal sequence table".
    let row = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/row20.sgt");
    let (_, err) = fails(&["octal", "--resume", row], "");
    assert!(
        err.contains("expected an octal sequence table, found a row table"),
        "{err}"
    );
}
