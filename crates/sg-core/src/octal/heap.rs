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
use super::search::{SearchScratch, first_missing};
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

/// Scratch space of one thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// `reach[v] != 0`: some option has value `v` (bytes, not bits: the
    /// marking loops then store without reading back).
    reach: Vec<u8>,
    /// The values below `v0` that only a search of all splits can settle.
    need: Vec<u16>,
    /// The search's own scratch space.
    search: SearchScratch,
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
    match first_missing(moves, values, h, top, &scratch.need, &mut scratch.search) {
        Some(v) => usize::from(v),
        None => v0,
    }
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
