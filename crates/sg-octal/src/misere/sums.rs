//! Sums of heaps in misère play: who wins, and a move to a position the
//! player to move then loses.
//!
//! A sum is lost by the player to move iff the product of its heaps'
//! elements is in the P-portion. From a sum that is won, a winning move
//! replaces a heap `h` by an option `o` with `Phi(X - h) Phi(o)` in `P`;
//! the quotient being exact, such an option exists (by the definition of
//! the outcome, every won sum has an option that is lost). Heaps answered
//! through a certified period have their splits searched with the smaller
//! parts below `e' + p` (see the `period` module), so any heap below 2^63
//! costs the same.

use std::ops::ControlFlow;

use super::monoid::{Element, IDENTITY};
use super::{MisereError, MisereQuotient};
use crate::{HeapMove, Moves};

impl MisereQuotient {
    /// The element of the sum of `heaps`; fails with
    /// [`MisereError::NotExact`] naming the first heap the quotient does not
    /// cover.
    pub fn element_of_sum(&self, heaps: &[u64]) -> Result<Element, MisereError> {
        let mut x = IDENTITY;
        for &h in heaps {
            x = self.monoid().mul(x, self.heap(h)?);
        }
        Ok(x)
    }

    /// Whether the sum of `heaps` is lost by the player to move. Fails with
    /// [`MisereError::NotExact`] if a heap is beyond the heaps the quotient
    /// is exact for.
    pub fn is_lost(&self, heaps: &[u64]) -> Result<bool, MisereError> {
        Ok(self.monoid().is_p(self.element_of_sum(heaps)?))
    }

    /// A move to a sum the player to move loses in misère play (the heap's
    /// index in `heaps`, the tokens taken, the heaps left), or `None` if
    /// the sum of `heaps` is itself lost, or has no move at all (then the
    /// player to move, who cannot move, wins). Fails with
    /// [`MisereError::NotExact`] if a heap is beyond the heaps the quotient
    /// is exact for.
    pub fn winning_move(&self, heaps: &[u64]) -> Result<Option<HeapMove>, MisereError> {
        let elements: Vec<Element> = heaps
            .iter()
            .map(|&h| self.heap(h))
            .collect::<Result<_, _>>()?;
        let monoid = self.monoid();
        let total = elements.iter().fold(IDENTITY, |x, &y| monoid.mul(x, y));
        if monoid.is_p(total) {
            return Ok(None);
        }
        // The products of the heaps before and after each heap.
        let mut after = vec![IDENTITY; elements.len() + 1];
        for i in (0..elements.len()).rev() {
            after[i] = monoid.mul(elements[i], after[i + 1]);
        }
        let span = self.period().map_or(u64::MAX, |p| super::period::span(&p));
        let moves = Moves::new(self.rules());
        let mut before = IDENTITY;
        for (i, &h) in heaps.iter().enumerate() {
            let rest = monoid.mul(before, after[i + 1]);
            let mut found = None;
            let _ = moves.for_each_option(h, span, |take, parts| {
                // Every part is at most h, so covered like h.
                let x = parts.iter().fold(rest, |acc, &part| {
                    monoid.mul(acc, self.heap(part).expect("parts of a covered heap"))
                });
                if monoid.is_p(x) {
                    found = Some(HeapMove {
                        heap: i,
                        take,
                        leaves: parts.to_vec(),
                    });
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if found.is_some() {
                return Ok(found);
            }
            before = monoid.mul(before, elements[i]);
        }
        // A won sum with no lost option: only a sum with no move at all
        // (the game 0, whose player to move wins).
        let mut any = false;
        for &h in heaps {
            let _ = moves.for_each_option(h, 1, |_, _| {
                any = true;
                ControlFlow::Break(())
            });
        }
        if any {
            return Err(MisereError::NoWinningMove);
        }
        Ok(None)
    }

    /// The element of one heap, or the error naming it.
    fn heap(&self, heap: u64) -> Result<Element, MisereError> {
        self.element_of_heap(heap).ok_or(MisereError::NotExact {
            heap,
            computed_to: self.computed_to(),
        })
    }
}
