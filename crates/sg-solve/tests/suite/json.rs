//! `--json` on every answering subcommand: one JSON object per answer, and
//! the same answers as the judge's text (rebuilt from the JSON, line for
//! line), on the judges' samples and on random inputs.

use crate::common::{SplitMix64, fails, grundy};
use serde_json::Value;
use std::fmt::Write;
use std::path::PathBuf;

fn sample(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/{name}.in"));
    std::fs::read_to_string(path).unwrap()
}

/// Runs `grundy ARGS` on `input` with and without `--json`; returns the
/// text lines and the JSON objects (one per answer: for a one-line answer,
/// one per line).
fn text_and_json(args: &[&str], input: &str) -> (Vec<String>, Vec<Value>) {
    let text = grundy(args, input);
    assert!(text.status.success(), "{args:?}: {text:?}");
    let text: Vec<String> = String::from_utf8(text.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    (text, json_lines(&[args, &["--json"]].concat(), input))
}

/// The JSON objects, one per line, of a successful `grundy ARGS` on `input`.
fn json_lines(args: &[&str], input: &str) -> Vec<Value> {
    let json = grundy(args, input);
    assert!(json.status.success(), "{args:?}: {json:?}");
    String::from_utf8(json.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

/// The move of `answer` as the judge's hint text: its fields in order.
fn move_text(answer: &Value, fields: &[&str]) -> String {
    match answer.get("move") {
        None => String::new(),
        Some(m) => fields.iter().fold(String::new(), |mut s, f| {
            write!(s, " {}", m[f]).unwrap();
            s
        }),
    }
}

/// Checks a subcommand whose JSON has `outcome` (per query).
fn check_queries(args: &[&str], input: &str, with_value: bool) {
    let (text, json) = text_and_json(args, input);
    assert_eq!(text.len(), json.len(), "{args:?}: one object per answer");
    for (line, answer) in text.iter().zip(&json) {
        let outcome = answer["outcome"].as_str().unwrap();
        let rebuilt = format!("{outcome}{}", move_text(answer, &["from", "to"]));
        assert_eq!(&rebuilt, line, "{args:?}");
        if with_value {
            assert_eq!(answer["value"] == 0, outcome == "LOSE", "{answer}");
        }
    }
}

/// Checks a subcommand whose JSON has `case`, `answer` and `value`.
fn check_cases(args: &[&str], input: &str, numbered: bool, fields: &[&str], losing: &str) {
    let (text, json) = text_and_json(args, input);
    assert_eq!(text.len(), json.len(), "{args:?}: one object per answer");
    for (k, (line, answer)) in text.iter().zip(&json).enumerate() {
        assert_eq!(answer["case"], k + 1, "{answer}");
        let word = answer["answer"].as_str().unwrap();
        assert_eq!(answer["value"] == 0, word == losing, "{answer}");
        let prefix = if numbered {
            format!("Case {}: ", k + 1)
        } else {
            String::new()
        };
        let rebuilt = format!("{prefix}{word}{}", move_text(answer, fields));
        assert_eq!(&rebuilt, line, "{args:?}");
    }
}

#[test]
fn samples_in_json_match_the_text() {
    for hint in [&[][..], &["--hint"]] {
        check_queries(&[&["hdu1524"], hint].concat(), &sample("hdu1524"), true);
        check_queries(&[&["graph"], hint].concat(), &sample("graph"), false);
        let args = [&["hdu5724"], hint].concat();
        check_cases(
            &args,
            &sample("hdu5724"),
            false,
            &["row", "from", "to"],
            "NO",
        );
        let args = [&["lightoj1315"], hint].concat();
        check_cases(
            &args,
            &sample("lightoj1315"),
            true,
            &["knight", "x", "y"],
            "Bob",
        );
    }
    check_cases(&["uva11927"], &sample("uva11927"), false, &[], "Second");
}

#[test]
fn random_cases_in_json_match_the_text() {
    let mut rng = SplitMix64::new(0x15_0A);
    for _ in 0..5 {
        let mut rows = String::from("30\n");
        let mut knights = String::from("30\n");
        for _ in 0..30 {
            let n = 1 + rng.below(4);
            writeln!(rows, "{n}").unwrap();
            writeln!(knights, "{n}").unwrap();
            for _ in 0..n {
                let cols: Vec<u64> = (1..=20).filter(|_| rng.below(3) == 0).collect();
                let cols: Vec<String> = cols.iter().map(u64::to_string).collect();
                writeln!(rows, "{} {}", cols.len(), cols.join(" ")).unwrap();
                writeln!(knights, "{} {}", rng.below(3000), rng.below(3000)).unwrap();
            }
        }
        let fields = ["row", "from", "to"];
        check_cases(&["hdu5724", "--hint"], &rows, false, &fields, "NO");
        let fields = ["knight", "x", "y"];
        check_cases(&["lightoj1315", "--hint"], &knights, true, &fields, "Bob");
    }
}

/// The numbers of each line of a text grid.
fn numbers(lines: &[String]) -> Vec<Vec<u64>> {
    lines
        .iter()
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect()
}

#[test]
fn knight_row_and_floor_in_json() {
    let (text, json) = text_and_json(&["knight", "2", "5"], "");
    assert_eq!(text, ["3"]);
    assert_eq!(json[0], serde_json::json!({"x": 2, "y": 5, "value": 3}));
    let (text, json) = text_and_json(&["row", "1", "19"], "");
    assert_eq!(text, ["1"]);
    assert_eq!(
        json[0],
        serde_json::json!({"columns": [1, 19], "width": 20, "value": 1})
    );
    let (text, json) = text_and_json(&["row", "--grid", "--width", "4"], "");
    let rows = numbers(&text);
    assert_eq!(json[0], serde_json::json!({"width": 4, "values": rows}));
    let (text, json) = text_and_json(&["knight", "--grid", "1..4", "2..4"], "");
    let rows = numbers(&text);
    assert_eq!(
        json[0],
        serde_json::json!({"x0": 1, "y0": 2, "values": rows})
    );
    let (text, json) = text_and_json(&["floor"], "1 2\n3\n");
    assert_eq!(text, ["3 6"]);
    assert_eq!(json[0], serde_json::json!({"count": 3, "sum": 6}));
}

#[test]
fn bad_input_in_json_keeps_the_earlier_answers() {
    let (stdout, stderr) = fails(&["hdu5724", "--json"], "2\n1\n1 19\n1\n1 21\n");
    let answer: Value = serde_json::from_str(stdout.trim_end()).unwrap();
    assert_eq!(answer["case"], 1);
    assert_eq!(answer["answer"], "YES");
    assert!(stderr.contains("line 5"), "{stderr}");
}

#[test]
fn tables_in_json() {
    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let mut bytes = sg_tables::embedded_row_bytes().to_vec();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(dir.join("flipped.sgt"), &bytes).unwrap();
    std::fs::write(dir.join("short.sgt"), &bytes[..100]).unwrap();
    for command in ["info", "verify"] {
        // `tables verify` recomputes every table (seconds): memory.rs
        // checks its text form on the compiled-in tables, here only JSON.
        let good = if command == "info" {
            text_and_json(&["tables", command], "").1
        } else {
            json_lines(&["tables", command, "--json"], "")
        };
        assert_eq!(good.len(), 5, "the compiled-in tables");
        for report in &good {
            assert_eq!(report["ok"], true, "{report}");
            assert_eq!(report["format_version"], 1, "{report}");
        }
        assert_eq!(good[0]["kind"], "row");
        assert_eq!(good[0]["payload_len"], 1 << 20);

        let out = grundy(&["tables", command, dir.to_str().unwrap(), "--json"], "");
        assert_eq!(out.status.code(), Some(1), "a corrupt table");
        let reports: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(reports.len(), 2);
        // flipped.sgt: readable header and metadata, wrong checksum.
        assert_eq!(reports[0]["ok"], false);
        assert_eq!(reports[0]["kind"], "row");
        assert!(
            reports[0]["error"].as_str().unwrap().contains("checksum"),
            "{}",
            reports[0]
        );
        // short.sgt: not a table at all.
        assert_eq!(reports[1]["ok"], false);
        assert!(reports[1].get("kind").is_none(), "{}", reports[1]);
    }
}
