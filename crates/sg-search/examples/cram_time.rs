//! Times the solver on Cram boards: `cargo run --release -p sg-search
//! --features timing-examples --example cram_time -- RxC[/r,c...] [THREADS]`.
use std::time::Instant;

use sg_search::games::cram::{Cram, fits_u64};
use sg_search::{Game, Options, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut parts = args[0].split('/');
    let (r, c) = parts.next().unwrap().split_once('x').unwrap();
    let (rows, cols): (u32, u32) = (r.parse().unwrap(), c.parse().unwrap());
    let blocked: Vec<(u32, u32)> = parts
        .map(|p| {
            let (a, b) = p.split_once(',').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let threads = args.get(1).map_or(1, |t| t.parse().unwrap());
    if fits_u64(rows, cols) {
        run(
            &Cram::<u64>::with_blocked(rows, cols, &blocked).unwrap(),
            |c| c.start(),
            &args[0],
            threads,
        );
    } else {
        run(
            &Cram::<u128>::with_blocked(rows, cols, &blocked).unwrap(),
            |c| c.start(),
            &args[0],
            threads,
        );
    }
}

fn run<G: Game>(cram: &G, start: impl Fn(&G) -> G::Position, name: &str, threads: usize) {
    let solver = Solver::with_options(
        cram,
        Options {
            memory: 4 << 30,
            threads,
        },
    );
    let begin = Instant::now();
    let n = solver.nimber(&start(cram)).unwrap();
    println!(
        "{name}: nimber {n} in {:.3} s, {} positions, {} expanded, {} MB",
        begin.elapsed().as_secs_f64(),
        solver.positions(),
        solver.expanded(),
        solver.table_bytes() >> 20
    );
}
