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
//! - [`settle`] then adds, heap by heap in order, the few options that
//!   leave a heap `>= n` (a single heap `h - i >= n`, or a split whose
//!   larger part is `>= n`, whose smaller part is then at most `h - n`).
//!   `G(h)` is the first candidate none of them reaches; if they reach
//!   every candidate, the heap is recomputed with every smaller heap known.
//!   A second candidate makes that rare: on `.354` to 10^6, 6% of the heaps
//!   of batches instead of 41%.

use std::ops::ControlFlow;

use super::moves::Moves;
#[cfg(target_arch = "x86_64")]
use super::search::first_found as first_found_words;
use super::search::{
    BITSET_VALUES, FIRST_FOUND, SearchScratch, ValueBits, missing_small, search, search_bits,
};
use super::sparse::{Sparse, Split, parity};

/// Which values not reached by a split's marked options are sure to be
/// reached by none of its splits.
#[derive(Debug, Clone, Copy)]
enum Settles {
    /// Every value (the marks are complete).
    All,
    /// The values of this parity under the split's mask (its exact class).
    Parity(u32),
    /// None (its takes have different exact classes).
    Nothing,
}

/// One byte per `u16` value: indexed by a value, it needs no bounds check.
type Reach = [u8; 1 << 16];

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
        vec![0; 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("1 << 16 bytes")
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
        let unmarked = !(marked_bits(chunk.try_into().expect("64 bytes"))
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

/// Bit `j` set when `bytes[j]` is not zero (each byte 0 or 1): eight bytes
/// at a time, gathered into the top byte of one product (byte `i` of the
/// multiplier's terms lands on bit `56 + i`, each bit from one term only).
#[inline]
fn marked_bits(bytes: &[u8; 64]) -> u64 {
    let mut bits = 0;
    for (k, word) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        debug_assert_eq!(word & !0x0101_0101_0101_0101, 0, "bytes other than 0 and 1");
        bits |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// Bit `j` set when value `base + j` (`base` a multiple of 64) has parity
/// `e` under `mask`.
#[inline]
fn parity_bits(base: u32, mask: u16, e: u32) -> u64 {
    // Bit `j` of `ODD[b]` is bit `b` of `j`.
    const ODD: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    let odd = ODD
        .iter()
        .enumerate()
        .filter(|&(b, _)| mask >> b & 1 != 0)
        .fold(0, |odd, (_, &bits)| odd ^ bits);
    // `base` and `j` share no bit under the mask.
    if parity(base as u16, mask) ^ e == 1 {
        odd
    } else {
        !odd
    }
}

/// Where the marking loops record the values they reach.
trait Marks {
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
struct SmallMarks(u64);

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
fn exact_rules(sparse: &Sparse, h: usize, n: usize) -> [(u16, Settles); 2] {
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
fn sure_bits(rules: &[(u16, Settles)], base: u32) -> u64 {
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
fn mark_unsplit<M: Marks>(moves: &Moves, values: &[u16], h: usize, reach: &mut M) {
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
    if !moves.triple.is_empty() {
        let _ = moves.for_each_triple(h as u64, u64::MAX, |_, parts| {
            if (parts[2] as usize) < n {
                reach.mark(
                    values[parts[0] as usize]
                        ^ values[parts[1] as usize]
                        ^ values[parts[2] as usize],
                );
            }
            ControlFlow::Continue(())
        });
    }
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

/// Bits `0 .. k` of a word (every bit for `k >= 64`).
#[inline]
fn below_mask(k: u32) -> u64 {
    if k >= 64 { u64::MAX } else { (1 << k) - 1 }
}

/// Marks in `reach` the value of every split `{a, r - a}` with a rare part
/// `a` and both parts known (below `values.len()`).
fn mark_rare<M: Marks>(split: &Split, moves: &Moves, values: &[u16], r: usize, reach: &mut M) {
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

/// The part of [`mark_rare`] that a row of [`RareMarks`] computed with the
/// heaps below `known` lacks: the rare splits with a part `>= known`.
fn mark_rare_beyond(
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

/// The marks of step 1 for a range of split sizes `r`, computed once for
/// a batch: heaps `h` and `h + 1` with takes `i` and `i + 1` split the
/// same `r`. A group whose split equals the first group's shares its rows.
/// With AVX-512 and values below 512, the rows are bits, built eight at a
/// time ([`word_rows_avx512`]; `.354` and `.376` 0.91x the time on one
/// thread), and the values of the first [`FIRST_FOUND`] splits of each
/// `r` (rare or not) come with them, which the search of each heap then
/// skips; otherwise bytes ([`mark_rows`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct RareMarks {
    lo: usize,
    hi: usize,
    width: usize,
    /// The rows are computed from the heaps below `known`.
    known: usize,
    /// The mask and flip of each group when the rows were computed.
    splits: Vec<(u16, [u32; 2])>,
    /// `rows[g][(r - lo) * width + x] != 0`: a rare split of `r` has value `x`.
    rows: Vec<Vec<u8>>,
    /// Words of 64 values per row of `word_rows`, 0 if the rows are bytes.
    words: usize,
    /// With AVX-512 and values below 512, the rows as bits: bit `x % 64` of
    /// `word_rows[g][(r - lo) * words + x / 64]` (see [`word_rows_avx512`]).
    word_rows: Vec<Vec<u64>>,
    /// The rows group `g` reads.
    alias: Vec<usize>,
    /// With the rows as bits, the values of the first splits of each `r`
    /// (rare or not; `search::first_found`), laid out as the rows.
    first_found: Vec<u64>,
}

impl RareMarks {
    /// The marks for `r` in `lo..hi`, from the values below `values.len()`.
    pub(crate) fn new(
        sparse: &Sparse,
        moves: &Moves,
        values: &[u16],
        lo: usize,
        hi: usize,
    ) -> RareMarks {
        let width = (1usize << sparse.bits) + 1;
        #[cfg(target_arch = "x86_64")]
        let words = if sparse.bits <= 9 && super::search::use_avx512() {
            1 << sparse.bits.saturating_sub(6)
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let words = 0;
        let mut alias = Vec::new();
        let (mut rows, mut word_rows) = (Vec::new(), Vec::new());
        for (g, split) in sparse.groups.iter().enumerate() {
            if g > 0 && (split.mask, split.flip) == (sparse.groups[0].mask, sparse.groups[0].flip) {
                alias.push(alias[0]);
                continue;
            }
            if words > 0 {
                alias.push(word_rows.len());
                let mut table = vec![0u64; (hi - lo) * words];
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the CPU has AVX-512 F and BW (`use_avx512` above).
                unsafe {
                    match words {
                        1 => word_rows_avx512::<1>(split, moves, values, lo, &mut table),
                        2 => word_rows_avx512::<2>(split, moves, values, lo, &mut table),
                        4 => word_rows_avx512::<4>(split, moves, values, lo, &mut table),
                        _ => word_rows_avx512::<8>(split, moves, values, lo, &mut table),
                    }
                }
                word_rows.push(table);
            } else {
                alias.push(rows.len());
                let mut table = vec![0u8; (hi - lo) * width];
                mark_rows(split, moves, values, lo, width, &mut table);
                rows.push(table);
            }
        }
        // With AVX-512 (`words > 0`: checked by `use_avx512` above).
        #[cfg(target_arch = "x86_64")]
        let first_found = {
            let mut rows = vec![0u64; (hi - lo) * words];
            for (r, row) in (lo..hi).zip(rows.chunks_exact_mut(words.max(1))) {
                // SAFETY: the CPU has AVX-512 F and BW (see above).
                unsafe {
                    match words {
                        1 => row.copy_from_slice(&first_found_words::<1>(moves, values, r)),
                        2 => row.copy_from_slice(&first_found_words::<2>(moves, values, r)),
                        4 => row.copy_from_slice(&first_found_words::<4>(moves, values, r)),
                        _ => row.copy_from_slice(&first_found_words::<8>(moves, values, r)),
                    }
                }
            }
            rows
        };
        #[cfg(not(target_arch = "x86_64"))]
        let first_found = Vec::new();
        RareMarks {
            first_found,
            lo,
            hi,
            width,
            known: values.len(),
            splits: sparse.groups.iter().map(|g| (g.mask, g.flip)).collect(),
            rows,
            words,
            word_rows,
            alias,
        }
    }

    /// The row of group `g` (now `split`) for `r`, if computed and if the
    /// group's split is still the one it was computed with, and from which
    /// heaps it was computed.
    fn row(&self, g: usize, split: &Split, r: usize) -> Option<(Row<'_>, usize)> {
        if r < self.lo || r >= self.hi || self.splits.get(g) != Some(&(split.mask, split.flip)) {
            return None;
        }
        let row = if self.words > 0 {
            let k = (r - self.lo) * self.words;
            Row::Words(&self.word_rows[self.alias[g]][k..k + self.words])
        } else {
            let k = (r - self.lo) * self.width;
            Row::Bytes(&self.rows[self.alias[g]][k..k + self.width])
        };
        Some((row, self.known))
    }

    /// The values of the first [`FIRST_FOUND`] splits of `r` (see
    /// [`first_found_words`]), if computed, and computed from the heaps
    /// below `n`.
    fn first_found(&self, r: usize, n: usize) -> Option<&[u64]> {
        if self.words == 0 || r < self.lo || r >= self.hi || self.known != n {
            return None;
        }
        let k = (r - self.lo) * self.words;
        Some(&self.first_found[k..k + self.words])
    }
}

/// A row of [`RareMarks`]: one byte per value, or one bit.
enum Row<'a> {
    Bytes(&'a [u8]),
    Words(&'a [u64]),
}

/// The rows of [`RareMarks`] as bits (`W` words of 64 values per row,
/// values below `64 W`; `table` holds whole rows, zeroed), for `r` from
/// `lo` on: what [`mark_rare`] marks for each `r`. Eight rows at a time,
/// one per 64-bit lane: for each rare part `a`, the other parts `r - a`
/// of the eight rows are consecutive heaps, read by one load, and each
/// value turns into its bit by shifts of the lanes (a shift by 64 or more
/// gives 0, so each value lands in its own word only). A rare part that
/// does not split all eight rows (`a` too close to `r`, `r - a` not known
/// yet, `2 a = r` in Grundy's game) is marked row by row. `.376`: a third
/// of the instructions of the byte rows.
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn word_rows_avx512<const W: usize>(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    table: &mut [u64],
) {
    use std::arch::x86_64::*;
    let n = values.len();
    let hi = lo + table.len() / W;
    let valid = |a: usize, r: usize| a < r && r - a < n && !(moves.unequal && 2 * a == r);
    let mark = |table: &mut [u64], r: usize, x: u16| {
        table[(r - lo) * W + usize::from(x >> 6)] |= 1 << (x & 63);
    };
    if hi - lo < 8 {
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            for r in (lo..hi).filter(|&r| valid(a as usize, r)) {
                mark(table, r, ga ^ values[r - a as usize]);
            }
        }
        return;
    }
    // Blocks of eight rows, the last one ending at `hi` (its rows before
    // that marked twice, which changes nothing).
    let blocks = (lo..hi - 7)
        .step_by(8)
        .chain((!(hi - lo).is_multiple_of(8)).then_some(hi - 8));
    let one = _mm512_set1_epi64(1);
    for first in blocks {
        let mut found = [_mm512_setzero_si512(); W];
        for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
            let a = a as usize;
            // No row of the block has `a < r` any more.
            if a >= first + 7 {
                break;
            }
            if a < first
                && first + 7 - a < n
                && !(moves.unequal && (first..first + 8).contains(&(2 * a)))
            {
                let parts: &[u16; 8] = values[first - a..first - a + 8]
                    .try_into()
                    .expect("8 values");
                // SAFETY: `parts` holds 8 words (16 bytes).
                let parts = unsafe { _mm_loadu_si128(parts.as_ptr().cast()) };
                let x = _mm512_xor_si512(
                    _mm512_cvtepu16_epi64(parts),
                    _mm512_set1_epi64(i64::from(ga)),
                );
                // The bit of `x % 64` (a rotation: no range to test), in
                // the word of `x / 64` only.
                let (bit, word_of) = (_mm512_rolv_epi64(one, x), _mm512_srli_epi64::<6>(x));
                for (w, word) in found.iter_mut().enumerate() {
                    let mine = _mm512_cmpeq_epi64_mask(word_of, _mm512_set1_epi64(w as i64));
                    *word = _mm512_mask_or_epi64(*word, mine, *word, bit);
                }
            } else {
                for r in (first..first + 8).filter(|&r| valid(a, r)) {
                    mark(table, r, ga ^ values[r - a]);
                }
            }
        }
        for (w, word) in found.iter().enumerate() {
            let mut lanes = [0u64; 8];
            // SAFETY: `lanes` holds 64 bytes.
            unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), *word) };
            for (j, &bits) in lanes.iter().enumerate() {
                table[(first + j - lo) * W + w] |= bits;
            }
        }
    }
}

/// The rows of [`RareMarks`] for `r` from `lo` on (`table` holds whole
/// rows of `width` bytes, zeroed): what [`mark_rare`] marks for each `r`,
/// but a rare part at a time, for every `r` at once: the other parts
/// `r - a` are consecutive heaps, read in order, and no row is copied.
fn mark_rows(
    split: &Split,
    moves: &Moves,
    values: &[u16],
    lo: usize,
    width: usize,
    table: &mut [u8],
) {
    let n = values.len();
    let hi = lo + table.len() / width;
    for (&a, &ga) in split.rare.iter().zip(&split.rare_values) {
        let a = a as usize;
        if a + 1 >= hi {
            break;
        }
        // `a < r` and `r - a < n`.
        let (from, to) = (lo.max(a + 1), hi.min(n + a));
        if from >= to {
            continue;
        }
        let mut mark = |from: usize, to: usize| {
            let mut row = (from - lo) * width;
            for &g in &values[from - a..to - a] {
                table[row + usize::from(ga ^ g)] = 1;
                row += width;
            }
        };
        if moves.unequal && (from..to).contains(&(2 * a)) {
            mark(from, 2 * a);
            mark(2 * a + 1, to);
        } else {
            mark(from, to);
        }
    }
}

/// How [`settle`] found a heap's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// The first candidate.
    First,
    /// A later candidate (the first was reached by an option into the
    /// batch).
    Later,
    /// Every candidate was reached: the heap was computed anew.
    Recomputed,
}

/// `G(h)` for `h = values.len()`, given the candidates of
/// `first_unreached(...)` computed with the values below `n`: adds the
/// options leaving a heap `>= n` and recomputes the heap in full if they
/// reach every candidate.
pub(crate) fn settle(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    n: usize,
    candidates: &Candidates,
    marks: Option<&RareMarks>,
    scratch: &mut Scratch,
) -> (usize, Settled) {
    let h = values.len();
    if h == n {
        return (candidates.first(), Settled::First);
    }
    let mut reached = 0u32;
    for &i in &moves.single {
        if let Some(r) = h.checked_sub(i as usize).filter(|&r| r >= n) {
            reached |= candidates.hits(values[r]);
        }
    }
    for &i in &moves.pair {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        // Splits {a, r - a} with r - a >= n: 1 <= a <= r - n.
        let m = r.saturating_sub(n).min(r.saturating_sub(1));
        if moves.unequal {
            for a in (1..=m).filter(|&a| 2 * a != r) {
                reached |= candidates.hits(values[a] ^ values[r - a]);
            }
        } else if m > 0 {
            #[cfg(target_arch = "x86_64")]
            if m + 32 <= values.len() && r >= m + 32 && super::search::use_avx512() {
                // SAFETY: the CPU has AVX-512 F and BW (`use_avx512`), and
                // `values` holds the blocks read (checked just above).
                reached |= unsafe { splits_reach_avx512(values, r, m, candidates) };
                continue;
            }
            // A branch-free loop per candidate (it vectorises on 16-bit
            // lanes): a batch has many such splits.
            let (small, large) = (&values[1..=m], &values[r - m..r]);
            for (k, &c) in candidates.values[..candidates.len].iter().enumerate() {
                // A candidate of 2^16 is above every value.
                if let Ok(c) = u16::try_from(c)
                    && small
                        .iter()
                        .zip(large.iter().rev())
                        .fold(false, |acc, (&x, &y)| acc | (x ^ y == c))
                {
                    reached |= 1 << k;
                }
            }
        }
    }
    for &i in &moves.triple {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        let small = r.saturating_sub(n);
        for a in 1..=small {
            for b in a..=small - a {
                let c = r - a - b;
                if b <= c {
                    reached |= candidates.hits(values[a] ^ values[b] ^ values[c]);
                }
            }
        }
    }
    match candidates.first_not(reached) {
        Some(g) if g == candidates.first() => (g, Settled::First),
        Some(g) => (g, Settled::Later),
        None => (
            first_unreached(sparse, moves, values, h, 1, marks, scratch).first(),
            Settled::Recomputed,
        ),
    }
}

/// Bit `k` set when a split `{a, r - a}` with `1 <= a <= m` has candidate
/// `k`'s value: 32 splits at a time, each block XORed and compared with
/// every candidate at once (the portable loop, vectorised by LLVM on
/// SSE2, goes through the splits once per candidate, 8 at a time). The
/// options into the heaps settled since a chunk's state grow with the
/// crew's lookahead: on `.354` with 2 threads, chunks are settled about
/// 100 heaps beyond their state: settling 128 heaps beyond the state took
/// 0.66x the time (`.354` 0.96x overall).
///
/// # Safety
/// The CPU must have AVX-512 F and BW, and `m >= 1`, `m + 32 <=
/// values.len()` and `r >= m + 32` (the blocks read are inside `values`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn splits_reach_avx512(values: &[u16], r: usize, m: usize, candidates: &Candidates) -> u32 {
    // A candidate of 2^16, above every value, can only be the last one;
    // no split reaches it.
    let list = &candidates.values[..candidates.len];
    let k = list.iter().take_while(|&&c| c < 1 << 16).count();
    let c = |k: usize| list.get(k).map_or(0, |&c| c as u16);
    // SAFETY: the caller's promises, passed on.
    unsafe {
        match k {
            0 => 0,
            1 => splits_reach_each(values, r, m, [c(0)]),
            2 => splits_reach_each(values, r, m, [c(0), c(1)]),
            3 => splits_reach_each(values, r, m, [c(0), c(1), c(2)]),
            _ => splits_reach_each(values, r, m, [c(0), c(1), c(2), c(3)]),
        }
    }
}

/// [`splits_reach_avx512`] for `K` candidates below 2^16.
///
/// # Safety
/// As for [`splits_reach_avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn splits_reach_each<const K: usize>(
    values: &[u16],
    r: usize,
    m: usize,
    candidates: [u16; K],
) -> u32 {
    use std::arch::x86_64::*;
    debug_assert!(m >= 1 && m + 32 <= values.len() && r >= m + 32);
    // SAFETY: `REVERSE` holds 32 words.
    let reverse = unsafe { _mm512_loadu_si512(super::search::REVERSE.as_ptr().cast()) };
    let sought = candidates.map(|c| _mm512_set1_epi16(c as i16));
    let base = values.as_ptr();
    // Lane `t` of the block at `j`: the split `a = 1 + j + t`, whose other
    // part `r - 1 - j - t` is lane `31 - t` of the block from `r - 32 - j`.
    let block = |j: usize| {
        // SAFETY: `1 + j + 32 <= m + 32 <= values.len()` and `r - 32 - j
        // >= r - 32 - m >= 0` (the caller's promise, as `j < m`): both
        // blocks of 32 are inside `values`.
        unsafe {
            let small = _mm512_loadu_si512(base.add(1 + j).cast());
            let large = _mm512_loadu_si512(base.add(r - 32 - j).cast());
            _mm512_xor_si512(small, _mm512_permutexvar_epi16(reverse, large))
        }
    };
    let mut hits = [0u32; K];
    let whole = m / 32 * 32;
    for j in (0..whole).step_by(32) {
        let x = block(j);
        for (hit, &c) in hits.iter_mut().zip(&sought) {
            *hit |= _mm512_cmpeq_epi16_mask(x, c);
        }
    }
    if whole < m {
        let (x, lanes) = (block(whole), (1u32 << (m - whole)) - 1);
        for (hit, &c) in hits.iter_mut().zip(&sought) {
            *hit |= _mm512_mask_cmpeq_epi16_mask(lanes, x, c);
        }
    }
    hits.iter()
        .enumerate()
        .fold(0, |bits, (k, &hit)| bits | u32::from(hit != 0) << k)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::ops::ControlFlow;

    use super::*;
    use crate::octal::{Rules, grundy_by_definition};
    use crate::testing::SplitMix64;

    /// The values of the options of heap `h` whose heaps are all below `n`.
    fn reached_below(moves: &Moves, values: &[u16], h: usize, n: usize) -> HashSet<u32> {
        let mut reached = HashSet::new();
        let _ = moves.for_each_option(h as u64, u64::MAX, |_, parts| {
            if parts.iter().all(|&p| (p as usize) < n) {
                reached.insert(u32::from(
                    parts.iter().fold(0, |x, &p| x ^ values[p as usize]),
                ));
            }
            ControlFlow::Continue(())
        });
        reached
    }

    /// The rows of bits (AVX-512) hold the same marks as the rows of
    /// bytes, on random values (not game values: the marks are defined for
    /// any), every split group, rows of 1 to 40 split sizes below and
    /// beyond the values known, Grundy's game included.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn word_rows_equal_byte_rows() {
        if !crate::octal::search::use_avx512() {
            return;
        }
        let mut rng = SplitMix64::new(8);
        let codes = ["0.354", "0.376", "0.6", "4.05", "0.4444", "0.137"];
        for case in 0..300 {
            let rules = match case % 7 {
                6 => Rules::grundys_game(),
                k => Rules::parse(codes[k]).unwrap(),
            };
            let moves = Moves::new(&rules);
            let n = 2 + rng.below(700) as usize;
            let bits = 6 + case % 4;
            let values: Vec<u16> = (0..n).map(|_| rng.below(1 << bits) as u16).collect();
            let mut sparse = Sparse::rebuild(&moves, &values);
            sparse.bits = sparse.bits.max(bits as u32);
            let width = (1usize << sparse.bits) + 1;
            let lo = rng.below(n as u64 + 20) as usize;
            let hi = lo + 1 + rng.below(40) as usize;
            for split in &sparse.groups {
                let mut bytes = vec![0u8; (hi - lo) * width];
                mark_rows(split, &moves, &values, lo, width, &mut bytes);
                let words = 1usize << (sparse.bits - 6);
                let mut table = vec![0u64; (hi - lo) * words];
                // SAFETY: `use_avx512` said the CPU has AVX-512 F and BW.
                unsafe {
                    match words {
                        1 => word_rows_avx512::<1>(split, &moves, &values, lo, &mut table),
                        2 => word_rows_avx512::<2>(split, &moves, &values, lo, &mut table),
                        4 => word_rows_avx512::<4>(split, &moves, &values, lo, &mut table),
                        _ => word_rows_avx512::<8>(split, &moves, &values, lo, &mut table),
                    }
                }
                for row in 0..hi - lo {
                    for x in 0..width - 1 {
                        let bit = table[row * words + x / 64] >> (x % 64) & 1;
                        assert_eq!(
                            bit,
                            u64::from(bytes[row * width + x]),
                            "{rules} case {case}: r {}, value {x}",
                            lo + row
                        );
                    }
                }
            }
        }
    }

    /// The AVX-512 check of the splits that settle adds, against trying
    /// each split: random values, 1 to 200 splits (whole blocks of 32 and
    /// a partial one), 1 to 4 candidates, often values that some split
    /// has, sometimes 2^16 (above every value).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn settle_splits_reach_their_candidates() {
        if !crate::octal::search::use_avx512() {
            return;
        }
        let mut rng = SplitMix64::new(32);
        let mut reached = 0;
        for case in 0..2000 {
            let bits = 2 + case % 9;
            let m = 1 + rng.below(200) as usize;
            let r = m + 32 + rng.below(300) as usize;
            let len = r + 1 + rng.below(40) as usize;
            let values: Vec<u16> = (0..len).map(|_| rng.below(1 << bits) as u16).collect();
            let split = |a: usize| u32::from(values[a] ^ values[r - a]);
            let mut list: Vec<u32> = (0..1 + rng.below(4))
                .map(|_| match rng.below(3) {
                    0 => split(1 + rng.below(m as u64) as usize),
                    1 => rng.below(1 << bits) as u32,
                    _ => 1 << 16,
                })
                .collect();
            list.sort_unstable();
            list.dedup();
            let mut c = Candidates {
                values: [u32::MAX; MAX_CANDIDATES],
                len: list.len(),
            };
            c.values[..list.len()].copy_from_slice(&list);
            let want = (0..c.len).fold(0, |bits, k| {
                bits | u32::from((1..=m).any(|a| split(a) == c.values[k])) << k
            });
            // SAFETY: `use_avx512` said the CPU has AVX-512 F and BW, and
            // `m + 32 <= r < values.len()`.
            let got = unsafe { splits_reach_avx512(&values, r, m, &c) };
            assert_eq!(got, want, "case {case}: m {m}, r {r}, {c:?}");
            reached += got.count_ones();
        }
        assert!(reached > 1000, "{reached}");
    }

    /// The word helpers of step 2 against their definitions.
    #[test]
    fn marked_and_parity_bits_match_their_definitions() {
        let mut rng = SplitMix64::new(64);
        for _ in 0..2000 {
            let bytes: [u8; 64] = std::array::from_fn(|_| (rng.below(2)) as u8);
            let want = (0..64).fold(0u64, |m, j| m | u64::from(bytes[j] != 0) << j);
            assert_eq!(marked_bits(&bytes), want, "{bytes:?}");
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

    /// `first_unreached` keeps its contract for every number of candidates:
    /// each candidate is reached by no option with heaps below `n`, they
    /// ascend, and every value below the last that is not one of them is
    /// reached; and `settle` then gives the heap's value.
    #[test]
    fn candidates_keep_their_contract() {
        let mut rng = SplitMix64::new(2);
        let mut longer = 0;
        for case in 0..120 {
            let digits: String = (0..1 + case % 4)
                .map(|_| char::from(b'0' + rng.below(8) as u8))
                .collect();
            let rules =
                Rules::parse(&format!("{}.{digits}", if case % 5 == 4 { 4 } else { 0 })).unwrap();
            let moves = Moves::new(&rules);
            let all = grundy_by_definition(&rules, 700).unwrap();
            let n = 300 + rng.below(300) as usize;
            let sparse = Sparse::rebuild(&moves, &all[..n]);
            let mut scratch = Scratch::default();
            for h in n..n + 40 {
                let now = Sparse::rebuild(&moves, &all[..h]);
                for want in 1..=MAX_CANDIDATES {
                    let c =
                        first_unreached(&sparse, &moves, &all[..n], h, want, None, &mut scratch);
                    let reached = reached_below(&moves, &all, h, n);
                    let list = &c.values[..c.len];
                    assert!((1..=want).contains(&c.len), "{rules} h {h}: {c:?}");
                    longer += usize::from(c.len > 1);
                    assert!(list.windows(2).all(|w| w[0] < w[1]), "{rules} h {h}: {c:?}");
                    for &v in list {
                        assert!(!reached.contains(&v), "{rules} h {h}: {v} is reached");
                    }
                    for v in 0..list[c.len - 1] {
                        assert!(
                            list.contains(&v) || reached.contains(&v),
                            "{rules} h {h}: {v} left out of {c:?}"
                        );
                    }
                    // Settling with the heaps n..h known gives G(h).
                    let (g, _) = settle(&now, &moves, &all[..h], n, &c, None, &mut scratch);
                    assert_eq!(g, usize::from(all[h]), "{rules} h {h} want {want}");
                }
            }
        }
        assert!(
            longer > 1000,
            "too few lists of several candidates: {longer}"
        );
    }
}
