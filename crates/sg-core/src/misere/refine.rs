//! Refining a base: when a new heap splits classes of the quotient of the
//! smaller heaps, the construction of its generator (`extend`) is run
//! again on a finer *base*, a monoid that still predicts every outcome of
//! the smaller heaps but tells more sums apart.
//!
//! A refinement sends a sum `W` of smaller heaps to `(b(W), k(W))`: its
//! class in the base and extra data `k`, computed heap by heap with a
//! product that makes `W -> (b(W), k(W))` a homomorphism; its image (the
//! closure of the heaps' pairs under the product) is the finer base, and
//! it predicts outcomes as the base does (`(b, k)` is in the P-portion iff
//! `b` is). Four refinements are used:
//!
//! - **by counts** ([`Base::refine_by_counts`]): `k(W)` counts the heaps of
//!   chosen sets in `W`, each count in a cyclic monoid `{0, ..., i + p -
//!   1}` (`i + p` wraps to `i`). It separates a heap that *fitted* an
//!   element (heap 3 of 0.35 behaves as `*2 + *2` among the heaps up to 3,
//!   not once heap 4 joins) and lengthens the cycle of a generator's powers
//!   (`*2` and `*2 + *2 + *2` in 0.3122). The sets to count are the heaps
//!   of the types of a sum on which the candidate failed.
//! - **by escapes** ([`Base::refine_by_escapes`]): `k(W) = (E_k(W))_k`,
//!   where `E_k(W)` is the set of multipliers `z` from which `W` has a move
//!   to a position `kG + W' + Z` the last candidate predicts lost. A sum's
//!   options are its heaps' options one at a time, so `E_k(W + V) = b(V)^-1
//!   E_k(W) + b(W)^-1 E_k(V)`. It separates the sums the candidate's own
//!   recursion needs apart, and is applied again to the next candidate.
//!
//! - **by options** ([`Base::refine_by_options`]), applied to the last
//!   candidate's classes of the smaller heaps: `k(W) = O(W)`, the set of
//!   the classes of `W`'s options (`O(W + V) = O(W) b(V) + b(W) O(V)`).
//!   Refining again and again separates any two sums whose game trees,
//!   labelled by their classes, differ to some depth; two sums that no
//!   depth separates are equivalent in any company. Applied to the
//!   quotient of the smaller heaps itself it separates more than needed
//!   (its second level passed 4096 elements on 0.07 at heap 25).
//!
//! No kind is enough for every game (0.15 and 0.71 need the last, 0.123
//! and 0.3122 the counts, 4.7 the escapes), so they take turns.
//!
//! Each base has at most [`MAX_BASE`] elements, and the construction tries
//! at most [`MAX_REFINEMENTS`] bases for a heap.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::ControlFlow;

use super::bits::Bits;
use super::monoid::{Element, IDENTITY, Monoid};
use crate::octal::Moves;

/// The most bases tried for one heap.
pub(crate) const MAX_REFINEMENTS: usize = 16;

/// The most elements a refined base may have (its product table takes
/// `2 MAX_BASE^2` bytes: 32 MiB).
pub(crate) const MAX_BASE: usize = 4096;

/// A base for the construction: a monoid predicting the outcomes of the
/// sums of the heaps `0..heap_images.len()`, each heap's image and the
/// images of its options, and elements generating it.
#[derive(Debug, Clone)]
pub(crate) struct Base {
    pub(crate) monoid: Monoid,
    pub(crate) heap_images: Vec<Element>,
    pub(crate) heap_options: Vec<Vec<Element>>,
    pub(crate) generators: Vec<Element>,
}

/// A set of heaps counted by [`Base::refine_by_counts`], in the cyclic
/// monoid `{0, ..., index + period - 1}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Counter {
    /// Whether each heap (below the heap adjoined) is counted.
    pub(crate) heaps: Vec<bool>,
    /// Where the counts start to cycle.
    pub(crate) index: u8,
    /// The cycle's length.
    pub(crate) period: u8,
}

impl Counter {
    /// `a + b` in the cyclic monoid.
    fn add(&self, a: u8, b: u8) -> u8 {
        let s = u32::from(a) + u32::from(b);
        let (i, p) = (u32::from(self.index), u32::from(self.period));
        if s < i + p {
            s as u8
        } else {
            (i + (s - i) % p) as u8
        }
    }
}

impl Base {
    /// The images of the options of heap `n` (beyond the base's heaps:
    /// its options are sums of them), sorted, without repeats.
    pub(crate) fn option_images(&self, moves: &Moves, n: u64) -> Vec<Element> {
        option_images(&self.monoid, &self.heap_images, moves, n)
    }

    /// The refinement by the counts of the heaps of each counter.
    pub(crate) fn refine_by_counts(&self, moves: &Moves, counters: &[Counter]) -> Option<Base> {
        let extra: Vec<Vec<u8>> = (0..self.heap_images.len())
            .map(|h| counters.iter().map(|c| u8::from(c.heaps[h])).collect())
            .collect();
        self.closure(moves, &extra, vec![0; counters.len()], |_, x, _, y| {
            x.iter()
                .zip(y)
                .zip(counters)
                .map(|((&a, &b), c)| c.add(a, b))
                .collect()
        })
    }

    /// The refinement by the escape profiles: for each row `F_k` of the
    /// outcomes of `kG + W` (over the base's elements), `E_k(W) = {z : some
    /// option W' of W has F_k(b(W') z)}`, the multipliers from which `W`
    /// has a move to a position `kG + ...` predicted lost. A sum's options
    /// are its heaps' options one at a time, so `E_k(W + V) = b(V)^-1
    /// E_k(W) + b(W)^-1 E_k(V)`.
    pub(crate) fn refine_by_escapes(&self, moves: &Moves, rows: &[Bits]) -> Option<Base> {
        let order = self.monoid.order();
        let extra: Vec<Vec<Bits>> = self
            .heap_options
            .iter()
            .map(|options| {
                rows.iter()
                    .map(|row| {
                        let mut e = Bits::new(order);
                        for &s in options {
                            e.union_with(&self.monoid.preimage(row, s));
                        }
                        e
                    })
                    .collect()
            })
            .collect();
        let none = vec![Bits::new(order); rows.len()];
        self.closure(moves, &extra, none, |bx, x, by, y| {
            x.iter()
                .zip(y)
                .map(|(ex, ey)| {
                    let mut e = self.monoid.preimage(ex, by);
                    e.union_with(&self.monoid.preimage(ey, bx));
                    e
                })
                .collect()
        })
    }

    /// The refinement by the classes of the options: `k(W) = O(W)`, the set
    /// of the classes of `W`'s options; a sum's options are its heaps'
    /// options one at a time, so `O(W + V) = O(W) b(V) + b(W) O(V)`.
    pub(crate) fn refine_by_options(&self, moves: &Moves) -> Option<Base> {
        let order = self.monoid.order();
        let extra: Vec<Bits> = self
            .heap_options
            .iter()
            .map(|options| {
                let mut o = Bits::new(order);
                options.iter().for_each(|&s| o.insert(usize::from(s)));
                o
            })
            .collect();
        self.closure(moves, &extra, Bits::new(order), |bx, x, by, y| {
            let mut o = Bits::new(order);
            for s in x.iter() {
                o.insert(usize::from(self.monoid.mul(s as Element, by)));
            }
            for s in y.iter() {
                o.insert(usize::from(self.monoid.mul(bx, s as Element)));
            }
            o
        })
    }

    /// The image of the sums of the heaps under `W -> (b(W), k(W))`, where
    /// each heap with options carries `extra[h]`, the empty sum `none`, and
    /// `(b, x)(c, y) = (bc, combine(b, x, c, y))`; `None` beyond
    /// [`MAX_BASE`] elements.
    fn closure<K: Clone + Eq + Hash>(
        &self,
        moves: &Moves,
        extra: &[K],
        none: K,
        combine: impl Fn(Element, &K, Element, &K) -> K,
    ) -> Option<Base> {
        let mut elements = Elements::new((IDENTITY, none));
        let mut images = vec![IDENTITY; self.heap_images.len()];
        let mut gens: Vec<Element> = Vec::new();
        for (h, &b) in self.heap_images.iter().enumerate() {
            if self.heap_options[h].is_empty() {
                continue;
            }
            // A generator is the identity times itself.
            let (id, new) = elements.id((b, extra[h].clone()), (IDENTITY, gens.len()))?;
            if new {
                gens.push(id);
            }
            images[h] = id;
        }
        // The closure under the products by the generators.
        let mut step: Vec<Vec<Element>> = Vec::new();
        let mut at = 0;
        while at < elements.pairs.len() {
            let mut row = Vec::with_capacity(gens.len());
            for (g, &gid) in gens.iter().enumerate() {
                let (bx, x) = &elements.pairs[at];
                let (by, y) = &elements.pairs[usize::from(gid)];
                let key = (self.monoid.mul(*bx, *by), combine(*bx, x, *by, y));
                row.push(elements.id(key, (at as Element, g))?.0);
            }
            step.push(row);
            at += 1;
        }
        let Elements {
            pairs, made_from, ..
        } = elements;
        // The full table: x y = (x * made_from(y).0) * generator, in the
        // order of construction (made_from(y).0 comes before y).
        let order = pairs.len();
        let mut table = vec![IDENTITY; order * order];
        for x in 0..order {
            table[x * order] = x as Element;
            for y in 1..order {
                let (before, g) = made_from[y];
                let xb = table[x * order + usize::from(before)];
                table[x * order + y] = step[usize::from(xb)][g];
            }
        }
        let mut p = Bits::new(order);
        for (i, pair) in pairs.iter().enumerate() {
            if self.monoid.is_p(pair.0) {
                p.insert(i);
            }
        }
        let monoid = Monoid::from_table(order, table, p);
        let heap_options = (0..self.heap_images.len() as u64)
            .map(|h| option_images(&monoid, &images, moves, h))
            .collect();
        Some(Base {
            monoid,
            heap_images: images,
            heap_options,
            generators: gens,
        })
    }
}

/// The elements of a base under construction, numbered in the order met:
/// each as its pair `(b, k)`, and how it was made.
struct Elements<K> {
    pairs: Vec<(Element, K)>,
    ids: HashMap<(Element, K), Element>,
    /// Each element is `(element, generator)` times (the generators: the
    /// identity times themselves; the identity: `usize::MAX`).
    made_from: Vec<(Element, usize)>,
}

impl<K: Clone + Eq + Hash> Elements<K> {
    /// The identity alone.
    fn new(identity: (Element, K)) -> Self {
        let mut ids = HashMap::new();
        ids.insert(identity.clone(), IDENTITY);
        Elements {
            pairs: vec![identity],
            ids,
            made_from: vec![(IDENTITY, usize::MAX)],
        }
    }

    /// The element of `key`, and whether it is new (numbered next, made as
    /// `made_from`); `None` if it would be one beyond [`MAX_BASE`].
    fn id(&mut self, key: (Element, K), made_from: (Element, usize)) -> Option<(Element, bool)> {
        if let Some(&id) = self.ids.get(&key) {
            return Some((id, false));
        }
        if self.pairs.len() >= MAX_BASE {
            return None;
        }
        let id = self.pairs.len() as Element;
        self.ids.insert(key.clone(), id);
        self.pairs.push(key);
        self.made_from.push(made_from);
        Some((id, true))
    }
}

/// The images of the options of heap `n` under `images` (the heaps below
/// `n`), sorted, without repeats.
pub(crate) fn option_images(
    monoid: &Monoid,
    images: &[Element],
    moves: &Moves,
    n: u64,
) -> Vec<Element> {
    let mut seen = Bits::new(monoid.order());
    let mut list = Vec::new();
    let _ = moves.for_each_option(n, u64::MAX, |_, parts| {
        let x = parts.iter().fold(IDENTITY, |acc, &part| {
            monoid.mul(acc, images[part as usize])
        });
        if !seen.contains(usize::from(x)) {
            seen.insert(usize::from(x));
            list.push(x);
        }
        ControlFlow::Continue(())
    });
    list.sort_unstable();
    list
}
