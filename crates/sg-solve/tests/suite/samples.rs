//! The judges' samples, byte for byte, through the real binary: by file,
//! by standard input and by `-`, under each subcommand's name and alias.

use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn expected(problem: &str) -> Vec<u8> {
    std::fs::read(data(&format!("{problem}.out"))).unwrap()
}

const PROBLEMS: [(&str, &str); 5] = [
    ("hdu1524", "chess-dag"),
    ("uva11927", "stones"),
    ("hdu5724", "row-jump"),
    ("lightoj1315", "hyper-knight"),
    ("graph", "cyclic"),
];

#[test]
fn samples_by_file_name_and_alias() {
    for (name, alias) in PROBLEMS {
        for cmd in [name, alias] {
            let out = crate::common::assert_grundy()
                .arg(cmd)
                .arg(data(&format!("{name}.in")))
                .output()
                .unwrap();
            assert!(out.status.success(), "{cmd}: {out:?}");
            assert_eq!(out.stdout, expected(name), "{cmd}");
            assert!(out.stderr.is_empty(), "{cmd}");
        }
    }
}

#[test]
fn samples_by_stdin_and_dash() {
    for (name, _) in PROBLEMS {
        let input = std::fs::read(data(&format!("{name}.in"))).unwrap();
        for args in [vec![name], vec![name, "-"]] {
            crate::common::assert_grundy()
                .args(&args)
                .write_stdin(input.clone())
                .assert()
                .success()
                .stdout(expected(name));
        }
    }
}

#[test]
fn samples_with_crlf_tabs_and_no_final_newline() {
    for (name, _) in PROBLEMS {
        let input = std::fs::read_to_string(data(&format!("{name}.in"))).unwrap();
        let messy = input.replace('\n', "\r\n\t ").replace(' ', " \t ");
        let messy = messy.trim_end().to_string();
        crate::common::assert_grundy()
            .arg(name)
            .write_stdin(messy)
            .assert()
            .success()
            .stdout(expected(name));
    }
}

#[test]
fn hints_are_printed() {
    let hint = |name: &str| {
        let out = crate::common::assert_grundy()
            .args([name, "--hint"])
            .arg(data(&format!("{name}.in")))
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    // The hints' correctness is checked against the definition in
    // `definitional.rs`; here, their shape on the samples.
    let lines: Vec<String> = hint("hdu1524").lines().map(String::from).collect();
    let plain: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(plain, ["WIN", "WIN", "WIN", "LOSE", "WIN"]);
    assert!(
        lines
            .iter()
            .all(|l| l == "LOSE" || l.split(' ').count() == 3)
    );
    // Row {19} and row {18}: only the piece on 19 can reach value 0, to 20.
    assert_eq!(hint("hdu5724"), "NO\nYES 1 19 20\n");
    // Node 1 can move to 0 or 2, both of value 0: 2 was labelled first (0
    // would let the opponent go back to 1 forever).
    assert_eq!(
        hint("graph"),
        "LOSE\nWIN 1 2\nWIN 3 2\nDRAW\nDRAW\nDRAW\nLOSE\n"
    );
    // Knight 1 on (2, 5) has the moves (0, 4), (0, 6), (0, 4), (1, 3), (1, 2), (3, 3).
    let knight = hint("lightoj1315");
    let moved = knight
        .strip_prefix("Case 1: Bob\nCase 2: Alice 1 ")
        .unwrap();
    assert!(
        ["0 4\n", "0 6\n", "1 3\n", "1 2\n", "3 3\n"].contains(&moved),
        "{knight}"
    );
}

#[test]
fn help_shows_the_input_format() {
    for (name, _) in PROBLEMS {
        let out = crate::common::assert_grundy()
            .args([name, "--help"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Input"), "{name}: {text}");
        assert!(text.contains("Example"), "{name}: {text}");
    }
}
