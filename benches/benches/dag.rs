//! The DAG engine on random DAGs of 10^5, 10^6 and 10^7 nodes with 5 edges
//! a node, by phase: building the CSR graph from the edge list, and the
//! values (the interleaved walkers that `grundy_values` uses on large graphs,
//! against the plain depth-first engine); and, on the smallest size, the
//! naive recursive memoized solver of the write-ups.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sg_bench::{SplitMix64, adjacency, naive, random_dag_edges};
use sg_core::{Graph, Grundy, graph::grundy_values};
use std::hint::black_box;

fn dag(c: &mut Criterion) {
    let mut group = c.benchmark_group("dag-engine");
    group.sample_size(10);
    for n in [100_000usize, 1_000_000, 10_000_000] {
        let (sources, targets) = random_dag_edges(n, 5 * n, &mut SplitMix64::new(n as u64));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("build", n), &n, |b, &n| {
            b.iter(|| Graph::from_edges(n, &sources, &targets).unwrap())
        });
        let graph = Graph::from_edges(n, &sources, &targets).unwrap();
        group.bench_with_input(BenchmarkId::new("values", n), &n, |b, _| {
            b.iter(|| black_box(grundy_values(&graph).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("values-plain-dfs", n), &n, |b, _| {
            b.iter(|| black_box(Grundy::new(&graph).into_values().unwrap()))
        });
        if n <= 100_000 {
            let adj = adjacency(n, &sources, &targets);
            group.bench_with_input(BenchmarkId::new("naive-recursive", n), &n, |b, &n| {
                b.iter(|| {
                    let mut memo = vec![-1; n];
                    for v in 0..n as u32 {
                        naive::dag_grundy(&adj, &mut memo, v);
                    }
                    black_box(memo)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, dag);
criterion_main!(benches);
