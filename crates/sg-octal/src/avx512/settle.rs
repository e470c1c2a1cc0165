//! The settling's check of the splits into the heaps settled since a
//! chunk's state (see `heap::settle`): 32 splits at a time, each block
//! XORed and compared with every candidate at once.

use super::{Avx512, REVERSE};

/// Bit `k` set when a split `{a, r - a}` with `1 <= a <= m` has the value
/// `candidates[k]` (ascending; at most 4; 2^16 above every value): 32
/// splits at a time, each block XORed and compared with
/// every candidate at once (the portable loop, vectorised by LLVM on
/// SSE2, goes through the splits once per candidate, 8 at a time). The
/// options into the heaps settled since a chunk's state grow with the
/// crew's lookahead: on `.354` with 2 threads, chunks are settled about
/// 100 heaps beyond their state: settling 128 heaps beyond the state took
/// 0.66x the time (`.354` 0.96x overall).
///
/// `None` unless `m >= 1`, `m + 32 <= values.len()` and `r >= m + 32`
/// (the blocks read are then inside `values`).
#[inline]
pub(crate) fn splits_reach(
    _: Avx512,
    values: &[u16],
    r: usize,
    m: usize,
    candidates: &[u32],
) -> Option<u32> {
    if m == 0 || m + 32 > values.len() || r < m + 32 {
        return None;
    }
    // SAFETY: the token says that the CPU has AVX-512 F and BW, and the
    // bounds were checked just above.
    Some(unsafe { splits_reach_avx512(values, r, m, candidates) })
}

/// [`splits_reach`], compiled for AVX-512.
///
/// # Safety
/// The CPU must have AVX-512 F and BW, and `m >= 1`, `m + 32 <=
/// values.len()` and `r >= m + 32` (the blocks read are inside `values`).
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn splits_reach_avx512(values: &[u16], r: usize, m: usize, list: &[u32]) -> u32 {
    // A candidate of 2^16, above every value, can only be the last one;
    // no split reaches it.
    let k = list.iter().take_while(|&&c| c < 1 << 16).count();
    let c = |k: usize| list.get(k).map_or(0, |&c| c as u16);
    // SAFETY: the caller's promises, passed on.
    unsafe {
        match k {
            0 => 0,
            1 => splits_reach_each(values, r, m, [c(0)]),
            2 => splits_reach_each(values, r, m, [c(0), c(1)]),
            3 => splits_reach_each(values, r, m, [c(0), c(1), c(2)]),
            _ => splits_reach_each(values, r, m, [c(0), c(1), c(2), c(3)]),
        }
    }
}

/// [`splits_reach_avx512`] for `K` candidates below 2^16.
///
/// # Safety
/// As for [`splits_reach_avx512`].
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn splits_reach_each<const K: usize>(
    values: &[u16],
    r: usize,
    m: usize,
    candidates: [u16; K],
) -> u32 {
    use std::arch::x86_64::*;
    debug_assert!(m >= 1 && m + 32 <= values.len() && r >= m + 32);
    // SAFETY: `REVERSE` holds 32 words.
    let reverse = unsafe { _mm512_loadu_si512(REVERSE.as_ptr().cast()) };
    let sought = candidates.map(|c| _mm512_set1_epi16(c as i16));
    let base = values.as_ptr();
    // Lane `t` of the block at `j`: the split `a = 1 + j + t`, whose other
    // part `r - 1 - j - t` is lane `31 - t` of the block from `r - 32 - j`.
    let block = |j: usize| {
        // SAFETY: `1 + j + 32 <= m + 32 <= values.len()` and `r - 32 - j
        // >= r - 32 - m >= 0` (the caller's promise, as `j < m`): both
        // blocks of 32 are inside `values`.
        unsafe {
            let small = _mm512_loadu_si512(base.add(1 + j).cast());
            let large = _mm512_loadu_si512(base.add(r - 32 - j).cast());
            _mm512_xor_si512(small, _mm512_permutexvar_epi16(reverse, large))
        }
    };
    let mut hits = [0u32; K];
    let whole = m / 32 * 32;
    for j in (0..whole).step_by(32) {
        let x = block(j);
        for (hit, &c) in hits.iter_mut().zip(&sought) {
            *hit |= _mm512_cmpeq_epi16_mask(x, c);
        }
    }
    if whole < m {
        let (x, lanes) = (block(whole), (1u32 << (m - whole)) - 1);
        for (hit, &c) in hits.iter_mut().zip(&sought) {
            *hit |= _mm512_mask_cmpeq_epi16_mask(lanes, x, c);
        }
    }
    hits.iter()
        .enumerate()
        .fold(0, |bits, (k, &hit)| bits | u32::from(hit != 0) << k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sg_nimber::testing::SplitMix64;

    /// The AVX-512 check of the splits that settle adds, against trying
    /// each split: random values, 1 to 200 splits (whole blocks of 32 and
    /// a partial one), 1 to 4 candidates, often values that some split
    /// has, sometimes 2^16 (above every value).
    #[test]
    fn settle_splits_reach_their_candidates() {
        let Some(cpu) = Avx512::detect() else {
            return;
        };
        let mut rng = SplitMix64::new(32);
        let mut reached = 0;
        for case in 0..2000 {
            let bits = 2 + case % 9;
            let m = 1 + rng.below(200) as usize;
            let r = m + 32 + rng.below(300) as usize;
            let len = r + 1 + rng.below(40) as usize;
            let values: Vec<u16> = (0..len).map(|_| rng.below(1 << bits) as u16).collect();
            let split = |a: usize| u32::from(values[a] ^ values[r - a]);
            let mut list: Vec<u32> = (0..1 + rng.below(4))
                .map(|_| match rng.below(3) {
                    0 => split(1 + rng.below(m as u64) as usize),
                    1 => rng.below(1 << bits) as u32,
                    _ => 1 << 16,
                })
                .collect();
            list.sort_unstable();
            list.dedup();
            let want = (0..list.len()).fold(0, |bits, k| {
                bits | u32::from((1..=m).any(|a| split(a) == list[k])) << k
            });
            let got = splits_reach(cpu, &values, r, m, &list);
            assert_eq!(got, Some(want), "case {case}: m {m}, r {r}, {list:?}");
            let got = got.unwrap();
            reached += got.count_ones();
        }
        assert!(reached > 1000, "{reached}");
    }
}
