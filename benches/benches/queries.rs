//! Per-query cost: a row's value by closed form against a lookup in a
//! precomputed table; a knight's value on demand against a lookup.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sg_bench::{SplitMix64, naive};
use sg_core::knight::{MoveSet, TriangleTable, knight_square_table};
use sg_core::row::{row_grundy, row_table_by_definition};
use std::hint::black_box;

const QUERIES: usize = 4096;

fn rows(c: &mut Criterion) {
    let mut rng = SplitMix64::new(11);
    let masks: Vec<u64> = (0..QUERIES).map(|_| rng.below(1 << 20)).collect();
    let table = row_table_by_definition(20);
    let mut group = c.benchmark_group("row-query");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("closed-form", |b| {
        b.iter(|| masks.iter().fold(0, |x, &m| x ^ row_grundy(black_box(m))))
    });
    group.bench_function("table-in-memory", |b| {
        b.iter(|| {
            masks
                .iter()
                .fold(0, |x, &m| x ^ table[black_box(m) as usize])
        })
    });
    group.finish();
    let mut group = c.benchmark_group("row-table-build");
    group.sample_size(10);
    group.bench_function("definition-sg-core", |b| {
        b.iter(|| row_table_by_definition(20))
    });
    group.bench_function("naive-write-up", |b| b.iter(naive::row_table));
    group.finish();
}

fn knights(c: &mut Criterion) {
    let mut rng = SplitMix64::new(12);
    let squares: Vec<(u64, u64)> = (0..QUERIES)
        .map(|_| (rng.below(500), rng.below(500)))
        .collect();
    let moves = MoveSet::hyper_knight();
    let square = knight_square_table(&moves, 1024);
    let mut group = c.benchmark_group("knight-query");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("table-in-memory", |b| {
        b.iter(|| {
            squares
                .iter()
                .fold(0, |x, &(a, b)| x ^ square[black_box(a * 1024 + b) as usize])
        })
    });
    group.bench_function("on-demand-cold", |b| {
        b.iter(|| {
            let mut t = TriangleTable::new(moves.clone(), TriangleTable::DEFAULT_MAX_SUM);
            squares
                .iter()
                .fold(0, |x, &(a, b)| x ^ t.value(black_box(a), b).unwrap())
        })
    });
    group.bench_function("naive-dfs-cold", |b| {
        b.iter(|| {
            let mut memo = vec![-1i8; 1000 * 1000];
            squares.iter().fold(0, |x, &(a, b)| {
                x ^ naive::knight_dfs(&mut memo, 1000, black_box(a as usize), b as usize)
            })
        })
    });
    group.finish();
}

criterion_group!(benches, rows, knights);
criterion_main!(benches);
