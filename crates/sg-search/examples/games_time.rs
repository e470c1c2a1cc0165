//! Times the solver on Node-Kayles grids and Chomp rectangles, one line
//! per size (a fresh solver each, the CPU time of the whole search):
//!
//! ```text
//! cargo run --release -p sg-search --features timing-examples --example games_time -- node-kayles 3 16
//! cargo run --release -p sg-search --features timing-examples --example games_time -- chomp 8 10
//! ```
//!
//! `node-kayles R N` solves the R x n grids for n from 1 to N; `chomp R N`
//! the R x n rectangles. An optional fourth argument sets the table's
//! memory in MiB (default 1024).
use std::time::Instant;

use sg_search::games::chomp::{self, Chomp};
use sg_search::games::node_kayles::{self, NodeKayles};
use sg_search::{Game, Options, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: Option<u32>| -> u32 {
        match (args.get(i), default) {
            (Some(arg), _) => arg.parse().unwrap_or_else(|_| usage()),
            (None, Some(default)) => default,
            (None, None) => usage(),
        }
    };
    let (rows, last) = (number(1, None), number(2, None));
    let options = Options {
        memory: (number(3, Some(1024)) as usize) << 20,
        ..Options::default()
    };
    for n in 1..=last {
        match args[0].as_str() {
            "node-kayles" if node_kayles::fits_u64(u64::from(rows * n)) => {
                let grid = NodeKayles::<u64>::grid(rows, n).unwrap_or_else(|e| fail(e));
                time(
                    &format!("node-kayles {rows}x{n}"),
                    &grid,
                    grid.start(),
                    options,
                );
            }
            "node-kayles" => {
                let grid = NodeKayles::<u128>::grid(rows, n).unwrap_or_else(|e| fail(e));
                time(
                    &format!("node-kayles {rows}x{n}"),
                    &grid,
                    grid.start(),
                    options,
                );
            }
            "chomp" if chomp::fits_u64(u64::from(rows), u64::from(n)) => {
                let game = Chomp::<u64>::rectangle(rows, n).unwrap_or_else(|e| fail(e));
                time(&format!("chomp {rows}x{n}"), &game, game.start(), options);
            }
            "chomp" => {
                let game = Chomp::<u128>::rectangle(rows, n).unwrap_or_else(|e| fail(e));
                time(&format!("chomp {rows}x{n}"), &game, game.start(), options);
            }
            _ => usage(),
        }
    }
}

fn time<G: Game>(name: &str, game: &G, start: G::Position, options: Options) {
    let solver = Solver::with_options(game, options);
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let nimber = solver.nimber(&start).unwrap_or_else(|e| fail(e));
    println!(
        "{name}: nimber {nimber}, {:.3} s CPU, {:.3} s wall, {} positions stored, {} expanded",
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
    // utime and stime, fields 14 and 15, after the command in parentheses.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks: f64 = fields.get(11..13).map_or(0.0, |t| {
        t.iter().filter_map(|f| f.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}

fn usage() -> ! {
    eprintln!("usage: games_time (node-kayles | chomp) ROWS LAST [MEMORY_MIB]");
    std::process::exit(2);
}

fn fail(error: impl std::fmt::Display) -> ! {
    eprintln!("error: {error}");
    std::process::exit(2);
}
