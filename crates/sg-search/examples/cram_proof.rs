//! Solves an empty Cram board, writes its proof and checks it, with the
//! times and the size: `cargo run --release -p sg-search --features
//! timing-examples --example cram_proof -- ROWS COLS [MEMORY_MIB]`.
use std::time::Instant;

use sg_search::games::cram::{Cram, fits_u64};
use sg_search::proof::{ProofGame, check, prove};
use sg_search::{Options, Solver};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("ROWS COLS [MEMORY_MIB]"))
        .collect();
    let (rows, cols) = (args[0], args[1]);
    let memory = args.get(2).map_or(1 << 30, |&mib| (mib as usize) << 20);
    if fits_u64(rows, cols) {
        run(&Cram::<u64>::new(rows, cols).expect("a board"), memory);
    } else {
        run(&Cram::<u128>::new(rows, cols).expect("a board"), memory);
    }
}

fn run<G: ProofGame>(game: &G, memory: usize) {
    let solver = Solver::with_options(game, Options { memory, threads: 1 });
    let begin = Instant::now();
    let nimber = solver.nimber(&game.root()).expect("solved");
    let solved = begin.elapsed().as_secs_f64();
    let (expanded, positions) = (solver.stats().expanded, solver.positions());
    let begin = Instant::now();
    let proof = prove(&solver, "cram_proof example").expect("proved");
    let written = begin.elapsed().as_secs_f64();
    let begin = Instant::now();
    let checked = check(&proof.bytes).expect("the proof checks");
    let checking = begin.elapsed().as_secs_f64();
    assert_eq!(checked.nimber, nimber);
    println!(
        "{}: nimber {nimber}; solved in {solved:.2} s ({expanded} positions expanded, {positions} stored); proof of {} claims, {} bytes, written in {written:.2} s ({} positions expanded for it), checked in {checking:.2} s",
        checked.game,
        proof.claims,
        proof.bytes.len(),
        solver.stats().expanded - expanded,
    );
}
