//! The rare-mark rows of a batch (`RareMarks`, module `heap::rare_rows`)
//! as bits, and the values of the first splits of each split size, in
//! portable code (the AVX-512 and AVX2 counterparts are `word_rows` and
//! `first_found` of `super::super::avx512` and `super::super::avx2`).
//!
//! Both mark values as bytes of a small array (one store per split, `x &
//! (V - 1)` its index: no bounds check, no read-modify-write), then turn
//! each 64 bytes into a word of bits by multiplications
//! ([`super::bits_of_bytes`]).

use super::super::heap::FIRST_FOUND;
use super::super::moves::Moves;
use super::super::search::split_range;
use super::super::sparse::Split;
use super::bits_of_bytes;

/// Rows built at a time by [`word_rows`]: for a rare part `a`, the other
/// parts `r - a` of the block's rows are consecutive heaps, read once
/// (16 rows of 512 bytes: 8 KiB of scratch, in the first-level cache).
const ROWS: usize = 16;

/// The rows of `RareMarks` as bits, `words` (1, 2, 4 or 8) words of 64
/// values per row (every value below `64 * words`; `table` holds whole
/// rows, zeroed), for `r` from `lo` on: for each `r`, the values of the
/// splits `{a, r - a}` of `split` with a rare part and both parts below
/// `values.len()`, as `avx512::word_rows` makes them.
pub(crate) fn word_rows(
    words: usize,
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    match words {
        1 => word_rows_of::<64>(split, moves, values, lo, table),
        2 => word_rows_of::<128>(split, moves, values, lo, table),
        4 => word_rows_of::<256>(split, moves, values, lo, table),
        _ => word_rows_of::<512>(split, moves, values, lo, table),
    }
}

/// [`word_rows`] for rows of `V` values. [`ROWS`] rows at a time, as bytes:
/// for each rare part `a` that splits every row of the block, its
/// [`ROWS`] other parts are read as one slice and each value is one byte
/// store (`.6`: 1583 rare heaps, each marking every row). A rare part that
/// does not split all the rows (`a` too close to `r`, `r - a` not known
/// yet, `2 a = r` in Grundy's game) is marked row by row. The last block
/// ends at the last row (its rows before that marked twice, which changes
/// nothing).
fn word_rows_of<const V: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    let w = V / 64;
    let n = values.len();
    let hi = lo + table.len() / w;
    if hi == lo {
        return;
    }
    let valid = |a: usize, r: usize| a < r && r - a < n && !(moves.unequal && 2 * a == r);
    let mut bytes = [[0u8; V]; ROWS];
    let rows = (hi - lo).min(ROWS);
    let blocks = (lo..hi + 1 - rows)
        .step_by(rows)
        .chain((!(hi - lo).is_multiple_of(rows)).then_some(hi - rows));
    for first in blocks {
        bytes[..rows].iter_mut().for_each(|row| row.fill(0));
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            let a = a as usize;
            // No row of the block has `a < r` any more.
            if a + 1 >= first + rows {
                break;
            }
            if rows == ROWS
                && a < first
                && first + ROWS - 1 - a < n
                && !(moves.unequal && (first..first + ROWS).contains(&(2 * a)))
            {
                let parts: &[u16; ROWS] = values[first - a..first - a + ROWS]
                    .try_into()
                    .expect("ROWS values");
                for (row, &g) in bytes.iter_mut().zip(parts) {
                    row[(usize::from(ga) ^ usize::from(g)) & (V - 1)] = 1;
                }
            } else {
                for r in (first..first + rows).filter(|&r| valid(a, r)) {
                    bytes[r - first][usize::from(ga ^ values[r - a]) & (V - 1)] = 1;
                }
            }
        }
        for (j, row) in bytes[..rows].iter().enumerate() {
            let at = (first + j - lo) * w;
            for (word, chunk) in table[at..at + w].iter_mut().zip(row.chunks_exact(64)) {
                *word |= bits_of_bytes(chunk.try_into().expect("64 bytes"));
            }
        }
    }
}

/// The values of the first [`FIRST_FOUND`] splits `{a, r - a}` of `r`
/// with both parts below `values.len()` (`a` from the smallest on), as
/// the words of bits of `row` (1, 2, 4 or 8 words of 64; every value
/// below `64 * row.len()`): a row of `RareMarks`, as
/// `avx512::first_found` makes it.
pub(crate) fn first_found(moves: &Moves, values: &[u16], r: usize, row: &mut [u64]) {
    let (lo, hi) = split_range(moves, r, values.len());
    row.fill(0);
    if lo > hi {
        return;
    }
    let end = hi.min(lo + FIRST_FOUND - 1);
    // Both parts of every split are known: `r - lo < values.len()`.
    let (small, large) = (&values[lo..=end], &values[r - end..=r - lo]);
    match row.len() {
        1 => found_bits::<64>(small, large, row),
        2 => found_bits::<128>(small, large, row),
        4 => found_bits::<256>(small, large, row),
        _ => found_bits::<512>(small, large, row),
    }
}

/// The values `small[j] ^ large[len - 1 - j]` (below `V`) as the bits of
/// `row` (`V / 64` words): a byte store each, eight splits at a time (their
/// XORs computed as one vector), then the bytes turned into bits.
fn found_bits<const V: usize>(small: &[u16], large: &[u16], row: &mut [u64]) {
    let mut bytes = [0u8; V];
    let (chunks, rest) = (small.chunks_exact(8), large.rchunks_exact(8));
    let (small_rest, large_rest) = (chunks.remainder(), rest.remainder());
    for (s, l) in chunks.zip(rest) {
        let x: [u16; 8] = std::array::from_fn(|j| s[j] ^ l[7 - j]);
        for x in x {
            bytes[usize::from(x) & (V - 1)] = 1;
        }
    }
    for (&s, &l) in small_rest.iter().zip(large_rest.iter().rev()) {
        bytes[usize::from(s ^ l) & (V - 1)] = 1;
    }
    for (word, chunk) in row.iter_mut().zip(bytes.chunks_exact(64)) {
        *word = bits_of_bytes(chunk.try_into().expect("64 bytes"));
    }
}
