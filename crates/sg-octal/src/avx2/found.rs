//! The values of the first splits of a split size as bits, with AVX2 (the
//! AVX-512 counterpart is `super::super::avx512::found`): 16 splits at a
//! time XORed, each value turned into its bit of a 32-bit word by a
//! variable shift, and ORed into the word it belongs to (one compare per
//! word: values below 256 have eight).

use std::arch::x86_64::*;

use super::super::moves::Moves;
use super::super::splits::FIRST_FOUND;
use super::super::splits::split_range;
use super::Avx2;

/// The values of the first [`FIRST_FOUND`] splits `{a, r - a}` of `r`
/// with both parts below `values.len()` (`a` from the smallest on), as
/// the words of bits of `row` (1, 2 or 4 words of 64; every value below
/// `64 * row.len()`): a row of `RareMarks` (module `heap::rare_rows`), as
/// `avx512::first_found` makes it.
#[inline]
pub(crate) fn first_found(_: Avx2, moves: &Moves, values: &[u16], r: usize, row: &mut [u64]) {
    let (lo, hi) = split_range(moves, r, values.len());
    row.fill(0);
    if lo > hi {
        return;
    }
    let end = hi.min(lo + FIRST_FOUND - 1);
    // Both parts of every split are known: `r - lo < values.len()`.
    let small = &values[lo..=end];
    let large = &values[r - end..=r - lo];
    // SAFETY: the token says that the CPU has AVX2, the only requirement
    // of the functions.
    unsafe {
        match row.len() {
            1 | 2 => found_words::<4>(small, large, row),
            4 => found_words::<8>(small, large, row),
            _ => found_words::<16>(small, large, row),
        }
    }
}

/// The values `small[j] ^ large[len - 1 - j]` as bits of `row`, with `D`
/// words of 32 bits (every value below `32 D`).
#[target_feature(enable = "avx2")]
fn found_words<const D: usize>(small: &[u16], large: &[u16], row: &mut [u64]) {
    let len = small.len();
    let mut words = [_mm256_setzero_si256(); D];
    // Word `j` takes word `15 - j`: reversed in each lane, lanes swapped.
    let reverse_words = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let mut j = 0;
    while j + 16 <= len {
        // SAFETY: `small[j..j + 16]` and `large[len - 16 - j..len - j]`
        // are inside the slices (`j + 16 <= len`).
        let x = unsafe {
            let s = _mm256_loadu_si256(small[j..].as_ptr().cast());
            let l = _mm256_loadu_si256(large[len - 16 - j..].as_ptr().cast());
            let l =
                _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(l, reverse_words));
            _mm256_xor_si256(s, l)
        };
        for x in [
            _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)),
            _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x)),
        ] {
            let bit = _mm256_sllv_epi32(
                _mm256_set1_epi32(1),
                _mm256_and_si256(x, _mm256_set1_epi32(31)),
            );
            let word = _mm256_srli_epi32::<5>(x);
            for (w, acc) in words.iter_mut().enumerate() {
                let here = _mm256_cmpeq_epi32(word, _mm256_set1_epi32(w as i32));
                *acc = _mm256_or_si256(*acc, _mm256_and_si256(here, bit));
            }
        }
        j += 16;
    }
    // Each word of 32 bits: the OR of its eight lanes.
    let mut bits = [0u32; D];
    for (w, &acc) in words.iter().enumerate() {
        let mut lanes = [0u32; 8];
        // SAFETY: `lanes` holds 8 words of 32 bits.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc) };
        bits[w] = lanes.iter().fold(0, |a, &b| a | b);
    }
    for k in j..len {
        let x = usize::from(small[k] ^ large[len - 1 - k]);
        bits[x / 32] |= 1 << (x % 32);
    }
    for (w, word) in row.iter_mut().enumerate() {
        *word = u64::from(bits[2 * w]) | u64::from(bits[2 * w + 1]) << 32;
    }
}
