//! HDU 1524 on any bytes, with and without hints: answers or a located
//! error, never a panic; the hints never change the answers' words.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::hdu1524::{Options, solve};

fuzz_target!(|data: &[u8]| {
    let (mut plain, mut hinted) = (Vec::new(), Vec::new());
    let a = solve(
        data,
        &mut plain,
        Options {
            hint: false,
            ..Options::default()
        },
    );
    let b = solve(
        data,
        &mut hinted,
        Options {
            hint: true,
            ..Options::default()
        },
    );
    assert_eq!(a, b);
    let words = |out: &[u8]| -> Vec<u8> {
        out.split(|&b| b == b'\n')
            .map(|line| line.first().copied().unwrap_or(0))
            .collect()
    };
    assert_eq!(words(&plain), words(&hinted));
});
