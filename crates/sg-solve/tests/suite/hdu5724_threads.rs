//! `hdu5724` on one thread and on two (the second thread solving the cases
//! from a guessed case boundary, or from a forced byte offset anywhere,
//! `Threads::SplitAt`) gives the same output and the same error, byte for
//! byte, on random inputs: valid ones with any whitespace, rows of no
//! piece and cases of one row or none, a wrong case count, trailing
//! garbage, and inputs broken at random places. The answers themselves are
//! checked against the definition in `definitional.rs`.

use crate::common::{SplitMix64, break_at_random, format_lines};
use proptest::prelude::*;
use sg_solve::InputError;
use sg_solve::hdu5724::{self, Options, TWO_THREADS_MIN_BYTES, Threads};

/// Output and result of one path.
fn run(input: &[u8], threads: Threads, width: u32) -> (String, Result<(), InputError>) {
    let mut out = vec![];
    let opts = Options {
        width,
        threads,
        ..Options::default()
    };
    let result = hdu5724::solve(input, &mut out, opts, sg_core::row::row_grundy);
    (String::from_utf8(out).unwrap(), result)
}

/// Every path, and the split forced at `offsets`, gives what one thread
/// gives.
fn same_on_every_path(
    input: &[u8],
    width: u32,
    offsets: impl IntoIterator<Item = usize>,
) -> (String, Result<(), InputError>) {
    let one = run(input, Threads::One, width);
    for threads in [Threads::Two, Threads::Auto] {
        assert_eq!(run(input, threads, width), one, "{threads:?}");
    }
    for at in offsets {
        assert_eq!(
            run(input, Threads::SplitAt(at), width),
            one,
            "split at {at}"
        );
    }
    one
}

/// The lines of `cases` random cases on a board of `width` columns: up to
/// `rows_max` rows (none sometimes, one often), rows of 0 to `width`
/// pieces; `announced` is written as T.
fn random_lines(
    rng: &mut SplitMix64,
    announced: u64,
    cases: u64,
    rows_max: u64,
    width: u32,
) -> Vec<Vec<u64>> {
    let mut lines = vec![vec![announced]];
    for _ in 0..cases {
        let n = match rng.below(4) {
            0 => rng.below(2),
            _ => rng.below(rows_max + 1),
        };
        lines.push(vec![n]);
        for _ in 0..n {
            let density = 1 + rng.below(4);
            let mut row: Vec<u64> = (1..=u64::from(width))
                .filter(|_| rng.below(density + 1) == 0)
                .collect();
            // Pieces in any order.
            for i in (1..row.len()).rev() {
                row.swap(i, rng.below(i as u64 + 1) as usize);
            }
            row.insert(0, row.len() as u64);
            lines.push(row);
        }
    }
    lines
}

/// The tokens `break_at_random` inserts.
const BAD_TOKENS: &[&str] = &[
    "7",
    "x",
    "0",
    "21",
    "65",
    "4294967296",
    "99999999999999999999",
];

/// A random input (valid, with a wrong count, trailing garbage or broken as
/// `kind` says) gives the same output and error on every path, with the
/// split forced at `forced` random offsets, or at every offset if `None`.
fn check_every_path(
    seed: u64,
    kind: u64,
    (cases_max, rows_max): (u64, u64),
    forced: Option<usize>,
) -> Result<(), TestCaseError> {
    let mut rng = SplitMix64::new(seed);
    let width = if rng.below(3) == 0 {
        1 + rng.below(64) as u32
    } else {
        20
    };
    let cases = 1 + rng.below(cases_max);
    let announced = match kind {
        1 => cases + 1 + rng.below(2),
        2 => rng.below(cases),
        _ => cases,
    };
    let lines = random_lines(&mut rng, announced, cases, rows_max, width);
    let mut input = if rng.below(4) == 0 {
        // Everything on one line or a token a line: no line structure.
        let sep = [" ", "\n"][rng.below(2) as usize];
        let tokens: Vec<String> = lines.concat().iter().map(u64::to_string).collect();
        tokens.join(sep).into_bytes()
    } else {
        format_lines(&lines, &mut rng).into_bytes()
    };
    match kind {
        3 => input.extend_from_slice([&b" x\n"[..], b"\n0", b" 1 1\n"][rng.below(3) as usize]),
        4 => break_at_random(&mut input, &mut rng, BAD_TOKENS),
        _ => {}
    }
    let offsets: Vec<usize> = match forced {
        Some(count) => (0..count)
            .map(|_| rng.below(input.len() as u64 + 2) as usize)
            .collect(),
        None => (0..=input.len() + 1).collect(),
    };
    let (out, result) = same_on_every_path(&input, width, offsets);
    if kind == 0 {
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(out.lines().count() as u64, cases);
    } else if kind != 4 {
        prop_assert!(result.is_err());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn same_output_and_error_on_one_thread_and_two(seed in any::<u64>(), kind in 0..5u64) {
        check_every_path(seed, kind, (12, 6), Some(12))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The split forced at every byte offset of small inputs.
    #[test]
    fn same_output_and_error_whatever_the_split(seed in any::<u64>(), kind in 0..5u64) {
        check_every_path(seed, kind, (5, 3), None)?;
    }
}

/// Inputs over the size where `Auto` takes two threads: valid, with a
/// wrong count, and broken at random places before and after the middle:
/// the answers before the error, then the error, the same on both paths.
#[test]
fn large_inputs_broken_anywhere() {
    let mut rng = SplitMix64::new(5724);
    let lines = random_lines(&mut rng, 300, 300, 200, 20);
    let valid = format_lines(&lines, &mut rng).into_bytes();
    assert!(valid.len() >= TWO_THREADS_MIN_BYTES, "{}", valid.len());
    let (out, result) = same_on_every_path(&valid, 20, []);
    result.unwrap();
    assert_eq!(out.lines().count(), 300);
    for _ in 0..12 {
        let mut input = valid.clone();
        break_at_random(&mut input, &mut rng, BAD_TOKENS);
        // Compared between the paths inside; the error may be none (a
        // space replaced by a space).
        let _ = same_on_every_path(&input, 20, []);
    }
    // Too few cases announced: their answers, then the trailing case; too
    // many: every answer, then the missing case.
    for (announced, answers) in [("299", 299), ("301", 300)] {
        let mut input = valid.clone();
        input.splice(0..3, announced.bytes());
        let (out, result) = same_on_every_path(&input, 20, []);
        assert!(result.is_err());
        assert_eq!(out.lines().count(), answers);
    }
}
