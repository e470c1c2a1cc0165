//! The value of one heap by the sparse-space method (argument in
//! [`super::sparse`]), in two parts so that many heaps can be computed
//! at once:
//!
//! - [`first_unreached`] looks only at options whose heaps are all below
//!   `n` (the values known when a batch of heaps starts), and returns the
//!   smallest value `v0` that no such option reaches. Every value below
//!   `v0` is reached. Heaps `n, n + 1, ...` of a batch are computed this way
//!   independently, in parallel.
//! - [`settle`] then adds, heap by heap in order, the few options that
//!   leave a heap `>= n` (a single heap `h - i >= n`, or a split whose
//!   larger part is `>= n`, whose smaller part is then at most `h - n`). If
//!   none reaches `v0`, `G(h) = v0`; otherwise the heap is recomputed with
//!   every smaller heap known (rare).

use std::ops::ControlFlow;

use super::moves::Moves;
use super::sparse::{Sparse, Split, parity};

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

/// Scratch space of one thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// `reach[v] != 0`: some option has value `v` (bytes, not bits: the
    /// marking loops then store without reading back).
    reach: Vec<u8>,
    /// Per value: 0, or [`WANTED`] (sought by the first scan), or
    /// [`FOUND`] (sought and met).
    sought: Vec<u8>,
    need: Vec<u16>,
}

/// The smallest value not reached by an option of heap `h` whose heaps are
/// all below `n = values.len()` (`h >= n`).
pub(crate) fn first_unreached(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    h: usize,
    marks: Option<&RareMarks>,
    scratch: &mut Scratch,
) -> usize {
    let n = values.len();
    let top = 1usize << sparse.bits;
    scratch.reach.clear();
    scratch.reach.resize(top + 1, 0);
    let reach = &mut scratch.reach[..];
    for &i in &moves.whole {
        if i as usize == h && h > 0 {
            reach[0] = 1;
        }
    }
    for &i in &moves.single {
        if let Some(r) = h.checked_sub(i as usize).filter(|&r| r >= 1 && r < n) {
            reach[values[r] as usize] = 1;
        }
    }
    let _ = moves.for_each_triple(h as u64, u64::MAX, |_, parts| {
        if (parts[2] as usize) < n {
            reach[(values[parts[0] as usize]
                ^ values[parts[1] as usize]
                ^ values[parts[2] as usize]) as usize] = 1;
        }
        ControlFlow::Continue(())
    });
    // Step 1: every split (within the known heaps) with a rare part.
    for (g, split) in sparse.groups.iter().enumerate() {
        for &i in &split.takes {
            let Some(r) = h.checked_sub(i as usize) else {
                continue;
            };
            match marks.and_then(|m| m.row(g, split, r)) {
                Some((row, known)) => {
                    reach.iter_mut().zip(row).for_each(|(x, &y)| *x |= y);
                    if known < values.len() {
                        mark_rare_beyond(split, moves, values, r, known, reach);
                    }
                }
                None => mark_rare(split, moves, values, r, reach),
            }
        }
    }
    // Step 2: the values below the first unreached value of the exact
    // class of every split, which common-common splits may reach.
    let need = &mut scratch.need;
    need.clear();
    // Per split: the parity under its mask of the values it settles (its
    // exact class), if the same for all its takes; every value if its rare
    // list holds every known heap; none if its takes disagree.
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
    let rules = &rules[..sparse.groups.len()];
    let mut v0 = top;
    for (v, &marked) in reach[..top].iter().enumerate() {
        if marked != 0 {
            continue;
        }
        let settled = rules.iter().all(|&(mask, settles)| match settles {
            Settles::All => true,
            Settles::Parity(e) => parity(v as u16, mask) == e,
            Settles::Nothing => false,
        });
        if settled {
            v0 = v;
            break;
        }
        need.push(v as u16);
    }
    if need.is_empty() {
        return v0;
    }
    let resume = scan(moves, values, h, top, scratch);
    // The values the first scan did not find, smallest first, in groups
    // of TARGETS: each group is sought through every remaining split.
    let mut left = scratch
        .need
        .iter()
        .copied()
        .filter(|&v| scratch.sought[v as usize] != FOUND)
        .peekable();
    while left.peek().is_some() {
        let mut group = [0u16; TARGETS];
        let mut len = 0;
        for (slot, v) in group.iter_mut().zip(left.by_ref()) {
            *slot = v;
            len += 1;
        }
        let mut found = [false; TARGETS];
        seek(moves, values, h, resume, &group[..len], &mut found[..len]);
        if let Some(k) = found[..len].iter().position(|&f| !f) {
            return group[k] as usize;
        }
    }
    v0
}

/// Where a scan stopped: the index of the take in `moves.pair`, and the
/// next smaller part `a` to look at for it.
type Resume = (usize, usize);

/// The range of smaller parts `a` of the splits of `r` whose two parts
/// are known heaps (below `n`).
fn split_range(moves: &Moves, r: usize, n: usize) -> (usize, usize) {
    (
        (r + 1).saturating_sub(n).max(1),
        moves.pair_top(r as u64) as usize,
    )
}

/// A first scan of the splits, marking in `scratch.sought` (as
/// [`FOUND`]) each value of `scratch.need` it meets; stops when all are
/// found or after `SCAN_PER_VALUE` splits per value, and says where.
fn scan(moves: &Moves, values: &[u16], h: usize, top: usize, scratch: &mut Scratch) -> Resume {
    let n = values.len();
    let sought = &mut scratch.sought;
    sought.clear();
    sought.resize(top + 1, 0);
    for &v in &scratch.need {
        sought[v as usize] = WANTED;
    }
    let mut missing = scratch.need.len();
    let mut budget = SCAN_PER_VALUE * missing;
    for (t, &i) in moves.pair.iter().enumerate() {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        let (lo, hi) = split_range(moves, r, n);
        if lo > hi {
            continue;
        }
        let end = hi.min(lo + budget - 1);
        for a in lo..=end {
            let x = (values[a] ^ values[r - a]) as usize;
            if sought[x] == WANTED {
                sought[x] = FOUND;
                missing -= 1;
                if missing == 0 {
                    return (moves.pair.len(), 0);
                }
            }
        }
        budget -= end + 1 - lo;
        if budget == 0 {
            return (t, end + 1);
        }
    }
    (moves.pair.len(), 0)
}

/// Looks for the values `targets` (at most [`TARGETS`]) among the splits
/// from `resume` on, setting `found[k]` for each one met; stops when all
/// are found.
fn seek(
    moves: &Moves,
    values: &[u16],
    h: usize,
    resume: Resume,
    targets: &[u16],
    found: &mut [bool],
) {
    let n = values.len();
    // Padded with the first target (a repeat changes nothing).
    let mut padded = [targets[0]; TARGETS];
    padded[..targets.len()].copy_from_slice(targets);
    let mut missing = targets.len();
    for (t, &i) in moves.pair.iter().enumerate().skip(resume.0) {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        let (mut lo, hi) = split_range(moves, r, n);
        if t == resume.0 {
            lo = lo.max(resume.1);
        }
        while lo <= hi {
            let Some(a) = first_hit(Splits { values, r, lo, hi }, &padded) else {
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
                return;
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
    }
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

/// Marks in `reach` the value of every split `{a, r - a}` with a rare part
/// `a` and both parts known (below `values.len()`).
fn mark_rare(split: &Split, moves: &Moves, values: &[u16], r: usize, reach: &mut [u8]) {
    let lo = (r + 1).saturating_sub(values.len()).max(1);
    let start = if lo > 1 {
        split.rare.partition_point(|&a| (a as usize) < lo)
    } else {
        0
    };
    for (&a, &ga) in split.rare[start..].iter().zip(&split.rare_values[start..]) {
        let a = a as usize;
        if a >= r {
            break;
        }
        if moves.unequal && 2 * a == r {
            continue;
        }
        reach[(ga ^ values[r - a]) as usize] = 1;
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
    reach: &mut [u8],
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
    /// The rows group `g` reads.
    alias: Vec<usize>,
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
        let mut alias = Vec::new();
        let mut rows = Vec::new();
        for (g, split) in sparse.groups.iter().enumerate() {
            if g > 0 && (split.mask, split.flip) == (sparse.groups[0].mask, sparse.groups[0].flip) {
                alias.push(alias[0]);
                continue;
            }
            alias.push(rows.len());
            let mut table = vec![0u8; (hi - lo) * width];
            let fill = |(k, row): (usize, &mut [u8])| mark_rare(split, moves, values, lo + k, row);
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                table
                    .par_chunks_mut(width)
                    .with_min_len(8)
                    .enumerate()
                    .for_each(fill);
            }
            #[cfg(not(feature = "parallel"))]
            table.chunks_mut(width).enumerate().for_each(fill);
            rows.push(table);
        }
        RareMarks {
            lo,
            hi,
            width,
            known: values.len(),
            splits: sparse.groups.iter().map(|g| (g.mask, g.flip)).collect(),
            rows,
            alias,
        }
    }

    /// The row of group `g` (now `split`) for `r`, if computed and if the
    /// group's split is still the one it was computed with, and from which
    /// heaps it was computed.
    fn row(&self, g: usize, split: &Split, r: usize) -> Option<(&[u8], usize)> {
        if r < self.lo || r >= self.hi || self.splits.get(g) != Some(&(split.mask, split.flip)) {
            return None;
        }
        let k = (r - self.lo) * self.width;
        Some((&self.rows[self.alias[g]][k..k + self.width], self.known))
    }
}

/// `G(h)` for `h = values.len()`, given `v0 = first_unreached(...)` as
/// computed with the values below `n`: adds the options leaving a heap
/// `>= n` and recomputes the heap in full if one of them reaches `v0`.
pub(crate) fn settle(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    n: usize,
    v0: usize,
    marks: Option<&RareMarks>,
    scratch: &mut Scratch,
) -> usize {
    let h = values.len();
    if h == n {
        return v0;
    }
    let hits = |x: u16| usize::from(x) == v0;
    let mut reached = false;
    for &i in &moves.single {
        if let Some(r) = h.checked_sub(i as usize).filter(|&r| r >= n) {
            reached |= hits(values[r]);
        }
    }
    for &i in &moves.pair {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        // Splits {a, r - a} with r - a >= n: 1 <= a <= r - n.
        let m = r.saturating_sub(n).min(r.saturating_sub(1));
        if moves.unequal {
            reached |= (1..=m).any(|a| 2 * a != r && usize::from(values[a] ^ values[r - a]) == v0);
        } else {
            // A branch-free loop (it vectorises): a batch has many such splits.
            let large = values[r - m..r].iter().rev();
            reached |= values[1..=m]
                .iter()
                .zip(large)
                .fold(false, |acc, (&x, &y)| acc | (usize::from(x ^ y) == v0));
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
                    reached |= hits(values[a] ^ values[b] ^ values[c]);
                }
            }
        }
    }
    if reached {
        first_unreached(sparse, moves, values, h, marks, scratch)
    } else {
        v0
    }
}
