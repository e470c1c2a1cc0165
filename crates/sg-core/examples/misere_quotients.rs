//! The misère quotients of classical octal games, with the time and memory
//! each takes: `cargo run --release -p sg-core --example misere_quotients
//! [-- [--max-order M] [--to N] CODE...]` (by default the games of
//! Plambeck and Siegel's tables below, at the default limits).
//!
//! Each game is computed alone, in this process, one after the other; the
//! memory column is what the quotient and the construction's state take
//! at the end (the product table, the sets, the heap types), and the last
//! line the process's peak resident memory (`VmHWM`).

use std::time::Instant;

use sg_core::misere::{DEFAULT_MAX_ORDER, DEFAULT_TO, Ended, Limits, MisereQuotient};
use sg_core::octal::Rules;

const GAMES: [&str; 14] = [
    "0.75", "0.31", "0.137", "0.07", "0.77", "4.7", "0.123", "0.3122", "0.51", "0.15", "0.6",
    "0.35", "0.52", "0.71",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let mut limits = Limits {
        to: DEFAULT_TO,
        max_order: DEFAULT_MAX_ORDER,
    };
    let mut codes = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--max-order" => limits.max_order = number(args.next()) as usize,
            "--to" => limits.to = number(args.next()),
            _ => codes.push(arg),
        }
    }
    if codes.is_empty() {
        codes = GAMES.iter().map(|c| c.to_string()).collect();
    }
    println!(
        "| code | order | P | preperiod | period | certified | heaps covered | stopped | time | memory |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for code in &codes {
        let rules = Rules::parse(code).unwrap_or_else(|e| {
            eprintln!("error: {code}: {e}");
            std::process::exit(2);
        });
        let start = Instant::now();
        let q = MisereQuotient::compute(&rules, limits).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2);
        });
        let secs = start.elapsed().as_secs_f64();
        let (e, p) = q.period().map_or(("-".into(), "-".into()), |p| {
            (p.preperiod.to_string(), p.period.to_string())
        });
        let stopped = match q.ended() {
            Ended::Certified => "certified".to_owned(),
            Ended::Reached => "--to".to_owned(),
            Ended::Stopped { heap, why } => format!("{why:?} limit at heap {heap}").to_lowercase(),
        };
        println!(
            "| {} | {} | {} | {e} | {p} | {} | 0..={} | {stopped} | {secs:.3} s | {:.1} KiB |",
            rules,
            q.order(),
            q.p_portion().len(),
            if q.is_certified() { "yes" } else { "no" },
            q.computed_to(),
            q.bytes() as f64 / 1024.0,
        );
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM"))
    {
        println!(
            "\npeak resident memory of the process: {}",
            line[6..].trim()
        );
    }
}

fn number(arg: Option<String>) -> u64 {
    arg.and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        eprintln!("usage: misere_quotients [--max-order M] [--to N] [CODE...]");
        std::process::exit(2);
    })
}
