//! `Table::from_bytes` on any bytes (placed at a 64-byte aligned address),
//! then everything `grundy` does with a table: the typed views, lookups,
//! the values' check and the description for `tables info` / `verify`.
//! Errors, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sg_tables::{AlignedBytes, Table};

fuzz_target!(|data: &[u8]| {
    let bytes = AlignedBytes::copy_from(data);
    for table in [
        Table::from_bytes(&bytes),
        Table::from_bytes_unverified(&bytes),
    ]
    .into_iter()
    .flatten()
    {
        if let Ok(row) = table.row() {
            let _ = row.verify_values();
            for mask in [0, 1, u64::MAX, (1 << row.width()) - 1] {
                let _ = row.get(mask);
            }
        }
        if let Ok(knight) = table.knight() {
            // Large sizes take long to check: only small ones here.
            if knight.size() <= 256 {
                let _ = knight.verify_values();
            }
            let _ = knight.get(0, 0);
            let _ = knight.get(knight.size() - 1, knight.size() - 1);
            let _ = knight.get(u64::MAX, 0);
        }
        if let Ok(pattern) = table.knight_pattern() {
            let _ = pattern.value(u64::MAX, u64::MAX);
        }
    }
    let mut out = Vec::new();
    let _ = sg_solve::tables::report("fuzz.sgt", &bytes, true, &mut out);
    let _ = sg_solve::tables::report("fuzz.sgt", &bytes, false, &mut out);
    let _ = sg_solve::tables::describe("fuzz.sgt", &bytes);
});
