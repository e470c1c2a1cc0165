//! The rare-mark rows of a batch (`RareMarks`, module `heap::rare_rows`)
//! as bits, and the values of the first splits of each split size, in
//! portable code (the AVX-512 and AVX2 counterparts are `word_rows` and
//! `first_found` of `super::super::avx512` and `super::super::avx2`).
//!
//! Both mark values as bytes of a small array (one store per split, `x &
//! (V - 1)` its index: no bounds check, no read-modify-write), then turn
//! each 64 bytes into a word of bits by multiplications
//! ([`super::bits_of_bytes`]).

use super::super::moves::Moves;
use super::super::sparse::Split;
use super::super::splits::FIRST_FOUND;
use super::super::splits::split_range;
use super::bits_of_bytes;

/// Rows built at a time by [`word_rows`]: for a rare part `a`, the other
/// parts `r - a` of the block's rows are consecutive heaps, read once
/// (32 rows of 512 bytes: 16 KiB of scratch, in the first-level cache).
const ROWS: usize = 32;

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

/// [`word_rows`] for rows of `V` values: blocks of [`ROWS`] rows, then of
/// four, then the last rows one by one ([`mark_block`]).
fn word_rows_of<const V: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    let hi = lo + table.len() / (V / 64);
    let mut bytes = [[0u8; V]; ROWS];
    let mut first = lo;
    while hi - first >= ROWS {
        mark_block::<V, ROWS>(split, moves, values, lo, first, &mut bytes, table);
        first += ROWS;
    }
    while hi - first >= 4 {
        mark_block::<V, 4>(split, moves, values, lo, first, &mut bytes, table);
        first += 4;
    }
    while first < hi {
        mark_block::<V, 1>(split, moves, values, lo, first, &mut bytes, table);
        first += 1;
    }
}

/// The rows `first..first + R` of [`word_rows`] (rows of `V` values, `R`
/// a multiple of 4 or 1), as bytes then bits ORed into `table`, whose rows
/// start at `lo`: for each rare part `a` that splits every row of the
/// block, its `R` other parts are read as one slice, four values as one
/// word XORed at once and taken out by a shift and a mask each (3.5
/// instructions a mark instead of 5: `.6` to 2^20, one thread, 0.92x the
/// time), and each value is one byte store (`.6`: 1583 rare heaps, each
/// marking every row; 32 rows at a time rather than 16: 0.95x the time;
/// `.354`, 33 rows per batch, 0.93x with the last row alone rather than in
/// a second block of 16 ending at the last). A rare part that does not
/// split all the rows (`a` too close to `r`, `r - a` not known yet, `2 a =
/// r` in Grundy's game) is marked row by row.
#[allow(clippy::too_many_arguments)]
#[inline]
fn mark_block<const V: usize, const R: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    first: usize,
    bytes: &mut [[u8; V]; ROWS],
    table: &mut [u64],
) {
    let n = values.len();
    let valid = |a: usize, r: usize| a < r && r - a < n && !(moves.unequal && 2 * a == r);
    let bytes = &mut bytes[..R];
    bytes.iter_mut().for_each(|row| row.fill(0));
    for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
        let a = a as usize;
        // No row of the block has `a < r` any more.
        if a + 1 >= first + R {
            break;
        }
        if R.is_multiple_of(4)
            && a < first
            && first + R - 1 - a < n
            && !(moves.unequal && (first..first + R).contains(&(2 * a)))
        {
            let parts = &values[first - a..first - a + R];
            let ga = u64::from(ga) * 0x0001_0001_0001_0001;
            for q in (0..R).step_by(4) {
                let x = ga ^ quad_word(&parts[q..q + 4]);
                for k in 0..4 {
                    bytes[q + k][(x >> (16 * k)) as usize & (V - 1)] = 1;
                }
            }
        } else {
            for r in (first..first + R).filter(|&r| valid(a, r)) {
                bytes[r - first][usize::from(ga ^ values[r - a]) & (V - 1)] = 1;
            }
        }
    }
    let w = V / 64;
    for (j, row) in bytes.iter().enumerate() {
        let at = (first + j - lo) * w;
        for (word, chunk) in table[at..at + w].iter_mut().zip(row.chunks_exact(64)) {
            *word |= bits_of_bytes(chunk.try_into().expect("64 bytes"));
        }
    }
}

/// Four `u16` as the lanes of a word (the first the lowest).
#[inline(always)]
fn quad_word(quad: &[u16]) -> u64 {
    let quad: &[u16; 4] = quad.try_into().expect("4 values");
    quad.iter()
        .rev()
        .fold(0, |word, &v| word << 16 | u64::from(v))
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
        // A loop, not `array::from_fn`, which the test profile leaves
        // uninlined (a call per split).
        let mut x = [0u16; 8];
        for j in 0..8 {
            x[j] = s[j] ^ l[7 - j];
        }
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
