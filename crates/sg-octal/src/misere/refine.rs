//! Refined bases: the first bases tried for a new generator.
//!
//! When heap `n` fits no element, the construction first tries a few bases
//! of fixed kinds (this module), each a monoid with a product table, and
//! only when they give up learns bases from the refuted candidates'
//! least failing sums (`adjoin`). The kinds below split many classes at
//! once: on games where nearly every heap is a new generator (0.26, 0.57,
//! 4.7) one of them is proven within a few tries, where learning one
//! split a candidate would need many candidates; on games whose classes
//! split in ways none of them foresees (0.07, 0.137) they give up within
//! [`MAX_REFINEMENTS`] tries, cheaply, and learning goes on.
//!
//! A refinement sends a sum `W` of smaller heaps to `(b(W), k(W))`: its
//! class in the base and extra data `k`, computed heap by heap with a
//! product that makes `W -> (b(W), k(W))` a homomorphism; its image (the
//! closure of the heaps' pairs under the product) is the finer base, and
//! it predicts outcomes as the base does (`(b, k)` is in the P-portion iff
//! `b` is). Three refinements are used:
//!
//! - **by counts** ([`TableBase::refine_by_counts`]): `k(W)` counts the
//!   heaps of chosen sets in `W`, each count in a cyclic monoid `{0, ...,
//!   i + p - 1}` (`i + p` wraps to `i`). It separates a heap that *fitted*
//!   an element (heap 3 of 0.35 behaves as `*2 + *2` among the heaps up to
//!   3, not once heap 4 joins) and lengthens the cycle of a generator's
//!   powers (`*2` and `*2 + *2 + *2` in 0.3122). The sets to count are the
//!   heaps of the types of a sum on which the candidate failed.
//! - **by escapes** ([`TableBase::refine_by_escapes`]): `k(W) =
//!   (E_k(W))_k`, where `E_k(W)` is the set of multipliers `z` from which
//!   `W` has a move to a position `kG + W' + Z` the last candidate predicts
//!   lost. A sum's options are its heaps' options one at a time, so
//!   `E_k(W + V) = b(V)^-1 E_k(W) + b(W)^-1 E_k(V)`. It separates the sums
//!   the candidate's own recursion needs apart, and is applied again to
//!   the next candidate.
//! - **by options** ([`TableBase::refine_by_options`]), applied to the last
//!   candidate's classes of the smaller heaps: `k(W) = O(W)`, the set of
//!   the classes of `W`'s options (`O(W + V) = O(W) b(V) + b(W) O(V)`).
//!   Refining again and again separates any two sums whose game trees,
//!   labelled by their classes, differ to some depth.
//!
//! Each base has at most [`MAX_REFINED`] elements. Every base predicts the
//! sums of the smaller heaps right, and only a proven candidate is kept,
//! so which bases are tried changes how far the construction gets in a
//! given time, never what it proves.

use std::collections::HashMap;
use std::hash::Hash;

use super::adjoin::Search;
use super::base::Base;
use super::bits::Bits;
use super::construct::{Construction, option_images};
use super::extend::{self, NoExtension};
use super::monoid::{Element, IDENTITY, Monoid};
use super::verify::Unproven;
use super::{Ended, Limit};
use crate::Moves;

/// The most bases tried for one heap.
const MAX_REFINEMENTS: usize = 16;

/// The most elements a refined base may have (its product table takes
/// `2 MAX_REFINED^2` bytes: 32 MiB).
const MAX_REFINED: usize = 4096;

/// A base with a product table: a monoid predicting the outcomes of the
/// sums of the heaps `0..heap_images.len()`, each heap's image and the
/// images of its options.
#[derive(Debug, Clone)]
struct TableBase {
    monoid: Monoid,
    heap_images: Vec<Element>,
    heap_options: Vec<Vec<Element>>,
}

/// A set of heaps counted by [`TableBase::refine_by_counts`], in the cyclic
/// monoid `{0, ..., index + period - 1}`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Counter {
    /// Whether each heap (below the heap adjoined) is counted.
    heaps: Vec<bool>,
    /// Where the counts start to cycle.
    index: u8,
    /// The cycle's length.
    period: u8,
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

impl TableBase {
    /// The refinement by the counts of the heaps of each counter.
    fn refine_by_counts(
        &self,
        moves: &Moves,
        counters: &[Counter],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<TableBase> {
        let extra: Vec<Vec<u8>> = (0..self.heap_images.len())
            .map(|h| counters.iter().map(|c| u8::from(c.heaps[h])).collect())
            .collect();
        self.closure(
            moves,
            &extra,
            vec![0; counters.len()],
            |_, x, _, y| {
                x.iter()
                    .zip(y)
                    .zip(counters)
                    .map(|((&a, &b), c)| c.add(a, b))
                    .collect()
            },
            stop,
        )
    }

    /// The refinement by the escape profiles: for each row `F_k` of the
    /// outcomes of `kG + W` (over the base's elements), `E_k(W) = {z : some
    /// option W' of W has F_k(b(W') z)}`, the multipliers from which `W`
    /// has a move to a position `kG + ...` predicted lost. A sum's options
    /// are its heaps' options one at a time, so `E_k(W + V) = b(V)^-1
    /// E_k(W) + b(W)^-1 E_k(V)`.
    fn refine_by_escapes(
        &self,
        moves: &Moves,
        rows: &[Bits],
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<TableBase> {
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
        self.closure(
            moves,
            &extra,
            none,
            |bx, x, by, y| {
                x.iter()
                    .zip(y)
                    .map(|(ex, ey)| {
                        let mut e = self.monoid.preimage(ex, by);
                        e.union_with(&self.monoid.preimage(ey, bx));
                        e
                    })
                    .collect()
            },
            stop,
        )
    }

    /// The refinement by the classes of the options: `k(W) = O(W)`, the set
    /// of the classes of `W`'s options; a sum's options are its heaps'
    /// options one at a time, so `O(W + V) = O(W) b(V) + b(W) O(V)`.
    fn refine_by_options(
        &self,
        moves: &Moves,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<TableBase> {
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
        self.closure(
            moves,
            &extra,
            Bits::new(order),
            |bx, x, by, y| {
                let mut o = Bits::new(order);
                for s in x.iter() {
                    o.insert(usize::from(self.monoid.mul(s as Element, by)));
                }
                for s in y.iter() {
                    o.insert(usize::from(self.monoid.mul(bx, s as Element)));
                }
                o
            },
            stop,
        )
    }

    /// The image of the sums of the heaps under `W -> (b(W), k(W))`, where
    /// each heap with options carries `extra[h]`, the empty sum `none`, and
    /// `(b, x)(c, y) = (bc, combine(b, x, c, y))`; `None` beyond
    /// [`MAX_REFINED`] elements.
    fn closure<K: Clone + Eq + Hash>(
        &self,
        moves: &Moves,
        extra: &[K],
        none: K,
        combine: impl Fn(Element, &K, Element, &K) -> K,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<TableBase> {
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
            if at.is_multiple_of(16) && stop() {
                return None;
            }
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
        Some(TableBase {
            monoid,
            heap_images: images,
            heap_options,
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
    /// `made_from`); `None` if it would be one beyond [`MAX_REFINED`].
    fn id(&mut self, key: (Element, K), made_from: (Element, usize)) -> Option<(Element, bool)> {
        if let Some(&id) = self.ids.get(&key) {
            return Some((id, false));
        }
        if self.pairs.len() >= MAX_REFINED {
            return None;
        }
        let id = self.pairs.len() as Element;
        self.ids.insert(key.clone(), id);
        self.pairs.push(key);
        self.made_from.push(made_from);
        Some((id, true))
    }
}

/// What became of a candidate on a refined base.
enum Attempt {
    /// Proven: the quotient of the heaps up to `n`.
    Proven(Box<Construction>),
    /// Not built or not proven for a limit on this base (a candidate's
    /// order, the proof's states): another base may fit.
    Limit,
    /// The quotient itself needs more elements than the order limit, or
    /// the caller stopped the search: no other base is tried.
    Final(Ended),
    /// Refuted: its rows over the base, the types of a sum it fails on,
    /// the type of each heap, and its classes of the smaller heaps (a base).
    Refuted {
        rows: Vec<Bits>,
        types: Vec<usize>,
        heap_types: Vec<u32>,
        smaller: Box<TableBase>,
    },
}

/// Adjoins heap `n` to `c` (which it fits no element of) on at most
/// [`MAX_REFINEMENTS`] refined bases, in turn: by the escape profiles of
/// the last candidate on this line of bases, by the counts of the heaps of
/// the most recent types (one more each time), by the counts of the heaps
/// of the types of the sums the candidates failed on, and by the options'
/// classes in the last candidate on its line. The proven quotient, or what
/// ended the tries ([`Refined`]).
pub(crate) fn adjoin(
    c: &Construction,
    n: u64,
    search: &mut Search,
    poll: &mut dyn FnMut(Option<&Search>) -> bool,
) -> Result<Construction, Refined> {
    let first = TableBase {
        monoid: c.monoid.clone(),
        heap_images: c.pretending.clone(),
        heap_options: c
            .heap_type
            .iter()
            .map(|&t| c.types[t as usize].options.clone())
            .collect(),
    };
    let mut recent: Vec<usize> = (0..c.types.len())
        .filter(|&t| !c.types[t].options.is_empty())
        .collect();
    recent.sort_by_key(|&t| std::cmp::Reverse(c.first_heap[t]));
    let mut escapes = first.clone();
    let mut options_line: Option<TableBase> = None;
    let mut failed: Vec<Counter> = Vec::new();
    let mut base = first.clone();
    for attempt in 0..MAX_REFINEMENTS {
        if poll(None) {
            return Err(Refined::Final(Ended::Stopped {
                heap: n,
                why: Limit::Interrupted,
            }));
        }
        let (rows, smaller) = match try_base(c, n, &base, search, poll) {
            Attempt::Proven(candidate) => return Ok(*candidate),
            Attempt::Final(ended) => return Err(Refined::Final(ended)),
            // A limit on this base: the next kind of base may fit.
            Attempt::Limit => (None, None),
            Attempt::Refuted {
                rows,
                types,
                heap_types,
                smaller,
            } => {
                // Count the heaps of the types the candidate failed on.
                for t in types.iter().copied() {
                    let heaps: Vec<bool> = (0..n as usize)
                        .map(|h| heap_types[h] as usize == t)
                        .collect();
                    if !heaps.iter().any(|&b| b) {
                        continue;
                    }
                    match failed.iter_mut().find(|c| c.heaps == heaps) {
                        Some(c) => c.index = c.index.saturating_add(2).min(32),
                        None => failed.push(Counter {
                            heaps,
                            index: 3,
                            period: 2,
                        }),
                    }
                }
                (Some(rows), Some(smaller))
            }
        };
        // The line of refinements by options goes on from its own
        // candidates (or starts from this one).
        if attempt % 4 == 3 || options_line.is_none() {
            options_line = smaller.map(|b| *b);
        }
        // The next base, by the turn of the attempt.
        let mut asked = false;
        let mut stop = || {
            asked = asked || poll(None);
            asked
        };
        let next = match attempt % 4 {
            // After the first or an escape refinement: refine by the
            // escape profiles of this candidate.
            0 => match rows {
                Some(rows) if attempt == 0 || base.monoid.order() == escapes.monoid.order() => {
                    escapes = base
                        .refine_by_escapes(&c.moves, &rows, &mut stop)
                        .unwrap_or(first.clone());
                    Some(escapes.clone())
                }
                _ => None,
            },
            1 => {
                let j = attempt / 4 + 1;
                let counters: Vec<Counter> = recent
                    .iter()
                    .take(j)
                    .map(|&t| Counter {
                        heaps: (0..n as usize)
                            .map(|h| c.heap_type[h] as usize == t)
                            .collect(),
                        index: 3,
                        period: 2,
                    })
                    .collect();
                first.refine_by_counts(&c.moves, &counters, &mut stop)
            }
            2 => first.refine_by_counts(&c.moves, &failed, &mut stop),
            _ => options_line
                .as_ref()
                .and_then(|b| b.refine_by_options(&c.moves, &mut stop)),
        };
        if asked {
            return Err(Refined::Final(Ended::Stopped {
                heap: n,
                why: Limit::Interrupted,
            }));
        }
        base = next.unwrap_or_else(|| first.clone());
    }
    Err(Refined::GaveUp)
}

/// Why the refined bases proved no quotient.
pub(crate) enum Refined {
    /// For good: the quotient outgrows the order limit, or the caller
    /// stopped the search.
    Final(Ended),
    /// They gave up (refuted, or a working limit): learned bases may do
    /// better.
    GaveUp,
}

/// One candidate for heap `n` on `table`, and its proof.
fn try_base(
    c: &Construction,
    n: u64,
    table: &TableBase,
    search: &mut Search,
    poll: &mut dyn FnMut(Option<&Search>) -> bool,
) -> Attempt {
    let interrupted = Attempt::Final(Ended::Stopped {
        heap: n,
        why: Limit::Interrupted,
    });
    let Some(base) = Base::from_monoid(&table.monoid, &table.heap_images) else {
        return Attempt::Limit;
    };
    let options = extend::option_elements(&base, &c.moves, n);
    let limit = super::candidate_limit(c.max_order);
    let extension = match extend::adjoin(&base, &c.moves, &options, limit, &mut || poll(None)) {
        Ok(extension) => extension,
        Err(NoExtension::Stopped) => return interrupted,
        Err(NoExtension::Order { .. }) => return Attempt::Limit,
    };
    search.candidates += 1;
    search.base = base.len();
    search.candidate = extension.monoid.order();
    search.bytes = base.bytes() + table.monoid.bytes();
    if poll(Some(search)) {
        return interrupted;
    }
    let map = |xs: &[Element]| -> Vec<Element> {
        let mut out: Vec<Element> = xs.iter().map(|&x| extension.map[usize::from(x)]).collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let mut images: Vec<Element> = table
        .heap_images
        .iter()
        .map(|&b| extension.map[usize::from(b)])
        .collect();
    images.push(extension.image);
    let smaller = TableBase {
        monoid: extension.monoid.clone(),
        heap_images: images[..n as usize].to_vec(),
        heap_options: table.heap_options.iter().map(|o| map(o)).collect(),
    };
    let (candidate, proof) = c.candidate(extension.monoid, images, &mut || poll(None));
    match proof {
        // Proven and reduced, so the quotient itself: no base does better.
        Ok(()) if candidate.monoid.order() > c.max_order => Attempt::Final(Ended::Stopped {
            heap: n,
            why: Limit::Order {
                needed: candidate.monoid.order(),
            },
        }),
        Ok(()) => Attempt::Proven(Box::new(candidate)),
        Err(Unproven::Stopped) => interrupted,
        Err(Unproven::TooManyStates) => Attempt::Limit,
        Err(Unproven::Wrong(types)) => Attempt::Refuted {
            rows: extension.rows,
            types,
            heap_types: candidate.heap_type,
            smaller: Box::new(smaller),
        },
    }
}
