//! Deterministic judge inputs for benchmarks, at and beyond the judges'
//! limits. The same bytes feed the criterion benchmarks (in memory) and the
//! whole-process measurements (`cargo xtask inputs --out DIR` writes them).
//! Not published and not for users: it also holds the naive baselines of
//! the judges' write-ups ([`naive`]), which the benchmarks measure against.
//!
//! The generator is SplitMix64 with fixed seeds (`sg_core::testing`, shared
//! with the tests), a named algorithm, so that the inputs stay
//! byte-identical across dependency upgrades (the `rand` crate does not
//! promise stable streams for its standard generators).

use std::fmt::Write;

pub use sg_core::testing::{SplitMix64, adjacency, random_dag_edges};

pub mod naive;

/// One named benchmark input.
#[derive(Debug, Clone)]
pub struct Input {
    /// File name, e.g. `hdu1524-large.in`.
    pub name: &'static str,
    /// The `grundy` subcommand that reads it.
    pub subcommand: &'static str,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// HDU 1524: `cases` graphs of `n` nodes and `edges` edges, `queries`
/// query lines of 1 to 10 tokens each.
pub fn hdu1524(cases: usize, n: usize, edges: usize, queries: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = String::new();
    for _ in 0..cases {
        let (sources, targets) = random_dag_edges(n, edges, &mut rng);
        let adj = adjacency(n, &sources, &targets);
        writeln!(s, "{n}").unwrap();
        for list in &adj {
            write!(s, "{}", list.len()).unwrap();
            for v in list {
                write!(s, " {v}").unwrap();
            }
            s.push('\n');
        }
        for _ in 0..queries {
            let m = 1 + rng.below(10);
            write!(s, "{m}").unwrap();
            for _ in 0..m {
                write!(s, " {}", rng.below(n as u64)).unwrap();
            }
            s.push('\n');
        }
        s.push_str("0\n");
    }
    s.into_bytes()
}

/// HDU 1524 on a chain `n-1 -> n-2 -> ... -> 0` with `queries` queries.
pub fn hdu1524_chain(n: usize, queries: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = format!("{n}\n0\n");
    for v in 1..n {
        writeln!(s, "1 {}", v - 1).unwrap();
    }
    for _ in 0..queries {
        writeln!(s, "2 {} {}", rng.below(n as u64), rng.below(n as u64)).unwrap();
    }
    s.push_str("0\n");
    s.into_bytes()
}

/// The complete DAG on `n` nodes (every node moves to every lower one: node
/// `v` has value `v`) with `queries` two-token queries, in the format of
/// HDU 1524 (`graph_format == false`) or of `grundy graph` (`true`); the
/// same graph and queries either way.
pub fn complete_dag(n: usize, queries: usize, graph_format: bool, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = if graph_format {
        format!("{n} {}\n", n * (n - 1) / 2)
    } else {
        format!("{n}\n")
    };
    for v in 0..n {
        if graph_format {
            for w in 0..v {
                writeln!(s, "{v} {w}").unwrap();
            }
        } else {
            write!(s, "{v}").unwrap();
            for w in 0..v {
                write!(s, " {w}").unwrap();
            }
            s.push('\n');
        }
    }
    for _ in 0..queries {
        writeln!(s, "2 {} {}", rng.below(n as u64), rng.below(n as u64)).unwrap();
    }
    if !graph_format {
        s.push_str("0\n");
    }
    s.into_bytes()
}

/// UVA 11927: `cases` DAGs of `n` nodes and `edges` edges, stone counts
/// in `0..=1000`.
pub fn uva11927(cases: usize, n: usize, edges: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = String::new();
    for _ in 0..cases {
        let (sources, targets) = random_dag_edges(n, edges, &mut rng);
        writeln!(s, "{n} {edges}").unwrap();
        for (u, v) in sources.into_iter().zip(targets) {
            writeln!(s, "{u} {v}").unwrap();
        }
        for _ in 0..n {
            writeln!(s, "{}", rng.below(1001)).unwrap();
        }
        s.push('\n');
    }
    s.push_str("0 0\n");
    s.into_bytes()
}

/// UVA 11927 on one chain of `n` nodes, a stone on every node.
pub fn uva11927_chain(n: usize) -> Vec<u8> {
    let mut s = format!("{n} {}\n", n - 1);
    for v in 1..n {
        writeln!(s, "{v} {}", v - 1).unwrap();
    }
    for _ in 0..n {
        s.push_str("1\n");
    }
    s.push_str("0 0\n");
    s.into_bytes()
}

/// HDU 5724: `cases` cases of `rows` random 20-cell rows.
pub fn hdu5724(cases: usize, rows: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = format!("{cases}\n");
    for _ in 0..cases {
        writeln!(s, "{rows}").unwrap();
        for _ in 0..rows {
            let mask = rng.below(1 << 20);
            write!(s, "{}", mask.count_ones()).unwrap();
            for c in 1..=20 {
                if mask >> (c - 1) & 1 == 1 {
                    write!(s, " {c}").unwrap();
                }
            }
            s.push('\n');
        }
    }
    s.into_bytes()
}

/// LightOJ 1315: `cases` cases of `knights` knights with `0 <= x, y < bound`.
pub fn lightoj1315(cases: usize, knights: usize, bound: u64, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut s = format!("{cases}\n");
    for _ in 0..cases {
        writeln!(s, "{knights}").unwrap();
        for _ in 0..knights {
            writeln!(s, "{} {}", rng.below(bound), rng.below(bound)).unwrap();
        }
    }
    s.into_bytes()
}

/// Every benchmark input: the judges' limits and beyond, deep chains and
/// dense graphs.
pub fn all_inputs() -> Vec<Input> {
    let input = |name, subcommand, bytes| Input {
        name,
        subcommand,
        bytes,
    };
    vec![
        input(
            "hdu1524-large.in",
            "hdu1524",
            hdu1524(1, 1000, 10_000, 400_000, 1),
        ),
        input(
            "hdu1524-dense.in",
            "hdu1524",
            hdu1524(1, 1000, 400_000, 100_000, 2),
        ),
        input(
            "hdu1524-chain.in",
            "hdu1524",
            hdu1524_chain(1_000_000, 100_000, 3),
        ),
        input(
            "uva11927-large.in",
            "uva11927",
            uva11927(200, 1000, 10_000, 4),
        ),
        input("uva11927-chain.in", "uva11927", uva11927_chain(1_000_000)),
        input(
            "hdu1524-complete.in",
            "hdu1524",
            complete_dag(2000, 100_000, false, 9),
        ),
        input(
            "graph-complete.in",
            "graph",
            complete_dag(2000, 100_000, true, 9),
        ),
        input("hdu5724-large.in", "hdu5724", hdu5724(100, 1000, 5)),
        input("hdu5724-huge.in", "hdu5724", hdu5724(1000, 1000, 6)),
        input(
            "lightoj1315-large.in",
            "lightoj1315",
            lightoj1315(200, 1000, 500, 7),
        ),
        input(
            "lightoj1315-far.in",
            "lightoj1315",
            lightoj1315(200, 1000, 4000, 8),
        ),
    ]
}
