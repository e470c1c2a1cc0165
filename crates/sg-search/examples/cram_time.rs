//! Times the solver on an empty Cram board: `cram_time ROWS COLS`.
use std::time::Instant;

use sg_search::Game;
use sg_search::games::cram::{Cram, fits_u64};
use sg_search::{Options, Solver};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let threads = args.get(2).copied().unwrap_or(1) as usize;
    if fits_u64(args[0], args[1]) {
        run(
            &Cram::<u64>::new(args[0], args[1]).unwrap(),
            |c| c.start(),
            &args,
            threads,
        );
    } else {
        run(
            &Cram::<u128>::new(args[0], args[1]).unwrap(),
            |c| c.start(),
            &args,
            threads,
        );
    }
}

fn run<G: Game>(cram: &G, start: impl Fn(&G) -> G::Position, args: &[u32], threads: usize) {
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
        "{}x{}: nimber {n} in {:.3} s, {} positions, {} expanded, {} MB",
        args[0],
        args[1],
        begin.elapsed().as_secs_f64(),
        solver.positions(),
        solver.expanded(),
        solver.table_bytes() >> 20
    );
}
