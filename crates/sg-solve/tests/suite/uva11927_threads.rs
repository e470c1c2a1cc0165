//! `uva11927` on one thread and on two (a reader handing cases to a
//! solver, or solving them itself when the solver is behind, forced here by
//! `Threads::TwoReaderSolving`) gives the same output and the same error,
//! byte for byte, on
//! random inputs: valid ones, ones with cycles, and ones broken at random
//! places (truncated, a byte replaced, a token inserted). The answers
//! themselves are checked against the definition in `definitional.rs`,
//! on every path.

use crate::common::{SplitMix64, break_at_random};
use proptest::prelude::*;
use sg_solve::InputError;
use sg_solve::uva11927::{self, Options, TWO_THREADS_MIN_BYTES, Threads};

/// Output and result of one path.
fn run(input: &[u8], threads: Threads, json: bool) -> (String, Result<(), InputError>) {
    let mut out = vec![];
    let result = uva11927::solve(input, &mut out, Options { json, threads });
    (String::from_utf8(out).unwrap(), result)
}

/// Every path gives what one thread gives.
fn same_on_every_path(input: &[u8]) -> (String, Result<(), InputError>) {
    let one = run(input, Threads::One, false);
    for threads in [Threads::Two, Threads::TwoReaderSolving, Threads::Auto] {
        assert_eq!(run(input, threads, false), one, "{threads:?}");
    }
    let json = run(input, Threads::One, true);
    for threads in [Threads::Two, Threads::TwoReaderSolving] {
        assert_eq!(run(input, threads, true), json, "{threads:?}");
    }
    one
}

/// `cases` test cases on up to `n_max` nodes, edges anywhere (so cycles
/// are common) when `cyclic`, else from a higher id to a lower one.
fn random_input(
    rng: &mut SplitMix64,
    cases: usize,
    n_max: u64,
    edges_max: u64,
    cyclic: bool,
) -> Vec<u8> {
    let mut s = String::new();
    for _ in 0..cases {
        let n = 1 + rng.below(n_max);
        // An acyclic graph on one node has no edge.
        let m = if cyclic || n > 1 {
            rng.below(edges_max + 1)
        } else {
            0
        };
        s.push_str(&format!("{n} {m}\n"));
        for _ in 0..m {
            let (u, v) = if cyclic {
                (rng.below(n), rng.below(n))
            } else {
                let u = 1 + rng.below(n - 1);
                (u, rng.below(u))
            };
            s.push_str(&format!("{u} {v}\n"));
        }
        let stones: Vec<String> = (0..n).map(|_| rng.below(4).to_string()).collect();
        s.push_str(&stones.join(" "));
        s.push('\n');
    }
    s.into_bytes()
}

/// The tokens `break_at_random` inserts.
const BAD_TOKENS: &[&str] = &["7", "x", "4294967296", "-1", "99999999999999999999"];

/// A random input of up to `most` cases of up to `nodes` nodes and
/// `edges` edges (cyclic, ended by `0 0` or broken as asked) gives the same
/// output and error on every path, and all its answers when valid.
fn check_every_path(
    seed: u64,
    (most, nodes, edges): (u64, u64, u64),
    cyclic: bool,
    broken: bool,
) -> Result<(), TestCaseError> {
    let mut rng = SplitMix64::new(seed);
    let cases = 1 + rng.below(most) as usize;
    let mut input = random_input(&mut rng, cases, nodes, edges, cyclic);
    if rng.below(2) == 0 {
        input.extend_from_slice(b"0 0\n");
    }
    if broken {
        break_at_random(&mut input, &mut rng, BAD_TOKENS);
    }
    let (out, result) = same_on_every_path(&input);
    if !broken && !cyclic {
        prop_assert_eq!(result, Ok(()));
        prop_assert_eq!(out.lines().count(), cases);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn same_output_and_error_on_one_thread_and_two(
        seed in any::<u64>(),
        cyclic in any::<bool>(),
        broken in any::<bool>(),
    ) {
        check_every_path(seed, (8, 9, 16), cyclic, broken)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Cases over the size that the reader packs (1024 edges) mixed with
    /// smaller ones: both kinds of hand-over.
    #[test]
    fn same_output_and_error_with_large_cases(
        seed in any::<u64>(),
        cyclic in any::<bool>(),
        broken in any::<bool>(),
    ) {
        check_every_path(seed, (6, 60, 2500), cyclic, broken)?;
    }
}

#[test]
fn a_cycle_comes_before_a_bad_stone_count_of_its_case() {
    for input in ["2 1\n0 1\n1 1\n1 1\n0 0\nx\n", "2 1\n0 1\n1 1\n1 1\n0 0\n"] {
        let (out, result) = same_on_every_path(input.as_bytes());
        // Node 0 has value 1, node 1 value 0: one stone on each.
        assert_eq!(out, "First\n");
        let err = result.unwrap_err().to_string();
        assert!(err.starts_with("line 4, column 1:"), "{err}");
        assert!(err.contains("cycle"), "{err}");
    }
    // Unless the input is too short to hold the case's stone counts: then
    // the graph is not built, and the missing count is the error.
    let (out, result) = same_on_every_path(b"2 1\n0 1\n1 1\n5 1\n0 0\n");
    assert_eq!(out, "First\n");
    let err = result.unwrap_err().to_string();
    assert!(err.contains("expected a stone count"), "{err}");
    // Without the cycle, the bad count itself.
    let (out, result) = same_on_every_path(b"1 0\n1\n1 0\nx\n");
    assert_eq!(out, "Second\n");
    let err = result.unwrap_err().to_string();
    assert!(
        err.starts_with("line 4, column 1: expected a stone count"),
        "{err}"
    );
}

/// Inputs over the size where `Auto` takes two threads, broken near the
/// end and in the middle: the answers before the error, then the error,
/// the same on both paths.
#[test]
fn large_inputs_broken_anywhere() {
    let mut rng = SplitMix64::new(11);
    let valid = random_input(&mut rng, 200, 1000, 2000, false);
    assert!(valid.len() >= TWO_THREADS_MIN_BYTES, "{}", valid.len());
    let (out, result) = same_on_every_path(&valid);
    result.unwrap();
    assert_eq!(out.lines().count(), 200);
    for _ in 0..12 {
        let mut input = valid.clone();
        break_at_random(&mut input, &mut rng, BAD_TOKENS);
        // Compared between the paths inside; the error may be none (a
        // space replaced by a space).
        let _ = same_on_every_path(&input);
    }
    // A cycle in the middle: the answers before it, nothing after.
    let mut input = random_input(&mut rng, 100, 1000, 2000, false);
    input.extend_from_slice(b"2 2\n0 1\n1 0\n1 1\n");
    input.extend_from_slice(&valid);
    let (out, result) = same_on_every_path(&input);
    assert_eq!(out.lines().count(), 100);
    assert!(result.unwrap_err().to_string().contains("cycle"));
}
