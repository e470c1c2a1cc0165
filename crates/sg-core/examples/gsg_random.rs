//! Times the generalized Sprague-Grundy labelling on a pseudo-random cyclic
//! graph: `cargo run --release -p sg-core --example gsg_random [NODES [EDGES
//! [FREE%]]]` (default 10^6 nodes, 5 * 10^6 edges, 100%). FREE% of the edges
//! join two uniformly random nodes; the others go from a node to a lower id,
//! which gives mostly finite values. Measure peak memory with
//! `/usr/bin/time -v`.

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use sg_core::{GValue, Graph, generalized_grundy};
use std::time::Instant;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().expect("a count"));
    let n = args.next().unwrap_or(1_000_000);
    let m = args.next().unwrap_or(5 * n);
    let free = u64::from(args.next().unwrap_or(100));
    let mut rng = SplitMix64::seed_from_u64(0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next_u64();
    let (sources, targets): (Vec<u32>, Vec<u32>) = (0..m)
        .map(|_| {
            if next() % 100 < free || n < 2 {
                let s = (next() % u64::from(n)) as u32;
                (s, (next() % u64::from(n)) as u32)
            } else {
                let s = 1 + (next() % u64::from(n - 1)) as u32;
                (s, (next() % u64::from(s)) as u32)
            }
        })
        .unzip();
    let start = Instant::now();
    let graph = Graph::from_edges(n as usize, &sources, &targets).expect("valid edges");
    drop((sources, targets));
    let built = start.elapsed();
    let start = Instant::now();
    let values = generalized_grundy(&graph);
    let labelled = start.elapsed();
    let infinite = (0..n)
        .filter(|&v| values.value(v) == GValue::Infinite)
        .count();
    let largest = (0..n).filter_map(|v| values.finite(v)).max();
    println!(
        "{n} nodes, {m} edges: built in {built:?}, labelled in {labelled:?}; \
         {infinite} infinite, largest finite value {largest:?}"
    );
}
