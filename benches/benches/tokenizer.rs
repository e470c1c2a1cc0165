//! The tokenizer alone (`scan::parse_all`: every integer, nothing else) on
//! every benchmark input, in bytes per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sg_solve::scan;
use std::hint::black_box;

fn tokenizer(c: &mut Criterion) {
    let mut group = c.benchmark_group("tokenizer");
    group.sample_size(20);
    for input in sg_bench::all_inputs() {
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        group.bench_function(input.name, |b| {
            b.iter(|| scan::parse_all(black_box(&input.bytes)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, tokenizer);
criterion_main!(benches);
