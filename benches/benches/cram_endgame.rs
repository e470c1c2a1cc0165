//! The Cram endgame table (`sg_tables::cram`, the committed table of every
//! polyomino of at most 14 cells): the time of one lookup, of a
//! component's nimber through a board (connectivity check, canonical form
//! and lookup), and the solver on a few boards with and without the table.
//! `cargo bench -p sg-criterion --bench cram_endgame`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sg_search::games::cram::{Cells, Cram};
use sg_search::{Game, Options, Solver};
use sg_tables::embedded_cram_endgame;
use sg_tables::polyomino::free_polyominoes;
use std::hint::black_box;
use std::sync::Arc;

/// Every 97th polyomino of 10 to 14 cells, in the order listed (which
/// spreads them over the table), as canonical keys.
fn sample() -> Vec<u128> {
    free_polyominoes(14)[9..]
        .iter()
        .flatten()
        .step_by(97)
        .copied()
        .collect()
}

fn lookup(c: &mut Criterion) {
    let keys = sample();
    let table = embedded_cram_endgame();
    let mut group = c.benchmark_group("cram-endgame-lookup");
    group.throughput(Throughput::Elements(keys.len() as u64));
    group.bench_function("table.get", |b| {
        b.iter(|| {
            let mut x = 0u8;
            for &key in &keys {
                x ^= table.get(black_box(key)).unwrap_or(0);
            }
            x
        })
    });
    // Through a board: the key moved (not canonical), so the board checks
    // that it is connected and computes its canonical form first.
    let cram = Cram::<u128>::new(16, 8)
        .expect("a valid board")
        .with_endgame(Arc::new(table));
    let moved: Vec<Cells<u128>> = keys.iter().map(|&k| Cells(k << 9)).collect();
    group.bench_function("Cram::known_nimber", |b| {
        b.iter(|| {
            let mut x = 0;
            for component in &moved {
                x ^= cram.known_nimber(black_box(component)).unwrap_or(0);
            }
            x
        })
    });
    group.finish();
}

/// A board: its name, rows, columns and blocked cells.
type Board = (&'static str, u32, u32, &'static [(u32, u32)]);

fn solve(c: &mut Criterion) {
    let table = embedded_cram_endgame();
    let mut group = c.benchmark_group("cram-solve");
    group.sample_size(10);
    let boards: [Board; 3] = [
        ("4x7", 4, 7, &[]),
        ("5x6", 5, 6, &[]),
        ("4x8-corner", 4, 8, &[(0, 0)]),
    ];
    for (name, rows, cols, blocked) in boards {
        let plain = Cram::<u64>::with_blocked(rows, cols, blocked).expect("a valid board");
        let with = plain.clone().with_endgame(Arc::new(table));
        for (label, cram) in [("without", &plain), ("with-table", &with)] {
            group.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| {
                    let options = Options {
                        memory: 256 << 20,
                        threads: 1,
                    };
                    let solver = Solver::with_options(cram, options);
                    solver.nimber(&cram.start()).expect("Cram has no cycle")
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lookup, solve);
criterion_main!(benches);
