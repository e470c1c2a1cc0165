//! The engine against the definition, periods of known games, sums of
//! heaps through a period.

use proptest::prelude::*;
use sg_nimber::testing::SplitMix64;

use super::*;

/// Runs the engine to heap `to` (or until certified).
fn run(rules: &Rules, to: u64) -> Sequence {
    let mut s = Sequence::new(rules.clone());
    s.extend_to(to, &mut |_| {}).unwrap();
    s
}

/// The engine (through its period where it stopped early) equals the
/// definition on every heap up to `to`.
fn assert_matches_definition(rules: &Rules, to: usize) {
    let reference = grundy_by_definition(rules, to).unwrap();
    let s = run(rules, to as u64);
    for (h, &g) in reference.iter().enumerate() {
        assert_eq!(
            s.value(h as u64),
            Some(g),
            "{rules}: heap {h} (period {:?})",
            s.period()
        );
    }
}

/// A random code with `len` digits after the point, digits below `radix`.
fn random_code(rng: &mut SplitMix64, len: usize, radix: u64, split_first: bool) -> Rules {
    let first = if split_first { "4" } else { "0" };
    let digits: String = (0..len)
        .map(|_| std::char::from_digit(rng.below(radix) as u32, 16).unwrap())
        .collect();
    Rules::parse(&format!("{first}.{digits}")).unwrap()
}

#[test]
fn random_octal_codes_match_the_definition() {
    let mut rng = SplitMix64::new(9);
    for case in 0..240 {
        let rules = random_code(&mut rng, 1 + case % 4, 8, case % 5 == 4);
        assert_matches_definition(&rules, 1500);
    }
}

#[test]
fn hexadecimal_codes_match_the_definition() {
    let mut rng = SplitMix64::new(16);
    for case in 0..60 {
        let rules = random_code(&mut rng, 1 + case % 3, 16, case % 4 == 3);
        assert_matches_definition(&rules, 250);
    }
}

#[test]
fn grundys_game_and_subtraction_sets_match_the_definition() {
    assert_matches_definition(&Rules::grundys_game(), 3000);
    let mut rng = SplitMix64::new(3);
    for _ in 0..100 {
        let set: Vec<u64> = (0..1 + rng.below(4)).map(|_| 1 + rng.below(12)).collect();
        assert_matches_definition(&Rules::subtraction(&set).unwrap(), 600);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn engine_equals_definition(digits in proptest::collection::vec(0u8..8, 1..6), split in any::<bool>()) {
        let code = format!("{}.{}", if split { 4 } else { 0 }, digits.iter().map(|d| d.to_string()).collect::<String>());
        let rules = Rules::parse(&code).unwrap();
        let reference = grundy_by_definition(&rules, 800).unwrap();
        let mut s = Sequence::new(rules.clone()).with_batches_from(if split { 16 } else { 200 });
        s.extend_to(800, &mut |_| {}).unwrap();
        for (h, &g) in reference.iter().enumerate() {
            prop_assert_eq!(s.value(h as u64), Some(g), "{} heap {}", code, h);
        }
    }
}

fn certified(code: &str, to: u64) -> Period {
    let s = run(&Rules::parse(code).unwrap(), to);
    s.period()
        .unwrap_or_else(|| panic!("{code}: no period up to {to}"))
}

#[test]
fn winning_ways_periods() {
    let kayles = certified("0.77", 10_000);
    assert_eq!((kayles.preperiod, kayles.period), (71, 12));
    // Dawson's Kayles: the last exceptional value is G(52) (G(52) = 2,
    // G(86) = 9), so the smallest preperiod is 53.
    let dawson = certified("0.07", 10_000);
    assert_eq!((dawson.preperiod, dawson.period), (53, 34));
    // Dawson's chess is 0.137, Dawson's Kayles shifted by one heap
    // (G_{.137}(n) = G_{.07}(n + 1)): same period, preperiod one less.
    let chess = certified("0.137", 10_000);
    assert_eq!((chess.preperiod, chess.period), (52, 34));
    let d = grundy_by_definition(&Rules::parse("0.07").unwrap(), 2000).unwrap();
    let c = grundy_by_definition(&Rules::parse("0.137").unwrap(), 1999).unwrap();
    assert_eq!(&d[1..], &c[..]);
    // Nim-like subtraction games: the smallest period, never a multiple.
    let s12 = run(&Rules::subtraction(&[1, 2]).unwrap(), 1000)
        .period()
        .unwrap();
    assert_eq!((s12.preperiod, s12.period), (0, 3));
    let s134 = run(&Rules::subtraction(&[1, 3, 4]).unwrap(), 1000)
        .period()
        .unwrap();
    assert_eq!((s134.preperiod, s134.period), (0, 7));
}

/// Every certified period is the smallest: no divisor of it is a period
/// of the values from the preperiod, and the preperiod cannot be lowered.
#[test]
fn certified_periods_are_smallest_and_true() {
    let mut rng = SplitMix64::new(77);
    let mut count = 0;
    for case in 0..200 {
        let rules = random_code(&mut rng, 1 + case % 3, 8, case % 7 == 6);
        let s = run(&rules, 4000);
        let Some(p) = s.period() else { continue };
        count += 1;
        let reference = grundy_by_definition(&rules, 4000).unwrap();
        let (e, d) = (p.preperiod as usize, p.period as usize);
        for m in e..reference.len() - d {
            assert_eq!(reference[m], reference[m + d], "{rules}: {p:?}");
        }
        for q in 1..d {
            assert!(
                (e..e + d).any(|m| reference[m] != reference[m + q]),
                "{rules}: period {q} < {d}"
            );
        }
        if e > 0 {
            assert_ne!(
                reference[e - 1],
                reference[e - 1 + d],
                "{rules}: preperiod {e} not smallest"
            );
        }
    }
    assert!(count > 100, "only {count} of 200 random games certified");
}

/// No period is claimed for Officers (`.6`) or `.007`, and the run goes
/// to the end.
fn assert_no_period(code: &str, to: u64) {
    let s = run(&Rules::parse(code).unwrap(), to);
    assert_eq!(s.period(), None, "{code}");
    assert_eq!(s.values().len() as u64, to + 1, "{code}");
}

#[test]
fn no_period_claimed_for_officers_and_007() {
    // A few seconds in the test profile; the full 2^20 is the ignored test
    // below (.007 to 2^20 takes minutes: its values reach 1000 and its
    // rare heaps keep growing).
    assert_no_period(".6", 1 << 18);
    assert_no_period(".007", 1 << 15);
    // Grundy's game has no theorem: never certified.
    assert_eq!(run(&Rules::grundys_game(), 5000).period(), None);
}

#[test]
#[ignore = "minutes: run with cargo test --release -p sg-octal --lib -- --ignored"]
fn no_period_claimed_for_officers_and_007_to_2_20() {
    assert_no_period(".6", 1 << 20);
    assert_no_period(".007", 1 << 20);
}

#[test]
fn heap_sums_through_the_period_agree_with_direct_values() {
    let mut rng = SplitMix64::new(5);
    for code in ["0.77", "0.07", "0.137", "4.07", "0.3033", "0.f"] {
        let rules = Rules::parse(code).unwrap();
        let s = run(&rules, 20_000);
        let periodic = s.periodic().expect("certified");
        let direct = grundy_by_definition(&rules, 1200).unwrap();
        for _ in 0..40 {
            let heaps: Vec<u64> = (0..1 + rng.below(4)).map(|_| rng.below(1200)).collect();
            let through_period = winning_move(&rules, &periodic, &heaps).unwrap();
            let by_values = winning_move(&rules, &direct[..], &heaps).unwrap();
            let x = heaps.iter().fold(0, |acc, &h| acc ^ direct[h as usize]);
            assert_eq!(through_period.is_some(), x != 0);
            assert_eq!(by_values.is_some(), x != 0);
            if let Some(m) = through_period {
                let mut after: u16 = m.leaves.iter().fold(0, |acc, &h| acc ^ direct[h as usize]);
                for (i, &h) in heaps.iter().enumerate() {
                    if i != m.heap {
                        after ^= direct[h as usize];
                    }
                }
                assert_eq!(after, 0, "{code} {heaps:?} {m:?}");
                assert_eq!(m.take + m.leaves.iter().sum::<u64>(), heaps[m.heap]);
            }
        }
        // Heaps near 2^63 through the period: a winning move exists exactly
        // when the values XOR to nonzero, and it is legal.
        let big = [(1u64 << 63) - 1, (1 << 62) + 12345];
        let x = periodic.value(big[0]) ^ periodic.value(big[1]);
        let m = winning_move(&rules, &periodic, &big).unwrap();
        assert_eq!(m.is_some(), x != 0, "{code}");
        if let Some(m) = m {
            let left = m.leaves.iter().fold(0, |acc, &h| acc ^ periodic.value(h));
            assert_eq!(left ^ periodic.value(big[1 - m.heap]), 0);
        }
    }
}

#[test]
fn overflow_is_a_typed_error() {
    let rules = Rules::parse("0.3333333333").unwrap();
    let mut s = Sequence::new(rules).with_value_limit(5);
    assert_eq!(
        s.extend_to(100, &mut |_| {}),
        Err(OctalError::ValueOverflow { heap: 6 })
    );
    assert_eq!(s.values().len(), 6);
}

#[test]
fn resume_continues_a_stored_run() {
    for code in ["0.354", "0.6", "0.77"] {
        let rules = Rules::parse(code).unwrap();
        let whole = run(&rules, 30_000);
        let mut first = Sequence::new(rules.clone());
        first.extend_to(9_999, &mut |_| {}).unwrap();
        let mut resumed = Sequence::resume(rules, first.values().to_vec()).unwrap();
        resumed.extend_to(30_000, &mut |_| {}).unwrap();
        assert_eq!(resumed.values(), whole.values(), "{code}");
        assert_eq!(resumed.period(), whole.period(), "{code}");
    }
    assert!(Sequence::resume(Rules::parse(".6").unwrap(), vec![1, 0]).is_err());
}

/// The AVX2 and portable searches of the splits (used on CPUs without
/// AVX-512, and the portable one for values of 1024 and more) give the
/// definition's values too.
#[test]
fn lower_kernels_match_the_definition() {
    use super::simd::Simd;
    for level in [Simd::Avx2, Simd::Portable] {
        super::simd::set_test_level(level);
        let mut rng = SplitMix64::new(31);
        for case in 0..40 {
            let rules = random_code(&mut rng, 1 + case % 4, 8, case % 5 == 4);
            assert_matches_definition(&rules, 1500);
        }
        assert_matches_definition(&Rules::grundys_game(), 2000);
    }
    super::simd::set_test_level(Simd::Avx512);
}

/// The values do not depend on the crew: 1, 2 or 4 threads (more threads
/// than this machine may have cores, so that chunks are claimed in
/// every order), and on some codes 31, 32 and 64 (beyond the crew's
/// largest size), on random codes with batches from heap 64, against the
/// definition.
#[test]
fn crews_of_any_size_give_the_definition() {
    let mut rng = SplitMix64::new(5);
    for case in 0..60 {
        let rules = random_code(&mut rng, 1 + case % 4, 8, case % 5 == 4);
        let reference = grundy_by_definition(&rules, 1200).unwrap();
        let many: &[usize] = if case % 10 == 0 { &[31, 32, 64] } else { &[] };
        for &threads in [1, 2, 4].iter().chain(many) {
            let mut s = Sequence::new(rules.clone())
                .with_batches_from(64)
                .with_threads_beyond_cores(threads);
            s.extend_to(1200, &mut |_| {}).unwrap();
            for (h, &g) in reference.iter().enumerate() {
                assert_eq!(
                    s.value(h as u64),
                    Some(g),
                    "{rules} heap {h}, {threads} threads"
                );
            }
        }
    }
}

/// Values of 2^15 and more (the marks then reach 2^16, above every
/// value) do not break the engine: stored values holding them (a crafted
/// file) are extended without a panic, in either path.
#[test]
fn values_from_2_pow_15_on_are_handled() {
    for code in ["0.77", "0.6", "0.f", "grundys-game"] {
        let rules = Rules::parse(code).unwrap();
        for big in [32768, 40000, 65535] {
            let mut s = Sequence::resume(rules.clone(), vec![0, 1, big]).unwrap();
            s.extend_to(3000, &mut |_| {}).unwrap();
            assert_eq!(s.values()[2], big);
            let mut s = Sequence::resume(rules.clone(), vec![0, 1, big])
                .unwrap()
                .with_batches_from(64)
                .with_threads_beyond_cores(2);
            s.extend_to(3000, &mut |_| {}).unwrap();
        }
    }
}

/// `certify` finds the period a run finds, at the same length, from the
/// run's values alone (and none from values that stop short of it).
#[test]
fn certify_from_values_equals_the_run() {
    let mut rng = SplitMix64::new(23);
    let mut certified = 0;
    for case in 0..200 {
        let rules = random_code(&mut rng, 1 + case % 4, 8, case % 5 == 4);
        let s = run(&rules, 3000);
        assert_eq!(certify(&rules, s.values()), s.period(), "{rules}");
        if let Some(p) = s.period() {
            certified += 1;
            let short = &s.values()[..p.certified_with as usize - 1];
            assert_eq!(certify(&rules, short), None, "{rules}");
        }
    }
    assert!(certified > 50, "{certified}");
    // A long preperiod and a small period: .127, period 4 from 46,578.
    let rules = Rules::parse(".127").unwrap();
    let s = run(&rules, 200_000);
    let p = certify(&rules, s.values()).unwrap();
    assert_eq!(
        (p.preperiod, p.period, p.certified_with),
        (46_578, 4, 93_167)
    );
    assert_eq!(Some(p), s.period());
    assert_eq!(certify(&Rules::grundys_game(), &[0, 0, 0, 1]), None);
}

/// A run stopped by its watcher at random moments, and resumed from its
/// values each time, ends with the values and the period of a run that
/// never stopped, on one and two threads; the watcher sees the values
/// about every 1024 heaps and at the end.
#[test]
fn stopped_and_resumed_runs_equal_a_whole_run() {
    use std::ops::ControlFlow;
    let mut rng = SplitMix64::new(77);
    for (code, to) in [(".127", 120_000), (".6", 40_000), (".354", 60_000)] {
        let rules = Rules::parse(code).unwrap();
        let whole = run(&rules, to);
        for threads in [1, 2] {
            let mut values = Vec::new();
            let mut stops = 0;
            let status = loop {
                let mut s = Sequence::resume(rules.clone(), values)
                    .unwrap()
                    .with_threads_beyond_cores(threads);
                let stop_at = s.values().len() as u64 + rng.below(30_000);
                let mut last_seen = s.values().len();
                let status = s
                    .extend_watched(to, &mut |seen| {
                        assert!(seen.len() >= last_seen && seen.len() <= last_seen + 1024 + 64);
                        last_seen = seen.len();
                        if seen.len() as u64 >= stop_at {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    })
                    .unwrap();
                values = s.values().to_vec();
                if status != Status::Stopped {
                    assert_eq!(last_seen, values.len(), "the end is shown");
                    break status;
                }
                stops += 1;
            };
            assert!(stops >= 2, "{code}: {stops} stops");
            assert_eq!(values, whole.values(), "{code}, {threads} threads");
            assert_eq!(
                status,
                whole
                    .period()
                    .map_or(Status::LimitReached, Status::Certified)
            );
        }
    }
}

/// The games and lengths of [`every_thread_count_gives_the_same_values`]:
/// rare values (`.6`, `.376`), a long preperiod (`.354`), a split in two
/// and values past 1024 on the portable search (Grundy's game); the first
/// two on every thread count from 1 to 64, the others on some.
const THREADS_CASES: [(&str, u64, bool); 6] = [
    (".6", 5_000, true),
    (".354", 5_000, true),
    (".6", 40_000, false),
    (".376", 20_000, false),
    (".354", 20_000, false),
    ("grundys-game", 3_000, false),
];

/// A fingerprint of the values of each case, on one thread, printed for
/// [`every_thread_count_and_kernel_level_give_the_same_values`]; and the
/// values equal on more threads (up to 64: more than the crew's largest
/// size and this machine's cores; every count for the CPU's own kernels). Run with `GRUNDY_OCTAL_SIMD` set by
/// that test, in a child process.
#[test]
#[ignore = "run by every_thread_count_and_kernel_level_give_the_same_values"]
fn every_thread_count_gives_the_same_values() {
    for (code, to, every) in THREADS_CASES {
        let rules = Rules::parse(code).unwrap();
        let run = |threads: usize| {
            let mut s = Sequence::new(rules.clone())
                .with_batches_from(64)
                .with_threads_beyond_cores(threads);
            s.extend_to(to, &mut |_| {}).unwrap();
            (s.values().to_vec(), s.period())
        };
        let one = run(1);
        // Every count for the CPU's own kernels; the kernels of a lower
        // level compute each chunk, not how chunks are shared out, so a
        // few counts (odd, even, beyond the cores) show they agree.
        let best = simd_used() == simd::simd_of_cpu();
        let counts: Vec<usize> = if every && best {
            (2..=64).collect()
        } else {
            vec![2, 3, 4, 7, 16, 31, 32, 64]
        };
        for threads in counts {
            assert!(run(threads) == one, "{code} to {to}: {threads} threads");
        }
        let fingerprint = one.0.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &g| {
            (h ^ u64::from(g)).wrapping_mul(0x100_0000_01b3)
        });
        println!(
            "fingerprint {code} {} {fingerprint:016x} {:?} kernels {}",
            one.0.len(),
            one.1,
            simd_used().name()
        );
    }
}

/// Every thread count from 1 to 64 under every value of
/// `GRUNDY_OCTAL_SIMD` (a child process each: the variable is read once
/// per process) gives the same values, with the kernels the variable
/// names (those the CPU has at most).
#[test]
fn every_thread_count_and_kernel_level_give_the_same_values() {
    let lines = same_under_every_level(
        "tests::every_thread_count_gives_the_same_values",
        "fingerprint ",
    );
    assert_eq!(lines.len(), THREADS_CASES.len(), "{lines:?}");
}

/// Games whose values pass 1024 and 2048, where every kernel must give
/// the portable path's values: codes of the catalogue and hexadecimal
/// ones whose values pass 1023 (each to a heap past its first value of
/// 1024, and past 2048 where it has one by then), then random
/// hexadecimal codes of 1 to 30 digits run from a random stored start of
/// values up to 65535 (the engine extends any stored values by the rules:
/// their splits' XORs fall everywhere in 0..65536, so that each kernel
/// meets values outside its sets of 128 to 1024 values).
fn wide_cases() -> Vec<(String, Vec<u16>, u64)> {
    let mut cases: Vec<(String, Vec<u16>, u64)> = [
        ("0.414", 17_400),
        ("0.564", 6_600),
        ("0.346", 30_000),
        ("0.2e", 1_400),
        ("4.3cc6", 2_250),
        ("0.d7e7", 2_150),
        ("0.ff", 2_200),
    ]
    .into_iter()
    .map(|(code, to)| (code.to_owned(), vec![], to))
    .collect();
    let mut rng = SplitMix64::new(2048);
    for case in 0..24 {
        let len = 1 + rng.below(30) as usize;
        let first = if case % 4 == 3 { "4" } else { "0" };
        let digits: String = (0..len)
            .map(|_| std::char::from_digit(rng.below(16) as u32, 16).unwrap())
            .collect();
        let start = 2 + rng.below(40) as usize;
        let top = [2048, 4096, 65536][case % 3];
        // G(0) is 0 in every stored run.
        let values = (0..start)
            .map(|h| if h == 0 { 0 } else { rng.below(top) as u16 })
            .collect();
        cases.push((format!("{first}.{digits}"), values, 600 + rng.below(600)));
    }
    cases
}

/// Prints a fingerprint and the largest value of each of [`wide_cases`]
/// under the kernels this process may use, for
/// [`every_kernel_takes_values_past_2048`] (a child process per value of
/// `GRUNDY_OCTAL_SIMD`).
#[test]
#[ignore = "run by every_kernel_takes_values_past_2048"]
fn wide_values_under_the_variable() {
    for (code, start, to) in wide_cases() {
        let rules = Rules::parse(&code).unwrap();
        let mut s = Sequence::resume(rules, start).unwrap().with_threads(1);
        s.extend_to(to, &mut |_| {}).unwrap();
        let fingerprint = s.values().iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &g| {
            (h ^ u64::from(g)).wrapping_mul(0x100_0000_01b3)
        });
        let max = s.values().iter().max().copied().unwrap_or(0);
        println!(
            "wide {code} {} {fingerprint:016x} max {max} kernels {}",
            s.values().len(),
            simd_used().name()
        );
    }
}

/// The AVX-512, AVX2 and portable kernels (those the CPU has) give the
/// same values on games whose values pass 2048 (AVX2 once panicked on
/// an XOR of 1024 or more in its scalar start): each under
/// `GRUNDY_OCTAL_SIMD` in a child process, the portable path the
/// reference.
#[test]
fn every_kernel_takes_values_past_2048() {
    let lines = same_under_every_level("tests::wide_values_under_the_variable", "wide ");
    assert_eq!(lines.len(), wide_cases().len(), "{lines:?}");
    for line in &lines {
        println!("{line}");
    }
    // The games do reach the values this test is about.
    let max = |line: &str| -> u32 {
        line.split(" max ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let maxima: Vec<u32> = lines.iter().map(|l| max(l)).collect();
    assert!(maxima[..7].iter().all(|&m| m >= 1024), "{maxima:?}");
    assert!(
        maxima[..7].iter().filter(|&&m| m >= 2048).count() >= 3,
        "{maxima:?}"
    );
    assert!(
        maxima[7..].iter().filter(|&&m| m >= 2048).count() >= 12,
        "{maxima:?}"
    );
}

/// The 1024 games of the catalogue (`sg-tables`): `0.d1d2d3` and
/// `4.d1d2d3`, octal digits (trailing zeros dropped, as `Rules` does).
fn catalogue_codes() -> impl Iterator<Item = Rules> {
    (0..1024u32).map(|index| {
        let i = index % 512;
        let first = if index < 512 { 0 } else { 4 };
        Rules::parse(&format!("{first}.{}{}{}", i / 64, i / 8 % 8, i % 8)).unwrap()
    })
}

/// Prints a fingerprint of the values of each game of the catalogue up to
/// heap `to` (or to its certificate), computed on one thread under the
/// kernels this process may use, in batches from heap `from` (2048 as a
/// run computes them: heap by heap before, and after while the values are
/// cheap; 64 so that every game's batches meet the rare-mark rows and the
/// searches of every kernel).
fn print_catalogue(to: u64, from: usize) {
    for rules in catalogue_codes() {
        let mut s = Sequence::new(rules.clone()).with_threads(1);
        if from != 2048 {
            s = s.with_batches_from(from);
        }
        s.extend_to(to, &mut |_| {}).unwrap();
        let fingerprint = s.values().iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &g| {
            (h ^ u64::from(g)).wrapping_mul(0x100_0000_01b3)
        });
        let period = s
            .period()
            .map_or("-".to_owned(), |p| format!("{}+{}", p.preperiod, p.period));
        println!(
            "catalogue {rules} {} {fingerprint:016x} {period} kernels {}",
            s.values().len(),
            simd_used().name()
        );
    }
}

/// [`print_catalogue`] to 2^11 in batches from heap 64, for
/// [`every_kernel_gives_the_catalogues_values`].
#[test]
#[ignore = "run by every_kernel_gives_the_catalogues_values"]
fn catalogue_to_2_11_under_the_variable() {
    print_catalogue(1 << 11, 64);
}

/// The bound of [`every_kernel_gives_the_catalogues_values_in_full`]:
/// `GRUNDY_CATALOGUE_CHECK_TO` (a heap, at most 2^20), else 2^15.
fn catalogue_check_to() -> u64 {
    std::env::var("GRUNDY_CATALOGUE_CHECK_TO")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&to| (64..=1 << 20).contains(&to))
        .unwrap_or(1 << 15)
}

/// [`print_catalogue`] to [`catalogue_check_to`] as runs compute the
/// values, for [`every_kernel_gives_the_catalogues_values_in_full`].
#[test]
#[ignore = "run by every_kernel_gives_the_catalogues_values_in_full"]
fn catalogue_in_full_under_the_variable() {
    print_catalogue(catalogue_check_to(), 2048);
}

/// Runs the ignored test `test` under each kernel level at once, a child
/// process each (the variable is read once per process), and asserts that
/// every level prints the same lines (those with `prefix`), with the
/// kernels the level names (those the CPU has at most); returns the lines.
fn same_under_every_level(test: &str, prefix: &str) -> Vec<String> {
    // A level above the CPU's runs the CPU's kernels: one child for them.
    let levels: Vec<Simd> = [Simd::Portable, Simd::Avx2, Simd::Avx512]
        .into_iter()
        .filter(|&level| level <= simd::simd_of_cpu())
        .collect();
    let children: Vec<_> = levels
        .iter()
        .map(|&level| {
            let test = test.to_owned();
            std::thread::spawn(move || simd::run_ignored_test_with(&test, level.name()))
        })
        .collect();
    let mut runs = Vec::new();
    for (child, level) in children.into_iter().zip(levels) {
        let text = child.join().unwrap();
        let used = level.min(simd::simd_of_cpu());
        let lines: Vec<String> = text
            .lines()
            .filter_map(|l| Some(l[l.find(prefix)?..].to_owned()))
            .collect();
        assert!(
            lines
                .iter()
                .all(|l| l.ends_with(&format!(" kernels {}", used.name()))),
            "{level:?}: {text}"
        );
        runs.push(
            lines
                .iter()
                .map(|l| l.rsplit_once(" kernels ").unwrap().0.to_owned())
                .collect::<Vec<_>>(),
        );
    }
    assert!(runs.iter().all(|r| *r == runs[0]), "{runs:#?}");
    runs.swap_remove(0)
}

/// Every game of the catalogue gives the same values to 2^11 under every
/// kernel level (portable, AVX2, AVX-512: those the CPU has, a child
/// process each), in batches
/// from heap 64 (2 s on two cores); the full-size check is
/// [`every_kernel_gives_the_catalogues_values_in_full`].
#[test]
fn every_kernel_gives_the_catalogues_values() {
    let lines = same_under_every_level("tests::catalogue_to_2_11_under_the_variable", "catalogue ");
    assert_eq!(lines.len(), 1024);
}

/// Every game of the catalogue gives the same values under every kernel
/// level the CPU has, as runs compute them, to 2^15 (a child process per
/// level, about 55 s of CPU each on this project's 2-core machine), or to
/// `GRUNDY_CATALOGUE_CHECK_TO` (CI runs it to 2^14, about 25 s each, with
/// `--ignored`, in `.ci/run`; 2^16: about three minutes of CPU each).
#[test]
#[ignore = "minutes of CPU: run by CI (.ci/run) with --ignored"]
fn every_kernel_gives_the_catalogues_values_in_full() {
    let lines = same_under_every_level("tests::catalogue_in_full_under_the_variable", "catalogue ");
    assert_eq!(lines.len(), 1024);
}
