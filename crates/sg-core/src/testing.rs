//! Seeded inputs for tests and benchmarks (feature `testing`, and in this
//! crate's own tests): a SplitMix64 generator whose stream never changes,
//! and random DAGs. Not part of the stable API.
//!
//! SplitMix64 is a named algorithm (Steele, Lea and Flood 2014), here the
//! implementation of `rand_xoshiro`, checked there against the reference
//! code: the same seed gives the same inputs across dependency upgrades.

use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// SplitMix64 (Steele, Lea and Flood 2014, the implementation of
/// `rand_xoshiro`): a tiny, well-mixed, seeded generator whose output never
/// changes, with a uniform `below`.
#[derive(Debug, Clone)]
pub struct SplitMix64(rand_xoshiro::SplitMix64);

impl SplitMix64 {
    /// A generator with the given seed.
    pub fn new(seed: u64) -> Self {
        Self(rand_xoshiro::SplitMix64::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Edges of a random DAG on `n` nodes: each edge goes from a node to one
/// of lower rank under a random relabelling, so ids are not a topological
/// order. Returns the sources and the targets.
pub fn random_dag_edges(n: usize, edges: usize, rng: &mut SplitMix64) -> (Vec<u32>, Vec<u32>) {
    let mut label: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        label.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let (mut sources, mut targets) = (Vec::with_capacity(edges), Vec::with_capacity(edges));
    for _ in 0..edges {
        let a = 1 + rng.below(n as u64 - 1);
        let b = rng.below(a);
        sources.push(label[a as usize]);
        targets.push(label[b as usize]);
    }
    (sources, targets)
}

/// Adjacency lists of the edges `sources[i] -> targets[i]`.
pub fn adjacency(n: usize, sources: &[u32], targets: &[u32]) -> Vec<Vec<u32>> {
    let mut adj = vec![Vec::new(); n];
    for (&u, &v) in sources.iter().zip(targets) {
        adj[u as usize].push(v);
    }
    adj
}
