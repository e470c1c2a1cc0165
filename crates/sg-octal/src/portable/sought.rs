//! The search of the splits for a set of values sought below 1024, in
//! portable code (see the `search` module for the whole search; the
//! AVX-512 and AVX2 counterparts are `super::super::avx512::sought` and
//! `super::super::avx2::sought`), in two phases:
//!
//! 1. While many values are sought, each split clears its value's byte in
//!    an array of the values pending (one store per split, eight splits'
//!    XORs computed as one vector, no test and no branch), and after each
//!    turn of [`TURN`] splits the bytes of the values still pending are
//!    read back, eight at a time as one `u64`. Early on most splits meet
//!    a value sought, often the same ones again: a test per split would
//!    mispredict, and a comparison with every value sought would cost one
//!    instruction per value.
//! 2. Once at most [`TARGETS`] values are pending, blocks of 32 splits are
//!    compared with each of them (1, 2, 4 or 8 comparisons per vector of
//!    splits, no branch inside a block), and only a block that meets one
//!    is looked at split by split. Most of the splits of a long search
//!    are looked at here, for the last few values.
//!
//! The sequence's values may be any `u16` (`top` up to 65536), and a
//! split's XOR anything below `top`: an XOR of 1024 or more clears a slot
//! that no value sought has (phase 1) and equals no value sought
//! (phase 2).

use super::super::moves::Moves;
use super::super::splits::{BITSET_VALUES, TakeSplits, ValueBits, split_range};

/// Splits of a take per turn of phase 1, between two reads of the values
/// pending.
const TURN: usize = 128;

/// Splits of a take per turn of phase 2 when several takes split (each
/// in turn, so that a value that one take meets only far on, or never,
/// may be met among another's first splits); with one take, all of its
/// splits at once.
const TURN_MANY: usize = 256;

/// The most values phase 2 compares each split with.
const TARGETS: usize = 8;

/// Splits compared per block of phase 2.
const BLOCK: usize = 32;

/// Bytes of the pending set: one per value below [`BITSET_VALUES`], then
/// a slot for the values above (sought by no search), the array a whole
/// number of `u64`.
const SLOTS: usize = BITSET_VALUES + 8;

/// The values of `all` (a set of values below [`BITSET_VALUES`], as bits)
/// that no split of heap `h` meets (both parts below `values.len()`, every
/// value below `top`, a power of two), and whether the search went through
/// every split, as `avx512::missing` (same contract): it stops once every
/// value is met, or once those of `exact` (a subset of `all`, below every
/// other value of `all`) are and `budget` splits have been looked at; the
/// first `skip` splits of each take are not looked at. `cursors` and
/// `slots` are scratch space.
#[allow(clippy::too_many_arguments)]
pub(crate) fn missing(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    all: &ValueBits,
    exact: &ValueBits,
    skip: usize,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
    slots: &mut Slots,
) -> (ValueBits, bool) {
    let n = values.len();
    cursors.clear();
    cursors.extend(moves.pair.iter().filter_map(|&i| {
        let r = h.checked_sub(i as usize)?;
        let (lo, hi) = split_range(moves, r, n);
        TakeSplits::new(values, r, lo, hi, skip)
    }));
    let pending = Pending::new(slots, all, exact, budget);
    if top <= BITSET_VALUES {
        search::<false>(values, pending, cursors)
    } else {
        search::<true>(values, pending, cursors)
    }
}

/// The slot of value `x` in [`Pending::bytes`]: `x` itself below
/// [`BITSET_VALUES`], the last slot above (only when `WIDE`: otherwise
/// every value is below it, and the mask only shows the compiler that the
/// index is in the array).
#[inline(always)]
fn slot<const WIDE: bool>(x: u16) -> usize {
    if WIDE {
        usize::from(x).min(BITSET_VALUES)
    } else {
        usize::from(x) & (BITSET_VALUES - 1)
    }
}

/// The scratch space of [`missing`]: a byte per value below
/// [`BITSET_VALUES`] and one for those above, all zero between searches (a
/// search only clears bytes, then clears those it leaves set: no array of
/// 1 KiB filled per search).
#[derive(Debug, Clone)]
pub(crate) struct Slots(Box<[u8; SLOTS]>);

impl Default for Slots {
    fn default() -> Slots {
        Slots(Box::new([0; SLOTS]))
    }
}

/// The values sought and not met yet.
struct Pending<'s> {
    /// `bytes[v] = 1`: value `v` is sought and not met yet; 0 otherwise
    /// (and in the last slot, which the values of 1024 and more clear).
    bytes: &'s mut [u8; SLOTS],
    /// Every value pending is in `lo..hi` (multiples of 8).
    lo: usize,
    hi: usize,
    /// The values below this are sought exactly.
    exact_end: usize,
    /// Splits still to look at before the search may stop with values
    /// pending at or above `exact_end`.
    budget: usize,
}

/// The eight bytes of `bytes` from `k` on, as one word.
#[inline(always)]
fn word_at(bytes: &[u8; SLOTS], k: usize) -> u64 {
    u64::from_le_bytes(bytes[k..k + 8].try_into().expect("8 bytes"))
}

impl Pending<'_> {
    /// The values of `all`, those of `exact` sought exactly, in `slots`
    /// (all zero).
    fn new<'s>(
        slots: &'s mut Slots,
        all: &ValueBits,
        exact: &ValueBits,
        budget: usize,
    ) -> Pending<'s> {
        // All zero (see `Slots`): only the values of `all` are set.
        let bytes = &mut *slots.0;
        for (w, &word) in all.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                bytes[64 * w + word.trailing_zeros() as usize] = 1;
                word &= word - 1;
            }
        }
        let first = all.iter().position(|&w| w != 0).unwrap_or(0);
        let last = all.iter().rposition(|&w| w != 0).map_or(0, |w| w + 1);
        // The first value sought but not exactly: every value of `exact`
        // is below it.
        let exact_end = (0..all.len())
            .find(|&w| all[w] & !exact[w] != 0)
            .map_or(BITSET_VALUES, |w| {
                64 * w + (all[w] & !exact[w]).trailing_zeros() as usize
            });
        debug_assert!((0..all.len()).all(|w| {
            let below = exact_end.saturating_sub(64 * w).min(64);
            let mask = if below == 64 {
                u64::MAX
            } else {
                (1 << below) - 1
            };
            exact[w] == all[w] & mask
        }));
        Pending {
            bytes,
            lo: 64 * first,
            hi: 64 * last.max(first),
            exact_end,
            budget,
        }
    }

    /// Narrows `lo..hi` to the values pending, and counts them.
    fn count(&mut self) -> usize {
        while self.lo < self.hi && word_at(self.bytes, self.lo) == 0 {
            self.lo += 8;
        }
        while self.hi > self.lo && word_at(self.bytes, self.hi - 8) == 0 {
            self.hi -= 8;
        }
        // Each byte is 0 or 1, and there are at most 128 words (values
        // below 1024): their sum as plain `u64`s adds them byte by byte
        // (no byte reaches 256, no carry), a loop over one slice with no
        // bounds check inside, which the compiler vectorises (SSE2: two
        // words a `paddq`); the bytes of the sum are then added as four
        // 16-bit lanes (each at most 256), whose sum (at most 1024) is in
        // the top lane once multiplied. One multiplication per turn of the
        // search instead of one per word: `.6` to 2^20, one thread, 2.5%
        // fewer instructions.
        debug_assert!(self.hi <= BITSET_VALUES);
        let mut sum = 0u64;
        for word in self.bytes[self.lo..self.hi].chunks_exact(8) {
            sum = sum.wrapping_add(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let lanes = (sum & 0x00ff_00ff_00ff_00ff) + (sum >> 8 & 0x00ff_00ff_00ff_00ff);
        (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    }

    /// Whether every value sought exactly has been met.
    fn exact_met(&self) -> bool {
        let mut any = 0;
        for v in self.lo..self.exact_end.min(self.hi) {
            any |= self.bytes[v];
        }
        any == 0
    }

    /// Counts `looked` splits as looked at; whether the search may stop
    /// with `count` values pending.
    fn may_stop(&mut self, looked: usize, count: usize) -> bool {
        self.budget = self.budget.saturating_sub(looked);
        count == 0 || (self.budget == 0 && self.exact_met())
    }

    /// The values pending, as bits; the bytes are then all zero again.
    fn left(self) -> ValueBits {
        let mut left = [0u64; BITSET_VALUES / 64];
        // Only the words of `lo..hi` may hold a value pending.
        let (first, last) = (self.lo / 64, self.hi.div_ceil(64));
        for (word, chunk) in left[first..last]
            .iter_mut()
            .zip(self.bytes[64 * first..64 * last].chunks_exact_mut(64))
        {
            *word = super::bits_of_bytes((&*chunk).try_into().expect("64 bytes"));
            chunk.fill(0);
        }
        left
    }
}

/// [`missing`] once the cursors and the values pending are set: phase 1,
/// then phase 2 (see the module doc).
fn search<const WIDE: bool>(
    values: &[u16],
    mut pending: Pending,
    cursors: &mut Vec<TakeSplits>,
) -> (ValueBits, bool) {
    // Phase 1: the splits clear the bytes of their values.
    let mut count = pending.count();
    if count == 0 {
        return (pending.left(), cursors.is_empty());
    }
    while count > TARGETS {
        if cursors.is_empty() {
            return (pending.left(), true);
        }
        let mut k = 0;
        while k < cursors.len() {
            let TakeSplits { r, next, hi, .. } = cursors[k];
            let end = hi.min(next + TURN - 1);
            clear_met::<WIDE>(
                &values[next..=end],
                &values[r - end..=r - next],
                pending.bytes,
            );
            cursors[k].next = end + 1;
            if end == hi {
                cursors.swap_remove(k);
            } else {
                k += 1;
            }
            count = pending.count();
            if pending.may_stop(end + 1 - next, count) {
                return (pending.left(), false);
            }
            if count <= TARGETS {
                break;
            }
        }
    }
    // Phase 2: the few values left, compared with blocks of splits.
    let mut targets = [0u16; TARGETS];
    let mut len = 0;
    for v in pending.lo..pending.hi {
        if pending.bytes[v] != 0 {
            targets[len] = v as u16;
            len += 1;
        }
    }
    let turn = if cursors.len() > 1 {
        TURN_MANY
    } else {
        usize::MAX
    };
    let exact_end = pending.exact_end;
    let exact_met = |targets: &[u16]| targets.iter().all(|&t| usize::from(t) >= exact_end);
    while !cursors.is_empty() {
        let mut k = 0;
        while k < cursors.len() {
            let TakeSplits { r, next, hi, .. } = cursors[k];
            // Once the values sought exactly are met, no further than the
            // budget allows (a block at least).
            let most = match exact_met(&targets[..len]) {
                true => turn.min(pending.budget.max(BLOCK)),
                false => turn,
            };
            let end = hi.min(next.saturating_add(most - 1));
            let mut a = next;
            while a <= end {
                let small = &values[a..=end];
                let large = &values[r - end..=r - a];
                let Some((at, met)) = first_hit(small, large, &targets[..len]) else {
                    break;
                };
                // The values the block meets leave the list.
                let mut t = len;
                while t > 0 {
                    t -= 1;
                    if met >> t & 1 != 0 {
                        pending.bytes[usize::from(targets[t])] = 0;
                        targets[t] = targets[len - 1];
                        len -= 1;
                    }
                }
                if len == 0 {
                    return (pending.left(), false);
                }
                a += at + BLOCK;
            }
            cursors[k].next = end + 1;
            if end == hi {
                cursors.swap_remove(k);
            } else {
                k += 1;
            }
            pending.budget = pending.budget.saturating_sub(end + 1 - next);
            if pending.budget == 0 && exact_met(&targets[..len]) {
                return (pending.left(), false);
            }
        }
    }
    (pending.left(), true)
}

/// Clears in `bytes` the slots of the values `small[j] ^ large[len - 1 -
/// j]`: eight splits at a time, their XORs one vector, then eight stores.
#[inline]
fn clear_met<const WIDE: bool>(small: &[u16], large: &[u16], bytes: &mut [u8; SLOTS]) {
    let (chunks, rest) = (small.chunks_exact(8), large.rchunks_exact(8));
    let (small_rest, large_rest) = (chunks.remainder(), rest.remainder());
    for (s, l) in chunks.zip(rest) {
        // A loop, not `array::from_fn`, which the test profile leaves
        // uninlined (a call per split).
        let mut x = [0u16; 8];
        for j in 0..8 {
            x[j] = s[j] ^ l[7 - j];
        }
        for x in x {
            bytes[slot::<WIDE>(x)] = 0;
        }
    }
    for (&s, &l) in small_rest.iter().zip(large_rest.iter().rev()) {
        bytes[slot::<WIDE>(s ^ l)] = 0;
    }
}

/// The offset (a multiple of [`BLOCK`]) of the first block of splits
/// `small[j] ^ large[len - 1 - j]` that meets a value of `targets` (1 to
/// [`TARGETS`] values), if any (the last block may be shorter), and which
/// of them it meets (bit `k` for `targets[k]`).
#[inline]
fn first_hit(small: &[u16], large: &[u16], targets: &[u16]) -> Option<(usize, u32)> {
    let t = |k: usize| targets[k.min(targets.len() - 1)];
    // A value repeated to fill the comparisons: its bit is its first's.
    let (at, met) = match targets.len() {
        1 => first_hit_of(small, large, [t(0)])?,
        2 => first_hit_of(small, large, [t(0), t(1)])?,
        3 | 4 => first_hit_of(small, large, [t(0), t(1), t(2), t(3)])?,
        _ => first_hit_of(
            small,
            large,
            [t(0), t(1), t(2), t(3), t(4), t(5), t(6), t(7)],
        )?,
    };
    Some((at, met & ((1 << targets.len()) - 1)))
}

/// [`first_hit`] for `K` values: each block of [`BLOCK`] splits XORed and
/// compared with every value (`K` comparisons ORed into `K` flags per
/// vector of splits), one test per block; the flags then say which values
/// the block meets, without looking at its splits one by one.
#[inline]
fn first_hit_of<const K: usize>(
    small: &[u16],
    large: &[u16],
    targets: [u16; K],
) -> Option<(usize, u32)> {
    let len = small.len();
    let flags = |met: [bool; K]| {
        met.iter()
            .enumerate()
            .fold(0u32, |bits, (k, &m)| bits | u32::from(m) << k)
    };
    let mut j = 0;
    while j + BLOCK <= len {
        let s: &[u16; BLOCK] = small[j..j + BLOCK].try_into().expect("a block");
        let l: &[u16; BLOCK] = large[len - j - BLOCK..len - j].try_into().expect("a block");
        let mut met = [false; K];
        // Index loops, no iterator adapters: the test profile (no LTO)
        // left them uninlined here, a call per split.
        for i in 0..BLOCK {
            let x = s[i] ^ l[BLOCK - 1 - i];
            for k in 0..K {
                met[k] |= x == targets[k];
            }
        }
        let mut any = false;
        for m in met {
            any |= m;
        }
        if any {
            return Some((j, flags(met)));
        }
        j += BLOCK;
    }
    let mut met = [false; K];
    for i in j..len {
        let x = small[i] ^ large[len - 1 - i];
        for k in 0..K {
            met[k] |= x == targets[k];
        }
    }
    let met = flags(met);
    (met != 0).then_some((j, met))
}
