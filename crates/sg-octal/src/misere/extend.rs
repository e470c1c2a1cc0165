//! A new generator: the quotient of the heaps up to `n` when heap `n`
//! behaves like no element of the quotient `Q` of the smaller heaps.
//!
//! Write `G` for heap `n` and `A` for the sums of the smaller heaps, and
//! let `B` be a *base* (`base`): a monoid of the sums of `A` that tells
//! apart at least what `Q` does. The new quotient is built on the
//! hypothesis that the outcome of `kG + W` (`W` in `A`) depends only on `k`
//! and the element `w` of `W` in `B`; call it `F_k(w)` (true when the
//! player to move loses). Then:
//!
//! - `F_0(w)` is whether `w`'s value in `Q` is in `P`;
//! - `F_k(w)`, for `k >= 1`, holds iff no option is lost for the player to
//!   move: no option `G'` of `G` (element `s`) has `F_{k-1}(s w)`, and no
//!   option `W'` of `W` has `F_k(element of W')`.
//!
//! The options of `W` are read on the least representative `R(w)` (see
//! `reps`), whose options lie in elements of smaller least weight: taken
//! by increasing weight, every row `F_k` is computed in one pass, and each
//! row is a function of the row before, so the rows repeat from the first
//! `k = i` with `F_(i+p) = F_i` on: `g^(i+p) = g^i` for the new generator
//! `g`. (Distinct rows are distinct powers of `g`, told apart by the
//! multiplier `w` on which they differ, so more distinct rows than the
//! order limit stop the construction.)
//!
//! The monoid `B x {1, g, ..., g^(i+p-1)}` with the P-portion `{(w, k) :
//! F_k(w)}` is then reduced by indistinguishability (`reduce`); `G`'s
//! image is the class of `(1, 1)`, which is an old element when `G` turns
//! out to behave like one after all.
//!
//! The hypothesis holds when `B` tells apart every two sums that `G` does;
//! it can fail otherwise (a class of `Q` *splits*: in 0.3122, heap 4 tells
//! `*2` from `*2 + *2 + *2`, equal for the heaps up to 3). The result is
//! therefore a candidate, proven or refuted by the verification
//! (`verify`) before it is used; on a refutation the construction runs
//! again on a finer base (`adjoin`).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::base::Base;
use super::bits::Bits;
use super::monoid::{Element, Monoid};
use super::reduce::indistinguishable;
use crate::Moves;

/// The candidate quotient with heap `n` adjoined.
#[derive(Debug, Clone)]
pub(crate) struct Extension {
    /// The reduced monoid.
    pub(crate) monoid: Monoid,
    /// The element of each base element.
    pub(crate) map: Vec<Element>,
    /// Heap `n`'s image: a new element (a new generator), or an old one.
    pub(crate) image: Element,
    /// The rows `F_0, F_1, ...` over the base's elements (the refinement
    /// by escapes, `refine`, reads them).
    pub(crate) rows: Vec<Bits>,
}

/// Why no extension was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoExtension {
    /// The candidate would have more elements (or more distinct powers of
    /// the new generator) than allowed: at least `needed`.
    Order {
        /// A lower bound on the elements it needs.
        needed: usize,
    },
    /// The caller stopped it.
    Stopped,
}

/// The elements of each option of heap `h`, in the base, sorted, without
/// repeats.
pub(crate) fn option_elements(base: &Base, moves: &Moves, h: u64) -> Vec<u32> {
    let mut out = Vec::new();
    let _ = moves.for_each_option(h, u64::MAX, |_, parts| {
        out.push(base.of_heaps(parts));
        ControlFlow::Continue(())
    });
    out.sort_unstable();
    out.dedup();
    out
}

/// Adjoins heap `n` (its options' elements `options`, not empty) to
/// `base`, within `max_order` elements; `stop` is asked now and then.
pub(crate) fn adjoin(
    base: &Base,
    moves: &Moves,
    options: &[u32],
    max_order: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Extension, NoExtension> {
    let len = base.len();
    let reps = base.reps();
    // The options of each letter's heap, and of each least representative.
    let letter_options: Vec<Vec<u32>> = base
        .letters
        .iter()
        .map(|l| option_elements(base, moves, l.heap))
        .collect();
    let mut rep_options: Vec<Vec<u32>> = vec![Vec::new(); len];
    let mut word: Vec<u32> = Vec::new();
    for (i, &x) in reps.by_weight.iter().enumerate() {
        if i % 4096 == 0 && stop() {
            return Err(NoExtension::Stopped);
        }
        word.clear();
        word.extend(reps.letters_of(x));
        word.sort_unstable();
        let mut out = Vec::new();
        for j in 0..word.len() {
            if j > 0 && word[j - 1] == word[j] {
                continue;
            }
            let rest = word
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != j)
                .fold(0u32, |acc, (_, &l)| base.step(acc, l as usize));
            for &o in &letter_options[word[j] as usize] {
                out.push(base.mul(rest, o));
            }
        }
        out.sort_unstable();
        out.dedup();
        rep_options[x as usize] = out;
    }
    // The products by the options of G.
    let by_option: Vec<Vec<u32>> = options
        .iter()
        .map(|&s| (0..len as u32).map(|x| base.mul(x, s)).collect())
        .collect();
    // The rows F_0, F_1, ... until one repeats.
    let mut first = Bits::new(len);
    for e in 0..len {
        if base.is_lost(e as u32) {
            first.insert(e);
        }
    }
    let mut rows: Vec<Bits> = vec![first];
    let mut seen: HashMap<Bits, usize> = HashMap::new();
    seen.insert(rows[0].clone(), 0);
    let (start, end) = loop {
        if stop() {
            return Err(NoExtension::Stopped);
        }
        let before = rows.last().expect("F_0");
        let mut row = Bits::new(len);
        for &x in &reps.by_weight {
            let lost = by_option
                .iter()
                .all(|m| !before.contains(m[x as usize] as usize))
                && rep_options[x as usize]
                    .iter()
                    .all(|&y| !row.contains(y as usize));
            if lost {
                row.insert(x as usize);
            }
        }
        if let Some(&i) = seen.get(&row) {
            break (i, rows.len());
        }
        if rows.len() >= max_order {
            return Err(NoExtension::Order {
                needed: rows.len() + 1,
            });
        }
        seen.insert(row.clone(), rows.len());
        rows.push(row);
    };
    drop(seen);
    drop(by_option);
    drop(rep_options);
    // g^k for any k: the exponents wrap into start..end.
    let wrap = |k: usize| {
        if k < end {
            k
        } else {
            start + (k - start) % (end - start)
        }
    };
    // Element (w, k) is k * len + w.
    let total = len * end;
    let letters = base.letters.len();
    let step_fns: Vec<Box<dyn Fn(usize) -> usize + '_>> = (0..=letters)
        .map(|l| {
            Box::new(move |e: usize| {
                let (w, k) = (e % len, e / len);
                if l == letters {
                    wrap(k + 1) * len + w
                } else {
                    k * len + base.step(w as u32, l) as usize
                }
            }) as Box<dyn Fn(usize) -> usize>
        })
        .collect();
    let steps: Vec<&dyn Fn(usize) -> usize> = step_fns.iter().map(|f| f.as_ref()).collect();
    if stop() {
        return Err(NoExtension::Stopped);
    }
    let (class, count) = indistinguishable(total, |e| rows[e / len].contains(e % len), &steps);
    if count > max_order {
        return Err(NoExtension::Order { needed: count });
    }
    // A representative of each class (classes are numbered in order of
    // their first element, so the identity is class 0).
    let mut rep = vec![usize::MAX; count];
    for (e, &c) in class.iter().enumerate() {
        if rep[c as usize] == usize::MAX {
            rep[c as usize] = e;
        }
    }
    let mut table = Vec::with_capacity(count * count);
    for &a in &rep {
        for &b in &rep {
            let (wa, ka) = (a % len, a / len);
            let (wb, kb) = (b % len, b / len);
            let w = base.mul(wa as u32, wb as u32) as usize;
            table.push(class[wrap(ka + kb) * len + w] as Element);
        }
    }
    let mut p = Bits::new(count);
    for (i, &e) in rep.iter().enumerate() {
        if rows[e / len].contains(e % len) {
            p.insert(i);
        }
    }
    let map = (0..len).map(|w| class[w] as Element).collect();
    let image = class[wrap(1) * len] as Element;
    Ok(Extension {
        monoid: Monoid::from_table(count, table, p),
        map,
        image,
        rows,
    })
}
