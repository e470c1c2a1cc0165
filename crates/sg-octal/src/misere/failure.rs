//! A refuted candidate: its *least failing sum*, and the two sums of the
//! smaller heaps that it shows to be apart (a *split*).
//!
//! A candidate predicts a sum lost when its element is in `P`. Call a sum
//! a *local failure* when the prediction differs from the one-step
//! lookahead: "it has a move, and no move leads to a sum predicted lost".
//! The least failing sum (least weight, a heap of `h` tokens weighing
//! `2h - 1`, so every move lowers the weight) is a local failure, since its
//! options are lighter, so predicted right; conversely the least local
//! failure is the least failing sum (a lighter failing sum would be a
//! lighter local failure). Every sum no heavier than it is therefore known
//! exactly: lighter ones as predicted, and those of its weight by their
//! lookahead, whose options are lighter. [`least_failure`] finds it by the
//! search of `verify`, keeping for each state the least weight (a state is
//! dropped only when another of the same product has a subset of its
//! escapes and no more weight).
//!
//! The split is found as in Rivest and Schapire's analysis of a
//! counterexample: write the failing sum as `kG + h_1 + ... + h_m` and let
//! `c_j` be the base element of `h_1 + ... + h_j` (`base`); the sums
//! `Z_j = kG + R(c_j) + h_(j+1) + ... + h_m`, with `R` the least
//! representative in the base, are no heavier than the failing sum, so
//! known exactly. `Z_0` is the failing sum, whose outcome differs from the
//! prediction; `Z_m` is `kG + R(c_m)`, whose outcome is the prediction.
//! So at some `j` the outcome changes: `U = R(c_j) + h_(j+1)` and
//! `V = R(c_(j+1))` are one element of the base, yet `kG + Y` (`Y` the
//! heaps after `h_(j+1)`) tells them apart. The next base must separate
//! them.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::rc::Rc;

use super::base::Base;
use super::bits::Bits;
use super::monoid::{Element, IDENTITY, Monoid};
use super::reps::{LeastReps, Letter};
use super::verify::HeapType;
use crate::Moves;

/// The most states the search keeps.
const MAX_STATES: usize = 1 << 18;

/// A sum of heap types with multiplicities, and its weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// `(type, multiplicity)`.
    pub(crate) parts: Vec<(usize, usize)>,
    /// Its weight.
    pub(crate) weight: u64,
}

type Sum = Option<Rc<Placed>>;

/// The search's states: for each (product, some heap placed), the escapes,
/// weight and sum of each state kept.
type States = BTreeMap<(Element, bool), Vec<(Bits, u64, Sum)>>;

#[derive(Debug)]
struct Placed {
    ty: usize,
    m: usize,
    up: Sum,
}

fn parts_of(sum: &Sum) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = sum.as_deref();
    while let Some(p) = at {
        out.push((p.ty, p.m));
        at = p.up.as_deref();
    }
    out.reverse();
    out
}

/// The least-weight sum whose prediction differs from its one-step
/// lookahead (`weights[t]` a heap of type `t`'s weight), or `None` if the
/// search needs more than its states (or finds none).
pub(crate) fn least_failure(
    monoid: &Monoid,
    partners: &[Bits],
    types: &[HeapType],
    weights: &[u64],
) -> Option<Failure> {
    let order = monoid.order();
    let mut best: Option<Failure> = None;
    // A predicted loss with a move to a predicted loss: z x_t in P and z
    // in H_t, z by its least representative.
    let with_options: Vec<usize> = (0..types.len())
        .filter(|&t| !types[t].options.is_empty())
        .collect();
    let letters: Vec<Letter<'_>> = with_options
        .iter()
        .map(|&t| Letter {
            element: types[t].element,
            weight: weights[t],
            options: &[],
        })
        .collect();
    let reps = LeastReps::new(monoid, &letters);
    for &t in &with_options {
        let ty = &types[t];
        let mut bad = partners[usize::from(ty.element)].clone();
        bad.intersect_with(&ty.escapes);
        for z in bad.iter() {
            let word = reps.letters_of(z as Element);
            let w = word
                .iter()
                .map(|&l| letters[l as usize].weight)
                .sum::<u64>()
                + weights[t];
            if best.as_ref().is_none_or(|b| w < b.weight) {
                let mut parts: BTreeMap<usize, usize> = BTreeMap::new();
                for l in word {
                    *parts.entry(with_options[l as usize]).or_default() += 1;
                }
                *parts.entry(t).or_default() += 1;
                best = Some(Failure {
                    parts: parts.into_iter().collect(),
                    weight: w,
                });
            }
        }
    }
    // A predicted win with no move to a predicted loss: the search over
    // multiplicities, states (product, placed) with their escapes D.
    let mut states: States = BTreeMap::new();
    states.insert((IDENTITY, false), vec![(Bits::new(order), 0, None)]);
    let mut count = 0usize;
    for &t in &with_options {
        let ty = &types[t];
        let (index, period) = monoid.cycle(ty.element);
        let most = index + period;
        let mut next: States = BTreeMap::new();
        for (&(p, placed), list) in &states {
            for (d, w, sum) in list {
                let mut before = p;
                let mut power = IDENTITY;
                for m in 0..=most {
                    if m >= 1 {
                        if m >= 2 {
                            before = monoid.mul(before, ty.element);
                        }
                        power = monoid.mul(power, ty.element);
                    }
                    let nw = w + m as u64 * weights[t];
                    if best.as_ref().is_some_and(|b| nw >= b.weight) {
                        break;
                    }
                    let mut nd = monoid.preimage(d, power);
                    if m >= 1 {
                        nd.union_with(&monoid.preimage(&ty.escapes, before));
                    }
                    if nd.is_full(order) {
                        continue;
                    }
                    let np = monoid.mul(p, power);
                    let sum = if m == 0 {
                        sum.clone()
                    } else {
                        Some(Rc::new(Placed {
                            ty: t,
                            m,
                            up: sum.clone(),
                        }))
                    };
                    let list = next.entry((np, placed || m >= 1)).or_default();
                    if list.iter().any(|(e, ew, _)| e.is_subset(&nd) && *ew <= nw) {
                        continue;
                    }
                    list.retain(|(e, ew, _)| !(nd.is_subset(e) && nw <= *ew));
                    list.push((nd, nw, sum));
                    count += 1;
                    if count > MAX_STATES {
                        return None;
                    }
                }
            }
        }
        states = next;
    }
    for (&(p, placed), list) in &states {
        if !placed || monoid.is_p(p) {
            continue;
        }
        for (d, w, sum) in list {
            if !d.contains(usize::from(IDENTITY)) && best.as_ref().is_none_or(|b| *w < b.weight) {
                best = Some(Failure {
                    parts: parts_of(sum),
                    weight: *w,
                });
            }
        }
    }
    best
}

/// The one-step lookahead of a concrete sum: lost iff it has a move and
/// no move leads to a sum `image` predicts lost.
pub(crate) fn lookahead(
    monoid: &Monoid,
    image: &dyn Fn(u64) -> Element,
    moves: &Moves,
    heaps: &[u64],
) -> bool {
    let mut any = false;
    for i in 0..heaps.len() {
        if heaps[..i].contains(&heaps[i]) {
            continue;
        }
        let rest = heaps
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(IDENTITY, |acc, (_, &h)| monoid.mul(acc, image(h)));
        let found = moves.for_each_option(heaps[i], u64::MAX, |_, parts| {
            any = true;
            let x = parts.iter().fold(rest, |acc, &h| monoid.mul(acc, image(h)));
            if monoid.is_p(x) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if found.is_break() {
            return false;
        }
    }
    any
}

/// Two sums of the smaller heaps, one element of the base, told apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split {
    /// `R(c_j) + h_(j+1)`, sorted.
    pub(crate) u: Vec<u64>,
    /// `R(c_(j+1))`, sorted.
    pub(crate) v: Vec<u64>,
}

/// The split shown by the least failing sum `heaps` (with `k` copies of
/// the new heap `n`) of a candidate whose heaps have the elements `image`
/// (heaps `0..=n`), on `base` (the heaps below `n`).
pub(crate) fn split(
    monoid: &Monoid,
    image: &[Element],
    moves: &Moves,
    n: u64,
    base: &Base,
    heaps: &[u64],
) -> Option<Split> {
    let k = heaps.iter().filter(|&&h| h == n).count();
    let mut w: Vec<u64> = heaps.iter().copied().filter(|&h| h != n).collect();
    w.sort_unstable_by(|a, b| b.cmp(a));
    let of = |h: u64| image[h as usize];
    let outcome = |z: &[u64]| {
        let mut s = z.to_vec();
        s.extend(std::iter::repeat_n(n, k));
        lookahead(monoid, &of, moves, &s)
    };
    let reps = base.reps();
    let mut c = 0u32;
    let mut previous: Option<(bool, Vec<u64>)> = None;
    for j in 0..=w.len() {
        let rep = reps.heaps_of(base, c);
        let mut z = rep.clone();
        z.extend(&w[j..]);
        let now = outcome(&z);
        if let Some((before, mut u)) = previous
            && before != now
        {
            u.push(w[j - 1]);
            u.sort_unstable();
            let mut v = rep;
            v.sort_unstable();
            return Some(Split { u, v });
        }
        previous = Some((now, reps.heaps_of(base, c)));
        if j < w.len() {
            c = base.mul(c, base.heap_element(w[j]));
        }
    }
    None
}
