//! Each judge solver against the floor (parse every integer, nothing
//! else) on the same bytes: the generated inputs of `sg_bench::all_inputs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sg_core::knight::{MoveSet, TriangleTable};
use sg_solve::{hdu1524, hdu5724, lightoj1315, scan, uva11927};
use std::hint::black_box;

fn solve(subcommand: &str, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    match subcommand {
        "hdu1524" => hdu1524::solve(input, out, Default::default()),
        "uva11927" => uva11927::solve(input, out),
        "hdu5724" => hdu5724::solve(input, out, Default::default(), sg_core::row::row_grundy),
        "lightoj1315" => {
            let moves = MoveSet::hyper_knight();
            let mut t = TriangleTable::new(moves.clone(), TriangleTable::DEFAULT_MAX_SUM);
            lightoj1315::solve(input, out, Default::default(), &moves, |x, y| t.value(x, y))
        }
        other => panic!("unknown subcommand {other}"),
    }
    .expect("generated inputs are valid");
}

fn solvers(c: &mut Criterion) {
    let mut out = Vec::new();
    for input in sg_bench::all_inputs() {
        let mut group = c.benchmark_group(input.name);
        group.sample_size(20);
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        group.bench_function("floor", |b| {
            b.iter(|| scan::parse_all(black_box(&input.bytes)).unwrap())
        });
        group.bench_function(input.subcommand, |b| {
            b.iter(|| solve(input.subcommand, black_box(&input.bytes), &mut out))
        });
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
