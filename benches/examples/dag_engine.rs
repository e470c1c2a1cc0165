//! The DAG engine on a random DAG of N nodes and 5N edges (N from the first
//! argument, default 10^7): prints the time to build the CSR graph and to
//! compute every value, nodes per second, and the peak memory (VmHWM).
use sg_bench::{SplitMix64, random_dag_edges};
use sg_core::{Graph, graph::grundy_values};
use std::time::Instant;

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(10_000_000, |s| s.parse().expect("N"));
    let (sources, targets) = random_dag_edges(n, 5 * n, &mut SplitMix64::new(n as u64));
    let before = peak_kib();
    let t0 = Instant::now();
    let graph = Graph::from_edges(n, &sources, &targets).unwrap();
    let t1 = Instant::now();
    let values = grundy_values(&graph).unwrap();
    let t2 = Instant::now();
    let total = (t2 - t0).as_secs_f64();
    println!(
        "nodes {n} edges {} build {:.3} s values {:.3} s total {:.3} s ({:.1} M nodes/s)",
        5 * n,
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        total,
        n as f64 / total / 1e6
    );
    let peak = peak_kib();
    println!(
        "peak memory {} MiB: input edge list {} MiB, engine {} MiB = {:.1} bytes/edge + node",
        peak / 1024,
        before / 1024,
        (peak - before) / 1024,
        (peak - before) as f64 * 1024.0 / (6 * n) as f64,
    );
    println!(
        "whole process: {:.1} bytes per edge + 16 per node budget {:.0} MiB; max value {}",
        peak as f64 * 1024.0 / (5 * n) as f64,
        (24 * 5 * n + 16 * n) as f64 / 1048576.0,
        values.iter().max().unwrap()
    );
    // The same checksum as benches/c/dag-engine.c prints.
    let checksum = values.iter().enumerate().fold(0u64, |sum, (v, &g)| {
        sum.wrapping_add(u64::from(g) * v as u64)
    });
    println!("checksum {checksum}");
}
