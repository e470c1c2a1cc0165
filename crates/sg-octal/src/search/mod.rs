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
//! Five implementations, equal in result, each for any values of the
//! sequence (any `u16`: a split's XOR may lie far beyond the values
//! sought, and the vector sets ignore it):
//! - With AVX-512 (BW), when every value sought is below 1024
//!   (`super::avx512::sought`, and `super::avx512::found` for the first
//!   phase): the values
//!   sought are a 1024-bit set held in two registers, and 32 splits at a
//!   time are XORed and looked up in it (a word permute and a variable
//!   shift), so a split costs a fraction of an instruction whether or not
//!   its value is sought; a block with a hit is resolved lane by lane,
//!   and the found values leave the set (in the registers: stored and
//!   loaded back, the set would stall on store forwarding).
//!   When every value sought is below 320, a first phase (the first two
//!   turns of each take) goes the other way: each split's value is added to a set
//!   of the values found (each value a bit set by a shift of a 64-bit
//!   lane, without a test or a branch), compared with the values sought
//!   after each turn. Early on most blocks meet values sought, often the
//!   same ones many times, and each meeting costs the lookup a branch and
//!   a chain of dependent instructions (`.354`: 0.8x the time).
//! - With AVX2 (no AVX-512), when every value sought is below 1024
//!   (`super::avx2::sought`): the same set, as bytes in one to eight
//!   registers of 16 bytes, looked up by byte shuffles, 32 splits at a
//!   time (one shuffle per register and one for the bits); the first
//!   splits of each take one by one first, where most blocks would meet
//!   values sought. One thread, `.6` to 2^20 and `.354` to 2,200,000:
//!   0.55x and 0.35x the time of the earlier portable search (the list
//!   search below); the portable kernel compiled for AVX2 was no faster.
//! - Without either, when every value sought is below 1024
//!   (`super::portable::sought`, code written for the compiler to
//!   vectorise on any target): each split clears its value's byte in an
//!   array of the values pending while many are, then blocks of 32
//!   splits are compared with the last 1 to 8 values.
//! - For one candidate with every value below 64 ([`missing_small`], games
//!   such as `.106` computed heap by heap): the values sought are the bits
//!   of a word, and each split clears its value's bit (a table lookup per
//!   split; with several takes and AVX-512, 32 splits at a time, each
//!   value turned into its bit by a shift of a 64-bit lane). Its searches
//!   are short, and the first implementation's setup cost more than they
//!   do.
//! - Values sought of 1024 and more ([`list`], the list search, on
//!   every CPU): a first scalar scan marks the sought values it meets in
//!   a short prefix of the splits, then the ones it missed are sought a
//!   few at a time by a vectorised comparison of blocks of splits (AVX2
//!   when present).
//!
//! With all but the list search, the first splits of each split size are
//! skipped when the rare-mark rows of a batch hold their values
//! (`super::heap::RareMarks`, values below 512).
//!
//! Files: this one holds the entry ([`search`], [`search_bits`]), the
//! choice between the paths above (by the values sought), and the walk of
//! the takes' splits in turns that they share; [`small`] the small-value
//! path, [`list`] the list search; `super::avx512`, `super::avx2` and
//! `super::portable` the kernels, and `super::kernels` the one place that
//! chooses which kernel runs on this CPU.
//!
//! Tried and dropped (slower): with AVX2, the lanes of a block with hits
//! read back from the block's bytes rather than from the values; the
//! values of the first splits kept for values of 256 to 511 by a compare
//! per word without the rows as bits (no gain on `.6`); the values found as 16-bit lanes; a
//! branch-free scalar prefix of the splits (on `.6`); the first phase by
//! values found for values up to 512 (on `.6`); gathering `G(r - a)` with
//! AVX-512 instead of two loads and a permute.

mod list;
mod small;
#[cfg(test)]
mod tests;

use std::ops::ControlFlow;

use super::kernels;
use super::moves::Moves;
use super::portable as portable_kernels;
pub(crate) use super::splits::{BITSET_VALUES, TakeSplits, ValueBits, split_range};
use list::{first_missing_portable, first_unmet};
pub(crate) use small::missing_small;

/// The search's scratch space of one thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchScratch {
    /// Per value: 0, or [`WANTED`](list::WANTED) (sought by the first scan),
    /// or [`FOUND`](list::FOUND) (sought and met).
    sought: Vec<u8>,
    /// Per take, the next smaller part the portable search looks at.
    next: Vec<usize>,
    /// The portable search's bytes of the values pending.
    slots: portable_kernels::Slots,
    /// The takes' splits still to look at (the searches of
    /// [`search_bits`]).
    cursors: Vec<TakeSplits>,
}

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
    if usize::from(need[need.len() - 1]) < BITSET_VALUES {
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
/// lists cost `.354` a tenth of its time). The first `skip` splits of each
/// take (from the smallest smaller part on) are not looked at: the caller
/// knows that they reach no value sought (0 or
/// [`FIRST_FOUND`](super::splits::FIRST_FOUND), see
/// [`super::portable::first_found`]).
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
    let short: usize = (0..used)
        .map(|w| (all[w] & !exact[w]).count_ones() as usize)
        .sum();
    let budget = SHORT_SCAN_PER_VALUE * short;
    let (cursors, slots) = (&mut scratch.cursors, &mut scratch.slots);
    let (left, complete) = kernels::missing(
        moves, values, h, top, all, exact, skip, budget, cursors, slots,
    );
    let known = if complete { all } else { exact };
    push_values((0..used).map(|w| left[w] & known[w]), limit, missing);
    if complete {
        return u32::MAX;
    }
    first_cut(&left, all, exact, used)
}

/// The first value of `all` but not `exact` that a search stopped short
/// left unmet (`left`, in the first `used` words), or `u32::MAX`.
fn first_cut(left: &ValueBits, all: &ValueBits, exact: &ValueBits, used: usize) -> u32 {
    (0..used)
        .map(|w| (w, left[w] & all[w] & !exact[w]))
        .find(|&(_, word)| word != 0)
        .map_or(u32::MAX, |(w, word)| 64 * w as u32 + word.trailing_zeros())
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

/// [`search`] with values sought of 1024 and more (beyond the bits).
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

/// Splits per value of `need[below..]` that [`search`] looks at, at least,
/// with AVX-512.
const SHORT_SCAN_PER_VALUE: usize = 32;

/// Where a scan of the splits of heap `h`'s takes (both parts below `n`)
/// starts: per take of `moves.pair`, the smallest smaller part `a`
/// (`usize::MAX` for a take larger than `h`).
#[inline]
pub(crate) fn first_splits(moves: &Moves, h: usize, n: usize, next: &mut Vec<usize>) {
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
#[inline]
pub(crate) fn in_turns(
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

/// Splits of a take per turn of the portable search's scans and of
/// [`missing_small`].
pub(crate) const SCAN_TURN: usize = 64;
