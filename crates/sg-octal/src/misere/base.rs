//! A *base* for a new generator: a commutative monoid of the sums of the
//! smaller heaps that tells apart at least the sums the new heap tells
//! apart, given by a presentation (`rewrite`) and enumerated element by
//! element, without a product table.
//!
//! Its symbols are the generators of the quotient of the smaller heaps and
//! heaps *set free* (`adjoin`); each heap is a monomial in them (its
//! element's normal form in the quotient, or its own symbol when set
//! free); the equations are some of the quotient's relations and a cycle
//! `s^(i+p) = s^i` for each symbol. Every equation holds in the quotient,
//! so each element of the base has a *value* there, and the base predicts
//! the outcome of every sum of the smaller heaps as the quotient does.
//!
//! The elements are the normal forms reached from the empty sum by the
//! heaps (the *letters*: one heap for each distinct monomial), numbered
//! in the order met; a table `step` gives each element times each letter,
//! and each element keeps the letter that first reached it, so a product
//! is a walk along the other factor's letters.

use std::collections::HashMap;

use super::monoid::{Element, IDENTITY, Monoid};
use super::rewrite::System;

/// A heap standing for its monomial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Letter {
    /// The smallest heap of its monomial.
    pub(crate) heap: u64,
    /// Its element.
    pub(crate) element: u32,
}

/// The base's elements and their products by the letters.
#[derive(Debug, Clone)]
pub(crate) struct Base {
    symbols: usize,
    /// The normal forms, `symbols` exponents each.
    forms: Vec<u32>,
    ids: HashMap<Box<[u32]>, u32>,
    /// Each element's value in the quotient of the smaller heaps.
    value: Vec<Element>,
    /// Whether the value is in the P-portion.
    lost: Vec<bool>,
    /// The element of each heap `0..n`.
    heap_element: Vec<u32>,
    pub(crate) letters: Vec<Letter>,
    /// `step[e * letters + l]`: element `e` times letter `l`.
    step: Vec<u32>,
    /// The element and letter that first reached each element.
    parent: Vec<(u32, u32)>,
}

/// The least representatives of a base's elements.
#[derive(Debug, Clone)]
pub(crate) struct Reps {
    /// The elements by increasing weight of their least representative.
    pub(crate) by_weight: Vec<u32>,
    /// `R(x) = R(parent) + letter`.
    parent: Vec<(u32, u32)>,
}

impl Reps {
    /// The letters (indices) of `R(x)`.
    pub(crate) fn letters_of(&self, x: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = x;
        while at != 0 {
            let (up, l) = self.parent[at as usize];
            out.push(l);
            at = up;
        }
        out
    }

    /// The heaps of `R(x)`.
    pub(crate) fn heaps_of(&self, base: &Base, x: u32) -> Vec<u64> {
        self.letters_of(x)
            .into_iter()
            .map(|l| base.letters[l as usize].heap)
            .collect()
    }
}

/// The base would have more elements than allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooLarge;

impl Base {
    /// The base of `system` over symbols whose values in `quotient` are
    /// `values`, with `monomials[h]` each heap's monomial (zero for a heap
    /// with no move), at most `limit` elements; `stop` is asked now and
    /// then, and a `true` gives up (as [`TooLarge`]: the caller asked).
    pub(crate) fn new(
        quotient: &Monoid,
        values: &[Element],
        system: &System,
        monomials: &[Vec<u32>],
        limit: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Base, TooLarge> {
        let symbols = values.len();
        let mut base = Base {
            symbols,
            forms: Vec::new(),
            ids: HashMap::new(),
            value: Vec::new(),
            lost: Vec::new(),
            heap_element: Vec::with_capacity(monomials.len()),
            letters: Vec::new(),
            step: Vec::new(),
            parent: Vec::new(),
        };
        // The values of each symbol's powers, as far as the forms reach.
        let mut powers: Vec<Vec<Element>> = values.iter().map(|_| vec![IDENTITY]).collect();
        let mut value_of = |form: &[u32]| -> Element {
            let mut x = IDENTITY;
            for (s, &e) in form.iter().enumerate() {
                while powers[s].len() <= e as usize {
                    let last = *powers[s].last().expect("the identity");
                    powers[s].push(quotient.mul(last, values[s]));
                }
                x = quotient.mul(x, powers[s][e as usize]);
            }
            x
        };
        let zero = vec![0u32; symbols];
        let v = value_of(&zero);
        base.intern(&zero, v, quotient, (0, u32::MAX));
        for monomial in monomials {
            let mut form = monomial.clone();
            system.reduce(&mut form);
            let id = match base.ids.get(form.as_slice()) {
                Some(&id) => id,
                None => {
                    let v = value_of(&form);
                    let id = base.intern(&form, v, quotient, (0, base.letters.len() as u32));
                    base.letters.push(Letter {
                        heap: base.heap_element.len() as u64,
                        element: id,
                    });
                    id
                }
            };
            base.heap_element.push(id);
        }
        // The closure under the letters, in order of discovery.
        let letters = base.letters.clone();
        let mut at = 0usize;
        let mut form = vec![0u32; symbols];
        while at < base.value.len() {
            if at.is_multiple_of(1024) && stop() {
                return Err(TooLarge);
            }
            for (l, letter) in letters.iter().enumerate() {
                let e = letter.element as usize;
                let (x, y) = (
                    &base.forms[at * symbols..(at + 1) * symbols],
                    &base.forms[e * symbols..(e + 1) * symbols],
                );
                for (f, (a, b)) in form.iter_mut().zip(x.iter().zip(y)) {
                    *f = a + b;
                }
                system.reduce(&mut form);
                let id = match base.ids.get(form.as_slice()) {
                    Some(&id) => id,
                    None => {
                        if base.value.len() >= limit {
                            return Err(TooLarge);
                        }
                        let v = value_of(&form);
                        base.intern(&form, v, quotient, (at as u32, l as u32))
                    }
                };
                base.step.push(id);
            }
            at += 1;
        }
        Ok(base)
    }

    /// The base given by a monoid with a product table (a refined base,
    /// `refine`): its elements are the monoid's, `lost` its P-portion,
    /// `heap_element[h]` each heap's element (the identity for a heap with
    /// no move). `None` when some element is not a product of heaps' elements
    /// (a base is the image of the sums of the heaps).
    pub(crate) fn from_monoid(monoid: &Monoid, heap_element: &[Element]) -> Option<Base> {
        let len = monoid.order();
        let mut letters: Vec<Letter> = Vec::new();
        for (h, &x) in heap_element.iter().enumerate() {
            if x != IDENTITY && !letters.iter().any(|l| l.element == u32::from(x)) {
                letters.push(Letter {
                    heap: h as u64,
                    element: u32::from(x),
                });
            }
        }
        let mut step = Vec::with_capacity(len * letters.len());
        for e in monoid.elements() {
            for l in &letters {
                step.push(u32::from(monoid.mul(e, l.element as Element)));
            }
        }
        // Each element's first path from the identity, breadth first.
        let mut parent = vec![(0u32, u32::MAX); len];
        let mut reached = vec![false; len];
        reached[usize::from(IDENTITY)] = true;
        let mut queue = std::collections::VecDeque::from([u32::from(IDENTITY)]);
        while let Some(e) = queue.pop_front() {
            for l in 0..letters.len() {
                let y = step[e as usize * letters.len() + l];
                if !reached[y as usize] {
                    reached[y as usize] = true;
                    parent[y as usize] = (e, l as u32);
                    queue.push_back(y);
                }
            }
        }
        if reached.iter().any(|&r| !r) {
            return None;
        }
        Some(Base {
            symbols: 0,
            forms: Vec::new(),
            ids: HashMap::new(),
            value: monoid.elements().collect(),
            lost: monoid.elements().map(|x| monoid.is_p(x)).collect(),
            heap_element: heap_element.iter().map(|&x| u32::from(x)).collect(),
            letters,
            step,
            parent,
        })
    }

    fn intern(
        &mut self,
        form: &[u32],
        value: Element,
        quotient: &Monoid,
        parent: (u32, u32),
    ) -> u32 {
        let id = self.value.len() as u32;
        self.ids.insert(form.into(), id);
        self.forms.extend_from_slice(form);
        self.value.push(value);
        self.lost.push(quotient.is_p(value));
        self.parent.push(parent);
        id
    }

    /// The number of elements.
    pub(crate) fn len(&self) -> usize {
        self.value.len()
    }

    /// Element `e` times letter `l`.
    #[inline]
    pub(crate) fn step(&self, e: u32, l: usize) -> u32 {
        self.step[e as usize * self.letters.len() + l]
    }

    /// The product `a b`: `a` times the letters of `b`'s path.
    pub(crate) fn mul(&self, a: u32, b: u32) -> u32 {
        let mut x = a;
        let mut at = b;
        while at != 0 {
            let (up, l) = self.parent[at as usize];
            x = self.step(x, l as usize);
            at = up;
        }
        x
    }

    /// Whether the sums of element `e` are lost by the player to move.
    #[inline]
    pub(crate) fn is_lost(&self, e: u32) -> bool {
        self.lost[e as usize]
    }

    /// The element of heap `h` (below the new heap).
    pub(crate) fn heap_element(&self, h: u64) -> u32 {
        self.heap_element[h as usize]
    }

    /// The element of a sum of heaps.
    pub(crate) fn of_heaps(&self, heaps: &[u64]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.mul(x, self.heap_element(h)))
    }

    /// The least representative of every element: the sum of letters of
    /// least weight (a heap of `h` tokens weighs `2h - 1`, see `reps`), by
    /// Dijkstra's algorithm.
    pub(crate) fn reps(&self) -> Reps {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = self.len();
        let mut dist = vec![u64::MAX; n];
        let mut parent = vec![(0u32, u32::MAX); n];
        let mut done = vec![false; n];
        let mut by_weight = Vec::with_capacity(n);
        let mut queue = BinaryHeap::new();
        dist[0] = 0;
        queue.push(Reverse((0u64, 0u32)));
        while let Some(Reverse((d, x))) = queue.pop() {
            if done[x as usize] {
                continue;
            }
            done[x as usize] = true;
            by_weight.push(x);
            for (l, letter) in self.letters.iter().enumerate() {
                let y = self.step(x, l);
                let nd = d + 2 * letter.heap - 1;
                if nd < dist[y as usize] {
                    dist[y as usize] = nd;
                    parent[y as usize] = (x, l as u32);
                    queue.push(Reverse((nd, y)));
                }
            }
        }
        Reps { by_weight, parent }
    }

    /// The bytes the base takes (roughly).
    pub(crate) fn bytes(&self) -> usize {
        let n = self.len();
        n * (self.symbols * 8 + self.letters.len() * 4 + 8 + 2 + 1 + 48)
    }
}
