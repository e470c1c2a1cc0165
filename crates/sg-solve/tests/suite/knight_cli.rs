//! `grundy knight` and `grundy lightoj1315` on squares anywhere below 2^63,
//! through the certified description, against the definition where it can
//! be computed and against the description's own recurrence beyond.

use sg_core::knight::{MoveSet, TriangleTable};

/// (exit status, stdout, stderr) of `grundy ARGS` on `input`.
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let out = crate::common::grundy(args, input);
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn value(args: &[&str]) -> u8 {
    let (code, out, err) = run(args, "");
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out.trim().parse().unwrap()
}

#[test]
fn knight_matches_the_definition() {
    let mut t = TriangleTable::new(MoveSet::hyper_knight(), 1000);
    for (x, y) in [(0, 0), (1, 0), (2, 5), (3, 5), (100, 37), (499, 500)] {
        let want = t.value(x, y).unwrap();
        assert_eq!(value(&["knight", &x.to_string(), &y.to_string()]), want);
        let online = value(&["knight", &x.to_string(), &y.to_string(), "--online"]);
        assert_eq!(online, want);
    }
    let chess = MoveSet::new(&[(-2, -1), (-1, -2), (-2, 1), (1, -2)]).unwrap();
    let mut t = TriangleTable::new(chess, 1000);
    for (x, y) in [(0, 0), (3, 4), (10, 20), (333, 100)] {
        let args = [
            "knight",
            &x.to_string(),
            &y.to_string(),
            "--moves",
            "-2,-1 -1,-2 -2,1 1,-2",
        ];
        assert_eq!(value(&args), t.value(x, y).unwrap());
    }
}

#[test]
fn knight_answers_huge_squares() {
    let p = sg_tables::embedded_knight_pattern().clone();
    let e = 1u64 << 62;
    for (x, y) in [
        (e, e),
        (e + 1, e),
        (2 * e - 1, 5),
        (3, 2 * e - 1),
        (2 * e - 1, 2 * e - 1),
    ] {
        assert_eq!(
            value(&["knight", &x.to_string(), &y.to_string()]),
            p.value(x, y)
        );
    }
    // 2^63 is out of range: a usage error.
    let (code, _, err) = run(&["knight", "9223372036854775808", "0"], "");
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn knight_rejects_bad_moves_quoting_the_offending_text() {
    for (moves, found) in [
        ("1,1", "does not lower x + y"),
        (
            "-1",
            "column 3: expected a comma between dx and dy, found the end",
        ),
        ("a,b", "column 1: expected a step dx,dy, found \"a\""),
        (
            "-2, -1 -1;-2",
            "column 10: expected a comma between dx and dy, found \";-2\"",
        ),
        ("", "no step"),
        ("+1,-2", "column 1: expected a step dx,dy, found \"+1\""),
        (
            "-1,+0",
            "column 4: expected dy after the comma, found \"+0\"",
        ),
    ] {
        let (code, _, err) = run(&["knight", "1", "2", "--moves", moves], "");
        assert_eq!(code, Some(2), "{moves}: {err}");
        assert!(err.starts_with("error: invalid value"), "{err}");
        assert!(err.contains("'--moves <STEPS>'"), "{err}");
        assert!(err.contains(found), "{moves}: {err}");
    }
}

#[test]
fn moves_accept_spaces_after_commas() {
    let chess = MoveSet::new(&[(-2, -1), (-1, -2), (-2, 1), (1, -2)]).unwrap();
    let mut t = TriangleTable::new(chess, 100);
    let args = [
        "knight",
        "10",
        "20",
        "--moves",
        "-2, -1  -1 ,-2 -2,\t1 1, -2",
    ];
    assert_eq!(value(&args), t.value(10, 20).unwrap());
}

/// A move set for which the search finds no certificate.
const UNCERTIFIED: &str = "-3,2 2,-3 -1,-1";

#[test]
fn without_a_certificate_small_squares_come_from_the_definition() {
    let moves = MoveSet::new(&[(-3, 2), (2, -3), (-1, -1)]).unwrap();
    let mut t = TriangleTable::new(moves, 1000);
    for (x, y) in [(0, 0), (40, 30), (333, 100), (7, 900)] {
        let args = [
            "knight",
            &x.to_string(),
            &y.to_string(),
            "--moves",
            UNCERTIFIED,
        ];
        let (code, out, err) = run(&args, "");
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out.trim().parse::<u8>().unwrap(), t.value(x, y).unwrap());
        assert!(err.starts_with("note: no certificate found"), "{err}");
    }
    // Beyond the limit of the definition: an error naming the limit, the
    // user's to fix (exit status 2).
    let limit = TriangleTable::DEFAULT_MAX_SUM;
    let (code, out, err) = run(
        &["knight", &limit.to_string(), "1", "--moves", UNCERTIFIED],
        "",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty());
    assert!(err.contains("no certificate found"), "{err}");
    assert!(err.contains(&format!("beyond {limit}")), "{err}");
}

#[test]
fn coordinates_are_digits_as_on_standard_input() {
    // `+5` is refused on the command line as it is in a judge input.
    for bad in ["+5", "-0", " 5", "5 ", "0x5", ""] {
        let (code, _, err) = run(&["knight", bad, "3"], "");
        assert_eq!(code, Some(2), "{bad:?}: {err}");
    }
    let (_, _, err) = run(&["lightoj1315"], "1\n1\n+5 3\n");
    assert!(err.contains("expected a knight's x, found `+5`"), "{err}");
    let (code, out, _) = run(&["knight", "5", "3"], "");
    assert_eq!((code, out.as_str()), (Some(0), "1\n"));
}

#[test]
fn lightoj1315_hints_on_huge_squares() {
    let p = sg_tables::embedded_knight_pattern().clone();
    let m = MoveSet::hyper_knight();
    let knights = [
        (99_999_999_999u64, 3u64),
        (1 << 62, (1 << 62) + 1),
        (5, (1 << 63) - 1),
    ];
    let mut input = format!("1\n{}\n", knights.len());
    for (x, y) in knights {
        input += &format!("{x} {y}\n");
    }
    let (code, out, err) = run(&["lightoj1315", "--hint"], &input);
    assert_eq!(code, Some(0), "{err}");
    let sum = knights.iter().fold(0, |s, &(x, y)| s ^ p.value(x, y));
    let words: Vec<&str> = out.split_whitespace().collect();
    if sum == 0 {
        assert_eq!(words, ["Case", "1:", "Bob"]);
        return;
    }
    assert_eq!(&words[..3], ["Case", "1:", "Alice"]);
    let k: usize = words[3].parse().unwrap();
    let to: (u64, u64) = (words[4].parse().unwrap(), words[5].parse().unwrap());
    let (x, y) = knights[k - 1];
    assert!(m.moves_from(x, y).any(|q| q == to));
    assert_eq!(p.value(to.0, to.1), p.value(x, y) ^ sum);
}
