//! `GRUNDY_SCAN_SIMD` lowers how the tokenizer decodes blocks of the input
//! (AVX-512, AVX2, or each token one at a time): every path gives the same
//! answers and the same errors, at the same line and column. The paths a
//! CPU lacks fall back to those it has, so this runs everywhere.

use std::path::PathBuf;

/// The values of `GRUNDY_SCAN_SIMD` (the last: unset, the CPU's best).
const PATHS: [Option<&str>; 4] = [Some("portable"), Some("avx2"), Some("avx512"), None];

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read(path).unwrap()
}

/// `grundy ARGS` on `input` with the variable set to `path`.
fn run(path: Option<&str>, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut command = crate::common::assert_grundy();
    match path {
        Some(value) => command.env("GRUNDY_SCAN_SIMD", value),
        None => command.env_remove("GRUNDY_SCAN_SIMD"),
    };
    command
        .args(args)
        .write_stdin(input.to_vec())
        .output()
        .unwrap()
}

/// Runs `grundy ARGS` on `input` on every path; asserts that all give the
/// same exit status, output and error, and returns them.
fn same_on_every_path(args: &[&str], input: &[u8]) -> std::process::Output {
    let [first, rest @ ..] = PATHS.map(|path| {
        let mut out = run(path, args, input);
        // The note of the variable set, first (the rest must be equal).
        if let Some(value) = path {
            let note =
                format!("note: GRUNDY_SCAN_SIMD={value}: the input decoder's vector kernels: ");
            let text = String::from_utf8(out.stderr.clone()).unwrap();
            let (line, rest) = text.split_once('\n').unwrap();
            let used = line.strip_prefix(&note).unwrap_or_else(|| panic!("{text}"));
            assert!(["portable", "avx2", "avx512"].contains(&used), "{text}");
            out.stderr = rest.as_bytes().to_vec();
        }
        (path, out)
    });
    for (path, out) in &rest {
        assert_eq!(
            (&out.status, &out.stdout, &out.stderr),
            (&first.1.status, &first.1.stdout, &first.1.stderr),
            "{args:?}: GRUNDY_SCAN_SIMD={path:?} differs from {:?}",
            first.0
        );
    }
    first.1
}

/// A sample's input made of `copies` copies of its cases (the first
/// line's count, or the terminating `0 0`, adjusted), the separators
/// varied, and its expected output.
fn repeated(problem: &str, copies: usize) -> (Vec<u8>, Vec<u8>) {
    let input = String::from_utf8(data(&format!("{problem}.in"))).unwrap();
    let output = String::from_utf8(data(&format!("{problem}.out"))).unwrap();
    let (input, output) = match problem {
        "hdu1524" => (input.repeat(copies), output.repeat(copies)),
        "uva11927" => {
            let body = input.trim_end().strip_suffix("0 0").unwrap();
            (body.repeat(copies) + "0 0\n", output.repeat(copies))
        }
        "hdu5724" | "lightoj1315" => {
            let (count, body) = input.split_once('\n').unwrap();
            let count: usize = count.trim().parse().unwrap();
            let input = format!("{}\n{}", count * copies, body.repeat(copies));
            let output = if problem == "hdu5724" {
                output.repeat(copies)
            } else {
                let answers: Vec<&str> = output
                    .lines()
                    .map(|line| line.split_once(": ").unwrap().1)
                    .collect();
                (0..count * copies)
                    .map(|i| format!("Case {}: {}\n", i + 1, answers[i % count]))
                    .collect()
            };
            (input, output)
        }
        _ => unreachable!(),
    };
    // Separators of every kind and length, so that numbers fall on every
    // place of the blocks; and whitespace after the last number, so that
    // every number lies in a block decoded at once.
    let mut varied = Vec::new();
    for (i, word) in input.split_ascii_whitespace().enumerate() {
        varied.extend(word.bytes());
        let gap: &[u8] = [&b" "[..], b"\n", b"  ", b"\r\n", b"\t", b" \x0b ", b"\x0c"][i % 7];
        varied.extend(gap);
    }
    varied.extend(b" ".repeat(100));
    (varied, output.into_bytes())
}

const PROBLEMS: [&str; 4] = ["hdu1524", "uva11927", "hdu5724", "lightoj1315"];

#[test]
fn samples_on_every_path() {
    for problem in PROBLEMS {
        let input = data(&format!("{problem}.in"));
        let out = same_on_every_path(&[problem], &input);
        assert!(out.status.success(), "{problem}: {out:?}");
        assert_eq!(out.stdout, data(&format!("{problem}.out")), "{problem}");
    }
}

#[test]
fn repeated_samples_on_every_path() {
    for problem in PROBLEMS {
        for copies in [1, 7, 200] {
            let (input, expected) = repeated(problem, copies);
            let out = same_on_every_path(&[problem], &input);
            assert!(out.status.success(), "{problem} x{copies}: {out:?}");
            assert_eq!(out.stdout, expected, "{problem} x{copies}");
        }
    }
}

#[test]
fn floor_on_every_path() {
    // Numbers of 1 to 20 digits with leading zeros, in blocks.
    let mut input = String::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let digits = [1, 2, 3, 4, 1, 2, 5, 8, 12, 20][i % 10];
        let v = x % 10u64.saturating_pow(digits).max(1);
        input += &format!("{v:0w$}{}", [" ", "\n", "  ", "\t"][i % 4], w = (i % 3));
    }
    let out = same_on_every_path(&["floor"], input.as_bytes());
    let sum = input
        .split_ascii_whitespace()
        .map(|w| w.parse::<u64>().unwrap())
        .fold(0u64, u64::wrapping_add);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{} {sum}\n", input.split_ascii_whitespace().count())
    );
}

#[test]
fn errors_at_the_same_place_on_every_path() {
    // A bad byte or a number beyond 64 bits put at many places of a large
    // input: the same error, line and column, on every path.
    for problem in PROBLEMS {
        let (input, _) = repeated(problem, 20);
        let mut seen = 0;
        for at in (0..input.len()).step_by(97) {
            for bad in [&b"x"[..], b"-", b"99999999999999999999999"] {
                let mut broken = input.clone();
                broken.splice(at..at + 1, bad.iter().copied());
                let out = same_on_every_path(&[problem], &broken);
                let err = String::from_utf8(out.stderr).unwrap();
                if !out.status.success() {
                    assert!(err.contains("line "), "{problem}: {err}");
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "{problem}: {seen} errors");
    }
}
