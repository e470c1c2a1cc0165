//! `grundy octal --misere` and `sg_octal::misere` against the definition of
//! misère play: a plain search over sums of heaps (the player who cannot
//! move wins), written here from the codes' digits, memoised on sorted
//! sums; every sum of total at most 20 for more than 40 codes through the
//! library, samples through the binary; the summary, `--json`, and the
//! options that make no sense with `--misere`.

use crate::common::{SplitMix64, fails, grundy};
use proptest::prelude::*;
use serde_json::Value;
use sg_octal::Rules;
use sg_octal::misere::{Ended, Limits, MisereQuotient};
use sg_octal::testing::{MisereDefinition, octal_options};

/// Every sum of heaps of total at most `total`.
fn sums(total: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut at = 0;
    while at < out.len() {
        let sum: Vec<u64> = out[at].clone();
        let used: u64 = sum.iter().sum();
        let top = sum.last().copied().unwrap_or(total);
        for h in 1..=top.min(total - used) {
            let mut next = sum.clone();
            next.push(h);
            out.push(next);
        }
        at += 1;
    }
    out
}

/// A random code: one to four digits, now and then hexadecimal or `4.`.
fn random_code(rng: &mut SplitMix64) -> String {
    let hex = rng.below(8) == 0;
    let mut code = String::from(if rng.below(6) == 0 { "4." } else { "0." });
    for _ in 0..1 + rng.below(4) {
        let d = rng.below(if hex { 16 } else { 8 }) as u32;
        code.push(char::from_digit(d, 16).unwrap());
    }
    code
}

/// Checks every sum of total at most `total` that the quotient of `code`
/// covers: its outcome, and its move to a lost sum. The construction
/// gives a heap up after 16 refuted candidates (through its watch), so
/// that wild games end soon: the heaps covered are checked all the same.
fn library_agrees(code: &str, total: u64) -> MisereQuotient {
    let rules = Rules::parse(code).unwrap();
    let q = MisereQuotient::compute_watched(
        &rules,
        Limits {
            to: total,
            max_order: 256,
        },
        &mut |p| {
            if p.candidates > 16 {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        },
    )
    .unwrap();
    let mut definition = MisereDefinition::new(Rules::parse(code).unwrap().digits().unwrap());
    for sum in sums(total) {
        let Ok(lost) = q.is_lost(&sum) else {
            // Beyond the heaps covered (a limit stopped the quotient).
            assert!(sum.iter().any(|&h| h > q.computed_to()), "{code} {sum:?}");
            continue;
        };
        assert_eq!(lost, definition.lost(&sum), "{code} {sum:?}");
        match q.winning_move(&sum).unwrap() {
            Some(m) => {
                assert!(!lost, "{code} {sum:?}");
                let mut after = sum.clone();
                let heap = after.remove(m.heap);
                assert!(
                    octal_options(&definition.digits, heap).contains(&m.leaves),
                    "{code} {sum:?}"
                );
                after.extend(&m.leaves);
                assert!(definition.lost(&after), "{code} {sum:?}: {m:?}");
            }
            // Lost, or no move at all (won by the player who cannot move).
            None => assert!(
                lost || sum
                    .iter()
                    .all(|&h| octal_options(&definition.digits, h).is_empty())
            ),
        }
    }
    q
}

const CLASSICS: [&str; 18] = [
    "0.07", "0.77", "0.137", "0.75", "0.31", "0.51", "4.7", "0.123", "0.3122", "0.15", "0.6",
    "0.35", "0.52", "0.71", "0.4", "0.f", "4.07", "0.3333",
];

#[test]
fn library_agrees_with_the_definition_on_forty_codes() {
    let mut codes: Vec<String> = CLASSICS.iter().map(|c| c.to_string()).collect();
    let mut rng = SplitMix64::new(0x4d15_e4e0);
    while codes.len() < 44 {
        codes.push(random_code(&mut rng));
    }
    for code in &codes {
        library_agrees(code, 20);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_codes_agree(digits in proptest::collection::vec(0u8..8, 1..5), split in any::<bool>()) {
        let code: String = format!(
            "{}.{}",
            if split { 4 } else { 0 },
            digits.iter().map(|d| char::from(b'0' + d)).collect::<String>()
        );
        library_agrees(&code, 14);
    }
}

fn run_ok(args: &[&str]) -> String {
    let out = grundy(args, "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn json(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    let text = run_ok(&args);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn the_binary_agrees_with_the_definition_on_samples() {
    let mut rng = SplitMix64::new(0x4d15_e4e1);
    for code in [
        "0.75", "0.77", "0.07", "0.31", "0.123", "0.3122", "4.7", "0.6",
    ] {
        let mut definition = MisereDefinition::new(Rules::parse(code).unwrap().digits().unwrap());
        // The heaps the quotient covers (0.3122 stops at heap 6).
        let covered = MisereQuotient::compute(
            &Rules::parse(code).unwrap(),
            Limits {
                to: 7,
                max_order: 64,
            },
        )
        .unwrap()
        .computed_to()
        .min(7);
        for _ in 0..12 {
            let count = 1 + rng.below(4);
            let sum: Vec<u64> = (0..count).map(|_| 1 + rng.below(covered)).collect();
            let mut args: Vec<String> = [
                "octal",
                code,
                "--misere",
                "--max-order",
                "64",
                "--hint",
                "--heaps",
            ]
            .map(String::from)
            .to_vec();
            args.extend(sum.iter().map(u64::to_string));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let answer = json(&args);
            let lost = definition.lost(&sum);
            assert_eq!(
                answer["outcome"],
                if lost { "LOSE" } else { "WIN" },
                "{code} {sum:?}"
            );
            assert_eq!(answer["misere"], true);
            if let Some(m) = answer.get("move").filter(|m| !m.is_null()) {
                let heap = m["heap"].as_u64().unwrap() as usize - 1;
                let leaves: Vec<u64> = m["leaves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect();
                assert_eq!(m["size"].as_u64().unwrap(), sum[heap]);
                assert_eq!(
                    m["take"].as_u64().unwrap(),
                    sum[heap] - leaves.iter().sum::<u64>()
                );
                let mut after = sum.clone();
                after.remove(heap);
                after.extend(leaves);
                assert!(definition.lost(&after), "{code} {sum:?} {m}");
            }
            // The text says the same.
            let text = run_ok(&args);
            assert!(
                text.starts_with(if lost { "LOSE\n" } else { "WIN\n" }),
                "{text}"
            );
        }
    }
}

#[test]
fn summary_of_0_75_is_plambecks_quotient() {
    let text = run_ok(&["octal", "0.75", "--misere"]);
    for line in [
        "game            0.75 (misère play)",
        "order           8",
        "P-portion       2: a, b^2",
        "presentation    <a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b>",
        "preperiod       8",
        "period          2",
        "certified       yes",
        "tame            no (wild)",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    let j = json(&["octal", "0.75", "--misere"]);
    let mut keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "certified",
            "code",
            "computed_to",
            "generator_heaps",
            "generators",
            "max_order",
            "misere",
            "order",
            "p_portion",
            "period",
            "preperiod",
            "presentation",
            "pretending",
            "relations",
            "stopped",
            "tame"
        ]
    );
    assert_eq!(j["order"], 8);
    assert_eq!(j["p_portion"], serde_json::json!(["a", "b^2"]));
    assert_eq!(j["generator_heaps"], serde_json::json!([1, 2, 5]));
    // The preperiod and one period.
    assert_eq!(j["pretending"].as_array().unwrap().len(), 10);
    assert_eq!(j["certified"], true);
}

#[test]
fn misere_nim_says_it_is_tame() {
    let text = run_ok(&["octal", "--subtract", "1,2,3", "--misere", "--to", "3"]);
    assert!(text.contains("order           6"), "{text}");
    assert!(text.contains("tame            yes: the quotient of misère Nim with heaps of at most 2 among heaps 0..=3"), "{text}");
    assert!(run_ok(&["octal", "0.0", "--misere"]).contains("yes: trivial"));
}

#[test]
fn huge_heaps_through_a_certified_period() {
    let max = ((1u64 << 63) - 1).to_string();
    let answer = json(&[
        "octal", "0.77", "--misere", "--heaps", &max, "5", &max, "--hint",
    ]);
    let m = &answer["move"];
    if answer["outcome"] == "WIN" {
        assert!(m["leaves"].as_array().unwrap().len() <= 2, "{answer}");
    }
    // Beyond 2^63: the usual number error.
    let out = grundy(
        &[
            "octal",
            "0.77",
            "--misere",
            "--heaps",
            "9223372036854775808",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    // An uncertified game: the heaps it covers only.
    let (_, err) = fails(
        &[
            "octal",
            "0.3122",
            "--misere",
            "--max-order",
            "256",
            "--heaps",
            &max,
        ],
        "",
    );
    assert!(
        err.contains("is beyond the heaps the misère quotient of 0.3122 covers"),
        "{err}"
    );
    assert!(err.contains("raise --max-order"), "{err}");
    // A heap beyond --to in a sum the search settles: answered, and said.
    let out = grundy(
        &[
            "octal", "0.6", "--misere", "--to", "10", "--heaps", "5", "12",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("(heap 12 is beyond them;"), "{err}");
}

/// Sums with a heap the quotient does not reach (its construction stalls
/// there: the games of the report), answered by a search of the sum at
/// once, the answer and the move checked against the definition, the
/// way of answering said on standard error and in `"answered_by"`.
#[test]
fn small_sums_beyond_the_quotient_are_searched() {
    for (code, heaps) in [
        ("0.35", &[1, 1, 2, 14][..]),
        ("0.16", &[18]),
        ("0.545", &[2, 15]),
        ("0.446", &[12]),
        ("0.67", &[3, 14]),
        ("0.07", &[3, 7, 40]),
    ] {
        let mut definition = MisereDefinition::new(Rules::parse(code).unwrap().digits().unwrap());
        let lost = definition.lost(heaps);
        let words: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let args: Vec<&str> = ["octal", code, "--misere", "--hint", "--json", "--heaps"]
            .into_iter()
            .chain(words.iter().map(String::as_str))
            .collect();
        let out = grundy(&args, "");
        assert_eq!(out.status.code(), Some(0), "{code} {heaps:?}: {out:?}");
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("answered by a search of the sum"), "{err}");
        assert_eq!(answer["answered_by"], "search", "{answer}");
        assert_eq!(
            answer["outcome"],
            if lost { "LOSE" } else { "WIN" },
            "{code} {heaps:?}"
        );
        if !lost {
            let m = &answer["move"];
            let i = m["heap"].as_u64().unwrap() as usize - 1;
            let leaves: Vec<u64> = serde_json::from_value(m["leaves"].clone()).unwrap();
            assert!(
                octal_options(&definition.digits, heaps[i]).contains(&leaves),
                "{answer}"
            );
            let mut after = heaps.to_vec();
            after.remove(i);
            after.extend(&leaves);
            assert!(definition.lost(&after), "{code} {heaps:?}: {answer}");
        }
    }
    // With --to, the quotient is built as asked and a heap beyond it is
    // searched over it.
    let answer = json(&[
        "octal", "0.35", "--misere", "--to", "9", "--heaps", "1", "1", "2", "14",
    ]);
    assert_eq!(
        (
            answer["answered_by"].as_str(),
            answer["computed_to"].as_u64()
        ),
        (Some("search"), Some(9))
    );
    // A sum the quotient covers keeps its element.
    let answer = json(&["octal", "0.07", "--misere", "--heaps", "3", "7"]);
    assert_eq!(answer["answered_by"], "quotient");
    assert!(answer["element"].is_string(), "{answer}");
}

#[test]
fn empty_heaps_long_codes_and_large_subtractions() {
    // Heap 0, and the quotient of heap 0 alone (trivial).
    assert!(
        run_ok(&["octal", "0.77", "--misere", "--heaps", "0", "--hint"])
            .starts_with("WIN\nmove: none")
    );
    let j = json(&["octal", "0.77", "--misere", "--to", "0"]);
    assert_eq!(
        (j["order"].as_u64(), j["computed_to"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(j["p_portion"], serde_json::json!([]));
    // The longest code: Nim-like, tame, stopped by the order limit.
    let long = format!("0.{}", "7".repeat(1024));
    let j = json(&["octal", &long, "--misere", "--max-order", "64"]);
    assert_eq!(j["stopped"]["heap"].as_u64(), Some(32), "{j}");
    assert_eq!(j["order"].as_u64(), Some(34));
    assert_eq!(j["tame"], true);
    // The largest subtraction: period 2048, certified.
    let j = json(&["octal", "--subtract", "1024", "--misere"]);
    assert_eq!(
        (j["order"].as_u64(), j["period"].as_u64()),
        (Some(2), Some(2048))
    );
    assert_eq!(j["certified"], true);
}

#[test]
fn a_sum_without_moves_is_won_without_a_move() {
    // Heaps of 1 have no move in Dawson's Kayles: the player to move
    // cannot move, and wins.
    assert_eq!(
        run_ok(&["octal", "0.07", "--misere", "--heaps", "1", "1", "--hint"]),
        "WIN\nmove: none: no move is left, and in misère play the player who cannot move wins\n"
    );
    let answer = json(&["octal", "0.07", "--misere", "--heaps", "1", "--hint"]);
    assert_eq!(answer["outcome"], "WIN");
    assert_eq!(answer.get("move"), Some(&serde_json::Value::Null));
}

#[test]
fn the_order_limit_stops_with_what_is_exact() {
    let text = run_ok(&["octal", "0.77", "--misere", "--max-order", "6"]);
    assert!(text.contains("stopped         at heap "), "{text}");
    assert!(
        text.contains("more than the order limit 6 (--max-order"),
        "{text}"
    );
    let j = json(&["octal", "0.77", "--misere", "--max-order", "6"]);
    let last = j["computed_to"].as_u64().unwrap();
    assert_eq!(j["stopped"]["heap"].as_u64().unwrap(), last + 1);
    assert!(j["order"].as_u64().unwrap() <= 6);
    // The library agrees, and says why.
    let q = MisereQuotient::compute(
        &Rules::parse("0.77").unwrap(),
        Limits {
            to: 100,
            max_order: 6,
        },
    )
    .unwrap();
    assert!(matches!(q.ended(), Ended::Stopped { .. }));
    assert_eq!(q.computed_to(), last);
    // A limit of 1 holds only the trivial quotient: heap 0; "1 element".
    let j = json(&["octal", "0.77", "--misere", "--max-order", "1"]);
    assert_eq!(
        (j["computed_to"].as_u64(), j["order"].as_u64()),
        (Some(0), Some(1))
    );
    let text = run_ok(&["octal", "0.77", "--misere", "--max-order", "1"]);
    assert!(
        text.contains("more than the order limit 1 (--max-order"),
        "{text}"
    );
}

/// A sum's element is named in the quotient the summary of the same
/// options prints (built to --to when given, not only to the largest
/// heap), and the answer carries that quotient's presentation and last
/// heap, so that the name means one thing.
#[test]
fn a_sums_element_is_named_as_the_summary_names_it() {
    for (to, heaps) in [("28", ["15"]), ("30", ["27"]), ("25", ["9"])] {
        let summary = json(&["octal", "0.57", "--misere", "--to", to]);
        for heap in heaps {
            let answer = json(&["octal", "0.57", "--misere", "--to", to, "--heaps", heap]);
            let h: usize = heap.parse().unwrap();
            assert_eq!(
                answer["element"], summary["pretending"][h],
                "--to {to} heap {heap}"
            );
            assert_eq!(answer["presentation"], summary["presentation"]);
            assert_eq!(answer["computed_to"], summary["computed_to"]);
        }
    }
    // Without --to: the quotient of the heaps to the largest one.
    let answer = json(&["octal", "0.57", "--misere", "--heaps", "15"]);
    let summary = json(&["octal", "0.57", "--misere", "--to", "15"]);
    assert_eq!(answer["element"], summary["pretending"][15]);
    assert_eq!(answer["presentation"], summary["presentation"]);
    assert_eq!(answer["computed_to"], 15);
}

#[test]
fn options_that_make_no_sense_with_misere_are_refused() {
    for (extra, expected) in [
        (
            &["--values"][..],
            "--values prints normal-play Grundy values",
        ),
        (&["--online"], "--online skips the normal-play catalogue"),
        (
            &["--threads", "2"],
            "--threads: the misère construction runs on one thread",
        ),
    ] {
        let mut args = vec!["octal", "0.77", "--misere"];
        args.extend(extra);
        let (out, err) = fails(&args, "");
        assert!(out.is_empty());
        assert!(
            err.contains(expected) && err.contains("cannot be used with --misere"),
            "{err}"
        );
    }
    let (_, err) = fails(
        &["octal", "--resume", "x.sgt", "--misere", "--trust-resume"],
        "",
    );
    assert!(
        err.contains("--trust-resume: a stored misère quotient is always checked"),
        "{err}"
    );
    let (_, err) = fails(&["octal", "--resume", "no such file.sgt", "--misere"], "");
    assert!(
        err.starts_with("error: --resume no such file.sgt: No such file"),
        "{err}"
    );
    let (_, err) = fails(&["octal", "0.77", "--max-order", "8"], "");
    assert!(err.contains("it needs --misere"), "{err}");
    for bad in ["0", "4097", "99999999999999999999999", "-1", "+8", "x"] {
        let out = grundy(&["octal", "0.77", "--misere", "--max-order", bad], "");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{err}");
    }
    let (_, err) = fails(&["octal", "0.7z", "--misere"], "");
    assert!(err.contains("bad code"), "{err}");
    let (_, err) = fails(&["octal", "--subtract", "1,0", "--misere"], "");
    assert!(err.contains("--subtract"), "{err}");
}

#[test]
fn an_uncertified_stretch_is_not_called_aperiodic() {
    // 0.77's pretending function repeats with period 12 from heap 71, but
    // heaps 0..=100 are too few for the periodicity theorem: no period is
    // claimed, and none denied.
    let text = run_ok(&["octal", "0.77", "--misere", "--to", "100"]);
    assert!(
        text.contains("period          none certified up to heap 100\n"),
        "{text}"
    );
    assert!(!text.contains("not periodic"), "{text}");
    let j = json(&["octal", "0.77", "--misere", "--to", "100"]);
    assert_eq!(
        (j["period"].is_null(), j["certified"].as_bool()),
        (true, Some(false))
    );
}
