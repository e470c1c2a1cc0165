//! The values of blocks of 32 splits as bits: each 32 splits XORed at
//! once and each value turned into its bit by shifts of 64-bit lanes,
//! without a test or a branch. For the first splits of each take, kept
//! with the rare-mark rows ([`first_found`]), the first phase of the
//! search ([`found_first`]), and the small-value path ([`found_small`]).

use super::super::moves::Moves;
use super::super::splits::FIRST_FOUND;
use super::super::splits::TakeSplits;
use super::super::splits::{ValueBits, split_range};
use super::{Avx512, REVERSE};

/// The values of the first [`FIRST_FOUND`] splits `{a, r - a}` of `r`
/// with both parts below `values.len()` (`a` from the smallest on), as
/// the words of bits of `row` (1, 2, 4 or 8 words; every value below
/// `64 * row.len()`): a row of `RareMarks` (module `heap::rare_rows`).
#[inline]
pub(crate) fn first_found(_: Avx512, moves: &Moves, values: &[u16], r: usize, row: &mut [u64]) {
    // SAFETY: the token says that the CPU has AVX-512 F and BW, the only
    // requirement of the functions.
    unsafe {
        match row.len() {
            1 => row.copy_from_slice(&first_found_words::<1>(moves, values, r)),
            2 => row.copy_from_slice(&first_found_words::<2>(moves, values, r)),
            4 => row.copy_from_slice(&first_found_words::<4>(moves, values, r)),
            _ => row.copy_from_slice(&first_found_words::<8>(moves, values, r)),
        }
    }
}

/// [`first_found`] for `W` words (every value below `64 W`).
#[target_feature(enable = "avx512f,avx512bw")]
fn first_found_words<const W: usize>(moves: &Moves, values: &[u16], r: usize) -> [u64; W] {
    let (lo, hi) = split_range(moves, r, values.len());
    let mut words = [0u64; W];
    if lo > hi {
        return words;
    }
    let end = hi.min(lo + FIRST_FOUND - 1);
    let len = end + 1 - lo;
    if len < 32 {
        for a in lo..=end {
            let x = values[a] ^ values[r - a];
            if let Some(word) = words.get_mut(usize::from(x >> 6)) {
                *word |= 1 << (x & 63);
            }
        }
        return words;
    }
    // Blocks of 32 from `lo`, the last one ending at `end` (its splits
    // before that counted again, which changes nothing); both parts of
    // every split are known: `r - lo < values.len()`.
    let mut found = [std::arch::x86_64::_mm512_setzero_si512(); W];
    let whole = len / 32 * 32;
    found_avx512(
        &values[lo..lo + whole],
        &values[r + 1 - lo - whole..=r - lo],
        &mut found,
    );
    if whole < len {
        let last = end + 1 - 32;
        found_avx512(
            &values[last..last + 32],
            &values[r - last - 31..=r - last],
            &mut found,
        );
    }
    reduce_found(&found)
}

/// The values (below 64, as bits) of the splits pairing `small[j]` with
/// `large[len - 1 - j]` (both `32 k` long): the blocks of the small-value
/// path of the search (`search::small`).
#[inline]
pub(crate) fn found_small(_: Avx512, small: &[u16], large: &[u16]) -> u64 {
    // SAFETY: the token says that the CPU has AVX-512 F and BW, the only
    // requirement of the function.
    unsafe { found_small_avx512(small, large) }
}

/// [`found_small`], compiled for AVX-512.
#[target_feature(enable = "avx512f,avx512bw")]
fn found_small_avx512(small: &[u16], large: &[u16]) -> u64 {
    let mut found = [std::arch::x86_64::_mm512_setzero_si512()];
    found_avx512(small, large, &mut found);
    reduce_found(&found)[0]
}

/// Adds to `found` the values (below `64 * WORDS`) of the splits pairing
/// `small[j]` with `large[len - 1 - j]` (both `32 k` long): each 32 splits
/// are XORed at once, and each value `v` turned into bit `v % 64` of word
/// `v / 64` by shifts of 64-bit lanes (`found[w]` holds, per lane, the
/// bits of the values `64 w ..`; a shift by 64 or more gives 0, so each
/// value lands in its word's register only, and values of `64 * WORDS`
/// or more in none).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn found_avx512<const WORDS: usize>(
    small: &[u16],
    large: &[u16],
    found: &mut [std::arch::x86_64::__m512i; WORDS],
) {
    use std::arch::x86_64::*;
    assert!(small.len() == large.len() && small.len().is_multiple_of(32));
    // SAFETY: `REVERSE` holds 32 words.
    let reverse = unsafe { _mm512_loadu_si512(REVERSE.as_ptr().cast()) };
    let one = _mm512_set1_epi64(1);
    for (small, large) in small.chunks_exact(32).zip(large.rchunks_exact(32)) {
        // SAFETY: each chunk holds 32 words.
        let (small, large) = unsafe {
            (
                _mm512_loadu_si512(small.as_ptr().cast()),
                _mm512_loadu_si512(large.as_ptr().cast()),
            )
        };
        let x = _mm512_xor_si512(small, _mm512_permutexvar_epi16(reverse, large));
        for quarter in [
            _mm512_castsi512_si128(x),
            _mm512_extracti32x4_epi32::<1>(x),
            _mm512_extracti32x4_epi32::<2>(x),
            _mm512_extracti32x4_epi32::<3>(x),
        ] {
            let mut v = _mm512_cvtepu16_epi64(quarter);
            for word in found.iter_mut() {
                *word = _mm512_or_si512(*word, _mm512_sllv_epi64(one, v));
                v = _mm512_sub_epi64(v, _mm512_set1_epi64(64));
            }
        }
    }
}

/// The values found (see [`found_avx512`]), as words of bits.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn reduce_found<const WORDS: usize>(found: &[std::arch::x86_64::__m512i; WORDS]) -> [u64; WORDS] {
    found.map(|word| std::arch::x86_64::_mm512_reduce_or_epi64(word) as u64)
}

/// How the first phase of the AVX-512 search ([`found_first`]) ended.
pub(super) enum FirstPhase {
    /// The search is over: the values left (bits), and whether every split
    /// was looked at.
    Over(ValueBits, bool),
    /// The values left (bits), those of them sought exactly, and the
    /// splits looked at: the search goes on value by value.
    Left(ValueBits, ValueBits, usize),
}

/// The first phase of the search of [`super::sought`] for values below
/// `64 * WORDS` (320 at most): the first [`FOUND_ROUNDS`] turns of each take (of
/// [`FOUND_TURN`] splits), by the values found rather than those left.
/// Every split's value is added to the set found (see [`found_avx512`])
/// without a test or a branch, and the values sought are compared with it
/// after each turn. Early on, most blocks of 32 splits meet a value sought
/// (often several times), which the second phase pays for value by value
/// (a branch, a chain of dependent instructions); then the few values
/// left are sought value by value, through blocks that mostly meet none.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn found_first<const WORDS: usize>(
    values: &[u16],
    all: &ValueBits,
    exact: &ValueBits,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
) -> FirstPhase {
    let mut found = [std::arch::x86_64::_mm512_setzero_si512(); WORDS];
    // Values of takes with fewer than 32 splits in all.
    let mut few = [0u64; WORDS];
    let mut looked = 0;
    let mut left = *all;
    for _ in 0..FOUND_ROUNDS {
        let mut k = 0;
        while k < cursors.len() {
            let TakeSplits { r, lo, next, hi } = cursors[k];
            let end = hi.min(next + FOUND_TURN - 1);
            if hi + 1 - lo < 32 {
                for a in next..=end {
                    let x = values[a] ^ values[r - a];
                    if let Some(word) = few.get_mut(usize::from(x >> 6)) {
                        *word |= 1 << (x & 63);
                    }
                }
            } else {
                // Blocks of 32 from `next`, the last one ending at `end`
                // (its splits before that looked at again, which changes
                // nothing).
                let whole = (end + 1 - next) / 32 * 32;
                found_avx512(
                    &values[next..next + whole],
                    &values[r + 1 - next - whole..=r - next],
                    &mut found,
                );
                if whole < end + 1 - next {
                    let last = (end + 1).saturating_sub(32).max(lo);
                    found_avx512(
                        &values[last..last + 32],
                        &values[r - last - 31..=r - last],
                        &mut found,
                    );
                }
            }
            looked += end + 1 - next;
            cursors[k].next = end + 1;
            if end == hi {
                cursors.swap_remove(k);
            } else {
                k += 1;
            }
            let met = reduce_found(&found);
            for w in 0..WORDS {
                left[w] = all[w] & !(met[w] | few[w]);
            }
            let exact_met = (0..WORDS).all(|w| left[w] & exact[w] == 0);
            if left[..WORDS] == [0; WORDS] || (exact_met && looked >= budget) {
                return FirstPhase::Over(left, false);
            }
        }
        if cursors.is_empty() {
            return FirstPhase::Over(left, true);
        }
    }
    let exact_left = std::array::from_fn(|w| left[w] & exact[w]);
    FirstPhase::Left(left, exact_left, looked)
}

/// Rounds of turns of the first phase of the AVX-512 search.
const FOUND_ROUNDS: usize = 2;

/// Splits of a take per turn of [`found_first`].
const FOUND_TURN: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use sg_nimber::testing::SplitMix64;

    /// `first_found` against the values of the first splits taken one by
    /// one, on random values below 64 to 512, every width, split sizes
    /// with fewer splits than a block, a few blocks and more, and every
    /// kind of take (Grundy's game's unequal splits included).
    #[test]
    fn first_found_holds_the_first_splits_values() {
        let Some(cpu) = Avx512::detect() else {
            return;
        };
        let mut rng = SplitMix64::new(192);
        for case in 0..400 {
            let rules = match case % 3 {
                0 => Rules::grundys_game(),
                1 => Rules::parse("0.354").unwrap(),
                _ => Rules::parse("4.05").unwrap(),
            };
            let moves = Moves::new(&rules);
            let n = 2 + rng.below(1200) as usize;
            let bits = 6 + case % 4;
            let values: Vec<u16> = (0..n).map(|_| rng.below(1 << bits) as u16).collect();
            let r = rng.below(2 * n as u64) as usize;
            let (lo, hi) = split_range(&moves, r, n);
            let mut want = [0u64; 8];
            for a in (lo..=hi).take(FIRST_FOUND) {
                let x = values[a] ^ values[r - a];
                want[usize::from(x >> 6)] |= 1 << (x & 63);
            }
            let mut got = vec![0; 1 << (bits - 6)];
            first_found(cpu, &moves, &values, r, &mut got);
            assert_eq!(got, want[..got.len()], "{rules} case {case}: n {n}, r {r}");
        }
    }
}
