//! Times the solver on games of many moves and large nimbers, one line per
//! size (a fresh solver each, the CPU time of the whole search):
//!
//! ```text
//! cargo run --release -p sg-search --features timing-examples --example mex_time -- nim 350 450 500
//! cargo run --release -p sg-search --features timing-examples --example mex_time -- subtraction 100 200 300
//! ```
//!
//! `nim N`: a Nim heap of `N`, whose moves go to every heap `0..N`
//! (nimber `N`). `subtraction K`: the subtraction game `{1, ..., K}` (a
//! move takes 1 to `K` tokens) from a heap of `3K` (nimber 0). Add `down`
//! before the sizes to list the moves from the largest heap left to the
//! smallest (the default lists them from the smallest).
use std::time::Instant;

use sg_search::{Game, Solver};

/// A Nim heap (`k` unset) or a heap of the subtraction game `{1..k}`;
/// the moves listed from the smallest heap left (`down`: the largest).
struct Heap {
    k: Option<u32>,
    down: bool,
}

impl Game for Heap {
    type Position = u32;
    /// The heap left.
    type Move = u32;

    fn moves(&self, &heap: &u32, moves: &mut Vec<u32>) {
        let lowest = self.k.map_or(0, |k| heap.saturating_sub(k));
        let start = moves.len();
        moves.extend(lowest..heap);
        if self.down {
            moves[start..].reverse();
        }
    }

    fn play(&self, _: &u32, &left: &u32) -> u32 {
        left
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(kind) = args.first() else { usage() };
    let down = args.get(1).is_some_and(|a| a == "down");
    let sizes: Vec<u32> = args[1 + usize::from(down)..]
        .iter()
        .map(|a| a.parse().unwrap_or_else(|_| usage()))
        .collect();
    for n in sizes {
        let (game, start, name) = match kind.as_str() {
            "nim" => (Heap { k: None, down }, n, format!("nim {n}")),
            "subtraction" => (
                Heap { k: Some(n), down },
                3 * n,
                format!("subtraction {{1..{n}}} from {}", 3 * n),
            ),
            _ => usage(),
        };
        let solver = Solver::new(&game);
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let nimber = solver.nimber(&start).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(1);
        });
        println!(
            "{name}{}: nimber {nimber}, {:.3} s CPU, {:.3} s wall, {} positions stored, {} expanded",
            if down { " (down)" } else { "" },
            cpu_seconds() - cpu,
            wall.elapsed().as_secs_f64(),
            solver.positions(),
            solver.expanded(),
        );
    }
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
    eprintln!("usage: mex_time (nim | subtraction) [down] SIZE...");
    std::process::exit(2);
}
