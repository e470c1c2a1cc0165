//! The construction heap by heap: the quotient of the heaps up to `n - 1`
//! is extended to heap `n`, either by *fitting* the heap to an element
//! (proven on the spot by the fitting theorem, see [`crate::misere`]) or
//! by adjoining a new generator (`extend`), proven by the verification
//! (`verify`) before it is kept, on finer bases (`refine`) when the proof
//! fails.

use std::collections::HashMap;

use super::bits::Bits;
use super::extend::{self, NoExtension};
use super::monoid::{Element, IDENTITY, Monoid};
use super::refine::{Base, Counter, MAX_REFINEMENTS, option_images};
use super::reps::{LeastReps, Letter};
use super::verify::{self, HeapType, Unproven};
use super::{Ended, Generator, Limit};
use crate::octal::{Moves, Period, PeriodTracker, Rules};

/// The quotient of the heaps `0..=n` and what the construction keeps to
/// extend it.
#[derive(Debug, Clone)]
pub(crate) struct Construction {
    moves: Moves,
    max_order: usize,
    pub(crate) monoid: Monoid,
    /// `partners[x] = {z : x z in P}`.
    partners: Vec<Bits>,
    /// `Phi(0), ..., Phi(n)`.
    pub(crate) pretending: Vec<Element>,
    /// The type of each heap.
    heap_type: Vec<u32>,
    /// The types of the heaps (image and options' images), each with the
    /// first heap of its kind.
    pub(crate) types: Vec<HeapType>,
    first_heap: Vec<u64>,
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
    /// `stop` is asked between the candidates tried: when it says so, the
    /// heap is given up ([`Limit::Interrupted`]).
    pub(crate) fn push_heap(&mut self, stop: &mut dyn FnMut() -> bool) -> Result<(), Ended> {
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
        self.adjoin(n, stop)
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

    /// The current quotient as a base for `extend`.
    fn base(&self) -> Base {
        Base {
            monoid: self.monoid.clone(),
            heap_images: self.pretending.clone(),
            heap_options: self
                .heap_type
                .iter()
                .map(|&t| self.types[t as usize].options.clone())
                .collect(),
            generators: self.generators.iter().map(|g| g.element).collect(),
        }
    }

    /// Adjoins heap `n` as a new generator (or as an old element the
    /// fitting theorem missed), proven before it is kept. A refuted
    /// candidate is built again on finer bases (`refine`), in turn: by the
    /// escape profiles of the last candidate on this line of bases, by the
    /// counts of the heaps of the most recent types (one more each time),
    /// by the counts of the heaps of the types of the sums the candidates
    /// failed on, and by the options' classes in the last candidate on its
    /// line; at most [`MAX_REFINEMENTS`] bases in all.
    fn adjoin(&mut self, n: u64, stop: &mut dyn FnMut() -> bool) -> Result<(), Ended> {
        let first = self.base();
        let mut recent: Vec<usize> = (0..self.types.len())
            .filter(|&t| !self.types[t].options.is_empty())
            .collect();
        recent.sort_by_key(|&t| std::cmp::Reverse(self.first_heap[t]));
        let mut escapes = first.clone();
        let mut options_line: Option<Base> = None;
        let mut failed: Vec<Counter> = Vec::new();
        let mut base = first.clone();
        let mut last_limit = Ended::Stopped {
            heap: n,
            why: Limit::Refuted,
        };
        for attempt in 0..=MAX_REFINEMENTS {
            if attempt > 0 && stop() {
                return Err(Ended::Stopped {
                    heap: n,
                    why: Limit::Interrupted,
                });
            }
            let outcome = self.attempt(n, &base, stop);
            let (rows, smaller) = match outcome {
                Attempt::Proven(candidate) => {
                    *self = *candidate;
                    return Ok(());
                }
                Attempt::Limit(ended) if ended.stopped_why() == Some(Limit::Interrupted) => {
                    return Err(ended);
                }
                Attempt::Limit(ended) => {
                    // A limit on this base: the next kind of base may fit.
                    // The order limit is the one to report (the user can
                    // raise it), then the working limits.
                    if last_limit.stopped_why() != Some(Limit::Order) {
                        last_limit = ended;
                    }
                    (None, None)
                }
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
            let next = match attempt % 4 {
                // After the first or an escape refinement: refine by the
                // escape profiles of this candidate.
                0 => match rows {
                    Some(rows) if attempt == 0 || base.monoid.order() == escapes.monoid.order() => {
                        escapes = base
                            .refine_by_escapes(&self.moves, &rows)
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
                                .map(|h| self.heap_type[h] as usize == t)
                                .collect(),
                            index: 3,
                            period: 2,
                        })
                        .collect();
                    first.refine_by_counts(&self.moves, &counters)
                }
                2 => first.refine_by_counts(&self.moves, &failed),
                _ => options_line
                    .as_ref()
                    .and_then(|b| b.refine_by_options(&self.moves)),
            };
            base = match next {
                Some(next) => next,
                None => first.clone(),
            };
        }
        Err(last_limit)
    }

    /// One candidate for heap `n` on `base`, and its proof.
    fn attempt(&self, n: u64, base: &Base, stop: &mut dyn FnMut() -> bool) -> Attempt {
        let stopped = Attempt::Limit(Ended::Stopped {
            heap: n,
            why: Limit::Interrupted,
        });
        let options = base.option_images(&self.moves, n);
        let letters = base_letters(base);
        let extension = match extend::adjoin(
            &base.monoid,
            &base.generators,
            &letters,
            &options,
            self.max_order,
            stop,
        ) {
            Ok(extension) => extension,
            Err(NoExtension::Stopped) => return stopped,
            Err(NoExtension::Order) => {
                return Attempt::Limit(Ended::Stopped {
                    heap: n,
                    why: Limit::Order,
                });
            }
            Err(NoExtension::Size) => {
                return Attempt::Limit(Ended::Stopped {
                    heap: n,
                    why: Limit::Work,
                });
            }
        };
        let map = |xs: &[Element]| -> Vec<Element> {
            let mut out: Vec<Element> = xs.iter().map(|&x| extension.map[usize::from(x)]).collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let mut images: Vec<Element> = base
            .heap_images
            .iter()
            .map(|&b| extension.map[usize::from(b)])
            .collect();
        images.push(extension.image);
        let mut heap_options: Vec<Vec<Element>> =
            base.heap_options.iter().map(|o| map(o)).collect();
        let smaller = Base {
            monoid: extension.monoid.clone(),
            heap_images: images[..n as usize].to_vec(),
            heap_options: heap_options.clone(),
            generators: Vec::new(),
        };
        heap_options.push(map(&options));
        let mut candidate = self.clone();
        candidate.rebuild(extension.monoid, images, heap_options);
        let required = candidate.heap_type[n as usize] as usize;
        let proof = verify::prove(
            &candidate.monoid,
            &candidate.partners,
            &candidate.types,
            Some(required),
            stop,
        );
        match proof {
            Ok(()) => Attempt::Proven(Box::new(candidate)),
            Err(Unproven::Stopped) => stopped,
            Err(Unproven::TooManyStates) => Attempt::Limit(Ended::Stopped {
                heap: n,
                why: Limit::Work,
            }),
            Err(Unproven::Wrong(types)) => Attempt::Refuted {
                rows: extension.rows,
                types,
                heap_types: candidate.heap_type,
                smaller: Box::new(smaller),
            },
        }
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

/// How one candidate fared.
enum Attempt {
    /// Proven: the new quotient.
    Proven(Box<Construction>),
    /// A limit stopped it.
    Limit(Ended),
    /// Refuted: its rows over the base, the types of a sum it fails on,
    /// the type of each heap, and its classes of the smaller heaps (a base).
    Refuted {
        rows: Vec<Bits>,
        types: Vec<usize>,
        heap_types: Vec<u32>,
        smaller: Box<Base>,
    },
}

/// `H = {u : u s in P for some s in options}`.
fn escapes_of(partners: &[Bits], options: &[Element]) -> Bits {
    let mut out = Bits::new(partners.len());
    for &s in options {
        out.union_with(&partners[usize::from(s)]);
    }
    out
}

/// The letters of least representatives in a base: for each image of a
/// heap with options, its smallest heap.
fn base_letters(base: &Base) -> Vec<Letter<'_>> {
    letters(
        base.heap_images
            .iter()
            .zip(&base.heap_options)
            .enumerate()
            .map(|(h, (&x, o))| (x, h as u64, &o[..])),
    )
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
