//! Sums of heaps: who wins, and a winning move (which heap, how many
//! tokens taken, the heaps left), from the heaps' Grundy values.
//!
//! A move must bring the XOR of the values to 0: in a heap `h` with
//! `G(h) ^ X < G(h)` (`X` the XOR of all values), an option of value
//! `G(h) ^ X` exists by the definition of the mex. For a heap answered
//! through a certified period `(e, p)`, the splits need only be searched
//! with their smaller parts below `max(e, 1) + p`: a smaller part
//! `a >= max(e, 1) + p` can be moved `p` tokens to the largest part (both
//! stay at least `max(e, 1)`, in the periodic range) without changing the
//! option's value, so every value of a split is reached with smaller parts
//! below that span.

use std::ops::ControlFlow;

use super::moves::Moves;
use super::{OctalError, PeriodicSequence, Rules, Sequence};

/// Grundy values of heaps, for [`winning_move`].
pub trait HeapValues {
    /// `G(heap)`, or `None` if not known.
    fn value(&self, heap: u64) -> Option<u16>;
    /// How far splits must be searched: every option value of every heap
    /// is reached by a split whose smaller parts are at most this.
    fn span(&self) -> u64;
}

impl HeapValues for [u16] {
    fn value(&self, heap: u64) -> Option<u16> {
        self.get(usize::try_from(heap).ok()?).copied()
    }
    fn span(&self) -> u64 {
        u64::MAX
    }
}

impl HeapValues for PeriodicSequence {
    fn value(&self, heap: u64) -> Option<u16> {
        Some(PeriodicSequence::value(self, heap))
    }
    fn span(&self) -> u64 {
        let p = self.period();
        p.preperiod.max(1) + p.period - 1
    }
}

impl HeapValues for Sequence {
    fn value(&self, heap: u64) -> Option<u16> {
        Sequence::value(self, heap)
    }
    fn span(&self) -> u64 {
        self.period()
            .map_or(u64::MAX, |p| p.preperiod.max(1) + p.period - 1)
    }
}

/// A move in a sum of heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapMove {
    /// The index (in the list given) of the heap moved in.
    pub heap: usize,
    /// How many tokens are taken (0 for a split by `d0 = 4` or in Grundy's
    /// game).
    pub take: u64,
    /// The heaps left in its place (none, one, two or three, nondecreasing).
    pub leaves: Vec<u64>,
}

/// A winning move in the sum of `heaps`, or `None` if the sum is lost
/// (its values XOR to 0). Fails with [`OctalError::TooManyHeaps`] naming a
/// heap whose value `values` does not know.
pub fn winning_move<V: HeapValues + ?Sized>(
    rules: &Rules,
    values: &V,
    heaps: &[u64],
) -> Result<Option<HeapMove>, OctalError> {
    let value = |h: u64| values.value(h).ok_or(OctalError::TooManyHeaps { heap: h });
    let mut total = 0u16;
    for &h in heaps {
        total ^= value(h)?;
    }
    if total == 0 {
        return Ok(None);
    }
    // The heap to move and the value to move it to (sg_nimber::sum).
    let Some((index, target)) =
        sg_nimber::sum::try_component_to_move(heaps.iter().map(|&h| value(h)), total)?
    else {
        return Ok(None);
    };
    let h = heaps[index];
    let mut found = None;
    let mut failure = None;
    let _ = Moves::new(rules).for_each_option(h, values.span(), |take, parts| {
        let mut x = 0u16;
        for &part in parts {
            match value(part) {
                Ok(v) => x ^= v,
                Err(e) => {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
            }
        }
        if x == target {
            found = Some(HeapMove {
                heap: index,
                take,
                leaves: parts.to_vec(),
            });
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if found.is_some() {
        return Ok(found);
    }
    // A heap with G(h) ^ X < G(h) has an option of that value (mex): only
    // values that are not a Grundy sequence of these rules get here.
    Err(OctalError::BadValues {
        reason: format!("no winning move found in {heaps:?}: the values are not those of {rules}"),
    })
}
