//! The sparse-space computation of one Grundy value (Gangolli and Plambeck
//! 1989; Flammenkamp), exact for every mask.
//!
//! # The argument
//!
//! Fix a mask `m` and call a value `v` *odd* when `popcount(v & m)` is odd,
//! *even* otherwise (0 is even). Parity is additive under XOR, so the XOR
//! `G(a) ^ G(b)` of a two-heap option is odd exactly when one of `G(a)`,
//! `G(b)` is odd and the other even. Call the heaps `a >= 1` whose value is
//! even *rare* (the mask is chosen to make them few). Then:
//!
//! 1. Every odd option value of a split `{a, r - a}` has one rare part, so
//!    enumerating the rare heaps `a < r` and marking `G(a) ^ G(r - a)` finds
//!    *all* odd option values, exactly, in O(#rare) per take.
//! 2. Even option values come from rare-rare pairs (found by 1) and from
//!    common-common pairs, which are many: an even value below the smallest
//!    unreached odd value is looked for among all splits, stopping as soon
//!    as every such value has been found. Only a value that the full scan
//!    does not find is the mex, and becomes a new rare heap.
//!
//! The mask changes only the speed: with `m = 0` every heap is rare and
//! step 1 is the definition itself. The mask is chosen to minimise the
//! number of rare heaps, which is `(total + W(m)) / 2` where `W` is the
//! Walsh-Hadamard transform of the histogram of values; it is re-chosen as
//! the histogram changes, and the rare list rebuilt when it changes.
//! Grundy's game only forbids `a = r - a`, whose XOR is 0 (even): step 1 is
//! unaffected and the scans skip it. Moves leaving three heaps (hexadecimal
//! codes) have no such parity split (three odd parts are odd); they are
//! enumerated in full, as in the definition.

use std::ops::ControlFlow;

use super::moves::Moves;

/// Values below `1 << MIN_BITS` always fit the marking bitset.
const MIN_BITS: u32 = 6;

/// The state of the sparse-space method: the mask, the rare heaps and the
/// histogram from which the mask is chosen.
#[derive(Debug, Clone)]
pub(crate) struct Sparse {
    mask: u16,
    /// Heaps `a >= 1` whose value is even under `mask`, ascending.
    rare: Vec<u32>,
    /// `G(a)` for each rare heap `a`, in the same order.
    rare_values: Vec<u16>,
    /// How many heaps `a >= 1` hold each value.
    histogram: Vec<u64>,
    /// Every value so far is below `1 << bits`.
    bits: u32,
    /// Heap at which the mask is next reconsidered.
    next_review: u64,
    /// Marks of option values for the heap being computed.
    seen: Vec<u64>,
    /// Even values still to be found by the scan.
    need: Vec<u64>,
}

/// The largest value the engine may store (`u16::MAX`); tests lower it.
pub(crate) type ValueLimit = u32;

impl Sparse {
    /// An empty state (no heap yet).
    pub(crate) fn new() -> Sparse {
        Sparse {
            mask: 0,
            rare: Vec::new(),
            rare_values: Vec::new(),
            histogram: vec![0; 1 << MIN_BITS],
            bits: MIN_BITS,
            next_review: 64,
            seen: vec![0; words(MIN_BITS)],
            need: vec![0; words(MIN_BITS)],
        }
    }

    /// The mask in use.
    pub(crate) fn mask(&self) -> u16 {
        self.mask
    }

    /// The rare heaps (heaps `a >= 1` whose value is even under the mask).
    pub(crate) fn rare(&self) -> &[u32] {
        &self.rare
    }

    /// `G(n)` from `values = G(0..n)`, or `None` if it would exceed `limit`.
    pub(crate) fn value(
        &mut self,
        moves: &Moves,
        values: &[u16],
        limit: ValueLimit,
    ) -> Option<u16> {
        let n = values.len() as u64;
        let w = words(self.bits);
        let seen = &mut self.seen[..w];
        seen.fill(0);
        let mut mark = |_, parts: &[u64]| {
            set(
                seen,
                parts.iter().fold(0u16, |acc, &p| acc ^ values[p as usize]),
            );
            ControlFlow::Continue(())
        };
        let _ = moves.for_each_unsplit(n, &mut mark);
        let _ = moves.for_each_triple(n, u64::MAX, &mut mark);
        // Step 1: every split with a rare part.
        for &i in &moves.pair {
            let Some(r) = (n as usize).checked_sub(i as usize) else {
                continue;
            };
            for (&a, &ga) in self.rare.iter().zip(&self.rare_values) {
                let a = a as usize;
                if a >= r {
                    break;
                }
                if moves.unequal && 2 * a == r {
                    continue;
                }
                set(seen, ga ^ values[r - a]);
            }
        }
        let g = if self.mask == 0 {
            // Every heap is rare: the marks are exact.
            first_clear(seen)
        } else {
            self.resolve_even(moves, values)
        };
        (g <= limit as usize).then_some(g as u16)
    }

    /// Step 2: the mex, once every odd option value is marked.
    fn resolve_even(&mut self, moves: &Moves, values: &[u16]) -> usize {
        let n = values.len();
        let w = words(self.bits);
        let (seen, need) = (&self.seen[..w], &mut self.need[..w]);
        // Every value below 1 << bits is an XOR of values below it; the
        // value 1 << bits itself is never reached and is even.
        let top = 1usize << self.bits;
        let mut bound = top;
        let mut missing = 0usize;
        need.fill(0);
        for v in 0..top {
            if seen[v / 64] >> (v % 64) & 1 != 0 {
                continue;
            }
            if !is_even(v as u16, self.mask) {
                bound = v;
                break;
            }
            need[v / 64] |= 1 << (v % 64);
            missing += 1;
        }
        if missing > 0 {
            'scan: for &i in &moves.pair {
                let Some(r) = n.checked_sub(i as usize) else {
                    continue;
                };
                for a in 1..=moves.pair_top(r as u64) as usize {
                    let x = (values[a] ^ values[r - a]) as usize;
                    let bit = 1u64 << (x % 64);
                    if need[x / 64] & bit != 0 {
                        need[x / 64] &= !bit;
                        missing -= 1;
                        if missing == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        if missing == 0 {
            return bound;
        }
        first_set(need).min(bound)
    }

    /// Records `G(n) = g` for the heap just computed (`values` already
    /// ends with it), reconsidering the mask from time to time.
    pub(crate) fn push(&mut self, values: &[u16]) {
        let n = values.len() - 1;
        let g = values[n];
        if n == 0 {
            return;
        }
        if u32::from(g) >> self.bits != 0 {
            self.bits = 16 - g.leading_zeros();
            self.histogram.resize(1 << self.bits, 0);
            self.seen.resize(words(self.bits), 0);
            self.need.resize(words(self.bits), 0);
            self.next_review = n as u64;
        }
        self.histogram[g as usize] += 1;
        if is_even(g, self.mask) {
            self.rare.push(n as u32);
            self.rare_values.push(g);
        }
        if n as u64 >= self.next_review {
            self.next_review = n as u64 + (n as u64 / 4).max(64);
            self.review(values);
        }
    }

    /// Re-chooses the mask from the histogram; rebuilds the rare list if
    /// the best mask has fewer rare heaps than the current one.
    pub(crate) fn review(&mut self, values: &[u16]) {
        let mut w: Vec<i64> = self.histogram.iter().map(|&c| c as i64).collect();
        walsh_hadamard(&mut w);
        let best = (0..w.len()).min_by_key(|&m| (w[m], m)).unwrap_or(0);
        if w[best] < w[self.mask as usize] {
            self.mask = best as u16;
            self.rare.clear();
            self.rare_values.clear();
            for (a, &g) in values.iter().enumerate().skip(1) {
                if is_even(g, self.mask) {
                    self.rare.push(a as u32);
                    self.rare_values.push(g);
                }
            }
        }
    }

    /// Rebuilds the state for stored values `G(0..)` (on resume).
    pub(crate) fn rebuild(values: &[u16]) -> Sparse {
        let mut s = Sparse::new();
        let top = values.iter().copied().max().unwrap_or(0);
        s.bits = (16 - top.leading_zeros()).max(MIN_BITS);
        s.histogram = vec![0; 1 << s.bits];
        s.seen = vec![0; words(s.bits)];
        s.need = vec![0; words(s.bits)];
        for &g in values.iter().skip(1) {
            s.histogram[g as usize] += 1;
        }
        s.rare = (1..values.len() as u32).collect();
        s.rare_values = values.iter().skip(1).copied().collect();
        s.review(values);
        s.next_review = values.len() as u64 + (values.len() as u64 / 4).max(64);
        s
    }
}

/// Whether `v` is even under `mask` (`popcount(v & mask)` even).
#[inline]
pub(crate) fn is_even(v: u16, mask: u16) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

/// Words of a bitset holding `0..=(1 << bits)`.
fn words(bits: u32) -> usize {
    (1usize << bits) / 64 + 1
}

#[inline]
fn set(bitset: &mut [u64], x: u16) {
    bitset[x as usize / 64] |= 1 << (x % 64);
}

/// The smallest value not in `bitset` (the bitset always has a clear bit:
/// it is one word longer than the values it holds).
fn first_clear(bitset: &[u64]) -> usize {
    let (i, w) = bitset
        .iter()
        .enumerate()
        .find(|(_, w)| **w != u64::MAX)
        .expect("a clear bit");
    i * 64 + w.trailing_ones() as usize
}

/// The smallest value in `bitset`.
fn first_set(bitset: &[u64]) -> usize {
    let (i, w) = bitset
        .iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .expect("a set bit");
    i * 64 + w.trailing_zeros() as usize
}

/// In-place Walsh-Hadamard transform: `w[m] = sum_v h[v] (-1)^popcount(v & m)`.
fn walsh_hadamard(w: &mut [i64]) {
    let mut len = 1;
    while len < w.len() {
        for block in w.chunks_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        len *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_counts_parities() {
        let hist: Vec<i64> = vec![3, 0, 5, 1, 0, 0, 2, 7];
        let mut w = hist.clone();
        walsh_hadamard(&mut w);
        for (m, &wm) in w.iter().enumerate() {
            let direct: i64 = hist
                .iter()
                .enumerate()
                .map(|(v, &h)| if (v & m).count_ones() % 2 == 0 { h } else { -h })
                .sum();
            assert_eq!(wm, direct, "mask {m}");
        }
    }
}
