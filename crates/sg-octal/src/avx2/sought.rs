//! The search of the splits for a set of values sought, with AVX2 (see
//! the `search` module for the whole search; `super::super::avx512::sought`
//! is the AVX-512 counterpart).
//!
//! The set is the bits of the values sought below 1024 as they lie in
//! memory (value `v` is bit `v % 8` of byte `v / 8`), held in one to eight
//! registers of 16 bytes, each copied into both 128-bit lanes (the byte
//! shuffle `vpshufb` looks up 16 bytes per lane): the values below `top`
//! need `top / 128` of them. A block of 32 splits is XORed as 16-bit words,
//! packed to bytes (the byte `v / 8` of each value and its bit `v % 8`),
//! and looked up by one shuffle per register of the set (its bytes, the
//! others' lanes made zero by a saturating add that sets the index's top
//! bit) and one shuffle for the bits: about 20 instructions for 32 splits
//! with values below 256, whether or not a value is sought. A block with a
//! hit is resolved lane by lane, each value found leaving the set (in the
//! registers, as in the AVX-512 search: stored and loaded back, the set
//! would stall on store forwarding), and its other lanes looked up again.
//!
//! The values sought are below 1024, but the sequence's values may be any
//! `u16`, and a split's XOR anything below `top` (up to 65536): an XOR of
//! 1024 or more is in no set. The scalar start skips it; in a block, its
//! byte index `v / 8` saturates at 255 when packed, keeps its top bit
//! through the XOR with `16 k` (below 128), and the shuffle gives 0 there.
//! The test `every_kernel_takes_values_past_2048` (`tests`, the crate root's)
//! compares this path with the portable one on games whose values pass
//! 2048.

use std::arch::x86_64::*;

use super::super::moves::Moves;
use super::super::splits::{BITSET_VALUES, TakeSplits, ValueBits, split_range};
use super::Avx2;

/// The values of `all` (a set of values below [`BITSET_VALUES`], as bits)
/// that no split of heap `h` meets (both parts below `values.len()`, every
/// value below `top`, a power of two), and whether the search went through
/// every split, as `avx512::missing` (same contract): it stops once every
/// value is met, or once those of `exact` (a subset of `all`) are and
/// `budget` splits have been looked at; the first `skip` splits of each
/// take are not looked at. `cursors` is scratch space.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn missing(
    _: Avx2,
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    all: &ValueBits,
    exact: &ValueBits,
    skip: usize,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
) -> (ValueBits, bool) {
    let n = values.len();
    cursors.clear();
    cursors.extend(moves.pair.iter().filter_map(|&i| {
        let r = h.checked_sub(i as usize)?;
        let (lo, hi) = split_range(moves, r, n);
        TakeSplits::new(values, r, lo, hi, skip)
    }));
    // SAFETY: the token says that the CPU has AVX2, the only requirement
    // of these functions; every cursor was made for `values` just above.
    unsafe {
        match top {
            0..=128 => missing_avx2::<1>(values, all, exact, budget, cursors),
            129..=256 => missing_avx2::<2>(values, all, exact, budget, cursors),
            257..=512 => missing_avx2::<4>(values, all, exact, budget, cursors),
            _ => missing_avx2::<8>(values, all, exact, budget, cursors),
        }
    }
}

/// [`missing`] with a set of `K` registers (every value below `128 K`).
///
/// # Safety
/// The CPU must have AVX2, and every cursor must have been made by
/// [`TakeSplits::new`] for this `values`.
#[target_feature(enable = "avx2")]
unsafe fn missing_avx2<const K: usize>(
    values: &[u16],
    all: &ValueBits,
    exact: &ValueBits,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
) -> (ValueBits, bool) {
    // The first splits of each take, where most values sought are met
    // (often the same ones many times), one by one against the set in
    // memory: each vector block there would have hits to resolve.
    let mut first = *all;
    let mut looked = 0;
    for splits in cursors.iter_mut() {
        let end = splits.hi.min(splits.next + scalar_splits(K) - 1);
        for a in splits.next..=end {
            // Values may be as large as `top - 1` (any `u16`): an XOR of
            // 1024 or more is in no set, and is not sought.
            let x = usize::from(values[a] ^ values[splits.r - a]);
            if let Some(word) = first.get_mut(x / 64) {
                *word &= !(1 << (x % 64));
            }
        }
        looked += end + 1 - splits.next;
        splits.next = end + 1;
    }
    cursors.retain(|splits| splits.next <= splits.hi);
    if first.iter().all(|&w| w == 0) {
        return (first, cursors.is_empty());
    }
    let mut left = Sought::<K>::new(&first, exact, budget.saturating_sub(looked));
    // The takes in turns, a few blocks each (as the AVX-512 search).
    let mut complete = true;
    'turns: while !cursors.is_empty() {
        let mut k = 0;
        while k < cursors.len() {
            // SAFETY: as this function's caller promises.
            match unsafe { turn(values, &mut cursors[k], &mut left) } {
                Turn::Stop => {
                    complete = false;
                    break 'turns;
                }
                Turn::Done => {
                    cursors.swap_remove(k);
                }
                Turn::More => k += 1,
            }
        }
    }
    (left.store(all), complete)
}

/// Splits of each take looked at one by one before the vector search
/// with a set of `k` registers: the more registers, the more a block's
/// lookup costs, and the longer the scalar start pays (one thread,
/// `.354` (one register) 0.9x the time with 32 rather than none, and
/// more with 128; `.6` (four) best with 128).
const fn scalar_splits(k: usize) -> usize {
    if k <= 2 { 32 } else { 128 }
}

/// What the search still looks for: the set in registers.
#[derive(Debug, Clone, Copy)]
struct Sought<const K: usize> {
    /// Register `k` holds the bytes `16 k..16 k + 16` of the set of values
    /// not met yet (values `128 k` to `128 k + 127`), in both lanes.
    set: [__m256i; K],
    /// The same of the values that must be settled exactly (never
    /// changed).
    exact: [__m256i; K],
    /// Whether every value of `exact` has been met.
    exact_met: bool,
    /// Splits still to look at before the search may stop with values of
    /// `all` but not `exact` not met.
    budget: usize,
}

impl<const K: usize> Sought<K> {
    /// The values of `all`, of which those of `exact` are sought exactly.
    #[target_feature(enable = "avx2")]
    fn new(all: &ValueBits, exact: &ValueBits, budget: usize) -> Self {
        const { assert!(K >= 1 && 16 * K <= BITSET_VALUES / 8) };
        let half = |set: &ValueBits, k: usize| {
            let mut bytes = [0u8; 16];
            for (j, byte) in bytes.iter_mut().enumerate() {
                let at = 16 * k + j;
                *byte = (set[at / 8] >> (8 * (at % 8))) as u8;
            }
            // SAFETY: `bytes` holds 16 bytes.
            unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.as_ptr().cast())) }
        };
        let set = std::array::from_fn(|k| half(all, k));
        let exact = std::array::from_fn(|k| half(exact, k));
        let mut sought = Sought {
            set,
            exact,
            exact_met: false,
            budget,
        };
        sought.exact_met = !sought.any_exact_left();
        sought
    }

    /// The set as bits: the values of `all` not met.
    #[target_feature(enable = "avx2")]
    fn store(&self, all: &ValueBits) -> ValueBits {
        let mut bytes = [0u8; BITSET_VALUES / 8];
        for (k, &register) in self.set.iter().enumerate() {
            // SAFETY: `bytes` holds `16 K` bytes and more.
            unsafe {
                _mm_storeu_si128(
                    bytes[16 * k..].as_mut_ptr().cast(),
                    _mm256_castsi256_si128(register),
                )
            };
        }
        let mut left = [0u64; BITSET_VALUES / 64];
        for (w, word) in left.iter_mut().enumerate() {
            let eight: [u8; 8] = bytes[8 * w..8 * w + 8].try_into().expect("8 bytes");
            // Words beyond the registers were never sought: kept as given.
            *word = if w < 2 * K {
                u64::from_le_bytes(eight)
            } else {
                all[w]
            };
        }
        left
    }

    /// The byte lanes of a block (its bytes `v / 8` and bits `v % 8`)
    /// whose values are in the set, as a vector (nonzero in those lanes).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hits(&self, block: Block) -> __m256i {
        let mut bytes = _mm256_setzero_si256();
        for k in 0..K {
            // The index minus 16 k (a XOR, the index being below 128):
            // lanes outside 0..16 get their top bit set by the saturating
            // add, which makes the shuffle give 0. With one register every
            // index is below 16.
            let index = match K {
                1 => block.byte,
                _ => _mm256_adds_epu8(
                    _mm256_xor_si256(block.byte, _mm256_set1_epi8(16 * k as i8)),
                    _mm256_set1_epi8(0x70),
                ),
            };
            bytes = _mm256_or_si256(bytes, _mm256_shuffle_epi8(self.set[k], index));
        }
        let bit = _mm256_shuffle_epi8(bit_table(), block.bit);
        _mm256_and_si256(bytes, bit)
    }

    /// Looks up the lanes `lanes` of `blocks` (their bit `p` for byte lane
    /// `p`), removes the values sought from the set, and counts `looked`
    /// splits as looked at; whether the search may stop.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn blocks<const B: usize>(
        &mut self,
        blocks: [Block; B],
        lanes: u32,
        looked: usize,
        values: &[u16],
        at: [(usize, usize); B],
    ) -> bool {
        let mut any = _mm256_setzero_si256();
        for &block in &blocks {
            any = _mm256_or_si256(any, self.hits(block));
        }
        self.budget = self.budget.saturating_sub(looked);
        if _mm256_testz_si256(any, any) == 1 {
            return self.exact_met && self.budget == 0;
        }
        for (&block, &(r, a)) in blocks.iter().zip(&at) {
            loop {
                let hits = self.hits(block);
                let zero = _mm256_cmpeq_epi8(hits, _mm256_setzero_si256());
                let hit = !(_mm256_movemask_epi8(zero) as u32) & lanes;
                if hit == 0 {
                    break;
                }
                let j = lane_split(hit.trailing_zeros() as usize);
                self.remove(values[a + j] ^ values[r - a - j]);
            }
        }
        self.stop_now()
    }

    /// Removes `v` (below `128 K`) from the set, without a branch on which
    /// register holds it.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn remove(&mut self, v: u16) {
        let byte = usize::from(v >> 3);
        let one = _mm256_and_si256(
            _mm256_cmpeq_epi8(iota(), _mm256_set1_epi8((byte & 15) as i8)),
            _mm256_set1_epi8((1u8 << (v & 7)) as i8),
        );
        for (k, register) in self.set.iter_mut().enumerate() {
            let here = _mm256_set1_epi8(if byte >> 4 == k { -1 } else { 0 });
            *register = _mm256_andnot_si256(_mm256_and_si256(one, here), *register);
        }
    }

    /// Whether a value of `exact` is still in the set.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn any_exact_left(&self) -> bool {
        self.set
            .iter()
            .zip(&self.exact)
            .any(|(&s, &e)| _mm256_testz_si256(s, e) == 0)
    }

    /// After values were removed: whether the search may stop.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn stop_now(&mut self) -> bool {
        let any_left = self.set.iter().any(|&s| _mm256_testz_si256(s, s) == 0);
        self.exact_met = !self.any_exact_left();
        !any_left || (self.exact_met && self.budget == 0)
    }
}

/// A block of 32 splits as bytes: `byte` the byte of each value in the
/// set (`v / 8`), `bit` its bit (`v % 8`), in the lanes of
/// `_mm256_packus_epi16` (see [`lane_split`]).
#[derive(Debug, Clone, Copy)]
struct Block {
    byte: __m256i,
    bit: __m256i,
}

/// The split (0 to 31, from the block's first) of byte lane `p` of a
/// [`Block`]: packing two registers of 16 words interleaves their 128-bit
/// lanes (words 0-7 of the first, 0-7 of the second, 8-15 of the first,
/// 8-15 of the second).
#[inline]
fn lane_split(p: usize) -> usize {
    (p & 7) | ((p & 8) << 1) | ((p & 16) >> 1)
}

/// The byte lanes of the splits `from..32` of a block (see [`lane_split`]).
fn lanes_from(from: usize) -> u32 {
    (0..32)
        .filter(|&p| lane_split(p) >= from)
        .fold(0, |mask, p| mask | 1 << p)
}

/// Bytes `0, 1, ..., 15` in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn iota() -> __m256i {
    _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15,
    )
}

/// Byte `j` is `1 << j` for `j < 8`, in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn bit_table() -> __m256i {
    _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    )
}

/// The 32 splits `{a + j, r - a - j}` (`j < 32`) as a [`Block`], for a set
/// of `K` registers (every value below `128 K`).
///
/// # Safety
/// The CPU must have AVX2, and `values[a..a + 32]` and
/// `values[r - a - 31..=r - a]` must be inside `values`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn block<const K: usize>(values: &[u16], r: usize, a: usize) -> Block {
    debug_assert!(a + 32 <= values.len() && r - a < values.len() && a + 31 <= r - a);
    let base = values.as_ptr();
    // Words reversed in each lane, then the lanes swapped: word `j` takes
    // word `15 - j`.
    let reverse_words = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let reverse = |v: __m256i| {
        _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(v, reverse_words))
    };
    // SAFETY: four reads of 16 words inside `values`, as the caller
    // promises: `values[a..a + 32]` and `values[r - a - 31..=r - a]`.
    let (x0, x1) = unsafe {
        let small0 = _mm256_loadu_si256(base.add(a).cast());
        let small1 = _mm256_loadu_si256(base.add(a + 16).cast());
        let large0 = _mm256_loadu_si256(base.add(r - a - 31).cast());
        let large1 = _mm256_loadu_si256(base.add(r - a - 15).cast());
        (
            _mm256_xor_si256(small0, reverse(large1)),
            _mm256_xor_si256(small1, reverse(large0)),
        )
    };
    if K <= 2 {
        // Every value is below 256: packed whole, then split.
        let x = _mm256_packus_epi16(x0, x1);
        Block {
            byte: _mm256_and_si256(_mm256_srli_epi16::<3>(x), _mm256_set1_epi8(0x1f)),
            bit: _mm256_and_si256(x, _mm256_set1_epi8(7)),
        }
    } else {
        let seven = _mm256_set1_epi16(7);
        Block {
            byte: _mm256_packus_epi16(_mm256_srli_epi16::<3>(x0), _mm256_srli_epi16::<3>(x1)),
            bit: _mm256_packus_epi16(_mm256_and_si256(x0, seven), _mm256_and_si256(x1, seven)),
        }
    }
}

/// How a turn of [`turn`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// The search may stop.
    Stop,
    /// The take's splits are all looked at.
    Done,
    /// The take has splits left.
    More,
}

/// Removes from `left` the values of the next blocks of 32 splits of
/// `splits` (four, two or one, or the rest).
///
/// # Safety
/// The CPU must have AVX2, and `splits` must have been made by
/// [`TakeSplits::new`] for this `values` (whose check makes every read
/// below fall inside it).
#[target_feature(enable = "avx2")]
unsafe fn turn<const K: usize>(
    values: &[u16],
    splits: &mut TakeSplits,
    left: &mut Sought<K>,
) -> Turn {
    let TakeSplits { r, lo, hi, .. } = *splits;
    // The block at `a` (with `lo <= a` and `a + 31 <= hi`) reads
    // `values[a..a + 32]` and `values[r - a - 31..=r - a]`: both inside
    // `values`, since `a + 31 <= hi <= r - hi <= r - a - 31` (as
    // `2 hi <= r`) and `r - a <= r - lo < values.len()` (checked by
    // `TakeSplits::new` for this `values`, as the caller promises).
    // SAFETY: see above, for every `a` this is called with.
    let at = |a: usize| unsafe { block::<K>(values, r, a) };
    let mut a = splits.next;
    let stop = if a + 127 <= hi {
        let blocks = [at(a), at(a + 32), at(a + 64), at(a + 96)];
        let starts = [(r, a), (r, a + 32), (r, a + 64), (r, a + 96)];
        a += 128;
        left.blocks(blocks, u32::MAX, 128, values, starts)
    } else if a + 63 <= hi {
        let (blocks, starts) = ([at(a), at(a + 32)], [(r, a), (r, a + 32)]);
        a += 64;
        left.blocks(blocks, u32::MAX, 64, values, starts)
    } else if a + 31 <= hi {
        let (blocks, starts) = ([at(a)], [(r, a)]);
        a += 32;
        left.blocks(blocks, u32::MAX, 32, values, starts)
    } else {
        false
    };
    if stop {
        return Turn::Stop;
    }
    splits.next = a;
    if a + 31 <= hi {
        return Turn::More;
    }
    if a > hi {
        return Turn::Done;
    }
    let stop = if hi + 1 - lo >= 32 {
        // The last block ends at `hi`: its splits before `a` were looked
        // at already.
        let last = hi - 31;
        left.blocks(
            [at(last)],
            lanes_from(a - last),
            hi + 1 - a,
            values,
            [(r, last)],
        )
    } else {
        // Fewer than 32 splits in all: copied into a block of their own,
        // looked up and resolved from the copy.
        let count = hi + 1 - a;
        let mut small = [0u16; 64];
        for (j, slot) in small[..count].iter_mut().enumerate() {
            *slot = values[a + j] ^ values[r - a - j];
        }
        // `small[j] ^ small[63 - j]` is split `j` (the rest zero): a block
        // of `small` as both parts, with `r = 63` and `a = 0`.
        // SAFETY: `small` holds 64 words: reads 0..32 and 32..64.
        let copied = unsafe { block::<K>(&small, 63, 0) };
        let lanes = lanes_from(0) & !lanes_from(count);
        left.blocks([copied], lanes, count, &small, [(63, 0)])
    };
    match stop {
        true => Turn::Stop,
        false => Turn::Done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_map_to_every_split_once() {
        let mut seen = [false; 32];
        for p in 0..32 {
            assert!(!std::mem::replace(&mut seen[lane_split(p)], true));
        }
        assert_eq!(lanes_from(0), u32::MAX);
        assert_eq!(lanes_from(32), 0);
        assert_eq!(lanes_from(31).count_ones(), 1);
    }
}
