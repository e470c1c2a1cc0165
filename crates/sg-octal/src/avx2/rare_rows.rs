//! The rare-mark rows of a batch (`RareMarks`, module `heap::rare_rows`)
//! as bits, four rows at a time, with AVX2 (the AVX-512 counterpart, eight
//! rows at a time, is `super::super::avx512::rare_rows`).

use std::arch::x86_64::*;

use super::super::moves::Moves;
use super::super::sparse::Split;
use super::Avx2;

/// The rows of `RareMarks` as bits, `words` (1, 2, 4 or 8) words of 64
/// values per row (every value below `64 * words`; `table` holds whole
/// rows, zeroed), for `r` from `lo` on: for each `r`, the values of the
/// splits `{a, r - a}` of `split` with a rare part and both parts below
/// `values.len()`, as `avx512::word_rows` makes them.
pub(crate) fn word_rows(
    _: Avx2,
    words: usize,
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    // SAFETY: the token says that the CPU has AVX2, the only requirement
    // of the function.
    unsafe {
        match words {
            1 => word_rows_avx2::<1>(split, moves, values, lo, table),
            2 => word_rows_avx2::<2>(split, moves, values, lo, table),
            4 => word_rows_avx2::<4>(split, moves, values, lo, table),
            _ => word_rows_avx2::<8>(split, moves, values, lo, table),
        }
    }
}

/// [`word_rows`] for `W` words. Four rows at a time, one per 64-bit lane:
/// for each rare part `a`, the other parts `r - a` of the four rows are
/// consecutive heaps, read by one load, and each value turns into its bit
/// by a shift of its lane and lands in its own word by a compare. A rare
/// part that does not split all four rows (`a` too close to `r`, `r - a`
/// not known yet, `2 a = r` in Grundy's game) is marked row by row.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
unsafe fn word_rows_avx2<const W: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    let n = values.len();
    let hi = lo + table.len() / W;
    let valid = |a: usize, r: usize| a < r && r - a < n && !(moves.unequal && 2 * a == r);
    let mark = |table: &mut [u64], r: usize, x: u16| {
        table[(r - lo) * W + usize::from(x >> 6)] |= 1 << (x & 63);
    };
    if hi - lo < 4 {
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            for r in (lo..hi).filter(|&r| valid(a as usize, r)) {
                mark(table, r, ga ^ values[r - a as usize]);
            }
        }
        return;
    }
    // Blocks of four rows, the last one ending at `hi` (its rows before
    // that marked twice, which changes nothing).
    let blocks = (lo..hi - 3)
        .step_by(4)
        .chain((!(hi - lo).is_multiple_of(4)).then_some(hi - 4));
    let one = _mm256_set1_epi64x(1);
    for first in blocks {
        let mut found = [_mm256_setzero_si256(); W];
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            let a = a as usize;
            // No row of the block has `a < r` any more.
            if a >= first + 3 {
                break;
            }
            if a < first
                && first + 3 - a < n
                && !(moves.unequal && (first..first + 4).contains(&(2 * a)))
            {
                let parts: &[u16; 4] = values[first - a..first - a + 4]
                    .try_into()
                    .expect("4 values");
                let parts = _mm_set1_epi64x(i64::from_le_bytes(
                    (u64::from(parts[0])
                        | u64::from(parts[1]) << 16
                        | u64::from(parts[2]) << 32
                        | u64::from(parts[3]) << 48)
                        .to_le_bytes(),
                ));
                let x = _mm256_xor_si256(
                    _mm256_cvtepu16_epi64(parts),
                    _mm256_set1_epi64x(i64::from(ga)),
                );
                let bit = _mm256_sllv_epi64(one, _mm256_and_si256(x, _mm256_set1_epi64x(63)));
                let word_of = _mm256_srli_epi64::<6>(x);
                for (w, word) in found.iter_mut().enumerate() {
                    let mine = _mm256_cmpeq_epi64(word_of, _mm256_set1_epi64x(w as i64));
                    *word = _mm256_or_si256(*word, _mm256_and_si256(mine, bit));
                }
            } else {
                for r in (first..first + 4).filter(|&r| valid(a, r)) {
                    mark(table, r, ga ^ values[r - a]);
                }
            }
        }
        for (w, word) in found.iter().enumerate() {
            let mut lanes = [0u64; 4];
            // SAFETY: `lanes` holds 32 bytes.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *word) };
            for (j, &bits) in lanes.iter().enumerate() {
                table[(first + j - lo) * W + w] |= bits;
            }
        }
    }
}
