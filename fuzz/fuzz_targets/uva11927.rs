//! UVA 11927 on any bytes: answers or a located error, never a panic; and
//! the one-thread and two-thread paths give the same answers and error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::uva11927::{Options, Threads, solve};

fuzz_target!(|data: &[u8]| {
    let run = |threads| {
        let mut out = Vec::new();
        let result = solve(
            data,
            &mut out,
            Options {
                threads,
                ..Options::default()
            },
        );
        (out, result.map_err(|e| e.to_string()))
    };
    let one = run(Threads::One);
    if let Err(e) = &one.1 {
        assert!(!e.chars().any(char::is_control));
    }
    assert_eq!(one, run(Threads::Two));
});
