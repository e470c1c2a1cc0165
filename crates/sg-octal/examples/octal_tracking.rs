//! The share of the period search in the octal engine's runs: each game is
//! computed on one thread (`Sequence::extend_to`, which searches for a
//! period after each value), then its values are given to the period
//! search alone (`sg_octal::certify`, the same search, one value at
//! a time); the search's share is the second time over the first.
//!
//! `cargo run --release -p sg-octal --example octal_tracking` runs the 1024
//! games of the catalogue (`0.ddd` and `4.ddd`, heaps up to 4096 unless
//! certified sooner, as `cargo xtask gen`), then the long solved games
//! `.16`, `.56`, `.127`, `.354` and `.376` from scratch (up to 2^25 heaps
//! unless certified sooner). Every period found by the search alone must be
//! the run's, or the example fails.

use std::time::{Duration, Instant};

use sg_octal::{Rules, Sequence, certify};

/// Computes `rules` up to heap `to`, then certifies its values alone: the
/// two times.
fn timed(rules: &Rules, to: u64) -> (Duration, Duration) {
    let start = Instant::now();
    let mut sequence = Sequence::new(rules.clone()).with_threads(1);
    sequence
        .extend_to(to, &mut |_| {})
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    let computed = start.elapsed();
    let start = Instant::now();
    let period = certify(rules, sequence.values());
    let searched = start.elapsed();
    assert_eq!(
        period,
        sequence.period(),
        "{rules}: the search alone differs"
    );
    (computed, searched)
}

fn share(searched: Duration, computed: Duration) -> String {
    format!(
        "{:.1}%",
        100.0 * searched.as_secs_f64() / computed.as_secs_f64()
    )
}

fn main() {
    let (mut computed, mut searched) = (Duration::ZERO, Duration::ZERO);
    for d0 in [0, 4] {
        for digits in 0..512 {
            let code = format!("{d0}.{}{}{}", digits / 64, digits / 8 % 8, digits % 8);
            let rules = Rules::parse(&code).expect("a valid code");
            let (c, s) = timed(&rules, 4096);
            computed += c;
            searched += s;
        }
    }
    println!(
        "catalogue (1024 games to 4096): run {:.3} s, period search alone {:.3} s: {}",
        computed.as_secs_f64(),
        searched.as_secs_f64(),
        share(searched, computed)
    );
    for code in [".16", ".56", ".127", ".354", ".376"] {
        let rules = Rules::parse(code).expect("a valid code");
        let (c, s) = timed(&rules, 1 << 25);
        println!(
            "{code}: run {:.3} s, period search alone {:.3} s: {}",
            c.as_secs_f64(),
            s.as_secs_f64(),
            share(s, c)
        );
    }
}
