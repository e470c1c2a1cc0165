//! `grundy octal` through the real binary: the summary, `--json`,
//! `--values` through the period, `--heaps`/`--hint` against values
//! computed by the definition, bad codes, `--out` then `--resume`, and the
//! compiled-in catalogue against the engine.

use crate::common::{SplitMix64, fails, grundy};
use serde_json::Value;
use sg_octal::{Rules, Sequence, grundy_by_definition};
use sg_tables::format::{Game, Metadata, encode};

fn run_ok(args: &[&str]) -> String {
    let out = grundy(args, "");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{args:?}: {stdout} {stderr}");
    stdout
}

fn json(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    let text = run_ok(&args);
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn summary_of_kayles() {
    let text = run_ok(&["octal", "0.77"]);
    for line in [
        "game            0.77",
        "preperiod       71",
        "period          12",
        "certified       yes",
        "largest value   8",
        "rare mask       15",
        "rare values     9",
        "last rare heap  70",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    assert!(text.lines().count() <= 24, "one screen");
    let officers = run_ok(&["octal", ".6", "--to", "2000"]);
    assert!(
        officers.contains("period          none up to heap 2000"),
        "{officers}"
    );
    assert!(officers.contains("certified       no"), "{officers}");
}

#[test]
fn json_has_exactly_the_keys() {
    let keys = [
        "code",
        "computed_to",
        "preperiod",
        "period",
        "certified",
        "max_value",
        "rare_mask",
        "rare_count",
        "last_rare",
        "stopped",
    ];
    let kayles = json(&["octal", "0.77"]);
    let object = kayles.as_object().unwrap();
    assert_eq!(object.len(), keys.len());
    assert!(keys.iter().all(|k| object.contains_key(*k)));
    assert_eq!(kayles["code"], "0.77");
    assert_eq!(kayles["preperiod"], 71);
    assert_eq!(kayles["period"], 12);
    assert_eq!(kayles["certified"], true);
    assert_eq!(kayles["stopped"], Value::Null);
    let officers = json(&["octal", ".6", "--to", "3000"]);
    assert_eq!(officers["certified"], false);
    assert_eq!(officers["preperiod"], Value::Null);
    assert_eq!(officers["period"], Value::Null);
    assert_eq!(officers["computed_to"], 3000);
    let values = grundy_by_definition(&Rules::parse("0.6").unwrap(), 3000).unwrap();
    assert_eq!(officers["max_value"], *values.iter().max().unwrap());
    // Grundy's game: no periodicity theorem, never certified.
    let grundys = json(&["octal", "grundys-game", "--to", "500"]);
    assert_eq!(grundys["certified"], false);
    assert_eq!(grundys["code"], "grundys-game");
}

#[test]
fn values_through_the_period_equal_the_definition() {
    for (args, code) in [
        (vec!["0.77"], "0.77"),
        (vec!["0.07", "--online"], "0.07"),
        (vec!["--subtract", "1,3,4"], "0.3033"),
        (vec!["4.007", "--to", "300"], "4.007"),
    ] {
        let mut all = vec!["octal"];
        all.extend(&args);
        if !args.contains(&"--to") {
            all.extend(["--to", "1500"]);
        }
        all.push("--values");
        let text = run_ok(&all);
        let printed: Vec<u16> = text.lines().map(|l| l.parse().unwrap()).collect();
        let expected =
            grundy_by_definition(&Rules::parse(code).unwrap(), printed.len() - 1).unwrap();
        assert_eq!(printed, expected, "{args:?}");
        assert!(printed.len() == 1501 || printed.len() == 301, "{args:?}");
    }
}

/// Whether `leaves` is a move of `rules` in a heap of `heap` taking `take`.
fn is_move(rules: &Rules, heap: u64, take: u64, leaves: &[u64]) -> bool {
    let digits = rules.digits().unwrap();
    let Some(&digit) = digits.get(take as usize) else {
        return false;
    };
    let bit = [1, 2, 4, 8][leaves.len()];
    digit & bit != 0 && leaves.iter().all(|&h| h > 0) && leaves.iter().sum::<u64>() + take == heap
}

#[test]
fn heaps_and_hints_agree_with_the_definition() {
    let mut rng = SplitMix64::new(9);
    for code in ["0.77", "0.07", "0.6", "4.007", "0.3f"] {
        let rules = Rules::parse(code).unwrap();
        let values = grundy_by_definition(&rules, 400).unwrap();
        for _ in 0..12 {
            let count = 1 + rng.below(4);
            let heaps: Vec<u64> = (0..count).map(|_| rng.below(400)).collect();
            let text: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let mut args = vec!["octal", code, "--online", "--hint", "--heaps"];
            args.extend(text.iter().map(String::as_str));
            let out = run_ok(&args);
            let total = heaps.iter().fold(0, |x, &h| x ^ values[h as usize]);
            let mut lines = out.lines();
            assert_eq!(lines.next(), Some(if total == 0 { "LOSE" } else { "WIN" }));
            // The same answer as JSON, the move structured.
            let answer = json(&args);
            assert_eq!(answer["value"], u64::from(total), "{code} {heaps:?}");
            if total == 0 {
                assert_eq!(answer["outcome"], "LOSE");
                assert!(answer.get("move").is_none(), "{answer}");
                continue;
            }
            assert!(lines.next().unwrap().starts_with("move: in the "), "{out}");
            assert_eq!(answer["outcome"], "WIN");
            let hint = &answer["move"];
            let index = hint["heap"].as_u64().unwrap() as usize - 1;
            assert_eq!(hint["size"], heaps[index], "{answer}");
            let take = hint["take"].as_u64().unwrap();
            let leaves: Vec<u64> = hint["leaves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            assert!(
                is_move(&rules, heaps[index], take, &leaves),
                "{code}: {hint}"
            );
            let mut after = heaps.clone();
            after.remove(index);
            after.extend(&leaves);
            let x = after.iter().fold(0, |x, &h| x ^ values[h as usize]);
            assert_eq!(x, 0, "{code} {heaps:?}: {hint}");
        }
    }
}

/// The hint says the move as a player would, for every kind of move: take
/// a whole heap, take and leave one heap, take and split the rest into two
/// or three, split without taking; heaps counted as ordinals.
#[test]
fn hints_read_as_a_player_would_say_them() {
    let mut twelve = vec!["0"; 11];
    twelve.push("3");
    let mut twenty_two = vec!["0"; 21];
    twenty_two.push("3");
    for (code, heaps, said) in [
        (
            "0.1",
            vec!["1"],
            "in the first heap (1 token), take the token",
        ),
        (
            "0.001",
            vec!["3"],
            "in the first heap (3 tokens), take all 3",
        ),
        (
            "0.77",
            vec!["4611686018427387904", "5"],
            "in the second heap (5 tokens), take 1 and leave 4",
        ),
        (
            "0.137",
            vec!["10", "20", "30"],
            "in the third heap (30 tokens), take 3 and split the rest into 2 and 25",
        ),
        (
            "0.8",
            vec!["7"],
            "in the first heap (7 tokens), take 1 and split the rest into 1, 2 and 3",
        ),
        (
            "4.007",
            vec!["10"],
            "in the first heap (10 tokens), split it into 5 and 5",
        ),
        (
            "0.77",
            twelve,
            "in the 12th heap (3 tokens), take 1 and split the rest into 1 and 1",
        ),
        (
            "0.77",
            twenty_two,
            "in the 22nd heap (3 tokens), take 1 and split the rest into 1 and 1",
        ),
    ] {
        let mut args = vec!["octal", code, "--hint", "--heaps"];
        args.extend(&heaps);
        assert_eq!(
            run_ok(&args),
            format!("WIN\nmove: {said}\n"),
            "{code} {heaps:?}"
        );
    }
}

#[test]
fn huge_heaps_through_the_period() {
    let values = grundy_by_definition(&Rules::parse("0.77").unwrap(), 200).unwrap();
    let g = |h: u64| {
        if h < 71 {
            values[h as usize]
        } else {
            values[(71 + (h - 71) % 12) as usize]
        }
    };
    let big = (1u64 << 63) - 1;
    for heaps in [[big, big - 5], [big, 3], [1 << 62, 1 << 40]] {
        let out = run_ok(&[
            "octal",
            "0.77",
            "--heaps",
            &heaps[0].to_string(),
            &heaps[1].to_string(),
        ]);
        let win = g(heaps[0]) != g(heaps[1]);
        assert_eq!(out.trim(), if win { "WIN" } else { "LOSE" }, "{heaps:?}");
    }
    let (_, err) = fails(&["octal", ".6", "--to", "3000", "--heaps", "5000"], "");
    assert!(
        err.contains("G(5000) is not known") && err.contains("--to"),
        "{err}"
    );
    let out = grundy(&["octal", "0.77", "--heaps", "9223372036854775808"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("must be at most 9223372036854775807"), "{err}");
}

/// The classic names are their codes, in normal and misère play; a name
/// a few letters off is answered with the one meant and its code, an
/// unknown one with the names known; Nim is told apart.
#[test]
fn classic_names_stand_for_their_codes() {
    for (name, code) in [
        ("kayles", "0.77"),
        ("Dawson's Kayles", "0.07"),
        ("officers", ".6"),
    ] {
        assert_eq!(
            run_ok(&["octal", name, "--to", "300", "--heaps", "5", "9", "--hint"]),
            run_ok(&["octal", code, "--to", "300", "--heaps", "5", "9", "--hint"]),
            "{name}"
        );
        assert_eq!(
            run_ok(&["octal", name, "--misere", "--to", "12"]),
            run_ok(&["octal", code, "--misere", "--to", "12"]),
            "{name}"
        );
    }
    assert!(run_ok(&["octal", "treblecross", "--to", "10"]).starts_with("game            0.007\n"));
    let (stdout, err) = fails(&["octal", "kaylse"], "");
    assert!(stdout.is_empty());
    assert!(err.contains("did you mean kayles, the code 0.77?"), "{err}");
    let (_, err) = fails(&["octal", "chess"], "");
    assert!(
        err.contains("no game is named \"chess\"") && err.contains("dawsons-chess (0.137)"),
        "{err}"
    );
    let (_, err) = fails(&["octal", "nim"], "");
    assert!(err.contains("has no finite code"), "{err}");
}

#[test]
fn bad_codes_name_the_character() {
    for (code, needle) in [
        ("0.8z", "'z'"),
        ("0.7.7", "second point"),
        ("77", "no point"),
        ("2.7", "'2'"),
        ("", "empty code"),
    ] {
        let (stdout, err) = fails(&["octal", code], "");
        assert!(stdout.is_empty());
        assert!(err.contains(needle), "{code:?}: {err}");
    }
    let (_, err) = fails(&["octal", "--subtract", "1,x"], "");
    assert!(err.contains("\"x\""), "{err}");
    let (_, err) = fails(&["octal", "--subtract", "0,2"], "");
    assert!(err.contains("element 0"), "{err}");
    let (_, err) = fails(&["octal", ".6", "--online", "--to", "5000000000"], "");
    assert!(
        err.contains("--to 5000000000") && err.contains("4294967294"),
        "{err}"
    );
    let long = format!("0.{}", "7".repeat(2000));
    let (_, err) = fails(&["octal", &long], "");
    assert!(err.contains("too long"), "{err}");
}

#[test]
fn out_then_resume_equals_a_direct_run() {
    // Removed when the test ends, passed or failed.
    let dir = tempfile::tempdir().unwrap();
    let temp = |name: &str| dir.path().join(name);
    let (first, resumed, direct) = (temp("first.sgt"), temp("resumed.sgt"), temp("direct.sgt"));
    let p = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    run_ok(&["octal", ".6", "--to", "2000", "--out", &p(&first)]);
    let a = json(&[
        "octal",
        ".6",
        "--to",
        "5000",
        "--resume",
        &p(&first),
        "--out",
        &p(&resumed),
    ]);
    let b = json(&["octal", ".6", "--to", "5000", "--out", &p(&direct)]);
    assert_eq!(a, b);
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&direct).unwrap()
    );
    let file = sg_tables::read_file(&direct).unwrap();
    let stored = file.table().octal_sequence().unwrap();
    assert_eq!(
        stored.values(),
        grundy_by_definition(&Rules::parse("0.6").unwrap(), 5000).unwrap()
    );
    // A resumed run that certifies: Kayles stored short of its certificate.
    run_ok(&[
        "octal",
        "0.77",
        "--online",
        "--to",
        "100",
        "--out",
        &p(&first),
    ]);
    let k = json(&["octal", "--resume", &p(&first)]);
    assert_eq!(
        (k["preperiod"].clone(), k["period"].clone()),
        (71.into(), 12.into())
    );
    assert!(run_ok(&["octal", "--resume", &p(&first)]).contains("resumed from 101 stored values"));

    // Another game than the file's, and values that are not the game's.
    let (_, err) = fails(&["octal", "0.07", "--resume", &p(&first)], "");
    assert!(err.contains("holds the game 0.77"), "{err}");
    let values = grundy_by_definition(&Rules::parse("0.77").unwrap(), 3000).unwrap();
    // A changed value is named, wherever it is (every heap is checked).
    for (heap, named) in [(1000, "stored G(1000) = "), (2500, "stored G(2500) = ")] {
        let mut tampered = values.clone();
        tampered[heap] ^= 2;
        let wrong = Metadata {
            game: Game::OctalSequence {
                code: "0.77".into(),
                count: tampered.len() as u64,
            },
            generator: "test".into(),
        };
        let payload: Vec<u8> = tampered.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(&first, encode(&wrong, &payload).unwrap()).unwrap();
        let (_, err) = fails(&["octal", "--resume", &p(&first), "--online"], "");
        assert!(
            err.contains(named) && err.contains("the file is not a run of 0.77"),
            "{err}"
        );
    }
    // A corrupt file: the checksum.
    let mut bytes = std::fs::read(&direct).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&first, bytes).unwrap();
    let (_, err) = fails(&["octal", "--resume", &p(&first)], "");
    assert!(err.contains("checksum"), "{err}");
}

#[test]
fn catalogue_answers_equal_online_runs() {
    let catalogue = sg_tables::embedded_octal_catalogue();
    let solved: Vec<_> = catalogue
        .entries()
        .iter()
        .filter(|e| e.period.is_some())
        .collect();
    assert!(solved.len() > 600);
    // Through the binary: a sample of solved games, catalogue vs --online.
    for entry in solved.iter().step_by(53) {
        let code = entry.rules.to_string();
        let text = run_ok(&["octal", &code]);
        assert!(
            text.contains("from the compiled-in catalogue"),
            "{code}: {text}"
        );
        assert_eq!(
            json(&["octal", &code]),
            json(&["octal", &code, "--online"]),
            "{code}"
        );
    }
    // In process: every 9th game, solved or not, against the engine.
    for entry in catalogue.entries().iter().step_by(9) {
        let mut s = Sequence::new(entry.rules.clone());
        s.extend_to(catalogue.limit(), &mut |_| {}).unwrap();
        assert_eq!(*entry, sg_tables::octal::CatalogueEntry::from_sequence(&s));
        if let Some(all) = entry.all_values() {
            let direct = grundy_by_definition(&entry.rules, all.len() - 1).unwrap();
            assert_eq!(all, direct, "{}", entry.rules);
        }
    }
}

/// `GRUNDY_OCTAL_SIMD` lowers the vector kernels without changing a value
/// (the values of every level are the same, also past 2048), says on stderr which kernels
/// run (on a CPU with AVX-512 this fails if the variable is ignored), and
/// anything but avx512, avx2 or portable is refused before the run.
#[test]
fn the_kernels_override_changes_no_value() {
    let run = |simd: &str, args: &[&str]| {
        crate::common::assert_grundy()
            .env("GRUNDY_OCTAL_SIMD", simd)
            .args(args)
            .output()
            .unwrap()
    };
    // What the CPU has, in the variable's words.
    #[cfg(target_arch = "x86_64")]
    let cpu = if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        2
    } else if std::arch::is_x86_feature_detected!("avx2") {
        1
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let cpu = 0;
    let levels = ["portable", "avx2", "avx512"];
    // The last three with values past 1024 (0.564 and 0.2e) and 2048
    // (4.3cc6), where the AVX2 search once panicked.
    let cases = [
        (".376", "30000"),
        (".354", "30000"),
        (".6", "30000"),
        (".007", "30000"),
        ("0.564", "7000"),
        ("0.2e", "1400"),
        ("4.3cc6", "2250"),
    ];
    for (code, to) in cases {
        let args = ["octal", code, "--online", "--to", to, "--values"];
        let reference = crate::common::assert_grundy()
            .env_remove("GRUNDY_OCTAL_SIMD")
            .args(args)
            .output()
            .unwrap();
        assert!(reference.status.success());
        assert!(reference.stderr.is_empty());
        for simd in ["", "avx512", "avx2", "portable"] {
            let out = run(simd, &args);
            assert!(out.status.success(), "{simd}");
            assert!(out.stdout == reference.stdout, "{code} with {simd:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            if simd.is_empty() {
                assert!(err.is_empty(), "{err}");
            } else {
                let wanted = levels.iter().position(|&l| l == simd).unwrap();
                let used = levels[wanted.min(cpu)];
                assert_eq!(
                    err,
                    format!(
                        "note: GRUNDY_OCTAL_SIMD={simd}: the octal engine's vector kernels: {used}\n"
                    )
                );
            }
        }
    }
    let out = run("sse4", &["octal", ".6", "--to", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GRUNDY_OCTAL_SIMD") && err.contains("\"sse4\""),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
