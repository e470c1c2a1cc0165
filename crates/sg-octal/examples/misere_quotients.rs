//! The misère quotients of classical octal games, with the time and memory
//! each takes: `cargo run --release -p sg-octal --example misere_quotients
//! [-- [--max-order M] [--to N] [--max-seconds S] [--per-heap] CODE...]`
//! (by default the games of Plambeck and Siegel's tables below, at the
//! default limits). `--max-seconds` stops each game after `S` seconds
//! (the quotient of the heaps proven by then is reported); `--per-heap`
//! prints a line for each heap proven: its order, `|P|`, the seconds so
//! far, what the construction keeps and the process's resident memory.
//!
//! Each game is computed alone, in this process, one after the other; the
//! memory column is what the quotient and the construction's state take
//! at the end (the product table, the sets, the heap types), and the last
//! line the process's peak resident memory (`VmHWM`).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use sg_octal::Rules;
use sg_octal::misere::{DEFAULT_MAX_ORDER, DEFAULT_TO, Ended, Limit, Limits, MisereQuotient};

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
    let mut max_seconds = None;
    let mut per_heap = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--max-order" => limits.max_order = number(args.next()) as usize,
            "--to" => limits.to = number(args.next()),
            "--max-seconds" => max_seconds = Some(Duration::from_secs(number(args.next()))),
            "--per-heap" => per_heap = true,
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
        let mut last = None;
        let mut watch = |p: &sg_octal::misere::Progress| {
            if per_heap && last != Some(p.proven_to) {
                last = Some(p.proven_to);
                println!(
                    "| {rules} | heap {} | order {} | P {} | {:.2} s | kept {:.1} MiB | RSS {} |",
                    p.proven_to,
                    p.order,
                    p.p_portion,
                    start.elapsed().as_secs_f64(),
                    p.bytes as f64 / (1 << 20) as f64,
                    resident("VmRSS")
                );
            }
            if max_seconds.is_some_and(|m| start.elapsed() >= m) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let q = MisereQuotient::compute_watched(&rules, limits, &mut watch).unwrap_or_else(|e| {
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
            Ended::Stopped { heap, why } => match why {
                Limit::Order { needed } => format!("order {needed} needed at heap {heap}"),
                Limit::Work => format!("working limits at heap {heap}"),
                Limit::Refuted { sum } => format!("refuted by {sum} at heap {heap}"),
                Limit::Interrupted => format!("time bound at heap {heap}"),
            },
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
    println!(
        "\npeak resident memory of the process: {}",
        resident("VmHWM")
    );
}

/// A line of `/proc/self/status` (`VmRSS`, `VmHWM`), or `?`.
fn resident(key: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with(key))
                .map(|l| l[key.len() + 1..].trim().to_owned())
        })
        .unwrap_or_else(|| "?".to_owned())
}

fn number(arg: Option<String>) -> u64 {
    arg.and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        eprintln!("usage: misere_quotients [--max-order M] [--to N] [CODE...]");
        std::process::exit(2);
    })
}
