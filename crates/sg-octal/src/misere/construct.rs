//! The construction heap by heap: the quotient of the heaps up to `n - 1`
//! is extended to heap `n`, either by *fitting* the heap to an element
//! (proven on the spot by the fitting theorem, see [`crate::misere`]) or
//! by adjoining a new generator (`adjoin`), each candidate proven by the
//! verification (`verify`) before it is kept.

use std::collections::HashMap;

use std::ops::ControlFlow;

use super::adjoin::{self, Search};
use super::bits::Bits;
use super::monoid::{Element, IDENTITY, Monoid};
use super::reps::{LeastReps, Letter};
use super::verify::{self, HeapType};
use super::{Ended, Generator};
use crate::{Moves, Period, PeriodTracker, Rules};

/// The quotient of the heaps `0..=n` and what the construction keeps to
/// extend it.
#[derive(Debug, Clone)]
pub(crate) struct Construction {
    pub(crate) moves: Moves,
    pub(crate) max_order: usize,
    pub(crate) monoid: Monoid,
    /// `partners[x] = {z : x z in P}`.
    pub(crate) partners: Vec<Bits>,
    /// `Phi(0), ..., Phi(n)`.
    pub(crate) pretending: Vec<Element>,
    /// The type of each heap.
    pub(crate) heap_type: Vec<u32>,
    /// The types of the heaps (image and options' images), each with the
    /// first heap of its kind.
    pub(crate) types: Vec<HeapType>,
    pub(crate) first_heap: Vec<u64>,
    type_ids: HashMap<(Element, Vec<Element>), u32>,
    /// For each element `x`, the intersection `I_x` of the escapes of the
    /// sums of class `x` met so far (its least representative, and every
    /// heap of image `x`): the fitting theorem's condition.
    shared: Vec<Bits>,
    /// The heaps whose images generate the quotient, each the first heap
    /// whose image the heaps before it do not generate.
    pub(crate) generators: Vec<Generator>,
    tracker: PeriodTracker,
    pub(crate) period: Option<Period>,
}

impl Construction {
    /// The quotient of heap 0 alone: trivial.
    pub(crate) fn new(rules: &Rules, max_order: usize) -> Construction {
        let monoid = Monoid::trivial();
        let mut c = Construction {
            moves: Moves::new(rules),
            max_order,
            partners: Vec::new(),
            pretending: Vec::new(),
            heap_type: Vec::new(),
            types: Vec::new(),
            first_heap: Vec::new(),
            type_ids: HashMap::new(),
            shared: Vec::new(),
            generators: Vec::new(),
            tracker: PeriodTracker::default(),
            period: None,
            monoid,
        };
        c.rebuild(Monoid::trivial(), vec![IDENTITY], vec![Vec::new()]);
        c
    }

    /// The last heap in the quotient.
    pub(crate) fn last_heap(&self) -> u64 {
        self.pretending.len() as u64 - 1
    }

    /// Extends the quotient to the next heap; the reason it stops if it
    /// cannot (the quotient is then unchanged, exact up to the last heap).
    /// `poll` hears of each candidate for a new generator (`Some`) and is
    /// asked now and then (`None`): when it says so, the heap is given up
    /// ([`super::Limit::Interrupted`]).
    pub(crate) fn push_heap(
        &mut self,
        poll: &mut dyn FnMut(Option<&Search>) -> bool,
    ) -> Result<(), Ended> {
        let n = self.pretending.len() as u64;
        let options = option_images(&self.monoid, &self.pretending, &self.moves, n);
        if options.is_empty() {
            self.record(n, IDENTITY, options);
            return Ok(());
        }
        let escapes = escapes_of(&self.partners, &options);
        if let Some(x) = self.fit(&escapes) {
            self.shared[usize::from(x)].intersect_with(&escapes);
            self.record(n, x, options);
            return Ok(());
        }
        *self = adjoin::adjoin(self, n, poll)?;
        Ok(())
    }

    /// Whether heap `h` (computed) has a move.
    /// Whether heap `h` has a move by the rules (whatever the quotient).
    pub(crate) fn heap_has_moves(&self, h: u64) -> bool {
        self.moves
            .for_each_option(h, u64::MAX, |_, _| ControlFlow::Break(()))
            .is_break()
    }

    pub(crate) fn has_options(&self, h: u64) -> bool {
        !self.types[self.heap_type[h as usize] as usize]
            .options
            .is_empty()
    }

    /// The construction with this quotient and these heaps' images (heaps
    /// `0..images.len()`): the options' images, types and sets anew.
    pub(crate) fn with_quotient(&self, monoid: Monoid, images: Vec<Element>) -> Construction {
        let heap_options = (0..images.len() as u64)
            .map(|h| option_images(&monoid, &images, &self.moves, h))
            .collect();
        let mut c = self.clone();
        c.rebuild(monoid, images, heap_options);
        c
    }

    /// The candidate quotient of heaps `0..=n` given by `monoid` and the
    /// heaps' images (`images[n]` the new heap's), and its proof for the
    /// sums that hold heap `n`'s type (those without were proven before);
    /// `stop` as in [`verify::prove`].
    pub(crate) fn candidate(
        &self,
        monoid: Monoid,
        images: Vec<Element>,
        stop: &mut dyn FnMut() -> bool,
    ) -> (Construction, Result<(), verify::Unproven>) {
        let n = images.len() - 1;
        let candidate = self.with_quotient(monoid, images);
        let required = candidate.heap_type[n] as usize;
        let proof = verify::prove(
            &candidate.monoid,
            &candidate.partners,
            &candidate.types,
            Some(required),
            stop,
        );
        (candidate, proof)
    }

    /// An element the heap with these escapes behaves like, by the fitting
    /// theorem: `I_x` within the escapes, the escapes outside `x^-1 P`,
    /// and the heap alone lost iff `x` is in `P`.
    fn fit(&self, escapes: &Bits) -> Option<Element> {
        let lost_alone = !escapes.contains(usize::from(IDENTITY));
        self.monoid.elements().find(|&x| {
            self.monoid.is_p(x) == lost_alone
                && self.partners[usize::from(x)].is_disjoint(escapes)
                && self.shared[usize::from(x)].is_subset(escapes)
        })
    }

    /// Replaces the quotient by `monoid`, with the heaps' images and their
    /// options' images: the sets, types, generators and period search
    /// anew.
    fn rebuild(&mut self, monoid: Monoid, images: Vec<Element>, heap_options: Vec<Vec<Element>>) {
        self.partners = monoid.elements().map(|x| monoid.partners(x)).collect();
        self.monoid = monoid;
        self.pretending.clear();
        self.heap_type.clear();
        self.types.clear();
        self.first_heap.clear();
        self.type_ids.clear();
        self.tracker = PeriodTracker::default();
        self.period = None;
        for (n, (x, options)) in images.into_iter().zip(heap_options).enumerate() {
            self.record(n as u64, x, options);
        }
        self.generators = generators(&self.monoid, &self.pretending);
        self.shared = self.shared_escapes();
    }

    /// `I_x` for every element, from scratch: the escapes of its least
    /// representative, intersected with those of every type of image `x`.
    fn shared_escapes(&self) -> Vec<Bits> {
        let letters = letters(
            self.types
                .iter()
                .zip(&self.first_heap)
                .map(|(t, &h)| (t.element, h, &t.options[..])),
        );
        let reps = LeastReps::new(&self.monoid, &letters);
        let mut shared: Vec<Bits> = self
            .monoid
            .elements()
            .map(|x| reps.escapes(&self.monoid, &letters, &self.partners, x))
            .collect();
        for t in self.types.iter().filter(|t| !t.options.is_empty()) {
            shared[usize::from(t.element)].intersect_with(&t.escapes);
        }
        shared
    }

    /// Records `Phi(n) = x` and the type of heap `n`; pushes `Phi(n)` to
    /// the period search.
    fn record(&mut self, n: u64, x: Element, options: Vec<Element>) {
        let key = (x, options);
        let t = match self.type_ids.get(&key) {
            Some(&t) => t,
            None => {
                let escapes = escapes_of(&self.partners, &key.1);
                self.types.push(HeapType {
                    element: x,
                    options: key.1.clone(),
                    escapes,
                });
                self.first_heap.push(n);
                let t = self.types.len() as u32 - 1;
                self.type_ids.insert(key, t);
                t
            }
        };
        self.heap_type.push(t);
        self.pretending.push(x);
        if self.period.is_none() {
            self.period = self.tracker.push(&self.moves, &self.pretending);
        }
    }

    /// The bytes the construction keeps (the quotient, its sets, the
    /// pretending function and the heap types).
    pub(crate) fn bytes(&self) -> usize {
        let sets: usize = self
            .partners
            .iter()
            .chain(&self.shared)
            .map(Bits::bytes)
            .sum();
        let types: usize = self
            .types
            .iter()
            .map(|t| t.escapes.bytes() + 2 * t.options.len() + 64)
            .sum();
        self.monoid.bytes() + sets + types + 6 * self.pretending.len()
    }
}

/// `H = {u : u s in P for some s in options}`.
fn escapes_of(partners: &[Bits], options: &[Element]) -> Bits {
    let mut out = Bits::new(partners.len());
    for &s in options {
        out.union_with(&partners[usize::from(s)]);
    }
    out
}

/// The letters among heaps `(image, heap, options' images)`: for each
/// image of a heap with options, its smallest heap.
fn letters<'a>(heaps: impl Iterator<Item = (Element, u64, &'a [Element])>) -> Vec<Letter<'a>> {
    let mut best: HashMap<Element, (u64, &'a [Element])> = HashMap::new();
    for (x, heap, options) in heaps {
        if options.is_empty() {
            continue;
        }
        let entry = best.entry(x).or_insert((heap, options));
        if heap < entry.0 {
            *entry = (heap, options);
        }
    }
    let mut list: Vec<(u64, Element, &'a [Element])> =
        best.into_iter().map(|(x, (h, o))| (h, x, o)).collect();
    list.sort_unstable_by_key(|&(h, x, _)| (h, x));
    list.into_iter()
        .map(|(heap, element, options)| Letter {
            element,
            weight: 2 * heap - 1,
            options,
        })
        .collect()
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

/// The heaps whose images generate the quotient: each heap whose image the
/// images of the heaps before it do not generate.
fn generators(monoid: &Monoid, images: &[Element]) -> Vec<Generator> {
    let mut reached = Bits::new(monoid.order());
    reached.insert(usize::from(IDENTITY));
    let mut list: Vec<Generator> = Vec::new();
    for (heap, &x) in images.iter().enumerate() {
        if reached.contains(usize::from(x)) {
            continue;
        }
        list.push(Generator {
            heap: heap as u64,
            element: x,
        });
        // Close the reached set under the product by x.
        let mut frontier: Vec<Element> = reached.iter().map(|e| e as Element).collect();
        while let Some(e) = frontier.pop() {
            let y = monoid.mul(e, x);
            if !reached.contains(usize::from(y)) {
                reached.insert(usize::from(y));
                frontier.push(y);
            }
        }
    }
    list
}

/// A generating set without a generator that is a product of the others:
/// `generators` with each one dropped, first to last, that the ones left
/// generate. (Dropping a generator the others generate keeps what they
/// generate, and only shrinks what the others of a kept one generate, so
/// every generator left is needed.) In 0.35, heap 3's element `c` is a
/// generator among the heaps up to 3, and equals `eg` once heaps 5 and 7
/// join: it is dropped.
pub(crate) fn minimal_generators(monoid: &Monoid, generators: &[Generator]) -> Vec<Generator> {
    let mut kept: Vec<Generator> = generators.to_vec();
    let mut i = 0;
    while i < kept.len() {
        let others: Vec<Element> = kept
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, g)| g.element)
            .collect();
        if generated(monoid, &others).contains(usize::from(kept[i].element)) {
            kept.remove(i);
        } else {
            i += 1;
        }
    }
    kept
}

/// The elements that products of `elements` reach (the identity too).
pub(crate) fn generated(monoid: &Monoid, elements: &[Element]) -> Bits {
    let mut reached = Bits::new(monoid.order());
    reached.insert(usize::from(IDENTITY));
    let mut frontier = vec![IDENTITY];
    while let Some(e) = frontier.pop() {
        for &x in elements {
            let y = monoid.mul(e, x);
            if !reached.contains(usize::from(y)) {
                reached.insert(usize::from(y));
                frontier.push(y);
            }
        }
    }
    reached
}
