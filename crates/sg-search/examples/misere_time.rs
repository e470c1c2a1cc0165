//! Times the misère search, one line per position (a fresh solver each,
//! the CPU time of the whole search):
//!
//! ```text
//! cargo run --release -p sg-search --features timing-examples --example misere_time -- cram 4x5 5x5 4x7
//! cargo run --release -p sg-search --features timing-examples --example misere_time -- node-kayles 3x6 4x5
//! cargo run --release -p sg-search --features timing-examples --example misere_time -- chomp 5x6 7x7
//! ```
//!
//! Each line: the outcome for the player to move, CPU and wall time,
//! entries of the tables, positions expanded. `MISERE_MEMORY_MIB` sets
//! the tables' memory (default 1024; `MISERE_MEMORY` in bytes),
//! `MISERE_THREADS` the threads (default 1).
use std::time::Instant;

use sg_search::games::chomp::{self, Chomp};
use sg_search::games::cram::{self, Cram};
use sg_search::games::node_kayles::{self, NodeKayles};
use sg_search::{Game, Options, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((game, sizes)) = args.split_first() else {
        usage()
    };
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let options = Options {
        memory: env("MISERE_MEMORY", env("MISERE_MEMORY_MIB", 1024) << 20),
        threads: env("MISERE_THREADS", 1),
    };
    for size in sizes {
        let Some((r, c)) = size.split_once('x') else {
            usage()
        };
        let (Ok(rows), Ok(cols)) = (r.parse::<u32>(), c.parse::<u32>()) else {
            usage()
        };
        let name = format!("{game} {size}");
        match game.as_str() {
            "cram" if cram::fits_u64(rows, cols) => {
                let g = Cram::<u64>::new(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            "cram" => {
                let g = Cram::<u128>::new(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            "node-kayles" if node_kayles::fits_u64(u64::from(rows * cols)) => {
                let g = NodeKayles::<u64>::grid(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            "node-kayles" => {
                let g = NodeKayles::<u128>::grid(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            "chomp" if chomp::fits_u64(u64::from(rows), u64::from(cols)) => {
                let g = Chomp::<u64>::rectangle(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            "chomp" => {
                let g = Chomp::<u128>::rectangle(rows, cols).unwrap_or_else(|e| fail(e));
                time(&name, &g, g.start(), options);
            }
            _ => usage(),
        }
    }
}

fn time<G: Game>(name: &str, game: &G, start: G::Position, options: Options) {
    let solver = Solver::with_options(game, options);
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let outcome = solver.misere_outcome(&start).unwrap_or_else(|e| fail(e));
    println!(
        "{name}: misère {outcome:?}, {:.3} s CPU, {:.3} s wall, {} positions stored, {} expanded",
        cpu_seconds() - cpu,
        wall.elapsed().as_secs_f64(),
        solver.positions(),
        solver.expanded(),
    );
}

/// The CPU time of this process so far, in seconds (from
/// `/proc/self/stat`, in ticks of 1/100 s; 0 where there is none).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks: f64 = fields.get(11..13).map_or(0.0, |t| {
        t.iter().filter_map(|f| f.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

fn usage() -> ! {
    eprintln!("usage: misere_time (cram | node-kayles | chomp) RxC...");
    std::process::exit(2);
}

fn fail(error: impl std::fmt::Display) -> ! {
    eprintln!("error: {error}");
    std::process::exit(2);
}
