//! Regression tests for the hardening issue (issue 10), through the real
//! binary: valid input never gets an error, no partial line is printed,
//! input bytes echoed in errors are escaped, each cause is printed once,
//! and one exit-status convention (2 for bad input or usage, 1 for the
//! environment).

use crate::common::{fails, grundy};

/// A knight's value through `grundy knight X Y`.
fn knight_value(x: u64, y: u64) -> u8 {
    let out = grundy(&["knight", &x.to_string(), &y.to_string()], "");
    assert!(out.status.success(), "{x} {y}");
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_hint_beyond_2_pow_63_is_answered() {
    const TOP: u64 = (1 << 63) - 1;
    let out = grundy(&["lightoj1315", "--hint"], &format!("1\n1\n2 {TOP}\n"));
    assert!(out.status.success());
    // (2, 2^63 - 1) moves by (-2, 1) to (0, 2^63), whose only move is to
    // (1, 2^63 - 2): its value is the mex of that square's, 0 if that
    // square is not 0, and the hint must reach value 0.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("Case 1: Alice 1 0 {}\n", 1u64 << 63)
    );
    assert_ne!(knight_value(1, TOP - 1), 0);
    // Without --hint, the same answer.
    let out = grundy(&["lightoj1315"], &format!("1\n1\n2 {TOP}\n"));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "Case 1: Alice\n");
    // Every hint from the border is one hyper-knight move away.
    for (x, y) in [(TOP, 5), (TOP, TOP), (TOP - 1, TOP), (3, TOP), (TOP, 2)] {
        let out = grundy(&["lightoj1315", "--hint"], &format!("1\n1\n{x} {y}\n"));
        assert!(out.status.success(), "{x} {y}");
        let text = String::from_utf8(out.stdout).unwrap();
        let words: Vec<&str> = text.split_whitespace().collect();
        if words[2] == "Alice" {
            let (hx, hy): (u64, u64) = (words[4].parse().unwrap(), words[5].parse().unwrap());
            let step = (hx as i128 - x as i128, hy as i128 - y as i128);
            assert!(
                crate::common::KNIGHT_MOVES.contains(&(step.0 as i64, step.1 as i64)),
                "{text}"
            );
        }
    }
}

#[test]
fn inconsistent_values_give_an_error_and_no_partial_line() {
    use sg_core::knight::MoveSet;
    use sg_solve::{InputErrorKind, hdu5724, lightoj1315};
    // Every square but (0, 0) "worth" 1: from (5, 5) no move reaches 0.
    let mut out = Vec::new();
    let opts = lightoj1315::Options {
        hint: true,
        json: false,
    };
    let e = lightoj1315::solve(
        b"2\n1\n0 0\n1\n5 5\n",
        &mut out,
        opts,
        &MoveSet::hyper_knight(),
        |x, y| Ok(u8::from(x + y > 0)),
    )
    .unwrap_err();
    assert!(matches!(e.kind, InputErrorKind::Inconsistent { .. }), "{e}");
    assert_eq!(String::from_utf8(out).unwrap(), "Case 1: Bob\n");
    let mut out = Vec::new();
    let opts = hdu5724::Options {
        width: 20,
        hint: true,
        json: false,
        threads: hdu5724::Threads::Auto,
    };
    let e = hdu5724::solve(b"1\n1\n1 3\n", &mut out, opts, |_| 1).unwrap_err();
    assert!(e.to_string().contains("inconsistent"), "{e}");
    assert!(out.is_empty());
}

#[test]
fn input_bytes_in_errors_are_escaped_and_cut() {
    let out = crate::common::grundy_bytes(&["hdu1524"], b"3\0\x1b[31m\n");
    let err = out.stderr;
    assert_eq!(out.status.code(), Some(2));
    assert!(!err.iter().any(|&b| b < 0x20 && b != b'\n'), "{err:?}");
    assert_eq!(
        String::from_utf8(err).unwrap(),
        "error: line 1, column 1: expected the number of positions N, found `3\\x00\\x1b[31m`\n"
    );
    // Bytes that are not UTF-8, a bidirectional override, and a long token.
    let out = crate::common::grundy_bytes(&["floor"], b"1 \xff\xfe\xe2\x80\xae");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: line 1, column 3: expected an integer, found `\\xff\\xfe\\u{202e}`\n"
    );
    let long = format!("1\n{}", "9".repeat(10_000) + "x");
    let (_, err) = fails(&["hdu1524"], &long);
    assert!(err.len() < 200, "{err}");
    assert!(err.contains(&format!("`{}...`", "9".repeat(40))), "{err}");
    // After the last case: escaped too.
    let (_, err) = fails(&["hdu5724"], "1\n1\n1 1\n\x07\n");
    assert!(
        err.contains("unexpected `\\x07` after the last test case"),
        "{err}"
    );
}

#[test]
fn a_long_cycle_is_shown_by_its_ends() {
    let n = 100_000;
    let mut input = format!("{n} {n}\n");
    for v in 0..n {
        input += &format!("{v} {}\n", (v + 1) % n);
    }
    input += &"0 ".repeat(n);
    let (_, err) = fails(&["uva11927"], &input);
    assert_eq!(
        err,
        "error: line 1, column 1: the graph of the test case starting here is not acyclic: \
         graph has a cycle of 100000 moves: 0 -> 1 -> 2 -> 3 -> 4 -> ... -> 99996 -> 99997 -> \
         99998 -> 99999 -> 0\n"
    );
    // Short cycles as before.
    let (_, err) = fails(&["uva11927"], "2 2\n0 1\n1 0\n0 0\n");
    assert!(err.ends_with("graph has a cycle: 0 -> 1 -> 0\n"), "{err}");
}

#[test]
fn an_empty_graph_has_no_nodes() {
    let (_, err) = fails(&["graph"], "0 0\n1 0\n");
    assert_eq!(
        err,
        "error: line 2, column 3: node 0 is out of range (the graph has no nodes)\n"
    );
    let (_, err) = fails(&["hdu1524"], "0\n1 0\n");
    assert!(
        err.ends_with("node 0 is out of range (the graph has no nodes)\n"),
        "{err}"
    );
}

#[test]
fn one_exit_status_convention() {
    // Bad input, bad arguments, a file that is not there: 2. The
    // environment (a file that fails when read): 1.
    let code_of = |args: &[&str]| grundy(args, "1\n1\n1 1\n").status.code();
    assert_eq!(code_of(&["hdu5724", "--width", "+20"]), Some(2));
    assert_eq!(code_of(&["hdu5724", "--width", "65"]), Some(2));
    assert_eq!(code_of(&["hdu5724", "--max-input", "2"]), Some(2));
    assert_eq!(code_of(&["knight", "1", "2", "--moves", "0,1"]), Some(2));
    assert_eq!(code_of(&["hdu5724", "--bogus"]), Some(2));
    assert_eq!(code_of(&["hdu5724", "/nonexistent/input"]), Some(2));
    #[cfg(target_os = "linux")]
    assert_eq!(code_of(&["hdu5724", "/proc/self/mem"]), Some(1));
    assert_eq!(code_of(&["hdu5724"]), Some(0));
    // A file name is escaped when printed.
    let out = grundy(&["hdu5724", "/nonexistent/\u{1b}[2J"], "");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/nonexistent/\\x1b[2J"), "{err:?}");
}
