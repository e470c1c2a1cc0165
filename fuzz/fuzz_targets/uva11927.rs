//! UVA 11927 on any bytes: answers or a located error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    if let Err(e) = sg_solve::uva11927::solve(data, &mut out) {
        assert!(!e.to_string().chars().any(char::is_control));
    }
});
