//! The octal engine (`sg_octal::Sequence`): values per second for a
//! few classic games, on 1 thread and on 2 threads, and
//! the definition for scale. The side-by-side comparison with ogsolve is
//! `benches/octal-vs-ogsolve.sh`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sg_octal::{Rules, Sequence, grundy_by_definition};
use std::hint::black_box;

/// Games and how many heaps each computes (none certifies a period there).
const GAMES: [(&str, u64); 4] = [
    (".354", 1 << 17),
    (".6", 1 << 16),
    (".106", 1 << 17),
    (".376", 1 << 16),
];

fn sequence(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal-sequence");
    group.sample_size(10);
    for (code, to) in GAMES {
        let rules = Rules::parse(code).expect("a valid code");
        group.throughput(Throughput::Elements(to + 1));
        for threads in [1, 2] {
            let id = BenchmarkId::new(code, format!("{threads}-threads"));
            group.bench_function(id, |b| {
                b.iter(|| {
                    let mut s = Sequence::new(rules.clone()).with_threads(threads);
                    s.extend_to(to, &mut |_| {}).expect("no overflow");
                    black_box(s.values().len())
                })
            });
        }
    }
    group.finish();
}

fn definition(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal-definition");
    group.sample_size(10);
    let rules = Rules::parse(".354").expect("a valid code");
    group.throughput(Throughput::Elements(4097));
    group.bench_function(".354", |b| {
        b.iter(|| black_box(grundy_by_definition(&rules, 4096).expect("no overflow")))
    });
    group.finish();
}

criterion_group!(benches, sequence, definition);
criterion_main!(benches);
