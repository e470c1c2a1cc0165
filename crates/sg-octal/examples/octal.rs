//! Computes the Grundy sequence of a take-and-break game and prints a
//! summary with the time it took and the vector kernels used:
//! `cargo run --release -p sg-octal --example octal -- CODE [TO [THREADS]]`
//! (e.g. `.354 2200000`; `TO` defaults to 2^20; `THREADS`, the crew's
//! threads with the caller's, defaults to the cores, and is at most the
//! cores).
//! The speed comparisons with ogsolve (`benches/octal-vs-ogsolve.sh`,
//! `benches/octal-scale.sh`) run this example.

use std::time::Instant;

use sg_octal::{Rules, Sequence, Status};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(code) = args.first() else {
        eprintln!("usage: octal CODE [TO [THREADS]]");
        std::process::exit(2);
    };
    let rules = match Rules::parse(code) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let to: u64 = args
        .get(1)
        .map_or(1 << 20, |t| t.parse().expect("TO must be a number"));
    let start = Instant::now();
    let mut s = Sequence::new(rules.clone());
    if let Some(threads) = args.get(2) {
        s = s.with_threads(threads.parse().expect("THREADS must be a number"));
    }
    let status = s.extend_to(to, &mut |_| {}).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    let secs = start.elapsed().as_secs_f64();
    let checksum = s.values().iter().fold(0u64, |h, &g| {
        h.wrapping_mul(0x100_0000_01b3).wrapping_add(u64::from(g))
    });
    println!(
        "{rules}: {} values in {secs:.3} s, G({to}) = {}, max {}, mask {}, rare {}, last rare {:?}, checksum {checksum:016x}, kernels {}",
        s.values().len(),
        s.value(to).map_or("?".to_string(), |g| g.to_string()),
        s.max_value(),
        s.rare_mask(),
        s.rare_count(),
        s.last_rare(),
        sg_octal::simd_used().name()
    );
    match status {
        Status::Certified(p) => {
            println!("certified: preperiod {}, period {}", p.preperiod, p.period)
        }
        Status::LimitReached | Status::Stopped => {
            println!("no period certified up to heap {to}")
        }
    }
}
