//! The marks of step 1 of the argument (see `super::super::sparse`): the
//! values of the options that leave no split into two, and of the splits
//! with a rare part; and the rules, per split group, that say which of
//! the unmarked values no split reaches (step 2's sure values), 64 values
//! at a time.

use super::super::moves::Moves;
use super::super::sparse::{Sparse, Split, parity};

/// Which values not reached by a split's marked options are sure to be
/// reached by none of its splits.
#[derive(Debug, Clone, Copy)]
pub(super) enum Settles {
    /// Every value (the marks are complete).
    All,
    /// The values of this parity under the split's mask (its exact class).
    Parity(u32),
    /// None (its takes have different exact classes).
    Nothing,
}

/// One byte per `u16` value (indexed by a value, it needs no bounds
/// check), and one for 2^16, the top when values reach 2^15 (cleared and
/// read, never marked).
pub(super) type Reach = [u8; (1 << 16) + 1];

/// Bit `j` set when value `base + j` (`base` a multiple of 64) has parity
/// `e` under `mask`.
#[inline]
pub(super) fn parity_bits(base: u32, mask: u16, e: u32) -> u64 {
    let odd = ODD_UNDER[usize::from(mask & 63)];
    // `base` and `j` share no bit under the mask.
    if parity(base as u16, mask) ^ e == 1 {
        odd
    } else {
        !odd
    }
}

/// `ODD_UNDER[m]`: bit `j` set when `j & m` has an odd number of bits
/// (`j`, `m` below 64), a table rather than six XORs per heap (`.106`,
/// whose values are cheap, reads it at every heap).
static ODD_UNDER: [u64; 64] = {
    let mut table = [0; 64];
    let mut m = 0;
    while m < 64 {
        let mut j = 0;
        while j < 64 {
            table[m] |= (((j & m) as u64).count_ones() as u64 & 1) << j;
            j += 1;
        }
        m += 1;
    }
    table
};

/// Where the marking loops record the values they reach.
pub(super) trait Marks {
    fn mark(&mut self, v: u16);
}

impl Marks for Reach {
    #[inline(always)]
    fn mark(&mut self, v: u16) {
        self[usize::from(v)] = 1;
    }
}

/// The values below 64 reached, as the bits of a word.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct SmallMarks(pub(super) u64);

impl Marks for SmallMarks {
    #[inline(always)]
    fn mark(&mut self, v: u16) {
        // Only values below 64 are marked here; the mask spares a check.
        self.0 |= 1 << (v & 63);
    }
}

/// Per split group: the parity under its mask of the values it settles
/// (its exact class), if the same for all its takes; every value if its
/// rare list holds every known heap (`n` of them); none if its takes
/// disagree.
#[inline]
pub(super) fn exact_rules(sparse: &Sparse, h: usize, n: usize) -> [(u16, Settles); 2] {
    let mut rules = [(0u16, Settles::All); 2];
    for (rule, split) in rules.iter_mut().zip(&sparse.groups) {
        let mut parities = split
            .takes
            .iter()
            .filter(|&&i| h >= i as usize)
            .map(|&i| split.exact_parity(h - i as usize));
        let first = parities.next();
        *rule = if split.rare.len() + 1 >= n {
            (0, Settles::All)
        } else {
            match first {
                None => (0, Settles::All),
                Some(e) if parities.all(|p| p == e) => (split.mask, Settles::Parity(e)),
                Some(_) => (0, Settles::Nothing),
            }
        };
    }
    rules
}

/// The values of `base .. base + 64` (`base` a multiple of 64) that the
/// rules say no split reaches unless marked.
#[inline]
pub(super) fn sure_bits(rules: &[(u16, Settles)], base: u32) -> u64 {
    rules
        .iter()
        .fold(u64::MAX, |sure, &(mask, settles)| match settles {
            Settles::All => sure,
            Settles::Parity(e) => sure & parity_bits(base, mask, e),
            Settles::Nothing => 0,
        })
}

/// Marks the values of the options of heap `h` that take or leave no
/// split into two (taking the whole heap, leaving one heap, leaving three
/// heaps), those with all heaps below `values.len()`.
#[inline]
pub(super) fn mark_unsplit<M: Marks>(moves: &Moves, values: &[u16], h: usize, reach: &mut M) {
    let n = values.len();
    for &i in &moves.whole {
        if i as usize == h && h > 0 {
            reach.mark(0);
        }
    }
    for &i in &moves.single {
        if let Some(r) = h.checked_sub(i as usize).filter(|&r| r >= 1 && r < n) {
            reach.mark(values[r]);
        }
    }
    // Three heaps `a <= b <= c = r - a - b` (as `Moves::for_each_triple`
    // enumerates them), all known: `c < n`, that is `b > r - a - n`. For
    // each `a`, the pairs `{b, r - a - b}` are the splits of `r - a` from
    // `b` on: a loop of loads, XORs and stores, without a call per option
    // (hexadecimal codes: the options leaving three heaps are most of
    // their work).
    for &i in &moves.triple {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        for a in 1..=r / 3 {
            let (from, to) = (a.max((r - a + 1).saturating_sub(n)), (r - a) / 2);
            if from > to {
                continue;
            }
            // `a <= b <= c < n`: every part is known.
            let ga = values[a];
            let (small, large) = (&values[from..=to], &values[r - a - to..=r - a - from]);
            for (&b, &c) in small.iter().zip(large.iter().rev()) {
                reach.mark(ga ^ b ^ c);
            }
        }
    }
}

/// Bits `0 .. k` of a word (every bit for `k >= 64`).
#[inline]
pub(super) fn below_mask(k: u32) -> u64 {
    if k >= 64 { u64::MAX } else { (1 << k) - 1 }
}

/// Marks in `reach` the value of every split `{a, r - a}` with a rare part
/// `a` and both parts known (below `values.len()`).
#[inline]
pub(super) fn mark_rare<M: Marks>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    r: usize,
    reach: &mut M,
) {
    let lo = (r + 1).saturating_sub(values.len()).max(1);
    let start = if lo > 1 {
        split.rare.partition_point(|&a| (a as usize) < lo)
    } else {
        0
    };
    // The rare parts `a` with `lo <= a < r` (in Grundy's game, without
    // `2 a = r`): the loop over them has no test but the bound on
    // `r - a`, and stores where a `u16` value says.
    let end = match split.rare.last() {
        Some(&last) if (last as usize) < r => split.rare.len(),
        _ => split.rare.partition_point(|&a| (a as usize) < r),
    };
    let mut mark = |from: usize, to: usize| {
        mark_splits(
            &split.rare[from..to],
            &split.rare_values[from..to],
            values,
            r,
            reach,
        );
    };
    if moves.unequal && r.is_multiple_of(2) {
        let half = split.rare.partition_point(|&a| (a as usize) < r / 2);
        mark(start, half.max(start));
        let after = half + usize::from(split.rare.get(half) == Some(&((r / 2) as u32)));
        mark(after.max(start), end);
    } else {
        mark(start, end);
    }
}

/// Marks `reach[G(a) ^ G(r - a)]` for the parts `a` of `rare` (values
/// `rare_values`), each with `1 <= a < r` and `r - a < values.len()`.
#[inline]
fn mark_splits<M: Marks>(
    rare: &[u32],
    rare_values: &[u16],
    values: &[u16],
    r: usize,
    reach: &mut M,
) {
    for (&a, &ga) in rare.iter().zip(rare_values) {
        reach.mark(ga ^ values[r - a as usize]);
    }
}

/// The part of [`mark_rare`] that a row of [`RareMarks`](super::RareMarks)
/// computed with the heaps below `known` lacks: the rare splits with a
/// part `>= known`.
#[inline]
pub(super) fn mark_rare_beyond(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    r: usize,
    known: usize,
    reach: &mut Reach,
) {
    let lo = (r + 1).saturating_sub(values.len()).max(1);
    let mut mark = |a: usize, ga: u16| {
        if !(moves.unequal && 2 * a == r) {
            reach[(ga ^ values[r - a]) as usize] = 1;
        }
    };
    // A rare part a < known whose other part r - a >= known.
    let start = split.rare.partition_point(|&a| (a as usize) < lo);
    for (&a, &ga) in split.rare[start..].iter().zip(&split.rare_values[start..]) {
        if a as usize + known > r || a as usize >= known {
            break;
        }
        mark(a as usize, ga);
    }
    // A rare part a >= known.
    let start = split
        .rare
        .partition_point(|&a| (a as usize) < known.max(lo));
    for (&a, &ga) in split.rare[start..].iter().zip(&split.rare_values[start..]) {
        if a as usize >= r {
            break;
        }
        mark(a as usize, ga);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::bits_of_bytes;
    use sg_nimber::testing::SplitMix64;

    /// The word helpers of step 2 against their definitions.
    #[test]
    fn marked_and_parity_bits_match_their_definitions() {
        let mut rng = SplitMix64::new(64);
        for _ in 0..2000 {
            let bytes: [u8; 64] = std::array::from_fn(|_| (rng.below(2)) as u8);
            let want = (0..64).fold(0u64, |m, j| m | u64::from(bytes[j] != 0) << j);
            assert_eq!(bits_of_bytes(&bytes), want, "{bytes:?}");
            let (base, mask, e) = (
                64 * rng.below(1024) as u32,
                rng.below(1 << 16) as u16,
                rng.below(2) as u32,
            );
            let want = (0..64).fold(0u64, |m, j| {
                m | u64::from(parity((base + j) as u16, mask) == e) << j
            });
            assert_eq!(
                parity_bits(base, mask, e),
                want,
                "base {base} mask {mask} e {e}"
            );
        }
    }
}
