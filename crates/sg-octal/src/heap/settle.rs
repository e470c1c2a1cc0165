//! The settling: a heap's value from its candidates, adding, heap by heap
//! in order, the options that leave a heap at or above the `n` of the
//! candidates' state.

use super::super::kernels;
use super::super::moves::Moves;
use super::super::sparse::Sparse;
use super::{Candidates, RareMarks, Scratch, first_unreached};

/// How [`settle`] found a heap's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// The first candidate.
    First,
    /// A later candidate (the first was reached by an option into the
    /// batch).
    Later,
    /// Every candidate was reached: the heap was computed anew.
    Recomputed,
}

/// `G(h)` for `h = values.len()`, given the candidates of
/// `first_unreached(...)` computed with the values below `n`: adds the
/// options leaving a heap `>= n` and recomputes the heap in full if they
/// reach every candidate.
pub(crate) fn settle(
    sparse: &Sparse,
    moves: &Moves,
    values: &[u16],
    n: usize,
    candidates: &Candidates,
    marks: Option<&RareMarks>,
    scratch: &mut Scratch,
) -> (usize, Settled) {
    let h = values.len();
    if h == n {
        return (candidates.first(), Settled::First);
    }
    let mut reached = 0u32;
    for &i in &moves.single {
        if let Some(r) = h.checked_sub(i as usize).filter(|&r| r >= n) {
            reached |= candidates.hits(values[r]);
        }
    }
    for &i in &moves.pair {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        // Splits {a, r - a} with r - a >= n: 1 <= a <= r - n.
        let m = r.saturating_sub(n).min(r.saturating_sub(1));
        if moves.unequal {
            for a in (1..=m).filter(|&a| 2 * a != r) {
                reached |= candidates.hits(values[a] ^ values[r - a]);
            }
        } else if m > 0 {
            reached |= kernels::splits_reach(values, r, m, &candidates.values[..candidates.len]);
        }
    }
    for &i in &moves.triple {
        let Some(r) = h.checked_sub(i as usize) else {
            continue;
        };
        let small = r.saturating_sub(n);
        for a in 1..=small {
            for b in a..=small - a {
                let c = r - a - b;
                if b <= c {
                    reached |= candidates.hits(values[a] ^ values[b] ^ values[c]);
                }
            }
        }
    }
    match candidates.first_not(reached) {
        Some(g) if g == candidates.first() => (g, Settled::First),
        Some(g) => (g, Settled::Later),
        None => (
            first_unreached(sparse, moves, values, h, 1, marks, scratch).first(),
            Settled::Recomputed,
        ),
    }
}
