//! Seeded inputs for tests and benchmarks (feature `testing`, and in this
//! crate's own tests): a SplitMix64 generator whose stream never changes
//! (`sg_nimber::testing`, re-exported), and random DAGs. Not part of the
//! stable API.
//!
//! SplitMix64 is a named algorithm (Steele, Lea and Flood 2014), here the
//! implementation of `rand_xoshiro`, checked there against the reference
//! code: the same seed gives the same inputs across dependency upgrades.

pub use sg_nimber::testing::SplitMix64;

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
