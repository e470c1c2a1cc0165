//! The small-value path of the search: one candidate with every value
//! below 64 (games such as `.106`, computed heap by heap), the values
//! sought the bits of a word.

use std::ops::ControlFlow;

use super::super::kernels;
use super::super::moves::Moves;
use super::{SCAN_TURN, SearchScratch, first_splits, in_turns};

/// The values of `need` (a set of values below 64, as bits) that no split
/// of heap `h` reaches (both parts below `values.len()`, every value below
/// 64): a scalar scan, each split clearing its value's bit, the takes in
/// turns of [`SCAN_TURN`] splits, stopping once no value is left (checked
/// every [`SMALL_CHECK`] splits); with AVX-512, blocks of 32 splits at a
/// time in each turn. For games with few values (`.106`), whose searches
/// are short: the set setup of the vectorised search costs more than the
/// search itself. With one take that splits, its splits in order
/// ([`missing_one_take`]: on `.106`, whose searches look at 26 splits on
/// average, 0.88x the time of the AVX-512 blocks).
pub(crate) fn missing_small(
    moves: &Moves,
    values: &[u16],
    h: usize,
    mut need: u64,
    scratch: &mut SearchScratch,
) -> u64 {
    let n = values.len();
    if let [i] = moves.pair[..] {
        return missing_one_take(moves, values, h, i, need);
    }
    let next = &mut scratch.next;
    first_splits(moves, h, n, next);
    in_turns(moves, h, n, next, |r, lo, hi| {
        let end = hi.min(lo + SCAN_TURN - 1);
        #[allow(unused_mut)]
        let mut lo = lo;
        if end + 1 - lo >= 32 {
            let m = (end + 1 - lo) / 32 * 32;
            // Both parts of every split are known: `r - lo < n`.
            let (small, large) = (&values[lo..lo + m], &values[r + 1 - lo - m..=r - lo]);
            if let Some(found) = kernels::found_small(small, large) {
                need &= !found;
                if need == 0 {
                    return ControlFlow::Break(end);
                }
                lo += m;
            }
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

/// [`missing_small`] for a game whose splits all take `i` (`.106`): its
/// splits in order, without the turns and their bookkeeping (`.106` to
/// 2^22 on one thread, portable: 0.98x the time).
#[inline]
fn missing_one_take(moves: &Moves, values: &[u16], h: usize, i: u32, mut need: u64) -> u64 {
    let Some(r) = h.checked_sub(i as usize) else {
        return need;
    };
    let (lo, hi) = super::split_range(moves, r, values.len());
    if lo > hi {
        return need;
    }
    // Both parts of every split are known: `r - lo < values.len()`.
    let (small, large) = (&values[lo..=hi], &values[r - hi..=r - lo]);
    for (small, large) in small.chunks(SMALL_CHECK).zip(large.rchunks(SMALL_CHECK)) {
        for (&x, &y) in small.iter().zip(large.iter().rev()) {
            need &= ALL_BUT[usize::from((x ^ y) & 63)];
        }
        if need == 0 {
            return 0;
        }
    }
    need
}

/// See [`missing_small`].
const SMALL_CHECK: usize = 8;

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
