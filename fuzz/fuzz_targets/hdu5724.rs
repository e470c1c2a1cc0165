//! HDU 5724 on any bytes (the first byte chooses the width and the hint,
//! the second where a second thread starts): the compiled-in table and the
//! closed form give the same output, or the same located error, never a
//! panic; and one thread and two give the same output and error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::hdu5724::{Options, Threads, solve};
use sg_solve::values::RowValues;

fuzz_target!(|data: &[u8]| {
    let [first, second, input @ ..] = data else {
        return;
    };
    let first = *first;
    let opts = Options {
        width: u32::from(first % 64) + 1,
        hint: first & 0x80 != 0,
        json: first & 0x40 != 0,
        threads: Threads::One,
        ..Options::default()
    };
    let table = RowValues::new(Some(*sg_tables::embedded_row_table()));
    let closed = RowValues::new(None);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let ra = solve(input, &mut a, opts, |m| table.value(m));
    let rb = solve(input, &mut b, opts, |m| closed.value(m));
    assert_eq!(ra, rb);
    assert_eq!(a, b);
    let split = input.len() * usize::from(*second) / 256;
    let two = Options {
        threads: Threads::SplitAt(split),
        ..opts
    };
    let mut c = Vec::new();
    let rc = solve(input, &mut c, two, |m| table.value(m));
    assert_eq!(ra, rc);
    assert_eq!(a, c);
});
