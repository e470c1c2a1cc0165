//! LightOJ 1315 on any bytes (the first byte chooses the hint): the
//! compiled-in table with the certified description, and the description
//! alone, give the same output or the same located error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_solve::lightoj1315::{Options, solve};
use sg_solve::values::KnightValues;

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let opts = Options {
        hint: first & 1 != 0,
        json: first & 2 != 0,
    };
    let pattern = sg_tables::embedded_knight_pattern().clone();
    let table = Some(sg_tables::embedded_knight_table().clone());
    let mut with_table = KnightValues::new(table)
        .unwrap()
        .with_pattern(pattern.clone())
        .unwrap();
    let mut without = KnightValues::new(None)
        .unwrap()
        .with_pattern(pattern)
        .unwrap();
    let moves = with_table.moves().clone();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let ra = solve(input, &mut a, opts, &moves, |x, y| with_table.value(x, y));
    let rb = solve(input, &mut b, opts, &moves, |x, y| without.value(x, y));
    assert_eq!(ra, rb);
    assert_eq!(a, b);
});
