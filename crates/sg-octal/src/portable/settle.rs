//! The settling's check of the splits into the heaps settled since a
//! chunk's state (see `heap::settle`), in portable code: the counterpart
//! of `super::super::avx512::settle`, compiled for AVX2 too
//! (`super::super::avx2::splits_reach`).

/// Splits compared per block.
const BLOCK: usize = 32;

/// Bit `k` set when a split `{a, r - a}` with `1 <= a <= m` has the value
/// `candidates[k]` (at most 4; 2^16, above every value, is reached by no
/// split), for `1 <= m` and `m < r < values.len()`: every candidate at
/// once, blocks of [`BLOCK`] splits XORed and compared with each (one pass
/// over the splits rather than one per candidate).
#[inline(always)]
pub(crate) fn splits_reach(values: &[u16], r: usize, m: usize, candidates: &[u32]) -> u32 {
    // A candidate of 2^16 can only be the last; no split reaches it.
    let k = candidates.iter().take_while(|&&c| c < 1 << 16).count();
    let c = |k: usize| candidates.get(k).map_or(0, |&c| c as u16);
    let (small, large) = (&values[1..=m], &values[r - m..r]);
    match k {
        0 => 0,
        1 => reach_of(small, large, [c(0)]),
        2 => reach_of(small, large, [c(0), c(1)]),
        3 => reach_of(small, large, [c(0), c(1), c(2)]),
        _ => reach_of(small, large, [c(0), c(1), c(2), c(3)]),
    }
}

/// [`splits_reach`] for `K` candidates below 2^16: the splits pair
/// `small[j]` with `large[len - 1 - j]`.
#[inline(always)]
fn reach_of<const K: usize>(small: &[u16], large: &[u16], candidates: [u16; K]) -> u32 {
    let len = small.len();
    let mut met = [false; K];
    // Index loops, not iterator adapters (see `sought::first_hit_of`).
    let mut j = 0;
    while j + BLOCK <= len {
        let s: &[u16; BLOCK] = small[j..j + BLOCK].try_into().expect("a block");
        let l: &[u16; BLOCK] = large[len - j - BLOCK..len - j].try_into().expect("a block");
        for i in 0..BLOCK {
            let x = s[i] ^ l[BLOCK - 1 - i];
            for k in 0..K {
                met[k] |= x == candidates[k];
            }
        }
        j += BLOCK;
    }
    for i in j..len {
        let x = small[i] ^ large[len - 1 - i];
        for k in 0..K {
            met[k] |= x == candidates[k];
        }
    }
    let mut bits = 0;
    for (k, &m) in met.iter().enumerate() {
        bits |= u32::from(m) << k;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use sg_nimber::testing::SplitMix64;

    /// The check against trying each split, portable and (where the CPU
    /// has it) compiled for AVX2: random values, 1 to 200 splits (whole
    /// blocks of 32 and a partial one), 1 to 4 candidates, often values
    /// that some split has, sometimes 2^16 (above every value).
    #[test]
    fn settle_splits_reach_their_candidates() {
        #[cfg(target_arch = "x86_64")]
        let avx2 = crate::avx2::Avx2::detect();
        let mut rng = SplitMix64::new(33);
        let mut reached = 0;
        for case in 0..2000 {
            let bits = 2 + case % 9;
            let m = 1 + rng.below(200) as usize;
            let r = m + 1 + rng.below(300) as usize;
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
            let got = splits_reach(&values, r, m, &list);
            assert_eq!(got, want, "case {case}: m {m}, r {r}, {list:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = avx2 {
                let got = crate::avx2::splits_reach(cpu, &values, r, m, &list);
                assert_eq!(got, want, "AVX2, case {case}: m {m}, r {r}, {list:?}");
            }
            reached += want.count_ones();
        }
        assert!(reached > 1000, "{reached}");
    }
}
