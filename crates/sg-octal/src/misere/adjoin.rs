//! A new generator, learned from refuted candidates.
//!
//! When heap `n` fits no element, the construction first tries the
//! refined bases of `refine`; when they give up, it adjoins the heap on a
//! *base* (`base`) learned as below: a monoid of the sums of the smaller
//! heaps, given by a presentation. The first base is the quotient `Q` of the smaller heaps
//! itself (its generators, and all the relations of its presentation).
//! The candidate built on it (`extend`) is proven or refuted (`verify`).
//! When refuted, its least failing sum shows two sums `U` and `V` of the
//! smaller heaps that the base makes equal and heap `n` tells apart (a
//! *split*, `failure`), and the next base separates them, and every split
//! found before:
//!
//! - when `U` and `V` are the same monomial in the symbols (a heap *fits*
//!   an element of `Q` among the smaller heaps but not any more), the
//!   heaviest heap of `U` or `V` that is not a generator's is *set free*:
//!   it becomes a symbol of its own, with the cycle of its element's
//!   powers in `Q`;
//! - otherwise the cycles of the symbols where `U` and `V` differ are made
//!   long enough to tell their exponents apart, and the relations behind
//!   the equality of `U` and `V` (the provenance of their normal forms,
//!   `rewrite`) are dropped, until the two normal forms differ;
//! - then, since a dropped relation may still hold, every relation of `Q`
//!   that the refuted candidate satisfies on the smaller heaps is taken
//!   back, and dropped again only if a split needs it.
//!
//! Each base is finer than `Q`, and each equation holds in `Q`, so each
//! base predicts the sums of the smaller heaps right; the candidates are
//! reduced, so no larger than what their base and the new generator's
//! powers make distinct. The base only grows where a proven split asks:
//! its size follows the quotient's, not the product of every generator's
//! cycle. Nothing here bounds the number of candidates; the caller's
//! limits (the order, the time, a signal through `stop`) and a memory
//! bound on the base ([`MAX_BASE`]) end the search, and only a proven
//! candidate is ever kept.

use super::base::{Base, TooLarge};
use super::construct::Construction;
use super::extend::{self, NoExtension};
use super::failure::{self, Split};
use super::monoid::{Element, IDENTITY};
use super::presentation::Presentation;
use super::refine;
use super::rewrite::{Incomplete, System};
use super::verify::Unproven;
use super::{Ended, Limit};

/// The most elements a base may have: each takes about 200 bytes with its
/// products by the letters, and the extension a few times that.
pub(crate) const MAX_BASE: usize = 1 << 21;

/// The most rules a presentation's completion may keep.
const MAX_RULES: usize = 1 << 16;

/// How far the search for a new generator went, for progress reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Search {
    /// Candidates built.
    pub(crate) candidates: usize,
    /// The size of the last base.
    pub(crate) base: usize,
    /// The order of the last candidate.
    pub(crate) candidate: usize,
    /// The bytes the last base took (roughly).
    pub(crate) bytes: usize,
}

/// An equation between two monomials (exponent vectors).
type Equation = (Vec<u32>, Vec<u32>);

/// The presentation a base is built from.
struct Presentations {
    /// `Q`'s relations, as exponent pairs over its generators.
    relations: Vec<(Vec<u32>, Vec<u32>)>,
    /// Whether each relation is kept.
    kept: Vec<bool>,
    /// Each symbol's value in `Q`: the generators', then the free heaps'.
    values: Vec<Element>,
    /// Each symbol's cycle `(index, period)`.
    cycles: Vec<(u32, u32)>,
    /// The heaps set free (a symbol each, after the generators).
    free: Vec<u64>,
    /// The generators' heaps.
    generator_heaps: Vec<u64>,
    /// Each heap's exponents in `Q`'s generators (zero for no move).
    exponents: Vec<Vec<u32>>,
}

impl Presentations {
    fn symbols(&self) -> usize {
        self.values.len()
    }

    /// Each heap's monomial in the symbols.
    fn monomials(&self) -> Vec<Vec<u32>> {
        let s = self.symbols();
        self.exponents
            .iter()
            .enumerate()
            .map(|(h, e)| {
                let mut m = vec![0u32; s];
                match self.free.iter().position(|&f| f == h as u64) {
                    Some(j) => m[self.generator_heaps.len() + j] = 1,
                    None => m[..e.len()].copy_from_slice(e),
                }
                m
            })
            .collect()
    }

    /// The equations: the kept relations, then a cycle for each symbol.
    /// `which[i]` is the relation of equation `i` (`None` for a cycle).
    fn equations(&self) -> (Vec<Equation>, Vec<Option<usize>>) {
        let s = self.symbols();
        let mut out = Vec::new();
        let mut which = Vec::new();
        for (r, (a, b)) in self.relations.iter().enumerate() {
            if self.kept[r] {
                let (mut a, mut b) = (a.clone(), b.clone());
                a.resize(s, 0);
                b.resize(s, 0);
                out.push((a, b));
                which.push(Some(r));
            }
        }
        for (i, &(index, period)) in self.cycles.iter().enumerate() {
            let mut a = vec![0u32; s];
            let mut b = vec![0u32; s];
            a[i] = index + period;
            b[i] = index;
            out.push((a, b));
            which.push(None);
        }
        (out, which)
    }

    /// The sum of the monomials of `heaps`.
    fn monomial_of(&self, monomials: &[Vec<u32>], heaps: &[u64]) -> Vec<u32> {
        let mut m = vec![0u32; self.symbols()];
        for &h in heaps {
            for (x, y) in m.iter_mut().zip(&monomials[h as usize]) {
                *x += y;
            }
        }
        m
    }

    /// Sets heap `heap` (of value `value` in `quotient`) free: a symbol of
    /// its own, with its value's cycle, and the relations `f s = m s` for
    /// its old monomial `m` and every symbol `s` (they hold in `Q`, as `f`
    /// and `m` have one value there), to be kept as long as the candidates
    /// satisfy them.
    fn set_free(&mut self, heap: u64, value: Element, quotient: &super::monoid::Monoid) {
        let monomials = self.monomials();
        let old = monomials[heap as usize].clone();
        let (i, period) = quotient.cycle(value);
        self.free.push(heap);
        self.values.push(value);
        self.cycles.push((i as u32, period as u32));
        let s = self.symbols();
        let f = s - 1;
        for other in 0..s {
            let mut lhs = vec![0u32; s];
            lhs[f] += 1;
            lhs[other] += 1;
            let mut rhs = old.clone();
            rhs.resize(s, 0);
            rhs[other] += 1;
            self.relations.push((lhs, rhs));
            self.kept.push(false);
        }
    }

    /// Whether every split's two sums have distinct normal forms under
    /// `system`.
    fn separated(&self, system: &System, splits: &[Split]) -> bool {
        let monomials = self.monomials();
        splits.iter().all(|split| {
            let mut u = self.monomial_of(&monomials, &split.u);
            let mut v = self.monomial_of(&monomials, &split.v);
            system.reduce(&mut u);
            system.reduce(&mut v);
            u != v
        })
    }

    /// A confluent system in which every split's two sums differ: cycles
    /// lengthened and relations dropped as the splits ask, then the
    /// dropped relations taken back by groups (halves of a group that
    /// cannot come back whole) while the splits stay apart, so that only
    /// the relations the splits need are dropped. `poll` is asked before
    /// each completion; a `true` gives up ([`Limit::Interrupted`]).
    fn separate(
        &mut self,
        splits: &[Split],
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<System, Limit> {
        let mut complete = |p: &Presentations| {
            if poll() {
                return Err(Limit::Interrupted);
            }
            System::complete(&p.equations().0, MAX_RULES, &mut || poll()).map_err(|e| match e {
                Incomplete::TooManyRules => Limit::Work,
                Incomplete::Stopped => Limit::Interrupted,
            })
        };
        let mut dropped: Vec<usize> = Vec::new();
        let mut passes = 0;
        let mut system = loop {
            passes += 1;
            if passes > self.relations.len() + 2 * self.symbols() + 8 {
                return Err(Limit::Work);
            }
            let monomials = self.monomials();
            let (_, which) = self.equations();
            let system = complete(self)?;
            let mut changed = false;
            for split in splits {
                let mut u = self.monomial_of(&monomials, &split.u);
                let mut v = self.monomial_of(&monomials, &split.v);
                let (u0, v0) = (u.clone(), v.clone());
                let mut from = Default::default();
                system.reduce_noting(&mut u, &mut from);
                system.reduce_noting(&mut v, &mut from);
                if u != v {
                    continue;
                }
                // Long enough cycles where the exponents differ...
                for (i, cycle) in self.cycles.iter_mut().enumerate() {
                    if u0[i] != v0[i] {
                        let least = u0[i].min(v0[i]) + 1;
                        if cycle.0 < least {
                            cycle.0 = least;
                            changed = true;
                        }
                    }
                }
                // ...and no relation behind their equality.
                for e in from.iter() {
                    if let Some(Some(r)) = which.get(e)
                        && self.kept[*r]
                    {
                        self.kept[*r] = false;
                        dropped.push(*r);
                        changed = true;
                    }
                }
                if !changed {
                    // Only cycles behind it: lengthen them.
                    let relations = which.iter().filter(|w| w.is_some()).count();
                    for e in from.iter() {
                        if let Some(None) = which.get(e) {
                            self.cycles[e - relations].1 *= 2;
                            changed = true;
                        }
                    }
                }
                break;
            }
            if !changed {
                break system;
            }
        };
        // Take back what the splits do not need, a group at a time.
        let mut groups: Vec<Vec<usize>> = vec![dropped];
        while let Some(group) = groups.pop() {
            if group.is_empty() {
                continue;
            }
            for &r in &group {
                self.kept[r] = true;
            }
            let trial = complete(self)?;
            if self.separated(&trial, splits) {
                system = trial;
                continue;
            }
            for &r in &group {
                self.kept[r] = false;
            }
            if group.len() > 1 {
                let (one, other) = group.split_at(group.len() / 2);
                groups.push(other.to_vec());
                groups.push(one.to_vec());
            }
        }
        Ok(system)
    }
}

/// Adjoins heap `n` to `c` (the quotient of the heaps below it), which
/// fits no element: the proven quotient of the heaps up to `n`, or what
/// stopped the search. `poll` hears of each candidate (`Some`) and is
/// asked now and then (`None`); a `true` stops the search
/// ([`Limit::Interrupted`]).
pub(crate) fn adjoin(
    c: &Construction,
    n: u64,
    poll: &mut dyn FnMut(Option<&Search>) -> bool,
) -> Result<Construction, Ended> {
    let stopped = |why| Ended::Stopped { heap: n, why };
    let mut search = Search::default();
    match refine::adjoin(c, n, &mut search, poll) {
        Ok(proven) => return Ok(proven),
        Err(refine::Refined::Final(ended)) => return Err(ended),
        // The refined bases gave up: learn.
        Err(refine::Refined::GaveUp) => {}
    }
    let quotient = &c.monoid;
    let generators: Vec<Element> = c.generators.iter().map(|g| g.element).collect();
    let presentation = Presentation::new(quotient, &generators);
    let relations = presentation.relation_pairs().to_vec();
    let exponents: Vec<Vec<u32>> = (0..n)
        .map(|h| {
            if c.has_options(h) {
                presentation.exponents(c.pretending[h as usize]).to_vec()
            } else {
                vec![0; generators.len()]
            }
        })
        .collect();
    let mut p = Presentations {
        kept: vec![true; relations.len()],
        relations,
        values: generators.clone(),
        cycles: generators
            .iter()
            .map(|&g| {
                let (i, p) = quotient.cycle(g);
                (i as u32, p as u32)
            })
            .collect(),
        free: Vec::new(),
        generator_heaps: c.generators.iter().map(|g| g.heap).collect(),
        exponents,
    };
    let mut splits: Vec<Split> = Vec::new();
    let limit = super::candidate_limit(c.max_order);
    loop {
        if poll(None) {
            return Err(stopped(Limit::Interrupted));
        }
        let system = p.separate(&splits, &mut || poll(None)).map_err(stopped)?;
        let monomials = p.monomials();
        let mut asked = false;
        let base = Base::new(
            quotient,
            &p.values,
            &system,
            &monomials,
            MAX_BASE,
            &mut || {
                asked = poll(None);
                asked
            },
        )
        .map_err(|TooLarge| {
            if asked {
                stopped(Limit::Interrupted)
            } else {
                stopped(Limit::Work)
            }
        })?;
        let options = extend::option_elements(&base, &c.moves, n);
        let extension = match extend::adjoin(&base, &c.moves, &options, limit, &mut || poll(None)) {
            Ok(extension) => extension,
            Err(NoExtension::Stopped) => return Err(stopped(Limit::Interrupted)),
            Err(NoExtension::Order { needed }) => {
                return Err(stopped(Limit::Order { needed }));
            }
        };
        search.candidates += 1;
        search.base = base.len();
        search.candidate = extension.monoid.order();
        search.bytes = base.bytes();
        if poll(Some(&search)) {
            return Err(stopped(Limit::Interrupted));
        }
        let mut images: Vec<Element> = (0..n)
            .map(|h| extension.map[base.heap_element(h) as usize])
            .collect();
        images.push(extension.image);
        let (candidate, proof) = c.candidate(extension.monoid, images, &mut || poll(None));
        match proof {
            Ok(()) => {
                if candidate.monoid.order() > c.max_order {
                    return Err(stopped(Limit::Order {
                        needed: candidate.monoid.order(),
                    }));
                }
                return Ok(candidate);
            }
            Err(Unproven::TooManyStates) => return Err(stopped(Limit::Work)),
            Err(Unproven::Stopped) => return Err(stopped(Limit::Interrupted)),
            Err(Unproven::Wrong(_)) => {}
        }
        if poll(None) {
            return Err(stopped(Limit::Interrupted));
        }
        let weights: Vec<u64> = candidate
            .first_heap
            .iter()
            .map(|&h| (2 * h).max(1) - 1)
            .collect();
        let Some(least) = failure::least_failure(
            &candidate.monoid,
            &candidate.partners,
            &candidate.types,
            &weights,
        ) else {
            return Err(stopped(Limit::Work));
        };
        let heaps: Vec<u64> = least
            .parts
            .iter()
            .flat_map(|&(t, m)| std::iter::repeat_n(candidate.first_heap[t], m))
            .collect();
        let Some(split) = failure::split(
            &candidate.monoid,
            &candidate.pretending,
            &c.moves,
            n,
            &base,
            &heaps,
        ) else {
            let predicted = candidate.monoid.is_p(heaps.iter().fold(IDENTITY, |x, &h| {
                candidate.monoid.mul(x, candidate.pretending[h as usize])
            }));
            return Err(stopped(Limit::Refuted {
                sum: super::FailingSum::new(&heaps, predicted),
            }));
        };
        if p.monomial_of(&monomials, &split.u) == p.monomial_of(&monomials, &split.v) {
            // A heap fits no more: set the heaviest one free.
            let heap = split
                .u
                .iter()
                .chain(&split.v)
                .copied()
                .filter(|h| !p.free.contains(h) && !p.generator_heaps.contains(h))
                .max();
            let Some(heap) = heap else {
                return Err(stopped(Limit::Work));
            };
            p.set_free(heap, c.pretending[heap as usize], quotient);
        }
        splits.push(split);
        // Take back the relations the candidate satisfies.
        let symbol_images: Vec<Element> = p
            .generator_heaps
            .iter()
            .chain(&p.free)
            .map(|&h| candidate.pretending[h as usize])
            .collect();
        let value = |e: &[u32]| {
            e.iter().enumerate().fold(IDENTITY, |x, (i, &k)| {
                (0..k).fold(x, |y, _| candidate.monoid.mul(y, symbol_images[i]))
            })
        };
        for (r, (a, b)) in p.relations.iter().enumerate() {
            p.kept[r] = value(a) == value(b);
        }
    }
}
