//! The value of one heap by the sparse-space method (argument in
//! [`super::sparse`]), in two parts so that many heaps can be computed
//! at once:
//!
//! - [`first_unreached`] looks only at options whose heaps are all below
//!   `n` (the values known when a batch of heaps starts), and returns the
//!   smallest values that no such option reaches ([`Candidates`]: the
//!   first, and for the heaps of a batch one more when a short search can
//!   vouch for the values between them). Heaps `n, n + 1, ...` of a batch
//!   are computed this way independently, in parallel.
//! - [`settle()`] then adds, heap by heap in order, the few options that
//!   leave a heap `>= n` (a single heap `h - i >= n`, or a split whose
//!   larger part is `>= n`, whose smaller part is then at most `h - n`).
//!   `G(h)` is the first candidate none of them reaches; if they reach
//!   every candidate, the heap is recomputed with every smaller heap known.
//!   A second candidate makes that rare: on `.354` to 10^6, 6% of the heaps
//!   of batches instead of 41%.
//!
//! Files: this one holds the candidates ([`first_unreached`], and its
//! small-value path for games whose values are below 64); [`marks`] the
//! marks of the options with a rare part (step 1 of the argument) and the
//! rules that say which unmarked values are sure; [`rare_rows`] the marks
//! of a whole batch, computed once ([`RareMarks`]); [`mod@settle`] the
//! settling. The kernels they use are in `super::avx512`, `super::avx2`
//! and `super::portable`.
//!
//! Tried and dropped (no gain): three candidates; the recomputation of a
//! heap skipping the values known to be reached; unchecked indexing in the
//! loop of rare marks (a few percent on `.6`, not worth an `unsafe` block
//! resting on another module's invariant).

mod marks;
mod rare_rows;
mod settle;
#[cfg(test)]
mod tests;

use super::moves::Moves;
use super::search::{BITSET_VALUES, SearchScratch, ValueBits, missing_small, search, search_bits};
use super::sparse::Sparse;
use super::splits::FIRST_FOUND;
use marks::{
    Reach, Settles, SmallMarks, below_mask, exact_rules, mark_rare, mark_rare_beyond, mark_unsplit,
    sure_bits,
};
pub(crate) use rare_rows::RareMarks;
use rare_rows::Row;
pub(crate) use settle::settle;

/// Scratch space of one thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// `reach[v] != 0`: some option has value `v` (bytes, not bits: the
    /// marking loops then store without reading back). Allocated on first
    /// use; only the values below the top of the values so far are
    /// cleared and read.
    reach: Option<Box<Reach>>,
    /// The values below the candidates that only a search of all splits
    /// can settle, when some reach 1024 or more (below, they are bits).
    need: Vec<u16>,
    /// The values of `need` that the search found no split for.
    missing: Vec<u16>,
    /// The search's own scratch space.
    search: SearchScratch,
}

/// [`Scratch::reach`], allocated if not yet, with the values below `top`
/// cleared.
fn cleared(reach: &mut Option<Box<Reach>>, top: usize) -> &mut Reach {
    let reach = reach.get_or_insert_with(|| {
        vec![0; (1 << 16) + 1]
            .into_boxed_slice()
            .try_into()
            .expect("(1 << 16) + 1 bytes")
    });
    reach[..top].fill(0);
    reach
}

/// The most values [`first_unreached`] returns.
pub(crate) const MAX_CANDIDATES: usize = 4;

/// The values that no option of a heap with all its heaps below some `n`
/// reaches, smallest first (at most [`MAX_CANDIDATES`], at least one):
/// every value below the last that is not in the list is reached. The
/// heap's value is then the first one that the options leaving a heap
/// `>= n` do not reach, if any.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidates {
    values: [u32; MAX_CANDIDATES],
    len: usize,
}

impl Candidates {
    /// A list of the one value `v` (tests of the crew).
    #[cfg(test)]
    pub(crate) fn only(v: u32) -> Candidates {
        Candidates {
            values: [v, u32::MAX, u32::MAX, u32::MAX],
            len: 1,
        }
    }

    /// The smallest value not reached.
    #[inline]
    pub(crate) fn first(&self) -> usize {
        self.values[0] as usize
    }

    /// Bit `k` set when `x` is candidate `k` (unused slots hold a value
    /// above every `u16`).
    #[inline(always)]
    fn hits(&self, x: u16) -> u32 {
        let x = u32::from(x);
        let mut bits = 0;
        for (k, &c) in self.values.iter().enumerate() {
            bits |= u32::from(x == c) << k;
        }
        bits
    }

    /// The first candidate whose bit is clear in `reached`, if any.
    #[inline]
    fn first_not(&self, reached: u32) -> Option<usize> {
        (0..self.len)
            .find(|&k| reached >> k & 1 == 0)
            .map(|k| self.values[k] as usize)
    }
}

/// The smallest `want` (1 to [`MAX_CANDIDATES`]) values not reached by an
/// option of heap `h` whose heaps are all below `n = values.len()`
/// (`h >= n`); fewer when the list ends with the first value above every
/// value (which nothing reaches).
pub(crate) fn first_unreached(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    h: usize,
    want: usize,
    marks: Option<&RareMarks>,
    scratch: &mut Scratch,
) -> Candidates {
    debug_assert!((1..=MAX_CANDIDATES).contains(&want));
    let n = values.len();
    let top = 1usize << sparse.bits;
    let rules = exact_rules(sparse, h, n);
    let rules = &rules[..sparse.groups.len()];
    if top <= 64 && want == 1 && marks.is_none() {
        return first_unreached_small(sparse, moves, values, h, rules, &mut scratch.search);
    }
    let reach = cleared(&mut scratch.reach, top + 1);
    mark_unsplit(moves, values, h, reach);
    // Marks of rows of bits, by words of 64 values.
    let mut marked = [0u64; 8];
    // Step 1: every split (within the known heaps) with a rare part.
    for (g, split) in sparse.groups.iter().enumerate() {
        for &i in &split.takes {
            let Some(r) = h.checked_sub(i as usize) else {
                continue;
            };
            match marks.and_then(|m| m.row(g, split, r)) {
                Some((row, known)) => {
                    match row {
                        Row::Bytes(row) => reach[..=top]
                            .iter_mut()
                            .zip(row)
                            .for_each(|(x, &y)| *x |= y),
                        Row::Words(row) => marked.iter_mut().zip(row).for_each(|(x, &y)| *x |= y),
                    }
                    if known < values.len() {
                        mark_rare_beyond(split, moves, values, r, known, reach);
                    }
                }
                None => mark_rare(split, moves, values, r, reach),
            }
        }
    }
    // The values of the first splits of each take, rare or not (the
    // search then skips those splits): reached values, marked as such.
    let mut skip = 0;
    if let Some(marks) = marks {
        skip = FIRST_FOUND;
        for &i in &moves.pair {
            let Some(r) = h.checked_sub(i as usize) else {
                continue;
            };
            match marks.first_found(r, n) {
                Some(row) => marked.iter_mut().zip(row).for_each(|(x, &y)| *x |= y),
                None => skip = 0,
            }
        }
    }
    // Step 2: the values below the first unreached value of the exact
    // class of every split, which common-common splits may reach: as bits
    // when they are below 1024 (a list, pushed value by value, then read
    // back into bits by the search, cost `.354` a tenth of its time), as
    // a list otherwise.
    let bits = top <= BITSET_VALUES;
    let mut need_bits: ValueBits = [0; BITSET_VALUES / 64];
    let mut any_sought = 0;
    let need = &mut scratch.need;
    need.clear();
    // The values that no split reaches by the argument (settled), and the
    // unreached ones before them that only a search can settle (need).
    let mut settled = Candidates {
        values: [u32::MAX; MAX_CANDIDATES],
        len: 0,
    };
    // 64 values at a time: bit `j` of a word stands for value `base + j`.
    for (chunk, base) in reach[..top].chunks_exact(64).zip((0..).step_by(64)) {
        let unmarked = !(super::portable::bits_of_bytes(chunk.try_into().expect("64 bytes"))
            | marked.get(base as usize / 64).copied().unwrap_or(0));
        let sure = sure_bits(rules, base);
        let (mut found, mut sought) = (unmarked & sure, unmarked & !sure);
        // Only the values sought below the last candidate wanted count.
        let left = want - settled.len;
        if found.count_ones() as usize >= left {
            let mut last = found;
            for _ in 1..left {
                last &= last - 1;
            }
            let end = last.trailing_zeros();
            found &= u64::MAX >> (63 - end);
            sought &= (1u64 << end) - 1;
        }
        while found != 0 {
            settled.values[settled.len] = base + found.trailing_zeros();
            settled.len += 1;
            found &= found - 1;
        }
        if bits {
            need_bits[base as usize / 64] = sought;
            any_sought |= sought;
        } else {
            while sought != 0 {
                need.push((base + sought.trailing_zeros()) as u16);
                sought &= sought - 1;
            }
        }
        if settled.len == want {
            break;
        }
    }
    if settled.len < want {
        // Every value of an option is below `top`.
        settled.values[settled.len] = top as u32;
        settled.len += 1;
    }
    // The values sought below the first settled value must be settled by
    // a search of every split; those beyond it (only when more than one
    // candidate is wanted) by a short search, the list of candidates
    // ending before the first value it does not find.
    let missing = &mut scratch.missing;
    let cut = if bits {
        if any_sought == 0 {
            return settled;
        }
        let first = settled.values[0];
        let exact =
            std::array::from_fn(|w| need_bits[w] & below_mask(first.saturating_sub(64 * w as u32)));
        search_bits(
            moves,
            values,
            h,
            top,
            &need_bits,
            &exact,
            skip,
            want,
            missing,
            &mut scratch.search,
        )
    } else {
        if need.is_empty() {
            return settled;
        }
        let below = need.partition_point(|&v| u32::from(v) < settled.values[0]);
        search(
            moves,
            values,
            h,
            top,
            need,
            below,
            want,
            missing,
            &mut scratch.search,
        )
    };
    if missing.is_empty() && cut == u32::MAX {
        return settled;
    }
    // Both lists ascend: merge them, keeping the first `want`.
    let mut merged = Candidates {
        values: [u32::MAX; MAX_CANDIDATES],
        len: 0,
    };
    let (mut i, mut j) = (0, 0);
    while merged.len < want && (i < settled.len || j < missing.len()) {
        let next_missing = missing.get(j).map_or(u32::MAX, |&v| u32::from(v));
        let next = if i < settled.len && settled.values[i] < next_missing {
            i += 1;
            settled.values[i - 1]
        } else {
            j += 1;
            next_missing
        };
        if next > cut {
            break;
        }
        merged.values[merged.len] = next;
        merged.len += 1;
    }
    merged
}

/// [`first_unreached`] for one candidate when every value is below 64
/// (games such as `.106`, computed heap by heap): the marks are the bits
/// of a word, and so are the values the search seeks.
fn first_unreached_small(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    h: usize,
    rules: &[(u16, Settles)],
    scratch: &mut SearchScratch,
) -> Candidates {
    debug_assert!(sparse.bits <= 6);
    let mut reach = SmallMarks::default();
    mark_unsplit(moves, values, h, &mut reach);
    for split in &sparse.groups {
        for &i in &split.takes {
            if let Some(r) = h.checked_sub(i as usize) {
                mark_rare(split, moves, values, r, &mut reach);
            }
        }
    }
    let unmarked = !reach.0;
    let sure = sure_bits(rules, 0);
    // The first value the argument settles (64, above every value, if
    // none), and the values below it only a search can settle.
    let first = (unmarked & sure).trailing_zeros();
    let need = unmarked & !sure & below_mask(first);
    let missing = if need == 0 {
        0
    } else {
        missing_small(moves, values, h, need, scratch)
    };
    let value = if missing != 0 {
        missing.trailing_zeros()
    } else {
        first
    };
    Candidates {
        values: [value, u32::MAX, u32::MAX, u32::MAX],
        len: 1,
    }
}
