//! The search against trying every split: the entry's contract, on the
//! AVX-512 and AVX2 kernels (where the CPU has them) and the portable
//! reference, and the small-value path.

use super::*;
use crate::Rules;
use crate::simd::{Simd, set_test_level};
use sg_nimber::testing::SplitMix64;

/// The kernel levels each test runs (each where the CPU has it; the
/// portable code everywhere).
const LEVELS: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::Portable];

/// Whether some split reaches `v`, by trying every split.
fn reached(moves: &Moves, values: &[u16], h: usize, v: u16) -> bool {
    let n = values.len();
    moves.pair.iter().any(|&i| {
        h.checked_sub(i as usize).is_some_and(|r| {
            let (lo, hi) = split_range(moves, r, n);
            (lo..=hi).any(|a| values[a] ^ values[r - a] == v)
        })
    })
}

/// `missing_small` against trying every split, on random sequences of
/// values below 64 and random sets sought (the splits of long heaps
/// pass through the AVX-512 blocks, where the CPU has them, and the
/// scalar rest); AVX-512 and portable.
#[test]
fn small_search_finds_what_no_split_reaches() {
    let mut rng = SplitMix64::new(64);
    let codes = ["0.106", "0.6", "0.354", "4.05", "0.4444"];
    let mut found_missing = 0;
    for case in 0..400 {
        let rules = match case % 6 {
            5 => Rules::grundys_game(),
            k => Rules::parse(codes[k]).unwrap(),
        };
        let moves = Moves::new(&rules);
        let n = 2 + rng.below(600) as usize;
        let range = [2u64, 8, 30, 64][case % 4];
        let values: Vec<u16> = (0..n).map(|_| rng.below(range) as u16).collect();
        let h = n + rng.below(3) as usize;
        let need = rng.next_u64() & rng.next_u64();
        let truly = (0..64u16)
            .filter(|&v| need >> v & 1 != 0 && !reached(&moves, &values, h, v))
            .fold(0u64, |bits, v| bits | 1 << v);
        let mut scratch = SearchScratch::default();
        for level in LEVELS {
            set_test_level(level);
            let got = missing_small(&moves, &values, h, need, &mut scratch);
            assert_eq!(got, truly, "case {case} ({rules}, n {n}, h {h}), {level:?}");
        }
        found_missing += usize::from(truly != 0);
    }
    set_test_level(Simd::Avx512);
    assert!(found_missing > 100, "{found_missing}");
}

/// The search against trying every split, on random sequences (not
/// game values: the search works for any values), with values below 4
/// to 65536 (so that XORs fall outside the 1024-bit set, also when every
/// value sought is inside it), random sets of
/// values sought (including values no split reaches), every split into
/// exact and short parts and every limit; AVX-512 and AVX2 (where the
/// CPU has them) and portable.
#[test]
fn search_keeps_its_contract() {
    let mut rng = SplitMix64::new(1024);
    let codes = ["0.6", "0.354", "0.077", "4.05", "0.106", "0.4444"];
    let mut outcomes = [0usize; 3];
    for case in 0..630 {
        let rules = match case % 7 {
            6 => Rules::grundys_game(),
            k => Rules::parse(codes[k]).unwrap(),
        };
        let moves = Moves::new(&rules);
        let n = 2 + rng.below(1500) as usize;
        // Values below 64 (`FEW_VALUES`), 128 and 256 (the first phase
        // by values found), 1024 (the set) and beyond; the last two
        // ranges with every value sought below 1024 (the set's searches,
        // meeting XORs outside the set).
        let range = [4u64, 24, 64, 100, 300, 1100, 2048, 4096, 65536][(case / 7) % 9];
        let values: Vec<u16> = (0..n).map(|_| rng.below(range) as u16).collect();
        let h = n + rng.below(4) as usize;
        let sought_below = match range {
            4096.. => 1024,
            _ if case % 3 == 0 => 2 * range,
            _ => range,
        };
        let mut need: Vec<u16> = (0..sought_below as u16)
            .filter(|_| rng.below(4) == 0)
            .collect();
        if need.is_empty() {
            need.push(rng.below(sought_below) as u16);
        }
        let top = (2 * range).next_power_of_two().min(1 << 16) as usize;
        let truly: Vec<u16> = need
            .iter()
            .copied()
            .filter(|&v| !reached(&moves, &values, h, v))
            .collect();
        let below = rng.below(need.len() as u64 + 1) as usize;
        let mut scratch = SearchScratch::default();
        let mut missing = vec![];
        for level in LEVELS {
            set_test_level(level);
            for limit in [1, 2, 4] {
                let at = format!("case {case}, below {below}, limit {limit}, {level:?}");
                let cut = search(
                    &moves,
                    &values,
                    h,
                    top,
                    &need,
                    below,
                    limit,
                    &mut missing,
                    &mut scratch,
                );
                // Only values no split reaches, ascending, at most `limit`.
                assert!(missing.len() <= limit, "{at}");
                assert!(missing.windows(2).all(|w| w[0] < w[1]), "{at}");
                assert!(missing.iter().all(|v| truly.contains(v)), "{at}");
                // Every missing value of need[..below] is listed, unless
                // the list is full with smaller ones.
                for &v in truly.iter().filter(|&&v| need[..below].contains(&v)) {
                    let full_before = missing.len() == limit && missing[limit - 1] < v;
                    assert!(missing.contains(&v) || full_before, "{at}: {v} left out");
                }
                // Below the cut, every value of need[below..] is settled:
                // reached, or missing and listed (or the list is full).
                for &v in need[below..].iter().filter(|&&v| u32::from(v) < cut) {
                    let full_before = missing.len() == limit && missing[limit - 1] < v;
                    assert!(
                        !truly.contains(&v) || missing.contains(&v) || full_before,
                        "{at}: {v} below the cut {cut}"
                    );
                }
                if cut != u32::MAX {
                    assert!(need[below..].iter().any(|&v| u32::from(v) == cut), "{at}");
                }
                outcomes[match (missing.is_empty(), cut == u32::MAX) {
                    (true, true) => 0,
                    (false, _) => 1,
                    (true, false) => 2,
                }] += 1;
            }
        }
    }
    set_test_level(Simd::Avx512);
    // Every outcome occurs often enough for the comparison to mean much.
    assert!(outcomes.iter().all(|&k| k > 100), "{outcomes:?}");
}
