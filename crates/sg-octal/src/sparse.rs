//! The sparse-space state (Gangolli and Plambeck 1989; Flammenkamp): the
//! split of the heaps into rare and common ones, chosen from the
//! histogram of values, and the lists the searches read.
//!
//! # The argument
//!
//! Fix a mask `m` and a *flip* `l(0), l(1)` in {0, 1} per parity of the
//! heap size, and label each heap `a >= 1` with
//! `psi(a) = parity_m(G(a)) ^ l(a mod 2)`, where `parity_m(v)` is the parity
//! of `popcount(v & m)`. Heaps with `psi = 0` are *rare* (the split is
//! chosen to make them few). For a split `{a, b}` of `r` tokens,
//! `a mod 2 ^ b mod 2 = r mod 2`, so
//! `parity_m(G(a) ^ G(b)) = psi(a) ^ psi(b) ^ c(r)` with
//! `c(r) = (l(0) ^ l(1)) & (r mod 2)`. Hence:
//!
//! 1. The option values `x` of the splits of `r` with
//!    `parity_m(x) = 1 ^ c(r)` (the *exact class*) come exactly from the
//!    splits with one rare part: enumerating the rare heaps `a < r` and
//!    marking `G(a) ^ G(r - a)` finds all of them, in O(#rare).
//! 2. Values of the other class come from rare-rare splits (marked by 1)
//!    and from common-common splits, which are many: such a value, if it is
//!    below the smallest unmarked value of the exact class, is looked for
//!    among all splits (the `search` module: 32 splits at a time against
//!    the set of values sought, stopping as soon as all are found), and
//!    only a value that the complete search does not find can be the mex.
//!
//! So the values are exact for *every* split; the split only changes the
//! speed. Without a flip (`l = 0`) this is the classical sparse space. A
//! flip suits games whose common values alternate with the parity of the
//! heap (such as `0.106`); it keeps the exact class aligned with the common
//! values only for takes of one parity (`l = (0, 1)` for even takes,
//! `(1, 0)` for odd takes), so the takes that split are grouped by parity,
//! each group with its own split. The number of rare heaps of a split is
//! read off the Walsh-Hadamard transforms `W_c(m) = sum_v h_c(v)
//! (-1)^parity_m(v)` of the histograms `h_0`, `h_1` of values on even and
//! odd heaps: it is `(n_0 + s_0 W_0(m))/2 + (n_1 + s_1 W_1(m))/2` with
//! `s_c = +1` when `l(c) = 0` and `-1` otherwise. The split with the
//! fewest rare heaps is re-chosen as values arrive and the rare list
//! rebuilt when it changes. Grundy's game only forbids `a = b`, whose XOR
//! is 0; the enumerations skip it. Moves leaving three heaps have no such
//! parity argument (three common parts can give either class): they are
//! enumerated in full.

use std::collections::TryReserveError;

use super::moves::Moves;

/// Values below `1 << MIN_BITS` always fit the marking bitsets.
const MIN_BITS: u32 = 6;

/// Whether `v` is even under `mask` (`popcount(v & mask)` even).
#[inline]
pub(crate) fn parity(v: u16, mask: u16) -> u32 {
    (v & mask).count_ones() & 1
}

/// One rare/common split and its rare heaps.
#[derive(Debug, Clone)]
pub(crate) struct Split {
    /// The mask `m`.
    pub(crate) mask: u16,
    /// The flip `l(a mod 2)`.
    pub(crate) flip: [u32; 2],
    /// The rare heaps, ascending.
    pub(crate) rare: Vec<u32>,
    /// `G(a)` for each rare heap `a`, in the same order.
    pub(crate) rare_values: Vec<u16>,
    /// The flips this group may use (aligned with its takes' parity).
    allowed: [[u32; 2]; 2],
    /// The pair takes of this group.
    pub(crate) takes: Vec<u32>,
}

impl Split {
    /// Whether heap `a` with value `g` is rare.
    #[inline]
    pub(crate) fn is_rare(&self, a: usize, g: u16) -> bool {
        parity(g, self.mask) == self.flip[a & 1]
    }

    /// The parity under the mask of the exact class of the splits of `r`.
    #[inline]
    pub(crate) fn exact_parity(&self, r: usize) -> u32 {
        1 ^ ((self.flip[0] ^ self.flip[1]) & (r as u32 & 1))
    }

    fn rebuild(&mut self, values: &[u16]) -> Result<(), TryReserveError> {
        self.rare.clear();
        self.rare_values.clear();
        for (a, &g) in values.iter().enumerate().skip(1) {
            self.push_if_rare(a, g)?;
        }
        Ok(())
    }

    /// Appends heap `a` (above every rare heap listed) with value `g` to
    /// the rare list if it is rare; whether it was. The lists grow
    /// fallibly: they may hold a value for most heaps.
    fn push_if_rare(&mut self, a: usize, g: u16) -> Result<bool, TryReserveError> {
        if !self.is_rare(a, g) {
            return Ok(false);
        }
        try_push(&mut self.rare, a as u32)?;
        try_push(&mut self.rare_values, g)?;
        Ok(true)
    }

    /// A copy whose lists are had fallibly.
    fn try_clone(&self) -> Result<Split, TryReserveError> {
        Ok(Split {
            rare: try_copy(&self.rare)?,
            rare_values: try_copy(&self.rare_values)?,
            takes: self.takes.clone(),
            ..*self
        })
    }

    /// A copy with only the rare heaps below `below`.
    fn try_truncated(&self, below: usize) -> Result<Split, TryReserveError> {
        let kept = self.rare.partition_point(|&a| (a as usize) < below);
        Ok(Split {
            rare: try_copy(&self.rare[..kept])?,
            rare_values: try_copy(&self.rare_values[..kept])?,
            takes: self.takes.clone(),
            ..*self
        })
    }
}

/// Pushes `x`, growing the vector fallibly (doubling it).
fn try_push<T>(v: &mut Vec<T>, x: T) -> Result<(), TryReserveError> {
    if v.len() == v.capacity() {
        v.try_reserve(v.len().max(16))?;
    }
    v.push(x);
    Ok(())
}

/// A copy of `items`, had fallibly.
fn try_copy<T: Copy>(items: &[T]) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(items.len())?;
    v.extend_from_slice(items);
    Ok(v)
}

/// The sparse-space state shared by the computation of every value.
#[derive(Debug, Clone)]
pub(crate) struct Sparse {
    /// One split per parity of the takes that leave two heaps.
    pub(crate) groups: Vec<Split>,
    /// How many heaps `a >= 1` of each parity hold each value.
    histogram: [Vec<u64>; 2],
    /// Every value so far is below `1 << bits`.
    pub(crate) bits: u32,
    /// Heap at which the splits are next reconsidered.
    next_review: u64,
    /// Bumped whenever what [`Sparse::for_reading`] copies changes (a rare
    /// heap, a new split, more bits), so that an unchanged copy is kept.
    pub(crate) version: u64,
}

impl Sparse {
    /// A copy for reading only (the first passes of the crew): the splits
    /// and their rare lists, without the histograms (which only choose the
    /// splits as values arrive).
    pub(crate) fn for_reading(&self) -> Result<Sparse, TryReserveError> {
        Ok(Sparse {
            groups: self
                .groups
                .iter()
                .map(Split::try_clone)
                .collect::<Result<_, _>>()?,
            histogram: [Vec::new(), Vec::new()],
            bits: self.bits,
            next_review: u64::MAX,
            version: self.version,
        })
    }

    /// A copy for reading only (as [`Sparse::for_reading`]) whose rare
    /// lists hold only the heaps below `below`: the state for computing
    /// heap `below` from the values below it when this one was made from
    /// more values (the check of stored values). The same splits, so the
    /// values found are exact (see the module doc); extend it heap by heap
    /// with [`Sparse::push_rare`].
    pub(crate) fn truncated(&self, below: usize) -> Result<Sparse, TryReserveError> {
        Ok(Sparse {
            groups: self
                .groups
                .iter()
                .map(|g| g.try_truncated(below))
                .collect::<Result<_, _>>()?,
            histogram: [Vec::new(), Vec::new()],
            bits: self.bits,
            next_review: u64::MAX,
            version: self.version,
        })
    }

    /// Adds heap `a` with value `g` (above every heap listed) to the rare
    /// lists where it is rare, with the splits unchanged (a copy made by
    /// [`Sparse::truncated`]; `g` below `1 << bits`).
    pub(crate) fn push_rare(&mut self, a: usize, g: u16) -> Result<(), TryReserveError> {
        debug_assert!(u32::from(g) >> self.bits == 0);
        for split in &mut self.groups {
            split.push_if_rare(a, g)?;
        }
        Ok(())
    }

    /// The state before any value, for `moves`.
    pub(crate) fn new(moves: &Moves) -> Sparse {
        let mut groups = Vec::new();
        for parity in [0, 1] {
            let takes: Vec<u32> = moves
                .pair
                .iter()
                .copied()
                .filter(|i| i & 1 == parity)
                .collect();
            if takes.is_empty() {
                continue;
            }
            let allowed = if parity == 0 {
                [[0, 0], [0, 1]]
            } else {
                [[0, 0], [1, 0]]
            };
            groups.push(Split {
                mask: 0,
                flip: [0, 0],
                rare: vec![],
                rare_values: vec![],
                allowed,
                takes,
            });
        }
        Sparse {
            groups,
            histogram: [vec![0; 1 << MIN_BITS], vec![0; 1 << MIN_BITS]],
            bits: MIN_BITS,
            next_review: 64,
            version: 0,
        }
    }

    /// The state for stored values `G(0..)` (on resume).
    pub(crate) fn try_rebuild(moves: &Moves, values: &[u16]) -> Result<Sparse, TryReserveError> {
        let mut s = Sparse::new(moves);
        for n in 0..values.len() {
            s.record(&values[..=n])?;
        }
        s.review(values)?;
        Ok(s)
    }

    /// [`Sparse::try_rebuild`] for the tests.
    #[cfg(test)]
    pub(crate) fn rebuild(moves: &Moves, values: &[u16]) -> Sparse {
        Sparse::try_rebuild(moves, values).expect("memory for the rare lists")
    }

    /// The mask of the first split (0 when no move splits).
    pub(crate) fn mask(&self) -> u16 {
        self.groups.first().map_or(0, |g| g.mask)
    }

    /// The rare heaps of the first split.
    pub(crate) fn rare(&self) -> &[u32] {
        self.groups.first().map_or(&[], |g| &g.rare)
    }

    /// The number of rare splits a heap enumerates (rare heaps times
    /// takes, over the groups): a measure of the work per value.
    pub(crate) fn rare_work(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.rare.len() * g.takes.len())
            .sum()
    }

    /// Records the value just computed (`values` ends with it) and
    /// reconsiders the splits from time to time; fails only if the memory
    /// for the rare lists cannot be had.
    pub(crate) fn push(&mut self, values: &[u16]) -> Result<(), TryReserveError> {
        self.record(values)?;
        let n = values.len() as u64 - 1;
        if n >= self.next_review {
            self.review(values)?;
        }
        Ok(())
    }

    fn record(&mut self, values: &[u16]) -> Result<(), TryReserveError> {
        let n = values.len() - 1;
        let g = values[n];
        if n == 0 {
            return Ok(());
        }
        if u32::from(g) >> self.bits != 0 {
            self.version += 1;
            self.bits = 16 - g.leading_zeros();
            for h in &mut self.histogram {
                h.resize(1 << self.bits, 0);
            }
            self.next_review = n as u64;
        }
        let h = &mut self.histogram[n & 1][g as usize];
        *h += 1;
        for split in &mut self.groups {
            if split.push_if_rare(n, g)? {
                self.version += 1;
            }
        }
        Ok(())
    }

    /// Re-chooses each group's split from the histograms (rebuilding its
    /// rare list if it changes).
    fn review(&mut self, values: &[u16]) -> Result<(), TryReserveError> {
        let n = values.len() as u64;
        self.next_review = n + (n / 4).max(64);
        let transform = |h: &Vec<u64>| {
            let mut w: Vec<i64> = h.iter().map(|&c| c as i64).collect();
            walsh_hadamard(&mut w);
            w
        };
        let (w0, w1) = (transform(&self.histogram[0]), transform(&self.histogram[1]));
        for split in &mut self.groups {
            // Twice the number of rare heaps, up to a constant.
            let cost = |m: usize, flip: [u32; 2]| {
                let sign = |l: u32| if l == 0 { 1 } else { -1 };
                sign(flip[0]) * w0[m] + sign(flip[1]) * w1[m]
            };
            let mut best = (
                cost(split.mask as usize, split.flip),
                split.mask as usize,
                split.flip,
            );
            for flip in split.allowed {
                for m in 0..w0.len() {
                    let c = cost(m, flip);
                    if c < best.0 {
                        best = (c, m, flip);
                    }
                }
            }
            if (best.1 as u16, best.2) != (split.mask, split.flip) {
                split.mask = best.1 as u16;
                split.flip = best.2;
                split.rebuild(values)?;
                self.version += 1;
            }
        }
        Ok(())
    }
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
