//! Bad input through the real binary: a one-line error naming what and
//! where, exit status 2, no panic, and the answers of the complete test
//! cases before the error still printed.

use crate::common::fails;

const HDU1524_OK: &str = "2\n1 1\n0\n1 0\n0\n";

#[test]
fn not_a_number() {
    let (out, err) = fails(&["hdu1524"], &format!("{HDU1524_OK}2\n1 1\n0\n1 z\n"));
    assert_eq!(out, "WIN\n");
    assert_eq!(
        err,
        "error: line 9, column 3: expected a chess position, found `z`\n"
    );
    let (_, err) = fails(&["uva11927"], "2 -1\n");
    assert_eq!(
        err,
        "error: line 1, column 3: expected the number of edges m, found `-1`\n"
    );
    let (_, err) = fails(&["hdu5724"], "1\n1\n1 1.5\n");
    assert!(
        err.contains("line 3, column 3: expected a piece's column, found `1.5`"),
        "{err}"
    );
}

#[test]
fn node_out_of_range() {
    let (out, err) = fails(&["hdu1524"], &format!("{HDU1524_OK}2\n1 2\n0\n"));
    assert_eq!(out, "WIN\n");
    assert_eq!(
        err,
        "error: line 7, column 3: node 2 is out of range (nodes are 0..=1)\n"
    );
    let (_, err) = fails(&["hdu1524"], "2\n0\n0\n1 5\n");
    assert!(
        err.contains("line 4, column 3: node 5 is out of range"),
        "{err}"
    );
    let ok = "2 1\n0 1\n1\n0\n";
    let (out, err) = fails(&["uva11927"], &format!("{ok}\n3 1\n0 3\n"));
    assert_eq!(out, "First\n");
    assert!(
        err.contains("line 7, column 3: node 3 is out of range (nodes are 0..=2)"),
        "{err}"
    );
}

#[test]
fn row_position_outside_or_repeated() {
    let ok = "2\n1\n1 19\n";
    let (out, err) = fails(&["hdu5724"], &format!("{ok}1\n2 0 3\n"));
    assert_eq!(out, "YES\n");
    assert!(err.contains("line 5, column 3: position 0 is outside the row (positions are 1..=20)"));
    let (out, err) = fails(&["hdu5724"], &format!("{ok}1\n2 21 3\n"));
    assert_eq!(out, "YES\n");
    assert!(err.contains("position 21 is outside the row"), "{err}");
    let (out, err) = fails(&["hdu5724"], &format!("{ok}1\n3 4 7 4\n"));
    assert_eq!(out, "YES\n");
    assert!(
        err.contains("line 5, column 7: position 4 appears twice in this row"),
        "{err}"
    );
    // A wider board accepts column 21.
    crate::common::assert_grundy()
        .args(["hdu5724", "--width", "30"])
        .write_stdin("1\n1\n1 21\n")
        .assert()
        .success();
}

#[test]
fn knight_coordinate_that_does_not_fit() {
    // Squares below 2^63 are answered (see knight_cli.rs); 2^63 is not.
    let (out, err) = fails(&["lightoj1315"], "2\n1\n1 0\n1\n9223372036854775808 3\n");
    assert_eq!(out, "Case 1: Bob\n");
    assert!(
        err.contains("line 5, column 1: square (9223372036854775808, 3) is out of range"),
        "{err}"
    );
    let (_, err) = fails(&["lightoj1315"], "1\n1\n1 18446744073709551616\n");
    assert!(
        err.contains("line 3, column 3: a knight's y must be at most 9223372036854775807"),
        "{err}"
    );
}

#[test]
fn cycle() {
    let (out, err) = fails(
        &["hdu1524"],
        &format!("{HDU1524_OK}3\n1 1\n1 2\n1 1\n1 0\n0\n"),
    );
    assert_eq!(out, "WIN\n");
    assert_eq!(
        err,
        "error: line 6, column 1: the graph of the test case starting here is not acyclic: \
         graph has a cycle: 1 -> 2 -> 1\n"
    );
    let (_, err) = fails(&["uva11927"], "1 1\n0 0\n1\n0 0\n");
    assert!(err.ends_with("graph has a cycle: 0 -> 0\n"), "{err}");
}

#[test]
fn input_ends_in_the_middle_of_a_test_case() {
    let (out, err) = fails(&["hdu1524"], &format!("{HDU1524_OK}3\n1 1\n"));
    assert_eq!(out, "WIN\n");
    assert!(err.contains("expected the number of out-positions X_i, found the end of the input"));
    let (out, err) = fails(&["uva11927"], "2 1\n0 1\n1\n0\n\n2 1\n0 1\n1\n");
    assert_eq!(out, "First\n");
    assert!(
        err.contains("expected a stone count, found the end of the input"),
        "{err}"
    );
    let (out, err) = fails(&["hdu5724"], "3\n1\n1 19\n1\n1 18\n1\n");
    assert_eq!(out, "YES\nNO\n");
    assert!(
        err.contains("line 7, column 1: expected the number of pieces m in a row"),
        "{err}"
    );
    let (out, err) = fails(&["lightoj1315"], "2\n1\n2 5\n1\n3\n");
    assert_eq!(out, "Case 1: Alice\n");
    assert!(
        err.contains("expected a knight's y, found the end of the input"),
        "{err}"
    );
    let (out, err) = fails(&["hdu1524"], "2\n1 1\n0\n2 0");
    assert_eq!(out, "");
    assert!(
        err.contains("line 4, column 4: expected a chess position"),
        "{err}"
    );
}

#[test]
fn trailing_data_after_the_last_case() {
    let (out, err) = fails(&["hdu5724"], "1\n1\n1 19\n1 19\n");
    assert_eq!(out, "YES\n");
    assert!(
        err.contains("line 4, column 1: unexpected `1` after the last test case"),
        "{err}"
    );
}

#[test]
fn lenient_where_the_judges_are() {
    // No final `0` in HDU 1524, no `0 0` in UVA 11927, more than 10 tokens
    // per query and more than 1000 positions are all accepted.
    let mut big = String::from("1500\n");
    for i in 0..1500 {
        if i == 0 {
            big.push_str("0\n");
        } else {
            big.push_str(&format!("1 {}\n", i - 1));
        }
    }
    // Node i has value i mod 2: eleven tokens on 1 and one on 1499 XOR to 0.
    big.push_str("12 1 1 1 1 1 1 1 1 1 1 1 1499\n1 1499");
    crate::common::assert_grundy()
        .arg("hdu1524")
        .write_stdin(big)
        .assert()
        .success()
        .stdout("LOSE\nWIN\n");
    crate::common::assert_grundy()
        .arg("uva11927")
        .write_stdin("2 1\n0 1\n3000\n1\n")
        .assert()
        .success()
        .stdout("Second\n");
}

#[test]
fn missing_file_is_an_error_not_a_panic() {
    let out = crate::common::assert_grundy()
        .args(["hdu1524", "/no/such/file"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cannot read /no/such/file"), "{err}");
}
