//! Every solver against definitional solvers written from the problem
//! statements (tests/common), on many random small inputs with messy
//! whitespace, and on inputs of the judges' maximum sizes. Hints are
//! replayed and checked to leave a losing position.

use crate::common::*;
use proptest::prelude::*;
use sg_core::knight::{MoveSet, TriangleTable};
use sg_solve::uva11927::Threads;
use sg_solve::{hdu1524, hdu5724, lightoj1315, uva11927};
use std::collections::HashMap;

/// A random DAG on `n` nodes: edges go from a higher to a lower id, then ids
/// are shuffled so topological order is not the id order.
fn random_dag(n: usize, edges: usize, rng: &mut SplitMix64) -> Vec<Vec<usize>> {
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut adj = vec![vec![]; n];
    if n > 1 {
        for _ in 0..edges {
            let a = 1 + rng.below(n as u64 - 1) as usize;
            let b = rng.below(a as u64) as usize;
            adj[perm[a]].push(perm[b]);
        }
    }
    adj
}

fn check_hdu1524(seed: u64, cases: usize, n_max: u64, edges_max: u64, queries: usize, hint: bool) {
    let mut rng = SplitMix64::new(seed);
    let mut lines: Vec<Vec<u64>> = vec![];
    // Per case: the graph and its values by the definition.
    let mut graphs: Vec<(Vec<Vec<usize>>, Vec<u32>)> = vec![];
    // Per query: its case, its tokens, and whether the first player wins.
    let mut expected: Vec<(usize, Vec<usize>, bool)> = vec![];
    for case in 0..cases {
        let n = 1 + rng.below(n_max) as usize;
        let adj = random_dag(n, rng.below(edges_max + 1) as usize, &mut rng);
        lines.push(vec![n as u64]);
        for list in &adj {
            let mut l = vec![list.len() as u64];
            l.extend(list.iter().map(|&w| w as u64));
            lines.push(l);
        }
        let mut memo = HashMap::new();
        let values: Vec<u32> = (0..n).map(|v| dag_value(&adj, v, &mut memo)).collect();
        for _ in 0..queries {
            let m = 1 + rng.below(10) as usize;
            let toks: Vec<usize> = (0..m).map(|_| rng.below(n as u64) as usize).collect();
            let x = toks.iter().fold(0, |x, &t| x ^ values[t]);
            lines.push(
                std::iter::once(m as u64)
                    .chain(toks.iter().map(|&t| t as u64))
                    .collect(),
            );
            expected.push((case, toks, x != 0));
        }
        lines.push(vec![0]);
        graphs.push((adj, values));
    }
    let input = format_lines(&lines, &mut rng);
    let mut out = vec![];
    hdu1524::solve(
        input.as_bytes(),
        &mut out,
        hdu1524::Options { hint, json: false },
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), expected.len());
    for (line, (case, toks, win)) in got.iter().zip(&expected) {
        let mut words = line.split(' ');
        assert_eq!(words.next().unwrap(), if *win { "WIN" } else { "LOSE" });
        if hint && *win {
            let (adj, values) = &graphs[*case];
            let from: usize = words.next().unwrap().parse().unwrap();
            let to: usize = words.next().unwrap().parse().unwrap();
            assert!(
                toks.contains(&from) && adj[from].contains(&to),
                "{line}: illegal move"
            );
            let mut after = toks.clone();
            let i = after.iter().position(|&t| t == from).unwrap();
            after[i] = to;
            let x = after.iter().fold(0, |x, &t| x ^ values[t]);
            assert_eq!(x, 0, "{line}: the hinted move does not win");
        }
    }
}

fn check_uva11927(seed: u64, cases: usize, n_max: u64, edges_max: u64, stones_max: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut lines: Vec<Vec<u64>> = vec![];
    let mut expected = String::new();
    for _ in 0..cases {
        let n = 1 + rng.below(n_max) as usize;
        let adj = random_dag(n, rng.below(edges_max + 1) as usize, &mut rng);
        let m: usize = adj.iter().map(Vec::len).sum();
        lines.push(vec![n as u64, m as u64]);
        for (u, list) in adj.iter().enumerate() {
            for &v in list {
                lines.push(vec![u as u64, v as u64]);
            }
        }
        let mut memo = HashMap::new();
        let mut x = 0;
        for v in 0..n {
            let s = rng.below(stones_max + 1);
            lines.push(vec![s]);
            // Definition of a sum: each stone is a game of its own.
            let g = dag_value(&adj, v, &mut memo);
            for _ in 0..s {
                x ^= g;
            }
        }
        expected.push_str(if x != 0 { "First\n" } else { "Second\n" });
    }
    lines.push(vec![0, 0]);
    let input = format_lines(&lines, &mut rng);
    // One thread and two (a reader and a solver) give the same answers.
    for threads in [
        Threads::One,
        Threads::Two,
        Threads::TwoReaderSolving,
        Threads::Auto,
    ] {
        let mut out = vec![];
        let opts = uva11927::Options {
            threads,
            ..Default::default()
        };
        uva11927::solve(input.as_bytes(), &mut out, opts).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{threads:?}");
    }
}

fn check_hdu5724(seed: u64, cases: usize, rows: u64, width: u32, pieces: u64, hint: bool) {
    let mut rng = SplitMix64::new(seed);
    let mut lines: Vec<Vec<u64>> = vec![vec![cases as u64]];
    let mut expected: Vec<(Vec<Vec<u32>>, u32)> = vec![];
    let mut memo = HashMap::new();
    for _ in 0..cases {
        let n = 1 + rng.below(rows) as usize;
        lines.push(vec![n as u64]);
        let mut case_rows = vec![];
        let mut x = 0;
        for _ in 0..n {
            let mut cols: Vec<u32> = (1..=width).collect();
            for i in (1..cols.len()).rev() {
                cols.swap(i, rng.below(i as u64 + 1) as usize);
            }
            cols.truncate(rng.below(pieces.min(u64::from(width)) + 1) as usize);
            lines.push(
                std::iter::once(cols.len() as u64)
                    .chain(cols.iter().map(|&c| c.into()))
                    .collect(),
            );
            cols.sort_unstable();
            x ^= row_value(&cols, width, &mut memo);
            case_rows.push(cols);
        }
        expected.push((case_rows, x));
    }
    let input = format_lines(&lines, &mut rng);
    let mut out = vec![];
    let opts = hdu5724::Options {
        width,
        hint,
        json: false,
        threads: hdu5724::Threads::Auto,
    };
    hdu5724::solve(input.as_bytes(), &mut out, opts, sg_core::row::row_grundy).unwrap();
    let out = String::from_utf8(out).unwrap();
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), expected.len());
    for (line, (case_rows, x)) in got.iter().zip(&expected) {
        let mut words = line.split(' ');
        assert_eq!(words.next().unwrap(), if *x != 0 { "YES" } else { "NO" });
        if hint && *x != 0 {
            let w: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
            let (r, from, to) = (w[0] as usize - 1, w[1], w[2]);
            let mv = row_moves(&case_rows[r], width)
                .into_iter()
                .find(|m| (m.0, m.1) == (from, to))
                .unwrap_or_else(|| panic!("{line}: illegal move"));
            let mut after = *x ^ row_value(&case_rows[r], width, &mut memo);
            after ^= row_value(&mv.2, width, &mut memo);
            assert_eq!(after, 0, "{line}: the hinted move does not win");
        }
    }
}

fn check_lightoj1315(seed: u64, cases: usize, knights: u64, coord: u64, hint: bool) {
    let mut rng = SplitMix64::new(seed);
    let g = knight_values(2 * coord as usize + 2);
    let mut lines: Vec<Vec<u64>> = vec![vec![cases as u64]];
    let mut expected = vec![];
    for _ in 0..cases {
        let n = 1 + rng.below(knights) as usize;
        lines.push(vec![n as u64]);
        let ks: Vec<(u64, u64)> = (0..n)
            .map(|_| (rng.below(coord), rng.below(coord)))
            .collect();
        let x = ks
            .iter()
            .fold(0, |x, &(a, b)| x ^ g[a as usize][b as usize]);
        lines.extend(ks.iter().map(|&(a, b)| vec![a, b]));
        expected.push((ks, x));
    }
    let input = format_lines(&lines, &mut rng);
    let mut out = vec![];
    let moves = MoveSet::hyper_knight();
    let mut table = TriangleTable::new(moves.clone(), 10_000);
    let opts = lightoj1315::Options { hint, json: false };
    lightoj1315::solve(input.as_bytes(), &mut out, opts, &moves, |x, y| {
        table.value(x, y)
    })
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), expected.len());
    for (k, (line, (ks, x))) in got.iter().zip(&expected).enumerate() {
        let prefix = format!("Case {}: {}", k + 1, if *x != 0 { "Alice" } else { "Bob" });
        assert!(line.starts_with(&prefix), "{line} vs {prefix}");
        if hint && *x != 0 {
            let w: Vec<i64> = line[prefix.len()..]
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            let (i, to) = (w[0] as usize - 1, (w[1], w[2]));
            let (fx, fy) = (ks[i].0 as i64, ks[i].1 as i64);
            assert!(
                KNIGHT_MOVES.contains(&(to.0 - fx, to.1 - fy)),
                "{line}: illegal move"
            );
            assert!(to.0 >= 0 && to.1 >= 0, "{line}: off the board");
            let after = x ^ g[fx as usize][fy as usize] ^ g[to.0 as usize][to.1 as usize];
            assert_eq!(after, 0, "{line}: the hinted move does not win");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn hdu1524_small(seed in any::<u64>(), hint in any::<bool>()) {
        check_hdu1524(seed, 3, 9, 20, 6, hint);
    }

    #[test]
    fn uva11927_small(seed in any::<u64>()) {
        check_uva11927(seed, 3, 9, 20, 7);
    }

    #[test]
    fn hdu5724_small(seed in any::<u64>(), width in 1u32..=20, hint in any::<bool>()) {
        check_hdu5724(seed, 3, 4, width, 5, hint);
    }

    #[test]
    fn hdu5724_wide(seed in any::<u64>(), width in 21u32..=64, hint in any::<bool>()) {
        check_hdu5724(seed, 2, 3, width, 3, hint);
    }

    #[test]
    fn lightoj1315_small(seed in any::<u64>(), hint in any::<bool>()) {
        check_lightoj1315(seed, 3, 5, 30, hint);
    }
}

// The judges' maximum sizes, checked against the definitional solvers.

#[test]
fn hdu1524_at_judge_limits() {
    check_hdu1524(1, 2, 1000, 10_000, 20_000, true);
}

#[test]
fn uva11927_at_judge_limits() {
    check_uva11927(2, 20, 1000, 10_000, 1000);
}

#[test]
fn hdu5724_at_judge_limits() {
    // 100 cases of up to 1000 full-width rows, against the definitional
    // table of all 2^20 rows (columns at bits c - 1, independent encoding).
    let table = row_table_20();
    let mut rng = SplitMix64::new(3);
    let mut lines: Vec<Vec<u64>> = vec![vec![100]];
    let mut expected = String::new();
    for _ in 0..100 {
        lines.push(vec![1000]);
        let mut x = 0;
        for _ in 0..1000 {
            let mask = rng.below(1 << 20) as usize;
            let cols: Vec<u64> = (1..=20).filter(|c| mask >> (c - 1) & 1 == 1).collect();
            lines.push(std::iter::once(cols.len() as u64).chain(cols).collect());
            x ^= table[mask];
        }
        expected.push_str(if x != 0 { "YES\n" } else { "NO\n" });
    }
    let input = format_lines(&lines, &mut rng);
    let mut out = vec![];
    hdu5724::solve(
        input.as_bytes(),
        &mut out,
        hdu5724::Options::default(),
        sg_core::row::row_grundy,
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn lightoj1315_at_judge_limits() {
    check_lightoj1315(4, 200, 1000, 500, true);
}
