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

/// The options of a heap of `n` tokens under the `digits` of a code, from
/// the definition of the digits (bit 1: take all `i`; 2: take `i`, leave
/// one heap; 4: leave two; 8: leave three), each as the heaps left. The
/// tests' oracle, independent of the engines.
pub fn octal_options(digits: &[u8], n: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        let i = i as u64;
        if d & 1 != 0 && n == i && n > 0 {
            out.push(vec![]);
        }
        if n <= i {
            continue;
        }
        let rest = n - i;
        if d & 2 != 0 && i > 0 {
            out.push(vec![rest]);
        }
        if d & 4 != 0 {
            out.extend((1..=rest / 2).map(|a| vec![a, rest - a]));
        }
        if d & 8 != 0 {
            for a in 1..=rest / 3 {
                out.extend((a..=(rest - a) / 2).map(|b| vec![a, b, rest - a - b]));
            }
        }
    }
    out
}

/// Misère outcomes of sums of heaps by the definition (the player who
/// cannot move wins), memoised on sorted sums with heaps of 0 dropped:
/// the tests' oracle, independent of the quotient code.
#[derive(Debug, Clone)]
pub struct MisereDefinition {
    /// The code's digits.
    pub digits: Vec<u8>,
    memo: std::collections::HashMap<Vec<u64>, bool>,
}

impl MisereDefinition {
    /// The definition for the code with these digits.
    pub fn new(digits: &[u8]) -> MisereDefinition {
        MisereDefinition {
            digits: digits.to_vec(),
            memo: std::collections::HashMap::new(),
        }
    }

    /// Whether the sum of `heaps` is lost by the player to move: it has a
    /// move, and every move leaves a sum the opponent wins (the depth is
    /// at most the tokens: keep sums small).
    pub fn lost(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&lost) = self.memo.get(&key) {
            return lost;
        }
        let mut any_move = false;
        let mut lost = true;
        'heaps: for (i, &h) in key.iter().enumerate() {
            if i > 0 && key[i - 1] == h {
                continue;
            }
            for leaves in octal_options(&self.digits, h) {
                any_move = true;
                let mut next = key.clone();
                next.remove(i);
                next.extend(leaves);
                if self.lost(&next) {
                    lost = false;
                    break 'heaps;
                }
            }
        }
        let lost = any_move && lost;
        self.memo.insert(key, lost);
        lost
    }
}
