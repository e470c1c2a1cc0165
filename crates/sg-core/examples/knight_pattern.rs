//! Finds and certifies descriptions of knight values for several move sets,
//! printing each description's shape, size and timings, and compares the
//! speed of `KnightPattern::value` with a lookup in a 1024 x 1024 table.
//!
//! Run with `cargo run --release -p sg-core --example knight_pattern`
//! (add `-- --hyper-only` for the hyper knight and the timings only).

use sg_core::knight::{HYPER_KNIGHT, MoveSet, knight_square_table};
use sg_core::knight_pattern::{KnightPattern, SearchOptions, search};
use std::hint::black_box;
use std::time::Instant;

/// A small deterministic generator (SplitMix64) for random move sets and queries.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn describe(p: &KnightPattern) {
    println!(
        "  block B = {} ({} squares), {} bytes encoded, common period {}",
        p.block(),
        p.block() * (p.block() + 1) / 2,
        p.to_bytes().len(),
        p.common_period()
    );
    for l in p.layers() {
        println!(
            "  ray {:?}: band t in {:?}, period {} along the ray, {} tile values",
            l.direction(),
            l.band(),
            l.period(),
            l.tile_len()
        );
    }
    for (j, s) in p.sectors().iter().enumerate() {
        println!("  sector {j}: periods (px, py) = {:?}", s.periods());
    }
}

fn main() {
    let mut rng = Rng(20_261_129);
    let mut sets: Vec<(String, Vec<(i32, i32)>)> = vec![
        ("hyper knight".into(), HYPER_KNIGHT.to_vec()),
        (
            "chess knight, lowering moves".into(),
            vec![(-2, -1), (-1, -2), (-2, 1), (1, -2)],
        ),
        (
            "king, lowering moves".into(),
            vec![(-1, 0), (0, -1), (-1, -1)],
        ),
        (
            "wythoff-like short moves".into(),
            vec![(-1, 0), (0, -1), (-1, -1), (-2, 0), (0, -2)],
        ),
    ];
    for k in 0..8 {
        let len = 2 + rng.next() % 5;
        let mut steps = Vec::new();
        while steps.len() < len as usize {
            let dx = (rng.next() % 9) as i32 - 4;
            let dy = (rng.next() % 9) as i32 - 4;
            if dx + dy < 0 && !steps.contains(&(dx, dy)) {
                steps.push((dx, dy));
            }
        }
        sets.push((format!("random set {k}"), steps));
    }
    if std::env::args().any(|a| a == "--hyper-only") {
        sets.truncate(1);
    }
    let opts = SearchOptions::default();
    let mut hyper = None;
    for (name, steps) in &sets {
        let moves = MoveSet::new(steps).expect("valid steps");
        let start = Instant::now();
        let r = search(&moves, &opts);
        let el = start.elapsed();
        match r {
            Ok(o) => {
                let start = Instant::now();
                let report = o.pattern.check(opts.check_limit).expect("certified");
                let check = start.elapsed();
                println!(
                    "{name} {steps:?}: CERTIFIED from table x+y <= {}; search+check {el:.2?}, check alone {check:.2?}, {} squares checked, direct below x+y < {}",
                    o.table_sum, report.cells_checked, report.direct_bound
                );
                describe(&o.pattern);
                if hyper.is_none() {
                    hyper = Some(o.pattern);
                }
            }
            Err(e) => println!("{name} {steps:?}: {e} ({el:.2?})"),
        }
    }
    let p = hyper.expect("the hyper knight certifies");
    let n = 10_000_000;
    let queries: Vec<(u64, u64)> = (0..n).map(|_| (rng.next() >> 1, rng.next() >> 1)).collect();
    let start = Instant::now();
    let mut acc = 0u64;
    for &(x, y) in &queries {
        acc += u64::from(p.value(black_box(x), black_box(y)));
    }
    let huge = start.elapsed();
    let near: Vec<(u64, u64)> = queries.iter().map(|&(x, y)| (x % 1024, y % 1024)).collect();
    let start = Instant::now();
    for &(x, y) in &near {
        acc += u64::from(p.value(black_box(x), black_box(y)));
    }
    let small = start.elapsed();
    let table = knight_square_table(&MoveSet::hyper_knight(), 1024);
    let start = Instant::now();
    for &(x, y) in &near {
        acc += u64::from(table[black_box(x as usize) * 1024 + black_box(y as usize)]);
    }
    let lookup = start.elapsed();
    println!(
        "value over {n} random queries in [0, 2^63)^2: {:.2} ns/query; in [0, 1024)^2: {:.2} ns/query; 1024x1024 table lookup: {:.2} ns/query (checksum {acc})",
        huge.as_nanos() as f64 / n as f64,
        small.as_nanos() as f64 / n as f64,
        lookup.as_nanos() as f64 / n as f64
    );
}
