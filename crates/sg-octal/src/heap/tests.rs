//! The candidates and the settling against the definition.

use std::collections::HashSet;
use std::ops::ControlFlow;

use super::*;
use crate::{Rules, grundy_by_definition};
use sg_nimber::testing::SplitMix64;

/// The values of the options of heap `h` whose heaps are all below `n`.
fn reached_below(moves: &Moves, values: &[u16], h: usize, n: usize) -> HashSet<u32> {
    let mut reached = HashSet::new();
    let _ = moves.for_each_option(h as u64, u64::MAX, |_, parts| {
        if parts.iter().all(|&p| (p as usize) < n) {
            reached.insert(u32::from(
                parts.iter().fold(0, |x, &p| x ^ values[p as usize]),
            ));
        }
        ControlFlow::Continue(())
    });
    reached
}

/// `first_unreached` keeps its contract for every number of candidates:
/// each candidate is reached by no option with heaps below `n`, they
/// ascend, and every value below the last that is not one of them is
/// reached; and `settle` then gives the heap's value.
#[test]
fn candidates_keep_their_contract() {
    let mut rng = SplitMix64::new(2);
    let mut longer = 0;
    for case in 0..120 {
        let digits: String = (0..1 + case % 4)
            .map(|_| char::from(b'0' + rng.below(8) as u8))
            .collect();
        let rules =
            Rules::parse(&format!("{}.{digits}", if case % 5 == 4 { 4 } else { 0 })).unwrap();
        let moves = Moves::new(&rules);
        let all = grundy_by_definition(&rules, 700).unwrap();
        let n = 300 + rng.below(300) as usize;
        let sparse = Sparse::rebuild(&moves, &all[..n]);
        let mut scratch = Scratch::default();
        for h in n..n + 40 {
            let now = Sparse::rebuild(&moves, &all[..h]);
            for want in 1..=MAX_CANDIDATES {
                let c = first_unreached(&sparse, &moves, &all[..n], h, want, None, &mut scratch);
                let reached = reached_below(&moves, &all, h, n);
                let list = &c.values[..c.len];
                assert!((1..=want).contains(&c.len), "{rules} h {h}: {c:?}");
                longer += usize::from(c.len > 1);
                assert!(list.windows(2).all(|w| w[0] < w[1]), "{rules} h {h}: {c:?}");
                for &v in list {
                    assert!(!reached.contains(&v), "{rules} h {h}: {v} is reached");
                }
                for v in 0..list[c.len - 1] {
                    assert!(
                        list.contains(&v) || reached.contains(&v),
                        "{rules} h {h}: {v} left out of {c:?}"
                    );
                }
                // Settling with the heaps n..h known gives G(h).
                let (g, _) = settle(&now, &moves, &all[..h], n, &c, None, &mut scratch);
                assert_eq!(g, usize::from(all[h]), "{rules} h {h} want {want}");
            }
        }
    }
    assert!(
        longer > 1000,
        "too few lists of several candidates: {longer}"
    );
}
