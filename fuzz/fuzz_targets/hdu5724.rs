//! HDU 5724 on any bytes (the first byte chooses the width and the hint):
//! the compiled-in table and the closed form give the same output, or the
//! same located error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::hdu5724::{Options, solve};
use sg_solve::values::RowValues;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let opts = Options {
        width: u32::from(first % 64) + 1,
        hint: first & 0x80 != 0,
        json: first & 0x40 != 0,
        ..Options::default()
    };
    let table = RowValues::new(Some(*sg_tables::embedded_row_table()));
    let closed = RowValues::new(None);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let ra = solve(input, &mut a, opts, |m| table.value(m));
    let rb = solve(input, &mut b, opts, |m| closed.value(m));
    assert_eq!(ra, rb);
    assert_eq!(a, b);
});
