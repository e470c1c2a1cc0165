//! The rare-mark rows of a batch (`RareMarks`, module `heap::rare_rows`)
//! as bits, eight rows at a time.

use super::super::moves::Moves;
use super::super::sparse::Split;
use super::Avx512;

/// The rows of `RareMarks` as bits, `words` (1, 2, 4 or 8) words of 64
/// values per row (every value below `64 * words`; `table` holds whole
/// rows, zeroed), for `r` from `lo` on: for each `r`, the values of the
/// splits `{a, r - a}` of `split` with a rare part and both parts below
/// `values.len()`.
pub(crate) fn word_rows(
    _: Avx512,
    words: usize,
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    // SAFETY: the token says that the CPU has AVX-512 F and BW, the only
    // requirement of the function.
    unsafe {
        match words {
            1 => word_rows_avx512::<1>(split, moves, values, lo, table),
            2 => word_rows_avx512::<2>(split, moves, values, lo, table),
            4 => word_rows_avx512::<4>(split, moves, values, lo, table),
            _ => word_rows_avx512::<8>(split, moves, values, lo, table),
        }
    }
}

/// [`word_rows`] for `W` words: the rows of `RareMarks` as bits (`W`
/// words of 64 values per row, values below `64 W`; `table` holds whole
/// rows, zeroed), for `r` from `lo` on: what `heap::marks::mark_rare`
/// marks for each `r`. Eight rows at a time, one per 64-bit lane: for each rare part `a`, the other parts `r - a`
/// of the eight rows are consecutive heaps, read by one load, and each
/// value turns into its bit by shifts of the lanes (a shift by 64 or more
/// gives 0, so each value lands in its own word only). A rare part that
/// does not split all eight rows (`a` too close to `r`, `r - a` not known
/// yet, `2 a = r` in Grundy's game) is marked row by row. `.376`: a third
/// of the instructions of the byte rows.
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn word_rows_avx512<const W: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    use std::arch::x86_64::*;
    let n = values.len();
    let hi = lo + table.len() / W;
    let valid = |a: usize, r: usize| a < r && r - a < n && !(moves.unequal && 2 * a == r);
    let mark = |table: &mut [u64], r: usize, x: u16| {
        table[(r - lo) * W + usize::from(x >> 6)] |= 1 << (x & 63);
    };
    if hi - lo < 8 {
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            for r in (lo..hi).filter(|&r| valid(a as usize, r)) {
                mark(table, r, ga ^ values[r - a as usize]);
            }
        }
        return;
    }
    // Blocks of eight rows, the last one ending at `hi` (its rows before
    // that marked twice, which changes nothing).
    let blocks = (lo..hi - 7)
        .step_by(8)
        .chain((!(hi - lo).is_multiple_of(8)).then_some(hi - 8));
    let one = _mm512_set1_epi64(1);
    for first in blocks {
        let mut found = [_mm512_setzero_si512(); W];
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            let a = a as usize;
            // No row of the block has `a < r` any more.
            if a >= first + 7 {
                break;
            }
            if a < first
                && first + 7 - a < n
                && !(moves.unequal && (first..first + 8).contains(&(2 * a)))
            {
                let parts: &[u16; 8] = values[first - a..first - a + 8]
                    .try_into()
                    .expect("8 values");
                // SAFETY: `parts` holds 8 words (16 bytes).
                let parts = unsafe { _mm_loadu_si128(parts.as_ptr().cast()) };
                let x = _mm512_xor_si512(
                    _mm512_cvtepu16_epi64(parts),
                    _mm512_set1_epi64(i64::from(ga)),
                );
                // The bit of `x % 64` (a rotation: no range to test), in
                // the word of `x / 64` only.
                let (bit, word_of) = (_mm512_rolv_epi64(one, x), _mm512_srli_epi64::<6>(x));
                for (w, word) in found.iter_mut().enumerate() {
                    let mine = _mm512_cmpeq_epi64_mask(word_of, _mm512_set1_epi64(w as i64));
                    *word = _mm512_mask_or_epi64(*word, mine, *word, bit);
                }
            } else {
                for r in (first..first + 8).filter(|&r| valid(a, r)) {
                    mark(table, r, ga ^ values[r - a]);
                }
            }
        }
        for (w, word) in found.iter().enumerate() {
            let mut lanes = [0u64; 8];
            // SAFETY: `lanes` holds 64 bytes.
            unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), *word) };
            for (j, &bits) in lanes.iter().enumerate() {
                table[(first + j - lo) * W + w] |= bits;
            }
        }
    }
}
