//! The search of the two-heap splits for the values that the rare marks
//! cannot settle (step 2 of the `sparse` module's argument): given the
//! values sought below the first candidate, find those that no split
//! `{a, r - a}` (both parts known) reaches, or learn that all are reached;
//! and, for a heap of a batch, vouch within a short search for the values
//! sought between its first and second candidates. Most values are reached
//! by one of the first few splits, a few only after a long search, and a
//! value that no split reaches is known only after all of them. With
//! several takes that split, the takes are searched in turns, a block of
//! splits each: a value that one take's splits reach only far on (or
//! never) is often among another's first (on `.354` this saves a fifth of
//! the time).
//!
//! Three implementations, equal in result:
//! - With AVX-512 (BW), when every value sought is below 1024: the values
//!   sought are a 1024-bit set held in two registers, and 32 splits at a
//!   time are XORed and looked up in it (a word permute and a variable
//!   shift), so a split costs a fraction of an instruction whether or not
//!   its value is sought; a block with a hit is resolved lane by lane,
//!   and the found values leave the set (in the registers: stored and
//!   loaded back, the set would stall on store forwarding).
//!   When every value sought is below 320, a first phase (the first two turns of
//!   each take) goes the other way: each split's value is added to a set
//!   of the values found (each value a bit set by a shift of a 64-bit
//!   lane, without a test or a branch), compared with the values sought
//!   after each turn. Early on most blocks meet values sought, often the
//!   same ones many times, and each meeting costs the lookup a branch and
//!   a chain of dependent instructions (`.354`: 0.8x the time).
//! - For one candidate with every value below 64 ([`missing_small`], games
//!   such as `.106` computed heap by heap): the values sought are the bits
//!   of a word, and each split clears its value's bit (32 splits at a time
//!   with AVX-512, each value turned into its bit by a shift of a 64-bit
//!   lane; a table lookup per split otherwise). Its searches are short, and
//!   the first implementation's setup cost more than they do.
//! - Otherwise (and as the reference the tests compare the first with): a
//!   first scalar scan marks the sought values it meets in a short prefix
//!   of the splits, then the ones it missed are sought a few at a time by a
//!   vectorised comparison of blocks of splits (AVX2 when present).

use std::ops::ControlFlow;

use super::moves::Moves;

/// The search's scratch space of one thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchScratch {
    /// Per value: 0, or [`WANTED`] (sought by the first scan), or
    /// [`FOUND`] (sought and met).
    sought: Vec<u8>,
    /// Per take, the next smaller part the portable search looks at.
    next: Vec<usize>,
    /// The values sought as a list (the portable search of [`search_bits`]).
    list: Vec<u16>,
    /// The takes' splits still to look at (AVX-512 search).
    #[cfg(target_arch = "x86_64")]
    cursors: Vec<TakeSplits>,
}

/// Values below [`BITSET_VALUES`] as bits: value `v` is bit `v % 64` of
/// word `v / 64`.
pub(crate) type ValueBits = [u64; BITSET_VALUES / 64];

/// Searches the splits of heap `h` (both parts below `n = values.len()`)
/// for the values `need` (ascending, nonempty; every value is below `top`,
/// a power of two): those of `need[..below]` exactly (through every split
/// if one is not met), those of `need[below..]` at least among the first
/// few splits per value. Puts into `missing` the smallest `limit` values
/// of `need` known to be reached by no split, ascending (those of
/// `need[below..]` only when the search went through every split), and
/// returns the first value of `need[below..]` neither met nor known
/// missing (`u32::MAX` if none).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    below: usize,
    limit: usize,
    missing: &mut Vec<u16>,
    scratch: &mut SearchScratch,
) -> u32 {
    missing.clear();
    #[cfg(target_arch = "x86_64")]
    if usize::from(need[need.len() - 1]) < BITSET_VALUES && use_avx512() {
        let (mut all, mut exact) = ([0; BITSET_VALUES / 64], [0; BITSET_VALUES / 64]);
        for (k, &v) in need.iter().enumerate() {
            let (w, bit) = (usize::from(v >> 6), 1 << (v & 63));
            all[w] |= bit;
            if k < below {
                exact[w] |= bit;
            }
        }
        return search_bits(
            moves, values, h, top, &all, &exact, 0, limit, missing, scratch,
        );
    }
    search_list(moves, values, h, top, need, below, limit, missing, scratch)
}

/// [`search`] with the values sought as bits (`all`, nonempty), of which
/// those of `exact` (a subset, below every other) are sought exactly:
/// without the lists, when every value is below [`BITSET_VALUES`] (the
/// lists cost `.354` a tenth of its time). With AVX-512, the first `skip`
/// splits of each take (from the smallest smaller part on) are not looked
/// at: the caller knows that they reach no value sought (0 or
/// [`FIRST_FOUND`], see [`first_found`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_bits(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    all: &ValueBits,
    exact: &ValueBits,
    skip: usize,
    limit: usize,
    missing: &mut Vec<u16>,
    scratch: &mut SearchScratch,
) -> u32 {
    missing.clear();
    // Every value sought is below `top`: only these words may hold one.
    let used = top.div_ceil(64).min(BITSET_VALUES / 64);
    #[cfg(target_arch = "x86_64")]
    if use_avx512() {
        let mut short = 0;
        for w in 0..used {
            short += (all[w] & !exact[w]).count_ones() as usize;
        }
        let budget = SHORT_SCAN_PER_VALUE * short;
        // SAFETY: the CPU supports AVX-512 F and BW (checked by
        // `use_avx512`), the only requirement of the function.
        let (left, complete) = unsafe {
            missing_avx512(
                moves,
                values,
                h,
                top,
                all,
                exact,
                skip,
                budget,
                &mut scratch.cursors,
            )
        };
        let known = if complete { all } else { exact };
        push_values((0..used).map(|w| left[w] & known[w]), limit, missing);
        if complete {
            return u32::MAX;
        }
        return (0..used)
            .map(|w| (w, left[w] & all[w] & !exact[w]))
            .find(|&(_, word)| word != 0)
            .map_or(u32::MAX, |(w, word)| 64 * w as u32 + word.trailing_zeros());
    }
    let mut need = std::mem::take(&mut scratch.list);
    need.clear();
    push_values(exact[..used].iter().copied(), usize::MAX, &mut need);
    let below = need.len();
    push_values((0..used).map(|w| all[w] & !exact[w]), usize::MAX, &mut need);
    let cut = search_list(moves, values, h, top, &need, below, limit, missing, scratch);
    scratch.list = need;
    cut
}

/// Appends to `list` the values of `words` (value `v`: bit `v % 64` of
/// word `v / 64`), ascending, while it is shorter than `limit`.
fn push_values(words: impl Iterator<Item = u64>, limit: usize, list: &mut Vec<u16>) {
    for (w, mut word) in words.enumerate() {
        while word != 0 && list.len() < limit {
            list.push((64 * w as u32 + word.trailing_zeros()) as u16);
            word &= word - 1;
        }
    }
}

/// [`search`] without AVX-512, or with values beyond the bits.
#[allow(clippy::too_many_arguments)]
fn search_list(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    below: usize,
    limit: usize,
    missing: &mut Vec<u16>,
    scratch: &mut SearchScratch,
) -> u32 {
    if below > 0 {
        first_missing_portable(
            moves,
            values,
            h,
            top,
            &need[..below],
            limit,
            missing,
            scratch,
        );
    }
    if below == need.len() {
        return u32::MAX;
    }
    first_unmet(moves, values, h, top, &need[below..], scratch).map_or(u32::MAX, u32::from)
}

/// The values of `need` (a set of values below 64, as bits) that no split
/// of heap `h` reaches (both parts below `values.len()`, every value below
/// 64): a scalar scan, each split clearing its value's bit, the takes in
/// turns of [`SCAN_TURN`] splits, stopping once no value is left (checked
/// every [`SMALL_CHECK`] splits). For games with few values (`.106`), whose
/// searches are short: the set setup of the vectorised search costs more
/// than the search itself.
pub(crate) fn missing_small(
    moves: &Moves,
    values: &[u16],
    h: usize,
    mut need: u64,
    scratch: &mut SearchScratch,
) -> u64 {
    let n = values.len();
    let next = &mut scratch.next;
    first_splits(moves, h, n, next);
    #[cfg(target_arch = "x86_64")]
    let avx512 = use_avx512();
    in_turns(moves, h, n, next, |r, lo, hi| {
        let end = hi.min(lo + SCAN_TURN - 1);
        #[allow(unused_mut)]
        let mut lo = lo;
        #[cfg(target_arch = "x86_64")]
        if avx512 && end + 1 - lo >= 32 {
            let m = (end + 1 - lo) / 32 * 32;
            // Both parts of every split are known: `r - lo < n`.
            let (small, large) = (&values[lo..lo + m], &values[r + 1 - lo - m..=r - lo]);
            // SAFETY: the CPU has AVX-512 F and BW (`use_avx512`).
            need &= !unsafe { found_small_avx512(small, large) };
            if need == 0 {
                return ControlFlow::Break(end);
            }
            lo += m;
        }
        // Both parts of every split are known: `r - lo < n`.
        let (small, large) = (&values[lo..=end], &values[r - end..=r - lo]);
        for (small, large) in small.chunks(SMALL_CHECK).zip(large.rchunks(SMALL_CHECK)) {
            // A table of the words with one bit clear, not a shift: with a
            // shift, the loop is vectorised on SSE2 into a long sequence of
            // per-lane shifts, twice as slow.
            for (&x, &y) in small.iter().zip(large.iter().rev()) {
                need &= ALL_BUT[usize::from((x ^ y) & 63)];
            }
            if need == 0 {
                return ControlFlow::Break(end);
            }
        }
        ControlFlow::Continue(end)
    });
    need
}

/// See [`missing_small`].
const SMALL_CHECK: usize = 8;

/// Splits per take whose values [`first_found`] gives.
pub(crate) const FIRST_FOUND: usize = 192;

/// The values of the first [`FIRST_FOUND`] splits `{a, r - a}` of `r`
/// with both parts below `values.len()` (`a` from the smallest on), as
/// `W` words of bits (every value below `64 W`). The rows of
/// `heap::RareMarks` hold them: heaps `h` and `h + 1` with takes `i` and
/// `i + 1` split the same `r`, and the first splits of each take, which
/// reach most values sought, are then looked at once for both; the search
/// of each heap skips them (one thread: `.354` 0.85x the time, `.376`
/// 0.94x; 192 splits rather than 64: `.376` 0.95x, `.354` 1.01x).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn first_found<const W: usize>(moves: &Moves, values: &[u16], r: usize) -> [u64; W] {
    let (lo, hi) = split_range(moves, r, values.len());
    let mut words = [0u64; W];
    if lo > hi {
        return words;
    }
    let end = hi.min(lo + FIRST_FOUND - 1);
    let len = end + 1 - lo;
    if len < 32 {
        for a in lo..=end {
            let x = values[a] ^ values[r - a];
            if let Some(word) = words.get_mut(usize::from(x >> 6)) {
                *word |= 1 << (x & 63);
            }
        }
        return words;
    }
    // Blocks of 32 from `lo`, the last one ending at `end` (its splits
    // before that counted again, which changes nothing); both parts of
    // every split are known: `r - lo < values.len()`.
    let mut found = [std::arch::x86_64::_mm512_setzero_si512(); W];
    let whole = len / 32 * 32;
    found_avx512(
        &values[lo..lo + whole],
        &values[r + 1 - lo - whole..=r - lo],
        &mut found,
    );
    if whole < len {
        let last = end + 1 - 32;
        found_avx512(
            &values[last..last + 32],
            &values[r - last - 31..=r - last],
            &mut found,
        );
    }
    reduce_found(&found)
}

/// The values (below 64, as bits) of the splits pairing `small[j]` with
/// `large[len - 1 - j]` (both `32 k` long).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn found_small_avx512(small: &[u16], large: &[u16]) -> u64 {
    let mut found = [std::arch::x86_64::_mm512_setzero_si512()];
    found_avx512(small, large, &mut found);
    reduce_found(&found)[0]
}

/// Adds to `found` the values (below `64 * WORDS`) of the splits pairing
/// `small[j]` with `large[len - 1 - j]` (both `32 k` long): each 32 splits
/// are XORed at once, and each value `v` turned into bit `v % 64` of word
/// `v / 64` by shifts of 64-bit lanes (`found[w]` holds, per lane, the
/// bits of the values `64 w ..`; a shift by 64 or more gives 0, so each
/// value lands in its word's register only, and values of `64 * WORDS`
/// or more in none).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn found_avx512<const WORDS: usize>(
    small: &[u16],
    large: &[u16],
    found: &mut [std::arch::x86_64::__m512i; WORDS],
) {
    use std::arch::x86_64::*;
    assert!(small.len() == large.len() && small.len().is_multiple_of(32));
    // SAFETY: `REVERSE` holds 32 words.
    let reverse = unsafe { _mm512_loadu_si512(REVERSE.as_ptr().cast()) };
    let one = _mm512_set1_epi64(1);
    for (small, large) in small.chunks_exact(32).zip(large.rchunks_exact(32)) {
        // SAFETY: each chunk holds 32 words.
        let (small, large) = unsafe {
            (
                _mm512_loadu_si512(small.as_ptr().cast()),
                _mm512_loadu_si512(large.as_ptr().cast()),
            )
        };
        let x = _mm512_xor_si512(small, _mm512_permutexvar_epi16(reverse, large));
        for quarter in [
            _mm512_castsi512_si128(x),
            _mm512_extracti32x4_epi32::<1>(x),
            _mm512_extracti32x4_epi32::<2>(x),
            _mm512_extracti32x4_epi32::<3>(x),
        ] {
            let mut v = _mm512_cvtepu16_epi64(quarter);
            for word in found.iter_mut() {
                *word = _mm512_or_si512(*word, _mm512_sllv_epi64(one, v));
                v = _mm512_sub_epi64(v, _mm512_set1_epi64(64));
            }
        }
    }
}

/// The values found (see [`found_avx512`]), as words of bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn reduce_found<const WORDS: usize>(found: &[std::arch::x86_64::__m512i; WORDS]) -> [u64; WORDS] {
    found.map(|word| std::arch::x86_64::_mm512_reduce_or_epi64(word) as u64)
}

/// How the first phase of the AVX-512 search ([`found_first`]) ended.
#[cfg(target_arch = "x86_64")]
enum FirstPhase {
    /// The search is over: the values left (bits), and whether every split
    /// was looked at.
    Over(ValueBits, bool),
    /// The values left (bits), those of them sought exactly, and the
    /// splits looked at: the search goes on value by value.
    Left(ValueBits, ValueBits, usize),
}

/// The first phase of [`missing_avx512`] for values below `64 * WORDS`
/// (320 at most): the first [`FOUND_ROUNDS`] turns of each take (of
/// [`FOUND_TURN`] splits), by the values found rather than those left.
/// Every split's value is added to the set found (see [`found_avx512`])
/// without a test or a branch, and the values sought are compared with it
/// after each turn. Early on, most blocks of 32 splits meet a value sought
/// (often several times), which the second phase pays for value by value
/// (a branch, a chain of dependent instructions); then the few values
/// left are sought value by value, through blocks that mostly meet none.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn found_first<const WORDS: usize>(
    values: &[u16],
    all: &ValueBits,
    exact: &ValueBits,
    budget: usize,
    cursors: &mut Vec<TakeSplits>,
) -> FirstPhase {
    let mut found = [std::arch::x86_64::_mm512_setzero_si512(); WORDS];
    // Values of takes with fewer than 32 splits in all.
    let mut few = [0u64; WORDS];
    let mut looked = 0;
    let mut left = *all;
    for _ in 0..FOUND_ROUNDS {
        let mut k = 0;
        while k < cursors.len() {
            let TakeSplits { r, lo, next, hi } = cursors[k];
            let end = hi.min(next + FOUND_TURN - 1);
            if hi + 1 - lo < 32 {
                for a in next..=end {
                    let x = values[a] ^ values[r - a];
                    if let Some(word) = few.get_mut(usize::from(x >> 6)) {
                        *word |= 1 << (x & 63);
                    }
                }
            } else {
                // Blocks of 32 from `next`, the last one ending at `end`
                // (its splits before that looked at again, which changes
                // nothing).
                let whole = (end + 1 - next) / 32 * 32;
                found_avx512(
                    &values[next..next + whole],
                    &values[r + 1 - next - whole..=r - next],
                    &mut found,
                );
                if whole < end + 1 - next {
                    let last = (end + 1).saturating_sub(32).max(lo);
                    found_avx512(
                        &values[last..last + 32],
                        &values[r - last - 31..=r - last],
                        &mut found,
                    );
                }
            }
            looked += end + 1 - next;
            cursors[k].next = end + 1;
            if end == hi {
                cursors.swap_remove(k);
            } else {
                k += 1;
            }
            let met = reduce_found(&found);
            for w in 0..WORDS {
                left[w] = all[w] & !(met[w] | few[w]);
            }
            let exact_met = (0..WORDS).all(|w| left[w] & exact[w] == 0);
            if left[..WORDS] == [0; WORDS] || (exact_met && looked >= budget) {
                return FirstPhase::Over(left, false);
            }
        }
        if cursors.is_empty() {
            return FirstPhase::Over(left, true);
        }
    }
    let exact_left = std::array::from_fn(|w| left[w] & exact[w]);
    FirstPhase::Left(left, exact_left, looked)
}

/// Rounds of turns of the first phase of the AVX-512 search.
#[cfg(target_arch = "x86_64")]
const FOUND_ROUNDS: usize = 2;

/// Splits of a take per turn of [`found_first`].
#[cfg(target_arch = "x86_64")]
const FOUND_TURN: usize = 64;

/// Lane `j` takes lane `31 - j` (a word permute).
#[cfg(target_arch = "x86_64")]
pub(crate) static REVERSE: [u16; 32] = {
    let mut rev = [0u16; 32];
    let mut j = 0;
    while j < 32 {
        rev[j] = 31 - j as u16;
        j += 1;
    }
    rev
};

/// `ALL_BUT[v]`: every bit but bit `v`.
static ALL_BUT: [u64; 64] = {
    let mut words = [0; 64];
    let mut v = 0;
    while v < 64 {
        words[v] = !(1 << v);
        v += 1;
    }
    words
};

/// The smallest of `need` (ascending, nonempty) that a short scan of the
/// splits of heap `h` (a few per value) does not meet: it may be reached
/// by a later split or by none. `None` when all are met.
fn first_unmet(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    scratch: &mut SearchScratch,
) -> Option<u16> {
    scan(moves, values, h, top, need, scratch);
    need.iter()
        .copied()
        .find(|&v| scratch.sought[usize::from(v)] != FOUND)
}

/// Splits per value of `need[below..]` that [`search`] looks at, at least,
/// with AVX-512.
const SHORT_SCAN_PER_VALUE: usize = 32;

/// Whether the AVX-512 search may run: the CPU has AVX-512 F and BW (and,
/// in tests, the portable search is not forced).
#[cfg(target_arch = "x86_64")]
pub(crate) fn use_avx512() -> bool {
    #[cfg(test)]
    if PORTABLE_ONLY.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// Tests set this to run the portable search on every CPU (results are the
/// same either way, so tests running meanwhile are not disturbed).
#[cfg(test)]
pub(crate) static PORTABLE_ONLY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Values the AVX-512 search's set holds: 64 words of 16 bits.
pub(crate) const BITSET_VALUES: usize = 1024;

/// The values of `need` that the vectorised search (module doc) does not
/// meet, as a 1024-bit set, and whether it went through every split: it
/// stops once every value is met, or once those of `need[..below]` are
/// and `budget` splits have been looked at.
///
/// With every value below [`FEW_VALUES`] (`top`), a block's lanes often
/// repeat a value sought, and a value found leaves all of them at once.
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
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

#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
const REPEATS: u8 = 1;
/// Every value is below 512: the set is in one register, looked up by a
/// one-register word permute (not two).
#[cfg(target_arch = "x86_64")]
const NARROW: u8 = 2;
/// Values may reach 1024 or more (outside the set), which the lookup masks.
#[cfg(target_arch = "x86_64")]
const WIDE: u8 = 4;

/// Values below which the AVX-512 search removes a value found from all
/// lanes at once (on `.106`, whose values are below 32: 27% less time;
/// on `.6`, whose values reach 302, each value found removed lane by lane
/// is 8% faster).
#[cfg(target_arch = "x86_64")]
const FEW_VALUES: usize = 64;

/// The splits `{a, r - a}` of one take still to look at, `a` from `next`
/// to `hi`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TakeSplits {
    r: usize,
    lo: usize,
    next: usize,
    hi: usize,
}

impl TakeSplits {
    /// The splits of `r` with `lo <= a <= hi` but the first `skip` (none
    /// left if `lo + skip > hi`), where `1 <= lo`, `2 hi <= r` and
    /// `r - lo < values.len()`: every split the blocks of
    /// [`search_avx512`] read is inside `values`.
    fn new(values: &[u16], r: usize, lo: usize, hi: usize, skip: usize) -> Option<TakeSplits> {
        if lo + skip > hi {
            return None;
        }
        assert!(lo >= 1 && 2 * hi <= r && r - lo < values.len());
        Some(TakeSplits {
            r,
            lo,
            next: lo + skip,
            hi,
        })
    }
}

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
#[cfg(target_arch = "x86_64")]
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

/// The exact part of [`search`] (the values of `need` no split reaches,
/// the smallest `limit`) without AVX-512: a first scalar scan, then a
/// vectorised search for a few values at a time.
#[allow(clippy::too_many_arguments)]
fn first_missing_portable(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    limit: usize,
    missing: &mut Vec<u16>,
    scratch: &mut SearchScratch,
) {
    missing.clear();
    scan(moves, values, h, top, need, scratch);
    // The values the first scan did not find, smallest first, in groups
    // of TARGETS: each group is sought through every remaining split.
    let sought = &scratch.sought;
    let mut left = need
        .iter()
        .copied()
        .filter(|&v| sought[v as usize] != FOUND)
        .peekable();
    while left.peek().is_some() {
        let mut group = [0u16; TARGETS];
        let mut len = 0;
        for (slot, v) in group.iter_mut().zip(left.by_ref()) {
            *slot = v;
            len += 1;
        }
        let mut found = [false; TARGETS];
        seek(
            moves,
            values,
            h,
            &scratch.next,
            &group[..len],
            &mut found[..len],
        );
        for (&v, _) in group[..len].iter().zip(found).filter(|(_, f)| !f) {
            missing.push(v);
            if missing.len() == limit {
                return;
            }
        }
    }
}

/// Splits looked at by the first scan per value sought (it marks any
/// sought value it meets; the values it misses, usually few, are then
/// sought a few at a time by a vectorised scan of the remaining splits).
const SCAN_PER_VALUE: usize = 8;

/// A value the first scan looks for.
const WANTED: u8 = 1;
/// A value the first scan looked for and met.
const FOUND: u8 = 2;

/// Values sought at once by the vectorised scan.
const TARGETS: usize = 8;

/// Splits compared per step of the vectorised scan.
const BLOCK: usize = 32;

/// The range of smaller parts `a` of the splits of `r` whose two parts
/// are known heaps (below `n`).
fn split_range(moves: &Moves, r: usize, n: usize) -> (usize, usize) {
    (
        (r + 1).saturating_sub(n).max(1),
        moves.pair_top(r as u64) as usize,
    )
}

/// A first scan of the splits, marking in `scratch.sought` (as [`FOUND`]) each
/// value of `need` it meets; stops when all are found or after
/// `SCAN_PER_VALUE` splits per value. The takes are scanned in turns of
/// [`SCAN_TURN`] splits (as in the AVX-512 search); `scratch.next[t]` is then the
/// next smaller part `a` to look at for take `t` of `moves.pair`.
fn scan(
    moves: &Moves,
    values: &[u16],
    h: usize,
    top: usize,
    need: &[u16],
    scratch: &mut SearchScratch,
) {
    let SearchScratch { sought, next, .. } = scratch;
    let n = values.len();
    sought.clear();
    sought.resize(top, 0);
    for &v in need {
        sought[v as usize] = WANTED;
    }
    first_splits(moves, h, n, next);
    let mut missing = need.len();
    let mut budget = SCAN_PER_VALUE * missing;
    in_turns(moves, h, n, next, |r, lo, hi| {
        let end = hi.min(lo + SCAN_TURN.min(budget) - 1);
        for a in lo..=end {
            let x = (values[a] ^ values[r - a]) as usize;
            if sought[x] == WANTED {
                sought[x] = FOUND;
                missing -= 1;
                if missing == 0 {
                    return ControlFlow::Break(end);
                }
            }
        }
        budget -= end + 1 - lo;
        match budget {
            0 => ControlFlow::Break(end),
            _ => ControlFlow::Continue(end),
        }
    });
}

/// Where a scan of the splits of heap `h`'s takes (both parts below `n`)
/// starts: per take of `moves.pair`, the smallest smaller part `a`
/// (`usize::MAX` for a take larger than `h`).
fn first_splits(moves: &Moves, h: usize, n: usize, next: &mut Vec<usize>) {
    next.clear();
    next.extend(moves.pair.iter().map(|&i| {
        h.checked_sub(i as usize)
            .map_or(usize::MAX, |r| split_range(moves, r, n).0)
    }));
}

/// Goes through the splits of heap `h`'s takes (both parts below `n`) in
/// turns, from `next` on (per take, kept up to date): `turn(r, lo, hi)`
/// looks at splits of `r` from smaller part `lo` on (up to `hi`, the
/// take's last) and tells where it stopped, `end`: `Continue` to go on
/// (the take's next turn starts at `end + 1`), `Break` to end the scan.
fn in_turns(
    moves: &Moves,
    h: usize,
    n: usize,
    next: &mut [usize],
    mut turn: impl FnMut(usize, usize, usize) -> ControlFlow<usize, usize>,
) {
    let mut more = true;
    while more {
        more = false;
        for (t, &i) in moves.pair.iter().enumerate() {
            let Some(r) = h.checked_sub(i as usize) else {
                continue;
            };
            let (lo, hi) = (next[t], split_range(moves, r, n).1);
            if lo > hi {
                continue;
            }
            match turn(r, lo, hi) {
                ControlFlow::Continue(end) => {
                    next[t] = end + 1;
                    more |= end < hi;
                }
                ControlFlow::Break(end) => {
                    next[t] = end + 1;
                    return;
                }
            }
        }
    }
}

/// Splits of a take per turn of [`scan`] and [`seek`].
const SCAN_TURN: usize = 64;

/// Looks for the values `targets` (at most [`TARGETS`]) among the splits
/// from `next` on (per take, as [`scan`] left them), setting `found[k]`
/// for each one met; stops when all are found. The takes take turns of
/// [`SCAN_TURN`] splits.
fn seek(
    moves: &Moves,
    values: &[u16],
    h: usize,
    next: &[usize],
    targets: &[u16],
    found: &mut [bool],
) {
    let n = values.len();
    // Padded with the first target (a repeat changes nothing).
    let mut padded = [targets[0]; TARGETS];
    padded[..targets.len()].copy_from_slice(targets);
    let mut missing = targets.len();
    let mut from = next.to_vec();
    in_turns(moves, h, n, &mut from, |r, mut lo, hi| {
        let end = hi.min(lo + SCAN_TURN - 1);
        while lo <= end {
            let Some(a) = first_hit(
                Splits {
                    values,
                    r,
                    lo,
                    hi: end,
                },
                &padded,
            ) else {
                break;
            };
            let x = values[a] ^ values[r - a];
            for (k, &v) in targets.iter().enumerate() {
                if v == x && !found[k] {
                    found[k] = true;
                    missing -= 1;
                }
            }
            if missing == 0 {
                return ControlFlow::Break(end);
            }
            // Seek only the values still missing.
            let first_missing = targets[found.iter().position(|&f| !f).unwrap_or(0)];
            padded = [first_missing; TARGETS];
            for (slot, (&v, _)) in padded
                .iter_mut()
                .zip(targets.iter().zip(found.iter()).filter(|(_, f)| !**f))
            {
                *slot = v;
            }
            lo = a + 1;
        }
        ControlFlow::Continue(end)
    });
}

/// The splits `{a, r - a}` with `lo <= a <= hi` of a split size `r`.
#[derive(Debug, Clone, Copy)]
struct Splits<'a> {
    values: &'a [u16],
    r: usize,
    lo: usize,
    hi: usize,
}

/// The first `a` of `splits` with `G(a) ^ G(r - a)` among `targets`.
fn first_hit(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above), the only
        // requirement of a `target_feature(enable = "avx2")` function.
        return unsafe { first_hit_avx2(splits, targets) };
    }
    first_hit_portable(splits, targets)
}

/// [`first_hit_portable`] compiled for AVX2 (16 splits per instruction):
/// about 25% less CPU than the baseline (SSE2) build on `.376` to 2^18,
/// 5% on `.6`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn first_hit_avx2(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    first_hit_portable(splits, targets)
}

/// Blocks of [`BLOCK`] splits, compared with every target without a
/// branch (the loop vectorises); the block with a hit is then searched.
#[inline(always)]
fn first_hit_portable(splits: Splits<'_>, targets: &[u16; TARGETS]) -> Option<usize> {
    let Splits { values, r, lo, hi } = splits;
    let mut a = lo;
    while a + BLOCK <= hi + 1 {
        let small = &values[a..a + BLOCK];
        let large = &values[r + 1 - a - BLOCK..r + 1 - a];
        let mut hit = false;
        for j in 0..BLOCK {
            let x = small[j] ^ large[BLOCK - 1 - j];
            for &t in targets {
                hit |= x == t;
            }
        }
        if hit {
            break;
        }
        a += BLOCK;
    }
    (a..=hi).find(|&a| targets.contains(&(values[a] ^ values[r - a])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::Rules;
    use crate::testing::SplitMix64;

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

    /// `first_found` against the values of the first splits taken one by
    /// one, on random values below 64 to 512, every width, split sizes
    /// with fewer splits than a block, a few blocks and more, and every
    /// kind of take (Grundy's game's unequal splits included).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn first_found_holds_the_first_splits_values() {
        if !use_avx512() {
            return;
        }
        let mut rng = SplitMix64::new(192);
        for case in 0..400 {
            let rules = match case % 3 {
                0 => Rules::grundys_game(),
                1 => Rules::parse("0.354").unwrap(),
                _ => Rules::parse("4.05").unwrap(),
            };
            let moves = Moves::new(&rules);
            let n = 2 + rng.below(1200) as usize;
            let bits = 6 + case % 4;
            let values: Vec<u16> = (0..n).map(|_| rng.below(1 << bits) as u16).collect();
            let r = rng.below(2 * n as u64) as usize;
            let (lo, hi) = split_range(&moves, r, n);
            let mut want = [0u64; 8];
            for a in (lo..=hi).take(FIRST_FOUND) {
                let x = values[a] ^ values[r - a];
                want[usize::from(x >> 6)] |= 1 << (x & 63);
            }
            // SAFETY: `use_avx512` said the CPU has AVX-512 F and BW.
            let got: Vec<u64> = unsafe {
                match bits {
                    6 => first_found::<1>(&moves, &values, r).to_vec(),
                    7 => first_found::<2>(&moves, &values, r).to_vec(),
                    8 => first_found::<4>(&moves, &values, r).to_vec(),
                    _ => first_found::<8>(&moves, &values, r).to_vec(),
                }
            };
            assert_eq!(got, want[..got.len()], "{rules} case {case}: n {n}, r {r}");
        }
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
            for portable in [false, true] {
                PORTABLE_ONLY.store(portable, std::sync::atomic::Ordering::Relaxed);
                let got = missing_small(&moves, &values, h, need, &mut scratch);
                assert_eq!(
                    got, truly,
                    "case {case} ({rules}, n {n}, h {h}), portable {portable}"
                );
            }
            found_missing += usize::from(truly != 0);
        }
        PORTABLE_ONLY.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(found_missing > 100, "{found_missing}");
    }

    /// The search against trying every split, on random sequences (not
    /// game values: the search works for any values), with values below 4
    /// to 2048 (so that XORs fall outside the 1024-bit set), random sets of
    /// values sought (including values no split reaches), every split into
    /// exact and short parts and every limit; AVX-512 (where the CPU has
    /// it) and portable.
    #[test]
    fn search_keeps_its_contract() {
        let mut rng = SplitMix64::new(1024);
        let codes = ["0.6", "0.354", "0.077", "4.05", "0.106", "0.4444"];
        let mut outcomes = [0usize; 3];
        for case in 0..600 {
            let rules = match case % 7 {
                6 => Rules::grundys_game(),
                k => Rules::parse(codes[k]).unwrap(),
            };
            let moves = Moves::new(&rules);
            let n = 2 + rng.below(1500) as usize;
            // Values below 64 (`FEW_VALUES`), 128 and 256 (the first phase
            // by values found), 1024 (the set) and beyond.
            let range = [4u64, 24, 64, 100, 300, 1100, 2048][(case / 7) % 7];
            let values: Vec<u16> = (0..n).map(|_| rng.below(range) as u16).collect();
            let h = n + rng.below(4) as usize;
            let sought_below = if case % 3 == 0 { 2 * range } else { range };
            let mut need: Vec<u16> = (0..sought_below as u16)
                .filter(|_| rng.below(4) == 0)
                .collect();
            if need.is_empty() {
                need.push(rng.below(sought_below) as u16);
            }
            let top = (2 * range).next_power_of_two() as usize;
            let truly: Vec<u16> = need
                .iter()
                .copied()
                .filter(|&v| !reached(&moves, &values, h, v))
                .collect();
            let below = rng.below(need.len() as u64 + 1) as usize;
            let mut scratch = SearchScratch::default();
            let mut missing = vec![];
            for portable in [false, true] {
                PORTABLE_ONLY.store(portable, std::sync::atomic::Ordering::Relaxed);
                for limit in [1, 2, 4] {
                    let at =
                        format!("case {case}, below {below}, limit {limit}, portable {portable}");
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
        PORTABLE_ONLY.store(false, std::sync::atomic::Ordering::Relaxed);
        // Every outcome occurs often enough for the comparison to mean much.
        assert!(outcomes.iter().all(|&k| k > 100), "{outcomes:?}");
    }
}
