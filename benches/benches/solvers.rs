//! Each judge solver against the floor (parse every integer, nothing
//! else) on the same bytes: the generated inputs of `sg_bench::all_inputs`.
//! The row and knight solvers run as `grundy` does by default (embedded
//! tables, and the certified description beyond the knight table) and with
//! `--online` (no table).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sg_solve::values::{KnightValues, RowValues};
use sg_solve::{graph, hdu1524, hdu5724, lightoj1315, scan, uva11927};
use sg_tables::{embedded_knight_pattern, embedded_knight_table};
use std::hint::black_box;

fn solve(subcommand: &str, online: bool, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    match subcommand {
        "hdu1524" => hdu1524::solve(input, out, Default::default()),
        "uva11927" => uva11927::solve(input, out, Default::default()),
        "graph" => graph::solve(input, out, Default::default()),
        "hdu5724" => {
            // As grundy does: the half-row tables by default.
            let rows = if online {
                RowValues::new(None)
            } else {
                RowValues::by_halves()
            };
            hdu5724::solve(input, out, Default::default(), |m| rows.value(m))
        }
        "lightoj1315" => {
            let mut knights = KnightValues::new((!online).then(|| embedded_knight_table().clone()))
                .expect("the embedded table is the hyper knight's");
            if !online {
                knights = knights
                    .with_pattern(embedded_knight_pattern().clone())
                    .expect("the embedded pattern is the hyper knight's");
            }
            let moves = knights.moves().clone();
            lightoj1315::solve(input, out, Default::default(), &moves, |x, y| {
                knights.value(x, y)
            })
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
            b.iter(|| solve(input.subcommand, false, black_box(&input.bytes), &mut out))
        });
        if matches!(input.subcommand, "hdu5724" | "lightoj1315") {
            group.bench_function(format!("{}-online", input.subcommand), |b| {
                b.iter(|| solve(input.subcommand, true, black_box(&input.bytes), &mut out))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
