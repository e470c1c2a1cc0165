//! The search of the splits for a set of values sought (see the `search`
//! module for the whole search): the values sought are a 1024-bit set held
//! in two registers, and 32 splits at a time are XORed and looked up in
//! it (a word permute and a variable shift), so a split costs a fraction
//! of an instruction whether or not its value is sought; a block with a
//! hit is resolved lane by lane, and the found values leave the set (in
//! the registers: stored and loaded back, the set would stall on store
//! forwarding). With values below 320, a first phase by the values found
//! ([`super::found`]) comes before.

use super::super::moves::Moves;
use super::super::splits::{BITSET_VALUES, TakeSplits, ValueBits, split_range};
use super::found::{FirstPhase, found_first};
use super::{Avx512, REVERSE};

/// The values of `all` (a set of values below [`BITSET_VALUES`], as bits)
/// that no split of heap `h` meets (both parts below `values.len()`, every
/// value below `top`, a power of two), as a 1024-bit set, and whether the
/// search went through every split: it stops once every value is met, or
/// once those of `exact` (a subset of `all`) are and `budget` splits have
/// been looked at. The first `skip` splits of each take (from the smallest
/// smaller part on) are not looked at. `cursors` is scratch space.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn missing(
    _: Avx512,
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
    // SAFETY: the token says that the CPU has AVX-512 F and BW, the only
    // requirement of the function.
    unsafe { missing_avx512(moves, values, h, top, all, exact, skip, budget, cursors) }
}

/// [`missing`], compiled for AVX-512.
///
/// With every value below [`FEW_VALUES`] (`top`), a block's lanes often
/// repeat a value sought, and a value found leaves all of them at once.
#[target_feature(enable = "avx512f,avx512bw")]
#[allow(clippy::too_many_arguments)]
fn missing_avx512(
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
    use std::arch::x86_64::_mm512_storeu_si512;
    let n = values.len();
    cursors.clear();
    cursors.extend(moves.pair.iter().filter_map(|&i| {
        let r = h.checked_sub(i as usize)?;
        let (lo, hi) = split_range(moves, r, n);
        TakeSplits::new(values, r, lo, hi, skip)
    }));
    // Words of 64 values for every value sought (values beyond are found
    // in none, which changes nothing).
    let words = all.iter().rposition(|&w| w != 0).map_or(1, |w| w + 1);
    let first = match words {
        1 | 2 => Some(found_first::<2>(values, all, exact, budget, cursors)),
        3 => Some(found_first::<3>(values, all, exact, budget, cursors)),
        4 => Some(found_first::<4>(values, all, exact, budget, cursors)),
        5 => Some(found_first::<5>(values, all, exact, budget, cursors)),
        _ => None,
    };
    let mut left = match first {
        None => Sought::new(all, exact, budget),
        Some(FirstPhase::Left(left, exact_left, looked)) => {
            Sought::new(&left, &exact_left, budget.saturating_sub(looked))
        }
        Some(FirstPhase::Over(left, complete)) => return (left, complete),
    };
    // The takes in turns, a few blocks each: a value that one take's
    // splits do not reach (or only far on) is often among another's
    // first (`.354`: 1600 blocks of take 2 in vain, then one of take 3).
    let mut complete = true;
    'turns: while !cursors.is_empty() {
        let mut k = 0;
        while k < cursors.len() {
            let splits = &mut cursors[k];
            // SAFETY: this function has the CPU features `search_avx512`
            // needs, and every cursor was made for `values` just above.
            let turn = unsafe {
                if top <= FEW_VALUES {
                    search_avx512::<{ REPEATS | NARROW }>(values, splits, &mut left)
                } else if top <= BITSET_VALUES / 2 {
                    search_avx512::<NARROW>(values, splits, &mut left)
                } else if top <= BITSET_VALUES {
                    search_avx512::<0>(values, splits, &mut left)
                } else {
                    search_avx512::<WIDE>(values, splits, &mut left)
                }
            };
            match turn {
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
    let mut set = [0u64; BITSET_VALUES / 64];
    // SAFETY: `set` holds 16 words of 64 bits: two stores of 8.
    unsafe {
        _mm512_storeu_si512(set.as_mut_ptr().cast(), left.low);
        _mm512_storeu_si512(set.as_mut_ptr().add(8).cast(), left.high);
    }
    (set, complete)
}

/// What [`search_avx512`] still looks for, in registers: a value stored
/// (by [`search_avx512`]) and then loaded whole would stall on the store.
#[derive(Debug, Clone, Copy)]
struct Sought {
    /// The values not met yet, a 1024-bit set: words 0-31 and 32-63.
    low: std::arch::x86_64::__m512i,
    high: std::arch::x86_64::__m512i,
    /// The set of `need[..below]` (the values that must be settled
    /// exactly), to test which of them are left.
    exact_low: std::arch::x86_64::__m512i,
    exact_high: std::arch::x86_64::__m512i,
    /// Whether every value of `need[..below]` has been met.
    exact_met: bool,
    /// Splits still to look at before the search may stop with values of
    /// `need[below..]` not met.
    budget: usize,
}

impl Sought {
    /// The values of `all`, of which those of `exact` are sought exactly.
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new(all: &ValueBits, exact: &ValueBits, budget: usize) -> Sought {
        use std::arch::x86_64::*;
        // SAFETY: each set holds 16 words of 64 bits: two loads of 8.
        let half =
            |set: &ValueBits, w: usize| unsafe { _mm512_loadu_si512(set[w..].as_ptr().cast()) };
        let (exact_low, exact_high) = (half(exact, 0), half(exact, 8));
        Sought {
            low: half(all, 0),
            high: half(all, 8),
            exact_low,
            exact_high,
            exact_met: _mm512_test_epi64_mask(exact_low, exact_low)
                | _mm512_test_epi64_mask(exact_high, exact_high)
                == 0,
            budget,
        }
    }

    /// Looks up the 32 values of `x` whose bits are set in `lanes` (all
    /// below [`BITSET_VALUES`] or not, any order, repeats allowed), removes
    /// those sought from the set, and counts them as looked at; whether the
    /// search may stop.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn block<const KIND: u8>(&mut self, x: std::arch::x86_64::__m512i, lanes: u32) -> bool {
        let hits = self.hits::<KIND>(x, lanes);
        self.budget = self.budget.saturating_sub(lanes.count_ones() as usize);
        if hits == 0 {
            return self.exact_met && self.budget == 0;
        }
        self.remove::<KIND>(x, hits, x, 0);
        self.stop_now()
    }

    /// [`Sought::block`] for two blocks of 32 values, both looked up in the
    /// set before either removes a value (one test for the common case of
    /// no hit; a value of the second block removed by the first is removed
    /// again, which changes nothing).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn two_blocks<const KIND: u8>(
        &mut self,
        x: std::arch::x86_64::__m512i,
        y: std::arch::x86_64::__m512i,
    ) -> bool {
        let (hits_x, hits_y) = (
            self.hits::<KIND>(x, u32::MAX),
            self.hits::<KIND>(y, u32::MAX),
        );
        self.budget = self.budget.saturating_sub(64);
        if hits_x | hits_y == 0 {
            return self.exact_met && self.budget == 0;
        }
        let hits_y = self.remove::<KIND>(x, hits_x, y, hits_y);
        self.remove::<KIND>(y, hits_y, y, 0);
        self.stop_now()
    }

    /// [`Sought::block`] for four blocks of 32 values, all looked up in the
    /// set before any removes a value (one test for the common case of no
    /// hit); a block after the first that has hits is looked up again after
    /// the removals before it.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn four_blocks<const KIND: u8>(&mut self, x: [std::arch::x86_64::__m512i; 4]) -> bool {
        let hits = x.map(|x| self.hits::<KIND>(x, u32::MAX));
        self.budget = self.budget.saturating_sub(128);
        if hits[0] | hits[1] | hits[2] | hits[3] == 0 {
            return self.exact_met && self.budget == 0;
        }
        for (j, (&x, &stale)) in x.iter().zip(&hits).enumerate() {
            if stale != 0 {
                let now = if j == 0 {
                    stale
                } else {
                    self.hits::<KIND>(x, u32::MAX)
                };
                self.remove::<KIND>(x, now, x, 0);
            }
        }
        self.stop_now()
    }

    /// The lanes of `x` (among `lanes`) whose values are in the set.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn hits<const KIND: u8>(&self, x: std::arch::x86_64::__m512i, lanes: u32) -> u32 {
        use std::arch::x86_64::*;
        // Values of 1024 and more are in no set; below 512, the set's
        // first register alone holds them.
        let in_set = if KIND & WIDE != 0 {
            lanes & _mm512_cmplt_epu16_mask(x, _mm512_set1_epi16(BITSET_VALUES as i16))
        } else {
            lanes
        };
        let word = _mm512_srli_epi16::<4>(x);
        let words = if KIND & NARROW != 0 {
            _mm512_permutexvar_epi16(word, self.low)
        } else {
            _mm512_permutex2var_epi16(self.low, word, self.high)
        };
        let bits = _mm512_srlv_epi16(words, _mm512_and_si512(x, _mm512_set1_epi16(15)));
        _mm512_mask_test_epi16_mask(in_set, bits, _mm512_set1_epi16(1))
    }

    /// Removes the values of the lanes `hits` of `x` from the set, and
    /// returns `later_hits`, the hits of a later block `y`, without the
    /// lanes holding a value just removed.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn remove<const KIND: u8>(
        &mut self,
        x: std::arch::x86_64::__m512i,
        mut hits: u32,
        y: std::arch::x86_64::__m512i,
        mut later_hits: u32,
    ) -> u32 {
        use std::arch::x86_64::*;
        if hits == 0 {
            return later_hits;
        }
        let mut values = [0u16; 32];
        // SAFETY: `values` holds 32 words.
        unsafe { _mm512_storeu_si512(values.as_mut_ptr().cast(), x) };
        // Each value clears its bit in the registers, without a branch: a
        // masked and-not on the 32-bit lane that holds it (value `v` is bit
        // `v & 31` of lane `v >> 5`, words being little-endian), the other
        // register's mask empty.
        let mut clear = |v: u16| {
            let lane = 1u32 << (v >> 5);
            let bit = _mm512_set1_epi32(1 << (v & 31));
            self.low = _mm512_mask_andnot_epi32(self.low, lane as u16, bit, self.low);
            self.high = _mm512_mask_andnot_epi32(self.high, (lane >> 16) as u16, bit, self.high);
        };
        if KIND & REPEATS == 0 {
            // Lane by lane (a repeat clears its bit again).
            while hits != 0 {
                clear(values[hits.trailing_zeros() as usize]);
                hits &= hits - 1;
            }
        } else {
            // Many hits are repeats (when the values are few, many lanes
            // hold each): the lanes holding a value just cleared leave the
            // hits, here and in `y` (a longer chain from one value to the
            // next, but one value instead of several lanes).
            while hits != 0 {
                let v = values[hits.trailing_zeros() as usize];
                clear(v);
                let same = _mm512_set1_epi16(v as i16);
                hits &= !_mm512_cmpeq_epi16_mask(x, same);
                later_hits &= !_mm512_cmpeq_epi16_mask(y, same);
            }
        }
        later_hits
    }

    /// After values were removed: whether the search may stop.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn stop_now(&mut self) -> bool {
        use std::arch::x86_64::*;
        let any_left = _mm512_test_epi16_mask(self.low, self.low)
            | _mm512_test_epi16_mask(self.high, self.high);
        let exact_left = _mm512_test_epi16_mask(self.low, self.exact_low)
            | _mm512_test_epi16_mask(self.high, self.exact_high);
        self.exact_met = exact_left == 0;
        any_left == 0 || (self.exact_met && self.budget == 0)
    }
}

/// Kinds of AVX-512 search (bits of its `KIND`): a value found leaves
/// every lane at once ([`FEW_VALUES`]).
const REPEATS: u8 = 1;
/// Every value is below 512: the set is in one register, looked up by a
/// one-register word permute (not two).
const NARROW: u8 = 2;
/// Values may reach 1024 or more (outside the set), which the lookup masks.
const WIDE: u8 = 4;

/// Values below which the AVX-512 search removes a value found from all
/// lanes at once (on `.106`, whose values are below 32: 27% less time;
/// on `.6`, whose values reach 302, each value found removed lane by lane
/// is 8% faster).
const FEW_VALUES: usize = 64;

/// How a turn of [`search_avx512`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// The search may stop.
    Stop,
    /// The take's splits are all looked at.
    Done,
    /// The take has splits left.
    More,
}

/// Removes from `left` the values of the next two blocks of 32 splits of
/// `splits` (or the rest).
///
/// # Safety
/// The CPU must have AVX-512 F and BW, and `splits` must have been made
/// by [`TakeSplits::new`] for this `values` (whose check makes every read
/// below fall inside it).
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn search_avx512<const KIND: u8>(
    values: &[u16],
    splits: &mut TakeSplits,
    left: &mut Sought,
) -> Turn {
    use std::arch::x86_64::*;
    let TakeSplits { r, lo, hi, .. } = *splits;
    // The block at `a` (with `lo <= a` and `a + 31 <= hi`) reads
    // `values[a..a + 32]` and `values[r - a - 31..=r - a]`: both inside
    // `values`, since `a + 31 <= hi <= r - hi <= r - a - 31` (as
    // `2 hi <= r`) and `r - a <= r - lo < values.len()` (checked by
    // `TakeSplits::new` for this `values`, as the caller promises).
    // SAFETY: `REVERSE` holds 32 words.
    let reverse = unsafe { _mm512_loadu_si512(REVERSE.as_ptr().cast()) };
    let base = values.as_ptr();
    let splits_at = |a: usize| {
        debug_assert!(lo <= a && a + 31 <= hi && r - lo < values.len());
        // SAFETY: both reads are 32 words inside `values` (see above) for
        // every `a` this is called with.
        unsafe {
            let small = _mm512_loadu_si512(base.add(a).cast());
            let large = _mm512_loadu_si512(base.add(r - a - 31).cast());
            _mm512_xor_si512(small, _mm512_permutexvar_epi16(reverse, large))
        }
    };
    let mut a = splits.next;
    if a + 127 <= hi {
        let stop = left.four_blocks::<KIND>([
            splits_at(a),
            splits_at(a + 32),
            splits_at(a + 64),
            splits_at(a + 96),
        ]);
        a += 128;
        if stop {
            return Turn::Stop;
        }
    } else if a + 63 <= hi {
        let stop = left.two_blocks::<KIND>(splits_at(a), splits_at(a + 32));
        a += 64;
        if stop {
            return Turn::Stop;
        }
    } else if a + 31 <= hi {
        let stop = left.block::<KIND>(splits_at(a), u32::MAX);
        a += 32;
        if stop {
            return Turn::Stop;
        }
    }
    splits.next = a;
    if a + 31 <= hi {
        return Turn::More;
    }
    if a > hi {
        return Turn::Done;
    }
    let stop = if hi + 1 - lo >= 32 {
        // The last block ends at `hi`: its lanes before `a` were looked
        // at already.
        let last = hi - 31;
        left.block::<KIND>(splits_at(last), u32::MAX << (a - last))
    } else {
        // Fewer than 32 splits in all: copied into one block.
        let mut x = [0u16; 32];
        for (slot, a) in x.iter_mut().zip(a..=hi) {
            *slot = values[a] ^ values[r - a];
        }
        // SAFETY: `x` holds 32 words.
        let x = unsafe { _mm512_loadu_si512(x.as_ptr().cast()) };
        left.block::<KIND>(x, (1u32 << (hi + 1 - a)) - 1)
    };
    match stop {
        true => Turn::Stop,
        false => Turn::Done,
    }
}
