//! The table generators of `sg-tables` (the work of `cargo xtask gen`): the
//! row table of 2^20 and 2^24 rows and the knight table of 1024^2 and
//! 4096^2 squares, each on a rayon pool of 1 thread and of 2 threads.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rayon::{ThreadPool, ThreadPoolBuilder};
use sg_core::knight::MoveSet;
use sg_tables::generate::{NoProgress, knight_table, row_table};
use std::hint::black_box;

/// Thread counts to compare.
const THREADS: [usize; 2] = [1, 2];

fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("cannot start the worker threads")
}

fn row(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate-row");
    for width in [20u32, 24] {
        if width > 20 {
            group.sample_size(10);
        }
        group.throughput(Throughput::Elements(1 << width));
        for threads in THREADS {
            let pool = pool(threads);
            let id = BenchmarkId::new(format!("width-{width}"), format!("{threads}-threads"));
            group.bench_function(id, |b| {
                b.iter(|| pool.install(|| black_box(row_table(width, &NoProgress))))
            });
        }
    }
    group.finish();
}

fn knight(c: &mut Criterion) {
    let moves = MoveSet::hyper_knight();
    let mut group = c.benchmark_group("generate-knight");
    for size in [1024u64, 4096] {
        if size > 1024 {
            group.sample_size(10);
        }
        group.throughput(Throughput::Elements(size * size));
        for threads in THREADS {
            let pool = pool(threads);
            let id = BenchmarkId::new(format!("size-{size}"), format!("{threads}-threads"));
            group.bench_function(id, |b| {
                b.iter(|| {
                    pool.install(|| black_box(knight_table(&moves, size, &NoProgress).unwrap()))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, row, knight);
criterion_main!(benches);
