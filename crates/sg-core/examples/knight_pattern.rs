//! Finds and certifies descriptions of knight values for several move sets,
//! printing each description's shape, size and timings, and compares the
//! speed of `KnightPattern::value` with a lookup in a 1024 x 1024 table.
//!
//! Run with `cargo run --release -p sg-core --example knight_pattern`
//! (add `-- --hyper-only` for the hyper knight and the timings only). The
//! hyper knight's description that `grundy` uses is written by
//! `cargo xtask gen` to `data/knight-pattern.sgt`.

use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use sg_core::knight::{HYPER_KNIGHT, MoveSet, knight_square_table};
use sg_core::knight_pattern::{KnightPattern, SearchOptions, search};
use std::hint::black_box;
use std::time::Instant;

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
        let tile = if s.tile().len() <= 16 {
            format!(", tile {:?}", s.tile())
        } else {
            String::new()
        };
        println!("  sector {j}: periods (px, py) = {:?}{tile}", s.periods());
    }
}

fn main() {
    let mut rng = SplitMix64::seed_from_u64(20_261_129);
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
        let len = 2 + rng.next_u64() % 5;
        let mut steps = Vec::new();
        while steps.len() < len as usize {
            let dx = (rng.next_u64() % 9) as i32 - 4;
            let dy = (rng.next_u64() % 9) as i32 - 4;
            if dx + dy < 0 && !steps.contains(&(dx, dy)) {
                steps.push((dx, dy));
            }
        }
        sets.push((format!("random set {k}"), steps));
    }
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--hyper-only") {
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
    // Queries come from an inline xorshift generator rather than a stored
    // vector, so that the loop measures the lookup and not memory traffic;
    // an empty loop over the same generator gives the baseline to subtract.
    let n: u64 = 10_000_000;
    let table = knight_square_table(&MoveSet::hyper_knight(), 1024);
    let run = |kind: u8| {
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        let mut acc = 0u64;
        let time = timed(|| {
            for _ in 0..n {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let (x, y) = (s >> 33, (s << 31) >> 33);
                acc += match kind {
                    0 => x ^ y,
                    1 => u64::from(p.value(x << 32 | y, y << 32 | x)),
                    2 => u64::from(p.value(x & 1023, y & 1023)),
                    _ => u64::from(table[((x & 1023) << 10 | (y & 1023)) as usize]),
                };
            }
        });
        black_box(acc);
        time
    };
    let base = run(0);
    let per = |(wall, cpu): (f64, Option<f64>)| {
        let net = cpu.zip(base.1).map_or("n/a".to_string(), |(c, b)| {
            format!("{:.2}", (c - b) / n as f64)
        });
        format!(
            "{:.2} ns wall, {net} ns cpu net of the generator",
            wall / n as f64
        )
    };
    println!(
        "per query over {n} random queries (generator alone {:.2} ns wall, {} ns cpu): value in [0, 2^63)^2: {}; value in [0, 1024)^2: {}; 1024x1024 byte table: {}",
        base.0 / n as f64,
        base.1
            .map_or("n/a".to_string(), |c| format!("{:.2}", c / n as f64)),
        per(run(1)),
        per(run(2)),
        per(run(3))
    );
}

/// This thread's CPU time in nanoseconds (Linux), which unlike wall time
/// does not count time spent waiting for a core on a loaded machine.
fn cpu_ns() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Wall and CPU nanoseconds spent in `f`.
fn timed(f: impl FnOnce()) -> (f64, Option<f64>) {
    let (c0, t0) = (cpu_ns(), Instant::now());
    f();
    let wall = t0.elapsed().as_nanos() as f64;
    (wall, cpu_ns().zip(c0).map(|(a, b)| a - b))
}
