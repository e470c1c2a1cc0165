//! A finite commutative monoid with a marked subset, the *bipartite
//! monoid* `(Q, P)` of Plambeck and Siegel: the elements are the ids
//! `0..order` (0 the identity), the product is a full table, and `P` (the
//! P-portion) is the set of the elements whose positions the player to
//! move loses.
//!
//! The table takes `2 * order^2` bytes: 2 MiB at the default order limit
//! (1024), 32 MiB at the largest (4096).

use super::bits::Bits;

/// An element of a quotient: its id, `0..order`; 0 is the identity.
pub type Element = u16;

/// The identity element (the empty sum; the class of the game 0).
pub const IDENTITY: Element = 0;

/// A finite commutative monoid `Q` with its P-portion `P`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monoid {
    order: usize,
    /// `table[a * order + b] = a * b`.
    table: Vec<Element>,
    p: Bits,
}

impl Monoid {
    /// The trivial quotient `{1}`, `P` empty: the quotient of the game 0
    /// alone (the player to move in 0 cannot move, and wins in misère play).
    pub(crate) fn trivial() -> Monoid {
        Monoid {
            order: 1,
            table: vec![IDENTITY],
            p: Bits::new(1),
        }
    }

    /// The monoid with this product table and P-portion, trusted to be
    /// commutative, associative, with identity 0 (checked in tests).
    pub(crate) fn from_table(order: usize, table: Vec<Element>, p: Bits) -> Monoid {
        debug_assert_eq!(table.len(), order * order);
        Monoid { order, table, p }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The product `a * b`.
    #[inline]
    pub fn mul(&self, a: Element, b: Element) -> Element {
        self.table[usize::from(a) * self.order + usize::from(b)]
    }

    /// `a^k`.
    pub fn pow(&self, a: Element, k: u64) -> Element {
        let (index, period) = self.cycle(a);
        let k = if k > index as u64 {
            index as u64 + (k - index as u64) % period as u64
        } else {
            k
        };
        (0..k).fold(IDENTITY, |x, _| self.mul(x, a))
    }

    /// Whether `a` is in the P-portion: a sum of heaps whose product is
    /// `a` is lost by the player to move.
    #[inline]
    pub fn is_p(&self, a: Element) -> bool {
        self.p.contains(usize::from(a))
    }

    /// The number of elements of the P-portion.
    pub fn p_count(&self) -> usize {
        self.p.iter().count()
    }

    /// The elements, `0..order`.
    pub fn elements(&self) -> impl Iterator<Item = Element> + use<> {
        (0..self.order).map(|a| a as Element)
    }

    /// `{r : a * r in set}`.
    pub(crate) fn preimage(&self, set: &Bits, a: Element) -> Bits {
        let mut out = Bits::new(self.order);
        let row = &self.table[usize::from(a) * self.order..][..self.order];
        for (r, &ar) in row.iter().enumerate() {
            if set.contains(usize::from(ar)) {
                out.insert(r);
            }
        }
        out
    }

    /// `{r : a * r in P}`: the elements that make `a` a P-position.
    pub(crate) fn partners(&self, a: Element) -> Bits {
        self.preimage(&self.p, a)
    }

    /// The index `i` and period `p` of the powers of `a`: `a^(i + p) = a^i`
    /// with both smallest (`1, a, a^2, ...` is periodic from `i`).
    pub(crate) fn cycle(&self, a: Element) -> (usize, usize) {
        let mut seen = vec![usize::MAX; self.order];
        let mut x = IDENTITY;
        let mut k = 0;
        loop {
            if seen[usize::from(x)] != usize::MAX {
                let i = seen[usize::from(x)];
                return (i, k - i);
            }
            seen[usize::from(x)] = k;
            x = self.mul(x, a);
            k += 1;
        }
    }

    /// The bytes the monoid takes.
    pub(crate) fn bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Element>() + self.p.bytes()
    }

    /// Checks the laws (identity, commutativity, associativity): for tests.
    #[cfg(test)]
    pub(crate) fn check_laws(&self) {
        for a in self.elements() {
            assert_eq!(self.mul(IDENTITY, a), a);
            for b in self.elements() {
                assert_eq!(self.mul(a, b), self.mul(b, a), "commutative");
                for c in self.elements() {
                    assert_eq!(
                        self.mul(self.mul(a, b), c),
                        self.mul(a, self.mul(b, c)),
                        "associative"
                    );
                }
            }
        }
    }
}
