//! Regression tests for the hardening issue (issue 10), through the real
//! binary: valid input never gets an error, no partial line is printed,
//! input bytes echoed in errors are escaped, each cause is printed once,
//! and one exit-status convention (2 for bad input or usage, 1 for the
//! environment).

mod common;

use common::{fails, grundy};

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
                common::KNIGHT_MOVES.contains(&(step.0 as i64, step.1 as i64)),
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
    let opts = lightoj1315::Options { hint: true };
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
    };
    let e = hdu5724::solve(b"1\n1\n1 3\n", &mut out, opts, |_| 1).unwrap_err();
    assert!(e.to_string().contains("inconsistent"), "{e}");
    assert!(out.is_empty());
}
