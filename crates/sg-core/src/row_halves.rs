//! Row values of up to 20 cells from two small tables built at compile
//! time (22.5 KiB together, so they stay in cache), instead of the 1 MiB
//! table of every row.
//!
//! The closed form ([`row_grundy`]), seen from bit 0 upwards: blocks of
//! pieces separated by empty cells; a block counts (its size is XORed in)
//! when an odd number of empty cells lie below it. Split the row into its
//! low 10 bits and its high 10 bits. The blocks of the low half count as in
//! the low half alone, except the block that reaches bit 9 (its *top run*),
//! which may go on into the high half. So the low table gives, per low
//! half: the value of its blocks without the top run, the length `a` of the
//! top run, and the parity `p` of its empty cells; the high table gives,
//! per high half, `a` and `p`: the value of the high half's blocks, its first
//! block lengthened by `a`, with `p` more empty cells below all of them.

use crate::row::row_grundy;

/// Cells in each half.
const HALF: u32 = 10;
/// Rows up to this many cells are answered by [`row_grundy_by_halves`].
pub const HALVES_WIDTH: u32 = 2 * HALF;
const HALF_MASK: u64 = (1 << HALF) - 1;
/// Top-run lengths `0..=HALF` times the two parities.
const CARRIES: usize = 2 * (HALF as usize + 1);

/// The closed form of a row whose first block is lengthened by `run` cells
/// below it, with an odd number of empty cells below it all if `odd`.
/// (`run == 0` and `!odd` is [`row_grundy`], computed here block by
/// block, as a `const fn`.)
const fn value_with_carry(row: u64, run: u32, odd: bool) -> u32 {
    let mut rest = row;
    let mut value = 0;
    let mut odd_empties = odd;
    let mut run = run;
    loop {
        let ones = rest.trailing_ones();
        if odd_empties {
            value ^= ones + run;
        }
        run = 0;
        rest = match rest.checked_shr(ones) {
            Some(r) => r,
            None => 0,
        };
        if rest == 0 {
            return value;
        }
        let gap = rest.trailing_zeros();
        odd_empties ^= gap & 1 == 1;
        rest >>= gap;
    }
}

/// Per low half: the value without the top run (bits 0..8), and the carry
/// index `2 * a + p` (bits 8..16).
static LOW: [u16; 1 << HALF] = {
    let mut table = [0u16; 1 << HALF];
    let mut low = 0;
    while low < table.len() {
        let row = low as u64;
        // The run of pieces reaching bit HALF - 1.
        let a = (row << (64 - HALF)).leading_ones();
        let top_run = if a == 0 {
            0
        } else {
            HALF_MASK ^ (HALF_MASK >> a)
        };
        let value = value_with_carry(row & !top_run, 0, false);
        let p = (HALF - row.count_ones()) & 1;
        table[low] = (value as u16) | (((2 * a + p) as u16) << 8);
        low += 1;
    }
    table
};

/// Per carry index and high half: the high half's value.
static HIGH: [[u8; 1 << HALF]; CARRIES] = {
    let mut table = [[0u8; 1 << HALF]; CARRIES];
    let mut carry = 0;
    while carry < CARRIES {
        let mut high = 0;
        while high < 1 << HALF {
            let v = value_with_carry(high as u64, carry as u32 / 2, carry % 2 == 1);
            table[carry][high] = v as u8;
            high += 1;
        }
        carry += 1;
    }
    table
};

/// The Grundy value of a row of at most [`HALVES_WIDTH`] cells (bit 0 is
/// the rightmost cell), from the two tables: two lookups in 22.5 KiB.
/// Panics if `row` has a bit at or above [`HALVES_WIDTH`] set.
#[inline]
pub fn row_grundy_by_halves(row: u64) -> u32 {
    assert!(row >> HALVES_WIDTH == 0, "a row of at most 20 cells");
    let low = LOW[(row & HALF_MASK) as usize];
    let high = HIGH[usize::from(low >> 8)][(row >> HALF) as usize];
    u32::from(low as u8 ^ high)
}

/// [`row_grundy`] for rows of any width, by the tables where they apply.
#[inline]
pub fn row_grundy_fast(row: u64) -> u32 {
    if row >> HALVES_WIDTH == 0 {
        row_grundy_by_halves(row)
    } else {
        row_grundy(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_20_cells_matches_the_closed_form() {
        for row in 0..1u64 << HALVES_WIDTH {
            assert_eq!(row_grundy_by_halves(row), row_grundy(row), "row {row:#b}");
        }
        assert_eq!(row_grundy_fast(u64::MAX), row_grundy(u64::MAX));
        assert_eq!(row_grundy_fast(1 << 40 | 5), row_grundy(1 << 40 | 5));
    }

    #[test]
    fn the_carry_free_loop_is_the_closed_form() {
        for row in (0..1u64 << 16).chain([u64::MAX, u64::MAX - 1, 1 << 63]) {
            assert_eq!(value_with_carry(row, 0, false), row_grundy(row));
        }
    }
}
