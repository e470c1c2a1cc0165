//! Building the CSR form of a large graph from an edge list on up to two
//! threads.
//!
//! A counting sort of random edges scatters every edge to a random place in
//! arrays far larger than the caches (and the TLB). Instead:
//! 1. each thread takes half of the edges, checks them, and partitions them
//!    by the high bits of their source into [`BUCKETS`] buckets (a few
//!    hundred sequential write streams), in its own buffer;
//! 2. each thread then takes a run of whole buckets (about half of the
//!    edges): a bucket is a range of nodes, so its offsets and its targets
//!    are contiguous ranges of the result, and a counting sort per bucket
//!    works on offsets that stay in cache.
//!
//! Within a bucket the first thread's edges come before the second's, and
//! each keeps the input order: successors stay in input order, exactly as
//! in the sequential build.

use super::Graph;
use crate::hugepages::filled_vec;

/// log2 of the number of buckets.
const BUCKET_BITS: u32 = 8;
/// The number of buckets.
const BUCKETS: usize = 1 << BUCKET_BITS;

/// One thread's share of step 1: its edges as `source << 32 | target`,
/// grouped by bucket, and where each bucket starts in them.
struct Partition {
    edges: Vec<u64>,
    /// `BUCKETS + 1` entries.
    starts: Vec<usize>,
}

/// What step 1 found in one thread's edges before partitioning them.
struct Scan {
    /// The largest node named, if any edge.
    largest: Option<u32>,
    /// Whether the sources never decrease.
    sorted: bool,
    /// Edges per bucket, at index `bucket + 1`.
    counts: Vec<usize>,
}

fn scan(sources: &[u32], targets: &[u32], shift: u32) -> Scan {
    let mut counts = vec![0usize; BUCKETS + 1];
    let (mut sorted, mut previous, mut largest) = (true, 0u32, 0u32);
    for (&s, &t) in sources.iter().zip(targets) {
        largest = largest.max(s.max(t));
        sorted &= previous <= s;
        previous = s;
        counts[(s >> shift) as usize + 1] += 1;
    }
    Scan {
        largest: (!sources.is_empty()).then_some(largest),
        sorted,
        counts,
    }
}

fn partition(sources: &[u32], targets: &[u32], shift: u32, mut counts: Vec<usize>) -> Partition {
    for b in 1..counts.len() {
        counts[b] += counts[b - 1];
    }
    let starts = counts.clone();
    let mut fill = counts;
    // Written and read in order: no huge pages needed, and `vec!` of zeros
    // takes fresh zeroed pages without writing them first.
    let mut edges = vec![0u64; sources.len()];
    for (&s, &t) in sources.iter().zip(targets) {
        let slot = &mut fill[(s >> shift) as usize];
        edges[*slot] = (u64::from(s) << 32) | u64::from(t);
        *slot += 1;
    }
    Partition { edges, starts }
}

/// Runs `a` and `b`, on two threads if `threads > 1`.
fn both<A: Send, B: Send>(
    threads: usize,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if threads < 2 {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let helper = scope.spawn(b);
        (a(), helper.join().expect("a build thread panicked"))
    })
}

/// Step 2 for the buckets `buckets`, whose nodes start at `first_node` and
/// edges at `first_edge`: fills their part of the offsets (one entry per
/// node, the start of its successors) and of the targets.
#[allow(clippy::too_many_arguments)]
fn sort_buckets(
    parts: &[Partition],
    buckets: std::ops::Range<usize>,
    shift: u32,
    first_node: usize,
    first_edge: usize,
    offsets: &mut [u32],
    targets: &mut [u32],
) {
    let mut edge = first_edge;
    let mut fill: Vec<u32> = Vec::new();
    for b in buckets {
        let lo = (b << shift).max(first_node);
        let hi = ((b + 1) << shift).min(first_node + offsets.len());
        if lo >= hi {
            continue;
        }
        let bucket_edges = || {
            parts
                .iter()
                .flat_map(move |p| &p.edges[p.starts[b]..p.starts[b + 1]])
        };
        fill.clear();
        fill.resize(hi - lo + 1, 0);
        for &e in bucket_edges() {
            fill[(e >> 32) as usize - lo + 1] += 1;
        }
        fill[0] = edge as u32;
        for v in 1..fill.len() {
            fill[v] += fill[v - 1];
        }
        offsets[lo - first_node..hi - first_node].copy_from_slice(&fill[..hi - lo]);
        edge = fill[hi - lo] as usize;
        for &e in bucket_edges() {
            let slot = &mut fill[(e >> 32) as usize - lo];
            targets[*slot as usize - first_edge] = e as u32;
            *slot += 1;
        }
    }
}

/// The CSR graph of the edges, or `None` if an edge is out of range or the
/// sources are sorted (the caller's sequential build handles both).
pub(super) fn partitioned(
    node_count: usize,
    sources: &[u32],
    targets: &[u32],
    threads: usize,
) -> Option<Graph> {
    let shift = (usize::BITS - node_count.leading_zeros()).saturating_sub(BUCKET_BITS);
    let half = if threads > 1 {
        sources.len() / 2
    } else {
        sources.len()
    };
    let (s0, s1) = sources.split_at(half);
    let (t0, t1) = targets.split_at(half);
    // Step 1: check, and partition unless the edges are sorted (then the
    // caller needs no sort) or out of range (the caller reports the first).
    let step1 = |s: &[u32], t: &[u32]| {
        let scan = scan(s, t, shift);
        let bad = scan.largest.is_some_and(|l| l as usize >= node_count);
        let part = (!bad && !scan.sorted).then(|| partition(s, t, shift, scan.counts.clone()));
        (scan, part)
    };
    let ((scan0, part0), (scan1, part1)) = both(threads, || step1(s0, t0), || step1(s1, t1));
    if [&scan0, &scan1]
        .iter()
        .any(|scan| scan.largest.is_some_and(|l| l as usize >= node_count))
    {
        return None;
    }
    let boundary_sorted = s0.last().zip(s1.first()).is_none_or(|(a, b)| a <= b);
    if scan0.sorted && scan1.sorted && boundary_sorted {
        return None;
    }
    let parts = [
        part0.unwrap_or_else(|| partition(s0, t0, shift, scan0.counts)),
        part1.unwrap_or_else(|| partition(s1, t1, shift, scan1.counts)),
    ];
    // Step 2: split the buckets where about half of the edges lie.
    let bucket_end = |b: usize| -> usize { parts.iter().map(|p| p.starts[b + 1]).sum() };
    let split = if threads > 1 {
        (0..BUCKETS)
            .find(|&b| bucket_end(b) >= sources.len() / 2)
            .map_or(BUCKETS, |b| b + 1)
    } else {
        BUCKETS
    };
    let split_node = (split << shift).min(node_count);
    let split_edge = if split == 0 { 0 } else { bucket_end(split - 1) };
    let mut offsets = filled_vec(node_count + 1, 0u32);
    let mut sorted = filled_vec(sources.len(), 0u32);
    offsets[node_count] = sources.len() as u32;
    {
        let (o0, o1) = offsets[..node_count].split_at_mut(split_node);
        let (g0, g1) = sorted.split_at_mut(split_edge);
        let parts = &parts;
        both(
            threads,
            || sort_buckets(parts, 0..split, shift, 0, 0, o0, g0),
            || sort_buckets(parts, split..BUCKETS, shift, split_node, split_edge, o1, g1),
        );
    }
    Some(Graph {
        offsets,
        targets: sorted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{SplitMix64, adjacency};

    fn check(n: usize, s: &[u32], t: &[u32]) {
        let adj = adjacency(n, s, t);
        for threads in 1..=2 {
            let g = partitioned(n, s, t, threads).expect("unsorted, in range");
            assert_eq!(g.edge_count(), s.len());
            assert_eq!(g.offsets()[0], 0);
            for (v, list) in adj.iter().enumerate() {
                assert_eq!(g.successors(v as u32), list.as_slice(), "{threads} threads");
            }
        }
    }

    #[test]
    fn keeps_every_edge_in_input_order() {
        // Node counts around powers of two (bucket edges), duplicate edges,
        // and halves of which one is sorted.
        let mut rng = SplitMix64::new(5);
        for n in [300usize, 65_536, 70_001] {
            let m = 3 * n + 7;
            let mut s: Vec<u32> = (0..m).map(|_| rng.below(n as u64) as u32).collect();
            let t: Vec<u32> = (0..m).map(|_| rng.below(n as u64) as u32).collect();
            check(n, &s, &t);
            s[..m / 2].sort_unstable();
            check(n, &s, &t);
            s[m / 2..].sort_unstable();
            s[..m / 2].reverse();
            check(n, &s, &t);
            // Edges leaving two nodes, alternately.
            let two: Vec<u32> = (0..m)
                .map(|e| if e % 2 == 0 { n as u32 - 1 } else { 0 })
                .collect();
            check(n, &two, &t);
        }
    }

    #[test]
    fn leaves_sorted_and_out_of_range_edges_to_the_caller() {
        for threads in 1..=2 {
            assert!(partitioned(5, &[0, 1, 1, 4], &[1, 2, 3, 0], threads).is_none());
            assert!(partitioned(5, &[3, 1, 1, 4], &[1, 5, 3, 0], threads).is_none());
            assert!(partitioned(5, &[3, 1, 1, 5], &[1, 2, 3, 0], threads).is_none());
            assert!(partitioned(5, &[], &[], threads).is_none());
        }
    }
}
