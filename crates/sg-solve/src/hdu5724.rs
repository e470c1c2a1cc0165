//! HDU 5724 "Chess": rows of pieces that jump right over blocks; `YES` if
//! the first player (Alice) wins.
//!
//! Input: `T`, then `T` test cases, each `n` and `n` rows `m p_1 .. p_m`
//! (the columns of the row's pieces, `1..=W`, all different; `W = 20` in
//! the judge). The game is the sum of its rows; a row's value comes from a
//! caller-supplied evaluator (closed form, or a precomputed table).
//!
//! Tried and dropped: reading token by token with no branch per row (every
//! token classified by arithmetic; its conversions then form one chain of
//! dependent instructions: slower than the mispredicted branch at each
//! row's end); the rows' values looked up after the whole case is read; one
//! solver per value source so that the look-up inlines (no change).

use crate::answer::{CaseAnswer, RowMove};
use crate::error::{InputError, InputErrorKind};
use crate::scan::{Scanner, at_most};
use sg_core::row::{self, MAX_WIDTH};
use sg_core::sum::component_to_move;

mod split;

/// How many threads [`solve`] uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Threads {
    /// Two when the output is plain (no `--hint`, no `--json`), the input
    /// has at least [`TWO_THREADS_MIN_BYTES`] and the machine has at least
    /// two CPUs; else one.
    #[default]
    Auto,
    /// One thread, whatever the input.
    One,
    /// Two threads whatever the input's size, the second starting at a
    /// guessed case boundary near the middle (one thread with `--hint` or
    /// `--json`, or if none is found or the thread cannot be started).
    Two,
    /// [`Threads::Two`], the second thread starting at this byte offset,
    /// whatever is there: for the tests of the checks that fall back to
    /// one thread.
    #[doc(hidden)]
    SplitAt(usize),
}

/// Inputs shorter than this are solved on one thread by [`Threads::Auto`]:
/// starting the second thread costs more than it saves on them (the first
/// cases of `hdu5724-large`, two threads against one: 1.01x the time at
/// 449 KB, 0.97x at 562 KB, 0.93x at 674 KB, in paired runs of
/// `benches/paired.py`).
pub const TWO_THREADS_MIN_BYTES: usize = 512 * 1024;

/// Options of the solver.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Board width `W` (columns `1..=W`), at most 64.
    pub width: u32,
    /// After `YES`, print a winning move ` ROW FROM TO`.
    pub hint: bool,
    /// One JSON object per test case instead of the judge's lines (see
    /// [`crate::answer`]).
    pub json: bool,
    /// One thread or two; the output and the errors are the same.
    pub threads: Threads,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            width: 20,
            hint: false,
            json: false,
            threads: Threads::Auto,
        }
    }
}

/// Solves every test case, with `row_value(mask)` giving the Grundy value of
/// a row. On an error, `out` holds the answers of the complete cases before.
pub fn solve(
    input: &[u8],
    out: &mut Vec<u8>,
    opts: Options,
    row_value: impl Fn(u64) -> u32 + Sync,
) -> Result<(), InputError> {
    assert!(
        (1..=MAX_WIDTH).contains(&opts.width),
        "the width is checked by the caller"
    );
    let plain = !opts.hint && !opts.json;
    let split = match opts.threads {
        Threads::One => None,
        Threads::SplitAt(offset) => Some(Some(offset)),
        Threads::Two => Some(None),
        Threads::Auto => (input.len() >= TWO_THREADS_MIN_BYTES
            && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2))
        .then_some(None),
    };
    if plain && let Some(split) = split {
        return split::solve(input, out, opts, split, &row_value).map(|_| ());
    }
    let mut sc = Scanner::new(input);
    let cases = sc.next("the number of test cases T")?;
    solve_cases(&mut sc, 1..=cases, out, opts, &row_value)
}

/// Solves the cases numbered `cases` from where `sc` is, then checks that
/// the input ends.
fn solve_cases(
    sc: &mut Scanner<'_>,
    cases: std::ops::RangeInclusive<u64>,
    out: &mut Vec<u8>,
    opts: Options,
    row_value: &impl Fn(u64) -> u32,
) -> Result<(), InputError> {
    let mut rows: Vec<u64> = Vec::new();
    for case in cases {
        let n = sc.next("the number of rows n")?;
        solve_case(sc, case, n, &mut rows, out, opts, row_value)?;
    }
    sc.expect_end("the last test case")
}

/// Reads the `n` rows of test case number `case` (its `n` read already)
/// and writes its answer.
#[inline(always)]
fn solve_case(
    sc: &mut Scanner<'_>,
    case: u64,
    n: u64,
    rows: &mut Vec<u64>,
    out: &mut Vec<u8>,
    opts: Options,
    row_value: &impl Fn(u64) -> u32,
) -> Result<(), InputError> {
    let width = opts.width;
    let mut sum = 0u32;
    rows.clear();
    for _ in 0..n {
        let m = sc.next_small("the number of pieces m in a row")?;
        let mut mask = 0u64;
        for _ in 0..m {
            let p = sc
                .next_small("a piece's column")
                .map_err(|e| at_most(e, width.into()))?;
            if p == 0 || p > u64::from(width) {
                return Err(sc.error_at(
                    sc.last_offset(),
                    InputErrorKind::PositionOutOfRange { position: p, width },
                ));
            }
            // `p` is in 1..=width (checked above).
            let bit = 1u64 << row::column_bit(width, p as u32);
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
    let hint = if opts.hint && sum != 0 {
        let (row, from, to) = winning_move(rows, sum, width, row_value)
            .map_err(|kind| sc.error_at(sc.last_offset(), kind))?;
        Some(RowMove { row, from, to })
    } else {
        None
    };
    let answer = CaseAnswer {
        case,
        answer: if sum != 0 { "YES" } else { "NO" },
        value: sum,
        hint,
    };
    answer.write(out, opts.json, false);
    Ok(())
}

/// A winning move `(row, from, to)`: the 1-based row index in the case and
/// the piece's column before and after, given rows whose values XOR to
/// `sum != 0`. Values that break the mex recurrence (a corrupt table) give
/// an error, not a panic.
pub fn winning_move(
    rows: &[u64],
    sum: u32,
    width: u32,
    row_value: &impl Fn(u64) -> u32,
) -> Result<(usize, u32, u32), InputErrorKind> {
    let inconsistent = InputErrorKind::Inconsistent {
        what: "no row can move to a losing sum",
    };
    let (index, target) = component_to_move(rows.iter().map(|&mask| row_value(mask)), sum)
        .ok_or(inconsistent.clone())?;
    let m = row::row_moves(rows[index])
        .find(|m| row_value(m.row) == target)
        .ok_or(inconsistent)?;
    Ok((
        index + 1,
        row::bit_column(width, m.from),
        row::bit_column(width, m.to),
    ))
}
