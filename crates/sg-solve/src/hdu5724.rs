//! HDU 5724 "Chess": rows of pieces that jump right over blocks; `YES` if
//! the first player (Alice) wins.
//!
//! Input: `T`, then `T` test cases, each `n` and `n` rows `m p_1 .. p_m`
//! (the columns of the row's pieces, `1..=W`, all different; `W = 20` in
//! the judge). The game is the sum of its rows; a row's value comes from a
//! caller-supplied evaluator (closed form, or a precomputed table).

use crate::error::{InputError, InputErrorKind};
use crate::scan::Scanner;
use sg_core::row::{self, MAX_WIDTH};
use sg_core::sum::component_to_move;
use std::io::Write;

/// Options of the solver.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Board width `W` (columns `1..=W`), at most 64.
    pub width: u32,
    /// After `YES`, print a winning move ` ROW FROM TO`.
    pub hint: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            width: 20,
            hint: false,
        }
    }
}

/// The bit of column `position` (1-based from the left) on a board of
/// `width` cells: bit 0 is the rightmost cell.
#[inline]
pub fn column_bit(width: u32, position: u64) -> u32 {
    width - position as u32
}

/// Solves every test case, with `row_value(mask)` giving the Grundy value of
/// a row. On an error, `out` holds the answers of the complete cases before.
pub fn solve(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    mut row_value: impl FnMut(u64) -> u32,
) -> Result<(), InputError> {
    assert!(
        (1..=MAX_WIDTH).contains(&opts.width),
        "the width is checked by the caller"
    );
    let width = opts.width;
    let mut sc = Scanner::new(input);
    let mut rows: Vec<u64> = Vec::new();
    let cases = sc.next("the number of test cases T")?;
    for _ in 0..cases {
        let n = sc.next("the number of rows n")?;
        let mut sum = 0u32;
        rows.clear();
        for _ in 0..n {
            let m = sc.next("the number of pieces m in a row")?;
            let mut mask = 0u64;
            for _ in 0..m {
                let p = sc.next("a piece's column")?;
                if p == 0 || p > u64::from(width) {
                    return Err(sc.error_at(
                        sc.last_offset(),
                        InputErrorKind::PositionOutOfRange { position: p, width },
                    ));
                }
                let bit = 1u64 << column_bit(width, p);
                if mask & bit != 0 {
                    return Err(sc.error_at(
                        sc.last_offset(),
                        InputErrorKind::RepeatedPosition { position: p },
                    ));
                }
                mask |= bit;
            }
            sum ^= row_value(mask);
            if opts.hint {
                rows.push(mask);
            }
        }
        if sum == 0 {
            out.extend_from_slice(b"NO\n");
        } else if opts.hint {
            let (row_index, from, to) = winning_move(&rows, sum, width, &mut row_value);
            writeln!(out, "YES {row_index} {from} {to}").expect("writing to a Vec cannot fail");
        } else {
            out.extend_from_slice(b"YES\n");
        }
    }
    sc.expect_end("the last test case")
}

/// A winning move `(row, from, to)`: the 1-based row index in the case and
/// the piece's column before and after, given rows whose values XOR to
/// `sum != 0`.
pub fn winning_move(
    rows: &[u64],
    sum: u32,
    width: u32,
    row_value: &mut impl FnMut(u64) -> u32,
) -> (usize, u32, u32) {
    let (index, target) = component_to_move(rows.iter().map(|&mask| row_value(mask)), sum)
        .expect("a nonzero XOR has a row with its top bit");
    let m = row::row_moves(rows[index])
        .find(|m| row_value(m.row) == target)
        .expect("mex: every smaller value has a follower");
    (index + 1, width - m.from, width - m.to)
}
